//! An env-gated phase timer for `maint` (`CTXLAKE_TRACE_MAINT=1`): one stderr line per
//! phase with its wall time, so the lake's cost budget can be split without a profiler.

use std::cell::Cell;
use std::time::Instant;

thread_local! {
    static LAST: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Close the phase that ran since the previous mark (or since `start`).
pub(crate) fn mark(phase: &str) {
    let now = Instant::now();
    let last = LAST.with(|l| l.replace(Some(now)));
    if let Some(t) = last
        && std::env::var_os("CTXLAKE_TRACE_MAINT").is_some_and(|v| v == "1")
    {
        let ms = now.duration_since(t).as_secs_f64() * 1000.0;
        crate::output::stderr(&format!("maint: {phase}: {ms:.0} ms\n"));
    }
}

/// Start timing: the next `mark` measures from here.
pub(crate) fn start() {
    LAST.with(|l| l.set(Some(Instant::now())));
}
