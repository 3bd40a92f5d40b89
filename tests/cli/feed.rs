//! Handoff batches and manifests reach other hosts through the lake's feed (lake format
//! 3): after a host's first pass of a fleet, its mirror lists only host rosters and the
//! feed, and reads each new handoff batch and manifest as a feed entry names it.

use serde_json::json;

use crate::common::Env;
use crate::s3::propose;

/// Two homes on one local lake.
fn two_hosts() -> (tempfile::TempDir, Env, Env) {
    let lake = tempfile::tempdir().unwrap();
    let store = format!("file://{}", lake.path().display());
    let [mut a, mut b] = [Env::new(), Env::new()];
    for env in [&mut a, &mut b] {
        env.extra.push(("CTXLAKE_STORE".into(), store.clone()));
    }
    (lake, a, b)
}

fn handoff(env: &Env, summary: &str) {
    env.cmd()
        .args(["fleet", "handoff", summary, "--status", "done"])
        .assert()
        .success();
}

fn summaries(env: &Env) -> Vec<String> {
    let h = env.json(&["fleet", "history"]);
    let notes = h["handoffs"].as_array().cloned().unwrap_or_default();
    let mut out: Vec<String> = notes
        .iter()
        .map(|n| n["summary"].as_str().unwrap_or_default().to_string())
        .collect();
    out.sort();
    out
}

/// A handoff written on host A reaches host B through the feed only (with A's feed
/// entry gone, B's next pass does not find it), and a manifest `maint` publishes on A is
/// picked up by B's mirror, whose snapshot `memory search` on B then answers from.
#[test]
fn handoffs_and_manifests_reach_another_host_through_the_feed() {
    let (lake, mut a, b) = two_hosts();
    a.as_agent("a1", "s1");
    handoff(&a, "first");
    a.cmd().arg("sync").assert().success();
    b.cmd().arg("sync").assert().success(); // B's first pass lists the fleet whole
    assert_eq!(summaries(&b), ["first"]);
    handoff(&a, "unnamed");
    a.cmd().arg("sync").assert().success();
    std::fs::remove_dir_all(lake.path().join("feed")).unwrap();
    b.cmd().arg("sync").assert().success();
    assert_eq!(
        summaries(&b),
        ["first"],
        "B lists no handoffs after its first pass"
    );

    handoff(&a, "named");
    propose(&a, "Integration tests need the postgres service running");
    propose(
        a.as_agent("a2", "s2"),
        "Integration tests need the postgres service running",
    );
    a.cmd().arg("sync").assert().success();
    let m = a.json(&["maint"]);
    assert_eq!(m["fleets"][0]["outcome"], "published", "{m}");
    let before = b.json(&["memory", "search", "postgres integration"]);
    assert_eq!(before["results"], json!([]), "{before}");
    b.cmd().arg("sync").assert().success();
    assert_eq!(summaries(&b), ["first", "named"]);
    let v = b.json(&["memory", "search", "postgres integration"]);
    assert_eq!(v["results"][0]["independent_sessions"], 2, "{v}");
}
