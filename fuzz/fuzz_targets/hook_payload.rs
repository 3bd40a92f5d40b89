//! Hook payload parsing on arbitrary bytes (as stdin) and the session-id sanitizer.
#![no_main]

use ctxlake::hook::payload::{normalize, safe_session};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(data) {
        let e = normalize(&v, None);
        if let Some(s) = e.session {
            let safe = safe_session(&s);
            assert!(!safe.is_empty() && !safe.contains(".."));
        }
    }
});
