//! A patched snapshot answers every reader exactly as a full build of the same state:
//! claims, FTS ranking, vectors, listings and each subject's timeline.

use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::memory::event::Event;
use crate::snapshot::embed::{Embedder, HashEmbedder};
use crate::snapshot::{Snapshot, search, top};

/// A model stand-in: the hash's vectors under another id, so they are stored per claim.
struct Model;

impl Embedder for Model {
    fn id(&self) -> &'static str {
        "test-model"
    }
    fn embed_batch(&self, texts: &[&str]) -> std::result::Result<Vec<Vec<f32>>, String> {
        HashEmbedder.embed_batch(texts)
    }
}

/// The hash embedder alone, or with the model stand-in and its vector cache in `dir`.
fn vectors(model: bool, dir: &Path) -> Vectors {
    Vectors {
        embedder: model.then(|| Arc::new(Model) as Arc<dyn Embedder>),
        cache: model.then(|| dir.join("cache.sqlite")),
        note: None,
    }
}

/// Event `n`: 0–2 propose (environment, convention, outcome), 3 shown, 4 operator;
/// minted `skew` ms off, so some land before events folded earlier.
fn event(n: usize, kind: u8, session: u8, subject: u8, text: u8, skew: i64) -> Event {
    let text = [
        "CI runs on Debian",
        "CI does not run on Debian",
        "tests use postgres 16",
        "cargo build is slow",
        "the cache lives in redis",
    ][text as usize % 5];
    let subject = ["ci", "CI", "db"][subject as usize % 3];
    let cid = crate::memory::gate::claim_id(subject, text);
    let ty = ["environment", "convention", "outcome"][kind as usize % 3];
    let action = ["retire", "promote", "contest"][session as usize % 3];
    let payload = match kind {
        0..=2 => {
            json!({"claim": text, "type": ty,
            "subject": subject, "evidence": [{"session_id": format!("s{session}"), "message_id": "m"}]})
        }
        3 => json!({"claim_ids": [cid]}),
        _ => {
            json!({"action": action, "claim_id": cid})
        }
    };
    let kind =
        ["memory_propose", "memory_shown", "memory_operator"][kind.saturating_sub(2) as usize % 3];
    let ms = 1_800_000_000_000 + n as i64 * 1000 + skew;
    serde_json::from_value(json!({"id": crate::ulid::encode(ms as u64, n as u128),
        "at": crate::time::format_ms(ms), "kind": kind, "agent": "a",
        "session": format!("s{session}"), "payload": payload}))
    .unwrap()
}

/// Build the fold of `events` into `out`, from `base` when given; true when patched.
fn build_state(base: Option<&Path>, out: &Path, events: &[Event], mode: &str, v: &Vectors) -> bool {
    let mut sorted = events.to_vec();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    let f = crate::memory::gate::fold(&sorted);
    let t = Target {
        snapshot_id: "s",
        fleet: "f",
        mode,
        claims: &f.claims,
        events: &f.events,
        vectors: v,
    };
    match base {
        Some(b) => build_from(b, out, &t).unwrap(),
        None => {
            build::build_with(out, "s", "f", mode, &f.claims, &f.events, v).unwrap();
            false
        }
    }
}

/// Everything a reader can observe, as text.
fn observed(p: &Path) -> String {
    let s = Snapshot::open(p).unwrap();
    let mut out = format!("{} {} {:?}\n", s.id, s.mode, s.model_embedder);
    let rows = |sql: &str| -> Vec<String> {
        let mut st = s.conn.prepare(sql).unwrap();
        let n = st.column_count();
        st.query_map([], |r| {
            Ok((0..n)
                .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                .collect::<Vec<_>>()
                .join("|"))
        })
        .unwrap()
        .map(|r| r.unwrap())
        .collect()
    };
    out += &format!("{:?}\n", rows("SELECT * FROM claims ORDER BY rowid"));
    out += &format!(
        "{:?}\n",
        rows("SELECT * FROM claim_vectors ORDER BY embedder, rowid")
    );
    for q in [
        "debian",
        "postgres",
        "cargo slow",
        "runs",
        "redis cache",
        "ci",
    ] {
        let mut st = s
            .conn
            .prepare("SELECT rowid, rank FROM claims_fts WHERE claims_fts MATCH ?1 ORDER BY rank")
            .unwrap();
        let fts: Vec<(i64, f64)> = st
            .query_map([q.replace(' ', " OR ")], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        let query = search::Query {
            text: q,
            subject: None,
            claim_type: None,
            scope: None,
            k: 5,
        };
        let (hits, more) = search::search(&s, &query).unwrap();
        let hits: Vec<(String, f64)> = hits.into_iter().map(|h| (h.claim.id, h.score)).collect();
        out += &format!("{q}: {fts:?} {hits:?} {more}\n");
    }
    out += &format!("{:?}\n", search::list(&s, None, 1000).unwrap());
    out += &format!("{:?}\n", top::top(&s, 1000).unwrap());
    for subject in ["ci", "CI", "db", "none"] {
        out += &format!(
            "{subject}: {:?}\n",
            search::timeline(&s, subject, None, 1000).unwrap()
        );
    }
    out
}

proptest! {
    #![proptest_config(crate::proptests::config(32))]
    #[test]
    fn a_patched_snapshot_answers_as_a_full_build(
        evs in prop::collection::vec((0u8..5, 0u8..4, 0u8..3, 0u8..5, -4000i64..1000, 0u8..6), 1..40),
        model in any::<bool>(),
    ) {
        let d = tempfile::tempdir().unwrap();
        let vectors = vectors(model, d.path());
        let base = d.path().join("base.sqlite");
        let mut so_far = Vec::new();
        let (mut mode, mut patched) = ("on", 0);
        for (n, (kind, session, subject, text, skew, cut)) in evs.into_iter().enumerate() {
            so_far.push(event(n, kind, session, subject, text, skew));
            if cut >= 3 {
                // Now and then the mode moves too: such a base must not be patched.
                mode = if cut == 5 { "shadow" } else { "on" };
                let tmp = d.path().join(format!("{n}.sqlite"));
                patched += usize::from(build_state(Some(&base), &tmp, &so_far, mode, &vectors));
                std::fs::rename(&tmp, &base).unwrap();
            }
        }
        let full = d.path().join("full.sqlite");
        build_state(None, &full, &so_far, mode, &vectors);
        if base.exists() {
            let last = d.path().join("last.sqlite");
            patched += usize::from(build_state(Some(&base), &last, &so_far, mode, &vectors));
            prop_assert_eq!(observed(&last), observed(&full));
        }
        let _ = patched;
    }
}

/// `maint`'s way: fold events as they arrive into the incremental state, and at each cut
/// patch this host's snapshot in place with the fold's delta (a full build when declined).
/// The file then answers every reader as a full build of the same state.
fn build_in_place(
    base: &Path,
    state: &mut crate::memory::fold::State,
    id: &str,
    mode: &str,
    v: &Vectors,
) -> bool {
    let (promoted, contested) = state.counts();
    if let Some(delta) = state.delta().filter(|_| base.exists()) {
        let t = crate::snapshot::delta::Target {
            snapshot_id: id,
            fleet: "f",
            mode,
            vectors: v,
            any_visible: mode == "on" && promoted + contested > 0,
            delta: &delta,
        };
        if crate::snapshot::delta::patch_in_place(base, &t).unwrap() {
            state.built(id);
            return true;
        }
    }
    let f = state.folded();
    let _ = std::fs::remove_file(base);
    build::build_with(base, id, "f", mode, &f.claims, &f.events, v).unwrap();
    state.built(id);
    false
}

proptest! {
    #![proptest_config(crate::proptests::config(32))]
    #[test]
    fn a_snapshot_patched_in_place_answers_as_a_full_build(
        evs in prop::collection::vec((0u8..5, 0u8..4, 0u8..3, 0u8..5, -4000i64..1000, 0u8..6), 1..40),
        model in any::<bool>(),
    ) {
        let d = tempfile::tempdir().unwrap();
        let vectors = vectors(model, d.path());
        let base = d.path().join("base.sqlite");
        let mut state = crate::memory::fold::State::default();
        let mut mode = "on";
        for (n, (kind, session, subject, text, skew, cut)) in evs.into_iter().enumerate() {
            state.apply([event(n, kind, session, subject, text, skew)]);
            if cut >= 3 {
                mode = if cut == 5 { "shadow" } else { "on" };
                build_in_place(&base, &mut state, &format!("s{n}"), mode, &vectors);
            }
        }
        if base.exists() {
            let id = "last";
            build_in_place(&base, &mut state, id, mode, &vectors);
            let f = state.folded();
            let full = d.path().join("full.sqlite");
            build::build_with(&full, id, "f", mode, &f.claims, &f.events, &vectors).unwrap();
            prop_assert_eq!(observed(&base), observed(&full));
        }
    }
}

/// Appending claims to an unchanged state patches (the point of it) and declines a
/// base built under another mode.
#[test]
fn new_claims_patch_and_a_mode_change_rebuilds() {
    let d = tempfile::tempdir().unwrap();
    let v = Vectors::default();
    let mut evs: Vec<Event> = (0..20)
        .map(|n| event(n, 0, n as u8, 0, n as u8, 0))
        .collect();
    let base = d.path().join("base.sqlite");
    assert!(
        !build_state(Some(&base), &base, &evs, "on", &v),
        "no base: full"
    );
    evs.extend((20..23).map(|n| event(n, 2, 1, 2, 2, 0)));
    let next = d.path().join("next.sqlite");
    assert!(build_state(Some(&base), &next, &evs, "on", &v));
    let full = d.path().join("full.sqlite");
    build_state(None, &full, &evs, "on", &v);
    assert_eq!(observed(&next), observed(&full));
    let shadow = d.path().join("shadow.sqlite");
    assert!(!build_state(Some(&next), &shadow, &evs, "shadow", &v));
}

/// New claims on top of a built state patch in place; a file that is not the snapshot
/// the state built (another id) is declined and left as it was.
#[test]
fn new_claims_patch_in_place_and_another_file_is_declined() {
    let d = tempfile::tempdir().unwrap();
    let v = Vectors::default();
    let base = d.path().join("base.sqlite");
    let mut state = crate::memory::fold::State::default();
    state.apply((0..20).map(|n| event(n, 0, n as u8, 0, n as u8, 0)));
    assert!(
        !build_in_place(&base, &mut state, "s1", "on", &v),
        "no base: full"
    );
    state.apply((20..23).map(|n| event(n, 2, 1, 2, 2, 0)));
    let other = d.path().join("other.sqlite");
    std::fs::copy(&base, &other).unwrap();
    assert!(build_in_place(&base, &mut state, "s2", "on", &v), "patched");
    let f = state.folded();
    let full = d.path().join("full.sqlite");
    build::build_with(&full, "s2", "f", "on", &f.claims, &f.events, &v).unwrap();
    assert_eq!(observed(&base), observed(&full));
    // `other` still holds s1, but the state now stands on s2: a delta from s2 declines.
    state.apply((23..25).map(|n| event(n, 2, 1, 2, 3, 0)));
    let before = observed(&other);
    let delta = state.delta().unwrap();
    let t = crate::snapshot::delta::Target {
        snapshot_id: "s3",
        fleet: "f",
        mode: "on",
        vectors: &v,
        any_visible: true,
        delta: &delta,
    };
    assert!(!crate::snapshot::delta::patch_in_place(&other, &t).unwrap());
    assert_eq!(observed(&other), before, "a declined patch changes nothing");
}
