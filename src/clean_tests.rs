//! The cleaning decoder reaches every string, however deep or however typed, and leaves
//! clean text borrowed.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::from_slice;

/// A shape no reader has: strings in options, lists, maps (keys too), tuples, enums.
#[derive(serde::Deserialize)]
struct Any<'a> {
    plain: String,
    opt: Option<String>,
    list: Vec<String>,
    map: BTreeMap<String, String>,
    pair: (String, String),
    tagged: Tagged,
    value: serde_json::Value,
    #[serde(borrow)]
    lean: Cow<'a, str>,
}

#[derive(serde::Deserialize)]
enum Tagged {
    Note { text: String },
}

/// Escaped (serde_json hands over a copy) and raw (it lends the input's bytes).
#[test]
fn every_string_at_every_depth_is_cleaned() {
    every_string_cleaned("x\\u202e\\udb40\\udc41\\u001b[2J");
    every_string_cleaned("x\u{202E}\u{E0041}");
}

fn every_string_cleaned(bad: &str) {
    let json = format!(
        r#"{{"plain":"{bad}","opt":"{bad}","list":["{bad}"],"map":{{"{bad}":"{bad}"}},
        "pair":["{bad}","{bad}"],"tagged":{{"Note":{{"text":"{bad}"}}}},
        "value":{{"{bad}":["{bad}"]}},"lean":"{bad}"}}"#
    );
    let a: Any = from_slice(json.as_bytes()).unwrap();
    let Tagged::Note { text } = &a.tagged;
    let mut all = vec![
        &a.plain,
        a.opt.as_ref().unwrap(),
        &a.list[0],
        &a.pair.0,
        &a.pair.1,
        text,
    ];
    all.extend(a.map.iter().flat_map(|(k, v)| [k, v]));
    let value = a.value.to_string();
    for s in all
        .iter()
        .map(|s| s.as_str())
        .chain([value.as_str(), &*a.lean])
    {
        assert!(
            !s.contains(['\u{202E}', '\u{E0041}', '\u{1b}']),
            "{s:?} escaped the boundary"
        );
        assert!(s.contains('x'), "{s:?} lost its text");
    }
}

#[test]
fn clean_text_stays_borrowed() {
    #[derive(serde::Deserialize)]
    struct Lean<'a> {
        #[serde(borrow)]
        s: Cow<'a, str>,
    }
    let l: Lean = from_slice(br#"{"s":"plain text"}"#).unwrap();
    assert!(matches!(l.s, Cow::Borrowed("plain text")));
}

#[test]
fn syntax_errors_stay_syntax_errors() {
    let e = from_slice::<Vec<String>>(b"[\"a\",").unwrap_err();
    assert!(e.is_eof() || e.is_syntax());
    let e = from_slice::<Vec<String>>(b"[\"a\"] x").unwrap_err();
    assert!(e.is_syntax());
}
