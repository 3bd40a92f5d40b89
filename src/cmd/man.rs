//! Man pages, one per command and subcommand, rendered from the clap definition.

use clap::CommandFactory;

use super::Cli;

/// `(file name, roff bytes)` for `ctxlake.1`, `ctxlake-fleet.1`, `ctxlake-fleet-status.1`, …
pub fn pages() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut cmd = Cli::command();
    cmd.build();
    walk(&cmd, "ctxlake", &mut out);
    out
}

fn walk(cmd: &clap::Command, name: &str, out: &mut Vec<(String, Vec<u8>)>) {
    let mut buf = Vec::new();
    let page = cmd.clone().name(name.to_string());
    if clap_mangen::Man::new(page).render(&mut buf).is_ok() {
        out.push((format!("{name}.1"), buf));
    }
    for sub in cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        walk(sub, &format!("{name}-{}", sub.get_name()), out);
    }
}
