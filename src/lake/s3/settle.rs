//! Create-if-absent over HTTP, where an answer can be lost after the store acted.
//!
//! `PutMode::Create` sends `If-None-Match: *`. object_store retries 5xx answers itself,
//! so a create that committed and then failed with a 5xx comes back as `AlreadyExists`
//! on its retry; and a timeout or a reset after the request went out is returned as an
//! error although the object may exist. Both are settled by reading the object back:
//! our exact bytes mean we created it; other bytes mean someone else did; no object
//! means the request never landed, so it is sent again (a create is always safe to
//! resend: at most one can win).

use std::time::Duration;

use object_store::{ObjectStore, PutMode, PutOptions, PutPayload};

use super::S3Store;
use crate::error::{Error, Result};
use crate::lake::store::Created;

/// Sends of one create before giving up (each already retried by object_store).
const ATTEMPTS: u32 = 4;

/// One create, settled. Async so that a batch keeps several in flight on the store's
/// one thread; `Created::Yes(0)`: the caller stamps the lake time (the clock is sync).
pub(super) async fn create(s: &S3Store, key: &str, bytes: &[u8]) -> Result<Created> {
    let path = s.path(key)?;
    let mut last = None;
    for attempt in 0..ATTEMPTS {
        if attempt > 0 {
            tokio::time::sleep(backoff(attempt)).await;
        }
        s.count();
        let payload = PutPayload::from(bytes.to_vec());
        let sent =
            s.os.put_opts(&path, payload, PutOptions::from(PutMode::Create));
        match sent.await.map(|_| ()) {
            Ok(()) => return Ok(Created::Yes(0)),
            Err(object_store::Error::AlreadyExists { .. }) => {
                // Ours from a retried request, or another writer's.
                return match read_back(s, key, bytes).await? {
                    Some(c) => Ok(c),
                    None => Ok(Created::Exists), // deleted since: it existed, not ours
                };
            }
            // A PUT answered 404 cannot have landed: the bucket is missing or hidden.
            Err(e @ object_store::Error::NotFound { .. }) => return Err(no_bucket(s, e)),
            Err(e) => {
                // Unknown outcome: look before sending again.
                if let Ok(Some(c)) = read_back(s, key, bytes).await {
                    return Ok(c);
                }
                last = Some(e);
            }
        }
    }
    let e = last.map_or_else(
        || Error::storage("store_failed", format!("cannot create `{key}`")),
        |e| s.fail("create", key, e),
    );
    Err(e)
}

/// One overwrite. object_store does not resend a PUT whose answer was lost; an overwrite
/// is idempotent, so it is sent again here (as `again` does for blocking requests).
pub(super) async fn put(s: &S3Store, key: &str, bytes: &[u8]) -> Result<()> {
    let path = s.path(key)?;
    let mut attempt = 0;
    loop {
        s.count();
        let payload = PutPayload::from(bytes.to_vec());
        let sent =
            s.os.put_opts(&path, payload, PutOptions::from(PutMode::Overwrite));
        match sent.await {
            Ok(_) => return Ok(()),
            Err(e @ object_store::Error::NotFound { .. }) => return Err(no_bucket(s, e)),
            Err(_) if attempt + 1 < ATTEMPTS => {
                attempt += 1;
                tokio::time::sleep(backoff(attempt)).await;
            }
            Err(e) => return Err(s.fail("write", key, e)),
        }
    }
}

fn no_bucket(s: &S3Store, e: object_store::Error) -> Error {
    Error::storage(
        "store_failed",
        format!("the bucket of `{}` does not exist, or these credentials cannot see it", s.url),
    )
    .source(e)
    .hint("create the bucket, or fix `store` (or `CTXLAKE_STORE`), `AWS_ENDPOINT_URL` and `AWS_REGION`")
}

/// Run an idempotent request until it succeeds, answers NotFound, or fails `ATTEMPTS` times.
pub(super) fn again<T>(
    mut send: impl FnMut() -> object_store::Result<T>,
) -> object_store::Result<T> {
    let mut attempt = 0;
    loop {
        match send() {
            Err(e)
                if attempt + 1 < ATTEMPTS && !matches!(e, object_store::Error::NotFound { .. }) =>
            {
                attempt += 1;
                std::thread::sleep(backoff(attempt));
            }
            r => return r,
        }
    }
}

fn backoff(attempt: u32) -> Duration {
    Duration::from_millis(100 << attempt)
}

/// `Some(Yes)` if the object holds exactly our bytes, `Some(Exists)` if other bytes,
/// `None` if there is no object.
async fn read_back(s: &S3Store, key: &str, bytes: &[u8]) -> Result<Option<Created>> {
    Ok(s.get_async(key).await?.map(|(b, _)| {
        if b == bytes {
            Created::Yes(0)
        } else {
            Created::Exists
        }
    }))
}
