//! The keyword prefilter: which rules' literals occur in a text. Built for start-up cost,
//! since every hook process builds it once and scans one small payload: a bitmap of
//! two-byte heads plus a sorted list of keywords per head (microseconds to build),
//! where an automaton took about a third of the whole hook's instructions.

/// Lowercase ASCII literals, at least two bytes each.
pub struct KeywordSet {
    words: Vec<Vec<u8>>,
    /// Bit `(a << 8) | b` is set when some keyword starts with bytes `a b`.
    heads: Vec<u64>,
    /// `(head, keyword index)`, sorted by head.
    by_head: Vec<(u16, usize)>,
}

fn head(a: u8, b: u8) -> u16 {
    (u16::from(a) << 8) | u16::from(b)
}

impl KeywordSet {
    pub fn new(words: Vec<Vec<u8>>) -> Self {
        let mut heads = vec![0u64; 1024];
        let mut by_head = Vec::with_capacity(words.len());
        for (i, w) in words.iter().enumerate() {
            assert!(w.len() >= 2, "keywords have at least two bytes");
            let h = head(w[0], w[1]);
            heads[usize::from(h >> 6)] |= 1 << (h & 63);
            by_head.push((h, i));
        }
        by_head.sort_unstable();
        KeywordSet {
            words,
            heads,
            by_head,
        }
    }

    /// Call `found(index)` for every keyword occurring in `lower` (an already-lowercased
    /// haystack), once per occurrence.
    pub fn each_in(&self, lower: &[u8], mut found: impl FnMut(usize)) {
        for i in 0..lower.len().saturating_sub(1) {
            let h = head(lower[i], lower[i + 1]);
            if self.heads[usize::from(h >> 6)] & (1 << (h & 63)) == 0 {
                continue;
            }
            let start = self.by_head.partition_point(|(k, _)| *k < h);
            for &(k, w) in &self.by_head[start..] {
                if k != h {
                    break;
                }
                if lower[i..].starts_with(&self.words[w]) {
                    found(w);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_occurrence_of_every_keyword() {
        let set = KeywordSet::new(vec![
            b"ghp_".to_vec(),
            b"gh".to_vec(),
            b"sk".to_vec(),
            b"sk-ant-".to_vec(),
        ]);
        let mut seen = Vec::new();
        set.each_in(b"x ghp_a sk-ant-b sk", |w| seen.push(w));
        seen.sort();
        assert_eq!(seen, [0, 1, 2, 2, 3]);
        let mut none = Vec::new();
        set.each_in(b"nothing here", |w| none.push(w));
        assert!(none.is_empty());
        set.each_in(b"", |_| panic!("empty"));
        set.each_in(b"g", |_| panic!("short"));
    }
}
