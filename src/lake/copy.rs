//! `lake copy`: move a lake into another store (a local lake into a bucket), in chunks
//! of objects with create-if-absent. The destination is listed once first, so a re-run
//! copies only what is missing: idempotent and resumable after any interruption. Both
//! lakes must be in this build's format; the source's marker is copied with the rest.

use std::collections::HashMap;

use serde::Serialize;

use super::store::{Created, Store};
use crate::error::Result;

/// How many differing keys the report names.
const NAME_AT_MOST: usize = 20;
/// Objects read and then created per round (the stores bound what is in flight).
const CHUNK: usize = 256;

#[derive(Debug, Default, Serialize)]
pub struct CopyReport {
    pub from: String,
    pub to: String,
    pub objects: usize,
    pub copied: usize,
    pub already_present: usize,
    /// Keys present in both with different sizes: left alone, named here.
    pub differing: Vec<String>,
}

/// Scratch keys of the probe and the clock are never copied.
fn is_scratch(key: &str) -> bool {
    key.starts_with("probe/") || key.starts_with("clock/")
}

pub fn copy(
    from: &dyn Store,
    to: &dyn Store,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<CopyReport> {
    // Nothing is written into a lake of another format, nor copied out of one.
    super::format::ensure(from)?;
    super::format::read(to)?;
    let present: HashMap<String, u64> = to.list("")?.into_iter().map(|o| (o.key, o.size)).collect();
    let objects: Vec<_> = from
        .list("")?
        .into_iter()
        .filter(|o| !is_scratch(&o.key))
        .collect();
    let mut r = CopyReport {
        from: from.url(),
        to: to.url(),
        objects: objects.len(),
        ..Default::default()
    };
    let mut missing = Vec::new();
    for o in &objects {
        match present.get(&o.key) {
            Some(size) if *size == o.size => r.already_present += 1,
            Some(_) => r.differing.push(o.key.clone()),
            None => missing.push(o.key.clone()),
        }
    }
    let mut done = r.already_present + r.differing.len();
    progress(done, objects.len());
    let mut fed: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    // A chunk's reads, then its creates, each with several requests in flight on a
    // remote store: a copy into a bucket is bound by round trips, not bytes.
    for chunk in missing.chunks(CHUNK) {
        let got = from.get_many(chunk)?;
        let items: Vec<(String, Vec<u8>)> = chunk
            .iter()
            .zip(got)
            // None: gone since the listing.
            .filter_map(|(k, g)| g.map(|(bytes, _)| (k.clone(), bytes)))
            .collect();
        for ((key, _), created) in items.iter().zip(to.create_many(&items)?) {
            match created {
                Created::Yes(at) => {
                    r.copied += 1;
                    if let Some(fleet) = needs_feed(key, at) {
                        fed.entry(fleet.to_string()).or_default().push(key.clone());
                    }
                }
                Created::Exists => r.already_present += 1,
            }
        }
        done += chunk.len();
        progress(done, objects.len());
    }
    r.differing.truncate(NAME_AT_MOST);
    // Copied objects carry their old names: readers of a lake already in use find
    // them through the feed (see `lake::watermark`).
    for (fleet, keys) in fed {
        for chunk in keys.chunks(1000) {
            super::watermark::publish_feed(to, &fleet, chunk.to_vec())?;
        }
    }
    to.flush()?;
    Ok(r)
}

/// The fleet whose feed must name `key`, created at `at`: history objects, handoff
/// batches and manifests, which readers of a lake in use find through the feed alone
/// (lake format 3), and claim-event batches that a watermark listing could miss.
fn needs_feed(key: &str, at: i64) -> Option<&str> {
    let mut parts = key.split('/');
    let fleet = parts.nth(1)?;
    let fed = match super::keys::fed(fleet, key)? {
        super::keys::Fed::Events => super::watermark::is_late(key, at),
        _ => true,
    };
    fed.then_some(fleet)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lake::LocalStore;

    #[test]
    fn copy_is_idempotent_and_resumes() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (from, to) = (
            LocalStore::open(a.path()).unwrap(),
            LocalStore::open(b.path()).unwrap(),
        );
        let (one, two) = ("handoffs/f/01A.ndjson", "handoffs/f/01B.ndjson");
        for k in [one, two, "fleets/f", "probe/x"] {
            from.create(k, k.as_bytes()).unwrap();
        }
        to.create(one, one.as_bytes()).unwrap(); // an earlier, cut-short run
        to.create("fleets/f", b"other bytes").unwrap();
        let r = copy(&from, &to, &mut |_, _| {}).unwrap();
        assert_eq!((r.objects, r.copied, r.already_present), (4, 2, 1));
        assert_eq!(r.differing, ["fleets/f"]);
        assert_eq!(to.get(two).unwrap().unwrap().0, two.as_bytes());
        let marker = crate::lake::keys::FORMAT_MARKER;
        assert_eq!(
            to.get(marker).unwrap().unwrap().0,
            from.get(marker).unwrap().unwrap().0,
            "the source's format marker is copied"
        );
        assert!(
            to.get("probe/x").unwrap().is_none(),
            "scratch keys stay behind"
        );
        let again = copy(&from, &to, &mut |_, _| {}).unwrap();
        assert_eq!((again.copied, again.already_present), (0, 3));
    }

    /// Readers of a lake in use find handoff batches and manifests through the feed
    /// alone: a copy names every one it creates (and history), not an on-time event batch.
    #[test]
    fn a_copy_names_its_handoffs_and_manifests_in_the_feed() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (from, to) = (
            LocalStore::open(a.path()).unwrap(),
            LocalStore::open(b.path()).unwrap(),
        );
        let now = crate::ulid::new();
        let k = crate::lake::keys::handoff_batch("f", &now);
        let m = crate::lake::keys::manifest("f", 1);
        let e = crate::lake::keys::claim_event_batch("f", &now);
        for key in [&k, &m, &e] {
            from.create(key, b"x").unwrap();
        }
        copy(&from, &to, &mut |_, _| {}).unwrap();
        let feed = to.list_keys(&crate::lake::keys::feed("f"), None).unwrap();
        let named = crate::lake::watermark::feed_keys(&to, &feed).unwrap();
        let mut want = vec![k, m];
        want.sort();
        assert_eq!(named, want);
    }

    /// A destination of another format is refused before anything is copied into it.
    #[test]
    fn a_destination_of_another_format_is_refused() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (from, to) = (
            LocalStore::open(a.path()).unwrap(),
            LocalStore::open(b.path()).unwrap(),
        );
        from.create("fleets/f", b"").unwrap();
        let marker = crate::lake::keys::FORMAT_MARKER;
        to.create(marker, br#"{"format": 2}"#).unwrap();
        let e = copy(&from, &to, &mut |_, _| {}).unwrap_err();
        assert_eq!(e.code, "lake_format_unknown");
        assert!(to.get("fleets/f").unwrap().is_none());
    }
}
