//! `ctxlake fleet claim PATH… --reason R`: queue an advisory lease request.

use clap::Args;

use crate::cmd::{GlobalArgs, context, emit_queued};
use crate::error::Result;
use crate::tools::fleet::claim::{ClaimInput, run as claim};

/// Ask for advisory leases on paths you are about to edit
///
/// Paths are taken relative to the current directory and stored relative to the
/// repository root; a directory covers everything below it, and globs are allowed.
/// The request is queued: `ctxlake sync` applies it, then `fleet status` shows
/// whether you hold it or someone earlier does. Claim again to renew.
///
/// Example:
///   ctxlake fleet claim src/auth tests/auth.rs --reason "refactor login" --ttl 3600
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ClaimArgs {
    /// Files, directories or globs.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
    /// What you are about to do there.
    #[arg(long, short)]
    pub reason: String,
    /// Lease lifetime in seconds.
    #[arg(long, value_name = "SECS", default_value_t = crate::rules::DEFAULT_TTL_SECS)]
    pub ttl: u64,
}

pub fn run(args: ClaimArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let out = claim(
        &ctx,
        ClaimInput {
            fleet: None,
            paths: args.paths,
            reason: args.reason,
            ttl_secs: Some(args.ttl),
        },
    )?;
    emit_queued(g, &out)
}
