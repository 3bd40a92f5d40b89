//! The public secret corpus (Nosey Parker's rule examples, `../shared/corpora/`) through
//! every write path: MCP, the CLI, the hook, and `sync` re-scrubbing a spool record that an
//! older or foreign writer left unredacted. Each path must store exactly what the write
//! boundary (`ctxlake::scrub::scrub`) makes of the text: no path may skip or reorder it.
//! The corpus is not part of the crate, so these tests are `#[ignore]`d; `.ci/run` runs
//! them with `--include-ignored`.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Env, local_lake_records};

/// The corpus positives. The file is `CTXLAKE_TEST_CORPUS`, else `../shared/corpora/`
/// beside the checkout; missing, the test fails saying so (it was asked to run).
fn positives() -> Vec<String> {
    let path = std::env::var_os("CTXLAKE_TEST_CORPUS").map_or_else(
        || {
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../shared/corpora/noseyparker-rule-examples.jsonl"
            )
            .into()
        },
        std::path::PathBuf::from,
    );
    let Ok(text) = std::fs::read_to_string(&path) else {
        panic!(
            "this test needs Nosey Parker's rule examples, not found at {}: set \
             CTXLAKE_TEST_CORPUS to shared/corpora/noseyparker-rule-examples.jsonl (.ci/run \
             sets it from ../shared)",
            path.display()
        );
    };
    let texts = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["kind"] == "positive")
        .filter_map(|v| v["text"].as_str().map(String::from))
        .collect::<Vec<_>>();
    assert!(texts.len() > 400, "{} positives", texts.len());
    texts
}

/// What the write boundary makes of one string field bounded at `max`.
fn scrubbed(text: &str, max: usize) -> Value {
    let mut v = json!({ "f": text });
    ctxlake::scrub::scrub(&mut v, max);
    v["f"].clone()
}

fn spool_records(env: &Env, rel: &str) -> Vec<ctxlake::spool::Record> {
    ctxlake::spool::read_file(&env.ctxlake_home().join(rel), 0)
        .unwrap()
        .records
}

/// At least this many texts must change, or the comparison proves nothing.
fn assert_mostly_redacted(texts: &[String], max: usize) {
    let changed = texts
        .iter()
        .filter(|t| scrubbed(t, max) != Value::String((*t).clone()))
        .count();
    assert!(
        changed * 10 >= texts.len() * 7,
        "{changed} of {}",
        texts.len()
    );
}

#[test]
#[ignore = "needs the Nosey Parker corpus: run .ci/run"]
fn mcp_writes_store_exactly_the_boundary_output() {
    let texts = positives();
    assert_mostly_redacted(&texts, 4000);
    let env = Env::new();
    let mut lines = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}})
        .to_string(),
    ];
    for (i, t) in texts.iter().enumerate() {
        lines.push(
            json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
                "params": {"name": "fleet_handoff", "arguments": {"summary": t, "status": "done"}}})
            .to_string(),
        );
    }
    env.cmd()
        .arg("mcp")
        .write_stdin(lines.join("\n") + "\n")
        .timeout(Duration::from_secs(120))
        .assert()
        .success();
    let recs = spool_records(&env, "spool/mcp/default.ndjson");
    assert_eq!(recs.len(), texts.len());
    for (r, t) in recs.iter().zip(&texts) {
        assert_eq!(r.payload["summary"], scrubbed(t, 4000), "MCP stored: {t}");
    }
}

#[test]
#[ignore = "needs the Nosey Parker corpus: run .ci/run"]
fn cli_writes_store_exactly_the_boundary_output() {
    let texts = positives();
    let env = Env::new();
    // Every fourth text: each is a whole process, and MCP covers all of them above.
    let sample: Vec<&String> = texts.iter().step_by(4).collect();
    for t in &sample {
        env.cmd()
            .args(["fleet", "handoff", "--status", "done", "-q", "--", t])
            .assert()
            .success();
    }
    let recs = spool_records(&env, "spool/mcp/default.ndjson");
    assert_eq!(recs.len(), sample.len());
    for (r, t) in recs.iter().zip(&sample) {
        assert_eq!(r.payload["summary"], scrubbed(t, 4000), "CLI stored: {t}");
    }
}

#[test]
#[ignore = "needs the Nosey Parker corpus: run .ci/run"]
fn hook_captures_store_exactly_the_boundary_output() {
    let texts = positives();
    let env = Env::new();
    let sample: Vec<&String> = texts.iter().step_by(3).collect();
    for t in &sample {
        let payload = json!({"session_id": "corpus", "hook_event_name": "UserPromptSubmit",
            "cwd": env.work().display().to_string(), "prompt": t});
        env.cmd()
            .args(["hook", "claude-code"])
            .write_stdin(payload.to_string())
            .assert()
            .success();
    }
    let recs = spool_records(&env, "spool/hooks/claude-code/corpus.ndjson");
    assert_eq!(recs.len(), sample.len());
    for (r, t) in recs.iter().zip(&sample) {
        assert_eq!(r.payload["prompt"], scrubbed(t, 2000), "hook stored: {t}");
    }
}

/// A spool record that never passed the boundary (an older build, a foreign writer) is
/// scrubbed by `sync` before it becomes a lake object.
#[test]
#[ignore = "needs the Nosey Parker corpus: run .ci/run"]
fn sync_rescrubs_what_reaches_the_lake() {
    let texts = positives();
    let env = Env::new();
    let spool = env.ctxlake_home().join("spool/mcp/default.ndjson");
    std::fs::create_dir_all(spool.parent().unwrap()).unwrap();
    let mut raw = Vec::new();
    let mut ids = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        let id = ctxlake::ulid::encode(1_764_000_000_000 + i as u64, i as u128);
        let rec = ctxlake::spool::Record {
            id: id.clone(),
            ts: ctxlake::time::format_ms(1_764_000_000_000 + i as i64),
            fleet: "default".into(),
            agent: "old-client".into(),
            session: "old-session".into(),
            kind: ctxlake::spool::RecordKind::FleetHandoff,
            payload: json!({"summary": t, "status": "done"}),
        };
        raw.extend(ctxlake::spool::encode(&rec).unwrap());
        ids.push(id);
    }
    std::fs::write(&spool, raw).unwrap();
    env.cmd().args(["sync", "-q"]).assert().success();
    let notes = local_lake_records(&env.ctxlake_home().join("lake/handoffs/default"));
    for (id, t) in ids.iter().zip(&texts) {
        let note = notes.iter().find(|n| n["id"] == *id).expect("in the lake");
        assert_eq!(
            note["payload"]["summary"],
            scrubbed(t, 4000),
            "lake holds: {t}"
        );
    }
}
