//! The doctor's report: one [`Check`] per link, each with what it saw and the exact fix,
//! the named drift class when a runtime entry has drifted, and the repair `--fix` can make.

use std::time::Duration;

use serde::Serialize;

use crate::install::Runtime;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Group {
    Runtimes,
    Pipeline,
    Store,
    Settings,
    Http,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Status {
    Ok,
    /// Not checked (a link before it failed, or it does not apply here).
    Skip,
    Warn,
    Fail,
}

impl Status {
    pub(crate) fn mark(self) -> &'static str {
        match self {
            Status::Ok => "✔",
            Status::Skip => "-",
            Status::Warn => "⚠",
            Status::Fail => "✘",
        }
    }
}

/// How a runtime's entry drifted from what `ctxlake install` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Drift {
    MissingEntry,
    StaleBinaryPath,
    DuplicateEntries,
    WrongFleetOrAgent,
    HooksMissing,
    HooksPartial,
    /// The file was written by `ctxlake install` and has since lost ctxlake's keys (the
    /// runtime, or an upgrade of it, rewrote the file).
    RewrittenLostKeys,
    /// The entry differs from what install writes in another way (args, type).
    EntryDiffers,
}

/// What `--fix` can do about a check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub(crate) enum Repair {
    /// Re-write the runtime's entries through the installer (and drop duplicates).
    Reinstall {
        runtime: Runtime,
        /// Other server names in the same file that run ctxlake's MCP server.
        duplicates: Vec<String>,
    },
    /// Offer to install the sync service.
    InstallService,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Check {
    pub group: Group,
    /// What was checked, e.g. `claude-code: MCP entry`.
    pub name: String,
    pub status: Status,
    /// What the check saw.
    pub saw: String,
    /// The exact command or edit that fixes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drift: Option<Drift>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repair: Option<Repair>,
}

impl Check {
    pub(crate) fn new(
        group: Group,
        name: impl Into<String>,
        status: Status,
        saw: impl Into<String>,
    ) -> Check {
        Check {
            group,
            name: name.into(),
            status,
            saw: saw.into(),
            fix: None,
            drift: None,
            repair: None,
        }
    }
    pub(crate) fn ok(g: Group, name: impl Into<String>, saw: impl Into<String>) -> Check {
        Check::new(g, name, Status::Ok, saw)
    }
    pub(crate) fn warn(g: Group, name: impl Into<String>, saw: impl Into<String>) -> Check {
        Check::new(g, name, Status::Warn, saw)
    }
    pub(crate) fn fail(g: Group, name: impl Into<String>, saw: impl Into<String>) -> Check {
        Check::new(g, name, Status::Fail, saw)
    }
    pub(crate) fn skip(g: Group, name: impl Into<String>, saw: impl Into<String>) -> Check {
        Check::new(g, name, Status::Skip, saw)
    }
    pub(crate) fn fix(mut self, fix: impl Into<String>) -> Check {
        self.fix = Some(fix.into());
        self
    }
    pub(crate) fn drift(mut self, d: Drift) -> Check {
        self.drift = Some(d);
        self
    }
    pub(crate) fn repair(mut self, r: Repair) -> Check {
        self.repair = Some(r);
        self
    }
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Report {
    pub version: &'static str,
    /// No check failed.
    pub ok: bool,
    pub failed: usize,
    pub warnings: usize,
    /// Wall time of all checks.
    pub elapsed_ms: u64,
    pub checks: Vec<Check>,
}

impl Report {
    pub(crate) fn new(checks: Vec<Check>, elapsed: Duration) -> Report {
        let count = |s: Status| checks.iter().filter(|c| c.status == s).count();
        let failed = count(Status::Fail);
        Report {
            version: env!("CARGO_PKG_VERSION"),
            ok: failed == 0,
            failed,
            warnings: count(Status::Warn),
            elapsed_ms: elapsed.as_millis() as u64,
            checks,
        }
    }

    /// Every distinct repair the checks asked for, runtimes merged (one per runtime).
    pub(crate) fn repairs(&self) -> Vec<Repair> {
        let mut out: Vec<Repair> = Vec::new();
        for r in self.checks.iter().filter_map(|c| c.repair.clone()) {
            match r {
                Repair::Reinstall {
                    runtime,
                    duplicates,
                } => {
                    let existing = out.iter_mut().find_map(|o| match o {
                        Repair::Reinstall {
                            runtime: rt,
                            duplicates: d,
                        } if *rt == runtime => Some(d),
                        _ => None,
                    });
                    match existing {
                        Some(d) => {
                            for n in duplicates {
                                if !d.contains(&n) {
                                    d.push(n);
                                }
                            }
                        }
                        None => out.push(Repair::Reinstall {
                            runtime,
                            duplicates,
                        }),
                    }
                }
                other if !out.contains(&other) => out.push(other),
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_merges_repairs() {
        let rt = Runtime::ClaudeCode;
        let re = |d: &[&str]| Repair::Reinstall {
            runtime: rt,
            duplicates: d.iter().map(|s| s.to_string()).collect(),
        };
        let checks = vec![
            Check::fail(Group::Runtimes, "a", "x").repair(re(&[])),
            Check::fail(Group::Runtimes, "b", "y").repair(re(&["ctxlake-2"])),
            Check::warn(Group::Pipeline, "c", "z").repair(Repair::InstallService),
            Check::warn(Group::Pipeline, "d", "z").repair(Repair::InstallService),
            Check::ok(Group::Store, "e", "fine"),
        ];
        let r = Report::new(checks, Duration::from_millis(5));
        assert!(!r.ok);
        assert_eq!((r.failed, r.warnings), (2, 2));
        assert_eq!(
            r.repairs(),
            vec![re(&["ctxlake-2"]), Repair::InstallService]
        );
    }
}
