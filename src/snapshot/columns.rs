//! The memory vocabularies as SQLite values: written by their wire spelling, read back
//! through `parse`. A spelling this build does not know fails only its own row (the
//! readers skip such rows), never the whole read.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use crate::vocab::{ClaimScope, ClaimStatus, ClaimType};

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
