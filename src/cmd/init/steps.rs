//! Each step of `ctxlake init`, carried out (or, dry, shown as the diff it would write),
//! and how the whole run reads at the terminal.

use std::path::Path;

use super::{InitOutput, Step};
use crate::cmd::GlobalArgs;
use crate::error::Result;
use crate::install::{Action, Installer, Runtime};
use crate::paths::Paths;
use crate::services::init::{Choices, Status, diff};

pub(super) struct Run<'a> {
    pub g: &'a GlobalArgs,
    pub paths: &'a Paths,
    pub inst: &'a Installer,
    pub choices: &'a Choices,
    pub dry_run: bool,
}

fn step(step: &'static str, result: &'static str, detail: impl Into<String>) -> Step {
    Step {
        step,
        result,
        detail: detail.into(),
        diff: String::new(),
    }
}

impl Run<'_> {
    pub fn config(&self, path: &Path, existing: Option<&str>, text: &str) -> Result<Step> {
        let what = format!(
            "fleet `{}`, agent `{}`, store `{}`",
            self.choices.fleet, self.choices.agent, self.choices.store
        );
        if existing == Some(text) {
            return Ok(step(
                "config",
                "already",
                format!("{}: {what}", path.display()),
            ));
        }
        if self.dry_run {
            let mut s = step(
                "config",
                "would",
                format!("write {}: {what}", path.display()),
            );
            s.diff = diff(path, existing, text);
            return Ok(s);
        }
        crate::fsutil::write_atomic(path, text.as_bytes(), 0o600)?;
        Ok(step(
            "config",
            "done",
            format!("wrote {}: {what}", path.display()),
        ))
    }

    pub fn runtimes(&self, picked: &[Runtime], status: &Status) -> Result<Step> {
        let installed: Vec<&str> = status
            .runtimes
            .iter()
            .filter(|r| r.installed)
            .map(|r| r.runtime.name())
            .collect();
        if picked.is_empty() {
            return Ok(match (status.runtimes.is_empty(), installed.is_empty()) {
                (true, _) => step("runtimes", "skipped", "no runtime detected on this machine"),
                (false, false) => step(
                    "runtimes",
                    "already",
                    format!("wired: {}", installed.join(", ")),
                ),
                (false, true) => step(
                    "runtimes",
                    "skipped",
                    "none picked (`ctxlake install` wires them later)",
                ),
            });
        }
        let (_, opts) = crate::cmd::install::setup_with(
            self.paths,
            crate::scope::Scope {
                fleet: self.choices.fleet.clone(),
                agent: self.choices.agent.clone(),
                session: crate::scope::DEFAULT_SESSION.into(),
            },
            false,
            true,
        )?;
        let plans = self.inst.plan_install(picked, &opts)?;
        let names: Vec<&str> = picked.iter().map(|r| r.name()).collect();
        if self.dry_run {
            let mut s = step("runtimes", "would", format!("wire {}", names.join(", ")));
            s.diff = plans.iter().map(|p| p.diff()).collect();
            return Ok(s);
        }
        let reports = self.inst.apply(&plans)?;
        let changed = reports
            .iter()
            .filter(|r| r.action != Action::Unchanged)
            .count();
        Ok(step(
            "runtimes",
            "done",
            format!("wired {} ({changed} file(s) changed)", names.join(", ")),
        ))
    }

    pub fn model(&self, want: bool, status: &Status) -> Result<Step> {
        let dir = status.model_dir.display().to_string();
        if status.model_installed {
            return Ok(step(
                "model",
                "already",
                format!("all-MiniLM-L6-v2 in {dir}"),
            ));
        }
        if !want {
            return Ok(step(
                "model",
                "skipped",
                "memory stays lexical until `ctxlake memory model install`",
            ));
        }
        // The config may have just been written: read it again for `model_url`.
        let config = crate::config::Config::load(&self.paths.config_file())?;
        let url = config
            .model_url
            .clone()
            .unwrap_or_else(crate::snapshot::embed::download::default_url);
        if self.dry_run {
            return Ok(step(
                "model",
                "would",
                format!("download all-MiniLM-L6-v2 from {url} into {dir}"),
            ));
        }
        crate::cmd::memory::model::fetch(self.g, &url, &status.model_dir)?;
        Ok(step(
            "model",
            "done",
            format!("all-MiniLM-L6-v2 (verified) from {url} into {dir}"),
        ))
    }

    pub fn service(&self, want: bool) -> Result<Step> {
        let (file, text) = crate::cmd::service::sync_unit()?;
        let current = std::fs::read_to_string(&file).ok();
        if current.as_deref() == Some(text.as_str()) {
            return Ok(step("service", "already", format!("{}", file.display())));
        }
        if !want {
            return Ok(step(
                "service",
                "skipped",
                "run `ctxlake sync` yourself, or `ctxlake service install` later",
            ));
        }
        if self.dry_run {
            let mut s = step(
                "service",
                "would",
                format!("write {} and start it", file.display()),
            );
            s.diff = diff(&file, current.as_deref(), &text);
            return Ok(s);
        }
        let file = crate::cmd::service::install_sync(self.g)?;
        Ok(step(
            "service",
            "done",
            format!("wrote {} (`sync --watch`)", file.display()),
        ))
    }

    pub fn import(&self, want: bool, status: &Status) -> Result<Step> {
        if status.transcripts.is_empty() {
            return Ok(step("import", "skipped", "no transcripts on this machine"));
        }
        if !want {
            return Ok(step(
                "import",
                "skipped",
                "`ctxlake import --dry-run` shows what it would share",
            ));
        }
        let ctx = crate::cmd::context(self.g)?;
        let env = crate::install::env::Env::from_process()?;
        let r = crate::cmd::import::import_with(&ctx, &env, self.g, &[], None, self.dry_run)?;
        let line = format!(
            "{} sessions, {} events, {} skipped",
            r.sessions, r.events, r.skipped
        );
        Ok(match (self.dry_run, r.sessions) {
            (true, _) => step(
                "import",
                "would",
                format!("import {line} (`ctxlake import --dry-run` lists them)"),
            ),
            (false, 0) => step(
                "import",
                "already",
                format!(
                    "nothing new ({} already imported, {} captured live)",
                    r.unchanged, r.captured_live
                ),
            ),
            (false, _) => step("import", "done", line),
        })
    }

    /// One sync pass, so the fleet's history and the doctor's pipeline checks see it now.
    pub fn sync(&self) -> Step {
        struct Quiet;
        impl crate::services::sync::Observer for Quiet {}
        let once = || -> Result<crate::services::sync::SyncOutput> {
            let ctx = crate::cmd::context(self.g)?;
            let store = crate::services::open::configured(&ctx)?;
            let mut carry = crate::services::drain::Carry::one_shot();
            crate::services::sync::once(&ctx, store.as_ref(), true, &mut carry, &mut Quiet)
        };
        match once() {
            Ok(o) => step(
                "sync",
                "done",
                format!("{} record(s) into {}", o.drained.records, o.store),
            ),
            Err(e) => step("sync", "failed", e.one_line()),
        }
    }
}

/// What is set up already, shown before the questions.
pub(super) fn render_status(s: &Status, inst: &Installer, service: bool) -> String {
    let mark = |b: bool| if b { "✔" } else { "·" };
    let mut out = format!(
        "ctxlake init: this machine now\n  {} config {}\n",
        mark(s.config_exists),
        inst.env.show(&s.config)
    );
    for r in &s.runtimes {
        out.push_str(&format!(
            "  {} {} wired\n",
            mark(r.installed),
            r.runtime.name()
        ));
    }
    out.push_str(&format!(
        "  {} semantic model in {}\n",
        mark(s.model_installed),
        inst.env.show(&s.model_dir)
    ));
    out.push_str(&format!("  {} sync service\n", mark(service)));
    for t in &s.transcripts {
        out.push_str(&format!(
            "  {} {} transcript file(s) of {}{}\n",
            mark(t.imported_before),
            t.files,
            t.runtime,
            if t.imported_before {
                " (imported before)"
            } else {
                ""
            }
        ));
    }
    out
}

pub(super) fn render(o: &InitOutput) -> String {
    let mut s = String::new();
    for st in &o.steps {
        let m = match st.result {
            "done" | "already" => "✔",
            "failed" => "✘",
            "would" => "→",
            _ => "·",
        };
        s.push_str(&format!(
            "{m} {:<9} {}{}\n",
            st.step,
            label(st.result),
            st.detail
        ));
        s.push_str(&st.diff);
    }
    if let Some(d) = &o.doctor {
        let ok = d
            .checks
            .iter()
            .filter(|c| c.status == crate::services::doctor::Status::Ok)
            .count();
        s.push_str(&format!(
            "doctor: {} failed, {} warning(s), {ok} ok",
            d.failed, d.warnings
        ));
        for c in d
            .checks
            .iter()
            .filter(|c| c.status == crate::services::doctor::Status::Fail)
        {
            s.push_str(&format!("\n  ✘ {}: {}", c.name, c.saw));
        }
        s.push('\n');
    }
    if o.dry_run {
        s.push_str("dry run: nothing was written\n");
    }
    s
}

fn label(result: &str) -> &'static str {
    match result {
        "already" => "(already) ",
        "skipped" => "(skipped) ",
        "failed" => "(failed) ",
        "would" => "(would) ",
        _ => "",
    }
}
