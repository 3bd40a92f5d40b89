//! The bearer token of `ctxlake mcp --http`: 32 random bytes, hex, in a `0600` file under
//! `CTXLAKE_HOME`. Read on every request so `new` and `revoke` take effect at once.

use std::path::Path;

use crate::error::{Error, Result};

/// Random bytes per token (64 hex digits on the wire).
const TOKEN_BYTES: usize = 32;

/// Mint a new token and replace the file (owner-only); the old token stops working.
pub(crate) fn new(path: &Path) -> Result<String> {
    let mut raw = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut raw)
        .map_err(|e| Error::storage("io", format!("no randomness for a token: {e}")))?;
    let token = crate::digest::hex(&raw);
    crate::fsutil::write_atomic(path, token.as_bytes(), 0o600)?;
    // write_atomic keeps an existing file's mode: force 0600 whatever it was.
    set_private(path)?;
    Ok(token)
}

fn set_private(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| Error::io("cannot set mode of", path, e))
}

/// The configured token, if any: a missing or empty file means none. Any other failure is
/// an error, so a broken setup fails closed instead of opening the server.
pub(crate) fn read(path: &Path) -> Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(s) if s.trim().is_empty() => Ok(None),
        Ok(s) => Ok(Some(s.trim().to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io("cannot read the token", path, e)),
    }
}

/// Remove the token; true when there was one.
pub(crate) fn revoke(path: &Path) -> Result<bool> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(Error::io("cannot remove the token", path, e)),
    }
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
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn new_show_revoke_round_trip_with_a_private_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp-token");
        assert_eq!(read(&path).unwrap(), None);
        let t = new(&path).unwrap();
        assert_eq!(t.len(), 2 * TOKEN_BYTES);
        assert_eq!(read(&path).unwrap().as_deref(), Some(t.as_str()));
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_ne!(new(&path).unwrap(), t, "a new token replaces the old one");
        assert!(revoke(&path).unwrap());
        assert!(!revoke(&path).unwrap());
        assert_eq!(read(&path).unwrap(), None);
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
