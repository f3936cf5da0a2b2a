//! Segment patterns (exact, prefix, glob) compiled to one byte form, and the matcher that
//! both the table engine and the reference interpreter use on shell readings.
//!
//! A *reading* is a segment's words joined by single spaces. Bytes polc cannot know (a
//! parameter expansion, a substitution's output, an unquoted glob) appear in a reading as
//! [`WILD`], which stands for any string. A compiled pattern is literal bytes plus [`STAR`]
//! (any run, spaces included) and optionally ends in a word-bounded tail (`git push` also
//! matches `git push origin`). 0xFE and 0xFF never occur in UTF-8 text, so the markers cannot
//! be forged by a command.

use crate::ir::PatternKind;

/// In a compiled pattern: any run of bytes.
pub const STAR: u8 = 0xFE;
/// In a reading: a run of bytes polc cannot know.
pub const WILD: u8 = 0xFF;

/// How a reading matched a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Match {
    /// Some value of the unknown words would match: "possible deny".
    Possible,
    /// Matches whatever the unknown words are.
    Definite,
}

/// A segment pattern in matchable form.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SegPattern {
    /// Literal bytes and STAR markers.
    pub body: Vec<u8>,
    /// Word-bounded prefix: also matches `body` followed by a space and anything.
    pub tail: bool,
}

/// Collapse blank runs to one space and trim: patterns are written in normalised form.
pub fn normalise_blanks(s: &str) -> String {
    s.split([' ', '\t', '\n'])
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

impl SegPattern {
    /// Compile an exact/prefix/glob pattern. `fold_program` lowercases the first word when
    /// it is literal (deny/ask rules: programs are compared case-folded, docs/contract.md#c-readings).
    pub fn compile(kind: PatternKind, text: &str, fold_program: bool) -> Option<SegPattern> {
        let text = normalise_blanks(text);
        let mut p = match kind {
            PatternKind::Exact => SegPattern {
                body: text.into_bytes(),
                tail: false,
            },
            PatternKind::Prefix => SegPattern {
                body: text.into_bytes(),
                tail: true,
            },
            PatternKind::Glob => compile_glob(&text),
            PatternKind::Any => SegPattern {
                body: vec![STAR],
                tail: false,
            },
            _ => return None,
        };
        if fold_program {
            let end = p
                .body
                .iter()
                .position(|&b| b == b' ')
                .unwrap_or(p.body.len());
            if !p.body[..end].contains(&STAR) {
                p.body[..end].make_ascii_lowercase();
            }
        }
        Some(p)
    }

    /// Literal byte count and wildcard count: the specificity part of a rule's score.
    pub fn specificity(&self) -> (u32, u32) {
        let stars = self.body.iter().filter(|&&b| b == STAR).count() as u32 + self.tail as u32;
        (self.body.len() as u32 - (stars - self.tail as u32), stars)
    }

    pub fn matches(&self, reading: &[u8]) -> Option<Match> {
        match_parts(&self.body, self.tail, reading)
    }

    /// Serialised form: a flag byte then the body.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.body.len() + 1);
        v.push(self.tail as u8);
        v.extend_from_slice(&self.body);
        v
    }
}

/// A rule's score specificity: the literal bytes and wildcards of its most specific
/// segment/tool pattern (more literal bytes, then fewer wildcards, is more specific). Shared
/// by the compiler (stored in the rule record) and the reference interpreter.
pub fn rule_specificity(rule: &crate::ir::Rule) -> (u32, u32) {
    let mut best: Option<(u32, u32)> = None;
    for p in &rule.patterns {
        let s = match p.kind {
            PatternKind::Exact | PatternKind::Prefix | PatternKind::Glob | PatternKind::Any => {
                SegPattern::compile(p.kind, &p.text, false)
                    .map(|sp| sp.specificity())
                    .unwrap_or((0, 1))
            }
            PatternKind::Contains | PatternKind::Specifier => (p.text.len() as u32, 0),
            PatternKind::Regex => (0, 1),
        };
        best = Some(match best {
            Some(b) if (s.0, std::cmp::Reverse(s.1)) <= (b.0, std::cmp::Reverse(b.1)) => b,
            _ => s,
        });
    }
    best.unwrap_or((0, 1))
}

/// A literal that occurs in every reading without unknown bytes that `body` matches (used to
/// pick a group's candidates, `table::sections::groups`): with no star, the body itself (the
/// reading starts with it); otherwise the longest piece between stars after the first (the
/// first piece starts with the group's key, which every reading looked up there has), or
/// the first piece when every later piece is empty. Empty: no literal (always a candidate).
pub fn required_literal(body: &[u8]) -> &[u8] {
    let mut pieces = body.split(|&b| b == STAR);
    let first = pieces.next().unwrap_or(&[]);
    let best = pieces.fold(&[][..], |b, p| if p.len() >= b.len() { p } else { b });
    if best.is_empty() {
        first
    } else {
        best
    }
}

/// Match serialised pattern bytes (see [`SegPattern::to_bytes`]) without allocating.
pub fn match_bytes(pat: &[u8], reading: &[u8]) -> Option<Match> {
    let (&flag, body) = pat.split_first()?;
    match_parts(body, flag == 1, reading)
}

fn match_parts(body: &[u8], tail: bool, reading: &[u8]) -> Option<Match> {
    if !reading.contains(&WILD) {
        return glob_tail(body, tail, reading).then_some(Match::Definite);
    }
    if !intersects(body, tail, reading) {
        return None;
    }
    // Definite when two unlike values of the unknown bytes both match: a pattern that
    // accepts both "" and "\x01" at every unknown spot accepts anything there (its `*`s
    // absorb them). Erring here only turns an ask into a deny: the safe direction.
    let empty: Vec<u8> = reading.iter().copied().filter(|&b| b != WILD).collect();
    let other: Vec<u8> = reading
        .iter()
        .map(|&b| if b == WILD { 1 } else { b })
        .collect();
    if glob_tail(body, tail, &empty) && glob_tail(body, tail, &other) {
        Some(Match::Definite)
    } else {
        Some(Match::Possible)
    }
}

/// Claude-style glob text → pattern. `\*` is a literal star; a trailing `:*` or ` *` is a
/// word-bounded tail (so `git *` and `git:*` match `git` and `git status`, not `gitk`).
fn compile_glob(text: &str) -> SegPattern {
    let b = text.as_bytes();
    let mut body = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() && b[i + 1] == b'*' {
            body.push(b'*');
            i += 2;
        } else if b[i] == b'*' {
            body.push(STAR);
            i += 1;
        } else {
            body.push(b[i]);
            i += 1;
        }
    }
    let mut tail = false;
    let n = body.len();
    if n >= 2 && body[n - 1] == STAR && (body[n - 2] == b':' || body[n - 2] == b' ') {
        // `*:*` / `* *` are `*` with a tail: anything.
        body.truncate(n - 2);
        tail = true;
        if body.is_empty() {
            body.push(STAR);
            tail = false;
        }
    }
    SegPattern { body, tail }
}

/// Does `body` (literal bytes and STARs), followed by a word-bounded tail when `tail`, match
/// all of `s` (no WILD in it)? Linear: a `*`-only glob matches iff its first piece is a prefix,
/// each middle piece occurs (leftmost, with `memmem`) after the previous one, and the last
/// piece ends the subject — or, with a tail, ends before a space (`git push` also matches
/// `git push origin`). The greedy leftmost choice is optimal: an earlier end leaves more room
/// for the rest. (The backtracking matcher this replaces, with a retry at every space for
/// the tail, took time proportional to length × spaces × pattern on long readings; it is
/// kept in the tests as the oracle.)
pub fn glob_tail(body: &[u8], tail: bool, s: &[u8]) -> bool {
    let mut pieces = body.split(|&b| b == STAR);
    let first = pieces.next().unwrap_or(&[]);
    if !s.starts_with(first) {
        return false;
    }
    let Some(mut last) = pieces.next() else {
        // No star: the body itself, then the end or a space.
        return s.len() == first.len() || (tail && s[first.len()] == b' ');
    };
    let mut pos = first.len();
    for next in pieces {
        // `last` is a middle piece: its leftmost occurrence from `pos`.
        match memchr::memmem::find(&s[pos..], last) {
            Some(i) => pos += i + last.len(),
            None => return false,
        }
        last = next;
    }
    if last.is_empty() {
        // Ends in a star: anything after.
        return true;
    }
    let ends_at = |k: usize| k >= pos + last.len() && s[..k].ends_with(last);
    if ends_at(s.len()) {
        return true;
    }
    tail && memchr::memchr_iter(b' ', &s[pos..]).any(|i| ends_at(pos + i))
}

/// Is there a value of every WILD in `s` for which the pattern matches? A DP over
/// (pattern position, subject position): STAR and WILD may each absorb any run.
fn intersects(body: &[u8], tail: bool, s: &[u8]) -> bool {
    let mut p: Vec<u8> = body.to_vec();
    if tail {
        // Either the pattern ends here, or a space then anything follows; checked as two runs.
        if intersects_plain(&p, s) {
            return true;
        }
        p.push(b' ');
        p.push(STAR);
    }
    intersects_plain(&p, s)
}

fn intersects_plain(p: &[u8], s: &[u8]) -> bool {
    let (m, n) = (p.len(), s.len());
    // reach[i][j] over a rolling pair of rows would need care with the in-row moves; the
    // sizes are bounded (segments ≤ 100 kB, patterns short), so keep a full table per row
    // of the pattern and iterate rows in order.
    let w = n + 1;
    if (m + 1).saturating_mul(w) > 1 << 22 {
        // Past 4 M states (a very long command with unknown words against a very long
        // pattern) answer "could match": a possible deny asks, never allows, and the hook's
        // time and memory stay bounded.
        return true;
    }
    let mut reach = vec![false; (m + 1) * w];
    reach[0] = true;
    for i in 0..=m {
        for j in 0..=n {
            if !reach[i * w + j] {
                continue;
            }
            if i < m && p[i] == STAR {
                reach[(i + 1) * w + j] = true;
                if j < n {
                    reach[i * w + j + 1] = true;
                }
            }
            if j < n && s[j] == WILD {
                reach[i * w + j + 1] = true;
                if i < m && p[i] != STAR {
                    reach[(i + 1) * w + j] = true;
                }
            }
            if i < m && j < n && p[i] != STAR && s[j] != WILD && p[i] == s[j] {
                reach[(i + 1) * w + j + 1] = true;
            }
        }
    }
    reach[m * w + n]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(kind: PatternKind, pat: &str, s: &str) -> Option<Match> {
        SegPattern::compile(kind, pat, false)
            .unwrap()
            .matches(s.as_bytes())
    }
    fn w(s: &str) -> Vec<u8> {
        s.bytes()
            .map(|b| if b == b'?' { WILD } else { b })
            .collect()
    }

    #[test]
    fn prefix_is_word_bounded() {
        assert_eq!(
            m(PatternKind::Prefix, "git push", "git push"),
            Some(Match::Definite)
        );
        assert_eq!(
            m(PatternKind::Prefix, "git push", "git push origin"),
            Some(Match::Definite)
        );
        assert_eq!(m(PatternKind::Prefix, "git push", "git pushy"), None);
        assert_eq!(
            m(PatternKind::Prefix, "git  push", "git push x"),
            Some(Match::Definite)
        );
    }

    #[test]
    fn exact_is_whole() {
        assert!(m(PatternKind::Exact, "git status", "git status").is_some());
        assert!(m(PatternKind::Exact, "git status", "git status -s").is_none());
    }

    #[test]
    fn glob_tails_and_escapes() {
        assert!(m(PatternKind::Glob, "git *", "git").is_some());
        assert!(m(PatternKind::Glob, "git *", "git status").is_some());
        assert!(m(PatternKind::Glob, "git *", "gitk").is_none());
        assert!(m(PatternKind::Glob, "sudo:*", "sudoedit /etc/hosts").is_none());
        assert!(m(PatternKind::Glob, "* --force", "git push --force").is_some());
        assert!(m(PatternKind::Glob, "* --force", "git push --forceful").is_none());
        assert!(m(
            PatternKind::Glob,
            "git -C * diff:*",
            "git -C /p diff --stat"
        )
        .is_some());
        assert!(m(PatternKind::Glob, "git -C * diff:*", "git -C /p status").is_none());
        assert!(m(PatternKind::Glob, "echo \\*", "echo *").is_some());
        assert!(m(PatternKind::Glob, "echo \\*", "echo x").is_none());
        assert!(m(PatternKind::Glob, "*:*", "anything").is_some());
        assert!(m(PatternKind::Glob, "*", "").is_some());
    }

    #[test]
    fn unknown_bytes_give_possible_or_definite() {
        let p = SegPattern::compile(PatternKind::Prefix, "git push --force", false).unwrap();
        assert_eq!(p.matches(&w("git push ?")), Some(Match::Possible));
        assert_eq!(p.matches(&w("git push --forc?")), Some(Match::Possible));
        assert_eq!(p.matches(&w("git status ?")), None);
        let rm = SegPattern::compile(PatternKind::Glob, "rm:*", false).unwrap();
        assert_eq!(rm.matches(&w("rm ?")), Some(Match::Definite));
        assert_eq!(rm.matches(&w("?")), Some(Match::Possible));
    }

    #[test]
    fn folding_lowercases_literal_program_only() {
        let p = SegPattern::compile(PatternKind::Prefix, "RM -RF", true).unwrap();
        assert_eq!(p.body, b"rm -RF");
        let g = SegPattern::compile(PatternKind::Glob, "* --force", true).unwrap();
        assert_eq!(g.body[0], STAR, "a wildcard program is not folded");
    }

    #[test]
    fn huge_unknown_readings_are_possible_not_slow() {
        let p = SegPattern::compile(PatternKind::Glob, &format!("x {}", "a".repeat(100)), false)
            .unwrap();
        let mut r = b"x ".to_vec();
        r.extend(std::iter::repeat_n(b'b', 100_000));
        r.push(WILD);
        assert_eq!(p.matches(&r), Some(Match::Possible));
    }

    /// The backtracking matcher `glob_tail` replaced: the oracle.
    fn glob_backtrack(p: &[u8], s: &[u8]) -> bool {
        let (mut i, mut j) = (0usize, 0usize);
        let mut star: Option<(usize, usize)> = None;
        while j < s.len() {
            if i < p.len() && p[i] == STAR {
                star = Some((i, j));
                i += 1;
            } else if i < p.len() && p[i] == s[j] {
                i += 1;
                j += 1;
            } else if let Some((si, sj)) = star {
                i = si + 1;
                j = sj + 1;
                star = Some((si, sj + 1));
            } else {
                return false;
            }
        }
        p[i..].iter().all(|&b| b == STAR)
    }

    fn glob_tail_oracle(body: &[u8], tail: bool, s: &[u8]) -> bool {
        glob_backtrack(body, s)
            || (tail
                && s.iter()
                    .enumerate()
                    .any(|(k, &c)| c == b' ' && glob_backtrack(body, &s[..k])))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// The linear matcher agrees with the backtracking one on small alphabets, where
        /// overlaps, repeats and spaces are common.
        #[test]
        fn linear_glob_agrees_with_backtracking(
            body in proptest::collection::vec(proptest::sample::select(vec![b'a', b'b', b' ', STAR]), 0..9),
            s in proptest::collection::vec(proptest::sample::select(vec![b'a', b'b', b' ']), 0..14),
            tail: bool,
        ) {
            proptest::prop_assert_eq!(glob_tail(&body, tail, &s), glob_tail_oracle(&body, tail, &s));
        }
    }

    #[test]
    fn linear_glob_edge_cases() {
        let b = |t: &str| {
            t.bytes()
                .map(|c| if c == b'*' { STAR } else { c })
                .collect::<Vec<u8>>()
        };
        for (body, tail, s, want) in [
            ("", false, "", true),
            ("", true, " x", true),
            ("", false, "x", false),
            ("*", false, "", true),
            ("a*a", false, "a", false),
            ("a*a", false, "aa", true),
            ("git * z1", true, "git x z1 y", true),
            ("git * z1", true, "git x z12", false),
            ("git * z1", true, "git z1 z1", true),
            ("* *a1*b*c*d*e*f", true, "x a1bcdef y", true),
            ("ab*ab", false, "aab", false),
            ("ab*ab", false, "abab", true),
        ] {
            assert_eq!(
                glob_tail(&b(body), tail, s.as_bytes()),
                want,
                "{body:?} {tail} {s:?}"
            );
            assert_eq!(
                glob_tail_oracle(&b(body), tail, s.as_bytes()),
                want,
                "oracle {body:?}"
            );
        }
    }

    #[test]
    fn bytes_round_trip() {
        let p = SegPattern::compile(PatternKind::Glob, "git *", false).unwrap();
        assert_eq!(
            match_bytes(&p.to_bytes(), b"git log"),
            Some(Match::Definite)
        );
        assert_eq!(match_bytes(&[], b"x"), None);
    }
}
