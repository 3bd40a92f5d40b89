//! `ctxlake import`: find each runtime's transcripts on this machine, read them
//! (`history::import`), and replay each session as the hook events it would have
//! produced into the spool, through the hook's own write boundary. Idempotent: the ledger
//! skips what was replayed, record ids come from the runtime's own ids, and a session a
//! live hook already captured is left to the hook. `sync` then shares it like any other.

mod ledger;
mod replay;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::history::import::{Session, Source};
use crate::install::env::Env;
use crate::install::runtimes::Runtime;
use ledger::Ledger;

/// How many sessions a dry run lists in full (the counts cover all of them).
const PREVIEW: usize = 50;

/// What to import.
#[derive(Debug, Clone)]
pub struct Request {
    /// Runtimes to read (empty: every one found).
    pub runtimes: Vec<Source>,
    /// Only sessions with an event at or after this time (ms).
    pub since_ms: Option<i64>,
    /// Read and report, write nothing.
    pub dry_run: bool,
}

/// What an import did (or, dry, would do).
#[derive(Debug, Default, Serialize)]
pub struct Report {
    pub dry_run: bool,
    /// Sessions replayed (or that would be).
    pub sessions: usize,
    /// Events replayed, session start and end included.
    pub events: usize,
    /// Transcript lines, rows or records not understood, skipped.
    pub skipped: usize,
    /// Sessions replayed before and unchanged since.
    pub unchanged: usize,
    /// Sessions a live hook already captured on this host: left to the hook.
    pub captured_live: usize,
    /// Whether prompt text is kept (`[import] prompts = true`).
    pub prompts_kept: bool,
    pub runtimes: Vec<PerRuntime>,
    /// Dry run: the sessions that would be shared, as they would be shared (scrubbed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub preview: Vec<Preview>,
}

/// One runtime's part of the import.
#[derive(Debug, Default, Serialize)]
pub struct PerRuntime {
    pub runtime: &'static str,
    /// Its transcripts' directory.
    pub root: String,
    /// Transcript files or databases found.
    pub files: usize,
    pub sessions: usize,
    pub events: usize,
    pub skipped: usize,
    /// Transcripts that could not be read at all.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
}

/// A session as a dry run shows it.
#[derive(Debug, Serialize)]
pub struct Preview {
    pub runtime: &'static str,
    pub session: String,
    pub repo: Option<String>,
    pub branch: Option<String>,
    pub started_at: String,
    pub events: usize,
    pub prompts: usize,
    pub paths: Vec<String>,
    pub commands: Vec<String>,
}

/// Each runtime's transcript location on this machine (whether or not it exists).
pub fn roots(env: &Env) -> Vec<(Source, PathBuf)> {
    Source::ALL
        .into_iter()
        .map(|s| {
            let root = match s {
                Source::ClaudeCode => Runtime::ClaudeCode.config_dir(env),
                Source::Codex => Runtime::Codex.config_dir(env),
                Source::Gemini => Runtime::Gemini.config_dir(env),
                Source::Opencode => env.xdg_data().join("opencode"),
                Source::Hermes => Runtime::Hermes.config_dir(env),
            };
            (s, root)
        })
        .collect()
}

/// The runtimes with transcripts here, with how many files each.
pub fn found(env: &Env) -> Vec<(Source, PathBuf, usize)> {
    roots(env)
        .into_iter()
        .map(|(s, root)| {
            let n = s.units(&root).len();
            (s, root, n)
        })
        .filter(|(_, _, n)| *n > 0)
        .collect()
}

/// Import `req`, calling `progress(done, total)` as transcript files are read.
pub fn run(
    ctx: &Ctx,
    env: &Env,
    req: &Request,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report> {
    let keep = replay::Keep {
        prompts: ctx.config.import_prompts,
    };
    let mut report = Report {
        dry_run: req.dry_run,
        prompts_kept: keep.prompts,
        ..Report::default()
    };
    let plan: Vec<(Source, PathBuf, Vec<PathBuf>)> = roots(env)
        .into_iter()
        .filter(|(s, _)| req.runtimes.is_empty() || req.runtimes.contains(s))
        .map(|(s, root)| {
            let units = s.units(&root);
            (s, root, units)
        })
        .collect();
    let total: u64 = plan.iter().map(|(_, _, u)| u.len() as u64).sum();
    let mut done = 0u64;
    progress(0, total);
    for (source, root, units) in plan {
        let mut per = PerRuntime {
            runtime: source.as_str(),
            root: root.display().to_string(),
            files: units.len(),
            ..PerRuntime::default()
        };
        let mut ledger = Ledger::load(&ctx.paths, source.as_str());
        let mut failed = None;
        for unit in &units {
            let r = import_unit(
                ctx,
                req,
                keep,
                source,
                unit,
                &mut ledger,
                &mut per,
                &mut report,
            );
            if let Err(e) = r {
                failed = Some(e);
                break;
            }
            done += 1;
            progress(done, total);
        }
        // Saved even when a write failed (a full spool): what did land is not replayed.
        if !req.dry_run {
            ledger.save(&ctx.paths, source.as_str())?;
        }
        if let Some(e) = failed {
            return Err(e);
        }
        report.skipped += per.skipped;
        if !req.runtimes.is_empty() || per.files > 0 {
            report.runtimes.push(per);
        }
    }
    Ok(report)
}

/// One transcript file or database: every session in it.
#[allow(clippy::too_many_arguments)]
fn import_unit(
    ctx: &Ctx,
    req: &Request,
    keep: replay::Keep,
    source: Source,
    unit: &Path,
    ledger: &mut Ledger,
    per: &mut PerRuntime,
    report: &mut Report,
) -> Result<()> {
    let key = unit.display().to_string();
    let stamp = ledger::stamp(unit);
    if ledger.files.get(&key) == Some(&stamp) {
        return Ok(());
    }
    let mut failure = None;
    let read = source.read(unit, &mut |s: Session| {
        if failure.is_none()
            && let Err(e) = session(ctx, req, keep, source, &s, ledger, per, report)
        {
            failure = Some(e);
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    match read {
        Ok(skipped) => {
            per.skipped += skipped;
            ledger.files.insert(key, stamp);
        }
        Err(why) => per
            .errors
            .push(format!("{}: {}", unit.display(), why.one_line())),
    }
    Ok(())
}

/// One session: skipped when too old, captured live, or unchanged; else its new events
/// are replayed into one sealed spool file.
#[allow(clippy::too_many_arguments)]
fn session(
    ctx: &Ctx,
    req: &Request,
    keep: replay::Keep,
    source: Source,
    s: &Session,
    ledger: &mut Ledger,
    per: &mut PerRuntime,
    report: &mut Report,
) -> Result<()> {
    if req
        .since_ms
        .is_some_and(|since| s.last_ms().is_none_or(|t| t < since))
    {
        return Ok(());
    }
    let runtime = source.as_str();
    // The id the hook would have named this session by (`scope::session_id`), so they meet.
    let id = crate::scope::session_id(&s.id);
    let from = ledger.sessions.get(&id).copied().unwrap_or(0);
    if from >= s.events.len() {
        report.unchanged += 1;
        return Ok(());
    }
    if from == 0 && captured_live(ctx, runtime, &id) {
        report.captured_live += 1;
        return Ok(());
    }
    let recs = replay::records(ctx, runtime, &id, s, from, keep);
    per.sessions += 1;
    per.events += recs.len();
    report.sessions += 1;
    report.events += recs.len();
    if req.dry_run {
        if report.preview.len() < PREVIEW {
            report.preview.push(preview(runtime, &id, &recs));
        }
        return Ok(());
    }
    let dir = ctx.paths.spool_hooks_dir().join(runtime);
    let limits = crate::spool::Limits::of(&ctx.config);
    crate::spool::write_sealed(&dir, &format!("imported-{id}"), &recs, limits)?;
    ledger.sessions.insert(id, s.events.len());
    Ok(())
}

/// Did a live hook on this host capture `session`? Its spool file (`<session>.ndjson`,
/// sealed `<session>.<ulid>.ndjson`) is waiting, or the mirror holds records of it that
/// were not imported. Hook session ids are the runtimes' own (Claude Code, Codex, Gemini
/// and Hermes pass the transcript's session id to their hooks), so the ids meet.
fn captured_live(ctx: &Ctx, runtime: &str, session: &str) -> bool {
    let prefix = format!("{session}.");
    let spooled = std::fs::read_dir(ctx.paths.spool_hooks_dir().join(runtime))
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().starts_with(&prefix));
    spooled || mirrored_live(&ctx.paths.mirror_dir(), runtime, session)
}

/// `state/mirror/<fleet>/<agent>/<session>.ndjson` holding a live hook's record.
fn mirrored_live(mirror: &Path, runtime: &str, session: &str) -> bool {
    let name = format!("{session}.ndjson");
    let fleets = std::fs::read_dir(mirror).into_iter().flatten().flatten();
    let agents = fleets.flat_map(|f| std::fs::read_dir(f.path()).into_iter().flatten().flatten());
    agents
        .map(|a| a.path().join(&name))
        .filter(|p| p.is_file())
        .any(|p| {
            crate::spool::read_file(&p, 0).is_ok_and(|scan| {
                scan.records
                    .iter()
                    .any(|r| r.payload["runtime"] == runtime && r.payload["imported"] != true)
            })
        })
}

/// What a session's records would share, read back from the records themselves (after
/// the write boundary).
fn preview(runtime: &'static str, session: &str, recs: &[crate::spool::Record]) -> Preview {
    let mut p = Preview {
        runtime,
        session: session.to_string(),
        repo: None,
        branch: None,
        started_at: recs.first().map(|r| r.ts.clone()).unwrap_or_default(),
        events: recs.len(),
        prompts: 0,
        paths: Vec::new(),
        commands: Vec::new(),
    };
    for r in recs {
        let v = &r.payload;
        p.repo = p
            .repo
            .take()
            .or_else(|| v["repo"].as_str().map(str::to_string));
        p.branch = p
            .branch
            .take()
            .or_else(|| v["branch"].as_str().map(str::to_string));
        if r.kind == crate::spool::RecordKind::HookPrompt {
            p.prompts += 1;
        }
        for path in v["paths"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|x| x.as_str())
        {
            crate::history::import::push_unique(&mut p.paths, path);
        }
        if let Some(c) = v["command"].as_str() {
            crate::history::import::push_unique(&mut p.commands, c);
        }
    }
    p
}
