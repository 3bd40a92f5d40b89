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

    fn list_keys(&self, prefix: &str, after: Option<&str>) -> Result<Vec<String>> {
        let mut keys = Vec::new();
        self.visit(prefix, after, &mut |key, _| keys.push(key))?;
        keys.sort_unstable();
        Ok(keys)
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

#[path = "local_walk.rs"]
mod walk;

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
