//! `ctxlake memory promote|contest|retire ID --reason R`: a person's decision on a claim.
//! Not an MCP tool: only a person widens or narrows what agents see.

use clap::Args;
use serde_json::json;

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

pub fn run(action: &str, args: OperatorArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let fleet = ctx.fleet(None)?;
    let valid = args
        .id
        .strip_prefix("c-")
        .is_some_and(|h| h.len() == 10 && h.bytes().all(|b| b.is_ascii_hexdigit()));
    if !valid {
        return Err(Error::bad_arguments(
            "invalid_claim_id",
            format!("`{}` is not a claim id", args.id),
        )
        .hint("claim ids look like `c-1a2b3c4d5e`; see `ctxlake memory list`"));
    }
    if args.reason.trim().is_empty() {
        return Err(Error::usage("reason_missing", "a reason is required")
            .hint("say why, e.g. `--reason \"confirmed on CI\"`"));
    }
    let payload = json!({ "action": action, "claim_id": args.id, "reason": args.reason });
    let out = crate::tools::queue::write(
        &ctx,
        &fleet,
        crate::spool::RecordKind::MemoryOperator,
        payload,
    )?;
    emit_queued(g, &out)
}
