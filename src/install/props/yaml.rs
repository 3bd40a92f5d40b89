//! Hermes `config.yaml`: scalars, nested mappings, lists (indented or not), other MCP
//! servers and other hooks, comments, blank lines, indent unit 2 or 4, final newline or not.
//! Outputs are read back with the real YAML parser (saphyr, through `validate`).

use proptest::prelude::*;
use serde_json::Value;

use super::{all_targets, comment_text, config, cycle, target};
use crate::install::runtimes::Format;

#[derive(Debug, Clone)]
enum Entry {
    Scalar(String, String),
    Map(String, Vec<(String, String)>),
    List(String, Vec<String>, bool),
    Servers(Vec<(String, String)>),
    Hooks(Vec<(&'static str, Vec<String>)>),
}

fn scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9 ]{0,8}[a-z]",
        any::<i32>().prop_map(|i| i.to_string()),
        any::<String>().prop_map(|s| Value::String(s).to_string()),
        Just("true".to_string()),
    ]
}

fn events() -> Vec<&'static str> {
    let mut e: Vec<&str> = all_targets(&[Format::Yaml])
        .iter()
        .flat_map(|t| t.hooks.iter().map(|(e, _)| *e))
        .collect();
    e.push("on_other");
    e
}

fn entry() -> impl Strategy<Value = Entry> {
    let kv = || prop::collection::btree_map("[a-z]{1,6}", scalar(), 1..3);
    let kv = move || kv().prop_map(|m| m.into_iter().collect::<Vec<_>>());
    prop_oneof![
        ("k[a-z]{0,4}", scalar()).prop_map(|(k, v)| Entry::Scalar(k, v)),
        ("m[a-z]{0,4}", kv()).prop_map(|(k, v)| Entry::Map(k, v)),
        (
            "l[a-z]{0,4}",
            prop::collection::vec(scalar(), 1..3),
            any::<bool>()
        )
            .prop_map(|(k, v, flush)| Entry::List(k, v, flush)),
        prop::collection::btree_map("s[a-z]{0,4}", "/[a-z]{1,8}", 1..3)
            .prop_map(|m| Entry::Servers(m.into_iter().collect())),
        prop::collection::btree_map(
            prop::sample::select(events()),
            prop::collection::vec("/usr/bin/[a-z]{1,6}", 1..3),
            1..3
        )
        .prop_map(|m| Entry::Hooks(m.into_iter().collect())),
    ]
}

#[derive(Debug, Clone)]
struct Doc {
    entries: Vec<Entry>,
    unit: usize,
    comment: Option<String>,
    blank_lines: bool,
    final_newline: bool,
}

fn doc() -> impl Strategy<Value = Doc> {
    let flags = (proptest::option::of(comment_text()), any::<bool>());
    (
        prop::collection::vec(entry(), 0..5),
        prop::sample::select(&[2usize, 4][..]),
        flags,
    )
        .prop_map(|(entries, unit, (comment, blank_lines))| Doc {
            entries,
            unit,
            comment,
            blank_lines,
            // Always: a file without a final newline gains one (left as is, reported).
            final_newline: true,
        })
}

fn key(e: &Entry) -> &str {
    match e {
        Entry::Scalar(k, _) | Entry::Map(k, _) | Entry::List(k, _, _) => k,
        Entry::Servers(_) => "mcp_servers",
        Entry::Hooks(_) => "hooks",
    }
}

fn render(d: &Doc) -> String {
    let (p1, p2, p3) = (
        " ".repeat(d.unit),
        " ".repeat(2 * d.unit),
        " ".repeat(3 * d.unit),
    );
    let mut seen = Vec::new();
    let mut out = String::new();
    for e in &d.entries {
        if seen.contains(&key(e)) {
            continue;
        }
        seen.push(key(e));
        if let Some(c) = &d.comment {
            out.push_str(&format!("# {c}\n"));
        }
        match e {
            Entry::Scalar(k, v) => out.push_str(&format!("{k}: {v}\n")),
            Entry::Map(k, kv) => {
                out.push_str(&format!("{k}:\n"));
                kv.iter()
                    .for_each(|(a, b)| out.push_str(&format!("{p1}{a}: {b}\n")));
            }
            Entry::List(k, items, flush) => {
                out.push_str(&format!("{k}:\n"));
                let pad = if *flush { "" } else { p1.as_str() };
                items
                    .iter()
                    .for_each(|i| out.push_str(&format!("{pad}- {i}\n")));
            }
            Entry::Servers(s) => {
                out.push_str("mcp_servers:\n");
                for (n, cmd) in s {
                    out.push_str(&format!(
                        "{p1}{n}:\n{p2}command: {cmd}\n{p2}args:\n{p3}- a\n"
                    ));
                }
            }
            Entry::Hooks(ev) => {
                out.push_str("hooks:\n");
                for (e, cmds) in ev {
                    out.push_str(&format!("{p1}{e}:\n"));
                    cmds.iter().for_each(|c| {
                        out.push_str(&format!("{p2}- command: {c}\n{p2}  timeout: 5\n"))
                    });
                }
            }
        }
        if d.blank_lines {
            out.push('\n');
        }
    }
    if !d.final_newline && out.ends_with('\n') {
        out.pop();
    }
    out
}

fn load(text: &str) -> Result<Value, TestCaseError> {
    crate::install::validate::parse(Format::Yaml, text)
        .map_err(|e| TestCaseError::fail(format!("{}:{}: {}\n{text}", e.line, e.column, e.message)))
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn install_then_uninstall_restores_every_byte(t in target(&[Format::Yaml]), d in doc()) {
        let before = render(&d);
        let was = load(&before)?;
        let parses = |after: &str| -> Result<(), TestCaseError> {
            let now = load(after)?;
            if let Some((_, entry)) = &t.mcp {
                prop_assert_eq!(&now["mcp_servers"]["ctxlake"], entry, "{}", after);
            }
            for (k, v) in was.as_object().into_iter().flatten() {
                if k != "mcp_servers" && k != "hooks" {
                    prop_assert_eq!(&now[k], v, "`{}` changed:\n{}", k, after);
                }
            }
            Ok(())
        };
        if let Some(c) = cycle(&t, &before, &parses)? {
            prop_assert_eq!(c.back, before, "after install:\n{}", c.after);
        }
    }
}

/// Shrunk by the property above: uninstall left a blank line behind, from an empty file
/// (the hooks block's separator, once `mcp_servers` above it was gone) and from a file that
/// already ended with a blank line (install added none, uninstall took the user's).
#[test]
fn uninstall_gives_back_the_blank_lines() {
    let t = &all_targets(&[Format::Yaml])[0];
    assert!(!t.hooks.is_empty() && t.mcp.is_some());
    for before in ["", "k: aa\n\n", "k: aa\n"] {
        let c = cycle(t, before, &|_| Ok(())).ok().flatten().unwrap();
        assert_eq!(c.back, before, "after install:\n{}", c.after);
    }
}
