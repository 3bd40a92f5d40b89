//! all-MiniLM-L6-v2 from a model directory (`config.json`, `tokenizer.json`,
//! `model.safetensors`): files verified by size and sha256 before first use, then the
//! WordPiece tokenizer and the BERT forward pass. A loaded model is kept for the
//! process (`ctxlake mcp` pays the load once, on its first search), and so is a failure.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use candle_core::Tensor;
use candle_core::safetensors::SliceSafetensors;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

use super::bert::{Bert, BertConfig, device};
use super::mapped::Mapped;
use super::verify::{self, Stamp, unusable};
use super::words::WordTable;
use crate::error::{Error, Result};

pub(crate) const ID: &str = "minilm-l6-v2";
pub(crate) const DIM: usize = 384;
/// sentence-transformers' `max_seq_length` for this model.
const MAX_TOKENS: usize = 256;
/// Texts per forward pass: bounds the padded batch (memory) while amortising overhead.
const BATCH: usize = 32;

pub(crate) struct MiniLm {
    tokenizer: Tokenizer,
    bert: Bert,
}

impl MiniLm {
    /// Verify `dir` (see [`verify::check`]) and load it; `marker` remembers a verified state.
    /// An error is shown as a note (`select`), never as a search error.
    pub fn load(dir: &Path, marker: &Path) -> Result<MiniLm> {
        let stamps = verify::check(dir, marker)?;
        let config: BertConfig = serde_json::from_slice(&read(dir, "config.json")?)
            .map_err(|e| unusable(format!("`config.json` is not a BERT config: {e}")))?;
        if config.hidden_size != DIM || config.hidden_act != "gelu" {
            return Err(unusable(format!(
                "`config.json` describes a {}-wide `{}` model, not all-MiniLM-L6-v2",
                config.hidden_size, config.hidden_act
            )));
        }
        let tokenizer = tokenizer(dir)?;
        // Mapped, not read: the weights are copied once from the page cache, and the
        // word table is not copied at all (see `mapped.rs`, `words.rs`).
        let size = stamps
            .iter()
            .find(|(name, ..)| name == WEIGHTS)
            .map_or(0, |(_, size, _)| *size);
        let map = Arc::new(Mapped::open(&dir.join(WEIGHTS), size)?);
        let unfit = |e: String| unusable(format!("`{WEIGHTS}` does not fit all-MiniLM-L6-v2: {e}"));
        let words =
            WordTable::new(map.clone(), config.vocab_size, DIM).map_err(|e| unfit(e.one_line()))?;
        let (dev, dtype) = device();
        let vb = candle_nn::VarBuilder::from_slice_safetensors(map.bytes(), dtype, &dev)
            .map_err(|e| unusable(format!("`{WEIGHTS}` cannot be read: {e}")))?;
        let file = SliceSafetensors::new(map.bytes()).map_err(|e| unfit(e.to_string()))?;
        let bert = Bert::load(vb, &file, words, &config).map_err(|e| unfit(e.to_string()))?;
        Ok(MiniLm { tokenizer, bert })
    }

    /// Unit vectors, one per text, in order.
    pub fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let mut out = Vec::with_capacity(texts.len());
        for chunk in texts.chunks(BATCH) {
            out.extend(self.forward(chunk)?);
        }
        Ok(out)
    }

    fn forward(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let enc = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| inference(format!("tokenizer: {e}")))?;
        let seq = enc.iter().map(|e| e.len()).max().unwrap_or(0).max(1);
        let mut ids = Vec::with_capacity(texts.len() * seq);
        let mut mask = Vec::with_capacity(texts.len() * seq);
        for e in &enc {
            ids.extend(
                e.get_ids()
                    .iter()
                    .copied()
                    .chain(std::iter::repeat(0))
                    .take(seq),
            );
            mask.extend(
                e.get_attention_mask()
                    .iter()
                    .copied()
                    .chain(std::iter::repeat(0))
                    .take(seq),
            );
        }
        let (dev, _) = device();
        let run = || -> candle_core::Result<Vec<Vec<f32>>> {
            let mask = Tensor::from_vec(mask, (texts.len(), seq), &dev)?;
            self.bert.embed(&ids, &mask)
        };
        match one_thread().filter(|_| texts.len() <= ONE_THREAD_MAX) {
            Some(pool) => pool.install(run),
            None => run(),
        }
        .map_err(|e| inference(format!("inference failed: {e}")))
    }
}

/// The model loaded but could not embed these texts.
fn inference(why: String) -> Error {
    Error::internal("embed", why)
}

/// Batches up to this many texts (a query) run on one thread.
const ONE_THREAD_MAX: usize = 2;

/// A one-thread pool for short batches. On this 2-core machine shared with builds, the
/// second matmul thread waiting for a busy core doubled a query's forward pass (warm
/// p50 22 ms on one thread against 46 ms on two, at load average 3.6), and a query's
/// ten-row matrices gain little from splitting even on an idle machine. `None` when the
/// pool cannot be started (then the default pool runs it).
fn one_thread() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| rayon::ThreadPoolBuilder::new().num_threads(1).build().ok())
        .as_ref()
}

const WEIGHTS: &str = "model.safetensors";

fn read(dir: &Path, name: &str) -> Result<Vec<u8>> {
    let p = dir.join(name);
    std::fs::read(&p).map_err(|e| Error::io("cannot read", &p, e))
}

/// The WordPiece tokenizer from `tokenizer.json`, padding a batch to its longest text and
/// truncating at sentence-transformers' limit.
fn tokenizer(dir: &Path) -> Result<Tokenizer> {
    let mut tokenizer = Tokenizer::from_bytes(read(dir, "tokenizer.json")?)
        .map_err(|e| unusable(format!("`tokenizer.json` cannot be read: {e}")))?;
    tokenizer.with_padding(Some(PaddingParams {
        strategy: PaddingStrategy::BatchLongest,
        ..Default::default()
    }));
    tokenizer
        .with_truncation(Some(TruncationParams {
            max_length: MAX_TOKENS,
            ..Default::default()
        }))
        .map_err(|e| unusable(format!("tokenizer truncation: {e}")))?;
    Ok(tokenizer)
}

/// The process's last load of each directory: the model, kept; or why it failed (in one
/// line, said again to each later caller), with the directory's stamps then. A missing or corrupt model so costs a few `stat`s per
/// search, not a sha256 of 90 MB, and a model installed or repaired while `ctxlake mcp`
/// runs (new stamps) is loaded by the next search.
enum Slot {
    Loaded(Arc<MiniLm>),
    Failed(Option<Vec<Stamp>>, String),
}

static LOADED: Mutex<Vec<(PathBuf, Slot)>> = Mutex::new(Vec::new());

/// The model in `dir`, loading it on first use (see [`Slot`]).
pub(crate) fn shared(dir: &Path, marker: &Path) -> Result<Arc<MiniLm>> {
    let mut slots = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    let stamps = verify::stamp(dir).ok();
    match slots.iter().find(|(d, _)| d == dir).map(|(_, s)| s) {
        Some(Slot::Loaded(m)) => return Ok(m.clone()),
        Some(Slot::Failed(then, why)) if *then == stamps => return Err(unusable(why.clone())),
        _ => {}
    }
    let (slot, result) = match MiniLm::load(dir, marker) {
        Ok(m) => {
            let m = Arc::new(m);
            (Slot::Loaded(m.clone()), Ok(m))
        }
        Err(why) => (Slot::Failed(stamps, why.one_line()), Err(why)),
    };
    slots.retain(|(d, _)| d != dir);
    slots.push((dir.to_path_buf(), slot));
    result
}

impl super::Embedder for MiniLm {
    fn id(&self) -> &'static str {
        ID
    }
    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        MiniLm::embed_batch(self, texts)
    }
}
