//! Codex's `config.toml`: add or remove `[mcp_servers.ctxlake]` with toml_edit, which keeps
//! every other table, comment and blank line as it was.

use super::shape::Shape;
use serde_json::Value;
use toml_edit::{Array, DocumentMut, Item, Table, value};

use super::jsonc::ParseError;

pub fn parse(text: &str) -> Result<DocumentMut, ParseError> {
    text.parse::<DocumentMut>().map_err(|e| {
        let (line, column) = e
            .span()
            .map(|s| super::jsonc::line_col(text, s.start))
            .unwrap_or((1, 1));
        let message = e.message().trim().to_string();
        ParseError {
            line,
            column,
            message,
        }
    })
}

/// The entry as JSON, if present (for "already installed" and `--list`).
pub fn get(doc: &DocumentMut, table: &str, name: &str) -> Option<Value> {
    let t = doc.get(table)?.as_table_like()?.get(name)?;
    Some(to_json(t))
}

/// Add (or replace) `[table.name]` by appending its text at the end of the file, so no
/// existing byte moves (toml_edit would re-home a trailing comment). The result is re-parsed
/// and compared with what the edit should have produced; anything else is refused.
pub fn set(text: &str, table: &str, name: &str, entry: &Value) -> Result<String, Shape> {
    let before = parse(text).map_err(|e| Shape::Unparsable(e.message))?;
    let base = if get(&before, table, name).is_some() {
        remove(text, table, name)?
    } else {
        text.to_string()
    };
    let mut out = base.clone();
    // A file that ends without a newline keeps ending without one: `remove` reads that back.
    let unterminated = !out.is_empty() && !out.ends_with('\n');
    if unterminated {
        out.push('\n');
    }
    if !out.is_empty() {
        out.push('\n');
    }
    let mut block = render(table, name, entry);
    if unterminated {
        block.pop();
    }
    out.push_str(&block);
    let mut want = to_json(before.as_item());
    want[table][name] = entry.clone();
    check(&out, &want)?;
    Ok(out)
}

/// Remove `[table.name]` (and its sub-tables) as text; drops the blank line `set` added.
pub fn remove(text: &str, table: &str, name: &str) -> Result<String, Shape> {
    let before = parse(text).map_err(|e| Shape::Unparsable(e.message))?;
    if get(&before, table, name).is_none() {
        return Ok(text.to_string());
    }
    let head = format!("[{table}.{name}]");
    let sub = format!("[{table}.{name}.");
    let lines: Vec<(usize, &str)> = line_spans(text);
    let Some(first) = lines.iter().position(|(_, l)| l.trim() == head) else {
        return Err(Shape::NotATable {
            table: table.into(),
            name: name.into(),
        });
    };
    let mut last = first;
    for (i, (_, l)) in lines.iter().enumerate().skip(first + 1) {
        let t = l.trim();
        if t.starts_with('[') && !t.starts_with(&sub) {
            break;
        }
        if !t.is_empty() && !t.starts_with('#') {
            last = i;
        }
    }
    let start = lines[first].0;
    let stop = lines[last].0 + lines[last].1.len();
    let mut start = if text[..start].ends_with("\n\n") {
        start - 1
    } else {
        start
    };
    // Our block ends a file that has no final newline: `set` also added the line break.
    if stop == text.len() && !text.ends_with('\n') && text[..start].ends_with('\n') {
        start -= 1;
    }
    let out = format!("{}{}", &text[..start], &text[stop..]);
    let mut want = to_json(before.as_item());
    if let Some(m) = want.get_mut(table).and_then(Value::as_object_mut) {
        m.remove(name);
        if m.is_empty() && !out.contains(&format!("[{table}]")) {
            want.as_object_mut().map(|o| o.remove(table));
        }
    }
    check(&out, &want)?;
    Ok(out)
}

fn render(table: &str, name: &str, entry: &Value) -> String {
    let mut t = Table::new();
    let mut env = Table::new();
    for (k, v) in entry.as_object().into_iter().flatten() {
        match v {
            Value::String(s) => {
                t.insert(k, value(s.as_str()));
            }
            Value::Array(a) => {
                let arr: Array = a.iter().filter_map(Value::as_str).collect();
                t.insert(k, value(arr));
            }
            Value::Object(m) => {
                for (ek, ev) in m {
                    env.insert(ek, value(ev.as_str().unwrap_or_default()));
                }
            }
            Value::Bool(b) => {
                t.insert(k, value(*b));
            }
            _ => {}
        }
    }
    if !env.is_empty() {
        t.insert("env", Item::Table(env));
    }
    let mut parent = Table::new();
    parent.set_implicit(true);
    parent.insert(name, Item::Table(t));
    let mut doc = DocumentMut::new();
    doc.insert(table, Item::Table(parent));
    doc.to_string()
}

fn check(out: &str, want: &Value) -> Result<(), Shape> {
    let doc = parse(out).map_err(|e| Shape::Unparsable(e.message))?;
    if &to_json(doc.as_item()) != want {
        return Err(Shape::Overreach);
    }
    Ok(())
}

/// (byte offset, line including its newline).
fn line_spans(text: &str) -> Vec<(usize, &str)> {
    let mut at = 0;
    text.split_inclusive('\n')
        .map(|l| {
            at += l.len();
            (at - l.len(), l)
        })
        .collect()
}

pub(crate) fn to_json(item: &Item) -> Value {
    match item {
        Item::Value(v) => value_to_json(v),
        Item::Table(t) => {
            Value::Object(t.iter().map(|(k, v)| (k.to_string(), to_json(v))).collect())
        }
        Item::ArrayOfTables(a) => {
            Value::Array(a.iter().map(|t| to_json(&Item::Table(t.clone()))).collect())
        }
        Item::None => Value::Null,
    }
}

fn value_to_json(v: &toml_edit::Value) -> Value {
    use toml_edit::Value as V;
    match v {
        V::String(s) => Value::String(s.value().clone()),
        V::Integer(i) => Value::from(*i.value()),
        V::Float(f) => Value::from(*f.value()),
        V::Boolean(b) => Value::Bool(*b.value()),
        V::Datetime(d) => Value::String(d.value().to_string()),
        V::Array(a) => Value::Array(a.iter().map(value_to_json).collect()),
        V::InlineTable(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_string(), value_to_json(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry() -> Value {
        json!({"command": "/bin/ctxlake", "args": ["mcp"], "env": {"CTXLAKE_FLEET_ID": "f"}})
    }

    #[test]
    fn round_trip_keeps_comments_and_other_tables() {
        let before = "# my codex config\nmodel = \"o3\" # inline\n\n[mcp_servers.memory]\ncommand = \"m\"\nstartup_timeout_sec = 20\n# trailing\n";
        let after = set(before, "mcp_servers", "ctxlake", &entry()).unwrap();
        assert!(after.starts_with(before), "{after}");
        assert!(after.ends_with("\n\n[mcp_servers.ctxlake]\ncommand = \"/bin/ctxlake\"\nargs = [\"mcp\"]\n\n[mcp_servers.ctxlake.env]\nCTXLAKE_FLEET_ID = \"f\"\n"), "{after}");
        assert_eq!(
            get(&parse(&after).unwrap(), "mcp_servers", "ctxlake").unwrap(),
            entry()
        );
        assert_eq!(remove(&after, "mcp_servers", "ctxlake").unwrap(), before);
        // Replacing keeps one copy.
        let again = set(
            &after,
            "mcp_servers",
            "ctxlake",
            &json!({"command": "/new"}),
        )
        .unwrap();
        assert_eq!(again.matches("[mcp_servers.ctxlake]").count(), 1);
    }

    #[test]
    fn created_parent_goes_away_and_inline_parent_is_refused() {
        let before = "model = \"o3\"";
        let after = set(before, "mcp_servers", "ctxlake", &entry()).unwrap();
        assert!(!after.contains("[mcp_servers]\n"), "{after}");
        assert_eq!(remove(&after, "mcp_servers", "ctxlake").unwrap(), before);
        let e = set(
            "mcp_servers = { a = { command = \"x\" } }\n",
            "mcp_servers",
            "ctxlake",
            &entry(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("would not parse"), "{e}");
    }

    #[test]
    fn user_text_after_our_table_is_kept() {
        let before = "[mcp_servers.ctxlake]\ncommand = \"x\"\n# about next\n[other]\na = 1\n";
        assert_eq!(
            remove(before, "mcp_servers", "ctxlake").unwrap(),
            "# about next\n[other]\na = 1\n"
        );
    }

    /// Shrunk by `install::props::toml`: the line break `set` adds to a file without a final
    /// newline stayed behind after `remove`.
    #[test]
    fn a_file_without_final_newline_keeps_it_missing() {
        for before in ["[t]", "a = 1", "[t]\n", "# c"] {
            let after = set(before, "mcp_servers", "ctxlake", &entry()).unwrap();
            assert_eq!(remove(&after, "mcp_servers", "ctxlake").unwrap(), before);
        }
    }

    #[test]
    fn malformed_toml_has_line_and_column() {
        let e = parse("a = 1\nb = = 2\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.column > 1);
    }
}
