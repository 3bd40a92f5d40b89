//! Saving `maint`'s folded state: this host's copy (`state/maint/<fleet>.fold`) whenever
//! it moved, and a checkpoint in the lake when one is due (`checkpoint`). Both are the
//! same bytes, serialized once: what a copy holds beyond a checkpoint (the lake it
//! describes, its events no checkpoint holds) is kept in its head (`idle`).

use super::checkpoint::{Base, Checkpoint, KEEP, Loaded, due, hint_file, local_file, maint_dir};
use crate::error::Result;
use crate::lake::keys;
use crate::lake::store::Store;
use crate::lake::watermark;
use crate::paths::Paths;

/// Keep this run's state: in this host's copy whenever it moved, and in a new checkpoint
/// when one is due. The copy is the checkpoint's bytes, serialized once for both; its
/// head (`idle`) says which lake it describes and how many of its events no checkpoint
/// holds.
pub(crate) fn save(
    paths: &Paths,
    store: &dyn Store,
    fleet: &str,
    l: &mut Loaded,
    min: usize,
    built: bool,
) -> Result<()> {
    let cp = &mut l.checkpoint;
    let due = due(cp, min);
    let moved = due || l.fresh > 0 || built || cp.published != l.base_published;
    let moved = moved || l.base != Base::Local;
    let fold = local_file(paths, fleet);
    if moved {
        super::idle::forget(paths, fleet)?;
        if !(due && with_checkpoint(paths, store, fleet, cp, &fold)) {
            // Serialized straight into the file: 100k claims' state is ~55 MB of JSON.
            crate::fsutil::write_atomic_with(&fold, 0o600, |w| {
                serde_json::to_writer(w, &*cp).map_err(std::io::Error::from)
            })?;
        }
        crate::services::trace::mark("state write");
    }
    cp.store = store.url();
    if moved || !super::idle::describes(paths, fleet, &fold) {
        super::idle::write(paths, fleet, &fold, cp)?;
    }
    Ok(())
}

/// Serialize `cp` once, create it in the lake as the newest checkpoint, and put the same
/// file in place as this host's copy (`fold`). Whether that copy was written: when not,
/// the caller writes it. A checkpoint is an optimisation for other hosts: one that cannot
/// be created now is retried by the next run (`unsaved` stays), and the copy is kept
/// regardless.
fn with_checkpoint(
    paths: &Paths,
    store: &dyn Store,
    fleet: &str,
    cp: &mut Checkpoint,
    fold: &std::path::Path,
) -> bool {
    // Beside the copy it becomes, never held whole: 100k claims' state is ~55 MB. The next
    // full build's sweep takes a file left by a run that died here.
    let tmp = maint_dir(paths).join(format!(
        ".checkpoint.tmp-{}-{}",
        std::process::id(),
        crate::fsutil::nonce()
    ));
    let Ok(digest) = hashed(&tmp, cp) else {
        let _ = std::fs::remove_file(&tmp);
        return false;
    };
    if checkpoint(paths, store, fleet, &tmp, &digest).is_ok() {
        cp.unsaved = 0;
    }
    let installed = std::fs::rename(&tmp, fold).is_ok();
    if !installed {
        let _ = std::fs::remove_file(&tmp);
    }
    installed && crate::fsutil::sync_dir(&maint_dir(paths)).is_ok()
}

/// Create the checkpoint serialized in `tmp` (its SHA-256 `digest`) in the lake under a
/// new key, prune old ones, and remember its key.
fn checkpoint(
    paths: &Paths,
    store: &dyn Store,
    fleet: &str,
    tmp: &std::path::Path,
    digest: &str,
) -> Result<()> {
    let key = keys::checkpoint(fleet, &watermark::lake_ulid_of(store.now_ms()?, digest));
    store.create_file(&key, tmp)?;
    store.flush()?;
    prune(store, fleet);
    crate::fsutil::write_atomic(&hint_file(paths, fleet), key.as_bytes(), 0o600)?;
    crate::services::trace::mark("checkpoint write");
    Ok(())
}

/// `cp` serialized into a new file at `path`, durably (fsynced: it becomes this host's
/// copy by rename); the SHA-256 (hex) of its bytes.
fn hashed(path: &std::path::Path, cp: &Checkpoint) -> Result<String> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let io = |e| crate::error::Error::io("cannot write", path, e);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(io)?;
    let mut w = crate::digest::Hashing::new(std::io::BufWriter::with_capacity(1 << 16, f));
    serde_json::to_writer(&mut w, cp).map_err(|e| io(e.into()))?;
    w.flush().map_err(io)?;
    let hex = w.hex();
    w.inner.get_ref().sync_all().map_err(io)?;
    Ok(hex)
}

/// Delete all but the newest `KEEP` checkpoints. Best effort: a checkpoint left behind
/// costs only space, and a reader that loses its checkpoint to this falls back to `older`.
fn prune(store: &dyn Store, fleet: &str) {
    let Ok(listed) = store.list(&keys::checkpoints(fleet)) else {
        return;
    };
    for o in listed.iter().rev().skip(KEEP) {
        let _ = store.delete(&o.key);
    }
}

#[cfg(test)]
#[path = "save_tests.rs"]
mod tests;
