//! The command line: one module per subcommand (parse → call → render), dispatched
//! by one exhaustive `match`. No business rule lives here.

use clap::{Args, Parser, Subcommand};

use crate::error::Result;
use crate::output::Output;
use crate::scope::ScopeFlags;

pub mod completions;
pub mod hook;

/// Keep a fleet of AI coding agents in sync: leases, handoffs, history and shared memory.
#[derive(Debug, Parser)]
#[command(
    name = "ctxlake",
    version,
    propagate_version = true,
    after_long_help = "Examples:\n  ctxlake fleet status\n  ctxlake fleet claim src/auth --reason \"refactor login\"\n  ctxlake memory search \"flaky test\" --json"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// Fleet to act in.
    #[arg(long, global = true, env = "CTXLAKE_FLEET_ID", value_name = "FLEET")]
    pub fleet: Option<String>,
    /// This agent's id (default: user@host).
    #[arg(long, global = true, env = "CTXLAKE_AGENT_ID", value_name = "AGENT")]
    pub agent: Option<String>,
    /// Print the result as JSON (exactly the MCP tool's structuredContent).
    #[arg(long, global = true)]
    pub json: bool,
    /// Print no notes on stderr.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

impl GlobalArgs {
    pub fn output(&self) -> Output {
        Output {
            json: self.json,
            quiet: self.quiet,
        }
    }
    pub fn scope_flags(&self) -> ScopeFlags {
        ScopeFlags {
            fleet: self.fleet.clone(),
            agent: self.agent.clone(),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Generate shell completions.
    Completions(completions::CompletionsArgs),
    /// Capture a runtime's hook event; print its briefing or collision warning.
    Hook(hook::HookArgs),
}

pub fn run(cli: Cli) -> Result<()> {
    let g = &cli.global;
    match cli.command {
        Command::Completions(a) => completions::run(&a, g),
        Command::Hook(a) => hook::run(&a, g),
    }
}
