//! The lake: the only shared state. `sync` drains the spool into it and mirrors it
//! into the cache; `maint` folds claim events, runs the gate and publishes snapshots.

use std::path::PathBuf;

use crate::error::{Error, Result};

pub(crate) mod batch;
pub mod copy;
pub mod format;
pub mod keys;
#[cfg(test)]
pub(crate) mod logged;
pub mod manifest;
pub mod s3;
pub mod store;
pub(crate) mod watermark;

pub use store::{LocalStore, Store};

/// Open the store at `url`: `file:///absolute/path`, or an `s3://`/`az://` store (the only
/// kind that starts a network client), reached with `access`.
pub fn open_url(url: &str, access: s3::Access) -> Result<Box<dyn Store>> {
    if s3::is_object_store_url(url) {
        return Ok(Box::new(s3::S3Store::open(url, access)?));
    }
    match crate::paths::path_from_store_url(url) {
        Some(p) if p.is_absolute() => Ok(Box::new(LocalStore::open(&PathBuf::from(p))?)),
        _ => Err(
            Error::usage("invalid_store", format!("store `{url}` is not supported"))
                .hint("use `file:///absolute/path`, `s3://bucket/prefix` or `az://container/prefix` in `store` (config.toml) or `CTXLAKE_STORE`"),
        ),
    }
}

/// Fleets the lake knows.
pub fn fleets(store: &dyn Store) -> Result<Vec<String>> {
    Ok(store
        .list(keys::FLEETS)?
        .into_iter()
        .filter_map(|o| fleet_of_marker(&o.key))
        .collect())
}

/// The fleet a marker key names: the whole name after `fleets/` (a fleet id may hold a
/// `.`), and only an id that could be a fleet's: names from the lake become cache paths.
fn fleet_of_marker(key: &str) -> Option<String> {
    let name = key.strip_prefix(keys::FLEETS)?;
    crate::scope::validate_id("fleet", name).ok()?;
    Some(name.to_string())
}

/// For `skip_serializing_if` on the reports' counts of skipped lines.
pub(crate) fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fleet id with a dot lists as itself; a marker that could not name a fleet (a
    /// hostile lake) lists as nothing.
    #[test]
    fn fleets_are_listed_by_their_whole_id() {
        let d = tempfile::tempdir().unwrap();
        let store = store::LocalStore::open(d.path()).unwrap();
        for f in ["acme.web", "plain", "user@host"] {
            store.create(&keys::fleet_marker(f), b"").unwrap();
        }
        assert_eq!(fleets(&store).unwrap(), ["acme.web", "plain", "user@host"]);
        for bad in ["fleets/.hidden", "fleets/a..b", "fleets/a b"] {
            assert_eq!(fleet_of_marker(bad), None, "{bad}");
        }
    }
}
