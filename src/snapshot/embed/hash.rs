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
            // Each trigram of `^word$`, hashed from its UTF-8 bytes in place (this runs
            // for every claim of a snapshot build: no String per trigram).
            let mut padded = std::iter::once('^')
                .chain(word.chars())
                .chain(std::iter::once('$'));
            let (Some(mut a), Some(mut b)) = (padded.next(), padded.next()) else {
                continue;
            };
            for c in padded {
                let mut buf = [0u8; 12];
                let mut n = a.encode_utf8(&mut buf[..]).len();
                n += b.encode_utf8(&mut buf[n..]).len();
                n += c.encode_utf8(&mut buf[n..]).len();
                add(&mut v, &buf[..n], 1.0);
                (a, b) = (b, c);
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
    let h = crate::digest::fnv1a64(feature);
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

    /// The trigram walk hashes exactly the strings `^word$`'s windows of three chars
    /// spell: the vectors of snapshots already published stay comparable.
    #[test]
    fn trigrams_are_the_windows_of_the_padded_word() {
        fn reference(text: &str) -> Vec<f32> {
            let mut v = vec![0f32; DIM];
            for word in text
                .to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
            {
                add(&mut v, word.as_bytes(), 2.0);
                let padded: Vec<char> = std::iter::once('^')
                    .chain(word.chars())
                    .chain(std::iter::once('$'))
                    .collect();
                for tri in padded.windows(3) {
                    add(&mut v, tri.iter().collect::<String>().as_bytes(), 1.0);
                }
            }
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            v.iter_mut().for_each(|x| *x /= norm.max(f32::MIN_POSITIVE));
            v
        }
        for text in [
            "a",
            "ab cd",
            "Grüße aus Köln",
            "日本語のテキスト",
            "x-1 y_2 z3 🚀ok",
        ] {
            assert_eq!(HashEmbedder.embed(text), reference(text), "{text}");
        }
    }
}
