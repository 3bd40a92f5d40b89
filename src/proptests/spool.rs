//! The spool reader against what SIGKILL and disk trouble leave behind: intact records
//! interleaved with records cut at any byte (glued to whatever follows), garbage and blank
//! lines. Every intact record must come back exactly once, in order, and nothing else.

use proptest::prelude::*;

use super::{config, json_value, nasty_text};
use crate::spool::{PREFIX, Record, RecordKind, encode, scan};

/// One stretch of a spool file.
#[derive(Debug, Clone)]
enum Piece {
    /// A whole record, newline included: must be recovered.
    Intact(Record),
    /// A record cut after `cut` bytes (before its newline): a killed writer.
    Torn(Record, prop::sample::Index),
    /// Arbitrary bytes, newlines included.
    Garbage(Vec<u8>),
    /// The frame prefix alone, glued to what follows.
    Prefix,
    Blank,
}

fn record() -> impl Strategy<Value = Record> {
    let text = || nasty_text();
    let kind = prop_oneof![
        text(),
        prop::sample::select(&["fleet_claim", "hook_stop", "memory_propose"][..])
            .prop_map(String::from),
    ];
    (text(), text(), text(), text(), text(), kind, json_value()).prop_map(
        |(id, ts, fleet, agent, session, kind, payload)| Record {
            // Read back through `From<&str>`: a known name is its variant, never `Other`.
            kind: RecordKind::from(kind.as_str()),
            id,
            ts,
            fleet,
            agent,
            session,
            payload,
        },
    )
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        4 => record().prop_map(Piece::Intact),
        3 => (record(), any::<prop::sample::Index>()).prop_map(|(r, i)| Piece::Torn(r, i)),
        2 => prop::collection::vec(any::<u8>(), 0..40).prop_map(Piece::Garbage),
        1 => Just(Piece::Prefix),
        1 => Just(Piece::Blank),
    ]
}

/// The file's bytes, and the records a correct reader must return (ids made unique so a
/// duplicate or an invented record cannot hide behind an equal twin). A record torn just
/// before its newline is whole again when the next piece starts with one.
fn build(pieces: &[Piece]) -> (Vec<u8>, Vec<Record>) {
    let mut bytes = Vec::new();
    let mut want = Vec::new();
    let mut all_but_newline: Option<Record> = None;
    for (n, p) in pieces.iter().enumerate() {
        let start = bytes.len();
        let unique = |r: &Record| Record {
            id: format!("{n}:{}", r.id),
            ..r.clone()
        };
        let mut torn = None;
        match p {
            Piece::Intact(r) => {
                let r = unique(r);
                bytes.extend_from_slice(&encode(&r).unwrap());
                want.push(r);
            }
            Piece::Torn(r, cut) => {
                let r = unique(r);
                let line = encode(&r).unwrap();
                let cut = cut.index(line.len());
                bytes.extend_from_slice(&line[..cut]);
                torn = (cut == line.len() - 1).then_some(r);
            }
            Piece::Garbage(g) => bytes.extend_from_slice(g),
            Piece::Prefix => bytes.extend_from_slice(PREFIX),
            Piece::Blank => bytes.push(b'\n'),
        }
        // A piece that adds bytes settles a pending record: whole again if they start with a
        // newline (an intact piece starts with `{`, so `want` still ends before this piece).
        if bytes.len() > start
            && let Some(r) = all_but_newline.take()
            && bytes[start] == b'\n'
        {
            want.push(r);
        }
        all_but_newline = torn.or(all_but_newline);
    }
    (bytes, want)
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn every_intact_record_comes_back_exactly_once(
        pieces in prop::collection::vec(piece(), 0..8),
    ) {
        let (bytes, want) = build(&pieces);
        let s = scan(&bytes, 0);
        prop_assert_eq!(&s.records, &want);
        prop_assert!(s.end_offset as usize <= bytes.len());
        prop_assert_eq!(s.end_offset + s.partial_tail_bytes, bytes.len() as u64);
        prop_assert!(s.resynced <= s.records.len());
        prop_assert!(s.skipped_bytes <= s.end_offset);
    }

    /// A reader that catches a writer mid-line and resumes at `end_offset` later reads the
    /// same records as one that waited: nothing lost at the seam, nothing read twice.
    #[test]
    fn resuming_at_end_offset_matches_one_read(
        pieces in prop::collection::vec(piece(), 0..8),
        at in any::<prop::sample::Index>(),
    ) {
        let (bytes, want) = build(&pieces);
        let first = scan(&bytes[..at.index(bytes.len() + 1)], 0);
        let rest = scan(&bytes, first.end_offset);
        let mut got = first.records;
        got.extend(rest.records);
        prop_assert_eq!(got, want);
    }

    /// One record alone always round-trips, whatever its fields and payload hold.
    #[test]
    fn encode_then_decode_is_identity(r in record()) {
        let line = encode(&r).unwrap();
        prop_assert!(line.starts_with(PREFIX));
        prop_assert_eq!(line.iter().filter(|b| **b == b'\n').count(), 1);
        prop_assert_eq!(crate::spool::decode(&line[..line.len() - 1]), Some(r));
    }

    /// Arbitrary bytes never panic the reader, and every offset it reports is in bounds.
    #[test]
    fn arbitrary_bytes_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..512),
        from in any::<u64>(),
    ) {
        let s = scan(&bytes, from % (bytes.len() as u64 + 2));
        prop_assert!(s.end_offset as usize <= bytes.len().max(s.end_offset as usize));
        prop_assert!(s.records.is_empty() || bytes.windows(PREFIX.len()).any(|w| w == PREFIX));
    }
}

/// Shrunk from `encode_then_decode_is_identity`: serde_json's default float parser is
/// best-effort, so a payload float came back one ulp off (the lake got another number).
#[test]
fn a_float_payload_comes_back_bit_for_bit() {
    let r = Record {
        id: String::new(),
        ts: String::new(),
        fleet: String::new(),
        agent: String::new(),
        session: String::new(),
        kind: RecordKind::from(""),
        payload: serde_json::json!([4131017588889.9243_f64]),
    };
    let line = encode(&r).unwrap();
    assert_eq!(crate::spool::decode(&line[..line.len() - 1]), Some(r));
}
