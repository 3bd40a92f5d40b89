//! The applier: one spool record at a time into the lake's shapes — a host roster's
//! presence, the host's pending hook history, a batch of create-only records — written at
//! each flush (history when it is due: see `history`).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::history;
use super::{Carried, DrainReport, ROSTER_REUSE_MS};
use crate::error::{Error, Result};
use crate::fleet::roster;
use crate::lake::store::Store;
use crate::lake::{batch, keys};
use crate::paths::Paths;
use crate::spool::Record;

/// What became of one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Applied {
    /// Applied by this drain.
    Now,
    /// The lake already had it (a redo after a crash, or a replayed file).
    Before,
    /// A create-only record waiting for the next flush, counted when its batch is sent.
    Queued,
    /// A bad id: refused and counted as a bad line.
    Refused,
}

/// Applies records to the lake, batching roster writes and hook history.
pub(super) struct Applier<'a> {
    store: &'a dyn Store,
    lake_offset_ms: i64,
    /// This host's roster of each fleet, read on the fleet's first presence record
    /// (unless an earlier drain's is reused), with when it was read.
    pub(super) rosters: HashMap<String, Carried>,
    /// Fleets whose marker the lake holds (see `Carry`).
    marked: &'a mut HashSet<String>,
    paths: Paths,
    /// One-time messages for the person (see `roster::Own::take_warning`).
    pub(super) warnings: Vec<roster::Warning>,
    /// The spool file being drained, relative to `spool` (rosters key replay windows by it).
    pub(super) file: String,
    /// Hook records of this block, by fleet: they join the pending history at the flush.
    history: BTreeMap<String, Vec<Record>>,
    /// Write every pending history now (a one-shot `sync`), not at its cadence.
    pub(super) force_history: bool,
    /// Per fleet, keys to name in its feed at the next flush (see `lake::watermark`).
    feed: BTreeMap<String, Vec<String>>,
    /// Create-only records waiting for the next flush, by fleet and area, in spool order.
    creates: BTreeMap<(String, batch::Area), Vec<Record>>,
    /// Ids the lake already holds, learnt while draining the current spool file.
    pub(super) held: HashSet<String>,
    /// Fleets this drain's records named: this host's agents use them (`fleet::used`).
    pub(super) used: BTreeSet<String>,
    /// See `Carry::horizon_ms`.
    horizon_ms: Option<i64>,
}

impl<'a> Applier<'a> {
    pub(super) fn new(
        store: &'a dyn Store,
        paths: &Paths,
        marked: &'a mut HashSet<String>,
        mut rosters: HashMap<String, Carried>,
        horizon_ms: Option<i64>,
    ) -> Result<Self> {
        let lake_offset_ms = store.now_ms()? - crate::time::now_ms();
        let now = crate::time::now_ms();
        // A clock stepped back makes the age negative: read again then too.
        let fresh = |at: i64| (0..ROSTER_REUSE_MS).contains(&(now - at));
        rosters.retain(|_, (own, at)| fresh(*at) && own.still_current());
        Ok(Applier {
            store,
            lake_offset_ms,
            rosters,
            marked,
            warnings: Vec::new(),
            paths: paths.clone(),
            file: String::new(),
            history: BTreeMap::new(),
            force_history: false,
            feed: BTreeMap::new(),
            creates: BTreeMap::new(),
            held: HashSet::new(),
            used: BTreeSet::new(),
            horizon_ms,
        })
    }

    fn lake_now(&self) -> i64 {
        crate::time::now_ms() + self.lake_offset_ms
    }

    /// Apply one record: what became of it. A record with a bad id is counted in
    /// `report.bad_lines` and nowhere else.
    pub(super) fn apply(
        &mut self,
        mut rec: Record,
        is_hook: bool,
        report: &mut DrainReport,
    ) -> Result<Applied> {
        // The write boundary again before anything becomes permanent: a spool file may
        // come from an older build, or from a writer that is not ctxlake at all.
        report.secrets_rescrubbed +=
            crate::scrub::scrub(&mut rec.payload, crate::rules::MAX_TEXT_CHARS).redacted;
        // A session id names a segment key: one an older build spooled raw is mapped as
        // today's writers map it (a no-op for an id they wrote).
        rec.session = crate::scope::session_id(&rec.session);
        // The record id too: it names batch keys, and every reader drops a bad one.
        if crate::scope::validate_id("fleet", &rec.fleet).is_err()
            || crate::scope::validate_id("record", &rec.id).is_err()
            || crate::scope::validate_id("agent", &rec.agent).is_err()
            || crate::scope::validate_id("session", &rec.session).is_err()
        {
            report.bad_lines += 1;
            return Ok(Applied::Refused);
        }
        if !self.used.contains(&rec.fleet) {
            self.used.insert(rec.fleet.clone());
        }
        if !self.marked.contains(&rec.fleet) {
            self.store.create(&keys::fleet_marker(&rec.fleet), b"")?;
            self.marked.insert(rec.fleet.clone());
        }
        // Handoffs and claim events wait for the flush, which writes them in batches.
        if let Some(area) = batch::Area::of(&rec.kind) {
            let group = (rec.fleet.clone(), area);
            self.creates.entry(group).or_default().push(rec);
            return Ok(Applied::Queued);
        }
        if is_hook {
            let h = self.history.entry(rec.fleet.clone()).or_default();
            h.push(rec.clone());
            // A session replayed from a transcript (`ctxlake import`) ended long ago: it
            // belongs in history, never in the roster of live agents.
            if rec.payload["imported"] == true {
                return Ok(Applied::Now);
            }
        }
        Ok(if self.apply_presence(&rec)? {
            Applied::Now
        } else {
            Applied::Before
        })
    }

    pub(super) fn has_creates(&self) -> bool {
        !self.creates.is_empty()
    }

    /// Write the queued create-only records as batch objects (see `batch::send`) and
    /// count them; every handoff batch, and any other batch that landed late, is named
    /// in the feed.
    fn send_creates(&mut self, report: &mut DrainReport, recheck: bool) -> Result<()> {
        let groups = std::mem::take(&mut self.creates);
        let offset = self.lake_offset_ms;
        let now = move || crate::time::now_ms() + offset;
        let sent = batch::send(self.store, groups, recheck, &mut self.held, &now)?;
        report.applied += sent.applied;
        report.already_applied += sent.already_applied;
        for (fleet, key) in sent.late {
            self.feed.entry(fleet).or_default().push(key);
        }
        Ok(())
    }

    fn apply_presence(&mut self, rec: &Record) -> Result<bool> {
        let now = self.lake_now();
        let file = self.file.clone();
        Ok(self.roster(&rec.fleet)?.apply(rec, &file, now))
    }

    /// This host's roster of `fleet`, read from the lake on first use.
    fn roster(&mut self, fleet: &str) -> Result<&mut roster::Own> {
        if !self.rosters.contains_key(fleet) {
            let mut own = roster::Own::load(self.store, &self.paths, fleet)?;
            self.warnings.extend(own.take_warning());
            if let Some(h) = self.horizon_ms {
                own.defer_renewals(h);
            }
            self.rosters
                .insert(fleet.to_string(), (own, crate::time::now_ms()));
        }
        let (own, _) = self
            .rosters
            .get_mut(fleet)
            .ok_or_else(|| Error::internal("roster_vanished", "roster vanished"))?;
        Ok(own)
    }

    /// Write the rosters whose deferred renewals are due (every one that has any, in a
    /// process that does not defer), reading those this drain did not: `due` is what the
    /// last drain left, by fleet. Runs at the end of every drain, records or not.
    pub(super) fn flush_due(
        &mut self,
        due: &BTreeMap<String, i64>,
        report: &mut DrainReport,
    ) -> Result<()> {
        let now = self.lake_now();
        let defers = self.horizon_ms.is_some();
        let is_due = |at: i64| !defers || at <= now;
        let mut any = false;
        for (fleet, at) in due {
            if is_due(*at) && self.marked.contains(fleet) {
                self.roster(fleet)?;
            }
        }
        for (own, _) in self.rosters.values() {
            any |= own.due().is_some_and(is_due);
        }
        if any {
            self.flush(report, false)?;
        }
        Ok(())
    }

    /// What waits after this drain: the carried rosters' deadlines, and `before`'s for
    /// fleets this drain did not read.
    pub(super) fn due_after(&self, mut before: BTreeMap<String, i64>) -> BTreeMap<String, i64> {
        before.retain(|f, _| !self.rosters.contains_key(f));
        for (fleet, (own, _)) in &self.rosters {
            if let Some(at) = own.due() {
                before.insert(fleet.clone(), at);
            }
        }
        before
    }

    /// Write each changed roster (one PUT per fleet, all at once), keep the block's hook
    /// records as pending history, write the history that is due and name it in the
    /// feeds, then make the lake durable.
    /// `recheck`: this block's batch objects may have been cut differently by the run
    /// that crashed (see `batch::send`).
    pub(super) fn flush(&mut self, report: &mut DrainReport, recheck: bool) -> Result<()> {
        self.send_creates(report, recheck)?;
        let now = self.lake_now();
        let (mut puts, mut written) = (Vec::new(), Vec::new());
        for (fleet, (own, _)) in self.rosters.iter_mut() {
            if let Some(put) = own.prepare(&self.paths.spool, now)? {
                puts.push(put);
                written.push(fleet.clone());
            }
        }
        self.store.put_many(&puts)?;
        for fleet in written {
            if let Some((own, _)) = self.rosters.get_mut(&fleet) {
                own.landed();
            }
        }
        for (fleet, recs) in std::mem::take(&mut self.history) {
            history::append(&self.paths, &fleet, &recs)?;
        }
        let due = self.history_due()?;
        self.write_history(due)
    }

    /// Every fleet's history to write now (see `history::take_due`).
    pub(super) fn history_due(&self) -> Result<Vec<(String, Vec<Record>)>> {
        history::take_due(&self.paths, crate::time::now_ms(), self.force_history)
    }

    /// Create the `due` history objects, publish the feeds, make the lake durable; then
    /// give this host's mirror its own records (it never reads them back) and forget them.
    pub(super) fn write_history(&mut self, due: Vec<(String, Vec<Record>)>) -> Result<()> {
        let mut objects = Vec::new();
        if !due.is_empty() {
            let host = roster::host_id(&self.paths)?;
            for (fleet, recs) in &due {
                for (key, body) in history::objects(fleet, &host, recs)? {
                    self.feed
                        .entry(fleet.clone())
                        .or_default()
                        .push(key.clone());
                    objects.push((key, body));
                }
            }
        }
        self.store.create_many(&objects)?;
        let feeds = std::mem::take(&mut self.feed).into_iter().collect();
        crate::lake::watermark::publish_feeds(self.store, feeds)?;
        self.store.flush()?;
        let (url, now) = (self.store.url(), self.lake_now());
        for (fleet, recs) in due {
            crate::services::mirror::own_history(&self.paths, &url, &fleet, &recs, now)?;
            history::written(&self.paths, &fleet, &recs)?;
        }
        Ok(())
    }
}
