//! One session's presence: task, leases, when the lake last saw it. Each lives as an
//! entry of its host's roster (`fleet::roster`); the drain applies spool records to it.
//! Every time is lake-time ms; the roster spells a presence as [`Entry`], whose leases
//! name no holder (the presence is their holder).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::lease::{Holder, Lease};
use crate::cache::LeaseEntry;
use crate::spool::{Record, RecordKind};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "Entry", into = "Entry")]
pub struct PresenceObj {
    pub fleet: String,
    pub agent: String,
    pub session: String,
    pub runtime: Option<String>,
    pub task: Option<String>,
    /// The first record's `ts` (the writer's clock), when it parsed.
    pub started_at_ms: Option<i64>,
    /// Lake time of its `hook_session_end`.
    pub ended_at_ms: Option<i64>,
    pub leases: Vec<Lease>,
    /// Lake time its last record was applied.
    pub last_seen_ms: i64,
}

/// A presence as a roster spells it.
#[derive(Serialize, Deserialize)]
struct Entry {
    fleet: String,
    agent: String,
    session: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    runtime: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    task: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    started_at_ms: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ended_at_ms: Option<i64>,
    #[serde(default)]
    leases: Vec<LeaseEntry>,
    last_seen_ms: i64,
}

impl From<Entry> for PresenceObj {
    fn from(e: Entry) -> Self {
        let holder = Holder {
            agent: e.agent.clone(),
            session: e.session.clone(),
        };
        PresenceObj {
            leases: e
                .leases
                .into_iter()
                .map(|l| Lease::from_entry(&holder, l))
                .collect(),
            fleet: e.fleet,
            agent: e.agent,
            session: e.session,
            runtime: e.runtime,
            task: e.task,
            started_at_ms: e.started_at_ms,
            ended_at_ms: e.ended_at_ms,
            last_seen_ms: e.last_seen_ms,
        }
    }
}

impl From<PresenceObj> for Entry {
    fn from(p: PresenceObj) -> Self {
        Entry {
            leases: p.leases.iter().map(Lease::entry).collect(),
            fleet: p.fleet,
            agent: p.agent,
            session: p.session,
            runtime: p.runtime,
            task: p.task,
            started_at_ms: p.started_at_ms,
            ended_at_ms: p.ended_at_ms,
            last_seen_ms: p.last_seen_ms,
        }
    }
}

impl PresenceObj {
    pub fn new(rec: &Record) -> Self {
        PresenceObj {
            fleet: rec.fleet.clone(),
            agent: rec.agent.clone(),
            session: rec.session.clone(),
            started_at_ms: crate::time::parse_rfc3339(&rec.ts),
            ..Self::default()
        }
    }

    pub fn holder(&self) -> Holder {
        Holder {
            agent: self.agent.clone(),
            session: self.session.clone(),
        }
    }

    /// Apply a record's effect at lake time `lake_now_ms`, which becomes its last sighting.
    /// Not idempotent by itself (a replayed claim would renew): the roster skips records
    /// it applied before.
    pub fn apply(&mut self, rec: &Record, lake_now_ms: i64) {
        let p = &rec.payload;
        self.leases.retain(|l| l.is_live(lake_now_ms));
        self.last_seen_ms = lake_now_ms;
        match &rec.kind {
            RecordKind::FleetClaim => self.claim(p, lake_now_ms),
            RecordKind::FleetRelease => {
                if p["all"].as_bool().unwrap_or(false) {
                    self.leases.clear();
                } else {
                    let repo = p["repo"].as_str().unwrap_or_default();
                    let paths: Vec<&str> = paths(p).collect();
                    self.leases
                        .retain(|l| !(l.repo == repo && paths.contains(&l.path.as_str())));
                }
            }
            kind => self.apply_hook(kind, p, lake_now_ms),
        }
    }

    /// A claim grants each path at `now` for its TTL; a path this session already holds
    /// is renewed (new expiry and reason, the same grant time: re-claiming never loses
    /// priority).
    fn claim(&mut self, p: &Value, now: i64) {
        let repo = p["repo"].as_str().unwrap_or_default().to_string();
        let reason = p["reason"].as_str().unwrap_or_default().to_string();
        let ttl = p["ttl_secs"]
            .as_u64()
            .unwrap_or(crate::rules::DEFAULT_TTL_SECS);
        let expires_at_ms = now.saturating_add((ttl as i64).saturating_mul(1000));
        let holder = self.holder();
        for path in paths(p) {
            match self
                .leases
                .iter_mut()
                .find(|l| l.repo == repo && l.path == path)
            {
                Some(l) => {
                    l.expires_at_ms = expires_at_ms;
                    l.reason = reason.clone();
                }
                None => self.leases.push(Lease {
                    repo: repo.clone(),
                    path: path.to_string(),
                    holder: holder.clone(),
                    reason: reason.clone(),
                    granted_at_ms: now,
                    expires_at_ms,
                }),
            }
        }
        self.task.get_or_insert(reason);
    }

    /// Hook events: what the runtime told us about the session.
    fn apply_hook(&mut self, kind: &RecordKind, p: &Value, now: i64) {
        if let Some(rt) = p["runtime"].as_str() {
            self.runtime = Some(rt.to_string());
        }
        if *kind == RecordKind::HookPrompt
            && let Some(prompt) = p["prompt"].as_str()
        {
            let t: String = prompt.chars().take(120).collect();
            if !t.trim().is_empty() {
                self.task = Some(t);
            }
        }
        if *kind == RecordKind::HookSessionEnd {
            self.ended_at_ms = Some(now);
            self.leases.clear();
        }
    }
}

/// The `paths` of a claim or release payload.
fn paths(p: &Value) -> impl Iterator<Item = &str> {
    p["paths"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rec(id: &str, kind: &str, payload: Value) -> Record {
        Record {
            id: id.into(),
            ts: "2026-11-29T00:00:00.000Z".into(),
            fleet: "f".into(),
            agent: "a".into(),
            session: "s".into(),
            kind: kind.into(),
            payload,
        }
    }

    fn claim(id: &str, path: &str, ttl: u64) -> Record {
        let p = json!({"repo": "r", "paths": [path], "reason": "x", "ttl_secs": ttl});
        rec(id, "fleet_claim", p)
    }

    fn paths_of(p: &PresenceObj) -> Vec<&str> {
        p.leases.iter().map(|l| l.path.as_str()).collect()
    }

    /// Expired leases leave at the next record, also after a renewal moved one later, and
    /// on a presence read back from its roster spelling.
    #[test]
    fn expired_leases_leave_at_the_next_record() {
        let mut p = PresenceObj::new(&claim("1", "a", 60));
        p.apply(&claim("1", "a", 60), 0); // a expires at 60 s
        p.apply(&claim("2", "b", 120), 1_000); // b at 121 s
        p.apply(&claim("3", "a", 600), 2_000); // a renewed to 602 s
        p.apply(&claim("4", "c", 600), 100_000);
        assert_eq!(p.leases.len(), 3, "nothing has expired at 100 s");
        p.apply(&claim("5", "c", 600), 121_000);
        assert_eq!(paths_of(&p), ["a", "c"], "b expired at 121 s, not after");
        let mut back: PresenceObj =
            serde_json::from_slice(&serde_json::to_vec(&p).unwrap()).unwrap();
        assert_eq!(back, p, "the roster spelling keeps everything");
        back.apply(&claim("6", "d", 600), 700_000);
        assert_eq!(paths_of(&back), ["c", "d"], "a expired at 602 s");
        assert_eq!(
            back.leases[1].holder,
            p.holder(),
            "read back with its holder"
        );
    }

    #[test]
    fn claim_renew_release() {
        let first = claim("1", "src", 60);
        let mut p = PresenceObj::new(&first);
        p.apply(&first, 1_000_000);
        let renew = rec(
            "2",
            "fleet_claim",
            json!({"repo": "r", "paths": ["src"], "reason": "y", "ttl_secs": 600}),
        );
        p.apply(&renew, 1_030_000);
        assert_eq!(p.leases.len(), 1);
        let l = &p.leases[0];
        assert_eq!(l.granted_at_ms, 1_000_000, "renewal keeps the grant time");
        assert_eq!((l.expires_at_ms, l.reason.as_str()), (1_630_000, "y"));
        assert_eq!(p.last_seen_ms, 1_030_000);
        p.apply(
            &rec(
                "3",
                "fleet_release",
                json!({"all": false, "repo": "r", "paths": ["src"]}),
            ),
            1_040_000,
        );
        assert!(p.leases.is_empty());
    }

    /// The roster spelling: integer ms, no holder per lease, and nothing of a format
    /// that never shipped.
    #[test]
    fn the_roster_spelling_is_integer_ms() {
        let c = claim("1", "src", 60);
        let mut p = PresenceObj::new(&c);
        p.apply(&c, 5_000);
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(
            v,
            json!({"fleet": "f", "agent": "a", "session": "s", "task": "x",
                "started_at_ms": 1_795_910_400_000_i64, "last_seen_ms": 5_000,
                "leases": [{"repo": "r", "path": "src", "reason": "x",
                    "granted_at_ms": 5_000, "expires_at_ms": 65_000}]})
        );
    }
}
