//! The write boundary: every write path (CLI, MCP, hook, and `sync` again before the
//! lake) passes its payload through [`scrub`], which cleans invisible text, then redacts
//! secrets, then bounds each string, in that order and nowhere else. Cleaning first means a
//! secret split by zero-width characters is whole again when the redactor looks; redacting
//! before the bound means a secret straddling the cut is replaced whole, never left as a
//! fragment; and the bound reports every field it cut, so no caller believes a note was
//! kept whole when it was not.

use serde::Serialize;
use serde_json::Value;

use crate::redact::Redactor;
use crate::sanitize;

/// One string that the bound cut.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cut {
    /// Where it was, e.g. `summary` or `evidence[0].quote`.
    pub field: String,
    /// Its length before the cut, in characters (after invisible text was removed).
    pub chars: usize,
    /// What was kept, marker included.
    pub kept: usize,
}

/// What the boundary did to one payload.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scrubbed {
    /// Invisible or control code points removed.
    pub removed: usize,
    /// Secrets replaced by `[REDACTED:<rule>]`.
    pub redacted: usize,
    /// Strings longer than the bound, each cut with a visible marker.
    pub cut: Vec<Cut>,
}

/// Clean, redact, bound every string of `value` (keys too, at any depth) in place.
pub fn scrub(value: &mut Value, max_chars: usize) -> Scrubbed {
    let removed = sanitize::clean_value(value, usize::MAX);
    let redacted = Redactor::global().redact_value(value);
    let mut cut = Vec::new();
    bound(value, max_chars, &mut String::new(), &mut cut);
    Scrubbed {
        removed,
        redacted,
        cut,
    }
}

fn bound(value: &mut Value, max_chars: usize, at: &mut String, cut: &mut Vec<Cut>) {
    match value {
        Value::String(s) => {
            if let Some(chars) = sanitize::bound(s, max_chars) {
                cut.push(Cut {
                    field: at.clone(),
                    chars,
                    kept: s.chars().count(),
                });
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter_mut().enumerate() {
                let len = at.len();
                at.push_str(&format!("[{i}]"));
                bound(v, max_chars, at, cut);
                at.truncate(len);
            }
        }
        Value::Object(map) => {
            if map.keys().any(|k| k.chars().count() > max_chars) {
                let old = std::mem::take(map);
                for (mut k, v) in old {
                    sanitize::bound(&mut k, max_chars);
                    map.insert(k, v);
                }
            }
            for (k, v) in map.iter_mut() {
                let len = at.len();
                if !at.is_empty() {
                    at.push('.');
                }
                at.push_str(k);
                bound(v, max_chars, at, cut);
                at.truncate(len);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const AWS: &str = "AKIAQYLPMN5HFIQR7XYZ";

    #[test]
    fn reports_each_cut_with_its_path_and_length() {
        let mut v = json!({"summary": "x".repeat(100_000), "evidence": [{"quote": "y".repeat(50)}], "ok": "short"});
        let s = scrub(&mut v, 40);
        assert_eq!(
            s.cut,
            vec![
                Cut {
                    field: "summary".into(),
                    chars: 100_000,
                    kept: 40
                },
                Cut {
                    field: "evidence[0].quote".into(),
                    chars: 50,
                    kept: 40
                },
            ]
        );
        assert!(
            v["summary"]
                .as_str()
                .unwrap()
                .ends_with(sanitize::TRUNCATED_MARKER)
        );
        assert_eq!(v["ok"], "short");
    }

    /// A secret that straddles the bound leaves no fragment of itself, at every offset.
    #[test]
    fn a_secret_across_the_bound_leaves_no_fragment() {
        for max in [20usize, 64, 200] {
            for pad in 0..max + 4 {
                let text = format!("{}key {AWS} tail", "p".repeat(pad));
                let mut v = json!({ "s": text });
                scrub(&mut v, max);
                let out = v["s"].as_str().unwrap();
                for w in AWS.as_bytes().windows(6) {
                    let frag = std::str::from_utf8(w).unwrap();
                    assert!(
                        !out.contains(frag),
                        "max {max} pad {pad}: `{frag}` in {out}"
                    );
                }
            }
        }
    }

    /// Zero-width characters inside a secret do not hide it: cleaning runs first.
    #[test]
    fn invisible_text_inside_a_secret_does_not_hide_it() {
        let split = format!("{}\u{200b}{}", &AWS[..8], &AWS[8..]);
        let mut v = json!({ "s": format!("key {split}") });
        let s = scrub(&mut v, 4000);
        assert_eq!(s.redacted, 1, "{v}");
        assert!(!v.to_string().contains(&AWS[8..]), "{v}");
    }
}
