//! Lease arithmetic, derived at read time (no compare-and-swap anywhere): among unexpired
//! leases that overlap, the holder is the earliest grant (ties by agent, then session);
//! every other claimant is `contended`. Overlap is judged conservatively: a directory
//! covers everything below it, and a glob covers everything below its literal prefix.

use super::lease::{Holder, Lease};

/// The part of a path pattern that surely matches: `src/**/*.rs` → `src`, `*.md` → ``.
pub fn cover(path: &str) -> &str {
    let cut = path
        .find(['*', '?', '[', '{'])
        .map_or(path.len(), |i| path[..i].rfind('/').unwrap_or(0));
    path[..cut].trim_end_matches('/')
}

/// Whether two repo-relative patterns may touch the same file.
pub fn overlaps(a: &str, b: &str) -> bool {
    let (a, b) = (cover(a), cover(b));
    a == b || is_under(a, b) || is_under(b, a)
}

fn is_under(child: &str, dir: &str) -> bool {
    dir.is_empty()
        || (child.len() > dir.len()
            && child.starts_with(dir)
            && child.as_bytes()[dir.len()] == b'/')
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    Held,
    /// Contended: an earlier grant by this holder overlaps it.
    Contended(Holder),
}

/// A lease's standing as the tools report it (the holder goes in its own field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LeaseState {
    // This claimant holds it: the earliest unexpired grant among overlapping leases.
    Held,
    // Someone else's earlier grant overlaps it.
    Contended,
}

crate::spelled::spelled!(LeaseState {
    Held => "held",
    Contended => "contended",
});

impl State {
    pub fn reported(&self) -> LeaseState {
        match self {
            State::Held => LeaseState::Held,
            State::Contended(..) => LeaseState::Contended,
        }
    }
}

/// One live lease's standing, by its index in the leases resolved.
#[derive(Debug, Clone)]
pub struct Standing {
    pub lease: usize,
    pub state: State,
}

/// Resolve every lease of `leases` live at lake time `now_ms` (expired ones get no
/// standing).
///
/// Leases are grouped by (repo, cover) in a sorted list; each group meets only its
/// ancestors (binary search per path prefix) and descendants (a sorted range), so the
/// cost is about n·log n rather than n² — it runs in every hook and status call.
pub fn resolve(leases: &[Lease], now_ms: i64) -> Vec<Standing> {
    // (grant time, agent, session): the earliest holds.
    type Key<'a> = (i64, &'a str, &'a str);
    // (repo, cover, grant key, lease index)
    let mut live: Vec<(&str, &str, Key, usize)> = Vec::new();
    for (li, l) in leases.iter().enumerate() {
        if l.is_live(now_ms) {
            let h = &l.holder;
            live.push((
                l.repo.as_str(),
                cover(&l.path),
                (l.granted_at_ms, h.agent.as_str(), h.session.as_str()),
                li,
            ));
        }
    }
    live.sort_unstable_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    // One group per distinct (repo, cover), holding the earliest grant among its leases.
    let mut groups: Vec<(&str, &str, Key)> = Vec::new();
    let mut group_of = Vec::with_capacity(live.len());
    for x in &live {
        match groups.last_mut() {
            Some(g) if g.0 == x.0 && g.1 == x.1 => g.2 = g.2.min(x.2),
            _ => groups.push((x.0, x.1, x.2)),
        }
        group_of.push(groups.len() - 1);
    }
    let find = |repo: &str, c: &str| groups.binary_search_by(|g| (g.0, g.1).cmp(&(repo, c))).ok();
    let winners: Vec<Key> = groups
        .iter()
        .map(|&(repo, c, own)| {
            let mut best = own;
            // Ancestors: every proper prefix at a `/`, and the whole repo ("").
            let mut end = c.len();
            while end > 0 {
                end = c[..end].rfind('/').unwrap_or(0);
                if let Some(i) = find(repo, &c[..end]) {
                    best = best.min(groups[i].2);
                }
            }
            // Descendants: covers starting with `c/` (or everything, for the whole repo).
            let lo = if c.is_empty() {
                String::new()
            } else {
                format!("{c}/")
            };
            let start = groups.partition_point(|g| (g.0, g.1) < (repo, lo.as_str()));
            for g in &groups[start..] {
                if g.0 != repo || !g.1.starts_with(lo.as_str()) {
                    break;
                }
                best = best.min(g.2);
            }
            best
        })
        .collect();
    live.iter()
        .zip(group_of)
        .map(|(x, g)| {
            let best = winners[g];
            let h = &leases[x.3].holder;
            let state = if best.1 == h.agent && best.2 == h.session {
                State::Held
            } else {
                State::Contended(Holder {
                    agent: best.1.to_string(),
                    session: best.2.to_string(),
                })
            };
            Standing { lease: x.3, state }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lease of agent `agent` (session `s`) granted and expiring at these times of
    /// 2026-11-29 (`HH:MM:SS`).
    fn lease(agent: &str, path: &str, granted: &str, exp: &str) -> Lease {
        let at = |t: &str| crate::time::parse_rfc3339(&format!("2026-11-29T{t}Z")).unwrap();
        Lease {
            repo: "r".into(),
            path: path.into(),
            holder: Holder {
                agent: agent.into(),
                session: "s".into(),
            },
            reason: "x".into(),
            granted_at_ms: at(granted),
            expires_at_ms: at(exp),
        }
    }

    /// The indexed resolution must agree with the obvious quadratic one.
    #[test]
    fn matches_brute_force_on_random_rosters() {
        let paths = [
            "",
            "src",
            "src/a",
            "src/a/x.rs",
            "src/a-b",
            "src/a-b/y",
            "src/b",
            "docs",
            "docs/*.md",
            "src/**/*.rs",
            "*.md",
        ];
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..200 {
            let mut leases = Vec::new();
            for a in 0..1 + next(6) {
                for _ in 0..next(4) {
                    let mut l = lease(
                        &format!("a{a}"),
                        paths[next(paths.len() as u64) as usize],
                        &format!("09:{:02}:00", next(3)),
                        "11:00:00",
                    );
                    l.repo = format!("r{}", next(2));
                    leases.push(l);
                }
            }
            let got = resolve(&leases, 0);
            assert_eq!(got.len(), leases.len(), "every lease is live at 0");
            for s in &got {
                let me = &leases[s.lease];
                let best = leases
                    .iter()
                    .filter(|l| l.repo == me.repo && overlaps(&l.path, &me.path))
                    .map(|l| (l.granted_at_ms, l.holder.clone()))
                    .min()
                    .unwrap();
                let want = if best.1 == me.holder {
                    State::Held
                } else {
                    State::Contended(best.1)
                };
                assert_eq!(s.state, want, "{} {:?}", me.path, leases);
            }
        }
    }

    #[test]
    fn overlap_rules() {
        assert!(overlaps("src", "src/lib.rs"));
        assert!(overlaps("src/lib.rs", "src"));
        assert!(overlaps("src/**/*.rs", "src/a/b.rs"));
        assert!(
            overlaps("*.md", "docs/x.rs"),
            "a glob at the root covers everything, conservatively"
        );
        assert!(!overlaps("src", "srcx/a"));
        assert!(!overlaps("src/a", "src/b"));
        assert!(overlaps("", "anything"));
    }

    #[test]
    fn earliest_grant_holds_and_ties_go_by_agent() {
        let now = crate::time::parse_rfc3339("2026-11-29T10:00:00Z").unwrap();
        let leases = vec![
            lease("b", "src", "09:00:00", "11:00:00"),
            lease("a", "src/lib.rs", "09:00:00", "11:00:00"),
            lease("c", "src/x", "08:00:00", "09:30:00"), // expired
            lease("d", "docs", "09:30:00", "11:00:00"),
            lease("e", "docs/x", "08:00:00", "10:00:00"), // expires at exactly now
        ];
        let r = resolve(&leases, now);
        assert_eq!(r.len(), 3);
        let state = |li: usize| r.iter().find(|s| s.lease == li).map(|s| s.state.clone());
        assert_eq!(state(1), Some(State::Held));
        let a = Holder {
            agent: "a".into(),
            session: "s".into(),
        };
        assert_eq!(state(0), Some(State::Contended(a)));
        assert_eq!(state(2), None);
        assert_eq!(
            state(3),
            Some(State::Held),
            "an expired lease holds nothing"
        );
        assert_eq!(state(4), None);
    }
}
