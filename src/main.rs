//! The `ctxlake` binary: parse, run, and turn the outcome into an exit code.
//! This is the only place the process exits.

use std::process::ExitCode;

use clap::Parser;
use ctxlake::cmd::{Cli, run};
use ctxlake::output::{render_error, stderr};

fn main() -> ExitCode {
    let argv: Vec<_> = std::env::args_os().collect();
    if argv.get(1).is_some_and(|a| a == "hook") {
        arm_hook_watchdog(argv.get(2).map(|r| r.to_string_lossy().into_owned()));
    }
    if ctxlake::cmd::hook::fast(&argv).is_some() {
        return ExitCode::SUCCESS;
    }
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A reader that closed our stdout (`| head`) is not a failure.
            if is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            stderr(&render_error(&e));
            ExitCode::from(e.exit_code())
        }
    }
}

/// A hook must never hold up an agent's turn: past its wall-clock budget the process
/// exits 0 having printed nothing (the watchdog logs why). Exiting is `main`'s job alone.
#[allow(clippy::disallowed_methods)] // the one exit outside `main`'s return, by design
fn arm_hook_watchdog(runtime: Option<String>) {
    use ctxlake::hook::watchdog;
    let _ = std::thread::Builder::new()
        .name("hook-watchdog".into())
        .spawn(move || {
            std::thread::sleep(watchdog::budget());
            if watchdog::expire(runtime.as_deref().unwrap_or("hook")) {
                std::process::exit(0);
            }
        });
}

fn is_broken_pipe(e: &ctxlake::error::Error) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(e);
    while let Some(c) = cause {
        if let Some(io) = c.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::BrokenPipe
        {
            return true;
        }
        cause = c.source();
    }
    false
}
