//! The crate's one audited `unsafe`: a read-only memory map of the verified
//! `model.safetensors`. Reading the 90 MB file into a buffer, then copying each tensor
//! out of it, cost most of a cold `memory search`; a map lets the weights be copied once
//! straight from the page cache, and lets the word-embedding table (half the file) stay
//! in the map, read a few rows per query instead of copied whole.

use std::fs::File;
use std::path::Path;

use crate::error::{Error, Result};

/// A read-only map of a whole file, kept alive as long as anything reads from it.
pub(crate) struct Mapped {
    map: memmap2::Mmap,
}

impl Mapped {
    /// Map `path`, which must be exactly `expected_len` bytes (the size `verify::check`
    /// accepted: a file replaced by another size since then is refused, not read).
    pub fn open(path: &Path, expected_len: u64) -> Result<Mapped> {
        let file = File::open(path).map_err(|e| Error::io("cannot open", path, e))?;
        // SAFETY: `Mmap::map` is unsafe because the mapped bytes could change or vanish
        // while a `&[u8]` into them is alive. Here:
        // - the map is private and read-only: this process never writes through it;
        // - the file was verified by size and sha256 (or its size+mtime marker) just
        //   before, and its length is checked again below;
        // - ctxlake never rewrites a model in place: `memory model install` unpacks to a
        //   temporary directory and renames it over the old one, so a running process
        //   keeps the old inode and its bytes;
        // - if someone else truncates the file in place while it is mapped, a read past
        //   the new end raises SIGBUS and the process ends (no wrong vector is returned);
        //   rewriting it in place with other bytes of the same size makes later searches
        //   use those bytes until the process restarts, as a read buffer would not. Both
        //   need a hand editing the model directory under a running `ctxlake mcp`.
        #[allow(unsafe_code)]
        let map =
            unsafe { memmap2::Mmap::map(&file) }.map_err(|e| Error::io("cannot map", path, e))?;
        if map.len() as u64 != expected_len {
            return Err(super::verify::unusable(format!(
                "`{}` changed size while loading ({} bytes, expected {expected_len})",
                path.display(),
                map.len()
            )));
        }
        Ok(Mapped { map })
    }

    /// The whole file.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }
}
