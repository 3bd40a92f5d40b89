//! The local write queue: one framed JSON line per record, appended with one `write()`
//! by many processes at once, read back by a reader that survives torn records.
//!
//! Frame: `{"v":1,"crc":"<crc32 of the rest, 8 hex>","id":"<ulid>",…}\n`. The prefix is
//! fixed and first, so a reader that meets a line glued to a killed writer's partial
//! record can resync on it: JSON escapes `"` in strings, so the prefix cannot occur
//! inside a string value.

mod append;
pub(crate) mod lock;

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, Result};

mod kind;
pub use append::{Landed, Limits, Wait, append, rotate, write_sealed};
pub use kind::RecordKind;

pub const PREFIX: &[u8] = b"{\"v\":1,\"crc\":\"";

/// Marks an overflow segment: `<stem>.overflow-<ulid>.ndjson`, one hook's record written
/// while the live file's lock was held.
pub const OVERFLOW: &str = "overflow-";

/// How long the hook (and a read's best-effort record) tries for a spool lock before it
/// writes an overflow segment instead: well inside the hook's 5 ms p99 when the lock is
/// free, and a bounded 50 ms when it is not.
pub const QUICK_WAIT: std::time::Duration = std::time::Duration::from_millis(50);

/// One queued write. `payload` is the tool's scrubbed arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub id: String,
    pub ts: String,
    pub fleet: String,
    pub agent: String,
    pub session: String,
    pub kind: RecordKind,
    pub payload: Value,
}

/// Encode `rec` as one complete line.
pub fn encode(rec: &Record) -> Result<Vec<u8>> {
    let json = crate::error::Error::json(rec)?;
    let rest = json.get(1..).unwrap_or_default(); // `"id":…}` — everything after the opening brace
    let crc = crc32fast::hash(rest);
    let mut line = Vec::with_capacity(PREFIX.len() + 10 + rest.len() + 1);
    line.extend_from_slice(PREFIX);
    line.extend_from_slice(format!("{crc:08x}\",").as_bytes());
    line.extend_from_slice(rest);
    line.push(b'\n');
    Ok(line)
}

/// [`encode`] each of `recs`, one after another.
pub fn encode_all<'a>(recs: impl IntoIterator<Item = &'a Record>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for rec in recs {
        out.extend(encode(rec)?);
    }
    Ok(out)
}

/// Decode one line (without its newline) if it is exactly one intact record.
pub fn decode(line: &[u8]) -> Option<Record> {
    let body = line.strip_prefix(PREFIX)?;
    let (hex, rest) = (body.get(..8)?, body.get(8..)?);
    let rest = rest.strip_prefix(b"\",")?;
    let want = u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
    if crc32fast::hash(rest) != want {
        return None;
    }
    let mut json = Vec::with_capacity(rest.len() + 1);
    json.push(b'{');
    json.extend_from_slice(rest);
    serde_json::from_slice(&json).ok()
}

/// Sealed files (`<stem>.<ulid>.ndjson`, rotated aside, and overflow segments
/// `<stem>.overflow-<ulid>.ndjson`) are complete: nobody appends to them any more.
/// Live ones are `<fleet>.ndjson` / `<session>.ndjson`.
pub fn is_sealed(path: &Path) -> bool {
    path.file_stem()
        .and_then(|s| s.to_str())
        .and_then(|s| s.rsplit_once('.'))
        .is_some_and(|(_, tail)| crate::ulid::is_ulid(tail.strip_prefix(OVERFLOW).unwrap_or(tail)))
}

/// Total bytes of regular files directly in `dir`.
pub fn dir_bytes(dir: &Path) -> u64 {
    let Ok(rd) = fs::read_dir(dir) else { return 0 };
    rd.flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

pub fn human_bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 30 => format!("{:.1} GiB", n as f64 / (1u64 << 30) as f64),
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64),
        n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / 1024.0),
        n => format!("{n} B"),
    }
}

/// What a read of one spool file found.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Scan {
    pub records: Vec<Record>,
    /// Byte offset just past the last complete line (where the next read starts).
    pub end_offset: u64,
    /// Lines that held no intact record at all.
    pub bad_lines: usize,
    /// Intact records recovered from a line glued to a torn one.
    pub resynced: usize,
    /// Bytes of torn or corrupt data skipped.
    pub skipped_bytes: u64,
    /// A final line without newline: a write in progress, or torn if the file is sealed.
    pub partial_tail_bytes: u64,
}

/// Read every complete line of `bytes` starting at `from`.
pub fn scan(bytes: &[u8], from: u64) -> Scan {
    let mut s = Scan {
        end_offset: from,
        ..Scan::default()
    };
    let mut pos = (from as usize).min(bytes.len());
    while pos < bytes.len() {
        let Some(nl) = bytes[pos..].iter().position(|b| *b == b'\n') else {
            s.partial_tail_bytes = (bytes.len() - pos) as u64;
            break;
        };
        let line = &bytes[pos..pos + nl];
        pos += nl + 1;
        s.end_offset = pos as u64;
        if line.is_empty() {
            continue;
        }
        if let Some(rec) = decode(line) {
            s.records.push(rec);
            continue;
        }
        // Resync: the leftmost prefix from which the rest of the line is one intact record.
        match find_prefixes(line)
            .into_iter()
            .skip_while(|p| *p == 0)
            .find_map(|p| decode(&line[p..]).map(|r| (p, r)))
        {
            Some((p, rec)) => {
                s.skipped_bytes += p as u64;
                s.resynced += 1;
                s.records.push(rec);
            }
            None => {
                s.bad_lines += 1;
                s.skipped_bytes += line.len() as u64 + 1;
            }
        }
    }
    s
}

fn find_prefixes(line: &[u8]) -> Vec<usize> {
    line.windows(PREFIX.len())
        .enumerate()
        .filter(|(_, w)| *w == PREFIX)
        .map(|(i, _)| i)
        .collect()
}

/// Read a whole spool file from `from`.
pub fn read_file(path: &Path, from: u64) -> Result<Scan> {
    let bytes = fs::read(path).map_err(|e| Error::io("cannot read spool", path, e))?;
    Ok(scan(&bytes, from))
}

/// Every `*.ndjson` below `dir` (recursively), sorted, for readers and `spool check`.
pub fn list_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(p),
                Ok(t) if t.is_file() && p.extension().is_some_and(|x| x == "ndjson") => out.push(p),
                _ => {}
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn rec(n: usize, payload: Value) -> Record {
        Record {
            id: format!("01J{n:023}"),
            ts: "2026-11-29T00:00:00.000Z".into(),
            fleet: "f".into(),
            agent: "a".into(),
            session: "s".into(),
            kind: "fleet_claim".into(),
            payload,
        }
    }

    #[test]
    fn round_trip_and_checksum() {
        let r = rec(1, serde_json::json!({"reason": "line\nbreak \"quoted\""}));
        let line = encode(&r).unwrap();
        assert!(line.starts_with(PREFIX) && line.ends_with(b"\n"));
        assert_eq!(line.iter().filter(|b| **b == b'\n').count(), 1);
        assert_eq!(decode(&line[..line.len() - 1]), Some(r));
        let mut bad = line.clone();
        let i = bad.len() - 5;
        bad[i] ^= 1;
        assert_eq!(decode(&bad[..bad.len() - 1]), None);
    }

    #[test]
    fn torn_record_glued_to_the_next_is_resynced() {
        // A payload that itself contains the prefix must not fool the resync.
        let nested = serde_json::json!({"x": {"v": 1, "crc": "deadbeef"}});
        let a = encode(&rec(1, nested.clone())).unwrap();
        let b = encode(&rec(2, nested)).unwrap();
        let c = encode(&rec(3, Value::Null)).unwrap();
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&a[..a.len() / 2]); // torn: killed mid-write, no newline
        bytes.extend_from_slice(&b);
        bytes.extend_from_slice(b"garbage line\n");
        bytes.extend_from_slice(&c[..20]); // in-progress tail
        let s = scan(&bytes, 0);
        assert_eq!(s.records.len(), 1);
        assert_eq!(s.records[0].id, rec(2, Value::Null).id);
        assert_eq!(s.resynced, 1);
        assert_eq!(s.bad_lines, 1);
        assert_eq!(s.partial_tail_bytes, 20);
        assert_eq!(s.end_offset as usize, bytes.len() - 20);
    }
}
