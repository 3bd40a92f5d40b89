//! Which embedder a process uses: the configured one when it loads, else the hash
//! embedder with a note saying why (a missing or corrupt model never fails a search
//! or a `maint`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::minilm::{self, MiniLm};
use super::{Embedder, HashEmbedder};
use crate::config::{Config, EmbedderKind};
use crate::paths::Paths;

/// The directory name `ctxlake memory model install` unpacks to under `~/.ctxlake/models`.
pub(crate) const MODEL_NAME: &str = "all-MiniLM-L6-v2";

/// The configured model directory (`[memory] model_dir`, `CTXLAKE_MODEL_DIR`, or the default).
pub(crate) fn model_dir(paths: &Paths, config: &Config) -> PathBuf {
    config
        .model_dir
        .clone()
        .unwrap_or_else(|| paths.models().join(MODEL_NAME))
}

/// Where the verified state of `dir` is remembered (outside it: it may be read-only).
fn marker(paths: &Paths, dir: &Path) -> PathBuf {
    let key = crate::digest::sha256_hex(dir.to_string_lossy().as_bytes());
    paths.model_verified(&key[..16])
}

/// all-MiniLM-L6-v2 from the configured directory (loaded once per process), or why not.
/// The error's one line is the note a search or `maint` shows.
pub(crate) fn minilm(paths: &Paths, config: &Config) -> crate::error::Result<Arc<MiniLm>> {
    let dir = model_dir(paths, config);
    minilm::shared(&dir, &marker(paths, &dir)).map_err(|why| {
        super::verify::unusable(format!(
            "the minilm model in `{}` cannot be used ({}); using the hash embedder. Install it with `ctxlake memory model install`",
            dir.display(),
            why.one_line()
        ))
    })
}

/// Whether this configuration asks for MiniLM: `minilm` always; `auto` when a model is
/// installed (its weights file exists: one `stat`, the hash check comes at load).
pub(crate) fn wants_minilm(paths: &Paths, config: &Config) -> bool {
    match config.embedder {
        EmbedderKind::Hash => false,
        EmbedderKind::MiniLm => true,
        EmbedderKind::Auto => model_dir(paths, config).join("model.safetensors").is_file(),
    }
}

/// Why `auto` uses the hash embedder: no model is installed.
pub(crate) const NO_MODEL_NOTE: &str = "no semantic model is installed, so memory uses the lexical hash embedder; `ctxlake memory model install` fetches all-MiniLM-L6-v2";

/// The embedder to use and, when it is not the configured one, why.
pub(crate) fn configured(paths: &Paths, config: &Config) -> (Arc<dyn Embedder>, Option<String>) {
    if !wants_minilm(paths, config) {
        return (Arc::new(HashEmbedder), None);
    }
    match minilm(paths, config) {
        Ok(m) => (m, None),
        Err(note) => (Arc::new(HashEmbedder), Some(note.one_line())),
    }
}

/// The embedder to search `snapshot` with: the configured model when the snapshot holds
/// its vectors and it loads; otherwise the hash (whose vectors every snapshot holds),
/// with a note saying why.
pub(crate) fn for_snapshot(
    paths: &Paths,
    config: &Config,
    snapshot_model: Option<&str>,
) -> (Arc<dyn Embedder>, Option<String>) {
    if !wants_minilm(paths, config) {
        return (Arc::new(HashEmbedder), None);
    }
    if snapshot_model != Some(minilm::ID) {
        return (
            Arc::new(HashEmbedder),
            Some(
                "the snapshot holds no minilm vectors yet (the next `ctxlake maint` with the model installed adds them); searched with the hash embedder".into(),
            ),
        );
    }
    configured(paths, config)
}
