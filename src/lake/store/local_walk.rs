//! Listing a local lake: a walk of its folders that skips, by name alone, what sorts at
//! or before a watermark, and stats only the objects `list` returns (`list_keys` none).

use std::fs;

use super::beneath::{self, Dirs};
use super::regular::mtime_ms;
use super::{LocalStore, Object, Skip};
use crate::error::{Error, Result};

impl LocalStore {
    /// `list`, or with `after` `list_after`. An entry whose name alone places it (and,
    /// for a folder, everything under it) at or before the watermark is dropped before
    /// any stat: listing after the last of 100k keys stats none of them.
    pub(super) fn walk(&self, prefix: &str, after: Option<&str>) -> Result<Vec<Object>> {
        let mut out = Vec::new();
        self.visit(prefix, after, &mut |key, e| {
            if let Ok(m) = stat(e) {
                out.push(Object {
                    key,
                    size: m.len(),
                    mtime_ms: mtime_ms(&m),
                    tag: tag(&m),
                });
            }
        })?;
        out.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(out)
    }

    /// The regular files under `prefix` (after `after`), each handed to `found` with its
    /// directory entry, in no order.
    pub(super) fn visit(
        &self,
        prefix: &str,
        after: Option<&str>,
        found: &mut dyn FnMut(String, &fs::DirEntry),
    ) -> Result<()> {
        let dir_part = prefix.rfind('/').map_or("", |i| &prefix[..i]);
        if !dir_part.is_empty() {
            crate::lake::keys::validate(dir_part)?;
        }
        let start = match beneath::dirs(&self.root, dir_part) {
            Dirs::Real(p) => p,
            Dirs::Missing(_) => return Ok(()),
            Dirs::Refused(_) => {
                self.skips.add(Skip::NotRegular);
                return Ok(());
            }
        };
        let Some(first) = within(dir_part, after) else {
            return Ok(()); // every key under `dir_part` is at or before `after`
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
                // filesystems that fill `d_type`); `walk` stats only the objects it
                // returns, `list_keys` none.
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
                    found(key, &e);
                }
            }
        }
        Ok(())
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
    pub(super) static STATS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
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
