//! A store for the lake's tests: a local lake that logs every request a remote store
//! would be sent (`get <key>`, `list <prefix>`, `create <key>`, …; a batch logs one line
//! per item), so a test can say exactly which requests an operation costs.

use std::cell::RefCell;
use std::path::Path;

use super::store::{Created, Got, LocalStore, Object, Store};
use crate::error::Result;

pub(crate) struct Logged {
    pub inner: LocalStore,
    log: RefCell<Vec<String>>,
}

impl Logged {
    pub(crate) fn open(dir: &Path) -> Logged {
        Logged {
            inner: LocalStore::open(dir).expect("local lake"),
            log: RefCell::new(Vec::new()),
        }
    }

    /// The requests logged since the last `take`.
    pub(crate) fn take(&self) -> Vec<String> {
        std::mem::take(&mut self.log.borrow_mut())
    }

    /// How many requests with this verb were logged since the last `take`.
    pub(crate) fn count(&self, verb: &str) -> usize {
        let prefix = format!("{verb} ");
        self.log
            .borrow()
            .iter()
            .filter(|l| l.starts_with(&prefix))
            .count()
    }

    fn note(&self, verb: &str, key: &str) {
        self.log.borrow_mut().push(format!("{verb} {key}"));
    }
}

impl Store for Logged {
    fn url(&self) -> String {
        self.inner.url()
    }
    fn get(&self, key: &str) -> Result<Option<Got>> {
        self.note("get", key);
        self.inner.get(key)
    }
    fn put(&self, key: &str, bytes: &[u8]) -> Result<i64> {
        self.note("put", key);
        self.inner.put(key, bytes)
    }
    fn create(&self, key: &str, bytes: &[u8]) -> Result<Created> {
        self.note("create", key);
        self.inner.create(key, bytes)
    }
    fn list(&self, prefix: &str) -> Result<Vec<Object>> {
        self.note("list", prefix);
        self.inner.list(prefix)
    }
    fn list_after(&self, prefix: &str, after: &str) -> Result<Vec<Object>> {
        self.note("list", prefix);
        self.inner.list_after(prefix, after)
    }
    fn delete(&self, key: &str) -> Result<()> {
        self.note("delete", key);
        self.inner.delete(key)
    }
    fn now_ms(&self) -> Result<i64> {
        self.inner.now_ms()
    }
}
