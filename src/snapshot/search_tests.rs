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
        key: None,
        superseded_by: None,
        superseded_at: None,
        outdated_by: None,
        pending_by: None,
        last_evidence_at: "2026-11-01T00:00:00.000Z".into(),
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
    build(
        &p,
        "snap1",
        "f",
        crate::config::MemoryMode::On,
        &claims,
        &[],
    )
    .unwrap();
    let s = Snapshot::open(&p).unwrap();
    assert_eq!(s.id, "snap1");
    let q = |text, k| Query {
        text,
        subject: None,
        claim_type: None,
        scope: None,
        k,
        include_superseded: false,
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
    build(
        &shadow,
        "snap2",
        "f",
        crate::config::MemoryMode::Shadow,
        &claims,
        &[],
    )
    .unwrap();
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
    build(&p, "snap", "f", crate::config::MemoryMode::On, &claims, &[]).unwrap();
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

/// Age orders near-ties: of two hits scored alike, the one with newer evidence ranks
/// first; a hit flagged as probably outdated ranks right below the claim that updates it;
/// a superseded claim is found only when history is asked for.
#[test]
fn fresher_first_outdated_below_and_superseded_on_request() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("s.sqlite");
    let mut stale = claim("c1", "the build cache lives in redis", "ci", "promoted");
    let mut fresh = claim("c2", "the build cache lives in redis", "cd", "promoted");
    fresh.last_evidence_at = "2026-11-20T00:00:00.000Z".into();
    stale.last_evidence_at = "2026-11-02T00:00:00.000Z".into();
    let mut old = claim("c3", "CI runs on Node 18", "ci", "promoted");
    let new = claim(
        "c4",
        "CI now runs on Node 22 (upgraded from Node 18)",
        "ci",
        "promoted",
    );
    old.outdated_by = Some("c4".into());
    let mut gone = claim("c5", "CI runs on Node 16", "ci", "superseded");
    gone.superseded_by = Some("c3".into());
    build(
        &p,
        "s",
        "f",
        crate::config::MemoryMode::On,
        &[stale, fresh, old, new, gone],
        &[],
    )
    .unwrap();
    let s = Snapshot::open(&p).unwrap();
    let q = |text, history| Query {
        text,
        subject: None,
        claim_type: None,
        scope: None,
        k: 10,
        include_superseded: history,
    };
    let ids = |text, history| -> Vec<String> {
        search(&s, &q(text, history))
            .unwrap()
            .0
            .into_iter()
            .map(|h| h.claim.id)
            .collect()
    };
    assert_eq!(ids("build cache redis", false), ["c2", "c1"]);
    let node = ids("CI runs on Node 18", false);
    assert_eq!(
        node[..2],
        ["c4", "c3"],
        "the outdated claim ranks below its update"
    );
    assert!(ids("CI runs on Node 16", true).contains(&"c5".to_string()));
    assert!(!ids("CI runs on Node 16", false).contains(&"c5".to_string()));
}
