//! The crate's layers, measured from its own imports (docs/architecture.md draws them).
//! Each top-level module of `src/` sits on one layer and may import only its own layer
//! and those below; test code may import anything. A new top-level module must be given
//! a layer here before it can land.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top to bottom. A module imports only from its own row and the rows below it.
const LAYERS: &[(&str, &[&str])] = &[
    ("entry", &["main", "cmd"]),
    ("mcp", &["mcp"]),
    ("dashboard", &["dashboard"]),
    ("services", &["tools", "services", "hook", "install"]),
    ("domain", &["fleet", "memory", "history", "auth"]),
    ("storage", &["lake", "spool", "cache", "snapshot"]),
    (
        "leaves",
        &[
            "lib",
            "ctx",
            "config",
            "paths",
            "error",
            "sanitize",
            "peer",
            "redact",
            "scrub",
            "time",
            "ulid",
            "digest",
            "fsutil",
            "rules",
            "repo",
            "scope",
            "output",
            "clean",
            "spelled",
            "vocab",
            "addr",
            "proptests",
        ],
    ),
];

fn rank(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, mods)| mods.contains(&module))
        .map(|i| LAYERS.len() - i)
}

pub(crate) fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

pub(crate) fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file: `src/a/b.rs` and `src/a/b/mod.rs` are `["a", "b"]`.
fn module_path(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// Where `mod name;` (with an optional `#[path]`) declared in `file` lives.
fn child_file(file: &Path, name: &str, path_attr: Option<&str>) -> PathBuf {
    let dir = file.parent().unwrap();
    if let Some(p) = path_attr {
        return dir.join(p);
    }
    let stem = file.file_stem().unwrap().to_string_lossy();
    let base = if stem == "mod" || stem == "lib" || stem == "main" {
        dir.to_path_buf()
    } else {
        dir.join(&*stem)
    };
    let flat = base.join(format!("{name}.rs"));
    if flat.exists() {
        flat
    } else {
        base.join(name).join("mod.rs")
    }
}

/// Files compiled only under `#[cfg(test)]`: declared behind it, and everything below them.
/// The module a line declares from another file (`mod name;`, any visibility).
fn declared_mod(l: &str) -> Option<&str> {
    let rest = match l.strip_prefix("pub") {
        Some(r) if r.starts_with('(') => r.split_once(')')?.1.trim_start(),
        Some(r) => r.trim_start(),
        None => l,
    };
    rest.strip_prefix("mod ")?.strip_suffix(';')
}

pub(crate) fn test_files(files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut roots = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for (i, l) in lines.iter().enumerate() {
            let Some(name) = declared_mod(l) else {
                continue;
            };
            let attrs: Vec<&str> = lines[..i]
                .iter()
                .rev()
                .take_while(|a| a.starts_with("#["))
                .copied()
                .collect();
            if attrs.iter().any(|a| a.starts_with("#[cfg(test)]")) {
                let path = attrs
                    .iter()
                    .find_map(|a| a.strip_prefix("#[path = \"")?.strip_suffix("\"]"));
                roots.push(child_file(f, name, path));
            }
        }
    }
    files
        .iter()
        .filter(|f| {
            roots
                .iter()
                .any(|r| *f == r || (r.ends_with("mod.rs") && f.starts_with(r.parent().unwrap())))
        })
        .cloned()
        .collect()
}

/// The text with every `#[cfg(test)]` item removed (an inline `mod tests { … }`, a `use`).
pub(crate) fn without_test_items(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let semi = after.find(';');
        let brace = after.find('{');
        let end = match (semi, brace) {
            (Some(s), Some(b)) if s < b => s + 1,
            (_, Some(b)) => {
                let mut depth = 0;
                let mut end = after.len();
                for (i, c) in after[b..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (Some(s), None) => s + 1,
            (None, None) => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The top-level modules `text` (of the file at module path `me`) names.
fn imported(text: &str, me: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        if text[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            continue; // `ctxlake_crate::…` and the like
        }
        let rest = &text[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            for part in inner.split(',') {
                let name = ident(part.trim());
                if !name.is_empty() && name != "self" {
                    out.insert(name);
                }
            }
        } else {
            out.insert(ident(rest));
        }
    }
    // `super::…` chains that climb to the crate root name a top-level module too.
    for (i, _) in text.match_indices("super::") {
        if text[..i].ends_with("super::") || text[..i].ends_with(|c: char| c.is_alphanumeric()) {
            continue;
        }
        let mut rest = &text[i..];
        let mut ups = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            ups += 1;
            rest = r;
        }
        if ups >= me.len() {
            out.insert(ident(rest));
        }
    }
    out.retain(|m| !m.is_empty());
    out
}

#[test]
fn no_import_runs_from_a_lower_layer_to_a_higher_one() {
    let mut files = Vec::new();
    rs_files(&src(), &mut files);
    files.sort();
    let tests = test_files(&files);
    let mut upward: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut unplaced = BTreeSet::new();
    for f in files.iter().filter(|f| !tests.contains(*f)) {
        let me = module_path(f);
        let top = me[0].clone();
        let Some(mine) = rank(&top) else {
            unplaced.insert(top);
            continue;
        };
        let text = without_test_items(&std::fs::read_to_string(f).unwrap());
        for m in imported(&text, &me) {
            if m == top {
                continue;
            }
            match rank(&m) {
                None => {
                    unplaced.insert(m);
                }
                Some(theirs) if theirs > mine => {
                    let rel = f.strip_prefix(src()).unwrap().display().to_string();
                    upward.entry(rel).or_default().insert(m);
                }
                Some(_) => {}
            }
        }
    }
    assert!(
        unplaced.is_empty(),
        "modules with no layer (add them to LAYERS in tests/cli/layers.rs and to docs/architecture.md): {unplaced:?}"
    );
    assert!(
        upward.is_empty(),
        "imports that run up a layer (file -> modules above it): {upward:#?}"
    );
}

/// The checker itself: an upward import in ordinary code is seen; the same import in a
/// test module, a comment or another crate's path is not.
#[test]
fn the_checker_sees_upward_imports_and_ignores_test_code() {
    let me = vec!["lake".to_string(), "store".to_string()];
    let found = |t: &str| imported(&without_test_items(t), &me);
    assert!(found("use crate::services::drain;").contains("services"));
    assert!(found("use crate::{error::Error, tools::Ctx};").contains("tools"));
    assert!(found("fn f() { super::super::cmd::run() }").contains("cmd"));
    assert!(!found("use super::keys;").contains("keys"));
    assert!(
        !found("#[cfg(test)]\nmod tests {\n use crate::services::x;\n}\n").contains("services")
    );
    assert!(!found("#[cfg(test)]\nuse crate::services::x;\n").contains("services"));
    assert!(!found("// see crate::services::x\n").contains("services"));
    assert_eq!(rank("services"), rank("tools"));
    assert!(rank("lake") < rank("fleet"));
}

/// A file a newcomer can read in one sitting: issue 24's "about 350 lines". Tables of rules
/// and cases are long by nature and exempt; anything else that grows splits into a folder.
const MAX_LINES: usize = 360;
const TABLES: &[&str] = &[
    "redact/rules.rs",
    "redact/tests/cases.rs",
    "redact/tests/noseyparker.rs",
];

#[test]
fn no_source_file_outgrows_one_sitting() {
    let mut files = Vec::new();
    rs_files(&src(), &mut files);
    let long: BTreeMap<String, usize> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(src()).unwrap().display().to_string();
            (rel, std::fs::read_to_string(f).unwrap().lines().count())
        })
        .filter(|(rel, n)| *n > MAX_LINES && !TABLES.contains(&rel.as_str()))
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines (split them into a folder of files named for what they do): {long:#?}"
    );
}

#[test]
fn the_checker_reads_a_module_declared_with_any_visibility() {
    for l in [
        "mod tests;",
        "pub mod tests;",
        "pub(crate) mod tests;",
        "pub(super) mod tests;",
        "pub(in crate::a) mod tests;",
    ] {
        assert_eq!(declared_mod(l), Some("tests"), "{l}");
    }
    assert_eq!(declared_mod("mod tests {"), None);
    assert_eq!(declared_mod("publish();"), None);
}
