//! Editing `config.toml` as a document: parse it with a clear error, write the first one,
//! set one string and keep everything else as the user wrote it.

use std::path::Path;

use toml_edit::{DocumentMut, Item, value};

use super::{DEFAULT_SPOOL_MAX_BYTES, MemoryMode};
use crate::error::{Error, Result};

pub fn parse_doc(text: &str, path: &Path) -> Result<DocumentMut> {
    text.parse::<DocumentMut>().map_err(|e| {
        Error::usage(
            "invalid_config",
            format!("`{}` is not valid TOML", path.display()),
        )
        .source(e)
        .hint("fix the file, or move it aside and run `ctxlake init`")
    })
}

/// The text `ctxlake init` writes on a fresh machine.
pub fn template(fleet: &str, agent: &str, store: &str, mode: MemoryMode) -> String {
    format!(
        "# ctxlake configuration. Edit freely: ctxlake keeps your comments.\n\
         # Precedence for fleet and agent: --flag > CTXLAKE_FLEET_ID/CTXLAKE_AGENT_ID > this file.\n\
         # Secrets never go here: name an environment variable instead.\n\
         fleet = {}\nagent = {}\n# Where the fleet's shared state lives (file:// for one machine).\nstore = {}\n\n\
         [memory]\n# on: promoted claims are visible; shadow: published but hidden; off: no snapshot.\nmode = {}\n\n\
         [limits]\nspool_max_bytes = {DEFAULT_SPOOL_MAX_BYTES}\n\n[hooks]\n\
         # Block an edit of a path another agent leases (default: warn only).\nblock_on_conflict = false\n",
        value(fleet),
        value(agent),
        value(store),
        value(mode.as_str()),
    )
}

/// Set top-level `key` (or `table.key`) to a string, keeping everything else as written.
pub fn set_string(doc: &mut DocumentMut, table: Option<&str>, key: &str, v: &str) {
    let target = match table {
        None => doc.as_table_mut(),
        Some(t) => {
            if !doc.contains_table(t) {
                doc[t] = toml_edit::table();
            }
            match doc[t].as_table_mut() {
                Some(t) => t,
                None => return,
            }
        }
    };
    match target.get_mut(key).and_then(Item::as_value_mut) {
        // Keep the decor (comments after the value) of an existing key.
        Some(existing) => {
            let decor = existing.decor().clone();
            *existing = v.into();
            *existing.decor_mut() = decor;
        }
        None => {
            target.insert(key, value(v));
        }
    }
}
