//! The settings group: `config.toml` parses, the fleet and agent ids are valid, and every
//! key is one ctxlake reads (an unknown one is named with the nearest known key, since a
//! misspelt setting is silently a default).

use super::report::{Check, Group};
use crate::paths::Paths;

const G: Group = Group::Settings;

/// Every key ctxlake reads, as `table.key` (top-level keys bare).
pub(crate) fn check(paths: &Paths) -> Vec<Check> {
    let file = paths.config_file();
    let shown = file.display();
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return vec![Check::ok(
                G,
                "config.toml",
                format!("no `{shown}`: every setting is its default"),
            )];
        }
        Err(e) => {
            return vec![
                Check::fail(G, "config.toml", format!("cannot read `{shown}`: {e}"))
                    .fix(format!("check the permissions of `{shown}`")),
            ];
        }
    };
    let config = match crate::config::Config::parse(&text, &file) {
        Ok(c) => c,
        Err(e) => {
            let fix = e.hint.clone().unwrap_or_default();
            return vec![Check::fail(G, "config.toml", one_line(&e.one_line())).fix(fix)];
        }
    };
    let mut out = vec![Check::ok(G, "config.toml", format!("`{shown}` parses"))];
    let ids = [
        ("fleet", config.fleet.as_deref()),
        ("agent", config.agent.as_deref()),
    ];
    let bad: Vec<String> = ids
        .iter()
        .filter_map(|(what, id)| {
            crate::scope::validate_id(what, (*id)?)
                .err()
                .map(|e| e.message)
        })
        .collect();
    out.push(if bad.is_empty() {
        Check::ok(G, "ids", "fleet and agent ids are valid")
    } else {
        Check::fail(G, "ids", bad.join("; ")).fix(format!(
            "edit `fleet`/`agent` in `{shown}` (letters, digits, `-`, `_`, `.`, `@`)"
        ))
    });
    out.extend(unknown(&text, &shown.to_string()));
    out
}

/// A warning per key ctxlake does not read, with the nearest one it does.
fn unknown(text: &str, shown: &str) -> Vec<Check> {
    let Ok(doc) = text.parse::<toml_edit::DocumentMut>() else {
        return Vec::new();
    };
    keys(doc.as_table(), "")
        .into_iter()
        .filter(|k| !crate::config::KEYS.contains(&k.as_str()))
        .map(|key| {
            let saw = format!("`{key}` in `{shown}` is not a setting ctxlake reads");
            Check::warn(G, "unknown key", saw).fix(match nearest(&key) {
                Some(n) => format!("did you mean `{n}`? rename it in `{shown}`"),
                None => format!("remove `{key}` from `{shown}`"),
            })
        })
        .collect()
}

/// A parser's multi-line message (with its source excerpt) as one line for the report.
fn one_line(msg: &str) -> String {
    let parts: Vec<&str> = msg
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.contains('|'))
        .collect();
    parts.join(" ")
}

/// Leaf keys as `table.key`; a table itself is not a key.
fn keys(t: &toml_edit::Table, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (k, item) in t.iter() {
        let full = if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        };
        match item.as_table() {
            Some(sub) if prefix.is_empty() => out.extend(keys(sub, &full)),
            _ => out.push(full),
        }
    }
    out
}

/// The known key closest by edit distance, if it is close enough to be a typo.
fn nearest(key: &str) -> Option<&'static str> {
    crate::config::KEYS
        .iter()
        .map(|k| (distance(key, k), *k))
        .min()
        .filter(|(d, k)| *d <= (k.len() / 3).max(2))
        .map(|(_, k)| k)
}

/// Levenshtein distance over chars (keys are short: the O(n·m) table is nothing).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_key_by_edit_distance() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(nearest("memory.mod"), Some("memory.mode"));
        assert_eq!(
            nearest("limits.spool_max_byte"),
            Some("limits.spool_max_bytes")
        );
        assert_eq!(nearest("stor"), Some("store"));
        assert_eq!(nearest("completely.unrelated.thing"), None);
    }

    #[test]
    fn leaf_keys_are_dotted() {
        let doc: toml_edit::DocumentMut =
            "fleet = \"a\"\n[memory]\nmod = \"on\"\n[s3]\nregion = \"x\"\n"
                .parse()
                .unwrap();
        assert_eq!(
            keys(doc.as_table(), ""),
            ["fleet", "memory.mod", "s3.region"]
        );
    }
}
