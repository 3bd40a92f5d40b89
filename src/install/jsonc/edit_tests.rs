//! Unit tests of the JSONC editor: every insert must be undone byte-for-byte by its removal.

use super::*;
use crate::install::jsonc::keys;
use serde_json::json;

/// Both ways: the whole document parsed, and only the member the path starts at.
fn round_trip(before: &str, path: &[&str], expect_after: &str) {
    for mut d in [
        Doc::parse(before).unwrap(),
        Doc::parse_members(before, &path[..1]).unwrap(),
    ] {
        d.set(&keys(path), &json!({"command": "/x", "args": ["mcp"]}))
            .unwrap();
        assert_eq!(d.text(), expect_after, "after insert");
        assert!(d.remove(&keys(path)));
        assert_eq!(d.text(), before, "after remove");
    }
}

#[test]
fn insert_after_last_member_without_trailing_comma() {
    round_trip(
        "{\n  \"a\": 1 // keep me\n}\n",
        &["ctxlake"],
        "{\n  \"a\": 1, // keep me\n  \"ctxlake\": {\n    \"command\": \"/x\",\n    \"args\": [\n      \"mcp\"\n    ]\n  }\n}\n",
    );
}

#[test]
fn trailing_commas_and_tabs_are_kept() {
    round_trip(
        "{\n\t\"a\": 1,\n}",
        &["ctxlake"],
        "{\n\t\"a\": 1,\n\t\"ctxlake\": {\n\t\t\"command\": \"/x\",\n\t\t\"args\": [\n\t\t\t\"mcp\"\n\t\t]\n\t},\n}",
    );
}

#[test]
fn empty_and_created_parents() {
    let before = "{}";
    let mut d = Doc::parse(before).unwrap();
    let created = d.set(&keys(&["mcpServers", "ctxlake"]), &json!(1)).unwrap();
    assert_eq!(created, vec![keys(&["mcpServers"])]);
    assert_eq!(
        d.text(),
        "{\n  \"mcpServers\": {\n    \"ctxlake\": 1\n  }\n}"
    );
    assert!(d.remove(&keys(&["mcpServers", "ctxlake"])));
    assert_eq!(d.text(), "{\n  \"mcpServers\": {}\n}");
    assert!(d.remove(&keys(&["mcpServers"])));
    assert_eq!(d.text(), before);
}

#[test]
fn inline_objects_stay_inline() {
    round_trip(
        "{\"a\":1}",
        &["b"],
        "{\"a\":1,\"b\":{\"command\":\"/x\",\"args\":[\"mcp\"]}}",
    );
    round_trip(
        "{ \"a\": 1 }",
        &["b"],
        "{ \"a\": 1, \"b\": {\"command\": \"/x\", \"args\": [\"mcp\"]} }",
    );
}

#[test]
fn crlf_and_comment_only_objects() {
    round_trip(
        "{\r\n  \"s\": {\r\n    // none yet\r\n  }\r\n}\r\n",
        &["s", "k"],
        "{\r\n  \"s\": {\r\n    // none yet\r\n    \"k\": {\r\n      \"command\": \"/x\",\r\n      \"args\": [\r\n        \"mcp\"\r\n      ]\r\n    }\r\n  }\r\n}\r\n",
    );
}

#[test]
fn replace_in_place_and_remove_middle_member() {
    let mut d = Doc::parse("{\n  \"a\": 1,\n  \"b\": [1],\n  \"c\": 3\n}").unwrap();
    d.set(&keys(&["b"]), &json!({"x": true})).unwrap();
    assert_eq!(
        d.text(),
        "{\n  \"a\": 1,\n  \"b\": {\n    \"x\": true\n  },\n  \"c\": 3\n}"
    );
    assert!(d.remove(&keys(&["b"])));
    assert_eq!(d.text(), "{\n  \"a\": 1,\n  \"c\": 3\n}");
    assert!(!d.remove(&keys(&["zz"])));
}

#[test]
fn arrays_push_and_remove_items() {
    let before = "{\n  \"h\": [\n    {\"command\": \"user\"}\n  ]\n}\n";
    let mut d = Doc::parse(before).unwrap();
    let created = d.push(&keys(&["h"]), &json!({"command": "ours"})).unwrap();
    assert!(created.is_empty());
    assert_eq!(
        d.value(&keys(&["h"])).unwrap(),
        json!([{"command": "user"}, {"command": "ours"}])
    );
    let mut p = keys(&["h"]);
    p.push(Seg::Index(1));
    assert!(d.remove(&p));
    assert_eq!(d.text(), before);
    let created = d.push(&keys(&["x", "E"]), &json!(1)).unwrap();
    assert_eq!(created, vec![keys(&["x"]), keys(&["x", "E"])]);
}

#[test]
fn refuses_non_objects_on_the_path() {
    let mut d = Doc::parse("{\"mcpServers\": []}").unwrap();
    let e = d
        .set(&keys(&["mcpServers", "ctxlake"]), &json!(1))
        .unwrap_err();
    assert!(
        e.to_string().contains("`mcpServers` is not an object"),
        "{e}"
    );
    let mut d = Doc::parse("[]").unwrap();
    assert!(
        d.set(&keys(&["a"]), &json!(1))
            .unwrap_err()
            .to_string()
            .contains("top level")
    );
}

/// Shrunk by `install::props`: after an inline trailing comma, removal left behind the
/// space that insertion had put before the new member.
#[test]
fn inline_trailing_comma_round_trips() {
    round_trip(
        "{\"a\": 1,}",
        &["b"],
        "{\"a\": 1, \"b\": {\"command\": \"/x\", \"args\": [\"mcp\"]},}",
    );
}

/// The editor that parses only the members it edits splices exactly what the one that
/// parses everything does, and leaves every other byte alone.
#[test]
fn editing_one_member_matches_the_whole_parse() {
    let before = "{\n  \"projects\": {\"/p\": {\"h\": [\"}]\\\"\", 1e400, \"\\ud800\"]}}, // ]\n  \"mcpServers\": {\n    \"m\": {}\n  },\n  \"z\": [1]\n}\n";
    let path = keys(&["mcpServers", "ctxlake"]);
    let entry = json!({"command": "/x"});
    let mut d = Doc::parse_members(before, &["mcpServers"]).unwrap();
    d.set(&path, &entry).unwrap();
    let after = d.text().to_string();
    assert!(after.starts_with(&before[..before.find("  \"mcpServers\"").unwrap()]));
    assert!(after.ends_with("  },\n  \"z\": [1]\n}\n"), "{after}");
    assert_eq!(d.value(&path), Some(entry));
    assert!(d.remove(&path));
    assert_eq!(d.text(), before);
    // The whole-document parser refuses the lone surrogate and the huge number: the
    // one-member editor never reads them, so it can edit beside them.
    assert!(Doc::parse(before).is_err());
    let mut d = Doc::parse_members(before, &["new"]).unwrap();
    let created = d.set(&keys(&["new", "k"]), &json!(1)).unwrap();
    assert_eq!(created, vec![keys(&["new"])]);
    assert!(
        d.text()
            .ends_with("  \"z\": [1],\n  \"new\": {\n    \"k\": 1\n  }\n}\n")
    );
    assert_eq!(d.top_len(), 4);
}
