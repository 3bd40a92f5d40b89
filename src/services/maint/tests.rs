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

/// The published snapshot is hashed and copied from this host's built file, never held
/// whole: the lake's object is that file's bytes, named by their SHA-256 as the manifest
/// says, and the build leaves no temporary file.
#[test]
fn the_published_snapshot_is_the_built_file_named_by_its_digest() {
    let (_d, paths, store, _) = one_claim();
    let r = maint(&paths, &Config::default(), &store, "f", "w1").unwrap();
    assert_eq!(r.seq, Some(1));
    let m: crate::lake::manifest::Manifest =
        serde_json::from_slice(&store.get(&keys::manifest("f", 1)).unwrap().unwrap().0).unwrap();
    let object = store.get(&m.key).unwrap().unwrap().0;
    assert_eq!(crate::digest::sha256_hex(&object), m.sha256);
    assert_eq!(m.key, keys::snapshot("f", &m.sha256));
    let built = std::fs::read(paths.maint_dir().join("f.snapshot")).unwrap();
    assert!(object == built, "the built file's bytes");
    let temps = std::fs::read_dir(paths.maint_dir())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".tmp-")
        })
        .count();
    assert_eq!(temps, 0);
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

/// With nothing new, `maint` answers from the head without reading the fold state: a
/// `.fold` garbled in place (same size, mtime and inode) is neither read nor rewritten,
/// and the report is the one the load would have made.
#[test]
fn an_idle_run_reads_the_head_not_the_state() {
    let (_d, paths, store, _) = one_claim();
    let cfg = Config::default();
    let first = maint(&paths, &cfg, &store, "f", "w1").unwrap();
    let fold = paths.maint_dir().join("f.fold");
    let loaded = maint(&paths, &cfg, &store, "f", "w1").unwrap();
    let meta = std::fs::metadata(&fold).unwrap();
    let garbage = vec![b'x'; meta.len() as usize];
    let f = std::fs::OpenOptions::new().write(true).open(&fold).unwrap();
    std::io::Write::write_all(&mut &f, &garbage).unwrap();
    f.set_modified(meta.modified().unwrap()).unwrap();
    drop(f);
    let idle = maint(&paths, &cfg, &store, "f", "w1").unwrap();
    assert_eq!(
        std::fs::read(&fold).unwrap(),
        garbage,
        "the state was not touched"
    );
    let json = |r: &MaintReport| serde_json::to_value(r).unwrap();
    assert_eq!(json(&idle), json(&loaded));
    assert_eq!(
        (idle.outcome, idle.seq, idle.state_digest),
        (MaintOutcome::Unchanged, Some(1), first.state_digest)
    );
}

/// The head answers only while it describes the `.fold` on disk and nothing landed: a
/// new batch, or a `.fold` written since (another inode), loads the state.
#[test]
fn the_head_answers_only_while_nothing_moved() {
    let (_d, paths, store, ev) = one_claim();
    let cfg = Config::default();
    maint(&paths, &cfg, &store, "f", "w1").unwrap();
    assert!(idle::check(&paths, &store, "f").unwrap().is_some());
    // The same bytes written anew (as every save does, by rename): not the head's file.
    let fold = paths.maint_dir().join("f.fold");
    let bytes = std::fs::read(&fold).unwrap();
    crate::fsutil::write_atomic(&fold, &bytes, 0o600).unwrap();
    assert!(idle::check(&paths, &store, "f").unwrap().is_none());
    let r = maint(&paths, &cfg, &store, "f", "w1").unwrap();
    assert_eq!(r.outcome, MaintOutcome::Unchanged);
    assert!(
        idle::check(&paths, &store, "f").unwrap().is_some(),
        "the head is written again"
    );
    let mut ev2 = crate::lake::batch::test_record(2, "f", "memory_propose", ev.payload.clone());
    ev2.payload["claim"] = json!("CI runs on Debian 12");
    // Minted now, as a drain lands it (an older key reaches readers through the feed).
    ev2.id = crate::ulid::encode(crate::time::now_ms() as u64, 2);
    land(&store, &ev2);
    assert!(idle::check(&paths, &store, "f").unwrap().is_none());
    let r = maint(&paths, &cfg, &store, "f", "w1").unwrap();
    assert_eq!(
        (r.outcome, r.seq, r.events),
        (MaintOutcome::Published, Some(2), 2)
    );
}

/// The manifests of `fleet`'s feed entries, in order.
fn named(store: &LocalStore) -> Vec<String> {
    let feed = store.list_keys(&keys::feed("f"), None).unwrap();
    crate::lake::watermark::feed_keys(store, &feed).unwrap()
}

/// Mirrors find manifests through the feed alone: a publish names its manifest there,
/// its own entry does not wake the next run (still idle), and a manifest whose naming a
/// run did not finish (its key left in `<fleet>.naming`) is named by the next run.
#[test]
fn a_published_manifest_is_named_in_the_feed() {
    let (_d, paths, store, _) = one_claim();
    let cfg = Config::default();
    maint(&paths, &cfg, &store, "f", "w1").unwrap();
    assert_eq!(named(&store), [keys::manifest("f", 1)]);
    assert!(
        idle::check(&paths, &store, "f").unwrap().is_some(),
        "still idle"
    );
    // Killed after the create, before the feed entry: the entry is gone, the key kept.
    for o in store.list(&keys::feed("f")).unwrap() {
        std::fs::remove_file(_d.path().join("lake").join(&o.key)).unwrap();
    }
    let pending = paths.maint_dir().join("f.naming");
    std::fs::write(&pending, keys::manifest("f", 1)).unwrap();
    maint(&paths, &cfg, &store, "f", "w2").unwrap();
    assert_eq!(named(&store), [keys::manifest("f", 1)]);
    assert!(!pending.exists());
    // A number whose create never landed is not named (the next publish takes it).
    std::fs::write(&pending, keys::manifest("f", 2)).unwrap();
    maint(&paths, &cfg, &store, "f", "w2").unwrap();
    assert_eq!(named(&store), [keys::manifest("f", 1)]);
}
