//! The eight tools: plain functions with typed input and output that never print.
//! `registry()` is the one list both the CLI and the MCP server read.

use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;

use crate::error::{Error, Result};

pub mod fleet;
pub mod memory;
pub mod queue;

pub use crate::ctx::Ctx;

/// A tool as both surfaces see it.
pub struct Tool {
    pub name: &'static str,
    pub description: &'static str,
    pub read_only: bool,
    pub input_schema: fn() -> Value,
    pub output_schema: fn() -> Value,
    /// The output's free-text fields that other agents wrote (`agents[].leases[].reason`):
    /// labelled as peer text in the text a model reads (`crate::peer`), raw in the
    /// structured output. Identifiers a caller passes back (paths, repos, ids) are not.
    pub peer_fields: &'static [&'static str],
    /// Deserialize arguments, run, serialize the output object.
    pub call: fn(&Ctx, Value) -> Result<Value>,
}

/// Adding a tool = one module + one line here.
pub fn registry() -> &'static [Tool] {
    static TOOLS: [Tool; 8] = [
        fleet::status::TOOL,
        fleet::claim::TOOL,
        fleet::release::TOOL,
        fleet::history::TOOL,
        fleet::handoff::TOOL,
        memory::search::TOOL,
        memory::propose::TOOL,
        memory::timeline::TOOL,
    ];
    &TOOLS
}

pub fn find(name: &str) -> Option<&'static Tool> {
    registry().iter().find(|t| t.name == name)
}

/// Decode `args` into the tool's input type (naming the bad field), run it, encode the output.
pub fn invoke<I: DeserializeOwned, O: Serialize>(
    ctx: &Ctx,
    args: Value,
    run: fn(&Ctx, I) -> Result<O>,
) -> Result<Value> {
    let args = if args.is_null() {
        Value::Object(Default::default())
    } else {
        args
    };
    let input: I = serde_json::from_value(args).map_err(|e| {
        Error::bad_arguments("invalid_arguments", format!("invalid arguments: {e}"))
            .hint("see the tool's inputSchema (`ctxlake mcp` tools/list)")
    })?;
    let out = run(ctx, input)?;
    serde_json::to_value(out)
        .map_err(|e| Error::internal("output_encode", "cannot encode the tool output").source(e))
}

/// The JSON Schema (draft 2020-12, subschemas inlined, root `type: object`) of `T`.
pub fn schema_of<T: schemars::JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    let mut v = generator.into_root_schema_for::<T>().to_value();
    if let Some(o) = v.as_object_mut() {
        o.remove("$schema");
        o.remove("title");
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names_are_unique_snake_case_and_schemas_are_objects() {
        let mut names: Vec<_> = registry().iter().map(|t| t.name).collect();
        assert_eq!(names.len(), 8);
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 8);
        for t in registry() {
            assert!(
                t.name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{}",
                t.name
            );
            for s in [(t.input_schema)(), (t.output_schema)()] {
                assert_eq!(s["type"], "object", "{}: {s}", t.name);
                assert!(
                    !s.to_string().contains("$ref"),
                    "{} schema must be inlined",
                    t.name
                );
            }
            assert_eq!(
                (t.input_schema)()["additionalProperties"],
                false,
                "{}",
                t.name
            );
            assert!(
                t.description.len() > 60,
                "{} needs a description an agent can tell apart",
                t.name
            );
        }
        assert!(find("memory_write").is_none());
    }

    /// An absent output value is left out, never sent as `null`: a nullable costs a model
    /// three times its type alone in every tools/list (`tests/cli/mcp/tokens.rs`). An
    /// `Option` output field needs `skip_serializing_if` and `#[schemars(with = "T")]`.
    #[test]
    fn output_schemas_never_accept_null() {
        for t in registry() {
            let schema = (t.output_schema)().to_string();
            assert!(
                !schema.contains("\"null\""),
                "{}: an output field may be null: {schema}",
                t.name
            );
        }
    }

    /// Each declared peer field names a text field of the tool's output schema, so a
    /// renamed field cannot silently stop being labelled.
    #[test]
    fn peer_fields_name_text_fields_of_the_output() {
        fn text_at(schema: &Value, path: &[&str]) -> bool {
            let Some((first, rest)) = path.split_first() else {
                let types = schema["type"].to_string();
                return types.contains("string")
                    || (types.contains("array") && schema["items"]["type"] == "string");
            };
            let (key, every) = match first.strip_suffix("[]") {
                Some(k) => (k, true),
                None => (*first, false),
            };
            let field = &schema["properties"][key];
            if every {
                text_at(&field["items"], rest)
            } else {
                text_at(field, rest)
            }
        }
        let mut labelled = 0;
        for t in registry() {
            let schema = (t.output_schema)();
            for p in t.peer_fields {
                let path: Vec<&str> = p.split('.').collect();
                assert!(
                    text_at(&schema, &path),
                    "{}: `{p}` is not a text field",
                    t.name
                );
                labelled += 1;
            }
            if t.read_only {
                assert!(!t.peer_fields.is_empty(), "{} reads peer text", t.name);
            }
        }
        assert!(labelled >= 8);
    }
}
