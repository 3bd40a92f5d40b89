//! The simulated lake: an in-memory `Store` on a virtual clock that injects the faults a
//! remote object store really has. A request can fail before it reaches the store, or
//! reach it and lose its answer (the caller sees a timeout), be delivered twice (the
//! caller sees the second answer), or — for create-if-absent, whose outcome does not
//! depend on when it lands — sit in flight and land a few steps later. Create stays
//! atomic throughout. Every choice comes from the seeded generator, so a seed replays.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

use super::Rng;
use crate::error::{Error, Result};
use crate::lake::store::{Created, Object, Store};

/// What happens to one request.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Fault {
    None,
    /// Refused before it reached the store: no effect.
    Before,
    /// Applied, but the answer was lost.
    LostAnswer,
    /// Applied twice (a transport retry); the caller sees the second answer.
    Duplicate,
    /// Still in flight when the caller gave up; lands later (create only).
    Delayed,
}

/// A request that reached neither success nor refusal yet: it lands on `land_some`.
struct InFlight {
    key: String,
    bytes: Vec<u8>,
}

struct Inner {
    objects: BTreeMap<String, (Vec<u8>, i64)>,
    rng: Rng,
    in_flight: Vec<InFlight>,
    /// Protocol violations seen at the store (an overwrite of a create-only key, …).
    violations: Vec<String>,
    /// Per record id, how many landed roster versions list it as applied in that flush:
    /// the record's effect took hold that many times (the checks' oracle; a roster keeps
    /// no history of its own).
    roster_applied: std::collections::HashMap<String, usize>,
}

/// Another host's work, run in the middle of the current request stream.
pub(super) type Interleave = Box<dyn FnOnce(&SimStore)>;

pub(super) struct SimStore {
    inner: RefCell<Inner>,
    /// The lake's clock, in ms.
    now: Cell<i64>,
    /// Per-mille chance of each kind of fault per request (0: a calm spell, or the final round).
    rate: Cell<u64>,
    /// Fire `interleave` at the request with this number.
    fire_at: Cell<u32>,
    interleave: RefCell<Option<Interleave>>,
    /// Requests and object reads so far, as a remote store counts them (a daemon's
    /// back-off reads them; counting draws nothing from the seed's random sequence).
    requests: Cell<u64>,
    gets: Cell<u64>,
}

/// Keys that are only ever created, never overwritten: everything but presence and probes.
fn create_only(key: &str) -> bool {
    !(key.starts_with("live/") || key.starts_with("probe/"))
}

fn timeout(op: &str, key: &str) -> Error {
    // Probe keys are random; the trace of a seed must not be.
    let key = if key.starts_with("probe/") {
        "probe/…"
    } else {
        key
    };
    Error::storage("sim_timeout", format!("simulated timeout: {op} `{key}`"))
}

impl SimStore {
    pub(super) fn new(seed: u64, now: i64) -> Self {
        SimStore {
            inner: RefCell::new(Inner {
                objects: BTreeMap::new(),
                rng: Rng::new(seed ^ 0x5EED_5709E),
                in_flight: Vec::new(),
                violations: Vec::new(),
                roster_applied: Default::default(),
            }),
            now: Cell::new(now),
            rate: Cell::new(0),
            fire_at: Cell::new(0),
            interleave: RefCell::new(None),
            requests: Cell::new(0),
            gets: Cell::new(0),
        }
    }

    pub(super) fn now(&self) -> i64 {
        self.now.get()
    }
    pub(super) fn advance(&self, ms: i64) {
        self.now.set(self.now.get() + ms);
    }
    pub(super) fn set_fault_rate(&self, per_mille: u64) {
        self.rate.set(per_mille.min(240));
    }

    /// Run `f` just before the `at`-th next request (if the current operation gets that far).
    pub(super) fn interleave(&self, at: u32, f: Interleave) {
        self.fire_at.set(at.max(1));
        *self.interleave.borrow_mut() = Some(f);
    }
    /// Drop an interleave that never fired.
    pub(super) fn clear_interleave(&self) {
        self.interleave.borrow_mut().take();
    }

    /// Land each in-flight create with probability 1/2 (`all`: every one).
    pub(super) fn land_some(&self, all: bool) {
        let mut inner = self.inner.borrow_mut();
        let flights = std::mem::take(&mut inner.in_flight);
        for f in flights {
            if all || inner.rng.below(2) == 0 {
                let now = self.now.get();
                inner.objects.entry(f.key).or_insert((f.bytes, now));
            } else {
                inner.in_flight.push(f);
            }
        }
    }

    pub(super) fn violations(&self) -> Vec<String> {
        self.inner.borrow().violations.clone()
    }
    /// The landed object under `key`, read without faults (for the invariant checks).
    pub(super) fn peek(&self, key: &str) -> Option<Vec<u8>> {
        self.inner.borrow().objects.get(key).map(|(b, _)| b.clone())
    }
    /// How many landed roster writes applied record `id` (see `Inner::roster_applied`).
    pub(super) fn roster_applied(&self, id: &str) -> usize {
        let inner = self.inner.borrow();
        inner.roster_applied.get(id).copied().unwrap_or(0)
    }
    /// Landed keys under `prefix`, without faults.
    pub(super) fn peek_keys(&self, prefix: &str) -> Vec<String> {
        let inner = self.inner.borrow();
        let keys = inner.objects.range(prefix.to_string()..);
        keys.map(|(k, _)| k)
            .take_while(|k| k.starts_with(prefix))
            .cloned()
            .collect()
    }

    /// Count the request, run a pending interleave when its turn comes, and roll a fault.
    fn request(&self, mutating: bool, can_delay: bool) -> Fault {
        self.requests.set(self.requests.get() + 1);
        let n = self.fire_at.get();
        if n > 0 {
            self.fire_at.set(n - 1);
            if n == 1 {
                let f = self.interleave.borrow_mut().take();
                if let Some(f) = f {
                    f(self);
                }
            }
        }
        let r = self.rate.get();
        if r == 0 {
            return Fault::None;
        }
        let roll = self.inner.borrow_mut().rng.below(1000);
        match roll / r {
            0 => Fault::Before,
            1 => Fault::LostAnswer,
            2 if mutating => Fault::Duplicate,
            3 if can_delay => Fault::Delayed,
            _ => Fault::None,
        }
    }

    fn create_now(&self, key: &str, bytes: &[u8]) -> Created {
        let now = self.now.get();
        let mut inner = self.inner.borrow_mut();
        if inner.objects.contains_key(key) {
            return Created::Exists;
        }
        inner.objects.insert(key.to_string(), (bytes.to_vec(), now));
        Created::Yes(now)
    }

    fn put_now(&self, key: &str, bytes: &[u8]) -> i64 {
        let now = self.now.get();
        let mut inner = self.inner.borrow_mut();
        let changed = inner.objects.get(key).is_none_or(|(b, _)| b != bytes);
        if create_only(key) && changed && inner.objects.contains_key(key) {
            inner
                .violations
                .push(format!("overwrote create-only key `{key}`"));
        }
        // A duplicated request lands the same bytes twice: one write, counted once.
        if key.contains("/hosts/") && changed {
            let v: serde_json::Value = serde_json::from_slice(bytes).unwrap_or_default();
            let windows = v["windows"].as_array().into_iter().flatten();
            let ids = windows.flat_map(|w| w["applied"].as_array().into_iter().flatten());
            for id in ids.filter_map(|x| x.as_str()) {
                *inner.roster_applied.entry(id.to_string()).or_default() += 1;
            }
        }
        inner.objects.insert(key.to_string(), (bytes.to_vec(), now));
        now
    }
}

impl Store for SimStore {
    fn url(&self) -> String {
        "sim://lake".into()
    }

    fn requests(&self) -> u64 {
        self.requests.get()
    }

    fn gets(&self) -> u64 {
        self.gets.get()
    }

    fn get(&self, key: &str) -> Result<Option<(Vec<u8>, i64)>> {
        self.gets.set(self.gets.get() + 1);
        match self.request(false, false) {
            Fault::None => Ok(self.inner.borrow().objects.get(key).cloned()),
            _ => Err(timeout("get", key)),
        }
    }

    fn put(&self, key: &str, bytes: &[u8]) -> Result<i64> {
        match self.request(true, false) {
            Fault::Before | Fault::Delayed => Err(timeout("put", key)),
            Fault::LostAnswer => {
                self.put_now(key, bytes);
                Err(timeout("put", key))
            }
            Fault::Duplicate => {
                self.put_now(key, bytes);
                Ok(self.put_now(key, bytes))
            }
            Fault::None => Ok(self.put_now(key, bytes)),
        }
    }

    fn create(&self, key: &str, bytes: &[u8]) -> Result<Created> {
        match self.request(true, true) {
            Fault::Before => Err(timeout("create", key)),
            Fault::LostAnswer => {
                self.create_now(key, bytes);
                Err(timeout("create", key))
            }
            Fault::Duplicate => {
                self.create_now(key, bytes);
                Ok(self.create_now(key, bytes))
            }
            Fault::Delayed => {
                self.inner.borrow_mut().in_flight.push(InFlight {
                    key: key.to_string(),
                    bytes: bytes.to_vec(),
                });
                Err(timeout("create", key))
            }
            Fault::None => Ok(self.create_now(key, bytes)),
        }
    }

    fn list(&self, prefix: &str) -> Result<Vec<Object>> {
        if self.request(false, false) != Fault::None {
            return Err(timeout("list", prefix));
        }
        let inner = self.inner.borrow();
        Ok(inner
            .objects
            .range(prefix.to_string()..)
            .take_while(|(k, _)| k.starts_with(prefix))
            .map(|(k, (b, t))| Object {
                key: k.clone(),
                size: b.len() as u64,
                // S3 lists LastModified to the whole second (moto too); its ETag is
                // the content's digest.
                mtime_ms: t - t.rem_euclid(1000),
                tag: crate::digest::fnv1a64(b),
            })
            .collect())
    }

    fn delete(&self, key: &str) -> Result<()> {
        let fault = self.request(true, false);
        if matches!(fault, Fault::Before | Fault::Delayed) {
            return Err(timeout("delete", key));
        }
        let mut inner = self.inner.borrow_mut();
        if create_only(key) {
            inner.violations.push(format!("deleted lake key `{key}`"));
        }
        inner.objects.remove(key);
        match fault {
            Fault::LostAnswer => Err(timeout("delete", key)),
            _ => Ok(()),
        }
    }

    fn now_ms(&self) -> Result<i64> {
        match self.request(false, false) {
            Fault::None => Ok(self.now.get()),
            _ => Err(timeout("now", "")),
        }
    }

    fn flush(&self) -> Result<()> {
        match self.request(false, false) {
            Fault::None => Ok(()),
            _ => Err(timeout("flush", "")),
        }
    }
}
