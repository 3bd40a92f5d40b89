//! What a long-lived `sync --watch` carries from one drain to the next (fleet markers,
//! its rosters, waiting renewals, when it last listed `fleets/`), and what a one-shot
//! `sync` starts from.

use std::collections::{HashMap, HashSet};

use crate::fleet::roster;

/// How long (ms of wall clock, so a laptop's sleep counts) a drain may reuse this host's
/// roster from an earlier drain before it reads the lake's copy again: the longest
/// another home sharing this host id (a cloned image) goes unnoticed by a running
/// `sync --watch`.
pub(super) const ROSTER_REUSE_MS: i64 = 30_000;

/// A roster carried between drains, with the wall-clock time (ms) it was read.
pub(super) type Carried = (roster::Own, i64);

/// What one drain leaves for the next in a long-lived `sync --watch`, so that draining a
/// few records costs a few requests: the fleets whose marker the lake holds (no create
/// for them), and this host's rosters (no GET for them; see `roster::Own::still_current`).
/// A daemon starts from `Carry::default()`, which writes hook history at its cadence; a
/// one-shot `sync` from `Carry::one_shot()`, which writes all of it.
#[derive(Default)]
pub struct Carry {
    pub(super) marked: HashSet<String>,
    pub(super) rosters: HashMap<String, Carried>,
    /// `Some(horizon)`: this process drains at least every few intervals, so lease
    /// renewals may wait (see `fleet::roster::defer`).
    pub(super) horizon_ms: Option<i64>,
    /// Fleets with renewals waiting, and when they are due (lake time); `None` until
    /// read from this home's kept rosters at the first drain.
    pub(super) due: Option<std::collections::BTreeMap<String, i64>>,
    /// When (wall ms) a pass last listed `fleets/`; `None`: never in this process.
    pub(super) listed_at: Option<i64>,
    /// Write every pending hook history now rather than when it is due.
    pub(super) history_now: bool,
}

/// How often (wall ms) a daemon lists `fleets/`: the fleets it serves are known locally
/// (`serving`), so the listing only names new fleets (the "other fleets" note, `fleet
/// list`) and notices a wiped lake; a one-shot `sync` lists at every run.
pub const FLEETS_EVERY_MS: i64 = 300_000;

impl Carry {
    /// What a `sync --watch` daemon carries: renewals may wait while their lake expiry
    /// is more than `horizon_ms` away (and half their TTL), the daemon checking their
    /// deadline at every pass and drain.
    pub fn deferring(horizon_ms: i64) -> Carry {
        Carry {
            horizon_ms: Some(horizon_ms),
            ..Carry::default()
        }
    }

    /// What a one-shot `sync` starts from: nothing carried, and it leaves no hook history
    /// pending (a person who ran `sync` expects what this host did to be in the lake).
    pub fn one_shot() -> Carry {
        Carry {
            history_now: true,
            ..Carry::default()
        }
    }

    /// Forget what was learnt (the store was reopened), keeping how renewals and hook
    /// history are handled.
    pub fn reset(&mut self) {
        *self = Carry {
            horizon_ms: self.horizon_ms,
            history_now: self.history_now,
            ..Carry::default()
        };
    }

    /// Whether this pass should list `fleets/`: always outside a daemon, and in one on its
    /// first pass, then every [`FLEETS_EVERY_MS`] (a wall clock stepped back lists too),
    /// and at every pass while a fleet it serves (`serves`) has no known marker: another
    /// host may make it any moment, and its leases must not wait minutes to show here.
    pub fn fleets_due(&self, serves: &std::collections::BTreeSet<String>, now_ms: i64) -> bool {
        match self.listed_at {
            Some(at) if self.horizon_ms.is_some() => {
                !(0..FLEETS_EVERY_MS).contains(&(now_ms - at))
                    || serves.iter().any(|f| !self.marked.contains(f))
            }
            _ => true,
        }
    }

    /// Write every pending hook history at the next drain, as a one-shot `sync` does (the
    /// simulation's settle).
    #[cfg(test)]
    pub(crate) fn write_history_now(&mut self, now: bool) {
        self.history_now = now;
    }

    /// The fleets a pass found in the lake: exactly these have a marker.
    /// A fleet missing from the listing lost its marker (the lake was wiped and made
    /// again): its roster is read afresh, and its next drain creates the marker. (A
    /// prompt drain between passes still trusts the last listing.)
    pub fn listed(&mut self, fleets: &[String]) {
        self.listed_at = Some(crate::time::now_ms());
        self.marked = fleets.iter().cloned().collect();
        self.rosters.retain(|f, _| self.marked.contains(f));
    }

    /// The fleets whose marker the lake holds, sorted: listed, or created since.
    pub fn fleets(&self) -> Vec<String> {
        let mut out: Vec<String> = self.marked.iter().cloned().collect();
        out.sort();
        out
    }
}
