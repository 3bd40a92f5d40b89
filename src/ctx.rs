//! The context every tool, the hook and the MCP server act in: where files are, the
//! settings, who is acting, the fleet pin, and the clock.

use std::path::PathBuf;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::paths::Paths;
use crate::scope::{Scope, ScopeFlags};

/// Where "now" comes from. Only tests pick a fixed instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    #[default]
    System,
    Fixed(i64),
}

impl Clock {
    pub fn now_ms(self) -> i64 {
        match self {
            Clock::System => crate::time::now_ms(),
            Clock::Fixed(ms) => ms,
        }
    }
}

/// Which phase timers print (see `services::trace`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Trace {
    pub sync: bool,
    pub maint: bool,
}

impl Trace {
    fn from_env() -> Trace {
        let on = |v: &str| crate::paths::var(v).is_some_and(|v| v == "1");
        Trace {
            sync: on(crate::paths::env::TRACE_SYNC),
            maint: on(crate::paths::env::TRACE_MAINT),
        }
    }
}

/// What the caller may do. The local user (CLI, hook, stdio MCP) may do everything; a call
/// over HTTP carries its token's grant (`auth::Principal::grant`), so the tools enforce it
/// without knowing HTTP exists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grant {
    /// The token the call came with, named in refusals; `None` for the local user.
    pub token: Option<String>,
    /// The only fleets it may use; `None`: every fleet.
    pub fleets: Option<Vec<String>>,
    /// Reads only: every write is refused.
    pub read_only: bool,
}

/// Everything a tool may look at: where files are, who is acting, and the pin.
#[derive(Debug, Clone)]
pub struct Ctx {
    pub paths: Paths,
    pub config: Config,
    pub scope: Scope,
    /// `ctxlake mcp --fleet X`: every other fleet is refused.
    pub pinned_fleet: Option<String>,
    /// What the caller may do (everything, unless a token limits it).
    pub grant: Grant,
    pub cwd: PathBuf,
    /// Wall clock; tests set a fixed instant instead of writing dates far in the future.
    pub clock: Clock,
    /// Phase timers for `sync` and `maint`.
    pub trace: Trace,
}

impl Ctx {
    /// Paths and config from the environment, scope from flags > env > config > default.
    pub fn load(flags: &ScopeFlags) -> Result<Ctx> {
        let paths = Paths::from_env()?;
        let config = Config::load(&paths.config_file())?;
        let scope = Scope::resolve(flags, &config)?;
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        Ok(Ctx {
            paths,
            config,
            scope,
            pinned_fleet: None,
            grant: Grant::default(),
            cwd,
            clock: Clock::System,
            trace: Trace::from_env(),
        })
    }

    /// Default settings and scope, for `ctxlake mcp` when a setting is broken: the server
    /// still answers the handshake and reports the setting on every tool call.
    pub fn fallback(paths: Paths) -> Ctx {
        Ctx {
            paths,
            config: Config::default(),
            scope: Scope {
                fleet: crate::config::DEFAULT_FLEET.into(),
                agent: crate::scope::default_agent(),
                session: crate::scope::DEFAULT_SESSION.into(),
            },
            pinned_fleet: None,
            grant: Grant::default(),
            cwd: PathBuf::from("."),
            clock: Clock::System,
            trace: Trace::default(),
        }
    }

    /// The fleet a call acts in: the requested one (validated, and allowed by the pin and
    /// the grant) or ours.
    pub fn fleet(&self, requested: Option<&str>) -> Result<String> {
        let fleet = requested.unwrap_or(&self.scope.fleet);
        crate::scope::validate_id("fleet", fleet)?;
        if let Some(pin) = &self.pinned_fleet
            && pin != fleet
        {
            return Err(Error::refused(
                "fleet_not_accessible",
                format!(
                    "fleet `{fleet}` is not accessible: this server is pinned to fleet `{pin}`"
                ),
            )
            .hint(format!("omit `fleet` or pass `{pin}`")));
        }
        if let (Some(allowed), Some(token)) = (&self.grant.fleets, &self.grant.token)
            && !allowed.iter().any(|f| f == fleet)
        {
            return Err(Error::refused(
                "fleet_not_accessible",
                format!("fleet `{fleet}` is not accessible with token `{token}`"),
            )
            .hint(format!("this token may use: {}", list(allowed))));
        }
        Ok(fleet.to_string())
    }

    /// Whether the caller may write: a read-only token may not, and the refusal names it.
    /// `what` names the write (`fleet_claim`, …).
    pub fn check_write(&self, what: &str) -> Result<()> {
        match &self.grant.token {
            Some(token) if self.grant.read_only => Err(Error::refused(
                "read_only_token",
                format!("token `{token}` is read-only: `{what}` writes, so it is refused"),
            )
            .hint("use a token made without `--read-only` (`ctxlake mcp token new NAME`)")),
            _ => Ok(()),
        }
    }

    /// This context narrowed to a token's grant, acting as `agent`: the default fleet stays
    /// ours when the grant allows it, else the grant's first fleet.
    pub fn granted(&self, agent: &str, grant: Grant) -> Ctx {
        let mut ctx = self.clone();
        ctx.scope.agent = agent.to_string();
        if let Some(first) = grant
            .fleets
            .as_ref()
            .and_then(|f| (!f.contains(&ctx.scope.fleet)).then(|| f.first()).flatten())
        {
            ctx.scope.fleet = first.clone();
        }
        ctx.grant = grant;
        ctx
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    pub fn now_rfc3339(&self) -> String {
        crate::time::format_ms(self.now_ms())
    }
}

fn list(fleets: &[String]) -> String {
    let named: Vec<String> = fleets.iter().map(|f| format!("`{f}`")).collect();
    named.join(", ")
}
