//! Every diagnostic code polc emits, in one table: the [`Code`] enum. A diagnostic names its
//! code through it, never a string literal, so a code cannot be used without being listed
//! here; `tests/docs.rs` checks that this list, the code tables of `src/syntax/README.md` and
//! `src/lint/README.md` and the codes the source uses all agree.
//!
//! Families: `E` errors and `W` warnings and `N` notes of reading a policy (syntax, lowering,
//! `polc build`), `L` findings of `polc lint`.

macro_rules! codes {
    ($($name:ident),* $(,)?) => {
        /// A diagnostic code: each is a row of the code tables (see the module doc).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $(
                #[doc = concat!("Diagnostic code `", stringify!($name), "` (see the module's tables).")]
                $name,
            )*
        }

        pub use self::Code::*;

        impl Code {
            /// The code as printed (`E001`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => stringify!($name),)*
                }
            }
        }

        /// Every code, in table order.
        pub const ALL: &[Code] = &[$(Code::$name),*];
    };
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Codes sort as their text (`E001` < `L001` < `N001` < `W001`), as when they were strings.
impl Ord for Code {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Code {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl Code {
    /// The code named `s`, if it is one.
    pub fn parse(s: &str) -> Option<Code> {
        ALL.iter().copied().find(|c| c.as_str() == s)
    }
}

codes! {
    E001, E002, E003, E004, E005, E006, E007, E008, E009, E010, E011, E012, E013, E014, E015,
    E016, E017, E018, E019, E020, E021,
    W001, W002, W003, W004, W005, W006, W007,
    N001,
    L001, L002, L003, L004, L005, L006, L007, L008, L009, L010, L011, L012,
}

#[cfg(test)]
mod tests {
    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = std::collections::BTreeSet::new();
        for code in super::ALL {
            let c = code.as_str();
            assert!(seen.insert(c), "{c} listed twice");
            assert_eq!(super::Code::parse(c), Some(*code));
            assert_eq!(c.len(), 4, "{c}");
            assert!(matches!(c.as_bytes()[0], b'E' | b'W' | b'N' | b'L'), "{c}");
            assert!(c[1..].bytes().all(|b| b.is_ascii_digit()), "{c}");
        }
    }
}
