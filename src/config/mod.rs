//! `config.toml`: read with defaults for everything, written with `toml_edit` so a
//! user's comments and layout survive every change ctxlake makes.

use std::path::Path;

use toml_edit::{Item, Table};

use crate::error::{Error, Result};

pub const DEFAULT_FLEET: &str = "default";
pub const DEFAULT_SPOOL_MAX_BYTES: u64 = 64 * 1024 * 1024;
pub const DEFAULT_SPOOL_ROTATE_BYTES: u64 = 8 * 1024 * 1024;
pub const DEFAULT_IDLE_SECS: u64 = 2 * 3600;
pub const DEFAULT_SYNC_INTERVAL_SECS: u64 = 15;
/// `[mcp] log_days`: days of `logs/mcp-<date>.jsonl` kept; older files go at server start.
pub const DEFAULT_MCP_LOG_DAYS: u64 = 30;
/// `[mcp] call_timeout_secs`: how long `ctxlake mcp --http` waits for one tool call before
/// it answers the client with a timeout error (the call itself may still finish).
pub const DEFAULT_MCP_CALL_TIMEOUT_SECS: u64 = 30;
/// How long a CLI/MCP write (and `sync`, per spool file) waits for a spool lock.
pub const DEFAULT_LOCK_WAIT_MS: u64 = 2000;

/// `[memory] mode`: whether promoted claims are visible to agents.
/// Every key `Config::load` reads, dotted (`memory.mode`). `doctor` names any other key
/// in the file as unknown; a test holds this list to the loader's own labels.
pub const KEYS: &[&str] = &[
    "fleet",
    "agent",
    "store",
    "memory.mode",
    "memory.embedder",
    "memory.model_dir",
    "memory.stale_after_days",
    "memory.model_url",
    "import.prompts",
    "limits.spool_max_bytes",
    "limits.spool_rotate_bytes",
    "limits.idle_secs",
    "limits.lock_wait_ms",
    "hooks.block_on_conflict",
    "sync.interval_secs",
    "s3.endpoint",
    "s3.region",
    "mcp.log_days",
    "mcp.call_timeout_secs",
];

/// The non-secret `[s3]` settings: where an `s3://` store is (the AWS environment
/// overrides both).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct S3Options {
    pub endpoint: Option<String>,
    pub region: Option<String>,
}

mod doc;
mod memory;

pub use doc::{parse_doc, set_string, template};
pub use memory::{EmbedderKind, MemoryMode, StaleAfter};

#[derive(Debug, Clone)]
pub struct Config {
    pub fleet: Option<String>,
    pub agent: Option<String>,
    pub store: Option<String>,
    /// `[s3] endpoint` / `[s3] region`: non-secret settings for an `s3://` store.
    pub s3: S3Options,
    pub memory_mode: MemoryMode,
    pub spool_max_bytes: u64,
    pub spool_rotate_bytes: u64,
    pub idle_secs: u64,
    pub sync_interval_secs: u64,
    pub block_on_conflict: bool,
    pub mcp_log_days: u64,
    /// `[mcp] call_timeout_secs`: the HTTP server's deadline for one tool call.
    pub mcp_call_timeout_secs: u64,
    /// `[limits] lock_wait_ms`: the longest a write waits for a spool lock held by another
    /// process before it fails naming the holder.
    pub lock_wait_ms: u64,
    /// `[memory] embedder` (env `CTXLAKE_EMBEDDER` overrides).
    pub embedder: EmbedderKind,
    /// `[memory] model_dir` (env `CTXLAKE_MODEL_DIR` overrides); `None`: the default
    /// place `ctxlake memory model install` unpacks to.
    pub model_dir: Option<std::path::PathBuf>,
    /// `[memory] stale_after_days`.
    pub stale_after: StaleAfter,
    /// `[memory] model_url` (env `CTXLAKE_MODEL_URL` overrides): a mirror holding the
    /// model's three files; `None`: the pinned revision on huggingface.co.
    pub model_url: Option<String>,
    /// `[import] prompts`: keep prompt text when importing transcripts (default: only
    /// metadata, paths, commands and outcomes).
    pub import_prompts: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            fleet: None,
            agent: None,
            store: None,
            s3: Default::default(),
            memory_mode: MemoryMode::On,
            spool_max_bytes: DEFAULT_SPOOL_MAX_BYTES,
            spool_rotate_bytes: DEFAULT_SPOOL_ROTATE_BYTES,
            idle_secs: DEFAULT_IDLE_SECS,
            sync_interval_secs: DEFAULT_SYNC_INTERVAL_SECS,
            block_on_conflict: false,
            mcp_log_days: DEFAULT_MCP_LOG_DAYS,
            mcp_call_timeout_secs: DEFAULT_MCP_CALL_TIMEOUT_SECS,
            lock_wait_ms: DEFAULT_LOCK_WAIT_MS,
            embedder: EmbedderKind::Auto,
            model_dir: None,
            stale_after: StaleAfter::default(),
            model_url: None,
            import_prompts: false,
        }
    }
}

impl Config {
    /// The store's URL: `CTXLAKE_STORE`, else `store` in config.toml, else the local lake.
    pub fn store_url(&self, paths: &crate::paths::Paths) -> String {
        crate::paths::var(crate::paths::env::STORE)
            .or_else(|| self.store.clone())
            .unwrap_or_else(|| format!("file://{}", paths.default_lake().display()))
    }

    /// Load `path`; a missing file means all defaults. A malformed file is an error naming
    /// the line and column, never silently ignored.
    pub fn load(path: &Path) -> Result<Config> {
        let mut c = Self::load_file(path)?;
        if let Some(v) = crate::paths::var(crate::paths::env::EMBEDDER) {
            c.embedder = EmbedderKind::parse(&v).ok_or_else(|| {
                Error::usage(
                    "invalid_config",
                    format!(
                        "`CTXLAKE_EMBEDDER` must be \"auto\", \"hash\" or \"minilm\", not `{v}`"
                    ),
                )
            })?;
        }
        if let Some(v) = crate::paths::var(crate::paths::env::MODEL_DIR) {
            c.model_dir = Some(v.into());
        }
        if let Some(v) = crate::paths::var(crate::paths::env::MODEL_URL) {
            c.model_url = Some(v);
        }
        Ok(c)
    }

    /// `path` alone, without the environment's overrides. The hook uses this: it never
    /// embeds, so a bad `CTXLAKE_EMBEDDER` must not cost it the fleet's config.
    pub fn load_file(path: &Path) -> Result<Config> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::parse(&text, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
            Err(e) => Err(Error::io("cannot read config", path, e)),
        }
    }

    /// [`Config::lock_wait_ms`] as a duration.
    pub fn lock_wait(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.lock_wait_ms)
    }

    pub fn parse(text: &str, path: &Path) -> Result<Config> {
        let doc = parse_doc(text, path)?;
        let bad = |key: &str, want: &str| {
            Error::usage(
                "invalid_config",
                format!("`{key}` in `{}` must be {want}", path.display()),
            )
            .hint(format!(
                "edit `{}` or run `ctxlake init` again",
                path.display()
            ))
        };
        let string = |t: &Table, key: &str, name: &str| -> Result<Option<String>> {
            match t.get(key) {
                None => Ok(None),
                Some(i) => i
                    .as_str()
                    .map(|s| Some(s.to_string()))
                    .ok_or_else(|| bad(name, "a string")),
            }
        };
        let int = |t: Option<&Table>, key: &str, name: &str, default: u64| -> Result<u64> {
            match t.and_then(|t| t.get(key)) {
                None => Ok(default),
                Some(i) => i
                    .as_integer()
                    .filter(|n| *n > 0)
                    .map(|n| n as u64)
                    .ok_or_else(|| bad(name, "a positive integer")),
            }
        };
        let root = doc.as_table();
        let memory = root.get("memory").and_then(Item::as_table);
        let limits = root.get("limits").and_then(Item::as_table);
        let hooks = root.get("hooks").and_then(Item::as_table);
        let sync = root.get("sync").and_then(Item::as_table);
        let s3 = root.get("s3").and_then(Item::as_table);
        let mcp = root.get("mcp").and_then(Item::as_table);
        let import = root.get("import").and_then(Item::as_table);
        let memory_mode = match memory.and_then(|m| m.get("mode")) {
            None => MemoryMode::On,
            Some(i) => i
                .as_str()
                .and_then(MemoryMode::parse)
                .ok_or_else(|| bad("memory.mode", "one of \"on\", \"shadow\", \"off\""))?,
        };
        let embedder = match memory.and_then(|m| m.get("embedder")) {
            None => EmbedderKind::Auto,
            Some(i) => i
                .as_str()
                .and_then(EmbedderKind::parse)
                .ok_or_else(|| bad("memory.embedder", "one of \"auto\", \"hash\", \"minilm\""))?,
        };
        let import_prompts = match import.and_then(|t| t.get("prompts")) {
            None => false,
            Some(i) => i
                .as_bool()
                .ok_or_else(|| bad("import.prompts", "true or false"))?,
        };
        let stale_after = StaleAfter::parse(memory.and_then(|m| m.get("stale_after_days")))
            .map_err(|want| bad("memory.stale_after_days", &want.to_string()))?;
        let block_on_conflict = match hooks.and_then(|h| h.get("block_on_conflict")) {
            None => false,
            Some(i) => i
                .as_bool()
                .ok_or_else(|| bad("hooks.block_on_conflict", "true or false"))?,
        };
        Ok(Config {
            fleet: string(root, "fleet", "fleet")?,
            agent: string(root, "agent", "agent")?,
            store: string(root, "store", "store")?,
            s3: match s3 {
                None => Default::default(),
                Some(t) => S3Options {
                    endpoint: string(t, "endpoint", "s3.endpoint")?,
                    region: string(t, "region", "s3.region")?,
                },
            },
            memory_mode,
            spool_max_bytes: int(
                limits,
                "spool_max_bytes",
                "limits.spool_max_bytes",
                DEFAULT_SPOOL_MAX_BYTES,
            )?,
            spool_rotate_bytes: int(
                limits,
                "spool_rotate_bytes",
                "limits.spool_rotate_bytes",
                DEFAULT_SPOOL_ROTATE_BYTES,
            )?,
            idle_secs: int(limits, "idle_secs", "limits.idle_secs", DEFAULT_IDLE_SECS)?,
            sync_interval_secs: int(
                sync,
                "interval_secs",
                "sync.interval_secs",
                DEFAULT_SYNC_INTERVAL_SECS,
            )?,
            block_on_conflict,
            mcp_log_days: int(mcp, "log_days", "mcp.log_days", DEFAULT_MCP_LOG_DAYS)?,
            mcp_call_timeout_secs: int(
                mcp,
                "call_timeout_secs",
                "mcp.call_timeout_secs",
                DEFAULT_MCP_CALL_TIMEOUT_SECS,
            )?,
            lock_wait_ms: int(
                limits,
                "lock_wait_ms",
                "limits.lock_wait_ms",
                DEFAULT_LOCK_WAIT_MS,
            )?,
            embedder,
            model_dir: match memory {
                None => None,
                Some(t) => string(t, "model_dir", "memory.model_dir")?.map(Into::into),
            },
            stale_after,
            model_url: match memory {
                None => None,
                Some(t) => string(t, "model_url", "memory.model_url")?,
            },
            import_prompts,
        })
    }
}

#[cfg(test)]
mod tests;
