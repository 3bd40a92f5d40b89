//! Lease arithmetic, derived at read time (no compare-and-swap anywhere): among unexpired
//! leases that overlap, the holder is the earliest grant (ties by agent, then session);
//! every other claimant is `contended`. Overlap is judged conservatively: a directory
//! covers everything below it, and a glob covers everything below its literal prefix.

use std::collections::{BTreeMap, HashMap};

use crate::cache::{Lease, Presence};

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
    /// Contended: (holder agent, holder session).
    Contended(String, String),
}

/// One lease's standing, by (agent index, lease index) into the roster.
#[derive(Debug, Clone)]
pub struct Standing {
    pub agent: usize,
    pub lease: usize,
    pub state: State,
}

/// Resolve every unexpired lease in `agents` at lake time `now_ms`.
pub fn resolve(agents: &[Presence], now_ms: i64) -> Vec<Standing> {
    struct Live<'a> {
        agent: usize,
        lease: usize,
        l: &'a Lease,
        key: (i64, &'a str, &'a str),
    }
    let mut live = Vec::new();
    for (ai, p) in agents.iter().enumerate() {
        for (li, l) in p.leases.iter().enumerate() {
            let exp = crate::time::parse_rfc3339(&l.expires_at).unwrap_or(i64::MIN);
            if exp > now_ms {
                let granted = crate::time::parse_rfc3339(&l.granted_at).unwrap_or(i64::MAX);
                live.push(Live {
                    agent: ai,
                    lease: li,
                    l,
                    key: (granted, &p.agent, &p.session),
                });
            }
        }
    }
    // Index covers per repo so each lease meets only its ancestors and descendants.
    let mut by_cover: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
    let mut sorted: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    for (i, x) in live.iter().enumerate() {
        let c = cover(&x.l.path);
        by_cover.entry((&x.l.repo, c)).or_default().push(i);
        sorted.entry((&x.l.repo, c)).or_default().push(i);
    }
    live.iter()
        .map(|x| {
            let repo = x.l.repo.as_str();
            let c = cover(&x.l.path);
            let mut best = x.key;
            let mut consider = |j: usize| {
                if live[j].key < best {
                    best = live[j].key;
                }
            };
            // Ancestors (and the exact cover).
            let mut prefix_end = Some(c.len());
            while let Some(end) = prefix_end {
                if let Some(v) = by_cover.get(&(repo, &c[..end])) {
                    v.iter().for_each(|j| consider(*j));
                }
                prefix_end = if end == 0 {
                    None
                } else {
                    Some(c[..end].rfind('/').unwrap_or(0))
                };
            }
            // Descendants.
            let lo = if c.is_empty() {
                String::new()
            } else {
                format!("{c}/")
            };
            for ((r, k), v) in sorted.range((repo, lo.as_str())..) {
                if *r != repo || !(c.is_empty() || k.starts_with(lo.as_str())) {
                    break;
                }
                v.iter().for_each(|j| consider(*j));
            }
            let p = &agents[x.agent];
            let state = if best.1 == p.agent && best.2 == p.session {
                State::Held
            } else {
                State::Contended(best.1.to_string(), best.2.to_string())
            };
            Standing {
                agent: x.agent,
                lease: x.lease,
                state,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lease(path: &str, granted: &str, exp: &str) -> Lease {
        Lease {
            repo: "r".into(),
            path: path.into(),
            reason: "x".into(),
            granted_at: format!("2026-11-29T{granted}Z"),
            expires_at: format!("2026-11-29T{exp}Z"),
        }
    }
    fn agent(name: &str, leases: Vec<Lease>) -> Presence {
        Presence {
            agent: name.into(),
            session: "s".into(),
            last_seen: "x".into(),
            leases,
            ..Presence::default()
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
        let agents = vec![
            agent("b", vec![lease("src", "09:00:00", "11:00:00")]),
            agent("a", vec![lease("src/lib.rs", "09:00:00", "11:00:00")]),
            agent("c", vec![lease("src/x", "08:00:00", "09:30:00")]), // expired
            agent("d", vec![lease("docs", "09:30:00", "11:00:00")]),
        ];
        let r = resolve(&agents, now);
        assert_eq!(r.len(), 3);
        let state = |ai: usize| r.iter().find(|s| s.agent == ai).map(|s| s.state.clone());
        assert_eq!(state(1), Some(State::Held));
        assert_eq!(state(0), Some(State::Contended("a".into(), "s".into())));
        assert_eq!(state(2), None);
        assert_eq!(state(3), Some(State::Held));
    }
}
