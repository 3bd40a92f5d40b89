//! `fleet_status`: active agents, their tasks, and every lease's standing, from the cache.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cache::{self, Roster};
use crate::error::Result;
use crate::fleet::leases::{self, LeaseState, State};
use crate::fleet::{Lease, lease};
use crate::rules;
use crate::tools::{Ctx, Tool, invoke, schema_of};

pub const TOOL: Tool = Tool {
    name: "fleet_status",
    description: "Who in the fleet is active, on what task, and which repo paths each holds or contends for (advisory leases, as of the last sync). Call before editing shared code. Unpinned, no `fleet`: also lists fleets.",
    read_only: true,
    input_schema: schema_of::<StatusInput>,
    output_schema: schema_of::<StatusOutput>,
    peer_fields: &["agents[].task", "agents[].leases[].reason"],
    call: |ctx, args| invoke(ctx, args, run),
};

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatusInput {
    #[serde(default)]
    pub fleet: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct StatusOutput {
    pub fleet: String,
    /// This caller's agent id.
    pub agent: String,
    pub session: String,
    /// When sync last wrote the roster (absent: never).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub generated_at: Option<String>,
    /// Seconds since then: every answer says how stale it may be.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "i64")]
    pub cache_age_secs: Option<i64>,
    pub agents: Vec<AgentRow>,
    /// Leases held by others that overlap one of this caller's.
    pub contended: usize,
    pub truncated: bool,
    pub advisory: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub note: Option<String>,
    /// Open mode (no pin) and no `fleet` asked for: every fleet this host knows. Absent,
    /// never null; its rows (`fleet list`'s) are objects whose fields the output schema does
    /// not spell out: the tool list's token budget (`tests/cli/mcp/tokens.rs`) has no room
    /// for them. Objects, not a bare `true`: strict validators (the Inspector's `--strict`)
    /// refuse a schema that accepts any value at all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<serde_json::Map<String, serde_json::Value>>")]
    pub fleets: Option<Vec<super::list::FleetRow>>,
    /// Why the roster gave no data, for the human header (the note says it to JSON readers).
    #[serde(skip)]
    pub cache_problem: Option<cache::Problem>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct AgentRow {
    pub agent: String,
    pub session: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub runtime: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub task: Option<String>,
    pub last_seen: String,
    /// `last_seen` in lake-time ms, for renderers (not part of the output).
    #[serde(skip)]
    pub last_seen_ms: i64,
    /// True for the caller's own (agent, session).
    pub you: bool,
    pub leases: Vec<LeaseRow>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct LeaseRow {
    pub repo: String,
    pub path: String,
    pub reason: String,
    pub granted_at: String,
    pub expires_at: String,
    /// `granted_at` and `expires_at` in lake-time ms, for renderers (not output).
    #[serde(skip)]
    pub granted_at_ms: i64,
    #[serde(skip)]
    pub expires_at_ms: i64,
    pub state: LeaseState,
    /// Who holds it when contended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub holder: Option<String>,
}

pub fn run(ctx: &Ctx, input: StatusInput) -> Result<StatusOutput> {
    let fleet = ctx.fleet(input.fleet.as_deref())?;
    // A pinned server speaks for one fleet only: it never names the others.
    let discover = input.fleet.is_none() && ctx.pinned_fleet.is_none();
    let read: cache::Read<Roster> = cache::read(&ctx.paths, &fleet, cache::ROSTER);
    let mut out = StatusOutput {
        fleet,
        agent: ctx.scope.agent.clone(),
        session: ctx.scope.session.clone(),
        generated_at: None,
        cache_age_secs: None,
        agents: Vec::new(),
        contended: 0,
        truncated: false,
        advisory: rules::ADVISORY.into(),
        note: read.note,
        fleets: discover.then(|| super::list::fleets(ctx)),
        cache_problem: read.problem,
    };
    let Some(roster) = read.data else {
        return Ok(out);
    };
    let now = ctx.now_ms();
    out.cache_age_secs = cache::age_secs(&roster.generated_at, now);
    out.generated_at = Some(roster.generated_at.clone());
    let lake_now = now + roster.lake_clock_offset_ms;
    let idle_ms = ctx.config.idle_secs as i64 * 1000;
    let (all, owner) = lease::of_presences(&roster.agents);
    // Each agent's standings, in resolution order: one pass, not one scan per agent.
    let mut by_agent: Vec<Vec<leases::Standing>> = vec![Vec::new(); roster.agents.len()];
    for s in leases::resolve(&all, lake_now) {
        by_agent[owner[s.lease]].push(s);
    }
    let mut rows = Vec::new();
    for (ai, p) in roster.agents.iter().enumerate() {
        if lake_now.saturating_sub(p.last_seen_ms) > idle_ms {
            continue;
        }
        let you = p.agent == ctx.scope.agent && p.session == ctx.scope.session;
        let leases = by_agent[ai]
            .iter()
            .map(|s| {
                let l = &all[s.lease];
                let holder = match &s.state {
                    State::Held => None,
                    State::Contended(h) => Some(h.agent.clone()),
                };
                if you && holder.is_some() {
                    out.contended += 1;
                }
                row(l, s, holder)
            })
            .collect();
        rows.push(AgentRow {
            agent: p.agent.clone(),
            session: p.session.clone(),
            runtime: p.runtime.clone(),
            task: p.task.clone(),
            last_seen: crate::time::format_ms(p.last_seen_ms),
            last_seen_ms: p.last_seen_ms,
            you,
            leases,
        });
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.last_seen_ms));
    (out.agents, out.truncated) = rules::cap(rows, rules::MAX_ROWS as usize);
    Ok(out)
}

/// A lease as the tool reports it: its times in RFC 3339.
fn row(l: &Lease, s: &leases::Standing, holder: Option<String>) -> LeaseRow {
    LeaseRow {
        repo: l.repo.clone(),
        path: l.path.clone(),
        reason: l.reason.clone(),
        granted_at: crate::time::format_ms(l.granted_at_ms),
        expires_at: crate::time::format_ms(l.expires_at_ms),
        granted_at_ms: l.granted_at_ms,
        expires_at_ms: l.expires_at_ms,
        state: s.state.reported(),
        holder,
    }
}
