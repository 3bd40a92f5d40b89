//! `ctxlake init`: write or update `~/.ctxlake/config.toml`, keeping the user's edits.

use std::io::IsTerminal;

use clap::Args;

use super::GlobalArgs;
use crate::config::{self, MemoryMode};
use crate::error::{Error, Kind, Result};
use crate::paths::Paths;
use crate::scope::{default_agent, validate_id};

/// Write `config.toml` with this machine's fleet, agent id, store and memory mode
///
/// Optional: every command works without it on defaults (fleet `default`, agent
/// user@host, the local lake). On a terminal it asks for each value; `--yes` takes
/// the flags and defaults without asking. Re-running keeps your comments and edits.
///
/// Example:
///   ctxlake init --fleet payments --yes
///   ctxlake init --store file:///srv/ctxlake/lake --memory shadow --yes
///   ctxlake init --store s3://team-lake/ctxlake --yes
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
    /// Do not ask; use flags and defaults.
    #[arg(long, short)]
    pub yes: bool,
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
    let lake_url = format!("file://{}", paths.default_lake().display());
    let mut fleet = g
        .fleet
        .clone()
        .or(current.fleet.clone())
        .unwrap_or_else(|| config::DEFAULT_FLEET.into());
    let mut agent = g
        .agent
        .clone()
        .or(current.agent.clone())
        .unwrap_or_else(default_agent);
    let mut store = args
        .store
        .clone()
        .or(current.store.clone())
        .unwrap_or(lake_url);
    let mode = args
        .memory
        .as_deref()
        .and_then(MemoryMode::parse)
        .unwrap_or(current.memory_mode);
    if !args.yes {
        if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
            return Err(Error::usage(
                "no_terminal",
                "`ctxlake init` needs a terminal to ask its questions",
            )
            .hint("pass `--yes` (with `--fleet`, `--agent`, `--store` as needed)"));
        }
        fleet = ask("Fleet", &fleet)?;
        agent = ask("Agent id", &agent)?;
        store = ask("Store URL", &store)?;
    }
    validate_id("fleet", &fleet)?;
    validate_id("agent", &agent)?;
    if crate::lake::s3::is_object_store_url(&store) {
        // Refuse a bucket that is unreachable, ignores conditional writes or holds a lake
        // of another format now, not at the first sync: nothing is written until the
        // store passed the probe.
        let s = crate::services::open::url(&current, &store)?;
        crate::lake::store::probe(s.as_ref())?;
        crate::lake::format::read(s.as_ref())?;
    } else if !store.starts_with("file://") {
        return Err(
            Error::usage("invalid_store", format!("store `{store}` is not supported")).hint(
                "use `file:///absolute/path`, `s3://bucket/prefix` or `az://container/prefix`",
            ),
        );
    }
    let text = match existing {
        None => config::template(&fleet, &agent, &store, mode),
        Some(t) => {
            let mut doc = config::parse_doc(&t, &path)?;
            config::set_string(&mut doc, None, "fleet", &fleet);
            config::set_string(&mut doc, None, "agent", &agent);
            config::set_string(&mut doc, None, "store", &store);
            config::set_string(&mut doc, Some("memory"), "mode", mode.as_str());
            doc.to_string()
        }
    };
    crate::fsutil::write_atomic(&path, text.as_bytes(), 0o600)?;
    g.output().note(&format!(
        "wrote {} (fleet `{fleet}`, agent `{agent}`, store `{store}`)",
        path.display()
    ));
    Ok(())
}

fn ask(prompt: &str, default: &str) -> Result<String> {
    dialoguer::Input::<String>::new()
        .with_prompt(prompt)
        .default(default.to_string())
        .interact_text()
        .map_err(|e| Error::new(Kind::Interrupted, "interrupted", "prompt interrupted").source(e))
}
