//! A streamed build's rows (`build::build_streamed`), rendered on a second thread while
//! this one inserts them: at 100k claims, parsing and rendering each claim, its hash
//! embedding and packing its timeline are about a quarter of the build (0.4 s of 1.7),
//! and a second core does them beside SQLite's inserts instead of before each one.

use std::sync::mpsc::{Receiver, sync_channel};

use rusqlite::Transaction;

use super::build::{
    INSERT_CLAIM, INSERT_EVENT, INSERT_FTS, Rendered, embedding, insert_claim_embedded,
    insert_event, sql,
};
use super::packed::Packed;
use super::rows::ClaimRow;
use crate::config::MemoryMode;
use crate::error::Result;

/// Claims per message between the threads; a few messages wait at most.
const BATCH: usize = 128;

/// Insert every claim of `claims` (rowids from 1, in order), then their timeline rows
/// sorted. A render thread that panics fails the build: no snapshot is short of rows.
pub(super) fn fill(
    tx: &Transaction,
    claims: impl Iterator<Item = Rendered> + Send,
    mode: MemoryMode,
) -> Result<()> {
    std::thread::scope(|s| {
        let (send, recv) = sync_channel::<Vec<(ClaimRow, Vec<u8>)>>(4);
        let rendering = s.spawn(move || {
            let mut timeline = Packed::default();
            let mut batch = Vec::with_capacity(BATCH);
            for (row, rows) in claims {
                for (order, e) in &rows {
                    timeline.push(order, e);
                }
                let emb = embedding(&row);
                batch.push((row, emb));
                if batch.len() == BATCH {
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                    if send.send(full).is_err() {
                        return timeline; // the inserts failed: theirs is the error
                    }
                }
            }
            let _ = send.send(batch);
            timeline
        });
        let inserted = insert(tx, recv, mode);
        let timeline = rendering
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        inserted?;
        let mut ev = tx.prepare(INSERT_EVENT).map_err(sql)?;
        for e in timeline.sorted() {
            insert_event(&mut ev, e, mode)?;
        }
        Ok(())
    })
}

/// The claims as the render thread sends them; returning drops `recv`, which stops it.
fn insert(
    tx: &Transaction,
    recv: Receiver<Vec<(ClaimRow, Vec<u8>)>>,
    mode: MemoryMode,
) -> Result<()> {
    let mut ins = tx.prepare(INSERT_CLAIM).map_err(sql)?;
    let mut fts = tx.prepare(INSERT_FTS).map_err(sql)?;
    let mut rowid = 0;
    for (row, emb) in recv.iter().flatten() {
        rowid += 1;
        insert_claim_embedded(&mut ins, &mut fts, rowid, &row, &emb, mode)?;
    }
    Ok(())
}
