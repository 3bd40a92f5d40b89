//! Contradiction detection between two claims on one subject (DESIGN §4): the gate makes both
//! claims CONTESTED when a new claim contradicts a promoted one.

use std::collections::HashSet;

/// A claim's text prepared once for many comparisons: content words and whether it is negated.
#[derive(Debug, Clone)]
pub(crate) struct Statement {
    words: HashSet<String>,
    negated: bool,
}

impl Statement {
    /// Words without negators and auxiliaries, crudely singularized, and whether the
    /// sentence is negated (odd count).
    pub(crate) fn parse(s: &str) -> Self {
        let s = s
            .to_lowercase()
            .replace("n't", " not")
            .replace("cannot", "can not");
        let mut negated = false;
        let mut words = HashSet::new();
        for w in s
            .split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '-'))
            .map(|w| w.trim_matches(['.', '-']))
        {
            match w {
                "" => {}
                "not" | "no" | "never" | "without" | "none" => negated = !negated,
                w if AUXILIARIES.contains(&w) => {}
                w => {
                    let stem = match w.strip_suffix('s') {
                        Some(st) if w.len() > 3 && !w.ends_with("ss") => st,
                        _ => w,
                    };
                    words.insert(stem.to_string());
                }
            }
        }
        Statement { words, negated }
    }

    /// A conservative contradiction test: the same words with opposite negation, or the
    /// same words with different values (numbers, versions).
    pub(crate) fn contradicts(&self, other: &Statement) -> bool {
        let (ta, na, tb, nb) = (&self.words, self.negated, &other.words, other.negated);
        if ta.is_empty() || tb.is_empty() {
            return false;
        }
        let inter = ta.intersection(tb).count() as f64;
        let union = (ta.len() + tb.len()) as f64 - inter;
        let jaccard = inter / union;
        if na != nb && jaccard >= 0.75 {
            return true;
        }
        let da: Vec<_> = ta.difference(tb).collect();
        let db: Vec<_> = tb.difference(ta).collect();
        let valued = |d: &Vec<&String>| {
            !d.is_empty() && d.len() <= 2 && d.iter().all(|w| w.chars().any(|c| c.is_ascii_digit()))
        };
        na == nb && valued(&da) && valued(&db) && jaccard >= 0.5
    }
}

/// Auxiliaries carry no claim content once negation is taken out ("does not need").
const AUXILIARIES: &[&str] = &[
    "do", "does", "did", "is", "are", "was", "were", "be", "been", "will", "would", "can", "could",
    "should", "must", "has", "have", "had", "a", "an", "the",
];

/// Whether two claim texts contradict (tests and one-off callers; the gate parses once).
#[cfg(test)]
pub(crate) fn contradicts(a: &str, b: &str) -> bool {
    Statement::parse(a).contradicts(&Statement::parse(b))
}
