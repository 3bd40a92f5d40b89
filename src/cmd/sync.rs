//! `ctxlake sync [--watch]`: drain the spool into the lake, then mirror the lake into
//! the cache. `--watch` is the per-host daemon (one per host, enforced by a lock).

use std::time::{Duration, Instant};

use clap::Args;

use super::{GlobalArgs, printed};
use crate::error::{Error, Result};
use crate::fleet::roster::Warning;
use crate::services::drain::Carry;
use crate::services::sync::{self, SyncOutput};
use crate::services::watch;
use crate::tools::Ctx;

/// Move queued writes into the lake and refresh the local cache
///
/// Drains `spool/` at least once (records carry ids, so a re-run after a crash is a
/// no-op), advancing its watermark only after the lake confirmed, then rebuilds
/// `cache/<fleet>/` atomically and mirrors the published memory snapshot.
/// `--watch` starts a pass every `--interval` seconds (only one daemon runs per host), and
/// between passes drains what agents queue within about a quarter interval.
///
/// Example:
///   ctxlake sync
///   ctxlake sync --watch --interval 10
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct SyncArgs {
    /// Keep running: sync every `--interval` seconds, drain new writes in between.
    #[arg(long)]
    pub watch: bool,
    /// Seconds between syncs with `--watch` (default: `[sync] interval_secs`, 15).
    #[arg(long, value_name = "SECS")]
    pub interval: Option<u64>,
}

pub fn run(args: SyncArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = Ctx::load(&g.scope_flags())?;
    let mut seen = Shown::new(g);
    if args.watch {
        let _lock = sync::watch_lock(&ctx)?;
        let every = Duration::from_secs(
            args.interval
                .unwrap_or(ctx.config.sync_interval_secs)
                .max(1),
        );
        g.output().note(&format!(
            "syncing every {}s; stop with Ctrl-C",
            every.as_secs()
        ));
        let mut report = |out: std::result::Result<SyncOutput, Error>| match out {
            Ok(out) => {
                warn(&out);
                printed(g.output().emit(&out, render))
            }
            Err(e) => {
                crate::output::stderr(&crate::output::render_error(&e));
                Ok(())
            }
        };
        return watch::run(&ctx, every, &mut seen, &mut report);
    }
    let store = crate::services::open::configured(&ctx)?;
    let out = sync::once(
        &ctx,
        store.as_ref(),
        true,
        &mut Carry::one_shot(),
        &mut seen,
    )?;
    warn(&out);
    printed(g.output().emit(&out, render))
}

/// The drain's one-time warnings (a host id shared with another home, a roster rebuilt),
/// on stderr.
fn warn(out: &SyncOutput) {
    for w in &out.drained.warnings {
        crate::output::stderr(&warning(w));
    }
}

/// A drain's warning as the person reads it: `warning: …`, then `hint: …` if any.
fn warning(w: &Warning) -> String {
    match w {
        Warning::HostIdShared {
            old,
            new,
            host_id_file,
        } => format!(
            "warning: another home uses this host's id `{old}` (its roster holds a write this home never made: a cloned machine image?); this home is now host `{new}` and its sessions moved to that roster\nhint: nothing to do; before cloning an image next time, delete `{}` from it\n",
            host_id_file.display()
        ),
        Warning::RosterRebuilt { key, kept_file } => format!(
            "warning: this host's roster `{key}` in the lake is damaged; rebuilt it from this home's copy `{}`\n",
            kept_file.display()
        ),
    }
}

/// What a sync shows while it runs: a note when it waits for another sync, and a
/// progress bar while a large spool drains (a first sync of a long backlog, an import).
struct Shown<'a> {
    g: &'a GlobalArgs,
    bar: Option<super::progress::Bar>,
    started: Instant,
}

impl<'a> Shown<'a> {
    fn new(g: &'a GlobalArgs) -> Self {
        Shown {
            g,
            bar: None,
            started: Instant::now(),
        }
    }
}

impl sync::Observer for Shown<'_> {
    fn waiting_for_lock(&mut self) {
        self.g
            .output()
            .note("waiting for the sync already running on this host…");
    }

    fn drained(&mut self, done: u64, total: u64) {
        self.show(done, total, |g| {
            super::progress::Bar::bytes(g, "draining the spool")
        });
    }

    fn mirrored(&mut self, done: u64, total: u64) {
        self.show(done, total, |g| {
            super::progress::Bar::items(g, "mirroring fleets")
        });
    }
}

impl Shown<'_> {
    /// Only work that lasts gets a bar: a quick pass never flashes one.
    fn show(&mut self, done: u64, total: u64, new: impl Fn(&GlobalArgs) -> super::progress::Bar) {
        if self.bar.is_none() && done < total && self.started.elapsed() > Duration::from_millis(500)
        {
            self.bar = Some(new(self.g));
        }
        if let Some(b) = &self.bar {
            b.set(done, total);
            if done >= total {
                b.finish();
                self.bar = None;
            }
        }
    }
}

pub(crate) fn render(o: &SyncOutput) -> String {
    let d = &o.drained;
    let requests = match o.requests {
        0 => String::new(),
        n => format!(", {n} store request(s)"),
    };
    let mut s = format!(
        "synced {} records ({} new, {} already applied) from {} spool file(s) into {} in {} ms{requests}\n",
        d.records, d.applied, d.already_applied, d.files, o.store, o.elapsed_ms
    );
    if d.bad_lines + d.torn_tails > 0 {
        s.push_str(&format!(
            "skipped {} torn/corrupt line(s), {} bytes; resynced {}\n",
            d.bad_lines + d.torn_tails,
            d.skipped_bytes,
            d.resynced
        ));
    }
    for b in &d.busy {
        s.push_str(&format!("left for the next sync: {b}\n"));
    }
    for f in &o.fleets {
        s.push_str(&format!(
            "fleet {}: {} agent(s), {} session(s), {} handoff(s), snapshot {}\n",
            f.fleet,
            f.agents,
            f.sessions,
            f.handoffs,
            f.snapshot_id.as_deref().unwrap_or("none")
        ));
    }
    let u = &o.unserved_fleets;
    if !u.is_empty() {
        let more = if u.count > u.sample.len() {
            ", …"
        } else {
            ""
        };
        s.push_str(&format!(
            "not served here: {} other fleet(s) in the lake ({}{more}); `ctxlake doctor` says how to serve one\n",
            u.count,
            u.sample.join(", ")
        ));
    }
    s
}
