//! What a dashboard page shows, gathered through the tools' own readers (`fleet_status`,
//! `fleet_history`, the snapshot's `list`, `ctxlake status`'s pipeline facts), so the page
//! reads the same cache through the same read boundary as `--json` does.

use crate::ctx::Ctx;
use crate::error::Result;
use crate::memory::snapshot::{Opened, open_snapshot, shadow_note};
use crate::services::status::{StatusOutput as Pipeline, gather as pipeline};
use crate::snapshot::rows::ClaimRow;
use crate::tools::fleet::history::{self, HistoryInput, HistoryOutput};
use crate::tools::fleet::status::{self, StatusInput, StatusOutput};
use crate::vocab::ClaimStatus;

/// Claims per status read from the snapshot (one more tells the page there were more).
pub(crate) const CLAIMS_SHOWN: usize = 20;

/// One fleet, as its page shows it.
pub(crate) struct FleetView {
    pub(crate) fleet: String,
    pub(crate) now_ms: i64,
    /// Cache age past which the page marks the data stale.
    pub(crate) stale_after_secs: i64,
    pub(crate) status: StatusOutput,
    pub(crate) history: HistoryOutput,
    pub(crate) memory: Memory,
    pub(crate) pipeline: Pipeline,
}

#[derive(Default)]
pub(crate) struct Memory {
    pub(crate) snapshot_id: Option<String>,
    /// Why there is nothing to show, or that agents see none of it (shadow mode).
    pub(crate) note: Option<String>,
    pub(crate) promoted: Vec<ClaimRow>,
    pub(crate) contested: Vec<ClaimRow>,
    pub(crate) proposed: Vec<ClaimRow>,
    /// Replaced claims, newest first: each names its successor (the chains).
    pub(crate) superseded: Vec<ClaimRow>,
    /// When a claim's line says "unconfirmed for N days".
    pub(crate) stale_after: crate::config::StaleAfter,
}

/// One line of the fleet list.
pub(crate) struct FleetLine {
    pub(crate) fleet: String,
    pub(crate) status: StatusOutput,
}

/// `ctx` acting on `fleet` (refused when the server is pinned to another one).
pub(crate) fn fleet_ctx(base: &Ctx, fleet: &str) -> Result<Ctx> {
    let fleet = base.fleet(Some(fleet))?;
    let mut ctx = base.clone();
    ctx.scope.fleet = fleet;
    Ok(ctx)
}

pub(crate) fn fleet(base: &Ctx, fleet: &str) -> Result<FleetView> {
    let ctx = fleet_ctx(base, fleet)?;
    let fleet = ctx.scope.fleet.clone();
    let status = status::run(
        &ctx,
        StatusInput {
            fleet: Some(fleet.clone()),
        },
    )?;
    let history = history::run(
        &ctx,
        HistoryInput {
            fleet: Some(fleet.clone()),
            limit: Some(crate::rules::MAX_ROWS),
            ..HistoryInput::default()
        },
    )?;
    Ok(FleetView {
        memory: memory(&ctx, &fleet),
        pipeline: pipeline(&ctx, status.cache_age_secs, status.cache_problem),
        now_ms: ctx.now_ms(),
        // Three missed `sync --watch` passes, and never under a minute.
        stale_after_secs: (3 * ctx.config.sync_interval_secs as i64).max(60),
        fleet,
        status,
        history,
    })
}

/// Promoted, contested and proposed claims: an operator's view, like `memory list`.
fn memory(ctx: &Ctx, fleet: &str) -> Memory {
    let snap = match open_snapshot(ctx, fleet) {
        Opened::Ready(s) => s,
        Opened::Unavailable(_, note) => {
            return Memory {
                note: Some(note),
                ..Memory::default()
            };
        }
    };
    let mut m = Memory {
        snapshot_id: Some(snap.id.clone()),
        note: shadow_note(ctx, &snap),
        stale_after: ctx.config.stale_after,
        ..Memory::default()
    };
    let read = |status| crate::snapshot::search::list(&snap, Some(status), CLAIMS_SHOWN + 1);
    match (
        read(ClaimStatus::Promoted),
        read(ClaimStatus::Contested),
        read(ClaimStatus::Proposed),
        read(ClaimStatus::Superseded),
    ) {
        (Ok(p), Ok(c), Ok(q), Ok(s)) => {
            (m.promoted, m.contested, m.proposed, m.superseded) = (p, c, q, s)
        }
        (Err(e), ..) | (_, Err(e), ..) | (_, _, Err(e), _) | (.., Err(e)) => {
            m.note = Some(format!(
                "the snapshot could not be read ({}); run `ctxlake sync`",
                e.one_line()
            ));
        }
    }
    m
}

/// This host's fleets: every fleet it serves (`services::serving`) with a cache, plus
/// the configured one; only the pinned fleet when the server is pinned.
pub(crate) fn fleets(base: &Ctx) -> Vec<FleetLine> {
    let serves = crate::services::serving::fleets(base);
    let mut names: Vec<String> = std::fs::read_dir(&base.paths.cache)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|f| serves.contains(f))
        .collect();
    names.push(base.scope.fleet.clone());
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter_map(|f| {
            let ctx = fleet_ctx(base, &f).ok()?;
            let status = status::run(&ctx, StatusInput { fleet: Some(f) }).ok()?;
            Some(FleetLine {
                fleet: ctx.scope.fleet,
                status,
            })
        })
        .collect()
}

/// Every timestamped thing the page knows, by agent: lease grants, session starts and
/// ends, handoffs, claim proposals. The chart bins these.
pub(crate) fn activity(v: &FleetView) -> Vec<(&str, i64)> {
    let t = |s: &str| crate::time::parse_rfc3339(s);
    let mut out = Vec::new();
    for a in &v.status.agents {
        for l in &a.leases {
            out.push((a.agent.as_str(), l.granted_at_ms));
        }
    }
    for s in &v.history.sessions {
        out.extend(t(&s.started_at).map(|ms| (s.agent.as_str(), ms)));
        out.extend(
            s.ended_at
                .as_deref()
                .and_then(t)
                .map(|ms| (s.agent.as_str(), ms)),
        );
    }
    for h in &v.history.handoffs {
        out.extend(t(&h.at).map(|ms| (h.agent.as_str(), ms)));
    }
    let m = &v.memory;
    for c in m.promoted.iter().chain(&m.contested).chain(&m.proposed) {
        out.extend(t(&c.created_at).map(|ms| (c.agent.as_str(), ms)));
    }
    out
}
