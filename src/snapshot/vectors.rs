//! The claim vectors a snapshot stores beyond the built-in hash: the configured model's,
//! one per agent-visible claim, with the embedder's id. Re-embedding is incremental: a
//! local cache keyed by embedder, claim id and text digest keeps every vector already
//! computed, so changing the embedder costs one pass and later `maint` runs embed only
//! new or changed claims.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::{Connection, OptionalExtension, params};

use super::embed::{Embedder, quantize};
use super::rows::ClaimRow;
use crate::config::{Config, EmbedderKind};
use crate::paths::Paths;

/// What `maint` adds to a snapshot besides the hash vectors.
#[derive(Default)]
pub struct Vectors {
    /// The model embedder (none: hash vectors only).
    pub embedder: Option<Arc<dyn Embedder>>,
    /// The cache file (none: embed everything, keep nothing).
    pub cache: Option<PathBuf>,
    /// Why the configured model is not used, for the report.
    pub note: Option<String>,
}

impl Vectors {
    /// The configured embedder for `fleet`'s snapshot (the hash alone when that is the
    /// configuration, or when the model cannot be loaded: then with a note).
    pub fn plan(paths: &Paths, config: &Config, fleet: &str) -> Vectors {
        if config.embedder == EmbedderKind::Hash
            || config.memory_mode == crate::config::MemoryMode::Off
        {
            return Vectors::default();
        }
        if !super::embed::select::wants_minilm(paths, config) {
            return Vectors {
                note: Some(super::embed::select::NO_MODEL_NOTE.into()),
                ..Vectors::default()
            };
        }
        match super::embed::select::minilm(paths, config) {
            Ok(m) => Vectors {
                embedder: Some(m),
                cache: Some(paths.vectors_cache(fleet)),
                note: None,
            },
            Err(note) => Vectors {
                note: Some(note.one_line()),
                ..Vectors::default()
            },
        }
    }

    /// The snapshot id for a folded state digest: unchanged for hash-only snapshots (so
    /// an upgrade republishes nothing), distinct per model so a change republishes.
    pub fn snapshot_id(&self, state_digest: &str) -> String {
        match &self.embedder {
            None => state_digest[..16].to_string(),
            Some(e) => crate::digest::sha256_hex(format!("{state_digest}:{}", e.id()).as_bytes())
                [..16]
                .to_string(),
        }
    }

    /// (claim index, quantized vector) for each claim in `want`, cached where possible;
    /// the cache keeps only these (`want` is every visible claim of a full build).
    pub(crate) fn embed(
        &self,
        claims: &[ClaimRow],
        want: &[usize],
    ) -> crate::error::Result<Vec<(usize, Vec<u8>)>> {
        self.embed_cached(claims, want, true)
    }

    /// Like `embed` for the few claims an incremental build changed: the cache keeps the
    /// vectors of the claims left untouched too (the next full build prunes it).
    pub(crate) fn embed_changed(
        &self,
        claims: &[ClaimRow],
        want: &[usize],
    ) -> crate::error::Result<Vec<(usize, Vec<u8>)>> {
        self.embed_cached(claims, want, false)
    }

    fn embed_cached(
        &self,
        claims: &[ClaimRow],
        want: &[usize],
        prune: bool,
    ) -> crate::error::Result<Vec<(usize, Vec<u8>)>> {
        let Some(e) = &self.embedder else {
            return Ok(Vec::new());
        };
        let cache = self.cache.as_deref().and_then(|p| Cache::open(p).ok());
        let key = |c: &ClaimRow| {
            format!(
                "{}:{}:{}",
                e.id(),
                c.id,
                &crate::digest::sha256_hex(c.text.as_bytes())[..16]
            )
        };
        // Each key hashes its claim's text: compute it once for the lookup and the write.
        let keys: Vec<String> = want.iter().map(|&i| key(&claims[i])).collect();
        let mut out = Vec::with_capacity(want.len());
        let mut missing = Vec::new();
        for (n, k) in keys.iter().enumerate() {
            match cache.as_ref().and_then(|c| c.get(k)) {
                Some(v) => out.push((n, v)),
                None => missing.push(n),
            }
        }
        let texts: Vec<&str> = missing
            .iter()
            .map(|&n| claims[want[n]].text.as_str())
            .collect();
        let fresh = e.embed_batch(&texts)?;
        for (n, v) in missing.into_iter().zip(fresh) {
            out.push((n, quantize(&v)));
        }
        if let Some(c) = cache {
            // Best effort: a cache that cannot be written only means embedding again.
            let _ = c.replace(
                prune,
                out.iter().map(|(n, v)| (keys[*n].clone(), v.as_slice())),
            );
        }
        // Back from positions in `want` to claim indices, in claim order.
        let mut out: Vec<(usize, Vec<u8>)> = out.into_iter().map(|(n, v)| (want[n], v)).collect();
        out.sort_by_key(|(i, _)| *i);
        Ok(out)
    }
}

/// The local vector cache: one SQLite table, rewritten to the current claims each full
/// build (vectors of retired or edited claims go with it), added to by incremental ones.
struct Cache(Connection);

impl Cache {
    fn open(path: &Path) -> rusqlite::Result<Cache> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let c = Connection::open(path)?;
        c.execute_batch(
            "CREATE TABLE IF NOT EXISTS v(key TEXT PRIMARY KEY, vec BLOB NOT NULL) WITHOUT ROWID;",
        )?;
        Ok(Cache(c))
    }
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.0
            .query_row("SELECT vec FROM v WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .ok()
            .flatten()
    }
    fn replace<'a>(
        mut self,
        prune: bool,
        rows: impl Iterator<Item = (String, &'a [u8])>,
    ) -> rusqlite::Result<()> {
        let tx = self.0.transaction()?;
        if prune {
            tx.execute("DELETE FROM v", [])?;
        }
        {
            let mut ins = tx.prepare("INSERT OR REPLACE INTO v(key, vec) VALUES (?1, ?2)")?;
            for (k, v) in rows {
                ins.execute(params![k, v])?;
            }
        }
        tx.commit()
    }
}
