//! Lowercase hex and SHA-256 digests: the one place bytes become hex strings (content
//! addresses, snapshot ids, argument hashes, temp-file nonces); and FNV-1a, for stable
//! hashes no adversary picks.

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

/// The first 128 bits of the SHA-256 of `bytes`, big-endian: the number its first 32 hex
/// digits spell, without spelling them (a fold names every event and claim by one).
pub fn sha256_u128(bytes: &[u8]) -> u128 {
    let d = Sha256::digest(bytes);
    let mut head = [0u8; 16];
    head.copy_from_slice(&d[..16]);
    u128::from_be_bytes(head)
}

/// The first 64 bits of the SHA-256 of `bytes`, as its first 16 hex digits spell them.
pub fn sha256_u64(bytes: &[u8]) -> u64 {
    (sha256_u128(bytes) >> 64) as u64
}

/// FNV-1a over `bytes`: a small stable hash (the same on every platform and release,
/// unlike std's hasher) where no adversary picks the input to collide.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The SHA-256 of `value`'s JSON, as 64 hex digits: `sha256_hex(serde_json::to_vec(v))`
/// without a new buffer each call. For small values (a claim's rendering, hashed for every
/// claim a fold touches): the JSON is held whole while it is hashed.
pub fn sha256_json_hex(value: &impl serde::Serialize) -> String {
    // Serialized into one reused buffer, then hashed at once: serde_json writes token by
    // token, and a hasher update per token cost more than the hashing (the fold hashes
    // every claim's rendering).
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUF.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        // Writing into a Vec cannot fail; a value that cannot serialize hashes what it wrote.
        let _ = serde_json::to_writer(&mut *b, value);
        let digest = hex(&Sha256::digest(&b[..]));
        if b.capacity() > 1 << 20 {
            *b = Vec::new(); // one large value is no reason to keep its buffer
        }
        digest
    })
}

/// The SHA-256 of everything `r` yields, read in 1 MiB chunks (a snapshot file is tens
/// of MB: it is hashed without being held).
pub fn sha256_reader_hex(mut r: impl std::io::Read) -> std::io::Result<String> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return Ok(hex(&h.finalize())),
            Ok(n) => h.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// A writer that hands every byte on to `inner` and hashes it: a body written to a file
/// is named by its digest without being held.
pub struct Hashing<W> {
    pub inner: W,
    hash: Sha256,
}

impl<W: std::io::Write> Hashing<W> {
    pub fn new(inner: W) -> Self {
        Hashing {
            inner,
            hash: Sha256::new(),
        }
    }

    /// The SHA-256 of what was written, as 64 lowercase hex digits.
    pub fn hex(&self) -> String {
        hex(&self.hash.clone().finalize())
    }
}

impl<W: std::io::Write> std::io::Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
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
        // The numbers the first hex digits spell: names kept in saved states.
        assert_eq!(sha256_u128(b"abc"), 0xba7816bf8f01cfea414140de5dae2223);
        assert_eq!(sha256_u64(b"abc"), 0xba7816bf8f01cfea);
        // FNV-1a's published test values: the embedder's features and listed tags.
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
        let v = serde_json::json!({"a": [1, "b"]});
        let long: Vec<u8> = (0..3 * (1 << 20) + 7).map(|i| (i % 251) as u8).collect();
        assert_eq!(
            sha256_reader_hex(&long[..]).unwrap(),
            sha256_hex(&long),
            "chunked equals whole"
        );
        let mut w = Hashing::new(Vec::new());
        serde_json::to_writer(&mut w, &v).unwrap();
        assert_eq!(w.hex(), sha256_hex(&w.inner), "what was written, hashed");
        assert_eq!(
            sha256_json_hex(&v),
            sha256_hex(&serde_json::to_vec(&v).unwrap())
        );
    }
}
