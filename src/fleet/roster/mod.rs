//! Per-host presence rosters: `live/<fleet>/hosts/<host-id>.json` holds every session this
//! host's `sync` drained (task, leases, last seen), so a reader GETs one object per host
//! whose listing changed instead of one per session. Single writer (the host's drain),
//! so a plain overwrite is safe. Each session's `last_seen_ms` is the lake time its last
//! record was applied (the object's mtime is the host's heartbeat, not each session's).
//! Idempotence across a crash lives in `windows`: the ids of the last flushed block of
//! each spool file still on disk, so a redo of that block is a no-op (see `own`). Each
//! write carries a fresh `write` id the home keeps (see `kept`): a roster holding an id
//! the home never wrote was written by another home with the same host id.
//!
//! Liveness is coarse: a roster is rewritten when a lease or a session's state changes
//! (a claim, a release, a new or ended session, a new task), and for liveness alone only
//! once a session's written `last_seen_ms` is [`LIVENESS_GRAIN_MS`] old. A busy host's
//! hook events then cost no roster PUT (and no GET on every other host) on every pass.

mod defer;
mod kept;
mod own;
mod start;

pub(crate) use kept::deferred;
#[cfg(test)]
pub(crate) use kept::waiting;
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

/// How stale a session's `last_seen_ms` in the lake may grow while its host applies only
/// hook events that change nothing else. Every reader's liveness window must be far wider:
/// `limits.idle_secs` (2 h by default) for "live" in `fleet status`, `fleet list`, the
/// briefing and history's abandoned sessions; the prune ages above are hours.
pub(crate) const LIVENESS_GRAIN_MS: i64 = 60_000;

/// Whether applying `rec` turned `before` (absent: a session new to this roster) into
/// `after` in a way the lake must get at the next flush: any change but `last_seen_ms`;
/// every lease operation (claims and releases are written as they come, which keeps each
/// one's exactly-once record in the roster's windows); or liveness alone once the last
/// written sighting (`written_seen`) is a grain old.
pub(crate) fn worth_writing(
    rec: &crate::spool::Record,
    before: Option<&PresenceObj>,
    after: &PresenceObj,
    written_seen: Option<i64>,
) -> bool {
    let Some(before) = before else {
        return true;
    };
    let same_but_seen = PresenceObj {
        last_seen_ms: after.last_seen_ms,
        ..before.clone()
    };
    !rec.kind.is_hook()
        || same_but_seen != *after
        || written_seen.is_none_or(|w| after.last_seen_ms.saturating_sub(w) >= LIVENESS_GRAIN_MS)
}

/// Something a drain's roster load did that the person should hear about once. Data,
/// not text: the command line renders it (`cmd::sync`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "warning", rename_all = "snake_case")]
pub(crate) enum Warning {
    /// Another home uses this host id (its roster held a write this home never made: a
    /// cloned machine image): this home took host id `new` and moved its sessions there.
    HostIdShared {
        old: String,
        new: String,
        /// The file a clone should not carry.
        host_id_file: std::path::PathBuf,
    },
    /// This host's roster `key` in the lake did not parse: rebuilt from this home's copy.
    RosterRebuilt {
        key: String,
        kept_file: std::path::PathBuf,
    },
}

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
    /// A fresh ULID per write (see `kept`).
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
    write: String,
}

/// A roster's sessions as a reader may use them: each entry must decode, belong to
/// `fleet` and carry valid agent and session ids, else it is dropped (other hosts wrote
/// it). `None`: not a roster of this fleet at all. Every peer's presence and lease enters
/// through here: a bound on what a roster may claim (lease times, sessions per host)
/// belongs in `admit`.
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
    if raw.fleet != fleet || raw.write.is_empty() {
        return None;
    }
    let sessions = raw
        .sessions
        .into_iter()
        .filter_map(|v| serde_json::from_value::<PresenceObj>(v).ok())
        .filter(|p| admit(p, fleet))
        .collect();
    let windows = raw
        .windows
        .into_iter()
        .filter_map(|v| serde_json::from_value(v).ok())
        .collect();
    Some((sessions, windows, raw.write))
}

/// Whether a roster entry may be used: of this fleet, with ids that could name keys.
fn admit(p: &PresenceObj, fleet: &str) -> bool {
    p.fleet == fleet
        && crate::scope::validate_id("agent", &p.agent).is_ok()
        && crate::scope::validate_id("session", &p.session).is_ok()
}

/// Whether a session has left the roster for good at lake time `now`: ended an hour
/// ago, or silent for a day with no live lease.
pub(crate) fn expired(p: &PresenceObj, now: i64) -> bool {
    let silent = now.saturating_sub(p.last_seen_ms);
    if p.ended_at_ms.is_some() {
        return silent > PRUNE_ENDED_MS;
    }
    silent > PRUNE_IDLE_MS && !p.leases.iter().any(|l| l.is_live(now))
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
    paths.host_id()
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
        let roster = |write: &str| {
            let seen = 5;
            serde_json::to_vec(&json!({
                "host": "h", "fleet": "f", "write": write,
                "sessions": [
                    {"fleet": "f", "agent": "ok", "session": "s1", "last_seen_ms": seen},
                    {"fleet": "f", "agent": "../etc", "session": "s2", "last_seen_ms": seen},
                    {"fleet": "other", "agent": "a", "session": "s3", "last_seen_ms": seen},
                    {"fleet": "f", "agent": "a", "session": 7, "last_seen_ms": seen},
                    {"fleet": "f", "agent": "a", "session": "s5"},
                    {"fleet": "f", "agent": "b", "session": "s4", "last_seen_ms": seen,
                     "leases": [{"path": "src", "reason": "x", "granted_at_ms": 1, "expires_at_ms": 9}]},
                    {"fleet": "f", "agent": "b", "session": "s6", "last_seen_ms": seen,
                     "leases": [{"path": "src", "reason": "x",
                        "granted_at": "2026-11-29T00:00:00Z", "expires_at": "2026-11-29T01:00:00Z"}]},
                ],
                "windows": [{"file": "mcp/f.1.ndjson", "applied": ["x"]}, 3],
            }))
            .unwrap()
        };
        let bytes = roster("01KDV0000000000000000000WR");
        let (s, w) = read(&bytes, "f").unwrap();
        let names: Vec<&str> = s.iter().map(|p| p.session.as_str()).collect();
        assert_eq!(
            names,
            ["s1", "s4"],
            "bad ids, another fleet, no last_seen_ms, times not in ms"
        );
        assert_eq!(s[1].leases[0].holder, s[1].holder());
        assert_eq!(w.len(), 1);
        assert!(read(&bytes, "g").is_none(), "another fleet's roster");
        assert!(read(b"not json", "f").is_none());
        assert!(
            read(&roster(""), "f").is_none(),
            "a roster without a write id"
        );
    }

    #[test]
    fn ended_and_silent_sessions_expire() {
        let mut p = PresenceObj::default();
        assert!(!expired(&p, PRUNE_IDLE_MS));
        assert!(expired(&p, PRUNE_IDLE_MS + 1));
        p.leases.push(crate::fleet::Lease {
            expires_at_ms: PRUNE_IDLE_MS + 2,
            ..Default::default()
        });
        assert!(!expired(&p, PRUNE_IDLE_MS + 1), "a live lease keeps it");
        assert!(expired(&p, PRUNE_IDLE_MS + 2), "not once it expired");
        p.ended_at_ms = Some(0);
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
