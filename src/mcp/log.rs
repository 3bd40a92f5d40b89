//! The call log: one JSON line per tool call in `logs/mcp-<date>.jsonl`. It records that a
//! call happened and how it went, never what was asked: arguments appear only as a hash.
//! `[mcp] log_days` of files are kept; older ones are pruned when a server starts.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::paths::Paths;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct CallLine {
    pub ts: String,
    pub fleet: String,
    pub tool: String,
    /// First 16 hex digits of SHA-256 over the arguments' JSON: equal calls correlate,
    /// nothing of their content can be read back.
    pub args_hash: String,
    pub latency_ms: u64,
    pub ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The tool's error code when `ok` is false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

pub fn args_hash(args: &Value) -> String {
    let digest = Sha256::digest(args.to_string().as_bytes());
    crate::digest::hex(&digest[..8])
}

/// Append one line; a failure is reported on stderr and never ends the session.
pub fn append(paths: &Paths, line: &CallLine) {
    let date = &line.ts[..10.min(line.ts.len())];
    let path = paths.mcp_log(date);
    if let Err(e) = write_line(&path, line) {
        crate::output::stderr(&format!(
            "ctxlake mcp: cannot write the call log `{}`: {e}\n",
            path.display()
        ));
    }
}

fn write_line(path: &Path, line: &CallLine) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut text = serde_json::to_string(line).map_err(std::io::Error::other)?;
    text.push('\n');
    // O_APPEND and one write per line: concurrent servers never interleave within a line.
    let mut f = OpenOptions::new().create(true).append(true).open(path)?;
    f.write_all(text.as_bytes())
}

/// Delete call logs older than `keep_days` days (today counts as one); other files in
/// `logs/` are never touched. Returns how many went. Best effort: a failure is skipped.
pub fn prune(paths: &Paths, keep_days: u64, now_ms: i64) -> usize {
    let span = keep_days.saturating_sub(1).min(1 << 20) as i64 * 86_400_000;
    let oldest_kept = crate::time::date_of(now_ms.saturating_sub(span));
    log_files(paths)
        .into_iter()
        .filter(|(_, date)| date.as_str() < oldest_kept.as_str())
        .filter(|(p, _)| std::fs::remove_file(p).is_ok())
        .count()
}

/// `logs/mcp-<date>.jsonl` files with their dates, oldest first.
fn log_files(paths: &Paths) -> Vec<(std::path::PathBuf, String)> {
    let Ok(dir) = std::fs::read_dir(paths.logs()) else {
        return Vec::new();
    };
    let mut files: Vec<_> = dir
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let date = name
                .strip_prefix("mcp-")?
                .strip_suffix(".jsonl")?
                .to_string();
            Some((e.path(), date))
        })
        .collect();
    files.sort();
    files
}

/// The last `n` calls from the newest log files (today's, then earlier ones).
pub fn recent(paths: &Paths, n: usize) -> Vec<CallLine> {
    let mut out: Vec<CallLine> = Vec::new();
    for (f, _) in log_files(paths).iter().rev() {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let mut lines: Vec<CallLine> = text
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        lines.append(&mut out);
        out = lines;
        if out.len() >= n {
            break;
        }
    }
    let skip = out.len().saturating_sub(n);
    out.split_off(skip)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hash_is_stable_and_opaque() {
        let a = json!({"claim": "sk-secret", "k": 1});
        assert_eq!(args_hash(&a), args_hash(&a.clone()));
        assert_eq!(args_hash(&a).len(), 16);
        assert_ne!(args_hash(&a), args_hash(&json!({"k": 1})));
    }

    #[test]
    fn prune_keeps_the_last_days_and_nothing_else_goes() {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::with_overrides(dir.path().to_path_buf(), None, None);
        std::fs::create_dir_all(paths.logs()).unwrap();
        for name in [
            "mcp-2026-10-30.jsonl",
            "mcp-2026-10-31.jsonl",
            "mcp-2026-11-29.jsonl",
            "other.jsonl",
        ] {
            std::fs::write(paths.logs().join(name), "{}\n").unwrap();
        }
        let now = crate::time::parse_rfc3339("2026-11-29T12:00:00Z").unwrap();
        assert_eq!(prune(&paths, 30, now), 1);
        let mut left: Vec<String> = std::fs::read_dir(paths.logs())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                "mcp-2026-10-31.jsonl",
                "mcp-2026-11-29.jsonl",
                "other.jsonl"
            ]
        );
        assert_eq!(prune(&paths, u64::MAX, now), 0);
        assert_eq!(prune(&paths, 1, now), 1);
    }

    #[test]
    fn lines_append_and_read_back_newest_last() {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::with_overrides(dir.path().to_path_buf(), None, None);
        for (i, ts) in ["2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z"]
            .iter()
            .enumerate()
        {
            append(
                &paths,
                &CallLine {
                    ts: ts.to_string(),
                    fleet: "f".into(),
                    tool: format!("t{i}"),
                    args_hash: "00".into(),
                    latency_ms: 1,
                    ok: true,
                    session: None,
                    code: None,
                },
            );
        }
        let r = recent(&paths, 5);
        assert_eq!(
            r.iter().map(|l| l.tool.as_str()).collect::<Vec<_>>(),
            ["t0", "t1"]
        );
        assert_eq!(recent(&paths, 1)[0].tool, "t1");
    }
}
