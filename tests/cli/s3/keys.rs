//! Hostile names in a real S3 listing (moto): a key with a `..` segment or an ASCII
//! control character, planted beside good objects, is skipped and counted; the listing,
//! and so every host's sync, goes on (issue 23).

use serde_json::Value;

use super::moto;
use crate::common::Env;

fn sync_json(env: &Env) -> Value {
    let out = env
        .cmd()
        .args(["sync", "--json"])
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "sync failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Keys (URL-escaped as moto takes them) no lake key may have, each under a prefix a
/// sync lists: the fleet markers, the rosters and the handoff batches.
const HOSTILE: [&str; 4] = [
    "team/fleets/f/batches/%2E%2E/x",
    "team/live/default/hosts/evil%01.json",
    "team/live/default/hosts/evil%1B%7F.json",
    "team/handoffs/default/%2E%2E/%2E%2E/x.ndjson",
];

#[test]
#[ignore = "needs moto: run .ci/run"]
fn keys_with_dot_dot_or_control_characters_are_skipped_and_the_sync_goes_on() {
    let m = moto::start();
    m.create_bucket("lake");
    let (mut a, b) = (
        m.host(&m.endpoint(), "s3://lake/team"),
        m.host(&m.endpoint(), "s3://lake/team"),
    );
    a.as_agent("a1", "s1");
    super::run(&a, &["fleet", "claim", "src/auth", "--reason", "refresh"]);
    super::run(
        &a,
        &[
            "fleet",
            "handoff",
            "auth half done",
            "--status",
            "in-progress",
        ],
    );
    let first = sync_json(&a);
    assert_eq!(
        first["skipped"]["bad_keys"].as_u64().unwrap_or(0),
        0,
        "{first}"
    );
    for k in HOSTILE {
        m.put("lake", k, b"{}");
    }
    let listed = m.keys("lake");
    assert!(
        listed.iter().any(|k| k.contains("/../")) && listed.iter().any(|k| k.contains('\u{1}')),
        "moto holds the hostile names as planted: {listed:?}"
    );

    // Host B's first sync: the good objects arrive, the hostile ones are counted.
    let v = sync_json(&b);
    let skipped = v["skipped"]["bad_keys"].as_u64().unwrap_or(0);
    assert_eq!(
        skipped,
        HOSTILE.len() as u64,
        "each hostile key counted once: {v}"
    );
    let held = super::leases(&b.json(&["fleet", "status"]), "a1");
    assert_eq!(held.len(), 1, "host A's lease reached host B");
    let h = b.json(&["fleet", "history"]);
    assert_eq!(h["handoffs"][0]["summary"], "auth half done", "{h}");
    let (_, d) = crate::doctor::doctor(&b, &[]);
    let c = crate::doctor::check(&d, "lake content");
    assert_eq!(c["status"], "warn", "{c}");

    // Host A goes on syncing too.
    let again = sync_json(&a);
    assert!(
        again["skipped"]["bad_keys"].as_u64().unwrap_or(0) > 0,
        "{again}"
    );
}
