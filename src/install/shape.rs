//! Why an edit of a runtime's config file could not be made as asked: the file is laid
//! out in a way the editors will not splice, or the edit did not come out as planned.
//! Refused before anything is written; the refusal names it.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// A container on the path is missing where the editor must not create it.
    Missing(String),
    NotObject(String),
    NotArray(String),
    /// The edit would replace the whole document.
    WholeDocument,
    /// The path names an array index that does not exist.
    ArrayIndex,
    /// Codex's `[table.name]` is written another way (inline, dotted keys).
    NotATable {
        table: String,
        name: String,
    },
    /// The file, or the edited text, does not parse.
    Unparsable(String),
    /// The edited text parses to more change than ctxlake's own entry.
    Overreach,
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Missing(p) => write!(f, "`{p}` does not exist"),
            Shape::NotObject(p) => write!(f, "`{p}` is not an object"),
            Shape::NotArray(p) => write!(f, "`{p}` is not an array"),
            Shape::WholeDocument => f.write_str("cannot replace the whole document"),
            Shape::ArrayIndex => f.write_str("cannot create an array index"),
            Shape::NotATable { table, name } => write!(
                f,
                "`{table}.{name}` is not written as a `[{table}.{name}]` table"
            ),
            Shape::Unparsable(why) => write!(f, "the edit would not parse ({why})"),
            Shape::Overreach => f.write_str("the edit would change more than ctxlake's own table"),
        }
    }
}
