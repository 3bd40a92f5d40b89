//! ULIDs (time-ordered, 128-bit, Crockford base32) for record ids, and the
//! process's randomness source.

use std::sync::Mutex;

const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Fill `buf` from the OS; falls back to time and pid mixing if the OS refuses
/// (ids stay unique enough for a spool; nothing here is a secret).
pub fn fill_random(buf: &mut [u8]) {
    if getrandom::fill(buf).is_err() {
        let mut x = crate::time::now_ms() as u64 ^ ((std::process::id() as u64) << 32);
        for b in buf.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = x as u8;
        }
    }
}

/// Monotonic within a process: a second id in the same millisecond increments the random part.
pub fn new() -> String {
    static LAST: Mutex<(u64, u128)> = Mutex::new((0, 0));
    let mut guard = LAST.lock().unwrap_or_else(|p| p.into_inner());
    // The clock is read under the lock and never goes back: a thread that read it before
    // another took the lock would otherwise mint an id below one already handed out.
    let ms = (crate::time::now_ms() as u64).max(guard.0);
    let rand = if guard.0 == ms {
        guard.1.wrapping_add(1) & ((1u128 << 80) - 1)
    } else {
        let mut b = [0u8; 10];
        fill_random(&mut b);
        b.iter().fold(0u128, |acc, x| (acc << 8) | *x as u128)
    };
    *guard = (ms, rand);
    encode(ms, rand)
}

pub fn encode(ms: u64, rand: u128) -> String {
    let value = ((ms as u128 & ((1 << 48) - 1)) << 80) | (rand & ((1 << 80) - 1));
    (0..26)
        .map(|i| ALPHABET[((value >> (125 - i * 5)) & 0x1f) as usize] as char)
        .collect()
}

/// The millisecond time a ULID carries (its first 10 characters), if `s` is a ULID.
pub fn time_ms(s: &str) -> Option<i64> {
    if !is_ulid(s) {
        return None;
    }
    s.bytes().take(10).try_fold(0i64, |acc, c| {
        let v = ALPHABET.iter().position(|&a| a == c)?;
        Some((acc << 5) | v as i64)
    })
}

/// True when `s` looks like a ULID (26 Crockford base32 characters).
pub fn is_ulid(s: &str) -> bool {
    s.len() == 26 && s.bytes().all(|b| ALPHABET.contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulids_sort_by_time_and_are_unique() {
        let ids: Vec<String> = (0..1000).map(|_| new()).collect();
        let mut sorted = ids.clone();
        sorted.sort();
        assert_eq!(ids, sorted);
        sorted.dedup();
        assert_eq!(sorted.len(), 1000);
        assert!(ids.iter().all(|i| is_ulid(i)));
    }

    #[test]
    fn encoding_is_known() {
        assert_eq!(encode(0, 0), "00000000000000000000000000");
        assert_eq!(encode(1, 0), "00000000010000000000000000");
        assert_eq!(
            time_ms(&encode(1_700_000_000_123, 42)),
            Some(1_700_000_000_123)
        );
        assert_eq!(time_ms("not-a-ulid"), None);
    }
}
