//! The simulated fleet: hosts (each its own home dir: spool, cache, state) running `sync`
//! and `maint` against the one simulated lake, and agents on those hosts that claim,
//! release, hand off, propose and read claims by appending spool records exactly as the
//! tools do. One seed picks every action, its order, its faults and its interleavings.

use super::Rng;
use super::store::SimStore;
use crate::config::Config;
use crate::error::Result;
use crate::lake::{self, Store};
use crate::paths::Paths;
use crate::spool::Record;

pub(super) const FLEETS: [&str; 2] = ["alpha", "beta"];
pub(super) const REPO: &str = "github.com/acme/app";
pub(super) const PATHS: [&str; 4] = ["src/a.rs", "src/b.rs", "docs/", "tests/"];
/// Long enough that no lease expires within a run: the lease check replays claims exactly.
pub(super) const TTL_SECS: u64 = 3600;
/// (type, subject, text): every gate threshold, one contradiction, and facts that age:
/// Debian 13 replaces 12 (by `supersedes` or the key `ci.os`, when a proposal names
/// them), and postgres 17 is a probable update of 16.
pub(super) const CLAIMS: [(&str, &str, &str); 8] = [
    ("environment", "ci", "CI runs on Debian 12"),
    ("convention", "style", "Use snake_case for JSON fields"),
    ("preference", "editor", "Prefer tabs"),
    ("hypothesis", "cache", "Maybe the cache is stale"),
    ("outcome", "db", "The test database is postgres 15"),
    ("outcome", "db", "The test database is postgres 16"),
    ("environment", "ci", "CI runs on Debian 13"),
    (
        "outcome",
        "db",
        "The test database was upgraded to postgres 17",
    ),
];

pub(super) struct Host {
    pub paths: Paths,
    /// This host's clock minus the lake's.
    pub skew: i64,
    /// What its syncs carry from one drain to the next, as a `sync --watch` daemon does
    /// (another host cutting in runs as a one-shot sync, with none).
    pub carry: crate::services::drain::Carry,
    /// Its daemon's back-off (`services::watch::Pace`) and when its next pass is due
    /// (lake ms): a backed-off daemon skips its turn unless its spool holds a write.
    pub pace: crate::services::watch::Pace,
    pub next_pass_ms: i64,
}

/// The simulated daemons' interval (a step advances the clock by up to 5 s).
pub(super) const EVERY_MS: i64 = 4_000;

pub(super) struct Agent {
    pub host: usize,
    pub fleet: &'static str,
    pub name: String,
    pub session: String,
}

/// A record an agent spooled, and where.
pub(super) struct Written {
    pub rec: Record,
    pub host: usize,
}

pub(super) struct World {
    pub rng: Rng,
    pub store: SimStore,
    pub hosts: Vec<Host>,
    pub agents: Vec<Agent>,
    pub written: Vec<Written>,
    pub config: Config,
    /// What happened, step by step, for the failure message.
    pub trace: Vec<String>,
    pub dir: tempfile::TempDir,
    pub(super) counter: u64,
    /// Daemon turns skipped while backed off (beyond the base interval).
    pub backed_off: usize,
}

/// A lake time in 2026; each seed starts there.
const EPOCH_MS: i64 = 1_767_225_600_000;

impl World {
    pub(super) fn new(seed: u64) -> World {
        let mut rng = Rng::new(seed);
        // On tmpfs when there is one: fsync is free there, and a run makes thousands.
        let shm = std::path::Path::new("/dev/shm");
        let dir = if shm.is_dir() {
            tempfile::tempdir_in(shm)
        } else {
            tempfile::tempdir()
        }
        .expect("temp dir");
        let hosts: Vec<Host> = (0..3)
            .map(|h| Host {
                paths: Paths::with_overrides(dir.path().join(format!("host{h}")), None, None),
                // Host 2's clock is 25 minutes slow: every id it mints is older than a
                // watermark reader's look-back, so its records reach readers via the feed.
                skew: rng.below(20_001) as i64 - 10_000 - if h == 2 { 25 * 60_000 } else { 0 },
                carry: crate::services::drain::Carry::deferring(
                    crate::services::watch::renewal_horizon(std::time::Duration::from_millis(
                        EVERY_MS as u64,
                    )),
                ),
                pace: Default::default(),
                next_pass_ms: 0,
            })
            .collect();
        // Fixed host ids: a seed must replay to the same lake keys.
        for (h, host) in hosts.iter().enumerate() {
            let f = host.paths.host_id();
            crate::fsutil::write_atomic(&f, format!("host{h}").as_bytes(), 0o600).expect("host id");
        }
        let mut w = World {
            store: SimStore::new(rng.next(), EPOCH_MS),
            rng,
            hosts,
            agents: Vec::new(),
            written: Vec::new(),
            config: Config::default(),
            trace: Vec::new(),
            dir,
            counter: 0,
            backed_off: 0,
        };
        for i in 0..4 {
            let host = w.rng.below(3) as usize;
            let fleet = FLEETS[w.rng.below(2) as usize];
            let session = w.fresh_session();
            w.agents.push(Agent {
                host,
                fleet,
                name: format!("agent{i}"),
                session,
            });
        }
        w
    }

    pub(super) fn fresh_session(&mut self) -> String {
        self.counter += 1;
        format!("s{}", self.counter)
    }

    /// Point this thread's clock at host `h` (the lake's time plus its skew).
    pub(super) fn host_clock(&self, h: usize) {
        crate::time::set_sim_now(Some(self.store.now() + self.hosts[h].skew));
    }

    /// One step: time passes, in-flight requests may land, then one action.
    pub(super) fn step(&mut self) {
        self.store.advance(1 + self.rng.below(5_000) as i64);
        self.store.land_some(false);
        // Weather: calm spells, a flaky network, and storms where most requests go wrong.
        let rate = [0, 0, 10, 30, 80, 200][self.rng.below(6) as usize];
        self.store.set_fault_rate(rate);
        match self.rng.below(100) {
            0..55 => self.agent_acts(),
            55..85 => self.host_runs(false),
            _ => self.host_runs(true),
        }
    }

    /// Host `h` runs `sync` (or `maint`); sometimes another host's run cuts in mid-way.
    fn host_runs(&mut self, maint: bool) {
        let h = self.rng.below(self.hosts.len() as u64) as usize;
        self.counter += 1;
        let writer = format!("host{h}-{}", self.counter);
        if self.rng.below(3) == 0 {
            let other = (h + 1 + self.rng.below(2) as usize) % self.hosts.len();
            let (paths, config) = (self.hosts[other].paths.clone(), self.config.clone());
            let (skew, back) = (self.hosts[other].skew, self.hosts[h].skew);
            let other_maint = self.rng.below(2) == 0;
            let other_writer = format!("host{other}-{}", self.counter);
            self.trace.push(format!(
                "  (host{other} {} cuts in)",
                if other_maint { "maint" } else { "sync" }
            ));
            let at = 1 + self.rng.below(12) as u32;
            self.store.interleave(
                at,
                Box::new(move |s: &SimStore| {
                    crate::time::set_sim_now(Some(s.now() + skew));
                    let none = &mut crate::services::drain::Carry::one_shot();
                    let _ = run(&paths, &config, s, other_maint, &other_writer, none);
                    crate::time::set_sim_now(Some(s.now() + back));
                }),
            );
        }
        self.host_clock(h);
        // Now and then a one-shot `ctxlake sync` of the same home runs between the
        // daemon's drains: the daemon must not reuse a roster it flushed since.
        let one_shot = self.rng.below(4) == 0;
        self.turn(h, maint, one_shot, &writer);
    }

    /// Host `h`'s daemon (or a one-shot sync, or `maint`) takes its turn: a daemon whose
    /// pass is not due yet skips it unless its spool holds a write.
    fn turn(&mut self, h: usize, maint: bool, one_shot: bool, writer: &str) {
        let now = self.store.now();
        let host = &mut self.hosts[h];
        if !maint && !one_shot && now < host.next_pass_ms {
            let spool = &host.paths;
            let queued = crate::services::watch::tool_writes_queued(&spool.spool_mcp_dir())
                || crate::services::watch::tool_writes_queued(&spool.spool_hooks_dir());
            // A queued write: the daemon drains it now, back at its base interval.
            let backed_off = host.pace.factor() > 1;
            if queued {
                host.pace.woke();
            } else {
                self.store.clear_interleave();
                let why = if backed_off { "backed off" } else { "not due" };
                self.trace.push(format!("host{h} sync: {why}"));
                self.backed_off += usize::from(backed_off);
                return;
            }
        }
        let mut fresh = crate::services::drain::Carry::one_shot();
        let carry = if one_shot {
            &mut fresh
        } else {
            &mut host.carry
        };
        let r = run(&host.paths, &self.config, &self.store, maint, writer, carry);
        if !maint && !one_shot {
            // As `watch::busy` judges a pass; a failed one is no sign of quiet.
            let busy = r.as_ref().ok() != Some(&false);
            host.pace.passed(busy);
            host.next_pass_ms = now + EVERY_MS * i64::from(host.pace.factor());
        }
        self.store.clear_interleave();
        let what = if maint { "maint" } else { "sync" };
        self.trace.push(match r {
            Ok(_) => format!("host{h} {what}: ok"),
            Err(e) => format!("host{h} {what}: {}", e.message),
        });
    }

    /// A quiet spell, then one agent write: the daemons run on their schedules every
    /// interval with nothing new (so they back off), an agent writes, and they go on. The
    /// settle that follows checks that the write reached every host exactly once.
    pub(super) fn quiet_tail(&mut self) {
        self.store.set_fault_rate(0);
        self.store.land_some(true);
        self.trace.push("quiet spell".into());
        for round in 0..18 {
            if round == 15 {
                self.agent_acts();
            }
            self.store.advance(EVERY_MS);
            for h in 0..self.hosts.len() {
                self.host_clock(h);
                self.counter += 1;
                let writer = format!("host{h}-{}", self.counter);
                self.turn(h, false, false, &writer);
            }
        }
    }

    /// Long after: every renewal a daemon deferred comes due (the clock moves past half
    /// the TTL, well before any lease expires), each daemon takes a turn with nothing
    /// spooled, which must write them, and then everything settles again.
    pub(super) fn renewals_come_due(&mut self) -> std::result::Result<(), String> {
        self.store.advance(TTL_SECS as i64 * 500 + 300_000);
        self.trace.push("renewals come due".into());
        for h in 0..self.hosts.len() {
            self.host_clock(h);
            self.hosts[h].next_pass_ms = 0;
            self.turn(h, false, false, "late");
        }
        self.settle()
    }

    /// Quiescence: every in-flight request lands, faults stop, every host drains, then
    /// every host mirrors (so each mirror sees every host's drain).
    pub(super) fn settle(&mut self) -> std::result::Result<(), String> {
        self.store.set_fault_rate(0);
        self.store.land_some(true);
        self.store.advance(1);
        for h in 0..self.hosts.len() {
            self.host_clock(h);
            let wait = self.config.lock_wait();
            // Every pending hook history is written, as by a one-shot `sync`.
            let host = &mut self.hosts[h];
            host.carry.write_history_now(true);
            crate::services::drain::drain(
                &host.paths,
                &self.store,
                wait,
                &mut host.carry,
                &mut |_, _| {},
            )
            .map_err(|e| format!("fault-free drain on host{h} failed: {}", e.message))?;
        }
        for h in 0..self.hosts.len() {
            self.host_clock(h);
            for f in FLEETS {
                crate::services::mirror::mirror(&self.hosts[h].paths, &self.config, &self.store, f)
                    .map_err(|e| format!("fault-free mirror on host{h} failed: {}", e.message))?;
            }
        }
        Ok(())
    }
}

/// What one host's `sync` (probe, drain, mirror every fleet) or `maint` does; whether the
/// sync saw work as `watch::busy` judges a pass (it drained a record or read an object
/// after its probe).
fn run(
    paths: &Paths,
    config: &Config,
    store: &SimStore,
    maint: bool,
    writer: &str,
    carry: &mut crate::services::drain::Carry,
) -> Result<bool> {
    if maint {
        lake::format::ensure(store)?;
        for f in lake::fleets(store)? {
            crate::services::maint::maint(paths, config, store, &f, writer)?;
        }
        return Ok(true);
    }
    lake::store::probe(store)?;
    lake::format::ensure(store)?;
    let read = store.gets();
    carry.listed(&lake::fleets(store)?);
    let drained =
        crate::services::drain::drain(paths, store, config.lock_wait(), carry, &mut |_, _| {})?;
    let plan = crate::services::mirror::Plan::of(&carry.fleets());
    crate::services::mirror::mirror_all(paths, config, store, &plan, |_| Ok(()))?;
    Ok(drained.records > 0 || store.gets() > read)
}
