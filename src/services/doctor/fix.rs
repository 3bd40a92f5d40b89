//! What `--fix` would change: runtimes' entries re-planned through the same lossless
//! installer (so only ctxlake's entries move, with a `.bak` and atomic writes), duplicate
//! servers that run ctxlake dropped, and whether to offer the sync service.

use super::report::{Repair, Report};
use crate::error::Result;
use crate::install::runtimes::targets;
use crate::install::{Action, EntryOpts, FilePlan, Installer, Runtime, drop_servers};

pub(crate) struct Plan {
    /// Files that change (unchanged ones left out).
    pub files: Vec<FilePlan>,
    /// Some check asked for the sync service.
    pub service: bool,
    /// Duplicates the installer cannot take out (TOML/YAML): named for a hand edit.
    pub manual: Vec<String>,
}

pub(crate) fn plan(report: &Report, inst: &Installer, opts: &EntryOpts) -> Result<Plan> {
    let mut out = Plan {
        files: Vec::new(),
        service: false,
        manual: Vec::new(),
    };
    for r in report.repairs() {
        match r {
            Repair::InstallService => out.service = true,
            Repair::Reinstall {
                runtime,
                duplicates,
            } => {
                // One runtime the installer refuses must not stop the others' repairs.
                let mut plans = match inst.plan_install(&[runtime], opts) {
                    Ok(p) => p,
                    Err(e) => {
                        let hint = e
                            .hint
                            .as_ref()
                            .map(|h| format!(" ({h})"))
                            .unwrap_or_default();
                        out.manual.push(format!(
                            "cannot repair {}: {}{hint}",
                            runtime.name(),
                            e.one_line()
                        ));
                        continue;
                    }
                };
                for p in &mut plans {
                    dedupe(inst, opts, runtime, p, &duplicates, &mut out.manual)?;
                }
                out.files
                    .extend(plans.into_iter().filter(|p| p.action != Action::Unchanged));
            }
        }
    }
    Ok(out)
}

fn dedupe(
    inst: &Installer,
    opts: &EntryOpts,
    rt: Runtime,
    p: &mut FilePlan,
    names: &[String],
    manual: &mut Vec<String>,
) -> Result<()> {
    if names.is_empty() {
        return Ok(());
    }
    for t in targets(rt, &inst.env, opts)? {
        let Some((key, _)) = &t.mcp else { continue };
        if t.path != p.path {
            continue;
        }
        if !drop_servers(p, t.format, key[0], names) {
            manual.push(format!(
                "remove {} from `{}` by hand",
                names.join(", "),
                inst.env.show(&t.path)
            ));
        }
    }
    Ok(())
}
