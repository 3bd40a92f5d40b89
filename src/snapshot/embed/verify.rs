//! Is a model directory the published all-MiniLM-L6-v2? Each file's size and sha256 must
//! match a known release (f32 as published, or its f16 conversion). Hashing 90 MB costs
//! a few hundred ms, so a verified state is remembered in a small marker file keyed by
//! each file's size and mtime: an unchanged directory is not hashed again.

use std::path::Path;
use std::time::UNIX_EPOCH;

use crate::error::{Error, Result};

/// (file, size, sha256) of the accepted releases; a file may match any of its rows.
pub(crate) const KNOWN: &[(&str, u64, &str)] = &[
    (
        "config.json",
        612,
        "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
    ),
    (
        "tokenizer.json",
        466_247,
        "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    ),
    (
        "model.safetensors",
        90_868_376,
        "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    ),
];

/// The files a model directory must hold.
pub(crate) const FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];

/// A file's name, size and mtime in ns.
pub(crate) type Stamp = (String, u64, u128);

/// Each file's (size, mtime in ns): what the marker remembers.
pub(crate) fn stamp(dir: &Path) -> Result<Vec<Stamp>> {
    FILES
        .iter()
        .map(|name| {
            let p = dir.join(name);
            let m = std::fs::metadata(&p)
                .map_err(|e| unusable(format!("`{}` is missing ({e})", p.display())))?;
            let mtime = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            Ok((name.to_string(), m.len(), mtime))
        })
        .collect()
}

/// Verify `dir`, skipping the hashing when `marker` records the same stamps; the stamps
/// verified.
pub(crate) fn check(dir: &Path, marker: &Path) -> Result<Vec<Stamp>> {
    let stamps = stamp(dir)?;
    let remembered = std::fs::read(marker)
        .ok()
        .and_then(|b| serde_json::from_slice::<Vec<Stamp>>(&b).ok());
    if remembered.as_ref() == Some(&stamps) {
        return Ok(stamps);
    }
    for (name, size, _) in &stamps {
        let rows: Vec<_> = KNOWN.iter().filter(|(n, ..)| n == name).collect();
        if !rows.iter().any(|(_, s, _)| s == size) {
            return Err(unusable(format!(
                "`{name}` has {size} bytes, not the published all-MiniLM-L6-v2 file (corrupt or another model)"
            )));
        }
        let bytes = std::fs::read(dir.join(name)).map_err(|e| {
            Error::storage("model_unusable", format!("cannot read `{name}`")).source(e)
        })?;
        let sha = crate::digest::sha256_hex(&bytes);
        if !rows.iter().any(|(_, s, h)| s == size && *h == sha) {
            return Err(unusable(format!(
                "`{name}` has sha256 {sha}, not the published all-MiniLM-L6-v2 file (corrupt)"
            )));
        }
    }
    // Best effort: a read-only place only means hashing again next time.
    if let Some(parent) = marker.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    let _ = std::fs::write(marker, Error::json(&stamps)?);
    Ok(stamps)
}

/// A model directory that is not the published model; the message says how.
pub(crate) fn unusable(why: String) -> Error {
    Error::refused("model_unusable", why)
}
