//! Quote-aware segmentation of a shell command (docs/contract.md#c-segments).
//!
//! One pass over the bytes builds segments (a command's words, redirections set aside) and
//! descends into `$( )`, backticks, `<( )`, `>( )` and `${ … }` holding substitutions. What
//! cannot be attested is recorded per segment; nothing is ever executed or expanded.

use super::{Part, Redirect, Segment, Word};
use super::{MAX_DEPTH, MAX_SEGMENTS};

pub(crate) struct Lexer<'a> {
    src: &'a [u8],
    /// `src` as text when it is UTF-8 (checked once): pieces of it are then copied without
    /// checking each again ([`Self::text_at`]; issue 12 item 6).
    text: Option<&'a str>,
    pos: usize,
    depth: u32,
    pub segments: Vec<Segment>,
    /// Unattestable reasons not tied to one segment (bounds, unterminated input).
    pub global: Vec<&'static str>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Term {
    Eof,
    /// `$(`, `<(`, `>(`: ends at the matching `)`.
    Paren,
}

fn is_meta(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>'
    )
}

static RESERVED_CONTROL: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "if", "then", "elif", "else", "fi", "for", "while", "until", "do", "done", "case", "esac",
    "select", "function", "coproc",
]);

/// What a command list has seen so far (see `list`).
struct ListState {
    cur: Segment,
    start: usize,
    /// A command (or a closed group) stands before the next operator.
    complete: bool,
    /// After `&&`, `||`, `|`: a command must follow (newlines may come first).
    pending: bool,
    parens: u32,
    braces: u32,
    /// Just after `)` or a closing `}`: only redirections or an operator may follow.
    closed: bool,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a [u8], depth: u32) -> Lexer<'a> {
        Lexer {
            src,
            text: std::str::from_utf8(src).ok(),
            pos: 0,
            depth,
            segments: Vec::new(),
            global: Vec::new(),
        }
    }

    /// `src[a..b]` as text, as `String::from_utf8_lossy` reads it: borrowed from the source
    /// when the source is UTF-8 and the range falls on character boundaries (the usual case),
    /// else read lossily.
    fn text_at(&self, a: usize, b: usize) -> std::borrow::Cow<'a, str> {
        match self.text.and_then(|t| t.get(a..b)) {
            Some(t) => std::borrow::Cow::Borrowed(t),
            None => String::from_utf8_lossy(&self.src[a..b]),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }
    fn peek_at(&self, k: usize) -> Option<u8> {
        self.src.get(self.pos + k).copied()
    }
    fn starts(&self, s: &[u8]) -> bool {
        self.src[self.pos.min(self.src.len())..].starts_with(s)
    }

    /// Parse the whole input as a command list.
    pub fn run(&mut self) {
        self.list(Term::Eof);
    }

    fn finish(&mut self, cur: &mut Segment, start: &mut usize) {
        if !cur.words.is_empty() || !cur.redirects.is_empty() || !cur.unattestable.is_empty() {
            let end = self.pos.min(self.src.len());
            cur.text = self.text_at((*start).min(end), end).trim().to_string();
            if self.segments.len() >= MAX_SEGMENTS {
                if !self.global.contains(&"more than 10,000 segments") {
                    self.global.push("more than 10,000 segments");
                }
            } else {
                self.segments.push(std::mem::take(cur));
            }
        }
        *cur = Segment {
            depth: self.depth,
            ..Segment::default()
        };
        *start = self.pos;
    }

    fn syntax_error(&mut self) {
        if !self.global.contains(&"shell syntax error") {
            self.global.push("shell syntax error");
        }
    }

    /// A command list up to `term`. Besides segments, it tracks enough of bash's grammar to
    /// notice what bash would reject (an operator with no command before it, a list ending
    /// in `&&`/`||`/`|`, unbalanced `( )` or `{ }`): such input is never allowed.
    fn list(&mut self, term: Term) {
        let mut st = ListState {
            cur: Segment {
                depth: self.depth,
                ..Segment::default()
            },
            start: self.pos,
            complete: false,
            pending: false,
            parens: 0,
            braces: 0,
            closed: false,
        };
        loop {
            self.skip_blanks();
            let has = !st.cur.words.is_empty() || !st.cur.redirects.is_empty();
            if !has {
                st.start = self.pos;
            }
            let Some(c) = self.peek() else {
                if term == Term::Paren {
                    st.cur.unattestable.push("unterminated substitution");
                }
                if st.pending && !has || st.parens > 0 || st.braces > 0 {
                    self.syntax_error();
                }
                self.finish(&mut st.cur, &mut st.start);
                return;
            };
            match c {
                b')' => {
                    if self.close_paren(&mut st, term, has) {
                        return;
                    }
                }
                b'#' => self.comment(),
                b'\n' => self.newline(&mut st, has),
                b';' | b'&' | b'|' => self.operator(&mut st, c, has),
                b'(' => self.open_paren(&mut st, has),
                b'<' | b'>' => self.angle(&mut st),
                _ => self.word_item(&mut st, c),
            }
        }
    }

    /// Subshells and groups count toward the nesting bound as substitutions do (bug fixed:
    /// 40 nested `( … )` or `{ …; }` were allowed past the documented bound of 32).
    fn nesting(&mut self, st: &ListState) {
        if self.depth + st.parens + st.braces > MAX_DEPTH
            && !self.global.contains(&"nesting deeper than 32")
        {
            self.global.push("nesting deeper than 32");
        }
    }

    /// Blanks, and backslash-newline continuations between words.
    fn skip_blanks(&mut self) {
        while let Some(c) = self.peek() {
            if c == b' ' || c == b'\t' {
                self.pos += 1;
            } else if c == b'\\' && self.peek_at(1) == Some(b'\n') {
                self.pos += 2;
            } else {
                break;
            }
        }
    }

    /// `)`: ends a subshell or group, or the substitution this list is (then true).
    fn close_paren(&mut self, st: &mut ListState, term: Term, has: bool) -> bool {
        if !has
            && (st.pending || !st.complete)
            && (term != Term::Paren || st.parens != 0 || st.pending)
        {
            // `( )`, `ls && )`: nothing before the parenthesis.
            self.syntax_error();
        }
        self.finish(&mut st.cur, &mut st.start);
        self.pos += 1;
        if st.parens == 0 {
            if term == Term::Paren {
                if st.braces > 0 {
                    self.syntax_error();
                }
                return true;
            }
            self.syntax_error();
        } else {
            st.parens -= 1;
        }
        st.complete = true;
        st.pending = false;
        st.closed = true;
        st.start = self.pos;
        false
    }

    fn comment(&mut self) {
        // A word-initial `#` starts a comment to the end of the line; backslash
        // does not continue it (`git status # \⏎rm -rf ~` runs rm).
        while let Some(c) = self.peek() {
            if c == b'\n' {
                break;
            }
            self.pos += 1;
        }
    }

    fn newline(&mut self, st: &mut ListState, has: bool) {
        st.closed = false;
        if has {
            st.complete = true;
            st.pending = false;
        }
        self.finish(&mut st.cur, &mut st.start);
        self.pos += 1;
        if !st.pending {
            st.complete = false;
        }
        st.start = self.pos;
    }

    /// `;`, `&`, `|` and their doubled forms (and `&>`, a redirection).
    fn operator(&mut self, st: &mut ListState, c: u8, has: bool) {
        if c == b'&' && self.peek_at(1) == Some(b'>') {
            self.redirect(&mut st.cur);
            return;
        }
        let two = self.peek_at(1);
        let len = match (c, two) {
            (b';', Some(b';')) => {
                // `;;`, `;;&` end case arms: only inside `case`, a control
                // structure; anywhere else bash rejects them.
                st.cur.unattestable.push("case arm separator ;;");
                if self.peek_at(2) == Some(b'&') {
                    3
                } else {
                    2
                }
            }
            (b';', Some(b'&')) | (b'&', Some(b'&')) | (b'|', Some(b'|')) | (b'|', Some(b'&')) => 2,
            _ => 1,
        };
        if !has && !st.complete {
            self.syntax_error();
        }
        st.closed = false;
        self.finish(&mut st.cur, &mut st.start);
        self.pos += len;
        let op = &self.src[self.pos - len..self.pos];
        st.pending = matches!(op, b"&&" | b"||" | b"|" | b"|&");
        st.complete = false;
        st.start = self.pos;
    }

    /// `(`: a subshell, an arithmetic command or a function definition.
    fn open_paren(&mut self, st: &mut ListState, has: bool) {
        if self.peek_at(1) == Some(b'(') && !has {
            st.cur.unattestable.push("arithmetic command (( ))");
        } else if st.cur.words.len() == 1 && self.after_blanks_is(b')') {
            st.cur.unattestable.push("function definition");
        } else if has {
            // `echo (`: bash rejects a parenthesis after words.
            self.syntax_error();
        }
        self.finish(&mut st.cur, &mut st.start);
        self.pos += 1;
        st.parens += 1;
        self.nesting(st);
        st.pending = false;
        st.complete = false;
        st.start = self.pos;
    }

    /// `<`, `>`: a redirection or a process substitution.
    fn angle(&mut self, st: &mut ListState) {
        if self.peek_at(1) == Some(b'(') {
            // Process substitution: a word whose value is a path polc cannot know.
            self.pos += 2;
            let word = self.substitution_word(b"<(", "process substitution");
            st.cur.unattestable.push("process substitution");
            st.cur.words.push(word);
        } else {
            self.redirect(&mut st.cur);
        }
        st.pending = false;
    }

    /// A word (with reserved words in command position), or an fd-numbered redirection.
    fn word_item(&mut self, st: &mut ListState, c: u8) {
        // An fd number directly before a redirection operator belongs to it.
        if c.is_ascii_digit() {
            let mut k = self.pos;
            while k < self.src.len() && self.src[k].is_ascii_digit() {
                k += 1;
            }
            if k < self.src.len()
                && matches!(self.src[k], b'<' | b'>')
                && self.src.get(k + 1) != Some(&b'(')
            {
                self.pos = k;
                self.redirect(&mut st.cur);
                st.pending = false;
                return;
            }
        }
        // `{name}>file`: bash's redirection that stores a new fd in `name` (bug fixed: as a
        // leading word it hid the whole command, `{fd}>/dev/null rm -rf /` ran rm). polc
        // reads the redirection and does not attest what the variable is used for.
        if c == b'{' {
            let mut k = self.pos + 1;
            while k < self.src.len() && (self.src[k].is_ascii_alphanumeric() || self.src[k] == b'_')
            {
                k += 1;
            }
            if k > self.pos + 1
                && self.src.get(k) == Some(&b'}')
                && matches!(self.src.get(k + 1), Some(b'<') | Some(b'>'))
                && self.src.get(k + 2) != Some(&b'(')
            {
                self.pos = k + 1;
                self.redirect(&mut st.cur);
                st.cur
                    .unattestable
                    .push("redirection to a variable file descriptor");
                st.pending = false;
                return;
            }
        }
        let word = self.word();
        if st.closed {
            // `( ls ) x`, `{ ls; } x`
            self.syntax_error();
        }
        // Reserved words count only in command position, before any word and before any
        // redirection (bash reads `2>&1 { git; }` as a command named `{` and then rejects the
        // `}`; polc read a group and allowed it).
        let first = st.cur.redirects.is_empty()
            && st
                .cur
                .words
                .iter()
                .all(|w| matches!(w.unquoted(), Some("!") | Some("{") | Some("time")));
        if first {
            match word.unquoted() {
                Some("{") => {
                    st.braces += 1;
                    self.nesting(st);
                }
                Some("}") if st.cur.words.is_empty() => {
                    if st.braces == 0 {
                        self.syntax_error();
                    } else {
                        st.braces -= 1;
                    }
                    st.cur.words.push(word);
                    st.closed = true;
                    st.pending = false;
                    return;
                }
                _ => {}
            }
            // One plain unquoted literal (these names hold no glob character, so its text
            // is its literal value): no copy of the word.
            if let Some(lit) = word.unquoted() {
                if RESERVED_CONTROL.contains(&lit) {
                    st.cur.unattestable.push("control structure");
                } else if lit == "[[" {
                    st.cur.unattestable.push("test construct [[ ]]");
                }
            }
        }
        st.cur.words.push(word);
        st.pending = false;
    }

    fn after_blanks_is(&self, c: u8) -> bool {
        let mut k = self.pos + 1;
        while k < self.src.len() && (self.src[k] == b' ' || self.src[k] == b'\t') {
            k += 1;
        }
        self.src.get(k) == Some(&c)
    }

    /// A redirection operator with optional fd, then its target word.
    fn redirect(&mut self, cur: &mut Segment) {
        let op_start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let ops: [&[u8]; 12] = [
            b"&>>", b"&>", b"<<<", b"<<-", b"<<", b">>", b">|", b"<>", b">&", b"<&", b">", b"<",
        ];
        let mut op: &[u8] = b">";
        for o in ops {
            if self.starts(o) {
                op = o;
                break;
            }
        }
        self.pos += op.len();
        while matches!(self.peek(), Some(b' ') | Some(b'\t')) {
            self.pos += 1;
        }
        let target = match self.peek() {
            Some(c) if !is_meta(c) => Some(self.word()),
            _ => None,
        };
        let op_text = String::from_utf8_lossy(
            &self.src[op_start..op_start + (self.pos - op_start).min(self.src.len() - op_start)],
        )
        .to_string();
        let op_s = String::from_utf8_lossy(op).to_string();
        let mut file_write = false;
        match op {
            b"<<<" => cur.unattestable.push("here-string"),
            b"<<" | b"<<-" => cur.unattestable.push("heredoc"),
            b">&" | b"<&" => {
                // N>&M and N>&- are fd operations; any other word names a file.
                let lit = target.as_ref().and_then(|w| w.literal());
                let fd_op = lit.as_deref().is_some_and(|t| {
                    t == "-" || (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                });
                if !fd_op {
                    file_write = true;
                }
            }
            _ => {
                let lit = target.as_ref().and_then(|w| w.literal());
                if lit.as_deref() != Some("/dev/null") {
                    file_write = true;
                }
            }
        }
        if target.is_none() {
            cur.unattestable.push("redirection without a target");
        } else if file_write {
            cur.unattestable.push("redirection to a file");
        }
        let _ = op_text;
        cur.redirects.push(Redirect {
            op: op_s,
            target,
            file: file_write,
        });
    }

    /// Parse one word up to an unquoted metacharacter.
    fn word(&mut self) -> Word {
        let start = self.pos;
        // Most words are one part: room for one, not the default four (128 bytes a word,
        // 6 MB and its page faults for a command of 46,000 words).
        let mut parts: Vec<Part> = Vec::with_capacity(1);
        let mut lit = Vec::new();
        fn flush(parts: &mut Vec<Part>, lit: &mut Vec<u8>) {
            if !lit.is_empty() {
                // The buffer becomes the part's text (no copy when it is UTF-8, the usual
                // case: a 100 kB command of 16,000 words spent a third of its walk here).
                let s = match String::from_utf8(std::mem::take(lit)) {
                    Ok(s) => s,
                    Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
                };
                parts.push(Part::Lit(s));
            }
        }
        let mut unattest: Vec<&'static str> = Vec::new();
        while let Some(c) = self.peek() {
            if is_meta(c) {
                // `<(`/`>(` inside a word would be a process substitution only at word start.
                break;
            }
            match c {
                b'\\' => match self.peek_at(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(_) => {
                        flush(&mut parts, &mut lit);
                        let ch = self.take_char(self.pos + 1);
                        parts.push(Part::Quoted(ch));
                    }
                    None => {
                        self.pos += 1;
                    }
                },
                b'\'' => {
                    flush(&mut parts, &mut lit);
                    self.pos += 1;
                    let s = self.pos;
                    while self.peek().is_some_and(|c| c != b'\'') {
                        self.pos += 1;
                    }
                    if self.peek().is_none() {
                        unattest.push("unterminated quote");
                    }
                    parts.push(Part::Quoted(self.text_at(s, self.pos).into_owned()));
                    self.pos = (self.pos + 1).min(self.src.len());
                }
                b'"' => {
                    flush(&mut parts, &mut lit);
                    self.pos += 1;
                    self.double_quoted(&mut parts, &mut unattest);
                }
                b'`' => {
                    flush(&mut parts, &mut lit);
                    self.backtick(&mut parts);
                    unattest.push("backtick substitution");
                }
                b'$' => {
                    flush(&mut parts, &mut lit);
                    self.dollar(&mut parts, &mut unattest, false);
                }
                _ => {
                    // The run of plain bytes up to the next byte the loop treats apart,
                    // copied at once.
                    let s = self.pos;
                    self.pos += 1;
                    while self.peek().is_some_and(|c| {
                        !is_meta(c) && !matches!(c, b'\\' | b'\'' | b'"' | b'`' | b'$')
                    }) {
                        self.pos += 1;
                    }
                    if lit.is_empty() {
                        // The usual word: one run, copied at its size.
                        lit = self.src[s..self.pos].to_vec();
                    } else {
                        lit.extend_from_slice(&self.src[s..self.pos]);
                    }
                }
            }
        }
        flush(&mut parts, &mut lit);
        let raw = self.text_at(start, self.pos).into_owned();
        Word {
            raw,
            parts,
            unattestable: unattest,
            expanded: false,
        }
    }

    /// The UTF-8 character starting at byte `at` (lossy), advancing past it.
    fn take_char(&mut self, at: usize) -> String {
        let mut end = at + 1;
        while end < self.src.len() && (self.src[end] & 0xC0) == 0x80 {
            end += 1;
        }
        let end = end.min(self.src.len());
        self.pos = end;
        String::from_utf8_lossy(&self.src[at.min(end)..end]).into_owned()
    }

    fn double_quoted(&mut self, parts: &mut Vec<Part>, unattest: &mut Vec<&'static str>) {
        let mut lit = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                unattest.push("unterminated quote");
                break;
            };
            match c {
                b'"' => {
                    self.pos += 1;
                    break;
                }
                b'\\' => match self.peek_at(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(n @ (b'$' | b'`' | b'"' | b'\\')) => {
                        lit.push(n);
                        self.pos += 2;
                    }
                    _ => {
                        lit.push(b'\\');
                        self.pos += 1;
                    }
                },
                b'`' => {
                    if !lit.is_empty() {
                        parts.push(Part::Quoted(String::from_utf8_lossy(&lit).into_owned()));
                        lit.clear();
                    }
                    self.backtick(parts);
                    unattest.push("backtick substitution");
                }
                b'$' => {
                    if !lit.is_empty() {
                        parts.push(Part::Quoted(String::from_utf8_lossy(&lit).into_owned()));
                        lit.clear();
                    }
                    self.dollar(parts, unattest, true);
                }
                _ => {
                    lit.push(c);
                    self.pos += 1;
                }
            }
        }
        // Keep an empty quoted part so `""` is a word with an empty literal value.
        parts.push(Part::Quoted(String::from_utf8_lossy(&lit).into_owned()));
    }

    /// At a `$`: substitution, arithmetic, parameter expansion, ANSI-C or locale quoting.
    fn dollar(&mut self, parts: &mut Vec<Part>, unattest: &mut Vec<&'static str>, in_dq: bool) {
        let start = self.pos;
        match self.peek_at(1) {
            Some(b'(') => {
                if self.peek_at(2) == Some(b'(') {
                    unattest.push("arithmetic expansion $(( ))");
                } else {
                    unattest.push("command substitution");
                }
                self.pos += 2;
                let w = self.substitution_word(b"$(", "command substitution");
                parts.extend(w.parts);
            }
            Some(b'{') => self.braced_parameter(parts, unattest, in_dq, start),
            Some(b'[') => self.old_arithmetic(parts, unattest, start),
            Some(b'\'') if !in_dq => {
                unattest.push("ANSI-C quoting $'…'");
                self.pos += 2;
                let mut out = Vec::new();
                let mut closed = false;
                while let Some(c) = self.peek() {
                    if c == b'\'' {
                        self.pos += 1;
                        closed = true;
                        break;
                    }
                    if c == b'\\' {
                        self.pos += 1;
                        self.ansi_escape(&mut out);
                    } else {
                        out.push(c);
                        self.pos += 1;
                    }
                }
                if !closed {
                    unattest.push("unterminated quote");
                }
                parts.push(Part::Quoted(String::from_utf8_lossy(&out).into_owned()));
            }
            Some(b'"') if !in_dq => {
                // bash replaces the text by its translation from a message catalogue
                // (`TEXTDOMAIN`, `TEXTDOMAINDIR`: a file the command may have written) and
                // expands the translation as a double-quoted string: `$( )` there runs
                // (red team, session 5).
                unattest.push("locale translation $\"…\" (a translation may run commands)");
                self.pos += 2;
                self.double_quoted(parts, unattest);
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                self.pos += 1;
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
                {
                    self.pos += 1;
                }
                self.zsh_unbraced_subscript(unattest);
                parts.push(self.unknown_since(start));
            }
            // zsh `$~X` (its value as a pattern), `$=X` (split into words), `$^X`, `$+X`:
            // the value of X there (bash reads the text literally; zsh runs agents too).
            Some(b'~' | b'=' | b'^' | b'+')
                if self.peek_at(2).is_some_and(|c| {
                    c.is_ascii_alphabetic() || c == b'_' || b"~=^".contains(&c)
                }) =>
            {
                self.zsh_flagged(parts, unattest, start)
            }
            Some(c) if c.is_ascii_digit() || b"@*#?$!-".contains(&c) => {
                self.pos += 2;
                // zsh's `$#name` (the length of name), subscripted: `$#path[x]`.
                if c == b'#'
                    && self
                        .peek()
                        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
                {
                    let save = self.pos;
                    while self
                        .peek()
                        .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
                    {
                        self.pos += 1;
                    }
                    if self.peek() != Some(b'[') {
                        self.pos = save;
                    }
                }
                self.zsh_unbraced_subscript(unattest);
                parts.push(self.unknown_since(start));
            }
            _ => {
                // A lone `$` is literal.
                self.pos += 1;
                parts.push(Part::Quoted("$".into()));
            }
        }
    }

    /// zsh reads `$name[…]` as a subscript (bash as `$name` then the text `[…]`), evaluated
    /// as arithmetic: `x='path[$(CMD)]'; echo $path[x]` runs CMD (red team, session 6).
    fn zsh_unbraced_subscript(&self, unattest: &mut Vec<&'static str>) {
        if self.peek() == Some(b'[') {
            unattest.push("zsh subscript $name[…] (evaluated as arithmetic)");
        }
    }

    /// `$[ … ]`, bash's old arithmetic expansion (see `dollar`).
    fn old_arithmetic(
        &mut self,
        parts: &mut Vec<Part>,
        unattest: &mut Vec<&'static str>,
        start: usize,
    ) {
        // `$[ … ]`: bash's old arithmetic expansion. It evaluates variables' values
        // as arithmetic, and `a[$(cmd)]` in a value runs cmd (bug fixed: it was
        // read as literal text).
        unattest.push("arithmetic expansion $[ ]");
        self.pos += 2;
        let inner_start = self.pos;
        let mut depth = 1u32;
        while let Some(c) = self.peek() {
            self.pos += 1;
            match c {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        let inner_end = if depth == 0 { self.pos - 1 } else { self.pos };
        let inner = &self.src[inner_start..inner_end.max(inner_start)];
        if inner.windows(2).any(|w| w == b"$(") || inner.contains(&b'`') {
            unattest.push("command substitution");
            self.nested(inner);
        }
        parts.push(self.unknown_since(start));
    }

    /// The text from `start` to here, as a value polc cannot know.
    fn unknown_since(&self, start: usize) -> Part {
        Part::Unknown(self.text_at(start, self.pos).into_owned())
    }

    /// zsh's `$~X`, `$=X`, `$^X`, `$+X` (see `dollar`): an unknown value; `~` makes the
    /// value a pattern, whose glob qualifiers (`*(e:CMD:)`) run code.
    fn zsh_flagged(
        &mut self,
        parts: &mut Vec<Part>,
        unattest: &mut Vec<&'static str>,
        start: usize,
    ) {
        self.pos += 1;
        while self.peek().is_some_and(|c| b"~=^+".contains(&c)) {
            if self.peek() == Some(b'~') {
                unattest.push("zsh $~ expansion (its value is a pattern)");
            }
            self.pos += 1;
        }
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.pos += 1;
        }
        parts.push(self.unknown_since(start));
    }

    /// `${…}`: an unknown value; a substitution in a default value is looked into.
    fn braced_parameter(
        &mut self,
        parts: &mut Vec<Part>,
        unattest: &mut Vec<&'static str>,
        in_dq: bool,
        start: usize,
    ) {
        self.pos += 2;
        let inner_start = self.pos;
        let mut depth = 1u32;
        while let Some(c) = self.peek() {
            match c {
                b'\\' => self.pos += 2,
                b'{' => {
                    depth += 1;
                    self.pos += 1;
                }
                b'}' => {
                    depth -= 1;
                    self.pos += 1;
                    if depth == 0 {
                        break;
                    }
                }
                b'\'' if !in_dq => {
                    self.pos += 1;
                    while self.peek().is_some_and(|c| c != b'\'') {
                        self.pos += 1;
                    }
                    self.pos += 1;
                }
                _ => self.pos += 1,
            }
        }
        self.pos = self.pos.min(self.src.len());
        if depth != 0 {
            unattest.push("unterminated parameter expansion");
        }
        let inner_end = if depth == 0 { self.pos - 1 } else { self.pos };
        let inner = &self.src[inner_start.min(inner_end)..inner_end];
        // A default value can hold substitutions: look inside when it does.
        if inner.windows(2).any(|w| w == b"$(") || inner.contains(&b'`') {
            unattest.push("command substitution");
            self.nested(inner);
        }
        if inner.contains(&b'[') {
            unattest.push("array subscript in parameter expansion");
        }
        if let Some(why) = evaluating_expansion(inner) {
            unattest.push(why);
        }
        // `${GIT_EDITOR:=rm -rf ~}` assigns: a command-holding variable set this way is as
        // unattestable as `GIT_EDITOR=… git commit`, and its value is read as a command.
        let name_end = inner
            .iter()
            .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
            .unwrap_or(inner.len());
        let rest = &inner[name_end..];
        let value = rest.strip_prefix(b":=").or_else(|| rest.strip_prefix(b"="));
        if let Some(value) = value {
            let name = String::from_utf8_lossy(&inner[..name_end]);
            if super::lists::runs_env(&name) {
                unattest.push("an environment variable that names a program or code to run");
                self.nested(value);
            }
        }
        parts.push(self.unknown_since(start));
    }

    fn ansi_escape(&mut self, out: &mut Vec<u8>) {
        let Some(c) = self.peek() else { return };
        self.pos += 1;
        let simple = match c {
            b'n' => Some(b'\n'),
            b't' => Some(b'\t'),
            b'r' => Some(b'\r'),
            b'a' => Some(7),
            b'b' => Some(8),
            b'e' | b'E' => Some(27),
            b'f' => Some(12),
            b'v' => Some(11),
            b'\\' => Some(b'\\'),
            b'\'' => Some(b'\''),
            b'"' => Some(b'"'),
            b'?' => Some(b'?'),
            _ => None,
        };
        if let Some(b) = simple {
            out.push(b);
            return;
        }
        let take_hex = |lx: &mut Self, max: usize| {
            let mut v: u32 = 0;
            let mut n = 0;
            while n < max {
                match lx.peek().and_then(|c| (c as char).to_digit(16)) {
                    Some(d) => {
                        v = v * 16 + d;
                        lx.pos += 1;
                        n += 1;
                    }
                    None => break,
                }
            }
            (v, n)
        };
        match c {
            b'x' => {
                let (v, n) = take_hex(self, 2);
                if n > 0 {
                    out.push(v as u8);
                }
            }
            b'u' | b'U' => {
                let (v, n) = take_hex(self, if c == b'u' { 4 } else { 8 });
                if n > 0 {
                    let ch = char::from_u32(v).unwrap_or('\u{FFFD}');
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
            }
            b'0'..=b'7' => {
                let mut v: u32 = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 {
                    match self.peek() {
                        Some(d @ b'0'..=b'7') => {
                            v = v * 8 + (d - b'0') as u32;
                            self.pos += 1;
                            n += 1;
                        }
                        _ => break,
                    }
                }
                out.push((v & 0xFF) as u8);
            }
            b'c' => {
                if let Some(d) = self.peek() {
                    self.pos += 1;
                    out.push(d & 0x1F);
                }
            }
            _ => {
                out.push(b'\\');
                out.push(c);
            }
        }
    }

    /// After `$(`, `<(` or `>(`: parse the inner list as segments one level deeper and
    /// return a word standing for its (unknown) output.
    fn substitution_word(&mut self, opener: &[u8], what: &'static str) -> Word {
        let start = self.pos - opener.len();
        if self.depth + 1 > MAX_DEPTH {
            self.global.push("nesting deeper than 32");
            // Skip to the end: whatever follows cannot be attested.
            self.pos = self.src.len();
            return Word::unknown(String::from_utf8_lossy(&self.src[start..]).into_owned());
        }
        // The same source: checked as text once, not again for each substitution.
        let mut inner = Lexer {
            src: self.src,
            text: self.text,
            ..Lexer::new(&[], self.depth + 1)
        };
        inner.pos = self.pos;
        inner.list(Term::Paren);
        self.pos = inner.pos;
        self.absorb(inner);
        let _ = what;
        Word::unknown(
            self.text_at(start, self.pos.min(self.src.len()))
                .into_owned(),
        )
    }

    /// A backtick substitution: its text up to the next unescaped backtick, parsed apart.
    fn backtick(&mut self, parts: &mut Vec<Part>) {
        let start = self.pos;
        self.pos += 1;
        let mut inner = Vec::new();
        let mut closed = false;
        while let Some(c) = self.peek() {
            if c == b'\\' && matches!(self.peek_at(1), Some(b'`') | Some(b'\\') | Some(b'$')) {
                inner.push(self.src[self.pos + 1]);
                self.pos += 2;
                continue;
            }
            self.pos += 1;
            if c == b'`' {
                closed = true;
                break;
            }
            inner.push(c);
        }
        if !closed {
            self.global.push("unterminated backtick");
        }
        self.nested(&inner);
        parts.push(self.unknown_since(start));
    }

    /// Parse a separate piece of text (backticks, `${…}` defaults) one level deeper.
    fn nested(&mut self, text: &[u8]) {
        if self.depth + 1 > MAX_DEPTH {
            self.global.push("nesting deeper than 32");
            return;
        }
        let mut inner = Lexer::new(text, self.depth + 1);
        inner.run();
        self.absorb(inner);
    }

    fn absorb(&mut self, inner: Lexer<'_>) {
        for g in inner.global {
            if !self.global.contains(&g) {
                self.global.push(g);
            }
        }
        for s in inner.segments {
            if self.segments.len() >= MAX_SEGMENTS {
                if !self.global.contains(&"more than 10,000 segments") {
                    self.global.push("more than 10,000 segments");
                }
                break;
            }
            self.segments.push(s);
        }
    }
}

/// Forms of `${…}` that evaluate a variable's value as code or arithmetic (where
/// `a[$(cmd)]` in the value runs cmd), or that polc does not read (red team, session 3):
/// indirection `${!x}`, transformations `${x@P}` (prompt expansion runs `$( )` in the
/// value), substrings whose offset or length is not a plain number `${v:x}`, `${@:x}`, and
/// zsh's parameter flags `${(e)x}`. `None` for plain names, defaults (`${v:-x}`, `${v:=x}`,
/// `${v:+x}`, `${v:?x}`), lengths and literal substrings (`${v:0:3}`).
fn evaluating_expansion(inner: &[u8]) -> Option<&'static str> {
    match inner.first() {
        Some(b'!') if inner.len() > 1 => return Some("indirect parameter expansion ${!…}"),
        Some(b'(') => return Some("zsh parameter flags ${(…)…}"),
        Some(b'#') => return None,
        _ => {}
    }
    let name_end = match inner.first() {
        Some(c) if b"@*?$-!".contains(c) => 1,
        Some(c) if c.is_ascii_digit() => inner.iter().take_while(|c| c.is_ascii_digit()).count(),
        _ => inner
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count(),
    };
    let rest = &inner[name_end..];
    match rest.first() {
        Some(b'@') => Some("parameter transformation ${…@…}"),
        Some(b':') => match rest.get(1) {
            Some(b'-' | b'=' | b'+' | b'?') => None,
            _ if rest[1..]
                .iter()
                .all(|c| c.is_ascii_digit() || b" :-".contains(c)) =>
            {
                None
            }
            _ => Some("arithmetic in a substring expansion ${…:…}"),
        },
        _ => None,
    }
}
