//! `ctxlake doctor [--fix [--dry-run]] [--strict]`: run every check, render the report,
//! and with `--fix` show the diff of ctxlake's own entries, write it, and check again.

use std::io::IsTerminal;

use clap::Args;
use serde::Serialize;

mod fix;

use super::{GlobalArgs, printed};
use crate::config::Config;
use crate::error::{Error, Kind, Result};
use crate::paths::Paths;
use crate::services::doctor::{self, Check, Group, Inputs, Report, Status};

/// Prove each link of the chain works on this machine, and repair drift
///
/// Runtimes: for each detected runtime, its config parses, ctxlake's entry runs this binary
/// at this version with the right fleet and agent, spawning it answers `initialize` and
/// `tools/list` with all eight tools within 2 s, its hooks are wired once per event, and a
/// hook event arrived recently. Pipeline: spool backlog and torn records, the sync service,
/// cache, maint and snapshot age. Store: reachable, credentials (the source, never the
/// value), conditional writes, clock skew (warn over 30 s, fail over 5 min), latency.
/// Settings: config.toml parses, ids are valid, unknown keys. HTTP: `/health`, the token.
///
/// Each check prints ✔ / ⚠ / ✘, what it saw and the exact fix. Exit 1 when a check failed
/// (`--strict`: also on a warning), else 0.
///
/// `--fix` re-writes stale, missing or duplicated entries and hooks through the same
/// lossless installer as `ctxlake install` (a `.bak` first, atomic writes, nothing outside
/// ctxlake's entries), after printing the unified diff; it offers to install the sync
/// service on a terminal. `--dry-run` prints the diff and stops.
///
/// Example:
///   ctxlake doctor
///   ctxlake doctor --fix --dry-run
///   ctxlake doctor --json | jq '.checks[] | select(.status == "fail")'
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct DoctorArgs {
    /// Repair ctxlake's own entries (after showing the diff).
    #[arg(long)]
    pub fix: bool,
    /// With `--fix`: print the diff, write nothing.
    #[arg(long, requires = "fix")]
    pub dry_run: bool,
    /// Exit 1 on warnings too.
    #[arg(long)]
    pub strict: bool,
    /// With `--fix`: install the sync service without asking.
    #[arg(short, long, requires = "fix")]
    pub yes: bool,
}

#[derive(Debug, Serialize)]
struct Output {
    #[serde(flatten)]
    report: Report,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<fix::FixOutput>,
}

/// What doctor needs to look at on this machine, gathered once.
pub(crate) struct Machine {
    paths: Paths,
    config: Option<Config>,
    inst: crate::install::Installer,
    opts: crate::install::EntryOpts,
    exe: std::path::PathBuf,
    sync_unit: std::path::PathBuf,
    http_unit: std::path::PathBuf,
}

impl Machine {
    pub(crate) fn gather(g: &GlobalArgs) -> Result<Machine> {
        let paths = Paths::from_env()?;
        let config = Config::load(&paths.config_file()).ok();
        // A broken config is the settings group's finding; the other groups use the defaults.
        let fallback = Config::default();
        let scope =
            crate::scope::Scope::resolve(&g.scope_flags(), config.as_ref().unwrap_or(&fallback))
                .or_else(|_| crate::scope::Scope::resolve(&Default::default(), &fallback))?;
        let (inst, opts) = super::install::setup_with(&paths, scope, false, true)?;
        let exe = std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .map_err(|e| {
                Error::storage("no_exe", "cannot find the path of this ctxlake binary").source(e)
            })?;
        Ok(Machine {
            paths,
            config,
            inst,
            opts,
            exe,
            sync_unit: super::service::unit_file(false)?,
            http_unit: super::service::unit_file(true)?,
        })
    }

    /// Run every check.
    pub(crate) fn check(&self) -> Report {
        doctor::run(&Inputs {
            paths: &self.paths,
            config: self.config.as_ref(),
            installer: &self.inst,
            opts: &self.opts,
            exe: &self.exe,
            sync_unit: &self.sync_unit,
            http_unit: &self.http_unit,
        })
    }
}

pub fn run(a: &DoctorArgs, g: &GlobalArgs) -> Result<()> {
    let m = Machine::gather(g)?;
    let (inst, opts) = (&m.inst, &m.opts);
    let mut report = m.check();
    let mut fix = None;
    if a.fix {
        let f = fix::run(a, g, &report, inst, opts)?;
        if f.applied {
            report = m.check();
        }
        fix = Some(f);
    }
    let (failed, warnings) = (report.failed, report.warnings);
    let out = Output { report, fix };
    printed(g.output().emit(&out, render))?;
    if failed > 0 || (a.strict && warnings > 0) {
        let what = if failed > 0 {
            format!("{failed} check(s) failed")
        } else {
            format!("{warnings} warning(s) (`--strict`)")
        };
        let hint = if a.fix {
            "follow the fix printed under each ✘ (what `--fix` can repair, it did)"
        } else {
            "follow the fix printed under each ✘, or run `ctxlake doctor --fix`"
        };
        return Err(Error::new(Kind::Unhealthy, "doctor_failed", what).hint(hint));
    }
    Ok(())
}

fn render(o: &Output) -> String {
    let mut s = String::new();
    if let Some(f) = &o.fix {
        s.push_str(&fix::render(f));
    }
    let mut last: Option<Group> = None;
    for c in &o.report.checks {
        if last != Some(c.group) {
            s.push_str(&format!("{}\n", heading(c.group)));
            last = Some(c.group);
        }
        s.push_str(&line(c));
    }
    let r = &o.report;
    let ok = r.checks.iter().filter(|c| c.status == Status::Ok).count();
    s.push_str(&format!(
        "\n{} failed, {} warning(s), {ok} ok in {} ms\n",
        r.failed, r.warnings, r.elapsed_ms
    ));
    if !r.ok && o.fix.is_none() && r.checks.iter().any(|c| c.repair.is_some()) {
        s.push_str("`ctxlake doctor --fix` can repair the entries marked above (`--fix --dry-run` shows the diff first)\n");
    }
    s
}

fn heading(g: Group) -> &'static str {
    match g {
        Group::Runtimes => "runtimes",
        Group::Pipeline => "pipeline",
        Group::Store => "store",
        Group::Settings => "settings",
        Group::Http => "http",
    }
}

fn line(c: &Check) -> String {
    let drift = c
        .drift
        .map(|d| {
            format!(
                " [{}]",
                serde_json::to_value(d)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            )
        })
        .unwrap_or_default();
    let mut s = format!("  {} {}: {}{drift}\n", c.status.mark(), c.name, c.saw);
    if let Some(f) = c.fix.as_ref().filter(|_| c.status != Status::Ok) {
        s.push_str(&format!("      fix: {f}\n"));
    }
    s
}

/// Prompts need both ends on a terminal (stdout stays clean for the report).
pub(crate) fn interactive() -> bool {
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}
