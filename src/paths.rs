//! Every on-disk location ctxlake uses, and the one list of `CTXLAKE_*` variables.
//! Nothing else in the crate reads these variables or builds these paths.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Environment variables ctxlake reads, with what they do (rendered into `--help` and the README).
pub mod env {
    pub const HOME: &str = "CTXLAKE_HOME";
    pub const SPOOL_DIR: &str = "CTXLAKE_SPOOL_DIR";
    pub const CACHE_DIR: &str = "CTXLAKE_CACHE_DIR";
    pub const FLEET_ID: &str = "CTXLAKE_FLEET_ID";
    pub const AGENT_ID: &str = "CTXLAKE_AGENT_ID";
    pub const SESSION_ID: &str = "CTXLAKE_SESSION_ID";
    pub const HOOK_BUDGET_MS: &str = "CTXLAKE_HOOK_BUDGET_MS";
    pub const NO_COLOR: &str = "NO_COLOR";
    pub const STORE: &str = "CTXLAKE_STORE";
    pub const EMBEDDER: &str = "CTXLAKE_EMBEDDER";
    pub const MODEL_DIR: &str = "CTXLAKE_MODEL_DIR";
    pub const MODEL_URL: &str = "CTXLAKE_MODEL_URL";
    pub const TRACE_SYNC: &str = "CTXLAKE_TRACE_SYNC";
    pub const TRACE_MAINT: &str = "CTXLAKE_TRACE_MAINT";
    /// The bearer token a remote (`install --http`) entry sends; `doctor` checks it.
    pub const MCP_TOKEN: &str = "CTXLAKE_MCP_TOKEN";
    /// Debug builds only: shift this process's clock by N ms, to prove that leases
    /// follow the lake's clock rather than a host's. Not listed: not a user setting.
    pub const TEST_CLOCK_SKEW_MS: &str = "CTXLAKE_TEST_CLOCK_SKEW_MS";
    /// Debug builds only: the spool block size (bytes) of `sync`'s drain, so the
    /// three-host run's kill -9 lands between two flushes. Not listed: not a user setting.
    pub const TEST_DRAIN_BLOCK: &str = "CTXLAKE_TEST_DRAIN_BLOCK";

    pub const ALL: &[(&str, &str)] = &[
        (HOME, "root of ctxlake's files (default `~/.ctxlake`)"),
        (
            SPOOL_DIR,
            "where writes queue for sync (default `$CTXLAKE_HOME/spool`)",
        ),
        (
            CACHE_DIR,
            "where sync mirrors the lake for reads (default `$CTXLAKE_HOME/cache`)",
        ),
        (
            FLEET_ID,
            "fleet to act in (overrides config.toml; `--fleet` overrides it)",
        ),
        (
            AGENT_ID,
            "this agent's id (overrides config.toml; `--agent` overrides it)",
        ),
        (
            SESSION_ID,
            "this session's id (default: minted per process)",
        ),
        (
            HOOK_BUDGET_MS,
            "wall-clock ms a hook may run before it exits 0 silently (default 300)",
        ),
        (
            STORE,
            "the lake's URL, `file:///path`, `s3://bucket/prefix` or `az://container/prefix` (overrides config.toml)",
        ),
        (
            EMBEDDER,
            "`auto`, `hash` or `minilm`: the memory embedder (overrides `[memory] embedder`)",
        ),
        (
            MODEL_DIR,
            "the all-MiniLM-L6-v2 directory (overrides `[memory] model_dir`)",
        ),
        (
            MODEL_URL,
            "where `memory model install` downloads the model's files from: a mirror or a file server (overrides `[memory] model_url`)",
        ),
        (
            TRACE_SYNC,
            "`1`: one stderr line per `sync` phase (epoch ms, store requests so far)",
        ),
        (
            TRACE_MAINT,
            "`1`: one stderr line per `maint` phase with its wall time",
        ),
        (
            MCP_TOKEN,
            "the token a runtime's `install --http` entry sends to `ctxlake mcp --http` (never written to a file)",
        ),
        (NO_COLOR, "disable colour in tables"),
    ];
}

/// Read an environment variable, treating empty as unset.
pub fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The object-store providers' own variables (`AWS_*`, `AZURE_*`, `MSI_ENDPOINT`, the
/// emulator's `AZURITE_BLOB_STORAGE_URL`): the credential chains read them. Captured here
/// and handed to the store, so storage reads no environment of its own.
pub fn provider_vars() -> Vec<(String, String)> {
    std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .filter(|(k, _)| {
            k.starts_with("AWS_")
                || k.starts_with("AZURE_")
                || k == "MSI_ENDPOINT"
                || k == "AZURITE_BLOB_STORAGE_URL"
        })
        .collect()
}

#[derive(Debug, Clone)]
pub struct Paths {
    pub home: PathBuf,
    pub spool: PathBuf,
    pub cache: PathBuf,
}

impl Paths {
    /// Resolve from the environment: `CTXLAKE_HOME`, else `$HOME/.ctxlake`.
    pub fn from_env() -> Result<Paths> {
        let home = match var(env::HOME) {
            Some(h) => PathBuf::from(h),
            None => user_home()?.join(".ctxlake"),
        };
        Ok(Paths::with_overrides(
            home,
            var(env::SPOOL_DIR).map(PathBuf::from),
            var(env::CACHE_DIR).map(PathBuf::from),
        ))
    }

    pub fn with_overrides(home: PathBuf, spool: Option<PathBuf>, cache: Option<PathBuf>) -> Paths {
        Paths {
            spool: spool.unwrap_or_else(|| home.join("spool")),
            cache: cache.unwrap_or_else(|| home.join("cache")),
            home,
        }
    }

    pub fn config_file(&self) -> PathBuf {
        self.home.join("config.toml")
    }
    pub fn default_lake(&self) -> PathBuf {
        self.home.join("lake")
    }
    pub fn logs(&self) -> PathBuf {
        self.home.join("logs")
    }
    pub fn mcp_log(&self, date: &str) -> PathBuf {
        self.logs().join(format!("mcp-{date}.jsonl"))
    }
    pub fn spool_mcp_dir(&self) -> PathBuf {
        self.spool.join("mcp")
    }
    /// `spool/mcp/<fleet>.ndjson`: every agent of a fleet appends here.
    pub fn spool_mcp(&self, fleet: &str) -> PathBuf {
        self.spool_mcp_dir().join(format!("{fleet}.ndjson"))
    }
    pub fn spool_hooks_dir(&self) -> PathBuf {
        self.spool.join("hooks")
    }
    /// `spool/hooks/<runtime>/<session>.ndjson`.
    pub fn spool_hook(&self, runtime: &str, session: &str) -> PathBuf {
        self.spool_hooks_dir()
            .join(runtime)
            .join(format!("{session}.ndjson"))
    }
    /// `cache/<fleet>/`: written only by `ctxlake sync`.
    pub fn cache_fleet(&self, fleet: &str) -> PathBuf {
        self.cache.join(fleet)
    }
    pub fn cache_file(&self, fleet: &str, name: &str) -> PathBuf {
        self.cache_fleet(fleet).join(name)
    }
    /// `cache/<fleet>/snapshot.bin`: byte mirror of the published SQLite snapshot.
    pub fn snapshot_bin(&self, fleet: &str) -> PathBuf {
        self.cache_fleet(fleet).join("snapshot.bin")
    }
    /// Registrations of running `ctxlake mcp` servers: host-local, never synced.
    pub fn run(&self) -> PathBuf {
        self.home.join("run")
    }
    /// The token principals of `ctxlake mcp --http`, hashed (mode 0600; `ctxlake mcp token`).
    pub fn mcp_tokens(&self) -> PathBuf {
        self.home.join("mcp-tokens.json")
    }
    /// The dashboard login links already used, kept until they expire so a restart of the
    /// server cannot make one valid again.
    pub fn mcp_login_nonces(&self) -> PathBuf {
        self.state().join("mcp-login-nonces.json")
    }
    /// Where `ctxlake memory model install` unpacks models.
    pub fn models(&self) -> PathBuf {
        self.home.join("models")
    }
    /// Host-local state of sync and maint (watermarks, locks): never shared. Every path
    /// under it is named below, so one place lists what a host keeps.
    pub fn state(&self) -> PathBuf {
        self.home.join("state")
    }
    /// `state/host-id`: this host's random id, the one thing that tells its lake writes apart.
    pub fn host_id(&self) -> PathBuf {
        self.state().join("host-id")
    }
    /// `state/store.json`: the last capability probe of the configured store.
    pub fn store_health(&self) -> PathBuf {
        self.state().join("store.json")
    }
    /// `state/sync.lock`: one drain or sync pass at a time on this host.
    pub fn sync_lock(&self) -> PathBuf {
        self.state().join("sync.lock")
    }
    /// `state/sync-watch.lock`: held by the host's one `sync --watch` daemon.
    pub fn sync_watch_lock(&self) -> PathBuf {
        self.state().join("sync-watch.lock")
    }
    /// `state/hook-dropped.count`: hook events dropped because the spool was full.
    pub fn hook_dropped(&self) -> PathBuf {
        self.state().join("hook-dropped.count")
    }
    /// `state/drain/<spool file>.offset`: how far drain has read each spool file.
    pub fn drain_watermarks(&self) -> PathBuf {
        self.state().join("drain")
    }
    /// `state/history/`: hook records drained but not yet written to the lake as history,
    /// one `<fleet>.ndjson` per fleet (see `services::drain::history`).
    pub fn history_pending_dir(&self) -> PathBuf {
        self.state().join("history")
    }
    /// `state/maint/`: maint's checkpoints and the last snapshot it built, per fleet.
    pub fn maint_dir(&self) -> PathBuf {
        self.state().join("maint")
    }
    /// `state/mirror/`: the lake objects mirrored so far, per fleet.
    pub fn mirror_dir(&self) -> PathBuf {
        self.state().join("mirror")
    }
    /// `state/mirror/<fleet>.json`: the mirror's position in one fleet.
    pub fn mirror_state(&self, fleet: &str) -> PathBuf {
        self.mirror_dir().join(format!("{fleet}.json"))
    }
    /// `state/import/<runtime>.json`: the transcripts already imported from a runtime.
    pub fn import_ledger(&self, runtime: &str) -> PathBuf {
        self.state().join("import").join(format!("{runtime}.json"))
    }
    /// `state/install/`: what `ctxlake install` wrote into each runtime, to undo it.
    pub fn install_state(&self) -> PathBuf {
        self.state().join("install")
    }
    /// `state/roster/`: this host's own rosters, one per fleet it wrote presence in.
    pub fn roster_dir(&self) -> PathBuf {
        self.state().join("roster")
    }
    /// `state/roster/<fleet>.own.json`: this host's own roster entries, kept between hooks.
    pub fn roster_own(&self, fleet: &str) -> PathBuf {
        self.roster_dir().join(format!("{fleet}.own.json"))
    }
    /// `state/fleets-used.json`: every fleet this host's agents wrote to, so `sync` and
    /// `maint` keep serving it (see `fleet::used`).
    pub fn fleets_used(&self) -> PathBuf {
        self.state().join("fleets-used.json")
    }
    /// `state/vectors-<fleet>.sqlite`: embeddings computed for a fleet's claims, reused.
    pub fn vectors_cache(&self, fleet: &str) -> PathBuf {
        self.state().join(format!("vectors-{fleet}.sqlite"))
    }
    /// `state/models/verified-<key>.json`: a model directory's checked digests, kept
    /// outside it because it may be read-only.
    pub fn model_verified(&self, key: &str) -> PathBuf {
        self.state()
            .join("models")
            .join(format!("verified-{key}.json"))
    }
}

fn user_home() -> Result<PathBuf> {
    directories::BaseDirs::new()
        .map(|b| b.home_dir().to_path_buf())
        .filter(|p| p.is_absolute())
        .ok_or_else(|| {
            Error::usage("no_home", "cannot find your home directory")
                .hint(format!("set `HOME` or `{}`", env::HOME))
        })
}

/// Turn a `file://` URL or plain path into a path.
pub fn path_from_store_url(url: &str) -> Option<&Path> {
    url.strip_prefix("file://").map(Path::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_follows_the_design() {
        let p = Paths::with_overrides(PathBuf::from("/h"), None, None);
        assert_eq!(p.spool_mcp("f"), PathBuf::from("/h/spool/mcp/f.ndjson"));
        assert_eq!(
            p.spool_hook("codex", "s1"),
            PathBuf::from("/h/spool/hooks/codex/s1.ndjson")
        );
        assert_eq!(
            p.snapshot_bin("f"),
            PathBuf::from("/h/cache/f/snapshot.bin")
        );
        assert_eq!(
            p.mcp_log("2026-11-29"),
            PathBuf::from("/h/logs/mcp-2026-11-29.jsonl")
        );
        let o = Paths::with_overrides(PathBuf::from("/h"), Some("/s".into()), Some("/c".into()));
        assert_eq!(o.spool_mcp("f"), PathBuf::from("/s/mcp/f.ndjson"));
        assert_eq!(
            o.cache_file("f", "roster.json"),
            PathBuf::from("/c/f/roster.json")
        );
    }
}
