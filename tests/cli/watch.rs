//! `sync --watch` between its passes: a write an agent queued reaches the lake within a
//! quarter interval, not at the next pass.

use std::time::{Duration, Instant};

use crate::common::{Daemon, Env, local_lake_records};

/// The summaries of the handoffs a local lake holds for fleet `default`.
fn lake_notes(env: &Env) -> Vec<String> {
    let dir = env.ctxlake_home().join("lake/handoffs/default");
    if !dir.exists() {
        return Vec::new();
    }
    local_lake_records(&dir)
        .iter()
        .filter_map(|r| r["payload"]["summary"].as_str().map(String::from))
        .collect()
}

#[test]
fn a_queued_write_is_drained_well_before_the_next_pass() {
    let env = Env::new();
    // 30 s between passes: a drain that waited for the next pass could not pass this.
    let _daemon = Daemon::start(&env, 30);
    let written = Instant::now();
    env.cmd()
        .args(["fleet", "handoff", "prompt note", "--status", "in-progress"])
        .assert()
        .success();
    // In the lake, and out of the spool (the drained file goes right after the flush).
    while !lake_notes(&env).contains(&"prompt note".to_string())
        || env.json(&["status"])["spool_backlog_bytes"] != 0
    {
        assert!(
            written.elapsed() < Duration::from_secs(15),
            "the write was not drained within half an interval"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A store that fails is retried at the next pass only, not by every prompt drain: a
/// failing store costs no more attempts (nor probes) than before the drains existed.
#[test]
fn a_failing_store_is_retried_once_per_pass_not_by_every_drain() {
    let mut env = Env::new();
    let blocker = env.home().join("not-a-dir");
    std::fs::write(&blocker, b"x").unwrap();
    let store = format!("file://{}/lake", blocker.display());
    env.extra.push(("CTXLAKE_STORE".into(), store));
    env.cmd()
        .args(["fleet", "claim", "src/a", "--reason", "r"])
        .assert()
        .success();
    let err = env.home().join("daemon.err");
    let mut child = env
        .std_cmd()
        .args(["sync", "--watch", "--interval", "2", "-q"])
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(3000));
    let _ = child.kill();
    let _ = child.wait();
    let text = std::fs::read_to_string(&err).unwrap();
    let failures = text.lines().filter(|l| l.starts_with("error:")).count();
    // Passes at 0 s and 2 s; drains would have tried every half second in between.
    assert!((1..=2).contains(&failures), "{failures} attempts:\n{text}");
}
