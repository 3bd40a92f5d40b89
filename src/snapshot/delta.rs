//! The one incremental snapshot build: patch this host's last built snapshot in place
//! with what the incremental fold says changed since ([`Delta`], which `memory::fold`
//! computes): the changed claim rows (with FTS entries and vectors) and the whole
//! timeline of each changed subject. Nothing is compared against the file: the fold
//! names what changed, and the file is checked to be the snapshot the delta starts from
//! (its id and claim count) inside the same transaction. A crash mid-patch is rolled
//! back by SQLite's journal; a declined or failed patch leaves the file as it was, and
//! the caller builds in full (`build`). A property test holds the two to the same answers.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::build::{self, sql};
use super::rows::{ClaimRow, EventRow};
use super::vectors::Vectors;
use crate::config::MemoryMode;
use crate::error::{Error, Result};
use crate::vocab::ClaimStatus;

/// A patch's worth of the state: the rows that differ from the base snapshot (by 0-based
/// row index; those past `base_claims` are new) and the full new timeline of each changed
/// subject, in build order.
#[derive(Debug)]
pub(crate) struct Delta {
    pub base_snapshot_id: String,
    pub base_claims: usize,
    pub total: usize,
    pub claims: Vec<(usize, ClaimRow)>,
    pub subjects: Vec<(String, Vec<EventRow>)>,
}

/// The change and how the snapshot presents it.
pub(crate) struct Target<'a> {
    pub snapshot_id: &'a str,
    pub fleet: &'a str,
    pub mode: MemoryMode,
    pub vectors: &'a Vectors,
    /// Whether any claim of the new state is visible (a full build names the model only then).
    pub any_visible: bool,
    pub delta: &'a Delta,
}

/// Apply `t` to the snapshot at `path`; `Ok(false)`: declined, the file is unchanged.
pub(crate) fn patch_in_place(path: &Path, t: &Target) -> Result<bool> {
    let d = t.delta;
    if d.claims.len() > d.total / 4 + 64 {
        return Ok(false); // about a full build's work, for a less compact file
    }
    let mut conn = Connection::open(path).map_err(sql)?;
    conn.execute_batch("PRAGMA journal_mode=DELETE; PRAGMA synchronous=NORMAL;")
        .map_err(sql)?;
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sql)?;
    let meta = |k: &str| -> Result<Option<String>> {
        tx.query_row("SELECT value FROM meta WHERE key = ?1", [k], |r| r.get(0))
            .optional()
            .map_err(sql)
    };
    let model = t.vectors.embedder.as_ref().map(|e| e.id().to_string());
    let rows: Option<i64> = tx
        .query_row("SELECT max(rowid) FROM claims", [], |r| r.get(0))
        .map_err(sql)?;
    let alike = meta("snapshot_id")?.as_deref() == Some(d.base_snapshot_id.as_str())
        && rows.unwrap_or(0) == d.base_claims as i64
        && meta("fleet")?.as_deref() == Some(t.fleet)
        && meta("mode")?.as_deref() == Some(t.mode.as_str())
        && meta("embedder")?.as_deref() == Some(super::embed::hash::ID)
        && meta("model_embedder")? == model
        && (model.is_none() || t.any_visible);
    if !alike || !claims(&tx, t)? {
        return Ok(false); // dropping `tx` rolls back
    }
    timeline(&tx, t)?;
    build::stamp(&tx, t.snapshot_id)?;
    tx.commit().map_err(sql)?;
    // The file is published as it is now: check it as a full build's is.
    build::seal(conn, path)?;
    Ok(true)
}

/// Roll back a patch a killed `maint` left in `base` (its hot journal) before the file is
/// replaced: SQLite would otherwise replay that journal into the new file. A base that
/// cannot be rolled back is removed with its journal (a full build replaces it anyway).
pub(crate) fn settle(base: &Path) {
    let mut journal = base.as_os_str().to_owned();
    journal.push("-journal");
    let journal = std::path::PathBuf::from(journal);
    if !journal.exists() {
        return;
    }
    let rolled_back = Connection::open(base)
        .and_then(|c| c.query_row("SELECT count(*) FROM meta", [], |r| r.get::<_, i64>(0)))
        .is_ok();
    if !rolled_back || journal.exists() {
        let _ = std::fs::remove_file(base);
        let _ = std::fs::remove_file(&journal);
    }
}

/// Replace each changed row (or add it past the base); `false` when a row the delta
/// replaces is not the claim it names (then the base is not what the fold built).
fn claims(tx: &rusqlite::Transaction, t: &Target) -> Result<bool> {
    let d = t.delta;
    let mut base_row = tx
        .prepare("SELECT id, visible, status FROM claims WHERE rowid = ?1")
        .map_err(sql)?;
    let mut was_visible = Vec::with_capacity(d.claims.len());
    for (i, row) in &d.claims {
        if *i >= d.base_claims {
            was_visible.push(false);
            continue;
        }
        // Indexed (it has an FTS entry): visible, or superseded when memory is on.
        let found: Option<(String, bool, String)> = base_row
            .query_row([*i as i64 + 1], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()
            .map_err(sql)?;
        match found {
            Some((id, visible, status)) if id == row.id => {
                was_visible.push(
                    visible
                        || (t.mode == MemoryMode::On && status == ClaimStatus::Superseded.as_str()),
                );
            }
            _ => return Ok(false),
        }
    }
    let changed: Vec<ClaimRow> = d.claims.iter().map(|(_, r)| r.clone()).collect();
    let visible: Vec<usize> = (0..changed.len())
        .filter(|&n| changed[n].indexed(t.mode))
        .collect();
    let model = t.vectors.embed_changed(&changed, &visible).map_err(|why| {
        Error::internal(
            "embed",
            format!("cannot embed the claims: {}", why.one_line()),
        )
    })?;
    let mut ins = tx.prepare(build::INSERT_CLAIM).map_err(sql)?;
    let mut fts = tx.prepare(build::INSERT_FTS).map_err(sql)?;
    for ((i, row), was_visible) in d.claims.iter().zip(was_visible) {
        let rowid = *i as i64 + 1;
        // The FTS entry is deleted only when it exists (a contentless index cannot check).
        tx.execute("DELETE FROM claims WHERE rowid = ?1", [rowid])
            .map_err(sql)?;
        tx.execute("DELETE FROM claim_vectors WHERE rowid = ?1", [rowid])
            .map_err(sql)?;
        if was_visible {
            tx.execute("DELETE FROM claims_fts WHERE rowid = ?1", [rowid])
                .map_err(sql)?;
        }
        build::insert_claim(&mut ins, &mut fts, rowid, row, t.mode)?;
    }
    if let Some(e) = &t.vectors.embedder {
        let mut vec = tx.prepare(build::INSERT_VECTOR).map_err(sql)?;
        for (n, v) in model {
            let rowid = d.claims[n].0 as i64 + 1;
            vec.execute(params![e.id(), rowid, v]).map_err(sql)?;
        }
    }
    Ok(true)
}

/// Rewrite the timeline of each changed subject: within a subject the rows keep a full
/// build's relative order, which is all its reader can observe (`subject = ? COLLATE NOCASE`).
fn timeline(tx: &rusqlite::Transaction, t: &Target) -> Result<()> {
    let mut del = tx
        .prepare("DELETE FROM events WHERE subject = ?1 COLLATE NOCASE")
        .map_err(sql)?;
    let mut ins = tx.prepare(build::INSERT_EVENT).map_err(sql)?;
    for (subject, rows) in &t.delta.subjects {
        del.execute([subject]).map_err(sql)?;
        for e in rows {
            build::insert_event(&mut ins, e.into(), t.mode)?;
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "delta_tests.rs"]
mod tests;
