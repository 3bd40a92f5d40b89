//! The fleets this host knows: configured for, mirrored (`cache/<fleet>/`, of a fleet it
//! serves: `services::serving`), or served (`ctxlake mcp`'s call log names each call's
//! fleet), each with its live agents and last activity. `ctxlake fleet list` shows it;
//! open-mode `fleet_status` without a `fleet` includes it, so an agent can discover
//! fleets without a ninth tool.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};

use schemars::JsonSchema;
use serde::Serialize;

use crate::cache::{self, History, Roster};
use crate::tools::Ctx;

/// Call-log files read (newest first), and the tail of each: recent enough to say who
/// was served, bounded so a busy log never slows a status call (7 MiB of log took 0.4 s
/// to parse in a debug build; 7 × 64 KiB scanned for two fields takes a few ms).
const LOG_FILES: usize = 7;
const LOG_TAIL: u64 = 64 << 10;

/// A string field of a call-log line, found without parsing the line: `mcp::log` writes
/// every line with serde (`"ts":"…"`, `"fleet":"…"`), and neither value holds a quote.
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("\"{name}\":\"");
    let at = line.find(&key)? + key.len();
    let rest = line.get(at..)?;
    rest.get(..rest.find('"')?)
}

#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct FleetRow {
    pub fleet: String,
    /// The fleet this host acts in by default (flag, environment or config.toml).
    pub configured: bool,
    /// `ctxlake sync` mirrors it into this host's cache.
    pub mirrored: bool,
    /// This host's MCP server answered calls in it lately (its newest calls, 7 days of logs).
    pub served: bool,
    /// Agents active in it as of the last sync.
    pub agents: usize,
    /// The newest thing seen in it: an agent, a session or a served call.
    pub last_activity: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ListOutput {
    pub fleets: Vec<FleetRow>,
}

/// Every fleet this host knows, the configured one first, then by last activity.
pub fn fleets(ctx: &Ctx) -> Vec<FleetRow> {
    let mut rows: BTreeMap<String, FleetRow> = BTreeMap::new();
    let get = |rows: &mut BTreeMap<String, FleetRow>, f: &str| -> FleetRow {
        rows.remove(f).unwrap_or(FleetRow {
            fleet: f.to_string(),
            configured: false,
            mirrored: false,
            served: false,
            agents: 0,
            last_activity: None,
        })
    };
    for f in [Some(&ctx.scope.fleet), ctx.config.fleet.as_ref()]
        .into_iter()
        .flatten()
    {
        let mut r = get(&mut rows, f);
        r.configured |= *f == ctx.scope.fleet;
        rows.insert(f.clone(), r);
    }
    let served = served(ctx);
    // A cache left by an older build (or a fleet no longer served) is not this host's.
    let mut serves = crate::services::serving::local(ctx);
    serves.extend(served.keys().cloned());
    for f in mirrored(ctx).into_iter().filter(|f| serves.contains(f)) {
        let mut r = get(&mut rows, &f);
        r.mirrored = true;
        cached_activity(ctx, &mut r);
        rows.insert(f, r);
    }
    for (f, ts) in served {
        let mut r = get(&mut rows, &f);
        r.served = true;
        newer(&mut r.last_activity, &ts);
        rows.insert(f, r);
    }
    // A token limited to some fleets never learns the others exist.
    let mut out: Vec<FleetRow> = rows
        .into_values()
        .filter(|r| ctx.fleet(Some(&r.fleet)).is_ok())
        .collect();
    out.sort_by(|a, b| {
        b.configured
            .cmp(&a.configured)
            .then_with(|| b.last_activity.cmp(&a.last_activity))
            .then_with(|| a.fleet.cmp(&b.fleet))
    });
    out
}

pub fn run(ctx: &Ctx) -> ListOutput {
    ListOutput {
        fleets: fleets(ctx),
    }
}

fn newer(slot: &mut Option<String>, ts: &str) {
    if slot.as_deref().is_none_or(|s| s < ts) {
        *slot = Some(ts.to_string());
    }
}

/// Fleets with a cache directory holding a roster (written by `sync`).
fn mirrored(ctx: &Ctx) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(&ctx.paths.cache) else {
        return Vec::new();
    };
    rd.flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|f| crate::scope::validate_id("fleet", f).is_ok())
        .filter(|f| ctx.paths.cache_file(f, cache::ROSTER).is_file())
        .collect()
}

/// Live agents and the newest time the cache knows of, for a mirrored fleet.
fn cached_activity(ctx: &Ctx, r: &mut FleetRow) {
    let now = ctx.now_ms();
    let idle_ms = ctx.config.idle_secs as i64 * 1000;
    let roster: cache::Read<Roster> = cache::read(&ctx.paths, &r.fleet, cache::ROSTER);
    if let Some(roster) = roster.data {
        let lake_now = now + roster.lake_clock_offset_ms;
        for a in &roster.agents {
            if lake_now.saturating_sub(a.last_seen_ms) <= idle_ms {
                r.agents += 1;
            }
            newer(
                &mut r.last_activity,
                &crate::time::format_ms(a.last_seen_ms),
            );
        }
    }
    let hist: cache::Read<History> = cache::read(&ctx.paths, &r.fleet, cache::HISTORY);
    for s in hist.data.map(|h| h.sessions).unwrap_or_default() {
        newer(
            &mut r.last_activity,
            s.ended_at.as_deref().unwrap_or(&s.started_at),
        );
    }
}

/// Fleets named in the newest call logs, with the newest call in each.
pub(crate) fn served(ctx: &Ctx) -> BTreeMap<String, String> {
    let mut logs: Vec<_> = std::fs::read_dir(ctx.paths.logs())
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("mcp-") && n.ends_with(".jsonl"))
        })
        .collect();
    logs.sort();
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    for p in logs.iter().rev().take(LOG_FILES) {
        let Ok(mut f) = std::fs::File::open(p) else {
            continue;
        };
        let len = f.metadata().map_or(0, |m| m.len());
        let _ = f.seek(SeekFrom::Start(len.saturating_sub(LOG_TAIL)));
        let mut bytes = Vec::new();
        if f.take(LOG_TAIL).read_to_end(&mut bytes).is_err() {
            continue;
        }
        // The tail may start mid-line: that line's fields are cut and fail the checks.
        for line in String::from_utf8_lossy(&bytes).lines() {
            let (Some(ts), Some(fleet)) = (field(line, "ts"), field(line, "fleet")) else {
                continue;
            };
            let valid = crate::scope::validate_id("fleet", fleet).is_ok()
                && crate::time::parse_rfc3339(ts).is_some();
            if valid {
                let slot = out.entry(fleet.to_string()).or_default();
                if slot.as_str() < ts {
                    *slot = ts.to_string();
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the fleets the caller may use are named: a token's grant narrows the list.
    #[test]
    fn a_token_limited_to_some_fleets_sees_only_those() {
        let d = tempfile::tempdir().unwrap();
        let paths = crate::paths::Paths::with_overrides(d.path().to_path_buf(), None, None);
        for f in ["a", "b"] {
            let roster = paths.cache_file(f, cache::ROSTER);
            std::fs::create_dir_all(roster.parent().unwrap()).unwrap();
            std::fs::write(
                roster,
                r#"{"generated_at":"2026-01-01T00:00:00.000Z","agents":[]}"#,
            )
            .unwrap();
        }
        // This host's agents used both, so it serves (and lists) them.
        let used = std::collections::BTreeSet::from(["a".to_string(), "b".to_string()]);
        crate::fleet::used::record(&paths, &used).unwrap();
        let mut ctx = Ctx::fallback(paths);
        let names =
            |ctx: &Ctx| -> Vec<String> { fleets(ctx).into_iter().map(|r| r.fleet).collect() };
        assert_eq!(names(&ctx), ["default", "a", "b"]);
        ctx.grant = crate::ctx::Grant {
            token: Some("ci".into()),
            fleets: Some(vec!["a".into()]),
            read_only: true,
        };
        assert_eq!(names(&ctx), ["a"]);
    }
}
