//! `fleet_status`: active agents, their tasks, and every lease's standing, from the cache.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cache::{self, Roster};
use crate::error::Result;
use crate::fleet::leases::{self, LeaseState, State};
use crate::rules;
use crate::tools::{Ctx, Tool, invoke, schema_of};

pub const TOOL: Tool = Tool {
    name: "fleet_status",
    title: "Fleet status",
    description: "Who else in this coding-agent fleet is active right now, what task each is on, and which repository paths each holds or contends for with advisory leases (as of the last `ctxlake sync`). Call before editing shared code to avoid colliding with another agent. Called without `fleet` on a server that is not pinned to one fleet, it also lists every fleet this host knows (`fleets`: configured, mirrored or served, with agent counts and last activity), so you can discover fleets and pass one as `fleet`. Not a web or code search.",
    read_only: true,
    input_schema: schema_of::<StatusInput>,
    output_schema: schema_of::<StatusOutput>,
    peer_fields: &["agents[].task", "agents[].leases[].reason"],
    call: |ctx, args| invoke(ctx, args, run),
};

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatusInput {
    /// Fleet to look at (default: this agent's fleet).
    #[serde(default)]
    pub fleet: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct StatusOutput {
    pub fleet: String,
    /// This caller's agent id.
    pub agent: String,
    pub session: String,
    /// When sync last wrote the roster (null: never).
    pub generated_at: Option<String>,
    /// Seconds since then: every answer says how stale it may be.
    pub cache_age_secs: Option<i64>,
    pub agents: Vec<AgentRow>,
    /// Leases held by others that overlap one of this caller's.
    pub contended: usize,
    pub truncated: bool,
    pub advisory: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Open mode (no pin) and no `fleet` asked for: every fleet this host knows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fleets: Option<Vec<super::list::FleetRow>>,
    /// Why the roster gave no data, for the human header (the note says it to JSON readers).
    #[serde(skip)]
    pub cache_problem: Option<cache::Problem>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct AgentRow {
    pub agent: String,
    pub session: String,
    pub runtime: Option<String>,
    pub task: Option<String>,
    pub last_seen: String,
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
    pub state: LeaseState,
    /// Who holds it when contended.
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
    let standing = leases::resolve(&roster.agents, lake_now);
    // Each agent's standings, in resolution order: one pass, not one scan per agent.
    let mut by_agent: Vec<Vec<&leases::Standing>> = vec![Vec::new(); roster.agents.len()];
    for s in &standing {
        by_agent[s.agent].push(s);
    }
    let mut rows = Vec::new();
    for (ai, p) in roster.agents.iter().enumerate() {
        let seen = crate::time::parse_rfc3339(&p.last_seen).unwrap_or(i64::MIN);
        if lake_now.saturating_sub(seen) > idle_ms {
            continue;
        }
        let you = p.agent == ctx.scope.agent && p.session == ctx.scope.session;
        let leases = by_agent[ai]
            .iter()
            .map(|s| {
                let l = &p.leases[s.lease];
                let holder = match &s.state {
                    State::Held => None,
                    State::Contended(a, _) => Some(a.clone()),
                };
                if you && holder.is_some() {
                    out.contended += 1;
                }
                LeaseRow {
                    repo: l.repo.clone(),
                    path: l.path.clone(),
                    reason: l.reason.clone(),
                    granted_at: l.granted_at.clone(),
                    expires_at: l.expires_at.clone(),
                    state: s.state.reported(),
                    holder,
                }
            })
            .collect();
        rows.push(AgentRow {
            agent: p.agent.clone(),
            session: p.session.clone(),
            runtime: p.runtime.clone(),
            task: p.task.clone(),
            last_seen: p.last_seen.clone(),
            you,
            leases,
        });
    }
    rows.sort_by(|a, b| b.last_seen.cmp(&a.last_seen));
    (out.agents, out.truncated) = rules::cap(rows, rules::MAX_ROWS as usize);
    Ok(out)
}
