//! `ctxlake service install|uninstall`: run `ctxlake sync --watch` (or, with `--http`,
//! `ctxlake mcp --http ADDR` next to it) as a per-user service (systemd user unit on Linux,
//! launchd agent on macOS) with a pinned PATH and HOME.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde::Serialize;

use super::{GlobalArgs, printed};
use crate::error::{Error, Result};
use crate::paths::var;

/// Manage the background sync service.
#[derive(Debug, Subcommand)]
pub enum ServiceCmd {
    #[command(
        about = "Write the user service that keeps `ctxlake sync --watch` running, and start it"
    )]
    Install(ServiceArgs),
    #[command(about = "Stop and remove the user service")]
    Uninstall(ServiceArgs),
}

/// Write (or remove) the user service that keeps `ctxlake sync --watch` running
///
/// Linux: `~/.config/systemd/user/ctxlake-sync.service`, then
/// `systemctl --user daemon-reload && systemctl --user enable --now ctxlake-sync`.
/// macOS: `~/Library/LaunchAgents/dev.ctxlake.sync.plist`, then `launchctl load -w` it.
/// ctxlake runs those commands for you when they exist and says so if they fail.
///
/// With `--http [ADDR]` the service is `ctxlake mcp --http ADDR` instead, in its own unit
/// (`ctxlake-mcp-http.service`, `dev.ctxlake.mcp-http.plist`) next to the sync one.
///
/// Example:
///   ctxlake service install
///   ctxlake service install --http
///   ctxlake service uninstall
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ServiceArgs {
    /// Only write/remove the file; do not call systemctl/launchctl.
    #[arg(long)]
    pub no_start: bool,
    /// The `ctxlake mcp --http ADDR` service instead of sync (ADDR default 127.0.0.1:8719)
    #[arg(long, value_name = "ADDR", num_args = 0..=1,
          default_missing_value = crate::addr::DEFAULT_ADDR)]
    pub http: Option<String>,
}

/// Which service: its unit name, launchd label, and what it runs.
struct Unit {
    name: &'static str,
    label: &'static str,
    description: &'static str,
    args: Vec<String>,
}

impl Unit {
    fn of(a: &ServiceArgs) -> Result<Unit> {
        Ok(match &a.http {
            None => Unit {
                name: "ctxlake-sync",
                label: "dev.ctxlake.sync",
                description: "ctxlake sync daemon (spool -> lake -> cache)",
                args: ["sync", "--watch", "--quiet"].map(String::from).to_vec(),
            },
            Some(addr) => Unit {
                name: "ctxlake-mcp-http",
                label: "dev.ctxlake.mcp-http",
                description: "ctxlake MCP server over Streamable HTTP",
                // Parsed now so a bad address fails here, not in a restart loop.
                args: vec![
                    "mcp".into(),
                    "--http".into(),
                    crate::addr::parse_addr(addr)?.to_string(),
                ],
            },
        })
    }
}

#[derive(Debug, Serialize)]
pub struct ServiceOutput {
    pub action: ServiceAction,
    pub file: String,
    pub changed: bool,
    pub activated: Option<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ServiceAction {
    Install,
    Uninstall,
}

fn home() -> Result<PathBuf> {
    var("HOME")
        .map(PathBuf::from)
        .ok_or_else(|| Error::usage("no_home", "`HOME` is not set").hint("set HOME"))
}

fn unit_path(u: &Unit) -> Result<PathBuf> {
    let home = home()?;
    Ok(if cfg!(target_os = "macos") {
        home.join(format!("Library/LaunchAgents/{}.plist", u.label))
    } else {
        var("XDG_CONFIG_HOME")
            .map_or(home.join(".config"), PathBuf::from)
            .join(format!("systemd/user/{}.service", u.name))
    })
}

/// Where `service install` writes the sync unit (`http`: the `--http` one), for `doctor`.
pub(crate) fn unit_file(http: bool) -> Result<PathBuf> {
    let a = ServiceArgs {
        no_start: false,
        http: http.then(|| crate::addr::DEFAULT_ADDR.to_string()),
    };
    unit_path(&Unit::of(&a)?)
}

/// `ctxlake service install` for the sync service, as `doctor --fix` offers it; returns the
/// unit file written (the caller renders it: doctor's `--json` stays one object).
pub(crate) fn install_sync(g: &GlobalArgs) -> Result<PathBuf> {
    let a = ServiceArgs {
        no_start: false,
        http: None,
    };
    let unit = Unit::of(&a)?;
    let file = unit_path(&unit)?;
    install(&a, &unit, file.clone(), g)?;
    Ok(file)
}

/// The unit text: absolute binary, and the environment pinned as it is now.
fn unit_text(
    u: &Unit,
    exe: &str,
    path_env: &str,
    home: &str,
    ctxlake_home: Option<&str>,
) -> String {
    let (label, description) = (u.label, u.description);
    let extra = ctxlake_home
        .map(|h| format!("Environment=CTXLAKE_HOME={h}\n"))
        .unwrap_or_default();
    if cfg!(target_os = "macos") {
        let args: String = u
            .args
            .iter()
            .map(|a| format!("<string>{a}</string>"))
            .collect();
        let extra = ctxlake_home
            .map(|h| format!("    <key>CTXLAKE_HOME</key><string>{h}</string>\n"))
            .unwrap_or_default();
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\"><dict>\n  <key>Label</key><string>{label}</string>\n  <key>ProgramArguments</key><array><string>{exe}</string>{args}</array>\n  <key>EnvironmentVariables</key><dict>\n    <key>PATH</key><string>{path_env}</string>\n    <key>HOME</key><string>{home}</string>\n{extra}  </dict>\n  <key>RunAtLoad</key><true/>\n  <key>KeepAlive</key><true/>\n</dict></plist>\n"
        )
    } else {
        let args = u.args.join(" ");
        format!(
            "# Written by `ctxlake service install`; remove with `ctxlake service uninstall`.\n[Unit]\nDescription={description}\n\n[Service]\nExecStart={exe} {args}\nEnvironment=PATH={path_env}\nEnvironment=HOME={home}\n{extra}Restart=on-failure\nRestartSec=5\n\n[Install]\nWantedBy=default.target\n"
        )
    }
}

pub fn run(cmd: ServiceCmd, g: &GlobalArgs) -> Result<()> {
    let (ServiceCmd::Install(a) | ServiceCmd::Uninstall(a)) = &cmd;
    let unit = Unit::of(a)?;
    let file = unit_path(&unit)?;
    let out = match cmd {
        ServiceCmd::Install(a) => install(&a, &unit, file.clone(), g)?,
        ServiceCmd::Uninstall(a) => {
            let exists = file.exists();
            let activated = (!a.no_start && exists).then(|| activate(false, &unit, &file, g));
            if exists {
                std::fs::remove_file(&file).map_err(|e| Error::io("cannot remove", &file, e))?;
            }
            ServiceOutput {
                action: ServiceAction::Uninstall,
                file: file.display().to_string(),
                changed: exists,
                activated,
            }
        }
    };
    printed(g.output().emit(&out, |o| {
        let what = if o.changed { "wrote" } else { "unchanged" };
        let what = if o.action == ServiceAction::Uninstall {
            if o.changed {
                "removed"
            } else {
                "not installed"
            }
        } else {
            what
        };
        format!("{what} {}\n", o.file)
    }))
}

/// The sync unit's file and the text `service install` would write there (`init
/// --dry-run` shows it as a diff).
pub(crate) fn sync_unit() -> Result<(PathBuf, String)> {
    let unit = Unit::of(&ServiceArgs {
        no_start: false,
        http: None,
    })?;
    Ok((unit_path(&unit)?, text_for(&unit)?))
}

/// The unit text for this binary and the environment as it is now.
fn text_for(unit: &Unit) -> Result<String> {
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| Error::storage("io", "cannot find this binary's path").source(e))?;
    Ok(unit_text(
        unit,
        &exe.display().to_string(),
        &var("PATH").unwrap_or_default(),
        &home()?.display().to_string(),
        var(crate::paths::env::HOME).as_deref(),
    ))
}

/// Write the unit (when it differs) and, unless `--no-start`, start it. Prints nothing.
fn install(a: &ServiceArgs, unit: &Unit, file: PathBuf, g: &GlobalArgs) -> Result<ServiceOutput> {
    let text = text_for(unit)?;
    let changed = std::fs::read_to_string(&file).ok().as_deref() != Some(text.as_str());
    if changed {
        crate::fsutil::write_atomic(&file, text.as_bytes(), 0o644)?;
    }
    let activated = (!a.no_start).then(|| activate(true, unit, &file, g));
    Ok(ServiceOutput {
        action: ServiceAction::Install,
        file: file.display().to_string(),
        changed,
        activated,
    })
}

/// Best effort: the service manager may be absent (containers, CI); say so, don't fail.
fn activate(on: bool, unit: &Unit, file: &std::path::Path, g: &GlobalArgs) -> bool {
    let cmds: Vec<Vec<String>> = if cfg!(target_os = "macos") {
        let verb = if on { "load" } else { "unload" };
        vec![vec![
            "launchctl".into(),
            verb.into(),
            "-w".into(),
            file.display().to_string(),
        ]]
    } else if on {
        vec![
            vec!["systemctl".into(), "--user".into(), "daemon-reload".into()],
            vec![
                "systemctl".into(),
                "--user".into(),
                "enable".into(),
                "--now".into(),
                unit.name.into(),
            ],
        ]
    } else {
        vec![vec![
            "systemctl".into(),
            "--user".into(),
            "disable".into(),
            "--now".into(),
            unit.name.into(),
        ]]
    };
    for c in &cmds {
        let ok = std::process::Command::new(&c[0])
            .args(&c[1..])
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            g.output().note(&format!("note: `{}` did not succeed; run it yourself once a user service manager is available", c.join(" ")));
            return false;
        }
    }
    true
}
