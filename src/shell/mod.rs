//! Shell commands as polc sees them: segments, words, and the readings rules are matched
//! against (docs/contract.md#c-decide). See `README.md` in this folder for the procedure.

mod aliases;
pub mod effects;
mod lex;
pub mod lists;
mod readings;
pub mod walk;

pub use effects::{program_name, Inner};
pub use readings::{analyse_segment, SegmentReadings, MAX_PEEL, UNKNOWN};
pub use walk::{walk, Walk, Walked};

use crate::pattern::WILD;

/// Appendix B bounds.
pub const MAX_COMMAND_BYTES: usize = 100_000;
pub const MAX_DEPTH: u32 = 32;
pub const MAX_READINGS: usize = 64;
pub const MAX_SEGMENTS: usize = 10_000;
pub const MAX_BRACE_WORDS: usize = 256;

/// A piece of a word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Unquoted literal text: brace expansion and glob characters apply.
    Lit(String),
    /// Quoted or escaped literal text.
    Quoted(String),
    /// A value polc cannot know (`$X`, `${…}`, `$( )`, backticks); the raw text is kept.
    Unknown(String),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Word {
    /// As written.
    pub raw: String,
    pub parts: Vec<Part>,
    pub unattestable: Vec<&'static str>,
    /// One of the words a brace expansion produced (its value is in the reading).
    pub expanded: bool,
}

/// A word of a segment as the readings and the catalogue see it: borrowed from the segment
/// (no copy per reading: segments hold 16,000 words) or made by a reading (a brace
/// expansion's word, zsh's `=rm`, the word `xargs` appends).
pub type WordRef<'a> = std::borrow::Cow<'a, Word>;

/// Owned copies of `ws` (for [`Inner::Words`]).
pub fn owned_words(ws: &[WordRef<'_>]) -> Vec<Word> {
    ws.iter().map(|w| w.as_ref().clone()).collect()
}

/// One token of a word for expansion: a byte and whether it was unquoted, or unknown.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tok {
    Ch(u8, bool),
    Wild,
}

impl Word {
    pub fn unknown(raw: String) -> Word {
        Word {
            parts: vec![Part::Unknown(raw.clone())],
            raw,
            unattestable: Vec::new(),
            expanded: false,
        }
    }

    /// The word's value when it has no unknown part and no unquoted glob character.
    pub fn literal(&self) -> Option<String> {
        let mut s = String::new();
        for p in &self.parts {
            match p {
                Part::Lit(t) => {
                    if t.bytes().any(|b| matches!(b, b'*' | b'?')) || has_bracket_glob(t) {
                        return None;
                    }
                    s.push_str(t);
                }
                Part::Quoted(t) => s.push_str(t),
                Part::Unknown(_) => return None,
            }
        }
        Some(s)
    }

    /// The word written as one plain unquoted literal (reserved words must be unquoted).
    pub fn unquoted(&self) -> Option<&str> {
        match self.parts.as_slice() {
            [Part::Lit(t)] => Some(t),
            _ => None,
        }
    }

    /// The literal reading's value (allow): quotes removed, unknown parts as written.
    pub fn lit_value(&self) -> String {
        let mut s = String::new();
        for p in &self.parts {
            match p {
                Part::Lit(t) | Part::Quoted(t) | Part::Unknown(t) => s.push_str(t),
            }
        }
        s
    }

    pub fn is_literal(&self) -> bool {
        self.literal().is_some()
    }

    fn toks(&self) -> Vec<Tok> {
        let mut v = Vec::new();
        self.each_tok(|t| v.push(t));
        v
    }

    /// The word's tokens in order (what [`Self::toks`] collects).
    fn each_tok(&self, mut f: impl FnMut(Tok)) {
        for p in &self.parts {
            match p {
                Part::Lit(t) => {
                    let b = t.as_bytes();
                    let mut i = 0;
                    while i < b.len() {
                        match b[i] {
                            b'*' | b'?' => f(Tok::Wild),
                            b'[' if b[i + 1..].contains(&b']') => {
                                // A bracket expression matches one unknown character.
                                let close =
                                    i + 1 + b[i + 1..].iter().position(|&c| c == b']').unwrap_or(0);
                                f(Tok::Wild);
                                i = close;
                            }
                            c => f(Tok::Ch(c, true)),
                        }
                        i += 1;
                    }
                }
                Part::Quoted(t) => t.bytes().for_each(|c| f(Tok::Ch(c, false))),
                Part::Unknown(_) => f(Tok::Wild),
            }
        }
    }

    /// A deny value from tokens: bytes, a run of unknown tokens as one WILD.
    fn push_tok(v: &mut Vec<u8>, t: Tok) {
        match t {
            Tok::Ch(c, _) => v.push(c),
            Tok::Wild => {
                if v.last() != Some(&WILD) {
                    v.push(WILD)
                }
            }
        }
    }

    /// Deny/ask values: dequoted, unknown runs as WILD, brace expansion expanded. `None`
    /// when the expansion exceeds its bound.
    pub fn deny_values(&self, budget: &mut usize) -> Option<Vec<Vec<u8>>> {
        let brace = self
            .parts
            .iter()
            .any(|p| matches!(p, Part::Lit(t) if t.contains('{')));
        if !brace {
            // No unquoted `{`, so no expansion: one value, made without the token lists.
            // It costs none of the budget, which bounds the words brace expansions make
            // (bug fixed: every plain word cost one, so a segment of more than 256 words
            // read "brace expansion over 256 words" and every later word as unknown).
            let mut v = Vec::with_capacity(self.raw.len());
            self.each_tok(|t| Self::push_tok(&mut v, t));
            return Some(vec![v]);
        }
        if *budget == 0 {
            // Every expansion yields at least one word, and each costs one: over already.
            return None;
        }
        let toks = self.toks();
        let mut out = Vec::new();
        brace_expand(&toks, &mut out, budget)?;
        Some(
            out.into_iter()
                .map(|ts| {
                    let mut v = Vec::with_capacity(ts.len());
                    for t in ts {
                        Self::push_tok(&mut v, t);
                    }
                    v
                })
                .collect(),
        )
    }
}

fn has_bracket_glob(t: &str) -> bool {
    match t.find('[') {
        Some(i) => t[i + 1..].contains(']'),
        None => false,
    }
}

/// Expand the first unquoted `{a,b}` group (recursively for the rest).
fn brace_expand(toks: &[Tok], out: &mut Vec<Vec<Tok>>, budget: &mut usize) -> Option<()> {
    // Find an unquoted `{` with a matching unquoted `}` holding a top-level unquoted `,`.
    for open in 0..toks.len() {
        if toks[open] != Tok::Ch(b'{', true) {
            continue;
        }
        let mut depth = 0;
        let mut commas = Vec::new();
        let mut close = None;
        for (k, t) in toks.iter().enumerate().skip(open) {
            match t {
                Tok::Ch(b'{', true) => depth += 1,
                Tok::Ch(b'}', true) => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(k);
                        break;
                    }
                }
                Tok::Ch(b',', true) if depth == 1 => commas.push(k),
                _ => {}
            }
        }
        let Some(close) = close else { continue };
        if commas.is_empty() {
            // `{x..y[..n]}`: a sequence expression (bug fixed: `cat .en{v..v}` was read as
            // literal text while bash runs `cat .env`).
            match sequence(&toks[open + 1..close]) {
                Seq::Not => continue,
                Seq::TooMany => return None,
                Seq::Items(items) => {
                    for item in items {
                        let mut t: Vec<Tok> = toks[..open].to_vec();
                        t.extend(item.bytes().map(|b| Tok::Ch(b, true)));
                        t.extend_from_slice(&toks[close + 1..]);
                        brace_expand(&t, out, budget)?;
                    }
                    return Some(());
                }
            }
        }
        let mut bounds = vec![open];
        bounds.extend(&commas);
        bounds.push(close);
        for w in bounds.windows(2) {
            let mut t: Vec<Tok> = toks[..open].to_vec();
            t.extend_from_slice(&toks[w[0] + 1..w[1]]);
            t.extend_from_slice(&toks[close + 1..]);
            brace_expand(&t, out, budget)?;
        }
        return Some(());
    }
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    out.push(toks.to_vec());
    Some(())
}

/// What the inside of a comma-less `{…}` is.
enum Seq {
    /// Not a sequence expression: the braces are literal text, as in bash.
    Not,
    /// A sequence of more terms than [`MAX_BRACE_WORDS`] (or one polc cannot count).
    TooMany,
    Items(Vec<String>),
}

/// Bash's sequence expression `x..y[..incr]`: integers (zero-padded when either end
/// starts with a zero) or single letters (every byte between them, as bash does).
fn sequence(inner: &[Tok]) -> Seq {
    let mut text = String::new();
    for t in inner {
        match t {
            Tok::Ch(c, true) if c.is_ascii() => text.push(*c as char),
            _ => return Seq::Not,
        }
    }
    let parts: Vec<&str> = text.split("..").collect();
    if !(parts.len() == 2 || parts.len() == 3) {
        return Seq::Not;
    }
    let int = |s: &str| {
        let d = s.strip_prefix('-').unwrap_or(s);
        !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
    };
    let letter = |s: &str| s.len() == 1 && s.as_bytes()[0].is_ascii_alphabetic();
    let (a, b) = (parts[0], parts[1]);
    if parts.len() == 3 && !int(parts[2]) {
        return Seq::Not;
    }
    let step = match parts.get(2).map(|s| s.parse::<i64>()) {
        None => 1u64,
        Some(Ok(n)) => n.unsigned_abs().max(1),
        // An increment too large to read: polc cannot count the terms.
        Some(Err(_)) => return Seq::TooMany,
    };
    let (lo, hi, pad) = if int(a) && int(b) {
        let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) else {
            return Seq::TooMany;
        };
        let zero = |s: &str| {
            s.trim_start_matches('-').len() > 1 && s.trim_start_matches('-').starts_with('0')
        };
        let pad = if zero(a) || zero(b) {
            a.len().max(b.len())
        } else {
            0
        };
        (x, y, Some(pad))
    } else if letter(a) && letter(b) {
        (a.as_bytes()[0] as i64, b.as_bytes()[0] as i64, None)
    } else {
        return Seq::Not;
    };
    let count = lo.abs_diff(hi) / step + 1;
    if count > MAX_BRACE_WORDS as u64 {
        return Seq::TooMany;
    }
    let dir: i64 = if hi >= lo { 1 } else { -1 };
    let items = (0..count as i64)
        .map(|i| {
            let v = (lo as i128 + (dir * i) as i128 * step as i128) as i64;
            match pad {
                Some(w) if v < 0 => format!("-{:0>1$}", -v, w.saturating_sub(1)),
                Some(w) => format!("{v:0>w$}"),
                None => ((v as u8) as char).to_string(),
            }
        })
        .collect();
    Seq::Items(items)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect {
    pub op: String,
    pub target: Option<Word>,
    /// Writes or reads a file other than /dev/null.
    pub file: bool,
}

/// One command of the input: its words with redirections set aside.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Segment {
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    /// Constructs polc cannot attest, found while lexing this segment.
    pub unattestable: Vec<&'static str>,
    /// Nesting depth (0 = top level).
    pub depth: u32,
    /// The segment's source text, for reports.
    pub text: String,
    /// Found only by reading `\r` as a line break: used for deny/ask, not for allow.
    pub deny_only: bool,
    /// A guess at what a program polc does not know may run (a suffix of its words, an
    /// argument that reads as a command): a deny or ask rule it meets makes the command ask;
    /// what polc cannot attest in it does not count. Always also `deny_only`.
    pub speculative: bool,
}

/// The result of segmenting a command.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub segments: Vec<Segment>,
    /// Whole-command unattestable reasons (bounds, control characters).
    pub unattestable: Vec<&'static str>,
}

/// Characters that are word bytes, not blanks, and make a command unattestable (docs/contract.md#c-segments):
/// ASCII controls other than tab and newline, C1 controls, and Unicode format/space
/// characters that render invisibly or reorder text.
pub fn is_suspicious_char(c: char) -> bool {
    let u = c as u32;
    (u < 0x20 && c != '\t' && c != '\n')
        || u == 0x7F
        || (0x80..=0x9F).contains(&u)
        || matches!(
            u,
            0xA0 | 0xAD
                | 0x34F
                | 0x61C
                | 0x115F
                | 0x1160
                | 0x180E
                | 0x3000
                | 0x3164
                | 0xFEFF
                | 0xFFA0
        )
        || (0x2000..=0x200F).contains(&u)
        || (0x2028..=0x202F).contains(&u)
        || (0x205F..=0x206F).contains(&u)
        || (0xFFF0..=0xFFFB).contains(&u)
        || (0xE0000..=0xE007F).contains(&u)
        || (0x1D173..=0x1D17A).contains(&u)
}

/// Segment a command (docs/contract.md#c-segments). Never fails: what cannot be read is unattestable.
pub fn parse(command: &str) -> Parsed {
    let mut parsed = Parsed::default();
    if command.len() > MAX_COMMAND_BYTES {
        parsed
            .unattestable
            .push("command longer than 100,000 bytes");
        // Still look for denies in a bounded prefix.
        let mut cut = MAX_COMMAND_BYTES;
        while !command.is_char_boundary(cut) {
            cut -= 1;
        }
        let inner = parse(&command[..cut]);
        parsed.segments = inner.segments;
        parsed.unattestable.extend(inner.unattestable);
        return parsed;
    }
    // ASCII text (the usual case) checked byte-wise: only its controls are suspicious.
    let suspicious = if command.is_ascii() {
        command
            .bytes()
            .any(|b| (b < 0x20 && b != b'\t' && b != b'\n') || b == 0x7F)
    } else {
        command.chars().any(is_suspicious_char)
    };
    if suspicious {
        parsed
            .unattestable
            .push("control or invisible Unicode character");
    }
    let mut lx = lex::Lexer::new(command.as_bytes(), 0);
    lx.run();
    parsed.segments = lx.segments;
    parsed.unattestable.extend(lx.global);
    if command.contains('\r') {
        // Deny/ask also read a lone `\r` as a line break (terminals and some hosts do).
        let alt = command.replace('\r', "\n");
        let mut lx = lex::Lexer::new(alt.as_bytes(), 0);
        lx.run();
        for mut s in lx.segments {
            s.deny_only = true;
            if parsed.segments.len() < MAX_SEGMENTS {
                parsed.segments.push(s);
            }
        }
    }
    parsed
}

/// The dequoted, unescaped form of a whole command for content scanners: quotes and
/// backslashes removed outside single quotes (`prod-db.inter""nal` → `prod-db.internal`).
pub fn dequote(command: &str) -> String {
    let mut out = String::with_capacity(command.len());
    let mut chars = command.chars().peekable();
    let mut in_single = false;
    let mut in_double = false;
    while let Some(c) = chars.next() {
        match c {
            '\'' if !in_double => in_single = !in_single,
            '"' if !in_single => in_double = !in_double,
            '\\' if !in_single => {
                if let Some(n) = chars.next() {
                    if n != '\n' {
                        out.push(n);
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
