//! The token store, `mcp-tokens.json` (mode 0600): every principal with the SHA-256 of its
//! secret, never a secret. Changed only under a lock file and written atomically, so two
//! `token new` at once both land and a reader never sees half a file. The server re-reads
//! it whenever it changed, so `new` and `revoke` take effect at once.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::principal::{OWNER, Principal, Role, Who, validate_name};
use super::token;
use crate::error::{Error, Result};

/// The file's format marker: a build that finds another refuses instead of guessing.
const FORMAT: u32 = 1;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Store {
    pub format: u32,
    pub tokens: Vec<Principal>,
}

/// What `ctxlake mcp token new` asks for.
#[derive(Debug, Clone)]
pub struct NewToken {
    pub name: String,
    /// `None`: the token's name (the owner's: the server's agent).
    pub agent: Option<String>,
    pub fleets: Vec<String>,
    pub role: Role,
}

impl Store {
    /// The store at `path`; `None` when it was never created (no file). A file that does not
    /// parse is an error, so a broken store fails closed instead of opening the server.
    pub fn load(path: &Path) -> Result<Option<Store>> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io("cannot read the token store", path, e)),
        };
        let store: Store = serde_json::from_slice(&bytes).map_err(|e| {
            Error::storage(
                "token_store_invalid",
                format!("the token store `{}` is not valid: {e}", path.display()),
            )
            .hint("move it away and make the tokens again (`ctxlake mcp token new NAME`)")
        })?;
        if store.format != FORMAT {
            return Err(Error::storage(
                "token_store_invalid",
                format!(
                    "the token store `{}` has format {}, this build reads {FORMAT}",
                    path.display(),
                    store.format
                ),
            )
            .hint("use the ctxlake that wrote it, or make the tokens again"));
        }
        Ok(Some(store))
    }

    /// The principal whose secret was presented. Every stored hash is compared, each in
    /// constant time, so the answer's timing says nothing about which one matched.
    pub fn find(&self, secret: &str) -> Option<&Principal> {
        let presented = token::hash(secret);
        let mut found = None;
        for p in &self.tokens {
            if token::matches(&presented, &p.sha256) && found.is_none() {
                found = Some(p);
            }
        }
        found
    }

    pub fn get(&self, name: &str) -> Option<&Principal> {
        self.tokens.iter().find(|p| p.name == name)
    }

    /// Whether the token a session or a login was bound to still exists unchanged.
    pub fn holds(&self, who: &Who) -> bool {
        self.get(&who.name).is_some_and(|p| p.sha256 == who.key)
    }
}

/// Create the store with its owner token when there is none; true when it was created.
/// The owner's secret is not kept or shown anywhere: clients get tokens of their own.
pub fn init(path: &Path, now: &str) -> Result<bool> {
    let _lock = lock(path)?;
    if Store::load(path)?.is_some() {
        return Ok(false);
    }
    let store = Store {
        format: FORMAT,
        tokens: vec![owner(&token::mint()?, now)],
    };
    save(path, &store)?;
    Ok(true)
}

fn owner(secret: &str, now: &str) -> Principal {
    Principal {
        name: OWNER.into(),
        sha256: token::hash(secret),
        agent: None,
        fleets: Vec::new(),
        role: Role::ReadWrite,
        created: now.into(),
    }
}

/// Add a token; returns it and its secret (the only time the secret exists outside the
/// caller's hands). A store made here starts with its owner token, as `init` makes it.
pub fn add(path: &Path, new: NewToken, now: &str) -> Result<(Principal, String)> {
    validate_name(&new.name)?;
    if let Some(a) = &new.agent {
        crate::scope::validate_id("agent", a)?;
    }
    for f in &new.fleets {
        crate::scope::validate_id("fleet", f)?;
    }
    let _lock = lock(path)?;
    let mut store = match Store::load(path)? {
        Some(s) => s,
        None => Store {
            format: FORMAT,
            tokens: vec![owner(&token::mint()?, now)],
        },
    };
    if store.get(&new.name).is_some() {
        return Err(Error::refused(
            "token_exists",
            format!("a token named `{}` exists", new.name),
        )
        .hint(format!(
            "pick another name, or `ctxlake mcp token revoke {}` first",
            new.name
        )));
    }
    let secret = token::mint()?;
    let mut fleets = new.fleets;
    fleets.sort();
    fleets.dedup();
    let agent = match new.agent {
        Some(a) => Some(a),
        None if new.name == OWNER => None,
        None => Some(new.name.clone()),
    };
    let p = Principal {
        sha256: token::hash(&secret),
        name: new.name,
        agent,
        fleets,
        role: new.role,
        created: now.into(),
    };
    store.tokens.push(p.clone());
    save(path, &store)?;
    Ok((p, secret))
}

/// Remove the token `name`: every call, session, stream and login made with it stops.
pub fn revoke(path: &Path, name: &str) -> Result<Principal> {
    let _lock = lock(path)?;
    let mut store = Store::load(path)?.unwrap_or_default();
    let Some(i) = store.tokens.iter().position(|p| p.name == name) else {
        return Err(
            Error::refused("no_such_token", format!("there is no token named `{name}`"))
                .hint("`ctxlake mcp token list` shows them"),
        );
    };
    let gone = store.tokens.remove(i);
    store.format = FORMAT;
    save(path, &store)?;
    Ok(gone)
}

fn save(path: &Path, store: &Store) -> Result<()> {
    let mut text = serde_json::to_vec_pretty(store).map_err(|e| {
        Error::internal("token_store_encode", "cannot encode the token store").source(e)
    })?;
    text.push(b'\n');
    crate::fsutil::write_atomic(path, &text, 0o600)?;
    // write_atomic keeps an existing file's mode: force 0600 whatever it was.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| Error::io("cannot set mode of", path, e))
}

/// Changes to the store are serialised by an exclusive lock on a file beside it.
fn lock(path: &Path) -> Result<std::fs::File> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io("cannot create directory", dir, e))?;
    }
    let lock_path = path.with_extension("lock");
    let f = crate::fsutil::open_lock(&lock_path)?;
    f.lock()
        .map_err(|e| Error::io("cannot lock the token store", &lock_path, e))?;
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    const NOW: &str = "2026-01-01T00:00:00Z";

    fn new(name: &str, role: Role) -> NewToken {
        NewToken {
            name: name.into(),
            agent: None,
            fleets: vec!["b".into(), "a".into(), "a".into()],
            role,
        }
    }

    #[test]
    fn tokens_are_stored_hashed_in_a_private_file_and_found_by_secret() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp-tokens.json");
        assert_eq!(Store::load(&path).unwrap(), None);
        let (p, secret) = add(&path, new("ci", Role::ReadOnly), NOW).unwrap();
        assert_eq!((p.agent.as_deref(), p.fleets.len()), (Some("ci"), 2));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains(&secret), "never the secret");
        assert!(text.contains(&token::hash(&secret)));
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let store = Store::load(&path).unwrap().unwrap();
        let names: Vec<&str> = store.tokens.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, [OWNER, "ci"], "a new store starts with its owner");
        assert_eq!(store.find(&secret).map(|p| p.name.as_str()), Some("ci"));
        assert!(store.find(&"0".repeat(64)).is_none());
        assert!(store.holds(&p.who()));
        let e = add(&path, new("ci", Role::ReadWrite), NOW).unwrap_err();
        assert_eq!(e.code, "token_exists");
        assert!(!init(&path, NOW).unwrap(), "init keeps an existing store");
    }

    #[test]
    fn revoke_removes_one_and_a_token_made_again_is_someone_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp-tokens.json");
        assert!(init(&path, NOW).unwrap());
        let (old, _) = add(&path, new("ci", Role::ReadWrite), NOW).unwrap();
        assert_eq!(revoke(&path, "ci").unwrap().name, "ci");
        assert_eq!(revoke(&path, "ci").unwrap_err().code, "no_such_token");
        let (again, _) = add(&path, new("ci", Role::ReadWrite), NOW).unwrap();
        let store = Store::load(&path).unwrap().unwrap();
        assert!(!store.holds(&old.who()) && store.holds(&again.who()));
        revoke(&path, OWNER).unwrap();
        assert!(
            !init(&path, NOW).unwrap(),
            "a revoked owner is not made again"
        );
    }

    #[test]
    fn a_broken_store_is_an_error_never_an_empty_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp-tokens.json");
        std::fs::write(&path, "{not json").unwrap();
        assert_eq!(Store::load(&path).unwrap_err().code, "token_store_invalid");
        std::fs::write(&path, r#"{"format": 9, "tokens": []}"#).unwrap();
        assert_eq!(Store::load(&path).unwrap_err().code, "token_store_invalid");
        assert!(add(&path, new("x", Role::ReadWrite), NOW).is_err());
    }
}
