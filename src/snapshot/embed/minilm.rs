//! all-MiniLM-L6-v2 from a model directory (`config.json`, `tokenizer.json`,
//! `model.safetensors`): files verified by size and sha256 before first use, then the
//! WordPiece tokenizer and the BERT forward pass. A loaded model is kept for the
//! process (`ctxlake mcp` pays the load once, on its first search).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use candle_core::Tensor;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

use super::bert::{Bert, BertConfig, device};
use super::verify;

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

/// Why a model directory could not be used: shown as a note, never as a search error.
pub(crate) type LoadError = String;

impl MiniLm {
    /// Verify `dir` (see [`verify::check`]) and load it; `marker` remembers a verified state.
    pub fn load(dir: &Path, marker: &Path) -> Result<MiniLm, LoadError> {
        verify::check(dir, marker)?;
        let read = |name: &str| {
            std::fs::read(dir.join(name))
                .map_err(|e| format!("cannot read `{}`: {e}", dir.join(name).display()))
        };
        let config: BertConfig = serde_json::from_slice(&read("config.json")?)
            .map_err(|e| format!("`config.json` is not a BERT config: {e}"))?;
        if config.hidden_size != DIM || config.hidden_act != "gelu" {
            return Err(format!(
                "`config.json` describes a {}-wide `{}` model, not all-MiniLM-L6-v2",
                config.hidden_size, config.hidden_act
            ));
        }
        let mut tokenizer = Tokenizer::from_bytes(read("tokenizer.json")?)
            .map_err(|e| format!("`tokenizer.json` cannot be read: {e}"))?;
        tokenizer.with_padding(Some(PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            ..Default::default()
        }));
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                ..Default::default()
            }))
            .map_err(|e| format!("tokenizer truncation: {e}"))?;
        let (dev, dtype) = device();
        let vb = candle_nn::VarBuilder::from_buffered_safetensors(
            read("model.safetensors")?,
            dtype,
            &dev,
        )
        .map_err(|e| format!("`model.safetensors` cannot be read: {e}"))?;
        let bert = Bert::load(vb, &config)
            .map_err(|e| format!("`model.safetensors` does not fit all-MiniLM-L6-v2: {e}"))?;
        Ok(MiniLm { tokenizer, bert })
    }

    /// Unit vectors, one per text, in order.
    pub fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, LoadError> {
        let mut out = Vec::with_capacity(texts.len());
        for chunk in texts.chunks(BATCH) {
            out.extend(self.forward(chunk)?);
        }
        Ok(out)
    }

    fn forward(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, LoadError> {
        let enc = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| format!("tokenizer: {e}"))?;
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
        let shape = (texts.len(), seq);
        let run = || -> candle_core::Result<Vec<Vec<f32>>> {
            let ids = Tensor::from_vec(ids, shape, &dev)?;
            let mask = Tensor::from_vec(mask, shape, &dev)?;
            self.bert.embed(&ids, &mask)
        };
        run().map_err(|e| format!("inference failed: {e}"))
    }
}

/// The process's loaded model (by directory): loaded on first use, then kept.
static LOADED: Mutex<Option<(PathBuf, Arc<MiniLm>)>> = Mutex::new(None);

/// The model in `dir`, loading it on first use. A failed load is not cached: a model
/// installed while `ctxlake mcp` runs is picked up by the next search.
pub(crate) fn shared(dir: &Path, marker: &Path) -> Result<Arc<MiniLm>, LoadError> {
    let mut slot = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((d, m)) = slot.as_ref()
        && d == dir
    {
        return Ok(m.clone());
    }
    let m = Arc::new(MiniLm::load(dir, marker)?);
    *slot = Some((dir.to_path_buf(), m.clone()));
    Ok(m)
}

impl super::Embedder for MiniLm {
    fn id(&self) -> &'static str {
        ID
    }
    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, String> {
        MiniLm::embed_batch(self, texts)
    }
}
