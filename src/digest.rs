//! Lowercase hex and SHA-256 digests: the one place bytes become hex strings (content
//! addresses, snapshot ids, argument hashes, temp-file nonces).

use sha2::{Digest, Sha256};

/// `bytes` as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    s
}

/// The SHA-256 of `bytes`, as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The SHA-256 of `value`'s JSON, as 64 hex digits: `sha256_hex(serde_json::to_vec(v))`
/// without holding the JSON (a fleet's folded state is tens of MB).
pub fn sha256_json_hex(value: &impl serde::Serialize) -> String {
    let mut h = Sha256::new();
    // Writing into a hasher cannot fail; a value that cannot serialize hashes what it wrote.
    let _ = serde_json::to_writer(&mut h, value);
    hex(&h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert_eq!(hex(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let v = serde_json::json!({"a": [1, "b"]});
        assert_eq!(
            sha256_json_hex(&v),
            sha256_hex(&serde_json::to_vec(&v).unwrap())
        );
    }
}
