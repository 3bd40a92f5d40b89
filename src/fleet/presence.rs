//! One session's presence: task, leases, when the lake last saw it. Today each lives as
//! an entry of its host's roster (`lake::roster`); lakes written by older builds also hold
//! one object per (agent, session) under `live/<fleet>/agents/`, still read.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cache::Lease;
use crate::spool::{Record, RecordKind};

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct PresenceObj {
    pub fleet: String,
    pub agent: String,
    pub session: String,
    #[serde(default)]
    pub runtime: Option<String>,
    #[serde(default)]
    pub task: Option<String>,
    #[serde(default)]
    pub started_at: Option<String>,
    #[serde(default)]
    pub ended_at: Option<String>,
    #[serde(default)]
    pub leases: Vec<Lease>,
    /// Legacy per-session objects only: the ids of their last records applied (a roster
    /// keeps replay protection per host instead, `roster::Window`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub applied: Vec<String>,
    /// Lake time (ms) its last record was applied; a legacy object's mtime stands in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_seen_ms: Option<i64>,
    /// In memory only: no lease expires before this lake time, so `apply` parses every
    /// expiry only when one may have passed. A drain applies thousands of claims to one
    /// session; re-parsing hundreds of leases' times on each was half the drain's CPU.
    #[serde(skip)]
    pub(crate) next_expiry: ExpiryHint,
}

/// A cache, not state: two presences that differ only in it are equal.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ExpiryHint(Option<i64>);

impl PartialEq for ExpiryHint {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl PresenceObj {
    pub fn new(rec: &Record) -> Self {
        PresenceObj {
            fleet: rec.fleet.clone(),
            agent: rec.agent.clone(),
            session: rec.session.clone(),
            started_at: Some(rec.ts.clone()),
            ..Self::default()
        }
    }

    /// Apply a record's effect at lake time `lake_now_ms`. Not idempotent by itself (a
    /// replayed claim would renew): the roster skips records it applied before.
    pub fn apply(&mut self, rec: &Record, lake_now_ms: i64) {
        let p = &rec.payload;
        let now = crate::time::format_ms(lake_now_ms);
        self.drop_expired(lake_now_ms);
        match &rec.kind {
            RecordKind::FleetClaim => {
                let repo = p["repo"].as_str().unwrap_or_default().to_string();
                let reason = p["reason"].as_str().unwrap_or_default().to_string();
                let ttl = p["ttl_secs"]
                    .as_u64()
                    .unwrap_or(crate::rules::DEFAULT_TTL_SECS);
                let expires_ms = lake_now_ms + ttl as i64 * 1000;
                let expires = crate::time::format_ms(expires_ms);
                // A renewal may move a lease later than the hint: an early hint costs one
                // extra scan, never a missed expiry.
                self.next_expiry.0 =
                    Some(self.next_expiry.0.map_or(expires_ms, |t| t.min(expires_ms)));
                for path in p["paths"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    match self
                        .leases
                        .iter_mut()
                        .find(|l| l.repo == repo && l.path == path)
                    {
                        // Renewal keeps the original grant time: re-claiming never loses priority.
                        Some(l) => {
                            l.expires_at = expires.clone();
                            l.reason = reason.clone();
                        }
                        None => self.leases.push(Lease {
                            repo: repo.clone(),
                            path: path.to_string(),
                            reason: reason.clone(),
                            granted_at: now.clone(),
                            expires_at: expires.clone(),
                        }),
                    }
                }
                self.task.get_or_insert(reason);
            }
            RecordKind::FleetRelease => {
                if p["all"].as_bool().unwrap_or(false) {
                    self.leases.clear();
                } else {
                    let repo = p["repo"].as_str().unwrap_or_default();
                    let paths: Vec<&str> = p["paths"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .collect();
                    self.leases
                        .retain(|l| !(l.repo == repo && paths.contains(&l.path.as_str())));
                }
            }
            kind => self.apply_hook(kind, p, &now),
        }
    }

    /// Hook events: what the runtime told us about the session.
    /// Drop leases expired at `lake_now_ms`, scanning only when the hint says one may be.
    fn drop_expired(&mut self, lake_now_ms: i64) {
        if self.next_expiry.0.is_some_and(|t| t > lake_now_ms) {
            return;
        }
        let mut next = None::<i64>;
        self.leases.retain(|l| {
            let t = crate::time::parse_rfc3339(&l.expires_at).filter(|t| *t > lake_now_ms);
            if let Some(t) = t {
                next = Some(next.map_or(t, |n| n.min(t)));
            }
            t.is_some()
        });
        self.next_expiry.0 = Some(next.unwrap_or(i64::MAX));
    }

    fn apply_hook(&mut self, kind: &RecordKind, p: &Value, now: &str) {
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
            self.ended_at = Some(now.to_string());
            self.leases.clear();
        }
    }
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

    /// Expired leases leave at the next record, whatever the in-memory hint says: after a
    /// renewal moved the earliest expiry later, and on an object read back without a hint.
    #[test]
    fn expired_leases_leave_at_the_next_record() {
        let claim = |id: &str, path: &str, ttl: u64| {
            rec(
                id,
                "fleet_claim",
                json!({"repo": "r", "paths": [path], "reason": "x", "ttl_secs": ttl}),
            )
        };
        let mut p = PresenceObj::new(&claim("1", "a", 60));
        p.apply(&claim("1", "a", 60), 0); // a expires at 60 s
        p.apply(&claim("2", "b", 120), 1_000); // b at 121 s
        p.apply(&claim("3", "a", 600), 2_000); // a renewed to 602 s: the hint is early
        p.apply(&claim("4", "c", 600), 100_000);
        assert_eq!(p.leases.len(), 3, "nothing has expired at 100 s");
        p.apply(&claim("5", "c", 600), 130_000);
        let paths: Vec<&str> = p.leases.iter().map(|l| l.path.as_str()).collect();
        assert_eq!(paths, ["a", "c"], "b expired at 121 s");
        let mut back: PresenceObj =
            serde_json::from_slice(&serde_json::to_vec(&p).unwrap()).unwrap();
        back.apply(&claim("6", "d", 600), 700_000);
        let paths: Vec<&str> = back.leases.iter().map(|l| l.path.as_str()).collect();
        assert_eq!(
            paths,
            ["c", "d"],
            "a expired at 602 s, read back without a hint"
        );
    }

    #[test]
    fn claim_renew_release() {
        let claim = rec(
            "1",
            "fleet_claim",
            json!({"repo": "r", "paths": ["src"], "reason": "x", "ttl_secs": 60}),
        );
        let mut p = PresenceObj::new(&claim);
        p.apply(&claim, 1_000_000);
        let granted = p.leases[0].granted_at.clone();
        let renew = rec(
            "2",
            "fleet_claim",
            json!({"repo": "r", "paths": ["src"], "reason": "y", "ttl_secs": 600}),
        );
        p.apply(&renew, 1_030_000);
        assert_eq!(p.leases.len(), 1);
        assert_eq!(
            p.leases[0].granted_at, granted,
            "renewal keeps the grant time"
        );
        assert_eq!(
            p.leases[0].expires_at,
            crate::time::format_ms(1_030_000 + 600_000)
        );
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
}
