//! The BERT encoder forward pass for all-MiniLM-L6-v2 (6 layers, 12 heads, 384 wide):
//! embeddings, self-attention blocks, then mean pooling over the attention mask and L2
//! normalisation, exactly as sentence-transformers computes a sentence vector. Inference
//! only (no dropout), CPU, f32 (f16 weights are widened when loaded). The word-embedding
//! table stays in the mapped file ([`WordTable`]).

use candle_core::safetensors::SliceSafetensors;
use candle_core::{DType, Device, Module, Tensor};
use candle_nn::{Embedding, LayerNorm, VarBuilder};

use super::words::WordTable;

/// The parts of `config.json` the forward pass needs.
#[derive(Debug, Clone, serde::Deserialize)]
pub(crate) struct BertConfig {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub intermediate_size: usize,
    pub max_position_embeddings: usize,
    pub type_vocab_size: usize,
    #[serde(default = "default_eps")]
    pub layer_norm_eps: f64,
    #[serde(default)]
    pub hidden_act: String,
}

fn default_eps() -> f64 {
    1e-12
}

struct Layer {
    query: Dense,
    key: Dense,
    value: Dense,
    attn_out: Dense,
    attn_norm: LayerNorm,
    inter: Dense,
    out: Dense,
    out_norm: LayerNorm,
}

/// A linear layer whose weight is stored transposed, `in × out` and contiguous. candle's
/// `Linear` multiplies by a transposed view of the `out × in` weight, which gemm packs
/// again on every call: for a query's few tokens that repacking of all 42 MB of weights
/// was most of the forward pass.
struct Dense {
    wt: Tensor,
    bias: Tensor,
}

/// The layer under `vb`'s prefix. An f32 weight is transposed straight from the mapped
/// file in cache-sized tiles (one copy; candle's strided transpose of a loaded tensor
/// cost a cold load 26 ms more); other dtypes go through candle.
fn dense(
    inputs: usize,
    outputs: usize,
    vb: VarBuilder,
    file: &SliceSafetensors,
) -> candle_core::Result<Dense> {
    let bias = vb.get(outputs, "bias")?;
    let view = file.get(&format!("{}.weight", vb.prefix()))?;
    let wt = if DType::try_from(view.dtype())? == DType::F32 && view.shape() == [outputs, inputs] {
        let t = transposed(view.data(), outputs, inputs);
        Tensor::from_vec(t, (inputs, outputs), vb.device())?
    } else {
        vb.get((outputs, inputs), "weight")?.t()?.contiguous()?
    };
    Ok(Dense { wt, bias })
}

/// The `cols × rows` transpose of a row-major `rows × cols` little-endian f32 matrix.
fn transposed(bytes: &[u8], rows: usize, cols: usize) -> Vec<f32> {
    const TILE: usize = 32;
    let at = |i: usize| {
        let b = &bytes[i * 4..i * 4 + 4];
        f32::from_le_bytes([b[0], b[1], b[2], b[3]])
    };
    let mut out = vec![0f32; rows * cols];
    for r0 in (0..rows).step_by(TILE) {
        for c0 in (0..cols).step_by(TILE) {
            for r in r0..(r0 + TILE).min(rows) {
                for c in c0..(c0 + TILE).min(cols) {
                    out[c * rows + r] = at(r * cols + c);
                }
            }
        }
    }
    out
}

impl Dense {
    /// `x` is (batch, seq, in) and contiguous.
    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let (b, n, h) = x.dims3()?;
        x.reshape((b * n, h))?
            .matmul(&self.wt)?
            .reshape((b, n, ()))?
            .broadcast_add(&self.bias)
    }
}

pub(crate) struct Bert {
    words: WordTable,
    positions: Embedding,
    types: Embedding,
    norm: LayerNorm,
    layers: Vec<Layer>,
    heads: usize,
    head_dim: usize,
}

impl Bert {
    /// `file` is the safetensors file `vb` reads, for the weights taken from it directly.
    pub fn load(
        vb: VarBuilder,
        file: &SliceSafetensors,
        words: WordTable,
        c: &BertConfig,
    ) -> candle_core::Result<Bert> {
        let h = c.hidden_size;
        let e = vb.pp("embeddings");
        let positions =
            candle_nn::embedding(c.max_position_embeddings, h, e.pp("position_embeddings"))?;
        let types = candle_nn::embedding(c.type_vocab_size, h, e.pp("token_type_embeddings"))?;
        let norm = candle_nn::layer_norm(h, c.layer_norm_eps, e.pp("LayerNorm"))?;
        let mut layers = Vec::with_capacity(c.num_hidden_layers);
        for i in 0..c.num_hidden_layers {
            let l = vb.pp(format!("encoder.layer.{i}"));
            let a = l.pp("attention");
            layers.push(Layer {
                query: dense(h, h, a.pp("self.query"), file)?,
                key: dense(h, h, a.pp("self.key"), file)?,
                value: dense(h, h, a.pp("self.value"), file)?,
                attn_out: dense(h, h, a.pp("output.dense"), file)?,
                attn_norm: candle_nn::layer_norm(h, c.layer_norm_eps, a.pp("output.LayerNorm"))?,
                inter: dense(h, c.intermediate_size, l.pp("intermediate.dense"), file)?,
                out: dense(c.intermediate_size, h, l.pp("output.dense"), file)?,
                out_norm: candle_nn::layer_norm(h, c.layer_norm_eps, l.pp("output.LayerNorm"))?,
            });
        }
        Ok(Bert {
            words,
            positions,
            types,
            norm,
            layers,
            heads: c.num_attention_heads,
            head_dim: h / c.num_attention_heads,
        })
    }

    /// Unit sentence vectors for a padded batch: `ids` (row-major) and `mask` are
    /// (batch, seq) u32.
    pub fn embed(&self, ids: &[u32], mask: &Tensor) -> candle_core::Result<Vec<Vec<f32>>> {
        let (batch, seq) = mask.dims2()?;
        let dev = mask.device();
        let pos = Tensor::arange(0u32, seq as u32, dev)?.unsqueeze(0)?;
        let types = mask.zeros_like()?;
        let x = self
            .words
            .lookup(ids, (batch, seq), dev)?
            .broadcast_add(&self.positions.forward(&pos)?)?
            .broadcast_add(&self.types.forward(&types)?)?;
        let mut x = self.norm.forward(&x)?;
        let maskf = mask.to_dtype(DType::F32)?;
        // 0 where attended, a large negative where padding: added to the scores.
        let bias = ((maskf.clone() - 1.0)? * 1e4)?.unsqueeze(1)?.unsqueeze(1)?;
        for l in &self.layers {
            x = self.layer(l, &x, &bias)?;
        }
        // Mean over the real tokens, then unit length (sentence-transformers' pooling).
        let m = maskf.unsqueeze(2)?;
        let summed = x.broadcast_mul(&m)?.sum(1)?;
        let counts = m.sum(1)?.clamp(1e-9, f64::MAX)?;
        let mean = summed.broadcast_div(&counts)?;
        let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f64::MAX)?;
        mean.broadcast_div(&norm)?.to_vec2::<f32>()
    }

    fn layer(&self, l: &Layer, x: &Tensor, bias: &Tensor) -> candle_core::Result<Tensor> {
        let (b, n, h) = x.dims3()?;
        let split = |t: Tensor| -> candle_core::Result<Tensor> {
            t.reshape((b, n, self.heads, self.head_dim))?
                .transpose(1, 2)?
                .contiguous()
        };
        let q = split(l.query.forward(x)?)?;
        let k = split(l.key.forward(x)?)?;
        let v = split(l.value.forward(x)?)?;
        let scale = 1.0 / (self.head_dim as f64).sqrt();
        let scores = (q.matmul(&k.t()?.contiguous()?)? * scale)?.broadcast_add(bias)?;
        let probs = candle_nn::ops::softmax_last_dim(&scores)?;
        let ctx = probs
            .matmul(&v)?
            .transpose(1, 2)?
            .contiguous()?
            .reshape((b, n, h))?;
        let a = l.attn_norm.forward(&(l.attn_out.forward(&ctx)? + x)?)?;
        let i = l.inter.forward(&a)?.gelu_erf()?;
        l.out_norm.forward(&(l.out.forward(&i)? + &a)?)
    }
}

/// The CPU device and dtype every model runs on.
pub(crate) fn device() -> (Device, DType) {
    (Device::Cpu, DType::F32)
}

#[cfg(test)]
mod tests {
    #[test]
    fn transposed_reads_little_endian_rows_into_columns() {
        // 3 × 40 (crosses a tile edge): element (r, c) = r * 100 + c.
        let (rows, cols) = (3, 40);
        let bytes: Vec<u8> = (0..rows * cols)
            .flat_map(|i| ((i / cols * 100 + i % cols) as f32).to_le_bytes())
            .collect();
        let t = super::transposed(&bytes, rows, cols);
        for c in 0..cols {
            for r in 0..rows {
                assert_eq!(t[c * rows + r], (r * 100 + c) as f32);
            }
        }
    }
}
