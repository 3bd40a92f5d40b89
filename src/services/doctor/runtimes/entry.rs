//! ctxlake's MCP entry in one runtime file: present, this binary at this version, the right
//! fleet and agent, no second entry running ctxlake under another name, and, spawned as the
//! runtime would spawn it, answering with all eight tools.

use std::path::Path;

use serde_json::{Map, Value};

use super::{File, G, reinstall};
use crate::install::Runtime;
use crate::services::doctor::Inputs;
use crate::services::doctor::report::{Check, Drift, Repair};
use crate::services::doctor::spawn;

/// What a stdio entry runs.
struct Launch {
    cmd: String,
    args: Vec<String>,
    env: Vec<(String, String)>,
}

pub(super) fn check(i: &Inputs, rt: Runtime, f: &File) -> Vec<Check> {
    let Some((path, expected)) = &f.t.mcp else {
        return Vec::new();
    };
    let shown = i.installer.env.show(&f.t.path);
    let name = format!("{}: MCP entry", rt.name());
    let fix = format!("ctxlake doctor --fix   (or: ctxlake install {})", rt.name());
    let drifted = |c: Check, d: Drift| c.fix(&fix).drift(d).repair(reinstall(rt));
    let servers = f.value.as_ref().and_then(|v| v[path[0]].as_object());
    let mut out: Vec<Check> = servers
        .and_then(|s| doubled(rt, s, &shown, &fix))
        .into_iter()
        .collect();
    let Some(actual) = servers.and_then(|s| s.get("ctxlake")) else {
        let (drift, saw) = absent(f, &shown, path[0]);
        out.push(drifted(Check::fail(G, name, saw), drift));
        return out;
    };
    if remote(actual) {
        out.push(Check::ok(
            G,
            name,
            format!("`{shown}` holds a remote entry"),
        ));
        out.push(super::remote::check(i, rt, actual, &shown));
        return out;
    }
    let Some(l) = launch(actual) else {
        let saw = format!("the `ctxlake` entry in `{shown}` names no command");
        out.push(drifted(Check::fail(G, name, saw), Drift::EntryDiffers));
        return out;
    };
    match classify(i, &l, actual, expected) {
        None => {
            let saw = format!(
                "`{shown}` runs `{} {}`, ctxlake {}",
                l.cmd,
                l.args.join(" "),
                env!("CARGO_PKG_VERSION")
            );
            out.push(Check::ok(G, &name, saw));
            out.push(answers(rt, &l));
        }
        // Only a different shape is a warning; the server may still answer, so try it.
        Some((Drift::EntryDiffers, saw)) => {
            out.push(drifted(Check::warn(G, &name, saw), Drift::EntryDiffers));
            out.push(answers(rt, &l));
        }
        Some((d, saw)) => {
            out.push(drifted(Check::fail(G, &name, saw), d));
            if d != Drift::StaleBinaryPath {
                out.push(answers(rt, &l));
            }
        }
    }
    out
}

/// Why there is no entry: never written, or written and since lost (a rewrite).
fn absent(f: &File, shown: &str, key: &str) -> (Drift, String) {
    if f.recorded {
        let saw = format!(
            "`{shown}` was written by `ctxlake install` but no longer holds ctxlake's entry (the runtime rewrote it?)"
        );
        (Drift::RewrittenLostKeys, saw)
    } else {
        (
            Drift::MissingEntry,
            format!("no `ctxlake` entry under `{key}` in `{shown}`"),
        )
    }
}

/// Other server names in the same file that run ctxlake's server: the runtime starts both.
fn doubled(rt: Runtime, servers: &Map<String, Value>, shown: &str, fix: &str) -> Option<Check> {
    let d = duplicates(servers);
    if d.is_empty() {
        return None;
    }
    let names: Vec<String> = d.iter().map(|n| format!("`{n}`")).collect();
    let saw = format!(
        "`{shown}` runs ctxlake's MCP server under {} besides `ctxlake`: the runtime starts it twice",
        names.join(", ")
    );
    Some(
        Check::fail(G, format!("{}: duplicates", rt.name()), saw)
            .fix(fix)
            .drift(Drift::DuplicateEntries)
            .repair(Repair::Reinstall {
                runtime: rt,
                duplicates: d,
            }),
    )
}

/// Why `actual` is not what install writes, the worst reason first.
fn classify(i: &Inputs, l: &Launch, actual: &Value, expected: &Value) -> Option<(Drift, String)> {
    if actual == expected {
        return None;
    }
    // A bare name (`ctxlake`) runs whatever the runtime's PATH finds, as a shell would.
    let found = if l.cmd.contains('/') {
        executable(Path::new(&l.cmd))
    } else {
        i.installer.env.which(&l.cmd).is_some()
    };
    if !found {
        return Some((
            Drift::StaleBinaryPath,
            format!(
                "the entry runs `{}`, which does not exist or is not executable; this binary is `{}`",
                l.cmd,
                i.exe.display()
            ),
        ));
    }
    let mine = format!("ctxlake {}", env!("CARGO_PKG_VERSION"));
    match spawn::version(&l.cmd) {
        Ok(v) if v == mine => {}
        Ok(v) => {
            return Some((
                Drift::StaleBinaryPath,
                format!(
                    "the entry runs `{}`, which is `{v}`; this is `{mine}` at `{}`",
                    l.cmd,
                    i.exe.display()
                ),
            ));
        }
        Err(e) => return Some((Drift::StaleBinaryPath, e.to_string())),
    }
    let want = env_of(expected);
    let got: Vec<String> = ["CTXLAKE_FLEET_ID", "CTXLAKE_AGENT_ID"]
        .into_iter()
        .filter(|k| want.get(*k) != env_of(actual).get(*k))
        .map(|k| {
            format!(
                "{k}={} (want {})",
                show(env_of(actual).get(k)),
                show(want.get(k))
            )
        })
        .collect();
    if !got.is_empty() {
        return Some((
            Drift::WrongFleetOrAgent,
            format!("the entry's env has {}", got.join(", ")),
        ));
    }
    Some((
        Drift::EntryDiffers,
        format!("the entry differs from what `ctxlake install` writes: {actual}"),
    ))
}

fn show(v: Option<&Value>) -> String {
    v.and_then(Value::as_str)
        .map_or_else(|| "unset".into(), |s| format!("`{s}`"))
}

fn answers(rt: Runtime, l: &Launch) -> Check {
    let name = format!("{}: MCP server answers", rt.name());
    let want: Vec<&str> = crate::tools::registry().iter().map(|t| t.name).collect();
    match spawn::handshake(&l.cmd, &l.args, &l.env, spawn::DEADLINE) {
        Ok(a) if want.iter().all(|w| a.tools.iter().any(|t| t == w)) => Check::ok(
            G,
            name,
            format!(
                "`initialize` + `tools/list` answered with all {} tools in {} ms",
                want.len(),
                a.elapsed.as_millis()
            ),
        ),
        Ok(a) => Check::fail(
            G,
            name,
            format!(
                "`tools/list` listed {} of the {} tools: {}",
                a.tools.len(),
                want.len(),
                a.tools.join(", ")
            ),
        )
        .fix(format!(
            "ctxlake doctor --fix   (or: ctxlake install {})",
            rt.name()
        ))
        .repair(reinstall(rt)),
        Err(e) => Check::fail(G, name, e.to_string()).fix(format!(
            "run `{} {}` by hand to see why it does not answer",
            l.cmd,
            l.args.join(" ")
        )),
    }
}

/// Other server names whose entry runs a ctxlake binary's `mcp`.
fn duplicates(servers: &Map<String, Value>) -> Vec<String> {
    servers
        .iter()
        .filter(|(k, v)| k.as_str() != "ctxlake" && !remote(v))
        .filter(|(_, v)| {
            let (cmd, args) = command_and_args(v);
            let base = cmd
                .and_then(|c| Path::new(c).file_name())
                .and_then(|n| n.to_str())
                .unwrap_or("");
            base.contains("ctxlake") && args.first().map(String::as_str) == Some("mcp")
        })
        .map(|(k, _)| k.clone())
        .collect()
}

fn remote(v: &Value) -> bool {
    ["url", "httpUrl", "serverUrl"]
        .iter()
        .any(|k| v.get(k).is_some())
        || v.get("type").and_then(Value::as_str) == Some("remote")
}

/// `command` + `args`, or opencode's single `command` array.
fn command_and_args(v: &Value) -> (Option<&str>, Vec<String>) {
    let strs = |a: Option<&Value>| -> Vec<String> {
        a.and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    match v.get("command") {
        Some(Value::Array(a)) => (
            a.first().and_then(Value::as_str),
            strs(v.get("command")).into_iter().skip(1).collect(),
        ),
        Some(Value::String(s)) => (Some(s.as_str()), strs(v.get("args"))),
        _ => (None, Vec::new()),
    }
}

fn env_of(v: &Value) -> Map<String, Value> {
    v.get("env")
        .or_else(|| v.get("environment"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

fn launch(v: &Value) -> Option<Launch> {
    let (cmd, args) = command_and_args(v);
    let env = env_of(v)
        .into_iter()
        .filter_map(|(k, v)| v.as_str().map(|s| (k, s.to_string())))
        .collect();
    Some(Launch {
        cmd: cmd?.to_string(),
        args,
        env,
    })
}

fn executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
