//! The fleet's strongest promoted claims, for the session-start briefing: most
//! independent sessions first, then confidence, and a claim flagged as probably outdated
//! after every other. No query text, so no FTS or vectors.

use super::rows::ClaimRow;
use super::{Snapshot, decoded, query_error as sql};
use crate::error::Result;

/// At most `k` agent-visible claims, strongest first (ties by id, for stable output).
pub fn top(snap: &Snapshot, k: usize) -> Result<Vec<ClaimRow>> {
    snap.arm();
    let mut st = snap
        .conn
        .prepare(
            "SELECT rowid, id, text, type, subject, scope, status, independent_sessions,
                    confidence, created_at, promoted_at, agent, session, key, superseded_by,
                    superseded_at, outdated_by, pending_by, last_evidence_at
             FROM claims WHERE visible = 1
             ORDER BY outdated_by IS NOT NULL, independent_sessions DESC, confidence DESC, id
             LIMIT ?1",
        )
        .map_err(sql)?;
    let rows = st
        .query_map([k as i64], super::search::claim_row)
        .map_err(sql)?;
    decoded(rows)
}

#[cfg(test)]
mod tests {
    use super::super::build::build;
    use super::*;
    use crate::vocab::{ClaimScope, ClaimStatus, ClaimType};

    #[test]
    fn strongest_visible_first() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("s.sqlite");
        let c = |id: &str, n: u32, conf: f64, status: &str| ClaimRow {
            id: id.into(),
            text: format!("claim {id}"),
            claim_type: ClaimType::Environment,
            subject: "s".into(),
            scope: ClaimScope::Fleet,
            status: ClaimStatus::parse(status).unwrap(),
            independent_sessions: n,
            confidence: conf,
            created_at: "2026-11-01T00:00:00Z".into(),
            promoted_at: None,
            agent: "a".into(),
            session: "s".into(),
            key: None,
            superseded_by: None,
            superseded_at: None,
            outdated_by: None,
            pending_by: None,
            last_evidence_at: "2026-11-01T00:00:00.000Z".into(),
        };
        let claims = [
            c("weak", 1, 0.9, "promoted"),
            c("strong", 3, 0.5, "promoted"),
            c("hidden", 9, 0.9, "proposed"),
            c("mid", 3, 0.7, "contested"),
        ];
        build(&p, "x", "f", crate::config::MemoryMode::On, &claims, &[]).unwrap();
        let ids: Vec<String> = top(&Snapshot::open(&p).unwrap(), 2)
            .unwrap()
            .into_iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(ids, ["mid", "strong"]);
    }
}
