//! The hook's wall-clock budget. `main` arms a thread that, once [`budget`] has passed,
//! asks [`expire`] whether to end the process: exit 0, nothing printed, one log line
//! saying why. Whatever hangs (a runtime that never closes stdin, a hung filesystem),
//! the agent's turn goes on.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// The whole hook, process start to exit; its p99 is ~4 ms, so this only ever cuts a hang.
pub const BUDGET: Duration = Duration::from_millis(300);

/// [`BUDGET`], unless `CTXLAKE_HOOK_BUDGET_MS` says otherwise (a slow filesystem, or an
/// unoptimised test build that needs far longer than a release one).
pub fn budget() -> Duration {
    crate::paths::var(crate::paths::env::HOOK_BUDGET_MS)
        .and_then(|v| v.parse().ok())
        .map_or(BUDGET, Duration::from_millis)
}
/// How long the expiring watchdog waits for its log line: the log may sit on the same
/// hung filesystem that caused the overrun.
const LOG_GRACE: Duration = Duration::from_millis(50);

/// Who gets to finish: the hook (by starting its answer) or the watchdog (by expiring).
/// Exactly one wins, so an answer is printed whole or not at all.
struct Race(AtomicU8);

const RUNNING: u8 = 0;
const ANSWERING: u8 = 1;
const EXPIRED: u8 = 2;

impl Race {
    const fn new() -> Race {
        Race(AtomicU8::new(RUNNING))
    }
    fn claim(&self, to: u8) -> bool {
        self.0
            .compare_exchange(RUNNING, to, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }
}

static RACE: Race = Race::new();

/// What the hook is doing, for the log line when the budget runs out.
#[derive(Debug, Clone, Copy)]
#[repr(u8)]
pub enum Stage {
    Reading = 0,
    Capturing = 1,
    Answering = 2,
}

static STAGE: AtomicU8 = AtomicU8::new(Stage::Reading as u8);

pub fn stage(s: Stage) {
    STAGE.store(s as u8, Ordering::Relaxed);
}

fn stage_text() -> &'static str {
    match STAGE.load(Ordering::Relaxed) {
        0 => "reading the payload on stdin",
        1 => "capturing the event to the spool",
        _ => "preparing its answer",
    }
}

/// Called by the hook before it prints. `false`: the watchdog has fired and the process
/// is ending; print nothing (then [`settle`]).
pub fn may_answer() -> bool {
    RACE.claim(ANSWERING)
}

/// After losing to the watchdog: give it time to log and exit before returning normally.
pub fn settle() {
    std::thread::sleep(LOG_GRACE * 2);
}

/// The watchdog's turn, once [`budget`] has passed. `true`: the hook had not begun its
/// answer, the overrun is logged (or abandoned after [`LOG_GRACE`]) and the caller must
/// exit 0 now. `false`: the answer is being printed; let it finish.
pub fn expire(runtime: &str) -> bool {
    if !RACE.claim(EXPIRED) {
        return false;
    }
    let line = format!(
        "{runtime} watchdog: over the {} ms budget while {}; exited 0 without answering",
        budget().as_millis(),
        stage_text()
    );
    let (done, wait) = mpsc::channel();
    let logger = std::thread::Builder::new().spawn(move || {
        if let Ok(paths) = crate::paths::Paths::from_env() {
            super::capture::log(&paths, &line);
        }
        let _ = done.send(());
    });
    if logger.is_ok() {
        let _ = wait.recv_timeout(LOG_GRACE);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_and_the_watchdog_exclude_each_other() {
        let r = Race::new();
        assert!(r.claim(ANSWERING));
        assert!(!r.claim(EXPIRED), "an answer under way is never cut");
        let r = Race::new();
        assert!(r.claim(EXPIRED));
        assert!(!r.claim(ANSWERING), "nothing is printed after expiry");
    }
}
