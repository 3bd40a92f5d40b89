//! `ctxlake hook <runtime> [EVENT]`: the lifecycle hook every runtime calls. Always exits 0:
//! a hook must never fail the agent's turn (trouble goes to `logs/hook-<date>.log`).

use clap::Args;

use crate::cmd::GlobalArgs;
use crate::error::Result;
use crate::hook::{self, Runtime};

/// Capture a hook event and answer with a briefing or a collision warning.
///
/// Reads the runtime's JSON payload on stdin, scrubs secrets, queues one event in
/// `spool/hooks/<runtime>/<session>.ndjson`, and prints what the runtime expects: the
/// fleet briefing at session start, a lease warning before an edit. `ctxlake install`
/// wires it into each runtime's hook config.
#[derive(Debug, Args)]
#[command(
    after_long_help = "Examples:\n  echo '{\"hook_event_name\":\"SessionStart\",\"session_id\":\"s1\"}' | ctxlake hook claude-code\n  ctxlake hook hermes pre_tool_call < payload.json"
)]
pub struct HookArgs {
    /// The runtime calling this hook.
    #[arg(value_enum)]
    pub runtime: Runtime,
    /// The event, for runtimes whose payload does not name it (e.g. `session-start`).
    pub event: Option<String>,
}

pub fn run(args: &HookArgs, g: &GlobalArgs) -> Result<()> {
    let mut stdin = std::io::stdin().lock();
    let out = hook::run(
        args.runtime,
        args.event.as_deref(),
        &g.scope_flags(),
        &mut stdin,
    );
    if !hook::watchdog::may_answer() {
        // Past the budget: the watchdog is ending the process; print nothing.
        hook::watchdog::settle();
        return Ok(());
    }
    if !out.is_empty() {
        // A runtime that stopped reading is no reason to fail: the event is captured.
        let _ = crate::output::stdout(&out);
    }
    Ok(())
}

/// `ctxlake hook RUNTIME [EVENT]` and nothing else — exactly what `ctxlake install`
/// writes — is answered without building the whole command-line parser, because it runs
/// before every tool call of every agent. Anything else (flags, `--help`, a typo) returns
/// `None` and goes through clap as usual.
pub fn fast(argv: &[std::ffi::OsString]) -> Option<()> {
    if argv.get(1)? != "hook" {
        return None;
    }
    let rest: Vec<&str> = argv[2..]
        .iter()
        .map(|a| a.to_str())
        .collect::<Option<_>>()?;
    if rest.is_empty() || rest.len() > 2 || rest.iter().any(|a| a.starts_with('-')) {
        return None;
    }
    let runtime = <Runtime as clap::ValueEnum>::from_str(rest[0], false).ok()?;
    let args = HookArgs {
        runtime,
        event: rest.get(1).map(|e| e.to_string()),
    };
    // Fleet and agent then come from the environment and config, as clap would give them.
    let g = GlobalArgs {
        fleet: None,
        agent: None,
        json: false,
        quiet: false,
    };
    run(&args, &g).ok()
}
