//! Who may call the HTTP server: token principals (name, agent, fleets, role), stored only
//! as SHA-256 hashes in one `0600` file under `CTXLAKE_HOME`, compared in constant time.

pub mod principal;
pub mod store;
pub mod token;

pub use principal::{OWNER, Principal, Role, Who};
pub use store::Store;
