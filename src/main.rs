//! The `ctxlake` binary: parse, run, and turn the outcome into an exit code.
//! This is the only place the process exits.

use std::process::ExitCode;

use clap::Parser;
use ctxlake::cmd::{Cli, run};
use ctxlake::output::{render_error, stderr};

fn main() -> ExitCode {
    if ctxlake::cmd::hook::fast(&std::env::args_os().collect::<Vec<_>>()).is_some() {
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
