//! `S3Store`: the lake on an object store through `object_store`: S3 and S3-compatible
//! stores (AWS S3, R2, MinIO, …) and Azure Blob Storage. The `Store` trait stays synchronous: every call blocks on a
//! current-thread tokio runtime that only this type creates, so the commands that never
//! open an S3 lake (`hook`, `mcp`, the tools) never start a runtime nor load TLS.
//! Credentials come only from the provider's standard chain (for S3: environment,
//! container and instance roles); nothing here ever prints or stores them.

mod azlist;
mod clock;
mod list;
mod listing;
mod location;
mod settle;

use std::sync::atomic::{AtomicU64, Ordering};

use std::sync::Arc;

use futures_util::{StreamExt, stream};
use object_store::path::Path as OsPath;
use object_store::{ObjectStore, ObjectStoreExt};

use super::keys;
use super::store::{Created, Got, Object, Skip, SkipCounter, Skips, Store};
use crate::error::{Error, Result};

pub use location::Access;
pub(crate) use location::is_object_store_url;

/// Requests a batch keeps in flight at once (drains and mirror fetches).
const IN_FLIGHT: usize = 32;

pub(crate) struct S3Store {
    rt: tokio::runtime::Runtime,
    os: Arc<dyn ObjectStore>,
    /// The listing, read leniently (`listing`, `azlist`); `None`: object_store lists.
    lister: Option<list::Lister>,
    /// `s3://bucket/prefix` as configured (never with credentials: the chain holds those).
    url: String,
    provider: location::Provider,
    /// Key prefix inside the bucket: empty or ending in `/`.
    prefix: String,
    clock: clock::LakeClock,
    requests: AtomicU64,
    gets: AtomicU64,
    skips: SkipCounter,
}

impl S3Store {
    /// Build the client for `url` (`s3://bucket[/prefix]`, `az://container[/prefix]`).
    /// Makes no request.
    pub(crate) fn open(url: &str, access: Access) -> Result<S3Store> {
        let loc = location::parse(url)?;
        // reqwest is built without a bundled TLS provider (ring keeps the binary lean);
        // installing it twice is harmless, so every open tries.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let (os, lister) = location::build(&loc, access)
            .map_err(|e| Error::usage("invalid_store", format!("cannot use `{url}`")).source(e))?;
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Error::internal("runtime", "cannot start the S3 client").source(e))?;
        Ok(S3Store {
            rt,
            os,
            lister,
            url: url.trim_end_matches('/').to_string(),
            provider: loc.provider,
            prefix: loc.prefix,
            clock: clock::LakeClock::default(),
            requests: AtomicU64::new(0),
            gets: AtomicU64::new(0),
            skips: SkipCounter::default(),
        })
    }

    /// The object path for a lake key, validated first: no request is ever built from a
    /// key with `..`, an empty segment or a control character.
    fn path(&self, key: &str) -> Result<OsPath> {
        keys::validate(key)?;
        OsPath::parse(format!("{}{key}", self.prefix)).map_err(|e| {
            Error::storage(
                "bad_key",
                format!("refusing lake key `{}`", key.escape_debug()),
            )
            .source(e)
        })
    }

    fn count(&self) {
        self.requests.fetch_add(1, Ordering::Relaxed);
    }

    fn fail(&self, what: &str, key: &str, e: object_store::Error) -> Error {
        Error::storage(
            "store_failed",
            format!("cannot {what} `{key}` in `{}`", self.url),
        )
        .source(e)
        .hint(self.provider.hint())
    }

    /// A created object's lake time (settling answers `Yes(0)`: the clock is sync).
    fn stamp(&self, c: Created) -> Result<Created> {
        Ok(match c {
            Created::Yes(_) => Created::Yes(self.now_ms()?),
            e => e,
        })
    }

    /// The object's bytes and its Last-Modified (the store's clock), or `None` if absent.
    async fn get_async(&self, key: &str) -> Result<Option<(Vec<u8>, i64)>> {
        let path = self.path(key)?;
        self.count();
        self.gets.fetch_add(1, Ordering::Relaxed);
        let cap = keys::cap(key);
        let got = async {
            let r = self.os.get(&path).await?;
            let at = r.meta.last_modified.timestamp_millis();
            // Judged from the answer's size before its body is read: an object over its
            // kind's cap costs this request's headers, and nothing more.
            if r.meta.size > cap {
                return Ok(None);
            }
            Ok::<_, object_store::Error>(Some((r.bytes().await?, at)))
        }
        .await;
        match got {
            Ok(Some((b, at))) if b.len() as u64 <= cap => Ok(Some((b.to_vec(), at))),
            Ok(_) => {
                self.skips.add(Skip::Oversize);
                Ok(None)
            }
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(self.fail("read", key, e)),
        }
    }
}

impl Store for S3Store {
    fn url(&self) -> String {
        self.url.clone()
    }

    fn get(&self, key: &str) -> Result<Option<(Vec<u8>, i64)>> {
        self.rt.block_on(self.get_async(key))
    }

    fn put(&self, key: &str, bytes: &[u8]) -> Result<i64> {
        self.rt.block_on(settle::put(self, key, bytes))?;
        self.now_ms()
    }

    fn put_many(&self, items: &[(String, Vec<u8>)]) -> Result<()> {
        let sent = stream::iter(items)
            .map(|(k, b)| settle::put(self, k, b))
            .buffered(IN_FLIGHT);
        let done: Vec<Result<()>> = self.rt.block_on(sent.collect());
        done.into_iter().collect()
    }

    fn create(&self, key: &str, bytes: &[u8]) -> Result<Created> {
        let c = self.rt.block_on(settle::create(self, key, bytes))?;
        self.stamp(c)
    }

    fn create_many(&self, items: &[(String, Vec<u8>)]) -> Result<Vec<Created>> {
        self.now_ms()?; // measured (sync) before the batch goes async
        let sent = stream::iter(items)
            .map(|(k, b)| settle::create(self, k, b))
            .buffered(IN_FLIGHT);
        let done: Vec<Result<Created>> = self.rt.block_on(sent.collect());
        done.into_iter().map(|r| self.stamp(r?)).collect()
    }

    fn get_many(&self, keys: &[String]) -> Result<Vec<Option<Got>>> {
        let sent = stream::iter(keys)
            .map(|k| self.get_async(k))
            .buffered(IN_FLIGHT);
        let done: Vec<Result<_>> = self.rt.block_on(sent.collect());
        done.into_iter().collect()
    }

    fn list(&self, prefix: &str) -> Result<Vec<Object>> {
        self.list_from(prefix, None)
    }

    fn list_after(&self, prefix: &str, after: &str) -> Result<Vec<Object>> {
        self.list_from(prefix, Some(after))
    }

    fn list_many(&self, lists: &[(String, Option<String>)]) -> Result<Vec<Vec<Object>>> {
        let sent = stream::iter(lists)
            .map(|(p, a)| self.list_async(p, a.as_deref()))
            .buffered(IN_FLIGHT);
        let done: Vec<Result<_>> = self.rt.block_on(sent.collect());
        done.into_iter().collect()
    }

    fn delete(&self, key: &str) -> Result<()> {
        let path = self.path(key)?;
        let sent = settle::again(|| {
            self.count();
            self.rt.block_on(self.os.delete(&path))
        });
        match sent {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(self.fail("delete", key, e)),
        }
    }

    fn now_ms(&self) -> Result<i64> {
        clock::now_ms(self)
    }

    fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    fn gets(&self) -> u64 {
        self.gets.load(Ordering::Relaxed)
    }

    fn skipped(&self) -> Skips {
        self.skips.get()
    }
}
