//! The pipeline group: is anything draining the spool (backlog bytes and the oldest waiting
//! record's age), are records torn (the `spool check` numbers), is the sync service installed
//! and running and when did sync last succeed, and how old are each fleet's cache, last
//! maint and snapshot.

use std::path::Path;

use super::report::{Check, Group, Repair};
use super::runtimes::{ago, fleets};
use crate::cache::{self, Pipeline, Roster};
use crate::config::Config;
use crate::paths::Paths;

const G: Group = Group::Pipeline;
/// A record waiting longer than this means nothing drains the spool.
const STALE_SPOOL_SECS: i64 = 3600;
/// Maint and snapshots older than this are worth a look.
const STALE_MAINT_SECS: i64 = 24 * 3600;

pub(crate) fn check(paths: &Paths, config: &Config, sync_unit: &Path) -> Vec<Check> {
    let mut out = spool(paths);
    out.push(service(paths, sync_unit));
    let now = crate::time::now_ms();
    // A cache older than a few sync intervals means sync stopped.
    let stale_cache = (config.sync_interval_secs as i64 * 4).max(300);
    for fleet in fleets(paths) {
        let roster = cache::read::<Roster>(paths, &fleet, cache::ROSTER);
        // A pass writes the roster first and the pipeline last: the older of the two says
        // when a pass last finished (a pass failing after its rosters keeps them fresh).
        let pipe = cache::read::<Pipeline>(paths, &fleet, cache::PIPELINE).data;
        let finished = pipe
            .as_ref()
            .and_then(|p| p.last_sync.as_deref())
            .and_then(|t| cache::age_secs(t, now));
        let age = roster
            .data
            .as_ref()
            .and_then(|r| cache::age_secs(&r.generated_at, now))
            .map(|a| finished.map_or(a, |f| a.max(f)));
        out.push(match (age, roster.problem) {
            (Some(a), _) if a <= stale_cache => Check::ok(
                G,
                format!("cache `{fleet}`"),
                format!("{} old", ago(a * 1000)),
            ),
            (Some(a), _) => Check::warn(
                G,
                format!("cache `{fleet}`"),
                format!(
                    "{} old (sync runs every {} s)",
                    ago(a * 1000),
                    config.sync_interval_secs
                ),
            )
            .fix("ctxlake sync   (or keep it fresh: ctxlake service install)"),
            (None, p) => Check::warn(
                G,
                format!("cache `{fleet}`"),
                p.map_or("age unknown", |p| p.headline()),
            )
            .fix("ctxlake sync"),
        });
        out.push(maint(paths, &fleet, pipe.unwrap_or_default(), now));
    }
    out
}

fn spool(paths: &Paths) -> Vec<Check> {
    let files = crate::spool::list_files(&paths.spool);
    let (mut bytes, mut oldest, mut torn, mut skipped, mut records) =
        (0u64, None::<i64>, 0usize, 0u64, 0usize);
    for f in &files {
        let Ok(s) = crate::spool::read_file(f, 0) else {
            continue;
        };
        bytes += std::fs::metadata(f).map_or(0, |m| m.len());
        records += s.records.len();
        torn += s.bad_lines + s.resynced;
        skipped += s.skipped_bytes;
        let first = s
            .records
            .iter()
            .filter_map(|r| crate::time::parse_rfc3339(&r.ts))
            .min();
        oldest = match (oldest, first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    let now = crate::time::now_ms();
    let size = crate::spool::human_bytes(bytes);
    let backlog = match oldest {
        None => Check::ok(G, "spool backlog", format!("{size} waiting, no record queued")),
        Some(t) if (now - t) / 1000 <= STALE_SPOOL_SECS => {
            Check::ok(G, "spool backlog", format!("{records} record(s), {size}; the oldest is {} old", ago(now - t)))
        }
        Some(t) => Check::fail(G, "spool backlog", format!("{records} record(s), {size}; the oldest has waited {}: nothing is draining the spool", ago(now - t)))
            .fix("ctxlake sync   (and keep it drained: ctxlake service install)")
            .repair(Repair::InstallService),
    };
    let torn = if torn == 0 {
        Check::ok(G, "spool records", format!("{records} intact, none torn"))
    } else {
        Check::warn(
            G,
            "spool records",
            format!(
                "{torn} torn line(s), {skipped} bytes a reader skips (writers killed mid-record)"
            ),
        )
        .fix("ctxlake spool check   (details; sync skips torn lines and drains the rest)")
    };
    vec![backlog, torn, history(paths, now)]
}

/// Hook records the spool handed on but no history write has taken yet: written when the
/// oldest is a minute old, so one waiting an hour means no sync runs.
fn history(paths: &Paths, now: i64) -> Check {
    let h = crate::services::drain::history::held(paths);
    let size = crate::spool::human_bytes(h.bytes);
    let name = "history held";
    match h.oldest_ms {
        _ if h.records == 0 => Check::ok(G, name, "no hook record waits for a history write"),
        Some(t) if (now - t) / 1000 > STALE_SPOOL_SECS => Check::fail(G, name, format!("{} hook record(s), {size}; the oldest has waited {} for its history write: no sync is running", h.records, ago(now - t)))
            .fix("ctxlake sync   (and keep it running: ctxlake service install)")
            .repair(Repair::InstallService),
        Some(t) => Check::ok(G, name, format!("{} hook record(s), {size}, for the next history write; the oldest is {} old", h.records, ago(now - t))),
        None => Check::ok(G, name, format!("{} hook record(s), {size}, for the next history write", h.records)),
    }
}

fn service(paths: &Paths, unit: &Path) -> Check {
    let running = crate::services::sync::watch_running(paths);
    let installed = unit.exists();
    let last = cache_last_sync(paths);
    let last = last.map_or_else(
        || "sync never succeeded here".to_string(),
        |l| format!("last sync {l}"),
    );
    match (installed, running) {
        (_, true) => Check::ok(
            G,
            "sync service",
            format!("`sync --watch` is running; {last}"),
        ),
        (true, false) => Check::warn(
            G,
            "sync service",
            format!("installed at `{}` but not running; {last}", unit.display()),
        )
        .fix("systemctl --user restart ctxlake-sync   (or: ctxlake service install)"),
        (false, false) => Check::warn(
            G,
            "sync service",
            format!("not installed and no `sync --watch` running; {last}"),
        )
        .fix("ctxlake service install")
        .repair(Repair::InstallService),
    }
}

fn cache_last_sync(paths: &Paths) -> Option<String> {
    fleets(paths)
        .into_iter()
        .filter_map(|f| {
            cache::read::<Pipeline>(paths, &f, cache::PIPELINE)
                .data?
                .last_sync
        })
        .max()
}

/// `pipe`: the fleet's `pipeline.json` (default when missing).
fn maint(paths: &Paths, fleet: &str, pipe: Pipeline, now: i64) -> Check {
    let name = format!("maint `{fleet}`");
    let snap = std::fs::metadata(paths.snapshot_bin(fleet))
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_millis() as i64);
    let maint_at = pipe
        .last_maint
        .as_deref()
        .and_then(crate::time::parse_rfc3339);
    let snap_saw = snap.map_or("no snapshot".to_string(), |s| {
        format!("snapshot {} old", ago(now - s))
    });
    match maint_at {
        Some(t) if (now - t) / 1000 <= STALE_MAINT_SECS => Check::ok(
            G,
            name,
            format!("last maint {} ago, {snap_saw}", ago(now - t)),
        ),
        Some(t) => Check::warn(
            G,
            name,
            format!("last maint {} ago, {snap_saw}", ago(now - t)),
        )
        .fix("ctxlake maint"),
        None => Check::warn(
            G,
            name,
            format!("maint never ran for this fleet, {snap_saw}"),
        )
        .fix("ctxlake maint"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::format_ms;

    /// A pass that keeps failing after writing its rosters leaves `roster.json` fresh and
    /// the pipeline old: the cache is reported as old as the last pass that finished.
    #[test]
    fn the_cache_is_as_old_as_the_last_pass_that_finished() {
        let d = tempfile::tempdir().unwrap();
        let paths = Paths::with_overrides(d.path().join("home"), None, None);
        let now = crate::time::now_ms();
        let write = |name: &str, v: serde_json::Value| {
            let f = paths.cache_file("f", name);
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(f, v.to_string()).unwrap();
        };
        write(
            cache::ROSTER,
            serde_json::json!({"generated_at": format_ms(now), "agents": []}),
        );
        let cache_check = |last_sync_ms: i64| {
            write(
                cache::PIPELINE,
                serde_json::json!({"last_sync": format_ms(last_sync_ms)}),
            );
            let checks = check(&paths, &Config::default(), &d.path().join("no-unit"));
            let c = checks.into_iter().find(|c| c.name == "cache `f`").unwrap();
            format!("{:?}: {}", c.status, c.saw)
        };
        assert!(cache_check(now).starts_with("Ok"), "{}", cache_check(now));
        // A roster older than the pipeline is its own age (the older of the two).
        write(
            cache::ROSTER,
            serde_json::json!({"generated_at": format_ms(now - 7_200_000), "agents": []}),
        );
        assert!(cache_check(now).contains("2h old"), "{}", cache_check(now));
        write(
            cache::ROSTER,
            serde_json::json!({"generated_at": format_ms(now), "agents": []}),
        );
        let hour_ago = cache_check(now - 3_600_000);
        assert!(
            hour_ago.starts_with("Warn") && hour_ago.contains("60m old"),
            "{hour_ago}"
        );
    }
}
