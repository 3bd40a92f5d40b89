//! The fleet's strongest promoted claims, for the session-start briefing: most
//! independent sessions first, then confidence. No query text, so no FTS or vectors.

use super::rows::ClaimRow;
use super::{Snapshot, cleaned, query_error as sql};
use crate::error::Result;

/// At most `k` agent-visible claims, strongest first (ties by id, for stable output).
pub fn top(snap: &Snapshot, k: usize) -> Result<Vec<ClaimRow>> {
    snap.arm();
    let mut st = snap
        .conn
        .prepare(
            "SELECT id, text, type, subject, scope, status, independent_sessions, confidence,
                    created_at, promoted_at, agent, session
             FROM claims WHERE visible = 1
             ORDER BY independent_sessions DESC, confidence DESC, id LIMIT ?1",
        )
        .map_err(sql)?;
    let rows = st
        .query_map([k as i64], |r| {
            Ok(ClaimRow {
                id: r.get(0)?,
                text: r.get(1)?,
                claim_type: r.get(2)?,
                subject: r.get(3)?,
                scope: r.get(4)?,
                status: r.get(5)?,
                independent_sessions: r.get(6)?,
                confidence: r.get(7)?,
                created_at: r.get(8)?,
                promoted_at: r.get(9)?,
                agent: r.get(10)?,
                session: r.get(11)?,
            })
        })
        .map_err(sql)?;
    cleaned(rows)
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
        };
        let claims = [
            c("weak", 1, 0.9, "promoted"),
            c("strong", 3, 0.5, "promoted"),
            c("hidden", 9, 0.9, "proposed"),
            c("mid", 3, 0.7, "contested"),
        ];
        build(&p, "x", "f", "on", &claims, &[]).unwrap();
        let ids: Vec<String> = top(&Snapshot::open(&p).unwrap(), 2)
            .unwrap()
            .into_iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(ids, ["mid", "strong"]);
    }
}
