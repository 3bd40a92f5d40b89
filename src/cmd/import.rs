//! `ctxlake import`: replay the transcripts runtimes keep on disk into the fleet's history.

use clap::Args;

use super::{GlobalArgs, context, printed};
use crate::error::{Error, Result};
use crate::history::import::Source;
use crate::output::table;
use crate::services::import::{self, Report, Request};

/// Replay the session transcripts already on disk into the fleet's history
///
/// Reads each runtime's own transcripts (Claude Code `~/.claude/projects`, Codex
/// `~/.codex/sessions`, Gemini CLI `~/.gemini/tmp/*/chats`, opencode `opencode.db`,
/// Hermes `state.db`, the last two opened read-only) and replays every session as the
/// hook events it would have produced: start and end with cwd, repo and branch, prompts,
/// tool uses with the paths they touched, and outcomes. Each event passes the same write
/// boundary as a live hook (secrets redacted). Prompt text is kept only with
/// `[import] prompts = true`; by default only metadata, paths, commands and outcomes are.
/// Importing again writes nothing new, and a session a live hook captured is left to
/// it. `--dry-run` shows what would be shared first. `ctxlake sync` then shares it;
/// `fleet history` marks the sessions `imported`.
///
/// Example:
///   ctxlake import --dry-run
///   ctxlake import claude-code codex --since 30d && ctxlake sync
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ImportArgs {
    /// Runtimes to read (default: every one with transcripts on this machine).
    #[arg(value_name = "RUNTIME", value_parser = ["claude-code", "codex", "gemini", "opencode", "hermes"])]
    pub runtimes: Vec<String>,
    /// Only sessions active since: a date, an RFC 3339 time, or an age (`30d`).
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Show what would be shared; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub fn run(args: ImportArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let env = crate::install::env::Env::from_process()?;
    let report = import_with(
        &ctx,
        &env,
        g,
        &args.runtimes,
        args.since.as_deref(),
        args.dry_run,
    )?;
    printed(g.output().emit(&report, render))?;
    if !g.json && !report.dry_run && report.sessions > 0 {
        g.output()
            .note("nothing is shared until `ctxlake sync` drains it into the lake");
    }
    Ok(())
}

/// The import with a progress bar on a terminal (also `init`'s last step).
pub fn import_with(
    ctx: &crate::tools::Ctx,
    env: &crate::install::env::Env,
    g: &GlobalArgs,
    runtimes: &[String],
    since: Option<&str>,
    dry_run: bool,
) -> Result<Report> {
    let runtimes = runtimes
        .iter()
        .map(|r| {
            Source::parse(r).ok_or_else(|| {
                Error::usage("unknown_runtime", format!("cannot import `{r}`"))
                    .hint("name claude-code, codex, gemini, opencode or hermes")
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let since_ms = since
        .map(|s| crate::time::parse_since(s, ctx.now_ms()))
        .transpose()?;
    let req = Request {
        runtimes,
        since_ms,
        dry_run,
    };
    let bar = super::progress::Bar::items(g, "importing transcripts");
    let report = import::run(ctx, env, &req, &mut |done, total| bar.set(done, total));
    bar.finish();
    report
}

fn render(r: &Report) -> String {
    let mut s = String::new();
    if r.runtimes.is_empty() {
        s.push_str("no transcripts found (Claude Code, Codex, Gemini CLI, opencode, Hermes)\n");
    }
    for rt in &r.runtimes {
        s.push_str(&format!(
            "{}: {} file(s) in {}: {} session(s), {} event(s), {} skipped\n",
            rt.runtime, rt.files, rt.root, rt.sessions, rt.events, rt.skipped
        ));
        for e in &rt.errors {
            s.push_str(&format!("  could not read {e}\n"));
        }
    }
    if !r.preview.is_empty() {
        let mut t = table(&[
            "runtime", "session", "repo", "started", "events", "paths", "commands",
        ]);
        for p in &r.preview {
            t.add_row(vec![
                p.runtime.to_string(),
                p.session.clone(),
                p.repo.clone().unwrap_or_default(),
                p.started_at.clone(),
                p.events.to_string(),
                p.paths.join("\n"),
                p.commands.join("\n"),
            ]);
        }
        s.push_str(&format!("would share (after redaction):\n{t}\n"));
        s.push_str(if r.prompts_kept {
            "prompt text is kept (`[import] prompts = true`)\n"
        } else {
            "prompt text is not kept (set `[import] prompts = true` to keep it)\n"
        });
    }
    let verb = if r.dry_run {
        "would import"
    } else {
        "imported"
    };
    s.push_str(&format!(
        "{verb} {} sessions, {} events, {} skipped",
        r.sessions, r.events, r.skipped
    ));
    if r.unchanged + r.captured_live > 0 {
        s.push_str(&format!(
            " ({} already imported, {} captured live by hooks)",
            r.unchanged, r.captured_live
        ));
    }
    s.push('\n');
    s
}
