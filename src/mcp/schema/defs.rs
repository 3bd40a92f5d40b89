//! Hoisting: a subschema that repeats within one schema moves into the root's `$defs` and
//! each use becomes `{"$ref": "#/$defs/<name>"}`, when that makes the schema shorter.
//! JSON Schema 2020-12 resolves such a reference within the same document, so the result
//! validates exactly what the inlined one did. A reference never reaches across schemas:
//! every tool's schema is its own document to a client.

use std::collections::HashMap;

use serde_json::{Map, Value};

/// Hoist, greedily, the repeated subschema that saves most, until none saves anything.
/// Deterministic: the same schema always gives the same names and the same order.
pub fn hoist(schema: &mut Value) {
    let Some(root) = schema.as_object_mut() else {
        return;
    };
    // Each round removes at least one repeated subschema, so this ends; the bound is a guard.
    for _ in 0..64 {
        let mut seen: HashMap<String, Seen> = HashMap::new();
        let mut order = 0;
        for (name, child) in super::children(root) {
            count(child, name, &mut seen, &mut order);
        }
        let defs = root.get("$defs").and_then(Value::as_object);
        let best = seen
            .into_iter()
            .filter_map(|(key, s)| {
                let name = unique(&s.hint, defs);
                let saved = saves(key.len(), s.uses, &name);
                (saved > 0).then_some((saved, s.first, key, name))
            })
            // Most saved first; ties by first appearance, so the output never depends on hashing.
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        let Some((_, _, key, name)) = best else {
            return;
        };
        let mut def = None;
        let target = format!("#/$defs/{name}");
        for (_, child) in super::children(root) {
            replace(child, &key, &target, &mut def);
        }
        let defs = root
            .entry("$defs")
            .or_insert_with(|| Value::Object(Map::new()));
        if let (Some(d), Value::Object(m)) = (def, defs) {
            m.insert(name, d);
        }
    }
}

/// What one distinct subschema looks like across the document.
struct Seen {
    uses: usize,
    /// Position of its first use, for a stable choice between equal savings.
    first: usize,
    /// A readable name: its shape, else the property it first sat under.
    hint: String,
}

/// Bytes saved by hoisting a subschema of `len` bytes used `uses` times under `name`:
/// every use shrinks to a reference, and the definition is written once.
fn saves(len: usize, uses: usize, name: &str) -> i64 {
    let reference = r##"{"$ref":"#/$defs/"}"##.len() + name.len();
    let entry = name.len() + 3; // "name":
    let before = (uses * len) as i64;
    let after = (uses * reference + len + entry) as i64;
    before - after
}

/// The subschema's text with keys in a fixed order: equal schemas, equal keys.
fn canonical(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let inner: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", Value::String(k.clone()), canonical(&m[k])))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        other => other.to_string(),
    }
}

fn count<'a>(
    v: &'a mut Value,
    under: Option<&'a str>,
    seen: &mut HashMap<String, Seen>,
    order: &mut usize,
) {
    let Value::Object(o) = v else {
        return;
    };
    if o.contains_key("$ref") {
        return;
    }
    *order += 1;
    let key = canonical(&Value::Object(o.clone()));
    let first = *order;
    seen.entry(key)
        .or_insert_with(|| Seen {
            uses: 0,
            first,
            hint: hint(o, under),
        })
        .uses += 1;
    // An `items` or `anyOf` branch has no name of its own: it goes by its property's.
    for (name, child) in super::children(o) {
        count(child, name.or(under), seen, order);
    }
}

/// Replace every use of `key` below this point (the first one found becomes the definition).
fn replace(v: &mut Value, key: &str, target: &str, def: &mut Option<Value>) {
    let Value::Object(o) = v else {
        return;
    };
    if canonical(&Value::Object(o.clone())) == key {
        let found = std::mem::replace(v, serde_json::json!({ "$ref": target }));
        def.get_or_insert(found);
        return;
    }
    for (_, child) in super::children(o) {
        replace(child, key, target, def);
    }
}

/// `nullable_string`, `string_list`, else the property name it first appeared under.
fn hint(o: &Map<String, Value>, under: Option<&str>) -> String {
    let simple = |v: &Value| -> Option<String> {
        let m = v.as_object().filter(|m| m.len() == 1)?;
        m.get("type")?.as_str().map(String::from)
    };
    if let Some(Value::Array(branches)) = o.get("anyOf")
        && o.len() == 1
        && branches.len() == 2
        && branches[1] == serde_json::json!({"type": "null"})
        && let Some(t) = simple(&branches[0])
    {
        return format!("nullable_{t}");
    }
    if o.len() == 2
        && o.get("type").and_then(Value::as_str) == Some("array")
        && let Some(t) = o.get("items").and_then(simple)
    {
        return format!("{t}_list");
    }
    under.map_or_else(|| "def".to_string(), String::from)
}

/// `hint`, or `hint_2`, `hint_3`… when `$defs` already has that name.
fn unique(hint: &str, defs: Option<&Map<String, Value>>) -> String {
    let taken = |n: &str| defs.is_some_and(|d| d.contains_key(n));
    if !taken(hint) {
        return hint.to_string();
    }
    (2..)
        .map(|i| format!("{hint}_{i}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| hint.to_string())
}
