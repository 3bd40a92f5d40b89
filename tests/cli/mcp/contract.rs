//! The contract between the two adapters: for every tool, `ctxlake <cmd> --json` equals the
//! MCP `structuredContent` for the same input, against a populated cache and snapshot.

use ctxlake::vocab::{ClaimScope, ClaimStatus, ClaimType};
use serde_json::{Value, json};

use super::{call, init, session};
use crate::common::Env;

/// The only fields allowed to differ between two calls of the same tool, and why:
/// `id` (top level of a write's answer) is a fresh ULID per queued record; `cache_age_secs`
/// (top level of a read's answer) is now minus the cache's `generated_at`, so it can tick
/// by a second between the two calls. Nothing else, nowhere else: not nested ids (claim
/// ids in search hits must match) and not `session` (both sides share CTXLAKE_SESSION_ID).
const PER_CALL: &[&str] = &["id", "cache_age_secs"];

/// Remove the per-call fields from the top level; return which were there.
fn strip(v: &mut Value) -> Vec<&'static str> {
    let o = v.as_object_mut().expect("tool outputs are objects");
    PER_CALL
        .iter()
        .copied()
        .filter(|k| o.remove(*k).is_some())
        .collect()
}

fn populate(env: &Env) {
    let live = ctxlake::time::parse_rfc3339("2999-01-01T00:00:00Z").unwrap();
    let granted = ctxlake::time::parse_rfc3339("2026-01-01T00:00:00Z").unwrap();
    env.write(
        "cache/default/roster.json",
        &json!({"generated_at": "2026-01-01T00:00:00.000Z", "lake_clock_offset_ms": 0, "agents": [
            {"agent": "agent-b", "session": "sess-b", "runtime": "codex", "task": "auth", "last_seen_ms": live,
             "leases": [{"repo": "r", "path": "src/auth", "reason": "refactor", "granted_at_ms": granted, "expires_at_ms": live}]}
        ]})
        .to_string(),
    );
    env.write(
        "cache/default/history.json",
        &json!({"generated_at": "2026-01-01T00:00:00.000Z", "sessions": [
            {"session": "sess-b", "agent": "agent-b", "started_at": "2026-01-01T00:00:00.000Z", "outcome": "clean",
             "files_touched": ["src/auth/mod.rs"], "commands": ["cargo test"], "tests": ["auth::login"]}
        ]})
        .to_string(),
    );
    env.write(
        "cache/default/handoffs.json",
        &json!({"generated_at": "2026-01-01T00:00:00.000Z", "handoffs": [
            {"id": "h1", "at": "2026-01-01T00:00:00.000Z", "agent": "agent-b", "session": "sess-b",
             "summary": "login half done", "status": "in_progress", "next": "finish tokens"}
        ]})
        .to_string(),
    );
    let claim = ctxlake::snapshot::rows::ClaimRow {
        id: "cc-01".into(),
        text: "the flaky test needs RUST_TEST_THREADS=1".into(),
        claim_type: ClaimType::Environment,
        subject: "ci".into(),
        scope: ClaimScope::Fleet,
        status: ClaimStatus::Promoted,
        independent_sessions: 2,
        confidence: 0.8,
        created_at: "2026-01-01T00:00:00.000Z".into(),
        promoted_at: Some("2026-01-02T00:00:00.000Z".into()),
        agent: "agent-b".into(),
        session: "sess-b".into(),
        key: Some("ci.test-threads".into()),
        superseded_by: None,
        superseded_at: None,
        outdated_by: None,
        pending_by: None,
        last_evidence_at: "2026-01-03T00:00:00.000Z".into(),
    };
    let event = ctxlake::snapshot::rows::EventRow {
        at: "2026-01-01T00:00:00.000Z".into(),
        subject: "ci".into(),
        kind: "outcome".into(),
        claim_id: "cc-01".into(),
        agent: "agent-b".into(),
        session: "sess-b".into(),
        text: "tried RUST_TEST_THREADS=1, it passed".into(),
        related_id: None,
    };
    // `fleet_status` lists the fleets this host served, from the call log the MCP side
    // appends to: one earlier call today (a server prunes old logs), so both sides see the
    // same log.
    let now = ctxlake::time::now_ms();
    env.write(
        &format!("logs/mcp-{}.jsonl", ctxlake::time::date_of(now)),
        &format!(
            "{}\n",
            json!({"ts": ctxlake::time::format_ms(now - 60_000), "fleet": "default",
                   "tool": "fleet_status", "args_hash": "0", "latency_ms": 1, "ok": true})
        ),
    );
    let snap = env.ctxlake_home().join("cache/default/snapshot.bin");
    ctxlake::snapshot::build::build(
        &snap,
        "snap-1",
        "default",
        ctxlake::snapshot::MemoryMode::On,
        &[claim],
        &[event],
    )
    .unwrap();
}

#[test]
fn every_tool_answers_the_same_json_on_both_surfaces() {
    let env = Env::new();
    populate(&env);
    let cases: Vec<(&str, Vec<&str>, Value)> = vec![
        ("fleet_status", vec!["fleet", "status"], json!({})),
        (
            "fleet_claim",
            vec![
                "fleet", "claim", "src/a.rs", "--reason", "refactor", "--ttl", "600",
            ],
            json!({"paths": ["src/a.rs"], "reason": "refactor", "ttl_secs": 600}),
        ),
        (
            "fleet_release",
            vec!["fleet", "release", "src/a.rs"],
            json!({"paths": ["src/a.rs"]}),
        ),
        (
            "fleet_history",
            vec!["fleet", "history", "--limit", "5"],
            json!({"limit": 5}),
        ),
        (
            "fleet_handoff",
            vec![
                "fleet",
                "handoff",
                "did x",
                "--status",
                "in-progress",
                "--next",
                "do y",
            ],
            json!({"summary": "did x", "status": "in_progress", "next": "do y"}),
        ),
        (
            "memory_search",
            vec!["memory", "search", "flaky test", "-k", "3"],
            json!({"query": "flaky test", "k": 3}),
        ),
        (
            "memory_propose",
            vec![
                "memory",
                "propose",
                "CI needs -D warnings",
                "--type",
                "convention",
                "--subject",
                "ci",
                "--evidence",
                "s1:m1",
            ],
            json!({"claim": "CI needs -D warnings", "type": "convention", "subject": "ci",
                "evidence": [{"session_id": "s1", "message_id": "m1"}]}),
        ),
        (
            "memory_timeline",
            vec!["memory", "timeline", "ci"],
            json!({"subject": "ci"}),
        ),
    ];
    let mut frames = vec![init("2025-11-25")];
    frames.extend(
        cases
            .iter()
            .enumerate()
            .map(|(i, (t, _, a))| call(i as i64 + 1, t, a.clone())),
    );
    let answers = session(&env, &[], &frames);
    assert_eq!(answers.len(), cases.len() + 1);
    for ((tool, argv, _), line) in cases.iter().zip(&answers[1..]) {
        let frame: Value = serde_json::from_str(line).unwrap();
        assert_eq!(frame["result"]["isError"], false, "{tool}: {frame}");
        let mut mcp = frame["result"]["structuredContent"].clone();
        let mut cli = env.json(argv);
        let (a, b) = (strip(&mut mcp), strip(&mut cli));
        assert_eq!(a, b, "{tool}: the same per-call fields on both sides");
        let writes = [
            "fleet_claim",
            "fleet_release",
            "fleet_handoff",
            "memory_propose",
        ];
        let expected: &[&str] = if writes.contains(tool) {
            &["id"]
        } else if tool.starts_with("fleet_") {
            &["cache_age_secs"]
        } else {
            &[]
        };
        assert_eq!(a, expected, "{tool}: ignored exactly {expected:?}");
        assert_eq!(
            cli,
            mcp,
            "{tool}: `ctxlake {}` --json differs from MCP",
            argv.join(" ")
        );
    }
    // The comparison bites on real data, and ignores exactly what it says it ignores.
    let search: Value = serde_json::from_str(&answers[6]).unwrap();
    assert_eq!(
        search["result"]["structuredContent"]["results"][0]["id"],
        "cc-01"
    );
    let timeline: Value = serde_json::from_str(&answers[8]).unwrap();
    assert_eq!(
        timeline["result"]["structuredContent"]["entries"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}
