//! Every diagnostic code polc emits, in one table. A diagnostic names its code through the
//! constants below, never a string literal, so a code cannot be used without being listed
//! here; `tests/docs.rs` checks that this list, the code tables of `src/syntax/README.md` and
//! `src/lint/README.md` and the codes the source uses all agree.
//!
//! Families: `E` errors and `W` warnings and `N` notes of reading a policy (syntax, lowering,
//! `polc build`), `L` findings of `polc lint`.

macro_rules! codes {
    ($($name:ident),* $(,)?) => {
        $(
            #[doc = concat!("Diagnostic code `", stringify!($name), "` (see the module's tables).")]
            pub const $name: &str = stringify!($name);
        )*
        /// Every code, in table order.
        pub const ALL: &[&str] = &[$($name),*];
    };
}

codes! {
    E001, E002, E003, E004, E005, E006, E007, E008, E009, E010, E011, E012, E013, E014, E015,
    E016, E017, E020, E021,
    W001, W002, W003, W004, W005, W006,
    N001,
    L001, L002, L003, L004, L005, L006, L007, L008, L009, L010, L011, L012,
}

#[cfg(test)]
mod tests {
    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = std::collections::BTreeSet::new();
        for c in super::ALL {
            assert!(seen.insert(*c), "{c} listed twice");
            assert_eq!(c.len(), 4, "{c}");
            assert!(matches!(c.as_bytes()[0], b'E' | b'W' | b'N' | b'L'), "{c}");
            assert!(c[1..].bytes().all(|b| b.is_ascii_digit()), "{c}");
        }
    }
}
