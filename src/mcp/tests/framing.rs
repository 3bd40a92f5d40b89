//! Framing rows of the conformance table: parse errors, invalid requests, notifications,
//! stray responses, batches, and the frame count of a mixed session.

use serde_json::{Value, json};

use super::*;

#[test]
fn malformed_json_is_a_parse_error_with_null_id() {
    let out = run(&[s("{not json"), s("{\"jsonrpc\":\"2.0\",\"id\":1,")]);
    assert_eq!(out.len(), 2);
    for f in &out {
        assert_eq!(code(f), PARSE_ERROR);
        assert_eq!(f["id"], Value::Null);
        assert_eq!(f["jsonrpc"], "2.0");
    }
}

#[test]
fn bytes_that_are_not_utf8_are_a_parse_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut out = Vec::new();
    serve(&ctx(dir.path(), None), &b"\xff\xfe\n"[..], &mut out).unwrap();
    let f: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(code(&f), PARSE_ERROR);
}

#[test]
fn a_value_that_is_not_an_object_is_an_invalid_request() {
    let out = run(&[s("3"), s("\"ping\""), s("null"), s("true")]);
    assert_eq!(out.len(), 4);
    for f in &out {
        assert_eq!(code(f), INVALID_REQUEST);
        assert_eq!(f["id"], Value::Null);
    }
}

#[test]
fn no_method_is_invalid_with_an_id_and_dropped_without() {
    let out = run(&[s(r#"{"jsonrpc":"2.0","id":7}"#), s(r#"{"jsonrpc":"2.0"}"#)]);
    assert_eq!(out.len(), 1);
    assert_eq!(code(&out[0]), INVALID_REQUEST);
    assert_eq!(out[0]["id"], 7);
}

#[test]
fn bad_envelopes_are_invalid_requests() {
    let out = run(&[
        s(r#"{"id":1,"method":"ping"}"#),
        s(r#"{"jsonrpc":"2.0","id":2,"method":5}"#),
        s(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#),
        s(r#"{"jsonrpc":"2.0","id":3,"method":"ping","params":[1]}"#),
    ]);
    let ids: Vec<_> = out.iter().map(|f| f["id"].clone()).collect();
    assert_eq!(ids, [json!(1), json!(2), Value::Null, json!(3)]);
    assert!(out.iter().all(|f| code(f) == INVALID_REQUEST));
}

#[test]
fn unknown_method_is_method_not_found() {
    let out = run(&[init("2025-11-25"), req(1, "resources/list", json!({}))]);
    assert_eq!(code(&out[1]), METHOD_NOT_FOUND);
    assert_eq!(out[1]["id"], 1);
}

#[test]
fn notifications_are_never_answered() {
    let out = run(&[
        s(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
        s(r#"{"jsonrpc":"2.0","method":"no/such/method"}"#),
        s(r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"nosuch"}}"#),
        s(r#"{"jsonrpc":"2.0","method":"ping","params":[1]}"#),
        s(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#),
    ]);
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn stray_results_and_errors_are_ignored() {
    let out = run(&[
        s(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
        s(r#"{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"x"}}"#),
        s(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#),
    ]);
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn ping_answers_an_empty_object() {
    let out = run(&[req(9, "ping", json!({}))]);
    assert_eq!(out[0]["result"], json!({}));
}

#[test]
fn batches_are_accepted_on_2025_03_26_only() {
    let batch = format!(
        "[{},{},{}]",
        req(1, "ping", json!({})),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        req(2, "nosuch", json!({}))
    );
    let out = run(&[
        init("2025-03-26"),
        batch.clone(),
        s("[]"),
        format!("[{}]", init("2025-03-26")),
    ]);
    assert_eq!(out.len(), 4);
    let replies = out[1].as_array().unwrap();
    assert_eq!(replies.len(), 2, "the notification gets no reply");
    assert_eq!(replies[0]["result"], json!({}));
    assert_eq!(code(&replies[1]), METHOD_NOT_FOUND);
    assert_eq!(code(&out[2]), INVALID_REQUEST);
    assert_eq!(code(&out[3].as_array().unwrap()[0]), INVALID_REQUEST);
    let only_notes = r#"[{"jsonrpc":"2.0","method":"notifications/initialized"}]"#;
    assert_eq!(run(&[init("2025-03-26"), s(only_notes)]).len(), 1);
    for v in ["2024-11-05", "2025-06-18", "2025-11-25"] {
        let out = run(&[init(v), batch.clone()]);
        assert_eq!(code(&out[1]), INVALID_REQUEST, "{v}");
        assert_eq!(out[1]["id"], Value::Null);
    }
    assert_eq!(
        code(&run(&[batch])[0]),
        INVALID_REQUEST,
        "no batch before initialize"
    );
}

#[test]
fn an_oversized_frame_is_refused_and_the_next_one_served() {
    let big = format!(
        "{{\"x\":\"{}\"}}",
        "a".repeat(crate::mcp::MAX_FRAME_BYTES + 10)
    );
    let out = run(&[big, req(1, "ping", json!({}))]);
    assert_eq!(out.len(), 2);
    assert_eq!(code(&out[0]), PARSE_ERROR);
    assert_eq!(out[1]["id"], 1);
}

/// Garbage and good calls interleaved: exactly one frame per request, none for the rest.
#[test]
fn a_mixed_session_emits_exactly_the_frames_it_owes() {
    let input = vec![
        s("garbage"),
        s(""),
        init("2025-11-25"),
        s(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
        s("[1,2]"),
        s(r#"{"jsonrpc":"2.0","id":99,"result":{}}"#),
        req(1, "tools/list", json!({})),
        s(r#"{"jsonrpc":"2.0"}"#),
        call(2, "fleet_status", json!({})),
        call(3, "nosuch", json!({})),
        s("42"),
        call(4, "memory_search", json!({})),
        s(r#"{"jsonrpc":"2.0","method":"x"}"#),
        req(5, "ping", json!({})),
    ];
    let out = run(&input);
    let ids: Vec<Value> = out.iter().map(|f| f["id"].clone()).collect();
    let n = Value::Null;
    assert_eq!(
        ids,
        [
            n.clone(),
            json!("init"),
            n.clone(),
            json!(1),
            json!(2),
            json!(3),
            n,
            json!(4),
            json!(5)
        ]
    );
    assert!(out.iter().all(|f| f["jsonrpc"] == "2.0"));
}

/// Shrunk by `props`: a batched `initialize` echoed an id that is not a valid id (an
/// object), making the reply itself invalid JSON-RPC. Unusable ids are answered as null.
#[test]
fn a_batched_initialize_with_an_unusable_id_is_answered_with_null() {
    let bad = json!([{"jsonrpc": "2.0", "id": {"a": 1}, "method": "initialize"},
                     {"jsonrpc": "2.0", "id": 1.5, "method": "initialize"}]);
    let out = run(&[init("2025-03-26"), bad.to_string()]);
    let replies = out[1].as_array().unwrap();
    assert_eq!(replies.len(), 2);
    for r in replies {
        assert_eq!(r["id"], Value::Null, "{r}");
        assert_eq!(code(r), INVALID_REQUEST);
    }
}
