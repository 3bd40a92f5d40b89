//! Per-token caps: requests in flight (body included) and open event streams. One client
//! holding its share never takes another token's: a cap is counted per token, and a slot
//! is given back when its guard is dropped (the request answered, the stream closed).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::auth::Who;

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

#[derive(Default)]
pub(crate) struct Limits {
    held: Mutex<HashMap<(Who, Kind), usize>>,
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
