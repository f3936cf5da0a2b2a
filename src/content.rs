//! Content scanners (`contains` and `regex`, docs/contract.md#c-content): they look at the whole raw text of a
//! request and at its dequoted form, never at segments.
//!
//! Regexes are compiled at build time to a size-capped dense DFA whose bytes are stored in
//! the table and deserialised in place at decision time (never recompiled per call).

use regex_automata::dfa::{dense, Automaton};
use regex_automata::Input;

/// Largest DFA (bytes) one regex rule may compile to.
pub const REGEX_DFA_SIZE_LIMIT: usize = 1 << 20;

/// Compile a regex rule to serialised dense-DFA bytes (little endian, unanchored search).
#[cfg(feature = "compiler")]
pub fn build_regex_dfa(pattern: &str) -> Result<Vec<u8>, String> {
    use regex_automata::util::syntax;
    let dfa = dense::Builder::new()
        .syntax(syntax::Config::new().unicode(true).utf8(true))
        .configure(
            dense::Config::new()
                .dfa_size_limit(Some(REGEX_DFA_SIZE_LIMIT))
                .determinize_size_limit(Some(4 * REGEX_DFA_SIZE_LIMIT))
                .minimize(false),
        )
        .build(pattern)
        .map_err(|e| {
            // regex-automata's messages are multi-line; keep the first line's gist.
            let msg = e.to_string();
            if msg.contains("exceeded") || msg.contains("limit") {
                format!("regex compiles to a DFA larger than the {REGEX_DFA_SIZE_LIMIT}-byte cap; simplify it")
            } else {
                msg.lines().filter(|l| !l.trim().is_empty()).collect::<Vec<_>>().join(" ")
            }
        })?;
    let (bytes, pad) = dfa.to_bytes_little_endian();
    Ok(bytes[pad..].to_vec())
}

/// Literals one of which occurs in every text the regex matches (its required prefixes),
/// or `None` when no small set exists (the regex then runs on every request). The table's
/// content index only runs a regex whose guard occurs in the text, so a policy with many
/// regexes does not pay for all of them on every call.
#[cfg(feature = "compiler")]
pub fn regex_guards(pattern: &str) -> Option<Vec<Vec<u8>>> {
    use regex_automata::util::syntax;
    use regex_syntax::hir::literal::{ExtractKind, Extractor};
    // The same syntax configuration as `build_regex_dfa`.
    let hir = syntax::parse_with(pattern, &syntax::Config::new().unicode(true).utf8(true)).ok()?;
    let seq = Extractor::new().kind(ExtractKind::Prefix).extract(&hir);
    // A finite sequence from prefix extraction holds a prefix of every match.
    let lits = seq.literals()?;
    if lits.is_empty() || lits.len() > 32 || lits.iter().any(|l| l.as_bytes().is_empty()) {
        return None;
    }
    let mut v: Vec<Vec<u8>> = lits.iter().map(|l| l.as_bytes().to_vec()).collect();
    v.sort();
    v.dedup();
    // A class expands to one literal per member (`tok_0`…`tok_9`): when they share a prefix
    // of 4 bytes or more, that prefix alone is a guard (every match still starts with it).
    let first = &v[0];
    let lcp = v
        .iter()
        .map(|l| l.iter().zip(first).take_while(|(a, b)| a == b).count())
        .min()?;
    if v.len() > 1 && lcp >= 4 {
        return Some(vec![first[..lcp].to_vec()]);
    }
    Some(v)
}

/// Run a serialised DFA (bytes from the table) over `haystack`.
/// Returns None when the bytes are not a valid DFA (treated by callers as a broken table).
///
/// **Validated once.** `DFA::from_bytes` validates the whole transition table, which costs
/// far more than a search (37,000 instructions for the shipped policy's content regex; 67 M
/// for a decision at 100,000 rules with 600 path rules, each DFA validated again for every
/// path and base folder). The first use of some bytes copies them, validates the copy and
/// keeps it ([`Validated`]); later uses with the same bytes at the same place search that
/// private, validated copy. "The same bytes" is a full comparison (a `memcmp`, a few
/// hundred instructions), never an address or a table identity: bytes that changed under a
/// map, or another table at a reused address, are validated again. The search never runs
/// on unvalidated bytes and never on bytes that can change (`from_bytes_unchecked` is not
/// used: the table's CRC is not a MAC).
pub fn regex_dfa_is_match(dfa_bytes: &[u8], haystack: &[u8]) -> Option<bool> {
    let key = (dfa_bytes.as_ptr() as usize, dfa_bytes.len());
    let hit = VALIDATED.with(|m| {
        let m = m.borrow();
        let v = m.map.get(&key).filter(|v| *v.bytes == *dfa_bytes)?;
        Some(search(&v.dfa, haystack))
    });
    if let Some(r) = hit {
        return r;
    }
    // Deserialising needs 4-byte alignment: an aligned private copy, validated.
    let mut buf = vec![0u8; dfa_bytes.len() + 3];
    let off = buf.as_ptr().align_offset(4);
    let copy = buf.get_mut(off..off + dfa_bytes.len())?;
    copy.copy_from_slice(dfa_bytes);
    let (dfa, _) = dense::DFA::from_bytes(copy).ok()?;
    let r = search(&dfa, haystack);
    VALIDATED.with(|m| {
        let mut m = m.borrow_mut();
        if m.bytes + 2 * dfa_bytes.len() <= MEMO_MAX_BYTES {
            m.bytes += 2 * dfa_bytes.len();
            let v = Validated {
                bytes: dfa_bytes.into(),
                dfa: dfa.to_owned(),
            };
            if let Some(old) = m.map.insert(key, v) {
                m.bytes = m.bytes.saturating_sub(2 * old.bytes.len());
            }
        }
    });
    r
}

fn search<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, haystack: &[u8]) -> Option<bool> {
    match dfa.try_search_fwd(&Input::new(haystack)) {
        Ok(m) => Some(m.is_some()),
        Err(_) => None,
    }
}

/// A DFA validated from a private copy, with the bytes it was validated from.
struct Validated {
    bytes: Box<[u8]>,
    dfa: dense::DFA<Vec<u32>>,
}

/// The validated DFAs of this thread, by (address, length) of the bytes they came from.
#[derive(Default)]
struct Memo {
    map: std::collections::HashMap<(usize, usize), Validated>,
    /// Bytes held (the copy and the DFA); past [`MEMO_MAX_BYTES`] nothing more is kept and
    /// each use validates again.
    bytes: usize,
}

const MEMO_MAX_BYTES: usize = 64 << 20;

thread_local! {
    static VALIDATED: std::cell::RefCell<Memo> = std::cell::RefCell::default();
}

#[cfg(all(test, feature = "compiler"))]
mod tests {
    use super::*;

    /// The memo answers for the bytes at hand, never for what was once at their address.
    #[test]
    fn validated_once_but_never_for_other_bytes() {
        let a = build_regex_dfa("ab+c").unwrap();
        let b = build_regex_dfa("ab+d").unwrap();
        assert_eq!(
            a.len(),
            b.len(),
            "same length, so they can share an address"
        );
        // One buffer, reused in place: same address and length each time.
        let mut buf = a.clone();
        for _ in 0..3 {
            assert_eq!(regex_dfa_is_match(&buf, b"xxabbbcx"), Some(true));
            assert_eq!(regex_dfa_is_match(&buf, b"abbd"), Some(false));
        }
        buf.copy_from_slice(&b);
        assert_eq!(regex_dfa_is_match(&buf, b"xxabbbcx"), Some(false));
        assert_eq!(regex_dfa_is_match(&buf, b"--abbd--"), Some(true));
        // Damaged in place after it was validated: validated again, and refused.
        buf.copy_from_slice(&a);
        assert_eq!(regex_dfa_is_match(&buf, b"abc"), Some(true));
        for i in (0..buf.len()).step_by(7) {
            buf[i] ^= 0xff;
        }
        assert_eq!(regex_dfa_is_match(&buf, b"abc"), None, "damaged: refused");
        assert_eq!(regex_dfa_is_match(&buf[..buf.len() - 4], b"abc"), None);
    }
}
