//! Web Push against a push service of the test's own (axum on 127.0.0.1): the test holds
//! the browser's side of the subscription (its P-256 private key and auth secret), decrypts
//! what the server sends (RFC 8291, `aes128gcm`, with p256, hkdf and aes-gcm: not the code
//! that encrypted it) and checks the VAPID signature (RFC 8292) against the key the server
//! publishes. A push service answering 410 has the subscription deleted; the bounds are
//! refused with their codes.

use crate::support::stored::ints;
use crate::support::{eventually, roomy, Server};
use aes_gcm::aead::{Aead, KeyInit};
use base64::Engine;
use p256::ecdsa::signature::Verifier;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tapete_server::Limits;

fn b64() -> base64::engine::GeneralPurpose {
    base64::engine::general_purpose::URL_SAFE_NO_PAD
}

/// One message the push service received: its headers and body.
#[derive(Clone, Debug)]
struct Received {
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A push service on 127.0.0.1: it keeps what it is sent and answers `status`.
struct PushService {
    port: u16,
    got: Arc<Mutex<Vec<Received>>>,
    status: Arc<Mutex<u16>>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl PushService {
    fn start() -> PushService {
        let got: Arc<Mutex<Vec<Received>>> = Arc::default();
        let status = Arc::new(Mutex::new(201u16));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (port_tx, port_rx) = std::sync::mpsc::channel();
        let (got2, status2) = (got.clone(), status.clone());
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let app = axum::Router::new().fallback(move |req: axum::extract::Request| {
                    let (got, status) = (got2.clone(), status2.clone());
                    async move {
                        let (parts, body) = req.into_parts();
                        let body = axum::body::to_bytes(body, 1 << 16).await.unwrap();
                        got.lock().unwrap().push(Received {
                            path: parts.uri.path().to_string(),
                            headers: parts
                                .headers
                                .iter()
                                .map(|(n, v)| (n.to_string(), v.to_str().unwrap_or("").to_string()))
                                .collect(),
                            body: body.to_vec(),
                        });
                        let code = *status.lock().unwrap();
                        axum::http::StatusCode::from_u16(code).unwrap()
                    }
                });
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                port_tx.send(listener.local_addr().unwrap().port()).unwrap();
                axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = stopped.await;
                    })
                    .await
                    .unwrap();
            });
        });
        PushService {
            port: port_rx.recv_timeout(Duration::from_secs(10)).unwrap(),
            got,
            status,
            _stop: stop,
        }
    }

    fn endpoint(&self, name: &str) -> String {
        format!("http://127.0.0.1:{}/push/{name}", self.port)
    }

    /// The messages received at `/push/{name}` so far.
    fn at(&self, name: &str) -> Vec<Received> {
        let path = format!("/push/{name}");
        self.got
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r.path == path)
            .cloned()
            .collect()
    }
}

/// The browser's side of a subscription: its key pair and auth secret.
struct Browser {
    secret: p256::SecretKey,
    auth: [u8; 16],
}

impl Browser {
    fn new() -> Browser {
        Browser {
            secret: p256::SecretKey::random(&mut rand::rngs::OsRng),
            auth: rand::random(),
        }
    }

    fn public(&self) -> Vec<u8> {
        use p256::elliptic_curve::sec1::ToEncodedPoint;
        self.secret
            .public_key()
            .to_encoded_point(false)
            .as_bytes()
            .to_vec()
    }

    /// `PushSubscription.toJSON()` of this browser at `endpoint`.
    fn subscription(&self, endpoint: &str) -> Value {
        json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": {"p256dh": b64().encode(self.public()), "auth": b64().encode(self.auth)},
            "lang": "es",
        })
    }

    /// Decrypts an `aes128gcm` body (RFC 8188) with this browser's keys (RFC 8291).
    fn decrypt(&self, body: &[u8]) -> Vec<u8> {
        assert!(body.len() > 21, "a body with its header");
        let salt = &body[..16];
        let rs = u32::from_be_bytes(body[16..20].try_into().unwrap()) as usize;
        let idlen = body[20] as usize;
        let server_public = &body[21..21 + idlen];
        let records = &body[21 + idlen..];
        assert_eq!(idlen, 65, "the key id is the server's ephemeral P-256 key");
        assert!(records.len() <= rs, "one record");
        let their = p256::PublicKey::from_sec1_bytes(server_public).expect("a P-256 point");
        let shared = p256::ecdh::diffie_hellman(self.secret.to_nonzero_scalar(), their.as_affine());
        let mut info = b"WebPush: info\0".to_vec();
        info.extend_from_slice(&self.public());
        info.extend_from_slice(server_public);
        let mut ikm = [0u8; 32];
        hkdf::Hkdf::<sha2::Sha256>::new(Some(&self.auth), shared.raw_secret_bytes())
            .expand(&info, &mut ikm)
            .unwrap();
        let prk = hkdf::Hkdf::<sha2::Sha256>::new(Some(salt), &ikm);
        let (mut cek, mut nonce) = ([0u8; 16], [0u8; 12]);
        prk.expand(b"Content-Encoding: aes128gcm\0", &mut cek)
            .unwrap();
        prk.expand(b"Content-Encoding: nonce\0", &mut nonce)
            .unwrap();
        let plain = aes_gcm::Aes128Gcm::new_from_slice(&cek)
            .unwrap()
            .decrypt(aes_gcm::Nonce::from_slice(&nonce), records)
            .expect("the body decrypts with the subscription's keys");
        // The last record ends with the delimiter 2, then padding zeros.
        let end = plain.iter().rposition(|b| *b != 0).expect("a delimiter");
        assert_eq!(plain[end], 2, "the last record's delimiter");
        plain[..end].to_vec()
    }
}

/// Checks `Authorization: vapid t=JWT, k=KEY` (RFC 8292): KEY is the server's published
/// key, the JWT is ES256 signed by it, for the endpoint's origin, expiring within 24 h.
fn check_vapid(r: &Received, key: &str, origin: &str) -> Value {
    let auth = r.header("authorization").expect("an Authorization header");
    let rest = auth.strip_prefix("vapid ").expect("the vapid scheme");
    let mut t = None;
    let mut k = None;
    for part in rest.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => t = Some(v.to_string()),
            Some(("k", v)) => k = Some(v.to_string()),
            _ => {}
        }
    }
    let (t, k) = (t.expect("t="), k.expect("k="));
    assert_eq!(k, key, "k is the key of /api/push/key");
    let parts: Vec<&str> = t.split('.').collect();
    assert_eq!(parts.len(), 3, "a JWT");
    let header: Value = serde_json::from_slice(&b64().decode(parts[0]).unwrap()).unwrap();
    assert_eq!(header["alg"], "ES256");
    let claims: Value = serde_json::from_slice(&b64().decode(parts[1]).unwrap()).unwrap();
    let verifying = p256::ecdsa::VerifyingKey::from_sec1_bytes(&b64().decode(&k).unwrap()).unwrap();
    let signature =
        p256::ecdsa::Signature::from_slice(&b64().decode(parts[2]).unwrap()).expect("r || s");
    verifying
        .verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature)
        .expect("the JWT is signed by the server's key");
    assert_eq!(
        claims["aud"], origin,
        "the audience is the endpoint's origin"
    );
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let exp = claims["exp"].as_u64().expect("exp");
    assert!(
        exp > now && exp <= now + 24 * 3600,
        "exp within 24 h: {claims}"
    );
    assert!(claims["sub"].is_string(), "a contact: {claims}");
    claims
}

fn befriend(server: &Server, a: &str, b: &str, na: &str, nb: &str) {
    for (who, other) in [(a, nb), (b, na)] {
        let (code, r) = server.api(
            "POST",
            "/api/friends",
            Some(who),
            Some(json!({ "nickname": other })),
        );
        assert_eq!(code, 200, "{r}");
    }
}

fn loopback() -> Limits {
    Limits {
        push_loopback: true,
        ..roomy()
    }
}

#[test]
fn a_notice_is_pushed_encrypted_for_the_subscription_and_signed_by_the_servers_key() {
    let service = PushService::start();
    let server = Server::start("push-send", loopback());
    let (_, ane) = server.account("Ane");
    let (_, bea) = server.account("Bea");
    befriend(&server, &ane, &bea, "Ane", "Bea");
    let (code, key) = server.api("GET", "/api/push/key", None, None);
    assert_eq!(code, 200, "{key}");
    let key = key["key"].as_str().unwrap().to_string();
    assert_eq!(
        b64().decode(&key).unwrap().len(),
        65,
        "an uncompressed point"
    );

    let browser = Browser::new();
    let sub = browser.subscription(&service.endpoint("bea"));
    let (code, r) = server.api("POST", "/api/push/subscriptions", Some(&bea), Some(sub));
    assert_eq!(code, 200, "{r}");

    let table = server.table(&ane, json!({"game": "mus", "pace_ms": 0, "seat": 0}));
    let path = format!("/api/tables/{table}/invitations");
    let (code, inv) = server.api("POST", &path, Some(&ane), Some(json!({"nickname": "Bea"})));
    assert_eq!(code, 200, "{inv}");
    eventually(Duration::from_secs(10), "the push arrives", || {
        !service.at("bea").is_empty()
    });
    let got = service.at("bea").remove(0);
    assert_eq!(got.header("content-encoding"), Some("aes128gcm"));
    assert!(got.header("ttl").is_some_and(|t| t.parse::<u32>().is_ok()));
    check_vapid(&got, &key, &format!("http://127.0.0.1:{}", service.port));
    let message: Value = serde_json::from_slice(&browser.decrypt(&got.body)).unwrap();
    assert_eq!(message["kind"], "invitation", "{message}");
    assert_eq!(message["url"], format!("/t/{table}"));
    assert_eq!(message["args"]["from"], "Ane");
    assert_eq!(message["args"]["game"], "mus");
    assert_eq!(message["args"]["game_title"], "Mus");
    assert_eq!(message["lang"], "es");
    // The id is the stored notice's, as the pages read it.
    let (_, notices) = server.api("GET", "/api/notices", Some(&bea), None);
    assert_eq!(message["id"], notices[0]["id"]);

    // A push service that says the subscription is gone (410) has it deleted.
    *service.status.lock().unwrap() = 410;
    let other = server.table(&ane, json!({"game": "mus", "pace_ms": 0, "seat": 0}));
    let path = format!("/api/tables/{other}/invitations");
    let (code, inv) = server.api("POST", &path, Some(&ane), Some(json!({"nickname": "Bea"})));
    assert_eq!(code, 200, "{inv}");
    eventually(
        Duration::from_secs(10),
        "the gone subscription is deleted",
        || ints(&server.db, "SELECT COUNT(*) FROM push_subscriptions") == vec![vec![0]],
    );
    assert_eq!(service.at("bea").len(), 2);
}

#[test]
fn subscriptions_are_an_accounts_and_bounded() {
    let server = Server::start("push-bounds", loopback());
    let (_, ane) = server.account("Ane");
    let browser = Browser::new();
    let sub = |endpoint: &str| browser.subscription(endpoint);
    let post = |token: &str, body: Value| {
        let (code, r) = server.api("POST", "/api/push/subscriptions", Some(token), Some(body));
        (code, r["code"].as_str().unwrap_or("").to_string())
    };
    let code_of = |(code, c): (u16, String)| (code, c);

    // Guests have none.
    let guest = server.player("Iker");
    assert_eq!(
        code_of(post(&guest, sub("http://127.0.0.1:9/push/a"))),
        (403, "account_only".into())
    );
    // Only push services: no other address, no other scheme, no endless endpoint.
    for bad in [
        "http://example.com/push/a".to_string(),
        "https://10.0.0.1/push/a".to_string(),
        "ftp://127.0.0.1/push/a".to_string(),
        format!("http://127.0.0.1:9/{}", "a".repeat(1100)),
    ] {
        assert_eq!(
            post(&ane, sub(&bad)),
            (400, "push_bad_endpoint".into()),
            "{bad}"
        );
    }
    // Keys of the right form.
    let mut wrong = sub("http://127.0.0.1:9/push/a");
    wrong["keys"]["p256dh"] = json!(b64().encode([4u8; 30]));
    assert_eq!(post(&ane, wrong), (400, "push_bad_keys".into()));
    let mut wrong = sub("http://127.0.0.1:9/push/a");
    wrong["keys"]["auth"] = json!("not base64!");
    assert_eq!(post(&ane, wrong), (400, "push_bad_keys".into()));
    let mut wrong = sub("http://127.0.0.1:9/push/a");
    wrong["extra"] = json!(1);
    assert_eq!(post(&ane, wrong), (400, "bad_request".into()));
    assert_eq!(
        ints(&server.db, "SELECT COUNT(*) FROM push_subscriptions"),
        vec![vec![0]],
        "nothing refused was kept"
    );

    // Ten browsers; the same one again is an update, an eleventh is refused.
    for n in 0..10 {
        let e = format!("http://127.0.0.1:9/push/{n}");
        assert_eq!(post(&ane, sub(&e)).0, 200);
    }
    assert_eq!(post(&ane, sub("http://127.0.0.1:9/push/3")).0, 200);
    assert_eq!(
        post(&ane, sub("http://127.0.0.1:9/push/10")),
        (409, "push_too_many_subscriptions".into())
    );
    // Turned off in one, another may come.
    let del = |token: &str, endpoint: &str| {
        server.api(
            "DELETE",
            "/api/push/subscriptions",
            Some(token),
            Some(json!({ "endpoint": endpoint })),
        )
    };
    let (_, bea) = server.account("Bea");
    assert_eq!(
        del(&bea, "http://127.0.0.1:9/push/3").1,
        json!({"removed": false}),
        "nobody removes another's"
    );
    assert_eq!(
        del(&ane, "http://127.0.0.1:9/push/3").1,
        json!({"removed": true})
    );
    assert_eq!(
        del(&ane, "http://127.0.0.1:9/push/3").1,
        json!({"removed": false})
    );
    assert_eq!(post(&ane, sub("http://127.0.0.1:9/push/10")).0, 200);
    assert_eq!(
        ints(
            &server.db,
            "SELECT COUNT(*) FROM push_subscriptions WHERE lang = 'es'"
        ),
        vec![vec![10]]
    );
}

#[test]
fn without_loopback_only_https_push_services_are_taken() {
    let server = Server::start("push-https", roomy());
    let (_, ane) = server.account("Ane");
    let browser = Browser::new();
    let (code, r) = server.api(
        "POST",
        "/api/push/subscriptions",
        Some(&ane),
        Some(browser.subscription("http://127.0.0.1:9/push/a")),
    );
    assert_eq!((code, r["code"].as_str()), (400, Some("push_bad_endpoint")));
    let (code, r) = server.api(
        "POST",
        "/api/push/subscriptions",
        Some(&ane),
        Some(browser.subscription("https://push.example.com/push/a")),
    );
    assert_eq!(code, 200, "{r}");
}
