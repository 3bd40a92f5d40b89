//! The word lists the claim readers judge by: auxiliaries, fillers, prepositions, claim
//! verbs, the nouns a number names, units and antonyms, with the folds they drive.

/// Whether `w` is one side of an antonym pair ("enabled", "fails"): a state, not a verb.
pub(crate) fn has_antonym(w: &str) -> bool {
    ANTONYMS
        .iter()
        .any(|(_, same, opposite)| same.contains(&w) || opposite.contains(&w))
}

/// A word folded onto its opposite, and whether that negates the claim.
pub(crate) fn antonym(w: &str) -> (&str, bool) {
    ANTONYMS
        .iter()
        .find_map(|(canon, same, opposite)| {
            if same.contains(&w) {
                Some((*canon, false))
            } else if opposite.contains(&w) {
                Some((*canon, true))
            } else {
                None
            }
        })
        .unwrap_or((w, false))
}

pub(crate) fn stem(w: &str) -> &str {
    match w.strip_suffix('s') {
        Some(st) if w.len() > 3 && !w.ends_with("ss") => st,
        _ => w,
    }
}

/// Auxiliaries carry no content once negation is taken out ("does not need").
pub(super) const AUXILIARIES: &[&str] = &[
    "do", "does", "did", "is", "are", "was", "were", "be", "been", "being", "will", "would", "can",
    "could", "should", "must", "may", "might", "has", "have", "had",
];
pub(super) const FILLERS: &[&str] = &["a", "an", "the", "always", "also", "still", "currently"];
pub(super) const PREPOSITIONS: &[&str] = &[
    "on", "in", "at", "to", "for", "with", "from", "by", "after", "before", "about", "under",
    "over", "behind", "via", "per", "of", "into", "inside", "than", "during", "as",
];
/// Verbs that may open a claim with no subject ("uses Node 20 for builds").
pub(super) const VERBS: &[&str] = &[
    "use", "uses", "need", "needs", "require", "requires", "run", "runs", "take", "takes",
];
/// A number right after one of these names the thing ("issue 42"), whatever its position.
pub(super) const ID_NOUNS: &[&str] = &[
    "issue",
    "pr",
    "pull",
    "ticket",
    "bug",
    "commit",
    "build",
    "job",
    "line",
    "step",
    "stage",
    "phase",
    "migration",
    "item",
    "case",
    "shard",
    "worker",
    "widget",
];
pub(super) const UNITS: &[(&str, &[&str])] = &[
    ("ms", &["ms", "millisecond", "milliseconds"]),
    ("s", &["s", "sec", "secs", "second", "seconds"]),
    ("min", &["min", "mins", "minute", "minutes"]),
    ("h", &["h", "hr", "hrs", "hour", "hours"]),
    ("d", &["d", "day", "days"]),
    ("kb", &["kb", "kib", "kilobytes"]),
    ("mb", &["mb", "mib", "megabytes"]),
    ("gb", &["g", "gb", "gib", "gigabytes"]),
    ("tb", &["tb", "tib", "terabytes"]),
    ("%", &["%", "percent"]),
];
/// (canonical, same sense, opposite sense): "disabled" is "not enabled".
const ANTONYMS: &[(&str, &[&str], &[&str])] = &[
    ("enabled", &["enabled"], &["disabled"]),
    ("enable", &["enable"], &["disable"]),
    ("on", &["on"], &["off"]),
    ("true", &["true"], &["false"]),
    ("required", &["required"], &["optional"]),
    ("supported", &["supported"], &["unsupported"]),
    ("available", &["available"], &["unavailable"]),
    ("allowed", &["allowed"], &["disallowed", "forbidden"]),
    ("set", &["set"], &["unset"]),
    ("public", &["public"], &["private"]),
    ("case-sensitive", &["case-sensitive"], &["case-insensitive"]),
    (
        "pass",
        &[
            "pass",
            "passes",
            "passed",
            "passing",
            "succeed",
            "succeeds",
            "succeeded",
        ],
        &["fail", "fails", "failed", "failing"],
    ),
];
