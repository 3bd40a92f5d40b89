//! Who is calling: the `Authorization` header checked against the token store (re-read
//! whenever the file changed, so `token new` and `revoke` take effect on the next request),
//! giving the caller whose context every call runs in. `--no-auth` has one caller, anonymous.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::auth::{Principal, Store, Who, token};
use crate::ctx::Ctx;

/// Who a request came from.
#[derive(Debug, Clone)]
pub(crate) enum Caller {
    Token(Principal),
    /// `--no-auth`: the server's own agent, every fleet.
    Anonymous,
}

impl Caller {
    pub(crate) fn who(&self) -> Who {
        match self {
            Caller::Token(p) => p.who(),
            Caller::Anonymous => Who::anonymous(),
        }
    }

    /// The context this caller's calls run in.
    pub(crate) fn ctx(&self, base: &Ctx) -> Ctx {
        match self {
            Caller::Token(p) => p.ctx(base),
            Caller::Anonymous => base.clone(),
        }
    }
}

/// Why a request was refused (401): said to the client, never which token was close.
pub(crate) enum Denied {
    /// No `Authorization: Bearer`, or one no stored token matches.
    NoToken,
    /// The store cannot be read: nobody gets in.
    Broken,
}

/// What changes when the store file is replaced (atomic writes always change the inode).
type Stamp = (u64, u64, u64, i64, i64);

pub(crate) struct Gate {
    path: PathBuf,
    no_auth: bool,
    cache: Mutex<Option<(Stamp, Arc<Store>)>>,
}

impl Gate {
    pub(crate) fn new(path: PathBuf, no_auth: bool) -> Gate {
        Gate {
            path,
            no_auth,
            cache: Mutex::new(None),
        }
    }

    pub(crate) fn no_auth(&self) -> bool {
        self.no_auth
    }

    /// The store as it is on disk now (a `stat` per call; a read only when it changed). A
    /// missing file is an empty store: every token was removed with it.
    pub(crate) fn store(&self) -> crate::error::Result<Arc<Store>> {
        use std::os::unix::fs::MetadataExt;
        let stamp = match std::fs::metadata(&self.path) {
            Ok(m) => (m.dev(), m.ino(), m.len(), m.mtime_nsec(), m.ctime_nsec()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (0, 0, 0, 0, 0),
            Err(e) => return Err(crate::error::Error::io("cannot read", &self.path, e)),
        };
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((s, store)) = cache.as_ref()
            && *s == stamp
        {
            return Ok(store.clone());
        }
        let store = Arc::new(Store::load(&self.path)?.unwrap_or_default());
        *cache = Some((stamp, store.clone()));
        Ok(store)
    }

    /// The caller an `Authorization` header names.
    pub(crate) fn caller(&self, authorization: Option<&str>) -> Result<Caller, Denied> {
        if self.no_auth {
            return Ok(Caller::Anonymous);
        }
        let store = self.store().map_err(|_| Denied::Broken)?;
        let presented = token::bearer(authorization).ok_or(Denied::NoToken)?;
        store
            .find(presented)
            .cloned()
            .map(Caller::Token)
            .ok_or(Denied::NoToken)
    }

    /// Whether what `who` opened (a session, a stream, a login) may still be used: its
    /// token still exists unchanged. A store that cannot be read keeps nothing alive.
    pub(crate) fn holds(&self, who: &Who) -> bool {
        if self.no_auth {
            return *who == Who::anonymous();
        }
        self.store().is_ok_and(|s| s.holds(who))
    }

    /// [`Gate::holds`] for many at once, against one reading of the store.
    pub(crate) fn live(&self) -> Box<dyn Fn(&Who) -> bool + Send + Sync> {
        if self.no_auth {
            return Box::new(|who| *who == Who::anonymous());
        }
        match self.store() {
            Ok(store) => Box::new(move |who| store.holds(who)),
            Err(_) => Box::new(|_| false),
        }
    }

    /// The principal `who` names, if its token still exists unchanged.
    pub(crate) fn principal(&self, who: &Who) -> Option<Principal> {
        let store = self.store().ok()?;
        store
            .get(&who.name)
            .filter(|p| p.sha256 == who.key)
            .cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::Role;
    use crate::auth::store::{NewToken, add, revoke};

    #[test]
    fn a_new_or_revoked_token_counts_on_the_next_request() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp-tokens.json");
        let gate = Gate::new(path.clone(), false);
        assert!(matches!(gate.caller(None), Err(Denied::NoToken)));
        let new = NewToken {
            name: "ci".into(),
            agent: None,
            fleets: vec![],
            role: Role::ReadWrite,
        };
        let (p, secret) = add(&path, new, "2026-01-01T00:00:00Z").unwrap();
        let bearer = format!("Bearer {secret}");
        let Ok(Caller::Token(got)) = gate.caller(Some(&bearer)) else {
            panic!("the new token is accepted at once");
        };
        assert_eq!(got.name, "ci");
        assert!(gate.holds(&p.who()));
        revoke(&path, "ci").unwrap();
        assert!(matches!(gate.caller(Some(&bearer)), Err(Denied::NoToken)));
        assert!(!gate.holds(&p.who()), "what it opened dies with it");
        std::fs::write(&path, "{broken").unwrap();
        assert!(matches!(gate.caller(Some(&bearer)), Err(Denied::Broken)));
        let open = Gate::new(path, true);
        assert!(matches!(open.caller(None), Ok(Caller::Anonymous)));
    }
}
