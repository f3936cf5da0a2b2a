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

/// Run a serialised DFA (4-byte aligned bytes from the table) over `haystack`.
/// Returns None when the bytes are not a valid DFA (treated by callers as a broken table).
pub fn regex_dfa_is_match(dfa_bytes: &[u8], haystack: &[u8]) -> Option<bool> {
    if dfa_bytes.as_ptr().align_offset(4) != 0 {
        // Deserialising in place needs 4-byte alignment: copy to an aligned spot first.
        let mut buf = vec![0u8; dfa_bytes.len() + 3];
        let off = buf.as_ptr().align_offset(4);
        buf[off..off + dfa_bytes.len()].copy_from_slice(dfa_bytes);
        return regex_dfa_is_match(&buf[off..off + dfa_bytes.len()], haystack);
    }
    let (dfa, _) = dense::DFA::from_bytes(dfa_bytes).ok()?;
    let input = Input::new(haystack);
    match dfa.try_search_fwd(&input) {
        Ok(m) => Some(m.is_some()),
        Err(_) => None,
    }
}
