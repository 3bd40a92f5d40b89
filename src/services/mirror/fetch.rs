//! Applying what a pass read (see `plan`) to one fleet's mirror state: host rosters
//! whose listing changed (rosters are overwritten in place, so their listed size and
//! time say whether to read them again), the keys new feed entries name, new handoffs,
//! the newest manifest (history objects: `history`).

use std::collections::BTreeSet;

use super::plan::{self, Fetched, Listed};
use super::refuse::Skipped;
use super::state::{ListedRoster, State};
use crate::fleet::roster;
use crate::lake::manifest::Manifest;
use crate::lake::store::Object;
use crate::lake::watermark::FeedEntry;
use crate::lake::{batch, keys};

/// Keep the rosters `listed` holds; replace the changed ones by what was read. A roster
/// that does not parse is held empty, so it is not read again until it changes.
///
/// A session belongs to the roster that first carried it, as this host saw it (the
/// owners it remembers; rosters read in the same pass go in order of their store time,
/// then key). A later roster claiming it (another host speaking for that session: a
/// forgery, or a bug) has that entry refused; ownership lapses when the owner's roster no
/// longer carries the session. Returns the entries refused and a note naming the last.
pub(super) fn rosters(
    fleet: &str,
    st: &mut State,
    listed: &[Object],
    got: &mut Fetched,
) -> (usize, Option<String>) {
    let live: BTreeSet<&str> = listed.iter().map(|o| o.key.as_str()).collect();
    st.rosters.retain(|k, _| live.contains(k.as_str()));
    let rosters = &st.rosters;
    st.owners.retain(|s, key| {
        rosters
            .get(key)
            .is_some_and(|r| r.sessions.iter().any(|p| session_id(p) == *s))
    });
    let mut changed = plan::changed_rosters(st, listed);
    changed.sort_by(|a, b| (a.mtime_ms, &a.key).cmp(&(b.mtime_ms, &b.key)));
    let (mut refused, mut note) = (0, None);
    for o in changed {
        let Some((bytes, _)) = got.take(&o.key) else {
            continue;
        };
        let mut sessions = roster::read_sessions(&bytes, fleet).unwrap_or_default();
        sessions.retain(|p| {
            let id = session_id(p);
            match st.owners.get(&id) {
                Some(owner) if *owner != o.key => {
                    refused += 1;
                    note = Some(format!(
                        "roster `{}` speaks for session `{id}`, which roster `{owner}` carried first: refused",
                        o.key
                    ));
                    false
                }
                _ => {
                    st.owners.insert(id, o.key.clone());
                    true
                }
            }
        });
        let r = ListedRoster {
            size: o.size,
            mtime_ms: o.mtime_ms,
            tag: o.tag,
            sessions,
        };
        st.rosters.insert(o.key.clone(), r);
    }
    (refused, note)
}

fn session_id(p: &crate::fleet::presence::PresenceObj) -> String {
    format!("{}/{}", p.agent, p.session)
}

/// What the new feed entries name, each key checked as untrusted input for its kind and
/// `fleet` (`keys::fed`): history objects and handoff batches come back (sorted, each
/// once), manifests past the one `st` holds join `listed.manifests` (the newest plausible
/// wins, as if listed); claim events are `maint`'s. Any other key is refused, counted and
/// named in `skipped`, and never read. The feed's watermark moves to `lake_now`.
pub(super) fn feed(
    fleet: &str,
    st: &mut State,
    listed: &mut Listed,
    got: &mut Fetched,
    lake_now: i64,
    skipped: &mut Skipped,
) -> Vec<String> {
    let mut named = Vec::new();
    for o in &listed.feed {
        let Some((bytes, _)) = got.take(&o.key) else {
            continue;
        };
        if let Ok(e) = serde_json::from_slice::<FeedEntry>(&bytes) {
            named.extend(e.keys);
        }
    }
    named.sort();
    named.dedup();
    let held = st.manifest.as_ref().map_or(0, |m| m.seq);
    let mut out = Vec::new();
    for k in named {
        match keys::fed(fleet, &k) {
            Some(keys::Fed::History | keys::Fed::Handoff) => out.push(k),
            Some(keys::Fed::Manifest(seq)) if seq > held => listed.manifests.push(Object {
                key: k,
                size: 0,
                mtime_ms: 0,
                tag: 0,
            }),
            Some(keys::Fed::Manifest(_) | keys::Fed::Events) => {}
            None => {
                skipped.bad_keys += 1;
                skipped.key_note = Some(format!(
                    "the feed named `{}`, which is no key of this fleet a mirror reads: refused",
                    k.escape_debug()
                ));
            }
        }
    }
    listed.manifests.sort_by(|a, b| a.key.cmp(&b.key));
    listed.manifests.dedup_by(|a, b| a.key == b.key);
    let prefix = keys::feed(fleet);
    st.feed_mark.advance(
        &prefix,
        lake_now,
        listed.feed.iter().map(|o| o.key.as_str()),
    );
    out
}

/// The handoff batches the feed names that round two did not read (nor `st` holds).
pub(super) fn fed_handoffs(
    fleet: &str,
    st: &State,
    listed: &Listed,
    fed: &[String],
) -> Vec<String> {
    let prefix = keys::handoffs(fleet);
    let read: BTreeSet<&str> = listed.handoffs.iter().map(|o| o.key.as_str()).collect();
    let named: Vec<Object> = fed
        .iter()
        .filter(|k| k.starts_with(&prefix) && !read.contains(k.as_str()))
        .map(|k| Object {
            key: k.clone(),
            size: 0,
            mtime_ms: 0,
            tag: 0,
        })
        .collect();
    plan::new_handoffs(st, &named)
}

/// How far past its batch's store time a note may claim to be from: ids and `ts` come
/// from the writer's clock, which may run a little ahead of the lake's.
const FUTURE_SLACK_MS: i64 = 10 * 60 * 1000;

/// The notes of a handoff batch of `fleet` stored at lake time `mtime`, added to what
/// `st` holds; the lines skipped. A note whose id or time claims to be later than its
/// batch landed (plus slack) was minted in the future: its time is clamped to the batch's
/// lake time, so it cannot lead every briefing forever (see `order`).
pub(super) fn handoffs(fleet: &str, st: &mut State, bytes: &[u8], mtime: i64) -> usize {
    let (mut notes, bad) = batch::notes(bytes, fleet);
    let latest = mtime.saturating_add(FUTURE_SLACK_MS);
    for n in &mut notes {
        if order(n) > latest {
            n.at = crate::time::format_ms(mtime);
        }
    }
    st.notes.extend(notes);
    bad
}

/// Where a note sorts (newest first): the earlier of its id's time and its `at`, so a
/// clamped note sorts at its batch's lake time whatever its id says.
fn order(n: &crate::cache::HandoffNote) -> i64 {
    let id = crate::ulid::time_ms(&n.id).unwrap_or(i64::MAX);
    let at = crate::time::parse_rfc3339(&n.at).unwrap_or(i64::MAX);
    id.min(at)
}

/// Every handoff read this pass is in: keep the newest `keep` notes, and move the
/// handoff watermark past what round one listed. A batch is named by its oldest note and
/// may hold notes newer than any later-named batch (two hosts, or a backlog drained
/// late), so every new batch was read.
pub(super) fn handoffs_done(
    fleet: &str,
    st: &mut State,
    listed: &Listed,
    lake_now: i64,
    keep: usize,
) {
    st.notes
        .sort_by(|a, b| b.id.cmp(&a.id).then_with(|| order(a).cmp(&order(b))));
    // Of one note read twice, the copy with the earlier (clamped) time is kept.
    st.notes.dedup_by(|a, b| a.id == b.id);
    st.notes
        .sort_by(|a, b| order(b).cmp(&order(a)).then_with(|| b.id.cmp(&a.id)));
    st.notes.truncate(keep);
    let prefix = keys::handoffs(fleet);
    st.handoffs_mark.advance(
        &prefix,
        lake_now,
        listed.handoffs.iter().map(|o| o.key.as_str()),
    );
}

/// The newest manifest: the one round two read when the listing (only numbers past the
/// one held) had a newer one that parses and names its fleet's snapshot by its digest
/// (`Manifest::names_its_snapshot`), else the one held. `Err(())`: the newest one read
/// was refused.
pub(super) fn manifest(
    fleet: &str,
    st: &mut State,
    listed: &Listed,
    got: &mut Fetched,
) -> (Option<Manifest>, bool) {
    let mut refused = false;
    if let Some(key) = plan::newest_manifest(st, &listed.manifests)
        && let Some((b, _)) = got.take(key)
        && let Ok(m) = serde_json::from_slice::<Manifest>(&b)
    {
        if m.names_its_snapshot(fleet) {
            st.manifest = Some(m);
        } else {
            refused = true;
        }
    }
    (st.manifest.clone(), refused)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lake::LocalStore;
    use crate::lake::batch::test_record;
    use crate::lake::store::Store;
    use crate::spool;

    /// Round one and two for handoffs alone, then what a pass keeps.
    fn pass(store: &LocalStore, st: &mut State, keep: usize) -> usize {
        let prefix = keys::handoffs("f");
        let listed = Listed {
            handoffs: store.list(&prefix).unwrap(),
            ..Listed::default()
        };
        let keys = plan::new_handoffs(st, &listed.handoffs);
        let mut got = plan::get(store, keys.clone()).unwrap();
        let mut bad = 0;
        for k in keys {
            let (bytes, _) = got.take(&k).unwrap();
            bad += handoffs("f", st, &bytes, i64::MAX - 1);
        }
        handoffs_done("f", st, &listed, 0, keep);
        bad
    }

    fn note(i: u64) -> crate::spool::Record {
        let payload = serde_json::json!({"summary": format!("n{i}"), "status": "done"});
        test_record(i, "f", "fleet_handoff", payload)
    }

    fn ids(st: &State) -> Vec<String> {
        st.notes.iter().map(|n| n.id.clone()).collect()
    }

    /// The newest `keep` handoffs come from every new batch, and a batch's stray line is
    /// skipped and counted, not the batch; a key that is no batch's is never read.
    #[test]
    fn the_newest_handoffs_come_from_every_new_batch() {
        let d = tempfile::tempdir().unwrap();
        let store = LocalStore::open(d.path()).unwrap();
        for first in [2, 6, 10] {
            let mut body: Vec<u8> = (first..first + 4)
                .flat_map(|i| spool::encode(&note(i)).unwrap())
                .collect();
            let stray = test_record(99, "other", "fleet_handoff", serde_json::json!({}));
            body.extend(spool::encode(&stray).unwrap());
            let key = keys::handoff_batch("f", &note(first).id);
            store.create(&key, &body).unwrap();
        }
        let single = format!("handoffs/f/{}.json", note(20).id);
        store.create(&single, b"{}").unwrap();
        let want =
            |range: std::ops::Range<u64>| range.rev().map(|i| note(i).id).collect::<Vec<_>>();
        let mut st = State::default();
        assert_eq!(pass(&store, &mut st, 5), 3, "one stray line in each batch");
        assert_eq!(ids(&st), want(9..14));
        let mut st = State::default();
        pass(&store, &mut st, 100);
        assert_eq!(ids(&st), want(2..14));
    }

    /// A batch named by an older note can hold the newest note: a later-named batch that
    /// alone fills `keep` must not hide it.
    #[test]
    fn a_newer_note_in_an_older_named_batch_is_not_skipped() {
        let d = tempfile::tempdir().unwrap();
        let store = LocalStore::open(d.path()).unwrap();
        let batch = |ids: &[u64]| -> Vec<u8> {
            ids.iter()
                .flat_map(|i| spool::encode(&note(*i)).unwrap())
                .collect()
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
        let mut st = State::default();
        pass(&store, &mut st, 5);
        let want: Vec<String> = [30, 24, 23, 22, 21].iter().map(|i| note(*i).id).collect();
        assert_eq!(ids(&st), want);
    }
}
