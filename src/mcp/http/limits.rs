//! Per-token caps: requests in flight (body included) and open event streams. One client
//! holding its share never takes another token's: a cap is counted per token, and a slot
//! is given back when its guard is dropped (the request answered, the stream closed).
//! And the server-wide cap on work: requests that run a tool, read a resource or get a
//! prompt take one of fewer workers than the pool has, so `initialize`, `tools/list` and
//! the dashboard always find a free worker however many slow calls are in flight.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::Semaphore;

use crate::auth::Who;

/// Threads of the blocking pool: every request's work and every dashboard page run there.
pub(crate) const WORKERS: usize = 8;
/// Of `WORKERS`, how many may run a tool call (or a resource read, or a prompt) at once;
/// the others are kept for control requests and pages. A search can run up to its
/// snapshot's progress deadline (`rules::SNAPSHOT_QUERY_MS`) and a write up to the lock
/// wait: without this, eight of them held every worker and `initialize` waited behind.
pub(crate) const CALL_WORKERS: usize = WORKERS - 2;
const _: () = assert!(CALL_WORKERS < WORKERS, "control requests keep a worker");

/// JSON-RPC methods that do a request's real work (and may be slow).
const WORK: [&str; 3] = ["tools/call", "resources/read", "prompts/get"];

/// Whether a POST body (one message or a batch) names a method that does real work. A
/// body that does not parse is answered at once with a parse error: not work.
pub(crate) fn is_work(body: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Message {
        method: Option<String>,
    }
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Body {
        One(Message),
        Batch(Vec<Message>),
    }
    let works = |m: &Message| m.method.as_deref().is_some_and(|m| WORK.contains(&m));
    match serde_json::from_slice::<Body>(body) {
        Ok(Body::One(m)) => works(&m),
        Ok(Body::Batch(b)) => b.iter().any(works),
        Err(_) => false,
    }
}

/// Requests one token may have in flight at once, bodies still arriving included.
pub(crate) const REQUESTS_PER_TOKEN: usize = 128;
/// `subscriptions/listen` streams one token may hold open at once.
pub(crate) const STREAMS_PER_TOKEN: usize = 16;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Request,
    Stream,
}

impl Kind {
    fn cap(self) -> usize {
        match self {
            Kind::Request => REQUESTS_PER_TOKEN,
            Kind::Stream => STREAMS_PER_TOKEN,
        }
    }
}

pub(crate) struct Limits {
    held: Mutex<HashMap<(Who, Kind), usize>>,
    /// `CALL_WORKERS` permits: one held by each request doing work, from before its work
    /// starts until it ends (past its deadline's answer too: the worker is still busy).
    pub(crate) work: Arc<Semaphore>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            held: Mutex::default(),
            work: Arc::new(Semaphore::new(CALL_WORKERS)),
        }
    }
}

/// One taken slot; dropping it gives the slot back.
pub(crate) struct Slot {
    limits: Arc<Limits>,
    key: (Who, Kind),
}

impl Limits {
    /// Take a slot of `kind` for `who`, or `None` when it holds its cap already.
    pub(crate) fn take(self: &Arc<Self>, who: &Who, kind: Kind) -> Option<Slot> {
        let key = (who.clone(), kind);
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        let n = held.entry(key.clone()).or_default();
        if *n >= kind.cap() {
            return None;
        }
        *n += 1;
        Some(Slot {
            limits: self.clone(),
            key,
        })
    }

    #[cfg(test)]
    fn held(&self, who: &Who, kind: Kind) -> usize {
        let held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        held.get(&(who.clone(), kind)).copied().unwrap_or(0)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut held = self.limits.held.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = held.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                held.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(name: &str) -> Who {
        Who {
            name: name.into(),
            key: name.into(),
        }
    }

    #[test]
    fn only_requests_that_do_work_take_a_call_worker() {
        for (body, work) in [
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#,
                true,
            ),
            (r#"[{"method":"ping"},{"method":"resources/read"}]"#, true),
            (r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get"}"#, true),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
                false,
            ),
            (r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, false),
            (r#"[{"method":"ping"}]"#, false),
            ("not json", false),
        ] {
            assert_eq!(is_work(body.as_bytes()), work, "{body}");
        }
    }

    #[test]
    fn each_token_has_its_own_cap_and_slots_come_back() {
        let l = Arc::new(Limits::default());
        let a: Vec<Slot> = (0..STREAMS_PER_TOKEN)
            .map(|_| l.take(&who("a"), Kind::Stream).unwrap())
            .collect();
        assert!(l.take(&who("a"), Kind::Stream).is_none(), "a is at its cap");
        assert!(l.take(&who("b"), Kind::Stream).is_some(), "b is not a");
        assert!(
            l.take(&who("a"), Kind::Request).is_some(),
            "requests count apart"
        );
        drop(a);
        assert_eq!(l.held(&who("a"), Kind::Stream), 0);
        assert!(l.take(&who("a"), Kind::Stream).is_some());
    }
}
