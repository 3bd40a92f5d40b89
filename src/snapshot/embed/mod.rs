//! Sentence embeddings behind one trait: the built-in hash embedder (always there) and
//! all-MiniLM-L6-v2 (a real model, loaded from a directory when configured). A snapshot
//! stores each embedder's vectors with its id; a query is only ever compared with
//! vectors of the embedder that made it.

pub(crate) mod bert;
pub(crate) mod download;
pub mod hash;
pub(crate) mod install;
mod mapped;
pub(crate) mod minilm;
pub(crate) mod select;
pub(crate) mod verify;
mod words;

pub use hash::HashEmbedder;
pub(crate) use select::model_dir;

pub trait Embedder: Send + Sync {
    /// Stored beside the vectors (`hash-v1`, `minilm-l6-v2`).
    fn id(&self) -> &'static str;
    /// Unit vectors, one per text, in order (all zeros for text without features).
    fn embed_batch(&self, texts: &[&str]) -> crate::error::Result<Vec<Vec<f32>>>;
}

/// A unit vector as i8, scaled so its largest component is ±127: the scale cancels in
/// [`cosine_q`], so small-valued 384-dim vectors keep their precision.
pub fn quantize(v: &[f32]) -> Vec<u8> {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    let scale = if max > 0.0 { 127.0 / max } else { 0.0 };
    v.iter()
        .map(|x| ((x * scale).round().clamp(-127.0, 127.0) as i8) as u8)
        .collect()
}

/// Cosine of a unit query against a stored quantized vector of the same embedder
/// (0 when the lengths differ: a vector of another embedder is never compared).
pub fn cosine_q(q: &[f32], stored: &[u8]) -> f32 {
    if stored.len() != q.len() {
        return 0.0;
    }
    let (dot, norm) = q.iter().zip(stored).fold((0f32, 0f32), |(d, n), (a, b)| {
        let s = (*b as i8) as f32;
        (d + a * s, n + s * s)
    });
    if norm > 0.0 { dot / norm.sqrt() } else { 0.0 }
}

#[cfg(test)]
mod quant_tests {
    use super::*;

    #[test]
    fn quantized_cosine_is_scale_free_and_close() {
        let v: Vec<f32> = (0..384)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) / 1000.0)
            .collect();
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        let u: Vec<f32> = v.iter().map(|x| x / n).collect();
        assert!((cosine_q(&u, &quantize(&u)) - 1.0).abs() < 1e-3);
        assert_eq!(cosine_q(&u[..256], &quantize(&u)), 0.0, "other dimension");
    }
}

#[cfg(test)]
pub(crate) mod tests;
