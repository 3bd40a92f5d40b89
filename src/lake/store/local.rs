//! The lake as a local directory: keys are file paths under its root, create-if-absent
//! is `link(2)`, and only regular files are objects (see `get`), reached only through
//! real directories (`beneath`).

use std::fs;
use std::path::{Path, PathBuf};

use super::beneath::{self, Dirs};
use super::regular::{self, mtime_ms};
use super::stage;
use super::{Created, Object, Skip, SkipCounter, Skips, Store};
use crate::error::{Error, Result};

pub struct LocalStore {
    root: PathBuf,
    /// Created since the last flush (not yet fsynced).
    pending: std::sync::Mutex<Vec<PathBuf>>,
    skips: SkipCounter,
}

/// Above this many pending files one syncfs beats one fsync each.
const SYNCFS_ABOVE: usize = 256;

impl LocalStore {
    pub fn open(root: &Path) -> Result<LocalStore> {
        fs::create_dir_all(root).map_err(|e| Error::io("cannot create the lake", root, e))?;
        Ok(LocalStore {
            root: root.to_path_buf(),
            pending: Default::default(),
            skips: SkipCounter::default(),
        })
    }

    /// Publish staged `tmp` as `p` if `p` is absent, and drop `tmp` either way.
    fn link(&self, tmp: &Path, p: PathBuf) -> Result<Created> {
        // link(2) fails with EEXIST if the name is taken: an atomic create-if-absent.
        let r = fs::hard_link(tmp, &p);
        let _ = fs::remove_file(tmp);
        match r {
            Ok(()) => {
                let at = fs::metadata(&p).map(|m| mtime_ms(&m)).unwrap_or(0);
                self.pending
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(p);
                Ok(Created::Yes(at))
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(Created::Exists),
            Err(e) => Err(Error::io("cannot create lake object", &p, e)),
        }
    }

    fn path(&self, key: &str) -> Result<PathBuf> {
        crate::lake::keys::validate(key)?;
        Ok(self.root.join(key))
    }

    /// Whether the objects in `folder` may be read: every directory on the way is a real
    /// one. A refused folder (a symlink, a file) is counted; a missing one holds nothing.
    fn readable(&self, folder: &str) -> bool {
        match beneath::dirs(&self.root, folder) {
            Dirs::Real(_) => true,
            Dirs::Missing(_) => false,
            Dirs::Refused(_) => {
                self.skips.add(Skip::NotRegular);
                false
            }
        }
    }

    /// `key`'s path for a write or a delete: refused when a directory on the way is a
    /// symlink, which would land the write (or the delete) outside the lake.
    fn writable(&self, key: &str) -> Result<PathBuf> {
        let p = self.path(key)?;
        if let Dirs::Refused(d) = beneath::dirs(&self.root, beneath::folder(key)) {
            return Err(Error::storage(
                "lake_symlink",
                format!("`{}` in the lake is not a directory", d.display()),
            )
            .hint("a lake holds only real directories and files: remove that entry"));
        }
        Ok(p)
    }
}

impl LocalStore {
    /// `list`, or with `after` `list_after`. An entry whose name alone places it (and,
    /// for a folder, everything under it) at or before the watermark is dropped before
    /// any stat: listing after the last of 100k keys stats none of them.
    fn walk(&self, prefix: &str, after: Option<&str>) -> Result<Vec<Object>> {
        let dir_part = prefix.rfind('/').map_or("", |i| &prefix[..i]);
        if !dir_part.is_empty() {
            crate::lake::keys::validate(dir_part)?;
        }
        let mut out = Vec::new();
        let start = match beneath::dirs(&self.root, dir_part) {
            Dirs::Real(p) => p,
            Dirs::Missing(_) => return Ok(out),
            Dirs::Refused(_) => {
                self.skips.add(Skip::NotRegular);
                return Ok(out);
            }
        };
        let Some(first) = within(dir_part, after) else {
            return Ok(out); // every key under `dir_part` is at or before `after`
        };
        let mut stack = vec![(start, dir_part.to_string(), first)];
        // `after`: `after` as seen from inside `dir` (compared with bare names, so a
        // skipped entry costs no key string); `None`: every key there sorts after it.
        while let Some((dir, key_dir, after)) = stack.pop() {
            let rd = match fs::read_dir(&dir) {
                Ok(rd) => rd,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(Error::io("cannot list", &dir, e)),
            };
            for e in rd.flatten() {
                let Ok(name) = e.file_name().into_string() else {
                    continue;
                };
                if name.starts_with('.') {
                    continue; // staged temp files
                }
                if name.chars().any(char::is_control) {
                    // No key may name it (`keys::validate`): asked for later, it would
                    // fail a whole round of reads.
                    self.skips.add(Skip::BadKey);
                    continue;
                }
                let (as_object, as_folder) = match after {
                    Some(a) => (name.as_str() > a, folder_may_pass(&name, a)),
                    None => (true, true),
                };
                if !as_object && !as_folder {
                    continue;
                }
                let key = if key_dir.is_empty() {
                    name.clone()
                } else {
                    format!("{key_dir}/{name}")
                };
                // The entry's type comes with the directory listing (no stat on Linux
                // filesystems that fill `d_type`); only a returned object is statted.
                let Ok(kind) = e.file_type() else { continue };
                if kind.is_dir() {
                    let dkey = format!("{key}/");
                    let inner = within(&name, after);
                    if let Some(inner) = inner.filter(|_| as_folder)
                        && (dkey.starts_with(prefix) || prefix.starts_with(&dkey))
                    {
                        stack.push((e.path(), key, inner));
                    }
                } else if as_object && key.starts_with(prefix) {
                    // A symlink (to `/dev/zero`, a private file, a directory), a FIFO or a
                    // device is no object: never followed, never read.
                    if !kind.is_file() {
                        self.skips.add(Skip::NotRegular);
                        continue;
                    }
                    let Ok(m) = stat(&e) else { continue };
                    out.push(Object {
                        key,
                        size: m.len(),
                        mtime_ms: mtime_ms(&m),
                        tag: tag(&m),
                    });
                }
            }
        }
        out.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(out)
    }
}

/// `after` as seen from inside folder `dir` (a key, or a name relative to where `after`
/// already is): `Some(Some(rest))` names there compare with `rest`, `Some(None)` every
/// key there sorts after `after`, `None` none does.
fn within<'a>(dir: &str, after: Option<&'a str>) -> Option<Option<&'a str>> {
    let Some(a) = after else {
        return Some(None);
    };
    if dir.is_empty() {
        return Some(Some(a));
    }
    match a.strip_prefix(dir).and_then(|r| r.strip_prefix('/')) {
        Some(rest) => Some(Some(rest)),
        None => folder_may_pass(dir, a).then_some(None),
    }
}

/// Whether some key under folder `key/` can sort after `after`: some may when `after`
/// lies inside the folder, every one does when `key/` sorts after `after`, and none
/// can otherwise (they all diverge from `after` where `key/` does, on the lower side).
fn folder_may_pass(key: &str, after: &str) -> bool {
    match after.strip_prefix(key) {
        // `/` next: inside; below `/` (or nothing): `key/` sorts after `after`.
        Some(rest) => rest.bytes().next().is_none_or(|b| b <= b'/'),
        None => key > after,
    }
}

#[cfg(test)]
thread_local! {
    /// Stat calls made by `walk` on this thread (the tests count them).
    static STATS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// `Object::tag` of a local file: every write publishes a new file (a rename or a link),
/// so its inode and nanosecond time tell versions apart.
fn tag(m: &fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let mut id = [0u8; 24];
    id[..8].copy_from_slice(&m.ino().to_le_bytes());
    id[8..16].copy_from_slice(&m.mtime().to_le_bytes());
    id[16..].copy_from_slice(&m.mtime_nsec().to_le_bytes());
    crate::digest::fnv1a64(&id)
}

fn stat(e: &fs::DirEntry) -> std::io::Result<fs::Metadata> {
    #[cfg(test)]
    STATS.with(|n| n.set(n.get() + 1));
    e.metadata()
}

impl Store for LocalStore {
    fn url(&self) -> String {
        format!("file://{}", self.root.display())
    }

    fn get(&self, key: &str) -> Result<Option<(Vec<u8>, i64)>> {
        let p = self.path(key)?;
        if !self.readable(beneath::folder(key)) {
            return Ok(None);
        }
        regular::read(&p, crate::lake::keys::cap(key), &self.skips)
    }

    /// `get` of each key, with each folder's directories checked once for the whole
    /// batch instead of once per key (a first fold reads 100k objects from one folder).
    fn get_many(&self, keys: &[String]) -> Result<Vec<Option<super::Got>>> {
        let mut checked: Option<(&str, bool)> = None;
        let mut out = Vec::with_capacity(keys.len());
        for key in keys {
            let p = self.path(key)?;
            let folder = beneath::folder(key);
            let readable = match checked {
                Some((f, readable)) if f == folder => readable,
                _ => {
                    let readable = self.readable(folder);
                    checked = Some((folder, readable));
                    readable
                }
            };
            out.push(if readable {
                regular::read(&p, crate::lake::keys::cap(key), &self.skips)?
            } else {
                None
            });
        }
        Ok(out)
    }

    fn put(&self, key: &str, bytes: &[u8]) -> Result<i64> {
        let p = self.writable(key)?;
        let tmp = stage::bytes(&self.root, &p, bytes, true)?;
        fs::rename(&tmp, &p).map_err(|e| Error::io("cannot publish", &p, e))?;
        crate::fsutil::sync_dir(p.parent().unwrap_or(&self.root))?;
        Ok(fs::metadata(&p).map(|m| mtime_ms(&m)).unwrap_or(0))
    }

    fn create(&self, key: &str, bytes: &[u8]) -> Result<Created> {
        let p = self.writable(key)?;
        // Bulk creates are made durable together by `flush` (one syncfs, not one fsync each).
        let tmp = stage::bytes(&self.root, &p, bytes, false)?;
        self.link(&tmp, p)
    }

    fn create_file(&self, key: &str, path: &Path) -> Result<Created> {
        let p = self.writable(key)?;
        // A copy (the kernel's), never a link: the caller may change its file afterwards.
        let tmp = stage::copy(&self.root, &p, path)?;
        self.link(&tmp, p)
    }

    fn list(&self, prefix: &str) -> Result<Vec<Object>> {
        self.walk(prefix, None)
    }

    fn list_after(&self, prefix: &str, after: &str) -> Result<Vec<Object>> {
        self.walk(prefix, Some(after))
    }

    fn delete(&self, key: &str) -> Result<()> {
        let p = self.writable(key)?;
        match fs::remove_file(&p) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(Error::io("cannot delete", &p, e)),
        }
    }

    fn now_ms(&self) -> Result<i64> {
        // Same machine, same clock as file mtimes.
        Ok(crate::time::now_ms())
    }

    fn skipped(&self) -> Skips {
        self.skips.get()
    }

    fn flush(&self) -> Result<()> {
        let pending = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|p| p.into_inner()));
        if pending.len() <= SYNCFS_ABOVE {
            let mut dirs: Vec<&Path> = Vec::new();
            for p in &pending {
                match fs::File::open(p).and_then(|f| f.sync_all()) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue, // deleted since
                    Err(e) => return Err(Error::io("cannot fsync", p, e)),
                }
                if let Some(d) = p.parent().filter(|d| !dirs.contains(d)) {
                    dirs.push(d);
                }
            }
            return dirs.into_iter().try_for_each(crate::fsutil::sync_dir);
        }
        // syncfs(2) on the lake's filesystem via coreutils: one barrier for a big batch.
        let ok = std::process::Command::new("sync")
            .arg("-f")
            .arg(&self.root)
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            Ok(())
        } else {
            Err(Error::storage(
                "flush",
                format!("cannot flush the lake `{}` to disk", self.root.display()),
            )
            .hint("check that `sync` (coreutils) is on PATH and the disk is healthy"))
        }
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
