//! `fleet_history`: recent sessions (with outcomes) and handoff notes, from the cache.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cache::{self, HandoffNote, Handoffs, History, SessionDigest};
use crate::error::Result;
use crate::rules;
use crate::tools::{Ctx, Tool, invoke, schema_of};

pub const TOOL: Tool = Tool {
    name: "fleet_history",
    description: "Recent sessions in the fleet (who, repo, outcome, files, commands, tests) and the handoff notes left, newest first. Check what was tried before you start.",
    read_only: true,
    input_schema: schema_of::<HistoryInput>,
    output_schema: schema_of::<HistoryOutput>,
    peer_fields: &[
        "sessions[].commands",
        "sessions[].tests",
        "handoffs[].summary",
        "handoffs[].next",
    ],
    call: |ctx, args| invoke(ctx, args, run),
};

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryInput {
    #[serde(default)]
    pub fleet: Option<String>,
    /// Only this repo: `github.com/org/repo` or a root path.
    #[serde(default)]
    pub repo: Option<String>,
    /// RFC 3339, a date, or an age like `2h`.
    #[serde(default)]
    pub since: Option<String>,
    /// Rows per list (default 50, max 200).
    #[serde(default)]
    pub limit: Option<u32>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct HistoryOutput {
    pub fleet: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub generated_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "i64")]
    pub cache_age_secs: Option<i64>,
    pub sessions: Vec<SessionDigest>,
    pub handoffs: Vec<HandoffNote>,
    /// More rows matched than were returned.
    pub truncated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub note: Option<String>,
}

pub fn run(ctx: &Ctx, input: HistoryInput) -> Result<HistoryOutput> {
    let fleet = ctx.fleet(input.fleet.as_deref())?;
    let now = ctx.now_ms();
    let since = input
        .since
        .as_deref()
        .map(|s| crate::time::parse_since(s, now))
        .transpose()?;
    let limit = rules::clamp("limit", input.limit, rules::DEFAULT_LIMIT)?;
    let after =
        |t: &str| since.is_none_or(|s| crate::time::parse_rfc3339(t).is_some_and(|t| t >= s));
    let in_repo = |r: &Option<String>| {
        input
            .repo
            .as_ref()
            .is_none_or(|want| r.as_ref() == Some(want))
    };

    let hist: cache::Read<History> = cache::read(&ctx.paths, &fleet, cache::HISTORY);
    let hand: cache::Read<Handoffs> = cache::read(&ctx.paths, &fleet, cache::HANDOFFS);
    let generated_at = hist.data.as_ref().map(|h| h.generated_at.clone());
    let sessions: Vec<_> = hist
        .data
        .map(|h| h.sessions)
        .unwrap_or_default()
        .into_iter()
        .filter(|s| after(&s.started_at) && in_repo(&s.repo))
        .collect();
    let handoffs: Vec<_> = hand
        .data
        .map(|h| h.handoffs)
        .unwrap_or_default()
        .into_iter()
        .filter(|h| after(&h.at) && in_repo(&h.repo))
        .collect();
    let (sessions, t1) = rules::cap(sessions, limit);
    let (handoffs, t2) = rules::cap(handoffs, limit);
    let note = match (hist.note, hand.note) {
        (Some(a), Some(_)) => Some(a),
        (a, b) => a.or(b),
    };
    // `cache_age_secs` says when the view was rebuilt; the sessions in it are older still,
    // since hook history reaches the lake at its own cadence (`drain::history`).
    let note = note.or_else(|| (!sessions.is_empty()).then(lag_note));
    Ok(HistoryOutput {
        fleet,
        cache_age_secs: generated_at
            .as_deref()
            .and_then(|g| cache::age_secs(g, now)),
        generated_at,
        sessions,
        handoffs,
        truncated: t1 || t2,
        note,
    })
}

/// How far behind its agents the session history may be, on any host (its own included).
fn lag_note() -> String {
    let secs = crate::services::drain::history::HISTORY_AGE_MS / 1000;
    format!(
        "sessions lag their agents by up to {secs} s (or until a session ends) plus 2 sync intervals"
    )
}
