//! The built-in embedder: a deterministic, dependency-free feature hash of words and
//! character trigrams. Lexical, not semantic, but it tolerates typos and inflections,
//! needs no model, and is what a snapshot falls back to.

use super::Embedder;

pub(crate) const ID: &str = "hash-v1";
pub(crate) const DIM: usize = 256;

pub struct HashEmbedder;

impl Embedder for HashEmbedder {
    fn id(&self) -> &'static str {
        ID
    }
    fn embed_batch(&self, texts: &[&str]) -> crate::error::Result<Vec<Vec<f32>>> {
        Ok(texts.iter().map(|t| self.embed(t)).collect())
    }
}

impl HashEmbedder {
    /// A unit-length vector (all zeros for text without features).
    pub fn embed(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0f32; DIM];
        let lower = text.to_lowercase();
        for word in lower
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            add(&mut v, word.as_bytes(), 2.0);
            let padded: Vec<char> = std::iter::once('^')
                .chain(word.chars())
                .chain(std::iter::once('$'))
                .collect();
            for tri in padded.windows(3) {
                let s: String = tri.iter().collect();
                add(&mut v, s.as_bytes(), 1.0);
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            v.iter_mut().for_each(|x| *x /= norm);
        }
        v
    }
}

fn add(v: &mut [f32], feature: &[u8], weight: f32) {
    // FNV-1a: stable across platforms and releases, unlike std's hasher.
    let h = feature.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ *b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let sign = if h >> 63 == 0 { 1.0 } else { -1.0 };
    v[(h % DIM as u64) as usize] += sign * weight;
}

#[cfg(test)]
mod tests {
    use super::super::{cosine_q, quantize};
    use super::*;

    #[test]
    fn deterministic_unit_and_typo_tolerant() {
        let e = HashEmbedder;
        let a = e.embed("authentication tokens expire");
        assert_eq!(a, e.embed("authentication tokens expire"));
        assert!((a.iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-4);
        let q = e.embed("authentification token");
        let near = cosine_q(&q, &quantize(&a));
        let far = cosine_q(&q, &quantize(&e.embed("the database migration is slow")));
        assert!(near > far + 0.2, "near {near} far {far}");
        assert_eq!(e.embed("  "), vec![0f32; DIM]);
    }
}
