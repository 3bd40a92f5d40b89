//! `memory_propose`: file a candidate claim with evidence, optionally naming the claims it
//! replaces (`supersedes`) or the slot it fills (`key`). It never promotes: the proposal
//! is always scope `agent`, and only the gate (or a person) widens it; a replacement
//! takes effect only once the gate promotes it from two independent sessions.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::tools::queue::{self, Queued};
use crate::tools::{Ctx, Tool, invoke, schema_of};
pub use crate::vocab::ClaimType;

pub const TOOL: Tool = Tool {
    name: "memory_propose",
    description: "Propose a claim about this codebase for the fleet's shared memory, citing the sessions and messages that show it. Only a candidate: the promotion gate decides whether others see it.",
    read_only: false,
    input_schema: schema_of::<ProposeInput>,
    output_schema: schema_of::<Queued>,
    peer_fields: &[],
    call: |ctx, args| invoke(ctx, args, run),
};

/// A session and message that show the claim (other fields are kept).
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
pub struct Citation {
    #[schemars(length(min = 1))]
    pub session_id: String,
    #[schemars(length(min = 1))]
    pub message_id: String,
    /// A short quote or pointer.
    #[serde(default)]
    pub quote: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProposeInput {
    #[serde(default)]
    pub fleet: Option<String>,
    /// One or two sentences.
    pub claim: String,
    #[serde(rename = "type")]
    pub claim_type: ClaimType,
    /// A component, tool or topic; claims are grouped and contested by it.
    pub subject: String,
    /// 1 to 20 citations.
    #[schemars(with = "Vec<Citation>")]
    pub evidence: Vec<Value>,
    /// Ids (c-…) of the claims it replaces.
    #[serde(default)]
    #[schemars(length(max = 20))]
    pub supersedes: Vec<String>,
    /// Slot of a single-valued fact, e.g. ci.node-version.
    #[serde(default)]
    // The id rules (lowercase, digits, dots and dashes, at most 64) are checked by
    // `check_key`, not published: the tool list has a token budget (tests/cli/mcp/tokens.rs).
    pub key: Option<String>,
}

pub fn run(ctx: &Ctx, input: ProposeInput) -> Result<Queued> {
    let fleet = ctx.fleet(input.fleet.as_deref())?;
    if input.claim.trim().is_empty() || input.subject.trim().is_empty() {
        return Err(Error::refused(
            "claim_incomplete",
            "a claim needs non-empty `claim` and `subject`",
        )
        .hint("state the claim and what it is about"));
    }
    crate::scope::validate_subject(&input.subject)?;
    crate::memory::evidence::check(&input.evidence)?;
    let own = crate::memory::gate::claim_id(&input.subject, &input.claim);
    crate::memory::supersede::check_links(&own, &input.supersedes, input.key.as_deref())?;
    let mut payload = json!({
        "claim": input.claim,
        "type": input.claim_type.as_str(),
        "subject": input.subject,
        "scope": "agent",
        "evidence": input.evidence,
    });
    if !input.supersedes.is_empty() {
        payload["supersedes"] = json!(input.supersedes);
    }
    if let Some(k) = input.key {
        payload["key"] = json!(k);
    }
    queue::write(
        ctx,
        &fleet,
        crate::spool::RecordKind::MemoryPropose,
        payload,
    )
}
