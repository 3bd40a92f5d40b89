//! `ctxlake init`: the guided first run. It shows what is already set up, asks (on a
//! terminal) or takes the defaults (`--yes`, or no terminal), then writes the config,
//! wires the runtimes, fetches the model, installs the sync service, imports the
//! transcripts, syncs once and ends with `doctor`. The decisions are `services::init`'s.

use std::io::IsTerminal;

use clap::Args;
use serde::Serialize;

use super::GlobalArgs;
use crate::config::{self, MemoryMode};
use crate::error::{Error, Kind, Result};
use crate::paths::Paths;
use crate::scope::default_agent;
use crate::services::init::{self as plan, Choices, Status};

mod steps;

/// Set up this machine: config, runtimes, semantic model, sync service, history import
///
/// On a terminal it shows what is already set up and asks about each step, with a
/// default for each; `--yes` (or no terminal) takes the defaults and prints what it did:
/// fleet and agent ids, the store (an `s3://`/`az://` store is probed before anything is
/// written), every detected runtime wired through the same lossless installer as
/// `ctxlake install`, the all-MiniLM-L6-v2 model downloaded (`[memory] model_url` /
/// CTXLAKE_MODEL_URL pick a mirror), the `sync --watch` service installed and started,
/// the transcripts already on disk imported (`ctxlake import`), one `sync`, then `doctor`.
/// Re-running changes only what is not set up yet. `--dry-run` prints every file it
/// would touch as a diff and writes nothing.
///
/// Example:
///   ctxlake init
///   ctxlake init --yes --no-service
///   ctxlake init --store s3://team-lake/ctxlake --yes --config-only
///   ctxlake init --dry-run
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct InitArgs {
    /// Where the fleet's shared state lives: `file:///path`, `s3://bucket/prefix` or `az://container/prefix`
    /// (probed before the config is written; credentials come from the provider's environment).
    #[arg(long, value_name = "URL")]
    pub store: Option<String>,
    /// Memory mode: on, shadow or off.
    #[arg(long, value_name = "MODE", value_parser = ["on", "shadow", "off"])]
    pub memory: Option<String>,
    /// Do not ask; take the flags and defaults.
    #[arg(long, short)]
    pub yes: bool,
    /// Print every file it would touch, as a diff; change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Do not wire runtimes.
    #[arg(long)]
    pub no_runtimes: bool,
    /// Do not fetch the semantic model (memory stays lexical).
    #[arg(long)]
    pub no_model: bool,
    /// Do not install the sync service.
    #[arg(long)]
    pub no_service: bool,
    /// Do not import the transcripts on disk.
    #[arg(long)]
    pub no_import: bool,
    /// Write `config.toml` and stop: no runtimes, model, service, import, sync or doctor.
    #[arg(long, conflicts_with_all = ["no_runtimes", "no_model", "no_service", "no_import"])]
    pub config_only: bool,
}

/// What `init` did, step by step (`--json`).
#[derive(Debug, Default, Serialize)]
pub(crate) struct InitOutput {
    pub dry_run: bool,
    pub steps: Vec<Step>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doctor: Option<crate::services::doctor::Report>,
}

#[derive(Debug, Serialize)]
pub(crate) struct Step {
    pub step: &'static str,
    /// `done`, `already`, `skipped`, `failed` or `would` (dry run).
    pub result: &'static str,
    pub detail: String,
    /// Dry run: the unified diff of each file the step would write.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub diff: String,
}

/// The steps a run will take, decided from the flags, the machine and the answers.
#[derive(Debug, Clone)]
pub(crate) struct Picked {
    pub runtimes: Vec<crate::install::Runtime>,
    pub model: bool,
    pub service: bool,
    pub import: bool,
}

pub fn run(args: InitArgs, g: &GlobalArgs) -> Result<()> {
    let paths = Paths::from_env()?;
    let path = paths.config_file();
    let existing = match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(Error::io("cannot read config", &path, e)),
    };
    let current = match &existing {
        Some(t) => config::Config::parse(t, &path)?,
        None => config::Config::default(),
    };
    let ask = !args.yes && std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    let mut choices = Choices {
        fleet: g
            .fleet
            .clone()
            .or(current.fleet.clone())
            .unwrap_or_else(|| config::DEFAULT_FLEET.into()),
        agent: g
            .agent
            .clone()
            .or(current.agent.clone())
            .unwrap_or_else(default_agent),
        store: args
            .store
            .clone()
            .or(current.store.clone())
            .unwrap_or_else(|| format!("file://{}", paths.default_lake().display())),
        mode: args
            .memory
            .as_deref()
            .and_then(MemoryMode::parse)
            .unwrap_or(current.memory_mode),
    };
    let scope = crate::scope::Scope {
        fleet: choices.fleet.clone(),
        agent: choices.agent.clone(),
        session: crate::scope::DEFAULT_SESSION.into(),
    };
    let (inst, opts) = super::install::setup_with(&paths, scope, false, true)?;
    let status = plan::status(&paths, &current, &choices, &inst, &opts);
    let (unit, unit_text) = super::service::sync_unit()?;
    let service_ready = std::fs::read_to_string(&unit).ok().as_deref() == Some(unit_text.as_str());
    if ask {
        crate::output::stderr(&steps::render_status(&status, &inst, service_ready));
        choices.fleet = input("Fleet", &choices.fleet)?;
        choices.agent = input("Agent id", &choices.agent)?;
        choices.store = input("Store URL", &choices.store)?;
    }
    plan::check_store(&choices.store)?;
    let text = plan::config_text(existing.as_deref(), &path, &choices)?;
    if crate::lake::s3::is_object_store_url(&choices.store) && !args.dry_run {
        // Refuse a bucket that is unreachable, ignores conditional writes or holds a lake
        // of another format now, not at the first sync: nothing is written until the
        // store passed the probe.
        let s = crate::services::open::url(&current, &choices.store)?;
        crate::lake::store::probe(s.as_ref())?;
        crate::lake::format::read(s.as_ref())?;
    }
    let picked = pick(&args, ask, &status, service_ready)?;
    let mut out = InitOutput {
        dry_run: args.dry_run,
        ..InitOutput::default()
    };
    let ctx = steps::Run {
        g,
        paths: &paths,
        inst: &inst,
        choices: &choices,
        dry_run: args.dry_run,
    };
    out.steps
        .push(ctx.config(&path, existing.as_deref(), &text)?);
    if args.config_only {
        return super::printed(g.output().emit(&out, steps::render));
    }
    let mut failed = Vec::new();
    // A step that fails is shown in its place, by its name; the others still run.
    for (name, step) in [
        ("runtimes", ctx.runtimes(&picked.runtimes, &status)),
        ("model", ctx.model(picked.model, &status)),
        ("service", ctx.service(picked.service)),
        ("import", ctx.import(picked.import, &status)),
    ] {
        match step {
            Ok(s) => out.steps.push(s),
            Err(e) => {
                out.steps.push(Step {
                    step: name,
                    result: "failed",
                    detail: e.one_line(),
                    diff: String::new(),
                });
                failed.push(e);
            }
        }
    }
    if !args.dry_run {
        out.steps.push(ctx.sync());
        out.doctor = Some(super::doctor::Machine::gather(g)?.check());
    }
    super::printed(g.output().emit(&out, steps::render))?;
    let doctor_failed = out.doctor.as_ref().is_some_and(|d| d.failed > 0);
    match (failed.into_iter().next(), doctor_failed) {
        (Some(e), _) => Err(e),
        (None, true) => Err(Error::new(
            Kind::Unhealthy,
            "doctor_failed",
            "`ctxlake doctor` found problems after setup",
        )
        .hint("run `ctxlake doctor` for the whole report, or `ctxlake doctor --fix`")),
        (None, false) => Ok(()),
    }
}

/// The steps to take: the defaults (everything not set up yet), narrowed by `--no-*`
/// flags, and on a terminal by the answers.
fn pick(args: &InitArgs, ask: bool, status: &Status, service_ready: bool) -> Result<Picked> {
    let pending: Vec<_> = status
        .runtimes
        .iter()
        .filter(|r| !r.installed)
        .map(|r| r.runtime)
        .collect();
    let only = args.config_only;
    let mut p = Picked {
        runtimes: if args.no_runtimes || only {
            Vec::new()
        } else {
            pending
        },
        model: !args.no_model && !only && !status.model_installed,
        service: !args.no_service && !only && !service_ready,
        import: !args.no_import && !only && !status.transcripts.is_empty(),
    };
    if !ask || only {
        return Ok(p);
    }
    if !p.runtimes.is_empty() {
        p.runtimes = super::install::prompt(&p.runtimes, "wire into ctxlake")?;
    }
    if p.model {
        p.model = confirm(
            "Fetch the semantic model (all-MiniLM-L6-v2, about 87 MiB) for semantic memory search?",
            true,
        )?;
    }
    if p.service {
        p.service = confirm(
            "Install and start the background `ctxlake sync --watch` service?",
            true,
        )?;
    }
    if p.import {
        let files: usize = status.transcripts.iter().map(|t| t.files).sum();
        p.import = confirm(
            &format!(
                "Import the history in {files} transcript file(s) into the fleet (prompt text stays out unless `[import] prompts = true`)?"
            ),
            true,
        )?;
    }
    Ok(p)
}

fn interrupted(e: dialoguer::Error) -> Error {
    Error::new(Kind::Interrupted, "interrupted", "prompt interrupted").source(e)
}

fn input(prompt: &str, default: &str) -> Result<String> {
    dialoguer::Input::<String>::new()
        .with_prompt(prompt)
        .default(default.to_string())
        .interact_text()
        .map_err(interrupted)
}

fn confirm(prompt: &str, default: bool) -> Result<bool> {
    dialoguer::Confirm::new()
        .with_prompt(prompt)
        .default(default)
        .interact()
        .map_err(interrupted)
}
