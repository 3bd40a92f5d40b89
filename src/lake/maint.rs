//! `maint` for one fleet: fold claim events, run the gate, and publish a snapshot by
//! creating the next numbered manifest. Idempotent by content: an unchanged state
//! publishes nothing, and two hosts racing publish one manifest per sequence number.

use super::checkpoint::{Loaded, Published};
use super::keys;
use super::manifest::{self, Manifest};
use super::store::{Created, Store};
use crate::config::{Config, MemoryMode};
use crate::error::{Error, Result};
use crate::memory::kinds::ClaimStatus;
use crate::paths::Paths;

#[derive(Debug, Default, serde::Serialize)]
pub struct MaintReport {
    pub fleet: String,
    pub events: usize,
    pub claims: usize,
    pub promoted: usize,
    pub contested: usize,
    /// `published`, `unchanged`, or `off` (memory mode off: nothing published).
    pub outcome: String,
    pub snapshot_id: Option<String>,
    pub seq: Option<u64>,
    /// Why the configured embedder's vectors are missing (model unusable), if they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Digest of the folded state (the snapshot id before the embedder's part).
    #[serde(skip)]
    pub state_digest: Option<String>,
    /// Lines of event batch objects skipped as torn, foreign or malformed.
    #[serde(skip_serializing_if = "is_zero")]
    pub bad_lines: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

pub fn maint(
    paths: &Paths,
    config: &Config,
    store: &dyn Store,
    fleet: &str,
    writer: &str,
) -> Result<MaintReport> {
    super::trace::start();
    let mut loaded = super::checkpoint::load(paths, store, fleet)?;
    let mut latest = Latest::new(store, fleet);
    let mut report = match unchanged(paths, config, fleet, &loaded, &mut latest)? {
        Some(r) => r,
        None => publish(
            paths,
            config,
            store,
            fleet,
            writer,
            &loaded.checkpoint.events,
            &mut latest,
        )?,
    };
    report.bad_lines = loaded.bad_lines;
    loaded.checkpoint.published = report.state_digest.as_ref().map(|d| Published {
        state_digest: d.clone(),
        mode: config.memory_mode.as_str().into(),
        claims: report.claims,
        promoted: report.promoted,
        contested: report.contested,
    });
    super::checkpoint::save(paths, store, fleet, &loaded)?;
    Ok(report)
}

/// The latest manifest, read from the store at most once per run: the idle check and
/// the publish both need it.
struct Latest<'a> {
    store: &'a dyn Store,
    fleet: &'a str,
    read: Option<Option<Manifest>>,
}

impl<'a> Latest<'a> {
    fn new(store: &'a dyn Store, fleet: &'a str) -> Self {
        Latest {
            store,
            fleet,
            read: None,
        }
    }

    fn get(&mut self) -> Result<Option<&Manifest>> {
        if self.read.is_none() {
            self.read = Some(manifest::latest_manifest(self.store, self.fleet)?);
        }
        Ok(self.read.as_ref().and_then(Option::as_ref))
    }
}

/// The report of an idle run, without folding: no event is new since the checkpoint,
/// which records the snapshot its events folded into under this memory mode, and the
/// latest manifest still names that snapshot. `None`: fold and publish.
fn unchanged(
    paths: &Paths,
    config: &Config,
    fleet: &str,
    loaded: &Loaded,
    latest: &mut Latest,
) -> Result<Option<MaintReport>> {
    let cp = &loaded.checkpoint;
    let Some(p) = cp.published.as_ref().filter(|p| {
        loaded.base.is_some() && loaded.fresh == 0 && p.mode == config.memory_mode.as_str()
    }) else {
        return Ok(None);
    };
    if p.state_digest.len() != 64 {
        return Ok(None); // not a digest: fold
    }
    // The snapshot id also names the embedder: a new model (or a lost one) republishes.
    let vectors = crate::snapshot::vectors::Vectors::plan(paths, config, fleet);
    let snapshot_id = vectors.snapshot_id(&p.state_digest);
    let Some(latest) = latest
        .get()?
        .filter(|m| m.snapshot_id == snapshot_id && m.mode == p.mode)
    else {
        return Ok(None);
    };
    super::trace::mark("unchanged: latest manifest");
    Ok(Some(MaintReport {
        fleet: fleet.into(),
        events: cp.events.len(),
        claims: p.claims,
        promoted: p.promoted,
        contested: p.contested,
        outcome: "unchanged".into(),
        snapshot_id: Some(snapshot_id),
        seq: Some(latest.seq),
        note: vectors.note,
        state_digest: Some(p.state_digest.clone()),
        bad_lines: 0, // set by the caller, from the load
    }))
}

/// Fold `events`, run the gate and publish the snapshot unless it is unchanged.
fn publish(
    paths: &Paths,
    config: &Config,
    store: &dyn Store,
    fleet: &str,
    writer: &str,
    events: &[super::claims::Event],
    latest: &mut Latest,
) -> Result<MaintReport> {
    let folded = crate::memory::gate::fold(events);
    super::trace::mark("fold");
    let count = |s: ClaimStatus| folded.claims.iter().filter(|c| c.status == s).count();
    let mut report = MaintReport {
        fleet: fleet.into(),
        events: events.len(),
        claims: folded.claims.len(),
        promoted: count(ClaimStatus::Promoted),
        contested: count(ClaimStatus::Contested),
        ..Default::default()
    };
    if config.memory_mode == MemoryMode::Off {
        report.outcome = "off".into();
        return Ok(report);
    }
    let mode = config.memory_mode.as_str();
    let digest = crate::digest::sha256_json_hex(&(mode, &folded.claims, &folded.events));
    let vectors = crate::snapshot::vectors::Vectors::plan(paths, config, fleet);
    report.note = vectors.note.clone();
    let snapshot_id = vectors.snapshot_id(&digest);
    report.state_digest = Some(digest);
    report.snapshot_id = Some(snapshot_id.clone());
    super::trace::mark("state digest");
    let latest = latest.get()?;
    super::trace::mark("latest manifest");
    if latest
        .as_ref()
        .is_some_and(|m| m.snapshot_id == snapshot_id)
    {
        report.outcome = "unchanged".into();
        report.seq = latest.map(|m| m.seq);
        return Ok(report);
    }

    let bytes = build(
        paths,
        &crate::snapshot::patch::Target {
            snapshot_id: &snapshot_id,
            fleet,
            mode,
            claims: &folded.claims,
            events: &folded.events,
            vectors: &vectors,
        },
    )?;
    let sha = crate::digest::sha256_hex(&bytes);
    let key = keys::snapshot(fleet, &sha);
    store.create(&key, &bytes)?; // content-addressed: `Exists` means the same bytes are there
    store.flush()?;

    let mut seq = latest.map_or(1, |m| m.seq + 1);
    for _ in 0..32 {
        let manifest = Manifest {
            seq,
            snapshot_id: snapshot_id.clone(),
            key: key.clone(),
            sha256: sha.clone(),
            writer: writer.into(),
            built_at: crate::time::now_rfc3339(),
            mode: mode.into(),
            claims: folded.claims.len(),
        };
        let body = serde_json::to_vec_pretty(&manifest).unwrap_or_default();
        match store.create(&keys::manifest(fleet, seq), &body)? {
            Created::Yes(_) => {
                store.flush()?;
                super::trace::mark("snapshot+manifest publish");
                report.outcome = "published".into();
                report.seq = Some(seq);
                return Ok(report);
            }
            Created::Exists => {
                // Settle by reading back: ours from an ambiguous earlier try, the same
                // state from another host, or a different state: then take the next number.
                let theirs: Option<Manifest> = store
                    .get(&keys::manifest(fleet, seq))?
                    .and_then(|(b, _)| serde_json::from_slice(&b).ok());
                if let Some(t) = theirs
                    && (t.writer == writer || t.snapshot_id == snapshot_id)
                {
                    report.outcome = "unchanged".into();
                    report.seq = Some(seq);
                    return Ok(report);
                }
                seq += 1;
            }
        }
    }
    Err(Error::storage(
        "manifest_race",
        "could not publish: 32 manifest numbers were taken in a row",
    )
    .hint("another maint is publishing continuously; retry later"))
}

/// The snapshot file's bytes: a patched copy of this host's previous build when that
/// equals a full build, else a full build. It is then kept as the next run's base.
fn build(paths: &Paths, target: &crate::snapshot::patch::Target) -> Result<Vec<u8>> {
    let dir = paths.state().join("maint");
    std::fs::create_dir_all(&dir).map_err(|e| Error::io("cannot create", &dir, e))?;
    crate::fsutil::sweep_temp_files(&dir, std::time::Duration::from_secs(3600));
    let tmp = dir.join(format!(
        ".snapshot.tmp-{}-{}",
        std::process::id(),
        crate::fsutil::nonce()
    ));
    let base = dir.join(format!("{}.snapshot", target.fleet));
    let built = crate::snapshot::patch::build_from(&base, &tmp, target)
        .and_then(|patched| Ok((patched, read(&tmp)?)));
    // Only a finished, checked file becomes the base (rename is atomic).
    if built.is_err() || std::fs::rename(&tmp, &base).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    let (patched, bytes) = built?;
    super::trace::mark(if patched {
        "snapshot build (patched)"
    } else {
        "snapshot build (full)"
    });
    Ok(bytes)
}

fn read(p: &std::path::Path) -> Result<Vec<u8>> {
    std::fs::read(p).map_err(|e| Error::io("cannot read", p, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lake::store::LocalStore;
    use serde_json::{Value, json};

    /// A lake holding one claim event, and that event.
    fn one_claim() -> (tempfile::TempDir, Paths, LocalStore, Value) {
        let d = tempfile::tempdir().unwrap();
        let paths = Paths::with_overrides(d.path().join("home"), None, None);
        let store = LocalStore::open(&d.path().join("lake")).unwrap();
        let ev = json!({"id": "01A", "at": "2026-11-29T00:00:00.000Z", "kind": "memory_propose", "agent": "a", "session": "s",
            "payload": {"claim": "CI runs on Debian", "type": "environment", "subject": "ci", "evidence": [{"session_id": "s", "message_id": "m"}]}});
        store
            .create(&keys::claim_event("f", "01A"), ev.to_string().as_bytes())
            .unwrap();
        (d, paths, store, ev)
    }

    #[test]
    fn publish_is_idempotent_and_races_settle() {
        let (_d, paths, store, ev) = one_claim();
        let cfg = Config::default();
        let r = maint(&paths, &cfg, &store, "f", "w1").unwrap();
        assert_eq!(
            (r.outcome.as_str(), r.seq, r.promoted),
            ("published", Some(1), 1)
        );
        let again = maint(&paths, &cfg, &store, "f", "w2").unwrap();
        assert_eq!((again.outcome.as_str(), again.seq), ("unchanged", Some(1)));
        // Another host took seq 2 with a different state: we move to 3.
        store.create(&keys::manifest("f", 2), br#"{"seq":2,"snapshot_id":"other","key":"k","sha256":"x","writer":"w9","built_at":"t","mode":"on","claims":0}"#).unwrap();
        let ev2 = ev
            .to_string()
            .replace("01A", "01B")
            .replace("Debian", "Debian 12");
        store
            .create(&keys::claim_event("f", "01B"), ev2.as_bytes())
            .unwrap();
        let r3 = maint(&paths, &cfg, &store, "f", "w1").unwrap();
        assert_eq!((r3.outcome.as_str(), r3.seq), ("published", Some(3)));
        let off = Config {
            memory_mode: MemoryMode::Off,
            ..Config::default()
        };
        assert_eq!(
            maint(&paths, &off, &store, "f", "w1").unwrap().outcome,
            "off"
        );
    }

    /// An idle run skips the fold only while nothing it depends on moved: a new memory
    /// mode or a newer manifest of another state, with no new event, still publishes.
    #[test]
    fn an_idle_run_skips_the_fold_only_when_nothing_moved() {
        let (_d, paths, store, _) = one_claim();
        let on = Config::default();
        let first = maint(&paths, &on, &store, "f", "w1").unwrap();
        let idle = maint(&paths, &on, &store, "f", "w1").unwrap();
        assert_eq!((idle.outcome.as_str(), idle.seq), ("unchanged", Some(1)));
        assert_eq!(
            (idle.snapshot_id, idle.claims, idle.promoted, idle.events),
            (first.snapshot_id.clone(), 1, 1, 1)
        );
        let shadow = Config {
            memory_mode: MemoryMode::Shadow,
            ..Config::default()
        };
        let r = maint(&paths, &shadow, &store, "f", "w1").unwrap();
        assert_eq!((r.outcome.as_str(), r.seq), ("published", Some(2)));
        assert_ne!(r.snapshot_id, first.snapshot_id);
        // Another host published another state on top: ours is published again.
        store.create(&keys::manifest("f", 3), br#"{"seq":3,"snapshot_id":"other","key":"k","sha256":"x","writer":"w9","built_at":"t","mode":"shadow","claims":0}"#).unwrap();
        let r = maint(&paths, &shadow, &store, "f", "w1").unwrap();
        assert_eq!((r.outcome.as_str(), r.seq), ("published", Some(4)));
        let idle = maint(&paths, &shadow, &store, "f", "w1").unwrap();
        assert_eq!((idle.outcome.as_str(), idle.seq), ("unchanged", Some(4)));
    }
}
