//! Unit tests of the span-keeping parser: values, errors with their place, and the
//! top-level-only parse that skips the members the editor does not touch.

use super::*;

#[test]
fn parses_jsonc_with_comments_and_trailing_commas() {
    let t = "// head\n{\n  \"a\": [1, 2,], /* x */\n  \"b\": {\"c\": \"d\\\"\"},\n}\n";
    let n = parse(t).unwrap();
    assert_eq!(
        to_value(t, &n),
        serde_json::json!({"a": [1, 2], "b": {"c": "d\""}})
    );
    let NodeKind::Object(slots) = &n.kind else {
        panic!()
    };
    assert_eq!(&t[slots[0].start..slots[0].start + 3], "\"a\"");
    assert!(slots[1].comma.is_some());
}

#[test]
fn errors_carry_line_and_column() {
    let e = parse("{\n  \"a\": 1\n  \"b\": 2\n}").unwrap_err();
    assert_eq!((e.line, e.column), (3, 3));
    assert!(e.message.contains("expected `,`"), "{}", e.message);
    let e = parse("{\"a\": tru}").unwrap_err();
    assert_eq!((e.line, e.column), (1, 7));
    assert!(parse("{\"a\": 1} x").is_err());
    assert!(parse("").is_err());
    assert!(parse("{\"a\": \"x").is_err());
    assert!(parse("[1 /* never closed").is_err());
}

#[test]
fn parse_members_parses_only_the_named_members() {
    let t = "{\n  \"big\": {\"x\": [1, \"]}\\\"\", {\"y\": 2}]}, // ]}\n  \"n\": 3,\n  \"mcp\": {\"a\": [1]},\n  \"list\": [/* { */ 1],\n}\n";
    let full = parse(t).unwrap();
    let some = parse_members(t, &["mcp"]).unwrap();
    let NodeKind::Object(slots) = &some.kind else {
        panic!()
    };
    let kinds: Vec<&str> = slots
        .iter()
        .map(|s| match s.value.kind {
            NodeKind::Lazy => "lazy",
            NodeKind::Scalar => "scalar",
            NodeKind::Object(_) => "object",
            NodeKind::Array(_) => "array",
        })
        .collect();
    assert_eq!(kinds, ["lazy", "scalar", "object", "lazy"]);
    // Same spans as the whole parse, and the same value (skipped members parsed on demand).
    let NodeKind::Object(all) = &full.kind else {
        panic!()
    };
    for (a, b) in all.iter().zip(slots) {
        assert_eq!(
            (a.start, a.value.start, a.value.end, a.comma),
            (b.start, b.value.start, b.value.end, b.comma)
        );
    }
    assert_eq!(to_value(t, &some), to_value(t, &full));
}

/// Where the scan cannot delimit a skipped member, or a named member does not parse, the
/// error is the whole-document parser's, at its line and column.
#[test]
fn parse_members_falls_back_to_the_full_parse_for_its_errors() {
    for t in [
        "{\"big\": [\"never closed], \"mcp\": {}}",
        "{\"big\": [1, 2}, \"mcp\": {}}",
        "{\"big\": [1 /* open, \"mcp\": {}}",
        "{\"big\": {}, \"mcp\": {\"a\": 01}}",
        "{\"big\": {}, \"mcp\": {\"a\": \"\\ud800\"}}",
        "{\"big\": {}, \"mcp\": {}} tail",
    ] {
        let want = parse(t).unwrap_err();
        assert_eq!(parse_members(t, &["mcp"]).unwrap_err(), want, "{t}");
    }
    // A skipped member's inside is not the scan's to check: the guard's parser refuses it.
    assert!(parse_members("{\"big\": [1,, 01], \"mcp\": {}}", &["mcp"]).is_ok());
}
