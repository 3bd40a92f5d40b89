//! Rules every tool shares: row caps, evidence bounds, the advisory wording.

pub const DEFAULT_LIMIT: u32 = 50;
pub const DEFAULT_K: u32 = 10;
pub const MAX_ROWS: u32 = 200;
pub const MAX_EVIDENCE: usize = 20;
pub const DEFAULT_TTL_SECS: u64 = 1800;
pub const MIN_TTL_SECS: u64 = 5;
pub const MAX_TTL_SECS: u64 = 7 * 86_400;
pub const MAX_PATHS: usize = 64;
pub const MAX_TEXT_CHARS: usize = 4000;

pub const ADVISORY: &str = "Leases are advisory: nothing stops an edit, and a stale holder is not fenced. Coordinate before touching a contended path.";
pub const QUEUED: &str =
    "queued for sync: nothing is granted or shared until `ctxlake sync` applies it to the lake";

/// Clamp a requested row count to `1..=MAX_ROWS`, defaulting when absent.
pub fn clamp(requested: Option<u32>, default: u32) -> usize {
    requested.unwrap_or(default).clamp(1, MAX_ROWS) as usize
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
        assert_eq!(clamp(None, DEFAULT_LIMIT), 50);
        assert_eq!(clamp(None, DEFAULT_K), 10);
        assert_eq!(clamp(Some(100_000), DEFAULT_LIMIT), 200);
        assert_eq!(clamp(Some(0), DEFAULT_LIMIT), 1);
        assert_eq!(cap(vec![1, 2, 3], 2), (vec![1, 2], true));
        assert_eq!(cap(vec![1, 2], 2), (vec![1, 2], false));
    }
}
