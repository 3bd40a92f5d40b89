//! When a hook from this runtime last fired. Hook records carry their runtime: waiting ones
//! sit in `spool/hooks/<runtime>/`, drained ones come back as session digests in each
//! fleet's `history.json`. The newest of either is the last event this host saw.

use std::time::UNIX_EPOCH;

use super::G;
use crate::cache::{self, History};
use crate::install::Runtime;
use crate::paths::Paths;
use crate::services::doctor::report::Check;

/// Older than this, hooks may have stopped firing (or the runtime is simply unused).
const RECENT_SECS: i64 = 7 * 24 * 3600;

pub(super) fn check(paths: &Paths, rt: Runtime) -> Check {
    let name = format!("{}: last hook event", rt.name());
    let now = crate::time::now_ms();
    match last_ms(paths, rt) {
        Some(t) if (now - t) / 1000 <= RECENT_SECS => {
            Check::ok(G, name, format!("{} ago", ago(now - t)))
        }
        Some(t) => Check::warn(
            G,
            name,
            format!(
                "the last hook event from {} was {} ago",
                rt.name(),
                ago(now - t)
            ),
        )
        .fix(format!(
            "start a {} session; if no event arrives, check the hooks with `ctxlake doctor`",
            rt.name()
        )),
        None => Check::warn(
            G,
            name,
            format!("no hook event from {} recorded on this host yet", rt.name()),
        )
        .fix(format!(
            "start a {} session, then run `ctxlake doctor` again",
            rt.name()
        )),
    }
}

/// Sessions replayed by `ctxlake import` are not hook events: they prove nothing about
/// the hooks, so they are left out of both.
fn last_ms(paths: &Paths, rt: Runtime) -> Option<i64> {
    let spooled = crate::spool::list_files(&paths.spool_hooks_dir().join(rt.name()))
        .iter()
        .filter(|f| {
            f.file_name()
                .is_some_and(|n| !n.to_string_lossy().starts_with("imported-"))
        })
        .filter_map(|f| std::fs::metadata(f).ok()?.modified().ok())
        .filter_map(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_millis() as i64)
        .max();
    let drained = fleets(paths)
        .into_iter()
        .filter_map(|fleet| cache::read::<History>(paths, &fleet, cache::HISTORY).data)
        .flat_map(|h| h.sessions)
        .filter(|s| s.runtime.as_deref() == Some(rt.name()) && !s.imported)
        .filter_map(|s| crate::time::parse_rfc3339(s.ended_at.as_deref().unwrap_or(&s.started_at)))
        .max();
    spooled.max(drained)
}

/// Fleets with a cache on this host.
pub(crate) fn fleets(paths: &Paths) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(&paths.cache) else {
        return Vec::new();
    };
    let mut out: Vec<String> = rd
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    out.sort();
    out
}

/// `3m`, `5h`, `2d`.
pub(crate) fn ago(ms: i64) -> String {
    let s = (ms / 1000).max(0);
    match s {
        s if s < 120 => format!("{s}s"),
        s if s < 7200 => format!("{}m", s / 60),
        s if s < 172_800 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sessions replayed by `ctxlake import` prove nothing about the hooks: neither their
    /// spool file nor their history entry counts as a hook event.
    #[test]
    fn imported_sessions_are_not_hook_events() {
        let d = tempfile::tempdir().unwrap();
        let paths = Paths::with_overrides(d.path().to_path_buf(), None, None);
        let spool = paths.spool_hooks_dir().join("claude-code");
        std::fs::create_dir_all(&spool).unwrap();
        std::fs::write(
            spool.join("imported-s1.01J00000000000000000000000.ndjson"),
            "",
        )
        .unwrap();
        let history = serde_json::json!({"generated_at": "2026-12-01T00:00:00.000Z", "sessions": [
            {"session": "s1", "agent": "a", "runtime": "claude-code", "started_at": crate::time::now_rfc3339(),
             "outcome": "clean", "imported": true}
        ]});
        let f = paths.cache_file("default", cache::HISTORY);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(&f, history.to_string()).unwrap();
        assert_eq!(last_ms(&paths, Runtime::ClaudeCode), None);
        std::fs::write(spool.join("s2.ndjson"), "").unwrap();
        assert!(
            last_ms(&paths, Runtime::ClaudeCode).is_some(),
            "a live hook's file counts"
        );
    }
}
