//! `ctxlake completions SHELL`: print a completion script for a shell.

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::{Cli, GlobalArgs};
use crate::error::{Error, Result};

/// Print a shell completion script to stdout
///
/// Example:
///   ctxlake completions bash > ~/.local/share/bash-completion/completions/ctxlake
///   ctxlake completions zsh > "${fpath[1]}/_ctxlake"
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct CompletionsArgs {
    /// The shell to generate for.
    pub shell: Shell,
}

pub fn run(args: &CompletionsArgs, _g: &GlobalArgs) -> Result<()> {
    let text = generate(args.shell);
    crate::output::stdout(&text)
        .map_err(|e| Error::storage("io", "cannot write completions").source(e))
}

pub fn generate(shell: Shell) -> String {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "ctxlake", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}
