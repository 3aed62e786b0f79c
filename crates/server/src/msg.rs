//! The messages a browser sends on a table's WebSocket, and their decoder. Every message is
//! checked for size and shape before anything else looks at it; a bad one gets an error
//! that says what was wrong and changes nothing.

use crate::chat::ChatLine;
use crate::code::{Code, Refusal};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;

/// Largest message accepted, in bytes.
pub const MAX_MESSAGE: usize = 4096;
/// Longest action text accepted, in bytes.
pub const MAX_ACTION: usize = 200;

/// What a client may ask of a table.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Take a seat (a free one before the start, a bot's between hands). During a match
    /// of partnerships, a seat on the other side is taken only with `confirm: true`.
    Sit {
        seat: usize,
        #[serde(default)]
        confirm: bool,
        /// What the person contributes to the deal (32 hexadecimal digits), before the
        /// start: see [`tapete_table::fair`]. A bad one is refused and the seat not taken.
        #[serde(default)]
        seed: Option<String>,
    },
    /// Contribute to the deal before the start (32 hexadecimal digits), seated: it
    /// replaces what one gave before.
    Contribute { seed: String },
    /// Leave one's seat to the table's bot.
    Stand {},
    /// Start the game (the table's creator).
    Start {},
    /// Done looking at the end of a hand: the table's bots need not wait for this person.
    Next {},
    /// Back at the table after the turn clock ran out: the bot stops playing for them.
    Back {},
    /// Play an action, in its text form; `id` is echoed in the answer.
    Act {
        action: String,
        #[serde(default)]
        id: Option<u64>,
    },
    /// Keep-alive; answered with `pong`.
    Ping {},
    /// Write in the table's chat (the players' channel when seated, else the spectators').
    Chat { text: String },
    /// Mute (`on`, the default) or unmute a person's chat messages, for oneself.
    Mute {
        player: i64,
        #[serde(default = "yes")]
        on: bool,
    },
    /// Report chat message `n` of this table to the operator.
    Report { n: u64 },
}

fn yes() -> bool {
    true
}

/// Walks a JSON document only to refuse an object that names a key twice: serde would
/// silently keep the last one, so `{"type":"act",…,"type":"stand"}` would change meaning.
struct NoDuplicateKeys;

impl<'de> Deserialize<'de> for NoDuplicateKeys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NoDuplicateKeys)
    }
}

impl<'de> Visitor<'de> for NoDuplicateKeys {
    type Value = NoDuplicateKeys;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_unit<E>(self) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<NoDuplicateKeys>()?.is_some() {}
        Ok(self)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!("duplicate key `{key}`")));
            }
            map.next_value::<NoDuplicateKeys>()?;
        }
        Ok(self)
    }
}

/// Decodes one text message, or says what is wrong with it.
pub fn decode(text: &str) -> Result<ClientMsg, String> {
    if text.len() > MAX_MESSAGE {
        return Err(format!(
            "message too large: {} bytes (at most {MAX_MESSAGE})",
            text.len()
        ));
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    serde_json::from_str::<NoDuplicateKeys>(text).map_err(|e| format!("bad message: {e}"))?;
    let Some(obj) = value.as_object() else {
        return Err("a message must be a JSON object with a `type`".into());
    };
    match obj.get("type") {
        None => return Err("the message has no `type`".into()),
        Some(serde_json::Value::String(_)) => {}
        Some(_) => return Err("`type` must be a string".into()),
    }
    let msg: ClientMsg = serde_json::from_value(value).map_err(|e| {
        let e = e.to_string();
        if e.starts_with("unknown variant") {
            format!("{e} (messages are sit, stand, start, next, back, act, ping, chat, mute and report)")
        } else {
            format!("bad message: {e}")
        }
    })?;
    if let ClientMsg::Act { action, .. } = &msg {
        if action.len() > MAX_ACTION {
            return Err(format!("action too long (at most {MAX_ACTION} bytes)"));
        }
        if action.trim().is_empty() {
            return Err("empty action".into());
        }
    }
    Ok(msg)
}

/// Everything the server sends on a table's WebSocket (docs/server.md, "Server → client"
/// and "Table chat"), by its `type`. Each is made here and nowhere else, so the protocol
/// is this enum; [`ServerMsg::text`] is the line sent.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg<'a> {
    /// The whole state a connection may see (made from a frame's shared parts, see
    /// [`StateMsg`]).
    #[serde(skip)]
    State(StateMsg<'a>),
    /// Only the table's description changed: `table` is its JSON, made once for everybody.
    #[serde(skip)]
    Table { table: &'a str },
    /// An action written and applied as action number `n`; `id` is the client's, echoed.
    Ack {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        n: u64,
    },
    /// A message refused; nothing changed.
    Error(ErrorMsg),
    /// The answer to `ping`.
    Pong,
    /// A heartbeat after a silence.
    Beat,
    /// A new chat message.
    Chat { line: &'a ChatLine },
    /// The recent chat messages a connection may see, and whom its person mutes.
    ChatHistory {
        lines: &'a [&'a ChatLine],
        muted: &'a [i64],
    },
    /// A report was stored.
    ChatReported { n: u64 },
}

impl ServerMsg<'_> {
    /// The message as sent: one line of JSON.
    pub fn text(&self) -> String {
        match self {
            ServerMsg::State(s) => s.text(),
            ServerMsg::Table { table } => format!(r#"{{"type":"table","table":{table}}}"#),
            // Every field serializes (numbers, strings, codes): the fallback is never sent,
            // and is valid JSON whatever the serializer said.
            m => serde_json::to_string(m).unwrap_or_else(|_| {
                r#"{"type":"error","code":"internal","message":"internal error"}"#.to_string()
            }),
        }
    }
}

/// A refusal as sent: `{"type":"error","message","code"}`, with the client's `id`, the
/// wait of a rate limit, or for a question (`switch_sides`) what it is about and the
/// message that says yes.
#[derive(Debug, Serialize)]
pub struct ErrorMsg {
    pub message: String,
    pub code: Code,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait_s: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ask: Option<serde_json::Value>,
}

impl ErrorMsg {
    /// A refusal with its code and sentence.
    pub fn new(code: Code, message: impl Into<String>) -> ErrorMsg {
        ErrorMsg {
            message: message.into(),
            code,
            id: None,
            wait_s: None,
            seats: None,
            score: None,
            ask: None,
        }
    }
}

impl From<Refusal> for ErrorMsg {
    fn from(r: Refusal) -> ErrorMsg {
        ErrorMsg::new(r.code, r.message)
    }
}

/// A state, from parts already JSON: the table's description, the game's frame shared by
/// every connection, its seat's part and its lines. They are made once per change and
/// copied into each connection's message, never parsed again.
#[derive(Debug)]
pub struct StateMsg<'a> {
    /// `TableInfo` as JSON.
    pub table: &'a str,
    /// `{"player","seat","pending_seat"}` as JSON.
    pub you: &'a str,
    /// Actions so far.
    pub n: u64,
    /// `"view":…,"legal":…`: the seat's part.
    pub part: &'a str,
    /// `"lines":[…]` or `"more":[…]`: the narration this connection lacks.
    pub lines: &'a str,
    /// The end of a hand held, as JSON (`null`: none).
    pub hold: &'a str,
    /// The turn clocks running, as JSON.
    pub clock: &'a str,
    /// The outcome, as JSON (`null` while playing).
    pub outcome: &'a str,
}

impl StateMsg<'_> {
    fn text(&self) -> String {
        let StateMsg {
            table,
            you,
            n,
            part,
            lines,
            hold,
            clock,
            outcome,
        } = self;
        format!(
            r#"{{"type":"state","table":{table},"you":{you},"n":{n},{part},{lines},"hold":{hold},"clock":{clock},"outcome":{outcome}}}"#
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    #[test]
    fn decodes_every_message() {
        assert_eq!(
            decode(r#"{"type":"sit","seat":2}"#),
            Ok(ClientMsg::Sit {
                seat: 2,
                confirm: false,
                seed: None
            })
        );
        assert_eq!(decode(r#"{"type":"stand"}"#), Ok(ClientMsg::Stand {}));
        assert_eq!(decode(r#"{"type":"start"}"#), Ok(ClientMsg::Start {}));
        assert_eq!(decode(r#"{"type":"next"}"#), Ok(ClientMsg::Next {}));
        assert_eq!(decode(r#"{"type":"ping"}"#), Ok(ClientMsg::Ping {}));
        assert_eq!(
            decode(r#"{"type":"chat","text":"hola"}"#),
            Ok(ClientMsg::Chat {
                text: "hola".into()
            })
        );
        assert_eq!(
            decode(r#"{"type":"mute","player":7}"#),
            Ok(ClientMsg::Mute {
                player: 7,
                on: true
            })
        );
        assert_eq!(
            decode(r#"{"type":"mute","player":7,"on":false}"#),
            Ok(ClientMsg::Mute {
                player: 7,
                on: false
            })
        );
        assert_eq!(
            decode(r#"{"type":"report","n":3}"#),
            Ok(ClientMsg::Report { n: 3 })
        );
        assert_eq!(
            decode(r#"{"type":"act","action":"envido 5","id":12}"#),
            Ok(ClientMsg::Act {
                action: "envido 5".into(),
                id: Some(12)
            })
        );
        assert_eq!(
            decode(r#"{"action":"paso","type":"act"}"#),
            Ok(ClientMsg::Act {
                action: "paso".into(),
                id: None
            })
        );
    }

    #[test]
    fn bad_messages_say_what_is_wrong() {
        let cases = [
            ("", "not JSON"),
            ("[1,2]", "JSON object"),
            ("{}", "no `type`"),
            (r#"{"type":3}"#, "must be a string"),
            (r#"{"type":"fly"}"#, "unknown variant `fly`"),
            (r#"{"type":"sit"}"#, "missing field `seat`"),
            (r#"{"type":"sit","seat":-1}"#, "bad message"),
            (
                r#"{"type":"act","action":"paso","extra":1}"#,
                "unknown field `extra`",
            ),
            (r#"{"type":"act","action":"  "}"#, "empty action"),
            (r#"{"type":"act","action":"paso","id":"x"}"#, "bad message"),
            (
                r#"{"type":"act","action":"paso","type":"stand"}"#,
                "duplicate key `type`",
            ),
            (
                r#"{"type":"sit","seat":1,"seat":2}"#,
                "duplicate key `seat`",
            ),
            (r#"{"type":"stand","seat":1}"#, "unknown field `seat`"),
            (r#"{"type":"ping","x":null}"#, "unknown field `x`"),
            (r#"{"type":"start","now":true}"#, "unknown field `now`"),
            (r#"{"type":"next","hand":3}"#, "unknown field `hand`"),
        ];
        for (text, want) in cases {
            let err = decode(text).expect_err(text);
            assert!(err.contains(want), "{text}: `{err}` lacks `{want}`");
        }
        let big = format!(r#"{{"type":"act","action":"{}"}}"#, "a".repeat(5000));
        assert!(decode(&big).unwrap_err().contains("too large"));
        let long = format!(r#"{{"type":"act","action":"{}"}}"#, "a".repeat(300));
        assert!(decode(&long).unwrap_err().contains("too long"));
    }

    fn message() -> impl Strategy<Value = String> {
        prop_oneof![
            (0usize..10).prop_map(|s| format!(r#"{{"type":"sit","seat":{s}}}"#)),
            "[0-9a-f]{32}".prop_map(|h| format!(r#"{{"type":"contribute","seed":"{h}"}}"#)),
            Just(r#"{"type":"stand"}"#.to_string()),
            Just(r#"{"type":"start"}"#.to_string()),
            Just(r#"{"type":"next"}"#.to_string()),
            Just(r#"{"type":"back"}"#.to_string()),
            Just(r#"{"type":"ping"}"#.to_string()),
            (
                "[a-zñó0-9][a-zñó 0-9]{0,29}",
                proptest::option::of(0u64..1000)
            )
                .prop_map(|(a, id)| {
                    serde_json::json!({"type": "act", "action": a, "id": id}).to_string()
                }),
        ]
    }

    proptest! {
        /// Any bytes at all: an answer, never a panic.
        #[test]
        fn never_panics(text in ".{0,300}") {
            let _ = decode(&text);
        }

        /// Valid messages decode; any one-byte corruption of them decodes or errs cleanly,
        /// and whatever decodes re-encodes to a message that decodes the same.
        #[test]
        fn valid_messages_decode_and_corruptions_are_refused_cleanly(
            m in message(), at in any::<prop::sample::Index>(), byte in any::<u8>()
        ) {
            prop_assert!(decode(&m).is_ok(), "{}", m);
            let mut bytes = m.clone().into_bytes();
            let i = at.index(bytes.len());
            bytes[i] = byte;
            if let Ok(s) = String::from_utf8(bytes) {
                if let Ok(msg) = decode(&s) {
                    let again = match &msg {
                        ClientMsg::Sit { seat, confirm, seed } => serde_json::json!({"type":"sit","seat":seat,"confirm":confirm,"seed":seed}),
                        ClientMsg::Contribute { seed } => serde_json::json!({"type":"contribute","seed":seed}),
                        ClientMsg::Stand {} => serde_json::json!({"type":"stand"}),
                        ClientMsg::Start {} => serde_json::json!({"type":"start"}),
                        ClientMsg::Next {} => serde_json::json!({"type":"next"}),
                        ClientMsg::Back {} => serde_json::json!({"type":"back"}),
                        ClientMsg::Ping {} => serde_json::json!({"type":"ping"}),
                        ClientMsg::Act { action, id } => serde_json::json!({"type":"act","action":action,"id":id}),
                        ClientMsg::Chat { text } => serde_json::json!({"type":"chat","text":text}),
                        ClientMsg::Mute { player, on } => serde_json::json!({"type":"mute","player":player,"on":on}),
                        ClientMsg::Report { n } => serde_json::json!({"type":"report","n":n}),
                    };
                    prop_assert_eq!(decode(&again.to_string()), Ok(msg));
                }
            }
        }
    }

    /// The `type` of a server message, by a match naming every variant: a new one does not
    /// compile until it is named here (and then the test below wants it in the docs).
    fn server_type(m: &ServerMsg) -> &'static str {
        match m {
            ServerMsg::State(_) => "state",
            ServerMsg::Table { .. } => "table",
            ServerMsg::Ack { .. } => "ack",
            ServerMsg::Error(_) => "error",
            ServerMsg::Pong => "pong",
            ServerMsg::Beat => "beat",
            ServerMsg::Chat { .. } => "chat",
            ServerMsg::ChatHistory { .. } => "chat_history",
            ServerMsg::ChatReported { .. } => "chat_reported",
        }
    }

    /// The same for the client's messages.
    fn client_type(m: &ClientMsg) -> &'static str {
        match m {
            ClientMsg::Sit { .. } => "sit",
            ClientMsg::Contribute { .. } => "contribute",
            ClientMsg::Stand {} => "stand",
            ClientMsg::Start {} => "start",
            ClientMsg::Act { .. } => "act",
            ClientMsg::Next {} => "next",
            ClientMsg::Back {} => "back",
            ClientMsg::Ping {} => "ping",
            ClientMsg::Chat { .. } => "chat",
            ClientMsg::Mute { .. } => "mute",
            ClientMsg::Report { .. } => "report",
        }
    }

    /// The message types docs/server.md's tables show, each way: the first `{"type":…}`
    /// of each row's first cell, in the WebSocket's and the chat's tables.
    fn documented() -> (BTreeSet<String>, BTreeSet<String>) {
        let doc = include_str!("../../../docs/server.md");
        let (mut client, mut server) = (BTreeSet::new(), BTreeSet::new());
        let mut way = None;
        for line in doc.lines() {
            let lower = line.to_lowercase();
            if line.starts_with("## ") {
                way = None;
            }
            if lower.contains("client → server") {
                way = Some(true);
            } else if lower.contains("server → client") {
                way = Some(false);
            }
            let Some(to_server) = way else { continue };
            let Some(cell) = line.strip_prefix("| `") else {
                continue;
            };
            let cell = cell.split(" | ").next().unwrap_or("");
            if let Some(at) = cell.find(r#"{"type":""#) {
                let rest = &cell[at + 9..];
                let kind = rest.split('"').next().unwrap_or("").to_string();
                if to_server {
                    client.insert(kind);
                } else {
                    server.insert(kind);
                }
            }
        }
        (client, server)
    }

    #[test]
    fn every_message_is_documented_and_every_documented_one_exists() {
        let line = ChatLine {
            n: 1,
            channel: crate::chat::Channel::Players,
            player: 7,
            nickname: "Ane".into(),
            text: "buenas".into(),
            at: 0,
        };
        let lines = [&line];
        let all = [
            ServerMsg::State(StateMsg {
                table: "{}",
                you: "{}",
                n: 0,
                part: r#""view":null,"legal":[]"#,
                lines: r#""lines":[]"#,
                hold: "null",
                clock: "[]",
                outcome: "null",
            }),
            ServerMsg::Table { table: "{}" },
            ServerMsg::Ack {
                id: Some(12),
                n: 57,
            },
            ServerMsg::Error(ErrorMsg::new(Code::NotYourTurn, "not your turn")),
            ServerMsg::Pong,
            ServerMsg::Beat,
            ServerMsg::Chat { line: &line },
            ServerMsg::ChatHistory {
                lines: &lines,
                muted: &[7],
            },
            ServerMsg::ChatReported { n: 1 },
        ];
        let mut sent = BTreeSet::new();
        for m in &all {
            let v: serde_json::Value = serde_json::from_str(&m.text()).expect("one line of JSON");
            assert_eq!(v["type"], server_type(m), "{}", m.text());
            sent.insert(server_type(m).to_string());
        }
        let (client_doc, server_doc) = documented();
        assert_eq!(server_doc, sent, "docs/server.md's server → client tables");
        let clients = [
            r#"{"type":"sit","seat":2}"#,
            r#"{"type":"contribute","seed":"00112233445566778899aabbccddeeff"}"#,
            r#"{"type":"stand"}"#,
            r#"{"type":"start"}"#,
            r#"{"type":"act","action":"paso"}"#,
            r#"{"type":"next"}"#,
            r#"{"type":"back"}"#,
            r#"{"type":"ping"}"#,
            r#"{"type":"chat","text":"hola"}"#,
            r#"{"type":"mute","player":7}"#,
            r#"{"type":"report","n":3}"#,
        ];
        let decoded: BTreeSet<String> = clients
            .iter()
            .map(|c| client_type(&decode(c).expect(c)).to_string())
            .collect();
        assert_eq!(decoded.len(), clients.len());
        assert_eq!(
            client_doc, decoded,
            "docs/server.md's client → server tables"
        );
    }

    #[test]
    fn server_messages_carry_only_what_they_have() {
        let ack = ServerMsg::Ack { id: None, n: 3 }.text();
        assert_eq!(ack, r#"{"type":"ack","n":3}"#);
        let mut e = ErrorMsg::new(Code::ChatRateLimited, "slow down");
        e.wait_s = Some(3);
        assert_eq!(
            ServerMsg::Error(e).text(),
            r#"{"type":"error","message":"slow down","code":"chat_rate_limited","wait_s":3}"#
        );
    }
}
