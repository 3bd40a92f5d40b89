//! Appending one record: one `write()` under the file's lock, taken within a deadline.
//! Past it a hook writes a lock-free overflow segment instead, and a CLI/MCP write fails
//! naming the holder. A write that fails part-way is cut back off, so no torn record stays.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::lock;
use super::{Record, encode};
use crate::error::{Error, Result};

/// Size limits for one spool directory.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Refuse a write that would take the directory past this many bytes.
    pub max_dir_bytes: u64,
    /// Rotate (rename aside) a file that has grown past this many bytes.
    pub rotate_bytes: u64,
}

impl Limits {
    /// The spool caps from the settings, for every writer (tools, hook, operator verbs).
    pub fn of(config: &crate::config::Config) -> Limits {
        Limits {
            max_dir_bytes: config.spool_max_bytes,
            rotate_bytes: config.spool_rotate_bytes,
        }
    }
}

/// What to do when the spool file's lock is held by someone else.
#[derive(Debug, Clone, Copy)]
pub enum Wait {
    /// Try for this long, then write the record to a fresh overflow segment (the hook,
    /// and best-effort records written by reads: nobody waits, nothing is lost).
    Overflow(Duration),
    /// Wait at most this long, then fail naming the holder (CLI and MCP writes).
    Fail(Duration),
}

/// Where a record landed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Landed {
    Live,
    /// The live file stayed locked; the record is in this overflow segment.
    Overflow(PathBuf),
}

/// Append `rec` to `path` as one `write()` under an exclusive lock, then (if `durable`)
/// fsync. The lock orders writers against `sync`'s rotation; it does not make the write
/// atomic under SIGKILL — the reader's resync does that.
pub fn append(
    path: &Path,
    rec: &Record,
    limits: Limits,
    durable: bool,
    wait: Wait,
) -> Result<Landed> {
    let line = encode(rec)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    if !dir.exists() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| Error::io("cannot create spool directory", dir, e))?;
    }
    check_room(dir, line.len() as u64, limits)?;
    if fs::metadata(path).is_ok_and(|m| m.len() >= limits.rotate_bytes) {
        rotate(path);
    }
    let file = match (open_locked(path, wait)?, wait) {
        (Some(f), _) => f,
        (None, Wait::Overflow(_)) => {
            return write_overflow(path, &line, durable).map(Landed::Overflow);
        }
        (None, Wait::Fail(d)) => {
            let f = open_append(path)?;
            return Err(lock::busy(path, &f, d));
        }
    };
    write_whole(&file, path, &line)?;
    if durable {
        file.sync_data()
            .map_err(|e| Error::io("cannot fsync", path, e))?;
    }
    Ok(Landed::Live)
}

fn check_room(dir: &Path, len: u64, limits: Limits) -> Result<()> {
    let used = super::dir_bytes(dir);
    if used + len <= limits.max_dir_bytes {
        return Ok(());
    }
    Err(Error::refused(
        "spool_full",
        format!(
            "the spool `{}` holds {} of its {} limit; this write was not queued",
            dir.display(),
            super::human_bytes(used),
            super::human_bytes(limits.max_dir_bytes)
        ),
    )
    .hint("run `ctxlake sync` to drain it into the lake (or raise `[limits] spool_max_bytes`)"))
}

/// One `write()` of `line` under the lock; on failure or a short write, cut the file back
/// to its length before the write, so a full disk or a file-size limit leaves no torn
/// record behind. Never write the remainder with a second call: under the lock it would
/// be safe, but a killed writer's half line is the reader's job, not ours to extend.
fn write_whole(file: &File, path: &Path, line: &[u8]) -> Result<()> {
    let before = file
        .metadata()
        .map_err(|e| Error::io("cannot stat spool", path, e))?
        .len();
    let failure = match (&*file).write(line) {
        Ok(n) if n == line.len() => return Ok(()),
        Ok(n) => Error::storage(
            "short_write",
            format!(
                "cannot append to `{}`: only {n} of {} bytes fit",
                path.display(),
                line.len()
            ),
        )
        .hint("free some disk space or raise the file size limit (`ulimit -f`), then retry"),
        Err(e) => Error::io("cannot append to", path, e),
    };
    if let Err(e) = file.set_len(before) {
        return Err(failure.hint(format!(
            "the partial record could not be removed ({e}); readers skip it, `ctxlake spool check` counts it"
        )));
    }
    Err(failure)
}

fn open_append(path: &Path) -> Result<File> {
    OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| Error::io("cannot open spool", path, e))
}

/// Open for append and lock within the deadline; reopen if `sync` renamed the file
/// between our open and lock. `None`: the lock stayed held past the deadline.
fn open_locked(path: &Path, wait: Wait) -> Result<Option<File>> {
    let (Wait::Overflow(d) | Wait::Fail(d)) = wait;
    let deadline = Instant::now() + d;
    for _ in 0..8 {
        let file = open_append(path)?;
        let left = deadline.saturating_duration_since(Instant::now());
        if !lock::lock_within(&file, left).map_err(|e| lock::lock_failed(path, e))? {
            return Ok(None);
        }
        let same = match (file.metadata(), fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.ino() == b.ino() && a.dev() == b.dev(),
            _ => false,
        };
        if same {
            return Ok(Some(file));
        }
    }
    Err(Error::storage(
        "spool_busy",
        format!("`{}` kept moving while opening it", path.display()),
    )
    .hint("is `ctxlake sync` rotating in a loop? retry in a moment"))
}

/// Write `line` as the whole of a new segment `<stem>.overflow-<ulid>.ndjson` beside
/// `path`, needing no lock: it is written under a hidden temp name (which readers never
/// list) and renamed into place, so `sync` sees it complete or not at all.
fn write_overflow(path: &Path, line: &[u8], durable: bool) -> Result<PathBuf> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("spool");
    let name = format!("{stem}.{}{}.ndjson", super::OVERFLOW, crate::ulid::new());
    let target = dir.join(&name);
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)
            .map_err(|e| Error::io("cannot create overflow segment", &tmp, e))?;
        f.write_all(line)
            .map_err(|e| Error::io("cannot write overflow segment", &tmp, e))?;
        if durable {
            f.sync_data()
                .map_err(|e| Error::io("cannot fsync", &tmp, e))?;
        }
        fs::rename(&tmp, &target).map_err(|e| Error::io("cannot place", &target, e))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map(|()| target)
}

/// Write `recs` as one new sealed file `<dir>/<stem>.<ulid>.ndjson` (fsynced, placed by
/// rename, so `sync` drains it whole or not at all). For a writer with many records at
/// once (`ctxlake import`): no lock, no append, one file per batch.
pub fn write_sealed(dir: &Path, stem: &str, recs: &[Record], limits: Limits) -> Result<PathBuf> {
    let bytes = super::encode_all(recs)?;
    if !dir.exists() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| Error::io("cannot create spool directory", dir, e))?;
    }
    check_room(dir, bytes.len() as u64, limits)?;
    write_overflow(&dir.join(format!("{stem}.ndjson")), &bytes, true).map(|seg| {
        // An overflow segment's name marks it as one: this batch is a plain sealed file.
        let plain = dir.join(format!("{stem}.{}.ndjson", crate::ulid::new()));
        match fs::rename(&seg, &plain) {
            Ok(()) => plain,
            Err(_) => seg,
        }
    })
}

/// Rename a full spool file aside (`<stem>.<ulid>.ndjson`); readers drain sealed files.
/// Losing the race to another rotator is fine.
pub fn rotate(path: &Path) -> Option<PathBuf> {
    let stem = path.file_stem()?.to_str()?;
    let sealed = path.with_file_name(format!("{stem}.{}.ndjson", crate::ulid::new()));
    fs::rename(path, &sealed).ok().map(|_| sealed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spool::{list_files, read_file};
    use serde_json::Value;

    fn rec(n: usize) -> Record {
        crate::spool::tests::rec(n, Value::Null)
    }

    const WAIT: Wait = Wait::Fail(Duration::from_secs(2));

    #[test]
    fn append_refuses_over_cap_and_rotates() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("mcp/f.ndjson");
        let small = Limits {
            max_dir_bytes: 10_000,
            rotate_bytes: 600,
        };
        for i in 0..5 {
            append(&p, &rec(i), small, true, WAIT).unwrap();
        }
        assert!(list_files(d.path()).len() >= 2, "rotated");
        let all: usize = list_files(d.path())
            .iter()
            .map(|f| read_file(f, 0).unwrap().records.len())
            .sum();
        assert_eq!(all, 5);
        let tiny = Limits {
            max_dir_bytes: 100,
            rotate_bytes: 600,
        };
        let e = append(&p, &rec(9), tiny, true, WAIT).unwrap_err();
        assert_eq!(e.code, "spool_full");
        assert!(e.hint.unwrap().contains("ctxlake sync"));
    }

    #[test]
    fn a_held_lock_overflows_or_fails_within_the_deadline() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("hooks/s.ndjson");
        let big = Limits {
            max_dir_bytes: 1 << 20,
            rotate_bytes: 1 << 20,
        };
        append(&p, &rec(1), big, false, WAIT).unwrap();
        let held = File::open(&p).unwrap();
        held.lock().unwrap();
        let quick = Duration::from_millis(30);
        let landed = append(&p, &rec(2), big, false, Wait::Overflow(quick)).unwrap();
        let Landed::Overflow(seg) = landed else {
            panic!("expected an overflow segment")
        };
        assert!(super::super::is_sealed(&seg), "{}", seg.display());
        assert_eq!(read_file(&seg, 0).unwrap().records, vec![rec(2)]);
        let e = append(&p, &rec(3), big, true, Wait::Fail(quick)).unwrap_err();
        assert_eq!(e.code, "spool_locked");
        assert!(e.hint.unwrap().contains("ctxlake spool check"));
        assert_eq!(read_file(&p, 0).unwrap().records, vec![rec(1)]);
        // Only the live file and the segment: no temp file left behind.
        assert_eq!(fs::read_dir(p.parent().unwrap()).unwrap().count(), 2);
    }
}
