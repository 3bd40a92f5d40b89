//! The eight tools through their subcommands: happy paths and every refusal.

use serde_json::json;

use crate::common::Env;

fn evidence(n: usize) -> String {
    let items: Vec<_> = (0..n)
        .map(|i| json!({"session_id": format!("s{i}"), "message_id": "m"}))
        .collect();
    serde_json::to_string(&items).unwrap()
}

#[test]
fn writes_are_queued_never_granted() {
    let env = Env::new();
    let v = env.json(&["fleet", "claim", "src/lib.rs", "--reason", "refactor"]);
    assert_eq!(v["status"], "queued");
    assert!(v["message"].as_str().unwrap().contains("queued for sync"));
    // The scope it was written as is the caller's own: `fleet status` says it, the
    // answer does not repeat it.
    assert!(
        v.get("agent").is_none() && v.get("session").is_none(),
        "{v}"
    );
    let me = env.json(&["fleet", "status"]);
    assert_eq!(
        (&me["agent"], &me["session"]),
        (&json!("agent-a"), &json!("sess-a"))
    );
    assert!(!v.to_string().contains("granted\""));
    let v = env.json(&["fleet", "release"]);
    assert_eq!(v["status"], "queued");
    let v = env.json(&[
        "fleet",
        "handoff",
        "did x",
        "--status",
        "in-progress",
        "--next",
        "do y",
    ]);
    assert_eq!(v["status"], "queued");
    let v = env.json(&[
        "memory",
        "propose",
        "CI needs -D warnings",
        "--type",
        "environment",
        "--subject",
        "ci",
        "--evidence",
        "s1:m1",
    ]);
    assert_eq!(v["status"], "queued");
    let check = env.json(&["spool", "check"]);
    assert_eq!(check["total_records"], 4);
    // The proposal is scope `agent`, a `memory_propose` event, and never says promoted.
    let spool = String::from_utf8(env.spool_bytes()).unwrap();
    assert!(spool.contains("\"scope\":\"agent\""));
    assert!(!spool.contains("promoted"));
}

#[test]
fn evidence_refusals_exit_1() {
    let env = Env::new();
    for (ev, code) in [
        ("[]", "evidence"),
        ("[{}]", "citation 0"),
        (evidence(21).as_str(), "21 citations"),
    ] {
        env.cmd()
            .args([
                "memory",
                "propose",
                "c",
                "--type",
                "outcome",
                "--subject",
                "s",
                "--evidence-json",
                ev,
            ])
            .assert()
            .code(1)
            .stderr(predicates::str::contains(code))
            .stderr(predicates::str::contains("hint:"));
    }
    env.cmd()
        .args([
            "memory",
            "propose",
            "c",
            "--type",
            "outcome",
            "--subject",
            "s",
        ])
        .assert()
        .code(1);
    env.cmd()
        .args([
            "memory",
            "propose",
            "c",
            "--type",
            "outcome",
            "--subject",
            "s",
            "--evidence-json",
            &evidence(20),
        ])
        .assert()
        .success();
    assert_eq!(
        env.json(&["spool", "check"])["total_records"],
        1,
        "refusals queue nothing"
    );
}

#[test]
fn bad_fleet_and_agent_ids_are_usage_errors() {
    let env = Env::new();
    for bad in ["../x", "a/b", "", "x y"] {
        env.cmd()
            .args(["--fleet", bad, "fleet", "status"])
            .assert()
            .code(2)
            .stderr(predicates::str::contains("hint:"));
    }
    env.cmd()
        .args(["--agent", "..", "fleet", "status"])
        .assert()
        .code(2);
    env.cmd()
        .env("CTXLAKE_FLEET_ID", "a/../b")
        .args(["fleet", "status"])
        .assert()
        .code(2);
    assert!(!env.ctxlake_home().join("spool").exists());
}

#[test]
fn over_cap_spool_refuses_with_what_to_run() {
    let env = Env::new();
    env.write("config.toml", "[limits]\nspool_max_bytes = 600\n");
    env.cmd()
        .args(["fleet", "claim", "a", "--reason", "r"])
        .assert()
        .success();
    env.cmd()
        .args(["fleet", "claim", "b", "--reason", "r"])
        .assert()
        .success();
    env.cmd()
        .args(["fleet", "claim", "c", "--reason", "r"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("ctxlake sync"));
    assert_eq!(env.json(&["spool", "check"])["total_records"], 2);
}

#[test]
fn reads_degrade_honestly() {
    let env = Env::new();
    let v = env.json(&["fleet", "status"]);
    assert_eq!(v["agents"], json!([]));
    assert!(v["note"].as_str().unwrap().contains("ctxlake sync"));
    assert!(v["generated_at"].is_null());
    let v = env.json(&["memory", "search", "anything"]);
    assert_eq!(v["enabled"], false);
    assert_eq!(v["results"], json!([]));
    assert!(v["note"].is_string());
    let v = env.json(&["memory", "timeline", "ci"]);
    assert_eq!(v["enabled"], false);
    let v = env.json(&["fleet", "history"]);
    assert_eq!(v["sessions"], json!([]));
    // Corrupt and unreadable caches: still exit 0, with a note.
    env.write("cache/default/roster.json", "{torn");
    env.write("cache/default/snapshot.bin", "not sqlite at all");
    std::fs::create_dir_all(env.ctxlake_home().join("cache/default/history.json")).unwrap();
    let v = env.json(&["fleet", "status"]);
    assert!(v["note"].as_str().unwrap().contains("corrupt"));
    let v = env.json(&["memory", "search", "x"]);
    assert_eq!(v["results"], json!([]));
    assert!(v["note"].as_str().unwrap().contains("unreadable"));
    let v = env.json(&["fleet", "history"]);
    assert!(v["note"].as_str().unwrap().contains("unreadable"));
}

#[test]
fn a_cached_roster_renders_leases_and_contention() {
    let env = Env::new();
    // Times far in the future keep the test independent of the clock; each lease expires
    // within the longest TTL (a week) of its grant, or it would be capped there.
    let ms = |t: &str| ctxlake::time::parse_rfc3339(t).unwrap();
    let (past, future) = (ms("2998-12-26T00:00:00Z"), ms("2999-01-01T00:00:00Z"));
    let roster = json!({
        "generated_at": "2026-01-01T00:00:00.000Z",
        "lake_clock_offset_ms": 0,
        "agents": [
            {"agent": "agent-a", "session": "sess-a", "task": "auth", "last_seen_ms": future,
             "leases": [{"repo": "r", "path": "src", "reason": "refactor\u{1b}[2J", "granted_at_ms": ms("2998-12-27T00:00:00Z"), "expires_at_ms": future}]},
            {"agent": "agent-b", "session": "sess-b", "last_seen_ms": future,
             "leases": [{"repo": "r", "path": "src/lib.rs", "reason": "fix", "granted_at_ms": past, "expires_at_ms": future}]}
        ]
    });
    env.write("cache/default/roster.json", &roster.to_string());
    let v = env.json(&["fleet", "status"]);
    let me = v["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == "agent-a")
        .unwrap();
    assert_eq!(me["you"], true);
    assert_eq!(me["leases"][0]["state"], "contended");
    assert_eq!(me["leases"][0]["holder"], "agent-b");
    assert_eq!(
        (
            &me["leases"][0]["granted_at"],
            &me["leases"][0]["expires_at"]
        ),
        (
            &json!("2998-12-27T00:00:00.000Z"),
            &json!("2999-01-01T00:00:00.000Z")
        ),
        "times in RFC 3339 where a script reads them"
    );
    assert_eq!(me["last_seen"], "2999-01-01T00:00:00.000Z");
    assert_eq!(
        me["leases"][0]["reason"], "refactor[2J",
        "escape sequences are stripped on read"
    );
    assert_eq!(v["contended"], 1);
    let text = env.cmd().args(["fleet", "status"]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("contended (held by") && text.contains("agent-b"),
        "{text}"
    );
    assert!(text.contains("advisory"), "{text}");
}

#[test]
fn secrets_never_reach_the_spool() {
    let env = Env::new();
    let token = format!("ghp_{}", "Zq8Xv2LmT4nR7pW1sK9dF3hJ6bY0cE5gU2aQ");
    let aws = format!("AKIA{}", "Q3EGRZPV7NDHLMXC");
    env.cmd()
        .args([
            "fleet",
            "handoff",
            &format!("pushed with {token}"),
            "--status",
            "done",
            "--next",
            &format!("key {aws}"),
        ])
        .assert()
        .success();
    let ev = json!([{"session_id": "s", "message_id": "m", "quote": format!("export GITHUB_TOKEN={token}"), "nested": {"k": [aws.clone()]}}]);
    env.cmd()
        .args([
            "memory",
            "propose",
            &format!("token {token} works"),
            "--type",
            "environment",
            "--subject",
            "gh",
            "--evidence-json",
            &ev.to_string(),
        ])
        .assert()
        .success();
    let bytes = String::from_utf8(env.spool_bytes()).unwrap();
    assert!(!bytes.contains(&token), "a GitHub token reached the spool");
    assert!(!bytes.contains(&aws), "an AWS key reached the spool");
    assert!(
        bytes.contains("[REDACTED:"),
        "redaction markers are written instead"
    );
}

#[test]
fn help_teaches_with_examples() {
    let env = Env::new();
    for args in [
        vec!["fleet", "status", "--help"],
        vec!["fleet", "claim", "--help"],
        vec!["fleet", "release", "--help"],
        vec!["fleet", "history", "--help"],
        vec!["fleet", "handoff", "--help"],
        vec!["memory", "search", "--help"],
        vec!["memory", "propose", "--help"],
        vec!["memory", "timeline", "--help"],
        vec!["init", "--help"],
        vec!["completions", "--help"],
    ] {
        env.cmd()
            .args(&args)
            .assert()
            .success()
            .stdout(predicates::str::contains("Example"));
    }
    env.cmd().arg("frobnicate").assert().code(2);
}

/// `in-progress` (the CLI's old spelling) and `in_progress` are both accepted, and one
/// spelling, `in_progress`, is stored and printed.
#[test]
fn handoff_status_takes_both_spellings_and_prints_one() {
    let env = Env::new();
    for s in ["in_progress", "in-progress"] {
        let v = env.json(&["fleet", "handoff", "half done", "--status", s]);
        assert_eq!(v["status"], "queued", "{s}");
    }
    let spool = String::from_utf8(env.spool_bytes()).unwrap();
    assert_eq!(spool.matches("\"status\":\"in_progress\"").count(), 2);
    assert!(!spool.contains("in-progress"));
    env.cmd()
        .args(["fleet", "handoff", "--help"])
        .assert()
        .success()
        .stdout(predicates::str::contains("in_progress"));
}

/// An unknown claim type is refused as a usage error naming the allowed values, as
/// `memory propose` does, rather than silently matching nothing.
#[test]
fn memory_search_refuses_an_unknown_type() {
    let env = Env::new();
    env.cmd()
        .args(["memory", "search", "q", "--type", "bogus"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("environment"));
    env.cmd()
        .args(["memory", "search", "q", "--type", "outcome"])
        .assert()
        .success();
}
