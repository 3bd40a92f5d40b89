//! Lake → cache: rebuild `cache/<fleet>/*.json` (each written atomically) and mirror the
//! highest published snapshot byte for byte into `snapshot.bin`.

use std::collections::BTreeMap;

use super::keys;
use super::manifest::Manifest;
use super::presence::PresenceObj;
use super::store::Store;
use crate::cache::{
    self, HandoffNote, Handoffs, History, Pipeline, Presence, Roster, SessionDigest,
};
use crate::config::Config;
use crate::error::Result;
use crate::paths::Paths;
use crate::time::format_ms;

/// How many handoffs and sessions the cache keeps (the tools cap rows further).
const KEEP: usize = 500;

#[derive(Debug, Default, serde::Serialize)]
pub struct MirrorReport {
    pub fleet: String,
    pub agents: usize,
    pub sessions: usize,
    pub handoffs: usize,
    pub snapshot_id: Option<String>,
}

pub fn mirror(
    paths: &Paths,
    config: &Config,
    store: &dyn Store,
    fleet: &str,
) -> Result<MirrorReport> {
    let lake_now = store.now_ms()?;
    let offset = lake_now - crate::time::now_ms();
    let generated_at = format_ms(crate::time::now_ms());
    let mut report = MirrorReport {
        fleet: fleet.into(),
        ..Default::default()
    };

    let mut agents = Vec::new();
    let mut presences = Vec::new();
    for o in store.list(&keys::presences(fleet))? {
        let Some((bytes, mtime)) = store.get(&o.key)? else {
            continue;
        };
        let Ok(p) = serde_json::from_slice::<PresenceObj>(&bytes) else {
            continue;
        };
        presences.push((p.clone(), mtime));
        if p.ended_at.is_some() {
            continue;
        }
        let leases = p
            .leases
            .into_iter()
            .filter(|l| crate::time::parse_rfc3339(&l.expires_at).is_some_and(|t| t > lake_now))
            .collect();
        agents.push(Presence {
            agent: p.agent,
            session: p.session,
            runtime: p.runtime,
            task: p.task,
            last_seen: format_ms(mtime),
            leases,
        });
    }
    report.agents = agents.len();
    let roster = Roster {
        generated_at: generated_at.clone(),
        lake_clock_offset_ms: offset,
        agents,
    };
    write(paths, fleet, cache::ROSTER, &roster)?;

    let sessions = sessions(
        store,
        fleet,
        &presences,
        lake_now,
        config.idle_secs as i64 * 1000,
    )?;
    report.sessions = sessions.len();
    write(
        paths,
        fleet,
        cache::HISTORY,
        &History {
            generated_at: generated_at.clone(),
            sessions,
        },
    )?;

    let mut notes = Vec::new();
    for o in store
        .list(&keys::handoffs(fleet))?
        .into_iter()
        .rev()
        .take(KEEP)
    {
        if let Some((b, _)) = store.get(&o.key)?
            && let Ok(n) = serde_json::from_slice::<HandoffNote>(&b)
        {
            notes.push(n);
        }
    }
    report.handoffs = notes.len();
    write(
        paths,
        fleet,
        cache::HANDOFFS,
        &Handoffs {
            generated_at: generated_at.clone(),
            handoffs: notes,
        },
    )?;

    let manifest = mirror_snapshot(paths, store, fleet)?;
    report.snapshot_id = manifest.as_ref().map(|m| m.snapshot_id.clone());
    let pipeline = Pipeline {
        last_sync: Some(generated_at),
        last_maint: manifest.as_ref().map(|m| m.built_at.clone()),
        snapshot_id: report.snapshot_id.clone(),
        store: Some(store.url()),
    };
    write(paths, fleet, cache::PIPELINE, &pipeline)?;
    Ok(report)
}

fn write<T: serde::Serialize>(paths: &Paths, fleet: &str, name: &str, v: &T) -> Result<()> {
    let bytes = serde_json::to_vec(v).unwrap_or_default();
    crate::fsutil::write_atomic(&paths.cache_file(fleet, name), &bytes, 0o600)
}

/// Digests of every session: hook segments folded, plus MCP-only sessions from presence.
fn sessions(
    store: &dyn Store,
    fleet: &str,
    presences: &[(PresenceObj, i64)],
    lake_now: i64,
    idle_ms: i64,
) -> Result<Vec<SessionDigest>> {
    let mut by_session: BTreeMap<(String, String), (Vec<crate::spool::Record>, i64)> =
        BTreeMap::new();
    for o in store.list(&keys::sessions(fleet))? {
        let parts: Vec<&str> = o.key.split('/').collect();
        let (Some(agent), Some(session)) = (parts.get(2), parts.get(3)) else {
            continue;
        };
        let Some((bytes, _)) = store.get(&o.key)? else {
            continue;
        };
        let e = by_session
            .entry((agent.to_string(), session.to_string()))
            .or_default();
        e.0.extend(crate::spool::scan(&bytes, 0).records);
        e.1 = e.1.max(o.mtime_ms);
    }
    let mut out = Vec::new();
    for ((agent, session), (mut recs, seen)) in by_session {
        recs.sort_by(|a, b| a.id.cmp(&b.id));
        recs.dedup_by(|a, b| a.id == b.id);
        let seen = presences
            .iter()
            .find(|(p, _)| p.agent == agent && p.session == session)
            .map_or(seen, |(_, t)| (*t).max(seen));
        if let Some(d) = super::digest::fold(&recs, seen, lake_now, idle_ms) {
            out.push(d);
        }
    }
    for (p, mtime) in presences {
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
    Ok(out)
}

/// Mirror the highest manifest's snapshot into `snapshot.bin` when it changed.
fn mirror_snapshot(paths: &Paths, store: &dyn Store, fleet: &str) -> Result<Option<Manifest>> {
    let Some(m) = super::manifest::latest_manifest(store, fleet)? else {
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
