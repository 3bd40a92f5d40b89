//! The snapshot's columns as the readers see them. [`Cols`] is the read boundary by
//! construction: a reader gets a row only through it, and it hands out text only cleaned
//! and bounded (`sanitize::clean_cow`), so a column added later cannot skip the cleaning.
//! The memory vocabularies are written by their wire spelling and read back through
//! `parse`; a spelling this build does not know fails only its own row (the readers skip
//! such rows), never the whole read.

use rusqlite::Row;
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use crate::clean::clean_str;
use crate::vocab::{ClaimScope, ClaimStatus, ClaimType};

/// One row of a snapshot query, with no way to read its text uncleaned.
pub(crate) struct Cols<'r, 's>(&'r Row<'s>);

impl<'r, 's> Cols<'r, 's> {
    pub(crate) fn of(row: &'r Row<'s>) -> Self {
        Cols(row)
    }

    /// Column `i` (0-based), text cleaned.
    pub(crate) fn get<T: Column>(&self, i: usize) -> rusqlite::Result<T> {
        T::read(self.0, i)
    }
}

/// A value a snapshot reader may take from a column. Text only through the cleaning
/// impls below: there is deliberately no blanket impl over `FromSql`.
pub(crate) trait Column: Sized {
    fn read(row: &Row<'_>, i: usize) -> rusqlite::Result<Self>;
}

impl Column for String {
    fn read(row: &Row<'_>, i: usize) -> rusqlite::Result<Self> {
        let mut s: String = row.get(i)?;
        clean_str(&mut s);
        Ok(s)
    }
}

impl Column for Option<String> {
    fn read(row: &Row<'_>, i: usize) -> rusqlite::Result<Self> {
        let mut s: Option<String> = row.get(i)?;
        if let Some(s) = s.as_mut() {
            clean_str(s);
        }
        Ok(s)
    }
}

/// Values that hold no text (numbers, and the vocabularies, parsed against a closed list).
macro_rules! textless {
    ($($ty:ty),*) => {$(
        impl Column for $ty {
            fn read(row: &Row<'_>, i: usize) -> rusqlite::Result<Self> {
                row.get(i)
            }
        }
    )*};
}

textless!(i64, u32, f64, bool, ClaimType, ClaimStatus, ClaimScope);

macro_rules! column {
    ($ty:ty) => {
        impl ToSql for $ty {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }
        impl FromSql for $ty {
            fn column_result(v: ValueRef<'_>) -> FromSqlResult<Self> {
                let s = v.as_str()?;
                <$ty>::parse(s).ok_or_else(|| {
                    FromSqlError::Other(format!("unknown {} `{s}`", stringify!($ty)).into())
                })
            }
        }
    };
}

column!(ClaimType);
column!(ClaimStatus);
column!(ClaimScope);
