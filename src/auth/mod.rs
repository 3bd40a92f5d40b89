//! Who may call the HTTP server: its bearer tokens, kept in a `0600` file under
//! `CTXLAKE_HOME` and compared in constant time.

pub mod token;
