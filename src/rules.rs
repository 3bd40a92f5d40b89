//! Rules every tool shares: row caps, evidence bounds, the advisory wording.

use crate::error::{Error, Result};

pub const DEFAULT_LIMIT: u32 = 50;
pub const DEFAULT_K: u32 = 10;
pub const MAX_ROWS: u32 = 200;
pub const MAX_EVIDENCE: usize = 20;
pub const DEFAULT_TTL_SECS: u64 = 1800;
pub const MIN_TTL_SECS: u64 = 5;
pub const MAX_TTL_SECS: u64 = 7 * 86_400;
pub const MAX_PATHS: usize = 64;
pub const MAX_TEXT_CHARS: usize = 4000;

/// Every query on a mirrored snapshot finishes within this much of its opening, or is
/// interrupted: a snapshot is another host's file (`snapshot::guard`).
pub const SNAPSHOT_QUERY_MS: u64 = 2_000;

/// How far a manifest number may run past what a reader can account for (the number it
/// holds plus the manifests listed after it) and still be taken: more than the 32 numbers
/// one `maint` may try in a race. A number beyond is implausible and ignored, so a forged
/// `u64::MAX` cannot pin a snapshot forever.
pub const MANIFEST_SLACK: u64 = 64;

/// The largest object of each kind a reader takes from the lake, judged from the listed
/// (or answered) size before its body is read: an object over its cap is skipped and
/// counted. Each is far above what this build writes (a batch is at most 1 MiB, a spool
/// block 4 MiB), so only a broken or hostile writer meets one.
pub mod cap {
    const MIB: u64 = 1 << 20;
    pub const ROSTER: u64 = 4 * MIB;
    pub const BATCH: u64 = 2 * MIB;
    pub const SEGMENT: u64 = 16 * MIB;
    pub const FEED: u64 = MIB;
    pub const MANIFEST: u64 = 64 * 1024;
    pub const MARKER: u64 = 4 * 1024;
    pub const CHECKPOINT: u64 = 512 * MIB;
    pub const SNAPSHOT: u64 = 1024 * MIB;
    /// Scratch keys and anything the format does not name.
    pub const OTHER: u64 = 16 * MIB;
    /// A cache file the hot path reads (`cache/<fleet>/*.json`): checked before it is
    /// parsed, so whatever the cache holds, a hook or a read keeps its deadline.
    pub const CACHE: u64 = 8 * MIB;
}

pub const ADVISORY: &str = "Leases are advisory: nothing stops an edit, and a stale holder is not fenced. Coordinate before touching a contended path.";
pub const QUEUED: &str =
    "queued for sync: nothing is granted or shared until `ctxlake sync` applies it to the lake";

/// A requested row count (`field`): the default when absent, at most `MAX_ROWS`; 0 is
/// refused rather than quietly read as 1.
pub fn clamp(field: &str, requested: Option<u32>, default: u32) -> Result<usize> {
    match requested {
        Some(0) => Err(Error::bad_arguments(
            "invalid_arguments",
            format!("`{field}` must be in 1..={MAX_ROWS}, got 0"),
        )
        .hint(format!(
            "omit `{field}` for the default ({default}), or ask for 1 to {MAX_ROWS} rows"
        ))),
        r => Ok(r.unwrap_or(default).min(MAX_ROWS) as usize),
    }
}

/// Keep at most `limit` rows; say whether any were dropped.
pub fn cap<T>(mut rows: Vec<T>, limit: usize) -> (Vec<T>, bool) {
    let truncated = rows.len() > limit;
    rows.truncate(limit);
    (rows, truncated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps() {
        assert_eq!(clamp("limit", None, DEFAULT_LIMIT).unwrap(), 50);
        assert_eq!(clamp("k", None, DEFAULT_K).unwrap(), 10);
        assert_eq!(clamp("limit", Some(100_000), DEFAULT_LIMIT).unwrap(), 200);
        assert_eq!(clamp("limit", Some(1), DEFAULT_LIMIT).unwrap(), 1);
        let e = clamp("k", Some(0), DEFAULT_K).unwrap_err();
        assert_eq!(e.code, "invalid_arguments");
        assert!(
            e.message.contains("`k` must be in 1..=200"),
            "{}",
            e.message
        );
        assert_eq!(cap(vec![1, 2, 3], 2), (vec![1, 2], true));
        assert_eq!(cap(vec![1, 2], 2), (vec![1, 2], false));
    }
}
