//! The session-start briefing: live agents and what they hold, recent sessions and
//! handoffs, and at most 5 promoted claims with attribution — sanitized, and capped so
//! it never crowds the model's context (each section has its own share of the cap).

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

/// The briefing for `ctx.scope.fleet`, as seen from `repo` (the session's repository id).
pub fn build(ctx: &Ctx, repo: Option<&str>) -> String {
    let fleet = &ctx.scope.fleet;
    let now = ctx.now_ms();
    let roster: Option<Roster> = super::read_cache(ctx, cache::ROSTER);
    let mut head = Section::new(HEAD_CHARS);
    let age = roster
        .as_ref()
        .and_then(|r| cache::age_secs(&r.generated_at, now));
    head.push(&match age {
        Some(a) => format!("ctxlake fleet briefing: fleet `{fleet}`, as of {a}s ago (`ctxlake sync` refreshes it)."),
        None => format!("ctxlake fleet briefing: fleet `{fleet}`: no fleet state cached yet (run `ctxlake sync`)."),
    });
    head.push("Leases are advisory: before editing shared code, check `fleet_status` and claim paths with `fleet_claim`.");
    let parts = [
        head.into_text(),
        roster.map(|r| agents(ctx, &r, now)).unwrap_or_default(),
        history(ctx, repo),
        claims(ctx),
    ];
    let text = parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    // The shares sum to at most MAX_CHARS; this is the backstop if they ever do not.
    sanitize::clean(&text, MAX_CHARS)
}

fn agents(ctx: &Ctx, roster: &Roster, now: i64) -> String {
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
    let mut s = Section::new(AGENT_CHARS);
    if live.is_empty() {
        s.push("No other agent is active in this fleet.");
        return s.into_text();
    }
    s.push(&format!("Live agents ({}):", live.len()));
    for (ai, p) in &live {
        let mut held: Vec<String> = Vec::new();
        for st in standing.iter().filter(|st| st.agent == *ai) {
            let l = &p.leases[st.lease];
            let until = l.expires_at.get(11..16).unwrap_or(&l.expires_at);
            let mark = match &st.state {
                State::Held => "",
                State::Contended(..) => " (contended)",
            };
            held.push(format!("{}{mark} until {until}Z: {}", l.path, l.reason));
        }
        let you = if p.agent == ctx.scope.agent {
            " (your agent id)"
        } else {
            ""
        };
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
        if !s.push(&format!("- {}{you} [{runtime}] {task} — {holds}", p.agent)) {
            break;
        }
    }
    s.into_text()
}

fn history(ctx: &Ctx, repo: Option<&str>) -> String {
    let hist: Option<History> = super::read_cache(ctx, cache::HISTORY);
    let hand: Option<Handoffs> = super::read_cache(ctx, cache::HANDOFFS);
    let here = |r: &Option<String>| repo.is_some() && r.as_deref() == repo;
    let mut s = Section::new(HISTORY_CHARS);
    if let Some(h) = hand.filter(|h| !h.handoffs.is_empty()) {
        let mut notes = h.handoffs;
        // Notes about this repository first; the cache is newest first and the sort is stable.
        notes.sort_by_key(|n| !here(&n.repo));
        s.push("Handoffs:");
        for n in notes.iter().take(3) {
            let next = n.next.as_deref().map(|x| format!(" — next: {x}"));
            let day = n.at.get(..10).unwrap_or(&n.at);
            s.push(&format!(
                "- {} {day} [{}] {}{}",
                n.agent,
                n.status,
                n.summary,
                next.unwrap_or_default()
            ));
        }
    }
    if let Some(h) = hist.filter(|h| !h.sessions.is_empty()) {
        let mut sessions = h.sessions;
        sessions.sort_by_key(|x| !here(&x.repo));
        s.push("Recent sessions:");
        for x in sessions.iter().take(3) {
            let day = x.started_at.get(..10).unwrap_or(&x.started_at);
            let files = if x.files_touched.is_empty() {
                String::new()
            } else {
                format!(": {}", x.files_touched.join(", "))
            };
            s.push(&format!("- {} {day} {}{files}", x.agent, x.outcome));
        }
    }
    s.into_text()
}

fn claims(ctx: &Ctx) -> String {
    let Opened::Ready(snap) = open_snapshot(ctx, &ctx.scope.fleet) else {
        return String::new();
    };
    if shadow_note(ctx, &snap).is_some() {
        return String::new();
    }
    let Ok(rows) = top(&snap, MAX_CLAIMS) else {
        return String::new();
    };
    let mut s = Section::new(CLAIM_CHARS);
    if !rows.is_empty() {
        s.push(render::HEADING);
    }
    for c in rows {
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
