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
    // The words between blanks joined by one space, in one pass over the bytes (the blanks
    // are ASCII, so every cut is a character boundary): whole-command texts of 100 kB are
    // normalised some 35 times a call (issue 12 item 6).
    let b = s.as_bytes();
    let blank = |c: u8| matches!(c, b' ' | b'\t' | b'\n');
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && blank(b[i]) {
            i += 1;
        }
        let start = i;
        while i < b.len() && !blank(b[i]) {
            i += 1;
        }
        if start < i {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&s[start..i]);
        }
    }
    out
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
    Reading::new(reading).match_parts(body, tail, true)
}

/// A reading prepared once to be matched against many patterns: what depends only on the
/// reading (its unknown runs removed or replaced, its literal prefix and suffix) is computed
/// here, not per pattern.
pub struct Reading<'r> {
    text: &'r [u8],
    unknown: Option<Unknown>,
}

struct Unknown {
    /// The reading with every unknown run empty, and with each one byte 0x01.
    empty: Vec<u8>,
    other: Vec<u8>,
    /// The reading as a glob: unknown runs as stars.
    as_glob: Vec<u8>,
    /// First and last unknown byte.
    first: usize,
    last: usize,
}

impl<'r> Reading<'r> {
    pub fn new(text: &'r [u8]) -> Reading<'r> {
        let unknown = text.iter().position(|&b| b == WILD).map(|first| Unknown {
            empty: text.iter().copied().filter(|&b| b != WILD).collect(),
            other: text
                .iter()
                .map(|&b| if b == WILD { 1 } else { b })
                .collect(),
            as_glob: text
                .iter()
                .map(|&b| if b == WILD { STAR } else { b })
                .collect(),
            first,
            last: text.iter().rposition(|&b| b == WILD).unwrap_or(first),
        });
        Reading { text, unknown }
    }

    pub fn text(&self) -> &'r [u8] {
        self.text
    }

    pub fn has_unknown(&self) -> bool {
        self.unknown.is_some()
    }

    /// The known bytes (unknown runs removed): a pattern that matches the reading whatever
    /// the unknown bytes are matches this text, so its required literal occurs in it.
    pub fn known(&self) -> &[u8] {
        self.unknown.as_ref().map_or(self.text, |u| &u.empty)
    }

    /// How `body` (with a tail) matches. `may_be_definite = false`: the caller knows the
    /// pattern cannot match [`Reading::known`] (its required literal is absent), so the
    /// answer is at most possible.
    pub fn match_parts(&self, body: &[u8], tail: bool, may_be_definite: bool) -> Option<Match> {
        let Some(u) = &self.unknown else {
            return (may_be_definite && glob_tail(body, tail, self.text))
                .then_some(Match::Definite);
        };
        let meets = self.intersects(u, body)
            || (tail && self.intersects(u, &[body, b" ", &[STAR]].concat()));
        if !meets {
            return None;
        }
        // Definite when two unlike values of the unknown bytes both match: a pattern that
        // accepts both "" and "\x01" at every unknown spot accepts anything there (its `*`s
        // absorb them). Erring here only turns an ask into a deny: the safe direction.
        if may_be_definite && glob_tail(body, tail, &u.empty) && glob_tail(body, tail, &u.other) {
            Some(Match::Definite)
        } else {
            Some(Match::Possible)
        }
    }

    /// Is there a value of every unknown run for which `p` (no tail) matches? Linear: both
    /// are `*`-patterns (STAR in the pattern, an unknown run in the reading each stand for any
    /// run). When both have a wildcard, a common string exists iff their literal prefixes
    /// agree (one starts the other) and their literal suffixes agree: the string "longer
    /// prefix, every middle piece of the pattern, every middle piece of the reading, longer
    /// suffix" then matches both (each side's wildcards absorb the other side's pieces). A
    /// pattern without a star is one string: it must match the reading read as a glob. (The
    /// quadratic dynamic programme this replaces is the oracle in the tests; it needed a cap
    /// of 4 M states per pattern, and 10,000 globs against a 100 kB command with unknown words
    /// hit the 5 s deadline.)
    fn intersects(&self, u: &Unknown, p: &[u8]) -> bool {
        let Some(first_star) = p.iter().position(|&b| b == STAR) else {
            return glob_tail(&u.as_glob, false, p);
        };
        let last_star = p.iter().rposition(|&b| b == STAR).unwrap_or(first_star);
        let (p0, s0) = (&p[..first_star], &self.text[..u.first]);
        let (pk, sl) = (&p[last_star + 1..], &self.text[u.last + 1..]);
        (p0.starts_with(s0) || s0.starts_with(p0)) && (pk.ends_with(sl) || sl.ends_with(pk))
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

/// Does a rule written for `rule_tool` apply to a call of `tool`? MCP rules name a whole
/// server (`mcp__s`, `mcp__s__*`) or one tool; an allow may use `*` only after a literal
/// `mcp__server__`, so an allow cannot grant servers it does not name.
pub fn tool_matches(rule_tool: &str, tool: &str, allow: bool) -> bool {
    if rule_tool == tool {
        return true;
    }
    if let Some(rest) = rule_tool.strip_prefix("mcp__") {
        if !tool.starts_with("mcp__") {
            return false;
        }
        if !rest.contains("__") && !rest.contains('*') {
            return tool.starts_with(&format!("{rule_tool}__"));
        }
        if rule_tool.contains('*') {
            if allow {
                let Some(star) = rule_tool.find('*') else {
                    return false;
                };
                let lit = &rule_tool[..star];
                if lit.len() <= 5 || !lit[5..].contains("__") {
                    return false;
                }
            }
            let p = SegPattern {
                body: rule_tool
                    .bytes()
                    .map(|b| if b == b'*' { STAR } else { b })
                    .collect(),
                tail: false,
            };
            return p.matches(tool.as_bytes()).is_some();
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_blanks_joins_the_words_between_blanks_with_one_space() {
        // The one-pass version against the definition (split on blanks, drop empty words,
        // join with one space), over blanks, other whitespace and multi-byte characters.
        let reference = |s: &str| {
            s.split([' ', '\t', '\n'])
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let pieces = [
            "", " ", "\t", "\n", "\r", "a", "é", "日本", "\u{a0}", "x y", "--",
        ];
        let mut cases: Vec<String> = Vec::new();
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    cases.push(format!("{a}{b}{c}"));
                    cases.push(format!("{a} {b}\t\t{c}\n"));
                }
            }
        }
        for s in &cases {
            assert_eq!(normalise_blanks(s), reference(s), "{s:?}");
        }
        assert_eq!(normalise_blanks("  rm \t -rf\n/ "), "rm -rf /");
    }

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
    fn huge_unknown_readings_are_answered_exactly_and_fast() {
        let p = SegPattern::compile(PatternKind::Glob, &format!("x {}", "a".repeat(100)), false)
            .unwrap();
        let mut r = b"x ".to_vec();
        r.extend(std::iter::repeat_n(b'b', 100_000));
        r.push(WILD);
        // The reading ends in unknown bytes that could spell the pattern's `a`s? No: the
        // pattern has no star, and the known `b`s cannot be `a`s.
        assert_eq!(p.matches(&r), None);
        let q = SegPattern::compile(PatternKind::Glob, "x *a", false).unwrap();
        assert_eq!(q.matches(&r), Some(Match::Possible));
        // Prepared once, each pattern costs its own length, not the reading's.
        let prepared = Reading::new(&r);
        let t = std::time::Instant::now();
        for _ in 0..100_000 {
            assert!(prepared.match_parts(&q.body, q.tail, false).is_some());
        }
        assert!(
            t.elapsed() < std::time::Duration::from_secs(20),
            "{:?}",
            t.elapsed()
        );
    }

    /// The dynamic programme `intersects` replaced: the oracle.
    fn intersects_dp(p: &[u8], s: &[u8]) -> bool {
        let (m, n) = (p.len(), s.len());
        let w = n + 1;
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

    fn intersects_oracle(body: &[u8], tail: bool, s: &[u8]) -> bool {
        let mut p = body.to_vec();
        intersects_dp(&p, s) || {
            p.extend_from_slice(&[b' ', STAR]);
            tail && intersects_dp(&p, s)
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// The linear intersection test agrees with the dynamic programme.
        #[test]
        fn linear_intersection_agrees_with_the_dp(
            body in proptest::collection::vec(proptest::sample::select(vec![b'a', b'b', b' ', STAR]), 0..9),
            s in proptest::collection::vec(proptest::sample::select(vec![b'a', b'b', b' ', WILD]), 0..12),
            tail: bool,
        ) {
            let r = Reading::new(&s);
            let got = match &r.unknown {
                Some(u) => r.intersects(u, &body) || (tail && r.intersects(u, &[&body[..], b" ", &[STAR]].concat())),
                None => glob_tail(&body, tail, &s),
            };
            proptest::prop_assert_eq!(got, intersects_oracle(&body, tail, &s));
        }
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
