//! Tool schemas made portable for MCP clients: schemars spells `Option<T>` as
//! `type: [T, "null"]`, which single-`type` dialects (Gemini's function declarations) reject.

use serde_json::{Map, Value, json};

/// Keywords that describe the value itself rather than one of its types.
const SHARED: &[&str] = &["description", "title", "default", "examples", "deprecated"];

/// Input: an optional argument may simply be left out, so `[T, "null"]` becomes `T`, and the
/// `default: null` and an `enum`'s `null` go. The server still accepts an explicit `null`
/// (serde's `Option`).
pub fn portable_input(schema: &mut Value) {
    walk(schema, &|node| {
        node.remove(super::args::ALIASES);
        if let Some(t) = non_null_type(node) {
            node.insert("type".into(), json!(t));
            if node.get("default") == Some(&Value::Null) {
                node.remove("default");
            }
            if let Some(Value::Array(e)) = node.get_mut("enum") {
                e.retain(|v| !v.is_null());
            }
        }
    });
}

/// Output: a `null` really is sent, so `[T, "null"]` becomes `anyOf: [{T…}, {null}]`,
/// with the type-specific keywords moved into the `T` branch.
pub fn portable_output(schema: &mut Value) {
    walk(schema, &|node| {
        let Some(t) = non_null_type(node) else {
            return;
        };
        node.remove("type");
        let mut branch = Map::new();
        branch.insert("type".into(), json!(t));
        let moved: Vec<String> = node
            .keys()
            .filter(|k| !SHARED.contains(&k.as_str()))
            .cloned()
            .collect();
        for k in moved {
            if let Some(v) = node.remove(&k) {
                branch.insert(k, v);
            }
        }
        node.insert(
            "anyOf".into(),
            json!([Value::Object(branch), {"type": "null"}]),
        );
    });
}

/// `T` when `type` is exactly `[T, "null"]` (in either order).
fn non_null_type(node: &Map<String, Value>) -> Option<String> {
    let types = node.get("type")?.as_array()?;
    if types.len() != 2 || !types.contains(&json!("null")) {
        return None;
    }
    types
        .iter()
        .filter_map(Value::as_str)
        .find(|t| *t != "null")
        .map(String::from)
}

/// Visit every schema object, children first (so a rewritten node's moved children are done).
fn walk(v: &mut Value, f: &dyn Fn(&mut Map<String, Value>)) {
    match v {
        Value::Object(o) => {
            for child in o.values_mut() {
                walk(child, f);
            }
            f(o);
        }
        Value::Array(a) => a.iter_mut().for_each(|c| walk(c, f)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nullable() -> Value {
        json!({"type": "object", "properties": {
            "since": {"type": ["string", "null"], "description": "d", "default": null},
            "paths": {"type": ["array", "null"], "items": {"type": ["integer", "null"], "minimum": 0}},
            "q": {"type": "string", "x-aliases": ["query"]},
            "mode": {"type": ["string", "null"], "enum": ["on", "off", null]},
        }})
    }

    #[test]
    fn inputs_drop_the_null_branch() {
        let mut s = nullable();
        portable_input(&mut s);
        assert_eq!(
            s["properties"]["since"],
            json!({"type": "string", "description": "d"})
        );
        assert_eq!(s["properties"]["paths"]["type"], "array");
        assert_eq!(s["properties"]["paths"]["items"]["type"], "integer");
        assert_eq!(s["properties"]["q"], json!({"type": "string"}));
        assert_eq!(
            s["properties"]["mode"],
            json!({"type": "string", "enum": ["on", "off"]})
        );
        assert!(!s.to_string().contains("null"));
    }

    #[test]
    fn outputs_keep_null_as_an_any_of_branch() {
        let mut s = nullable();
        portable_output(&mut s);
        assert_eq!(
            s["properties"]["since"],
            json!({"description": "d", "default": null, "anyOf": [{"type": "string"}, {"type": "null"}]})
        );
        let paths = &s["properties"]["paths"]["anyOf"][0];
        assert_eq!(paths["type"], "array");
        assert_eq!(
            paths["items"]["anyOf"][0],
            json!({"type": "integer", "minimum": 0})
        );
        assert!(!s.to_string().contains("[\"string\",\"null\"]"));
    }
}
