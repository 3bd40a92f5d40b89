//! Sessions of the handshake era (2025-03-26 … 2025-11-25): `initialize` opens one and the
//! server answers with its `Mcp-Session-Id`; later requests name it; DELETE or idleness ends it.
//! A session is bound to the URL it was opened on and to the token that opened it: another
//! fleet's URL or another token gets 404, and when its token is revoked it is gone.
//! Each token has its own cap, so one client opening sessions ends only its own oldest.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::auth::Who;
use crate::mcp::protocol::Era;
use crate::tools::Ctx;

/// Live sessions per token; opening one more ends that token's least recently used one.
pub(crate) const PER_TOKEN: usize = 256;
/// Live sessions in all; beyond, `initialize` is refused (never someone else's session ended).
const MAX_SESSIONS: usize = 4096;
/// A session nobody used for this long is ended (its id then gets 404, as after DELETE).
const IDLE: Duration = Duration::from_secs(3600);

#[derive(Clone)]
pub(crate) struct Session {
    /// The endpoint it was opened on (`/mcp` or `/mcp/<fleet>`).
    pub(crate) endpoint: String,
    pub(crate) era: Era,
    /// The context its calls run in: the token's agent and grant, own session id, the pin.
    pub(crate) ctx: Arc<Ctx>,
    who: Who,
    last_used: Instant,
}

/// Why no session was opened.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// Every token together holds [`MAX_SESSIONS`].
    Full,
    /// The OS gave no randomness for an id.
    NoId,
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

    /// Open a session for `who`; returns its id (secure random, visible ASCII). Sessions
    /// idle too long, or whose token is gone (`live` says no), are dropped first.
    pub(crate) fn open(
        &self,
        endpoint: &str,
        era: Era,
        ctx: Arc<Ctx>,
        who: &Who,
        live: impl Fn(&Who) -> bool,
    ) -> Result<String, Refused> {
        let id = new_id().ok_or(Refused::NoId)?;
        let now = Instant::now();
        let mut map = self.lock();
        map.retain(|_, s| now.duration_since(s.last_used) < IDLE && live(&s.who));
        let own = map.values().filter(|s| s.who == *who).count();
        if own >= PER_TOKEN {
            let oldest = map
                .iter()
                .filter(|(_, s)| s.who == *who)
                .min_by_key(|(_, s)| s.last_used)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                map.remove(&k);
            }
        } else if map.len() >= MAX_SESSIONS {
            return Err(Refused::Full);
        }
        let session = Session {
            endpoint: endpoint.to_string(),
            era,
            ctx,
            who: who.clone(),
            last_used: now,
        };
        map.insert(id.clone(), session);
        Ok(id)
    }

    /// The live session `id` that `who` opened on `endpoint`, marked as used.
    pub(crate) fn get(&self, id: &str, endpoint: &str, who: &Who) -> Option<Session> {
        let now = Instant::now();
        let mut map = self.lock();
        let s = map.get_mut(id)?;
        if now.duration_since(s.last_used) >= IDLE {
            map.remove(id);
            return None;
        }
        if s.endpoint != endpoint || s.who != *who {
            return None;
        }
        s.last_used = now;
        Some(s.clone())
    }

    /// End a session `who` opened on `endpoint`; false when there is none.
    pub(crate) fn end(&self, id: &str, endpoint: &str, who: &Who) -> bool {
        let mut map = self.lock();
        match map.get(id) {
            Some(s) if s.endpoint == endpoint && s.who == *who => map.remove(id).is_some(),
            _ => false,
        }
    }

    /// Drop every session whose token is gone; true when any went.
    pub(crate) fn sweep(&self, live: impl Fn(&Who) -> bool) -> bool {
        let mut map = self.lock();
        let before = map.len();
        map.retain(|_, s| live(&s.who));
        map.len() != before
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

    fn who(n: &str) -> Who {
        Who {
            name: n.into(),
            key: format!("k-{n}"),
        }
    }

    const ERA: Era = Era::Handshake(Version::V2025_06_18);

    #[test]
    fn sessions_are_bound_to_their_endpoint_and_token_and_end() {
        let s = Sessions::default();
        let a = who("a");
        let id = s.open("/mcp/a", ERA, ctx(), &a, |_| true).unwrap();
        assert_eq!(id.len(), 32);
        assert!(id.bytes().all(|b| (0x21..=0x7e).contains(&b)));
        assert_eq!(s.get(&id, "/mcp/a", &a).map(|x| x.era), Some(ERA));
        assert!(s.get(&id, "/mcp/b", &a).is_none(), "another endpoint");
        assert!(s.get(&id, "/mcp/a", &who("b")).is_none(), "another token");
        assert!(!s.end(&id, "/mcp/a", &who("b")));
        assert!(s.end(&id, "/mcp/a", &a));
        assert!(s.get(&id, "/mcp/a", &a).is_none());
    }

    #[test]
    fn a_token_at_its_cap_ends_its_own_oldest_never_anothers() {
        let s = Sessions::default();
        let b = s.open("/mcp", ERA, ctx(), &who("b"), |_| true).unwrap();
        let first = s.open("/mcp", ERA, ctx(), &who("a"), |_| true).unwrap();
        for _ in 0..PER_TOKEN + 10 {
            s.open("/mcp", ERA, ctx(), &who("a"), |_| true).unwrap();
        }
        assert_eq!(s.len(), PER_TOKEN + 1);
        assert!(s.get(&b, "/mcp", &who("b")).is_some(), "b's session lives");
        assert!(
            s.get(&first, "/mcp", &who("a")).is_none(),
            "a's oldest went"
        );
        assert!(s.sweep(|w| w.name != "a"), "a's token revoked");
        assert_eq!(s.len(), 1);
    }
}
