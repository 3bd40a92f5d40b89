//! A store for the lake's tests: a local lake that logs every request a remote store
//! would be sent (`get <key>`, `list <prefix>`, `create <key>`, …), so a test can say
//! exactly which requests an operation costs. A batch (`put_many`, …), which a remote
//! store sends as one concurrent round, logs `round <verb> <n>` before its items.

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

    /// A batch of `n`: an empty one sends nothing.
    fn round(&self, verb: &str, n: usize) {
        if n > 0 {
            self.note(&format!("round {verb}"), &n.to_string());
        }
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
    fn create_file(&self, key: &str, path: &Path) -> Result<Created> {
        self.note("create", key);
        self.inner.create_file(key, path)
    }
    fn list(&self, prefix: &str) -> Result<Vec<Object>> {
        self.note("list", prefix);
        self.inner.list(prefix)
    }
    fn list_after(&self, prefix: &str, after: &str) -> Result<Vec<Object>> {
        self.note("list", prefix);
        self.inner.list_after(prefix, after)
    }
    fn list_keys(&self, prefix: &str, after: Option<&str>) -> Result<Vec<String>> {
        self.note("list", prefix);
        self.inner.list_keys(prefix, after)
    }
    fn put_many(&self, items: &[(String, Vec<u8>)]) -> Result<()> {
        self.round("put", items.len());
        items.iter().try_for_each(|(k, b)| self.put(k, b).map(drop))
    }
    fn create_many(&self, items: &[(String, Vec<u8>)]) -> Result<Vec<Created>> {
        self.round("create", items.len());
        items.iter().map(|(k, b)| self.create(k, b)).collect()
    }
    fn get_many(&self, keys: &[String]) -> Result<Vec<Option<Got>>> {
        self.round("get", keys.len());
        keys.iter().map(|k| self.get(k)).collect()
    }
    fn list_many(&self, lists: &[(String, Option<String>)]) -> Result<Vec<Vec<Object>>> {
        self.round("list", lists.len());
        let one = |(p, a): &(String, Option<String>)| match a {
            Some(a) => self.list_after(p, a),
            None => self.list(p),
        };
        lists.iter().map(one).collect()
    }
    fn delete(&self, key: &str) -> Result<()> {
        self.note("delete", key);
        self.inner.delete(key)
    }
    fn now_ms(&self) -> Result<i64> {
        self.inner.now_ms()
    }
    fn flush(&self) -> Result<()> {
        self.inner.flush()
    }
    fn skipped(&self) -> super::store::Skips {
        self.inner.skipped()
    }
}
