//! How a session ended, or that it has not: the outcome a session digest reports. A
//! session still unended moves from `running` to `abandoned` with the clock.

use serde::{Deserialize, Serialize};

use crate::spelled::spelled;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionOutcome {
    // Ended, its last command or tool call succeeded.
    Clean,
    // Ended after a failure that nothing fixed.
    Error,
    // Unended and silent for longer than the idle window.
    Abandoned,
    // Unended and recently heard from.
    #[default]
    Running,
}

spelled!(SessionOutcome {
    Clean => "clean",
    Error => "error",
    Abandoned => "abandoned",
    Running => "running",
});

#[cfg(test)]
mod tests {
    use super::*;

    /// The digest's JSON spells each outcome as it did when it was a string.
    #[test]
    fn one_spelling_on_the_wire() {
        for o in SessionOutcome::ALL {
            assert_eq!(serde_json::to_value(o).unwrap(), o.as_str());
            let back: SessionOutcome = serde_json::from_value(o.as_str().into()).unwrap();
            assert_eq!(back, *o);
        }
        let names: Vec<_> = SessionOutcome::ALL.iter().map(|o| o.as_str()).collect();
        assert_eq!(names, ["clean", "error", "abandoned", "running"]);
    }
}
