//! Codex `config.toml`: top-level keys, tables, other MCP servers (as sub-tables, under an
//! explicit `[mcp_servers]`, or inline), comments, blank lines, final newline or not.

use proptest::prelude::*;
use toml_edit::Value as TomlValue;

use super::{comment_text, config, cycle, target};
use crate::install::runtimes::Format;
use crate::install::toml;

fn scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>().prop_map(|s| TomlValue::from(s).to_string()),
        any::<i64>().prop_map(|i| i.to_string()),
        any::<bool>().prop_map(|b| b.to_string()),
        prop::collection::vec(0..100i64, 0..3).prop_map(|a| format!("{a:?}")),
    ]
}

fn pairs(key: &'static str) -> impl Strategy<Value = Vec<(String, String)>> {
    prop::collection::btree_map(key, scalar(), 0..3).prop_map(|m| m.into_iter().collect())
}

/// How the other MCP servers are written.
#[derive(Debug, Clone, Copy)]
enum Servers {
    SubTables,
    UnderHeader,
    Inline,
}

#[derive(Debug, Clone)]
struct Doc {
    top: Vec<(String, String)>,
    tables: Vec<(String, Vec<(String, String)>)>,
    servers: Vec<(String, Vec<(String, String)>)>,
    style: Servers,
    /// Where the servers block sits among the tables.
    at: prop::sample::Index,
    comment: Option<String>,
    blank_lines: bool,
    final_newline: bool,
}

fn doc() -> impl Strategy<Value = Doc> {
    let tables = prop::collection::btree_map("t[a-z]{0,4}", pairs("[a-z]{1,5}"), 0..3);
    let servers = prop::collection::btree_map("s[a-z]{0,4}", pairs("[a-z]{1,5}"), 0..3);
    let style =
        prop::sample::select(&[Servers::SubTables, Servers::UnderHeader, Servers::Inline][..]);
    let flags = (
        proptest::option::of(comment_text()),
        any::<bool>(),
        any::<bool>(),
    );
    (
        pairs("k[a-z]{0,4}"),
        tables,
        servers,
        style,
        any::<prop::sample::Index>(),
        flags,
    )
        .prop_map(
            |(top, tables, servers, style, at, (comment, blank_lines, final_newline))| Doc {
                top,
                tables: tables.into_iter().collect(),
                servers: servers.into_iter().collect(),
                style,
                at,
                comment,
                blank_lines,
                final_newline,
            },
        )
}

fn render(d: &Doc) -> String {
    let note = |out: &mut String| {
        if let Some(c) = &d.comment {
            out.push_str(&format!("# {c}\n"));
        }
    };
    let gap = if d.blank_lines { "\n" } else { "" };
    let body = |kv: &[(String, String)]| -> String {
        kv.iter().map(|(k, v)| format!("{k} = {v}\n")).collect()
    };
    let mut sections: Vec<String> = d
        .tables
        .iter()
        .map(|(name, kv)| format!("{gap}[{name}]\n{}", body(kv)))
        .collect();
    let servers = match d.style {
        Servers::SubTables => d
            .servers
            .iter()
            .map(|(n, kv)| format!("{gap}[mcp_servers.{n}]\n{}", body(kv)))
            .collect(),
        Servers::UnderHeader => {
            let subs: String = d
                .servers
                .iter()
                .map(|(n, kv)| format!("[mcp_servers.{n}]\n{}", body(kv)))
                .collect();
            format!("{gap}[mcp_servers]\n{subs}")
        }
        Servers::Inline => {
            let inline = |kv: &[(String, String)]| {
                kv.iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let lines: String = d
                .servers
                .iter()
                .map(|(n, kv)| format!("{n} = {{ {} }}\n", inline(kv)))
                .collect();
            format!("{gap}[mcp_servers] # others\n{lines}")
        }
    };
    sections.insert(d.at.index(sections.len() + 1), servers);
    let mut out = String::new();
    note(&mut out);
    out.push_str(&body(&d.top));
    for s in sections {
        out.push_str(&s);
        note(&mut out);
    }
    if !d.final_newline && out.ends_with('\n') {
        out.pop();
    }
    out
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn install_then_uninstall_restores_every_byte(t in target(&[Format::Toml]), d in doc()) {
        let before = render(&d);
        prop_assert!(toml::parse(&before).is_ok(), "generator wrote invalid TOML:\n{}", before);
        let parses = |after: &str| -> Result<(), TestCaseError> {
            let doc = toml::parse(after).map_err(|e| TestCaseError::fail(format!("{e:?}\n{after}")))?;
            let entry = t.mcp.as_ref().map(|(_, e)| e);
            let got = toml::get(&doc, "mcp_servers", "ctxlake");
            prop_assert_eq!(got.as_ref(), entry, "{}", after);
            Ok(())
        };
        if let Some(c) = cycle(&t, &before, &parses)? {
            prop_assert_eq!(c.back, before, "after install:\n{}", c.after);
        }
    }
}
