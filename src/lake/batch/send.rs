//! Writing batch objects exactly once. A drain flush hands over its create-only records
//! by fleet and area; they go out as bounded batches, several in flight on a remote
//! store, and come back counted.
//!
//! A redo after a crash starts from the same spool watermark, so its batches start with
//! the same first records and their creates answer `Exists`: each such object is read
//! back, the records it holds count as applied, and the rest go into a new batch keyed
//! by the first missing record. A redo whose batches may be cut differently (the crash
//! left the watermark marked open, and an upgrade may have changed the bound, the scrub
//! or the layout) first lists the area from its oldest id and reads every object named
//! by one of its records, so nothing already in the lake is written twice.

use std::collections::{BTreeMap, HashSet};

use super::{Area, decode, is_batch, split};
use crate::error::{Error, Result};
use crate::lake::keys;
use crate::lake::store::{Created, Store};
use crate::spool::{self, Record};

/// What a send did.
#[derive(Debug, Default)]
pub(crate) struct Sent {
    pub applied: usize,
    pub already_applied: usize,
    /// Keys to name in the feed, by fleet (the caller does): every handoff batch, which
    /// readers find through the feed alone (lake format 3), and any other batch that
    /// landed late.
    pub late: Vec<(String, String)>,
}

/// One batch object on its way into the lake.
struct Batch {
    fleet: String,
    area: Area,
    key: String,
    recs: Vec<Record>,
    body: Vec<u8>,
}

impl Batch {
    fn new(fleet: &str, area: Area, recs: Vec<Record>, body: Vec<u8>) -> Batch {
        let first = recs.first().map_or("", |r| r.id.as_str());
        Batch {
            fleet: fleet.to_string(),
            area,
            key: area.key(fleet, first),
            recs,
            body,
        }
    }
}

/// Write `groups` (records by fleet and area, in spool order) into `store`. `recheck`:
/// an earlier run may have written some of them under other keys. `held`: ids that
/// objects already hold, learnt from read-backs, kept by the caller across the blocks
/// of one spool file (an object of the crashed run may hold records of the next block).
/// `lake_now` is the writer's estimate of the store's clock.
pub(crate) fn send(
    store: &dyn Store,
    groups: BTreeMap<(String, Area), Vec<Record>>,
    recheck: bool,
    held: &mut HashSet<String>,
    lake_now: &dyn Fn() -> i64,
) -> Result<Sent> {
    let mut sent = Sent::default();
    let mut todo: Vec<Batch> = Vec::new();
    for ((fleet, area), recs) in groups {
        if recheck {
            already_there(store, &fleet, area, &recs, held, &mut sent)?;
        }
        let (there, recs): (Vec<Record>, Vec<Record>) =
            recs.into_iter().partition(|r| held.contains(&r.id));
        sent.already_applied += there.len();
        for (recs, body) in split(recs)? {
            todo.push(Batch::new(&fleet, area, recs, body));
        }
    }
    while !todo.is_empty() {
        let items: Vec<(String, Vec<u8>)> = todo
            .iter_mut()
            .map(|b| (b.key.clone(), std::mem::take(&mut b.body)))
            .collect();
        let answers = store.create_many(&items)?;
        let now = lake_now();
        let mut exists = Vec::new();
        for (b, created) in todo.into_iter().zip(answers) {
            let landed = match created {
                Created::Yes(at) => {
                    sent.applied += b.recs.len();
                    at
                }
                // Ours from an earlier try, or found now: it landed no later than now.
                Created::Exists => now,
            };
            if fed(b.area, &b.key, landed) {
                sent.late.push((b.fleet.clone(), b.key.clone()));
            }
            if created == Created::Exists {
                exists.push(b);
            }
        }
        todo = settle(store, exists, held, &mut sent)?;
    }
    Ok(sent)
}

/// Whether the batch `key` of `area`, landed (or found) at lake time `landed`, is named
/// in the feed: every handoff batch is; a claim-event batch when it landed late
/// (`maint` lists events from its watermark).
fn fed(area: Area, key: &str, landed: i64) -> bool {
    area == Area::Handoffs || crate::lake::watermark::is_late(key, landed)
}

/// Read back the objects whose create answered `Exists`: count the records they hold as
/// applied, and return new batches of the records still missing.
fn settle(
    store: &dyn Store,
    exists: Vec<Batch>,
    held: &mut HashSet<String>,
    sent: &mut Sent,
) -> Result<Vec<Batch>> {
    let keys: Vec<String> = exists.iter().map(|b| b.key.clone()).collect();
    for (b, got) in exists.iter().zip(store.get_many(&keys)?) {
        let Some((bytes, _)) = got else {
            return Err(Error::storage(
                "batch_unreadable",
                format!("the lake says `{}` exists but it cannot be read back", b.key),
            )
            .hint("run `ctxlake sync` again; nothing was lost, the spool is kept until the lake confirms"));
        };
        held.extend(decode(&bytes, &b.fleet, b.area).0.into_iter().map(|r| r.id));
    }
    let mut again = Vec::new();
    for b in exists {
        let first = b.recs.first().map(|r| r.id.clone());
        let (there, mut missing): (Vec<Record>, Vec<Record>) =
            b.recs.into_iter().partition(|r| held.contains(&r.id));
        sent.already_applied += there.len();
        if missing.first().map(|r| &r.id) == first.as_ref() {
            // The key is taken by an object that does not hold its own first record
            // (another writer's, not ours): as with one object per record, the taken key
            // counts as applied; the rest move on under the next id.
            missing.remove(0);
            sent.already_applied += 1;
        }
        if !missing.is_empty() {
            let body = spool::encode_all(&missing)?;
            again.push(Batch::new(&b.fleet, b.area, missing, body));
        }
    }
    Ok(again)
}

/// Learn which of `recs` objects of `area` already hold: every batch from the oldest of
/// them on whose name is one of their ids is read. One the feed must name (see `fed`) is
/// named again: the run that wrote it may have crashed before it could.
fn already_there(
    store: &dyn Store,
    fleet: &str,
    area: Area,
    recs: &[Record],
    held: &mut HashSet<String>,
    sent: &mut Sent,
) -> Result<()> {
    let ids: HashSet<&str> = recs.iter().map(|r| r.id.as_str()).collect();
    let Some(oldest) = ids.iter().min() else {
        return Ok(());
    };
    let prefix = area.prefix(fleet);
    // A proper prefix of the oldest id sorts just before every key named by it.
    let mut floor = oldest.to_string();
    floor.pop();
    let named: Vec<_> = store
        .list_after(&prefix, &format!("{prefix}{floor}"))?
        .into_iter()
        .filter(|o| is_batch(&o.key) && ids.contains(keys::stem(&o.key)))
        .collect();
    let keys: Vec<String> = named.iter().map(|o| o.key.clone()).collect();
    for (o, got) in named.iter().zip(store.get_many(&keys)?) {
        let Some((bytes, _)) = got else { continue };
        held.extend(decode(&bytes, fleet, area).0.into_iter().map(|r| r.id));
        if fed(area, &o.key, o.mtime_ms) {
            sent.late.push((fleet.to_string(), o.key.clone()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lake::store::LocalStore;

    fn rec(i: u64) -> Record {
        let payload = serde_json::json!({"claim": format!("claim {i}")});
        super::super::test_record(i, "f", "memory_propose", payload)
    }

    fn ids_in_lake(store: &LocalStore) -> Vec<String> {
        let mut ids = Vec::new();
        for o in store.list(&Area::Events.prefix("f")).unwrap() {
            let bytes = store.get(&o.key).unwrap().unwrap().0;
            ids.extend(
                decode(&bytes, "f", Area::Events)
                    .0
                    .into_iter()
                    .map(|r| r.id),
            );
        }
        ids.sort();
        ids
    }

    /// The create of a batch answers `Exists` because a crashed run landed part of it
    /// under the same first id: the settle reads it back and writes only the rest,
    /// under the first missing id. Then a full redo settles to nothing new.
    #[test]
    fn an_existing_batch_is_read_back_and_only_the_rest_written() {
        let d = tempfile::tempdir().unwrap();
        let store = LocalStore::open(d.path()).unwrap();
        let recs: Vec<Record> = (0..3).map(rec).collect();
        let body: Vec<u8> = spool::encode_all(&recs[..2]).unwrap();
        let key = Area::Events.key("f", &recs[0].id);
        store.create(&key, &body).unwrap();
        let groups = || BTreeMap::from([(("f".to_string(), Area::Events), recs.clone())]);
        let sent = send(&store, groups(), false, &mut HashSet::new(), &|| 0).unwrap();
        assert_eq!((sent.applied, sent.already_applied), (1, 2));
        let want: Vec<String> = recs.iter().map(|r| r.id.clone()).collect();
        assert_eq!(ids_in_lake(&store), want, "each record exactly once");
        assert!(
            store
                .get(&Area::Events.key("f", &recs[2].id))
                .unwrap()
                .is_some()
        );
        let again = send(&store, groups(), false, &mut HashSet::new(), &|| 0).unwrap();
        assert_eq!((again.applied, again.already_applied), (0, 3));
        assert_eq!(ids_in_lake(&store), want);
    }
}
