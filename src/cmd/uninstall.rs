//! `ctxlake uninstall [RUNTIME…]`: take ctxlake's entries back out of runtimes' configs,
//! restoring the exact prior bytes when nothing else changed since install.

use clap::Args;

use super::GlobalArgs;
use super::install::{dry_run, pick, prompt, report, setup};
use crate::error::Result;
use crate::install::{self, Runtime};

/// Remove ctxlake's MCP server and hooks from coding-agent runtimes' config files
///
/// When a file is still exactly what `ctxlake install` wrote, its prior bytes are put back
/// (a file install created is deleted). When it changed since, only ctxlake's own entries
/// are removed, with any container install created and that is now empty. Other hooks and
/// servers are never touched. Hooks are always removed with the server.
///
/// Example:
///   ctxlake uninstall claude-code
///   ctxlake uninstall --all --dry-run
///   ctxlake uninstall cursor --project
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct UninstallArgs {
    /// Runtimes to uninstall from.
    #[arg(value_enum)]
    pub runtimes: Vec<Runtime>,
    /// Uninstall from every runtime where ctxlake is installed.
    #[arg(long, conflicts_with = "runtimes")]
    pub all: bool,
    /// Edit the project's files (in the current directory) instead of the user's.
    #[arg(long)]
    pub project: bool,
    /// Print a unified diff per file; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Do not prompt: with no runtime named, take every one where ctxlake is installed.
    #[arg(short, long)]
    pub yes: bool,
}

pub fn run(a: &UninstallArgs, g: &GlobalArgs) -> Result<()> {
    let (inst, opts) = setup(g, a.project, true)?;
    // Where ctxlake is installed, read only when no runtime is named: it parses every
    // runtime's config (twice for a 5 MB `~/.claude.json`), which the plan does again.
    let installed = || -> Vec<Runtime> {
        install::list(&inst, &opts)
            .into_iter()
            .filter(|r| r.files.iter().any(|f| f.mcp == Some(true) || f.hooks > 0))
            .map(|r| r.runtime)
            .collect()
    };
    let rts = if !a.runtimes.is_empty() {
        // Uninstalling needs no detection: the runtime may be gone, its config not.
        pick(&inst, &a.runtimes, false, false, true, "uninstall")?
    } else if a.all || a.yes {
        installed()
    } else {
        prompt(&installed(), "uninstall")?
    };
    let plans = inst.plan_uninstall(&rts, &opts)?;
    if a.dry_run {
        return dry_run(g, &plans);
    }
    let reports = inst.apply(&plans)?;
    report(g, &inst, &reports)
}
