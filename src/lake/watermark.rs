//! Watermark listings: list only the keys that landed since the last look, so a pass
//! costs requests in proportion to new data, not to history.
//!
//! Append-only areas are named by ULIDs (handoffs, claim events, the feed), but a ULID is
//! minted on the writer's clock, so keys do not land in key order. Two rules keep a late
//! key from ever being skipped:
//! - a reader re-lists from its previous listing's lake time minus `MARGIN_MS`, and
//!   remembers the keys it handled inside that window (`Mark::seen`);
//! - a writer whose object landed more than `MARGIN_MS / 4` after its key's time (a
//!   slow clock, an offline host's backlog, a retried request) also names it in the
//!   fleet's feed (`feed/<fleet>/<lake-time ULID>.json`), whose own keys are minted on
//!   the lake clock and re-minted if they land late.
//!
//! History objects are named by host and record ids, not by lake time: every one is
//! named in the feed, so the mirror finds new ones from the feed alone.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::keys;
use super::store::{Created, Store};
use crate::error::Result;

/// How far a reader looks back behind its last listing: larger than any clock error
/// between hosts' lake-clock estimates, and than a request's time in flight.
pub(crate) const MARGIN_MS: i64 = 10 * 60 * 1000;

/// Past this delay between a key's time and its landing, the writer names it in the feed.
pub(crate) const LATE_MS: i64 = MARGIN_MS / 4;

/// Where a reader stands in one append-only prefix.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct Mark {
    /// Lake time taken just before the last listing; `None`: never listed.
    pub at_ms: Option<i64>,
    /// Keys inside the look-back window that were already handled.
    pub seen: BTreeSet<String>,
}

impl Mark {
    /// A mark that starts at `now_ms` without reading what came before (the caller has
    /// read the whole prefix another way).
    pub(crate) fn starting_at(now_ms: i64) -> Mark {
        Mark {
            at_ms: Some(now_ms),
            seen: BTreeSet::new(),
        }
    }

    /// Keys under `prefix` not handled yet: the whole prefix the first time, then
    /// only those past the window's floor. `advance` once they are handled.
    /// Keys only (`Store::list_keys`): a first fold lists 100k of them, and a local lake
    /// would otherwise stat every file.
    pub(crate) fn scan(&self, store: &dyn Store, prefix: &str) -> Result<Vec<String>> {
        let mut keys = store.list_keys(prefix, self.start_after(prefix).as_deref())?;
        keys.retain(|k| !self.seen.contains(k));
        Ok(keys)
    }

    /// Where `scan` lists from: the whole prefix (`None`) or after this key.
    pub(crate) fn start_after(&self, prefix: &str) -> Option<String> {
        self.at_ms.map(|t| floor(prefix, t - MARGIN_MS))
    }

    /// Record `handled` keys and move the window to `now_ms` (taken before the scan).
    pub(crate) fn advance<'a>(
        &mut self,
        prefix: &str,
        now_ms: i64,
        handled: impl IntoIterator<Item = &'a str>,
    ) {
        let at = self.at_ms.map_or(now_ms, |t| t.max(now_ms));
        self.at_ms = Some(at);
        let keep_from = floor(prefix, at - MARGIN_MS);
        self.seen = self.seen.split_off(&keep_from);
        // Only keys inside the window are kept: a first listing of 100k old keys costs a
        // comparison each, not an allocation and a tree insert each that `split_off` drops.
        let inside = handled.into_iter().filter(|k| *k >= keep_from.as_str());
        self.seen.extend(inside.map(str::to_string));
    }
}

/// The smallest key under `prefix` whose ULID is at or after `ms` sorts after this.
fn floor(prefix: &str, ms: i64) -> String {
    let t = crate::ulid::encode(ms.max(0) as u64, 0);
    format!("{prefix}{}", &t[..10])
}

/// The time in a key's ULID name (`…/<ULID>.json`), if it has one.
pub(crate) fn key_ms(key: &str) -> Option<i64> {
    crate::ulid::time_ms(keys::stem(key))
}

/// Whether a watermark reader might miss `key`, which landed (or was found) at `landed_ms`.
pub(crate) fn is_late(key: &str, landed_ms: i64) -> bool {
    key_ms(key).is_none_or(|t| landed_ms - t > LATE_MS)
}

/// A feed entry: keys a watermark listing of their own prefix could miss.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct FeedEntry {
    pub keys: Vec<String>,
}

/// Name `listed` in the fleet's feed. Minted on the lake clock; an entry that itself
/// landed late is written again under a fresh key (a duplicate entry is harmless).
/// Returns the keys of the entries it created (the writer may skip its own entries).
pub(crate) fn publish_feed(
    store: &dyn Store,
    fleet: &str,
    listed: Vec<String>,
) -> Result<Vec<String>> {
    publish_feeds(store, vec![(fleet.to_string(), listed)])
}

/// `publish_feed` for several fleets at once: one round of creates, then one more for
/// each entry that landed late.
pub(crate) fn publish_feeds(
    store: &dyn Store,
    feeds: Vec<(String, Vec<String>)>,
) -> Result<Vec<String>> {
    let mut pending: Vec<(String, Vec<u8>)> = feeds
        .into_iter()
        .filter(|(_, listed)| !listed.is_empty())
        .map(|(fleet, keys)| Ok((fleet, crate::error::Error::json(&FeedEntry { keys })?)))
        .collect::<Result<_>>()?;
    let mut made = Vec::new();
    for _ in 0..8 {
        if pending.is_empty() {
            return Ok(made);
        }
        let now = store.now_ms()?;
        let items: Vec<(String, Vec<u8>)> = pending
            .iter()
            .map(|(fleet, body)| (keys::feed_entry(fleet, &lake_ulid(now, body)), body.clone()))
            .collect();
        let created = store.create_many(&items)?;
        made.extend(items.iter().map(|(k, _)| k.clone()));
        // `Exists`: the key's random part is the body's digest, so an entry of the very
        // same keys already holds it (an earlier try whose answer was lost, at the same
        // millisecond): it landed no later than now.
        let landed = |(key, _): &(String, Vec<u8>), c: &Created| match c {
            Created::Yes(at) => !is_late(key, *at),
            Created::Exists => !is_late(key, now),
        };
        let mut done = items.iter().zip(&created).map(|(i, c)| landed(i, c));
        pending.retain(|_| !done.next().unwrap_or(false));
    }
    if pending.is_empty() {
        return Ok(made);
    }
    Err(crate::error::Error::storage(
        "feed_late",
        "the lake's feed entry kept landing late: the store answers too slowly",
    )
    .hint("run `ctxlake sync` again; nothing was lost, the spool is kept until the lake confirms"))
}

/// A ULID for lake time `ms` (the writer's estimate of the store's clock) whose random
/// part is the digest of `body`: two writers collide only on identical content (a
/// harmless `Exists`), and a simulation seed replays.
pub(crate) fn lake_ulid(ms: i64, body: &[u8]) -> String {
    lake_ulid_of(ms, &crate::digest::sha256_hex(body))
}

/// `lake_ulid` from the body's SHA-256 (hex), for a body that was hashed as it was written.
pub(crate) fn lake_ulid_of(ms: i64, hex: &str) -> String {
    let rand = u128::from_str_radix(&hex[..20], 16).unwrap_or_default();
    crate::ulid::encode(ms.max(0) as u64, rand)
}

/// Keys named in the feed entries `entries` (one GET each), sorted, each once.
pub(crate) fn feed_keys(store: &dyn Store, entries: &[String]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for (b, _) in store.get_many(entries)?.into_iter().flatten() {
        if let Ok(e) = serde_json::from_slice::<FeedEntry>(&b) {
            out.extend(e.keys);
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lake::store::LocalStore;

    fn key(prefix: &str, ms: i64, n: u128) -> String {
        format!("{prefix}{}.json", crate::ulid::encode(ms as u64, n))
    }

    #[test]
    fn key_time_round_trips() {
        let k = key("claims/f/events/", 1_764_000_000_123, 7);
        assert_eq!(key_ms(&k), Some(1_764_000_000_123));
        assert_eq!(key_ms("handoffs/f/not-a-ulid.json"), None);
        assert!(
            is_late("handoffs/f/x.json", 0),
            "a name without time is always fed"
        );
    }

    /// A key minted before the last listing but landing after it is still found, and
    /// nothing is handed out twice.
    #[test]
    fn a_late_key_inside_the_window_is_not_skipped() {
        let d = tempfile::tempdir().unwrap();
        let s = LocalStore::open(d.path()).unwrap();
        let p = "handoffs/f/";
        let t0 = 1_764_000_000_000;
        s.create(&key(p, t0, 1), b"a").unwrap();
        let mut m = Mark::default();
        let first = m.scan(&s, p).unwrap();
        assert_eq!(first.len(), 1);
        m.advance(p, t0 + 1000, first.iter().map(String::as_str));
        // Minted 2 minutes before the listing, landing after it.
        s.create(&key(p, t0 - 120_000, 2), b"late").unwrap();
        s.create(&key(p, t0 + 2000, 3), b"new").unwrap();
        let got = m.scan(&s, p).unwrap();
        assert_eq!(got, [key(p, t0 - 120_000, 2), key(p, t0 + 2000, 3)]);
        m.advance(p, t0 + 3000, got.iter().map(String::as_str));
        assert!(m.scan(&s, p).unwrap().is_empty(), "nothing twice");
        // Far behind the window: a plain watermark listing misses it; the feed names it.
        let old = key(p, t0 - 3 * MARGIN_MS, 4);
        s.create(&old, b"offline host").unwrap();
        assert!(m.scan(&s, p).unwrap().is_empty());
        assert!(is_late(&old, t0 + 3000));
        publish_feed(&s, "f", vec![old.clone()]).unwrap();
        let feed = Mark::default().scan(&s, &keys::feed("f")).unwrap();
        assert_eq!(feed_keys(&s, &feed).unwrap(), [old]);
    }

    /// `advance` keeps exactly the handled keys inside the look-back window, whatever
    /// their order: those before its floor are dropped (never stored first).
    #[test]
    fn advance_keeps_only_the_handled_keys_inside_the_window() {
        let p = "claims/f/events/";
        let t0 = 1_764_000_000_000;
        let (old, edge, new) = (
            key(p, t0 - 2 * MARGIN_MS, 1),
            key(p, t0 - MARGIN_MS, 2),
            key(p, t0 - 1, 3),
        );
        let mut m = Mark::default();
        m.advance(p, t0, [new.as_str(), old.as_str(), edge.as_str()]);
        let kept: Vec<&str> = m.seen.iter().map(String::as_str).collect();
        assert_eq!(kept, [edge.as_str(), new.as_str()]);
        // A later window drops what fell behind it.
        m.advance(p, t0 + MARGIN_MS / 2, std::iter::empty());
        let kept: Vec<&str> = m.seen.iter().map(String::as_str).collect();
        assert_eq!(kept, [new.as_str()]);
    }

    /// A drain names its keys in every fleet's feed with one round of creates, and a
    /// fleet with nothing to name gets no entry.
    #[test]
    fn several_feeds_are_published_in_one_round() {
        let d = tempfile::tempdir().unwrap();
        let s = crate::lake::logged::Logged::open(d.path());
        let (a, b) = ("sessions/f/a/s/x.ndjson", "sessions/g/a/s/y.ndjson");
        let feeds = vec![
            ("f".to_string(), vec![a.to_string()]),
            ("g".to_string(), vec![b.to_string()]),
            ("h".to_string(), vec![]),
        ];
        publish_feeds(&s, feeds).unwrap();
        let sent = s.take();
        assert_eq!(sent.iter().filter(|r| r.starts_with("create ")).count(), 2);
        assert_eq!(sent[0], "round create 2", "one round: {sent:?}");
        for (fleet, want) in [("f", vec![a]), ("g", vec![b]), ("h", vec![])] {
            let entries = Mark::default().scan(&s, &keys::feed(fleet)).unwrap();
            assert_eq!(feed_keys(&s, &entries).unwrap(), want, "fleet {fleet}");
        }
    }

    #[test]
    fn the_window_forgets_keys_behind_it() {
        let p = "claims/f/events/";
        let mut m = Mark::default();
        let (a, b) = (key(p, 1_000_000_000, 0), key(p, 2_000_000_000, 0));
        m.advance(p, 2_000_000_000, [a.as_str(), b.as_str()]);
        assert_eq!(m.seen.iter().collect::<Vec<_>>(), [&b]);
    }
}
