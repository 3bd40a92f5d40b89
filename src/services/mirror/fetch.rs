//! The mirror's requests: each step lists from its watermark (or, for host rosters and
//! legacy presences, which are overwritten in place, compares the listing's size and time
//! with what it holds) and GETs only new or changed objects into `State`.

use std::collections::BTreeSet;

use super::state::{self, Listed, ListedRoster, Session, State};
use crate::cache::SessionDigest;
use crate::error::Result;
use crate::fleet::presence::PresenceObj;
use crate::fleet::roster;
use crate::lake::manifest::Manifest;
use crate::lake::store::{Object, Store};
use crate::lake::watermark;
use crate::lake::{batch, keys};

/// Host rosters and legacy presences changed since the last pass (by listed size and
/// time), from one listing of `live/<fleet>/`; removed ones are dropped.
pub(super) fn live(store: &dyn Store, fleet: &str, st: &mut State) -> Result<()> {
    let (hosts, legacy) = split_live(fleet, store.list(&keys::live(fleet))?);
    rosters(store, fleet, st, &hosts)?;
    presences(store, st, &legacy)
}

/// A listing of `live/<fleet>/` as (host rosters, legacy presences); anything else there
/// (a folder marker, a stray key) is neither.
pub(super) fn split_live(fleet: &str, listed: Vec<Object>) -> (Vec<Object>, Vec<Object>) {
    let (hosts, legacy): (Vec<Object>, Vec<Object>) = listed
        .into_iter()
        .filter(|o| !o.key.ends_with('/'))
        .partition(|o| o.key.starts_with(&keys::rosters(fleet)));
    let legacy = legacy
        .into_iter()
        .filter(|o| o.key.starts_with(&keys::presences(fleet)))
        .collect();
    (hosts, legacy)
}

/// The listed objects whose size or time differ from what `held` says it has.
fn changed(listed: &[Object], held: impl Fn(&str) -> Option<(u64, i64)>) -> Vec<&Object> {
    listed
        .iter()
        .filter(|o| held(&o.key) != Some((o.size, o.mtime_ms)))
        .collect()
}

/// Listed rosters `st` does not hold as listed.
pub(super) fn changed_rosters<'a>(st: &State, listed: &'a [Object]) -> Vec<&'a Object> {
    changed(listed, |k| st.rosters.get(k).map(|r| (r.size, r.mtime_ms)))
}

/// Listed legacy presences `st` does not hold as listed.
pub(super) fn changed_presences<'a>(st: &State, listed: &'a [Object]) -> Vec<&'a Object> {
    changed(listed, |k| {
        st.presences.get(k).map(|l| (l.size, l.mtime_ms))
    })
}

/// A roster that does not parse is held empty, so it is not fetched again until it changes.
fn rosters(store: &dyn Store, fleet: &str, st: &mut State, listed: &[Object]) -> Result<()> {
    let live: BTreeSet<&str> = listed.iter().map(|o| o.key.as_str()).collect();
    st.rosters.retain(|k, _| live.contains(k.as_str()));
    let changed = changed_rosters(st, listed);
    let keys: Vec<String> = changed.iter().map(|o| o.key.clone()).collect();
    for (o, got) in changed.into_iter().zip(store.get_many(&keys)?) {
        let Some((bytes, _)) = got else { continue };
        let sessions = roster::read_sessions(&bytes, fleet).unwrap_or_default();
        let r = ListedRoster {
            size: o.size,
            mtime_ms: o.mtime_ms,
            sessions,
        };
        st.rosters.insert(o.key.clone(), r);
    }
    Ok(())
}

/// Per-session presence objects written by older builds.
fn presences(store: &dyn Store, st: &mut State, listed: &[Object]) -> Result<()> {
    let live: BTreeSet<&str> = listed.iter().map(|o| o.key.as_str()).collect();
    st.presences.retain(|k, _| live.contains(k.as_str()));
    let changed = changed_presences(st, listed);
    let keys: Vec<String> = changed.iter().map(|o| o.key.clone()).collect();
    for (o, got) in changed.into_iter().zip(store.get_many(&keys)?) {
        let Some((bytes, _)) = got else { continue };
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
    // A legacy object holds one note and is named by it, so its newest `keep` are exact.
    // A batch object is named by its oldest note and may hold notes newer than any
    // later-named object (two hosts, or a backlog drained late), so every new batch is read.
    let (batches, legacy): (Vec<String>, Vec<String>) =
        fetch.into_iter().partition(|k| k.ends_with(".ndjson"));
    let mut want: Vec<String> = legacy.into_iter().take(keep).collect();
    want.extend(batches);
    for wave in want.chunks(64) {
        for (k, found) in wave.iter().zip(store.get_many(wave)?) {
            let Some((bytes, _)) = found else { continue };
            let (notes, bad) = batch::notes(k, &bytes, fleet);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lake::LocalStore;
    use crate::lake::batch::test_record;
    use crate::spool;

    /// The newest `keep` handoffs come from batch objects and legacy single objects
    /// alike, and a batch's stray line is skipped and counted, not the batch.
    #[test]
    fn the_newest_handoffs_come_from_batches_and_legacy_objects() {
        let d = tempfile::tempdir().unwrap();
        let store = LocalStore::open(d.path()).unwrap();
        let note = |i: u64| {
            let payload = serde_json::json!({"summary": format!("n{i}"), "status": "done"});
            test_record(i, "f", "fleet_handoff", payload)
        };
        for i in 0..2 {
            let r = note(i);
            let legacy = serde_json::json!({"id": r.id, "at": r.ts, "agent": "a",
                "session": "s", "summary": format!("n{i}"), "status": "done"});
            store
                .create(&keys::handoff("f", &r.id), legacy.to_string().as_bytes())
                .unwrap();
        }
        for first in [2, 6, 10] {
            let mut body: Vec<u8> = (first..first + 4)
                .flat_map(|i| spool::encode(&note(i)))
                .collect();
            body.extend(spool::encode(&test_record(
                99,
                "other",
                "fleet_handoff",
                serde_json::json!({}),
            )));
            let key = keys::handoff_batch("f", &note(first).id);
            store.create(&key, &body).unwrap();
        }
        let ids = |st: &State| st.notes.iter().map(|n| n.id.clone()).collect::<Vec<_>>();
        let want =
            |range: std::ops::Range<u64>| range.rev().map(|i| note(i).id).collect::<Vec<_>>();
        let (mut st, mut bad) = (State::default(), 0);
        handoffs(&store, "f", &mut st, &[], 0, 5, &mut bad).unwrap();
        assert_eq!(ids(&st), want(9..14));
        assert_eq!(bad, 3, "one stray line in each batch, every new batch read");
        let (mut st, mut bad) = (State::default(), 0);
        handoffs(&store, "f", &mut st, &[], 0, 100, &mut bad).unwrap();
        assert_eq!(ids(&st), want(0..14));
        assert_eq!(bad, 3);
    }

    /// A batch named by an older note can hold the newest note: a later-named batch that
    /// alone fills `keep` must not hide it.
    #[test]
    fn a_newer_note_in_an_older_named_batch_is_not_skipped() {
        let d = tempfile::tempdir().unwrap();
        let store = LocalStore::open(d.path()).unwrap();
        let note = |i: u64| {
            let payload = serde_json::json!({"summary": format!("n{i}"), "status": "done"});
            test_record(i, "f", "fleet_handoff", payload)
        };
        let batch = |ids: &[u64]| -> Vec<u8> {
            ids.iter().flat_map(|i| spool::encode(&note(*i))).collect()
        };
        store
            .create(
                &keys::handoff_batch("f", &note(20).id),
                &batch(&[20, 21, 22, 23, 24]),
            )
            .unwrap();
        store
            .create(&keys::handoff_batch("f", &note(15).id), &batch(&[15, 30]))
            .unwrap();
        let (mut st, mut bad) = (State::default(), 0);
        handoffs(&store, "f", &mut st, &[], 0, 5, &mut bad).unwrap();
        let ids: Vec<String> = st.notes.iter().map(|n| n.id.clone()).collect();
        let want: Vec<String> = [30, 24, 23, 22, 21].iter().map(|i| note(*i).id).collect();
        assert_eq!(ids, want);
    }
}
