//! `ctxlake install [RUNTIME…]`: merge ctxlake's MCP entry and hooks into runtimes' configs.
//! Parse → pick runtimes → plan → diff or apply → render; the rules live in `crate::install`.

use std::io::IsTerminal;

use clap::Args;

use super::GlobalArgs;
use crate::error::{Error, Kind, Result};
use crate::install::remote::Remote;
use crate::install::{self, Action, EntryOpts, FilePlan, FileReport, Installer, Runtime};

/// Add ctxlake's MCP server and hooks to coding-agent runtimes' own config files
///
/// Files are edited in place: everything outside ctxlake's own entries stays byte-for-byte
/// (comments, key order, indentation, trailing newline, mode). The first change to a file
/// leaves `<file>.ctxlake.bak`; running again changes nothing; `ctxlake uninstall` puts
/// back the exact prior bytes when nothing else changed in between.
///
/// Runtimes: claude-code, codex, cursor, gemini, opencode, hermes, claude-desktop,
/// windsurf, zed, vscode. A runtime named on the command line must be detected (its config
/// directory exists or its program is on PATH); `--force` writes its config anyway.
/// With no runtime named, a terminal offers the detected ones; elsewhere name them or
/// pass `--all` (every detected runtime) or `--yes`.
///
/// A malformed config file is refused with its line and column (exit 1); nothing is written.
/// Each edit is re-read by the format's own parser and must change only ctxlake's entries.
///
/// `--project` files are meant to be committed: they name the bare command `ctxlake` when
/// `ctxlake` on PATH is this binary, else this machine's path (with a warning).
///
/// Example:
///   ctxlake install claude-code codex
///   ctxlake install --all --dry-run
///   ctxlake install cursor --project --fleet team-a
///   ctxlake install --list --json
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct InstallArgs {
    /// Runtimes to install into.
    #[arg(value_enum)]
    pub runtimes: Vec<Runtime>,
    /// Install into every detected runtime.
    #[arg(long, conflicts_with = "runtimes")]
    pub all: bool,
    /// Write the project's file (in the current directory), pinned to the fleet.
    #[arg(long)]
    pub project: bool,
    /// Print a unified diff per file; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Write only the MCP entry, no hooks.
    #[arg(long)]
    pub no_hooks: bool,
    /// Install into a named runtime even if it is not detected.
    #[arg(long)]
    pub force: bool,
    /// Do not prompt: with no runtime named, take every detected one.
    #[arg(short, long)]
    pub yes: bool,
    /// Write the runtime's remote entry for a running `ctxlake mcp --http` at URL (default
    /// http://127.0.0.1:8719/mcp) instead of a command; the entry sends the token found in
    /// CTXLAKE_MCP_TOKEN when the runtime starts (`ctxlake mcp token new NAME` makes one)
    #[arg(long, value_name = "URL", num_args = 0..=1,
          default_missing_value = crate::install::remote::DEFAULT_URL)]
    pub http: Option<String>,
    /// Show each runtime, detected or not, installed or not, and its files.
    #[arg(long, conflicts_with_all = ["runtimes", "all", "dry_run", "force"])]
    pub list: bool,
}

pub fn run(a: &InstallArgs, g: &GlobalArgs) -> Result<()> {
    let (inst, mut opts) = setup(g, a.project, !a.no_hooks)?;
    opts.http = remote(a.http.as_deref(), &opts.fleet, a.project)?;
    let out = g.output();
    if a.list {
        let rows = install::list(&inst, &opts);
        return out
            .emit(&serde_json::json!({ "runtimes": rows }), |_| {
                render_list(&inst, &rows)
            })
            .map_err(io);
    }
    let rts = pick(&inst, &a.runtimes, a.all, a.yes, a.force, "install")?;
    let plans = inst.plan_install(&rts, &opts)?;
    if a.project && std::path::Path::new(&opts.exe).is_absolute() {
        not_portable(&inst, &opts.exe, &plans);
    }
    if a.dry_run {
        return dry_run(g, &plans);
    }
    let reports = inst.apply(&plans)?;
    report(g, &inst, &reports)?;
    for n in notes(&rts, a.project, !a.no_hooks) {
        out.note(&n);
    }
    if opts.http.is_some() {
        out.note(&format!(
            "note: the entry sends the token in {var}: make one per client (`ctxlake mcp token new NAME`) and export {var} where the runtime starts; the token is never written to its config",
            var = crate::install::remote::TOKEN_VAR
        ));
    }
    Ok(())
}

/// The installer, and what the entries say: this binary by absolute path, fleet and agent ids.
pub(crate) fn setup(g: &GlobalArgs, project: bool, hooks: bool) -> Result<(Installer, EntryOpts)> {
    let paths = crate::paths::Paths::from_env()?;
    let config = crate::config::Config::load(&paths.config_file())?;
    let scope = crate::scope::Scope::resolve(&g.scope_flags(), &config)?;
    setup_with(&paths, scope, project, hooks)
}

/// [`setup`] for a scope already resolved (`doctor` resolves it even from a broken config).
pub(crate) fn setup_with(
    paths: &crate::paths::Paths,
    scope: crate::scope::Scope,
    project: bool,
    hooks: bool,
) -> Result<(Installer, EntryOpts)> {
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| {
            Error::storage("no_exe", "cannot find the path of this ctxlake binary").source(e)
        })?;
    let env = install::Env::from_process()?;
    // Project files are committed: name the command, not this machine's path, when PATH
    // resolves it to this binary.
    let portable = env.portable_command(&exe).filter(|_| project);
    let named = portable
        .map(str::to_string)
        .or_else(|| exe.to_str().map(str::to_string));
    let exe = named.ok_or_else(|| {
        Error::refused(
            "exe_not_utf8",
            format!("the path `{}` is not UTF-8", exe.display()),
        )
        .hint("move ctxlake to a directory whose path is plain UTF-8")
    })?;
    let opts = EntryOpts {
        exe,
        fleet: scope.fleet,
        agent: scope.agent,
        project,
        hooks,
        http: None,
    };
    Ok((Installer::new(env, paths), opts))
}

/// The remote entry `--http` asks for: a project entry is pinned (`/mcp/<fleet>`).
fn remote(url: Option<&str>, fleet: &str, project: bool) -> Result<Option<Remote>> {
    let Some(url) = url else { return Ok(None) };
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(
            Error::usage("bad_url", format!("`{url}` is not an http(s) URL")).hint(format!(
                "e.g. `--http {}`",
                crate::install::remote::DEFAULT_URL
            )),
        );
    }
    let url = match url.strip_suffix('/').unwrap_or(url) {
        u if project && u.ends_with("/mcp") => format!("{u}/{fleet}"),
        u => u.to_string(),
    };
    Ok(Some(Remote { url }))
}

/// Named runtimes (checked), `--all`/`--yes` (every detected), or a prompt on a terminal.
pub(crate) fn pick(
    inst: &Installer,
    named: &[Runtime],
    all: bool,
    yes: bool,
    force: bool,
    verb: &str,
) -> Result<Vec<Runtime>> {
    if !named.is_empty() {
        for &rt in named {
            let d = install::detect(rt, &inst.env);
            if !d.detected && !force {
                return Err(Error::refused(
                    "runtime_not_detected",
                    format!("`{}` is not detected: {}", rt.name(), d.reason),
                )
                .hint(format!(
                    "install {} first, or pass `--force` to write its config anyway",
                    rt.name()
                )));
            }
        }
        return Ok(named.to_vec());
    }
    let detected: Vec<Runtime> = install::ALL
        .into_iter()
        .filter(|&rt| install::detect(rt, &inst.env).detected)
        .collect();
    if all || yes {
        if detected.is_empty() {
            return Err(Error::refused(
                "no_runtime_detected",
                "no runtime detected on this machine",
            )
            .hint("see `ctxlake install --list`, or name one with `--force`"));
        }
        return Ok(detected);
    }
    prompt(&detected, verb)
}

pub(crate) fn prompt(choices: &[Runtime], verb: &str) -> Result<Vec<Runtime>> {
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        return Err(
            Error::usage("no_runtime_named", format!("no runtime named to {verb}")).hint(format!(
                "name runtimes (`ctxlake {verb} claude-code codex`) or pass `--all`"
            )),
        );
    }
    if choices.is_empty() {
        return Err(Error::refused(
            "no_runtime_detected",
            format!("no runtime to {verb} on this machine"),
        )
        .hint("see `ctxlake install --list`"));
    }
    let names: Vec<&str> = choices.iter().map(|r| r.name()).collect();
    let picked = dialoguer::MultiSelect::new()
        .with_prompt(format!(
            "Runtimes to {verb} (space to toggle, enter to confirm)"
        ))
        .items(&names)
        .defaults(&vec![true; names.len()])
        .interact_opt()
        .map_err(|e| Error::new(Kind::Interrupted, "interrupted", "prompt interrupted").source(e))?
        .ok_or_else(|| Error::new(Kind::Interrupted, "interrupted", "nothing selected"))?;
    Ok(picked.into_iter().map(|i| choices[i]).collect())
}

pub(crate) fn dry_run(g: &GlobalArgs, plans: &[FilePlan]) -> Result<()> {
    let files: Vec<_> = plans
        .iter()
        .map(|p| serde_json::json!({ "runtime": p.runtime, "path": p.path, "action": p.action, "diff": p.diff() }))
        .collect();
    g.output()
        .emit(
            &serde_json::json!({ "dry_run": true, "files": files }),
            |_| {
                plans
                    .iter()
                    .map(|p| {
                        if p.diff().is_empty() {
                            format!(
                                "# {} {}: {}\n",
                                p.runtime.name(),
                                p.path.display(),
                                verb(p.action)
                            )
                        } else {
                            p.diff()
                        }
                    })
                    .collect()
            },
        )
        .map_err(io)
}

pub(crate) fn report(g: &GlobalArgs, inst: &Installer, reports: &[FileReport]) -> Result<()> {
    g.output()
        .emit(&serde_json::json!({ "files": reports }), |_| {
            reports
                .iter()
                .map(|r| {
                    let bak = r
                        .backup
                        .as_ref()
                        .map(|b| format!(" (backup: {})", inst.env.show(b)))
                        .unwrap_or_default();
                    format!(
                        "{:<18} {:<15} {}{bak}\n",
                        verb(r.action),
                        r.runtime.name(),
                        inst.env.show(&r.path)
                    )
                })
                .collect()
        })
        .map_err(io)
}

/// A committed project file that names this machine's binary points at nothing elsewhere;
/// say so even under `-q`, since the file outlives this run.
fn not_portable(inst: &Installer, exe: &str, plans: &[FilePlan]) {
    let files: Vec<String> = plans
        .iter()
        .map(|p| format!("`{}`", inst.env.show(&p.path)))
        .collect();
    crate::output::stderr(&format!(
        "warning: the project file(s) {} name this machine's binary `{exe}`: not portable to a teammate's machine\n\
         hint: put this ctxlake on PATH (so `command -v ctxlake` finds it) and run the command again to write the bare command `ctxlake`\n",
        files.join(", ")
    ));
}

fn verb(a: Action) -> &'static str {
    match a {
        Action::Create => "created",
        Action::Update => "updated",
        Action::Unchanged => "already installed",
        Action::Restore => "restored",
        Action::Remove => "removed entries",
        Action::Delete => "deleted",
        Action::Absent => "not installed",
    }
}

use install::render::{notes, render_list};

pub(crate) fn io(e: std::io::Error) -> Error {
    Error::storage("io", "cannot write output").source(e)
}
