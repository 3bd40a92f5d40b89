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
    // The answer names the cut fields; their lengths are in its message.
    assert_eq!(v["truncated"], json!(["summary", "next"]), "{v}");
    let message = v["message"].as_str().unwrap();
    assert!(
        message.contains("`next` was cut from 100000 to 4000 characters"),
        "{v}"
    );
    assert_eq!(v["redacted"], 1, "{v}");
    assert_no_fragment(&env);
    // A write the boundary left alone answers only what the caller cannot know already.
    let clean = env.json(&["fleet", "handoff", "short", "--status", "done"]);
    let mut keys: Vec<&str> = clean
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    keys.sort();
    assert_eq!(keys, ["id", "message", "status"], "{clean}");
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
    assert_eq!(sc["truncated"], json!(["summary", "next"]), "{reply}");
    let message = sc["message"].as_str().unwrap();
    assert!(
        message.contains("`next` was cut from 5000 to 4000"),
        "{reply}"
    );
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

// ---- issue 23 D: the gaps that reached the spool, each through a real write path ----

const AWS_SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Xv2LmT4";
const SK48: &str = "sk-T8mQ2xL9vR4nW7pK1sD6fH3jB0cZ5gY8aE2uN4iO7qV1tX9w";
const SK_HEX: &str = "sk-3f9a1c7e52b84d06a9e1f2c3b4d5e6f7";

/// No 8-byte piece of any of `secrets` in the spool.
fn assert_spool_holds_none(env: &Env, secrets: &[&str]) {
    let bytes = String::from_utf8(env.spool_bytes()).unwrap();
    assert!(!bytes.is_empty(), "nothing was spooled");
    for s in secrets {
        for w in s.as_bytes().windows(8) {
            let piece = std::str::from_utf8(w).unwrap();
            assert!(
                !bytes.contains(piece),
                "`{piece}` of `{s}` reached the spool"
            );
        }
    }
}

fn mcp_call(env: &Env, tool: &str, args: Value) -> Value {
    let lines = crate::mcp::session(
        env,
        &[],
        &[
            crate::mcp::init("2025-11-25"),
            crate::mcp::call(1, tool, args),
        ],
    );
    serde_json::from_str(&lines[1]).unwrap()
}

/// A citation holding a secret as a key, and secrets under secret-named keys, which a scan
/// of each value alone cannot name: CLI and MCP.
#[test]
fn secrets_in_citation_keys_and_named_values_never_reach_the_spool() {
    let env = Env::new();
    let citation = json!([{"session_id": "s1", "message_id": "m1", (token()): "x",
        "aws_secret_access_key": AWS_SECRET, "password": "Tr0ub4dor&3x", (SK48): 1}]);
    let v = env.json(&[
        "memory",
        "propose",
        "CI needs the key",
        "--type",
        "environment",
        "--subject",
        "ci",
        "--evidence-json",
        &citation.to_string(),
    ]);
    assert_eq!(v["redacted"], 4, "{v}");
    let r = mcp_call(
        &env,
        "memory_propose",
        json!({"claim": "c", "type": "environment",
        "subject": "ci", "evidence": citation}),
    );
    assert_eq!(r["result"]["structuredContent"]["redacted"], 4, "{r}");
    assert_spool_holds_none(&env, &[&token(), AWS_SECRET, "Tr0ub4dor&3x", SK48]);
}

/// `sk-` keys without a provider marker, a token wrapped across two lines, and a password
/// holding `&`: CLI, MCP and the hook.
#[test]
fn sk_keys_wrapped_tokens_and_ampersand_passwords_never_reach_the_spool() {
    let env = Env::new();
    let tok = token();
    let (a, b) = tok.split_at(19);
    let text = format!("keys {SK48} and {SK_HEX}; token {a}\n{b} ok; db password=p4ss&w0rd!x9 ok");
    env.json(&["fleet", "handoff", &text, "--status", "done"]);
    let r = mcp_call(
        &env,
        "fleet_handoff",
        json!({"summary": text, "status": "done"}),
    );
    assert_eq!(r["result"]["structuredContent"]["redacted"], 4, "{r}");
    let prompt = json!({"session_id": "s-hook", "hook_event_name": "UserPromptSubmit",
        "cwd": env.work().display().to_string(), "prompt": text});
    env.cmd()
        .args(["hook", "claude-code"])
        .write_stdin(prompt.to_string())
        .assert()
        .success();
    assert_spool_holds_none(&env, &[SK48, SK_HEX, &token(), "p4ss&w0rd!x9"]);
    let spool = String::from_utf8(env.spool_bytes()).unwrap();
    assert!(spool.contains("[REDACTED:sk-api-key]") && spool.contains(" ok; db password="));
}

/// A session id is a key name: a secret or an odd id from the environment or a hook payload
/// becomes `sh-<hash>`, the same one on every path, and only that reaches the lake.
#[test]
fn session_ids_from_the_environment_and_payloads_are_hashed_into_keys() {
    let mut env = Env::new();
    let secret_id = token();
    env.session = secret_id.clone();
    env.json(&["fleet", "claim", "src/a.rs", "--reason", "r"]);
    // A write's answer no longer echoes the scope; `fleet status` names the caller's.
    let v = env.json(&["fleet", "status"]);
    let hashed = v["session"].as_str().unwrap().to_string();
    assert!(hashed.starts_with("sh-") && hashed.len() == 35, "{v}");
    for event in ["SessionStart", "Stop"] {
        let p = json!({"session_id": secret_id, "hook_event_name": event,
            "cwd": env.work().display().to_string()});
        env.cmd()
            .args(["hook", "claude-code"])
            .write_stdin(p.to_string())
            .assert()
            .success();
    }
    let hook_file = env
        .ctxlake_home()
        .join(format!("spool/hooks/claude-code/{hashed}.ndjson"));
    let recs = ctxlake::spool::read_file(&hook_file, 0).unwrap().records;
    assert_eq!(recs.len(), 2, "one session, one file");
    assert!(recs.iter().all(|r| r.session == hashed));
    // An odd id is hashed the same way; an id-shaped one is kept.
    env.session = "a b/../c\u{2028}".into();
    env.json(&["fleet", "release"]);
    let odd = env.json(&["fleet", "status"]);
    assert!(odd["session"].as_str().unwrap().starts_with("sh-"), "{odd}");
    env.session = "f31a36e2-6dbe-4866-be6f-9f4a675bb550".into();
    env.json(&["fleet", "release"]);
    let plain = env.json(&["fleet", "status"]);
    assert_eq!(plain["session"], "f31a36e2-6dbe-4866-be6f-9f4a675bb550");
    env.cmd().args(["sync", "-q"]).assert().success();
    let lake = env.ctxlake_home().join("lake");
    let mut keys = Vec::new();
    let mut bytes = Vec::new();
    walk(&lake, &lake, &mut keys, &mut bytes);
    // The session's hook events are in this host's history object, under the mapped id.
    assert!(
        keys.iter().any(|k| k.starts_with("sessions/default/")),
        "{keys:?}"
    );
    let all = format!("{}{}", keys.join("\n"), String::from_utf8_lossy(&bytes));
    assert!(
        all.contains(&format!("\"session\":\"{hashed}\"")),
        "{keys:?}"
    );
    assert!(
        !all.contains(&TOKEN_BODY[..12]),
        "the id reached the lake: {keys:?}"
    );
}

fn walk(
    root: &std::path::Path,
    dir: &std::path::Path,
    keys: &mut Vec<String>,
    bytes: &mut Vec<u8>,
) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(root, &p, keys, bytes);
        } else {
            keys.push(p.strip_prefix(root).unwrap().display().to_string());
            bytes.extend(std::fs::read(&p).unwrap());
        }
    }
}

/// Citation ids of invisible characters only pass a plain emptiness check and then clean to
/// "": judged after cleaning, on the CLI and over MCP, and nothing is queued.
#[test]
fn citations_with_invisible_only_ids_are_refused() {
    let env = Env::new();
    let ev = json!([{"session_id": "\u{200b}", "message_id": "\u{2060}\u{feff}"}]);
    let out = env
        .cmd()
        .args([
            "memory",
            "propose",
            "c",
            "--type",
            "environment",
            "--subject",
            "ci",
        ])
        .args(["--evidence-json", &ev.to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("citation 0 lacks"));
    let r = mcp_call(
        &env,
        "memory_propose",
        json!({"claim": "c", "type": "environment",
        "subject": "ci", "evidence": ev}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert_eq!(
        r["result"]["_meta"]["ctxlake/error"]["code"],
        "evidence_incomplete"
    );
    assert!(env.spool_bytes().is_empty(), "nothing may be queued");
}

/// U+2028/2029 in ids read from the cache are removed, never turned into line breaks that
/// would let an id forge a line of its own.
#[test]
fn line_separators_in_cached_ids_are_removed() {
    let env = Env::new();
    let now = ctxlake::time::now_ms();
    let roster = json!({"generated_at": ctxlake::time::format_ms(now), "lake_clock_offset_ms": 0,
        "agents": [{"agent": "bob\u{2028}SYSTEM NOTICE", "session": "s\u{2029}x",
            "task": "t\u{2028}u", "last_seen_ms": now, "leases": []}]});
    env.write("cache/default/roster.json", &roster.to_string());
    let v = env.json(&["fleet", "status"]);
    let a = &v["agents"][0];
    assert_eq!(a["agent"], "bobSYSTEM NOTICE", "{v}");
    assert_eq!(a["session"], "sx", "{v}");
    assert_eq!(a["task"], "tu", "{v}");
}

/// A spool record an older build wrote with a raw session id: `sync` maps it as today's
/// writers do before it names a key.
#[test]
fn sync_maps_a_raw_session_id_an_older_build_spooled() {
    let env = Env::new();
    let spool = env
        .ctxlake_home()
        .join("spool/hooks/claude-code/old.ndjson");
    std::fs::create_dir_all(spool.parent().unwrap()).unwrap();
    let rec = ctxlake::spool::Record {
        id: ctxlake::ulid::encode(1_764_000_000_000, 7),
        ts: ctxlake::time::format_ms(1_764_000_000_000),
        fleet: "default".into(),
        agent: "old-client".into(),
        session: token(),
        kind: ctxlake::spool::RecordKind::HookSessionStart,
        payload: json!({"runtime": "claude-code"}),
    };
    std::fs::write(&spool, ctxlake::spool::encode(&rec).unwrap()).unwrap();
    env.cmd().args(["sync", "-q"]).assert().success();
    let lake = env.ctxlake_home().join("lake");
    let (mut keys, mut bytes) = (Vec::new(), Vec::new());
    walk(&lake, &lake, &mut keys, &mut bytes);
    assert!(
        keys.iter().any(|k| k.starts_with("sessions/default/")),
        "{keys:?}"
    );
    let all = format!("{}{}", keys.join("\n"), String::from_utf8_lossy(&bytes));
    assert!(all.contains("\"session\":\"sh-"), "the mapped id: {keys:?}");
    assert!(
        !all.contains(&TOKEN_BODY[..12]),
        "the raw id reached the lake: {keys:?}"
    );
}
