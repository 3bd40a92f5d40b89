//! Env-gated phase timers, so the lake's cost budget can be split without a profiler:
//! `CTXLAKE_TRACE_MAINT=1` prints one stderr line per `maint` phase with its wall time;
//! `CTXLAKE_TRACE_SYNC=1` prints one per `sync` phase, stamped with the wall clock (epoch
//! ms) and the store requests sent so far, so passes on several hosts can be lined up.

use std::cell::Cell;
use std::time::Instant;

thread_local! {
    static LAST: Cell<Option<Instant>> = const { Cell::new(None) };
}

fn on(var: &str) -> bool {
    std::env::var_os(var).is_some_and(|v| v == "1")
}

/// Close the phase that ran since the previous mark (or since `start`).
pub(crate) fn mark(phase: &str) {
    let now = Instant::now();
    let last = LAST.with(|l| l.replace(Some(now)));
    if let Some(t) = last
        && on("CTXLAKE_TRACE_MAINT")
    {
        let ms = now.duration_since(t).as_secs_f64() * 1000.0;
        crate::output::stderr(&format!("maint: {phase}: {ms:.0} ms\n"));
    }
}

/// Start timing: the next `mark` measures from here.
pub(crate) fn start() {
    LAST.with(|l| l.set(Some(Instant::now())));
}

/// One `sync` phase ended now, `requests` store requests into the process's life.
pub(crate) fn sync(phase: &str, requests: u64) {
    if on("CTXLAKE_TRACE_SYNC") {
        let at = crate::time::now_ms();
        crate::output::stderr(&format!("sync-trace {at} {requests} {phase}\n"));
    }
}
