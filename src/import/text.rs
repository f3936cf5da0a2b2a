//! Helpers shared by the importers: JSONC read in place, JSON lookups, shell words.

use super::{Import, Native};
use crate::syntax::diag::SourceText;
use crate::syntax::json::{parse_json, JNode, JValue};

/// Blank out `//` and `/* */` comments and trailing commas (JSONC, as VS Code, Gemini CLI
/// and OpenCode accept), keeping every byte offset and newline, so positions in the result
/// are positions in the file.
pub fn strip_jsonc(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let mut in_str = false;
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => {
                in_str = true;
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    if b[i] != b'\r' {
                        out[i] = b' ';
                    }
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let start = i;
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                let end = (i + 2).min(b.len());
                for o in out.iter_mut().take(end).skip(start) {
                    if *o != b'\n' && *o != b'\r' {
                        *o = b' ';
                    }
                }
                i = end;
            }
            b',' => {
                // A trailing comma: the next significant byte (comments already blanked
                // or still ahead) closes the container.
                let mut j = i + 1;
                loop {
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if b.get(j) == Some(&b'/') && b.get(j + 1) == Some(&b'/') {
                        while j < b.len() && b[j] != b'\n' {
                            j += 1;
                        }
                        continue;
                    }
                    if b.get(j) == Some(&b'/') && b.get(j + 1) == Some(&b'*') {
                        j += 2;
                        while j < b.len() && !(b[j] == b'*' && b.get(j + 1) == Some(&b'/')) {
                            j += 1;
                        }
                        j = (j + 2).min(b.len());
                        continue;
                    }
                    break;
                }
                if matches!(b.get(j), Some(b'}') | Some(b']')) {
                    out[i] = b' ';
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes were replaced by ASCII spaces: still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// Parse a native JSON (or JSONC) file; a syntax error is reported in the agent's terms and
/// None returned.
pub fn json(n: &Native, jsonc: bool, imp: &mut Import, what_agent_does: &str) -> Option<JNode> {
    let text = if jsonc {
        strip_jsonc(&n.src.text)
    } else {
        n.src.text.clone()
    };
    let src = SourceText::new(n.src.name.clone(), text);
    match parse_json(&src) {
        Ok(v) => Some(v),
        Err(d) => {
            let mut d = *d;
            d.line_text = n.src.line_text(d.span.line).to_string();
            d.help = Some(what_agent_does.to_string());
            imp.diags.push(d);
            None
        }
    }
}

/// The value of `key` in an object (the last one, as JavaScript's JSON.parse keeps).
pub fn get<'a>(obj: &'a JNode, key: &str) -> Option<&'a JNode> {
    match &obj.value {
        JValue::Obj(pairs) => pairs
            .iter()
            .rev()
            .find(|(k, _)| matches!(&k.value, JValue::Str(s) if s == key))
            .map(|(_, v)| v),
        _ => None,
    }
}

/// A path of keys (`["tools", "allowed"]`).
pub fn get_path<'a>(obj: &'a JNode, keys: &[&str]) -> Option<&'a JNode> {
    let mut cur = obj;
    for k in keys {
        cur = get(cur, k)?;
    }
    Some(cur)
}

/// The string of a node.
pub fn str_of(n: &JNode) -> Option<&str> {
    match &n.value {
        JValue::Str(s) => Some(s),
        _ => None,
    }
}

/// The object pairs of a node, in source order (later duplicates replace earlier ones, as
/// in JavaScript, but keep the first one's place).
pub fn pairs(n: &JNode) -> Vec<(&str, &JNode, &JNode)> {
    let mut out: Vec<(&str, &JNode, &JNode)> = Vec::new();
    if let JValue::Obj(ps) = &n.value {
        for (k, v) in ps {
            if let JValue::Str(s) = &k.value {
                if let Some(e) = out.iter_mut().find(|e| e.0 == s) {
                    e.2 = v;
                    e.1 = k;
                } else {
                    out.push((s, k, v));
                }
            }
        }
    }
    out
}

/// Strings of an array node: (text, start, end). Other elements are reported.
pub fn strings<'a>(
    n: &'a JNode,
    native: &Native,
    imp: &mut Import,
    what: &str,
) -> Vec<(&'a str, usize, usize)> {
    let mut out = Vec::new();
    match &n.value {
        JValue::Arr(items) => {
            for it in items {
                match &it.value {
                    JValue::Str(s) => out.push((s.as_str(), it.start, it.end)),
                    _ => imp.warn(
                        native,
                        it.start,
                        it.end,
                        format!("{what}: not a string, skipped (the agent ignores it too)"),
                    ),
                }
            }
        }
        _ => imp.warn(
            native,
            n.start,
            n.end,
            format!("{what}: not an array, skipped"),
        ),
    }
    out
}

/// A word as a POSIX shell would read it back (for examples built from token arrays).
pub fn shell_quote(w: &str) -> String {
    if !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-./=:,+@%^".contains(&b))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

pub fn shell_join(words: &[String]) -> String {
    words
        .iter()
        .map(|w| shell_quote(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// POSIX-style word splitting (quotes and backslashes), as Python's `shlex.split`; None on
/// an unterminated quote.
pub fn shlex(s: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut have = false;
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\'' => {
                have = true;
                loop {
                    match it.next()? {
                        '\'' => break,
                        x => cur.push(x),
                    }
                }
            }
            '"' => {
                have = true;
                loop {
                    match it.next()? {
                        '"' => break,
                        '\\' => match it.next()? {
                            x @ ('"' | '\\' | '$' | '`') => cur.push(x),
                            '\n' => {}
                            x => {
                                cur.push('\\');
                                cur.push(x);
                            }
                        },
                        x => cur.push(x),
                    }
                }
            }
            '\\' => {
                have = true;
                match it.next() {
                    Some('\n') | None => {}
                    Some(x) => cur.push(x),
                }
            }
            c if c.is_whitespace() => {
                if have {
                    words.push(std::mem::take(&mut cur));
                    have = false;
                }
            }
            c => {
                have = true;
                cur.push(c);
            }
        }
    }
    if have {
        words.push(cur);
    }
    Some(words)
}

/// Whether a word can go in a polc `prefix`/`exact` pattern as is: the pattern's words are
/// split on blanks, so a word with a blank, a quote or a shell operator cannot.
pub fn plain_word(w: &str) -> bool {
    !w.is_empty()
        && !w
            .chars()
            .any(|c| c.is_whitespace() || "'\"\\$`|&;<>()*?[]{}#~!".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonc_keeps_offsets() {
        let t = "{\n  // c\n  \"a\": [1, 2,], /* x\n y */ \"b\": \"//no\",\n}";
        let s = strip_jsonc(t);
        assert_eq!(s.len(), t.len());
        assert_eq!(s.matches('\n').count(), t.matches('\n').count());
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["b"], "//no");
        assert_eq!(v["a"][1], 2);
    }

    #[test]
    fn shlex_and_join_round_trip() {
        assert_eq!(
            shlex("git commit -m 'a b' \"c\\\"d\" e\\ f").unwrap(),
            vec!["git", "commit", "-m", "a b", "c\"d", "e f"]
        );
        assert!(shlex("echo 'x").is_none());
        let w: Vec<String> = vec!["rm".into(), "-rf".into(), "a b".into(), "it's".into()];
        assert_eq!(shlex(&shell_join(&w)).unwrap(), w);
    }
}
