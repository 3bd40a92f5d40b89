//! Tool schemas as clients receive them, made from whatever the tools publish: portable for
//! single-`type` dialects (Gemini's function declarations reject schemars' `[T, "null"]`),
//! stripped of keywords no client acts on, and — where the revision allows `$ref` — with
//! repeated parts of an output schema hoisted into `$defs` ([`hoist`]).

use serde_json::{Map, Value, json};

mod defs;
#[cfg(test)]
mod tests;

pub use defs::hoist;

/// Keywords that assert nothing about a value: a validator skips them.
const ANNOTATIONS: &[&str] = &["description", "title", "default", "examples", "deprecated"];

/// schemars' names for Rust's number types. They are not JSON Schema formats, so every
/// validator ignores them and a model learns nothing from them; a real format stays.
const RUST_FORMATS: &[&str] = &[
    "int8", "int16", "int32", "int64", "int", "uint8", "uint16", "uint32", "uint64", "uint",
    "float", "double",
];

/// Input: an optional argument may simply be left out, so `[T, "null"]` becomes `T`, and an
/// `enum`'s `null` goes. The server still accepts an explicit `null` (serde's `Option`).
/// Every description stays: it is what the model reads. What the server enforces itself,
/// naming the argument and the fix (`args::explain` reads the unreduced schema), is not
/// published, since the list is paid for in every session's context: `default`s (the
/// descriptions say them), `minimum: 0` on unsigned integers, and `additionalProperties:
/// false` (every input struct denies unknown fields).
pub fn portable_input(schema: &mut Value) {
    walk(schema, &|node| {
        node.remove(super::args::ALIASES);
        node.remove("default");
        drop_rust_format(node);
        drop_unsigned_minimum(node);
        if node.get("additionalProperties") == Some(&Value::Bool(false)) {
            node.remove("additionalProperties");
        }
        if let Some(t) = non_null_type(node) {
            node.insert("type".into(), json!(t));
            if let Some(Value::Array(e)) = node.get_mut("enum") {
                e.retain(|v| !v.is_null());
            }
        }
    });
}

/// Output: a `null` really is sent, so `[T, "null"]` becomes `anyOf: [{T…}, {null}]`, with
/// the type-specific keywords moved into the `T` branch (the Inspector's `--strict` flags a
/// type array as unportable). A value left out when absent is published as its type alone
/// (`#[schemars(with = …)]` beside `skip_serializing_if`), which costs a model a third as
/// much. An output schema is for validating `structuredContent`, so what asserts nothing
/// goes: descriptions, titles, defaults, examples (the meaning of a result is the tool
/// description's job, said once there), and the `minimum: 0` schemars puts on unsigned Rust
/// integers, which no serializer can break. Nor do two keywords that restate what the schema
/// says already: `type: string` beside an `enum` of strings, and `additionalProperties: true`
/// (every object allows them unless told otherwise).
pub fn portable_output(schema: &mut Value) {
    walk(schema, &|node| {
        drop_rust_format(node);
        for k in ANNOTATIONS {
            node.remove(*k);
        }
        drop_unsigned_minimum(node);
        if node.get("type") == Some(&json!("string"))
            && node
                .get("enum")
                .and_then(Value::as_array)
                .is_some_and(|e| e.iter().all(Value::is_string))
        {
            node.remove("type");
        }
        if node.get("additionalProperties") == Some(&Value::Bool(true)) {
            node.remove("additionalProperties");
        }
        let Some(t) = non_null_type(node) else {
            return;
        };
        node.remove("type");
        let mut branch = Map::new();
        branch.insert("type".into(), json!(t));
        branch.extend(std::mem::take(node));
        node.insert(
            "anyOf".into(),
            json!([Value::Object(branch), {"type": "null"}]),
        );
    });
}

/// `type` is `integer`, alone or with `null`.
fn is_integer(node: &Map<String, Value>) -> bool {
    match node.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(ts)) => ts.contains(&json!("integer")),
        _ => false,
    }
}

/// schemars' `minimum: 0` on an unsigned Rust integer: nothing can break it on output, and
/// the server refuses a negative input itself.
fn drop_unsigned_minimum(node: &mut Map<String, Value>) {
    if node.get("minimum") == Some(&json!(0)) && is_integer(node) {
        node.remove("minimum");
    }
}

fn drop_rust_format(node: &mut Map<String, Value>) {
    if node
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| RUST_FORMATS.contains(&f))
    {
        node.remove("format");
    }
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

/// Keywords whose value is one subschema, a list of them, or a name → subschema map.
const ONE: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
];
const LIST: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];
const MAP: &[&str] = &["properties", "patternProperties", "$defs"];

/// Every direct subschema of `node`, with the property name it sits under (if any).
fn children(node: &mut Map<String, Value>) -> Vec<(Option<&str>, &mut Value)> {
    let mut out = Vec::new();
    for (k, v) in node.iter_mut() {
        let k = k.as_str();
        if ONE.contains(&k) && v.is_object() {
            out.push((None, v));
        } else if LIST.contains(&k)
            && let Value::Array(a) = v
        {
            out.extend(a.iter_mut().map(|c| (None, c)));
        } else if MAP.contains(&k)
            && let Value::Object(m) = v
        {
            out.extend(m.iter_mut().map(|(name, c)| (Some(name.as_str()), c)));
        }
    }
    out
}

/// Visit every schema object, children first (so a rewritten node's moved children are
/// done). Only schema positions are visited: a property *named* `items` is not a keyword.
fn walk(v: &mut Value, f: &dyn Fn(&mut Map<String, Value>)) {
    if let Value::Object(o) = v {
        for (_, child) in children(o) {
            walk(child, f);
        }
        f(o);
    }
}
