//! The spool reader on arbitrary bytes: no panic, offsets in bounds, every record it
//! returns re-encodes to a line that is in the input.
#![no_main]

use ctxlake::spool::{encode, scan};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = scan(data, 0);
    assert_eq!(s.end_offset + s.partial_tail_bytes, data.len() as u64);
    for r in &s.records {
        let line = encode(r);
        assert!(data.windows(line.len()).any(|w| w == &line[..]));
    }
});
