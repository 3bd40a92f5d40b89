//! This home's copy of its own roster of each fleet, `state/roster/<fleet>.own.json`,
//! written (atomically) before every PUT of the roster. It answers two questions the
//! lake's copy cannot:
//! - is the roster under this host id still ours? A roster whose write id this home
//!   never wrote came from another home with the same `state/host-id` (a cloned image);
//! - what were our sessions and replay windows when the lake's copy is damaged? Losing
//!   the windows would apply a replayed spool block twice.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::RosterObj;
use crate::error::Result;
use crate::paths::Paths;

/// How many of this home's latest write ids count as ours. A PUT whose answer was lost
/// may or may not have landed (and a retried one lands with the same bytes), so the
/// lake may hold any recent write of ours, not only the last.
const RECENT: usize = 16;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Kept {
    /// Write ids of this home's recent roster writes, oldest first.
    pub recent: Vec<String>,
    /// The roster as last written (or about to be), write id included; with renewals
    /// deferred since (`due_ms` set), the lake's write id and this home's newer expiries.
    pub roster: RosterObj,
    /// The lake time by which deferred renewals must reach the lake (see `defer`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_ms: Option<i64>,
}

impl Kept {
    /// Whether `write` (the lake roster's write id) is one of ours.
    pub(crate) fn wrote(&self, write: &str) -> bool {
        self.recent.iter().any(|w| w == write)
    }

    /// Remember `write` as ours, forgetting the oldest beyond `RECENT`.
    pub(crate) fn remember(recent: &mut Vec<String>, write: &str) {
        if !recent.iter().any(|w| w == write) {
            recent.push(write.to_string());
        }
        let extra = recent.len().saturating_sub(RECENT);
        recent.drain(..extra);
    }
}

pub(crate) fn path(paths: &Paths, fleet: &str) -> PathBuf {
    paths.roster_own(fleet)
}

/// The kept copy for `fleet`; `None` when there is none or it does not parse (then the
/// lake's copy is all there is).
pub(crate) fn read(path: &Path, fleet: &str) -> Option<Kept> {
    let bytes = std::fs::read(path).ok()?;
    let kept: Kept = serde_json::from_slice(&bytes).ok()?;
    (kept.roster.fleet == fleet).then_some(kept)
}

pub(crate) fn write(path: &Path, kept: &Kept) -> Result<()> {
    let bytes = crate::error::Error::json(kept)?;
    crate::fsutil::write_atomic(path, &bytes, 0o600)
}

/// Every fleet whose kept copy holds deferred renewals, with the lake time they are due:
/// what a process that starts must still write (see `defer`).
pub(crate) fn deferred(paths: &Paths) -> std::collections::BTreeMap<String, i64> {
    let mut out = std::collections::BTreeMap::new();
    let entries = std::fs::read_dir(paths.roster_dir()).into_iter().flatten();
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(fleet) = name.to_str().and_then(|n| n.strip_suffix(".own.json")) else {
            continue;
        };
        if let Some(due) = read(&e.path(), fleet).and_then(|k| k.due_ms) {
            out.insert(fleet.to_string(), due);
        }
    }
    out
}

/// This home's copy of its roster of `fleet` when it may hold renewals the lake lacks
/// (see `defer`): the deadline and the copy. For the simulation's checks.
#[cfg(test)]
pub(crate) fn waiting(paths: &Paths, fleet: &str) -> Option<(i64, RosterObj)> {
    let k = read(&path(paths, fleet), fleet)?;
    Some((k.due_ms?, k.roster))
}
