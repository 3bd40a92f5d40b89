//! The writing host's side of its roster for one fleet: read once per drain (on the
//! fleet's first presence record), applied to in memory, written back at each flush.
//!
//! Idempotence: a drain flushes after each block of a spool file and only then moves the
//! file's watermark, so a crash replays at most the last flushed block of a file. The
//! roster therefore carries, per spool file still on disk, the ids of its last flushed
//! block (`Window`); a replayed record found there is skipped. A file's window goes when
//! the file does (it was drained to the end), so the roster stays small.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use super::defer::{self, LeaseKey};
use super::kept::{self, Kept};
use super::start::{Lake, Start};
use super::{RosterObj, Warning, Window};
use crate::error::Result;
use crate::fleet::presence::PresenceObj;
use crate::lake::keys;
use crate::lake::store::Store;
use crate::paths::Paths;
use crate::spool::Record;

pub(crate) struct Own {
    key: String,
    host: String,
    fleet: String,
    entries: BTreeMap<(String, String), PresenceObj>,
    /// Each session's `last_seen_ms` as the lake last got it (see `LIVENESS_GRAIN_MS`).
    written_seen: BTreeMap<(String, String), i64>,
    /// Every id a replay must skip: the loaded windows plus everything applied since.
    done: HashSet<String>,
    /// Windows as last read or written, by spool file.
    windows: BTreeMap<String, Window>,
    /// This flush's windows, by spool file.
    current: BTreeMap<String, Window>,
    /// This home's copy of the roster (see `kept`), written before each PUT.
    kept_file: PathBuf,
    /// This home's recent write ids (see `kept::Kept::recent`).
    recent: Vec<String>,
    warning: Option<Warning>,
    dirty: bool,
    /// The write id of the kept copy as this value last read or wrote it (see
    /// [`Own::still_current`]).
    kept_write: Option<String>,
    /// `state/host-id`: a home that took a new id writes under another key.
    host_file: PathBuf,
    /// Deferred renewals (see `defer`): `Some(horizon)` lets a renewal wait; `None` writes
    /// every one at once and any pending one at the next flush.
    horizon_ms: Option<i64>,
    /// Each lease's expiry as the lake last got it.
    written_expiry: BTreeMap<LeaseKey, i64>,
    /// The lake time by which the roster must carry its deferred renewals.
    due: Option<i64>,
    /// A renewal was deferred since the kept copy was last written.
    kept_behind: bool,
    /// The windows as the lake last got them: any other window (one the lake never got)
    /// is written once even when its spool file is gone, so every record id applied
    /// reaches the lake in some window.
    lake_windows: Vec<Window>,
    /// The write id of the lake's copy as this value last read or wrote it.
    lake_write: Option<String>,
}

impl Own {
    /// This host's roster of `fleet` as the lake holds it (empty when there is none yet),
    /// or this home's kept copy when the lake's is damaged or was written by another home
    /// sharing this host id: then this home takes a new host id (see [`Start`]).
    pub(crate) fn load(store: &dyn Store, paths: &Paths, fleet: &str) -> Result<Own> {
        let mut host = super::host_id(paths)?;
        let kept_file = kept::path(paths, fleet);
        let kept = kept::read(&kept_file, fleet);
        let kept_write = kept.as_ref().map(|k| k.roster.write.clone());
        let mut key = keys::roster(fleet, &host);
        let lake = match store.get(&key)? {
            None => Lake::Missing,
            Some((b, _)) => super::read_written(&b, fleet).map_or(Lake::Damaged, Lake::Written),
        };
        let lake_write = match &lake {
            Lake::Written((_, _, id)) => Some(id.clone()),
            _ => None,
        };
        let start = Start::choose(lake, kept, &host).map_err(|()| damaged(store, &key))?;
        let mut warning = None;
        if let Start::Clone(_) = start {
            let old = std::mem::replace(&mut host, super::mint_host_id(paths)?);
            key = keys::roster(fleet, &host);
            warning = Some(Warning::HostIdShared {
                old,
                new: host.clone(),
                host_id_file: super::host_id_file(paths),
            });
        }
        if let Start::Damaged(_) = start {
            warning = Some(Warning::RosterRebuilt {
                key: key.clone(),
                kept_file: kept_file.clone(),
            });
        }
        let (lake_windows, written, due) = start.lake_side();
        let (dirty, recent, (sessions, windows)) = start.state();
        let done = windows
            .iter()
            .flat_map(|w| w.applied.iter().chain(&w.redone).cloned())
            .collect();
        let entries: BTreeMap<_, _> = sessions
            .into_iter()
            .map(|p| ((p.agent.clone(), p.session.clone()), p))
            .collect();
        let written_expiry = written.unwrap_or_else(|| defer::expiries(&entries));
        Ok(Own {
            key,
            host,
            fleet: fleet.to_string(),
            written_seen: seen_of(&entries),
            written_expiry,
            due,
            kept_behind: false,
            lake_windows,
            lake_write,
            horizon_ms: None,
            entries,
            done,
            windows: windows.into_iter().map(|w| (w.file.clone(), w)).collect(),
            current: BTreeMap::new(),
            kept_file,
            recent,
            warning,
            dirty,
            kept_write,
            host_file: super::host_id_file(paths),
        })
    }

    /// Whether this value still is this home's roster, so a drain may reuse it instead
    /// of reading the lake's copy again: nothing unwritten, the home still has this host
    /// id, and no other process of this home (a one-shot `ctxlake sync` beside the
    /// daemon) flushed the roster since: each flush first rewrites the kept copy with a
    /// fresh write id. Two local reads, no request.
    pub(crate) fn still_current(&self) -> bool {
        let host = super::stored_host_id(&self.host_file);
        let kept = kept::read(&self.kept_file, &self.fleet).map(|k| k.roster.write);
        !self.dirty
            && host.as_ref() == Some(&self.host)
            && kept.is_some()
            && kept == self.kept_write
    }

    /// Let renewals wait (see `defer`), `horizon_ms` being the shortest margin: only a
    /// process that checks [`Own::due`] at least that often may call this.
    pub(crate) fn defer_renewals(&mut self, horizon_ms: i64) {
        self.horizon_ms = Some(horizon_ms);
    }

    /// The lake time by which deferred renewals must be written, if any wait.
    pub(crate) fn due(&self) -> Option<i64> {
        self.due
    }

    /// What a load had to tell the person, once (a clone, a damaged roster).
    pub(crate) fn take_warning(&mut self) -> Option<Warning> {
        self.warning.take()
    }

    /// Apply `rec` (read from spool file `file`) at lake time `now`; false when it had
    /// been applied before. A hook event that only moved a session's liveness within the
    /// grain changes the value but leaves it clean: no PUT for it alone (its id rides
    /// along in the window of the next write, if any; replaying it moves liveness only).
    pub(crate) fn apply(&mut self, rec: &Record, file: &str, now: i64) -> bool {
        let window = self
            .current
            .entry(file.to_string())
            .or_insert_with(|| Window {
                file: file.to_string(),
                ..Window::default()
            });
        if self.done.contains(&rec.id) {
            window.redone.push(rec.id.clone());
            return false;
        }
        window.applied.push(rec.id.clone());
        self.done.insert(rec.id.clone());
        let key = (rec.agent.clone(), rec.session.clone());
        let before = self.entries.get(&key).cloned();
        let after = self
            .entries
            .entry(key.clone())
            .or_insert_with(|| PresenceObj::new(rec));
        after.apply(rec, now);
        let seen = self.written_seen.get(&key).copied();
        let wait = match (self.horizon_ms, before.as_ref()) {
            (Some(h), Some(b)) if !self.dirty && self.kept_write == self.lake_write => {
                defer::deadline(rec, b, after, &self.written_expiry, seen, h, now)
            }
            _ => None,
        };
        match wait {
            Some(due) => {
                self.due = Some(self.due.map_or(due, |d| d.min(due)));
                self.kept_behind = true;
            }
            None => self.dirty |= super::worth_writing(rec, before.as_ref(), after, seen),
        }
        true
    }

    /// Write the roster when anything was applied: expired sessions pruned, the windows
    /// of spool files gone from `spool` dropped, this flush's windows added. (A drain
    /// uses the two steps below; this is their sum, for the tests.)
    #[cfg(test)]
    pub(crate) fn flush(&mut self, store: &dyn Store, spool: &Path, now: i64) -> Result<()> {
        if let Some((key, bytes)) = self.prepare(spool, now)? {
            store.put(&key, &bytes)?;
            self.landed();
        }
        Ok(())
    }

    /// `flush` in two steps, so a drain PUTs the rosters of all its fleets at once: the
    /// key and bytes to PUT when anything was applied (this home's copy already kept),
    /// then [`Own::landed`] once the PUT succeeded.
    /// A roster holding only deferred renewals is not written before they are due (or
    /// ever, in a process that does not defer); its kept copy is, so they survive a restart.
    pub(crate) fn prepare(&mut self, spool: &Path, now: i64) -> Result<Option<(String, Vec<u8>)>> {
        let due = self
            .due
            .is_some_and(|d| self.horizon_ms.is_none() || now >= d);
        self.dirty |= due;
        if !self.dirty {
            if self.kept_behind {
                self.keep_deferred()?;
            }
            return Ok(None);
        }
        self.entries.retain(|_, p| !super::expired(p, now));
        let mut windows = std::mem::take(&mut self.windows);
        merge(
            &mut windows,
            std::mem::take(&mut self.current),
            &self.lake_windows,
        );
        let lake = &self.lake_windows;
        let unsent = |w: &Window| !w.applied.is_empty() && !lake.contains(w);
        windows.retain(|file, w| spool.join(file).exists() || unsent(w));
        let obj = RosterObj {
            host: self.host.clone(),
            fleet: self.fleet.clone(),
            sessions: self.entries.values().cloned().collect(),
            windows: windows.values().cloned().collect(),
            write: crate::ulid::new(),
        };
        self.windows = windows;
        self.written_seen = seen_of(&self.entries);
        self.written_expiry = defer::expiries(&self.entries);
        self.lake_windows = obj.windows.clone();
        self.lake_write = Some(obj.write.clone());
        // The kept copy says whether this write carries renewals the lake lacks (see
        // `start`): if it does not land, they are written again from that copy.
        let carries = std::mem::take(&mut self.due);
        self.kept_behind = false;
        // Kept first: whether or not the PUT lands (or lands late), its id is ours.
        Kept::remember(&mut self.recent, &obj.write);
        let bytes = crate::error::Error::json(&obj)?;
        let recent = self.recent.clone();
        let write = obj.write.clone();
        kept::write(
            &self.kept_file,
            &Kept {
                recent,
                roster: obj,
                due_ms: carries,
            },
        )?;
        self.kept_write = Some(write);
        Ok(Some((self.key.clone(), bytes)))
    }

    /// Keep the deferred renewals in this home's copy, under the write id the lake holds
    /// (so a load still knows the lake's copy as ours), with this flush's windows: their
    /// record ids must reach the lake with the renewals.
    fn keep_deferred(&mut self) -> Result<()> {
        let Some(write) = self.lake_write.clone() else {
            return Ok(());
        };
        let current = std::mem::take(&mut self.current);
        merge(&mut self.windows, current, &self.lake_windows);
        let roster = RosterObj {
            host: self.host.clone(),
            fleet: self.fleet.clone(),
            sessions: self.entries.values().cloned().collect(),
            windows: self.windows.values().cloned().collect(),
            write,
        };
        let kept = Kept {
            recent: self.recent.clone(),
            roster,
            due_ms: self.due,
        };
        kept::write(&self.kept_file, &kept)?;
        self.kept_behind = false;
        Ok(())
    }

    /// The PUT of [`Own::prepare`]'s roster landed.
    pub(crate) fn landed(&mut self) {
        self.dirty = false;
    }
}

/// Add this flush's windows to `windows`: a file's window the lake already got is
/// replaced (its block is done), one it never got (ids kept back with deferred renewals)
/// grows, so each applied id reaches the lake.
fn merge(
    windows: &mut BTreeMap<String, Window>,
    current: BTreeMap<String, Window>,
    lake: &[Window],
) {
    for (file, cur) in current {
        match windows.get_mut(&file) {
            Some(w) if !lake.contains(w) => {
                w.applied.extend(cur.applied);
                w.redone.extend(cur.redone);
            }
            _ => _ = windows.insert(file, cur),
        }
    }
}

/// Each session's `last_seen_ms`, by (agent, session).
fn seen_of(entries: &BTreeMap<(String, String), PresenceObj>) -> BTreeMap<(String, String), i64> {
    entries
        .iter()
        .map(|(k, p)| (k.clone(), p.last_seen_ms))
        .collect()
}

fn damaged(store: &dyn Store, key: &str) -> crate::error::Error {
    crate::error::Error::storage(
        "roster_damaged",
        format!(
            "this host's roster `{key}` in the lake `{}` is damaged and this home keeps no copy of it: its replay windows are lost, so draining could apply a spool record twice",
            store.url()
        ),
    )
    .hint(format!(
        "if no `ctxlake sync` on this host was interrupted since its last good one, delete `{key}` from the lake and sync again (the roster starts afresh)"
    ))
}
