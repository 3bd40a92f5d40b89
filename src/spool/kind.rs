//! What a spool record is: the tool or hook event that wrote it. Spelled on disk exactly
//! as before (`fleet_claim`, `memory_propose`, `hook_session_start`, …); a kind this build
//! does not know (a newer writer's) reads as `Other`, never as a failed read.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RecordKind {
    FleetClaim,
    FleetRelease,
    FleetHandoff,
    MemoryPropose,
    MemoryShown,
    MemoryOperator,
    HookSessionStart,
    HookPrompt,
    HookPreTool,
    HookPostTool,
    HookToolFailed,
    HookStop,
    HookSessionEnd,
    HookOther,
    /// Kept verbatim so the record still drains and round-trips.
    Other(String),
}

const KNOWN: &[(RecordKind, &str)] = &[
    (RecordKind::FleetClaim, "fleet_claim"),
    (RecordKind::FleetRelease, "fleet_release"),
    (RecordKind::FleetHandoff, "fleet_handoff"),
    (RecordKind::MemoryPropose, "memory_propose"),
    (RecordKind::MemoryShown, "memory_shown"),
    (RecordKind::MemoryOperator, "memory_operator"),
    (RecordKind::HookSessionStart, "hook_session_start"),
    (RecordKind::HookPrompt, "hook_prompt"),
    (RecordKind::HookPreTool, "hook_pre_tool"),
    (RecordKind::HookPostTool, "hook_post_tool"),
    (RecordKind::HookToolFailed, "hook_tool_failed"),
    (RecordKind::HookStop, "hook_stop"),
    (RecordKind::HookSessionEnd, "hook_session_end"),
    (RecordKind::HookOther, "hook_other"),
];

impl RecordKind {
    pub fn as_str(&self) -> &str {
        match self {
            RecordKind::Other(s) => s,
            k => KNOWN
                .iter()
                .find(|(v, _)| v == k)
                .map_or("other", |(_, s)| s),
        }
    }
    /// Written by `ctxlake hook` (whatever the event).
    pub fn is_hook(&self) -> bool {
        self.as_str().starts_with("hook_")
    }
}

impl From<&str> for RecordKind {
    fn from(s: &str) -> Self {
        KNOWN
            .iter()
            .find(|(_, name)| *name == s)
            .map_or_else(|| RecordKind::Other(s.to_string()), |(k, _)| k.clone())
    }
}

impl Serialize for RecordKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for RecordKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = std::borrow::Cow::<str>::deserialize(d)?;
        Ok(RecordKind::from(s.as_ref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_round_trips_and_unknown_kinds_survive() {
        for (k, s) in KNOWN {
            assert_eq!(serde_json::to_value(k).unwrap(), *s);
            assert_eq!(
                serde_json::from_value::<RecordKind>((*s).into()).unwrap(),
                *k
            );
        }
        let odd: RecordKind = serde_json::from_value("memory_vote".into()).unwrap();
        assert_eq!(odd, RecordKind::Other("memory_vote".into()));
        assert_eq!(serde_json::to_value(&odd).unwrap(), "memory_vote");
        assert!(RecordKind::HookStop.is_hook() && !RecordKind::FleetClaim.is_hook());
    }
}
