//! One embedder's vectors of a snapshot's agent-visible claims, held in memory with the
//! columns search filters on. Reading every vector from SQLite was most of a warm
//! `memory_search` at 10k claims (182 ms); the matrix is read once per process and
//! snapshot, so `ctxlake mcp` answers from memory: embed the query, one pass of dot
//! products, then BM25 fusion. A published snapshot is immutable, so the key (file,
//! size, mtime, snapshot id, embedder) changes whenever its content can.

use std::sync::{Arc, Mutex};
use std::time::UNIX_EPOCH;

use super::embed::hash;
use super::{Snapshot, query_error as sql};
use crate::error::Result;

/// Snapshots kept per process (one per fleet searched, normally one).
const KEPT: usize = 4;

type Key = (String, u64, u128, String, String);

static CACHE: Mutex<Vec<(Key, Arc<Matrix>)>> = Mutex::new(Vec::new());

/// An indexed claim's filter columns.
struct Row {
    rowid: i64,
    subject: String,
    claim_type: String,
    scope: String,
    /// Superseded: found only by a history question (`include_superseded`).
    superseded: bool,
    /// |v| of the stored vector (0: none of this embedder's, which is never similar).
    norm: f32,
}

pub(crate) struct Matrix {
    dim: usize,
    /// By rowid.
    rows: Vec<Row>,
    /// `rows.len() × dim` quantized components (zeros where a claim has no vector).
    data: Vec<i8>,
}

/// Search filters, compared as SQLite's `COLLATE NOCASE` does (ASCII case only).
pub(crate) struct Filter<'a> {
    pub subject: Option<&'a str>,
    pub claim_type: Option<&'a str>,
    pub scope: Option<&'a str>,
    pub include_superseded: bool,
}

impl Matrix {
    /// The number of indexed claims (visible and superseded).
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Rowids passing `f`, among `among` when given (rowids not visible are dropped).
    pub fn select(&self, f: &Filter, among: Option<&[i64]>) -> Vec<usize> {
        let pass = |i: &usize| {
            let r = &self.rows[*i];
            let eq =
                |want: Option<&str>, have: &str| want.is_none_or(|w| w.eq_ignore_ascii_case(have));
            (f.include_superseded || !r.superseded)
                && eq(f.subject, &r.subject)
                && eq(f.claim_type, &r.claim_type)
                && eq(f.scope, &r.scope)
        };
        match among {
            Some(ids) => ids
                .iter()
                .filter_map(|id| self.rows.binary_search_by_key(id, |r| r.rowid).ok())
                .filter(pass)
                .collect(),
            None => (0..self.rows.len()).filter(pass).collect(),
        }
    }

    /// (rowid, cosine with the unit query `q`) for each selected row.
    pub fn cosines(&self, q: &[f32], rows: &[usize]) -> Vec<(i64, f32)> {
        rows.iter()
            .map(|&i| {
                let r = &self.rows[i];
                let c = if q.len() != self.dim || r.norm == 0.0 {
                    0.0
                } else {
                    dot(q, &self.data[i * self.dim..(i + 1) * self.dim]) / r.norm
                };
                (r.rowid, c)
            })
            .collect()
    }
}

/// `q · v`, summed in 8 lanes so the compiler vectorises it.
fn dot(q: &[f32], v: &[i8]) -> f32 {
    let mut acc = [0f32; 8];
    let (qc, vc) = (q.chunks_exact(8), v.chunks_exact(8));
    let tail: f32 = qc
        .remainder()
        .iter()
        .zip(vc.remainder())
        .map(|(a, b)| a * f32::from(*b))
        .sum();
    for (a, b) in qc.zip(vc) {
        for l in 0..8 {
            acc[l] += a[l] * f32::from(b[l]);
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// The matrix of `embedder`'s `dim`-wide vectors in `snap`: from this process's cache
/// when the snapshot file is unchanged, else read once (and kept when the snapshot is a
/// file: an in-memory one has no stable key).
pub(crate) fn for_snapshot(snap: &Snapshot, embedder: &str, dim: usize) -> Result<Arc<Matrix>> {
    snap.arm();
    let key = key(snap, embedder);
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    let cached = key
        .as_ref()
        .and_then(|k| cache.iter().find(|(c, _)| c == k))
        .filter(|(_, m)| m.dim == dim);
    if let Some((_, m)) = cached {
        return Ok(m.clone());
    }
    let m = Arc::new(read(snap, embedder, dim)?);
    if let Some(k) = key {
        cache.retain(|(c, _)| c != &k);
        if cache.len() >= KEPT {
            cache.remove(0);
        }
        cache.push((k, m.clone()));
    }
    Ok(m)
}

fn key(snap: &Snapshot, embedder: &str) -> Option<Key> {
    let path = snap.conn.path().filter(|p| !p.is_empty())?;
    let meta = std::fs::metadata(path).ok()?;
    let mtime = meta
        .modified()
        .ok()?
        .duration_since(UNIX_EPOCH)
        .ok()?
        .as_nanos();
    Some((
        path.to_string(),
        meta.len(),
        mtime,
        snap.id.clone(),
        embedder.to_string(),
    ))
}

/// Every indexed claim's filter columns and vector, by rowid. The hash's vectors are the
/// `embedding` column, a model's are in `claim_vectors` (absent from snapshots built
/// before models existed: no vectors).
fn read(snap: &Snapshot, embedder: &str, dim: usize) -> Result<Matrix> {
    let (vec_col, args) = if embedder == hash::ID {
        ("embedding", vec![])
    } else if has_vector_table(snap)? {
        (
            "COALESCE((SELECT vec FROM claim_vectors v WHERE v.embedder = ?1 AND v.rowid = claims.rowid), x'')",
            vec![embedder],
        )
    } else {
        ("x''", vec![])
    };
    let sql_text = format!(
        "SELECT rowid, subject, type, scope, {vec_col}, status = 'superseded' FROM claims
         WHERE visible = 1 OR status = 'superseded' ORDER BY rowid"
    );
    let mut st = snap.conn.prepare(&sql_text).map_err(sql)?;
    let mut rows = st.query(rusqlite::params_from_iter(args)).map_err(sql)?;
    let mut m = Matrix {
        dim,
        rows: Vec::new(),
        data: Vec::new(),
    };
    while let Some(r) = rows.next().map_err(sql)? {
        let v = r.get_ref(4).map_err(sql)?.as_blob().unwrap_or_default();
        let ok = v.len() == dim;
        let start = m.data.len();
        m.data
            .extend((0..dim).map(|i| if ok { v[i] as i8 } else { 0 }));
        let norm = m.data[start..]
            .iter()
            .map(|x| f32::from(*x).powi(2))
            .sum::<f32>()
            .sqrt();
        m.rows.push(Row {
            rowid: r.get(0).map_err(sql)?,
            subject: r.get(1).map_err(sql)?,
            claim_type: r.get(2).map_err(sql)?,
            scope: r.get(3).map_err(sql)?,
            superseded: r.get(5).map_err(sql)?,
            norm,
        });
    }
    Ok(m)
}

fn has_vector_table(snap: &Snapshot) -> Result<bool> {
    snap.conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE name = 'claim_vectors'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n > 0)
        .map_err(sql)
}

#[cfg(test)]
mod tests {
    use super::super::build::build;
    use super::super::embed::{Embedder, HashEmbedder, cosine_q};
    use super::super::rows::ClaimRow;
    use super::*;

    fn claim(id: &str, text: &str, subject: &str) -> ClaimRow {
        super::super::search::tests::claim(id, text, subject, "promoted")
    }

    #[test]
    fn read_once_per_snapshot_and_again_when_the_file_changes() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("s.sqlite");
        let two = [
            claim("c1", "cargo test needs warnings", "ci"),
            claim("c2", "postgres 15", "db"),
        ];
        build(&p, "snap", "f", crate::config::MemoryMode::On, &two, &[]).unwrap();
        let a = for_snapshot(&Snapshot::open(&p).unwrap(), hash::ID, 256).unwrap();
        let b = for_snapshot(&Snapshot::open(&p).unwrap(), hash::ID, 256).unwrap();
        assert!(Arc::ptr_eq(&a, &b), "the second search reads from memory");
        assert_eq!(a.len(), 2);
        // Republished under the same id (the path and id alone cannot tell): read again.
        let three = [
            two[0].clone(),
            two[1].clone(),
            claim("c3", "redis is on 6380", "cache"),
        ];
        std::thread::sleep(std::time::Duration::from_millis(20));
        let next = d.path().join("next.sqlite");
        build(
            &next,
            "snap",
            "f",
            crate::config::MemoryMode::On,
            &three,
            &[],
        )
        .unwrap();
        std::fs::rename(&next, &p).unwrap();
        let c = for_snapshot(&Snapshot::open(&p).unwrap(), hash::ID, 256).unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(c.len(), 3);
    }

    #[test]
    fn cosines_match_the_stored_vectors_and_filters_fold_ascii_case() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("s.sqlite");
        let claims = [
            claim("c1", "cargo test needs RUSTFLAGS", "ci"),
            claim("c2", "the database is postgres 15", "db"),
            claim("c3", "CI caches cargo registries", "CI"),
        ];
        build(&p, "snap", "f", crate::config::MemoryMode::On, &claims, &[]).unwrap();
        let snap = Snapshot::open(&p).unwrap();
        let m = for_snapshot(&snap, hash::ID, 256).unwrap();
        let q = HashEmbedder
            .embed_batch(&["cargo ci tests"])
            .unwrap()
            .remove(0);
        let all = m.select(
            &Filter {
                subject: None,
                claim_type: None,
                scope: None,
                include_superseded: false,
            },
            None,
        );
        for (rowid, c) in m.cosines(&q, &all) {
            let stored: Vec<u8> = snap
                .conn
                .query_row(
                    "SELECT embedding FROM claims WHERE rowid = ?1",
                    [rowid],
                    |r| r.get(0),
                )
                .unwrap();
            assert!((c - cosine_q(&q, &stored)).abs() < 1e-5, "{rowid}: {c}");
        }
        let ci = Filter {
            subject: Some("Ci"),
            claim_type: Some("ENVIRONMENT"),
            scope: Some("fleet"),
            include_superseded: false,
        };
        let ids: Vec<i64> = m
            .cosines(&q, &m.select(&ci, None))
            .iter()
            .map(|(id, _)| *id)
            .collect();
        assert_eq!(ids.len(), 2, "subject `ci` and `CI`, not `db`");
        let none = Filter {
            subject: Some("ci"),
            claim_type: Some("convention"),
            scope: None,
            include_superseded: false,
        };
        assert!(m.select(&none, None).is_empty());
        assert!(
            m.select(&ci, Some(&[ids[0], 999])).len() == 1,
            "unknown rowids are dropped"
        );
    }
}
