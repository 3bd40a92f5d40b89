//! The `ctxlake` binary: parse, run, and turn the outcome into an exit code (the only exit point).

fn main() -> std::process::ExitCode {
    std::process::ExitCode::SUCCESS
}
