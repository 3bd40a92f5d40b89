//! Two rounds of requests for every fleet a pass mirrors. Each fleet's mirror lists four
//! or five prefixes and then GETs what changed, one request after another, and a pass
//! mirrors its fleets one after another: on a remote store that is twenty-odd round
//! trips before a lease written elsewhere shows. `prefetch` sends every listing the
//! mirrors are about to make at once (the same prefixes and watermarks, read from each
//! fleet's mirror state), then every GET those listings call for (changed rosters and
//! presences, new feed entries and handoffs, the newest manifest). The returned store
//! answers each of those once from what came back; anything else goes to the store.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use std::collections::BTreeSet;

use super::fetch;
use super::state::{self, State};
use crate::error::Result;
use crate::lake::keys;
use crate::lake::store::{Created, Got, Object, Store};
use crate::lake::watermark::Mark;
use crate::paths::Paths;

type Listing = (String, Option<String>);

pub struct Prefetched<'a> {
    inner: &'a dyn Store,
    lists: RefCell<HashMap<Listing, Vec<Object>>>,
    gets: RefCell<HashMap<String, Option<Got>>>,
    /// The lake time taken before the listings: mirrors move their watermarks to it.
    now: Cell<Option<i64>>,
}

/// List, in one concurrent round, what mirroring each of `fleets` will list.
pub fn prefetch<'a>(
    paths: &Paths,
    store: &'a dyn Store,
    fleets: &[String],
) -> Result<Prefetched<'a>> {
    let now = store.now_ms()?;
    let url = store.url();
    let states: Vec<(&str, State)> = fleets
        .iter()
        .map(|f| {
            let st = state::read(paths, f, &url).unwrap_or_else(|| State {
                feed_mark: Mark::starting_at(now), // as `mirror` starts a first pass
                ..Default::default()
            });
            (f.as_str(), st)
        })
        .collect();
    let plan: Vec<Listing> = states.iter().flat_map(|(f, st)| listings(f, st)).collect();
    let got = store.list_many(&plan)?;
    crate::services::trace::sync("prefetch listed", store.requests());
    let lists: HashMap<Listing, Vec<Object>> = plan.into_iter().zip(got).collect();
    let keys: Vec<String> = states
        .iter()
        .flat_map(|(f, st)| gets(f, st, &lists))
        .collect();
    let got = store.get_many(&keys)?;
    Ok(Prefetched {
        inner: store,
        lists: RefCell::new(lists),
        gets: RefCell::new(keys.into_iter().zip(got).collect()),
        now: Cell::new(Some(now)),
    })
}

/// The listings `mirror` makes for `fleet`, in `fetch`'s terms.
fn listings(fleet: &str, st: &State) -> Vec<Listing> {
    let mark = |m: &crate::lake::watermark::Mark, prefix: String| {
        let after = m.start_after(&prefix);
        (prefix, after)
    };
    let mut out = vec![
        (keys::live(fleet), None),
        mark(&st.feed_mark, keys::feed(fleet)),
        mark(&st.handoffs_mark, keys::handoffs(fleet)),
    ];
    if st.handoffs_mark.at_ms.is_none() {
        out.push((keys::sessions(fleet), None));
    }
    out.push(match &st.manifest {
        Some(m) => (keys::manifests(fleet), Some(keys::manifest(fleet, m.seq))),
        None => (keys::manifests(fleet), None),
    });
    out
}

/// The GETs `mirror` will make for `fleet` after those listings (`fetch`'s filters).
fn gets(fleet: &str, st: &State, lists: &HashMap<Listing, Vec<Object>>) -> Vec<String> {
    let listed = |l: Listing| lists.get(&l).map(Vec::as_slice).unwrap_or_default();
    let [live, feed, handoffs, .., manifests] = listings(fleet, st)
        .into_iter()
        .map(listed)
        .collect::<Vec<_>>()[..]
    else {
        return Vec::new();
    };
    // The same split and the same size-and-time test as `fetch::live`.
    let (hosts, legacy) = fetch::split_live(fleet, live.to_vec());
    let mut out: Vec<String> = fetch::changed_rosters(st, &hosts)
        .into_iter()
        .chain(fetch::changed_presences(st, &legacy))
        .map(|o| o.key.clone())
        .collect();
    let new = |objs: &[Object], m: &Mark| -> Vec<String> {
        let keys = objs.iter().map(|o| o.key.clone());
        keys.filter(|k| !m.seen.contains(k)).collect()
    };
    out.extend(new(feed, &st.feed_mark));
    let held: BTreeSet<&str> = st.notes.iter().map(|n| n.id.as_str()).collect();
    let mut notes = new(handoffs, &st.handoffs_mark);
    notes.retain(|k| !held.contains(keys::stem(k)));
    notes.sort_unstable_by(|a, b| b.cmp(a));
    // Only the newest: `fetch::handoffs` reads newest first and asks for more objects only
    // when the first ones held too few notes (a batch object holds thousands).
    out.extend(notes.into_iter().take(1));
    let newest = manifests
        .iter()
        .rfind(|o| keys::manifest_seq(&o.key).is_some());
    out.extend(newest.map(|o| o.key.clone()));
    out
}

impl Prefetched<'_> {
    fn take(&self, prefix: &str, after: Option<&str>) -> Option<Vec<Object>> {
        let k = (prefix.to_string(), after.map(str::to_string));
        self.lists.borrow_mut().remove(&k)
    }
    fn take_got(&self, key: &str) -> Option<Option<Got>> {
        self.gets.borrow_mut().remove(key)
    }
}

impl Store for Prefetched<'_> {
    fn url(&self) -> String {
        self.inner.url()
    }
    fn get(&self, key: &str) -> Result<Option<(Vec<u8>, i64)>> {
        match self.take_got(key) {
            Some(g) => Ok(g),
            None => self.inner.get(key),
        }
    }
    fn put(&self, key: &str, bytes: &[u8]) -> Result<i64> {
        self.inner.put(key, bytes)
    }
    fn create(&self, key: &str, bytes: &[u8]) -> Result<Created> {
        self.inner.create(key, bytes)
    }
    fn list(&self, prefix: &str) -> Result<Vec<Object>> {
        match self.take(prefix, None) {
            Some(l) => Ok(l),
            None => self.inner.list(prefix),
        }
    }
    fn list_after(&self, prefix: &str, after: &str) -> Result<Vec<Object>> {
        match self.take(prefix, Some(after)) {
            Some(l) => Ok(l),
            None => self.inner.list_after(prefix, after),
        }
    }
    fn list_many(&self, lists: &[(String, Option<String>)]) -> Result<Vec<Vec<Object>>> {
        self.inner.list_many(lists)
    }
    fn create_many(&self, items: &[(String, Vec<u8>)]) -> Result<Vec<Created>> {
        self.inner.create_many(items)
    }
    fn put_many(&self, items: &[(String, Vec<u8>)]) -> Result<()> {
        self.inner.put_many(items)
    }
    /// Prefetched answers in place; the rest in one batch from the store.
    fn get_many(&self, keys: &[String]) -> Result<Vec<Option<Got>>> {
        let mut held: Vec<Option<Option<Got>>> = keys.iter().map(|k| self.take_got(k)).collect();
        let missing: Vec<String> = keys
            .iter()
            .zip(&held)
            .filter(|(_, h)| h.is_none())
            .map(|(k, _)| k.clone())
            .collect();
        let mut fetched = self.inner.get_many(&missing)?.into_iter();
        for h in held.iter_mut().filter(|h| h.is_none()) {
            *h = Some(fetched.next().flatten());
        }
        Ok(held.into_iter().map(Option::flatten).collect())
    }
    fn delete(&self, key: &str) -> Result<()> {
        self.inner.delete(key)
    }
    /// The time taken before the prefetched listings, while any of them is unused: a
    /// mirror takes its clock first and must not take one later than its listings.
    fn now_ms(&self) -> Result<i64> {
        match self.now.get() {
            Some(t) if !self.lists.borrow().is_empty() => Ok(t),
            _ => {
                self.now.set(None);
                self.inner.now_ms()
            }
        }
    }
    fn flush(&self) -> Result<()> {
        self.inner.flush()
    }
    fn requests(&self) -> u64 {
        self.inner.requests()
    }
    fn gets(&self) -> u64 {
        self.inner.gets()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lake::logged::Logged;

    /// After a prefetch, mirroring every fleet (first pass and later ones) lists and GETs
    /// nothing on its own: each request the mirror makes was planned.
    #[test]
    fn every_listing_a_mirror_makes_is_prefetched() {
        let d = tempfile::tempdir().unwrap();
        let paths = Paths::with_overrides(d.path().join("home"), None, None);
        let store = Logged::open(&d.path().join("lake"));
        let fleets = ["f".to_string(), "g".to_string()];
        let config = crate::config::Config::default();
        for pass in 0..3 {
            let roster = format!(r#"{{"host":"h","fleet":"f","sessions":[],"pass":{pass}}}"#);
            store
                .put(&keys::roster("f", "h"), roster.as_bytes())
                .unwrap();
            let id = crate::ulid::new();
            let note = serde_json::json!({"id": id, "at": "2026-11-29T00:00:00.000Z",
                "agent": "a", "session": "s", "summary": "x", "status": "done"});
            store
                .create(&keys::handoff("g", &id), note.to_string().as_bytes())
                .unwrap();
            let listed = prefetch(&paths, &store, &fleets).unwrap();
            store.take();
            for f in &fleets {
                crate::services::mirror::mirror(&paths, &config, &listed, f).unwrap();
            }
            assert_eq!(
                store.take(),
                Vec::<String>::new(),
                "pass {pass} sent its own"
            );
            assert!(
                listed.lists.borrow().is_empty(),
                "pass {pass}: a planned listing went unused"
            );
            assert!(
                listed.gets.borrow().is_empty(),
                "pass {pass}: a planned GET went unused"
            );
            let held: Option<crate::cache::Handoffs> =
                crate::cache::read(&paths, "g", crate::cache::HANDOFFS).data;
            assert_eq!(held.map(|h| h.handoffs.len()), Some(pass + 1));
        }
    }
}
