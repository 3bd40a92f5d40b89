//! The cache files a pass rebuilds from a fleet's mirror state: the live roster (every
//! unended session and the leases in force) and the session history.

use super::KEEP;
use super::state::State;
use crate::cache::{Presence, SessionDigest};
use crate::fleet::Lease;
use crate::time::format_ms;
use crate::vocab::SessionOutcome;

/// Live sessions and the leases in force at lake time `lake_now`.
pub(super) fn roster(st: &State, lake_now: i64) -> Vec<Presence> {
    st.live()
        .into_iter()
        .filter(|(p, _)| p.ended_at_ms.is_none())
        .map(|(p, seen)| Presence {
            agent: p.agent.clone(),
            session: p.session.clone(),
            runtime: p.runtime.clone(),
            task: p.task.clone(),
            last_seen_ms: seen,
            leases: p
                .leases
                .iter()
                .filter(|l| l.is_live(lake_now))
                .map(Lease::entry)
                .collect(),
        })
        .collect()
}

/// Digests of every session: hook history folded, plus MCP-only sessions from their
/// presence. An unended session's outcome moves with the clock, so it is decided here.
pub(super) fn history(st: &State, lake_now: i64, idle_ms: i64) -> Vec<SessionDigest> {
    let live = st.live();
    let seen_at: std::collections::HashMap<(&str, &str), i64> = live
        .iter()
        .map(|(p, t)| ((p.agent.as_str(), p.session.as_str()), *t))
        .collect();
    let presence_at = |agent: &str, session: &str| seen_at.get(&(agent, session)).copied();
    let mut out = Vec::new();
    for s in st.sessions.values() {
        let mut d = s.digest.clone();
        let seen = presence_at(&d.agent, &d.session).map_or(s.seen_ms, |t| t.max(s.seen_ms));
        if d.ended_at.is_none() {
            let idle = lake_now - seen > idle_ms;
            d.outcome = if idle {
                SessionOutcome::Abandoned
            } else {
                SessionOutcome::Running
            };
        }
        out.push(d);
    }
    for (p, seen) in &live {
        if out
            .iter()
            .any(|d| d.agent == p.agent && d.session == p.session)
        {
            continue;
        }
        let outcome = match (p.ended_at_ms, lake_now - seen > idle_ms) {
            (Some(_), _) => SessionOutcome::Clean,
            (None, true) => SessionOutcome::Abandoned,
            (None, false) => SessionOutcome::Running,
        };
        out.push(SessionDigest {
            session: p.session.clone(),
            agent: p.agent.clone(),
            runtime: p.runtime.clone(),
            repo: p
                .leases
                .first()
                .map(|l| l.repo.clone())
                .filter(|r| !r.is_empty()),
            started_at: format_ms(p.started_at_ms.unwrap_or(*seen)),
            ended_at: p.ended_at_ms.map(format_ms),
            outcome,
            files_touched: p.leases.iter().map(|l| l.path.clone()).collect(),
            ..SessionDigest::default()
        });
    }
    out.sort_by(|a, b| b.started_at.cmp(&a.started_at));
    out.truncate(KEEP);
    out
}
