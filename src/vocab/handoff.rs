//! Where a handed-off piece of work stands. `in_progress` is the one spelling printed
//! everywhere; `in-progress` (the CLI's old spelling) is accepted on every input.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::spelled::spelled;

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
pub enum HandoffStatus {
    Done,
    #[serde(alias = "in-progress")]
    #[value(name = "in_progress", alias = "in-progress")]
    InProgress,
    Blocked,
    Abandoned,
}

spelled!(HandoffStatus {
    Done => "done",
    InProgress => "in_progress",
    Blocked => "blocked",
    Abandoned => "abandoned",
});

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn both_spellings_read_and_one_is_written() {
        for s in ["in_progress", "in-progress"] {
            let v: HandoffStatus = serde_json::from_value(serde_json::json!(s)).unwrap();
            assert_eq!(v, HandoffStatus::InProgress);
            assert_eq!(
                HandoffStatus::from_str(s, false),
                Ok(HandoffStatus::InProgress)
            );
        }
        assert_eq!(
            serde_json::to_value(HandoffStatus::InProgress).unwrap(),
            "in_progress"
        );
        for v in HandoffStatus::ALL {
            let name = v.to_possible_value().unwrap();
            assert_eq!(name.get_name(), v.as_str());
        }
    }
}
