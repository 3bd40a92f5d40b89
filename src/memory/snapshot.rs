//! Opening the fleet's mirrored snapshot for a read: a ready snapshot, or why there
//! is none (memory off, never published, unreadable) — never an error.

use crate::config::MemoryMode;
use crate::ctx::Ctx;
use crate::snapshot::Snapshot;

/// The fleet's snapshot, or why there is none to read (never an error).
pub enum Opened {
    Ready(Snapshot),
    /// (enabled, note): `enabled: false` when no snapshot was ever published.
    Unavailable(bool, String),
}

pub fn open_snapshot(ctx: &Ctx, fleet: &str) -> Opened {
    if ctx.config.memory_mode == MemoryMode::Off {
        return Opened::Unavailable(
            false,
            "memory is off (`[memory] mode = \"off\"` in config.toml): no snapshot is read".into(),
        );
    }
    let path = ctx.paths.snapshot_bin(fleet);
    if !path.exists() {
        return Opened::Unavailable(
            false,
            format!(
                "no memory snapshot for fleet `{fleet}` yet: `ctxlake maint` publishes one and `ctxlake sync` mirrors it"
            ),
        );
    }
    match Snapshot::open(&path) {
        Ok(s) => Opened::Ready(s),
        Err(e) => Opened::Unavailable(
            true,
            format!(
                "the snapshot mirror is unreadable ({}); run `ctxlake sync` to fetch it again",
                e.one_line()
            ),
        ),
    }
}

/// The note for a snapshot whose claims are not agent-visible.
pub fn shadow_note(ctx: &Ctx, snap: &Snapshot) -> Option<String> {
    if snap.mode != MemoryMode::On || ctx.config.memory_mode == MemoryMode::Shadow {
        Some(
            "memory is in shadow mode: a snapshot is published but no claim is agent-visible"
                .into(),
        )
    } else {
        None
    }
}
