//! Lake → cache: rebuild `cache/<fleet>/*.json` (each written atomically) and mirror the
//! highest published snapshot byte for byte into `snapshot.bin`. Each pass fetches only
//! new or changed objects (`fetch`) and rebuilds the cache from what it holds (`state`).

mod fetch;
mod prefetch;
mod state;
#[cfg(test)]
mod tests;

pub use prefetch::prefetch;
use state::State;

use crate::cache::{self, Handoffs, History, Pipeline, Presence, Roster, SessionDigest};
use crate::config::Config;
use crate::error::Result;
use crate::lake::manifest::Manifest;
use crate::lake::store::Store;
use crate::lake::watermark::Mark;
use crate::paths::Paths;
use crate::time::format_ms;

/// How many handoffs and sessions the cache keeps (the tools cap rows further).
pub(super) const KEEP: usize = 500;

#[derive(Debug, Default, serde::Serialize)]
pub struct MirrorReport {
    pub fleet: String,
    pub agents: usize,
    pub sessions: usize,
    pub handoffs: usize,
    pub snapshot_id: Option<String>,
    /// Lines of handoff batch objects skipped as torn, foreign or malformed.
    #[serde(skip_serializing_if = "crate::lake::is_zero")]
    pub bad_lines: usize,
}

/// Mirror `fleets`: every fleet's roster first (see [`Begun`]), then the rest of each,
/// calling `after(fleet)` once a fleet is done. The fleets in `empty` (see
/// [`Plan::empty`]) get empty cache files and cost no request.
pub fn mirror_all(
    paths: &Paths,
    config: &Config,
    store: &dyn Store,
    fleets: &[String],
    empty: &[String],
    mut after: impl FnMut(&str) -> Result<()>,
) -> Result<Vec<MirrorReport>> {
    let begun = fleets
        .iter()
        .map(|f| begin(paths, store, f, empty.contains(f)))
        .collect::<Result<Vec<_>>>()?;
    super::trace::sync("rosters", store.requests());
    let mut out = Vec::new();
    for b in begun {
        let fleet = b.fleet.clone();
        out.push(finish(paths, config, store, b)?);
        after(&fleet)?;
    }
    Ok(out)
}

/// One fleet, both stages.
#[cfg(test)]
pub fn mirror(
    paths: &Paths,
    config: &Config,
    store: &dyn Store,
    fleet: &str,
) -> Result<MirrorReport> {
    let begun = begin(paths, store, fleet, false)?;
    finish(paths, config, store, begun)
}

/// Which fleets a pass mirrors: every fleet the lake has a marker for, and the host's own
/// even before it has one (its cache files must exist).
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
    pub fn new(paths: &Paths, store: &dyn Store, in_lake: &[String], own: &str) -> Plan {
        let mut fleets = in_lake.to_vec();
        let mut empty = Vec::new();
        if !in_lake.iter().any(|f| f == own) {
            fleets.push(own.to_string());
            if state::read(paths, own, &store.url()).is_none() {
                empty.push(own.to_string());
            }
        }
        Plan { fleets, empty }
    }

    /// The fleets whose listings the prefetch sends.
    pub fn to_list(&self) -> Vec<String> {
        let listed = self.fleets.iter().filter(|f| !self.empty.contains(f));
        listed.cloned().collect()
    }
}

/// A fleet's mirror between its two stages. A pass runs [`begin`] for every fleet, then
/// [`finish`] for each: who holds which path is the news other hosts wait for, so every
/// fleet's roster reaches the cache before any fleet's sessions, handoffs and snapshot.
struct Begun {
    fleet: String,
    st: State,
    lake_now: i64,
    generated_at: String,
    url: String,
    agents: usize,
    /// Nothing to fetch and no state to write (see [`Plan::empty`]).
    empty: bool,
}

/// Stage one: read the fleet's mirror state, fetch changed rosters and presences, and
/// write `roster.json` (live agents and their leases).
fn begin(paths: &Paths, store: &dyn Store, fleet: &str, empty: bool) -> Result<Begun> {
    // Taken before any listing: the watermarks move to it.
    let lake_now = store.now_ms()?;
    let offset = lake_now - crate::time::now_ms();
    let generated_at = format_ms(crate::time::now_ms());
    let url = store.url();
    let mut st = state::read(paths, fleet, &url).unwrap_or_else(|| {
        state::reset(paths, fleet);
        State {
            store: url.clone(),
            feed_mark: Mark::starting_at(lake_now),
            ..State::default()
        }
    });
    if !empty {
        fetch::live(store, fleet, &mut st)?;
    }
    let agents = roster(&st, lake_now);
    let n = agents.len();
    let roster = Roster {
        generated_at: generated_at.clone(),
        lake_clock_offset_ms: offset,
        agents,
    };
    // Newer than the state until `finish` writes it: if the pass fails in between, the
    // next one fetches the same rosters again and writes the same file.
    write(paths, fleet, cache::ROSTER, &roster)?;
    Ok(Begun {
        fleet: fleet.to_string(),
        st,
        lake_now,
        generated_at,
        url,
        agents: n,
        empty,
    })
}

/// Stage two: new session segments, handoffs and the snapshot; the other cache files and
/// the mirror state.
fn finish(paths: &Paths, config: &Config, store: &dyn Store, begun: Begun) -> Result<MirrorReport> {
    let Begun {
        fleet,
        mut st,
        lake_now,
        generated_at,
        url,
        agents,
        empty,
    } = begun;
    let fleet = fleet.as_str();
    // An empty fleet's state holds nothing: its files come out empty, with no request.
    let bad_lines = match empty {
        true => 0,
        false => fetch_new(paths, config, store, fleet, &mut st, lake_now)?,
    };
    let idle_ms = config.idle_secs as i64 * 1000;
    let sessions = history(&st, lake_now, idle_ms);
    let mut report = MirrorReport {
        fleet: fleet.into(),
        agents,
        sessions: sessions.len(),
        handoffs: st.notes.len(),
        bad_lines,
        ..Default::default()
    };
    let history = History {
        generated_at: generated_at.clone(),
        sessions,
    };
    write(paths, fleet, cache::HISTORY, &history)?;
    let handoffs = Handoffs {
        generated_at: generated_at.clone(),
        handoffs: st.notes.clone(),
    };
    write(paths, fleet, cache::HANDOFFS, &handoffs)?;

    let manifest = match empty {
        true => None,
        false => fetch::manifest(store, fleet, &mut st)?,
    };
    let manifest = mirror_snapshot(paths, store, fleet, manifest)?;
    report.snapshot_id = manifest.as_ref().map(|m| m.snapshot_id.clone());
    let pipeline = Pipeline {
        last_sync: Some(generated_at),
        last_maint: manifest.as_ref().map(|m| m.built_at.clone()),
        snapshot_id: report.snapshot_id.clone(),
        store: Some(url),
    };
    write(paths, fleet, cache::PIPELINE, &pipeline)?;
    if !empty {
        state::write(paths, fleet, &st)?;
    }
    Ok(report)
}

/// New session segments (their sessions refolded) and handoffs; the lines skipped.
fn fetch_new(
    paths: &Paths,
    config: &Config,
    store: &dyn Store,
    fleet: &str,
    st: &mut State,
    lake_now: i64,
) -> Result<usize> {
    let fed = fetch::feed(store, fleet, st, lake_now)?;
    let touched = fetch::segments(paths, store, fleet, st, &fed)?;
    let mut bad_lines = 0;
    fetch::handoffs(store, fleet, st, &fed, lake_now, KEEP, &mut bad_lines)?;
    let idle_ms = config.idle_secs as i64 * 1000;
    for s in touched {
        let recs = state::records(paths, fleet, &s);
        let Some(seen) = st.sessions.get(&s).map(|x| x.seen_ms) else {
            continue;
        };
        if let Some(d) = crate::history::digest::fold(&recs, seen, lake_now, idle_ms)
            && let Some(x) = st.sessions.get_mut(&s)
        {
            x.digest = d;
        }
    }
    Ok(bad_lines)
}

/// Live agents and their unexpired leases, from the rosters and presences held.
fn roster(st: &State, lake_now: i64) -> Vec<Presence> {
    st.live()
        .into_iter()
        .filter(|(p, _)| p.ended_at.is_none())
        .map(|(p, seen)| {
            let p = p.clone();
            let leases = p
                .leases
                .into_iter()
                .filter(|l| crate::time::parse_rfc3339(&l.expires_at).is_some_and(|t| t > lake_now))
                .collect();
            Presence {
                agent: p.agent,
                session: p.session,
                runtime: p.runtime,
                task: p.task,
                last_seen: format_ms(seen),
                leases,
            }
        })
        .collect()
}

/// A cache file: rebuilt from the mirror state every pass, so not fsynced (see
/// `fsutil::write_rebuildable`). The state itself and `snapshot.bin` stay durable: the
/// state decides what is fetched again, and `snapshot.bin` is kept while the pipeline
/// names its id.
fn write<T: serde::Serialize>(paths: &Paths, fleet: &str, name: &str, v: &T) -> Result<()> {
    let bytes = serde_json::to_vec(v).unwrap_or_default();
    crate::fsutil::write_rebuildable(&paths.cache_file(fleet, name), &bytes, 0o600)
}

/// Digests of every session: hook segments folded, plus MCP-only sessions from presence.
/// An unended session's outcome moves with the clock, so it is decided here.
fn history(st: &State, lake_now: i64, idle_ms: i64) -> Vec<SessionDigest> {
    let live = st.live();
    let seen_at: std::collections::HashMap<(&str, &str), i64> = live
        .iter()
        .map(|(p, t)| ((p.agent.as_str(), p.session.as_str()), *t))
        .collect();
    let presence_at = |agent: &str, session: &str| seen_at.get(&(agent, session)).copied();
    let mut out = Vec::new();
    for s in st.sessions.values() {
        let mut d = s.digest.clone();
        let seen = presence_at(&d.agent, &d.session).map_or(s.seen_ms, |t| t.max(s.seen_ms));
        if d.ended_at.is_none() {
            let idle = lake_now - seen > idle_ms;
            d.outcome = if idle { "abandoned" } else { "running" }.into();
        }
        out.push(d);
    }
    for (p, mtime) in &live {
        if out
            .iter()
            .any(|d| d.agent == p.agent && d.session == p.session)
        {
            continue;
        }
        let outcome = match (&p.ended_at, lake_now - mtime > idle_ms) {
            (Some(_), _) => "clean",
            (None, true) => "abandoned",
            (None, false) => "running",
        };
        out.push(SessionDigest {
            session: p.session.clone(),
            agent: p.agent.clone(),
            runtime: p.runtime.clone(),
            repo: p
                .leases
                .first()
                .map(|l| l.repo.clone())
                .filter(|r| !r.is_empty()),
            started_at: p.started_at.clone().unwrap_or_else(|| format_ms(*mtime)),
            ended_at: p.ended_at.clone(),
            outcome: outcome.into(),
            files_touched: p.leases.iter().map(|l| l.path.clone()).collect(),
            ..SessionDigest::default()
        });
    }
    out.sort_by(|a, b| b.started_at.cmp(&a.started_at));
    out.truncate(KEEP);
    out
}

/// Mirror the highest manifest's snapshot into `snapshot.bin` when it changed.
fn mirror_snapshot(
    paths: &Paths,
    store: &dyn Store,
    fleet: &str,
    latest: Option<Manifest>,
) -> Result<Option<Manifest>> {
    let Some(m) = latest else {
        return Ok(None);
    };
    let bin = paths.snapshot_bin(fleet);
    let current: cache::Read<Pipeline> = cache::read(paths, fleet, cache::PIPELINE);
    let have = current.data.and_then(|p| p.snapshot_id);
    if have.as_deref() == Some(&m.snapshot_id) && bin.exists() {
        return Ok(Some(m));
    }
    let Some((bytes, _)) = store.get(&m.key)? else {
        return Ok(None);
    };
    if crate::digest::sha256_hex(&bytes) != m.sha256 {
        // A torn or tampered object: keep the old mirror rather than publish garbage.
        return Ok(None);
    }
    crate::fsutil::write_atomic(&bin, &bytes, 0o600)?;
    Ok(Some(m))
}
