//! Spool → lake, at least once and idempotent by record id. Live spool files are sealed
//! by rename under their lock; each sealed file is drained under its lock (so a writer
//! that opened it before the rename finishes first), in chunks: apply, flush the lake,
//! then advance the watermark. A crash anywhere re-applies a chunk, which is a no-op.
//! Every lock wait is bounded: a file whose lock stays held is skipped with a note and
//! drained by a later sync.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::{Error, Result};
use crate::fleet::roster;
use crate::lake::store::Store;
use crate::paths::Paths;
use crate::spool::{self, lock};

mod apply;
mod carry;
pub(crate) mod history;

pub use carry::Carry;
#[cfg(test)]
pub(crate) use carry::FLEETS_EVERY_MS;
use carry::{Carried, ROSTER_REUSE_MS};

use apply::{Applied, Applier};

/// Spool bytes read, applied and flushed at a time (about 10k records): memory stays
/// bounded whatever the file's size.
#[cfg(not(test))]
const BLOCK: usize = 4 << 20;
/// Small in tests, so the simulation and the drain tests cross block boundaries (and
/// lines longer than a block) all the time.
#[cfg(test)]
const BLOCK: usize = 1024;

/// `BLOCK`, or in a debug build `CTXLAKE_TEST_DRAIN_BLOCK`: the three-host run drains in
/// small blocks so its `kill -9` lands between two flushes. Release builds never read it.
fn block_size() -> usize {
    #[cfg(debug_assertions)]
    if let Some(n) =
        crate::paths::var(crate::paths::env::TEST_DRAIN_BLOCK).and_then(|v| v.parse::<usize>().ok())
    {
        return n.max(64);
    }
    BLOCK
}

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
    /// What the person should hear about once (a host id shared with another home, a
    /// roster rebuilt); `cmd::sync` renders them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<roster::Warning>,
}

/// Drain every spool file into `store`, waiting at most `lock_wait` for each file's
/// lock. `progress(done, total)` is called per chunk. `carry` holds what earlier drains
/// of this process learnt; a failed drain forgets the rosters it carried.
pub fn drain(
    paths: &Paths,
    store: &dyn Store,
    lock_wait: Duration,
    carry: &mut Carry,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<DrainReport> {
    let rosters = std::mem::take(&mut carry.rosters);
    let due = carry.due.take().unwrap_or_else(|| roster::deferred(paths));
    let mut applier = Applier::new(store, paths, &mut carry.marked, rosters, carry.horizon_ms)?;
    applier.force_history = carry.history_now;
    let report = drain_with(paths, lock_wait, &mut applier, progress).and_then(|mut r| {
        applier.flush_due(&due, &mut r)?;
        Ok(r)
    });
    // Recorded even when the drain failed part way: what it applied is in the lake.
    crate::fleet::used::record(paths, &applier.used)?;
    let report = report?;
    carry.due = Some(applier.due_after(due));
    carry.rosters = std::mem::take(&mut applier.rosters);
    Ok(report)
}

fn drain_with(
    paths: &Paths,
    lock_wait: Duration,
    applier: &mut Applier,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<DrainReport> {
    let mut report = DrainReport::default();
    sweep_overflow_temps(&paths.spool);
    for f in spool::list_files(&paths.spool) {
        if !spool::is_sealed(&f) {
            seal(&f, lock_wait, &mut report)?;
        }
    }
    let mut files: Vec<PathBuf> = spool::list_files(&paths.spool)
        .into_iter()
        .filter(|f| spool::is_sealed(f))
        .collect();
    // Tool writes first (leases are what other hosts wait for), hook events after: a
    // tool file a failed drain left half done is redone, replacing its roster replay
    // window, before a hook event's roster write could carry that window again.
    files.sort_by_key(|f| f.starts_with(paths.spool_hooks_dir()));
    let total: u64 = files
        .iter()
        .filter_map(|f| fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    let mut done_bytes = 0u64;
    for f in files {
        let is_hook = f.starts_with(paths.spool_hooks_dir());
        let Some(file) = lock(&f, lock_wait, &mut report)? else {
            continue;
        };
        done_bytes += drain_file(paths, &f, &file, is_hook, applier, &mut report)?;
        progress(done_bytes as usize, total as usize);
    }
    // History comes due with time too, not only with new records.
    let due = applier.history_due()?;
    if !due.is_empty() {
        applier.write_history(due)?;
    }
    if !spool::list_files(&paths.spool)
        .iter()
        .any(|f| spool::is_sealed(f))
    {
        history::drop_windows(paths);
    }
    report.warnings = std::mem::take(&mut applier.warnings);
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
        .drain_watermarks()
        .join(format!("{}.offset", rel.display()))
}

/// Drain the sealed file `f`, whose lock `_locked` holds (so a writer that opened it
/// before it was sealed has finished). The file is read a block at a time, never whole:
/// each block's records are applied and flushed, then the watermark moves past them.
fn drain_file(
    paths: &Paths,
    f: &Path,
    _locked: &fs::File,
    is_hook: bool,
    applier: &mut Applier,
    report: &mut DrainReport,
) -> Result<u64> {
    let wm = watermark(paths, f);
    let (mut pos, redo) = read_mark(&wm);
    applier.held.clear();
    let mut file = fs::File::open(f).map_err(|e| Error::io("cannot read spool", f, e))?;
    applier.file = f
        .strip_prefix(&paths.spool)
        .unwrap_or(f)
        .display()
        .to_string();
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    report.files += 1;
    let mut block = block_size();
    while pos < size {
        let bytes = read_block(&mut file, f, pos, block)?;
        if bytes.is_empty() {
            break; // shorter than it was: nothing more to read
        }
        let at_end = pos + bytes.len() as u64 >= size;
        let scan = spool::scan(&bytes, 0);
        if scan.end_offset == 0 && !at_end {
            block *= 2; // one line longer than a block: read more
            continue;
        }
        report.bad_lines += scan.bad_lines;
        report.resynced += scan.resynced;
        report.skipped_bytes += scan.skipped_bytes;
        if at_end && scan.partial_tail_bytes > 0 {
            // Sealed: nobody will finish this line; it is a killed writer's torn record.
            report.torn_tails += 1;
            report.skipped_bytes += scan.partial_tail_bytes;
        }
        for rec in scan.records {
            report.records += 1;
            match applier.apply(rec, is_hook, report)? {
                Applied::Now => report.applied += 1,
                Applied::Before => report.already_applied += 1,
                // A create is counted when its batch is sent; a refused record was
                // counted as a bad line.
                Applied::Queued | Applied::Refused => {}
            }
        }
        if applier.has_creates() {
            write_mark(&wm, pos, true)?;
        }
        // A redo stays careful to the file's end: the crashed run may have cut its
        // blocks differently (another build's block size).
        applier.flush(report, redo)?;
        pos = if at_end { size } else { pos + scan.end_offset };
        // Only matters if a crash interrupts before the file is removed. A redo keeps
        // the mark open, so a crash during it is redone as carefully.
        write_mark(&wm, pos, redo)?;
        block = block_size();
    }
    fs::remove_file(f).map_err(|e| Error::io("cannot remove drained spool", f, e))?;
    let _ = fs::remove_file(&wm);
    Ok(size)
}

/// A spool file's watermark: the offset drained so far, and whether a flush of batch
/// objects past it was under way (a crash may have left some of them in the lake).
fn read_mark(wm: &Path) -> (u64, bool) {
    let text = fs::read_to_string(wm).unwrap_or_default();
    let mut words = text.split_whitespace();
    let pos = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
    (pos, words.next() == Some("open"))
}

fn write_mark(wm: &Path, pos: u64, open: bool) -> Result<()> {
    let text = if open {
        format!("{pos} open")
    } else {
        pos.to_string()
    };
    crate::fsutil::write_atomic(wm, text.as_bytes(), 0o600)
}

/// Up to `len` bytes of `f` from `pos`.
fn read_block(file: &mut fs::File, f: &Path, pos: u64, len: usize) -> Result<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut buf = Vec::with_capacity(len);
    file.seek(SeekFrom::Start(pos))
        .and_then(|_| file.by_ref().take(len as u64).read_to_end(&mut buf))
        .map_err(|e| Error::io("cannot read spool", f, e))?;
    Ok(buf)
}

#[cfg(test)]
mod tests;
