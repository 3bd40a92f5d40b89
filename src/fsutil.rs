//! Durable file writes: temp file → fsync → rename → fsync the directory; atomic but
//! not durable ones for caches that are rebuilt anyway; and the sweep of temp files a
//! killed writer left behind.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

use crate::error::{Error, Result};

const TMP_MARK: &str = ".tmp-";

/// The bytes of `path`, unless it is larger than `cap` (`Ok(None)`), judged from its
/// size before a byte is read and never reading past `cap`.
pub fn read_capped(path: &Path, cap: u64) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let f = File::open(path)?;
    let len = f.metadata()?.len();
    if len > cap {
        return Ok(None);
    }
    let mut b = Vec::with_capacity(len as usize);
    f.take(cap + 1).read_to_end(&mut b)?;
    Ok((b.len() as u64 <= cap).then_some(b))
}

/// Replace `path` with `bytes` atomically. Keeps the mode of an existing file, else `mode`.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: u32) -> Result<()> {
    replace(path, bytes, mode, true)
}

/// Replace `path` with `bytes` atomically, without waiting for the disk: for cache files
/// that every sync pass rebuilds from the lake. Readers still see the old file or the new
/// one, never a mix; a crash may leave an old, empty or missing file, which readers report
/// and the next pass rewrites. Two fsyncs each cost 10–25 ms on a disk busy with a build,
/// and a pass writes a handful of these per fleet. Never use it for the spool, config,
/// watermarks or anything the lake cannot give back.
pub(crate) fn write_rebuildable(path: &Path, bytes: &[u8], mode: u32) -> Result<()> {
    replace(path, bytes, mode, false)
}

/// `write_atomic` of what `fill` writes, without holding it: a fold state of 100k claims
/// is ~55 MB of JSON. `fill` gets a buffered writer.
pub fn write_atomic_with(
    path: &Path,
    mode: u32,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    replace_with(path, mode, true, |f| {
        let mut w = std::io::BufWriter::with_capacity(1 << 16, f);
        fill(&mut w)?;
        w.flush()
    })
}

fn replace(path: &Path, bytes: &[u8], mode: u32, durable: bool) -> Result<()> {
    replace_with(path, mode, durable, |f| f.write_all(bytes))
}

fn replace_with(
    path: &Path,
    mode: u32,
    durable: bool,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<()> {
    let dir = parent(path);
    fs::create_dir_all(dir).map_err(|e| Error::io("cannot create directory", dir, e))?;
    let mode = fs::metadata(path)
        .map(|m| m.permissions().mode() & 0o7777)
        .unwrap_or(mode);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = dir.join(format!(
        ".{name}{TMP_MARK}{}-{}",
        std::process::id(),
        nonce()
    ));
    let result = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&tmp)
            .map_err(|e| Error::io("cannot create", &tmp, e))?;
        fill(&mut f).map_err(|e| Error::io("cannot write", &tmp, e))?;
        f.set_permissions(fs::Permissions::from_mode(mode))
            .map_err(|e| Error::io("cannot set mode of", &tmp, e))?;
        if !durable {
            return fs::rename(&tmp, path).map_err(|e| Error::io("cannot replace", path, e));
        }
        fsync(&f, &tmp, "cannot fsync")?;
        fs::rename(&tmp, path).map_err(|e| Error::io("cannot replace", path, e))?;
        sync_dir(dir)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Remove the file at `path`; one already gone is not an error.
pub fn remove_if_present(path: &Path) -> Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(Error::io("cannot remove", path, e))
        }
        _ => Ok(()),
    }
}

/// fsync a directory so a rename or create in it survives a crash.
pub fn sync_dir(dir: &Path) -> Result<()> {
    let d = File::open(dir).map_err(|e| Error::io("cannot fsync directory", dir, e))?;
    fsync(&d, dir, "cannot fsync directory")
}

fn fsync(f: &File, path: &Path, what: &str) -> Result<()> {
    #[cfg(test)]
    FSYNCS.with(|n| n.set(n.get() + 1));
    f.sync_all().map_err(|e| Error::io(what, path, e))
}

#[cfg(test)]
thread_local! {
    /// fsyncs made by this thread, so a test can tell a durable write from a cache write.
    pub(crate) static FSYNCS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Remove temp files older than `max_age` left by writers that died mid-write.
/// Open (creating, never truncating) the lock file at `path`, for `flock`.
pub(crate) fn open_lock(path: &Path) -> Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|e| crate::error::Error::io("cannot open lock", path, e))
}

pub fn sweep_temp_files(dir: &Path, max_age: std::time::Duration) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut n = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !name.starts_with('.') || !name.contains(TMP_MARK) {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= max_age);
        if old && fs::remove_file(entry.path()).is_ok() {
            n += 1;
        }
    }
    n
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A short random hex string for unique temp names.
pub fn nonce() -> String {
    let mut b = [0u8; 6];
    crate::ulid::fill_random(&mut b);
    crate::digest::hex(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_keeps_mode() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a.toml");
        write_atomic(&p, b"one", 0o600).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"one");
        fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&p, b"two", 0o600).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o640
        );
        let leftovers: Vec<_> = fs::read_dir(d.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1);
    }

    /// A streamed write lands whole (and durable) or not at all: a writer that fails
    /// halfway leaves the old file and no temp file.
    #[test]
    fn a_streamed_atomic_write_lands_whole_or_not_at_all() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("state.fold");
        let big = vec![b'x'; 200_000];
        write_atomic_with(&p, 0o600, |w| w.write_all(&big)).unwrap();
        assert_eq!(fs::read(&p).unwrap(), big);
        let e = write_atomic_with(&p, 0o600, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("serializer failed"))
        });
        assert!(e.is_err());
        assert_eq!(fs::read(&p).unwrap(), big, "the old file stays");
        assert_eq!(
            fs::read_dir(d.path()).unwrap().count(),
            1,
            "no temp file left"
        );
    }

    #[test]
    fn a_rebuildable_write_replaces_atomically_without_fsync() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("roster.json");
        let fsyncs = || FSYNCS.with(|n| n.get());
        let before = fsyncs();
        write_atomic(&p, b"one", 0o600).unwrap();
        assert_eq!(fsyncs() - before, 2, "the file and its directory");
        let before = fsyncs();
        write_rebuildable(&p, b"two", 0o600).unwrap();
        assert_eq!(fsyncs(), before, "a cache write waits for no disk");
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let leftovers: Vec<_> = fs::read_dir(d.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temp file left");
    }

    #[test]
    fn sweep_removes_only_old_temp_files() {
        let d = tempfile::tempdir().unwrap();
        fs::write(d.path().join(".a.toml.tmp-1-abc"), b"x").unwrap();
        fs::write(d.path().join("keep.json"), b"x").unwrap();
        assert_eq!(
            sweep_temp_files(d.path(), std::time::Duration::from_secs(3600)),
            0
        );
        assert_eq!(sweep_temp_files(d.path(), std::time::Duration::ZERO), 1);
        assert!(d.path().join("keep.json").exists());
    }
}
