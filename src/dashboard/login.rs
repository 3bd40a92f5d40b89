//! The dashboard's browser login: `ctxlake mcp token show --link` signs a short-lived,
//! single-use link with the owner token's key (HMAC-SHA256 keyed by the hash the token store
//! keeps, so the CLI needs no channel to the server and no secret is kept anywhere); the
//! server checks it once, then keeps a random cookie session in memory. Sessions die with
//! the token they were issued under (revoke it and every cookie stops). Used links are
//! written down until they expire, so a restart cannot make one valid again.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use sha2::{Digest, Sha256};

use crate::auth::Who;

/// How long a printed link may wait before it is opened.
pub(crate) const LINK_TTL_SECS: i64 = 600;
/// How long a browser stays logged in after opening a link.
pub(crate) const SESSION_TTL_SECS: i64 = 12 * 3600;
/// The cookie's name; its value is a random session id, never the token.
pub(crate) const COOKIE: &str = "ctxlake_dash";
/// Domain separation: a login signature is never a valid anything-else.
const LABEL: &str = "ctxlake-dashboard-login-v1";

/// HMAC-SHA256 (RFC 2104) by hand: sha2 is already here and a crate for 15 lines is not.
fn hmac(key: &[u8], msg: &[u8]) -> [u8; 32] {
    let mut k = [0u8; 64];
    if key.len() > 64 {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let pad = |b: u8| k.map(|x| x ^ b);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(msg)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

fn signature(token: &str, to: &str, exp: i64, nonce: &str) -> String {
    let msg = format!("{LABEL}\n{to}\n{exp}\n{nonce}");
    crate::digest::hex(&hmac(token.as_bytes(), msg.as_bytes()))
}

/// Whether `to` is a page a login may land on: `/` or `/fleet/<fleet>` (never another site).
/// Fleet names here are plain (`[A-Za-z0-9._-]`) so the value needs no escaping in a query.
pub(crate) fn landing_ok(to: &str) -> bool {
    to == "/"
        || to.strip_prefix("/fleet/").is_some_and(|f| {
            crate::scope::validate_id("fleet", f).is_ok()
                && f.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        })
}

/// The query string of a fresh link to `to` (`to=…&exp=…&n=…&sig=…`), valid for
/// [`LINK_TTL_SECS`] from `now_secs`.
pub(crate) fn link_query(token: &str, to: &str, now_secs: i64) -> crate::error::Result<String> {
    let mut raw = [0u8; 16];
    getrandom::fill(&mut raw).map_err(|e| {
        crate::error::Error::storage("io", format!("no randomness for a login link: {e}"))
    })?;
    let nonce = crate::digest::hex(&raw);
    let exp = now_secs + LINK_TTL_SECS;
    let sig = signature(token, to, exp, &nonce);
    Ok(format!("to={to}&exp={exp}&n={nonce}&sig={sig}"))
}

/// A parsed `/login` query.
pub(crate) struct LinkQuery<'a> {
    pub(crate) to: &'a str,
    exp: i64,
    nonce: &'a str,
    sig: &'a str,
}

pub(crate) fn parse_query(q: &str) -> Option<LinkQuery<'_>> {
    let (mut to, mut exp, mut nonce, mut sig) = (None, None, None, None);
    for pair in q.split('&') {
        match pair.split_once('=')? {
            ("to", v) => to = Some(v),
            ("exp", v) => exp = v.parse().ok(),
            ("n", v) => nonce = Some(v),
            ("sig", v) => sig = Some(v),
            _ => return None,
        }
    }
    Some(LinkQuery {
        to: to?,
        exp: exp?,
        nonce: nonce?,
        sig: sig?,
    })
}

/// Used link nonces (also on disk) and live cookie sessions (in memory: a restart logs
/// browsers out).
#[derive(Default)]
pub(crate) struct Logins {
    inner: Mutex<State>,
    /// Where used nonces are written; `None` keeps them in memory only (tests).
    file: Option<PathBuf>,
}

#[derive(Default)]
struct State {
    /// nonce → the link's expiry (kept until then, so it cannot be replayed).
    used: HashMap<String, i64>,
    /// session id → (expiry, the token it was issued under).
    sessions: HashMap<String, (i64, Who)>,
}

impl Logins {
    /// Logins whose used nonces live in `file` (read now; unreadable means none were used,
    /// and the next redeem rewrites it).
    pub(crate) fn open(file: PathBuf) -> Logins {
        let used = std::fs::read(&file)
            .ok()
            .and_then(|b| serde_json::from_slice::<HashMap<String, i64>>(&b).ok())
            .unwrap_or_default();
        Logins {
            inner: Mutex::new(State {
                used,
                sessions: HashMap::new(),
            }),
            file: Some(file),
        }
    }

    /// Check a link once: signed with `key` (the owner token's), not expired, not used. On
    /// success a new session id for the cookie, bound to `who`. A nonce that cannot be
    /// written down is refused: a restart must never make a used link valid again.
    pub(crate) fn redeem(
        &self,
        key: &str,
        who: Who,
        q: &LinkQuery,
        now_secs: i64,
    ) -> Option<String> {
        let fresh = q.exp >= now_secs && q.exp <= now_secs + LINK_TTL_SECS + 60;
        let expected = signature(key, q.to, q.exp, q.nonce);
        if !fresh || !landing_ok(q.to) || !crate::auth::token::matches(q.sig, &expected) {
            return None;
        }
        let mut raw = [0u8; 32];
        getrandom::fill(&mut raw).ok()?;
        let sid = crate::digest::hex(&raw);
        let mut st = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        st.used.retain(|_, exp| *exp >= now_secs);
        st.sessions.retain(|_, (exp, _)| *exp >= now_secs);
        if st.used.insert(q.nonce.to_string(), q.exp).is_some() {
            return None;
        }
        if let Some(file) = &self.file {
            let bytes = serde_json::to_vec(&st.used).ok()?;
            crate::fsutil::write_atomic(file, &bytes, 0o600).ok()?;
        }
        st.sessions
            .insert(sid.clone(), (now_secs + SESSION_TTL_SECS, who));
        Some(sid)
    }

    /// The token a cookie's live session was issued under (the caller checks it still exists).
    pub(crate) fn session(&self, sid: &str, now_secs: i64) -> Option<Who> {
        let st = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        st.sessions
            .get(sid)
            .filter(|(exp, _)| *exp >= now_secs)
            .map(|(_, who)| who.clone())
    }
}

/// The session id in a `Cookie:` header, if ours is there.
pub(crate) fn cookie_session(header: Option<&str>) -> Option<&str> {
    header?
        .split(';')
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn hmac_matches_rfc_4231_case_2() {
        let mac = hmac(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(
            crate::digest::hex(&mac),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    fn owner() -> Who {
        Who {
            name: "owner".into(),
            key: T.into(),
        }
    }

    #[test]
    fn a_link_works_once_and_only_with_its_key_and_target() {
        let l = Logins::default();
        let q = link_query(T, "/fleet/team", 1000).unwrap();
        let parsed = parse_query(&q).unwrap();
        let other = "f".repeat(64);
        assert!(
            l.redeem(&other, owner(), &parsed, 1000).is_none(),
            "another key"
        );
        let sid = l.redeem(T, owner(), &parsed, 1000).expect("first use");
        assert_eq!(l.session(&sid, 1001), Some(owner()));
        assert_eq!(l.session(&sid, 1000 + SESSION_TTL_SECS + 1), None);
        assert!(l.redeem(T, owner(), &parsed, 1001).is_none(), "single use");
        let q2 = link_query(T, "/", 1000).unwrap();
        let p2 = parse_query(&q2).unwrap();
        assert!(
            l.redeem(T, owner(), &p2, 1000 + LINK_TTL_SECS + 1)
                .is_none(),
            "expired"
        );
        let forged = q2.replace("to=/", "to=/fleet/other");
        assert!(
            l.redeem(T, owner(), &parse_query(&forged).unwrap(), 1000)
                .is_none()
        );
    }

    #[test]
    fn a_used_link_stays_used_after_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("state/nonces.json");
        let q = link_query(T, "/", 1000).unwrap();
        let parsed = parse_query(&q).unwrap();
        assert!(
            Logins::open(file.clone())
                .redeem(T, owner(), &parsed, 1000)
                .is_some()
        );
        let restarted = Logins::open(file.clone());
        assert!(restarted.redeem(T, owner(), &parsed, 1001).is_none());
        std::fs::remove_file(&file).unwrap();
        std::fs::create_dir(&file).unwrap();
        let q3 = link_query(T, "/", 1000).unwrap();
        let unwritable = Logins::open(file);
        assert!(
            unwritable
                .redeem(T, owner(), &parse_query(&q3).unwrap(), 1000)
                .is_none(),
            "a nonce that cannot be written down is refused"
        );
    }

    #[test]
    fn landings_and_cookies() {
        assert!(landing_ok("/") && landing_ok("/fleet/a-b.c"));
        for bad in [
            "//evil.example",
            "/fleet/",
            "/fleet/a/b",
            "http://x",
            "/mcp",
        ] {
            assert!(!landing_ok(bad), "{bad}");
        }
        assert_eq!(cookie_session(Some("a=1; ctxlake_dash=xy ")), Some("xy"));
        assert_eq!(cookie_session(Some("ctxlake_dashx=1")), None);
    }
}
