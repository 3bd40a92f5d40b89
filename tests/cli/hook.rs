//! `ctxlake hook <runtime>` against the real binary: captured payloads in, the spool and
//! stdout out. A hook always exits 0, whatever it is fed.

use serde_json::{Value, json};

use crate::common::Env;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/hooks/");

fn fixture(rel: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(format!("{FIXTURES}{rel}")).unwrap()).unwrap()
}

/// Run `ctxlake hook <args>` with `stdin`; assert exit 0; return stdout.
fn hook(env: &Env, args: &[&str], stdin: impl Into<Vec<u8>>) -> String {
    let out = env
        .cmd()
        .arg("hook")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "hook {args:?} exited {}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn records(env: &Env, runtime: &str, session: &str) -> Vec<ctxlake::spool::Record> {
    let p = env
        .ctxlake_home()
        .join(format!("spool/hooks/{runtime}/{session}.ndjson"));
    ctxlake::spool::read_file(&p, 0).unwrap().records
}

fn hook_log(env: &Env) -> String {
    let dir = env.ctxlake_home().join("logs");
    let mut all = String::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        all.push_str(&std::fs::read_to_string(e.path()).unwrap_or_default());
    }
    all
}

/// A claude payload from the fixtures, moved into this test's work dir.
fn claude(env: &Env, name: &str) -> Value {
    let mut v = fixture(&format!("claude-code/{name}"));
    let work = env.work().display().to_string();
    let text = v
        .to_string()
        .replace("/work/rt-hook/cap-claude2/proj", &work);
    v = serde_json::from_str(&text).unwrap();
    v
}

#[test]
fn session_start_is_captured_under_the_real_session_id_and_briefs() {
    let env = Env::new();
    let out = hook(
        &env,
        &["claude-code"],
        claude(&env, "session-start.json").to_string(),
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
    let ctx = v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(ctx.contains("ctxlake fleet briefing"), "{ctx}");
    let sid = "f31a36e2-6dbe-4866-be6f-9f4a675bb550";
    let recs = records(&env, "claude-code", sid);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].session, sid);
    assert_eq!(recs[0].kind.as_str(), "hook_session_start");
    assert_eq!(recs[0].agent, "agent-a");
    assert_eq!(recs[0].payload["runtime"], "claude-code");
    assert_eq!(recs[0].payload["source"], "startup");

    // Every later event of the session lands in the same file, in order.
    for f in [
        "user-prompt-submit.json",
        "post-tool-use-failure-bash.json",
        "session-end.json",
    ] {
        assert_eq!(
            hook(&env, &["claude-code"], claude(&env, f).to_string()),
            ""
        );
    }
    let kinds: Vec<String> = records(&env, "claude-code", sid)
        .into_iter()
        .map(|r| r.kind.as_str().to_string())
        .collect();
    assert_eq!(
        kinds,
        [
            "hook_session_start",
            "hook_prompt",
            "hook_tool_failed",
            "hook_session_end"
        ]
    );
    let failed = &records(&env, "claude-code", sid)[2].payload;
    assert_eq!(
        (failed["exit_code"].as_i64(), failed["ok"].as_bool()),
        (Some(1), Some(false))
    );
}

#[test]
fn secrets_never_reach_the_spool() {
    let env = Env::new();
    let token = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB";
    let aws = "AKIAIOSFODNN7EXAMPLQ";
    let mut w = claude(&env, "pre-tool-use-write.json");
    w["tool_input"]["content"] = json!(format!("GITHUB_TOKEN={token}\n"));
    hook(&env, &["claude-code"], w.to_string());
    let mut p = claude(&env, "user-prompt-submit.json");
    p["prompt"] = json!(format!("use {token} and {aws} to deploy"));
    hook(&env, &["claude-code"], p.to_string());
    let mut b = claude(&env, "pre-tool-use-bash.json");
    b["tool_input"]["command"] = json!(format!("curl -H 'Authorization: token {token}' x"));
    hook(&env, &["claude-code"], b.to_string());
    let bytes = String::from_utf8_lossy(&env.spool_bytes()).into_owned();
    assert_eq!(bytes.lines().count(), 3, "three events captured");
    // File contents are never captured at all, whatever the redactor knows.
    assert!(!bytes.contains("GITHUB_TOKEN"), "{bytes}");
    // Prompts and commands are kept, scrubbed by the same redactor as the tools.
    assert!(!bytes.contains(token) && !bytes.contains(aws), "{bytes}");
    assert!(bytes.contains("[REDACTED:"), "{bytes}");
}

#[test]
fn malformed_or_empty_stdin_exits_zero_and_logs() {
    let env = Env::new();
    for bad in [&b"{not json"[..], b"", b"[1,2]", &[0xff, 0xfe, 0x00]] {
        assert_eq!(hook(&env, &["claude-code"], bad.to_vec()), "");
    }
    let log = hook_log(&env);
    assert_eq!(
        log.matches("claude-code malformed payload").count(),
        4,
        "{log}"
    );
    assert!(env.spool_bytes().is_empty());
    // Bad ids in the environment or config are logged, and the event is still captured.
    let mut env = Env::new();
    env.extra
        .push(("CTXLAKE_FLEET_ID".into(), "../escape".into()));
    env.write("config.toml", "fleet = [broken\n");
    hook(
        &env,
        &["hermes"],
        fixture("hermes/on_session_end.json").to_string(),
    );
    assert_eq!(records(&env, "hermes", "test-session").len(), 1);
    let log = hook_log(&env);
    assert!(
        log.contains("config ignored") && log.contains("scope defaulted"),
        "{log}"
    );
}

/// A roster where `alice` holds `src/auth` in the work dir's repository.
fn lease_src_auth(env: &Env) {
    std::fs::create_dir_all(env.work().join(".git")).unwrap();
    let now = ctxlake::time::now_ms();
    let far = ctxlake::time::parse_rfc3339("2999-01-01T00:00:00Z").unwrap();
    let roster = json!({
        "generated_at": ctxlake::time::format_ms(now), "lake_clock_offset_ms": 0,
        "agents": [{"agent": "alice", "session": "s-alice", "runtime": "codex",
            "task": "auth refactor", "last_seen_ms": now,
            "leases": [{"repo": env.work().display().to_string(), "path": "src/auth",
                "reason": "refactor login", "granted_at_ms": now,
                "expires_at_ms": far}]}]
    });
    env.write("cache/default/roster.json", &roster.to_string());
}

#[test]
fn edit_of_a_leased_path_warns_by_default_and_blocks_when_configured() {
    let env = Env::new();
    lease_src_auth(&env);
    let mut edit = claude(&env, "pre-tool-use-edit.json");
    edit["tool_input"]["file_path"] = json!(env.work().join("src/auth/login.rs"));
    let out: Value = serde_json::from_str(&hook(&env, &["claude-code"], edit.to_string())).unwrap();
    let ctx = out["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    for part in [
        "alice",
        "refactor login",
        "2999-01-01T00:00:00.000Z",
        "advisory",
    ] {
        assert!(ctx.contains(part), "{part}: {ctx}");
    }
    assert!(out["systemMessage"].as_str().unwrap().contains("alice"));
    assert!(
        out["hookSpecificOutput"]
            .get("permissionDecision")
            .is_none(),
        "{out}"
    );
    // Not leased: silence.
    let mut other = edit.clone();
    other["tool_input"]["file_path"] = json!(env.work().join("README.md"));
    assert_eq!(hook(&env, &["claude-code"], other.to_string()), "");
    // The session-start briefing names the holder too.
    let start = hook(
        &env,
        &["claude-code"],
        claude(&env, "session-start.json").to_string(),
    );
    assert!(
        start.contains("alice") && start.contains("src/auth"),
        "{start}"
    );

    env.write("config.toml", "[hooks]\nblock_on_conflict = true\n");
    let out: Value = serde_json::from_str(&hook(&env, &["claude-code"], edit.to_string())).unwrap();
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out}"
    );
    let mut h = fixture("hermes/pre_tool_call.json");
    h["tool_name"] = json!("write_file");
    h["tool_input"] = json!({"path": env.work().join("src/auth/x.rs"), "content": "x"});
    let out: Value = serde_json::from_str(&hook(&env, &["hermes"], h.to_string())).unwrap();
    assert_eq!(out["decision"], "block", "{out}");
    assert!(out["reason"].as_str().unwrap().contains("alice"));
}

#[test]
fn hermes_briefs_on_its_first_llm_call_and_honours_fleet_flag() {
    let env = Env::new();
    let out = hook(
        &env,
        &["--fleet", "team-x", "hermes"],
        fixture("hermes/pre_llm_call.json").to_string(),
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["context"].as_str().unwrap().contains("fleet `team-x`"),
        "{v}"
    );
    let recs = records(&env, "hermes", "test-session");
    assert_eq!(
        (recs[0].fleet.as_str(), recs[0].kind.as_str()),
        ("team-x", "hook_prompt")
    );
    // Later turns: captured, no briefing.
    let mut later = fixture("hermes/pre_llm_call.json");
    later["extra"]["is_first_turn"] = json!(false);
    assert_eq!(hook(&env, &["hermes"], later.to_string()), "");
}

#[test]
fn event_name_from_the_command_line_and_a_full_spool_drops_and_counts() {
    let env = Env::new();
    let out = hook(
        &env,
        &["cursor", "sessionStart"],
        r#"{"conversation_id":"c1"}"#,
    );
    assert!(serde_json::from_str::<Value>(&out).unwrap()["additional_context"].is_string());
    assert_eq!(records(&env, "cursor", "c1").len(), 1);

    env.write("config.toml", "[limits]\nspool_max_bytes = 10\n");
    let p = fixture("hermes/post_tool_call.json").to_string();
    assert_eq!(hook(&env, &["hermes"], p.clone()), "");
    assert_eq!(hook(&env, &["hermes"], p), "");
    let count = std::fs::read_to_string(env.ctxlake_home().join("state/hook-dropped.count"));
    assert_eq!(count.unwrap().trim(), "2");
    assert!(hook_log(&env).contains("dropped: the hook spool is full"));

    // A bad embedder in the environment is not the hook's business: the config holds.
    let mut bad = env;
    bad.extra.push(("CTXLAKE_EMBEDDER".into(), "bogus".into()));
    let p = fixture("hermes/post_tool_call.json").to_string();
    assert_eq!(hook(&bad, &["hermes"], p), "");
    let count = std::fs::read_to_string(bad.ctxlake_home().join("state/hook-dropped.count"));
    assert_eq!(count.unwrap().trim(), "3", "the spool limit still applied");
}

/// The binary serves HTTP, so its own image must be address-randomized: a PIE. (It was once
/// linked `-no-pie` to spare the hook the loader's relative relocations; see the README's
/// *Semantic memory* for what PIE costs the hook.)
#[cfg(target_os = "linux")]
#[test]
fn the_binary_is_position_independent_on_linux() {
    let bin = std::fs::read(assert_cmd::cargo::cargo_bin("ctxlake")).unwrap();
    assert_eq!(&bin[..4], b"\x7fELF");
    // e_type, little-endian at offset 16: 2 = ET_EXEC, 3 = ET_DYN (a PIE).
    let e_type = u16::from_le_bytes([bin[16], bin[17]]);
    assert_eq!(
        e_type, 3,
        "ctxlake is not a PIE: its image would not be randomized"
    );
}
