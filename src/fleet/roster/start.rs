//! Where a load of this host's own roster starts from: the lake's copy, this home's kept
//! copy, or nothing, and what each says about the lake (see `own`).

use std::collections::BTreeMap;

use super::Window;
use super::defer::{self, LeaseKey};
use super::kept::Kept;
use crate::fleet::presence::PresenceObj;

/// The lake's copy of this host's roster at load.
pub(super) enum Lake {
    Missing,
    /// Present but not a roster of this fleet.
    Damaged,
    /// Sessions, windows, write id.
    Written((Vec<PresenceObj>, Vec<Window>, String)),
}

pub(super) type Loaded = (Vec<PresenceObj>, Vec<Window>);

/// Where a load starts from, each with the write ids that count as ours.
pub(super) enum Start {
    /// The lake's copy, ours.
    Lake(Vec<String>, Loaded),
    /// Nothing in the lake: a new host, or none of its PUTs landed.
    Fresh(Vec<String>),
    /// The kept copy, written under an earlier host id of this home (replaced after a
    /// clone, or after `state/host-id` was lost): its sessions move to the new id.
    Moved(Kept),
    /// The kept copy: the lake's does not parse.
    Damaged(Kept),
    /// The kept copy: the lake's holds a write this home never made.
    Clone(Kept),
    /// The kept copy, holding renewals deferred since the lake's copy (the latest write,
    /// ours), and that copy (see `defer`).
    Deferred(Kept, Loaded),
    /// The kept copy, holding deferred renewals, written but not landed.
    Unlanded(Kept),
}

impl Start {
    /// `Err`: the lake's copy is damaged and this home keeps none, so the replay windows
    /// are lost; draining could then apply a spool block twice.
    pub(super) fn choose(
        lake: Lake,
        kept: Option<Kept>,
        host: &str,
    ) -> std::result::Result<Start, ()> {
        Ok(match (lake, kept) {
            // No copy kept (this home's state was lost, the host id kept): the lake's is
            // taken as ours.
            (Lake::Written((s, w, id)), None) => Start::Lake(vec![id], (s, w)),
            // Renewals waiting (see `defer`): the kept copy holds them under the lake's
            // write id; once written and landed, the two copies are the same.
            (Lake::Written((s, w, id)), Some(k))
                if k.due_ms.is_some()
                    && k.roster.write == id
                    && (k.roster.sessions != s || k.roster.windows != w) =>
            {
                Start::Deferred(k, (s, w))
            }
            // The write that was to carry them did not land (or not yet): their spool
            // records will not be replayed, so the kept copy is what the lake must get.
            (Lake::Written((_, _, id)), Some(k))
                if k.due_ms.is_some() && k.roster.write != id && k.wrote(&id) =>
            {
                Start::Unlanded(k)
            }
            (Lake::Written((s, w, id)), Some(k)) if k.wrote(&id) => Start::Lake(k.recent, (s, w)),
            (Lake::Written(_), Some(k)) => Start::Clone(k),
            (Lake::Missing, Some(k)) if k.roster.host != host => Start::Moved(k),
            // Under the same id none of our PUTs landed: replays apply afresh, as they
            // must (the kept copy may hold a block the lake never got).
            (Lake::Missing, k) => Start::Fresh(k.map(|k| k.recent).unwrap_or_default()),
            (Lake::Damaged, Some(k)) => Start::Damaged(k),
            (Lake::Damaged, None) => return Err(()),
        })
    }

    /// (dirty, recent write ids, sessions and windows). A start from the kept copy is
    /// dirty: the lake must get it back (under the new host id after a clone).
    pub(super) fn state(self) -> (bool, Vec<String>, Loaded) {
        match self {
            Start::Lake(recent, loaded) => (false, recent, loaded),
            Start::Fresh(recent) => (false, recent, Loaded::default()),
            Start::Deferred(k, _) => (false, k.recent, (k.roster.sessions, k.roster.windows)),
            Start::Moved(k) | Start::Damaged(k) | Start::Clone(k) | Start::Unlanded(k) => {
                (true, k.recent, (k.roster.sessions, k.roster.windows))
            }
        }
    }

    /// What the lake holds of a start: (its windows, its leases' expiries when they are
    /// not the start's, the deadline of renewals deferred since).
    pub(super) fn lake_side(&self) -> (Vec<Window>, Option<BTreeMap<LeaseKey, i64>>, Option<i64>) {
        match self {
            Start::Lake(_, (_, w)) => (w.clone(), None, None),
            Start::Deferred(k, (s, w)) => {
                let by_session = s
                    .iter()
                    .map(|p| ((p.agent.clone(), p.session.clone()), p.clone()))
                    .collect();
                (w.clone(), Some(defer::expiries(&by_session)), k.due_ms)
            }
            _ => (Vec::new(), None, None),
        }
    }
}
