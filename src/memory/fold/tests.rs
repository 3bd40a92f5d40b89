//! The incremental fold equals the full fold (`memory::gate::fold`) of every event, however
//! the events are cut into applies and in whatever order those arrive, through a save and
//! load between applies; and a patch's delta is exactly what changed since the last build.

use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::memory::gate::{Folded, fold};

const TEXTS: [&str; 8] = [
    "CI uses Node 20",
    "CI uses Node 22",
    "tests need network",
    "tests do not need network",
    "ci uses node 20.",
    "release builds are signed",
    // Probable updates of the two above them.
    "CI now uses Node 24",
    "tests no longer need network",
];
const SUBJECTS: [&str; 3] = ["ci", "CI", "db"];
const TYPES: [&str; 6] = [
    "environment",
    "outcome",
    "convention",
    "preference",
    "hypothesis",
    "bogus",
];

/// (kind, id, at, session, text, subject, type, extra): one generated event.
type Gen = (u8, u16, u8, u8, u8, u8, u8, u8);

/// The `n`-th generated event (ids are unique: one id is one record). `extra` picks a
/// proposal's links (none, `supersedes` of the next text's claim, a key shared by a
/// pair of texts, both) and a person's action.
fn event(n: usize, (kind, id, at, session, text, subject, ty, extra): Gen) -> Event {
    let (t, subject) = (text as usize % 8, SUBJECTS[subject as usize % 3]);
    let text = TEXTS[t];
    let cid = crate::memory::gate::claim_id(subject, text);
    let other = crate::memory::gate::claim_id(subject, TEXTS[(t + 1) % 8]);
    let (kind, payload) = match kind % 4 {
        0 | 1 => {
            let evidence = if extra % 7 == 0 {
                json!([])
            } else {
                json!([{"session_id": "s", "message_id": "m"}])
            };
            let mut payload = json!({"claim": text, "subject": subject,
                "type": TYPES[ty as usize % 6], "evidence": evidence});
            if matches!(extra % 5, 1 | 4) {
                payload["supersedes"] = json!([other, "not-an-id"]);
            }
            if matches!(extra % 5, 2 | 4) {
                payload["key"] = json!(format!("slot.{}", t / 2));
            }
            ("memory_propose", payload)
        }
        2 => ("memory_shown", json!({"claim_ids": [cid, "c-unknown"]})),
        _ => {
            let action =
                ["promote", "contest", "retire", "shrug", "supersede", "keep"][extra as usize % 6];
            let reason = (extra % 3 == 0).then_some("a person said so");
            (
                "memory_operator",
                json!({"action": action, "claim_id": cid, "reason": reason, "by": other}),
            )
        }
    };
    serde_json::from_value(json!({"id": format!("01J{id:05}{n:03}"),
        "at": format!("2026-11-29T00:00:{:02}.000Z", at % 6), "kind": kind,
        "agent": format!("a{}", session % 2), "session": format!("s{}", session % 3),
        "payload": payload}))
    .unwrap()
}

fn reference(events: &[Event]) -> Folded {
    let mut sorted: Vec<Event> = events.to_vec();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    sorted.dedup_by(|a, b| a.id == b.id);
    fold(&sorted)
}

fn reload(s: &State) -> State {
    let mut back: State = serde_json::from_slice(&serde_json::to_vec(s).unwrap()).unwrap();
    back.reindex();
    back
}

fn gens() -> impl Strategy<Value = Vec<(Gen, u8)>> {
    let one = (
        0u8..4,
        0u16..400,
        0u8..6,
        0u8..3,
        0u8..8,
        0u8..3,
        0u8..6,
        0u8..30,
    );
    prop::collection::vec((one, 0u8..4), 1..40)
}

proptest! {
    #![proptest_config(crate::proptests::config(256))]

    /// Cut into up to four applies (by the second number), applied in a shuffled order
    /// with a save and load between them: the same claims and timeline as the full fold,
    /// and the same digest as one apply of everything.
    #[test]
    fn any_cut_in_any_order_folds_like_the_full_fold(evs in gens(), order in 0usize..24) {
        let events: Vec<(Event, u8)> = evs.into_iter().enumerate().map(|(n, (g, cut))| (event(n, g), cut)).collect();
        let all: Vec<Event> = events.iter().map(|(e, _)| e.clone()).collect();
        let mut cuts: Vec<u8> = vec![0, 1, 2, 3];
        // One of the 24 orders of the four cuts.
        let mut pick = order;
        for i in (1..4).rev() {
            cuts.swap(i, pick % (i + 1));
            pick /= i + 1;
        }
        let mut state = State::default();
        for cut in cuts {
            let part = events.iter().filter(|(_, c)| *c == cut).map(|(e, _)| e.clone());
            state.apply(part);
            state = reload(&state);
        }
        let want = reference(&all);
        let got = state.folded();
        prop_assert_eq!(&got.claims, &want.claims);
        prop_assert_eq!(&got.events, &want.events);
        let mut once = State::default();
        once.apply(all.clone());
        prop_assert_eq!(
            state.digest(crate::config::MemoryMode::On),
            once.digest(crate::config::MemoryMode::On)
        );
        prop_assert_eq!(state.events(), once.events());
        let count = |s| want.claims.iter().filter(|c| c.status == s).count();
        prop_assert_eq!(state.counts(), (count(ClaimStatus::Promoted), count(ClaimStatus::Contested)));
    }

    /// A first fold in rounds of any size (the claims written back to the list between
    /// them, never reloaded) folds like the full fold.
    #[test]
    fn rounds_of_any_size_fold_like_the_full_fold(evs in gens(), round in 1usize..9) {
        let events: Vec<Event> = evs.into_iter().enumerate().map(|(n, (g, _))| event(n, g)).collect();
        let mut state = State::default();
        prop_assert_eq!(state.apply_in_rounds(events.clone(), round), state.events());
        let want = reference(&events);
        let got = state.folded();
        prop_assert_eq!(&got.claims, &want.claims);
        prop_assert_eq!(&got.events, &want.events);
        let mut once = State::default();
        once.apply(events);
        prop_assert_eq!(
            state.digest(crate::config::MemoryMode::On),
            once.digest(crate::config::MemoryMode::On)
        );
    }

    /// After a build, a second batch of events: the delta names every row that differs
    /// (by index) and every subject whose timeline rows differ, each with its new rows
    /// (it may name a claim whose timeline alone changed: rewriting it is harmless).
    #[test]
    fn a_delta_is_exactly_what_changed_since_the_build(evs in gens(), split in 0usize..40) {
        let events: Vec<Event> = evs.into_iter().enumerate().map(|(n, (g, _))| event(n, g)).collect();
        let split = split.min(events.len());
        let mut state = State::default();
        state.apply(events[..split].to_vec());
        let before = state.folded();
        state.built("snap-1");
        state.apply(events[split..].to_vec());
        let after = state.folded();
        let Some(delta) = state.delta() else {
            // Only a late event (older than one already built) can move a claim.
            let built = events[..split].iter().map(|e| &e.id).max();
            prop_assert!(events[split..].iter().any(|e| Some(&e.id) < built));
            return Ok(());
        };
        prop_assert_eq!(delta.base_claims, before.claims.len());
        prop_assert_eq!(delta.total, after.claims.len());
        let differ: Vec<usize> = (0..after.claims.len())
            .filter(|&i| before.claims.get(i) != Some(&after.claims[i]))
            .collect();
        let named: Vec<usize> = delta.claims.iter().map(|(i, _)| *i).collect();
        prop_assert!(differ.iter().all(|i| named.contains(i)), "{:?} not all in {:?}", differ, named);
        for (i, row) in &delta.claims {
            prop_assert_eq!(row, &after.claims[*i]);
        }
        let rows = |f: &Folded, s: &str| -> Vec<EventRow> {
            f.events.iter().filter(|e| e.subject.to_ascii_lowercase() == s).cloned().collect()
        };
        for s in ["ci", "db"] {
            let changed = rows(&before, s) != rows(&after, s);
            let listed = delta.subjects.iter().find(|(k, _)| k == s);
            prop_assert!(!changed || listed.is_some(), "subject {} changed but not listed", s);
            if let Some((_, new)) = listed {
                prop_assert_eq!(new, &rows(&after, s));
            }
        }
    }
}

use crate::snapshot::rows::EventRow;
use crate::vocab::ClaimStatus;

/// A claim with many proposals counts its independent sessions as one with a few does:
/// a session shown the claim before some proposals still counts for one it was not
/// (here, one whose clock ran behind).
#[test]
fn independent_sessions_are_counted_alike_for_few_and_many_proposals() {
    let proposal = |n: usize| {
        // Proposal 26's host clock ran behind: its time is before the showing.
        let at = if n == 26 {
            "t0000".into()
        } else {
            format!("t{n:04}")
        };
        let session = format!("s{}", n % 3);
        claim::Proposal(format!("{n:04}"), at, "a".into(), session, None)
    };
    // Session s2 was shown the claim at event 0001, before any of its proposals.
    let shown = |s: &str| (s == "s2").then(|| ("0001".to_string(), "t0001".to_string()));
    let claim = |n: usize| Claim {
        text: "x".into(),
        subject: "s".into(),
        ty: crate::vocab::ClaimType::Outcome,
        proposals: (0..n).map(proposal).collect(),
        gated: Default::default(),
        linked: Default::default(),
        outdated: None,
        group: 0,
        bucket: 0,
        hash: String::new(),
        status: None,
    };
    let session = |out: Vec<(String, String)>| -> Vec<String> {
        out.into_iter().map(|(s, at)| format!("{s}@{at}")).collect()
    };
    assert_eq!(
        session(claim(6).independent(shown)),
        ["s0@t0000", "s1@t0001"]
    );
    assert_eq!(
        session(claim(30).independent(shown)),
        ["s0@t0000", "s1@t0001", "s2@t0000"]
    );
}

/// `places` as the full statement and shape name them: the group from every content word
/// of `Statement`, the bucket from `Shape`'s head.
fn places_in_full(subject: &str, ty: crate::vocab::ClaimType, text: &str) -> (u64, u64) {
    use crate::memory::{contradiction::Statement, supersede::update};
    let words = Statement::parse(text);
    let words = words.all_words().iter().map(String::as_str);
    let group = group::name(&subject.to_lowercase(), words);
    (group, update::bucket(subject, ty, &update::Shape::of(text)))
}

/// A fold places a new claim without building its whole statement and shape, and puts
/// it where they would: every text of both labelled sets, and generated ones.
#[test]
fn a_claim_is_placed_as_its_full_statement_and_shape_would_place_it() {
    let sets = [
        include_str!("../../../tests/data/contradictions.tsv"),
        include_str!("../../../tests/data/knowledge_updates.tsv"),
    ];
    let texts: Vec<&str> = (sets.iter().flat_map(|s| s.lines()))
        .filter(|l| !l.starts_with('#'))
        .flat_map(|l| l.split('\t').skip(2))
        .collect();
    assert!(texts.len() > 600, "{}", texts.len());
    let ty = crate::vocab::ClaimType::Environment;
    for text in texts {
        assert_eq!(
            places("CI", ty, text),
            places_in_full("CI", ty, text),
            "{text}"
        );
    }
}

proptest! {
    #[test]
    fn a_generated_claim_is_placed_as_in_full(words in prop::collection::vec(0..WORDS.len(), 0..12)) {
        let text: Vec<&str> = words.iter().map(|&i| WORDS[i]).collect();
        let text = text.join(" ");
        let ty = crate::vocab::ClaimType::Convention;
        prop_assert_eq!(places("Db", ty, &text), places_in_full("Db", ty, &text), "{}", text);
    }
}

/// Words that reach every branch: cues (negated ones too), additive words, verbs and
/// auxiliaries, prepositions, scopes, antonyms, id nouns, values with units, fillers.
const WORDS: [&str; 32] = [
    "the",
    "ci",
    "runners",
    "uses",
    "use",
    "node",
    "20",
    "22.1",
    "v3",
    "now",
    "no",
    "longer",
    "not",
    "anymore",
    "instead",
    "of",
    "also",
    "as",
    "well",
    "is",
    "disabled",
    "enabled",
    "on",
    "off",
    "in",
    "staging",
    "production",
    "issue",
    "42",
    "30",
    "seconds",
    "upgraded",
];
