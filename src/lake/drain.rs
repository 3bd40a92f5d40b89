//! Spool → lake, at least once and idempotent by record id. Live spool files are sealed
//! by rename under their lock; each sealed file is drained under its lock (so a writer
//! that opened it before the rename finishes first), in chunks: apply, flush the lake,
//! then advance the watermark. A crash anywhere re-applies a chunk, which is a no-op.
//! Every lock wait is bounded: a file whose lock stays held is skipped with a note and
//! drained by a later sync.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::json;

use super::keys;
use super::presence::PresenceObj;
use super::store::{Created, Store};
use crate::error::{Error, Result};
use crate::paths::Paths;
use crate::spool::{self, Record, RecordKind, lock};

const CHUNK: usize = 10_000;

#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct DrainReport {
    pub files: usize,
    pub records: usize,
    pub applied: usize,
    pub already_applied: usize,
    pub bad_lines: usize,
    pub resynced: usize,
    pub skipped_bytes: u64,
    pub torn_tails: usize,
    pub secrets_rescrubbed: usize,
    /// Spool files left for the next sync because another process held their lock.
    pub busy: Vec<String>,
}

/// Drain every spool file into `store`, waiting at most `lock_wait` for each file's
/// lock. `progress(done, total)` is called per chunk.
pub fn drain(
    paths: &Paths,
    store: &dyn Store,
    lock_wait: Duration,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<DrainReport> {
    let mut report = DrainReport::default();
    sweep_overflow_temps(&paths.spool);
    for f in spool::list_files(&paths.spool) {
        if !spool::is_sealed(&f) {
            seal(&f, lock_wait, &mut report)?;
        }
    }
    let files: Vec<PathBuf> = spool::list_files(&paths.spool)
        .into_iter()
        .filter(|f| spool::is_sealed(f))
        .collect();
    let total: u64 = files
        .iter()
        .filter_map(|f| fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    let mut done_bytes = 0u64;
    let mut applier = Applier::new(store)?;
    for f in files {
        let is_hook = f.starts_with(paths.spool_hooks_dir());
        let Some(file) = lock(&f, lock_wait, &mut report)? else {
            continue;
        };
        done_bytes += drain_file(paths, &f, &file, is_hook, &mut applier, &mut report)?;
        progress(done_bytes as usize, total as usize);
    }
    Ok(report)
}

/// Remove hidden temp files of overflow segments whose writer died before the rename
/// (a hook cut by its watchdog mid-write): an hour old, nobody will finish them.
fn sweep_overflow_temps(dir: &Path) {
    crate::fsutil::sweep_temp_files(dir, Duration::from_secs(3600));
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            sweep_overflow_temps(&e.path());
        }
    }
}

/// Open `path` and lock it within `wait`. `None`: gone, or still locked at the deadline
/// (noted in the report with the holder; the next sync takes it).
fn lock(path: &Path, wait: Duration, report: &mut DrainReport) -> Result<Option<fs::File>> {
    let Ok(file) = fs::OpenOptions::new().append(true).open(path) else {
        return Ok(None);
    };
    if lock::lock_within(&file, wait).map_err(|e| lock::lock_failed(path, e))? {
        return Ok(Some(file));
    }
    let who = lock::holder(&file).map_or_else(|| "another process".into(), |h| h.to_string());
    report.busy.push(format!(
        "`{}` locked by {who} for over {} ms",
        path.display(),
        wait.as_millis()
    ));
    Ok(None)
}

/// Rename a live file aside while holding its lock: writers that opened it before the
/// rename either finished (we waited on the lock) or will see the inode change and reopen.
fn seal(path: &Path, wait: Duration, report: &mut DrainReport) -> Result<()> {
    let Some(file) = lock(path, wait, report)? else {
        return Ok(());
    };
    if file.metadata().map(|m| m.len()).unwrap_or(0) > 0 {
        spool::rotate(path);
    }
    Ok(())
}

fn watermark(paths: &Paths, file: &Path) -> PathBuf {
    let rel = file.strip_prefix(&paths.spool).unwrap_or(file);
    paths
        .state()
        .join("drain")
        .join(format!("{}.offset", rel.display()))
}

/// Drain the sealed file `f`, whose lock `_locked` holds (so a writer that opened it
/// before it was sealed has finished).
fn drain_file(
    paths: &Paths,
    f: &Path,
    _locked: &fs::File,
    is_hook: bool,
    applier: &mut Applier,
    report: &mut DrainReport,
) -> Result<u64> {
    let wm = watermark(paths, f);
    let from: u64 = fs::read_to_string(&wm)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    let bytes = fs::read(f).map_err(|e| Error::io("cannot read spool", f, e))?;
    let scan = spool::scan(&bytes, from);
    report.files += 1;
    report.bad_lines += scan.bad_lines;
    report.resynced += scan.resynced;
    report.skipped_bytes += scan.skipped_bytes;
    if scan.partial_tail_bytes > 0 {
        // Sealed: nobody will finish this line; it is a killed writer's torn record.
        report.torn_tails += 1;
        report.skipped_bytes += scan.partial_tail_bytes;
    }
    for chunk in scan.records.chunks(CHUNK) {
        for rec in chunk {
            report.records += 1;
            if applier.apply(rec.clone(), is_hook, report)? {
                report.applied += 1;
            } else {
                report.already_applied += 1;
            }
        }
        applier.flush()?;
    }
    // Everything is in the lake: the file can go. The watermark only matters if a
    // crash interrupts between here and the delete.
    crate::fsutil::write_atomic(&wm, scan.end_offset.to_string().as_bytes(), 0o600)?;
    fs::remove_file(f).map_err(|e| Error::io("cannot remove drained spool", f, e))?;
    let _ = fs::remove_file(&wm);
    Ok(bytes.len() as u64)
}

/// Applies records to the lake, batching presence writes and session segments.
struct Applier<'a> {
    store: &'a dyn Store,
    lake_offset_ms: i64,
    presences: HashMap<String, PresenceObj>,
    dirty: Vec<String>,
    segments: BTreeMap<(String, String, String), Vec<Record>>,
    fleets: std::collections::HashSet<String>,
    /// Per fleet, keys to name in its feed at the next flush (see `lake::watermark`).
    feed: BTreeMap<String, Vec<String>>,
}

impl<'a> Applier<'a> {
    fn new(store: &'a dyn Store) -> Result<Self> {
        let lake_offset_ms = store.now_ms()? - crate::time::now_ms();
        Ok(Applier {
            store,
            lake_offset_ms,
            presences: HashMap::new(),
            dirty: Vec::new(),
            segments: BTreeMap::new(),
            fleets: Default::default(),
            feed: BTreeMap::new(),
        })
    }

    fn lake_now(&self) -> i64 {
        crate::time::now_ms() + self.lake_offset_ms
    }

    /// Returns false when the record had been applied before.
    fn apply(&mut self, mut rec: Record, is_hook: bool, report: &mut DrainReport) -> Result<bool> {
        // The write boundary again before anything becomes permanent: a spool file may
        // come from an older build, or from a writer that is not ctxlake at all.
        report.secrets_rescrubbed +=
            crate::scrub::scrub(&mut rec.payload, crate::rules::MAX_TEXT_CHARS).redacted;
        if crate::scope::validate_id("fleet", &rec.fleet).is_err()
            || crate::scope::validate_id("agent", &rec.agent).is_err()
            || crate::scope::validate_id("session", &rec.session).is_err()
        {
            report.bad_lines += 1;
            return Ok(false);
        }
        if self.fleets.insert(rec.fleet.clone()) {
            self.store.create(&keys::fleet_marker(&rec.fleet), b"")?;
        }
        match rec.kind {
            RecordKind::FleetHandoff => {
                let p = &rec.payload;
                let note = json!({
                    "id": rec.id, "at": rec.ts, "agent": rec.agent, "session": rec.session,
                    "repo": p["repo"], "summary": p["summary"], "status": p["status"], "next": p["next"],
                });
                self.create(&rec.fleet, keys::handoff(&rec.fleet, &rec.id), &note)
            }
            RecordKind::MemoryPropose | RecordKind::MemoryShown | RecordKind::MemoryOperator => {
                let ev = json!({
                    "id": rec.id, "at": rec.ts, "kind": rec.kind, "agent": rec.agent,
                    "session": rec.session, "payload": rec.payload,
                });
                self.create(&rec.fleet, keys::claim_event(&rec.fleet, &rec.id), &ev)
            }
            _ => {
                if is_hook {
                    let k = (rec.fleet.clone(), rec.agent.clone(), rec.session.clone());
                    self.segments.entry(k).or_default().push(rec.clone());
                }
                self.apply_presence(&rec)
            }
        }
    }

    /// Create a record's own object; one that landed late is also named in the feed,
    /// so watermark readers find it. Returns whether this call created it.
    fn create(&mut self, fleet: &str, key: String, v: &serde_json::Value) -> Result<bool> {
        let created = self.store.create(&key, &to_bytes(v))?;
        let landed = match created {
            Created::Yes(at) => at,
            // Ours from an earlier try, or found now: it landed no later than now.
            Created::Exists => self.lake_now(),
        };
        if super::watermark::is_late(&key, landed) {
            self.feed.entry(fleet.to_string()).or_default().push(key);
        }
        Ok(matches!(created, Created::Yes(_)))
    }

    fn apply_presence(&mut self, rec: &Record) -> Result<bool> {
        let key = keys::presence(&rec.fleet, &rec.agent, &rec.session);
        if !self.presences.contains_key(&key) {
            let existing = match self.store.get(&key)? {
                Some((b, _)) => {
                    serde_json::from_slice(&b).unwrap_or_else(|_| PresenceObj::new(rec))
                }
                None => PresenceObj::new(rec),
            };
            self.presences.insert(key.clone(), existing);
        }
        let now = self.lake_now();
        let p = self
            .presences
            .get_mut(&key)
            .ok_or_else(|| Error::internal("presence_vanished", "presence vanished"))?;
        let changed = p.apply(rec, now);
        if !self.dirty.contains(&key) {
            self.dirty.push(key);
        }
        Ok(changed)
    }

    /// Write batched presences (every touched one: its mtime is its heartbeat) and
    /// segments, then make the lake durable.
    fn flush(&mut self) -> Result<()> {
        for key in std::mem::take(&mut self.dirty) {
            if let Some(p) = self.presences.get(&key) {
                self.store.put(&key, &to_bytes(p))?;
            }
        }
        for ((fleet, agent, session), recs) in std::mem::take(&mut self.segments) {
            let (Some(first), Some(last)) = (recs.first(), recs.last()) else {
                continue;
            };
            let key = keys::session_segment(&fleet, &agent, &session, &first.id, &last.id);
            let body: Vec<u8> = recs.iter().flat_map(spool::encode).collect();
            self.store.create(&key, &body)?;
            self.feed.entry(fleet).or_default().push(key);
        }
        for (fleet, keys) in std::mem::take(&mut self.feed) {
            super::watermark::publish_feed(self.store, &fleet, keys)?;
        }
        self.store.flush()
    }
}

fn to_bytes<T: serde::Serialize>(v: &T) -> Vec<u8> {
    serde_json::to_vec(v).unwrap_or_default()
}
