//! `maint` publishes once per state, settles races, and skips the fold when idle.

use super::*;
use crate::config::MemoryMode;
use crate::lake::keys;
use crate::lake::store::LocalStore;
use serde_json::json;

/// Create a batch of the one claim event `rec` in fleet `f`.
fn land(store: &LocalStore, rec: &crate::spool::Record) {
    let key = keys::claim_event_batch("f", &rec.id);
    store
        .create(&key, &crate::spool::encode(rec).unwrap())
        .unwrap();
}

/// A lake holding one claim event, and that event.
fn one_claim() -> (tempfile::TempDir, Paths, LocalStore, crate::spool::Record) {
    let d = tempfile::tempdir().unwrap();
    let paths = Paths::with_overrides(d.path().join("home"), None, None);
    let store = LocalStore::open(&d.path().join("lake")).unwrap();
    let payload = json!({"claim": "CI runs on Debian", "type": "environment", "subject": "ci",
        "evidence": [{"session_id": "s", "message_id": "m"}]});
    let ev = crate::lake::batch::test_record(1, "f", "memory_propose", payload);
    land(&store, &ev);
    (d, paths, store, ev)
}

#[test]
fn publish_is_idempotent_and_races_settle() {
    let (_d, paths, store, ev) = one_claim();
    let cfg = Config::default();
    let r = maint(&paths, &cfg, &store, "f", "w1").unwrap();
    assert_eq!(
        (r.outcome.as_str(), r.seq, r.promoted),
        ("published", Some(1), 1)
    );
    let again = maint(&paths, &cfg, &store, "f", "w2").unwrap();
    assert_eq!((again.outcome.as_str(), again.seq), ("unchanged", Some(1)));
    // Another host took seq 2 with a different state: we move to 3.
    store.create(&keys::manifest("f", 2), br#"{"seq":2,"snapshot_id":"other","key":"k","sha256":"x","writer":"w9","built_at":"t","mode":"on","claims":0}"#).unwrap();
    let mut ev2 = crate::lake::batch::test_record(2, "f", "memory_propose", ev.payload.clone());
    ev2.payload["claim"] = json!("CI runs on Debian 12");
    land(&store, &ev2);
    let r3 = maint(&paths, &cfg, &store, "f", "w1").unwrap();
    assert_eq!((r3.outcome.as_str(), r3.seq), ("published", Some(3)));
    let off = Config {
        memory_mode: MemoryMode::Off,
        ..Config::default()
    };
    assert_eq!(
        maint(&paths, &off, &store, "f", "w1").unwrap().outcome,
        MaintOutcome::Off
    );
}

/// An idle run skips the fold only while nothing it depends on moved: a new memory
/// mode or a newer manifest of another state, with no new event, still publishes.
#[test]
fn an_idle_run_skips_the_fold_only_when_nothing_moved() {
    let (_d, paths, store, _) = one_claim();
    let on = Config::default();
    let first = maint(&paths, &on, &store, "f", "w1").unwrap();
    let idle = maint(&paths, &on, &store, "f", "w1").unwrap();
    assert_eq!((idle.outcome.as_str(), idle.seq), ("unchanged", Some(1)));
    assert_eq!(
        (idle.snapshot_id, idle.claims, idle.promoted, idle.events),
        (first.snapshot_id.clone(), 1, 1, 1)
    );
    let shadow = Config {
        memory_mode: MemoryMode::Shadow,
        ..Config::default()
    };
    let r = maint(&paths, &shadow, &store, "f", "w1").unwrap();
    assert_eq!((r.outcome.as_str(), r.seq), ("published", Some(2)));
    assert_ne!(r.snapshot_id, first.snapshot_id);
    // Another host published another state on top: ours is published again.
    store.create(&keys::manifest("f", 3), br#"{"seq":3,"snapshot_id":"other","key":"k","sha256":"x","writer":"w9","built_at":"t","mode":"shadow","claims":0}"#).unwrap();
    let r = maint(&paths, &shadow, &store, "f", "w1").unwrap();
    assert_eq!((r.outcome.as_str(), r.seq), ("published", Some(4)));
    let idle = maint(&paths, &shadow, &store, "f", "w1").unwrap();
    assert_eq!((idle.outcome.as_str(), idle.seq), ("unchanged", Some(4)));
}

/// `--json` prints the outcome as it did when it was a string: one spelling per value.
#[test]
fn outcome_spelling_on_the_wire() {
    for o in MaintOutcome::ALL {
        assert_eq!(serde_json::to_value(o).unwrap(), o.as_str());
    }
    let r = MaintReport::default();
    assert_eq!(serde_json::to_value(&r).unwrap()["outcome"], "unchanged");
}
