//! The schema transformations, each on a small schema that has every case in it.

use serde_json::{Value, json};

use super::*;

fn nullable() -> Value {
    json!({"type": "object", "properties": {
        "since": {"type": ["string", "null"], "description": "d", "default": null},
        "paths": {"type": ["array", "null"], "items": {"type": ["integer", "null"], "minimum": 0}},
        "q": {"type": "string", "x-aliases": ["query"]},
        "mode": {"type": ["string", "null"], "enum": ["on", "off", null]},
        "n": {"type": "integer", "format": "uint32", "minimum": 0},
        "at": {"type": "string", "format": "date-time"},
        "title": {"type": "string", "title": "T", "examples": ["x"]},
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
fn inputs_leave_out_what_the_server_enforces_itself() {
    let mut s = json!({"type": "object", "additionalProperties": false, "properties": {
        "k": {"type": "integer", "minimum": 0, "description": "Rows."},
        "ttl": {"type": "integer", "minimum": 5},
        "all": {"type": "boolean", "default": false},
        "ids": {"type": "array", "items": {"type": "string"}, "default": [], "maxItems": 20},
        "ev": {"type": "object", "properties": {"s": {"type": "string", "minLength": 1}}},
    }});
    portable_input(&mut s);
    assert!(s.get("additionalProperties").is_none());
    let p = &s["properties"];
    assert_eq!(p["k"], json!({"type": "integer", "description": "Rows."}));
    // A bound other than the unsigned type's own stays: it tells the model something.
    assert_eq!(p["ttl"]["minimum"], 5);
    assert_eq!(p["all"], json!({"type": "boolean"}));
    assert_eq!(p["ids"]["maxItems"], 20);
    assert!(p["ids"].get("default").is_none());
    assert_eq!(p["ev"]["properties"]["s"]["minLength"], 1);
}

#[test]
fn a_rust_number_name_is_no_format_but_a_real_format_stays() {
    for (f, n) in [
        (portable_input as fn(&mut Value), json!({"type": "integer"})),
        (portable_output, json!({"type": "integer"})),
    ] {
        let mut s = nullable();
        f(&mut s);
        assert_eq!(s["properties"]["n"], n);
        assert_eq!(s["properties"]["at"]["format"], "date-time");
    }
}

#[test]
fn outputs_keep_null_as_an_any_of_branch_and_only_what_validates() {
    let mut s = nullable();
    portable_output(&mut s);
    assert_eq!(
        s["properties"]["since"],
        json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
    );
    let paths = &s["properties"]["paths"]["anyOf"][0];
    assert_eq!(paths["type"], "array");
    assert_eq!(
        paths["items"],
        json!({"anyOf": [{"type": "integer"}, {"type": "null"}]})
    );
    // schemars' `minimum: 0` on an unsigned integer goes; nothing could send a negative.
    assert_eq!(s["properties"]["n"], json!({"type": "integer"}));
    assert!(!s.to_string().contains("[\"string\",\"null\"]"));
    // A property *named* `title` is kept; the `title` and `examples` annotations go.
    assert_eq!(s["properties"]["title"], json!({"type": "string"}));
}

#[test]
fn outputs_drop_what_restates_the_schema_and_keep_what_narrows_it() {
    let mut s = json!({"type": "object", "properties": {
        "state": {"type": "string", "enum": ["held", "contended"]},
        "odd": {"type": "integer", "enum": [1, 2]},
        "mixed": {"type": ["string", "null"], "enum": ["a", null]},
        "rows": {"type": "array", "items": {"type": "object", "additionalProperties": true}},
        "closed": {"type": "object", "additionalProperties": false},
    }});
    portable_output(&mut s);
    let p = &s["properties"];
    // An `enum` of strings admits strings only: its `type` validated nothing more.
    assert_eq!(p["state"], json!({"enum": ["held", "contended"]}));
    assert_eq!(p["odd"], json!({"type": "integer", "enum": [1, 2]}));
    assert!(p["mixed"].to_string().contains("null"), "{}", p["mixed"]);
    // Extra properties are allowed unless told otherwise; a `false` narrows, so it stays.
    assert_eq!(p["rows"]["items"], json!({"type": "object"}));
    assert_eq!(p["closed"]["additionalProperties"], false);
}

/// Two tools' worth of the same shapes: a repeated object and a repeated nullable string.
fn repetitive() -> Value {
    let lease = json!({"type": "object", "properties": {
        "path": {"type": "string"}, "holder": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "reason": {"type": "string"}, "expires_at": {"type": "string"},
    }, "required": ["path", "reason", "expires_at"]});
    let ns = json!({"anyOf": [{"type": "string"}, {"type": "null"}]});
    json!({"type": "object", "properties": {
        "held": {"type": "array", "items": lease},
        "wanted": {"type": "array", "items": lease},
        "a": ns, "b": ns, "c": ns, "d": ns, "e": ns, "f": ns, "g": ns, "h": ns,
        "one": {"type": "string"},
    }, "required": ["held"]})
}

/// Whether `value` is an instance of `schema`, with `$ref`s into the root's `$defs`
/// followed: enough of JSON Schema for the keywords these tests use.
fn valid(schema: &Value, root: &Value, value: &Value) -> bool {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").unwrap();
        return valid(&root["$defs"][name], root, value);
    }
    if let Some(any) = schema.get("anyOf").and_then(Value::as_array) {
        return any.iter().any(|s| valid(s, root, value));
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => value.is_string(),
        Some("null") => value.is_null(),
        Some("array") => value.as_array().is_some_and(|a| {
            a.iter()
                .all(|v| schema.get("items").is_none_or(|i| valid(i, root, v)))
        }),
        Some("object") => value.as_object().is_some_and(|o| {
            let props = schema.get("properties").and_then(Value::as_object);
            let required = schema.get("required").and_then(Value::as_array);
            required.is_none_or(|r| r.iter().all(|k| o.contains_key(k.as_str().unwrap())))
                && o.iter().all(|(k, v)| {
                    props
                        .and_then(|p| p.get(k))
                        .is_none_or(|s| valid(s, root, v))
                })
        }),
        _ => true,
    }
}

#[test]
fn hoisting_shortens_a_repetitive_schema_and_validates_the_same() {
    let inlined = repetitive();
    let mut hoisted = inlined.clone();
    hoist(&mut hoisted);
    assert!(
        hoisted.to_string().len() < inlined.to_string().len(),
        "{hoisted}"
    );
    let defs = hoisted["$defs"].as_object().unwrap();
    // The two identical arrays go whole (the biggest saving), named after the first use.
    assert_eq!(
        hoisted["properties"]["held"],
        json!({"$ref": "#/$defs/held"})
    );
    assert_eq!(hoisted["properties"]["wanted"]["$ref"], "#/$defs/held");
    assert_eq!(
        hoisted["properties"]["a"]["$ref"],
        "#/$defs/nullable_string"
    );
    // The nullable string inside the hoisted object is a reference too.
    assert_eq!(
        defs["held"]["items"]["properties"]["holder"]["$ref"],
        "#/$defs/nullable_string"
    );
    // A `{"type": "string"}` is shorter than a reference to it.
    assert_eq!(hoisted["properties"]["one"], json!({"type": "string"}));
    let lease = json!({"path": "p", "holder": null, "reason": "r", "expires_at": "t"});
    let bad_lease = json!({"path": "p", "holder": 3, "reason": "r", "expires_at": "t"});
    for (doc, ok) in [
        (
            json!({"held": [lease.clone()], "wanted": [lease.clone()], "a": null, "b": "x"}),
            true,
        ),
        (json!({"held": [bad_lease.clone()]}), false),
        (
            json!({"held": [lease.clone()], "wanted": [bad_lease]}),
            false,
        ),
        (json!({"held": [lease.clone()], "c": 1}), false),
        (json!({"wanted": [lease]}), false),
    ] {
        assert_eq!(valid(&inlined, &inlined, &doc), ok, "inlined {doc}");
        assert_eq!(valid(&hoisted, &hoisted, &doc), ok, "hoisted {doc}");
    }
}

#[test]
fn hoisting_is_deterministic_and_leaves_unrepeated_schemas_alone() {
    let mut a = repetitive();
    let mut b = repetitive();
    hoist(&mut a);
    hoist(&mut b);
    assert_eq!(a.to_string(), b.to_string());
    let plain = json!({"type": "object", "properties": {"x": {"type": "string"}}});
    let mut p = plain.clone();
    hoist(&mut p);
    assert_eq!(p, plain);
}
