//! The write boundary on every path (CLI, MCP, hook): a secret that straddles the length
//! bound leaves no fragment of itself in the spool, and a cut field is reported, never
//! silent.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::Env;

const TOKEN_BODY: &str = "Zq8Xv2LmT4nR7pW1sK9dF3hJ6bY0cE5gU2aQ";

fn token() -> String {
    format!("ghp_{TOKEN_BODY}")
}

/// Text whose secret starts `before_bound` characters before position `bound`.
fn straddling(bound: usize, before_bound: usize) -> String {
    format!("{} {} tail", "a".repeat(bound - before_bound - 1), token())
}

/// No 8-character piece of the token's body is in the spool.
fn assert_no_fragment(env: &Env) {
    let bytes = String::from_utf8(env.spool_bytes()).unwrap();
    for w in TOKEN_BODY.as_bytes().windows(8) {
        let frag = std::str::from_utf8(w).unwrap();
        assert!(
            !bytes.contains(frag),
            "`{frag}` of the token reached the spool"
        );
    }
}

#[test]
fn cli_write_reports_the_cut_and_leaves_no_fragment() {
    let env = Env::new();
    let summary = straddling(4000, 10);
    let long_next = "n".repeat(100_000);
    let v = env.json(&[
        "fleet", "handoff", &summary, "--status", "done", "--next", &long_next,
    ]);
    let cuts = v["truncated"].as_array().unwrap();
    assert_eq!(cuts.len(), 2, "{v}");
    let next = cuts.iter().find(|c| c["field"] == "next").unwrap();
    assert_eq!(next["chars"], 100_000);
    assert_eq!(next["kept"], 4000);
    assert_eq!(v["redacted"], 1, "{v}");
    assert_no_fragment(&env);
    let out = env
        .cmd()
        .args([
            "fleet", "handoff", "short", "--status", "done", "--next", &long_next,
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("`next` was cut from 100000 to 4000 characters"),
        "{text}"
    );
}

#[test]
fn mcp_write_reports_the_cut_and_leaves_no_fragment() {
    let env = Env::new();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}});
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "fleet_handoff", "arguments":
            {"summary": straddling(4000, 3), "status": "done", "next": "x".repeat(5000)}}});
    let out = env
        .cmd()
        .arg("mcp")
        .write_stdin(format!("{init}\n{call}\n"))
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let reply: Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    let sc = &reply["result"]["structuredContent"];
    let cuts = sc["truncated"].as_array().unwrap();
    let next = cuts.iter().find(|c| c["field"] == "next").unwrap();
    assert_eq!(next["chars"], 5000, "{reply}");
    assert_eq!(sc["redacted"], 1, "{reply}");
    assert_no_fragment(&env);
}

#[test]
fn hook_capture_leaves_no_fragment_at_its_bound() {
    let env = Env::new();
    for (i, before) in [1usize, 8, 20, 39].into_iter().enumerate() {
        let payload = json!({"session_id": format!("sess-{i}"), "hook_event_name": "UserPromptSubmit",
            "cwd": env.work().display().to_string(), "prompt": straddling(2000, before)});
        env.cmd()
            .args(["hook", "claude-code"])
            .write_stdin(payload.to_string())
            .assert()
            .success();
    }
    let dir = env.ctxlake_home().join("spool/hooks/claude-code");
    let mut all = String::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        all.push_str(&std::fs::read_to_string(e.path()).unwrap());
    }
    assert_eq!(all.lines().count(), 4, "{all}");
    for w in TOKEN_BODY.as_bytes().windows(8) {
        let frag = std::str::from_utf8(w).unwrap();
        assert!(
            !all.contains(frag),
            "`{frag}` of the token reached the hook spool"
        );
    }
}
