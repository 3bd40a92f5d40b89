//! The history domain: what happened in each session, folded from its hook events into a
//! digest (start and end, outcome, files touched, commands and tests run); and reading
//! the transcripts runtimes keep on disk (`import`).

pub mod digest;
pub mod import;
