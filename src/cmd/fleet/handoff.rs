//! `ctxlake fleet handoff SUMMARY --status S [--next N]`: leave a note for the next agent.

use clap::Args;

use crate::cmd::{GlobalArgs, context, emit_queued};
use crate::error::Result;
use crate::tools::fleet::handoff::{HandoffInput, HandoffStatus, run as handoff};

/// Leave a handoff note: what you did, where it stands, what comes next
///
/// Notes show in `ctxlake fleet history` and in every agent's session-start briefing.
///
/// Example:
///   ctxlake fleet handoff "login refactor half done; tests red in auth.rs" --status in_progress --next "fix token expiry test"
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct HandoffArgs {
    /// What was done and where it stands.
    pub summary: String,
    /// Where the work stands (`in-progress` is accepted too).
    #[arg(long, value_enum)]
    pub status: HandoffStatus,
    /// What the next agent should do.
    #[arg(long)]
    pub next: Option<String>,
}

pub fn run(args: HandoffArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let out = handoff(
        &ctx,
        HandoffInput {
            fleet: None,
            summary: args.summary,
            status: args.status,
            next: args.next,
        },
    )?;
    emit_queued(g, &out)
}
