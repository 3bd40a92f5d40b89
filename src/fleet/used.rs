//! The fleets this host's own agents used: every fleet a drained record of this host
//! named, kept in `state/fleets-used.json`. With the configured fleet and the HTTP
//! tokens' fleets it decides what a host serves (`services::serving`): a fleet only
//! found in the lake is another host's business, and anyone who can write the lake can
//! make thousands of them.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::paths::Paths;

#[derive(Debug, Default, Serialize, Deserialize)]
struct Used {
    fleets: BTreeSet<String>,
}

/// The fleets recorded so far (none when the file is missing or unreadable: the
/// configured fleet is served regardless, and the next drain records again).
pub fn read(paths: &Paths) -> BTreeSet<String> {
    std::fs::read(paths.fleets_used())
        .ok()
        .and_then(|b| serde_json::from_slice::<Used>(&b).ok())
        .map(|u| u.fleets)
        .unwrap_or_default()
        .into_iter()
        .filter(|f| crate::scope::validate_id("fleet", f).is_ok())
        .collect()
}

/// Add `fleets` to the record; the file is rewritten only when one is new, so a drain
/// of a known fleet costs one small read.
pub fn record(paths: &Paths, fleets: &BTreeSet<String>) -> Result<()> {
    if fleets.is_empty() {
        return Ok(());
    }
    let mut known = read(paths);
    let before = known.len();
    known.extend(fleets.iter().cloned());
    if known.len() == before {
        return Ok(());
    }
    std::fs::create_dir_all(paths.state())
        .map_err(|e| Error::io("cannot create", &paths.state(), e))?;
    let bytes = Error::json(&Used { fleets: known })?;
    crate::fsutil::write_atomic(&paths.fleets_used(), &bytes, 0o600)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn used_fleets_accumulate_and_a_bad_name_is_dropped() {
        let d = tempfile::tempdir().unwrap();
        let paths = Paths::with_overrides(d.path().to_path_buf(), None, None);
        assert!(read(&paths).is_empty());
        record(&paths, &BTreeSet::from(["b".to_string()])).unwrap();
        record(&paths, &BTreeSet::from(["a".to_string()])).unwrap();
        assert_eq!(
            read(&paths),
            BTreeSet::from(["a".to_string(), "b".to_string()])
        );
        std::fs::write(paths.fleets_used(), br#"{"fleets":["ok","../x"]}"#).unwrap();
        assert_eq!(read(&paths), BTreeSet::from(["ok".to_string()]));
    }
}
