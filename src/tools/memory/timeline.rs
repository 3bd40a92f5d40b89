//! `memory_timeline`: what the fleet proposed, promoted, contested and handed off about
//! a subject, oldest first.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Opened, open_snapshot, shadow_note};
use crate::cache::{self, Handoffs};
use crate::error::Result;
use crate::rules;
use crate::tools::{Ctx, Tool, invoke, schema_of};

pub const TOOL: Tool = Tool {
    name: "memory_timeline",
    description: "What the fleet tried, claimed, contested or handed off about one subject, oldest first. Check before repeating an approach.",
    read_only: true,
    input_schema: schema_of::<TimelineInput>,
    output_schema: schema_of::<TimelineOutput>,
    peer_fields: &["entries[].text"],
    call: |ctx, args| invoke(ctx, args, run),
};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TimelineInput {
    #[serde(default)]
    pub fleet: Option<String>,
    /// As claims name it.
    pub subject: String,
    /// RFC 3339, a date, or an age like `2h`.
    #[serde(default)]
    pub since: Option<String>,
    /// Rows (default 50, max 200).
    #[serde(default)]
    pub limit: Option<u32>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct TimelineOutput {
    pub fleet: String,
    pub enabled: bool,
    pub entries: Vec<Entry>,
    pub truncated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub note: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Entry {
    pub at: String,
    /// `claim_proposed`, `claim_promoted`, `claim_contested`, `claim_retired`,
    /// `claim_superseded`, `claim_outdated`, `claim_kept` or `handoff`.
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub claim_id: Option<String>,
    /// The other claim an entry names: what replaced this one (`claim_superseded`), what
    /// probably updates it (`claim_outdated`), or its rival in a fork (`claim_contested`).
    // Left out when absent, never null: published as its type alone (the tool list has a
    // token budget, tests/cli/mcp/tokens.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub related_claim_id: Option<String>,
    pub agent: String,
    pub session: String,
    pub text: String,
}

pub fn run(ctx: &Ctx, input: TimelineInput) -> Result<TimelineOutput> {
    let fleet = ctx.fleet(input.fleet.as_deref())?;
    crate::scope::validate_subject(&input.subject)?;
    let limit = rules::clamp("limit", input.limit, rules::DEFAULT_LIMIT)?;
    let since = match &input.since {
        Some(s) => Some(crate::time::format_ms(crate::time::parse_since(
            s,
            ctx.now_ms(),
        )?)),
        None => None,
    };
    let mut out = TimelineOutput {
        fleet: fleet.clone(),
        enabled: false,
        entries: Vec::new(),
        truncated: false,
        note: None,
    };
    let mut entries = Vec::new();
    match open_snapshot(ctx, &fleet) {
        Opened::Unavailable(enabled, note) => {
            out.enabled = enabled;
            out.note = Some(note);
        }
        Opened::Ready(snap) => {
            out.enabled = true;
            out.note = shadow_note(ctx, &snap);
            if out.note.is_none() {
                match crate::snapshot::search::timeline(
                    &snap,
                    &input.subject,
                    since.as_deref(),
                    limit,
                ) {
                    Ok(rows) => entries.extend(rows.into_iter().map(|e| Entry {
                        at: e.at,
                        kind: e.kind,
                        claim_id: Some(e.claim_id),
                        related_claim_id: e.related_id,
                        agent: e.agent,
                        session: e.session,
                        text: e.text,
                    })),
                    Err(e) => {
                        out.note =
                            Some(format!("the snapshot could not be read ({})", e.one_line()))
                    }
                }
            }
        }
    }
    let subject = input.subject.to_lowercase();
    let hand: cache::Read<Handoffs> = cache::read(&ctx.paths, &fleet, cache::HANDOFFS);
    for h in hand.data.map(|h| h.handoffs).unwrap_or_default() {
        let about = h.summary.to_lowercase().contains(&subject)
            || h.next
                .as_deref()
                .is_some_and(|n| n.to_lowercase().contains(&subject));
        if about && since.as_deref().is_none_or(|s| h.at.as_str() >= s) {
            let text = match &h.next {
                Some(n) => format!("[{}] {} — next: {n}", h.status, h.summary),
                None => format!("[{}] {}", h.status, h.summary),
            };
            // Each part passed the read boundary; the joined text is bounded again.
            let text = crate::sanitize::clean(&text, crate::sanitize::MAX_FIELD_CHARS);
            entries.push(Entry {
                at: h.at,
                kind: "handoff".into(),
                claim_id: None,
                related_claim_id: None,
                agent: h.agent,
                session: h.session,
                text,
            });
        }
    }
    entries.sort_by(|a, b| a.at.cmp(&b.at));
    (out.entries, out.truncated) = rules::cap(entries, limit);
    Ok(out)
}
