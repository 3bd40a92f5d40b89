//! A claim's final standing, shared by the full fold and the incremental one: the gate's
//! result, then in time order what the supersede resolution decided about it (replaced,
//! or contested as a fork of a chain) and a person's words, which are final when later.
//! Without the resolution (`links: None`) it is the standing the resolution starts from.

use super::claim::{Gated, Op, SortKey};
use crate::memory::supersede::Outcome;
use crate::vocab::{ClaimScope, ClaimStatus};

/// A timeline entry `settle` adds: (kind, agent, session, what is added to the claim's
/// text, the other claim it names).
pub(crate) struct Entry {
    pub at: String,
    pub kind: &'static str,
    pub agent: String,
    pub session: String,
    pub note: Option<String>,
    pub related: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Settled {
    pub status: ClaimStatus,
    pub scope: ClaimScope,
    pub promoted_at: Option<String>,
    /// (by, at)
    pub superseded: Option<(String, String)>,
}

/// Sort pass of the resolution's entries and of a person's words (after the gate's 2).
const LINKS: u8 = 3;
const PERSON: u8 = 4;

/// Settle a claim first proposed as `first_id`. `known` says whether a claim id exists
/// (a person's `supersede` naming no claim is ignored).
pub(crate) fn settle(
    first_id: &str,
    gated: &Gated,
    links: Option<&Outcome>,
    ops: &[Op],
    known: &dyn Fn(&str) -> bool,
) -> (Settled, Vec<(SortKey, Entry)>) {
    let mut steps: Vec<(SortKey, Entry)> = Vec::new();
    if let Some(l) = links {
        if let Some((by, at)) = &l.superseded {
            let e = entry(
                at,
                "claim_superseded",
                "gate",
                "gate",
                Some(format!("superseded by {by}")),
                Some(by),
            );
            steps.push(((at.clone(), LINKS, first_id.to_string(), 0), e));
        }
        for (n, (at, other)) in l.forks.iter().enumerate() {
            let note = format!("contested: {other} replaces the same claim");
            let e = entry(
                at,
                "claim_contested",
                "gate",
                "gate",
                Some(note),
                Some(other),
            );
            steps.push(((at.clone(), LINKS, first_id.to_string(), 1 + n as u32), e));
        }
    }
    for Op(oid, at, agent, session, action, reason, by) in ops {
        let reason = reason.as_ref().map(|r| format!("reason: {r}"));
        let (kind, note, related) = match (action.as_str(), by) {
            ("promote", _) => ("claim_promoted", reason, None),
            ("contest", _) => ("claim_contested", reason, None),
            ("retire", _) => ("claim_retired", reason, None),
            ("keep", _) if links.is_some() => ("claim_kept", Some(join("kept", reason)), None),
            ("supersede", Some(b)) if links.is_some() && known(b) => {
                let note = join(&format!("superseded by {b}"), reason);
                ("claim_superseded", Some(note), Some(b))
            }
            _ => continue,
        };
        let e = entry(at, kind, agent, session, note, related);
        steps.push(((at.clone(), PERSON, oid.clone(), 0), e));
    }
    steps.sort_by(|a, b| a.0.cmp(&b.0));
    let mut s = Settled {
        status: gated.status,
        scope: gated.scope,
        promoted_at: gated.promoted_at.clone(),
        superseded: None,
    };
    for (key, e) in &steps {
        match e.kind {
            "claim_superseded" => {
                let by = e.related.clone().unwrap_or_default();
                s.status = ClaimStatus::Superseded;
                s.superseded = Some((by, e.at.clone()));
            }
            // A fork contests a claim still standing, never one already replaced.
            "claim_contested" if key.1 == LINKS && s.status == ClaimStatus::Superseded => {}
            "claim_contested" => {
                s.status = ClaimStatus::Contested;
                s.scope = ClaimScope::Fleet;
                s.superseded = None;
            }
            "claim_promoted" => {
                s.status = ClaimStatus::Promoted;
                s.scope = ClaimScope::Fleet;
                s.promoted_at = Some(e.at.clone());
                s.superseded = None;
            }
            "claim_retired" => {
                s.status = ClaimStatus::Retired;
                s.superseded = None;
            }
            _ => {}
        }
    }
    (s, steps)
}

fn entry(
    at: &str,
    kind: &'static str,
    agent: &str,
    session: &str,
    note: Option<String>,
    related: Option<&String>,
) -> Entry {
    Entry {
        at: at.into(),
        kind,
        agent: agent.into(),
        session: session.into(),
        note,
        related: related.cloned(),
    }
}

fn join(what: &str, reason: Option<String>) -> String {
    match reason {
        Some(r) => format!("{what}; {r}"),
        None => what.into(),
    }
}
