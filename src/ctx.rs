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

/// Everything a tool may look at: where files are, who is acting, and the pin.
#[derive(Debug, Clone)]
pub struct Ctx {
    pub paths: Paths,
    pub config: Config,
    pub scope: Scope,
    /// `ctxlake mcp --fleet X`: every other fleet is refused.
    pub pinned_fleet: Option<String>,
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
            cwd: PathBuf::from("."),
            clock: Clock::System,
            trace: Trace::default(),
        }
    }

    /// The fleet a call acts in: the requested one (validated, and allowed by the pin) or ours.
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
        Ok(fleet.to_string())
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    pub fn now_rfc3339(&self) -> String {
        crate::time::format_ms(self.now_ms())
    }
}
