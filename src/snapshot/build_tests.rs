//! A streamed build (rows inserted as they are rendered, the timeline sorted by SQLite)
//! writes the same rows, in the same order, as a build from rows collected and sorted.

use super::*;
use crate::vocab::{ClaimScope, ClaimStatus, ClaimType};

fn claim(n: usize, status: ClaimStatus) -> ClaimRow {
    ClaimRow {
        id: format!("c{n:03}"),
        text: format!("claim number {n} about postgres"),
        claim_type: ClaimType::Outcome,
        subject: ["db", "ci", "DB"][n % 3].into(),
        scope: ClaimScope::Agent,
        status,
        independent_sessions: n as u32 % 3,
        confidence: 0.5,
        created_at: format!("2026-01-01T00:00:{:02}Z", n % 60),
        promoted_at: None,
        agent: "a".into(),
        session: format!("s{n}"),
        key: n.is_multiple_of(4).then(|| "slot".into()),
        superseded_by: None,
        superseded_at: None,
        outdated_by: None,
        pending_by: None,
        last_evidence_at: "2026-01-02T00:00:00Z".into(),
    }
}

/// Claim `n`'s timeline, out of order and with ties: equal keys across claims and within
/// one (only the order they were handed over tells those apart).
fn timeline(n: usize) -> Vec<(EventOrder, EventRow)> {
    let row = |k: usize| EventRow {
        at: format!("row {k}"),
        subject: ["db", "ci", "DB"][n % 3].into(),
        kind: format!("kind{k}"),
        claim_id: format!("c{n:03}"),
        agent: "a".into(),
        session: format!("s{n}"),
        text: format!("event {k} of claim {n}"),
        related_id: (k == 1).then(|| "c000".into()),
    };
    let at = |s: usize| format!("2026-01-01T00:00:{:02}Z", s % 7);
    vec![
        ((at(n), 1, format!("p{n}"), 0), row(0)),
        ((at(n + 3), 2, "c000".into(), 1), row(1)),
        ((at(n + 3), 2, "c000".into(), 1), row(2)),
        ((at(1), 2, "c000".into(), 0), row(3)),
        ((at(n), 3, format!("p{}", n % 2), u32::MAX), row(4)),
    ]
}

fn rendered() -> Vec<Rendered> {
    let statuses = [
        ClaimStatus::Promoted,
        ClaimStatus::Proposed,
        ClaimStatus::Superseded,
        ClaimStatus::Contested,
    ];
    // More claims than three of a streamed build's batches between its threads.
    (0..300)
        .map(|n| (claim(n, statuses[n % 4]), timeline(n)))
        .collect()
}

/// Every table's rows in rowid order, and what FTS answers.
fn dump(p: &Path) -> Vec<String> {
    let c = Connection::open(p).unwrap();
    let mut out = Vec::new();
    for sql in [
        "SELECT key, value FROM meta WHERE key != 'built_at' ORDER BY key",
        "SELECT * FROM claims ORDER BY rowid",
        "SELECT rowid, * FROM events ORDER BY rowid",
        "SELECT rowid FROM claims_fts WHERE claims_fts MATCH 'postgres' ORDER BY rank, rowid",
        "SELECT name, sql FROM sqlite_master ORDER BY name",
    ] {
        let mut st = c.prepare(sql).unwrap();
        let n = st.column_count();
        let rows = st
            .query_map([], |r| {
                Ok((0..n)
                    .map(|i| match r.get_ref(i).unwrap() {
                        rusqlite::types::ValueRef::Text(t) => String::from_utf8_lossy(t).into(),
                        rusqlite::types::ValueRef::Blob(b) => crate::digest::sha256_hex(b),
                        v => format!("{v:?}"),
                    })
                    .collect::<Vec<_>>()
                    .join("|"))
            })
            .unwrap();
        out.extend(rows.map(|r| r.unwrap()));
    }
    out
}

#[test]
fn a_streamed_build_writes_the_rows_of_a_collected_one() {
    let d = tempfile::tempdir().unwrap();
    for mode in [MemoryMode::On, MemoryMode::Shadow] {
        let (claims, timelines): (Vec<ClaimRow>, Vec<_>) = rendered().into_iter().unzip();
        let mut events: Vec<(EventOrder, EventRow)> = timelines.into_iter().flatten().collect();
        events.sort_by(|a, b| a.0.cmp(&b.0)); // stable: ties keep the order handed over
        let events: Vec<EventRow> = events.into_iter().map(|(_, e)| e).collect();
        let collected = d.path().join(format!("collected-{}.sqlite", mode.as_str()));
        build(&collected, "s1", "f", mode, &claims, &events).unwrap();
        let streamed = d.path().join(format!("streamed-{}.sqlite", mode.as_str()));
        build_streamed(
            &streamed,
            "s1",
            "f",
            mode,
            rendered().into_iter(),
            &Vectors::default(),
        )
        .unwrap();
        let (a, b) = (dump(&collected), dump(&streamed));
        assert!(
            a.len() > 6 + 300 + 1500,
            "meta, claims and events are there"
        );
        let first = a.iter().zip(&b).position(|(x, y)| x != y);
        let at = first.map(|i| (&a[i], &b[i]));
        assert_eq!((a.len(), at), (b.len(), None), "{}", mode.as_str());
    }
}

/// A streamed build whose rendering fails part way (a panic on the render thread) fails
/// too: it never finishes a snapshot short of the claims after it.
#[test]
fn a_streamed_build_whose_rendering_panics_does_not_finish() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("s.sqlite");
    let claims = rendered().into_iter().enumerate().map(|(i, r)| {
        assert!(i < 200, "rendering failed");
        r
    });
    let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        build_streamed(
            &path,
            "s1",
            "f",
            MemoryMode::On,
            claims,
            &Vectors::default(),
        )
    }));
    assert!(built.is_err(), "the panic reaches the caller: {built:?}");
}
