//! Deferred lease renewals. A claim of paths a session already holds only moves their
//! expiry; while the expiry the lake carries is still far off, rewriting the roster for it
//! buys other hosts nothing (they see the lease live either way) and costs a PUT here and
//! a GET on every other host. Such a renewal is kept locally (this home's kept copy, so a
//! restart loses nothing) and written by a deadline, or with the next write for any reason.
//!
//! The invariant: **no host ever sees a renewed lease as expired.** A renewal is deferred
//! only while the lake's expiry `E` of every lease it renews is more than
//! `margin = max(ttl / 2, horizon)` away, and the roster is then due at `E - margin`. A
//! `sync --watch` daemon checks the deadline at every pass and drain, and sets `horizon`
//! (see `Carry::deferring`) above its longest gap between passes plus the time other
//! hosts take to read a roster, so the renewal lands and is read before `E`. A process
//! that does not defer (a one-shot `ctxlake sync`) writes any pending renewal at once.

use std::collections::BTreeMap;

use crate::fleet::presence::PresenceObj;
use crate::spool::{Record, RecordKind};

/// A lease in a roster: (agent, session, repo, path).
pub(super) type LeaseKey = (String, String, String, String);

/// Each lease's expiry in `entries`, by lease.
pub(super) fn expiries(
    entries: &BTreeMap<(String, String), PresenceObj>,
) -> BTreeMap<LeaseKey, i64> {
    let mut out = BTreeMap::new();
    for p in entries.values() {
        for l in &p.leases {
            let key = (
                p.agent.clone(),
                p.session.clone(),
                l.repo.clone(),
                l.path.clone(),
            );
            out.insert(key, l.expires_at_ms);
        }
    }
    out
}

/// How far ahead a written expiry must be for a renewal of a lease with `ttl_ms` to wait.
pub(super) fn margin(ttl_ms: i64, horizon_ms: i64) -> i64 {
    (ttl_ms / 2).max(horizon_ms)
}

/// When applying claim `rec` at lake time `now` turned `before` into `after` by renewals
/// alone (expiries moved, nothing else but the sighting), and every renewed lease's
/// written expiry is more than its margin away: the lake time by which the roster must
/// carry them. `None`: write as any other change (a new path, a new reason, a lease that
/// lapsed, liveness a grain old, or a lease the lake never got).
pub(super) fn deadline(
    rec: &Record,
    before: &PresenceObj,
    after: &PresenceObj,
    written: &BTreeMap<LeaseKey, i64>,
    written_seen: Option<i64>,
    horizon_ms: i64,
    now: i64,
) -> Option<i64> {
    if rec.kind != RecordKind::FleetClaim || before.leases.len() != after.leases.len() {
        return None;
    }
    let seen = written_seen?;
    if after.last_seen_ms.saturating_sub(seen) >= super::LIVENESS_GRAIN_MS {
        return None;
    }
    let mut due = i64::MAX;
    for (b, a) in before.leases.iter().zip(&after.leases) {
        let same = crate::fleet::Lease {
            expires_at_ms: a.expires_at_ms,
            ..b.clone()
        };
        if same != *a {
            return None;
        }
        if a.expires_at_ms == b.expires_at_ms {
            continue;
        }
        let key = (
            after.agent.clone(),
            after.session.clone(),
            a.repo.clone(),
            a.path.clone(),
        );
        let lake = *written.get(&key)?;
        let m = margin(a.expires_at_ms.saturating_sub(now), horizon_ms);
        if lake.saturating_sub(now) <= m {
            return None;
        }
        due = due.min(lake - m);
    }
    let rest = PresenceObj {
        last_seen_ms: before.last_seen_ms,
        leases: before.leases.clone(),
        ..after.clone()
    };
    // A claim that moved no expiry (claimed twice in the same lake millisecond) is
    // written as before: there is nothing to wait for.
    (rest == *before && due < i64::MAX).then_some(due)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fleet::roster::own_tests::rec;
    use serde_json::json;

    const MIN: i64 = 60_000;

    fn claim(id: &str, reason: &str) -> Record {
        let p = json!({"repo": "r", "paths": ["src"], "reason": reason, "ttl_secs": 1800});
        rec(id, "s", "fleet_claim", p)
    }

    /// (deadline, after) of renewing at `now` a lease granted at 0 and written with the
    /// 30-minute expiry of its grant.
    fn renew(now: i64, reason: &str, horizon: i64) -> Option<i64> {
        let mut before = PresenceObj::new(&claim("1", "x"));
        before.apply(&claim("1", "x"), 0);
        let written = expiries(&BTreeMap::from([(
            ("a".into(), "s".into()),
            before.clone(),
        )]));
        let mut after = before.clone();
        after.apply(&claim("2", reason), now);
        deadline(
            &claim("2", reason),
            &before,
            &after,
            &written,
            Some(0),
            horizon,
            now,
        )
    }

    /// Half the TTL left on the lake's copy, or the horizon, whichever is longer: a
    /// renewal waits only while the written expiry is further off, and is due when that
    /// much is left.
    #[test]
    fn a_renewal_waits_only_while_the_written_expiry_is_far() {
        assert_eq!(
            renew(MIN / 2, "x", 0),
            Some(15 * MIN),
            "due with half the TTL left"
        );
        assert_eq!(
            renew(MIN / 2, "x", 20 * MIN),
            Some(10 * MIN),
            "the horizon wins"
        );
        assert_eq!(
            renew(MIN / 2, "x", 30 * MIN),
            None,
            "a horizon past the TTL"
        );
        assert_eq!(
            renew(MIN / 2, "y", 0),
            None,
            "a new reason is written at once"
        );
        assert_eq!(renew(MIN, "x", 0), None, "liveness a grain old is written");
    }

    /// A renewal whose lease the lake does not carry, or one that also grants a new
    /// path, is written at once.
    #[test]
    fn only_a_renewal_of_a_written_lease_waits() {
        let mut before = PresenceObj::new(&claim("1", "x"));
        before.apply(&claim("1", "x"), 0);
        let mut after = before.clone();
        after.apply(&claim("2", "x"), 1_000);
        let none = BTreeMap::new();
        assert_eq!(
            deadline(&claim("2", "x"), &before, &after, &none, Some(0), 0, 1_000),
            None
        );
        let p = json!({"repo": "r", "paths": ["src", "docs"], "reason": "x", "ttl_secs": 1800});
        let both = rec("3", "s", "fleet_claim", p);
        let mut grown = before.clone();
        grown.apply(&both, 1_000);
        let written = expiries(&BTreeMap::from([(
            ("a".into(), "s".into()),
            before.clone(),
        )]));
        assert_eq!(
            deadline(&both, &before, &grown, &written, Some(0), 0, 1_000),
            None
        );
    }
}
