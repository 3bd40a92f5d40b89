//! Checkpointed folds equal the full refold, whatever the event order, the points where
//! `maint` checkpointed, and keys that land late.

use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::lake::logged::Logged;
use crate::lake::store::LocalStore;
use crate::lake::watermark::{MARGIN_MS, is_late, publish_feed};
use crate::memory::event::Event;
use crate::services::maint::save::save;

pub(in crate::services::maint) fn setup() -> (tempfile::TempDir, Paths, Logged) {
    let d = tempfile::tempdir().unwrap();
    let paths = Paths::with_overrides(d.path().join("home"), None, None);
    let store = Logged::open(&d.path().join("lake"));
    (d, paths, store)
}

/// Event `n` of kind `kind` (0–2 propose, 3 shown, 4 operator), minted `skew_ms` from now.
pub(in crate::services::maint) fn event(
    n: usize,
    kind: u8,
    session: u8,
    subject: u8,
    text: u8,
    skew_ms: i64,
) -> Event {
    let id = crate::ulid::encode((crate::time::now_ms() + skew_ms) as u64, n as u128);
    let claim = [
        "CI runs on Debian",
        "CI does not run on Debian",
        "tests use postgres 16",
    ][text as usize % 3];
    let subject = ["ci", "db"][subject as usize % 2];
    let cid = crate::memory::gate::claim_id(subject, claim);
    let ty = ["environment", "convention", "outcome"][kind as usize % 3];
    let (kind, payload) = match kind {
        0..=2 => (
            "memory_propose",
            json!({"claim": claim, "type": ty, "subject": subject,
                   "evidence": [{"session_id": format!("s{session}"), "message_id": "m"}]}),
        ),
        3 => ("memory_shown", json!({"claim_ids": [cid]})),
        _ => (
            "memory_operator",
            json!({"action": "retire", "claim_id": cid}),
        ),
    };
    serde_json::from_value(
        json!({"id": id, "at": crate::time::format_ms(crate::time::now_ms() + skew_ms),
        "kind": kind, "agent": "a", "session": format!("s{session}"), "payload": payload}),
    )
    .unwrap()
}

/// What `sync`'s drain does with one event: create it (a batch of one), and feed it when
/// it landed late.
pub(in crate::services::maint) fn land(store: &dyn Store, fleet: &str, e: &Event) {
    let key = keys::claim_event_batch(fleet, &e.id);
    let rec = crate::spool::Record {
        id: e.id.clone(),
        ts: e.at.clone(),
        fleet: fleet.into(),
        agent: e.agent.clone(),
        session: e.session.clone(),
        kind: e.kind.clone(),
        payload: e.payload.clone(),
    };
    store
        .create(&key, &crate::spool::encode(&rec).unwrap())
        .unwrap();
    if is_late(&key, store.now_ms().unwrap()) {
        publish_feed(store, fleet, vec![key]).unwrap();
    }
}

fn folded(events: &[Event]) -> String {
    let f = crate::memory::gate::fold(events);
    serde_json::to_string(&(&f.claims, &f.events)).unwrap()
}

/// One `maint`'s load and save (a checkpoint once `min` events are unsaved): the events
/// folded and the fold, as `folded` renders it.
pub(in crate::services::maint) fn checkpointed(
    paths: &Paths,
    store: &dyn Store,
    min: usize,
) -> (usize, String) {
    let mut l = load(paths, store, "f", &mut |_, _| {}).unwrap();
    save(paths, store, "f", &mut l, min, false).unwrap();
    let f = l.checkpoint.fold.folded();
    (
        l.checkpoint.fold.events(),
        serde_json::to_string(&(&f.claims, &f.events)).unwrap(),
    )
}

fn another_host(d: &Paths) -> Paths {
    Paths::with_overrides(d.state().join("other-home"), None, None)
}

proptest! {
    #![proptest_config(crate::proptests::config(24))]
    /// Events land in any order, late ones through the feed; runs happen at random points,
    /// some write checkpoints, and some start with no local copy (a new host): every run
    /// ends with the full refold of every event in the lake.
    #[test]
    fn checkpointed_fold_equals_the_full_refold(
        evs in prop::collection::vec((0u8..5, 0u8..4, 0u8..2, 0u8..3, -3 * MARGIN_MS..MARGIN_MS / 2, 0u8..4), 1..30)
    ) {
        let (_d, paths, store) = setup();
        for (n, (kind, session, subject, text, skew, run)) in evs.into_iter().enumerate() {
            land(&store, "f", &event(n, kind, session, subject, text, skew));
            if run == 1 {
                let _ = std::fs::remove_file(local_file(&paths, "f"));
            }
            if run == 3 {
                // A run stopped between its copy's rename and its head's write.
                crate::services::maint::idle::forget(&paths, "f").unwrap();
            }
            if run > 0 {
                checkpointed(&paths, &store, if run == 2 { 0 } else { MIN_UNSAVED });
            }
        }
        let (count, got) = checkpointed(&paths, &store, MIN_UNSAVED);
        let full = crate::memory::event::load_events(&store, "f").unwrap();
        prop_assert_eq!(count, full.len());
        prop_assert_eq!(got, folded(&full));
    }
}

#[test]
fn maint_reads_only_the_events_after_its_last_run() {
    let (_d, paths, store) = setup();
    for n in 0..40 {
        land(&store, "f", &event(n, 0, n as u8, 0, 2, 0));
    }
    assert_eq!(checkpointed(&paths, &store, MIN_UNSAVED).0, 40);
    assert!(
        store.list(&keys::checkpoints("f")).unwrap().is_empty(),
        "40 events are not worth a checkpoint"
    );
    store.take();
    for n in 40..43 {
        land(&store, "f", &event(n, 0, n as u8, 1, 2, 0));
    }
    assert_eq!(checkpointed(&paths, &store, MIN_UNSAVED).0, 43);
    // Only the three new events: this host's copy holds the rest.
    assert_eq!(store.count("get"), 3);
    store.take();
    assert_eq!(checkpointed(&paths, &store, MIN_UNSAVED).0, 43);
    assert_eq!(store.count("get"), 0, "an idle maint reads nothing");
}

/// A host with no copy of its own starts from the newest checkpoint and the events
/// after it; a copy made for another lake is not used.
#[test]
fn a_new_host_starts_from_the_newest_checkpoint() {
    let (_d, paths, store) = setup();
    for n in 0..40 {
        land(&store, "f", &event(n, 0, n as u8, 0, 2, 0));
    }
    checkpointed(&paths, &store, 0);
    for n in 40..43 {
        land(&store, "f", &event(n, 0, n as u8, 1, 2, 0));
    }
    let b = another_host(&paths);
    store.take();
    let l = load(&b, &store, "f", &mut |_, _| {}).unwrap();
    assert!(matches!(l.base, Base::Checkpoint(_)));
    assert_eq!((l.checkpoint.fold.events(), l.fresh), (43, 3));
    assert_eq!(
        store.count("get"),
        4,
        "the checkpoint and the three new events"
    );
    // A copy of this host's state moved to a home that uses another lake.
    let elsewhere = LocalStore::open(&_d.path().join("elsewhere")).unwrap();
    let l = load(&paths, &elsewhere, "f", &mut |_, _| {}).unwrap();
    assert_eq!((l.base, l.checkpoint.fold.events()), (Base::Nothing, 0));
}

#[test]
fn an_unreadable_checkpoint_falls_back_to_the_full_fold() {
    let (_d, paths, store) = setup();
    for n in 0..5 {
        land(&store, "f", &event(n, 0, n as u8, 0, 0, 0));
    }
    checkpointed(&paths, &store, 0);
    let garbage = keys::checkpoint("f", &crate::lake::watermark::lake_ulid(1i64 << 47, b"x"));
    store.create(&garbage, b"{not json").unwrap();
    land(&store, "f", &event(5, 0, 9, 1, 1, 0));
    let got = checkpointed(&another_host(&paths), &store, 0);
    let full = crate::memory::event::load_events(&store, "f").unwrap();
    assert_eq!(got, (6, folded(&full)));
}

/// A checkpoint of another version (an older build's, or a newer one's) is not used:
/// the host starts from an older checkpoint of its own version instead.
#[test]
fn a_checkpoint_of_another_version_is_not_used() {
    let (_d, paths, store) = setup();
    let events: Vec<Event> = (0..6)
        .map(|n| event(n, n as u8 % 5, n as u8, 0, n as u8, 0))
        .collect();
    for e in &events {
        land(&store, "f", e);
    }
    checkpointed(&paths, &store, 0);
    let good = store.list(&keys::checkpoints("f")).unwrap()[0].key.clone();
    let (bytes, _) = store.get(&good).unwrap().unwrap();
    let now = store.now_ms().unwrap();
    // Whole states of this build's shape, but whose folds would mean something else: as
    // read by this build, they hold no claim.
    for (i, version) in [1, VERSION + 1].into_iter().enumerate() {
        let text = String::from_utf8(bytes.clone()).unwrap();
        let other = text.replacen(
            &format!("\"version\":{VERSION}"),
            &format!("\"version\":{version}"),
            1,
        );
        let mut v: serde_json::Value = serde_json::from_str(&other).unwrap();
        v["fold"]["claims"] = json!([]);
        v["fold"]["seen"] = json!([]);
        let key = keys::checkpoint(
            "f",
            &crate::lake::watermark::lake_ulid(now + 1 + i as i64, &[i as u8]),
        );
        store.create(&key, v.to_string().as_bytes()).unwrap();
    }
    let l = load(&another_host(&paths), &store, "f", &mut |_, _| {}).unwrap();
    assert_eq!((l.base, l.fresh), (Base::Checkpoint(good), 0));
    let f = l.checkpoint.fold.folded();
    assert_eq!(
        serde_json::to_string(&(&f.claims, &f.events)).unwrap(),
        folded(&events)
    );
}

/// Only the newest few checkpoints stay, and a host whose checkpoint was pruned (or lost)
/// after it chose it resumes from an older one instead of reading every event again.
#[test]
fn old_checkpoints_are_pruned_and_a_lost_one_falls_back_to_an_older() {
    let (_d, paths, store) = setup();
    for n in 0..30 {
        land(&store, "f", &event(n, 0, n as u8, 0, 2, 0));
    }
    for n in 30..35 {
        land(&store, "f", &event(n, 0, n as u8, 1, 2, 0));
        checkpointed(&paths, &store, 0);
    }
    let kept = store.list(&keys::checkpoints("f")).unwrap();
    assert_eq!(kept.len(), KEEP);
    // The hint names the newest: delete it as a concurrent prune would, and lose the copy.
    store.delete(&kept[KEEP - 1].key).unwrap();
    std::fs::remove_file(local_file(&paths, "f")).unwrap();
    store.take();
    let l = load(&paths, &store, "f", &mut |_, _| {}).unwrap();
    assert_eq!(l.checkpoint.fold.events(), 35);
    assert_eq!(l.base, Base::Checkpoint(kept[KEEP - 2].key.clone()));
    // The lost one, the older one, and the one event it did not hold.
    assert_eq!(store.count("get"), 3);
    let full = crate::memory::event::load_events(&store, "f").unwrap();
    let f = l.checkpoint.fold.folded();
    assert_eq!(
        serde_json::to_string(&(&f.claims, &f.events)).unwrap(),
        folded(&full)
    );
}

/// A checkpoint is lake text: one whose state holds a claim twice is not used (the host
/// starts from an older one), and the fold still equals the full refold.
#[test]
fn a_checkpoint_holding_a_claim_twice_is_not_used() {
    let (_d, paths, store) = setup();
    for n in 0..5 {
        land(&store, "f", &event(n, 0, n as u8, 0, n as u8, 0));
    }
    checkpointed(&paths, &store, 0);
    let good = store.list(&keys::checkpoints("f")).unwrap()[0].key.clone();
    let (bytes, _) = store.get(&good).unwrap().unwrap();
    let mut v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let first = v["fold"]["claims"][0].clone();
    v["fold"]["claims"].as_array_mut().unwrap().push(first);
    // Event digests are u128s, which a `Value` would turn into floats: leave them out.
    v["fold"]["seen"] = serde_json::json!([]);
    let forged = keys::checkpoint(
        "f",
        &crate::lake::watermark::lake_ulid(store.now_ms().unwrap() + 1, b"f"),
    );
    store.create(&forged, v.to_string().as_bytes()).unwrap();
    let l = load(&another_host(&paths), &store, "f", &mut |_, _| {}).unwrap();
    assert_eq!(l.base, Base::Checkpoint(good));
    let full = crate::memory::event::load_events(&store, "f").unwrap();
    let f = l.checkpoint.fold.folded();
    assert_eq!(
        serde_json::to_string(&(&f.claims, &f.events)).unwrap(),
        folded(&full)
    );
}

/// A feed entry is untrusted input naming keys: one naming a key outside this fleet's
/// event batches (another fleet's, a `..` path, another kind's object) is not read, and
/// the run folds what the lake rightly holds instead of failing at that GET.
#[test]
fn a_feed_entry_naming_a_foreign_key_does_not_stop_maint() {
    let (_d, paths, store) = setup();
    for n in 0..3 {
        land(&store, "f", &event(n, 0, n as u8, 0, 2, 0));
    }
    let e = event(7, 0, 7, 1, 2, 0);
    land(&store, "g", &e);
    let named = vec![
        keys::claim_event_batch("g", &e.id),
        format!("claims/f/events/../../g/events/{}.ndjson", e.id),
        keys::handoff_batch("f", &e.id),
    ];
    publish_feed(&store, "f", named).unwrap();
    store.take();
    assert_eq!(checkpointed(&paths, &store, MIN_UNSAVED).0, 3);
    assert!(
        !store.take().iter().any(|l| l.contains("/g/")),
        "another fleet's event was never asked for"
    );
}
