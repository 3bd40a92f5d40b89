//! ctxlake's hooks in one runtime file: exactly one element of ours per event install
//! wires, each running this binary's `hook`. Missing, partial, duplicated and stale hooks
//! are named apart, since each points at a different cause.

use std::path::Path;

use serde_json::Value;

use super::{File, G, commands, reinstall};
use crate::install::Runtime;
use crate::install::runtimes::is_ours;
use crate::services::doctor::Inputs;
use crate::services::doctor::report::{Check, Drift};

pub(super) fn check(i: &Inputs, rt: Runtime, f: &File) -> Check {
    let shown = i.installer.env.show(&f.t.path);
    let name = format!("{}: hooks", rt.name());
    let ours = |c: &str| is_ours(c, &i.opts.exe);
    let hooks = f.value.as_ref().map(|v| &v["hooks"]);
    let (mut missing, mut doubled, mut stale) = (Vec::new(), Vec::new(), Vec::new());
    for (event, element) in &f.t.hooks {
        let mine: Vec<&Value> = hooks
            .and_then(|h| h[*event].as_array())
            .map(|a| {
                a.iter()
                    .filter(|e| commands(e).iter().any(|c| ours(c)))
                    .collect()
            })
            .unwrap_or_default();
        match mine.as_slice() {
            [] => missing.push(*event),
            [one] if *one == element => {}
            [one] => stale.push((*event, *one)),
            _ => doubled.push(*event),
        }
    }
    let found = problems(f.t.hooks.len(), &shown, &missing, &doubled, &stale, &ours);
    let Some((drift, _)) = found.first() else {
        let total = f.t.hooks.len();
        return Check::ok(
            G,
            name,
            format!("all {total} hooks wired once in `{shown}`"),
        );
    };
    let saw: Vec<&str> = found.iter().map(|(_, s)| s.as_str()).collect();
    Check::fail(G, &name, saw.join("; "))
        .fix(format!(
            "ctxlake doctor --fix   (or: ctxlake install {})",
            rt.name()
        ))
        .drift(*drift)
        .repair(reinstall(rt))
}

/// Every problem, named, the worst first (its drift class labels the check).
fn problems(
    total: usize,
    shown: &str,
    missing: &[&str],
    doubled: &[&str],
    stale: &[(&str, &Value)],
    ours: &dyn Fn(&str) -> bool,
) -> Vec<(Drift, String)> {
    let mut found: Vec<(Drift, String)> = Vec::new();
    if missing.len() == total {
        found.push((
            Drift::HooksMissing,
            format!("none of ctxlake's {total} hooks is in `{shown}`"),
        ));
    } else if !missing.is_empty() {
        let wired = total - missing.len();
        found.push((
            Drift::HooksPartial,
            format!(
                "{wired} of {total} hooks wired in `{shown}`; missing: {}",
                missing.join(", ")
            ),
        ));
    }
    if !doubled.is_empty() {
        found.push((
            Drift::DuplicateEntries,
            format!(
                "ctxlake's hook is wired more than once for {}: each event runs it twice",
                doubled.join(", ")
            ),
        ));
    }
    for (event, el) in stale {
        let prog = commands(el)
            .into_iter()
            .find(|c| ours(c))
            .map(program)
            .unwrap_or_default();
        found.push(
            if Path::new(&prog).is_absolute() && !Path::new(&prog).exists() {
                (
                    Drift::StaleBinaryPath,
                    format!("the {event} hook runs `{prog}`, which does not exist"),
                )
            } else {
                (
                    Drift::EntryDiffers,
                    format!("the {event} hook differs from what `ctxlake install` writes: {el}"),
                )
            },
        );
    }
    found
}

/// The program a hook command runs: its first shell word, unquoted.
fn program(cmd: &str) -> String {
    match cmd.chars().next() {
        Some(q @ ('\'' | '"')) => cmd[1..].split(q).next().unwrap_or("").to_string(),
        _ => cmd.split_whitespace().next().unwrap_or("").to_string(),
    }
}
