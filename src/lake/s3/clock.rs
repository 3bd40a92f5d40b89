//! The lake's clock on S3: the store's own time, never this host's. Lease grants and
//! expiry are computed in lake time, so hosts whose clocks disagree still agree on who
//! holds a path. Measured once per process: write a scratch object, read its
//! Last-Modified (whole seconds, so half a second is added to centre the estimate),
//! and keep the difference to the host clock.

use std::sync::Mutex;

use object_store::ObjectStoreExt;

use super::S3Store;
use crate::error::Result;
use crate::lake::store::Store;

#[derive(Default)]
pub(super) struct LakeClock {
    /// Lake time minus host time, in ms, once measured.
    offset_ms: Mutex<Option<i64>>,
}

pub(super) fn now_ms(s: &S3Store) -> Result<i64> {
    let mut offset = s.clock.offset_ms.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(o) = *offset {
        return Ok(crate::time::now_ms() + o);
    }
    let o = measure(s)?;
    *offset = Some(o);
    Ok(crate::time::now_ms() + o)
}

fn measure(s: &S3Store) -> Result<i64> {
    let key = format!("clock/{}", crate::ulid::new());
    let path = s.path(&key)?;
    let before = crate::time::now_ms();
    s.rt.block_on(super::settle::put(s, &key, b""))?;
    let after = crate::time::now_ms();
    s.count();
    let meta =
        s.rt.block_on(s.os.head(&path))
            .map_err(|e| s.fail("read", &key, e))?;
    let _ = s.delete(&key);
    let lake = meta.last_modified.timestamp_millis() + 500;
    Ok(lake - (before + after) / 2)
}
