//! Pass 2 of the gate, one contradiction group at a time. The full fold walks every claim
//! in first-appearance order, but a claim only ever meets promoted claims with the same
//! lowercased subject and the same content words (`Statement::words`): so the gate's
//! result for a group depends on that group's claims alone, and a new event re-runs the
//! gate only for the groups it touched.

use std::collections::BTreeSet;

use super::claim::{Claim, GateEvent, Gated};
use crate::memory::contradiction::Statement;
use crate::vocab::{ClaimScope, ClaimStatus};

/// The group a claim's gate decision depends on, as the full fold keys it: the subject
/// lowercased and the statement's content words (empty: it can contradict nothing).
pub(crate) fn key(subject: &str, text: &str) -> (String, BTreeSet<String>, Statement) {
    let statement = Statement::parse(text);
    let words = statement.words().cloned().unwrap_or_default();
    (subject.to_lowercase(), words, statement)
}

/// A stable 64-bit name for a group key, stored with each claim to find its group's
/// members again. Two keys sharing a name only cost a larger recompute: `decide`
/// separates them by the full key.
/// `words`: sorted, each once (as a set iterates).
pub(crate) fn name<'a>(subject: &str, words: impl IntoIterator<Item = &'a str>) -> u64 {
    let mut text = subject.to_string();
    for w in words {
        text.push('\u{1}');
        text.push_str(w);
    }
    crate::digest::sha256_u64(text.as_bytes())
}

/// One member of a group as pass 2 sees it.
pub(crate) struct Member<'a> {
    pub id: &'a str,
    pub claim: &'a Claim,
    /// When it would promote on its own (enough independent sessions), if it would.
    pub promotes_at: Option<String>,
    /// The claims it names in `supersedes` or a person said replace it.
    pub ties: &'a BTreeSet<String>,
}

/// Two claims tied by `supersedes`, a person's supersede or a shared key: an update, which
/// the supersede resolution settles, never a contradiction.
fn tied(a: &Member, b: &Member) -> bool {
    let key = a.claim.key();
    a.ties.contains(b.id) || b.ties.contains(a.id) || (key.is_some() && key == b.claim.key())
}

/// Pass 2 over `members` (any order; they are taken in first-appearance order, and split
/// by their full group key): what the gate leaves on each, by claim id.
pub(crate) fn decide(members: &[Member]) -> Vec<(String, Gated)> {
    // Alone in its group, a claim meets no rival: its text need not be read again.
    if let [m] = members {
        let mut g = Gated::default();
        promote(m, &mut g);
        return vec![(m.id.to_string(), g)];
    }
    let mut sorted: Vec<&Member> = members.iter().collect();
    sorted.sort_by(|a, b| a.claim.first_id().cmp(b.claim.first_id()));
    let keyed: Vec<_> = sorted
        .iter()
        .map(|m| key(&m.claim.subject, &m.claim.text))
        .collect();
    let mut out: Vec<(String, Gated)> = sorted
        .iter()
        .map(|m| (m.id.to_string(), Gated::default()))
        .collect();
    // (subject, words) → the promoted claims still standing: (index into `sorted`).
    type Key<'k> = (&'k String, &'k BTreeSet<String>);
    let mut promoted: Vec<(Key, Vec<usize>)> = Vec::new();
    for (i, m) in sorted.iter().enumerate() {
        let (subject, words, statement) = &keyed[i];
        let slot = match promoted.iter().position(|(k, _)| *k == (subject, words)) {
            Some(p) => p,
            None => {
                promoted.push(((subject, words), Vec::new()));
                promoted.len() - 1
            }
        };
        let rivals: Vec<usize> = promoted[slot]
            .1
            .iter()
            .copied()
            .filter(|&r| keyed[r].2.contradicts(statement) && !tied(sorted[r], m))
            .collect();
        if !rivals.is_empty() {
            let at = m.claim.created_at().to_string();
            let by = m.claim.first_id().to_string();
            for (place, r) in rivals.iter().copied().chain([i]).enumerate() {
                let g = &mut out[r].1;
                g.status = ClaimStatus::Contested;
                g.scope = ClaimScope::Fleet;
                let ev = GateEvent(
                    at.clone(),
                    "claim_contested".into(),
                    by.clone(),
                    place as u32,
                );
                g.events.push(ev);
            }
            promoted[slot].1.retain(|p| !rivals.contains(p));
            continue;
        }
        if promote(m, &mut out[i].1) && statement.words().is_some() {
            promoted[slot].1.push(i);
        }
    }
    out
}

/// Promote `m` into `g` if it would promote on its own; whether it did.
fn promote(m: &Member, g: &mut Gated) -> bool {
    let Some(at) = &m.promotes_at else {
        return false;
    };
    g.status = ClaimStatus::Promoted;
    g.scope = ClaimScope::Fleet;
    g.promoted_at = Some(at.clone());
    let by = m.claim.first_id().to_string();
    g.events
        .push(GateEvent(at.clone(), "claim_promoted".into(), by, 0));
    true
}
