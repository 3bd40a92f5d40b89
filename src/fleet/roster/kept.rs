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
    /// The roster as last written (or about to be), write id included.
    pub roster: RosterObj,
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
