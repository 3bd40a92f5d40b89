//! `sync --watch`'s schedule. A full pass (drain, then mirror every fleet) starts every
//! interval, or a quarter interval after a pass that took longer. Between passes the
//! daemon watches the tool spool (`spool/mcp/`) with a stat per file, no store request,
//! and drains as soon as an agent queued a write: a lease then reaches the lake within
//! about a quarter interval instead of waiting up to a whole one, and other hosts see it
//! at their next pass. Drains are at most one per quarter interval, so a trickle of
//! writes costs at most four drains per interval. Hook events do not trigger a drain
//! (they are many and nobody waits on them); they ride along with the next drain or pass.
//!
//! Adaptive polling: a remote store bills every pass's listings, so a host whose passes
//! see nothing new backs off (see [`Pace`]): after two quiet passes in a row the next
//! starts two intervals after the last, after three four intervals, after four or more
//! eight. The first
//! sign of work returns it to the base interval: a pass that drained a record or read an
//! object (another host's write), or, between passes, a queued tool write or hook event
//! (a local stat, no request), which also starts the next pass an interval after the
//! last. A local lake costs nothing per request and never backs off.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::lake::Store;
use crate::services::drain::Carry;
use crate::services::sync::{self, Observer, SyncOutput};

/// When the next drain or pass may run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Schedule {
    /// Between the starts of two passes.
    pub every: Duration,
    /// The least time between two drains (a pass counts as one).
    pub gap: Duration,
    /// How often the spool is looked at between passes.
    pub poll: Duration,
}

impl Schedule {
    pub(crate) fn new(every: Duration) -> Schedule {
        Schedule {
            every,
            gap: every / 4,
            poll: (every / 20).clamp(Duration::from_millis(20), Duration::from_millis(500)),
        }
    }

    /// When the pass after one that ran from `started` to `ended` starts: an interval after
    /// the start, so the pass's own length does not stretch the period a write waits for
    /// other hosts to read it, but never sooner than a gap after the end, so a slow pass on
    /// a loaded machine still leaves the machine some rest.
    pub(crate) fn next_pass(&self, started: Instant, ended: Instant) -> Instant {
        (started + self.every).max(ended + self.gap)
    }

    /// Whether to drain now: a write is queued, the last drain is a gap old, and the next
    /// pass (which drains anyway) is more than half a gap away.
    pub(crate) fn drain_now(&self, since_drain: Duration, to_pass: Duration, queued: bool) -> bool {
        queued && since_drain >= self.gap && to_pass > self.gap / 2
    }
}

/// The longest back-off, in intervals.
pub(crate) const BACKOFF_MAX: u32 = 8;

/// How close to its lake expiry a deferred lease renewal must be written (the shortest
/// margin; see `fleet::roster::defer`): the daemon checks deadlines at every pass, at
/// most [`BACKOFF_MAX`] intervals apart (twice that for passes that overran, under
/// load); another host reads the roster within [`BACKOFF_MAX`] intervals of its write
/// (2 unless it backed off itself); two more intervals and a minute cover a slow pass,
/// the lake-clock estimate and slow requests. 7.5 minutes at the default 15 s, so half
/// the default 30-minute TTL rules.
pub(crate) fn renewal_horizon(every: Duration) -> i64 {
    let every = i64::try_from(every.as_millis()).unwrap_or(i64::MAX / 64);
    every.saturating_mul(3 * i64::from(BACKOFF_MAX) + 2) + 60_000
}

/// How far a daemon has backed off: the quiet passes in a row.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Pace {
    quiet: u32,
}

impl Pace {
    /// A pass ended; `busy`: it saw a local write or a remote change (see [`busy`]).
    pub(crate) fn passed(&mut self, busy: bool) {
        self.quiet = if busy {
            0
        } else {
            self.quiet.saturating_add(1)
        };
    }

    /// A local write showed up between passes: back to the base interval. Whether the
    /// daemon had backed off (so the pass due must move closer).
    pub(crate) fn woke(&mut self) -> bool {
        let was = self.factor() > 1;
        self.quiet = 0;
        was
    }

    /// The next pass starts this many intervals after the last: one quiet pass is not a
    /// trend (a writer may just be between two tool calls), each further one doubles it,
    /// up to [`BACKOFF_MAX`].
    pub(crate) fn factor(&self) -> u32 {
        match self.quiet {
            0 | 1 => 1,
            2 => 2,
            3 => 4,
            _ => BACKOFF_MAX,
        }
    }
}

/// Whether a pass or drain saw work: it drained a record, or read an object (every GET
/// of a pass follows a listing that showed something new). A store that counts no
/// requests (a local lake) always counts as busy, so it never backs off.
pub(crate) fn busy(out: &SyncOutput) -> bool {
    out.drained.records > 0 || out.gets > 0 || out.requests == 0
}

/// Run passes and prompt drains until `report` fails (it is handed each pass's or
/// drain's outcome; the command line prints it). A failed pass or drain drops the store,
/// so the next one reopens and probes it; after a failure only the next pass tries
/// again, so a failing store costs no more probes than it did before.
pub fn run(
    ctx: &Ctx,
    every: Duration,
    seen: &mut dyn Observer,
    report: &mut dyn FnMut(std::result::Result<SyncOutput, Error>) -> Result<()>,
) -> Result<()> {
    let plan = Schedule::new(every);
    // One store for the daemon's life (its client, clock and connections): probed at
    // start and again after any failure, not at every pass.
    let mut store: Option<Box<dyn Store>> = None;
    let mut carry = Carry::deferring(renewal_horizon(every));
    let mut pace = Pace::default();
    loop {
        let started = Instant::now();
        let outcome = step(ctx, &mut store, &mut carry, true, seen, report)?;
        let mut healthy = outcome.is_some();
        // A failed pass is no sign of quiet: the next one comes at the base interval.
        pace.passed(outcome.unwrap_or(true));
        // The pass drained at its start: what agents queued during a long pass is
        // drained right after it rather than at the next pass.
        let mut drained = started;
        let ended = Instant::now();
        let mut due = plan.next_pass(started, ended) + plan.every * (pace.factor() - 1);
        while let Some(to_pass) = due.checked_duration_since(Instant::now()) {
            if to_pass.is_zero() {
                break;
            }
            let queued = tool_writes_queued(&ctx.paths.spool_mcp_dir());
            let backed_off = pace.factor() > 1;
            if (queued || backed_off && tool_writes_queued(&ctx.paths.spool_hooks_dir()))
                && pace.woke()
            {
                due = due.min(plan.next_pass(started, ended));
                continue;
            }
            if healthy && plan.drain_now(drained.elapsed(), to_pass, queued) {
                let outcome = step(ctx, &mut store, &mut carry, false, seen, report)?;
                healthy = outcome.is_some();
                drained = Instant::now();
            } else {
                std::thread::sleep(plan.poll.min(to_pass));
            }
        }
    }
}

/// One full pass (`full`) or drain, reported: `None` when it failed, else whether it saw
/// work (see [`busy`]). Only a failure to report ends the daemon.
fn step(
    ctx: &Ctx,
    store: &mut Option<Box<dyn Store>>,
    carry: &mut Carry,
    full: bool,
    seen: &mut dyn Observer,
    report: &mut dyn FnMut(std::result::Result<SyncOutput, Error>) -> Result<()>,
) -> Result<Option<bool>> {
    let opened = match store.take() {
        Some(s) => Ok((s, false)),
        None => crate::services::open::configured(ctx).map(|s| (s, true)),
    };
    let mut pass = |(s, probe): (Box<dyn Store>, bool)| -> Result<(_, SyncOutput)> {
        if probe {
            // Reopened after a failure: the lake may have changed meanwhile (wiped, or
            // restored from a backup), so what the drains learnt is learnt afresh.
            carry.reset();
        }
        let out = match full {
            true => sync::once(ctx, s.as_ref(), probe, carry, seen)?,
            false => sync::drain_only(ctx, s.as_ref(), probe, carry, seen)?,
        };
        Ok((s, out))
    };
    match opened.and_then(&mut pass) {
        Ok((s, out)) => {
            *store = Some(s);
            let work = busy(&out);
            report(Ok(out)).map(|()| Some(work))
        }
        Err(e) => report(Err(e)).map(|()| None),
    }
}

/// Whether an agent queued a write the lake has not seen: a non-empty spool file. Drained
/// files are removed and live ones are sealed aside, so an idle spool has none.
pub(crate) fn tool_writes_queued(dir: &Path) -> bool {
    crate::spool::list_files(dir)
        .iter()
        .any(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);

    #[test]
    fn drains_a_queued_write_once_a_gap_passed_unless_the_pass_is_near() {
        let p = Schedule::new(S);
        assert_eq!(p.gap, S / 4);
        assert!(p.drain_now(S / 4, S / 2, true));
        assert!(!p.drain_now(S / 4, S / 2, false), "nothing queued");
        assert!(
            !p.drain_now(S / 5, S / 2, true),
            "the last drain is too recent"
        );
        assert!(
            p.drain_now(S, S / 5, true),
            "right after a pass that overran"
        );
        assert!(
            !p.drain_now(S / 4, S / 10, true),
            "the pass is about to drain it"
        );
    }

    #[test]
    fn passes_start_an_interval_apart_unless_one_overran() {
        let (p, t0) = (Schedule::new(S), Instant::now());
        assert_eq!(p.next_pass(t0, t0 + S / 2), t0 + S);
        assert_eq!(p.next_pass(t0, t0 + S * 2), t0 + S * 2 + S / 4);
    }

    #[test]
    fn polls_often_at_short_intervals_and_cheaply_at_long_ones() {
        assert_eq!(Schedule::new(S).poll, Duration::from_millis(50));
        assert_eq!(Schedule::new(S * 60).poll, Duration::from_millis(500));
    }

    #[test]
    fn quiet_passes_back_off_to_eight_intervals_and_work_returns_at_once() {
        let mut p = Pace::default();
        let factors: Vec<u32> = (0..6)
            .map(|_| {
                p.passed(false);
                p.factor()
            })
            .collect();
        assert_eq!(factors, [1, 2, 4, 8, 8, 8], "one quiet pass is not a trend");
        p.passed(true);
        assert_eq!(p.factor(), 1, "a pass that saw work");
        p.passed(false);
        assert!(!p.woke(), "not backed off after one quiet pass");
        p.passed(false);
        p.passed(false);
        assert!(p.woke(), "a local write while backed off");
        assert_eq!(p.factor(), 1);
    }

    #[test]
    fn a_pass_is_busy_when_it_drained_or_read_or_costs_nothing() {
        let out = |records, gets, requests| SyncOutput {
            store: String::new(),
            drained: crate::services::drain::DrainReport {
                records,
                ..Default::default()
            },
            fleets: Vec::new(),
            elapsed_ms: 0,
            requests,
            gets,
            skipped: Default::default(),
            unserved_fleets: Default::default(),
        };
        assert!(!busy(&out(0, 0, 5)), "an idle remote pass: listings only");
        assert!(busy(&out(1, 0, 5)), "a local write drained");
        assert!(busy(&out(0, 1, 5)), "another host's write read");
        assert!(busy(&out(0, 0, 0)), "a local lake never backs off");
    }

    #[test]
    fn only_non_empty_spool_files_count_as_queued() {
        let d = tempfile::tempdir().expect("tempdir");
        assert!(!tool_writes_queued(d.path()));
        std::fs::write(d.path().join("default.ndjson"), b"").expect("write");
        assert!(!tool_writes_queued(d.path()), "an emptied live file");
        std::fs::write(d.path().join("notes.txt"), b"x").expect("write");
        assert!(!tool_writes_queued(d.path()), "not a spool file");
        std::fs::write(d.path().join("default.ndjson"), b"{}\n").expect("write");
        assert!(tool_writes_queued(d.path()));
    }
}
