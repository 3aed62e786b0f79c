//! Web Push: a notice reaches a person whose pages are closed, through their browser's
//! push service, and the site's service worker shows it.
//!
//! A browser subscribes with the server's VAPID public key (`GET /api/push/key`) and hands
//! the server its subscription (`POST /api/push/subscriptions`): the push service's address
//! (the endpoint) and the browser's keys. Each notice ([`crate::notices`]) is then sent to
//! every subscription of its person: encrypted for the browser alone (RFC 8291, `aes128gcm`)
//! and signed with the server's key (RFC 8292, VAPID), built by the `web-push` crate and
//! posted by hyper. The VAPID key pair is made once and kept in the database (`meta`), so
//! every server of a cluster signs with the same key and subscriptions outlive restarts.
//!
//! Bounds: [`PER_PERSON`] subscriptions an account (one more is refused), endpoints of [`MAX_ENDPOINT`] bytes, messages of [`MAX_PAYLOAD`] bytes,
//! [`crate::Limits::push_sends`] messages in flight on the whole server (a notice finding
//! them all busy is not pushed: the pages still read it) and
//! [`crate::Limits::push_timeout`] for each. A push service answering 404 or 410 says the
//! subscription is gone: it is deleted. Only `https://` push services on a named host are
//! taken, unless [`crate::Limits::push_loopback`] (tests) lets `http://127.0.0.1` in.

use crate::notices::Notice;
use crate::store::{Db, DbError};
use base64::Engine;
use http_body_util::Full;
use hyper::body::Bytes;
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::TokioExecutor;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OnceCell, Semaphore};
use web_push::{PartialVapidSignatureBuilder, VapidSignatureBuilder};

mod store;

/// Subscriptions kept per account (browsers, devices); one more is refused.
pub const PER_PERSON: usize = 10;
/// The longest endpoint taken, in bytes (the push services' are about 200).
pub const MAX_ENDPOINT: usize = 1024;
/// The largest message sent, before encryption, in bytes (push services take about 4 KB
/// once encrypted).
pub const MAX_PAYLOAD: usize = 3000;
/// How long a push service keeps a message for a browser that is offline: a notice older
/// than this is stale (a turn long gone).
pub const TTL_S: u32 = 6 * 3600;
/// How long the VAPID signature of a message is valid (RFC 8292 allows at most 24 h).
pub const SIGNATURE_S: u64 = 12 * 3600;

/// A browser's subscription, as its `PushSubscription.toJSON()` gives it (`expirationTime`
/// is read and not kept); `lang` is the language its pages speak, for the service worker
/// to word the notices in.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Subscription {
    pub endpoint: String,
    #[serde(default, rename = "expirationTime")]
    pub expiration_time: Option<serde_json::Value>,
    pub keys: Keys,
    #[serde(default)]
    pub lang: Option<String>,
}

/// A subscription's keys, base64url: the browser's P-256 public key and its auth secret.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keys {
    pub p256dh: String,
    pub auth: String,
}

/// A subscription as stored: where to send, the keys, the pages' language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    pub lang: String,
}

/// What a push message carries (JSON, encrypted): the stored notice's id, what, where,
/// its words' arguments, and the language to word it in.
#[derive(Clone, Debug, Serialize)]
pub struct Message<'a> {
    pub id: i64,
    #[serde(flatten)]
    pub notice: &'a Notice,
    pub lang: &'a str,
}

/// Why a subscription is refused: the endpoint, or the keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    Endpoint(String),
    Keys(String),
}

fn b64() -> base64::engine::GeneralPurpose {
    base64::engine::GeneralPurpose::new(
        &base64::alphabet::URL_SAFE,
        base64::engine::GeneralPurposeConfig::new()
            .with_encode_padding(false)
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    )
}

/// Base64url without padding, as Web Push writes keys.
pub fn base64url(bytes: &[u8]) -> String {
    b64().encode(bytes)
}

impl Subscription {
    /// The subscription checked: an endpoint this server sends to (see [`check_endpoint`])
    /// and keys of the right form, made canonical (base64url without padding); the
    /// language one the pages speak, else English.
    pub fn checked(&self, loopback: bool) -> Result<Stored, Refused> {
        check_endpoint(&self.endpoint, loopback).map_err(Refused::Endpoint)?;
        let p256dh = b64()
            .decode(self.keys.p256dh.trim())
            .ok()
            .filter(|k| k.len() == 65 && k[0] == 4)
            .ok_or_else(|| {
                Refused::Keys("keys.p256dh is not an uncompressed P-256 key (base64url)".into())
            })?;
        let auth = b64()
            .decode(self.keys.auth.trim())
            .ok()
            .filter(|k| k.len() == 16)
            .ok_or_else(|| Refused::Keys("keys.auth is not 16 bytes (base64url)".into()))?;
        let lang = self
            .lang
            .as_deref()
            .and_then(crate::lang::Lang::parse)
            .unwrap_or(crate::lang::Lang::En);
        Ok(Stored {
            endpoint: self.endpoint.clone(),
            p256dh: base64url(&p256dh),
            auth: base64url(&auth),
            lang: lang.code().to_string(),
        })
    }
}

/// Whether the server sends to `endpoint`: a URL of at most [`MAX_ENDPOINT`] bytes, `https`
/// on a named host (not an address, not `localhost`: a push service, not a machine of the
/// server's network); with `loopback`, also `http` on this machine (tests).
pub fn check_endpoint(endpoint: &str, loopback: bool) -> Result<(), String> {
    if endpoint.len() > MAX_ENDPOINT {
        return Err(format!("the endpoint is longer than {MAX_ENDPOINT} bytes"));
    }
    let uri: hyper::Uri = endpoint
        .parse()
        .map_err(|_| "the endpoint is not a URL".to_string())?;
    let host = uri.host().unwrap_or("").to_ascii_lowercase();
    let local = matches!(host.as_str(), "127.0.0.1" | "localhost" | "[::1]" | "::1");
    match uri.scheme_str() {
        Some("http") if loopback && local => Ok(()),
        Some("https") if !host.is_empty() => {
            let address = host.parse::<std::net::IpAddr>().is_ok()
                || host.starts_with('[')
                || host.trim_end_matches('.').ends_with("localhost");
            if address && !(loopback && local) {
                Err("the endpoint names an address, not a push service".into())
            } else {
                Ok(())
            }
        }
        _ => Err("the endpoint is not an https:// URL of a push service".into()),
    }
}

/// The origin of `endpoint` (scheme, host and a port other than the scheme's), the
/// audience of a VAPID signature.
pub fn origin(endpoint: &hyper::Uri) -> Option<String> {
    let scheme = endpoint.scheme_str()?;
    let host = endpoint.host()?;
    Some(match endpoint.port_u16() {
        Some(p) if !matches!((scheme, p), ("https", 443) | ("http", 80)) => {
            format!("{scheme}://{host}:{p}")
        }
        _ => format!("{scheme}://{host}"),
    })
}

type HttpsClient = Client<hyper_tls::HttpsConnector<HttpConnector>, Full<Bytes>>;

/// The server's Web Push sender: its VAPID key (read from the database at first use), an
/// HTTP client, and the bound on messages in flight.
pub struct Push {
    key: OnceCell<PartialVapidSignatureBuilder>,
    client: HttpsClient,
    sending: Arc<Semaphore>,
    timeout: Duration,
    contact: Option<String>,
    /// Whether `http://127.0.0.1` push services are taken (tests).
    pub loopback: bool,
}

impl Push {
    /// A sender with these bounds.
    pub fn new(limits: &crate::Limits) -> Push {
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_connect_timeout(Some(limits.push_timeout));
        let client = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(30))
            .pool_max_idle_per_host(4)
            .build(hyper_tls::HttpsConnector::new_with_connector(http));
        Push {
            key: OnceCell::new(),
            client,
            sending: Arc::new(Semaphore::new(limits.push_sends.max(1))),
            timeout: limits.push_timeout,
            contact: limits.push_contact.clone(),
            loopback: limits.push_loopback,
        }
    }

    /// The VAPID key pair: made once from the database's secret `vapid` (32 random bytes,
    /// a P-256 private key; in the rare case they are not one, their SHA-256 is taken
    /// until it is).
    async fn key(&self, db: &Db) -> Result<&PartialVapidSignatureBuilder, DbError> {
        self.key
            .get_or_try_init(|| async {
                let mut secret = db.secret("vapid").await?;
                for _ in 0..64 {
                    if let Ok(k) = VapidSignatureBuilder::from_base64_no_sub(&base64url(&secret)) {
                        return Ok(k);
                    }
                    use sha2::Digest;
                    secret = sha2::Sha256::digest(&secret).to_vec();
                }
                Err(DbError("the VAPID secret makes no P-256 key".into()))
            })
            .await
    }

    /// The VAPID public key, base64url (an uncompressed P-256 point), for
    /// `PushManager.subscribe({applicationServerKey})`.
    pub async fn public_key(&self, db: &Db) -> Result<String, DbError> {
        Ok(base64url(&self.key(db).await?.get_public_key()))
    }

    /// Sends the notice `id` to every subscription of `player`, in the background; each
    /// message waits for nothing of the caller's. Subscriptions the push service says are
    /// gone are deleted.
    pub(crate) fn send(self: &Arc<Self>, db: &Db, player: i64, id: i64, notice: &Notice) {
        let (push, db, notice) = (self.clone(), db.clone(), notice.clone());
        tokio::spawn(async move {
            let subs = match db.subscriptions_of(player).await {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(player, "push subscriptions not read: {e}");
                    return;
                }
            };
            for sub in subs {
                let Ok(permit) = push.sending.clone().try_acquire_owned() else {
                    tracing::debug!(player, "a push not sent: as many in flight as allowed");
                    return;
                };
                let (push, db, notice) = (push.clone(), db.clone(), notice.clone());
                tokio::spawn(async move {
                    let _permit = permit;
                    match push.send_one(&db, &sub, id, &notice).await {
                        Ok(status) if status == 404 || status == 410 => {
                            tracing::debug!(player, status, "a push subscription is gone");
                            if let Err(e) = db.drop_subscription(sub.endpoint.clone()).await {
                                tracing::warn!("a gone push subscription stayed: {e}");
                            }
                        }
                        Ok(status) if !(200..300).contains(&status) => {
                            tracing::debug!(player, status, "a push service refused a message");
                        }
                        Ok(_) => {}
                        Err(e) => tracing::debug!(player, "a push not sent: {e}"),
                    }
                });
            }
        });
    }

    /// Sends one message; the push service's status.
    async fn send_one(
        &self,
        db: &Db,
        sub: &Stored,
        id: i64,
        notice: &Notice,
    ) -> Result<u16, String> {
        let key = self.key(db).await.map_err(|e| e.to_string())?.clone();
        let payload = serde_json::to_vec(&Message {
            id,
            notice,
            lang: &sub.lang,
        })
        .map_err(|e| e.to_string())?;
        if payload.len() > MAX_PAYLOAD {
            return Err(format!("a message of {} bytes", payload.len()));
        }
        let uri: hyper::Uri = sub.endpoint.parse().map_err(|_| "a bad endpoint")?;
        let audience = origin(&uri).ok_or("an endpoint without an origin")?;
        let info =
            web_push::SubscriptionInfo::new(&sub.endpoint[..], &sub.p256dh[..], &sub.auth[..]);
        let mut signer = key.add_sub_info(&info);
        signer.add_claim("aud", audience);
        if let Some(contact) = &self.contact {
            signer.add_claim("sub", contact.as_str());
        }
        let exp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_err(|e| e.to_string())?
            .as_secs()
            + SIGNATURE_S;
        signer.add_claim("exp", exp);
        let signature = signer.build().map_err(|e| e.to_string())?;
        let mut builder = web_push::WebPushMessageBuilder::new(&info);
        builder.set_ttl(TTL_S);
        builder.set_vapid_signature(signature);
        builder.set_payload(web_push::ContentEncoding::Aes128Gcm, &payload);
        let message = builder.build().map_err(|e| e.to_string())?;
        let body = message.payload.ok_or("a message without its payload")?;
        let mut req = hyper::Request::post(uri)
            .header("TTL", message.ttl.to_string())
            .header("Content-Encoding", body.content_encoding.to_str())
            .header("Content-Type", "application/octet-stream");
        if let Some(urgency) = message.urgency {
            req = req.header("Urgency", urgency.to_string());
        }
        for (name, value) in body.crypto_headers {
            req = req.header(name, value);
        }
        let req = req
            .body(Full::new(Bytes::from(body.content)))
            .map_err(|e| e.to_string())?;
        let res = tokio::time::timeout(self.timeout, self.client.request(req))
            .await
            .map_err(|_| "the push service did not answer in time".to_string())?
            .map_err(|e| e.to_string())?;
        // The answer's body is not read: the status says it all.
        Ok(res.status().as_u16())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_https_push_services_unless_loopback_is_allowed() {
        let ok = "https://fcm.googleapis.com/fcm/send/abc";
        assert_eq!(check_endpoint(ok, false), Ok(()));
        for bad in [
            "http://fcm.googleapis.com/fcm/send/abc",
            "http://127.0.0.1:9/p",
            "https://127.0.0.1/p",
            "https://10.0.0.1/p",
            "https://[::1]/p",
            "https://localhost/p",
            "ftp://example.com/p",
            "not a url",
            "",
        ] {
            assert!(check_endpoint(bad, false).is_err(), "{bad}");
        }
        assert_eq!(check_endpoint("http://127.0.0.1:9/p", true), Ok(()));
        assert!(check_endpoint("http://10.0.0.1/p", true).is_err());
        let long = format!("https://push.example.com/{}", "a".repeat(MAX_ENDPOINT));
        assert!(check_endpoint(&long, false).unwrap_err().contains("longer"));
    }

    #[test]
    fn the_audience_is_the_endpoints_origin() {
        let o = |u: &str| origin(&u.parse().unwrap()).unwrap();
        assert_eq!(
            o("https://push.example.com/a/b"),
            "https://push.example.com"
        );
        assert_eq!(
            o("https://push.example.com:443/a"),
            "https://push.example.com"
        );
        assert_eq!(o("http://127.0.0.1:4321/a"), "http://127.0.0.1:4321");
    }

    #[test]
    fn keys_must_be_a_p256_point_and_sixteen_bytes() {
        let point = base64url(&[[4u8].as_slice(), &[7u8; 64]].concat());
        let sub = |p256dh: &str, auth: &str| Subscription {
            endpoint: "https://push.example.com/x".into(),
            expiration_time: None,
            keys: Keys {
                p256dh: p256dh.into(),
                auth: auth.into(),
            },
            lang: Some("es-ES".into()),
        };
        let s = sub(&point, &base64url(&[1; 16])).checked(false).unwrap();
        assert_eq!((s.p256dh.as_str(), s.lang.as_str()), (point.as_str(), "es"));
        // Padding is taken and dropped.
        let padded = format!("{}==", base64url(&[1; 16]));
        assert_eq!(sub(&point, &padded).checked(false).unwrap().auth, s.auth);
        for (p, a) in [
            (base64url(&[4; 33]), base64url(&[1; 16])),
            (
                base64url(&[[5u8].as_slice(), &[7u8; 64]].concat()),
                base64url(&[1; 16]),
            ),
            (point.clone(), base64url(&[1; 15])),
            (point.clone(), "***".into()),
        ] {
            assert!(matches!(sub(&p, &a).checked(false), Err(Refused::Keys(_))));
        }
    }
}
