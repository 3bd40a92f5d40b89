//! The read boundary: text planted in a snapshot row (a bidi override, a Unicode tag
//! character) never reaches an agent, through the CLI's `--json` or through MCP.

use ctxlake::snapshot::build::build;
use ctxlake::snapshot::rows::{ClaimRow, EventRow};
use ctxlake::vocab::{ClaimScope, ClaimStatus, ClaimType};
use serde_json::{Value, json};

use crate::common::Env;
use crate::mcp::{call, init, session};

const BIDI: char = '\u{202E}';
const TAG: char = '\u{E0041}';

/// `s` with both planted characters inside it.
fn planted(s: &str) -> String {
    let (a, b) = s.split_at(s.len() / 2);
    format!("{a}{BIDI}{b}{TAG}")
}

/// A published snapshot whose every string field carries the planted characters
/// (except the subject the timeline is asked about, which must match).
fn plant_snapshot(env: &Env) {
    let claim = ClaimRow {
        id: planted("c-widget-1"),
        text: format!("widget {} requires port 8080", planted("alpha")),
        claim_type: ClaimType::Environment,
        subject: planted("widgets"),
        scope: ClaimScope::Fleet,
        status: ClaimStatus::Promoted,
        independent_sessions: 2,
        confidence: 0.8,
        created_at: planted("2026-11-01T00:00:00.000Z"),
        // Inside the first ten bytes, the part `date` keeps.
        promoted_at: Some(format!("2026{BIDI}-11-02T00:00:00.000Z{TAG}")),
        agent: planted("agent-b"),
        session: planted("sess-b"),
        key: None,
        superseded_by: None,
        superseded_at: None,
        outdated_by: Some(planted("c-widget-2")),
        pending_by: None,
        last_evidence_at: planted("2026-11-02T00:00:00.000Z"),
    };
    let event = EventRow {
        at: planted("2026-11-02T00:00:00.000Z"),
        subject: "widgets".into(),
        kind: planted("claim_promoted"),
        claim_id: planted("c-widget-1"),
        agent: planted("agent-b"),
        session: planted("sess-b"),
        text: planted("widget requires port 8080"),
        related_id: None,
    };
    let dir = env.ctxlake_home().join("cache/default");
    std::fs::create_dir_all(&dir).unwrap();
    build(
        &dir.join("snapshot.bin"),
        &planted("snap-1"),
        "default",
        ctxlake::snapshot::MemoryMode::On,
        &[claim],
        &[event],
    )
    .unwrap();
}

/// Every string in `v`, keys included.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| {
            out.push(k.clone());
            strings(x, out)
        }),
        _ => {}
    }
}

/// Every planted string of `v`, named by where it came from.
fn leaks(what: &str, v: &Value, found: &mut Vec<String>) {
    let mut all = Vec::new();
    strings(v, &mut all);
    for s in all {
        if s.contains(BIDI) || s.contains(TAG) {
            found.push(format!("{what}: {s:?}"));
        }
    }
}

#[test]
fn planted_snapshot_text_reaches_neither_cli_nor_mcp() {
    let env = Env::new();
    plant_snapshot(&env);
    let search = env.json(&["memory", "search", "widget port"]);
    assert_eq!(search["results"].as_array().unwrap().len(), 1, "{search}");
    let mut found = Vec::new();
    leaks("memory search", &search, &mut found);
    let timeline = env.json(&["memory", "timeline", "widgets"]);
    assert_eq!(
        timeline["entries"].as_array().unwrap().len(),
        1,
        "{timeline}"
    );
    leaks("memory timeline", &timeline, &mut found);
    let list = env.json(&["memory", "list"]);
    assert_eq!(list["claims"].as_array().unwrap().len(), 1, "{list}");
    leaks("memory list", &list, &mut found);
    let lines = session(
        &env,
        &[],
        &[
            init("2025-11-25"),
            call(1, "memory_search", json!({"query": "widget port"})),
            call(2, "memory_timeline", json!({"subject": "widgets"})),
        ],
    );
    for line in &lines[1..] {
        let v: Value = serde_json::from_str(line).unwrap();
        assert!(v["result"]["isError"] != json!(true), "{v}");
        leaks("mcp", &v, &mut found);
    }
    assert_eq!(lines.len(), 3);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// A snapshot of `n` promoted claims that all match "widget flag".
fn widgets(env: &Env, n: usize) {
    let claims: Vec<ClaimRow> = (0..n)
        .map(|i| ClaimRow {
            id: format!("c{i:05}"),
            text: format!("widget {i} requires flag alpha{i}"),
            claim_type: ClaimType::Environment,
            subject: "widgets".into(),
            scope: ClaimScope::Fleet,
            status: ClaimStatus::Promoted,
            independent_sessions: 2,
            confidence: 0.8,
            created_at: "2026-11-01T00:00:00.000Z".into(),
            promoted_at: None,
            agent: "b".into(),
            session: "s".into(),
            key: None,
            superseded_by: None,
            superseded_at: None,
            outdated_by: None,
            pending_by: None,
            last_evidence_at: "2026-11-01T00:00:00.000Z".into(),
        })
        .collect();
    let dir = env.ctxlake_home().join("cache/default");
    std::fs::create_dir_all(&dir).unwrap();
    let _ = std::fs::remove_file(dir.join("snapshot.bin"));
    build(
        &dir.join("snapshot.bin"),
        "s",
        "default",
        ctxlake::snapshot::MemoryMode::On,
        &claims,
        &[],
    )
    .unwrap();
}

/// `truncated` is true whenever more visible claims matched than were returned, at any
/// k, a clamped one included; false when every match was returned.
#[test]
fn search_says_truncated_whenever_it_dropped_matches() {
    let env = Env::new();
    for n in [250usize, 1200] {
        widgets(&env, n);
        for k in ["10", "199", "200", "250", "500"] {
            let v = env.json(&["memory", "search", "widget flag", "-k", k]);
            let want = k.parse::<usize>().unwrap().min(200);
            assert_eq!(v["results"].as_array().unwrap().len(), want, "n={n} k={k}");
            assert_eq!(v["truncated"], true, "n={n} k={k}");
        }
    }
    widgets(&env, 200);
    for k in ["200", "500"] {
        let v = env.json(&["memory", "search", "widget flag", "-k", k]);
        assert_eq!(v["results"].as_array().unwrap().len(), 200, "k={k}");
        assert_eq!(v["truncated"], false, "k={k}");
    }
}
