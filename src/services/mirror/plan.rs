//! A pass's requests, planned for every fleet at once. Round one: every listing every
//! fleet's mirror makes (host rosters and the feed from its watermark; on a fleet's first
//! pass also its handoffs, manifests and whole session history). Round two: every GET
//! those listings call for (rosters whose listed size or time changed, new feed entries,
//! and on a first pass every handoff batch and the newest manifest), then the newest
//! manifest the feed names, if any. Round three: what round two named (history objects
//! and handoffs the feed names, the snapshot a new manifest names, a first pass's
//! history), 256 objects at a time. On a remote store each round is one batch of requests in
//! flight; a fleet with nothing new costs its listings and nothing more.

use std::collections::{BTreeSet, HashMap};

use super::state::State;
use crate::error::Result;
use crate::lake::keys;
use crate::lake::manifest::Manifest;
use crate::lake::store::{Got, Object, Store};
use crate::paths::Paths;

/// Which fleets a pass mirrors: those this host serves (`services::serving`), with a marker
/// in the lake or not yet (their cache files must exist); a fleet only the lake knows, no.
#[derive(Debug, PartialEq)]
pub struct Plan {
    pub fleets: Vec<String>,
    /// Of `fleets`, those mirrored without a request: the lake has no marker for them (so
    /// no object either: a drain creates the marker before a fleet's first object) and
    /// this host holds no mirror state of them. Their cache is empty until a marker shows
    /// up; no watermark moves meanwhile, so nothing written later is skipped.
    pub empty: Vec<String>,
}

impl Plan {
    pub fn new(paths: &Paths, store: &dyn Store, lake: &[String], ours: &BTreeSet<String>) -> Plan {
        let mut fleets = Vec::new();
        let mut empty = Vec::new();
        for f in ours {
            if !lake.contains(f) && super::state::read(paths, f, &store.url()).is_none() {
                empty.push(f.clone());
            }
            fleets.push(f.clone());
        }
        Plan { fleets, empty }
    }

    /// A plan of exactly `fleets`, none of them empty.
    #[cfg(test)]
    pub fn of(fleets: &[String]) -> Plan {
        Plan {
            fleets: fleets.to_vec(),
            empty: Vec::new(),
        }
    }
}

/// Objects a round-three request reads at most at a time: a first pass may read a whole
/// history, and memory stays bounded.
pub(super) const WAVE: usize = 256;

/// One listing: a prefix, and the key it starts after.
type Listing = (String, Option<String>);

/// One fleet's answers to round one, each already past its watermark's `seen` keys.
#[derive(Debug, Default)]
pub(super) struct Listed {
    pub rosters: Vec<Object>,
    pub feed: Vec<Object>,
    pub handoffs: Vec<Object>,
    pub manifests: Vec<Object>,
    /// The whole history, on a first pass only.
    pub sessions: Option<Vec<Object>>,
}

/// What a round's GETs answered, by key; each answer is taken once.
#[derive(Default)]
pub(super) struct Fetched(HashMap<String, Option<Got>>);

impl Fetched {
    pub(super) fn take(&mut self, key: &str) -> Option<Got> {
        self.0.remove(key).flatten()
    }

    pub(super) fn has(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }

    pub(super) fn extend(&mut self, more: Fetched) {
        self.0.extend(more.0);
    }
}

/// Round one's listings for a fleet whose mirror state is `st`, in [`Listed`]'s order:
/// host rosters and the feed; on a fleet's first pass also its handoffs, manifests and
/// whole session history. From then on the feed names every new handoff batch, manifest
/// and history object (lake format 3), so a pass costs 2 listings per fleet.
fn listings(fleet: &str, st: &State) -> Vec<Listing> {
    let mut out = vec![
        (keys::rosters(fleet), None),
        (
            keys::feed(fleet),
            st.feed_mark.start_after(&keys::feed(fleet)),
        ),
    ];
    if first_pass(st) {
        out.push((keys::handoffs(fleet), None));
        out.push((keys::manifests(fleet), None));
        out.push((keys::sessions(fleet), None));
    }
    out
}

/// A fleet never mirrored from this lake (its handoff watermark has not moved) lists
/// its handoffs, manifests and session history whole once; later passes follow the feed.
fn first_pass(st: &State) -> bool {
    st.handoffs_mark.at_ms.is_none()
}

/// Round one: every listing of every `(fleet, state)`, at once.
pub(super) fn list(store: &dyn Store, fleets: &[(&str, &State)]) -> Result<Vec<Listed>> {
    let asks: Vec<Vec<Listing>> = fleets.iter().map(|(f, st)| listings(f, st)).collect();
    let flat: Vec<Listing> = asks.iter().flatten().cloned().collect();
    let mut answers = store.list_many(&flat)?.into_iter();
    let mut out = Vec::new();
    for ((_, st), asked) in fleets.iter().zip(&asks) {
        let mut next = || answers.next().unwrap_or_default();
        let rosters = next();
        let feed: Vec<Object> = next()
            .into_iter()
            .filter(|o| !st.feed_mark.seen.contains(&o.key))
            .collect();
        let mut listed = Listed {
            rosters,
            feed,
            ..Listed::default()
        };
        if asked.len() > 2 {
            listed.handoffs = next();
            listed.manifests = next();
            listed.sessions = Some(next());
        }
        out.push(listed);
    }
    Ok(out)
}

impl Listed {
    /// Leave out every object whose listed size is over its kind's cap (`keys::cap`):
    /// it is never asked for. Returns how many.
    pub(super) fn drop_oversize(&mut self) -> usize {
        let mut n = 0;
        let mut keep = |objs: &mut Vec<Object>| {
            let before = objs.len();
            objs.retain(|o| o.size <= keys::cap(&o.key));
            n += before - objs.len();
        };
        keep(&mut self.rosters);
        keep(&mut self.feed);
        keep(&mut self.handoffs);
        keep(&mut self.manifests);
        if let Some(s) = self.sessions.as_mut() {
            keep(s);
        }
        n
    }
}

/// The listed rosters `st` does not hold as listed (by size, store time and tag: S3
/// lists time to the second, so a same-size rewrite within it differs only in its tag).
pub(super) fn changed_rosters<'a>(st: &State, listed: &'a [Object]) -> Vec<&'a Object> {
    listed
        .iter()
        .filter(|o| {
            let held = st.rosters.get(&o.key).map(|r| (r.size, r.mtime_ms, r.tag));
            held != Some((o.size, o.mtime_ms, o.tag))
        })
        .collect()
}

/// The listed handoff batches whose notes `st` does not hold yet.
pub(super) fn new_handoffs(st: &State, listed: &[Object]) -> Vec<String> {
    let held: BTreeSet<&str> = st.notes.iter().map(|n| n.id.as_str()).collect();
    listed
        .iter()
        .map(|o| o.key.clone())
        .filter(|k| crate::lake::batch::is_batch(k) && !held.contains(keys::stem(k)))
        .collect()
}

/// The newest plausible listed manifest's key (`manifest::newest_plausible`: the listing
/// holds only numbers after the one `st` holds).
pub(super) fn newest_manifest<'a>(st: &State, listed: &'a [Object]) -> Option<&'a str> {
    let held = st.manifest.as_ref().map_or(0, |m| m.seq);
    crate::lake::manifest::newest_plausible(listed, held)
        .0
        .map(|o| o.key.as_str())
}

/// Round two's keys for one fleet.
pub(super) fn firsts(st: &State, listed: &Listed) -> Vec<String> {
    let mut out: Vec<String> = changed_rosters(st, &listed.rosters)
        .into_iter()
        .map(|o| o.key.clone())
        .collect();
    out.extend(listed.feed.iter().map(|o| o.key.clone()));
    out.extend(new_handoffs(st, &listed.handoffs));
    out.extend(newest_manifest(st, &listed.manifests).map(str::to_string));
    out
}

/// One GET round over every fleet's `keys`.
pub(super) fn get(store: &dyn Store, keys: Vec<String>) -> Result<Fetched> {
    let got = store.get_many(&keys)?;
    Ok(Fetched(keys.into_iter().zip(got).collect()))
}

/// A round-three read, and whose it is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Later {
    /// A history object of fleet `.0`.
    History(usize, String),
    /// A handoff batch of fleet `.0` the feed named.
    Handoff(usize, String),
    /// The snapshot of fleet `.0`'s newest manifest.
    Snapshot(usize, Manifest),
}

impl Later {
    pub(super) fn key(&self) -> &str {
        match self {
            Later::History(_, k) | Later::Handoff(_, k) => k,
            Later::Snapshot(_, m) => &m.key,
        }
    }
}

/// Round three, `WAVE` objects at a time: the small reads (handoffs, snapshots) first,
/// then history. `apply` gets each read with what it answered.
pub(super) fn later(
    store: &dyn Store,
    mut reads: Vec<Later>,
    apply: &mut dyn FnMut(Later, Option<Got>) -> Result<()>,
) -> Result<()> {
    reads.sort_by_key(|r| matches!(r, Later::History(..)));
    while !reads.is_empty() {
        let rest = reads.split_off(reads.len().min(WAVE));
        let keys: Vec<String> = reads.iter().map(|r| r.key().to_string()).collect();
        for (r, got) in reads.into_iter().zip(store.get_many(&keys)?) {
            apply(r, got)?;
        }
        reads = rest;
    }
    Ok(())
}
