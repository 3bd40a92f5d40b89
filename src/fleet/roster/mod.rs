//! Per-host presence rosters: `live/<fleet>/hosts/<host-id>.json` holds every session this
//! host's `sync` drained (task, leases, last seen), so a reader GETs one object per host
//! whose listing changed instead of one per session. Single writer (the host's drain),
//! so a plain overwrite is safe. Each session's `last_seen_ms` is the lake time its last
//! record was applied (one object's mtime can no longer be every session's heartbeat).
//! Idempotence across a crash lives in `windows`: the ids of the last flushed block of
//! each spool file still on disk, so a redo of that block is a no-op (see `own`). Each
//! write carries a fresh `write` id the home keeps (see `kept`): a roster holding an id
//! the home never wrote was written by another home with the same host id.

mod kept;
mod own;

pub(crate) use own::Own;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::presence::PresenceObj;
use crate::error::Result;
use crate::paths::Paths;

/// An ended session leaves its roster this long after its end (readers still show it as
/// a clean session meanwhile).
pub(crate) const PRUNE_ENDED_MS: i64 = 3_600_000;
/// A session with no record and no live lease for this long leaves its roster.
pub(crate) const PRUNE_IDLE_MS: i64 = 24 * 3_600_000;

/// The ids of one spool file's last flushed block: `applied` took effect in that flush,
/// `redone` had taken effect before (a redo after a crash) and were skipped.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct Window {
    pub file: String,
    #[serde(default)]
    pub applied: Vec<String>,
    #[serde(default)]
    pub redone: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct RosterObj {
    pub host: String,
    pub fleet: String,
    pub sessions: Vec<PresenceObj>,
    #[serde(default)]
    pub windows: Vec<Window>,
    /// A fresh id per write (empty from older builds).
    #[serde(default)]
    pub write: String,
}

/// The wire form as read: sessions stay raw so one bad entry drops only itself.
#[derive(Deserialize)]
struct RawRoster {
    fleet: String,
    #[serde(default)]
    sessions: Vec<Value>,
    #[serde(default)]
    windows: Vec<Value>,
    #[serde(default)]
    write: String,
}

/// A roster's sessions as a reader may use them: each entry must decode, belong to
/// `fleet` and carry valid agent and session ids, else it is dropped (other hosts wrote
/// it). `None`: not a roster of this fleet at all.
pub(crate) fn read_sessions(bytes: &[u8], fleet: &str) -> Option<Vec<PresenceObj>> {
    read(bytes, fleet).map(|(s, _)| s)
}

/// [`read_sessions`] plus the windows (only the writing host needs those).
pub(crate) fn read(bytes: &[u8], fleet: &str) -> Option<(Vec<PresenceObj>, Vec<Window>)> {
    read_written(bytes, fleet).map(|(s, w, _)| (s, w))
}

/// [`read`] plus the roster's write id.
pub(crate) fn read_written(
    bytes: &[u8],
    fleet: &str,
) -> Option<(Vec<PresenceObj>, Vec<Window>, String)> {
    let raw: RawRoster = serde_json::from_slice(bytes).ok()?;
    if raw.fleet != fleet {
        return None;
    }
    let sessions = raw
        .sessions
        .into_iter()
        .filter_map(|v| serde_json::from_value::<PresenceObj>(v).ok())
        .filter(|p| p.fleet == fleet && valid_ids(p))
        .map(|mut p| {
            p.applied.clear(); // only a legacy presence's drainer used them
            p
        })
        .collect();
    let windows = raw
        .windows
        .into_iter()
        .filter_map(|v| serde_json::from_value(v).ok())
        .collect();
    Some((sessions, windows, raw.write))
}

fn valid_ids(p: &PresenceObj) -> bool {
    crate::scope::validate_id("agent", &p.agent).is_ok()
        && crate::scope::validate_id("session", &p.session).is_ok()
}

/// Whether a session has left the roster for good at lake time `now`: ended an hour
/// ago, or silent for a day with no live lease.
pub(crate) fn expired(p: &PresenceObj, now: i64) -> bool {
    let seen = p.last_seen_ms.unwrap_or(0);
    if p.ended_at.is_some() {
        return now - seen > PRUNE_ENDED_MS;
    }
    let live_lease = p
        .leases
        .iter()
        .any(|l| crate::time::parse_rfc3339(&l.expires_at).is_some_and(|t| t > now));
    now - seen > PRUNE_IDLE_MS && !live_lease
}

/// This home's host id, minted once (random) and kept in `state/host-id`. An unreadable
/// or invalid file is replaced: the old roster then ages out like any silent host's.
pub(crate) fn host_id(paths: &Paths) -> Result<String> {
    match stored_host_id(&host_id_file(paths)) {
        Some(id) => Ok(id),
        None => mint_host_id(paths),
    }
}

pub(crate) fn host_id_file(paths: &Paths) -> std::path::PathBuf {
    paths.state().join("host-id")
}

/// The valid host id kept in `file`, if any (never mints one).
pub(crate) fn stored_host_id(file: &std::path::Path) -> Option<String> {
    let s = std::fs::read_to_string(file).ok()?;
    let id = s.trim();
    crate::scope::validate_id("host", id).ok()?;
    Some(id.to_string())
}

/// A new random host id, replacing `state/host-id` atomically.
pub(crate) fn mint_host_id(paths: &Paths) -> Result<String> {
    let id = crate::ulid::new().to_lowercase();
    crate::fsutil::write_atomic(&host_id_file(paths), id.as_bytes(), 0o600)?;
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_bad_entry_drops_itself_not_the_roster() {
        let bytes = serde_json::to_vec(&json!({
            "host": "h", "fleet": "f",
            "sessions": [
                {"fleet": "f", "agent": "ok", "session": "s1", "last_seen_ms": 5},
                {"fleet": "f", "agent": "../etc", "session": "s2"},
                {"fleet": "other", "agent": "a", "session": "s3"},
                {"fleet": "f", "agent": "a", "session": 7},
                {"fleet": "f", "agent": "b", "session": "s4", "applied": ["x"]},
            ],
            "windows": [{"file": "mcp/f.1.ndjson", "applied": ["x"]}, 3],
        }))
        .unwrap();
        let (s, w) = read(&bytes, "f").unwrap();
        let names: Vec<&str> = s.iter().map(|p| p.session.as_str()).collect();
        assert_eq!(names, ["s1", "s4"]);
        assert!(s[1].applied.is_empty());
        assert_eq!(w.len(), 1);
        assert!(read(&bytes, "g").is_none(), "another fleet's roster");
        assert!(read(b"not json", "f").is_none());
    }

    #[test]
    fn ended_and_silent_sessions_expire() {
        let mut p = PresenceObj {
            last_seen_ms: Some(0),
            ..PresenceObj::default()
        };
        assert!(!expired(&p, PRUNE_IDLE_MS));
        assert!(expired(&p, PRUNE_IDLE_MS + 1));
        p.leases.push(crate::cache::Lease {
            expires_at: crate::time::format_ms(PRUNE_IDLE_MS * 2),
            ..Default::default()
        });
        assert!(!expired(&p, PRUNE_IDLE_MS + 1), "a live lease keeps it");
        p.ended_at = Some("x".into());
        assert!(expired(&p, PRUNE_ENDED_MS + 1));
        assert!(!expired(&p, PRUNE_ENDED_MS));
    }

    #[test]
    fn the_host_id_is_minted_once_and_an_invalid_one_replaced() {
        let d = tempfile::tempdir().unwrap();
        let paths = Paths::with_overrides(d.path().to_path_buf(), None, None);
        let id = host_id(&paths).unwrap();
        assert_eq!(host_id(&paths).unwrap(), id);
        crate::lake::keys::validate(&crate::lake::keys::roster("f", &id)).unwrap();
        std::fs::write(paths.state().join("host-id"), "../x").unwrap();
        let new = host_id(&paths).unwrap();
        assert_ne!(new, "../x");
        assert_eq!(host_id(&paths).unwrap(), new);
    }
}

#[cfg(test)]
#[path = "own_tests.rs"]
mod own_tests;

#[cfg(test)]
#[path = "kept_tests.rs"]
mod kept_tests;
