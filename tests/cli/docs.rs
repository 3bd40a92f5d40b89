//! Completions and man pages are generated from the CLI definition; this fails when the
//! committed files drift. Regenerate with `CTXLAKE_BLESS=1 cargo test docs`.

use std::path::{Path, PathBuf};

use clap::CommandFactory;
use clap_complete::Shell;
use ctxlake::cmd::Cli;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn check(path: &Path, want: &[u8], stale: &mut Vec<String>) {
    if std::env::var_os("CTXLAKE_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, want).unwrap();
    } else if std::fs::read(path).ok().as_deref() != Some(want) {
        stale.push(path.strip_prefix(root()).unwrap().display().to_string());
    }
}

#[test]
fn completions_and_man_pages_match_the_cli() {
    Cli::command().debug_assert();
    let mut stale = Vec::new();
    let mut expected = std::collections::BTreeSet::new();
    for (shell, name) in [
        (Shell::Bash, "ctxlake.bash"),
        (Shell::Zsh, "_ctxlake"),
        (Shell::Fish, "ctxlake.fish"),
        (Shell::Elvish, "ctxlake.elv"),
        (Shell::PowerShell, "_ctxlake.ps1"),
    ] {
        let text = ctxlake::cmd::completions::generate(shell);
        check(
            &root().join("completions").join(name),
            text.as_bytes(),
            &mut stale,
        );
    }
    for (name, bytes) in man_pages() {
        expected.insert(name.clone());
        check(&root().join("man").join(&name), &bytes, &mut stale);
    }
    let on_disk: std::collections::BTreeSet<String> = std::fs::read_dir(root().join("man"))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().into_string().unwrap())
                .collect()
        })
        .unwrap_or_default();
    let extra: Vec<_> = on_disk.difference(&expected).collect();
    assert!(
        stale.is_empty() && extra.is_empty(),
        "stale: {stale:?}, extra man pages: {extra:?}; run `CTXLAKE_BLESS=1 cargo test docs`"
    );
}

#[test]
fn completions_subcommand_prints_the_same_script() {
    let env = crate::common::Env::new();
    let out = env.cmd().args(["completions", "bash"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        ctxlake::cmd::completions::generate(Shell::Bash)
    );
}

#[test]
fn readme_lists_the_exit_codes_and_variables_the_code_uses() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for row in ctxlake::error::table_rows() {
        assert!(
            readme.contains(&row),
            "README lacks the exit-code row `{row}`"
        );
    }
    for (var, meaning) in ctxlake::paths::env::ALL {
        let row = format!("| `{var}` | {meaning} |");
        assert!(
            readme.contains(&row),
            "README lacks the variable row `{row}`"
        );
    }
}

/// Man pages are rendered here, in the test, so the binary does not link `clap_mangen`.
/// `(file name, roff bytes)` for `ctxlake.1`, `ctxlake-fleet.1`, `ctxlake-fleet-status.1`, …
fn man_pages() -> Vec<(String, Vec<u8>)> {
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
