//! Reading one local lake object: a regular file, opened without following a symlink or
//! blocking on a FIFO, and read only within its kind's size cap.

use std::fs;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::UNIX_EPOCH;

use super::{Skip, SkipCounter};
use crate::error::{Error, Result};

/// The object at `p` (whose folders `beneath` found real directories) and its mtime, or
/// `None` when it is absent or is no object: a symlink, not a regular file, or over `cap`
/// bytes (each counted in `skips`).
pub(super) fn read(p: &Path, cap: u64, skips: &SkipCounter) -> Result<Option<(Vec<u8>, i64)>> {
    // No symlink is followed (`O_NOFOLLOW` for the file, `beneath` for the folders on
    // the way), and a FIFO does not block the open (`O_NONBLOCK`); what is opened is
    // read only if it is a regular file within its kind's cap, judged from its size
    // before a byte is read.
    let opened = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(p);
    let f = match opened {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            skips.add(Skip::NotRegular);
            return Ok(None);
        }
        Err(e) => return Err(Error::io("cannot read lake object", p, e)),
    };
    let m = f
        .metadata()
        .map_err(|e| Error::io("cannot read lake object", p, e))?;
    if !m.is_file() {
        skips.add(Skip::NotRegular);
        return Ok(None);
    }
    if m.len() > cap {
        skips.add(Skip::Oversize);
        return Ok(None);
    }
    let mut b = Vec::with_capacity(m.len() as usize);
    // The file may grow after the stat: never past the cap.
    f.take(cap + 1)
        .read_to_end(&mut b)
        .map_err(|e| Error::io("cannot read lake object", p, e))?;
    if b.len() as u64 > cap {
        skips.add(Skip::Oversize);
        return Ok(None);
    }
    Ok(Some((b, mtime_ms(&m))))
}

pub(super) fn mtime_ms(m: &fs::Metadata) -> i64 {
    m.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis() as i64)
}
