//! Naming the bad field when arguments fail to decode. serde names missing and unknown
//! fields itself but not a wrong-typed one, so the input schema is consulted for that.

use serde_json::Value;

/// `argument `limit`: expected integer, got string` — the first problem found at the top
/// level of `args` against the tool's `inputSchema`, or `None` to fall back to serde's text.
pub fn explain(schema: &Value, args: &Value) -> Option<String> {
    let props = schema.get("properties")?.as_object()?;
    let args = args.as_object()?;
    if let Some(required) = schema.get("required").and_then(Value::as_array) {
        for r in required.iter().filter_map(Value::as_str) {
            if !args.contains_key(r) {
                return Some(format!("missing required argument `{r}`"));
            }
        }
    }
    for (k, v) in args {
        let Some(p) = props.get(k).or_else(|| aliased(props, k)) else {
            let known: Vec<&str> = props.keys().map(String::as_str).collect();
            return Some(format!(
                "unknown argument `{}`; expected one of: {}",
                k.escape_debug(),
                known.join(", ")
            ));
        };
        if let Some(problem) = mismatch(p, v) {
            return Some(format!("argument `{k}`: {problem}"));
        }
    }
    None
}

/// The property that `k` is another accepted name of (its `x-aliases`, which
/// [`super::schema::portable_input`] strips before publishing).
fn aliased<'a>(props: &'a serde_json::Map<String, Value>, k: &str) -> Option<&'a Value> {
    props.values().find(|p| {
        p.get(ALIASES)
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|x| x == k))
    })
}

/// The schema keyword listing a property's other accepted names.
pub const ALIASES: &str = "x-aliases";

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn fits(ty: &str, v: &Value) -> bool {
    match (ty, type_name(v)) {
        ("number", "integer") => true,
        (t, actual) => t == actual,
    }
}

/// Top-level type, `enum`, unsigned minimum, and the item type of arrays.
fn mismatch(p: &Value, v: &Value) -> Option<String> {
    let types: Vec<&str> = match p.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if !types.is_empty() && !types.iter().any(|t| fits(t, v)) {
        return Some(format!(
            "expected {}, got {}",
            types.join(" or "),
            type_name(v)
        ));
    }
    if let Some(allowed) = p.get("enum").and_then(Value::as_array)
        && !allowed.contains(v)
    {
        let list: Vec<String> = allowed.iter().map(Value::to_string).collect();
        return Some(format!("expected one of {}, got {v}", list.join(", ")));
    }
    if let (Some(min), Some(n)) = (p.get("minimum").and_then(Value::as_f64), v.as_f64())
        && n < min
    {
        return Some(format!("must be at least {min}, got {n}"));
    }
    if let (Some(items), Some(arr)) = (p.get("items"), v.as_array()) {
        for (i, item) in arr.iter().enumerate() {
            if let Some(problem) = mismatch(items, item) {
                return Some(format!("item {i}: {problem}"));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "k": {"type": ["integer", "null"], "minimum": 0},
                "kind": {"type": "string", "enum": ["a", "b"], "x-aliases": ["sort"]},
                "paths": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["query"],
        })
    }

    #[test]
    fn names_the_field() {
        let e = |a: Value| explain(&schema(), &a);
        assert_eq!(
            e(json!({})).as_deref(),
            Some("missing required argument `query`")
        );
        assert_eq!(
            e(json!({"query": 3})).as_deref(),
            Some("argument `query`: expected string, got integer")
        );
        assert_eq!(
            e(json!({"query": "q", "k": "x"})).as_deref(),
            Some("argument `k`: expected integer or null, got string")
        );
        assert!(e(json!({"query": "q", "k": -1})).unwrap().contains("`k`"));
        assert!(
            e(json!({"query": "q", "kind": "c"}))
                .unwrap()
                .contains("`kind`")
        );
        assert!(
            e(json!({"query": "q", "sort": "c"}))
                .unwrap()
                .contains("expected one of \"a\", \"b\", got \"c\"")
        );
        assert!(
            e(json!({"query": "q", "paths": [1]}))
                .unwrap()
                .contains("item 0")
        );
        assert!(
            e(json!({"query": "q", "zzz": 1}))
                .unwrap()
                .contains("`zzz`")
        );
        assert_eq!(e(json!({"query": "q", "k": null, "paths": ["a"]})), None);
    }
}
