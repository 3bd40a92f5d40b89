//! Build a snapshot file from folded claims: a fresh SQLite file (one file, no WAL; no
//! journal while it is built), checked, fsynced; the caller publishes it by rename/create.

use std::path::Path;

use rusqlite::{Connection, Statement, params};

use super::SCHEMA;
use super::embed::{HashEmbedder, quantize};
use super::packed::TimelineRow;
use super::rows::{ClaimRow, EventRow};
use super::vectors::Vectors;
use crate::config::MemoryMode;
use crate::error::{Error, Result};

pub(super) const INSERT_CLAIM: &str =
    "INSERT INTO claims(rowid, id, text, type, subject, scope, status, visible,
 independent_sessions, confidence, created_at, promoted_at, agent, session, embedding,
 key, superseded_by, superseded_at, outdated_by, pending_by, last_evidence_at)
 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
 ?19, ?20, ?21)";
pub(super) const INSERT_FTS: &str =
    "INSERT INTO claims_fts(rowid, text, subject) VALUES (?1, ?2, ?3)";
pub(super) const INSERT_VECTOR: &str =
    "INSERT INTO claim_vectors(embedder, rowid, vec) VALUES (?1, ?2, ?3)";
pub(super) const INSERT_EVENT: &str =
    "INSERT INTO events(at, subject, kind, claim_id, agent, session, text, visible, related_id)
 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";

/// Insert claim `c` as row `rowid`, with its hash embedding, and index it when indexed
/// (visible, or superseded: a history question may ask for it).
pub(super) fn insert_claim(
    ins: &mut Statement,
    fts: &mut Statement,
    rowid: i64,
    c: &ClaimRow,
    mode: MemoryMode,
) -> Result<()> {
    insert_claim_embedded(ins, fts, rowid, c, &embedding(c), mode)
}

/// Claim `c`'s hash embedding, quantized as `claims.embedding` holds it.
pub(super) fn embedding(c: &ClaimRow) -> Vec<u8> {
    quantize(&HashEmbedder.embed(&format!("{} {}", c.subject, c.text)))
}

/// `insert_claim` with its embedding made already (on a streamed build's render thread).
pub(super) fn insert_claim_embedded(
    ins: &mut Statement,
    fts: &mut Statement,
    rowid: i64,
    c: &ClaimRow,
    emb: &[u8],
    mode: MemoryMode,
) -> Result<()> {
    let visible = c.visible(mode);
    ins.execute(params![
        rowid,
        c.id,
        c.text,
        c.claim_type,
        c.subject,
        c.scope,
        c.status,
        visible,
        c.independent_sessions,
        c.confidence,
        c.created_at,
        c.promoted_at,
        c.agent,
        c.session,
        emb,
        c.key,
        c.superseded_by,
        c.superseded_at,
        c.outdated_by,
        c.pending_by,
        c.last_evidence_at
    ])
    .map_err(sql)?;
    if c.indexed(mode) {
        fts.execute(params![rowid, c.text, c.subject])
            .map_err(sql)?;
    }
    Ok(())
}

/// Insert one timeline row (visible to agents only when memory is on), an `EventRow` or
/// one read back from a streamed build's packed buffer.
pub(super) fn insert_event(ev: &mut Statement, e: TimelineRow<'_>, mode: MemoryMode) -> Result<()> {
    ev.execute(params![
        e.at,
        e.subject,
        e.kind,
        e.claim_id,
        e.agent,
        e.session,
        e.text,
        mode == MemoryMode::On,
        e.related_id
    ])
    .map(|_| ())
    .map_err(sql)
}

pub(super) fn sql(e: rusqlite::Error) -> Error {
    Error::storage("snapshot", "cannot build the snapshot").source(e)
}

/// Write a complete snapshot to `path` (which must not exist), with hash vectors only.
pub fn build(
    path: &Path,
    snapshot_id: &str,
    fleet: &str,
    mode: MemoryMode,
    claims: &[ClaimRow],
    events: &[EventRow],
) -> Result<()> {
    build_with(
        path,
        snapshot_id,
        fleet,
        mode,
        claims,
        events,
        &Vectors::default(),
    )
}

/// Where a timeline row sorts among all of a snapshot's: field by field, then in the
/// order the rows were handed over (a stable sort).
pub type EventOrder = (String, u8, String, u32);

/// One claim's row and its timeline rows, each with where it sorts.
pub type Rendered = (ClaimRow, Vec<(EventOrder, EventRow)>);

/// Write a complete snapshot to `path`, adding `vectors`' model vectors for the
/// agent-visible claims (table `claim_vectors`, their embedder named in `meta`).
pub fn build_with(
    path: &Path,
    snapshot_id: &str,
    fleet: &str,
    mode: MemoryMode,
    claims: &[ClaimRow],
    events: &[EventRow],
    vectors: &Vectors,
) -> Result<()> {
    let visible: Vec<usize> = (0..claims.len())
        .filter(|&i| claims[i].indexed(mode))
        .collect();
    let model = vectors.embed(claims, &visible).map_err(|why| {
        Error::internal(
            "embed",
            format!("cannot embed the claims: {}", why.one_line()),
        )
    })?;
    let head = Head {
        snapshot_id,
        fleet,
        mode,
        vectors,
        model: &model,
    };
    write(path, &head, |tx| {
        let mut ins = tx.prepare(INSERT_CLAIM).map_err(sql)?;
        let mut fts = tx.prepare(INSERT_FTS).map_err(sql)?;
        for (i, c) in claims.iter().enumerate() {
            insert_claim(&mut ins, &mut fts, i as i64 + 1, c, mode)?;
        }
        let mut ev = tx.prepare(INSERT_EVENT).map_err(sql)?;
        for e in events {
            insert_event(&mut ev, e.into(), mode)?;
        }
        Ok(())
    })
}

/// `build_with` from the claims as they are rendered, one at a time: no claim row is held
/// and the timeline rows wait packed in one buffer (`packed`) until they are sorted into
/// `events` (100k claims' rows as structs are ~90 MB); a second thread renders them
/// while this one inserts (`stream`). A model's vectors are made from every row at once,
/// so with a model the rows are collected and `build_with` builds.
pub fn build_streamed(
    path: &Path,
    snapshot_id: &str,
    fleet: &str,
    mode: MemoryMode,
    claims: impl Iterator<Item = Rendered> + Send,
    vectors: &Vectors,
) -> Result<()> {
    if vectors.embedder.is_some() {
        let (rows, events): (Vec<ClaimRow>, Vec<_>) = claims.unzip();
        let mut events: Vec<(EventOrder, EventRow)> = events.into_iter().flatten().collect();
        events.sort_by(|a, b| a.0.cmp(&b.0));
        let events: Vec<EventRow> = events.into_iter().map(|(_, e)| e).collect();
        return build_with(path, snapshot_id, fleet, mode, &rows, &events, vectors);
    }
    let head = Head {
        snapshot_id,
        fleet,
        mode,
        vectors,
        model: &[],
    };
    write(path, &head, |tx| super::stream::fill(tx, claims, mode))
}

/// What a snapshot's `meta` and model vectors say.
struct Head<'a> {
    snapshot_id: &'a str,
    fleet: &'a str,
    mode: MemoryMode,
    vectors: &'a Vectors,
    model: &'a [(usize, Vec<u8>)],
}

/// A new snapshot file at `path`: the tables, `head`, the rows `fill` inserts, then the
/// indexes, checked and fsynced (`seal`).
fn write(
    path: &Path,
    head: &Head,
    fill: impl FnOnce(&rusqlite::Transaction) -> Result<()>,
) -> Result<()> {
    let mut conn = Connection::open(path).map_err(sql)?;
    // No journal and no syncs while the file is built: it is new, nobody reads it until
    // `seal` has checked and fsynced it and the caller has published it by rename/create,
    // and a build that fails is thrown away whole.
    conn.execute_batch("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=8192;")
        .map_err(sql)?;
    // The secondary indexes are made after the rows are in (one sort each, instead of a
    // B-tree insert per row); the finished file's schema is `SCHEMA`'s all the same.
    let (indexes, tables): (Vec<&str>, Vec<&str>) = SCHEMA
        .split(';')
        .partition(|s| s.trim_start().starts_with("CREATE INDEX"));
    conn.execute_batch(&tables.join(";")).map_err(sql)?;
    let tx = conn.transaction().map_err(sql)?;
    {
        let mut meta = tx
            .prepare("INSERT INTO meta(key, value) VALUES (?1, ?2)")
            .map_err(sql)?;
        for (k, v) in [
            ("snapshot_id", head.snapshot_id),
            ("fleet", head.fleet),
            ("mode", head.mode.as_str()),
            ("built_at", &crate::time::now_rfc3339()),
            ("embedder", super::embed::hash::ID),
            ("dim", "256"),
        ] {
            meta.execute(params![k, v]).map_err(sql)?;
        }
        let embedder = head.vectors.embedder.as_ref();
        if let Some(e) = embedder.filter(|_| !head.model.is_empty()) {
            meta.execute(params!["model_embedder", e.id()])
                .map_err(sql)?;
            let mut vec = tx.prepare(INSERT_VECTOR).map_err(sql)?;
            for (i, v) in head.model {
                vec.execute(params![e.id(), *i as i64 + 1, v])
                    .map_err(sql)?;
            }
        }
    }
    fill(&tx)?;
    tx.execute_batch(&indexes.join(";")).map_err(sql)?;
    tx.commit().map_err(sql)?;
    // The planner's statistics from a sample of each index (`analysis_limit`), not a scan
    // of all of it: ~0.09 s less at 100k claims, and `sqlite_stat1` within a few percent.
    conn.execute_batch(
        "INSERT INTO claims_fts(claims_fts) VALUES('optimize');
         PRAGMA analysis_limit=1000; ANALYZE;",
    )
    .map_err(sql)?;
    seal(conn, path)
}

/// Name the patched file as the snapshot `snapshot_id`, built now.
pub(super) fn stamp(tx: &rusqlite::Transaction, snapshot_id: &str) -> Result<()> {
    for (k, v) in [
        ("snapshot_id", snapshot_id),
        ("built_at", &crate::time::now_rfc3339()),
    ] {
        tx.execute("UPDATE meta SET value = ?2 WHERE key = ?1", params![k, v])
            .map_err(sql)?;
    }
    Ok(())
}

/// Check the finished file and fsync it: only a sound file is published.
pub(super) fn seal(conn: Connection, path: &Path) -> Result<()> {
    let ok: String = conn
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .map_err(sql)?;
    if ok != "ok" {
        return Err(Error::storage(
            "snapshot",
            format!("the new snapshot failed its check: {ok}"),
        ));
    }
    drop(conn);
    std::fs::File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(|e| Error::io("cannot fsync", path, e))
}

#[cfg(test)]
#[path = "build_tests.rs"]
mod tests;
