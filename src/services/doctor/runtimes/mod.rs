//! The runtimes group: for every detected runtime, its config parses, ctxlake's entry is
//! there and runs this version, spawning it answers `initialize` + `tools/list`, its hooks
//! are wired once per event, and a hook event from it arrived recently. Runtimes are
//! checked in parallel: each spawns its own server.

mod entry;
mod hooks;
mod recent;
mod remote;

pub(crate) use recent::{ago, fleets};

use serde_json::Value;

use super::Inputs;
use super::report::{Check, Group, Repair};
use crate::install::runtimes::{Target, is_ours, targets};
use crate::install::{ALL, Runtime, detect};

const G: Group = Group::Runtimes;

pub(crate) fn check(i: &Inputs) -> Vec<Check> {
    let detected: Vec<Runtime> = ALL
        .into_iter()
        .filter(|&rt| detect(rt, &i.installer.env).detected)
        .collect();
    if detected.is_empty() {
        return vec![
            Check::warn(G, "runtimes", "no agent runtime detected on this machine").fix(
                "install one (see `ctxlake install --list`), then `ctxlake install <runtime>`",
            ),
        ];
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = detected
            .iter()
            .map(|&rt| s.spawn(move || one(i, rt)))
            .collect();
        handles
            .into_iter()
            .zip(&detected)
            .flat_map(|(h, rt)| {
                h.join().unwrap_or_else(|_| {
                    vec![Check::fail(
                        G,
                        rt.name(),
                        "checking this runtime crashed (a bug)",
                    )]
                })
            })
            .collect()
    })
}

/// One target file, read and parsed (or why not).
pub(super) struct File<'a> {
    pub t: &'a Target,
    /// `None`: the file does not exist.
    pub value: Option<Value>,
    /// `ctxlake install` wrote this file at some point (its state has a record).
    pub recorded: bool,
}

fn one(i: &Inputs, rt: Runtime) -> Vec<Check> {
    let env = &i.installer.env;
    let ts = match targets(rt, env, i.opts) {
        Ok(ts) => ts,
        Err(e) => return vec![Check::skip(G, rt.name(), e.message)],
    };
    let mut out = Vec::new();
    let mut files = Vec::new();
    for t in &ts {
        match load(i, t) {
            Ok(f) => files.push(f),
            Err(c) => out.push(*c),
        }
    }
    if !out.is_empty() {
        return out; // a file that does not parse: nothing else can be trusted
    }
    let ours = |c: &str| is_ours(c, &i.opts.exe);
    let installed = files.iter().any(|f| f.recorded || has_ours(f, &ours));
    if !installed {
        return vec![
            Check::warn(
                G,
                format!("{}: entry", rt.name()),
                format!(
                    "ctxlake is not installed in {} (detected: {})",
                    rt.name(),
                    detect(rt, env).reason
                ),
            )
            .fix(format!("ctxlake install {}", rt.name())),
        ];
    }
    let mut repair = false;
    for f in &files {
        let checks = if f.t.mcp.is_some() {
            entry::check(i, rt, f)
        } else {
            Vec::new()
        };
        out.extend(checks);
        if !f.t.hooks.is_empty() {
            out.push(hooks::check(i, rt, f));
        }
    }
    for c in &mut out {
        repair |= c.repair.is_some();
    }
    if rt.has_hooks() && !repair {
        out.push(recent::check(i.paths, rt));
    }
    out
}

fn load<'a>(i: &Inputs, t: &'a Target) -> Result<File<'a>, Box<Check>> {
    let env = &i.installer.env;
    let name = format!("{}: config", t.runtime.name());
    let shown = env.show(&t.path);
    let unreadable = |m: String| {
        Box::new(Check::fail(G, &name, m).fix(format!(
            "fix or move `{shown}` aside, then run `ctxlake doctor --fix`"
        )))
    };
    let target = crate::install::plan::resolve(&t.path).map_err(|e| unreadable(e.message))?;
    let text = crate::install::plan::read(&target).map_err(|e| unreadable(e.message))?;
    let recorded = matches!(i.installer.store.load(&target), Ok(Some(_)));
    let Some(text) = text else {
        return Ok(File {
            t,
            value: None,
            recorded,
        });
    };
    match crate::install::validate::parse(t.format, &text) {
        Ok(v) => Ok(File {
            t,
            value: Some(v),
            recorded,
        }),
        Err(e) => Err(Box::new(
            Check::fail(
                G,
                &name,
                format!(
                    "`{shown}` does not parse: line {}, column {}: {}",
                    e.line, e.column, e.message
                ),
            )
            .fix(format!(
                "fix line {} of `{shown}` (the runtime cannot read it either)",
                e.line
            )),
        )),
    }
}

fn has_ours(f: &File, ours: &dyn Fn(&str) -> bool) -> bool {
    let Some(v) = &f.value else { return false };
    let entry =
        f.t.mcp
            .as_ref()
            .is_some_and(|(p, _)| v[p[0]].get("ctxlake").is_some());
    let hooks = v["hooks"].as_object().is_some_and(|m| {
        m.values()
            .filter_map(Value::as_array)
            .flatten()
            .any(|h| commands(h).iter().any(|c| ours(c)))
    });
    entry || hooks
}

pub(super) use crate::install::hook_commands as commands;

/// The repair for this runtime, with no duplicate names to drop.
pub(super) fn reinstall(rt: Runtime) -> Repair {
    Repair::Reinstall {
        runtime: rt,
        duplicates: Vec::new(),
    }
}
