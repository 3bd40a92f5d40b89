//! The decisions of the guided `ctxlake init`: what this machine already has set up (the
//! config, each detected runtime, the model, the sync service, transcripts and whether
//! they were imported), and the config text a set of choices makes, with its diff. The
//! command asks the questions and carries the steps out; nothing here prompts or prints.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::config::{self, Config, MemoryMode};
use crate::error::{Error, Result};
use crate::install::{Action, EntryOpts, Installer, Runtime};
use crate::paths::Paths;

/// What is already set up, step by step.
#[derive(Debug, Serialize)]
pub struct Status {
    pub config: PathBuf,
    pub config_exists: bool,
    pub fleet: String,
    pub agent: String,
    pub store: String,
    pub runtimes: Vec<RuntimeStatus>,
    /// A model is installed in the configured directory (not yet verified).
    pub model_installed: bool,
    pub model_dir: PathBuf,
    /// Transcripts on this machine, by runtime, and whether import has read them before.
    pub transcripts: Vec<Transcripts>,
}

#[derive(Debug, Serialize)]
pub struct RuntimeStatus {
    pub runtime: Runtime,
    /// ctxlake's entries (and hooks) are all in place already.
    pub installed: bool,
}

#[derive(Debug, Serialize)]
pub struct Transcripts {
    pub runtime: &'static str,
    pub root: PathBuf,
    pub files: usize,
    /// `ctxlake import` read this runtime before (its ledger exists).
    pub imported_before: bool,
}

/// The answers to init's questions.
#[derive(Debug, Clone)]
pub struct Choices {
    pub fleet: String,
    pub agent: String,
    pub store: String,
    pub mode: MemoryMode,
}

/// Look at the machine: `current` is the config as it stands (defaults when missing).
pub fn status(
    paths: &Paths,
    current: &Config,
    choices: &Choices,
    inst: &Installer,
    opts: &EntryOpts,
) -> Status {
    let detected: Vec<Runtime> = crate::install::ALL
        .into_iter()
        .filter(|&rt| crate::install::detect(rt, &inst.env).detected)
        .collect();
    let runtimes = detected
        .into_iter()
        .map(|rt| RuntimeStatus {
            runtime: rt,
            installed: inst
                .plan_install(&[rt], opts)
                .is_ok_and(|plans| plans.iter().all(|p| p.action == Action::Unchanged)),
        })
        .collect();
    let model_dir = crate::snapshot::embed::model_dir(paths, current);
    let transcripts = super::import::found(&inst.env)
        .into_iter()
        .map(|(s, root, files)| Transcripts {
            runtime: s.as_str(),
            imported_before: paths.import_ledger(s.as_str()).is_file(),
            root,
            files,
        })
        .collect();
    Status {
        config: paths.config_file(),
        config_exists: paths.config_file().is_file(),
        fleet: choices.fleet.clone(),
        agent: choices.agent.clone(),
        store: choices.store.clone(),
        runtimes,
        model_installed: model_dir.join("model.safetensors").is_file(),
        model_dir,
        transcripts,
    }
}

/// The config text for `choices`: the template on a fresh machine, else the existing
/// file with only these keys set (comments and every other key kept).
pub fn config_text(existing: Option<&str>, path: &Path, c: &Choices) -> Result<String> {
    crate::scope::validate_id("fleet", &c.fleet)?;
    crate::scope::validate_id("agent", &c.agent)?;
    Ok(match existing {
        None => config::template(&c.fleet, &c.agent, &c.store, c.mode),
        Some(t) => {
            let mut doc = config::parse_doc(t, path)?;
            config::set_string(&mut doc, None, "fleet", &c.fleet);
            config::set_string(&mut doc, None, "agent", &c.agent);
            config::set_string(&mut doc, None, "store", &c.store);
            config::set_string(&mut doc, Some("memory"), "mode", c.mode.as_str());
            doc.to_string()
        }
    })
}

/// A unified diff from `old` (none: a new file) to `new`, empty when they are equal.
pub fn diff(path: &Path, old: Option<&str>, new: &str) -> String {
    if old == Some(new) {
        return String::new();
    }
    let name = path.display().to_string();
    let (a, an) = match old {
        Some(o) => (o, name.as_str()),
        None => ("", "/dev/null"),
    };
    crate::install::diff::unified(a, new, an, &name)
}

/// The store URL is one `init` can write: a local lake or an object store (probed by the
/// caller before anything is written).
pub fn check_store(store: &str) -> Result<()> {
    if crate::lake::s3::is_object_store_url(store) || store.starts_with("file://") {
        return Ok(());
    }
    Err(
        Error::usage("invalid_store", format!("store `{store}` is not supported"))
            .hint("use `file:///absolute/path`, `s3://bucket/prefix` or `az://container/prefix`"),
    )
}
