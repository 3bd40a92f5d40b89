//! A JSONL transcript, one bounded line at a time: a 500 MB directory is streamed, and a
//! line too long or not JSON is skipped and counted instead of read whole.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde_json::Value;

use crate::error::{Error, Result};

/// Longer lines (a tool result with a whole file in it) are skipped unread: nothing a
/// history needs is that long.
pub(crate) const MAX_LINE: usize = 8 << 20;

/// Call `each` with every line of `path` that parses as a JSON object; the count of
/// lines that did not.
pub(crate) fn for_each(path: &Path, each: &mut dyn FnMut(Value)) -> Result<usize> {
    let file = std::fs::File::open(path).map_err(|e| Error::io("cannot open", path, e))?;
    let mut reader = BufReader::with_capacity(64 << 10, file);
    let mut skipped = 0;
    let mut line = Vec::new();
    loop {
        line.clear();
        let (n, whole) =
            read_line(&mut reader, &mut line).map_err(|e| Error::io("cannot read", path, e))?;
        if n == 0 {
            break;
        }
        if !whole {
            skipped += 1;
            continue;
        }
        let text = line.trim_ascii();
        if text.is_empty() {
            continue;
        }
        match serde_json::from_slice::<Value>(text) {
            Ok(v) if v.is_object() => each(v),
            _ => skipped += 1,
        }
    }
    Ok(skipped)
}

/// One line into `buf`, keeping at most [`MAX_LINE`] bytes of it; (bytes consumed, whether
/// the whole line fit).
fn read_line<R: Read>(r: &mut BufReader<R>, buf: &mut Vec<u8>) -> std::io::Result<(usize, bool)> {
    let mut consumed = 0;
    let mut whole = true;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok((consumed, whole));
        }
        let (take, done) = match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if whole && buf.len() + take <= MAX_LINE {
            buf.extend_from_slice(&chunk[..take]);
        } else {
            whole = false;
            buf.clear();
        }
        r.consume(take);
        consumed += take;
        if done {
            return Ok((consumed, whole));
        }
    }
}
