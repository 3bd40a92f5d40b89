//! Batch objects: a drain flush writes a fleet's handoffs and claim events many to an
//! object (`handoffs/<fleet>/<first-id>.ndjson`, `claims/<fleet>/events/<first-id>.ndjson`)
//! instead of one object each, so a drain costs requests per megabyte, not per record.
//!
//! A batch holds the drained spool records themselves, framed and CRC'd line by line
//! exactly as in the spool (`spool::encode`), and is named by its first record's ULID:
//! time order, watermark listing and the late-key feed (`lake::watermark`) work on it.
//! Every line is untrusted: a line that is torn, of another fleet, of the wrong kind or
//! with a bad id is skipped and counted, never the whole object. A key in these areas
//! that is not a batch's (`<first-id>.ndjson`) is no part of the format and is never read.

mod send;

use serde_json::json;

pub(crate) use send::send;

use crate::cache::HandoffNote;
use crate::error::Result;
use crate::spool::{self, Record, RecordKind};

/// Encoded bytes per batch object at most (a single larger record is a batch alone).
/// 1 MiB: a 10k-record drain is a handful of requests, and a reader that wants only the
/// newest handoffs never fetches much more than it keeps.
#[cfg(not(test))]
pub(crate) const MAX_BYTES: usize = 1 << 20;
/// A few records per batch in tests, so the simulation crosses batch bounds all the time.
#[cfg(test)]
pub(crate) const MAX_BYTES: usize = 1200;

/// The two create-only areas a drain batches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Area {
    Handoffs,
    Events,
}

impl Area {
    /// The area a record of `kind` is written to, if it is a create-only one.
    pub(crate) fn of(kind: &RecordKind) -> Option<Area> {
        match kind {
            RecordKind::FleetHandoff => Some(Area::Handoffs),
            RecordKind::MemoryPropose | RecordKind::MemoryShown | RecordKind::MemoryOperator => {
                Some(Area::Events)
            }
            _ => None,
        }
    }

    /// Where the area's objects of `fleet` are listed.
    pub(crate) fn prefix(self, fleet: &str) -> String {
        match self {
            Area::Handoffs => super::keys::handoffs(fleet),
            Area::Events => super::keys::claim_events(fleet),
        }
    }

    /// The key of the batch of `fleet` whose first record is `first`.
    pub(crate) fn key(self, fleet: &str, first: &str) -> String {
        match self {
            Area::Handoffs => super::keys::handoff_batch(fleet, first),
            Area::Events => super::keys::claim_event_batch(fleet, first),
        }
    }
}

/// Whether `key` names a batch object: `<prefix><record id>.ndjson`, nothing else.
pub(crate) fn is_batch(key: &str) -> bool {
    let name = key.rsplit('/').next().unwrap_or(key);
    name.strip_suffix(".ndjson")
        .is_some_and(|id| crate::scope::validate_id("record", id).is_ok())
}

/// Split `recs` (in order) into batches of at most `MAX_BYTES` encoded bytes each.
pub(crate) fn split(recs: Vec<Record>) -> Result<Vec<(Vec<Record>, Vec<u8>)>> {
    let mut out: Vec<(Vec<Record>, Vec<u8>)> = Vec::new();
    for rec in recs {
        let line = spool::encode(&rec)?;
        match out.last_mut() {
            Some((rs, body)) if body.len() + line.len() <= MAX_BYTES => {
                rs.push(rec);
                body.extend(line);
            }
            _ => out.push((vec![rec], line)),
        }
    }
    Ok(out)
}

/// The records of a batch object of `fleet` in `area`, line by line, and how many lines
/// were skipped (torn, foreign or malformed).
pub(crate) fn decode(bytes: &[u8], fleet: &str, area: Area) -> (Vec<Record>, usize) {
    decode_where(bytes, fleet, |kind| Area::of(kind) == Some(area))
}

/// The records of an object of `fleet` whose kind `belongs`, line by line, and how many
/// lines were skipped (torn, foreign, of another kind, or with an id that is not one).
pub(crate) fn decode_where(
    bytes: &[u8],
    fleet: &str,
    belongs: impl Fn(&spool::RecordKind) -> bool,
) -> (Vec<Record>, usize) {
    let scan = spool::scan(bytes, 0);
    let mut bad = scan.bad_lines + usize::from(scan.partial_tail_bytes > 0);
    let mut out = Vec::with_capacity(scan.records.len());
    for rec in scan.records {
        let valid = rec.fleet == fleet
            && belongs(&rec.kind)
            && crate::scope::validate_id("record", &rec.id).is_ok()
            && crate::scope::validate_id("agent", &rec.agent).is_ok()
            && crate::scope::validate_id("session", &rec.session).is_ok();
        if valid {
            out.push(rec);
        } else {
            bad += 1;
        }
    }
    (out, bad)
}

/// The handoff notes in a handoff batch of `fleet`, and how many lines were skipped.
pub(crate) fn notes(bytes: &[u8], fleet: &str) -> (Vec<HandoffNote>, usize) {
    let (recs, mut bad) = decode(bytes, fleet, Area::Handoffs);
    let mut out = Vec::with_capacity(recs.len());
    for rec in recs {
        let p = &rec.payload;
        let note = json!({
            "id": rec.id, "at": rec.ts, "agent": rec.agent, "session": rec.session,
            "repo": p["repo"], "summary": p["summary"], "status": p["status"], "next": p["next"],
        });
        match serde_json::from_value(note) {
            Ok(n) => out.push(n),
            Err(_) => bad += 1,
        }
    }
    (out, bad)
}

/// A record of agent `a`, session `s`, whose id is the `n`th ms after a fixed time.
#[cfg(test)]
pub(crate) fn test_record(n: u64, fleet: &str, kind: &str, payload: serde_json::Value) -> Record {
    Record {
        id: crate::ulid::encode(1_764_000_000_000 + n, 0),
        ts: "2026-11-29T00:00:00.000Z".into(),
        fleet: fleet.into(),
        agent: "a".into(),
        session: "s".into(),
        kind: kind.into(),
        payload,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(n: u64, fleet: &str, kind: &str) -> Record {
        let payload = json!({"summary": format!("note {n}"), "status": "done", "claim": "c"});
        test_record(n, fleet, kind, payload)
    }

    #[test]
    fn batches_are_bounded_and_keep_order() {
        let recs: Vec<Record> = (0..40).map(|n| rec(n, "f", "fleet_handoff")).collect();
        let batches = split(recs.clone()).unwrap();
        assert!(batches.len() > 1, "crosses the bound");
        assert!(batches.iter().all(|(_, b)| b.len() <= MAX_BYTES));
        let back: Vec<Record> = batches.into_iter().flat_map(|(r, _)| r).collect();
        assert_eq!(back, recs);
    }

    /// A torn line, a record of another fleet, one of the wrong kind and one with a
    /// hostile id are each skipped and counted; the good lines around them still read.
    #[test]
    fn each_line_is_checked_on_its_own() {
        let mut bytes = spool::encode(&rec(1, "f", "fleet_handoff")).unwrap();
        bytes.extend(b"{\"v\":1,\"crc\":\"00000000\",\"id\":\"torn\"}\n");
        bytes.extend(spool::encode(&rec(2, "g", "fleet_handoff")).unwrap());
        bytes.extend(spool::encode(&rec(3, "f", "memory_propose")).unwrap());
        let mut hostile = rec(4, "f", "fleet_handoff");
        hostile.id = "../../etc".into();
        bytes.extend(spool::encode(&hostile).unwrap());
        bytes.extend(spool::encode(&rec(5, "f", "fleet_handoff")).unwrap());
        let (notes, bad) = notes(&bytes, "f");
        let ids: Vec<String> = notes.into_iter().map(|n| n.id).collect();
        assert_eq!(ids, [rec(1, "f", "").id, rec(5, "f", "").id]);
        assert_eq!(bad, 4);
        let (events, bad) = crate::memory::event::events(&bytes, "f");
        assert_eq!((events.len(), bad), (1, 5));
    }

    /// Only `<first-id>.ndjson` names a batch: a single-record `<id>.json` of a format
    /// that never shipped, or any other name, is not one.
    #[test]
    fn only_an_id_ndjson_key_is_a_batch() {
        let id = rec(1, "f", "").id;
        assert!(is_batch(&Area::Handoffs.key("f", &id)));
        assert!(is_batch(&Area::Events.key("f", &id)));
        for not in [
            format!("handoffs/f/{id}.json"),
            "handoffs/f/.ndjson".to_string(),
            "handoffs/f/-x.ndjson".to_string(),
            format!("handoffs/f/{id}.ndjson.tmp"),
        ] {
            assert!(!is_batch(&not), "{not}");
        }
    }
}
