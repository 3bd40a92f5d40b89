//! `memory_propose`: file a candidate claim with evidence. It never promotes: the
//! proposal is always scope `agent`, and only the gate (or a person) widens it.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::tools::queue::{self, Queued};
use crate::tools::{Ctx, Tool, invoke, schema_of};
pub use crate::vocab::ClaimType;

pub const TOOL: Tool = Tool {
    name: "memory_propose",
    title: "Propose a memory claim",
    description: "Propose a durable claim for the fleet's shared memory (an environment fact, a convention, an outcome, a preference or a hypothesis about this codebase), citing the sessions and messages that show it. It is only a candidate: a promotion gate decides whether other agents ever see it. Queued for sync.",
    read_only: false,
    input_schema: schema_of::<ProposeInput>,
    output_schema: schema_of::<Queued>,
    peer_fields: &[],
    call: |ctx, args| invoke(ctx, args, run),
};

/// One citation: which session and message show the claim. Other fields are kept.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
pub struct Citation {
    /// The session the evidence comes from (non-empty).
    pub session_id: String,
    /// The message within that session (non-empty).
    pub message_id: String,
    /// An optional short quote or pointer.
    #[serde(default)]
    pub quote: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProposeInput {
    #[serde(default)]
    pub fleet: Option<String>,
    /// The claim, one or two sentences.
    pub claim: String,
    #[serde(rename = "type")]
    pub claim_type: ClaimType,
    /// What it is about (a component, tool or topic), used to group and contest claims.
    pub subject: String,
    /// 1 to 20 citations, each with a non-empty `session_id` and `message_id`.
    #[schemars(with = "Vec<Citation>")]
    pub evidence: Vec<Value>,
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
    let payload = json!({
        "claim": input.claim,
        "type": input.claim_type.as_str(),
        "subject": input.subject,
        "scope": "agent",
        "evidence": input.evidence,
    });
    queue::write(
        ctx,
        &fleet,
        crate::spool::RecordKind::MemoryPropose,
        payload,
    )
}
