//! Sessions of the handshake era (2025-03-26 … 2025-11-25): `initialize` opens one and the
//! server answers with its `Mcp-Session-Id`; later requests name it; DELETE or idleness ends it.
//! A session is bound to the URL it was opened on, so a pinned fleet's session id is useless
//! on another fleet's URL.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::mcp::protocol::Era;
use crate::tools::Ctx;

/// At most this many live sessions; opening one more ends the least recently used.
const MAX_SESSIONS: usize = 1024;
/// A session nobody used for this long is ended (its id then gets 404, as after DELETE).
const IDLE: Duration = Duration::from_secs(3600);

#[derive(Clone)]
pub(crate) struct Session {
    /// The endpoint it was opened on (`/mcp` or `/mcp/<fleet>`).
    pub(crate) endpoint: String,
    pub(crate) era: Era,
    /// The context its calls run in: own session id, the endpoint's pin.
    pub(crate) ctx: Arc<Ctx>,
    last_used: Instant,
}

#[derive(Default)]
pub(crate) struct Sessions {
    map: Mutex<HashMap<String, Session>>,
}

impl Sessions {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Session>> {
        // A panic while holding the lock cannot leave the map half-updated: every change
        // is a single insert or remove, so a poisoned lock is still consistent.
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Open a session; returns its id (secure random, visible ASCII).
    pub(crate) fn open(&self, endpoint: &str, era: Era, ctx: Arc<Ctx>) -> Option<String> {
        let id = new_id()?;
        let now = Instant::now();
        let mut map = self.lock();
        map.retain(|_, s| now.duration_since(s.last_used) < IDLE);
        if map.len() >= MAX_SESSIONS
            && let Some(oldest) = map
                .iter()
                .min_by_key(|(_, s)| s.last_used)
                .map(|(k, _)| k.clone())
        {
            map.remove(&oldest);
        }
        let session = Session {
            endpoint: endpoint.to_string(),
            era,
            ctx,
            last_used: now,
        };
        map.insert(id.clone(), session);
        Some(id)
    }

    /// The live session `id` opened on `endpoint`, marked as used.
    pub(crate) fn get(&self, id: &str, endpoint: &str) -> Option<Session> {
        let now = Instant::now();
        let mut map = self.lock();
        let s = map.get_mut(id)?;
        if now.duration_since(s.last_used) >= IDLE {
            map.remove(id);
            return None;
        }
        if s.endpoint != endpoint {
            return None;
        }
        s.last_used = now;
        Some(s.clone())
    }

    /// End a session opened on `endpoint`; false when there is none.
    pub(crate) fn end(&self, id: &str, endpoint: &str) -> bool {
        let mut map = self.lock();
        match map.get(id) {
            Some(s) if s.endpoint == endpoint => map.remove(id).is_some(),
            _ => false,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }
}

/// 32 hex digits from the OS generator: unguessable and visible ASCII (0x21–0x7E).
fn new_id() -> Option<String> {
    let mut raw = [0u8; 16];
    getrandom::fill(&mut raw).ok()?;
    Some(crate::digest::hex(&raw))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::protocol::Version;

    fn ctx() -> Arc<Ctx> {
        Arc::new(crate::mcp::tests::ctx(
            std::path::Path::new("/nonexistent"),
            None,
        ))
    }

    #[test]
    fn sessions_open_are_bound_to_their_endpoint_and_end() {
        let s = Sessions::default();
        let era = Era::Handshake(Version::V2025_06_18);
        let id = s.open("/mcp/a", era, ctx()).unwrap();
        assert_eq!(id.len(), 32);
        assert!(id.bytes().all(|b| (0x21..=0x7e).contains(&b)));
        assert_eq!(s.get(&id, "/mcp/a").map(|x| x.era), Some(era));
        assert!(
            s.get(&id, "/mcp/b").is_none(),
            "another endpoint cannot use it"
        );
        assert!(!s.end(&id, "/mcp/b"));
        assert!(s.end(&id, "/mcp/a"));
        assert!(s.get(&id, "/mcp/a").is_none());
        assert_ne!(s.open("/mcp", era, ctx()), s.open("/mcp", era, ctx()));
        assert_eq!(s.len(), 2);
    }
}
