//! The lake: the only shared state. `sync` drains the spool into it and mirrors it
//! into the cache; `maint` folds claim events, runs the gate and publishes snapshots.

use std::path::PathBuf;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::paths::Paths;

pub mod claims;
pub mod digest;
pub mod drain;
pub mod keys;
pub mod maint;
pub mod manifest;
pub mod mirror;
pub mod presence;
#[cfg(test)]
mod sim;
pub mod store;

pub use store::{LocalStore, Store};

/// Open the configured store (default: the local lake under `CTXLAKE_HOME`).
pub fn open(paths: &Paths, config: &Config) -> Result<Box<dyn Store>> {
    let url = config
        .store
        .clone()
        .unwrap_or_else(|| format!("file://{}", paths.default_lake().display()));
    match crate::paths::path_from_store_url(&url) {
        Some(p) if p.is_absolute() => Ok(Box::new(LocalStore::open(&PathBuf::from(p))?)),
        _ => Err(
            Error::usage("invalid_store", format!("store `{url}` is not supported"))
                .hint("use a `file:///absolute/path` URL in `store` (config.toml)"),
        ),
    }
}

/// Fleets the lake knows.
pub fn fleets(store: &dyn Store) -> Result<Vec<String>> {
    Ok(store
        .list(keys::FLEETS)?
        .into_iter()
        .map(|o| keys::stem(&o.key).to_string())
        .collect())
}
