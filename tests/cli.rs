//! The one integration-test binary: every area is a module below, each test runs the
//! real `ctxlake` binary in a sealed temporary HOME.

#![allow(clippy::unwrap_used)]

#[path = "cli/common.rs"]
mod common;
#[path = "cli/install.rs"]
mod install;
