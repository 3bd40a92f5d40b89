//! The session-start briefing: live agents and what they hold, recent sessions and
//! handoffs, and at most 5 promoted claims with attribution — sanitized, and capped so
//! it never crowds the model's context (each section has its own share of the cap).

use serde::{Deserialize, Serialize};

use crate::cache::{self, Handoffs, History, Roster};
use crate::sanitize;
use crate::snapshot::top::top;
use crate::tools::Ctx;
use crate::tools::fleet::leases::{self, State};
use crate::tools::memory::{Opened, open_snapshot, render, shadow_note};

/// The whole briefing never exceeds this many characters.
pub const MAX_CHARS: usize = 2000;
const LINE_CHARS: usize = 220;
const MAX_CLAIMS: usize = 5;
// Shares of MAX_CHARS: who holds what matters most before the first edit.
const HEAD_CHARS: usize = 300;
const AGENT_CHARS: usize = 700;
const HISTORY_CHARS: usize = 450;
const CLAIM_CHARS: usize = 550;

/// Lines kept within a character budget; whatever does not fit is dropped and marked.
struct Section {
    lines: Vec<String>,
    used: usize,
    limit: usize,
    cut: bool,
}

impl Section {
    fn new(limit: usize) -> Self {
        Section {
            lines: Vec::new(),
            used: 0,
            limit,
            cut: false,
        }
    }
    /// Add one sanitized, length-bounded line; false once the section is full.
    fn push(&mut self, line: &str) -> bool {
        let line = sanitize::clean(&line.replace('\n', " "), LINE_CHARS);
        let n = line.chars().count() + 1;
        if self.cut || self.used + n > self.limit {
            self.cut = true;
            return false;
        }
        self.used += n;
        self.lines.push(line);
        true
    }
    fn into_text(mut self) -> String {
        if self.cut && !self.lines.is_empty() {
            self.lines.push(sanitize::TRUNCATED_MARKER.to_string());
        }
        self.lines.join("\n")
    }
}

/// What a briefing is made of, rendered line by line but not yet assembled for one
/// caller. `ctxlake sync` writes it to `cache/<fleet>/briefing.json` so the hook reads a
/// few KB instead of parsing the roster, resolving leases and opening the snapshot.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Material {
    /// When the roster behind it was written.
    pub generated_at: Option<String>,
    /// How many agents are live (the lines below keep the most recently seen).
    pub live: usize,
    /// Live agents, most recently seen first.
    pub agents: Vec<AgentLine>,
    /// Newest first.
    pub handoffs: Vec<RepoLine>,
    /// Newest first.
    pub sessions: Vec<RepoLine>,
    /// Attribution line and text of the top promoted claims.
    pub claims: Vec<(String, String)>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct AgentLine {
    pub agent: String,
    /// `[runtime] task — holds …`
    pub rest: String,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct RepoLine {
    pub repo: Option<String>,
    pub line: String,
}

/// How many lines of each kind the material keeps (the sections cap them further).
const KEEP_LINES: usize = 40;

/// The briefing for `ctx.scope.fleet`, as seen from `repo` (the session's repository id).
pub fn build(ctx: &Ctx, repo: Option<&str>) -> String {
    let now = ctx.now_ms();
    let m = super::read_cache(ctx, cache::BRIEFING).unwrap_or_else(|| material(ctx, now));
    assemble(ctx, &m, repo, now)
}

/// Write `briefing.json` for `ctx.scope.fleet` (called by `ctxlake sync` after the mirror).
pub fn write_material(ctx: &Ctx) -> crate::error::Result<()> {
    let m = material(ctx, ctx.now_ms());
    let bytes = serde_json::to_vec(&m).unwrap_or_default();
    crate::fsutil::write_atomic(
        &ctx.paths.cache_file(&ctx.scope.fleet, cache::BRIEFING),
        &bytes,
        0o600,
    )
}

/// Render every line from the raw caches and the snapshot.
pub fn material(ctx: &Ctx, now: i64) -> Material {
    let roster: Option<Roster> = super::read_cache(ctx, cache::ROSTER);
    let mut m = Material {
        generated_at: roster.as_ref().map(|r| r.generated_at.clone()),
        ..Material::default()
    };
    if let Some(r) = &roster {
        (m.live, m.agents) = agents(ctx, r, now);
    }
    if let Some(h) = super::read_cache::<Handoffs>(ctx, cache::HANDOFFS) {
        m.handoffs = h
            .handoffs
            .iter()
            .take(KEEP_LINES)
            .map(|n| {
                let next = n
                    .next
                    .as_deref()
                    .map(|x| format!(" — next: {x}"))
                    .unwrap_or_default();
                let day = n.at.get(..10).unwrap_or(&n.at);
                RepoLine {
                    repo: n.repo.clone(),
                    line: format!("- {} {day} [{}] {}{next}", n.agent, n.status, n.summary),
                }
            })
            .collect();
    }
    if let Some(h) = super::read_cache::<History>(ctx, cache::HISTORY) {
        m.sessions = h
            .sessions
            .iter()
            .take(KEEP_LINES)
            .map(|x| {
                let day = x.started_at.get(..10).unwrap_or(&x.started_at);
                let files = if x.files_touched.is_empty() {
                    String::new()
                } else {
                    format!(": {}", x.files_touched.join(", "))
                };
                RepoLine {
                    repo: x.repo.clone(),
                    line: format!("- {} {day} {}{files}", x.agent, x.outcome),
                }
            })
            .collect();
    }
    m.claims = claims(ctx);
    m
}

/// One caller's briefing: the head, the sections in their shares of the cap.
pub fn assemble(ctx: &Ctx, m: &Material, repo: Option<&str>, now: i64) -> String {
    let fleet = &ctx.scope.fleet;
    let mut head = Section::new(HEAD_CHARS);
    head.push(&match m.generated_at.as_deref().and_then(|g| cache::age_secs(g, now)) {
        Some(a) => format!("ctxlake fleet briefing: fleet `{fleet}`, as of {a}s ago (`ctxlake sync` refreshes it)."),
        None => format!("ctxlake fleet briefing: fleet `{fleet}`: no fleet state cached yet (run `ctxlake sync`)."),
    });
    head.push("Leases are advisory: before editing shared code, check `fleet_status` and claim paths with `fleet_claim`.");
    let mut agents = Section::new(AGENT_CHARS);
    if m.generated_at.is_some() {
        if m.agents.is_empty() {
            agents.push("No other agent is active in this fleet.");
        } else {
            agents.push(&format!("Live agents ({}):", m.live.max(m.agents.len())));
            for a in &m.agents {
                let you = if a.agent == ctx.scope.agent {
                    " (your agent id)"
                } else {
                    ""
                };
                if !agents.push(&format!("- {}{you} {}", a.agent, a.rest)) {
                    break;
                }
            }
        }
    }
    let parts = [
        head.into_text(),
        agents.into_text(),
        history(m, repo),
        claims_text(ctx, m),
    ];
    let text = parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    // The shares sum to at most MAX_CHARS; this is the backstop if they ever do not.
    sanitize::clean(&text, MAX_CHARS)
}

fn agents(ctx: &Ctx, roster: &Roster, now: i64) -> (usize, Vec<AgentLine>) {
    let lake_now = now + roster.lake_clock_offset_ms;
    let idle_ms = ctx.config.idle_secs as i64 * 1000;
    let standing = leases::resolve(&roster.agents, lake_now);
    let mut live: Vec<(usize, &cache::Presence)> = roster
        .agents
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            let seen = crate::time::parse_rfc3339(&p.last_seen).unwrap_or(i64::MIN);
            lake_now.saturating_sub(seen) <= idle_ms
        })
        .collect();
    live.sort_by(|a, b| b.1.last_seen.cmp(&a.1.last_seen));
    let count = live.len();
    let mut out = Vec::new();
    for (ai, p) in live.into_iter().take(KEEP_LINES) {
        let mut held: Vec<String> = Vec::new();
        for st in standing.iter().filter(|st| st.agent == ai) {
            let l = &p.leases[st.lease];
            let until = l.expires_at.get(11..16).unwrap_or(&l.expires_at);
            let mark = match &st.state {
                State::Held => "",
                State::Contended(..) => " (contended)",
            };
            held.push(format!("{}{mark} until {until}Z: {}", l.path, l.reason));
        }
        let runtime = p.runtime.as_deref().unwrap_or("?");
        let task = p.task.as_deref().unwrap_or("no task given");
        let holds = if held.is_empty() {
            "holds nothing".to_string()
        } else {
            let more = held.len().saturating_sub(3);
            let mut h = format!("holds {}", held[..held.len().min(3)].join("; "));
            if more > 0 {
                h.push_str(&format!("; +{more} more"));
            }
            h
        };
        out.push(AgentLine {
            agent: p.agent.clone(),
            rest: format!("[{runtime}] {task} — {holds}"),
        });
    }
    (count, out)
}

fn history(m: &Material, repo: Option<&str>) -> String {
    let here = |r: &Option<String>| repo.is_some() && r.as_deref() == repo;
    let mut s = Section::new(HISTORY_CHARS);
    for (title, lines) in [
        ("Handoffs:", &m.handoffs),
        ("Recent sessions:", &m.sessions),
    ] {
        if lines.is_empty() {
            continue;
        }
        // Lines about this repository first; the material is newest first and the sort is stable.
        let mut sorted: Vec<&RepoLine> = lines.iter().collect();
        sorted.sort_by_key(|l| !here(&l.repo));
        s.push(title);
        for l in sorted.iter().take(3) {
            s.push(&l.line);
        }
    }
    s.into_text()
}

/// The top promoted claims with attribution, unless memory is not agent-visible.
fn claims(ctx: &Ctx) -> Vec<(String, String)> {
    let Opened::Ready(snap) = open_snapshot(ctx, &ctx.scope.fleet) else {
        return Vec::new();
    };
    if shadow_note(ctx, &snap).is_some() {
        return Vec::new();
    }
    let Ok(rows) = top(&snap, MAX_CLAIMS) else {
        return Vec::new();
    };
    rows.into_iter()
        .map(|c| {
            let date = c.promoted_at.as_deref().unwrap_or(&c.created_at);
            let text = render::render(
                &sanitize::clean(&c.id, 64),
                date,
                c.independent_sessions,
                c.confidence,
                c.status == "contested",
                &sanitize::clean(&c.text, LINE_CHARS),
            );
            let (attribution, body) = text.split_once('\n').unwrap_or((&text, ""));
            (attribution.to_string(), body.to_string())
        })
        .collect()
}

fn claims_text(ctx: &Ctx, m: &Material) -> String {
    if ctx.config.memory_mode != crate::config::MemoryMode::On || m.claims.is_empty() {
        return String::new();
    }
    let mut s = Section::new(CLAIM_CHARS);
    s.push(render::HEADING);
    for (attribution, body) in &m.claims {
        // A claim goes in whole or not at all: an attribution without its text misleads.
        if s.used + attribution.chars().count() + body.chars().count() + 2 > s.limit {
            s.cut = true;
            break;
        }
        s.push(attribution);
        s.push(body);
    }
    s.into_text()
}

#[cfg(test)]
#[path = "briefing_tests.rs"]
mod tests;
