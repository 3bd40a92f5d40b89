//! A snapshot is another host's file: opened read-only in SQLite's defensive mode with
//! `trusted_schema` off, views and triggers disabled, no extension loading, its schema
//! checked against the one this build creates before the first query, and every query
//! bounded by a progress-handler deadline.

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags};

use super::SCHEMA;
use crate::error::{Error, Result};

/// One schema object as this check compares it: type, name, table, the `CREATE` text of
/// a virtual table (its module and arguments decide what a query runs), and the columns
/// (`pragma table_xinfo`: name, type, not-null, default, pk, hidden) of a table.
type Shape = (String, String, String, Option<String>, Vec<String>);

/// VM steps between two looks at the deadline: cheap, and a look every ~millisecond.
const STEPS: i32 = 10_000;

/// When the statements of a snapshot handle are interrupted: `budget` after the handle
/// was opened or last re-armed (each reader re-arms it as it starts, `Snapshot::arm`).
#[derive(Clone)]
pub(crate) struct Deadline {
    at: Arc<Mutex<Instant>>,
    budget: Duration,
}

impl Deadline {
    fn new(budget: Duration) -> Deadline {
        Deadline {
            at: Arc::new(Mutex::new(Instant::now() + budget)),
            budget,
        }
    }

    pub(crate) fn rearm(&self) {
        *self.at.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now() + self.budget;
    }

    fn passed(&self) -> bool {
        Instant::now() >= *self.at.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Open `path` as an untrusted snapshot: defences on, schema checked, every query under
/// `budget` from now (or from the deadline's next `rearm`).
pub(super) fn open(path: &Path, budget: Duration) -> Result<(Connection, Deadline)> {
    let uri = format!("file:{}?mode=ro&immutable=1", path.display());
    let refused = |why: String| {
        Error::storage(
            "snapshot_refused",
            format!("snapshot `{}` is refused: {why}", path.display()),
        )
        .hint("another host published a snapshot this build does not write; run `ctxlake maint` to publish a good one, then `ctxlake sync`")
    };
    let mut conn = Connection::open_with_flags(
        uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| {
        Error::storage(
            "snapshot",
            format!("cannot open snapshot `{}`", path.display()),
        )
        .source(e)
    })?;
    harden(&conn).map_err(|e| refused(format!("cannot arm its defences ({e})")))?;
    let deadline = Deadline::new(budget);
    let armed = deadline.clone();
    conn.progress_handler(STEPS, Some(move || armed.passed()))
        .map_err(|e| refused(format!("cannot arm its deadline ({e})")))?;
    let found = shapes(&conn).map_err(|e| refused(format!("its schema is unreadable ({e})")))?;
    if let Some(why) = differs(expected(), &found) {
        return Err(refused(why));
    }
    Ok((conn, deadline))
}

/// Defensive mode, untrusted schema, no views, triggers or extensions.
fn harden(conn: &Connection) -> rusqlite::Result<()> {
    for (flag, on) in [
        (DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true),
        (DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false),
        (DbConfig::SQLITE_DBCONFIG_ENABLE_VIEW, false),
        (DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, false),
        (DbConfig::SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, false),
    ] {
        conn.set_db_config(flag, on)?;
    }
    // rusqlite is built without `load_extension`; say so to SQLite as well.
    conn.execute_batch("PRAGMA trusted_schema = OFF;")
}

/// The schema this build creates (`SCHEMA`, then the `ANALYZE` a build ends with), read
/// back from an in-memory database once per process: a column added to `SCHEMA` is
/// expected without any other edit.
fn expected() -> &'static [Shape] {
    static EXPECTED: OnceLock<Vec<Shape>> = OnceLock::new();
    EXPECTED.get_or_init(|| {
        Connection::open_in_memory()
            .and_then(|c| {
                c.execute_batch(SCHEMA)?;
                c.execute_batch("ANALYZE;")?;
                shapes(&c)
            })
            .unwrap_or_default()
    })
}

/// Every object of `conn`'s schema, sorted by name.
fn shapes(conn: &Connection) -> rusqlite::Result<Vec<Shape>> {
    let mut st = conn.prepare(
        "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name, tbl_name",
    )?;
    let rows: Vec<(String, String, String, Option<String>)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut out = Vec::with_capacity(rows.len());
    for (kind, name, table, sql) in rows {
        let virt = sql.filter(|s| {
            s.get(..21)
                .is_some_and(|p| p.eq_ignore_ascii_case("CREATE VIRTUAL TABLE "))
        });
        // Only a plain or virtual table's columns are asked for: a view's would be
        // compiled, and anything not a table is refused by its type already.
        let cols = if kind == "table" {
            columns(conn, &name)?
        } else {
            Vec::new()
        };
        out.push((kind, name, table, virt, cols));
    }
    Ok(out)
}

fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut st = conn.prepare(
        "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?1)",
    )?;
    st.query_map([table], |r| {
        Ok(format!(
            "{}:{}:{}:{:?}:{}:{}",
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, Option<String>>(3)?,
            r.get::<_, i64>(4)?,
            r.get::<_, i64>(5)?
        ))
    })?
    .collect()
}

/// Why `found` is not `want`, naming the first difference.
fn differs(want: &[Shape], found: &[Shape]) -> Option<String> {
    if want.is_empty() {
        return Some("this build cannot derive its own schema".into());
    }
    let same = |w: &Shape, f: &Shape| (&w.0, &w.1) == (&f.0, &f.1);
    // What this build never creates (a view, a trigger, a table) is named first.
    if let Some(f) = found.iter().find(|f| !want.iter().any(|w| same(w, f))) {
        return Some(format!(
            "it holds a {} `{}` this build never creates",
            f.0, f.1
        ));
    }
    if let Some(f) = found
        .iter()
        .find(|f| want.iter().any(|w| same(w, f) && w != *f))
    {
        return Some(format!(
            "its {} `{}` is not the one this build creates",
            f.0, f.1
        ));
    }
    want.iter()
        .find(|w| !found.iter().any(|f| same(w, f)))
        .map(|w| format!("it lacks the {} `{}`", w.0, w.1))
}

#[cfg(test)]
#[path = "guard_tests.rs"]
mod tests;
