//! The snapshot guard against crafted files: each test plants one hostile change in an
//! otherwise good snapshot.

use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::Connection;

use crate::snapshot::Snapshot;
use crate::snapshot::build::build;

/// An endless row source: what a crafted `claims` view selects from.
const ENDLESS: &str = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) \
    SELECT x AS rowid, 'c' AS id, 't' AS text, 'environment' AS type, 's' AS subject, \
    'fleet' AS scope, 'promoted' AS status, 1 AS visible, 1 AS independent_sessions, \
    0.5 AS confidence, '' AS created_at, NULL AS promoted_at, 'a' AS agent, 's' AS session, \
    x'00' AS embedding FROM r";

fn good(dir: &Path) -> std::path::PathBuf {
    let p = dir.join(format!("good-{}.sqlite", crate::fsutil::nonce()));
    build(&p, "snap", "f", crate::config::MemoryMode::On, &[], &[]).unwrap();
    p
}

/// A good snapshot changed by `sql` (run with the schema writable).
fn crafted(dir: &Path, name: &str, sql: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::copy(good(dir), &p).unwrap();
    let c = Connection::open(&p).unwrap();
    c.execute_batch(sql).unwrap();
    p
}

fn refusal(p: &Path) -> String {
    match Snapshot::open(p) {
        Ok(_) => panic!("`{}` was opened", p.display()),
        Err(e) => e.one_line(),
    }
}

#[test]
fn a_good_snapshot_opens() {
    let d = tempfile::tempdir().unwrap();
    let s = Snapshot::open(&good(d.path())).unwrap();
    assert_eq!(s.id, "snap");
}

/// The issue's attack: `claims` is a view over an endless recursive CTE. It is refused
/// at open, before any query, and at once.
#[test]
fn a_claims_view_over_an_endless_cte_is_refused_at_open() {
    let d = tempfile::tempdir().unwrap();
    let p = crafted(
        d.path(),
        "view.sqlite",
        &format!("DROP TABLE claims; CREATE VIEW claims AS {ENDLESS};"),
    );
    let t = Instant::now();
    let why = refusal(&p);
    assert!(why.contains("view `claims`"), "{why}");
    assert!(t.elapsed() < Duration::from_secs(1));
}

#[test]
fn a_trigger_an_extra_table_or_a_changed_column_is_refused() {
    let d = tempfile::tempdir().unwrap();
    for (name, sql, says) in [
        (
            "trigger.sqlite",
            "CREATE TRIGGER t AFTER INSERT ON meta BEGIN SELECT 1; END;",
            "trigger `t`",
        ),
        ("extra.sqlite", "CREATE TABLE extra(x);", "table `extra`"),
        (
            "column.sqlite",
            "DROP TABLE events; CREATE TABLE events(at TEXT, subject TEXT);",
            "table `events` is not",
        ),
        (
            "generated.sqlite",
            "DROP TABLE meta; CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL GENERATED ALWAYS AS (key || key) VIRTUAL);",
            "table `meta` is not",
        ),
        (
            "missing.sqlite",
            "DROP TABLE claim_vectors;",
            "lacks the table `claim_vectors`",
        ),
    ] {
        let why = refusal(&crafted(d.path(), name, sql));
        assert!(why.contains(says), "{name}: {why}");
    }
}

/// A query that would run forever is interrupted at the handle's deadline.
#[test]
fn every_query_is_bounded_by_the_deadline() {
    let d = tempfile::tempdir().unwrap();
    let s = Snapshot::open_within(&good(d.path()), Duration::from_millis(200)).unwrap();
    let t = Instant::now();
    let r: rusqlite::Result<i64> = s.conn.query_row(
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r",
        [],
        |r| r.get(0),
    );
    assert!(r.is_err(), "an endless query must be interrupted");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

/// The mode in `meta` is lake text: one this build does not know shows nothing to an
/// agent (`shadow`), and a snapshot that names none is `on`, as before modes were typed.
#[test]
fn an_unknown_mode_reads_as_shadow_and_none_as_on() {
    use crate::config::MemoryMode;
    let d = tempfile::tempdir().unwrap();
    let mode = |name: &str, sql: &str| Snapshot::open(&crafted(d.path(), name, sql)).unwrap().mode;
    assert_eq!(mode("on.sqlite", "SELECT 1"), MemoryMode::On);
    let loud = "UPDATE meta SET value = 'loud' WHERE key = 'mode'";
    assert_eq!(mode("loud.sqlite", loud), MemoryMode::Shadow);
    let shadow = "UPDATE meta SET value = 'shadow' WHERE key = 'mode'";
    assert_eq!(mode("shadow.sqlite", shadow), MemoryMode::Shadow);
    let none = "DELETE FROM meta WHERE key = 'mode'";
    assert_eq!(mode("none.sqlite", none), MemoryMode::On);
}
