//! One spelling per domain enum: `as_str` for the wire, `parse` for readers that must
//! degrade on a value this build does not know, `ALL` for listing the allowed values.

/// Generates `as_str` (the wire spelling) and `parse` (its inverse: `None` for a value
/// this build does not know, so a reader can skip it rather than fail).
macro_rules! spelled {
    ($ty:ident { $($variant:ident => $s:literal),+ $(,)? }) => {
        impl $ty {
            #[allow(dead_code)] // not every vocabulary is listed or parsed
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $s),+
                }
            }
            #[allow(dead_code)]
            pub fn parse(s: &str) -> Option<Self> {
                match s {
                    $($s => Some($ty::$variant),)+
                    _ => None,
                }
            }
        }
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use spelled;
