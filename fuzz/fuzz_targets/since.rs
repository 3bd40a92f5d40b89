//! `--since` and RFC 3339 parsing on arbitrary text: no panic; a parsed instant formats
//! and parses back to itself.
#![no_main]

use ctxlake::time::{format_ms, parse_rfc3339, parse_since};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = parse_since(text, 1_764_446_161_123);
    if let Some(ms) = parse_rfc3339(text) {
        if (0..253_402_300_800_000).contains(&ms) {
            assert_eq!(parse_rfc3339(&format_ms(ms)), Some(ms));
        }
    }
});
