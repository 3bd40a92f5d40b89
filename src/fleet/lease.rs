//! A lease: one session's advisory hold on a path of a repository, granted and expiring
//! in lake time (integer ms). [`Lease::is_live`] is the one judge of whether a lease is in
//! force; every reader (the drain, roster pruning, the mirror, resolution, the hook, the
//! tools, the briefing) asks it. RFC 3339 appears only where a person or an MCP client
//! reads a time.

use crate::cache::LeaseEntry;

/// Who holds a lease: an (agent, session), never an agent alone (two sessions of one
/// runtime on one host are two claimants).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Holder {
    pub agent: String,
    pub session: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lease {
    /// Normalized repo identity (git remote, else root path); empty outside any repo.
    pub repo: String,
    /// Repo-relative path or glob.
    pub path: String,
    pub holder: Holder,
    pub reason: String,
    /// Lake time of the first claim (a renewal keeps it: re-claiming never loses priority).
    pub granted_at_ms: i64,
    /// Lake time it stops being in force.
    pub expires_at_ms: i64,
}

impl Lease {
    /// Whether the lease is in force at lake time `now_ms`: until, not at, its expiry,
    /// and never longer than the longest TTL after its grant (`rules::MAX_TTL_SECS`, as
    /// the write path grants): a roster's year-9999 expiry holds a path for a week at most.
    pub fn is_live(&self, now_ms: i64) -> bool {
        self.expires_at_ms.min(max_expiry(self.granted_at_ms)) > now_ms
    }

    /// A lease as a roster spells it (its holder is the presence it sits in). Every lease
    /// read from a roster, the lake's or the cache's, comes through here.
    pub fn from_entry(holder: &Holder, e: LeaseEntry) -> Lease {
        Lease {
            repo: e.repo,
            path: e.path,
            holder: holder.clone(),
            reason: e.reason,
            granted_at_ms: e.granted_at_ms,
            // Shown as it is judged (`is_live`): capped at the longest TTL.
            expires_at_ms: e.expires_at_ms.min(max_expiry(e.granted_at_ms)),
        }
    }

    /// The roster's spelling of this lease.
    pub fn entry(&self) -> LeaseEntry {
        LeaseEntry {
            repo: self.repo.clone(),
            path: self.path.clone(),
            reason: self.reason.clone(),
            granted_at_ms: self.granted_at_ms,
            expires_at_ms: self.expires_at_ms,
        }
    }
}

/// The latest a lease granted at `granted_at_ms` may expire.
fn max_expiry(granted_at_ms: i64) -> i64 {
    granted_at_ms.saturating_add(crate::rules::MAX_TTL_SECS as i64 * 1000)
}

/// Every lease of the cached roster's presences, as leases, and for each the index of
/// the presence holding it.
pub fn of_presences(agents: &[crate::cache::Presence]) -> (Vec<Lease>, Vec<usize>) {
    let mut leases = Vec::new();
    let mut owner = Vec::new();
    for (i, p) in agents.iter().enumerate() {
        let holder = Holder {
            agent: p.agent.clone(),
            session: p.session.clone(),
        };
        for e in &p.leases {
            leases.push(Lease::from_entry(&holder, e.clone()));
            owner.push(i);
        }
    }
    (leases, owner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In force until its expiry, not at it: the same instant everywhere a lease is judged.
    #[test]
    fn a_lease_is_live_until_its_expiry() {
        let l = Lease {
            granted_at_ms: 1_000,
            expires_at_ms: 61_000,
            ..Lease::default()
        };
        assert!(l.is_live(1_000));
        assert!(l.is_live(60_999));
        assert!(!l.is_live(61_000));
        assert!(!l.is_live(i64::MAX));
    }

    /// A forged expiry (year 9999, or `i64::MAX`) holds at most the longest TTL after
    /// its grant, judged and shown alike.
    #[test]
    fn an_expiry_past_the_longest_ttl_is_capped() {
        let week = crate::rules::MAX_TTL_SECS as i64 * 1000;
        for forged in [253_402_300_799_000, i64::MAX] {
            let e = LeaseEntry {
                granted_at_ms: 1_000,
                expires_at_ms: forged,
                ..LeaseEntry::default()
            };
            let l = Lease::from_entry(&Holder::default(), e.clone());
            assert_eq!(l.expires_at_ms, 1_000 + week);
            let raw = Lease {
                expires_at_ms: forged,
                ..l
            };
            assert!(raw.is_live(1_000 + week - 1));
            assert!(!raw.is_live(1_000 + week), "{forged}");
        }
    }
}
