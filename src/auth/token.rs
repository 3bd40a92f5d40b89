//! Token secrets: 32 random bytes (hex) shown once, their SHA-256 (what is stored), the
//! constant-time comparison and the `Authorization: Bearer …` parsing.

use crate::error::{Error, Result};

/// Random bytes per token (64 hex digits on the wire).
const TOKEN_BYTES: usize = 32;

/// A fresh secret: shown once to whoever asked, then only its hash is kept.
pub(crate) fn mint() -> Result<String> {
    let mut raw = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut raw)
        .map_err(|e| Error::storage("io", format!("no randomness for a token: {e}")))?;
    Ok(crate::digest::hex(&raw))
}

/// What the store keeps of a secret.
pub(crate) fn hash(secret: &str) -> String {
    crate::digest::sha256_hex(secret.as_bytes())
}

/// Equal in constant time for equal lengths (the length itself is not secret: always 64).
pub(crate) fn matches(presented: &str, expected: &str) -> bool {
    let (a, b) = (presented.as_bytes(), expected.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

/// The token an `Authorization: Bearer …` header carries.
pub(crate) fn bearer(header: Option<&str>) -> Option<&str> {
    let h = header?.trim();
    let (scheme, rest) = h.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_random_hex_and_hash_to_sha256() {
        let (a, b) = (mint().unwrap(), mint().unwrap());
        assert_eq!(a.len(), 2 * TOKEN_BYTES);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert_eq!(
            hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn comparison_and_bearer_parsing() {
        assert!(matches("abc", "abc"));
        assert!(!matches("abd", "abc"));
        assert!(!matches("ab", "abc"));
        assert_eq!(bearer(Some("Bearer xyz")), Some("xyz"));
        assert_eq!(bearer(Some("bearer  xyz ")), Some("xyz"));
        assert_eq!(bearer(Some("Basic xyz")), None);
        assert_eq!(bearer(None), None);
    }
}
