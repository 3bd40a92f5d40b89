//! The gate: thresholds, independence, contradictions, operators.

use super::*;
use crate::memory::contradiction::contradicts;
use crate::memory::event::Event;
use crate::vocab::ClaimStatus;
use serde_json::json;

fn propose(id: &str, session: &str, ty: &str, subject: &str, text: &str) -> Event {
    Event {
        id: id.into(),
        at: format!("2026-11-29T00:00:{id}.000Z"),
        kind: "memory_propose".into(),
        agent: format!("agent-{session}"),
        session: session.into(),
        payload: json!({"claim": text, "type": ty, "subject": subject, "evidence": [{"session_id": session, "message_id": "m"}]}),
    }
}
fn status(f: &Folded, text: &str) -> (&'static str, u32) {
    let c = f.claims.iter().find(|c| c.text == text).unwrap();
    (c.status.as_str(), c.independent_sessions)
}

#[test]
fn thresholds_by_type() {
    let f = fold(&[
        propose("01", "s1", "environment", "ci", "CI runs on Debian 12"),
        propose(
            "02",
            "s1",
            "convention",
            "style",
            "Use snake_case for JSON fields",
        ),
        propose(
            "03",
            "s2",
            "convention",
            "style",
            "use  snake_case for JSON fields.",
        ),
        propose("04", "s1", "convention", "x", "One session is not enough"),
        propose("05", "s1", "preference", "p", "Prefer tabs"),
        propose("06", "s2", "hypothesis", "h", "Maybe the cache is stale"),
    ]);
    assert_eq!(status(&f, "CI runs on Debian 12"), ("promoted", 1));
    assert_eq!(
        status(&f, "Use snake_case for JSON fields"),
        ("promoted", 2),
        "same claim, two sessions"
    );
    assert_eq!(status(&f, "One session is not enough").0, "proposed");
    assert_eq!(status(&f, "Prefer tabs").0, "proposed");
    assert_eq!(status(&f, "Maybe the cache is stale").0, "proposed");
}

#[test]
fn shown_sessions_are_not_independent() {
    let id = claim_id("style", "Use tabs");
    let shown = Event {
        id: "02".into(),
        at: "2026-11-29T00:00:02.000Z".into(),
        kind: "memory_shown".into(),
        agent: "b".into(),
        session: "s2".into(),
        payload: json!({"claim_ids": [id]}),
    };
    let f = fold(&[
        propose("01", "s1", "convention", "style", "Use tabs"),
        shown,
        propose("03", "s2", "convention", "style", "Use tabs"),
    ]);
    assert_eq!(status(&f, "Use tabs"), ("proposed", 1));
}

#[test]
fn contradictions_contest_both_sides() {
    let f = fold(&[
        propose(
            "01",
            "s1",
            "environment",
            "tests",
            "The integration tests need network access",
        ),
        propose(
            "02",
            "s2",
            "environment",
            "tests",
            "The integration tests do not need network access",
        ),
        propose(
            "03",
            "s1",
            "environment",
            "db",
            "The test database is postgres 15",
        ),
        propose(
            "04",
            "s2",
            "environment",
            "db",
            "The test database is postgres 16",
        ),
        propose(
            "05",
            "s3",
            "environment",
            "other",
            "The integration tests do not need network access",
        ),
    ]);
    assert_eq!(
        status(&f, "The integration tests need network access").0,
        "contested"
    );
    assert_eq!(
        status(&f, "The integration tests do not need network access").0,
        "contested"
    );
    assert_eq!(
        status(&f, "The test database is postgres 15").0,
        "contested"
    );
    assert_eq!(
        status(&f, "The test database is postgres 16").0,
        "contested"
    );
    assert!(!contradicts("cargo test is slow", "the docs are outdated"));
    assert!(contradicts(
        "The build needs network access",
        "The build does not need network access"
    ));
    assert!(contradicts(
        "Tests can't run offline",
        "Tests can run offline"
    ));
    assert!(!contradicts(
        "The build needs network access",
        "The build needs network access"
    ));
    assert!(f.events.iter().any(|e| e.kind == "claim_contested"));
}

/// Issue 9 §1.6: 260 distinct numbered facts on one subject all ended CONTESTED because
/// they differ by a number; they name different widgets, so each is promoted.
#[test]
fn distinct_numbered_items_are_promoted_not_contested() {
    let mut events: Vec<Event> = (1..=260)
        .map(|n| {
            let text = format!("widget {n} requires flag alpha{n} to be set");
            propose(
                &format!("{n:03}"),
                &format!("s{n}"),
                "environment",
                "widgets",
                &text,
            )
        })
        .collect();
    // A real contradiction on the same subject still contests (the gate is not off).
    let text = "widget 7 does not require flag alpha7 to be set";
    events.push(propose("900", "s900", "environment", "widgets", text));
    let f = fold(&events);
    let count = |st: &str| f.claims.iter().filter(|c| c.status.as_str() == st).count();
    assert_eq!(f.claims.len(), 261);
    assert_eq!(count("promoted"), 259, "every other widget is promoted");
    assert_eq!(count("contested"), 2, "only widget 7 and its negation");
    assert_eq!(status(&f, text).0, "contested");
}

/// The dashboard's queue explains a waiting claim with the same thresholds the gate applies.
#[test]
fn the_queue_reason_follows_the_gate() {
    for (ty, waits, why) in [
        ("environment", false, ""),
        ("outcome", false, ""),
        ("convention", true, "needs 2 independent session(s), has 1"),
        ("preference", true, "only by a person"),
        ("hypothesis", true, "never promoted"),
    ] {
        let f = fold(&[propose("01", "s1", ty, "subj", "a claim about it")]);
        let c = &f.claims[0];
        assert_eq!(c.status == ClaimStatus::Proposed, waits, "{ty}");
        if waits {
            let reason = waiting_because(c.claim_type, c.independent_sessions);
            assert!(reason.contains(why), "{ty}: {reason}");
        }
    }
}

/// A proposal at second `id` (two digits) with links.
fn linked(
    id: &str,
    session: &str,
    ty: &str,
    subject: &str,
    text: &str,
    links: serde_json::Value,
) -> Event {
    let mut e = propose(id, session, ty, subject, text);
    for (k, v) in links.as_object().unwrap() {
        e.payload[k] = v.clone();
    }
    e
}

fn person(id: &str, action: &str, claim: &str, by: Option<&str>) -> Event {
    Event {
        id: id.into(),
        at: format!("2026-11-29T00:00:{id}.000Z"),
        kind: "memory_operator".into(),
        agent: "person".into(),
        session: "person".into(),
        payload: json!({"action": action, "claim_id": claim, "by": by, "reason": "checked"}),
    }
}

fn row<'a>(f: &'a Folded, text: &str) -> &'a ClaimRow {
    f.claims.iter().find(|c| c.text == text).unwrap()
}

#[test]
fn a_supersede_takes_effect_once_promoted_by_two_sessions() {
    let old = claim_id("ci", "CI runs on Node 18");
    let new = "CI runs on Node 22";
    let names = json!({"supersedes": [old]});
    let base = [
        propose("01", "s1", "environment", "ci", "CI runs on Node 18"),
        linked("02", "s2", "environment", "ci", new, names.clone()),
    ];
    // One session (enough to promote an environment fact) hides nothing: the old claim
    // stays current, pointing at the pending replacement, and the two are not contested.
    let f = fold(&base);
    assert_eq!(row(&f, "CI runs on Node 18").status, ClaimStatus::Promoted);
    assert_eq!(
        row(&f, "CI runs on Node 18").pending_by,
        Some(claim_id("ci", new))
    );
    assert_eq!(row(&f, new).status, ClaimStatus::Promoted);
    let mut two = base.to_vec();
    two.push(linked("03", "s3", "environment", "ci", new, names));
    let f = fold(&two);
    let o = row(&f, "CI runs on Node 18");
    assert_eq!(o.status, ClaimStatus::Superseded);
    assert_eq!(o.superseded_by, Some(claim_id("ci", new)));
    assert_eq!(o.superseded_at.as_deref(), Some("2026-11-29T00:00:03.000Z"));
    let chain = f
        .events
        .iter()
        .find(|e| e.kind == "claim_superseded")
        .unwrap();
    assert_eq!(
        (chain.claim_id.as_str(), chain.related_id.clone()),
        (old.as_str(), Some(claim_id("ci", new)))
    );
}

#[test]
fn a_key_replaces_older_holders_and_is_never_a_contradiction() {
    let k = json!({"key": "ci.node-version"});
    let f = fold(&[
        linked(
            "01",
            "s1",
            "environment",
            "ci",
            "CI uses Node 20",
            k.clone(),
        ),
        linked(
            "02",
            "s2",
            "environment",
            "ci",
            "CI uses Node 22",
            k.clone(),
        ),
        linked("03", "s3", "environment", "ci", "CI uses Node 22", k),
    ]);
    assert_eq!(row(&f, "CI uses Node 20").status, ClaimStatus::Superseded);
    assert_eq!(row(&f, "CI uses Node 22").status, ClaimStatus::Promoted);
    // Without the key the same pair is a contradiction: both CONTESTED.
    let f = fold(&[
        propose("01", "s1", "environment", "ci", "CI uses Node 20"),
        propose("02", "s2", "environment", "ci", "CI uses Node 22"),
    ]);
    assert_eq!(row(&f, "CI uses Node 20").status, ClaimStatus::Contested);
}

#[test]
fn two_replacements_of_one_claim_are_contested() {
    let old = claim_id("ci", "CI runs on Node 18");
    let names = json!({"supersedes": [old]});
    let f = fold(&[
        propose("01", "s1", "environment", "ci", "CI runs on Node 18"),
        linked(
            "02",
            "s2",
            "environment",
            "ci",
            "CI runs on Node 20",
            names.clone(),
        ),
        linked(
            "03",
            "s3",
            "environment",
            "ci",
            "CI runs on Bun 1.1",
            names.clone(),
        ),
        linked(
            "04",
            "s4",
            "environment",
            "ci",
            "CI runs on Node 20",
            names.clone(),
        ),
        linked("05", "s5", "environment", "ci", "CI runs on Bun 1.1", names),
    ]);
    assert_eq!(
        row(&f, "CI runs on Node 18").status,
        ClaimStatus::Superseded
    );
    assert_eq!(row(&f, "CI runs on Node 20").status, ClaimStatus::Contested);
    assert_eq!(row(&f, "CI runs on Bun 1.1").status, ClaimStatus::Contested);
}

#[test]
fn a_person_supersedes_and_keeps() {
    let (a, b) = ("CI runs on Node 18", "CI runs on Node 22");
    let (ia, ib) = (claim_id("ci", a), claim_id("ci", b));
    let contested = [
        propose("01", "s1", "environment", "ci", a),
        propose("02", "s2", "environment", "ci", b),
    ];
    assert_eq!(row(&fold(&contested), a).status, ClaimStatus::Contested);
    // A person settles the contradiction: the old one is replaced, the new one stands.
    let mut settled = contested.to_vec();
    settled.push(person("03", "supersede", &ia, Some(&ib)));
    let f = fold(&settled);
    assert_eq!(
        (row(&f, a).status, row(&f, a).superseded_by.clone()),
        (ClaimStatus::Superseded, Some(ib.clone()))
    );
    assert_eq!(row(&f, b).status, ClaimStatus::Promoted);
    // A probable update is flagged, never applied; `keep` dismisses the flag.
    let (old, new) = (
        "The login test is flaky",
        "The login test is no longer flaky",
    );
    let flagged = [
        propose("01", "s1", "outcome", "tests", old),
        propose("02", "s2", "outcome", "tests", new),
    ];
    let f = fold(&flagged);
    assert_eq!(row(&f, old).status, ClaimStatus::Promoted);
    assert_eq!(row(&f, old).outdated_by, Some(claim_id("tests", new)));
    let mut kept = flagged.to_vec();
    kept.push(person("03", "keep", &claim_id("tests", old), None));
    assert_eq!(row(&fold(&kept), old).outdated_by, None);
}

#[test]
fn any_new_proposal_refreshes_the_newest_evidence() {
    let id = claim_id("ci", "CI runs on Node 22");
    let shown = Event {
        id: "02".into(),
        at: "2026-11-29T00:00:02.000Z".into(),
        kind: "memory_shown".into(),
        agent: "b".into(),
        session: "s2".into(),
        payload: json!({"claim_ids": [id]}),
    };
    let f = fold(&[
        propose("01", "s1", "environment", "ci", "CI runs on Node 22"),
        shown,
        propose("09", "s2", "environment", "ci", "CI runs on Node 22"),
    ]);
    let c = row(&f, "CI runs on Node 22");
    assert_eq!(c.independent_sessions, 1, "s2 was shown it first");
    assert_eq!(
        c.last_evidence_at, "2026-11-29T00:00:09.000Z",
        "but it still refreshes"
    );
}
