//! Hook history at its own cadence: a drain keeps the hook records it drained in a local
//! pending file per fleet (`state/history/<fleet>.ndjson`), and writes them to the lake as
//! one object per (fleet, host) only when they are due, instead of one segment per session
//! per flush. Leases and presence do not wait: the roster still takes every hook record at
//! once; only the history object is deferred.
//!
//! Exactly once: a block's hook records reach the pending file (written atomically) before
//! the spool watermark moves past the block. History that is due moves to `<fleet>.sending`
//! first, and is sent from there until its objects are durable in the lake: a write that
//! failed, or whose answer was lost, is sent again with the same records under the same
//! keys (`Exists`), however many records came since. Once durable, its ids join the replay
//! window (`<fleet>.written`), so a redo of a block (its spool file is still on disk) adds
//! none of them again; the windows go once no sealed spool file is left, since only such
//! a file is ever redone. Readers still drop a record they hold twice by id.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::lake::keys;
use crate::paths::Paths;
use crate::spool::{self, Record, RecordKind};

/// How old (host clock, by the oldest pending record's id) pending history may grow
/// before it is written. 60 s: the roster's liveness grain (`roster::LIVENESS_GRAIN_MS`),
/// so a quiet agent costs one roster PUT and one history object a minute, about four
/// 15 s passes' worth of hook events per object; history is read by people and briefings,
/// for which a minute is fresh, while leases (what agents wait for) never wait on it.
#[cfg(not(test))]
pub(crate) const HISTORY_AGE_MS: i64 = 60_000;
/// Shorter in tests, so the simulation's few dozen seconds cross it often.
#[cfg(test)]
pub(crate) const HISTORY_AGE_MS: i64 = 8_000;

/// Pending bytes past which history is written whatever its age: a busy backlog stays
/// a few objects, each far under the reader's cap for them (`rules::cap::SEGMENT`).
const PENDING_BYTES: usize = 1 << 20;

/// Encoded bytes per history object at most (a single larger record is an object alone):
/// a flush adds at most a spool block (4 MiB) to at most `PENDING_BYTES`.
#[cfg(not(test))]
const OBJECT_BYTES: usize = 4 << 20;
/// A few records per object in tests, so the simulation crosses object bounds.
#[cfg(test)]
const OBJECT_BYTES: usize = 1500;

fn file(paths: &Paths, fleet: &str) -> PathBuf {
    paths.history_pending_dir().join(format!("{fleet}.ndjson"))
}

/// The ids of `fleet`'s history written since the spool was last drained empty: a redo of
/// a block drained before must not add them again.
fn window(paths: &Paths, fleet: &str) -> PathBuf {
    paths.history_pending_dir().join(format!("{fleet}.written"))
}

/// The history of `fleet` being sent: due, and not durable in the lake yet.
fn sending(paths: &Paths, fleet: &str) -> PathBuf {
    paths.history_pending_dir().join(format!("{fleet}.sending"))
}

/// The ids of `fleet`'s history in its replay window: written.
fn written_ids(paths: &Paths, fleet: &str) -> HashSet<String> {
    std::fs::read_to_string(window(paths, fleet))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The ids not to add to `fleet`'s pending history again: written, or being sent.
fn window_ids(paths: &Paths, fleet: &str) -> HashSet<String> {
    let mut ids = written_ids(paths, fleet);
    ids.extend(read(&sending(paths, fleet)).into_iter().map(|r| r.id));
    ids
}

/// The pending records of `fleet` not written yet, each once by id, in the order they
/// were drained.
pub(super) fn pending(paths: &Paths, fleet: &str) -> Vec<Record> {
    unheld(paths, fleet, &mut window_ids(paths, fleet))
}

/// The pending records of `fleet` whose ids `held` lacks, each once; `held` gains them.
fn unheld(paths: &Paths, fleet: &str, held: &mut HashSet<String>) -> Vec<Record> {
    read(&file(paths, fleet))
        .into_iter()
        .filter(|r| held.insert(r.id.clone()))
        .collect()
}

fn read(path: &Path) -> Vec<Record> {
    spool::read_file(path, 0)
        .map(|s| s.records)
        .unwrap_or_default()
}

/// Add `recs` to `fleet`'s pending history, durably (before the spool's watermark moves).
pub(super) fn append(paths: &Paths, fleet: &str, recs: &[Record]) -> Result<()> {
    if recs.is_empty() {
        return Ok(());
    }
    let path = file(paths, fleet);
    let mut held = window_ids(paths, fleet);
    let mut all = unheld(paths, fleet, &mut held);
    all.extend(recs.iter().filter(|r| held.insert(r.id.clone())).cloned());
    let dir = paths.history_pending_dir();
    std::fs::create_dir_all(&dir).map_err(|e| Error::io("cannot create", &dir, e))?;
    crate::fsutil::write_atomic(&path, &spool::encode_all(&all)?, 0o600)
}

/// The fleets with pending history, sorted.
pub(super) fn fleets(paths: &Paths) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(paths.history_pending_dir())
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let fleet = name
                .strip_suffix(".ndjson")
                .or_else(|| name.strip_suffix(".sending"))?;
            crate::scope::validate_id("fleet", fleet).ok()?;
            Some(fleet.to_string())
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The hook records this host holds for a history write not made yet (pending or being
/// sent, every fleet): what `status` and `doctor` count beside the spool's backlog.
#[derive(Debug, Default, PartialEq)]
pub struct Held {
    pub records: usize,
    pub bytes: u64,
    /// The oldest record's time (its `ts`, host clock), ms.
    pub oldest_ms: Option<i64>,
}

pub fn held(paths: &Paths) -> Held {
    let mut out = Held::default();
    for fleet in fleets(paths) {
        // Being sent, then pending: each record once, none already written.
        let mut ids = written_ids(paths, &fleet);
        let mut recs = read(&sending(paths, &fleet));
        recs.retain(|r| ids.insert(r.id.clone()));
        recs.extend(unheld(paths, &fleet, &mut ids));
        for f in [file(paths, &fleet), sending(paths, &fleet)] {
            out.bytes += std::fs::metadata(f).map_or(0, |m| m.len());
        }
        out.records += recs.len();
        out.oldest_ms = recs
            .iter()
            .filter_map(|r| crate::time::parse_rfc3339(&r.ts))
            .chain(out.oldest_ms)
            .min();
    }
    out
}

/// Every fleet's history to send now: what an earlier write left being sent, else the
/// pending history when it is due at host time `now_ms` (see [`due`]), moved to being sent.
pub(super) fn take_due(
    paths: &Paths,
    now_ms: i64,
    force: bool,
) -> Result<Vec<(String, Vec<Record>)>> {
    let mut out = Vec::new();
    for fleet in fleets(paths) {
        let unsent = read(&sending(paths, &fleet));
        if !unsent.is_empty() {
            out.push((fleet, unsent));
            continue;
        }
        let recs = pending(paths, &fleet);
        if recs.is_empty() {
            forget(paths, &fleet)?;
        } else if due(&recs, pending_bytes(paths, &fleet), now_ms, force) {
            crate::fsutil::write_atomic(
                &sending(paths, &fleet),
                &spool::encode_all(&recs)?,
                0o600,
            )?;
            forget(paths, &fleet)?;
            out.push((fleet, recs));
        }
    }
    Ok(out)
}

/// The pending file's size: what [`due`] weighs against `PENDING_BYTES` (a record already
/// written but still in the file makes it a little early, never late), instead of
/// encoding up to a MiB again on every drain.
fn pending_bytes(paths: &Paths, fleet: &str) -> usize {
    std::fs::metadata(file(paths, fleet)).map_or(0, |m| m.len() as usize)
}

/// Whether pending `recs` (`bytes` of them) are due at host time `now_ms`: the oldest is
/// `HISTORY_AGE_MS` old (an imported session's records are old at once), a session ended,
/// or they are past `PENDING_BYTES`. `force` (a one-shot `sync`): always, when there are any.
pub(super) fn due(recs: &[Record], bytes: usize, now_ms: i64, force: bool) -> bool {
    if recs.is_empty() {
        return false;
    }
    let oldest = recs
        .iter()
        .filter_map(|r| crate::ulid::time_ms(&r.id))
        .min()
        .unwrap_or(i64::MIN);
    force
        || now_ms.saturating_sub(oldest) >= HISTORY_AGE_MS
        || recs.iter().any(|r| r.kind == RecordKind::HookSessionEnd)
        || bytes >= PENDING_BYTES
}

/// The history objects of `recs`, written by host `host` to `fleet`: at most
/// `OBJECT_BYTES` each, keyed `sessions/<fleet>/<host>/<first>-<last>.ndjson`.
pub(super) fn objects(fleet: &str, host: &str, recs: &[Record]) -> Result<Vec<(String, Vec<u8>)>> {
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut cut: Vec<(&Record, &Record, Vec<u8>)> = Vec::new();
    for rec in recs {
        let line = spool::encode(rec)?;
        match cut.last_mut() {
            Some((_, last, body)) if body.len() + line.len() <= OBJECT_BYTES => {
                *last = rec;
                body.extend(line);
            }
            _ => cut.push((rec, rec, line)),
        }
    }
    for (first, last, body) in cut {
        out.push((keys::history(fleet, host, &first.id, &last.id), body));
    }
    Ok(out)
}

/// `recs`, the history of `fleet` being sent, are durable in the lake: add their ids to
/// the replay window, and forget them.
pub(super) fn written(paths: &Paths, fleet: &str, recs: &[Record]) -> Result<()> {
    let mut ids = std::fs::read_to_string(window(paths, fleet)).unwrap_or_default();
    ids.extend(recs.iter().map(|r| format!("{}\n", r.id)));
    crate::fsutil::write_atomic(&window(paths, fleet), ids.as_bytes(), 0o600)?;
    crate::fsutil::remove_if_present(&sending(paths, fleet))
}

/// No sealed spool file is left, so no block will be redone: drop every replay window.
pub(super) fn drop_windows(paths: &Paths) {
    let dir = paths.history_pending_dir();
    for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        if e.path().extension().is_some_and(|x| x == "written") {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Remove `fleet`'s pending file (every record in it is written or being sent).
fn forget(paths: &Paths, fleet: &str) -> Result<()> {
    crate::fsutil::remove_if_present(&file(paths, fleet))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lake::batch::test_record;
    use serde_json::json;

    fn hook(n: u64, kind: &str) -> Record {
        test_record(n, "f", kind, json!({"runtime": "claude-code"}))
    }

    /// Pending history is due when its oldest record is a minute old, when a session
    /// ended, when forced, and never when empty.
    #[test]
    fn history_is_due_at_its_own_cadence() {
        let recs = vec![hook(0, "hook_pre_tool"), hook(5_000, "hook_post_tool")];
        let t0 = crate::ulid::time_ms(&recs[0].id).unwrap();
        assert!(!due(&recs, 100, t0 + HISTORY_AGE_MS - 1, false));
        assert!(due(&recs, 100, t0 + HISTORY_AGE_MS, false));
        assert!(due(&recs, PENDING_BYTES, t0, false), "a MiB pending");
        assert!(due(&recs, 100, t0, true));
        assert!(!due(&[], 0, t0 + HISTORY_AGE_MS, true));
        let mut ended = recs.clone();
        ended.push(hook(6_000, "hook_session_end"));
        assert!(due(&ended, 100, t0, false));
    }

    /// A redo appends the same records again: the pending file keeps each once, so the
    /// same records make the same object key; once written, a redo adds none of them.
    #[test]
    fn a_redo_keeps_each_pending_record_once() {
        let d = tempfile::tempdir().unwrap();
        let paths = Paths::with_overrides(d.path().to_path_buf(), None, None);
        let recs: Vec<Record> = (0..3).map(|n| hook(n, "hook_prompt")).collect();
        append(&paths, "f", &recs).unwrap();
        append(&paths, "f", &recs[1..]).unwrap();
        assert_eq!(pending(&paths, "f"), recs);
        assert_eq!(fleets(&paths), ["f"]);
        let objs = objects("f", "h1", &pending(&paths, "f")).unwrap();
        let again = objects("f", "h1", &recs).unwrap();
        assert_eq!(objs, again);
        assert!(objs[0].0.starts_with("sessions/f/h1/"));
        let sent = take_due(&paths, 0, true).unwrap();
        assert_eq!(sent, [("f".to_string(), recs.clone())]);
        // The write failed: a later record waits, and the same records are sent again.
        append(&paths, "f", &[hook(9, "hook_stop")]).unwrap();
        append(&paths, "f", &recs).unwrap();
        assert_eq!(take_due(&paths, 0, true).unwrap(), sent);
        // `status` and `doctor` count what is being sent and what waits, each once.
        let h = held(&paths);
        assert_eq!(h.records, 4);
        assert!(h.bytes > 0);
        assert_eq!(h.oldest_ms, crate::time::parse_rfc3339(&recs[0].ts));
        written(&paths, "f", &recs).unwrap();
        assert_eq!(pending(&paths, "f"), [hook(9, "hook_stop")]);
        assert_eq!(held(&paths).records, 1);
        forget(&paths, "f").unwrap();
        assert!(pending(&paths, "f").is_empty() && fleets(&paths).is_empty());
        append(&paths, "f", &recs[2..]).unwrap();
        assert!(
            pending(&paths, "f").is_empty(),
            "the redo of a written block"
        );
        drop_windows(&paths);
        append(&paths, "f", &recs[2..]).unwrap();
        assert_eq!(
            pending(&paths, "f"),
            &recs[2..],
            "no window once drained empty"
        );
    }
}
