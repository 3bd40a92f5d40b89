//! The published memory snapshot: one SQLite file with the claims, an FTS5 index over
//! the agent-visible ones, a 256-dim hash embedding per claim (plus a model's vectors
//! when one is configured), and the timeline of claim
//! events. Built by `ctxlake maint` (whole: `build`, or by patching its previous build in
//! place: `delta`), then only ever opened read-only.

use std::path::Path;

use std::time::Duration;

use rusqlite::{Connection, OptionalExtension};

/// The mode a snapshot is built under: public here for the tests that build one.
pub use crate::config::MemoryMode;
use crate::error::{Error, Result};

pub mod build;
pub(crate) mod columns;
pub(crate) mod delta;
pub mod embed;
pub(crate) mod guard;
mod matrix;
mod packed;
pub mod rank;
pub mod rows;
pub mod search;
mod stream;
pub mod top;
pub mod vectors;

#[cfg(test)]
mod eval;

pub const SCHEMA: &str = "
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE claims(
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  text TEXT NOT NULL,
  type TEXT NOT NULL,
  subject TEXT NOT NULL,
  scope TEXT NOT NULL,
  status TEXT NOT NULL,
  visible INTEGER NOT NULL,
  independent_sessions INTEGER NOT NULL,
  confidence REAL NOT NULL,
  created_at TEXT NOT NULL,
  promoted_at TEXT,
  agent TEXT NOT NULL,
  session TEXT NOT NULL,
  embedding BLOB NOT NULL,
  key TEXT,
  superseded_by TEXT,
  superseded_at TEXT,
  outdated_by TEXT,
  pending_by TEXT,
  last_evidence_at TEXT NOT NULL
);
CREATE INDEX claims_subject ON claims(subject COLLATE NOCASE);
CREATE VIRTUAL TABLE claims_fts USING fts5(text, subject, content='', contentless_delete=1, tokenize='porter unicode61');
CREATE TABLE events(
  at TEXT NOT NULL,
  subject TEXT NOT NULL,
  kind TEXT NOT NULL,
  claim_id TEXT NOT NULL,
  agent TEXT NOT NULL,
  session TEXT NOT NULL,
  text TEXT NOT NULL,
  visible INTEGER NOT NULL,
  related_id TEXT
);
CREATE INDEX events_subject ON events(subject COLLATE NOCASE, at);
CREATE TABLE claim_vectors(
  embedder TEXT NOT NULL,
  rowid INTEGER NOT NULL,
  vec BLOB NOT NULL,
  PRIMARY KEY(embedder, rowid)
) WITHOUT ROWID;
";

/// A published snapshot opened read-only and immutable (it is never changed in place),
/// as untrusted input (`guard`).
pub struct Snapshot {
    pub conn: Connection,
    pub id: String,
    /// The mode it was built under; a value this build does not know reads as `shadow`:
    /// nothing in it is shown to an agent.
    pub mode: MemoryMode,
    /// The model embedder whose vectors the snapshot holds besides the hash
    /// (`meta.model_embedder`; none in snapshots built without one).
    pub model_embedder: Option<String>,
    deadline: guard::Deadline,
}

impl Snapshot {
    /// Open a mirrored snapshot as the untrusted file it is (`guard`): refused unless its
    /// schema is this build's, every query bounded by `rules::SNAPSHOT_QUERY_MS`.
    pub fn open(path: &Path) -> Result<Snapshot> {
        Self::open_within(path, Duration::from_millis(crate::rules::SNAPSHOT_QUERY_MS))
    }

    /// `open`, with every query of this handle done within `budget` from now.
    pub fn open_within(path: &Path, budget: Duration) -> Result<Snapshot> {
        let (conn, deadline) = guard::open(path, budget)?;
        let meta = |k: &str| -> Result<Option<String>> {
            conn.query_row("SELECT value FROM meta WHERE key = ?1", [k], |r| {
                columns::Cols::of(r).get(0)
            })
            .optional()
            .map_err(|e| {
                Error::storage(
                    "snapshot",
                    format!("snapshot `{}` is unreadable", path.display()),
                )
                .source(e)
            })
        };
        let id = meta("snapshot_id")?.unwrap_or_default();
        let mode = meta("mode")?.map_or(MemoryMode::On, |m| {
            MemoryMode::parse(&m).unwrap_or(MemoryMode::Shadow)
        });
        let model_embedder = meta("model_embedder")?;
        Ok(Snapshot {
            conn,
            id,
            mode,
            model_embedder,
            deadline,
        })
    }

    /// Give the next read its whole query budget (every reader calls it as it starts):
    /// a handle kept for many reads bounds each of them.
    pub fn arm(&self) {
        self.deadline.rearm();
    }
}

pub(crate) fn query_error(e: rusqlite::Error) -> Error {
    if e.sqlite_error_code() == Some(rusqlite::ErrorCode::OperationInterrupted) {
        return Error::storage(
            "snapshot_deadline",
            format!(
                "a query on the snapshot ran past its {} ms deadline and was stopped",
                crate::rules::SNAPSHOT_QUERY_MS
            ),
        )
        .hint("the snapshot may be hostile or damaged: run `ctxlake sync` after a good `ctxlake maint`");
    }
    Error::storage("snapshot", "cannot query the snapshot").source(e)
}

/// Rows decoded through the read boundary ([`columns::Cols`]), minus those this build
/// cannot read.
pub(crate) fn decoded<T>(rows: impl Iterator<Item = rusqlite::Result<T>>) -> Result<Vec<T>> {
    let mut out = Vec::new();
    for r in rows {
        match r {
            Ok(row) => out.push(row),
            // A type or status this build does not know (a newer writer's) skips its row.
            Err(rusqlite::Error::FromSqlConversionFailure(..)) => {}
            Err(e) => return Err(query_error(e)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod clean_tests;
