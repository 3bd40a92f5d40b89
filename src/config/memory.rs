//! The `[memory]` settings that are more than a number: the mode, the embedder and how
//! long a claim of each type stays fresh.

use toml_edit::Item;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum MemoryMode {
    /// Promoted claims are visible (default).
    #[default]
    On,
    /// A snapshot is published but nothing in it is agent-visible.
    Shadow,
    /// No snapshot is published.
    Off,
}

crate::spelled::spelled!(MemoryMode {
    On => "on",
    Shadow => "shadow",
    Off => "off",
});

/// `[memory] embedder`: what makes the snapshot's claim vectors and the query's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EmbedderKind {
    /// all-MiniLM-L6-v2 when its model is installed, else the hash (default: a fresh
    /// machine works offline, and installing the model is all it takes to go semantic).
    #[default]
    Auto,
    /// The built-in word + trigram hash: needs no model.
    Hash,
    /// all-MiniLM-L6-v2 from `[memory] model_dir`.
    MiniLm,
}

impl EmbedderKind {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "auto" => Some(Self::Auto),
            "hash" => Some(Self::Hash),
            "minilm" => Some(Self::MiniLm),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Hash => "hash",
            Self::MiniLm => "minilm",
        }
    }
}

/// `[memory] stale_after_days`: per claim type, how many days without a new proposal of a
/// claim before its rendered line says "unconfirmed for N days". Environment facts and
/// outcomes (versions, URLs, flaky tests, timings) change within weeks; conventions and
/// preferences within months or years; a hypothesis is worth re-checking soon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaleAfter {
    pub environment: u64,
    pub convention: u64,
    pub outcome: u64,
    pub preference: u64,
    pub hypothesis: u64,
}

impl Default for StaleAfter {
    fn default() -> Self {
        StaleAfter {
            environment: 30,
            convention: 180,
            outcome: 14,
            preference: 365,
            hypothesis: 14,
        }
    }
}

/// What `[memory] stale_after_days` must be, when it is not: the config error names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum StaleAfterWant {
    /// Not a table at all.
    Table,
    /// This key's value is not a positive whole number of days.
    PositiveDays(String),
    /// This key is not a claim type.
    ClaimType(String),
}

impl std::fmt::Display for StaleAfterWant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Table => f.write_str("a table of days by claim type"),
            Self::PositiveDays(k) => {
                write!(f, "a table of positive day counts (`{k}` is not one)")
            }
            Self::ClaimType(k) => write!(f, "a table keyed by claim type (`{k}` is not one)"),
        }
    }
}

impl StaleAfter {
    /// From a table (`[memory.stale_after_days]`) or an inline one (`stale_after_days =
    /// {…}`) of positive day counts by claim type; `Err`: what the value must be.
    pub(super) fn parse(item: Option<&Item>) -> std::result::Result<StaleAfter, StaleAfterWant> {
        let mut out = StaleAfter::default();
        let Some(item) = item else {
            return Ok(out);
        };
        let table = item.as_table_like().ok_or(StaleAfterWant::Table)?;
        for (k, v) in table.iter() {
            let days = v
                .as_integer()
                .filter(|n| *n > 0)
                .ok_or_else(|| StaleAfterWant::PositiveDays(k.to_string()))?;
            let ty = crate::vocab::ClaimType::parse(k)
                .ok_or_else(|| StaleAfterWant::ClaimType(k.to_string()))?;
            use crate::vocab::ClaimType as T;
            let slot = match ty {
                T::Environment => &mut out.environment,
                T::Convention => &mut out.convention,
                T::Outcome => &mut out.outcome,
                T::Preference => &mut out.preference,
                T::Hypothesis => &mut out.hypothesis,
            };
            *slot = days as u64;
        }
        Ok(out)
    }

    pub fn days(&self, ty: crate::vocab::ClaimType) -> u64 {
        use crate::vocab::ClaimType as T;
        match ty {
            T::Environment => self.environment,
            T::Convention => self.convention,
            T::Outcome => self.outcome,
            T::Preference => self.preference,
            T::Hypothesis => self.hypothesis,
        }
    }
}
