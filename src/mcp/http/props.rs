//! Property tests of the HTTP exchange (issue 14 §2): arbitrary bodies — raw bytes, any
//! JSON, half-right JSON-RPC envelopes, batches — under either era's headers never panic,
//! always get an HTTP status the transport defines, and every JSON reply is JSON-RPC 2.0.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::exchange::post;
use super::reply::Payload;
use super::tests::{ep, headers, shared};
use crate::proptests::{config, json_value, nasty_text};

const STATUSES: &[u16] = &[200, 202, 400, 404, 405, 406, 413, 415];

fn envelope() -> impl Strategy<Value = Value> {
    let method = prop_oneof![
        Just("initialize".to_string()),
        Just("tools/list".to_string()),
        Just("tools/call".to_string()),
        Just("ping".to_string()),
        Just("server/discover".to_string()),
        nasty_text(),
    ];
    (method, json_value(), prop::option::of(json_value())).prop_map(|(m, params, id)| {
        let mut v = json!({"jsonrpc": "2.0", "method": m, "params": params});
        if let Some(id) = id {
            v["id"] = id;
        }
        v
    })
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        2 => prop::collection::vec(any::<u8>(), 0..64),
        2 => json_value().prop_map(|v| v.to_string().into_bytes()),
        3 => envelope().prop_map(|v| v.to_string().into_bytes()),
        1 => prop::collection::vec(envelope(), 0..4).prop_map(|v| Value::Array(v).to_string().into_bytes()),
    ]
}

fn era_headers() -> impl Strategy<Value = Vec<(&'static str, &'static str)>> {
    prop_oneof![
        Just(vec![]),
        Just(vec![("mcp-protocol-version", "2025-11-25")]),
        Just(vec![
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/list")
        ]),
        Just(vec![("mcp-protocol-version", "1999-01-01")]),
        Just(vec![("mcp-session-id", "not-a-session")]),
    ]
}

fn is_jsonrpc(v: &Value) -> bool {
    match v {
        Value::Array(items) => items.iter().all(is_jsonrpc),
        Value::Object(o) => {
            o.get("jsonrpc") == Some(&json!("2.0"))
                && (o.contains_key("result") ^ o.contains_key("error"))
                && o.contains_key("id")
        }
        _ => false,
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn any_body_gets_a_defined_status_and_json_rpc(body in body(), h in era_headers(), pinned in any::<bool>()) {
        let dir = tempfile::tempdir().unwrap();
        let sh = shared(dir.path());
        let path = if pinned { "/mcp/team" } else { "/mcp" };
        let reply = post(&sh, &ep(&sh, path), &headers(&h), &body);
        prop_assert!(STATUSES.contains(&reply.status), "status {}", reply.status);
        match &reply.payload {
            Payload::Empty => {}
            Payload::Json(v) | Payload::Stream(v) => prop_assert!(is_jsonrpc(v), "{v}"),
            Payload::Raw(ct, _) => prop_assert!(false, "an MCP POST answered a {ct} page"),
        }
    }
}
