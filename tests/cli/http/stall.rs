//! The HTTP server never stalls: a body that stops arriving is cut off (408) and hundreds of
//! them lock no one else out; `/health` answers while every connection slot is held; a tool
//! call past its deadline is answered; one token's open streams are capped and end when the
//! token is revoked.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::json;

use super::client::{self, Server, new_token};
use crate::common::Env;

const V: &str = "2025-11-25";

/// A connection that sent a POST's headers and the first bytes of a 1000-byte body, then
/// stopped.
fn stalled_body(addr: &str, auth: &str) -> TcpStream {
    let mut c = TcpStream::connect(addr).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nAuthorization: {auth}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"jsonrpc\""
    );
    c.write_all(head.as_bytes()).unwrap();
    c
}

/// The status line a connection was answered with, waiting up to `wait`.
fn answered(c: &mut TcpStream, wait: Duration) -> Option<u16> {
    c.set_read_timeout(Some(wait)).unwrap();
    let mut buf = [0u8; 512];
    let n = c.read(&mut buf).ok()?;
    String::from_utf8_lossy(&buf[..n])
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

#[test]
fn stalled_bodies_are_cut_off_and_lock_no_one_out() {
    let env = Env::new();
    let slow = Server::bearer(&new_token(&env, "slow", &[]));
    let s = Server::start(&env, &[]);
    let started = Instant::now();
    let mut stalled: Vec<TcpStream> = (0..256).map(|_| stalled_body(&s.addr, &slow)).collect();
    std::thread::sleep(Duration::from_millis(500));
    // Another client is served at once, and /health answers.
    let t = Instant::now();
    let sid = s.initialize("/mcp", V, &[]);
    let r = s.post(
        "/mcp",
        &[("Mcp-Session-Id", &sid), ("MCP-Protocol-Version", V)],
        &client::call(1, "fleet_status", json!({})),
    );
    assert_eq!(r.json()["result"]["isError"], false, "{}", r.body);
    assert_eq!(s.request("GET", "/health", &[], b"").status, 200);
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "others waited {:?}",
        t.elapsed()
    );
    // Every stalled request is answered (408 when its body deadline passed, 429 beyond its
    // token's cap) and its connection closed, none held open.
    let mut seen = std::collections::BTreeMap::new();
    for c in &mut stalled {
        let left = Duration::from_secs(25).saturating_sub(started.elapsed());
        let status = answered(c, left.max(Duration::from_millis(10)));
        *seen.entry(status).or_insert(0) += 1;
    }
    assert!(
        seen.keys().all(|k| matches!(k, Some(408 | 429))),
        "{seen:?}"
    );
    assert!(seen.contains_key(&Some(408)), "{seen:?}");
    assert!(
        seen.contains_key(&Some(429)),
        "one token holds at most its cap: {seen:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn health_answers_while_every_connection_slot_is_held() {
    let env = Env::new();
    let s = Server::start(&env, &[]);
    // More connections than the server serves in full, each stalled mid-headers.
    let held: Vec<TcpStream> = (0..1100)
        .map(|_| {
            let mut c = TcpStream::connect(&s.addr).unwrap();
            c.write_all(b"GET /health HTTP/1.1\r\nHost: loc").unwrap();
            c
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let t = Instant::now();
    let health = s.request("GET", "/health", &[], b"");
    assert_eq!(health.status, 200, "{}", health.body);
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "health took {:?}",
        t.elapsed()
    );
    let busy = s.post("/mcp", &[], &client::init(V));
    assert_eq!(
        busy.status, 503,
        "the reserve serves health only: {}",
        busy.body
    );
    assert_eq!(busy.header("retry-after"), Some("1"));
    drop(held);
}

#[test]
fn a_tool_call_past_its_deadline_is_answered_and_health_needs_no_worker() {
    let env = Env::new();
    env.write(
        "config.toml",
        "fleet = \"team\"\n[mcp]\ncall_timeout_secs = 2\n[limits]\nlock_wait_ms = 20000\n",
    );
    let spool = env.ctxlake_home().join("spool/mcp");
    std::fs::create_dir_all(&spool).unwrap();
    // Another process holds the fleet's spool lock, so a write waits (up to 20 s).
    // `--no-fork`: the lock dies with the process we kill, not with a forked `sleep`.
    let mut holder = std::process::Command::new("flock")
        .arg("--no-fork")
        .arg(spool.join("team.ndjson"))
        .args(["sleep", "15"])
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let s = Server::start(&env, &[]);
    let sid = s.initialize("/mcp", V, &[]);
    let h = [
        ("Mcp-Session-Id", sid.as_str()),
        ("MCP-Protocol-Version", V),
    ];
    let t = Instant::now();
    let args = json!({"paths": ["src/x"], "reason": "r"});
    let r = s.post("/mcp", &h, &client::call(7, "fleet_claim", args.clone()));
    let waited = t.elapsed();
    // Every worker is now held by a waiting write: /health still answers at once.
    std::thread::scope(|scope| {
        for i in 0..9 {
            let (s, h, args) = (&s, &h, args.clone());
            scope.spawn(move || s.post("/mcp", h, &client::call(20 + i, "fleet_claim", args)));
        }
        std::thread::sleep(Duration::from_millis(500));
        let t = Instant::now();
        assert_eq!(s.request("GET", "/health", &[], b"").status, 200);
        assert!(
            t.elapsed() < Duration::from_secs(1),
            "health took {:?}",
            t.elapsed()
        );
    });
    let _ = holder.kill();
    let _ = holder.wait();
    assert!(waited < Duration::from_secs(6), "answered after {waited:?}");
    assert_eq!(r.json()["id"], 7, "{}", r.body);
    assert_eq!(r.rpc_code(), Some(-32001), "{}", r.body);
    assert!(r.body.contains("call_timeout_secs"), "{}", r.body);
    // The server goes on serving.
    let ok = s.post("/mcp", &h, &client::call(8, "fleet_status", json!({})));
    assert_eq!(ok.json()["result"]["isError"], false, "{}", ok.body);
}

/// A `subscriptions/listen` stream opened with `auth`: the connection and its status.
fn listen(addr: &str, auth: &str) -> (TcpStream, Option<u16>) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen",
        "params": {"notifications": {"toolsListChanged": true},
                   "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                             "io.modelcontextprotocol/clientCapabilities": {}}}})
    .to_string();
    let mut c = TcpStream::connect(addr).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nAuthorization: {auth}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    c.write_all(head.as_bytes()).unwrap();
    let status = answered(&mut c, Duration::from_secs(10));
    (c, status)
}

#[test]
fn open_streams_are_capped_per_token_and_end_with_their_token() {
    let env = Env::new();
    let a = Server::bearer(&new_token(&env, "a", &[]));
    let b = Server::bearer(&new_token(&env, "b", &[]));
    let s = Server::start(&env, &[]);
    let mut open: Vec<TcpStream> = (0..16)
        .map(|i| {
            let (c, status) = listen(&s.addr, &a);
            assert_eq!(status, Some(200), "stream {i}");
            c
        })
        .collect();
    assert_eq!(listen(&s.addr, &a).1, Some(429), "a is at its cap");
    let (_other, status) = listen(&s.addr, &b);
    assert_eq!(status, Some(200), "b has its own");
    env.cmd()
        .args(["mcp", "token", "revoke", "a"])
        .assert()
        .success();
    let t = Instant::now();
    for c in &mut open {
        assert!(
            ends(c, Duration::from_secs(10)),
            "a stream of `a` stayed open"
        );
    }
    assert!(
        t.elapsed() < Duration::from_secs(8),
        "streams ended after {:?}",
        t.elapsed()
    );
}

/// Whether a chunked stream ends (its last chunk, or the connection closing) within `wait`.
fn ends(c: &mut TcpStream, wait: Duration) -> bool {
    let until = Instant::now() + wait;
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    while Instant::now() < until {
        c.set_read_timeout(Some(until - Instant::now())).unwrap();
        match c.read(&mut buf) {
            Ok(0) => return true,
            Ok(n) => {
                seen.extend_from_slice(&buf[..n]);
                if seen.ends_with(b"0\r\n\r\n") {
                    return true;
                }
            }
            Err(_) => return false,
        }
    }
    false
}
