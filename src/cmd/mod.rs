//! The command line: one module per subcommand (parse → call → render), dispatched
//! by one exhaustive `match`. No business rule lives here.

use clap::{Args, Parser, Subcommand};

use crate::error::Result;
use crate::output::Output;
use crate::scope::ScopeFlags;

pub mod completions;
pub mod doctor;
pub mod fleet;
pub mod hook;
pub mod import;
pub mod init;
pub mod install;
pub mod lake;
pub mod maint;
pub mod mcp;
pub mod mcp_http;
pub mod mcp_token;
pub mod memory;
pub mod progress;
pub mod service;
pub mod spool;
pub mod status;
pub mod sync;
pub mod uninstall;

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
    /// Print the result as JSON (for a command that is also an MCP tool, exactly that
    /// tool's structuredContent).
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
    Init(init::InitArgs),
    Import(import::ImportArgs),
    /// Who is working where: status, advisory leases, history, handoffs.
    #[command(subcommand)]
    Fleet(fleet::FleetCmd),
    /// The fleet's shared memory: search, propose, timeline; operators list, promote, contest, retire.
    #[command(subcommand)]
    Memory(memory::MemoryCmd),
    /// Inspect the local write queue.
    #[command(subcommand)]
    Spool(spool::SpoolCmd),
    Sync(sync::SyncArgs),
    Maint(maint::MaintArgs),
    /// Manage the lake itself: copy it into another store.
    #[command(subcommand)]
    Lake(lake::LakeCmd),
    Status(status::StatusArgs),
    Doctor(doctor::DoctorArgs),
    /// Run `ctxlake sync --watch` as a user service.
    #[command(subcommand)]
    Service(service::ServiceCmd),
    Completions(completions::CompletionsArgs),
    /// Capture a runtime's hook event; print its briefing or collision warning.
    Hook(hook::HookArgs),
    Install(install::InstallArgs),
    Uninstall(uninstall::UninstallArgs),
    Mcp(mcp::McpArgs),
}

pub fn run(cli: Cli) -> Result<()> {
    let g = &cli.global;
    match cli.command {
        Command::Init(a) => init::run(a, g),
        Command::Import(a) => import::run(a, g),
        Command::Fleet(c) => fleet::run(c, g),
        Command::Memory(c) => memory::run(c, g),
        Command::Spool(c) => spool::run(c, g),
        Command::Sync(a) => sync::run(a, g),
        Command::Maint(a) => maint::run(a, g),
        Command::Lake(c) => lake::run(c, g),
        Command::Status(a) => status::run(a, g),
        Command::Doctor(a) => doctor::run(&a, g),
        Command::Service(c) => service::run(c, g),
        Command::Completions(a) => completions::run(&a, g),
        Command::Hook(a) => hook::run(&a, g),
        Command::Install(a) => install::run(&a, g),
        Command::Uninstall(a) => uninstall::run(&a, g),
        Command::Mcp(a) => mcp::run(&a, g),
    }
}

/// The tools' context for this invocation (paths, config, scope from flags).
pub fn context(g: &GlobalArgs) -> Result<crate::tools::Ctx> {
    crate::tools::Ctx::load(&g.scope_flags())
}

/// Turn a failed write to stdout into an error (a closed pipe ends quietly in `main`).
pub fn printed(r: std::io::Result<()>) -> Result<()> {
    r.map_err(|e| crate::error::Error::storage("io", "cannot write to stdout").source(e))
}

/// Print a write tool's answer; "nothing is granted" is a note (stderr, silenced by `-q`).
pub fn emit_queued(g: &GlobalArgs, q: &crate::tools::queue::Queued) -> Result<()> {
    let o = g.output();
    printed(o.emit(q, render_queued))?;
    if !g.json {
        o.note("nothing is granted or shared until `ctxlake sync` applies it");
    }
    Ok(())
}

/// How every write tool's answer reads at the terminal.
fn render_queued(q: &crate::tools::queue::Queued) -> String {
    let mut s = format!(
        "queued {} for sync in fleet `{}` as {}
",
        q.id, q.fleet, q.agent
    );
    if q.redacted > 0 {
        s.push_str(&format!(
            "{} secret(s) were redacted before writing
",
            q.redacted
        ));
    }
    for c in &q.cuts {
        s.push_str(&format!(
            "`{}` was cut from {} to {} characters (the limit is {} per field)\n",
            c.field,
            c.chars,
            c.kept,
            crate::rules::MAX_TEXT_CHARS
        ));
    }
    s
}
