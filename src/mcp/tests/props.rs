//! Property tests of framing and dispatch through `serve`: arbitrary lines (bytes, JSON,
//! half-right envelopes, batches) each followed by a sentinel `ping`, so every output frame
//! can be pinned to the input line that owes it. Invariants: no panic, at most one frame per
//! line, exactly one (with the request's own id) per well-formed request, none per
//! notification, a null-id parse error per non-JSON line, and every frame valid JSON-RPC 2.0.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::*;
use crate::mcp::protocol;
use crate::proptests::{config, json_value, nasty_text};

fn maybe(s: impl Strategy<Value = Value>) -> impl Strategy<Value = Option<Value>> {
    prop_oneof![1 => Just(None), 4 => s.prop_map(Some)]
}

fn id() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        nasty_text().prop_map(Value::String),
        Just(Value::Null),
        Just(json!(1.5)),
        Just(json!({"a": 1})),
    ]
}

fn method() -> impl Strategy<Value = Value> {
    const KNOWN: [&str; 8] = [
        "initialize",
        "ping",
        "tools/list",
        "tools/call",
        "server/discover",
        "subscriptions/listen",
        "notifications/initialized",
        "notifications/cancelled",
    ];
    prop_oneof![
        6 => prop::sample::select(&KNOWN[..]).prop_map(Value::from),
        2 => nasty_text().prop_map(Value::String),
        1 => Just(json!(5)),
    ]
}

/// `params` as a client might send them: versions, tool names, arguments, `_meta`.
fn params() -> impl Strategy<Value = Value> {
    let version = prop_oneof![
        prop::sample::select(&protocol::ALL[..]).prop_map(|v| Value::from(v.as_str())),
        nasty_text().prop_map(Value::String),
    ];
    let tool = prop_oneof![
        prop::sample::select(
            crate::tools::registry()
                .iter()
                .map(|t| t.name)
                .collect::<Vec<_>>()
        )
        .prop_map(Value::from),
        nasty_text().prop_map(Value::String),
    ];
    let meta = (version.clone(), any::<bool>()).prop_map(|(v, caps)| {
        let mut m = json!({ protocol::META_VERSION: v });
        if caps {
            m[protocol::META_CLIENT_CAPS] = json!({});
        }
        m
    });
    let object = (
        maybe(version),
        maybe(tool),
        maybe(json_value()),
        maybe(meta),
    )
        .prop_map(|(v, name, args, meta)| {
            let mut p = Map::new();
            let keys = ["protocolVersion", "name", "arguments", "_meta"];
            for (k, x) in keys.into_iter().zip([v, name, args, meta]) {
                if let Some(x) = x {
                    p.insert(k.into(), x);
                }
            }
            Value::Object(p)
        });
    prop_oneof![4 => object, 1 => json_value()]
}

/// An envelope with each member present, absent or wrong.
fn envelope() -> impl Strategy<Value = Value> {
    let jsonrpc =
        prop_oneof![6 => Just(json!("2.0")), 1 => Just(json!("1.0")), 1 => Just(json!(2.0))];
    let reply = prop_oneof![Just(None), Just(Some("result")), Just(Some("error"))];
    (
        maybe(jsonrpc),
        maybe(id()),
        maybe(method()),
        maybe(params()),
        reply,
    )
        .prop_map(|(j, id, m, p, reply)| {
            let mut o = Map::new();
            for (k, x) in ["jsonrpc", "id", "method", "params"]
                .into_iter()
                .zip([j, id, m, p])
            {
                if let Some(x) = x {
                    o.insert(k.into(), x);
                }
            }
            if let Some(k) = reply {
                o.insert(k.into(), json!({"code": 1, "message": "m"}));
            }
            Value::Object(o)
        })
}

/// One input line, without its newline; shown as text when a case fails.
#[derive(Clone)]
struct Line(Vec<u8>);

impl std::fmt::Debug for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(&self.0))
    }
}

fn line() -> impl Strategy<Value = Line> {
    fn text(v: Value) -> Vec<u8> {
        v.to_string().into_bytes()
    }
    let no_newline = |b: Vec<u8>| b.into_iter().filter(|c| *c != b'\n').collect::<Vec<u8>>();
    prop_oneof![
        6 => envelope().prop_map(text),
        2 => prop::collection::vec(envelope(), 0..4).prop_map(|b| text(Value::Array(b))),
        2 => prop::sample::select(&protocol::ALL[..]).prop_map(|v| init(v.as_str()).into_bytes()),
        2 => json_value().prop_map(text),
        2 => prop::collection::vec(any::<u8>(), 0..24).prop_map(no_newline),
    ]
    .prop_map(Line)
}

/// What one line is owed, judged from the JSON-RPC 2.0 and MCP rules rather than from
/// `classify`: the oracle the frames are checked against.
#[derive(Debug)]
enum Owed {
    /// Exactly one response frame, carrying this id.
    Reply(Value),
    /// Exactly one error frame with a null id (parse error, non-object, refused batch).
    NullError,
    /// An array of replies holding exactly one frame per listed id (or nothing if none).
    Batch(Vec<Value>),
    Nothing,
    /// A malformed frame: one error or nothing, never more.
    AtMostOne,
}

fn mcp_id(v: Option<&Value>) -> Option<Value> {
    v.filter(|i| i.is_string() || i.is_i64() || i.is_u64())
        .cloned()
}

/// A request that must be answered with exactly one frame bearing its id.
fn request_id(o: &Map<String, Value>) -> Option<Value> {
    let envelope = o.get("jsonrpc") == Some(&json!("2.0"))
        && o.get("method")
            .is_some_and(|m| m.is_string() && m != "subscriptions/listen")
        && o.get("params").is_none_or(|p| p.is_null() || p.is_object());
    mcp_id(o.get("id")).filter(|_| envelope)
}

fn owed(line: &[u8], batching: &mut bool) -> Owed {
    let Ok(text) = std::str::from_utf8(line) else {
        return Owed::NullError;
    };
    if text.trim().is_empty() {
        return Owed::Nothing;
    }
    match serde_json::from_str::<Value>(text) {
        Err(_) => Owed::NullError,
        Ok(Value::Array(items)) if *batching && !items.is_empty() => {
            let ids = items.iter().filter_map(Value::as_object);
            let ids = ids.filter(|o| o.get("method") != Some(&json!("initialize")));
            Owed::Batch(ids.filter_map(request_id).collect())
        }
        Ok(Value::Array(_)) => Owed::NullError,
        Ok(Value::Object(o)) => {
            if let Some(id) = request_id(&o) {
                if o["method"] == "initialize" {
                    let v = o.get("params").and_then(|p| p.get("protocolVersion"));
                    *batching = protocol::negotiate(v.and_then(Value::as_str)).batches();
                }
                return Owed::Reply(id);
            }
            let notification = o.get("jsonrpc") == Some(&json!("2.0"))
                && o.get("method").is_some_and(Value::is_string)
                && !o.contains_key("id");
            let stray =
                !o.contains_key("method") && (o.contains_key("result") || o.contains_key("error"));
            if notification || stray {
                Owed::Nothing
            } else {
                Owed::AtMostOne
            }
        }
        Ok(_) => Owed::NullError,
    }
}

/// A JSON-RPC 2.0 response (or, for `subscriptions/listen`, a notification) frame.
fn valid_frame(f: &Value) -> bool {
    let Some(o) = f.as_object() else {
        return false;
    };
    if o.get("jsonrpc") != Some(&json!("2.0")) {
        return false;
    }
    if o.contains_key("method") {
        return o["method"].is_string() && !o.contains_key("id");
    }
    let id_ok = matches!(
        o.get("id"),
        Some(Value::String(_) | Value::Number(_) | Value::Null)
    );
    let error_ok = o
        .get("error")
        .is_none_or(|e| e["code"].is_i64() && e["message"].is_string());
    id_ok && error_ok && o.len() == 3 && (o.contains_key("result") != o.contains_key("error"))
}

fn check(owed: &Owed, group: &[Value]) -> Result<(), TestCaseError> {
    prop_assert!(
        group.len() <= 1,
        "{} frames for one line: {group:?}",
        group.len()
    );
    let frame = group.first();
    if let Some(Value::Array(replies)) = frame {
        prop_assert!(matches!(owed, Owed::Batch(_)), "array reply to {owed:?}");
        prop_assert!(
            !replies.is_empty() && replies.iter().all(valid_frame),
            "{frame:?}"
        );
    } else if let Some(f) = frame {
        prop_assert!(valid_frame(f), "invalid frame {f}");
    }
    match owed {
        Owed::Reply(id) => prop_assert_eq!(frame.map(|f| &f["id"]), Some(id)),
        Owed::NullError => {
            prop_assert!(frame.is_some_and(|f| f["id"].is_null() && f["error"]["code"].is_i64()))
        }
        Owed::Nothing => prop_assert!(frame.is_none(), "unowed frame {frame:?}"),
        Owed::AtMostOne => {}
        Owed::Batch(ids) => {
            let got: Vec<&Value> = match frame {
                Some(Value::Array(r)) => r.iter().map(|f| &f["id"]).collect(),
                _ => Vec::new(),
            };
            for id in ids {
                let n = got.iter().filter(|g| **g == id).count();
                prop_assert!(n >= 1, "batch reply for {id} missing: {frame:?}");
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn every_line_gets_exactly_the_frames_it_is_owed(lines in prop::collection::vec(line(), 0..8)) {
        let dir = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut input = Vec::new();
        for (n, l) in lines.iter().enumerate() {
            input.extend_from_slice(&l.0);
            input.push(b'\n');
            input.extend_from_slice(req_sentinel(n).as_bytes());
            input.push(b'\n');
        }
        let mut out = Vec::new();
        serve(&ctx(dir.path(), None), &input[..], &mut out)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let text = String::from_utf8(out).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut frames = Vec::new();
        for l in text.lines() {
            let f: Value = serde_json::from_str(l).map_err(|e| TestCaseError::fail(format!("{e}: {l}")))?;
            frames.push(f);
        }
        let mut rest = &frames[..];
        let mut batching = false;
        for (n, l) in lines.iter().enumerate() {
            let sentinel = json!(format!("sentinel-{n}"));
            let at = rest.iter().position(|f| f.get("id") == Some(&sentinel));
            let Some(at) = at else {
                return Err(TestCaseError::fail(format!("no reply to sentinel {n}: {frames:?}")));
            };
            check(&owed(&l.0, &mut batching), &rest[..at])?;
            rest = &rest[at + 1..];
        }
        prop_assert!(rest.is_empty(), "frames after the last sentinel: {rest:?}");
    }
}

/// A request that every era answers with exactly one frame (a result or an error).
fn req_sentinel(n: usize) -> String {
    json!({"jsonrpc": "2.0", "id": format!("sentinel-{n}"), "method": "ping"}).to_string()
}
