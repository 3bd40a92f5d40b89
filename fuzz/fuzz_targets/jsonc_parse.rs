//! The JSONC config parser on arbitrary text: no panic, and any document it accepts that
//! serde_json also reads has the same value.
#![no_main]

use ctxlake::install::jsonc::Doc;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(doc) = Doc::parse(text) {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(text) {
            assert_eq!(doc.value(&[]), Some(v));
        }
    }
});
