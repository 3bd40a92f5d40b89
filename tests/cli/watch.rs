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
    while !lake_notes(&env).contains(&"prompt note".to_string()) {
        assert!(
            written.elapsed() < Duration::from_secs(15),
            "the write was not drained within half an interval"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(env.json(&["status"])["spool_backlog_bytes"], 0);
}
