//! `ctxlake doctor`: prove each link of the chain on this machine by exercising it
//! (runtime entries spawn and answer, hooks are wired, the spool drains, the store honours
//! conditional writes, clocks agree), and plan repairs of ctxlake's own entries.
//! Never prints; `cmd/doctor.rs` renders the [`Report`].

mod fix;
mod http;
mod pipeline;
mod report;
mod runtimes;
mod settings;
mod spawn;
mod store;

use std::time::Instant;

pub(crate) use fix::plan as plan_fix;
pub(crate) use report::{Check, Group, Report, Status};

use crate::config::Config;
use crate::install::{EntryOpts, Installer};
use crate::paths::Paths;

/// What every check group needs: where things are, what install would write.
pub(crate) struct Inputs<'a> {
    pub paths: &'a Paths,
    /// `None` when `config.toml` does not parse (the settings group says why).
    pub config: Option<&'a Config>,
    pub installer: &'a Installer,
    pub opts: &'a EntryOpts,
    /// This binary's canonical path (the entries should run it).
    pub exe: &'a std::path::Path,
    /// Where `service install` writes the sync unit, and the `--http` one.
    pub sync_unit: &'a std::path::Path,
    pub http_unit: &'a std::path::Path,
}

/// Run every group; the independent ones in parallel (each reads only its own files, and
/// only the store group talks to the network).
pub(crate) fn run(i: &Inputs) -> Report {
    let start = Instant::now();
    let default_config = Config::default();
    let config = i.config.unwrap_or(&default_config);
    let (mut rt, mut pipe, mut st, mut set, mut web) = (vec![], vec![], vec![], vec![], vec![]);
    std::thread::scope(|s| {
        let a = s.spawn(|| runtimes::check(i));
        let b = s.spawn(|| pipeline::check(i.paths, config, i.sync_unit));
        let c = s.spawn(|| store::bounded(i.paths, config));
        set = settings::check(i.paths);
        web = http::check(i.paths, i.http_unit);
        rt = a.join().unwrap_or_else(|_| vec![panicked(Group::Runtimes)]);
        pipe = b.join().unwrap_or_else(|_| vec![panicked(Group::Pipeline)]);
        st = c.join().unwrap_or_else(|_| vec![panicked(Group::Store)]);
    });
    let mut checks = rt;
    checks.extend(pipe);
    checks.extend(st);
    checks.extend(set);
    checks.extend(web);
    Report::new(checks, start.elapsed())
}

/// A check that panicked is a bug, reported as a failed check rather than a lost report.
fn panicked(g: Group) -> Check {
    Check::fail(
        g,
        "doctor",
        "this group of checks crashed (a bug in ctxlake)",
    )
    .fix("report it with the output of `ctxlake doctor --json`")
}
