//! Lake → cache: rebuild `cache/<fleet>/*.json` (each written atomically) and mirror the
//! highest published snapshot byte for byte into `snapshot.bin`. A pass reads only new
//! or changed objects, in rounds of requests planned for all its fleets at once (`plan`),
//! applies what came back to each fleet's mirror state (`fetch`) and rebuilds the cache
//! from that state (`rebuild`).

mod fetch;
mod history;
mod plan;
mod rebuild;
mod refuse;
mod state;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

pub(crate) use history::own_history;
pub use refuse::Skipped;

pub use plan::Plan;
use plan::{Fetched, Later, Listed};
use state::State;

use crate::cache::{self, Handoffs, History, Pipeline, Roster};
use crate::config::Config;
use crate::error::Result;
use crate::lake::manifest::Manifest;
use crate::lake::store::{Got, Store};
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
    /// Lines of handoff batches and history objects skipped as torn, foreign or malformed.
    #[serde(skip_serializing_if = "crate::lake::is_zero")]
    pub bad_lines: usize,
    /// Hostile or unusable objects this pass skipped (nothing in it: omitted).
    #[serde(skip_serializing_if = "Skipped::is_empty")]
    pub skipped: Skipped,
}

/// One fleet during a pass.
struct Fleet {
    name: String,
    st: State,
    /// Nothing to read and no state to write (see [`Plan::empty`]).
    empty: bool,
    listed: Listed,
    /// History objects and handoff batches the feed named this pass (`fetch::feed`).
    fed: Vec<String>,
    agents: usize,
    /// Sessions with new history, to refold.
    touched: BTreeSet<String>,
    bad_lines: usize,
    /// The snapshot mirrored, for the pipeline file.
    snapshot: Option<Manifest>,
    /// The manifest held before this pass: kept when the newest one's snapshot is refused.
    prev: Option<Manifest>,
    skipped: Skipped,
}

/// Mirror every fleet of `plan`: round one lists every fleet at once, round two reads what
/// changed, then every fleet's roster reaches the cache (who holds which path is the news
/// other hosts wait for), then round three and the rest of each fleet, calling
/// `after(fleet)` once a fleet is done.
pub fn mirror_all(
    paths: &Paths,
    config: &Config,
    store: &dyn Store,
    plan: &Plan,
    mut after: impl FnMut(&str) -> Result<()>,
) -> Result<Vec<MirrorReport>> {
    // Taken before any listing: the watermarks move to it.
    let lake_now = store.now_ms()?;
    let url = store.url();
    let mut fleets: Vec<Fleet> = plan
        .fleets
        .iter()
        .map(|f| open(paths, &url, f, plan.empty.contains(f), lake_now))
        .collect();
    let asked: Vec<(&str, &State)> = fleets
        .iter()
        .filter(|f| !f.empty)
        .map(|f| (f.name.as_str(), &f.st))
        .collect();
    let mut listed = plan::list(store, &asked)?.into_iter();
    for f in fleets.iter_mut().filter(|f| !f.empty) {
        f.listed = listed.next().unwrap_or_default();
        f.skipped.oversize += f.listed.drop_oversize();
    }
    super::trace::sync("listed", store.requests());
    let keys = fleets.iter().flat_map(|f| plan::firsts(&f.st, &f.listed));
    let mut got = plan::get(store, keys.collect())?;
    // What the feed names; a newer manifest it names is read now, before round three,
    // which may read its snapshot.
    for f in fleets.iter_mut().filter(|f| !f.empty) {
        let (st, listed, skipped) = (&mut f.st, &mut f.listed, &mut f.skipped);
        f.fed = fetch::feed(&f.name, st, listed, &mut got, lake_now, skipped);
        let held = f.st.manifest.as_ref().map_or(0, |m| m.seq);
        f.skipped.manifests += crate::lake::manifest::newest_plausible(&f.listed.manifests, held).1;
    }
    let named: Vec<String> = fleets
        .iter()
        .filter_map(|f| plan::newest_manifest(&f.st, &f.listed.manifests))
        .filter(|k| !got.has(k))
        .map(str::to_string)
        .collect();
    got.extend(plan::get(store, named)?);
    let offset = lake_now - crate::time::now_ms();
    let generated_at = format_ms(crate::time::now_ms());
    for f in &mut fleets {
        let (refused, note) = fetch::rosters(&f.name, &mut f.st, &f.listed.rosters, &mut got);
        f.skipped.sessions += refused;
        f.skipped.session_note = note.or(f.skipped.session_note.take());
        let agents = rebuild::roster(&f.st, lake_now);
        f.agents = agents.len();
        let roster = Roster {
            generated_at: generated_at.clone(),
            lake_clock_offset_ms: offset,
            agents,
        };
        // Newer than the state until the fleet is done: if the pass fails in between,
        // the next one reads the same rosters again and writes the same file.
        write(paths, &f.name, cache::ROSTER, &roster)?;
    }
    super::trace::sync("rosters", store.requests());
    let own = crate::fleet::roster::stored_host_id(&paths.host_id());
    let reads = seconds(paths, &mut fleets, &mut got, own.as_deref());
    plan::later(store, reads, &mut |r, g| apply(paths, &mut fleets, r, g))?;
    let mut out = Vec::new();
    for f in fleets {
        let name = f.name.clone();
        out.push(finish(paths, config, &url, f, lake_now, &generated_at)?);
        after(&name)?;
    }
    Ok(out)
}

/// One fleet, as a pass of its own.
#[cfg(test)]
pub fn mirror(
    paths: &Paths,
    config: &Config,
    store: &dyn Store,
    fleet: &str,
) -> Result<MirrorReport> {
    let plan = Plan::of(&[fleet.to_string()]);
    Ok(mirror_all(paths, config, store, &plan, |_| Ok(()))?.remove(0))
}

/// A fleet's mirror state for `url`, or a fresh one (its local records forgotten).
fn open(paths: &Paths, url: &str, fleet: &str, empty: bool, lake_now: i64) -> Fleet {
    let st = state::read(paths, fleet, url).unwrap_or_else(|| {
        state::reset(paths, fleet);
        State {
            store: url.to_string(),
            feed_mark: Mark::starting_at(lake_now),
            ..State::default()
        }
    });
    Fleet {
        name: fleet.to_string(),
        st,
        empty,
        listed: Listed::default(),
        fed: Vec::new(),
        agents: 0,
        touched: BTreeSet::new(),
        bad_lines: 0,
        snapshot: None,
        prev: None,
        skipped: Skipped::default(),
    }
}

/// What round two's answers call for: the feed's keys, round two's handoffs applied,
/// the newest manifest taken; returns round three's reads.
fn seconds(
    paths: &Paths,
    fleets: &mut [Fleet],
    got: &mut Fetched,
    own: Option<&str>,
) -> Vec<Later> {
    let mut reads = Vec::new();
    for (i, f) in fleets.iter_mut().enumerate().filter(|(_, f)| !f.empty) {
        let fed = std::mem::take(&mut f.fed);
        for k in plan::new_handoffs(&f.st, &f.listed.handoffs) {
            if let Some((bytes, mtime)) = got.take(&k) {
                f.bad_lines += fetch::handoffs(&f.name, &mut f.st, &bytes, mtime);
            }
        }
        for k in fetch::fed_handoffs(&f.name, &f.st, &f.listed, &fed) {
            reads.push(Later::Handoff(i, k));
        }
        for k in history::keys(&f.name, &f.listed, &fed, own) {
            reads.push(Later::History(i, k));
        }
        f.prev = f.st.manifest.clone();
        let (mut newest, refused) = fetch::manifest(&f.name, &mut f.st, &f.listed, got);
        f.skipped.manifests += usize::from(refused);
        if newest.as_ref().map(|m| &m.sha256) == f.st.refused.as_ref() && newest.is_some() {
            // Refused before: not read again, the previous mirror stays.
            f.skipped.snapshots += 1;
            f.skipped.snapshot_note = newest.as_ref().map(|m| {
                format!(
                    "the snapshot of manifest {} was refused before and is not read again",
                    m.seq
                )
            });
            f.st.manifest = f.prev.clone();
            newest = f.prev.clone();
        }
        f.snapshot = newest.clone();
        if let Some(m) = newest.filter(|m| !holds_snapshot(paths, &f.name, m)) {
            reads.push(Later::Snapshot(i, m));
        }
    }
    reads
}

/// Whether this host's `snapshot.bin` already is the snapshot `m` names.
fn holds_snapshot(paths: &Paths, fleet: &str, m: &Manifest) -> bool {
    let current: cache::Read<Pipeline> = cache::read(paths, fleet, cache::PIPELINE);
    let have = current.data.and_then(|p| p.snapshot_id);
    have.as_deref() == Some(&m.snapshot_id) && paths.snapshot_bin(fleet).exists()
}

/// Apply one round-three read to its fleet.
fn apply(paths: &Paths, fleets: &mut [Fleet], read: Later, got: Option<Got>) -> Result<()> {
    match read {
        Later::History(i, _) => {
            let f = &mut fleets[i];
            if let Some((bytes, mtime)) = got {
                let (sessions, bad) = history::object(paths, &f.name, &mut f.st, &bytes, mtime)?;
                f.touched.extend(sessions);
                f.bad_lines += bad;
            }
        }
        Later::Handoff(i, _) => {
            let f = &mut fleets[i];
            if let Some((bytes, mtime)) = got {
                f.bad_lines += fetch::handoffs(&f.name, &mut f.st, &bytes, mtime);
            }
        }
        Later::Snapshot(i, m) => {
            let f = &mut fleets[i];
            // Gone, torn or tampered: keep the old mirror rather than publish garbage.
            f.snapshot = match got {
                Some((bytes, _)) if crate::digest::sha256_hex(&bytes) == m.sha256 => {
                    match refuse::install(&paths.snapshot_bin(&f.name), &bytes)? {
                        None => Some(m),
                        Some(why) => {
                            // Refused: the previous mirror stays, and this one is not
                            // read again.
                            f.skipped.snapshots += 1;
                            f.skipped.snapshot_note = Some(why);
                            f.st.refused = Some(m.sha256);
                            f.st.manifest = f.prev.clone();
                            f.prev.clone()
                        }
                    }
                }
                _ => None,
            };
        }
    }
    Ok(())
}

/// The rest of a fleet: sessions refolded, the other cache files, the mirror state.
fn finish(
    paths: &Paths,
    config: &Config,
    url: &str,
    mut f: Fleet,
    lake_now: i64,
    generated_at: &str,
) -> Result<MirrorReport> {
    let idle_ms = config.idle_secs as i64 * 1000;
    if !f.empty {
        fetch::handoffs_done(&f.name, &mut f.st, &f.listed, lake_now, KEEP);
    }
    f.touched.extend(std::mem::take(&mut f.st.refold));
    for s in std::mem::take(&mut f.touched) {
        let recs = state::records(paths, &f.name, &s);
        let Some(seen) = f.st.sessions.get(&s).map(|x| x.seen_ms) else {
            continue;
        };
        if let Some(d) = crate::history::digest::fold(&recs, seen, lake_now, idle_ms)
            && let Some(x) = f.st.sessions.get_mut(&s)
        {
            x.digest = d;
        }
    }
    let fleet = f.name.as_str();
    let sessions = rebuild::history(&f.st, lake_now, idle_ms);
    let report = MirrorReport {
        fleet: fleet.into(),
        agents: f.agents,
        sessions: sessions.len(),
        handoffs: f.st.notes.len(),
        bad_lines: f.bad_lines,
        skipped: f.skipped.clone(),
        snapshot_id: f.snapshot.as_ref().map(|m| m.snapshot_id.clone()),
    };
    let history = History {
        generated_at: generated_at.to_string(),
        sessions,
    };
    write(paths, fleet, cache::HISTORY, &history)?;
    let handoffs = Handoffs {
        generated_at: generated_at.to_string(),
        handoffs: f.st.notes.clone(),
    };
    write(paths, fleet, cache::HANDOFFS, &handoffs)?;
    let pipeline = Pipeline {
        last_sync: Some(generated_at.to_string()),
        last_maint: f.snapshot.as_ref().map(|m| m.built_at.clone()),
        snapshot_id: report.snapshot_id.clone(),
        store: Some(url.to_string()),
    };
    write(paths, fleet, cache::PIPELINE, &pipeline)?;
    if !f.empty {
        state::write(paths, fleet, &f.st)?;
    }
    Ok(report)
}

/// A cache file: rebuilt from the mirror state every pass, so not fsynced (see
/// `fsutil::write_rebuildable`). The state itself and `snapshot.bin` stay durable: the
/// state decides what is read again, and `snapshot.bin` is kept while the pipeline
/// names its id.
fn write<T: serde::Serialize>(paths: &Paths, fleet: &str, name: &str, v: &T) -> Result<()> {
    let bytes = crate::error::Error::json(v)?;
    crate::fsutil::write_rebuildable(&paths.cache_file(fleet, name), &bytes, 0o600)
}
