//! Staging a local lake object: a unique temp file beside its key, written from bytes
//! or copied from a file, which `LocalStore` then renames or links into place.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// A unique temp file name in `path`'s directory (created if missing; `root` if none).
fn temp_beside(root: &Path, path: &Path) -> Result<PathBuf> {
    let dir = path.parent().unwrap_or(root);
    fs::create_dir_all(dir).map_err(|e| Error::io("cannot create lake directory", dir, e))?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("obj");
    Ok(dir.join(format!(
        ".{name}.tmp-{}-{}",
        std::process::id(),
        crate::fsutil::nonce()
    )))
}

/// `bytes` in a temp file beside `path`, fsynced when asked.
pub(super) fn bytes(root: &Path, path: &Path, bytes: &[u8], fsync: bool) -> Result<PathBuf> {
    let tmp = temp_beside(root, path)?;
    let mut f = fs::File::create(&tmp).map_err(|e| Error::io("cannot stage", &tmp, e))?;
    f.write_all(bytes)
        .and_then(|_| if fsync { f.sync_all() } else { Ok(()) })
        .map_err(|e| Error::io("cannot write", &tmp, e))?;
    Ok(tmp)
}

/// A copy of the file `from` in a temp file beside `path` (unsynced, as `create`'s are:
/// `flush` makes it durable), without holding its bytes in memory.
pub(super) fn copy(root: &Path, path: &Path, from: &Path) -> Result<PathBuf> {
    let tmp = temp_beside(root, path)?;
    if let Err(e) = fs::copy(from, &tmp) {
        let _ = fs::remove_file(&tmp);
        return Err(Error::io("cannot stage", from, e));
    }
    Ok(tmp)
}
