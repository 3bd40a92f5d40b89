//! The memory vocabularies as types: what a claim is about (`ClaimType`), where it
//! stands with the gate (`ClaimStatus`) and who sees it (`ClaimScope`). Their serde names
//! are the spellings in the lake, the snapshot and every tool, so old data still reads.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::spelled::spelled;

/// What a claim is about; decides how many independent sessions promote it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum ClaimType {
    Environment,
    Convention,
    Outcome,
    Preference,
    Hypothesis,
}

spelled!(ClaimType {
    Environment => "environment",
    Convention => "convention",
    Outcome => "outcome",
    Preference => "preference",
    Hypothesis => "hypothesis",
});

// Variant notes here are plain comments: doc comments would turn the published schema
// from a plain `enum` into a `oneOf` of `const`s.
/// Where a claim stands with the gate.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum ClaimStatus {
    // A candidate: only its proposer's scope.
    Proposed,
    // Passed the gate (or a person promoted it): fleet-visible.
    Promoted,
    // Disputed by a rival claim or a person: still visible, flagged CONTESTED.
    Contested,
    // Withdrawn by a person.
    Retired,
    // Replaced by a newer promoted claim (`superseded_by`): kept, never shown as current.
    Superseded,
}

spelled!(ClaimStatus {
    Proposed => "proposed",
    Promoted => "promoted",
    Contested => "contested",
    Retired => "retired",
    Superseded => "superseded",
});

/// Who sees a claim: its proposer only, or the whole fleet.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum ClaimScope {
    Agent,
    Fleet,
}

spelled!(ClaimScope {
    Agent => "agent",
    Fleet => "fleet",
});

#[cfg(test)]
mod tests {
    use super::*;

    /// `as_str`, `parse` and serde agree, so the macro's spelling is the wire spelling.
    #[test]
    fn spellings_round_trip_through_serde() {
        fn check<T: Copy + PartialEq + std::fmt::Debug + Serialize>(
            all: &[T],
            s: fn(T) -> &'static str,
            p: fn(&str) -> Option<T>,
        ) {
            for &v in all {
                assert_eq!(serde_json::to_value(v).unwrap(), s(v));
                assert_eq!(p(s(v)), Some(v));
            }
        }
        check(ClaimType::ALL, ClaimType::as_str, ClaimType::parse);
        check(ClaimStatus::ALL, ClaimStatus::as_str, ClaimStatus::parse);
        check(ClaimScope::ALL, ClaimScope::as_str, ClaimScope::parse);
        assert_eq!(ClaimStatus::parse("in_review"), None);
        assert_eq!(ClaimType::ALL.len(), 5);
    }
}
