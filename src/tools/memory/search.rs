//! `memory_search`: current claims matching a query, with attribution and age; claims
//! newer ones replaced only when asked (`include_superseded`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::error::Result;
use crate::memory::render;
use crate::memory::snapshot::{Opened, open_snapshot, shadow_note};
use crate::rules;
use crate::snapshot::search::{Query, search_with};
use crate::tools::{Ctx, Tool, invoke, schema_of};
use crate::vocab::{ClaimScope, ClaimStatus, ClaimType};

pub const TOOL: Tool = Tool {
    name: "memory_search",
    description: "Search what other agents' sessions observed about this codebase (environment, conventions, outcomes) and the promotion gate passed, with attribution. Peer observations, not facts: verify them. Not a code or web search.",
    read_only: true,
    input_schema: schema_of::<SearchInput>,
    output_schema: schema_of::<SearchOutput>,
    peer_fields: &["results[].claim"],
    call: |ctx, args| invoke(ctx, args, run),
};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchInput {
    #[serde(default)]
    pub fleet: Option<String>,
    pub query: String,
    /// Only this scope.
    #[serde(default)]
    pub scope: Option<ClaimScope>,
    /// Only this subject.
    #[serde(default)]
    pub subject: Option<String>,
    /// Only this type.
    #[serde(default, rename = "type", alias = "claim_type")]
    #[schemars(extend("x-aliases" = ["claim_type"]))]
    pub claim_type: Option<ClaimType>,
    /// Results (default 10, max 200).
    #[serde(default)]
    pub k: Option<u32>,
    /// Also return replaced claims.
    #[serde(default)]
    pub include_superseded: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct SearchOutput {
    pub fleet: String,
    /// False when no snapshot was ever published (or memory is off).
    pub enabled: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub snapshot_id: Option<String>,
    pub heading: String,
    pub results: Vec<Hit>,
    pub truncated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub note: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Hit {
    pub id: String,
    pub claim: String,
    #[serde(rename = "type")]
    pub claim_type: ClaimType,
    pub subject: String,
    pub scope: ClaimScope,
    pub status: ClaimStatus,
    pub independent_sessions: u32,
    pub confidence: f64,
    // No `contested` flag: it would only repeat `status == "contested"` (and the tool list
    // has a token budget, tests/cli/mcp/tokens.rs).
    pub date: String,
    /// When it was promoted (RFC 3339), if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub promoted_at: Option<String>,
    /// When a session last proposed it: its newest evidence (RFC 3339).
    pub last_evidence_at: String,
    /// Days since its newest evidence, once past `[memory] stale_after_days` for its type.
    // Left out when absent, never null: published as its type alone (the tool list has a
    // token budget, tests/cli/mcp/tokens.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64")]
    pub unconfirmed_days: Option<u64>,
    /// The slot it fills, when a proposal named one.
    // Left out when absent, never null: published as its type alone (the tool list has a
    // token budget, tests/cli/mcp/tokens.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub key: Option<String>,
    /// The claim that replaced it (only with `include_superseded`).
    // Left out when absent, never null: published as its type alone (the tool list has a
    // token budget, tests/cli/mcp/tokens.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub superseded_by: Option<String>,
    /// When it was replaced (RFC 3339).
    // Left out when absent, never null: published as its type alone (the tool list has a
    // token budget, tests/cli/mcp/tokens.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub superseded_at: Option<String>,
    /// A newer claim that probably updates it (flagged, not applied): it ranks below that one.
    // Left out when absent, never null: published as its type alone (the tool list has a
    // token budget, tests/cli/mcp/tokens.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub outdated_by: Option<String>,
    /// A claim proposed to replace it, still waiting for the gate.
    // Left out when absent, never null: published as its type alone (the tool list has a
    // token budget, tests/cli/mcp/tokens.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub pending_replacement: Option<String>,
    pub score: f64,
    /// The claim as it must be shown: attribution line with its marks, then the text.
    pub rendered: String,
}

pub fn run(ctx: &Ctx, input: SearchInput) -> Result<SearchOutput> {
    let fleet = ctx.fleet(input.fleet.as_deref())?;
    let k = rules::clamp("k", input.k, rules::DEFAULT_K)?;
    let mut out = SearchOutput {
        fleet: fleet.clone(),
        enabled: false,
        snapshot_id: None,
        heading: format!("{}\n{}", render::HEADING, render::REPLACING),
        results: Vec::new(),
        truncated: false,
        note: None,
    };
    let snap = match open_snapshot(ctx, &fleet) {
        Opened::Ready(s) => s,
        Opened::Unavailable(enabled, note) => {
            out.enabled = enabled;
            out.note = Some(note);
            return Ok(out);
        }
    };
    out.enabled = true;
    out.snapshot_id = Some(snap.id.clone());
    if let Some(note) = shadow_note(ctx, &snap) {
        out.note = Some(note);
        return Ok(out);
    }
    let q = Query {
        text: &input.query,
        subject: input.subject.as_deref(),
        claim_type: input.claim_type.map(ClaimType::as_str),
        scope: input.scope.map(ClaimScope::as_str),
        k,
        include_superseded: input.include_superseded,
    };
    // The model loads here, on the first search (then kept for the process), never in the hook.
    let (embedder, fallback) = crate::snapshot::embed::select::for_snapshot(
        &ctx.paths,
        &ctx.config,
        snap.model_embedder.as_deref(),
    );
    out.note = fallback;
    let ranking = crate::snapshot::rank::shipped(embedder.id());
    let (hits, truncated) = match search_with(&snap, &q, embedder.as_ref(), ranking) {
        Ok(r) => r,
        Err(e) => {
            out.note = Some(format!(
                "the snapshot could not be searched ({}); run `ctxlake sync`",
                e.one_line()
            ));
            return Ok(out);
        }
    };
    out.truncated = truncated;
    let now = ctx.now_ms();
    for h in hits {
        let c = h.claim;
        let date = c.promoted_at.clone().unwrap_or(c.created_at.clone());
        let marks = render::Marks::of(&c, now, &ctx.config.stale_after);
        let rendered = render::claim(&c, &marks);
        out.results.push(Hit {
            date: date.get(..10).unwrap_or(&date).to_string(),
            unconfirmed_days: marks.unconfirmed_days,
            score: (h.score * 1e6).round() / 1e6,
            rendered,
            id: c.id,
            claim: c.text,
            claim_type: c.claim_type,
            subject: c.subject,
            scope: c.scope,
            status: c.status,
            independent_sessions: c.independent_sessions,
            confidence: c.confidence,
            promoted_at: c.promoted_at,
            last_evidence_at: c.last_evidence_at,
            key: c.key,
            superseded_by: c.superseded_by,
            superseded_at: c.superseded_at,
            outdated_by: c.outdated_by,
            pending_replacement: c.pending_by,
        });
    }
    record_shown(ctx, &fleet, &out);
    Ok(out)
}

/// Tell the gate which claims this session has now seen, so a later citation of one
/// by this session is not counted as independent. Best effort: a read never fails on it.
fn record_shown(ctx: &Ctx, fleet: &str, out: &SearchOutput) {
    if out.results.is_empty() {
        return;
    }
    let ids: Vec<&str> = out.results.iter().map(|h| h.id.as_str()).collect();
    let rec = crate::tools::queue::record(
        ctx,
        fleet,
        crate::spool::RecordKind::MemoryShown,
        json!({ "claim_ids": ids }),
    );
    // A read never waits on a writer: past a short try the record overflows.
    let wait = crate::spool::Wait::Overflow(crate::spool::QUICK_WAIT);
    let _ = crate::spool::append(
        &ctx.paths.spool_mcp(fleet),
        &rec,
        crate::spool::Limits::of(&ctx.config),
        false,
        wait,
    );
}
