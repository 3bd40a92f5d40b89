//! Briefing material: the live agents, recent sessions, handoffs and top promoted claims,
//! rendered line by line. `ctxlake sync` writes it to `cache/<fleet>/briefing.json` so the
//! session-start hook reads a few KB instead of resolving leases and opening the snapshot.
//! Every string a peer wrote (task, lease path and reason, handoff, files, claim) is
//! rendered as labelled peer text (`crate::peer`), bounded so a line keeps its labels whole.

use serde::{Deserialize, Serialize};

use crate::cache::{self, Handoffs, History, Roster};
use crate::ctx::Ctx;
use crate::fleet::leases::{self, State};
use crate::memory::render;
use crate::memory::snapshot::{Opened, open_snapshot, shadow_note};
use crate::peer;
use crate::sanitize;
use crate::snapshot::top::top;

/// Bumped whenever `Material`'s meaning changes. A hook that finds another version logs it
/// and gives the header-only briefing rather than guess (or pay for the full render).
pub const VERSION: u32 = 3;
/// At most this many promoted claims are briefed.
pub const MAX_CLAIMS: usize = 5;
/// Longest rendered line.
pub const LINE_CHARS: usize = 220;
/// Longest claim text in a briefing; a longer claim is cut with a visible marker.
pub const CLAIM_TEXT_CHARS: usize = 200;
/// How many lines of each kind the material keeps (the briefing caps them further).
const KEEP_LINES: usize = 40;
/// Bounds of peer text inside one line, so the line fits [`LINE_CHARS`] labels and all.
const TASK_CHARS: usize = 60;
const PATH_CHARS: usize = 40;
const REASON_CHARS: usize = 40;
const SUMMARY_CHARS: usize = 90;
const NEXT_CHARS: usize = 50;
const FILES_CHARS: usize = 100;

/// What a briefing is made of, rendered line by line but not yet assembled for one
/// caller. `ctxlake sync` writes it to `cache/<fleet>/briefing.json` so the hook reads a
/// few KB instead of parsing the roster, resolving leases and opening the snapshot.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Material {
    /// [`VERSION`] of the code that wrote it; any other value is not trusted to parse alike.
    #[serde(default)]
    pub version: u32,
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

/// Write `briefing.json` for `ctx.scope.fleet` (`ctxlake sync` calls it after the mirror).
/// Rebuilt every pass from the other caches, so not fsynced.
pub fn write(ctx: &Ctx) -> crate::error::Result<()> {
    let m = material(ctx, ctx.now_ms());
    let bytes = crate::error::Error::json(&m)?;
    crate::fsutil::write_rebuildable(
        &ctx.paths.cache_file(&ctx.scope.fleet, cache::BRIEFING),
        &bytes,
        0o600,
    )
}

/// Render every line from the raw caches and the snapshot.
pub fn material(ctx: &Ctx, now: i64) -> Material {
    let roster: Option<Roster> = read(ctx, cache::ROSTER);
    let mut m = Material {
        version: VERSION,
        generated_at: roster.as_ref().map(|r| r.generated_at.clone()),
        ..Material::default()
    };
    if let Some(r) = &roster {
        (m.live, m.agents) = agents(ctx, r, now);
    }
    if let Some(h) = read::<Handoffs>(ctx, cache::HANDOFFS) {
        m.handoffs = h
            .handoffs
            .iter()
            .take(KEEP_LINES)
            .map(|n| {
                let next = n
                    .next
                    .as_deref()
                    .map(|x| format!(" — next: {}", peer::label_within(x, NEXT_CHARS)))
                    .unwrap_or_default();
                let day = n.at.get(..10).unwrap_or(&n.at);
                let summary = peer::label_within(&n.summary, SUMMARY_CHARS);
                RepoLine {
                    repo: n.repo.clone(),
                    line: format!(
                        "- {} {day} [{}] {summary}{next}",
                        peer::unmarked(&n.agent),
                        n.status
                    ),
                }
            })
            .collect();
    }
    if let Some(h) = read::<History>(ctx, cache::HISTORY) {
        m.sessions = h
            .sessions
            .iter()
            .take(KEEP_LINES)
            .map(|x| {
                let day = x.started_at.get(..10).unwrap_or(&x.started_at);
                let files = if x.files_touched.is_empty() {
                    String::new()
                } else {
                    format!(
                        ": {}",
                        peer::label_within(&x.files_touched.join(", "), FILES_CHARS)
                    )
                };
                RepoLine {
                    repo: x.repo.clone(),
                    line: format!("- {} {day} {}{files}", peer::unmarked(&x.agent), x.outcome),
                }
            })
            .collect();
    }
    m.claims = claims(ctx);
    m
}

fn agents(ctx: &Ctx, roster: &Roster, now: i64) -> (usize, Vec<AgentLine>) {
    let lake_now = now + roster.lake_clock_offset_ms;
    let idle_ms = ctx.config.idle_secs as i64 * 1000;
    let (all, owner) = super::lease::of_presences(&roster.agents);
    let standing = leases::resolve(&all, lake_now);
    let mut live: Vec<(usize, &cache::Presence)> = roster
        .agents
        .iter()
        .enumerate()
        .filter(|(_, p)| lake_now.saturating_sub(p.last_seen_ms) <= idle_ms)
        .collect();
    live.sort_by_key(|p| std::cmp::Reverse(p.1.last_seen_ms));
    let count = live.len();
    let mut out = Vec::new();
    for (ai, p) in live.into_iter().take(KEEP_LINES) {
        let mut held: Vec<String> = Vec::new();
        for st in standing.iter().filter(|st| owner[st.lease] == ai) {
            let l = &all[st.lease];
            let expires = crate::time::format_ms(l.expires_at_ms);
            let until = expires.get(11..16).unwrap_or(&expires);
            let mark = match &st.state {
                State::Held => "",
                State::Contended(..) => " (contended)",
            };
            held.push(format!(
                "{}{mark} until {until}Z: {}",
                peer::label_within(&l.path, PATH_CHARS),
                peer::label_within(&l.reason, REASON_CHARS)
            ));
        }
        // A runtime is a name from a short list; anything else a peer put there is not shown.
        let runtime = p
            .runtime
            .as_deref()
            .filter(|r| r.len() <= 32 && crate::scope::validate_id("runtime", r).is_ok())
            .unwrap_or("?");
        let task = p.task.as_deref().map_or_else(
            || "no task given".to_string(),
            |t| peer::label_within(t, TASK_CHARS),
        );
        let head = format!("[{runtime}] {task} — ");
        // The briefing's line is `- <agent> (your agent id) <rest>`: as many leases as fit
        // whole, then a count, so no reader has to cut a label (or pay for cutting it).
        let room = LINE_CHARS
            .saturating_sub(p.agent.chars().count() + 20 + head.chars().count() + MORE_CHARS);
        out.push(AgentLine {
            agent: p.agent.clone(),
            rest: format!("{head}{}", holds(&held, room)),
        });
    }
    (count, out)
}

/// Room kept for `; +NN more`.
const MORE_CHARS: usize = 12;

/// `holds a; b; +N more`: at most three leases, and only those that fit in `room`
/// characters (the first always goes in: the line bound cuts it if it must).
fn holds(held: &[String], room: usize) -> String {
    if held.is_empty() {
        return "holds nothing".to_string();
    }
    let mut h = String::from("holds ");
    let mut shown = 0;
    for l in held.iter().take(3) {
        let sep = if shown == 0 { 0 } else { 2 };
        if shown > 0 && h.chars().count() + sep + l.chars().count() > room {
            break;
        }
        if shown > 0 {
            h.push_str("; ");
        }
        h.push_str(l);
        shown += 1;
    }
    if held.len() > shown {
        h.push_str(&format!("; +{} more", held.len() - shown));
    }
    h
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
    let now = ctx.now_ms();
    rows.into_iter()
        .map(|mut c| {
            // Claims flagged as probably outdated come last (`top`), marked as such.
            let marks = render::Marks::of(&c, now, &ctx.config.stale_after);
            c.id = sanitize::clean(&c.id, 64);
            c.text = sanitize::clean(&c.text, CLAIM_TEXT_CHARS);
            let text = render::claim(&c, &marks);
            let (attribution, body) = text.split_once('\n').unwrap_or((&text, ""));
            (attribution.to_string(), body.to_string())
        })
        .collect()
}

/// A cache file through the read boundary (every string cleaned as it is decoded).
fn read<T: serde::de::DeserializeOwned>(ctx: &Ctx, name: &str) -> Option<T> {
    cache::read(&ctx.paths, &ctx.scope.fleet, name).data
}

/// `briefing.json` through the read boundary: every string cleaned and bounded to a line
/// as it is decoded (a label the cut falls in stays closed), so no field of [`Material`]
/// can skip it; the (common) untouched string is not copied.
pub fn read_material(ctx: &Ctx) -> cache::Read<Material> {
    fn line(s: &str) -> std::borrow::Cow<'_, str> {
        peer::bound_line(s, LINE_CHARS)
    }
    cache::read_with(&ctx.paths, &ctx.scope.fleet, cache::BRIEFING, line)
}
