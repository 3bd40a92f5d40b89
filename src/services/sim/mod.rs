//! Deterministic simulation of the lake protocol (issue 14 §3). Each seed builds a world
//! of hosts and agents over a fault-injecting in-memory lake, runs a few dozen steps in a
//! seed-chosen order, checks every invariant after every step, then settles (faults off,
//! every host syncs) and checks that the hosts agree. A failing seed is printed with a
//! trace and replays from its number alone:
//! `CTXLAKE_SIM_SEED=<n> cargo test --lib services::sim`; `CTXLAKE_SIM_SEEDS=<n>` runs more.
//!
//! The test bites. With `drain_file`'s watermark write and spool delete moved before its
//! apply/flush loop (the watermark advances before the lake confirms), 252 of 1,000 seeds
//! fail; the first is seed 3: "at step 14: record 01KDVDNWA3000000000000000F (fleet_claim)
//! was lost" (a storm made the drain's writes fail after its spool file was gone).
//!
//! Hosts run as `sync --watch` daemons with their back-off (`watch::Pace`): a daemon
//! whose passes saw nothing new skips its turns until its pass is due again or a write
//! is queued in its spool, so every record must still reach every host exactly once
//! whatever the back-off. Presence liveness is written at the roster's coarse grain.
//!
//! Daemons defer lease renewals (`fleet::roster::defer`): a renewal drained and
//! acknowledged may take hold only in its host's kept roster, which the exactly-once
//! oracle counts as one copy (`renewals`); after the settle, the clock moves past half
//! the TTL, every daemon takes a turn, and nothing may be left waiting.

mod agents;
mod chains;
mod check;
mod named;
mod renewals;
mod store;
mod world;

/// splitmix64: small, fast, and the same sequence on every platform.
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform enough in `0..n` for a simulation (`n` > 0).
    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Steps per seed: enough for several syncs, maints and races per run, few enough that
/// 1,000 seeds stay within a few seconds of a debug build.
const STEPS: usize = 20;

/// Run one seed; the error names the step and carries the trace. Ok: how many daemon
/// turns were skipped while backed off.
fn run_seed(seed: u64) -> Result<usize, String> {
    let mut w = world::World::new(seed);
    let mut seen = check::Seen::default();
    let fail = |w: &world::World, step: &str, msg: String| {
        let tail = w.trace.len().saturating_sub(30);
        Err(format!(
            "lake simulation failed for seed {seed} at {step}: {msg}\n\
             reproduce: CTXLAKE_SIM_SEED={seed} cargo test --lib services::sim\n\
             last steps:\n  {}",
            w.trace[tail..].join("\n  ")
        ))
    };
    for step in 0..STEPS {
        w.step();
        if let Err(msg) = check::after_step(&w, &mut seen) {
            return fail(&w, &format!("step {step}"), msg);
        }
    }
    // A quarter of the seeds end with a quiet spell in which the daemons back off.
    if seed.is_multiple_of(4) {
        w.quiet_tail();
        // Every write drained while the daemons were backed off: a queued write wakes its
        // daemon at once (the spell's write comes three intervals before its end, less
        // than a backed-off daemon's eight).
        let drained = check::after_step(&w, &mut seen).and_then(|()| check::exactly_once(&w, true));
        if let Err(msg) = drained {
            return fail(&w, "the quiet spell", msg);
        }
    }
    let settled = w
        .settle()
        .and_then(|()| check::after_step(&w, &mut seen))
        .and_then(|()| check::quiescent(&w))
        .and_then(|()| w.renewals_come_due())
        .and_then(|()| check::after_step(&w, &mut seen))
        .and_then(|()| check::quiescent(&w))
        .and_then(|()| renewals::nothing_waits(&w));
    crate::time::set_sim_now(None);
    match settled {
        Ok(()) => Ok(w.backed_off),
        Err(msg) => fail(&w, "quiescence", msg),
    }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

#[test]
fn lake_protocol_holds_under_faults() {
    let seeds: Vec<u64> = match env_u64("CTXLAKE_SIM_SEED") {
        Some(s) => vec![s],
        None => (0..env_u64("CTXLAKE_SIM_SEEDS").unwrap_or(1000)).collect(),
    };
    // Two workers (each thread has its own simulated clock); the lowest failing seed wins.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let backed_off = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&seed) = seeds.get(i) else { break };
                    match run_seed(seed) {
                        Ok(n) => _ = backed_off.fetch_add(n, std::sync::atomic::Ordering::Relaxed),
                        Err(e) => failures.lock().unwrap().push((seed, e)),
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    if let Some((_, e)) = failures.first() {
        panic!("{e}\n({} seed(s) failed in all)", failures.len());
    }
    // The daemons' back-off must really happen, or the runs say nothing about it.
    if seeds.len() >= 100 {
        let n = backed_off.into_inner();
        assert!(n >= seeds.len() / 4, "hardly any back-off: {n} turns");
    }
}

#[test]
fn a_seed_replays_exactly() {
    let trace = |seed| {
        let mut w = world::World::new(seed);
        (0..STEPS).for_each(|_| w.step());
        crate::time::set_sim_now(None);
        (
            w.trace.clone(),
            w.store.peek_keys("claims/"),
            w.store.peek_keys("live/"),
        )
    };
    assert_eq!(trace(7), trace(7));
    assert_ne!(trace(7).0, trace(8).0);
}
