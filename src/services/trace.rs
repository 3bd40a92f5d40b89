//! Phase timers, so the lake's cost budget can be split without a profiler. With
//! `Trace::maint` (`CTXLAKE_TRACE_MAINT=1`) each `maint` phase prints one stderr line with
//! its wall time; with `Trace::sync` (`CTXLAKE_TRACE_SYNC=1`) each `sync` phase prints one,
//! stamped with the wall clock (epoch ms) and the store requests sent so far, so passes on
//! several hosts can be lined up. The settings come from the context (`Ctx::trace`).

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::ctx::Trace;

thread_local! {
    static LAST: Cell<Option<Instant>> = const { Cell::new(None) };
}

static SYNC: AtomicBool = AtomicBool::new(false);
static MAINT: AtomicBool = AtomicBool::new(false);

/// Turn the timers on or off for this process (a service's entry point does it).
pub(crate) fn configure(t: Trace) {
    SYNC.store(t.sync, Ordering::Relaxed);
    MAINT.store(t.maint, Ordering::Relaxed);
}

/// Close the phase that ran since the previous mark (or since `start`).
pub(crate) fn mark(phase: &str) {
    let now = Instant::now();
    let last = LAST.with(|l| l.replace(Some(now)));
    if let Some(t) = last
        && MAINT.load(Ordering::Relaxed)
    {
        let ms = now.duration_since(t).as_secs_f64() * 1000.0;
        let (cpu, peak) = usage();
        crate::output::stderr(&format!(
            "maint: {phase}: {ms:.0} ms (process so far: {cpu} ms CPU, peak RSS {peak} MiB)\n"
        ));
    }
}

/// The process's CPU time (user + system, ms) and peak resident set (MiB) so far, from
/// `/proc` (zero elsewhere): a phase's share of the fold's CPU and memory budgets is the
/// step between two lines.
fn usage() -> (u64, u64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesised command name; utime and stime are the 12th and
    // 13th, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let field = |n: usize| -> u64 {
        rest.split_whitespace()
            .nth(n)
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    let cpu = (field(11) + field(12)) * 10;
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak_kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap_or(0);
    (cpu, peak_kib / 1024)
}

/// Start timing: the next `mark` measures from here.
pub(crate) fn start() {
    LAST.with(|l| l.set(Some(Instant::now())));
}

/// One `sync` phase ended now, `requests` store requests into the process's life.
pub(crate) fn sync(phase: &str, requests: u64) {
    if SYNC.load(Ordering::Relaxed) {
        let at = crate::time::now_ms();
        crate::output::stderr(&format!("sync-trace {at} {requests} {phase}\n"));
    }
}
