//! The promotion gate (DESIGN §4): evidence required; independent sessions = distinct
//! proposing sessions that had not been shown the claim first; `environment`/`outcome`
//! promote at 1, `convention` at 2, `preference` only by a person, `hypothesis` never; a
//! claim that contradicts a promoted one on the same subject makes both CONTESTED (the
//! newest never silently wins), unless one names the other in `supersedes`, they share a
//! key, or a person said one replaces the other: then it is an update, which
//! `memory::supersede` resolves. `fold` is the whole fold of a fleet's events, kept as
//! the reference the incremental fold (`memory::fold`) is held to.

mod full;

use serde_json::Value;

use crate::memory::fold::Links;
use crate::snapshot::rows::{ClaimRow, EventRow};
use crate::vocab::ClaimType;

pub use full::fold;

#[derive(Debug, Default)]
pub struct Folded {
    pub claims: Vec<ClaimRow>,
    pub events: Vec<EventRow>,
}

/// The content-addressed id of a claim: the same words about the same subject are one claim.
pub fn claim_id(subject: &str, text: &str) -> String {
    let norm = |s: &str| {
        s.to_lowercase()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let key = format!(
        "{}\n{}",
        norm(subject),
        norm(text).trim_end_matches(['.', '!'])
    );
    format!("c-{}", &crate::digest::sha256_hex(key.as_bytes())[..10])
}

/// Independent sessions that promote a claim of this type; `None`: the gate never does
/// (a preference waits for a person, a hypothesis stays one).
pub(crate) fn needed(ty: ClaimType) -> Option<usize> {
    match ty {
        ClaimType::Environment | ClaimType::Outcome => Some(1),
        ClaimType::Convention => Some(2),
        ClaimType::Preference | ClaimType::Hypothesis => None,
    }
}

/// Why a proposed claim is still waiting, in the gate's own terms.
pub(crate) fn waiting_because(ty: ClaimType, independent: u32) -> String {
    match (ty, needed(ty)) {
        (ClaimType::Preference, _) => "a preference is promoted only by a person".into(),
        (_, None) => "a hypothesis is never promoted".into(),
        (_, Some(k)) => format!(
            "needs {k} independent session(s), has {independent} (a session that was shown the claim first does not count)"
        ),
    }
}

/// A proposal's claim text, subject and type, if the gate takes it: all three present and
/// valid, and evidence cited (no evidence, no claim — even if an old client spooled it).
pub(crate) fn proposal(p: &Value) -> Option<(&str, &str, ClaimType)> {
    let text = p["claim"].as_str()?;
    let subject = p["subject"].as_str()?;
    let ty = p["type"].as_str().and_then(ClaimType::parse)?;
    let evidence = p["evidence"].as_array().map(Vec::as_slice);
    crate::memory::evidence::check(evidence.unwrap_or_default()).ok()?;
    Some((text, subject, ty))
}

/// What a proposal names besides its claim: the claim ids it `supersedes` and its `key`.
/// Lake content is untrusted: an id or key that breaks the rules is left out, never
/// followed (the tool refuses them before they are written).
pub(crate) fn links(p: &Value) -> Option<Links> {
    let mut supersedes: Vec<String> = p["supersedes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|id| crate::memory::supersede::is_claim_id(id))
        .take(crate::memory::supersede::MAX_SUPERSEDES)
        .map(str::to_string)
        .collect();
    supersedes.sort();
    supersedes.dedup();
    let key = p["key"]
        .as_str()
        .filter(|k| crate::memory::supersede::check_key(k).is_ok())
        .map(str::to_string);
    (!supersedes.is_empty() || key.is_some()).then_some(Links { supersedes, key })
}

#[cfg(test)]
mod tests;
