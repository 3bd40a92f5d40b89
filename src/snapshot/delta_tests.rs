//! The incremental build (a snapshot patched in place) answers every reader exactly as a
//! full build of the same state: claims, FTS ranking, vectors, listings and each
//! subject's timeline.

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
    fn embed_batch(&self, texts: &[&str]) -> crate::error::Result<Vec<Vec<f32>>> {
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
/// minted `skew` ms off, so some land before events folded earlier. The skew also picks
/// a proposal's links (`supersedes` the next text's claim, a key two texts share) and a
/// person's action (supersede by the next text's claim, keep, …).
fn event(n: usize, kind: u8, session: u8, subject: u8, text: u8, skew: i64) -> Event {
    const TEXTS: [&str; 6] = [
        "CI runs on Debian",
        "CI does not run on Debian",
        "tests use postgres 16",
        "cargo build is slow",
        "the cache lives in redis",
        // A probable update of "tests use postgres 16".
        "tests now use postgres 17",
    ];
    let t = text as usize % 6;
    let text = TEXTS[t];
    let subject = ["ci", "CI", "db"][subject as usize % 3];
    let cid = crate::memory::gate::claim_id(subject, text);
    let next = crate::memory::gate::claim_id(subject, TEXTS[(t + 1) % 6]);
    let ty = ["environment", "convention", "outcome"][kind as usize % 3];
    let pick = skew.rem_euclid(7) as usize;
    let action =
        ["retire", "promote", "contest", "supersede", "keep"][(session as usize + pick) % 5];
    let payload = match kind {
        0..=2 => {
            let mut p = json!({"claim": text, "type": ty,
            "subject": subject, "evidence": [{"session_id": format!("s{session}"), "message_id": "m"}]});
            if matches!(pick, 1 | 3) {
                p["supersedes"] = json!([next]);
            }
            if matches!(pick, 2 | 3) {
                p["key"] = json!(format!("slot.{}", t / 2));
            }
            p
        }
        3 => json!({"claim_ids": [cid]}),
        _ => {
            json!({"action": action, "claim_id": cid, "by": next})
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
            include_superseded: false,
        };
        let (hits, more) = search::search(&s, &query).unwrap();
        let hits: Vec<(String, f64)> = hits.into_iter().map(|h| (h.claim.id, h.score)).collect();
        out += &format!("{q}: {fts:?} {hits:?} {more}\n");
    }
    out += &format!("{:?}\n", search::list(&s, None, 1000).unwrap());
    let superseded = Some(crate::vocab::ClaimStatus::Superseded);
    out += &format!("{:?}\n", search::list(&s, superseded, 1000).unwrap());
    let history = search::Query {
        text: "debian postgres cache",
        subject: None,
        claim_type: None,
        scope: None,
        k: 50,
        include_superseded: true,
    };
    let (hits, _) = search::search(&s, &history).unwrap();
    out += &format!(
        "{:?}\n",
        hits.iter()
            .map(|h| (&h.claim.id, h.score))
            .collect::<Vec<_>>()
    );
    out += &format!("{:?}\n", top::top(&s, 1000).unwrap());
    for subject in ["ci", "CI", "db", "none"] {
        out += &format!(
            "{subject}: {:?}\n",
            search::timeline(&s, subject, None, 1000).unwrap()
        );
    }
    out
}

/// `maint`'s way: fold events as they arrive into the incremental state, and at each cut
/// patch this host's snapshot in place with the fold's delta (a full build when declined).
/// The file then answers every reader as a full build of the same state.
fn build_in_place(
    base: &Path,
    state: &mut crate::memory::fold::State,
    id: &str,
    mode: MemoryMode,
    v: &Vectors,
) -> bool {
    let (promoted, contested) = state.counts();
    if let Some(delta) = state.delta().filter(|_| base.exists()) {
        let t = Target {
            snapshot_id: id,
            fleet: "f",
            mode,
            vectors: v,
            any_visible: mode == MemoryMode::On && promoted + contested > 0,
            delta: &delta,
        };
        if patch_in_place(base, &t).unwrap() {
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
        evs in prop::collection::vec((0u8..5, 0u8..4, 0u8..3, 0u8..6, -4000i64..1000, 0u8..6), 1..40),
        model in any::<bool>(),
    ) {
        let d = tempfile::tempdir().unwrap();
        let vectors = vectors(model, d.path());
        let base = d.path().join("base.sqlite");
        let mut state = crate::memory::fold::State::default();
        let mut mode = MemoryMode::On;
        for (n, (kind, session, subject, text, skew, cut)) in evs.into_iter().enumerate() {
            state.apply([event(n, kind, session, subject, text, skew)]);
            if cut >= 3 {
                mode = if cut == 5 { MemoryMode::Shadow } else { MemoryMode::On };
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
        !build_in_place(&base, &mut state, "s1", MemoryMode::On, &v),
        "no base: full"
    );
    state.apply((20..23).map(|n| event(n, 2, 1, 2, 2, 0)));
    let other = d.path().join("other.sqlite");
    std::fs::copy(&base, &other).unwrap();
    assert!(
        build_in_place(&base, &mut state, "s2", MemoryMode::On, &v),
        "patched"
    );
    let f = state.folded();
    let full = d.path().join("full.sqlite");
    build::build_with(&full, "s2", "f", MemoryMode::On, &f.claims, &f.events, &v).unwrap();
    assert_eq!(observed(&base), observed(&full));
    // `other` still holds s1, but the state now stands on s2: a delta from s2 declines.
    state.apply((23..25).map(|n| event(n, 2, 1, 2, 3, 0)));
    let before = observed(&other);
    let delta = state.delta().unwrap();
    let t = Target {
        snapshot_id: "s3",
        fleet: "f",
        mode: MemoryMode::On,
        vectors: &v,
        any_visible: true,
        delta: &delta,
    };
    assert!(!patch_in_place(&other, &t).unwrap());
    assert_eq!(observed(&other), before, "a declined patch changes nothing");
}

/// A mode change (the file holds another mode) is declined and built in full.
#[test]
fn a_mode_change_builds_in_full() {
    let d = tempfile::tempdir().unwrap();
    let v = Vectors::default();
    let base = d.path().join("base.sqlite");
    let mut state = crate::memory::fold::State::default();
    state.apply((0..20).map(|n| event(n, 0, n as u8, 0, n as u8, 0)));
    assert!(!build_in_place(&base, &mut state, "s1", MemoryMode::On, &v));
    state.apply((20..23).map(|n| event(n, 2, 1, 2, 2, 0)));
    assert!(!build_in_place(
        &base,
        &mut state,
        "s2",
        MemoryMode::Shadow,
        &v
    ));
    let f = state.folded();
    let full = d.path().join("full.sqlite");
    build::build_with(
        &full,
        "s2",
        "f",
        MemoryMode::Shadow,
        &f.claims,
        &f.events,
        &v,
    )
    .unwrap();
    assert_eq!(observed(&base), observed(&full));
}

/// `maint` killed mid-patch leaves the file half-written beside a hot journal: `settle`
/// rolls it back, so neither the file nor a full build renamed over it is damaged.
#[test]
fn a_killed_patch_is_rolled_back_before_a_full_build_replaces_it() {
    let d = tempfile::tempdir().unwrap();
    let v = Vectors::default();
    let mut state = crate::memory::fold::State::default();
    state.apply((0..40).map(|n| event(n, 0, n as u8, n as u8, n as u8, 0)));
    let f = state.folded();
    let a = d.path().join("a.sqlite");
    build::build_with(&a, "a", "f", MemoryMode::On, &f.claims, &f.events, &v).unwrap();
    // Copy the file and its journal mid-transaction, as a kill would leave them.
    let crash = |name: &str| {
        let conn = Connection::open(&a).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode=DELETE; PRAGMA cache_size=1; BEGIN IMMEDIATE;
             DELETE FROM claims; DELETE FROM events; UPDATE meta SET value = 'x';",
        )
        .unwrap();
        let to = d.path().join(name);
        std::fs::copy(&a, &to).unwrap();
        std::fs::copy(
            d.path().join("a.sqlite-journal"),
            d.path().join(format!("{name}-journal")),
        )
        .unwrap();
        conn.execute_batch("ROLLBACK").unwrap();
        to
    };
    let base = crash("base.sqlite");
    settle(&base);
    assert_eq!(observed(&base), observed(&a), "rolled back");
    let base = crash("base2.sqlite");
    state.apply((40..45).map(|n| event(n, 2, 1, 2, 2, 0)));
    let f = state.folded();
    let b = d.path().join("b.sqlite");
    build::build_with(&b, "b", "f", MemoryMode::On, &f.claims, &f.events, &v).unwrap();
    let tmp = d.path().join("tmp.sqlite");
    std::fs::copy(&b, &tmp).unwrap();
    settle(&base);
    std::fs::rename(&tmp, &base).unwrap();
    assert_eq!(observed(&base), observed(&b), "the full build, whole");
}
