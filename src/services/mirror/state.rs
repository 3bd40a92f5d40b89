//! What the mirror already holds of one fleet (`state/mirror/<fleet>.json`, written
//! atomically after the cache files): listing watermarks, host rosters with the size and
//! time they were listed at, the newest handoffs, each session's digest, and the
//! manifest. A pass GETs only what is new or changed, and rebuilds the cache from this.
//! Each session's records are kept beside it (`state/mirror/<fleet>/<agent>/<session>.ndjson`)
//! so a session with new history is refolded without reading the lake again.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::cache::{HandoffNote, SessionDigest};
use crate::error::{Error, Result};
use crate::fleet::presence::PresenceObj;
use crate::lake::manifest::Manifest;
use crate::lake::watermark::Mark;
use crate::paths::Paths;

/// A host's roster as listed: its sessions (already checked, see `roster::read`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct ListedRoster {
    pub size: u64,
    pub mtime_ms: i64,
    /// `Object::tag` as listed: size and a time to the second miss a same-size rewrite.
    #[serde(default)]
    pub tag: u64,
    pub sessions: Vec<PresenceObj>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Session {
    /// Newest history time seen (the presence's time is added at rebuild).
    pub seen_ms: i64,
    pub digest: SessionDigest,
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct State {
    pub store: String,
    pub handoffs_mark: Mark,
    pub feed_mark: Mark,
    /// Host rosters, by key.
    pub rosters: BTreeMap<String, ListedRoster>,
    /// Newest first, at most `KEEP`.
    pub notes: Vec<HandoffNote>,
    /// By `<agent>/<session>`.
    pub sessions: BTreeMap<String, Session>,
    pub manifest: Option<Manifest>,
    /// The SHA-256 of a snapshot refused (`snapshot::guard`): its manifest is passed over
    /// without reading the snapshot again, and the previous mirror stays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Which roster (key) owns each session (`<agent>/<session>`): the first this host saw
    /// carrying it. Another roster claiming it is refused (`fetch::rosters`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub owners: BTreeMap<String, String>,
    /// Sessions (`<agent>/<session>`) whose local records this host's drain added since
    /// the last pass (its own history, `history::own_history`): the next pass refolds them.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub refold: BTreeSet<String>,
}

impl State {
    /// Every session held, each once with the lake time it was last seen: a session in
    /// two rosters (it moved host, or its host id changed) counts as its most recently
    /// seen copy.
    pub(super) fn live(&self) -> Vec<(&PresenceObj, i64)> {
        let mut by: BTreeMap<(&str, &str), (&PresenceObj, i64)> = BTreeMap::new();
        let rostered = self.rosters.values().flat_map(|r| {
            r.sessions
                .iter()
                // A roster's own time is text from the lake: never later than the
                // store's time for the object, or a forged future time would pin a
                // session as the live one forever. S3's Last-Modified is whole seconds,
                // so the object landed up to a second after it: clamping to it exactly
                // would make a session seen later in that second lose to an older copy.
                .map(|p| (p, p.last_seen_ms.min(r.mtime_ms.saturating_add(999))))
        });
        for (p, seen) in rostered {
            let k = (p.agent.as_str(), p.session.as_str());
            if by.get(&k).is_none_or(|(_, t)| *t < seen) {
                by.insert(k, (p, seen));
            }
        }
        by.into_values().collect()
    }
}

pub(super) fn dir(paths: &Paths, fleet: &str) -> PathBuf {
    paths.mirror_dir().join(fleet)
}

fn file(paths: &Paths, fleet: &str) -> PathBuf {
    paths.mirror_state(fleet)
}

/// The state for `store`, or `None` (first pass, another store, or unreadable: rebuild).
pub(super) fn read(paths: &Paths, fleet: &str, store: &str) -> Option<State> {
    let bytes = std::fs::read(file(paths, fleet)).ok()?;
    serde_json::from_slice::<State>(&bytes)
        .ok()
        .filter(|s| s.store == store)
}

pub(super) fn write(paths: &Paths, fleet: &str, s: &State) -> Result<()> {
    let f = file(paths, fleet);
    if let Some(d) = f.parent() {
        std::fs::create_dir_all(d).map_err(|e| Error::io("cannot create", d, e))?;
    }
    let bytes = Error::json(s)?;
    crate::fsutil::write_atomic(&f, &bytes, 0o600)
}

/// Forget every session's local records (a rebuild starts from the lake).
pub(super) fn reset(paths: &Paths, fleet: &str) {
    let _ = std::fs::remove_dir_all(dir(paths, fleet));
}

/// Append framed records to a session's local records.
pub(super) fn append(paths: &Paths, fleet: &str, session: &str, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let p = dir(paths, fleet).join(format!("{session}.ndjson"));
    if let Some(d) = p.parent() {
        std::fs::create_dir_all(d).map_err(|e| Error::io("cannot create", d, e))?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&p)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|e| Error::io("cannot write", &p, e))
}

/// A session's records, in id order, each once.
pub(super) fn records(paths: &Paths, fleet: &str, session: &str) -> Vec<crate::spool::Record> {
    let p = dir(paths, fleet).join(format!("{session}.ndjson"));
    let mut recs = crate::spool::read_file(&p, 0)
        .map(|s| s.records)
        .unwrap_or_default();
    recs.sort_by(|a, b| a.id.cmp(&b.id));
    recs.dedup_by(|a, b| a.id == b.id);
    recs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(session: &str, task: &str, seen: i64) -> PresenceObj {
        PresenceObj {
            fleet: "f".into(),
            agent: "a".into(),
            session: session.into(),
            task: Some(task.into()),
            last_seen_ms: seen,
            ..PresenceObj::default()
        }
    }

    /// A session held in two rosters shows once, as its most recently seen copy; a roster
    /// entry is seen at its own time, not the roster's mtime.
    #[test]
    fn each_session_shows_once_as_its_newest_copy() {
        let mut st = State::default();
        let roster = |sessions| ListedRoster {
            size: 1,
            mtime_ms: 9_000,
            tag: 0,
            sessions,
        };
        let h1 = vec![p("s1", "roster", 700), p("s2", "old", 100)];
        let h2 = vec![p("s2", "moved", 2_000)];
        st.rosters.insert("live/f/hosts/h1.json".into(), roster(h1));
        st.rosters.insert("live/f/hosts/h2.json".into(), roster(h2));
        let got: Vec<(&str, &str, i64)> = st
            .live()
            .into_iter()
            .map(|(p, t)| (p.session.as_str(), p.task.as_deref().unwrap_or(""), t))
            .collect();
        assert_eq!(got, [("s1", "roster", 700), ("s2", "moved", 2_000)]);

        // A roster claiming a time later than the store wrote it is held to the store's
        // (plus the second S3's whole-second Last-Modified may have cut off).
        let h3 = vec![p("s2", "forged", i64::MAX)];
        st.rosters.insert(
            "live/f/hosts/h3.json".into(),
            ListedRoster {
                size: 1,
                mtime_ms: 600,
                tag: 0,
                sessions: h3,
            },
        );
        let s2: Vec<(String, i64)> = st
            .live()
            .into_iter()
            .filter(|(p, _)| p.session == "s2")
            .map(|(p, t)| (p.task.clone().unwrap_or_default(), t))
            .collect();
        assert_eq!(
            s2,
            [("moved".to_string(), 2_000)],
            "the forged future time does not win"
        );

        // Seen later within the second its roster's Last-Modified was cut to: it wins.
        let h4 = vec![p("s1", "late in the second", 3_400)];
        let h5 = vec![p("s1", "earlier", 3_200)];
        for (k, mtime_ms, sessions) in [("h4", 3_000, h4), ("h5", 9_000, h5)] {
            let r = ListedRoster {
                size: 1,
                mtime_ms,
                tag: 0,
                sessions,
            };
            st.rosters.insert(format!("live/f/hosts/{k}.json"), r);
        }
        let s1: Vec<String> = st
            .live()
            .into_iter()
            .filter(|(p, _)| p.session == "s1")
            .map(|(p, _)| p.task.clone().unwrap_or_default())
            .collect();
        assert_eq!(s1, ["late in the second"]);
    }
}
