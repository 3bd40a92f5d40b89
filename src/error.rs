//! The one error type and the one table that turns it into an exit code.
//! Every failure carries what failed, why, and what to do next (`hint`).

use std::fmt;

/// What kind of failure this is; decides the exit code and the MCP mapping, both in
/// [`TABLE`], which the README's "Exit codes and error kinds" table is pinned to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A request the user (or agent) can fix was refused on its own terms.
    Refused,
    /// `ctxlake doctor`: a check failed (or, with `--strict`, warned). Its own kind so
    /// scripts can tell "this machine is unhealthy" from a refused request by the code.
    Unhealthy,
    /// A tool's or command's arguments were malformed or invalid (a wrong-typed field, an
    /// id or a time that does not parse): the caller can correct the call itself.
    BadArguments,
    /// The command line was unusable as a whole (needs a terminal, nothing named, bad setup).
    Usage,
    /// Storage or I/O failed.
    Storage,
    /// A bug on our side (an output that fails to encode, a broken invariant).
    Internal,
    /// The user interrupted a prompt.
    Interrupted,
}

/// How a tool error travels over MCP `tools/call`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mcp {
    /// An `isError: true` result in every revision, so the model sees message and hint.
    ToolError,
    /// `-32602` before 2025-11-25; from it, an `isError: true` result (the spec moved input
    /// validation into the result so the model can correct itself).
    InvalidParams,
    /// `-32603`: nothing the model can do about it.
    InternalError,
}

/// One row of the kind table: the kind (none for success) and what it means.
pub struct Row {
    pub kind: Option<Kind>,
    pub meaning: &'static str,
}

/// Every outcome, in the order the README lists them (0 is success, no kind).
pub const TABLE: &[Row] = &[
    Row {
        kind: None,
        meaning: "success (also: output pipe closed early)",
    },
    Row {
        kind: Some(Kind::Refused),
        meaning: "a request was refused or failed on its own terms (bad evidence, contended, spool full, …)",
    },
    Row {
        kind: Some(Kind::Unhealthy),
        meaning: "`ctxlake doctor`: a check failed (with `--strict`, also a warning)",
    },
    Row {
        kind: Some(Kind::BadArguments),
        meaning: "bad arguments: a wrong-typed or unknown field, an invalid id, time or value",
    },
    Row {
        kind: Some(Kind::Usage),
        meaning: "usage error: bad flags, no terminal for a prompt, an unusable setting",
    },
    Row {
        kind: Some(Kind::Storage),
        meaning: "storage or I/O error",
    },
    Row {
        kind: Some(Kind::Internal),
        meaning: "internal error (a bug: please report it)",
    },
    Row {
        kind: Some(Kind::Interrupted),
        meaning: "interrupted at a prompt",
    },
];

impl Kind {
    /// The process exit code for this kind.
    pub fn exit_code(self) -> u8 {
        match self {
            Kind::Refused | Kind::Unhealthy => 1,
            Kind::BadArguments | Kind::Usage => 2,
            Kind::Storage | Kind::Internal => 3,
            Kind::Interrupted => 130,
        }
    }
    /// The kind's name as the README spells it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Refused => "refused",
            Kind::Unhealthy => "unhealthy",
            Kind::BadArguments => "bad_arguments",
            Kind::Usage => "usage",
            Kind::Storage => "storage",
            Kind::Internal => "internal",
            Kind::Interrupted => "interrupted",
        }
    }
    /// How a tool failing with this kind answers over MCP.
    pub fn mcp(self) -> Mcp {
        match self {
            Kind::BadArguments => Mcp::InvalidParams,
            Kind::Internal => Mcp::InternalError,
            Kind::Refused | Kind::Unhealthy | Kind::Usage | Kind::Storage | Kind::Interrupted => {
                Mcp::ToolError
            }
        }
    }
}

impl Mcp {
    /// The two MCP cells of the README row: up to 2025-06-18, and from 2025-11-25.
    pub fn cells(self) -> (&'static str, &'static str) {
        match self {
            Mcp::ToolError => ("`isError: true` result", "same"),
            Mcp::InvalidParams => ("`-32602`", "`isError: true` result"),
            Mcp::InternalError => ("`-32603`", "same"),
        }
    }
}

/// The README's table rows, rendered from [`TABLE`] (a docs test checks they are there).
pub fn table_rows() -> Vec<String> {
    TABLE
        .iter()
        .map(|r| {
            let (exit, kind, (old, new)) = match r.kind {
                Some(k) => (k.exit_code(), format!("`{}`", k.name()), k.mcp().cells()),
                None => (0, "—".to_string(), ("result", "same")),
            };
            format!("| {exit} | {kind} | {} | {old} | {new} |", r.meaning)
        })
        .collect()
}

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
    /// Arguments the caller can correct: a bad field, id, time or value.
    pub fn bad_arguments(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Kind::BadArguments, code, message)
    }
    pub fn storage(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Kind::Storage, code, message)
    }
    /// Serialize `value` for persisting: an error is an error, never an empty file or
    /// object written in its place.
    pub fn json<T: serde::Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
        serde_json::to_vec(value)
            .map_err(|e| Self::internal("serialize", format!("cannot serialize: {e}")))
    }
    /// [`Error::json`], indented for a person reading the object.
    pub fn json_pretty<T: serde::Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
        serde_json::to_vec_pretty(value)
            .map_err(|e| Self::internal("serialize", format!("cannot serialize: {e}")))
    }
    /// A bug on our side; the code says where.
    pub fn internal(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Kind::Internal, code, message)
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
        assert_eq!(Kind::Unhealthy.exit_code(), 1);
        assert_eq!(Kind::BadArguments.exit_code(), 2);
        assert_eq!(Kind::Usage.exit_code(), 2);
        assert_eq!(Kind::Storage.exit_code(), 3);
        assert_eq!(Kind::Internal.exit_code(), 3);
        assert_eq!(Kind::Interrupted.exit_code(), 130);
        let codes: Vec<u8> = TABLE
            .iter()
            .map(|r| r.kind.map_or(0, Kind::exit_code))
            .collect();
        assert_eq!(codes, [0, 1, 1, 2, 2, 3, 3, 130]);
    }

    #[test]
    fn every_kind_has_one_row() {
        let all = [
            Kind::Refused,
            Kind::Unhealthy,
            Kind::BadArguments,
            Kind::Usage,
            Kind::Storage,
            Kind::Internal,
            Kind::Interrupted,
        ];
        for k in all {
            let rows = TABLE.iter().filter(|r| r.kind == Some(k)).count();
            assert_eq!(rows, 1, "{}", k.name());
        }
        assert_eq!(TABLE.len(), all.len() + 1);
        assert_eq!(Kind::BadArguments.mcp(), Mcp::InvalidParams);
        assert_eq!(Kind::Internal.mcp(), Mcp::InternalError);
        assert_eq!(Kind::Storage.mcp(), Mcp::ToolError);
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
