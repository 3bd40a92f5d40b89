//! Memory that ages (DESIGN §4): which claim replaced which, a pure function of a few
//! claims so the full fold and the incremental one share it. A claim's `supersedes` (ids)
//! and `key` (a slot such as `ci.node-version`) take effect only once the claim is promoted
//! by the usual gate *and* two of its independent sessions named that id or key: a claim
//! one session proposed hides nothing, or one agent could erase the fleet's memory.
//!
//! - **Keys**: the visible claims holding one key form a chain in promotion order; each
//!   claim with the key's power replaces every older one still standing.
//! - **Explicit**: a replacement of a claim that is already superseded points at that
//!   claim's newest successor when it was named after the replacement happened; named
//!   before (two replacements racing), it forks the chain, and the chain never forks
//!   silently: both replacements are CONTESTED.
//! - A superseded claim replaces nothing; an edge from a claim that is not (yet) in effect
//!   leaves its target standing with a pointer to the pending replacement.
//!
//! Probable updates, when an agent gave neither, are `update`'s: flagged, never applied.

pub(crate) mod update;

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// At most this many claim ids in one proposal's `supersedes`.
pub const MAX_SUPERSEDES: usize = 20;
/// The longest key.
pub const MAX_KEY_CHARS: usize = 64;

/// A claim id as the gate mints them: `c-` and 10 lowercase hex digits.
pub fn is_claim_id(id: &str) -> bool {
    id.strip_prefix("c-").is_some_and(|h| {
        h.len() == 10
            && h.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// A key follows the id rules, narrowed: lowercase letters and digits, dots and dashes
/// between them, at most 64 characters (`ci.node-version`).
pub fn check_key(key: &str) -> Result<()> {
    let ok_char = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-';
    let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    let problem = if key.is_empty() {
        Some("is empty")
    } else if key.len() > MAX_KEY_CHARS {
        Some("is longer than 64 characters")
    } else if !key.chars().all(ok_char) {
        Some("holds a character other than a-z, 0-9, `.` and `-`")
    } else if !edge(key.chars().next()) || !edge(key.chars().last()) {
        Some("does not start and end with a letter or digit")
    } else if key.contains("..") || key.contains("--") || key.contains(".-") || key.contains("-.") {
        Some("has two separators in a row")
    } else {
        None
    };
    match problem {
        None => Ok(()),
        Some(p) => Err(Error::refused("invalid_key", format!("key `{key}` {p}"))
            .hint("a key names one single-valued fact, e.g. `ci.node-version`")),
    }
}

/// How a claim named a supersede target or its key.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Naming {
    /// When a proposal first named it (any session).
    pub first: String,
    /// When a second independent session named it: the edge's power, if it has it.
    pub second: Option<String>,
}

/// Where a claim stands before any supersede (after the gate and a person's word).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Standing {
    /// Promoted: it may replace others.
    Promoted,
    /// Contested: visible, an older holder of a key that newer claims replace.
    Contested,
    /// Proposed, waiting for the gate.
    Waiting,
    Retired,
}

/// A proposal's links, checked before it is queued: at most 20 claim ids, none its own,
/// and a key that follows the rules. Refused, never trimmed.
pub fn check_links(own: &str, supersedes: &[String], key: Option<&str>) -> Result<()> {
    if supersedes.len() > MAX_SUPERSEDES {
        return Err(Error::refused(
            "supersedes_too_many",
            format!(
                "{} claims named in `supersedes`; at most {MAX_SUPERSEDES} are accepted",
                supersedes.len()
            ),
        )
        .hint("name the claims this one replaces; nothing was trimmed or queued"));
    }
    if let Some(bad) = supersedes.iter().find(|id| !is_claim_id(id)) {
        return Err(Error::refused(
            "invalid_claim_id",
            format!("`{bad}` in `supersedes` is not a claim id"),
        )
        .hint("claim ids look like `c-1a2b3c4d5e`: copy them from search results"));
    }
    if supersedes.iter().any(|id| id == own) {
        return Err(Error::refused(
            "supersedes_itself",
            format!("the claim is `{own}`: it cannot replace itself"),
        )
        .hint("name the older claim this one replaces"));
    }
    match key {
        Some(k) => check_key(k),
        None => Ok(()),
    }
}

/// What one claim brings to the resolution.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub id: String,
    pub first_id: String,
    pub standing: Standing,
    /// When it was promoted (`Promoted`), else when it was first proposed.
    pub since: String,
    pub key: Option<(String, Naming)>,
    pub supersedes: Vec<(String, Naming)>,
}

/// What the resolution left on one claim.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Outcome {
    /// (by, at): the claim that replaced it, and when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superseded: Option<(String, String)>,
    /// (at, other): contested with another replacement of the same claim.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forks: Vec<(String, String)>,
    /// A newer claim that names it (or holds its key) but is not in effect yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<String>,
}

struct Edge<'a> {
    at: String,
    src: &'a Node,
    tgt: &'a Node,
    /// When `src` first named the target (or the key).
    named: &'a str,
    keyed: bool,
}

/// Resolve `nodes` (any order; a closed set: every claim an edge of theirs can reach).
/// Only claims with something to show are in the result.
pub(crate) fn resolve(nodes: &[Node]) -> BTreeMap<String, Outcome> {
    let by_id: HashMap<&str, &Node> = nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let mut edges = explicit_edges(nodes, &by_id);
    edges.extend(key_edges(nodes));
    edges.sort_by(|a, b| {
        (&a.at, &a.src.first_id, &a.tgt.first_id, a.keyed).cmp(&(
            &b.at,
            &b.src.first_id,
            &b.tgt.first_id,
            b.keyed,
        ))
    });
    let mut succ: HashMap<&str, (&str, String)> = HashMap::new();
    let mut out: BTreeMap<String, Outcome> = BTreeMap::new();
    for e in &edges {
        let (src, tgt) = (e.src.id.as_str(), e.tgt.id.as_str());
        if succ.contains_key(src) {
            continue; // a superseded claim replaces nothing
        }
        match succ.get(tgt).cloned() {
            None => {
                succ.insert(tgt, (src, e.at.clone()));
            }
            Some((prev, _)) if prev == src => {}
            // A key's chain is ordered by promotion: an older holder already replaced
            // stays pointing at its own successor.
            Some(_) if e.keyed => {}
            Some((_, when)) if e.named >= when.as_str() => {
                // Named after the target was replaced: its newest successor is meant.
                let head = head(&succ, tgt, nodes.len());
                if head != src {
                    succ.insert(head, (src, e.at.clone()));
                }
            }
            Some((prev, _)) => {
                for (a, b) in [(prev, src), (src, prev)] {
                    let forks = &mut out.entry(a.to_string()).or_default().forks;
                    if !forks.iter().any(|(_, o)| o == b) {
                        forks.push((e.at.clone(), b.to_string()));
                    }
                }
            }
        }
    }
    for (tgt, (src, at)) in &succ {
        out.entry(tgt.to_string()).or_default().superseded = Some((src.to_string(), at.clone()));
    }
    for n in nodes.iter().filter(|n| !succ.contains_key(n.id.as_str())) {
        if let Some(p) = pending(n, nodes, &succ) {
            out.entry(n.id.clone()).or_default().pending = Some(p);
        }
    }
    out
}

/// The newest successor of `id` (itself when nothing replaced it).
fn head<'a>(succ: &HashMap<&'a str, (&'a str, String)>, id: &'a str, bound: usize) -> &'a str {
    let mut cur = id;
    for _ in 0..=bound {
        match succ.get(cur) {
            Some((next, _)) => cur = next,
            None => break,
        }
    }
    cur
}

fn max(a: &str, b: &str) -> String {
    a.max(b).to_string()
}

/// `src` replaces each target it named, from when it is promoted and a second
/// independent session named the target.
fn explicit_edges<'a>(nodes: &'a [Node], by_id: &HashMap<&str, &'a Node>) -> Vec<Edge<'a>> {
    let mut out = Vec::new();
    for n in nodes.iter().filter(|n| n.standing == Standing::Promoted) {
        for (target, naming) in &n.supersedes {
            let (Some(second), Some(t)) = (&naming.second, by_id.get(target.as_str())) else {
                continue;
            };
            if t.id != n.id {
                out.push(Edge {
                    at: max(&n.since, second),
                    src: n,
                    tgt: t,
                    named: &naming.first,
                    keyed: false,
                });
            }
        }
    }
    out
}

/// Each visible holder of a key, in promotion order, with the key's power replaces every
/// older holder.
fn key_edges(nodes: &[Node]) -> Vec<Edge<'_>> {
    let mut slots: BTreeMap<&str, Vec<&Node>> = BTreeMap::new();
    for n in nodes {
        if let (Some((k, _)), Standing::Promoted | Standing::Contested) = (&n.key, n.standing) {
            slots.entry(k).or_default().push(n);
        }
    }
    let mut out = Vec::new();
    for (_, mut holders) in slots {
        holders.sort_by(|a, b| (&a.since, &a.first_id).cmp(&(&b.since, &b.first_id)));
        for (i, m) in holders.iter().enumerate() {
            let Some((_, naming)) = &m.key else { continue };
            let Some(second) = naming
                .second
                .as_deref()
                .filter(|_| m.standing == Standing::Promoted)
            else {
                continue;
            };
            for p in &holders[..i] {
                out.push(Edge {
                    at: max(&m.since, second),
                    src: m,
                    tgt: p,
                    named: &naming.first,
                    keyed: true,
                });
            }
        }
    }
    out
}

/// The newest claim that names `n` (or holds its key, proposed after it) without having
/// replaced it: a replacement still waiting for the gate or a second session.
fn pending(n: &Node, nodes: &[Node], succ: &HashMap<&str, (&str, String)>) -> Option<String> {
    let key = n.key.as_ref().map(|(k, _)| k);
    nodes
        .iter()
        .filter(|x| x.id != n.id && x.standing != Standing::Retired)
        .filter(|x| !succ.contains_key(x.id.as_str()))
        .filter(|x| {
            x.supersedes.iter().any(|(t, _)| *t == n.id)
                || (key.is_some()
                    && x.key.as_ref().map(|(k, _)| k) == key
                    && x.first_id > n.first_id)
        })
        .max_by(|a, b| a.first_id.cmp(&b.first_id))
        .map(|x| x.id.clone())
}

#[cfg(test)]
mod tests;
