//! The HTTP exchange without sockets: each era's rules as status codes and frames.

use std::sync::Mutex;

use hyper::HeaderMap;
use hyper::header::{HeaderName, HeaderValue};
use serde_json::{Value, json};

use super::exchange::{delete, post};
use super::reply::Reply;
use super::{Endpoint, Shared, gate, guard, session, status};
use crate::auth::Who;

/// A `--no-auth` server's shared state: every request is the anonymous caller.
pub(super) fn shared(dir: &std::path::Path) -> Shared {
    let ctx = crate::mcp::tests::ctx(dir, None);
    Shared {
        hosts: guard::Hosts::new("127.0.0.1:1".parse().unwrap(), &[]),
        sessions: session::Sessions::default(),
        gate: gate::Gate::new(dir.join("mcp-tokens.json"), true),
        limits: Default::default(),
        registration: Mutex::new(status::entry(&ctx)),
        logins: Default::default(),
        call_deadline: std::time::Duration::from_secs(30),
        base: ctx,
    }
}

pub(super) fn ep(sh: &Shared, path: &str) -> Endpoint {
    Endpoint {
        path: path.into(),
        ctx: sh.base.clone(),
        who: Who::anonymous(),
    }
}

pub(super) fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (k, v) in pairs {
        h.insert(
            HeaderName::from_bytes(k.as_bytes()).unwrap(),
            HeaderValue::from_str(v).unwrap(),
        );
    }
    h
}

fn send(sh: &Shared, path: &str, h: &[(&str, &str)], body: Value) -> Reply {
    post(sh, &ep(sh, path), &headers(h), body.to_string().as_bytes())
}

fn code(r: &Reply) -> Option<i64> {
    r.body()?.pointer("/error/code")?.as_i64()
}

fn session_id(r: &Reply) -> String {
    let (_, v) = r
        .headers
        .iter()
        .find(|(k, _)| *k == "mcp-session-id")
        .unwrap();
    v.clone()
}

fn initialize(sh: &Shared, path: &str, version: &str) -> String {
    let r = send(
        sh,
        path,
        &[],
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
               "params": {"protocolVersion": version, "capabilities": {},
                          "clientInfo": {"name": "t", "version": "1"}}}),
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.body().unwrap()["result"]["protocolVersion"], version);
    session_id(&r)
}

fn list(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"})
}

#[test]
fn a_session_lives_from_initialize_to_delete_then_404s() {
    let dir = tempfile::tempdir().unwrap();
    let sh = shared(dir.path());
    let sid = initialize(&sh, "/mcp", "2025-11-25");
    let h = [
        ("mcp-session-id", sid.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(send(&sh, "/mcp", &h, note).status, 202);
    let r = send(&sh, "/mcp", &h, list(1));
    assert_eq!(r.status, 200);
    assert_eq!(
        r.body().unwrap()["result"]["tools"]
            .as_array()
            .unwrap()
            .len(),
        8
    );
    assert_eq!(
        send(&sh, "/mcp/other", &h, list(2)).status,
        404,
        "bound to its URL"
    );
    assert_eq!(delete(&sh, &ep(&sh, "/mcp"), &headers(&h)).status, 204);
    let r = send(&sh, "/mcp", &h, list(3));
    assert_eq!((r.status, r.body().unwrap()["id"].clone()), (404, json!(3)));
    assert_eq!(delete(&sh, &ep(&sh, "/mcp"), &headers(&h)).status, 404);
}

#[test]
fn the_protocol_version_header_must_match_the_session_when_sent() {
    let dir = tempfile::tempdir().unwrap();
    let sh = shared(dir.path());
    let sid = initialize(&sh, "/mcp", "2025-06-18");
    let s = ("mcp-session-id", sid.as_str());
    let wrong = [s, ("mcp-protocol-version", "2099-01-01")];
    assert_eq!(send(&sh, "/mcp", &wrong, list(1)).status, 400);
    let other = [s, ("mcp-protocol-version", "2025-11-25")];
    assert_eq!(send(&sh, "/mcp", &other, list(1)).status, 400);
    // Missing: the session's negotiated version holds (Gemini CLI sends none on its
    // `notifications/initialized`).
    assert_eq!(send(&sh, "/mcp", &[s], list(1)).status, 200);
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(send(&sh, "/mcp", &[s], note).status, 202);
    let old = initialize(&sh, "/mcp", "2025-03-26");
    let r = send(&sh, "/mcp", &[("mcp-session-id", old.as_str())], list(1));
    assert_eq!(r.status, 200);
}

#[test]
fn malformed_bodies_and_sessionless_requests_get_json_rpc_errors() {
    let dir = tempfile::tempdir().unwrap();
    let sh = shared(dir.path());
    let r = post(&sh, &ep(&sh, "/mcp"), &HeaderMap::new(), b"{not json");
    assert_eq!((r.status, code(&r)), (400, Some(-32700)));
    let r = send(&sh, "/mcp", &[], list(4));
    assert_eq!((r.status, code(&r)), (400, Some(-32600)));
    assert_eq!(r.body().unwrap()["id"], 4);
}

fn modern(method: &str, params: Value) -> Value {
    let mut p = params;
    p["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                        "io.modelcontextprotocol/clientCapabilities": {}});
    json!({"jsonrpc": "2.0", "id": 9, "method": method, "params": p})
}

fn modern_headers(method: &str) -> Vec<(&str, &str)> {
    vec![
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", method),
    ]
}

#[test]
fn stateless_requests_are_checked_against_their_headers() {
    let dir = tempfile::tempdir().unwrap();
    let sh = shared(dir.path());
    let r = send(
        &sh,
        "/mcp",
        &modern_headers("server/discover"),
        modern("server/discover", json!({})),
    );
    assert_eq!(r.status, 200);
    assert_eq!(
        r.body().unwrap()["result"]["supportedVersions"],
        json!(["2026-07-28"])
    );
    assert!(
        r.headers.iter().all(|(k, _)| *k != "mcp-session-id"),
        "no sessions"
    );
    let bare = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {}});
    let r = send(&sh, "/mcp", &modern_headers("tools/list"), bare);
    assert_eq!((r.status, code(&r)), (400, Some(-32602)));
    let r = send(
        &sh,
        "/mcp",
        &modern_headers("prompts/list"),
        modern("tools/list", json!({})),
    );
    assert_eq!((r.status, code(&r)), (400, Some(-32020)));
    let mut future = modern("tools/list", json!({}));
    future["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let h = [
        ("mcp-protocol-version", "2099-01-01"),
        ("mcp-method", "tools/list"),
    ];
    let r = send(&sh, "/mcp", &h, future);
    assert_eq!((r.status, code(&r)), (400, Some(-32022)));
    assert_eq!(
        r.body().unwrap()["error"]["data"]["supported"],
        json!(["2026-07-28"])
    );
    for removed in ["initialize", "ping", "logging/setLevel"] {
        let r = send(
            &sh,
            "/mcp",
            &modern_headers(removed),
            modern(removed, json!({})),
        );
        assert_eq!((r.status, code(&r)), (404, Some(-32601)), "{removed}");
        assert_eq!(r.body().unwrap()["id"], 9);
    }
}

#[test]
fn a_stateless_call_needs_its_name_in_the_header() {
    let dir = tempfile::tempdir().unwrap();
    let sh = shared(dir.path());
    let call = modern(
        "tools/call",
        json!({"name": "fleet_status", "arguments": {}}),
    );
    let mut h = modern_headers("tools/call");
    let r = send(&sh, "/mcp", &h, call.clone());
    assert_eq!(
        (r.status, code(&r)),
        (400, Some(-32020)),
        "Mcp-Name missing"
    );
    h.push(("mcp-name", "fleet_history"));
    assert_eq!(code(&send(&sh, "/mcp", &h, call.clone())), Some(-32020));
    h.pop();
    // Base64-wrapped, as a client sends non-ASCII names.
    h.push(("mcp-name", "=?base64?ZmxlZXRfc3RhdHVz?="));
    let r = send(&sh, "/mcp", &h, call);
    assert_eq!(r.status, 200);
    assert_eq!(
        r.body().unwrap()["result"]["structuredContent"]["fleet"],
        "team"
    );
    assert_eq!(r.body().unwrap()["result"]["resultType"], "complete");
}

#[test]
fn subscriptions_listen_opens_a_stream_with_the_acknowledgement() {
    let dir = tempfile::tempdir().unwrap();
    let sh = shared(dir.path());
    let body = modern(
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
    );
    let r = send(&sh, "/mcp", &modern_headers("subscriptions/listen"), body);
    assert!(matches!(r.payload, super::reply::Payload::Stream(_)));
    assert_eq!(
        r.body().unwrap()["method"],
        "notifications/subscriptions/acknowledged"
    );
}

/// A call of `tool` with no arguments, under the client key `key` when given.
fn called(tool: &str, key: Option<&str>) -> Value {
    let mut body = modern("tools/call", json!({"name": tool, "arguments": {}}));
    if let Some(k) = key {
        body["params"]["_meta"]["ctxlake/session"] = json!(k);
    }
    body
}

#[test]
fn each_stateless_client_acts_as_its_own_session() {
    let dir = tempfile::tempdir().unwrap();
    let sh = shared(dir.path());
    // `fleet_status` names the session a call acts as (a write's answer does not echo it).
    let mut h = modern_headers("tools/call");
    h.push(("mcp-name", "fleet_status"));
    let session = |r: &Reply| r.body().unwrap()["result"]["structuredContent"]["session"].clone();
    let own = send(&sh, "/mcp", &h, called("fleet_status", None));
    assert_eq!(session(&own), "http-no-auth", "one per token by default");
    let keyed = send(&sh, "/mcp", &h, called("fleet_status", Some("laptop-1")));
    assert_eq!(session(&keyed), "http-no-auth-laptop-1");
    let mut h = modern_headers("tools/call");
    h.push(("mcp-name", "fleet_release"));
    let bad = send(&sh, "/mcp", &h, called("fleet_release", Some("../x")));
    assert_eq!((bad.status, code(&bad)), (400, Some(-32602)));
}
