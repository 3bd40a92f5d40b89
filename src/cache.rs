//! The local read model that `ctxlake sync` writes into `cache/<fleet>/`, and the
//! reader the tools use. Every read degrades honestly: a missing or unreadable file
//! yields `None` plus a note saying why, never an error. Every file is decoded through
//! the read boundary ([`crate::clean::from_slice`]): each string of every type read here
//! is cleaned as it is decoded, so a field added later cannot skip it (another agent wrote it).

use std::path::Path;

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::clean::Scrub;
use crate::paths::Paths;
use crate::vocab::SessionOutcome;

pub const ROSTER: &str = "roster.json";
pub const HISTORY: &str = "history.json";
pub const HANDOFFS: &str = "handoffs.json";
pub const PIPELINE: &str = "pipeline.json";
/// Pre-rendered briefing material for `ctxlake hook` (see `hook::briefing::Material`).
pub const BRIEFING: &str = "briefing.json";

/// `roster.json`: every live session's presence, with the leases in force when sync
/// wrote it. Times are lake-time ms (the tools render them as RFC 3339).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Roster {
    pub generated_at: String,
    /// Lake clock minus this host's clock when sync wrote the file (expiry uses the lake's clock).
    #[serde(default)]
    pub lake_clock_offset_ms: i64,
    pub agents: Vec<Presence>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Presence {
    pub agent: String,
    pub session: String,
    #[serde(default)]
    pub runtime: Option<String>,
    #[serde(default)]
    pub task: Option<String>,
    /// Lake time the lake last saw this session (its last record applied).
    pub last_seen_ms: i64,
    #[serde(default)]
    pub leases: Vec<LeaseEntry>,
}

/// A lease as a roster spells it, in the lake's host rosters and in `roster.json` alike:
/// its holder is the presence it sits in, its times are lake-time ms. Judged only as a
/// `fleet::Lease`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaseEntry {
    /// Normalized repo identity (git remote, else root path); empty when outside any repo.
    #[serde(default)]
    pub repo: String,
    pub path: String,
    pub reason: String,
    pub granted_at_ms: i64,
    pub expires_at_ms: i64,
}

/// `history.json`: digests of recent sessions, newest first.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct History {
    pub generated_at: String,
    pub sessions: Vec<SessionDigest>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
pub struct SessionDigest {
    pub session: String,
    pub agent: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub runtime: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub repo: Option<String>,
    pub started_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub ended_at: Option<String>,
    /// The git branch the session started on, when the runtime said. Absent, never null:
    /// its schema says a string (the tool list's token budget).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub branch: Option<String>,
    /// `clean`, `error`, `abandoned`, or `running`.
    // The published schema stays the plain string it was before this was an enum: the
    // tool list's token budget and golden snapshots hold it.
    #[schemars(with = "String")]
    pub outcome: SessionOutcome,
    /// Replayed from the runtime's transcript by `ctxlake import`, not captured live.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub imported: bool,
    #[serde(default)]
    pub files_touched: Vec<String>,
    #[serde(default)]
    pub commands: Vec<String>,
    #[serde(default)]
    pub tests: Vec<String>,
}

/// `handoffs.json`: notes left for whoever picks up next, newest first.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Handoffs {
    pub generated_at: String,
    #[serde(deserialize_with = "known_only")]
    pub handoffs: Vec<HandoffNote>,
}

/// Deserialize a list, skipping any element this build cannot read (a status a newer
/// writer added): one odd note never fails the whole cache read.
fn known_only<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: DeserializeOwned,
{
    let raw: Vec<serde_json::Value> = Deserialize::deserialize(d)?;
    Ok(raw
        .into_iter()
        .filter_map(|v| serde_json::from_value(v).ok())
        .collect())
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
pub struct HandoffNote {
    pub id: String,
    pub at: String,
    pub agent: String,
    pub session: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub repo: Option<String>,
    pub summary: String,
    pub status: crate::vocab::HandoffStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub next: Option<String>,
}

/// `pipeline.json`: is the pipeline alive (for `ctxlake status`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Pipeline {
    pub last_sync: Option<String>,
    pub last_maint: Option<String>,
    pub snapshot_id: Option<String>,
    pub store: Option<String>,
}

/// The outcome of one cache read.
#[derive(Debug)]
pub struct Read<T> {
    pub data: Option<T>,
    pub note: Option<String>,
    /// Why there is no data, for a header that must not call a corrupt cache missing.
    pub problem: Option<Problem>,
}

/// Why a cache file gave no data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    Missing,
    Unreadable,
    Corrupt,
    Misshapen,
}

impl Problem {
    /// The state in a few words, with the fix: `cache is corrupt: run …`.
    pub fn headline(self) -> &'static str {
        match self {
            Problem::Missing => "no cache yet",
            Problem::Unreadable => "cache is unreadable (see the note)",
            Problem::Corrupt => "cache is corrupt: run `ctxlake sync` to rebuild it",
            Problem::Misshapen => "cache has an unexpected shape: run `ctxlake sync` to rebuild it",
        }
    }
}

fn failed<T>(problem: Problem, note: String) -> Read<T> {
    Read {
        data: None,
        note: Some(note),
        problem: Some(problem),
    }
}

/// Read, decode and sanitize `cache/<fleet>/<name>`.
pub fn read<T: DeserializeOwned>(paths: &Paths, fleet: &str, name: &str) -> Read<T> {
    read_path(&paths.cache_file(fleet, name))
}

/// [`read`], each string through `scrub` (which cleans, and may bound further).
pub fn read_with<T: DeserializeOwned>(
    paths: &Paths,
    fleet: &str,
    name: &str,
    scrub: Scrub,
) -> Read<T> {
    read_path_with(&paths.cache_file(fleet, name), scrub)
}

pub fn read_path<T: DeserializeOwned>(path: &Path) -> Read<T> {
    read_path_with(path, crate::clean::field)
}

fn read_path_with<T: DeserializeOwned>(path: &Path, scrub: Scrub) -> Read<T> {
    let bytes = match crate::fsutil::read_capped(path, crate::rules::cap::CACHE) {
        Ok(Some(b)) => b,
        Ok(None) => {
            return failed(
                Problem::Unreadable,
                format!(
                    "cache `{}` is larger than {} MiB and is not read; run `ctxlake sync` to rebuild it",
                    path.display(),
                    crate::rules::cap::CACHE >> 20
                ),
            );
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return failed(
                Problem::Missing,
                format!(
                    "no cache at `{}` yet: run `ctxlake sync` (or start `ctxlake sync --watch`)",
                    path.display()
                ),
            );
        }
        Err(e) => {
            return failed(
                Problem::Unreadable,
                format!("cache `{}` is unreadable ({e})", path.display()),
            );
        }
    };
    match crate::clean::from_slice_with::<T>(&bytes, scrub) {
        Ok(d) => Read {
            data: Some(d),
            note: None,
            problem: None,
        },
        Err(e) if e.is_syntax() || e.is_eof() => failed(
            Problem::Corrupt,
            format!(
                "cache `{}` is corrupt ({e}); run `ctxlake sync` to rebuild it",
                path.display()
            ),
        ),
        Err(e) => failed(
            Problem::Misshapen,
            format!(
                "cache `{}` has an unexpected shape ({e}); run `ctxlake sync` to rebuild it",
                path.display()
            ),
        ),
    }
}

/// Seconds between `generated_at` and now, when it parses.
pub fn age_secs(generated_at: &str, now_ms: i64) -> Option<i64> {
    crate::time::parse_rfc3339(generated_at).map(|t| ((now_ms - t) / 1000).max(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A note whose status this build does not know is skipped; the rest still read.
    #[test]
    fn an_unknown_handoff_status_skips_only_its_note() {
        let d = tempfile::tempdir().unwrap();
        let note = |id: &str, status: &str| {
            serde_json::json!({"id": id, "at": "t", "agent": "a", "session": "s",
                "summary": "x", "status": status})
        };
        let body = serde_json::json!({"generated_at": "t",
            "handoffs": [note("1", "paused"), note("2", "in-progress"), note("3", "done")]});
        let path = d.path().join("handoffs.json");
        std::fs::write(&path, body.to_string()).unwrap();
        let r: Read<Handoffs> = read_path(&path);
        let ids: Vec<String> = r.data.unwrap().handoffs.into_iter().map(|h| h.id).collect();
        assert_eq!(ids, ["2", "3"]);
    }

    #[test]
    fn missing_corrupt_and_misshapen_files_degrade_to_notes() {
        let d = tempfile::tempdir().unwrap();
        let r: Read<Roster> = read_path(&d.path().join("nope.json"));
        assert!(r.data.is_none() && r.note.unwrap().contains("ctxlake sync"));
        std::fs::write(d.path().join("bad.json"), b"{not json").unwrap();
        let r: Read<Roster> = read_path(&d.path().join("bad.json"));
        assert!(r.data.is_none() && r.note.unwrap().contains("corrupt"));
        std::fs::write(d.path().join("shape.json"), b"[1,2]").unwrap();
        let r: Read<Roster> = read_path(&d.path().join("shape.json"));
        assert!(r.data.is_none() && r.note.unwrap().contains("unexpected shape"));
    }

    #[test]
    fn strings_are_sanitized_on_read() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("h.json");
        std::fs::write(&p, "{\"generated_at\":\"x\",\"handoffs\":[{\"id\":\"1\",\"at\":\"t\",\"agent\":\"a\",\"session\":\"s\",\"summary\":\"ok\\u001b[2J\",\"status\":\"done\"}]}").unwrap();
        let r: Read<Handoffs> = read_path(&p);
        assert_eq!(r.data.unwrap().handoffs[0].summary, "ok[2J");
    }
}
