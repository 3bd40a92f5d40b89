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

#[path = "supersede_tests.rs"]
mod supersede;
