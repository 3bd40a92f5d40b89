//! The real parser for each config format, turning a document into one comparable value:
//! strict JSON (serde_json), JSONC (jsonc-parser: comments and trailing commas, nothing
//! looser), TOML (toml_edit) and YAML 1.2 (saphyr). The install guard runs these before and
//! after every edit; only install and uninstall reach this module, never the hook or mcp paths.

use serde_json::{Map, Value};

use super::jsonc::ParseError;
use super::runtimes::Format;

/// `text` as a value, or where and why it is not valid for `format`.
pub(crate) fn parse(format: Format, text: &str) -> Result<Value, ParseError> {
    match format {
        Format::Json => json(text),
        Format::Jsonc => jsonc(text),
        Format::Toml => Ok(super::toml::to_json(super::toml::parse(text)?.as_item())),
        Format::Yaml => yaml(text),
    }
}

/// The format's name in messages.
pub(crate) fn name(format: Format) -> &'static str {
    match format {
        Format::Json => "JSON",
        Format::Jsonc => "JSONC",
        Format::Toml => "TOML",
        Format::Yaml => "YAML",
    }
}

fn json(text: &str) -> Result<Value, ParseError> {
    serde_json::from_str(text).map_err(|e| ParseError {
        line: e.line().max(1),
        column: e.column().max(1),
        message: e.to_string().split(" at line").next().unwrap_or("").into(),
    })
}

fn jsonc(text: &str) -> Result<Value, ParseError> {
    // JSONC as the editors that use it read it: comments and trailing commas, and none of
    // jsonc-parser's other JSON5-ish leniencies.
    let opts = jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    match jsonc_parser::parse_to_serde_value::<Option<Value>>(text, &opts) {
        Ok(Some(v)) => Ok(v),
        Ok(None) => Err(ParseError {
            line: 1,
            column: 1,
            message: "the file holds no JSON value".into(),
        }),
        Err(e) => Err(ParseError {
            line: e.line_display(),
            column: e.column_display(),
            message: e.kind().to_string(),
        }),
    }
}

fn yaml(text: &str) -> Result<Value, ParseError> {
    use saphyr::LoadableYamlNode;
    let docs = saphyr::Yaml::load_from_str(text).map_err(|e| ParseError {
        line: e.marker().line(),
        column: e.marker().col() + 1,
        message: e.info().to_string(),
    })?;
    let mut vals: Vec<Value> = docs.iter().map(yaml_value).collect();
    Ok(match vals.len() {
        // An empty or comment-only file is an empty mapping, as Hermes reads it.
        0 => Value::Object(Map::new()),
        1 => match vals.remove(0) {
            Value::Null => Value::Object(Map::new()),
            v => v,
        },
        _ => Value::Array(vals),
    })
}

fn yaml_value(y: &saphyr::Yaml) -> Value {
    use saphyr::{Scalar, Yaml};
    match y {
        Yaml::Value(Scalar::Null) => Value::Null,
        Yaml::Value(Scalar::Boolean(b)) => Value::Bool(*b),
        Yaml::Value(Scalar::Integer(i)) => Value::from(*i),
        Yaml::Value(Scalar::FloatingPoint(f)) => serde_json::Number::from_f64(f.into_inner())
            .map_or_else(|| Value::String(f.to_string()), Value::Number),
        Yaml::Value(Scalar::String(s)) => Value::String(s.to_string()),
        Yaml::Representation(s, _, _) => Value::String(s.to_string()),
        Yaml::Sequence(items) => Value::Array(items.iter().map(yaml_value).collect()),
        Yaml::Mapping(m) => Value::Object(
            m.iter()
                .map(|(k, v)| {
                    let key = match yaml_value(k) {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    (key, yaml_value(v))
                })
                .collect(),
        ),
        // Keep the tag, so an edit that adds or drops one is seen as a change.
        Yaml::Tagged(tag, inner) => {
            let mut m = Map::new();
            m.insert(format!("!{tag}"), yaml_value(inner));
            Value::Object(m)
        }
        Yaml::Alias(_) | Yaml::BadValue => Value::String("<unresolved YAML node>".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_format_reads_the_same_document() {
        let want = json!({"a": {"b": [1, "x", true]}});
        assert_eq!(
            parse(Format::Json, r#"{"a":{"b":[1,"x",true]}}"#).unwrap(),
            want
        );
        let jc = "// c\n{\"a\": {\"b\": [1, \"x\", true,],}, /* c */}\n";
        assert_eq!(parse(Format::Jsonc, jc).unwrap(), want);
        assert_eq!(
            parse(Format::Toml, "[a]\nb = [1, \"x\", true]\n").unwrap(),
            want
        );
        let y = "# c\na:\n  b:\n    - 1\n    - x\n    - true\n";
        assert_eq!(parse(Format::Yaml, y).unwrap(), want);
        assert_eq!(
            parse(Format::Yaml, "# only a comment\n").unwrap(),
            json!({})
        );
    }

    #[test]
    fn each_format_refuses_with_a_position() {
        let e = parse(Format::Json, "{\n  // no comments in JSON\n}").unwrap_err();
        assert_eq!(e.line, 2, "{e:?}");
        let e = parse(Format::Jsonc, "{\n  \"a\": 1,,\n}\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 10), "{e:?}");
        let e = parse(Format::Jsonc, "{\n  'single': 1\n}\n").unwrap_err();
        assert_eq!(e.line, 2, "{e:?}");
        let e = parse(Format::Toml, "a = 1\nb = = 2\n").unwrap_err();
        assert_eq!(e.line, 2, "{e:?}");
        let e = parse(Format::Yaml, "a:\n  b: 1\n   c: 2\n").unwrap_err();
        assert_eq!(e.line, 3, "{e:?}");
        let e = parse(Format::Yaml, "a: [x, y\nb: 1\n").unwrap_err();
        assert!(e.line >= 1 && !e.message.is_empty(), "{e:?}");
        let e = parse(Format::Yaml, "a: 1\na: 2\n").unwrap_err();
        assert!(e.message.contains("duplicate"), "{e:?}");
    }
}
