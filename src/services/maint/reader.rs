//! The claim event objects a fold reads, fetched and decoded as the fold takes their
//! events: a first fold of 100k events holds one chunk of decoded payloads at a time,
//! not every event of the fleet's history at once.

use crate::error::Error;
use crate::lake::store::Store;
use crate::memory::event::Event;

/// Objects fetched per `get_many`.
const CHUNK: usize = 256;

pub(super) struct Reader<'a> {
    store: &'a dyn Store,
    fleet: &'a str,
    keys: &'a [String],
    /// How many of `keys` were fetched.
    at: usize,
    /// The decoded events of the last chunk not yet taken.
    buffer: std::vec::IntoIter<Event>,
    progress: &'a mut dyn FnMut(u64, u64),
    /// Lines of the objects read so far skipped as torn, foreign or malformed.
    pub bad_lines: usize,
    /// Why a read failed: the events end there, and the caller must not use the fold.
    pub error: Option<Error>,
}

impl<'a> Reader<'a> {
    pub fn new(
        store: &'a dyn Store,
        fleet: &'a str,
        keys: &'a [String],
        progress: &'a mut dyn FnMut(u64, u64),
    ) -> Self {
        Reader {
            store,
            fleet,
            keys,
            at: 0,
            buffer: Vec::new().into_iter(),
            progress,
            bad_lines: 0,
            error: None,
        }
    }

    /// Fetch and decode the next chunk into `buffer`; false when none is left (or a
    /// read failed).
    fn fill(&mut self) -> bool {
        if self.error.is_some() || self.at >= self.keys.len() {
            return false;
        }
        let end = (self.at + CHUNK).min(self.keys.len());
        let found = match self.store.get_many(&self.keys[self.at..end]) {
            Ok(found) => found,
            Err(e) => {
                self.error = Some(e);
                return false;
            }
        };
        let mut events = Vec::new();
        for (b, _) in found.into_iter().flatten() {
            let (got, bad) = crate::memory::event::events(&b, self.fleet);
            events.extend(got);
            self.bad_lines += bad;
        }
        self.buffer = events.into_iter();
        self.at = end;
        (self.progress)(end as u64, self.keys.len() as u64);
        true
    }
}

impl Iterator for Reader<'_> {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(e) = self.buffer.next() {
                return Some(e);
            }
            if !self.fill() {
                return None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lake::logged::Logged;

    /// A fold takes events as they are read: one chunk of objects is fetched (and held)
    /// at a time, never the whole history before the first event is folded.
    #[test]
    fn objects_are_fetched_a_chunk_at_a_time_as_events_are_taken() {
        let d = tempfile::tempdir().unwrap();
        let store = Logged::open(d.path());
        let n = 2 * CHUNK + 10;
        let mut keys = Vec::new();
        for i in 0..n as u64 {
            let payload = serde_json::json!({"claim": format!("claim {i}"), "type": "outcome",
                "subject": "s", "evidence": [{"session_id": "s", "message_id": "m"}]});
            let rec = crate::lake::batch::test_record(i, "f", "memory_propose", payload);
            let key = crate::lake::keys::claim_event_batch("f", &rec.id);
            store
                .create(&key, &crate::spool::encode(&rec).unwrap())
                .unwrap();
            keys.push(key);
        }
        store.take();
        let mut seen = Vec::new();
        let mut progress = |done, total| seen.push((done, total));
        let mut r = Reader::new(&store, "f", &keys, &mut progress);
        assert!(r.next().is_some());
        assert_eq!(store.count("get"), CHUNK, "only the first chunk is read");
        assert_eq!(r.by_ref().take(CHUNK - 1).count(), CHUNK - 1);
        assert_eq!(
            store.count("get"),
            CHUNK,
            "its events are taken before the next"
        );
        assert_eq!(r.by_ref().count(), n - CHUNK);
        assert_eq!(store.count("get"), n);
        assert!(r.error.is_none());
        assert_eq!(r.bad_lines, 0);
        drop(r);
        let (c, t) = (CHUNK as u64, n as u64);
        assert_eq!(seen, vec![(c, t), (2 * c, t), (t, t)]);
    }
}
