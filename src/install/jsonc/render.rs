//! Render a JSON value the way the surrounding file writes JSON: pretty with the file's
//! indent unit and line ending, or on one line with the file's spacing.

use serde_json::Value;

/// How the file around an insertion point is laid out.
#[derive(Debug, Clone)]
pub struct Style {
    pub unit: String,
    pub nl: &'static str,
}

/// Pretty JSON whose first line continues the current line and whose nested lines start
/// at `base` + n × unit.
pub fn pretty(v: &Value, base: &str, style: &Style) -> String {
    let mut out = String::new();
    pretty_into(&mut out, v, base, style);
    out
}

fn pretty_into(out: &mut String, v: &Value, base: &str, style: &Style) {
    let inner = format!("{base}{}", style.unit);
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push('{');
            for (i, (k, val)) in m.iter().enumerate() {
                out.push_str(if i == 0 { "" } else { "," });
                out.push_str(style.nl);
                out.push_str(&inner);
                out.push_str(&scalar(&Value::String(k.clone())));
                out.push_str(": ");
                pretty_into(out, val, &inner, style);
            }
            out.push_str(style.nl);
            out.push_str(base);
            out.push('}');
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('[');
            for (i, val) in a.iter().enumerate() {
                out.push_str(if i == 0 { "" } else { "," });
                out.push_str(style.nl);
                out.push_str(&inner);
                pretty_into(out, val, &inner, style);
            }
            out.push_str(style.nl);
            out.push_str(base);
            out.push(']');
        }
        _ => out.push_str(&scalar(v)),
    }
}

/// One line; `spaced` writes `", "` and `": "` like hand-written inline JSON.
pub fn inline(v: &Value, spaced: bool) -> String {
    let (comma, colon) = if spaced { (", ", ": ") } else { (",", ":") };
    match v {
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}{colon}{}",
                        scalar(&Value::String(k.clone())),
                        inline(v, spaced)
                    )
                })
                .collect();
            format!("{{{}}}", parts.join(comma))
        }
        Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(|v| inline(v, spaced)).collect();
            format!("[{}]", parts.join(comma))
        }
        _ => scalar(v),
    }
}

fn scalar(v: &Value) -> String {
    // Serializing a scalar `Value` cannot fail; fall back to `null` rather than panic.
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pretty_follows_unit_and_base() {
        let s = Style {
            unit: "\t".into(),
            nl: "\n",
        };
        let v = json!({"a": [1, "x"], "b": {}, "c": []});
        assert_eq!(
            pretty(&v, "  ", &s),
            "{\n  \t\"a\": [\n  \t\t1,\n  \t\t\"x\"\n  \t],\n  \t\"b\": {},\n  \t\"c\": []\n  }"
        );
        assert_eq!(
            inline(&v, true),
            "{\"a\": [1, \"x\"], \"b\": {}, \"c\": []}"
        );
        assert_eq!(inline(&v, false), "{\"a\":[1,\"x\"],\"b\":{},\"c\":[]}");
    }
}
