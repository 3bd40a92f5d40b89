//! The mirror's requests: each step lists from its watermark (or, for presences, which
//! are overwritten in place, compares the listing's size and time with what it holds)
//! and GETs only new or changed objects into `State`.

use std::collections::BTreeSet;

use super::state::{self, Listed, Session, State};
use crate::cache::SessionDigest;
use crate::error::Result;
use crate::lake::manifest::Manifest;
use crate::lake::presence::PresenceObj;
use crate::lake::store::Store;
use crate::lake::watermark;
use crate::lake::{batch, keys};

/// Presences changed since the last pass (by size and time), and drop removed ones.
pub(super) fn presences(store: &dyn Store, fleet: &str, st: &mut State) -> Result<()> {
    let listed = store.list(&keys::presences(fleet))?;
    let live: BTreeSet<&str> = listed.iter().map(|o| o.key.as_str()).collect();
    st.presences.retain(|k, _| live.contains(k.as_str()));
    for o in &listed {
        let same = st
            .presences
            .get(&o.key)
            .is_some_and(|l| l.size == o.size && l.mtime_ms == o.mtime_ms);
        if same {
            continue;
        }
        let Some((bytes, _)) = store.get(&o.key)? else {
            continue;
        };
        let Ok(mut obj) = serde_json::from_slice::<PresenceObj>(&bytes) else {
            continue;
        };
        obj.applied.clear(); // only the drainer needs them
        let l = Listed {
            size: o.size,
            mtime_ms: o.mtime_ms,
            obj,
        };
        st.presences.insert(o.key.clone(), l);
    }
    Ok(())
}

/// Keys the feed named since the last pass.
pub(super) fn feed(
    store: &dyn Store,
    fleet: &str,
    st: &mut State,
    lake_now: i64,
) -> Result<Vec<String>> {
    let prefix = keys::feed(fleet);
    let entries = st.feed_mark.scan(store, &prefix)?;
    let keys = watermark::feed_keys(store, &entries)?;
    st.feed_mark
        .advance(&prefix, lake_now, entries.iter().map(|o| o.key.as_str()));
    Ok(keys)
}

/// New session segments: every one on the first pass, then those the feed names.
/// Returns the sessions (`<agent>/<session>`) that got records.
pub(super) fn segments(
    paths: &crate::paths::Paths,
    store: &dyn Store,
    fleet: &str,
    st: &mut State,
    fed: &[String],
) -> Result<BTreeSet<String>> {
    let prefix = keys::sessions(fleet);
    let keys: Vec<String> = if st.handoffs_mark.at_ms.is_none() {
        store.list(&prefix)?.into_iter().map(|o| o.key).collect()
    } else {
        fed.iter()
            .filter(|k| k.starts_with(&prefix))
            .cloned()
            .collect()
    };
    let mut touched = BTreeSet::new();
    // A bounded batch at a time: the first pass may read the whole history.
    for batch in keys.chunks(256) {
        let got = store.get_many(batch)?;
        for (k, got) in batch.iter().zip(got) {
            let parts: Vec<&str> = k.split('/').collect();
            let (Some(agent), Some(session), Some((bytes, mtime))) =
                (parts.get(2), parts.get(3), got)
            else {
                continue;
            };
            let s = format!("{agent}/{session}");
            state::append(paths, fleet, &s, &bytes)?;
            let e = st.sessions.entry(s.clone()).or_insert_with(|| Session {
                seen_ms: mtime,
                digest: SessionDigest::default(),
            });
            e.seen_ms = e.seen_ms.max(mtime);
            touched.insert(s);
        }
    }
    Ok(touched)
}

/// New handoffs (from the watermark and the feed), merged into the newest `keep`.
pub(super) fn handoffs(
    store: &dyn Store,
    fleet: &str,
    st: &mut State,
    fed: &[String],
    lake_now: i64,
    keep: usize,
    bad_lines: &mut usize,
) -> Result<()> {
    let prefix = keys::handoffs(fleet);
    let listed = st.handoffs_mark.scan(store, &prefix)?;
    let mut new: Vec<&str> = listed.iter().map(|o| o.key.as_str()).collect();
    new.extend(
        fed.iter()
            .filter(|k| k.starts_with(&prefix))
            .map(String::as_str),
    );
    new.sort_unstable_by(|a, b| b.cmp(a));
    new.dedup();
    let held: BTreeSet<String> = st.notes.iter().map(|n| n.id.clone()).collect();
    let fetch: Vec<String> = new
        .into_iter()
        .filter(|k| !held.contains(keys::stem(k)))
        .map(str::to_string)
        .collect();
    // Newest first, a bounded batch at a time, until `keep` notes are in hand: a batch
    // object holds many notes, a legacy one holds one.
    let mut got = 0;
    for chunk in fetch.chunks(64) {
        if got >= keep {
            break;
        }
        for (k, found) in chunk.iter().zip(store.get_many(chunk)?) {
            let Some((bytes, _)) = found else { continue };
            let (notes, bad) = batch::notes(k, &bytes, fleet);
            got += notes.len();
            st.notes.extend(notes);
            *bad_lines += bad;
        }
    }
    st.notes.sort_by(|a, b| b.id.cmp(&a.id));
    st.notes.dedup_by(|a, b| a.id == b.id);
    st.notes.truncate(keep);
    st.handoffs_mark
        .advance(&prefix, lake_now, listed.iter().map(|o| o.key.as_str()));
    Ok(())
}

/// The highest manifest: only numbers past the one held are listed.
pub(super) fn manifest(store: &dyn Store, fleet: &str, st: &mut State) -> Result<Option<Manifest>> {
    let prefix = keys::manifests(fleet);
    let newer = match &st.manifest {
        Some(m) => store.list_after(&prefix, &keys::manifest(fleet, m.seq))?,
        None => store.list(&prefix)?,
    };
    if let Some(last) = newer
        .into_iter()
        .rfind(|o| keys::manifest_seq(&o.key).is_some())
        && let Some((b, _)) = store.get(&last.key)?
        && let Ok(m) = serde_json::from_slice::<Manifest>(&b)
    {
        st.manifest = Some(m);
    }
    Ok(st.manifest.clone())
}
