//! The one error type and the one table that turns it into an exit code.
//! Every failure carries what failed, why, and what to do next (`hint`).

use std::fmt;

/// What kind of failure this is; decides the exit code and the MCP mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A request the user (or agent) can fix was refused: exit 1, MCP `isError: true`.
    Refused,
    /// The command line or tool arguments were malformed: exit 2, MCP invalid params.
    Usage,
    /// Storage, I/O or an internal fault: exit 3.
    Storage,
    /// The user interrupted a prompt: exit 130.
    Interrupted,
}

impl Kind {
    /// The process exit code for this kind. The README's table is pinned to this by a test.
    pub fn exit_code(self) -> u8 {
        match self {
            Kind::Refused => 1,
            Kind::Usage => 2,
            Kind::Storage => 3,
            Kind::Interrupted => 130,
        }
    }
}

/// Exit codes, in the order the README lists them.
pub const EXIT_CODES: &[(u8, &str)] = &[
    (0, "success (also: output pipe closed early)"),
    (
        1,
        "a request was refused or failed on its own terms (bad evidence, contended, spool full, …)",
    ),
    (2, "usage error: bad flags, arguments or ids"),
    (3, "storage, I/O or internal error"),
    (130, "interrupted at a prompt"),
];

#[derive(Debug)]
pub struct Error {
    pub kind: Kind,
    /// Stable machine-readable code, e.g. `evidence_missing`, `fleet_not_accessible`.
    pub code: &'static str,
    pub message: String,
    pub hint: Option<String>,
    pub source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: Kind, code: &'static str, message: impl Into<String>) -> Self {
        Error {
            kind,
            code,
            message: message.into(),
            hint: None,
            source: None,
        }
    }
    pub fn refused(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Kind::Refused, code, message)
    }
    pub fn usage(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Kind::Usage, code, message)
    }
    pub fn storage(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Kind::Storage, code, message)
    }
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
    pub fn source(mut self, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        self.source = Some(Box::new(source));
        self
    }
    /// An I/O failure on `path`, with the OS error as the cause.
    pub fn io(what: &str, path: &std::path::Path, err: std::io::Error) -> Self {
        let hint = match err.kind() {
            std::io::ErrorKind::PermissionDenied => {
                Some(format!("check the permissions of `{}`", path.display()))
            }
            std::io::ErrorKind::StorageFull => Some("free some disk space and retry".into()),
            std::io::ErrorKind::FileTooLarge => {
                Some("a file size limit (`ulimit -f`) was reached; raise it and retry".into())
            }
            _ => None,
        };
        let mut e = Self::storage("io", format!("{what} `{}`", path.display())).source(err);
        e.hint = hint;
        e
    }
    pub fn exit_code(&self) -> u8 {
        self.kind.exit_code()
    }
    /// `message: cause: cause…` on one line, for MCP results and logs.
    pub fn one_line(&self) -> String {
        let mut s = self.message.clone();
        let mut cause: Option<&(dyn std::error::Error + 'static)> =
            self.source.as_deref().map(|e| e as _);
        while let Some(c) = cause {
            s.push_str(": ");
            s.push_str(&c.to_string());
            cause = c.source();
        }
        s
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|e| e as _)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_code_table_is_pinned() {
        assert_eq!(Kind::Refused.exit_code(), 1);
        assert_eq!(Kind::Usage.exit_code(), 2);
        assert_eq!(Kind::Storage.exit_code(), 3);
        assert_eq!(Kind::Interrupted.exit_code(), 130);
        let codes: Vec<u8> = EXIT_CODES.iter().map(|(c, _)| *c).collect();
        assert_eq!(codes, [0, 1, 2, 3, 130]);
    }

    #[test]
    fn one_line_includes_causes() {
        let e = Error::io(
            "cannot read",
            std::path::Path::new("/x"),
            std::io::Error::other("boom"),
        );
        assert_eq!(e.one_line(), "cannot read `/x`: boom");
    }
}
