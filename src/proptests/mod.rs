//! Property tests (issue 14 §2) of the spool reader's resync and `--since` parsing, and the
//! generators every property module shares. Modules that need private items sit beside
//! their code: `mcp::tests::props`, `hook::props`, `install::props`.
//! Case counts are bounded so the whole set stays a few seconds of `cargo test`; shrunk
//! failures land in `proptest-regressions/` and are replayed first on every run.

use proptest::prelude::*;
use serde_json::{Map, Value};

mod spool;
mod time;

/// `cases` runs, shrinking capped so a failure reports in seconds, not minutes.
pub(crate) fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_shrink_iters: 2048,
        ..ProptestConfig::default()
    }
}

/// Text that is hostile to line- and JSON-based framing: quotes, braces, newlines, escapes,
/// the spool frame prefix, non-ASCII and control characters.
pub(crate) fn nasty_text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::collection::vec(any::<char>(), 0..8).prop_map(String::from_iter),
        2 => "[a-z0-9 ._/-]{0,12}",
        1 => Just(String::from_utf8_lossy(crate::spool::PREFIX).into_owned()),
        1 => Just("\n\r\t\\\"{}[]:,\u{0}\u{2028}é🦀".to_string()),
        1 => Just("{\"v\":1,\"crc\":\"00000000\",\"id\":\"x\"}".to_string()),
    ]
}

/// Arbitrary JSON: nested arrays and objects over every scalar kind, floats included.
pub(crate) fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        nasty_text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((nasty_text(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}
