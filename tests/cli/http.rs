//! `ctxlake mcp --http` as a real process on a loopback port: the security defaults (403,
//! 401, refusing a non-loopback bind, 413, parse errors), sessions ending in 404, pinned
//! fleets kept apart, and initialize → tools/list → tools/call in both protocol eras.

#[path = "http/client.rs"]
pub mod client;

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
fn with_a_token_requests_without_it_or_with_a_wrong_one_get_401() {
    let env = Env::new();
    let out = env.cmd().args(["mcp", "token", "new"]).output().unwrap();
    assert!(out.status.success());
    let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert_eq!(token.len(), 64);
    let shown = env.cmd().args(["mcp", "token", "show"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&shown.stdout).trim(), token);
    let s = Server::start(&env, &[]);
    let good = format!("Bearer {token}");
    let wrong = format!("Bearer {}", "0".repeat(64));
    let body = client::init(V);
    assert_eq!(s.post("/mcp", &[], &body).status, 401);
    let r = s.post("/mcp", &[("Authorization", &wrong)], &body);
    assert_eq!(r.status, 401);
    assert!(
        r.header("www-authenticate")
            .is_some_and(|v| v.starts_with("Bearer"))
    );
    assert_eq!(
        s.post("/mcp", &[("Authorization", &good)], &body).status,
        200
    );
    assert_eq!(s.request("GET", "/mcp/team/health", &[], b"").status, 401);
    let auth = [("Authorization", good.as_str())];
    assert_eq!(s.request("GET", "/mcp/team/health", &auth, b"").status, 200);
    assert_eq!(
        s.request("GET", "/health", &[], b"").status,
        200,
        "health is open"
    );
    // Revoking takes effect at once: a loopback server is open again.
    assert!(
        env.cmd()
            .args(["mcp", "token", "revoke"])
            .output()
            .unwrap()
            .status
            .success()
    );
    assert_eq!(s.post("/mcp", &[], &body).status, 200);
}

#[test]
fn a_non_loopback_bind_without_a_token_refuses_to_start() {
    let env = Env::new();
    for args in [
        &["mcp", "--http", "0.0.0.0:0"][..],
        &["mcp", "--bind", "0.0.0.0:0"],
    ] {
        let out = env
            .cmd()
            .args(args)
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("needs a bearer token") && err.contains("mcp token new"),
            "{err}"
        );
    }
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
        s.post("/mcp", &[("Mcp-Session-Id", &sid)], &list).status,
        400,
        "no version header"
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
        own.json()["result"]["structuredContent"]["fleet"],
        "team-a",
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
fn install_http_writes_remote_entries_that_name_the_token_variable_only() {
    let env = Env::new();
    let out = env.cmd().args(["mcp", "token", "new"]).output().unwrap();
    let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let install = |args: &[&str]| {
        env.cmd()
            .arg("install")
            .args(args)
            .args(["--force", "--no-hooks"])
            .output()
            .unwrap()
    };
    assert!(install(&["claude-code", "--http"]).status.success());
    let file = env.home().join(".claude.json");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        !text.contains(&token),
        "the token is never written in clear"
    );
    let entry = &serde_json::from_str::<Value>(&text).unwrap()["mcpServers"]["ctxlake"];
    assert_eq!(entry["type"], "http");
    assert_eq!(entry["url"], "http://127.0.0.1:8719/mcp");
    assert_eq!(
        entry["headers"]["Authorization"],
        "Bearer ${CTXLAKE_MCP_TOKEN}"
    );
    let out = install(&["codex", "--http", "http://127.0.0.1:9000/mcp"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let toml = std::fs::read_to_string(env.home().join(".codex/config.toml")).unwrap();
    assert!(
        toml.contains("url = \"http://127.0.0.1:9000/mcp\""),
        "{toml}"
    );
    assert!(
        toml.contains("bearer_token_env_var = \"CTXLAKE_MCP_TOKEN\"") && !toml.contains(&token)
    );
    let zed = install(&["zed", "--http"]);
    assert_eq!(zed.status.code(), Some(2), "no remote entry for zed");
    let un = env
        .cmd()
        .args(["uninstall", "claude-code", "codex"])
        .output()
        .unwrap();
    assert!(
        un.status.success(),
        "{}",
        String::from_utf8_lossy(&un.stderr)
    );
    assert!(
        !file.exists(),
        "uninstall removes exactly what install wrote"
    );
}

#[test]
fn service_install_http_writes_its_own_unit_next_to_sync() {
    let env = Env::new();
    let svc = |args: &[&str]| {
        env.cmd()
            .arg("service")
            .args(args)
            .arg("--no-start")
            .output()
            .unwrap()
    };
    assert!(svc(&["install"]).status.success());
    assert!(
        svc(&["install", "--http", "127.0.0.1:9123"])
            .status
            .success()
    );
    let dir = env.home().join(".config/systemd/user");
    let unit = std::fs::read_to_string(dir.join("ctxlake-mcp-http.service")).unwrap();
    let exec = unit.lines().find(|l| l.starts_with("ExecStart=")).unwrap();
    assert!(exec.ends_with(" mcp --http 127.0.0.1:9123"), "{exec}");
    let sync = std::fs::read_to_string(dir.join("ctxlake-sync.service")).unwrap();
    assert!(sync.contains(" sync --watch"), "the sync unit is untouched");
    assert_eq!(
        svc(&["install", "--http", "nonsense"]).status.code(),
        Some(2)
    );
    assert!(svc(&["uninstall", "--http"]).status.success());
    assert!(!dir.join("ctxlake-mcp-http.service").exists());
    assert!(dir.join("ctxlake-sync.service").exists());
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
