//! Search, listing and visibility over a built snapshot (hash vectors, shipped ranking).
use super::super::build::build;
use super::*;
use crate::vocab::{ClaimScope, ClaimStatus, ClaimType};

pub(crate) fn claim(id: &str, text: &str, subject: &str, status: &str) -> ClaimRow {
    ClaimRow {
        id: id.into(),
        text: text.into(),
        claim_type: ClaimType::Environment,
        subject: subject.into(),
        scope: ClaimScope::Fleet,
        status: ClaimStatus::parse(status).unwrap(),
        independent_sessions: 2,
        confidence: 0.8,
        created_at: "2026-11-01T00:00:00.000Z".into(),
        promoted_at: Some("2026-11-02T00:00:00.000Z".into()),
        agent: "a".into(),
        session: "s".into(),
    }
}

#[test]
fn lexical_vector_fusion_and_visibility() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("s.sqlite");
    let claims = vec![
        claim(
            "c1",
            "cargo test needs RUSTFLAGS=-D warnings",
            "ci",
            "promoted",
        ),
        claim(
            "c2",
            "the integration database is postgres 15",
            "db",
            "promoted",
        ),
        claim("c3", "secret plan nobody approved", "ci", "proposed"),
        claim(
            "c4",
            "cargo builds are slow without sccache",
            "ci",
            "contested",
        ),
    ];
    build(&p, "snap1", "f", "on", &claims, &[]).unwrap();
    let s = Snapshot::open(&p).unwrap();
    assert_eq!(s.id, "snap1");
    let q = |text, k| Query {
        text,
        subject: None,
        claim_type: None,
        scope: None,
        k,
    };
    let (hits, _) = search(&s, &q("cargo test warnings", 10)).unwrap();
    assert_eq!(hits[0].claim.id, "c1");
    assert!(
        hits.iter().all(|h| h.claim.id != "c3"),
        "proposed claims are never visible"
    );
    let (typo, _) = search(&s, &q("postgress databse", 10)).unwrap();
    assert_eq!(
        typo.first().map(|h| h.claim.id.as_str()),
        Some("c2"),
        "cosine fallback finds typos"
    );
    let (one, truncated) = search(&s, &q("cargo", 1)).unwrap();
    assert_eq!(one.len(), 1);
    assert!(truncated);
    let shadow = d.path().join("shadow.sqlite");
    build(&shadow, "snap2", "f", "shadow", &claims, &[]).unwrap();
    let (none, _) = search(&Snapshot::open(&shadow).unwrap(), &q("cargo", 10)).unwrap();
    assert!(none.is_empty());
}

/// A status this build does not know (a newer writer's) skips its own row, not the read.
#[test]
fn an_unknown_status_skips_only_its_row() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("s.sqlite");
    let claims = vec![
        claim("c1", "postgres needs port 5433", "db", "promoted"),
        claim("c2", "postgres runs in docker", "db", "promoted"),
    ];
    build(&p, "snap", "f", "on", &claims, &[]).unwrap();
    rusqlite::Connection::open(&p)
        .unwrap()
        .execute("UPDATE claims SET status = 'disputed' WHERE id = 'c1'", [])
        .unwrap();
    let snap = Snapshot::open(&p).unwrap();
    let rows = list(&snap, None, 10).unwrap();
    assert_eq!(
        rows.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        ["c2"]
    );
    assert_eq!(crate::snapshot::top::top(&snap, 5).unwrap().len(), 1);
}
