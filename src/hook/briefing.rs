//! The session-start briefing: live agents and what they hold, recent sessions and
//! handoffs, and at most 5 promoted claims with attribution — sanitized, every peer-written
//! string labelled (`«…»`, explained once in the head), and capped so it never crowds the
//! model's context (each section has its own share of the cap).

use crate::cache::{self, Read};
use crate::ctx::Ctx;
use crate::fleet::briefing::{
    self as material, CLAIM_TEXT_CHARS, LINE_CHARS, MAX_CLAIMS, Material, RepoLine,
};
use crate::memory::render;
use crate::peer;
use crate::sanitize;

/// The whole briefing never exceeds this many characters.
pub const MAX_CHARS: usize = 3000;
// Shares of MAX_CHARS: who holds what matters most before the first edit.
const HEAD_CHARS: usize = 330;
const AGENT_CHARS: usize = 700;
const HISTORY_CHARS: usize = 440;
// Claims are budgeted by count, not characters: up to MAX_CLAIMS whole claims always fit
// (attribution, then the text with its two label marks and indent).
const CLAIM_CHARS: usize = 100 + MAX_CLAIMS * (80 + CLAIM_TEXT_CHARS + 6);
const _: () = assert!(HEAD_CHARS + AGENT_CHARS + HISTORY_CHARS + CLAIM_CHARS <= MAX_CHARS);

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
    /// Add one sanitized, length-bounded line (a label it cuts stays closed); false once
    /// the section is full.
    fn push(&mut self, line: &str) -> bool {
        let line = peer::bound_line(&line.replace('\n', " "), LINE_CHARS).into_owned();
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
/// Material that `sync` wrote under another [`material::VERSION`] is not guessed at: the
/// caller gets the header alone and a note for the hook log.
pub fn build(ctx: &Ctx, repo: Option<&str>, notes: &mut Vec<String>) -> String {
    let now = ctx.now_ms();
    let read: Read<Material> = material::read_material(ctx);
    let m = match read.data {
        Some(m) if m.version == material::VERSION => m,
        Some(m) => {
            notes.push(format!(
                "briefing material is version {} but this build reads {}: header only until `ctxlake sync` rewrites it",
                m.version,
                material::VERSION
            ));
            return header_only(ctx, &m, now);
        }
        None => material::material(ctx, now),
    };
    assemble(ctx, &m, repo, now)
}

fn header_only(ctx: &Ctx, m: &Material, now: i64) -> String {
    let generated_at = m.generated_at.clone();
    let bare = Material {
        generated_at,
        ..Material::default()
    };
    assemble(ctx, &bare, None, now)
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
    let labelled = !(m.agents.is_empty()
        && m.handoffs.is_empty()
        && m.sessions.is_empty()
        && m.claims.is_empty());
    if labelled {
        head.push(peer::LEGEND);
    }
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
                let agent = peer::unmarked(&a.agent);
                if !agents.push(&format!("- {agent}{you} {}", a.rest)) {
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

fn claims_text(ctx: &Ctx, m: &Material) -> String {
    if ctx.config.memory_mode != crate::config::MemoryMode::On || m.claims.is_empty() {
        return String::new();
    }
    let mut s = Section::new(CLAIM_CHARS);
    s.push(render::HEADING);
    for (attribution, body) in m.claims.iter().take(MAX_CLAIMS) {
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
