//! What install recorded per file (digest after our write, the bytes before it, containers we
//! created) so uninstall can put back exactly the prior bytes when nothing changed since.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::edit::Created;
use crate::error::{Error, Result};
use crate::fsutil::write_atomic;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    pub path: PathBuf,
    pub runtime: String,
    /// Did the file exist before ctxlake first wrote it?
    pub existed: bool,
    /// Are the pre-install bytes saved beside the record (`<key>.orig`)?
    pub original: bool,
    /// Their digest: the `.orig` may be a link to the user's `.bak`, which the user may
    /// edit, so it is restored only while it still holds exactly these bytes.
    #[serde(default)]
    pub original_sha256: Option<String>,
    pub post_sha256: String,
    pub created: Created,
}

/// `$CTXLAKE_HOME/state/install/`: one record per edited file, keyed by its path.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
}

pub fn sha256(bytes: &[u8]) -> String {
    crate::digest::sha256_hex(bytes)
}

impl Store {
    pub fn new(dir: PathBuf) -> Store {
        Store { dir }
    }

    fn key(&self, path: &Path) -> PathBuf {
        let k = sha256(path.as_os_str().as_encoded_bytes());
        self.dir.join(&k[..24])
    }

    pub fn load(&self, path: &Path) -> Result<Option<Record>> {
        let f = self.key(path).with_extension("json");
        match fs::read(&f) {
            Ok(b) => Ok(serde_json::from_slice::<Record>(&b)
                .ok()
                .filter(|r| r.path == path)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::io("cannot read install state", &f, e)),
        }
    }

    /// The bytes the file had before ctxlake's first write, when recorded and unchanged.
    pub fn original(&self, rec: &Record) -> Option<Vec<u8>> {
        rec.original
            .then(|| fs::read(self.key(&rec.path).with_extension("orig")).ok())
            .flatten()
            .filter(|b| {
                rec.original_sha256
                    .as_deref()
                    .is_none_or(|d| sha256(b) == d)
            })
    }

    /// Write the record, and `original` (the pre-install bytes) beside it. `bak` is a
    /// durable file holding exactly those bytes (the `.bak` just written): it is linked in,
    /// not copied, so a 6 MB `~/.claude.json` is not written and fsynced a third time.
    pub fn save(&self, rec: &Record, original: Option<&[u8]>, bak: Option<&Path>) -> Result<()> {
        let k = self.key(&rec.path);
        if let Some(bytes) = original {
            self.keep_original(&k.with_extension("orig"), bytes, bak)?;
        }
        let json = serde_json::to_vec_pretty(rec)
            .map_err(|e| Error::storage("state_encode", "cannot encode install state").source(e))?;
        write_atomic(&k.with_extension("json"), &json, 0o600)
    }

    /// `bak` linked as `orig` (a later write of the `.bak` replaces it by rename, so the
    /// link keeps these bytes; an edit in place is caught by `original`'s digest), or a
    /// copy where no link can be made (another filesystem).
    fn keep_original(&self, orig: &Path, bytes: &[u8], bak: Option<&Path>) -> Result<()> {
        if let Some(bak) = bak {
            fs::create_dir_all(&self.dir)
                .map_err(|e| Error::io("cannot create directory", &self.dir, e))?;
            let name = orig.file_name().and_then(|n| n.to_str()).unwrap_or("orig");
            // Named like `write_atomic`'s temp files, so a sweep finds one left behind.
            let tmp = self.dir.join(format!(
                ".{name}.tmp-{}-{}",
                std::process::id(),
                crate::fsutil::nonce()
            ));
            if fs::hard_link(bak, &tmp).is_ok() {
                if fs::rename(&tmp, orig).is_ok() {
                    return crate::fsutil::sync_dir(&self.dir);
                }
                let _ = fs::remove_file(&tmp);
            }
        }
        write_atomic(orig, bytes, 0o600)
    }

    pub fn forget(&self, path: &Path) {
        let k = self.key(path);
        let _ = fs::remove_file(k.with_extension("json"));
        let _ = fs::remove_file(k.with_extension("orig"));
    }
}
