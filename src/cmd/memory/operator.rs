//! `ctxlake memory promote|contest|retire ID --reason R`, `memory supersede OLD --by NEW`
//! and `memory keep OLD`: a person's decision on a claim. Not MCP tools: only a person
//! widens or narrows what agents see.

use clap::Args;
use serde_json::{Value, json};

use crate::cmd::{GlobalArgs, context, emit_queued};
use crate::error::{Error, Result};

/// Decide on a claim by hand (queued; `maint` applies it; a person's word is final)
///
/// Example:
///   ctxlake memory promote c-1a2b3c4d5e --reason "confirmed on CI"
///   ctxlake memory retire c-1a2b3c4d5e --reason "we moved off postgres 15"
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct OperatorArgs {
    /// The claim id (`c-…`, from `ctxlake memory list` or search results).
    pub id: String,
    /// Why: recorded in the claim's timeline.
    #[arg(long)]
    pub reason: String,
}

/// Mark OLD as replaced by NEW (queued; `maint` applies it; a person's word is final)
///
/// Confirms a probable update (`outdated_by`) or settles two claims contested over one
/// fact: OLD is kept, with `superseded_by` NEW, and no longer shown as current.
///
/// Example:
///   ctxlake memory supersede c-e5d222faaf --by c-21dc358d7d
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct SupersedeArgs {
    /// The claim that is no longer current (`c-…`).
    pub id: String,
    /// The claim that replaces it (`c-…`).
    #[arg(long, value_name = "NEW")]
    pub by: String,
    /// Why: recorded in the claim's timeline.
    #[arg(long)]
    pub reason: Option<String>,
}

/// Keep a claim flagged as probably outdated: the flag is dismissed (queued)
///
/// A claim promoted later can flag it again.
///
/// Example:
///   ctxlake memory keep c-e5d222faaf --reason "both versions are in use"
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct KeepArgs {
    /// The flagged claim (`c-…`).
    pub id: String,
    /// Why: recorded in the claim's timeline.
    #[arg(long)]
    pub reason: Option<String>,
}

fn claim_id(id: &str) -> Result<()> {
    if crate::memory::supersede::is_claim_id(id) {
        return Ok(());
    }
    Err(
        Error::bad_arguments("invalid_claim_id", format!("`{id}` is not a claim id"))
            .hint("claim ids look like `c-1a2b3c4d5e`; see `ctxlake memory list`"),
    )
}

pub fn run(action: &str, args: OperatorArgs, g: &GlobalArgs) -> Result<()> {
    claim_id(&args.id)?;
    if args.reason.trim().is_empty() {
        return Err(Error::usage("reason_missing", "a reason is required")
            .hint("say why, e.g. `--reason \"confirmed on CI\"`"));
    }
    queue(action, &args.id, None, Some(args.reason), g)
}

pub fn supersede(args: SupersedeArgs, g: &GlobalArgs) -> Result<()> {
    claim_id(&args.id)?;
    claim_id(&args.by)?;
    if args.by == args.id {
        return Err(Error::bad_arguments(
            "supersedes_itself",
            format!("`{}` cannot replace itself", args.id),
        )
        .hint("name the newer claim with `--by`"));
    }
    queue("supersede", &args.id, Some(args.by), args.reason, g)
}

pub fn keep(args: KeepArgs, g: &GlobalArgs) -> Result<()> {
    queue("keep", &args.id, None, args.reason, g)
}

fn queue(
    action: &str,
    id: &str,
    by: Option<String>,
    reason: Option<String>,
    g: &GlobalArgs,
) -> Result<()> {
    claim_id(id)?;
    let ctx = context(g)?;
    let fleet = ctx.fleet(None)?;
    let mut payload = json!({ "action": action, "claim_id": id });
    if let Some(b) = by {
        payload["by"] = Value::String(b);
    }
    if let Some(r) = reason.filter(|r| !r.trim().is_empty()) {
        payload["reason"] = Value::String(r);
    }
    let out = crate::tools::queue::write(
        &ctx,
        &fleet,
        crate::spool::RecordKind::MemoryOperator,
        payload,
    )?;
    emit_queued(g, &out)
}
