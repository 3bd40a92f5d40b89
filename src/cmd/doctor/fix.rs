//! `doctor --fix`: plan the repairs, show the unified diff, stop there on `--dry-run`,
//! else write through the installer and offer the sync service (a terminal prompt;
//! without one, skipped with the command to run).

use serde::Serialize;

use super::super::GlobalArgs;
use super::DoctorArgs;
use crate::error::{Error, Kind, Result};
use crate::install::{Action, EntryOpts, Installer, Runtime};
use crate::services::doctor::Report;

#[derive(Debug, Serialize)]
pub(super) struct FixOutput {
    pub dry_run: bool,
    /// Whether anything was written (the report is then from a second run).
    pub applied: bool,
    pub files: Vec<FixedFile>,
    pub service: ServiceStep,
    /// What only a hand edit can repair.
    pub manual: Vec<String>,
    pub notes: Vec<String>,
}

/// What became of the sync service offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum ServiceStep {
    Installed,
    Skipped,
    Declined,
    NotNeeded,
}

#[derive(Debug, Serialize)]
pub(super) struct FixedFile {
    pub runtime: Runtime,
    pub path: std::path::PathBuf,
    pub action: Action,
    pub diff: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backup: Option<std::path::PathBuf>,
}

pub(super) fn run(
    a: &DoctorArgs,
    g: &GlobalArgs,
    report: &Report,
    inst: &Installer,
    opts: &EntryOpts,
) -> Result<FixOutput> {
    let plan = crate::services::doctor::plan_fix(report, inst, opts)?;
    let mut files: Vec<FixedFile> = plan
        .files
        .iter()
        .map(|p| FixedFile {
            runtime: p.runtime,
            path: p.path.clone(),
            action: p.action,
            diff: p.diff(),
            backup: None,
        })
        .collect();
    let mut out = FixOutput {
        dry_run: a.dry_run,
        applied: false,
        files: Vec::new(),
        service: ServiceStep::NotNeeded,
        manual: plan.manual,
        notes: Vec::new(),
    };
    if a.dry_run {
        if plan.service {
            out.service = ServiceStep::Skipped;
            out.notes
                .push("would offer to install the sync service (`ctxlake service install`)".into());
        }
        out.files = files;
        return Ok(out);
    }
    let reports = inst.apply(&plan.files)?;
    for (f, r) in files.iter_mut().zip(reports) {
        f.backup = r.backup;
    }
    out.applied = !files.is_empty();
    out.files = files;
    if plan.service {
        out.service = service(a, g, &mut out.notes)?;
        out.applied |= out.service == ServiceStep::Installed;
    }
    Ok(out)
}

fn service(a: &DoctorArgs, g: &GlobalArgs, notes: &mut Vec<String>) -> Result<ServiceStep> {
    let yes = a.yes
        || {
            if !super::interactive() {
                notes.push("skipped the sync service: no terminal to ask on; run `ctxlake service install` (or `ctxlake doctor --fix --yes`)".into());
                return Ok(ServiceStep::Skipped);
            }
            dialoguer::Confirm::new()
            .with_prompt("Nothing keeps the spool drained. Install the sync service (`ctxlake service install`)?")
            .default(true)
            .interact_opt()
            .map_err(|e| Error::new(Kind::Interrupted, "interrupted", "prompt interrupted").source(e))?
            .unwrap_or(false)
        };
    if !yes {
        notes.push("left the sync service alone; `ctxlake service install` installs it".into());
        return Ok(ServiceStep::Declined);
    }
    let file = super::super::service::install_sync(g)?;
    notes.push(format!("installed the sync service: {}", file.display()));
    Ok(ServiceStep::Installed)
}

pub(super) fn render(f: &FixOutput) -> String {
    let mut s = String::new();
    for file in &f.files {
        s.push_str(&file.diff);
    }
    let verb = if f.dry_run { "would change" } else { "changed" };
    if f.files.is_empty() {
        s.push_str("--fix: no runtime entry to re-write\n");
    } else {
        s.push_str(&format!("--fix: {verb} {} file(s)", f.files.len()));
        let baks: Vec<String> = f
            .files
            .iter()
            .filter_map(|x| x.backup.as_ref())
            .map(|b| b.display().to_string())
            .collect();
        if !baks.is_empty() {
            s.push_str(&format!(" (backup: {})", baks.join(", ")));
        }
        s.push('\n');
    }
    for n in f.notes.iter().chain(&f.manual) {
        s.push_str(&format!("--fix: {n}\n"));
    }
    if f.dry_run {
        s.push_str("--fix --dry-run: nothing was written\n");
    } else if f.applied {
        s.push_str("--fix: checking again\n");
    }
    s.push('\n');
    s
}
