//! The read boundary: every value read from the cache or the snapshot passes one typed
//! cleaning step ([`Clean`]) inside its reader, right after decoding, so no caller can
//! skip it. Every string is sanitized and bounded (`sanitize::clean`): other agents wrote it.

use crate::sanitize::{MAX_FIELD_CHARS, clean_cow};

/// Every string of a read row type, cleaned in place. Typed, so a large roster is parsed
/// once, not as a `Value`.
pub trait Clean {
    fn clean(&mut self);
}

/// Clean one string in place; no allocation when nothing changes (the common case).
pub(crate) fn clean_str(s: &mut String) {
    if let std::borrow::Cow::Owned(c) = clean_cow(s, MAX_FIELD_CHARS) {
        *s = c;
    }
}

pub(crate) fn clean_opt(s: &mut Option<String>) {
    if let Some(s) = s {
        clean_str(s);
    }
}

/// [`clean_str`] for text borrowed from a file's bytes: stays borrowed when unchanged.
pub(crate) fn clean_borrowed(s: &mut std::borrow::Cow<'_, str>) {
    if let std::borrow::Cow::Owned(c) = clean_cow(s, MAX_FIELD_CHARS) {
        *s = std::borrow::Cow::Owned(c);
    }
}

impl<T: Clean> Clean for Vec<T> {
    fn clean(&mut self) {
        self.iter_mut().for_each(Clean::clean);
    }
}
