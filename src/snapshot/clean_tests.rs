//! The read boundary over the snapshot: every reader returns rows that were cleaned.
use crate::snapshot::search::{Query, list, search, timeline};
use crate::snapshot::{Snapshot, build::build, top::top};

use crate::snapshot::rows::{ClaimRow, EventRow};
use crate::vocab::{ClaimScope, ClaimStatus, ClaimType};

const PLANTED: &str = "\u{202E}\u{E0041}";

fn planted(s: &str) -> String {
    format!("{s}{PLANTED}")
}

/// Every snapshot reader returns rows that passed the boundary.
#[test]
fn every_snapshot_reader_returns_cleaned_rows() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("s.sqlite");
    let claim = ClaimRow {
        id: planted("c1"),
        text: planted("widget needs port 8080"),
        claim_type: ClaimType::Environment,
        subject: planted("widgets"),
        scope: ClaimScope::Fleet,
        status: ClaimStatus::Promoted,
        independent_sessions: 2,
        confidence: 0.8,
        created_at: planted("2026-11-01"),
        promoted_at: Some(planted("2026-11-02")),
        agent: planted("a"),
        session: planted("s"),
        key: Some(planted("ci.node")),
        superseded_by: Some(planted("c2")),
        superseded_at: Some(planted("2026-11-03")),
        outdated_by: Some(planted("c3")),
        pending_by: Some(planted("c4")),
        last_evidence_at: planted("2026-11-02"),
    };
    let event = EventRow {
        at: planted("2026-11-02"),
        subject: "widgets".into(),
        kind: planted("claim_promoted"),
        claim_id: planted("c1"),
        agent: planted("a"),
        session: planted("s"),
        text: planted("widget"),
        related_id: Some(planted("c2")),
    };
    build(
        &p,
        &planted("snap"),
        "f",
        crate::config::MemoryMode::On,
        &[claim],
        &[event],
    )
    .unwrap();
    let s = Snapshot::open(&p).unwrap();
    assert_eq!(
        (s.id.as_str(), s.mode),
        ("snap", crate::config::MemoryMode::On)
    );
    let q = Query {
        text: "widget port",
        subject: None,
        claim_type: None,
        scope: None,
        k: 5,
        include_superseded: false,
    };
    let mut claims: Vec<ClaimRow> = search(&s, &q)
        .unwrap()
        .0
        .into_iter()
        .map(|h| h.claim)
        .collect();
    claims.extend(list(&s, None, 5).unwrap());
    claims.extend(top(&s, 5).unwrap());
    assert_eq!(claims.len(), 3);
    for c in claims {
        let text = format!("{c:?}");
        assert!(
            !text.contains('\u{202E}') && !text.contains('\u{E0041}'),
            "{text}"
        );
        assert_eq!(c.promoted_at.as_deref(), Some("2026-11-02"));
    }
    let events = timeline(&s, "widgets", None, 5).unwrap();
    assert_eq!(events.len(), 1);
    let text = format!("{:?}", events[0]);
    assert!(
        !text.contains('\u{202E}') && !text.contains('\u{E0041}'),
        "{text}"
    );
}
