//! `ctxlake fleet release [PATH…]`: queue the release of leases.

use clap::Args;

use crate::cmd::{GlobalArgs, context, emit_queued};
use crate::error::Result;
use crate::tools::fleet::release::{ReleaseInput, run as release};

/// Release leases you hold; with no paths, release all of this session's leases
///
/// Example:
///   ctxlake fleet release src/auth
///   ctxlake fleet release            # everything this session holds
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ReleaseArgs {
    /// Paths to release (default: all).
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
}

pub fn run(args: ReleaseArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let paths = (!args.paths.is_empty()).then_some(args.paths);
    let out = release(&ctx, ReleaseInput { fleet: None, paths })?;
    emit_queued(g, &out)
}
