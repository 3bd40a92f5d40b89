//! `ctxlake mcp --http` as a real process on a loopback port: the security defaults (403,
//! 401 on loopback too, `--no-auth` on loopback only, 413, parse errors), sessions ending in
//! 404, pinned fleets kept apart, and initialize → tools/list → tools/call in both eras.
//! Token principals: `http/principals.rs`; deadlines and caps: `http/stall.rs`; slow calls
//! never starving `initialize` and the dashboard: `http/busy.rs`.

#[path = "http/busy.rs"]
mod busy;
#[path = "http/client.rs"]
pub mod client;
#[path = "http/install.rs"]
mod install;
#[path = "http/principals.rs"]
mod principals;
#[path = "http/stall.rs"]
mod stall;

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::Env;
use client::{Server, call};

const V: &str = "2025-11-25";

fn session_headers(sid: &str) -> Vec<(&str, &str)> {
    vec![("Mcp-Session-Id", sid), ("MCP-Protocol-Version", V)]
}

#[test]
fn foreign_host_or_origin_is_forbidden_and_loopback_names_pass() {
    let env = Env::new();
    let s = Server::start(&env, &[]);
    let body = client::init(V);
    let evil = s.post("/mcp", &[("Host", "evil.example:8719")], &body);
    assert_eq!(evil.status, 403, "{}", evil.body);
    let evil = s.post("/mcp", &[("Origin", "http://evil.example")], &body);
    assert_eq!(evil.status, 403);
    assert_eq!(
        s.request("GET", "/health", &[("Host", "evil.example")], b"")
            .status,
        403
    );
    for host in ["localhost:1", "127.0.0.1:9", "[::1]:80"] {
        let ok = s.post(
            "/mcp",
            &[("Host", host), ("Origin", "http://localhost:3000")],
            &body,
        );
        assert_eq!(ok.status, 200, "{host}: {}", ok.body);
    }
    let health = s.request("GET", "/health", &[], b"");
    assert_eq!(
        (health.status, health.json()["status"].clone()),
        (200, json!("ok"))
    );
}

#[test]
fn a_token_is_required_on_loopback_too_and_the_first_start_makes_the_owner() {
    let env = Env::new();
    let store = env.ctxlake_home().join("mcp-tokens.json");
    assert!(!store.exists());
    let s = Server::bare(&env, &[]);
    let said = s.said();
    assert!(
        said.contains("made the owner token") && said.contains("mcp token new NAME"),
        "the first start says how clients get a token: {said}"
    );
    assert!(store.exists(), "the owner token was made");
    let body = client::init(V);
    let none = s.post("/mcp", &[], &body);
    assert_eq!(none.status, 401, "no token, loopback or not: {}", none.body);
    assert!(
        none.header("www-authenticate")
            .is_some_and(|v| v.starts_with("Bearer"))
    );
    let wrong = Server::bearer(&"0".repeat(64));
    assert_eq!(
        s.post("/mcp", &[("Authorization", &wrong)], &body).status,
        401
    );
    // A token made while the server runs works on the next request.
    let token = client::new_token(&env, "ci", &[]);
    let good = Server::bearer(&token);
    let auth = [("Authorization", good.as_str())];
    assert_eq!(s.post("/mcp", &auth, &body).status, 200);
    assert_eq!(s.request("GET", "/mcp/team/health", &[], b"").status, 401);
    assert_eq!(s.request("GET", "/mcp/team/health", &auth, b"").status, 200);
    assert_eq!(
        s.request("GET", "/health", &[], b"").status,
        200,
        "health is open"
    );
    // Revoking denies at once, and never opens the server.
    env.cmd()
        .args(["mcp", "token", "revoke", "ci"])
        .assert()
        .success();
    assert_eq!(s.post("/mcp", &auth, &body).status, 401);
    assert_eq!(s.post("/mcp", &[], &body).status, 401);
    env.cmd()
        .args(["mcp", "token", "revoke", "owner"])
        .assert()
        .success();
    assert_eq!(
        s.post("/mcp", &[], &body).status,
        401,
        "an empty store opens nothing"
    );
}

#[test]
fn no_auth_is_for_loopback_only_and_warns() {
    let env = Env::new();
    for args in [
        &["mcp", "--http", "0.0.0.0:0", "--no-auth"][..],
        &["mcp", "--bind", "10.0.0.1:0", "--no-auth"],
    ] {
        let out = env
            .cmd()
            .args(args)
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("loopback"), "{err}");
    }
    let s = Server::bare(&env, &["--no-auth"]);
    assert!(s.said().contains("warning: --no-auth"), "{}", s.said());
    let r = s.post("/mcp", &[], &client::init(V));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        !env.ctxlake_home().join("mcp-tokens.json").exists(),
        "no token is made for a --no-auth server"
    );
}

#[test]
fn oversized_bodies_get_413_and_malformed_json_a_parse_error() {
    let env = Env::new();
    let s = Server::start(&env, &[]);
    let big = vec![b' '; 1024 * 1024 + 1];
    let h = [("Content-Type", "application/json")];
    assert_eq!(s.request("POST", "/mcp", &h, &big).status, 413);
    // Chunked, so no length is declared: the cap applies while reading.
    let mut chunked = format!("{:x}\r\n", big.len()).into_bytes();
    chunked.extend_from_slice(&big);
    chunked.extend_from_slice(b"\r\n0\r\n\r\n");
    let te = [("Transfer-Encoding", "chunked")];
    assert_eq!(s.request("POST", "/mcp", &te, &chunked).status, 413);
    // Declared too large: refused before anything is read.
    let declared = [("Content-Length", "5000000")];
    assert_eq!(s.request("POST", "/mcp", &declared, b"").status, 413);
    let r = s.request("POST", "/mcp", &h, b"{\"jsonrpc\": \"2.0\", \"id\": 1,");
    assert_eq!((r.status, r.rpc_code()), (400, Some(-32700)));
    assert_eq!(r.json()["id"], Value::Null);
    assert_eq!(
        s.request("GET", "/health", &[], b"").status,
        200,
        "still serving"
    );
}

#[test]
fn a_request_for_an_ended_session_gets_404() {
    let env = Env::new();
    let s = Server::start(&env, &[]);
    let sid = s.initialize("/mcp", V, &[]);
    let h = session_headers(&sid);
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    assert_eq!(s.post("/mcp", &h, &list).status, 200);
    assert_eq!(
        s.post(
            "/mcp",
            &[
                ("Mcp-Session-Id", &sid),
                ("MCP-Protocol-Version", "2025-06-18")
            ],
            &list
        )
        .status,
        400,
        "another version than the session's"
    );
    assert_eq!(s.request("DELETE", "/mcp", &h, b"").status, 204);
    let r = s.post("/mcp", &h, &list);
    assert_eq!((r.status, r.json()["id"].clone()), (404, json!(1)));
    let made_up = session_headers("0123456789abcdef0123456789abcdef");
    assert_eq!(s.post("/mcp", &made_up, &list).status, 404);
}

fn is_refused(r: &client::Resp, code: &str) -> bool {
    let res = &r.json()["result"];
    res["isError"] == json!(true)
        && res["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains(code))
}

#[test]
fn one_fleets_pinned_url_cannot_read_or_write_another_fleet() {
    let env = Env::new();
    let s = Server::start(&env, &[]);
    let sid = s.initialize("/mcp/team-a", V, &[]);
    let h = session_headers(&sid);
    let read = s.post(
        "/mcp/team-a",
        &h,
        &call(1, "fleet_status", json!({"fleet": "team-b"})),
    );
    assert!(is_refused(&read, "fleet_not_accessible"), "{}", read.body);
    let args = json!({"fleet": "team-b", "paths": ["src/x"], "reason": "r"});
    let write = s.post("/mcp/team-a", &h, &call(2, "fleet_claim", args));
    assert!(is_refused(&write, "fleet_not_accessible"), "{}", write.body);
    let own = s.post(
        "/mcp/team-a",
        &h,
        &call(3, "fleet_claim", json!({"paths": ["src/y"], "reason": "r"})),
    );
    assert_eq!(
        own.json()["result"]["structuredContent"]["status"],
        "queued",
        "{}",
        own.body
    );
    let spool = env.ctxlake_home().join("spool/mcp");
    assert!(spool.join("team-a.ndjson").exists());
    assert!(
        !spool.join("team-b.ndjson").exists(),
        "nothing reached team-b"
    );
    // The session id is worthless on another fleet's URL.
    let other = s.post("/mcp/team-b", &h, &call(4, "fleet_status", json!({})));
    assert_eq!(other.status, 404);
}

fn modern(method: &str, params: Value) -> Value {
    let mut p = params;
    p["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                        "io.modelcontextprotocol/clientCapabilities": {}});
    json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": p})
}

#[test]
fn initialize_list_and_call_in_both_eras_then_status_and_log_see_it() {
    let env = Env::new();
    let s = Server::start(&env, &[]);
    let sid = s.initialize("/mcp", V, &[]);
    let h = session_headers(&sid);
    let list = s.post(
        "/mcp",
        &h,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    assert_eq!(list.json()["result"]["tools"].as_array().unwrap().len(), 8);
    let r = s.post("/mcp", &h, &call(2, "fleet_status", json!({})));
    assert_eq!(r.json()["result"]["isError"], false, "{}", r.body);
    let st = env.json(&["mcp", "status"]);
    let me = &st["servers"][0];
    assert_eq!(me["url"], format!("http://{}/mcp", s.addr));
    assert_eq!(me["http_sessions"], 1);
    let logged = st["recent_calls"].as_array().unwrap();
    assert!(logged.iter().any(|c| c["tool"] == "fleet_status"
        && c["session"].as_str().is_some_and(|x| x.starts_with("mcp-"))));
    // 2026-07-28: no session, the routing headers instead.
    let mh = |m: &'static str| vec![("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", m)];
    let d = s.post(
        "/mcp",
        &mh("server/discover"),
        &modern("server/discover", json!({})),
    );
    assert_eq!(
        d.json()["result"]["supportedVersions"],
        json!(["2026-07-28"])
    );
    let l = s.post("/mcp", &mh("tools/list"), &modern("tools/list", json!({})));
    assert_eq!(l.json()["result"]["tools"].as_array().unwrap().len(), 8);
    let mut ch = mh("tools/call");
    ch.push(("Mcp-Name", "fleet_status"));
    let c = s.post(
        "/mcp",
        &ch,
        &modern("tools/call", json!({"name": "fleet_status"})),
    );
    assert_eq!(c.json()["result"]["resultType"], "complete", "{}", c.body);
    let logged = env.json(&["mcp", "status"])["recent_calls"].clone();
    assert!(
        logged
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["session"] == "http-test"),
        "a stateless call runs as its token's own session: {logged}"
    );
    let run = env.ctxlake_home().join("run");
    assert!(s.stop().success(), "SIGTERM ends it cleanly");
    assert_eq!(
        std::fs::read_dir(run).unwrap().count(),
        0,
        "run file removed"
    );
}

#[test]
fn the_stdio_server_starts_no_runtime_threads() {
    let env = Env::new();
    let mut child = env
        .std_cmd()
        .arg("mcp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let tasks = std::fs::read_dir(format!("/proc/{}/task", child.id()))
        .unwrap()
        .count();
    drop(child.stdin.take());
    child.wait().unwrap();
    assert_eq!(tasks, 1, "stdio `ctxlake mcp` must stay single-threaded");
}

#[test]
fn an_idle_or_slow_connection_is_closed_after_the_header_timeout() {
    use std::io::{Read, Write};
    let env = Env::new();
    let s = Server::start(&env, &[]);
    let mut idle = std::net::TcpStream::connect(&s.addr).unwrap();
    let mut slow = std::net::TcpStream::connect(&s.addr).unwrap();
    slow.write_all(b"GET /health HTTP/1.1\r\nHost: local")
        .unwrap();
    let started = std::time::Instant::now();
    for c in [&mut idle, &mut slow] {
        c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut buf = Vec::new();
        let _ = c.read_to_end(&mut buf);
    }
    let waited = started.elapsed();
    assert!(
        (Duration::from_secs(8)..Duration::from_secs(25)).contains(&waited),
        "closed after {waited:?}, want about 10 s"
    );
    assert_eq!(s.request("GET", "/health", &[], b"").status, 200);
}

#[test]
fn a_broken_config_stops_the_http_server_from_starting() {
    let env = Env::new();
    env.write("config.toml", "fleet = [unclosed\n");
    let out = env
        .cmd()
        .args(["mcp", "--http", "127.0.0.1:0"])
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("serving MCP over HTTP"),
        "it must not serve: {err}"
    );
    assert!(
        matches!(out.status.code(), Some(c) if c != 0),
        "it exits with an error: {err}"
    );
    assert!(err.contains("config.toml"), "{err}");
}
