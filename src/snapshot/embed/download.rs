//! `ctxlake memory model install` without `--from`: fetch all-MiniLM-L6-v2's three files
//! over HTTP(S) from the pinned revision (or a mirror), resuming a partial file with a
//! `Range` request, each checked by size as it streams and by sha256 once whole, then
//! swapped into the model directory. Never on the hot path: only this command downloads.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::verify::{FILES, KNOWN};
use crate::error::{Error, Result};

/// The pinned revision of `sentence-transformers/all-MiniLM-L6-v2` on huggingface.co.
/// Independent public projects cite this commit with the very sha256 of
/// `model.safetensors` and `tokenizer.json` that `verify::KNOWN` holds; the hashes, not
/// the revision, are what a download is accepted by.
pub(crate) const REVISION: &str = "1110a243fdf4706b3f48f1d95db1a4f5529b4d41";

/// Where the files are fetched from when `[memory] model_url` is not set.
pub(crate) fn default_url() -> String {
    format!("https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/{REVISION}")
}

/// Sends per file before giving up: a dropped connection resumes from what arrived.
const TRIES: usize = 6;
/// A stalled server: no byte for this long ends the attempt (and the next one resumes).
const READ_TIMEOUT: Duration = Duration::from_secs(30);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Bytes fetched so far and in all (the three files together), for a progress bar.
pub(crate) type Progress<'a> = &'a mut dyn FnMut(u64, u64);

/// What a download did.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Fetched {
    /// Bytes received over the network in this run.
    pub received: u64,
    /// Bytes a partial file from an earlier run already held.
    pub resumed: u64,
}

/// Fetch the files from `base` (`<base>/<file>`) into a staging directory beside `dest`,
/// verifying each, then replace `dest`. On any failure `dest` is untouched; a partial file
/// stays staged for the next run to resume, a file that failed its hash does not.
pub(crate) fn download(base: &str, dest: &Path, progress: Progress) -> Result<Fetched> {
    let staging = staging_dir(dest)?;
    std::fs::create_dir_all(&staging).map_err(|e| Error::io("cannot create", &staging, e))?;
    // reqwest is built without a bundled TLS provider; installing twice is harmless.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::storage("model_download", "cannot start the HTTP client").source(e))?;
    let client = reqwest::Client::builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .read_timeout(READ_TIMEOUT)
        .user_agent(concat!("ctxlake/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| net(format!("cannot build the HTTP client: {e}")))?;
    let total: u64 = FILES.iter().map(|n| expected(n)).sum();
    let mut fetched = Fetched::default();
    let mut before = 0u64;
    for name in FILES {
        let url = format!("{}/{name}", base.trim_end_matches('/'));
        let part = staging.join(format!("{name}.part"));
        let done = staging.join(name);
        if !done.is_file() {
            let mut report = |n: u64| progress(before + n, total);
            rt.block_on(fetch_file(
                &client,
                &url,
                &part,
                expected(name),
                &mut report,
                &mut fetched,
            ))?;
            // Checked as soon as it is whole: a wrong file fails the run before the next
            // one is fetched, and is never resumed from.
            if let Err(why) = verify_one(&part, name) {
                let _ = std::fs::remove_file(&part);
                return Err(Error::refused(
                    "model_download",
                    format!("`{url}`: {}", why.one_line()),
                ));
            }
            std::fs::rename(&part, &done).map_err(|e| {
                Error::storage("model_download", format!("cannot stage `{name}`")).source(e)
            })?;
        }
        before += expected(name);
        progress(before, total);
    }
    super::install::replace(&staging, dest)?;
    Ok(fetched)
}

/// One whole file against the published size and sha256, hashed a block at a time (the
/// weights are 87 MiB: never all in memory).
fn verify_one(path: &Path, name: &str) -> Result<()> {
    use sha2::Digest;
    let unreadable =
        |e| Error::storage("model_download", format!("cannot read `{name}`")).source(e);
    let mut f = std::fs::File::open(path).map_err(unreadable)?;
    let mut hasher = sha2::Sha256::new();
    let len = std::io::copy(&mut f, &mut hasher).map_err(unreadable)?;
    let sha = crate::digest::hex(&hasher.finalize());
    let ok = KNOWN
        .iter()
        .any(|(n, size, hash)| *n == name && *size == len && *hash == sha);
    match ok {
        true => Ok(()),
        false => Err(Error::refused(
            "model_download",
            format!(
                "`{name}` has sha256 {sha}, not the published all-MiniLM-L6-v2 file (corrupt, or another file): refused"
            ),
        )),
    }
}

/// The published size of `name` (its first row in `KNOWN`: the f32 release).
fn expected(name: &str) -> u64 {
    KNOWN
        .iter()
        .find(|(n, ..)| *n == name)
        .map_or(0, |(_, size, _)| *size)
}

/// `<parent>/.<name>.download`: kept between runs, so a second run resumes.
fn staging_dir(dest: &Path) -> Result<PathBuf> {
    let parent = super::install::parent(dest)?;
    let name = dest
        .file_name()
        .map_or("model".into(), |n| n.to_string_lossy());
    Ok(parent.join(format!(".{name}.download")))
}

/// Bring `part` to `size` bytes of `url`, resuming what it holds, retrying a dropped
/// connection up to [`TRIES`] times.
async fn fetch_file(
    client: &reqwest::Client,
    url: &str,
    part: &Path,
    size: u64,
    report: &mut dyn FnMut(u64),
    fetched: &mut Fetched,
) -> Result<()> {
    let mut last_error = String::new();
    let at_start = std::fs::metadata(part).map_or(0, |m| m.len());
    if at_start <= size {
        fetched.resumed += at_start;
    }
    for _ in 0..TRIES {
        let have = std::fs::metadata(part).map_or(0, |m| m.len());
        if have == size {
            report(size);
            return Ok(());
        }
        if have > size {
            let _ = std::fs::remove_file(part);
            continue;
        }
        report(have);
        match attempt(client, url, part, have, size, report, fetched).await {
            Ok(()) => {}
            Err(Attempt::Fatal(why)) => return Err(net(why)),
            Err(Attempt::Retry(why)) => last_error = why,
        }
    }
    let have = std::fs::metadata(part).map_or(0, |m| m.len());
    if have == size {
        return Ok(());
    }
    Err(net(format!(
        "`{url}` stopped at {have} of {size} bytes after {TRIES} tries ({last_error}); run the command again to resume"
    )))
}

/// The server or the network failed the download; the message says how.
fn net(why: String) -> Error {
    Error::storage("model_download", why)
}

enum Attempt {
    /// Worth resuming: the connection dropped or timed out.
    Retry(String),
    /// The server is wrong for us (a status, an HTML page, a file too large).
    Fatal(String),
}

/// One request: from `have` to the end, appended to `part`.
async fn attempt(
    client: &reqwest::Client,
    url: &str,
    part: &Path,
    have: u64,
    size: u64,
    report: &mut dyn FnMut(u64),
    fetched: &mut Fetched,
) -> Result<(), Attempt> {
    let mut req = client.get(url);
    if have > 0 {
        req = req.header(reqwest::header::RANGE, format!("bytes={have}-"));
    }
    let mut resp = req
        .send()
        .await
        .map_err(|e| Attempt::Retry(format!("cannot reach `{url}`: {e}")))?;
    let status = resp.status().as_u16();
    let from = match status {
        206 if content_range_start(&resp) == Some(have) => have,
        // A server without ranges sends the whole file: start it over.
        200 | 206 => 0,
        416 if have == size => return Ok(()),
        416 => {
            let _ = std::fs::remove_file(part);
            return Err(Attempt::Retry(
                "the partial file was longer than the server's".into(),
            ));
        }
        _ => return Err(Attempt::Fatal(format!("`{url}` answered HTTP {status}"))),
    };
    if is_html(&resp) {
        return Err(Attempt::Fatal(format!(
            "`{url}` answered an HTML page, not the model file (a login, error or proxy page?)"
        )));
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(from > 0)
        .write(true)
        .truncate(from == 0)
        .open(part)
        .map_err(|e| Attempt::Fatal(format!("cannot write `{}`: {e}", part.display())))?;
    let mut at = from;
    loop {
        let chunk = match resp.chunk().await {
            Ok(Some(c)) => c,
            Ok(None) => break,
            Err(e) => {
                let _ = file.flush();
                return Err(Attempt::Retry(format!("the connection dropped: {e}")));
            }
        };
        if at + chunk.len() as u64 > size {
            drop(file);
            let _ = std::fs::remove_file(part);
            return Err(Attempt::Fatal(format!(
                "`{url}` is larger than the published file ({size} bytes): not all-MiniLM-L6-v2"
            )));
        }
        file.write_all(&chunk)
            .map_err(|e| Attempt::Fatal(format!("cannot write `{}`: {e}", part.display())))?;
        at += chunk.len() as u64;
        fetched.received += chunk.len() as u64;
        report(at);
    }
    file.sync_data()
        .map_err(|e| Attempt::Fatal(format!("cannot fsync `{}`: {e}", part.display())))?;
    if at < size {
        return Err(Attempt::Retry(format!(
            "the server ended the file at {at} of {size} bytes"
        )));
    }
    Ok(())
}

fn content_range_start(resp: &reqwest::Response) -> Option<u64> {
    let v = resp
        .headers()
        .get(reqwest::header::CONTENT_RANGE)?
        .to_str()
        .ok()?;
    let range = v.strip_prefix("bytes ")?;
    range.split('-').next()?.trim().parse().ok()
}

fn is_html(resp: &reqwest::Response) -> bool {
    resp.headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.to_ascii_lowercase().starts_with("text/html"))
}
