//! `maint`'s publish: build the folded state's snapshot (patched in place from this
//! host's previous build when it can be, else in full), create it content-addressed,
//! claim the next manifest number for it, and name that manifest in the fleet's feed
//! (mirrors find new manifests through the feed alone: lake format 3).

use super::Latest;
use super::{MaintOutcome, MaintReport};
use crate::config::{Config, MemoryMode};
use crate::error::{Error, Result};
use crate::lake::keys;
use crate::lake::manifest::Manifest;
use crate::lake::store::{Created, Store};
use crate::paths::Paths;

/// Publish the folded state's snapshot unless it is unchanged; `true` in the second
/// place when this host built it (its snapshot file now holds the state).
pub(super) fn publish(
    paths: &Paths,
    config: &Config,
    store: &dyn Store,
    fleet: &str,
    writer: &str,
    fold: &mut crate::memory::fold::State,
    latest: &mut Latest,
) -> Result<(MaintReport, bool)> {
    let (promoted, contested) = fold.counts();
    let mut report = MaintReport {
        fleet: fleet.into(),
        events: fold.events(),
        claims: fold.claim_count(),
        promoted,
        contested,
        ..Default::default()
    };
    if config.memory_mode == MemoryMode::Off {
        report.outcome = MaintOutcome::Off;
        return Ok((report, false));
    }
    let mode = config.memory_mode;
    let digest = fold.digest(mode);
    let vectors = crate::snapshot::vectors::Vectors::plan(paths, config, fleet);
    report.note = vectors.note.clone();
    let snapshot_id = vectors.snapshot_id(&digest);
    report.state_digest = Some(digest);
    report.snapshot_id = Some(snapshot_id.clone());
    crate::services::trace::mark("state digest");
    let latest = latest.get()?;
    crate::services::trace::mark("latest manifest");
    if latest
        .as_ref()
        .is_some_and(|m| m.snapshot_id == snapshot_id)
    {
        report.outcome = MaintOutcome::Unchanged;
        report.seq = latest.map(|m| m.seq);
        return Ok((report, false));
    }

    let any_visible = config.memory_mode == MemoryMode::On && promoted + contested > 0;
    let file = build(
        paths,
        fleet,
        mode,
        &snapshot_id,
        &vectors,
        any_visible,
        fold,
    )?;
    fold.built(&snapshot_id);
    // Hashed and created from the file, never held: a 100k-claim snapshot is ~90 MB.
    let sha = std::fs::File::open(file.path())
        .and_then(crate::digest::sha256_reader_hex)
        .map_err(|e| Error::io("cannot read", file.path(), e))?;
    let key = keys::snapshot(fleet, &sha);
    // Content-addressed: `Exists` means the same bytes are there.
    store.create_file(&key, file.path())?;
    store.flush()?;
    drop(file);

    let mut seq = next_seq(latest.map(|m| m.seq))?;
    for _ in 0..32 {
        let manifest = Manifest {
            seq,
            snapshot_id: snapshot_id.clone(),
            key: key.clone(),
            sha256: sha.clone(),
            writer: writer.into(),
            built_at: crate::time::now_rfc3339(),
            mode,
            claims: report.claims,
        };
        let body = crate::error::Error::json_pretty(&manifest)?;
        let mkey = keys::manifest(fleet, seq);
        // Kept until the feed names it: see `name_pending`.
        crate::fsutil::write_atomic(&naming(paths, fleet), mkey.as_bytes(), 0o600)?;
        match store.create(&mkey, &body)? {
            Created::Yes(_) => {
                store.flush()?;
                report.named = name_pending(paths, store, fleet, false)?;
                crate::services::trace::mark("snapshot+manifest publish");
                report.outcome = MaintOutcome::Published;
                report.seq = Some(seq);
                return Ok((report, true));
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
                    // Ours from an earlier try is named now; another host's was named
                    // by it (so a second entry is harmless).
                    report.named = name_pending(paths, store, fleet, false)?;
                    report.outcome = MaintOutcome::Unchanged;
                    report.seq = Some(seq);
                    return Ok((report, true));
                }
                seq = next_seq(Some(seq))?;
            }
        }
    }
    forget(paths, fleet)?;
    Err(Error::storage(
        "manifest_race",
        "could not publish: 32 manifest numbers were taken in a row",
    )
    .hint("another maint is publishing continuously; retry later"))
}

/// `<fleet>.naming`: the manifest key this host is creating, kept until the fleet's feed
/// names it.
fn naming(paths: &Paths, fleet: &str) -> std::path::PathBuf {
    paths.maint_dir().join(format!("{fleet}.naming"))
}

/// Name the manifest this host last created in the fleet's feed, if it is not named yet:
/// a run that failed or died between a manifest's create and its feed entry leaves its
/// key in `<fleet>.naming`, and the next run (idle or not) names it first, so no reader
/// misses it. `check`: the create's answer was not seen, so the manifest is read first and
/// named only if it landed (a number that never did is taken again by the next publish,
/// which names it then). Returns the feed entries it created.
pub(super) fn name_pending(
    paths: &Paths,
    store: &dyn Store,
    fleet: &str,
    check: bool,
) -> Result<Vec<String>> {
    let Ok(key) = std::fs::read_to_string(naming(paths, fleet)) else {
        return Ok(Vec::new());
    };
    let mut made = Vec::new();
    let fed = matches!(keys::fed(fleet, &key), Some(keys::Fed::Manifest(_)));
    if fed && (!check || store.get(&key)?.is_some()) {
        made = crate::lake::watermark::publish_feed(store, fleet, vec![key])?;
        store.flush()?;
    }
    forget(paths, fleet)?;
    Ok(made)
}

fn forget(paths: &Paths, fleet: &str) -> Result<()> {
    crate::fsutil::remove_if_present(&naming(paths, fleet))
}

/// The manifest number after `latest` (1 when there is none), never wrapped: a lake
/// whose numbers ran out fails loudly rather than publish 0 below every reader's newest.
fn next_seq(latest: Option<u64>) -> Result<u64> {
    latest.map_or(Some(1), |n| n.checked_add(1)).ok_or_else(|| {
        Error::storage(
            "manifest_overflow",
            "could not publish: the newest manifest number is the largest there is",
        )
        .hint("a manifest numbered `u64::MAX` was forged or damaged: remove it from the lake (`snapshot/<fleet>/manifest/`), then run `ctxlake maint` again")
    })
}

/// A built snapshot file: this host's snapshot file, or (when it could not be renamed
/// over it) the build's temporary file, removed once published.
enum Built {
    Base(std::path::PathBuf),
    Temp(std::path::PathBuf),
}

impl Built {
    fn path(&self) -> &std::path::Path {
        match self {
            Built::Base(p) | Built::Temp(p) => p,
        }
    }
}

impl Drop for Built {
    fn drop(&mut self) {
        if let Built::Temp(p) = self {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// The snapshot file, kept as this host's snapshot file for the next run: the file
/// patched in place with what the fold changed since it built it, when it can be, else
/// a full build.
fn build(
    paths: &Paths,
    fleet: &str,
    mode: MemoryMode,
    snapshot_id: &str,
    vectors: &crate::snapshot::vectors::Vectors,
    any_visible: bool,
    fold: &crate::memory::fold::State,
) -> Result<Built> {
    let dir = paths.maint_dir();
    let base = dir.join(format!("{fleet}.snapshot"));
    if let Some(delta) = fold.delta().filter(|_| base.exists()) {
        let t = crate::snapshot::delta::Target {
            snapshot_id,
            fleet,
            mode,
            vectors,
            any_visible,
            delta: &delta,
        };
        // A declined or failed patch leaves the file as it was: the full build replaces it.
        if let Ok(true) = crate::snapshot::delta::patch_in_place(&base, &t) {
            crate::services::trace::mark("snapshot build (patched in place)");
            return Ok(Built::Base(base));
        }
    }
    full(&dir, &base, snapshot_id, fleet, mode, fold, vectors)
}

/// A full build into a temporary file, renamed over `base` once finished and checked.
fn full(
    dir: &std::path::Path,
    base: &std::path::Path,
    snapshot_id: &str,
    fleet: &str,
    mode: MemoryMode,
    fold: &crate::memory::fold::State,
    vectors: &crate::snapshot::vectors::Vectors,
) -> Result<Built> {
    crate::fsutil::sweep_temp_files(dir, std::time::Duration::from_secs(3600));
    let tmp = dir.join(format!(
        ".snapshot.tmp-{}-{}",
        std::process::id(),
        crate::fsutil::nonce()
    ));
    // Rows go into the file as the fold renders them: none are held for the build.
    let built = crate::snapshot::build::build_streamed(
        &tmp,
        snapshot_id,
        fleet,
        mode,
        fold.rendered(),
        vectors,
    );
    // Only a finished, checked file becomes the base (rename is atomic), and never
    // beside a journal a killed patch left, which SQLite would replay into it.
    crate::snapshot::delta::settle(base);
    if let Err(e) = built {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    crate::services::trace::mark("snapshot build (full)");
    Ok(match std::fs::rename(&tmp, base) {
        Ok(()) => Built::Base(base.to_path_buf()),
        // Published all the same; the next run builds in full again.
        Err(_) => Built::Temp(tmp),
    })
}

#[cfg(test)]
mod tests {
    /// Manifest numbers count up and never wrap: past `u64::MAX` is a loud error.
    #[test]
    fn the_next_manifest_number_never_wraps() {
        assert_eq!(super::next_seq(None).unwrap(), 1);
        assert_eq!(super::next_seq(Some(41)).unwrap(), 42);
        let e = super::next_seq(Some(u64::MAX)).unwrap_err();
        assert_eq!(e.code, "manifest_overflow");
    }
}
