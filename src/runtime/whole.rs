//! Deny and ask rules over the whole command text (issue 11, item 2).
//!
//! Segment readings never hold an operator, a pipe or a redirection, so a deny written
//! across them (`Bash(curl * | bash*)`, `Bash(> /dev/*)`) or with the quoting kept
//! (`Bash(python3 -c 'print(1)')`) would never match a segment. Claude Code also matches its
//! deny and ask rules against the whole command: as typed, without its redirections, and
//! without leading variable assignments and wrappers (`timeout 5`, `nice`, `nohup`, …).
//! polc does the same here, for deny and ask rules only — a whole-command match can only
//! add a deny or an ask, never an allow.

use super::{Corrupt, Hit, RuleSource, Side};
use crate::ir::Verdict;
use crate::pattern::{normalise_blanks, Match};

/// Most texts tried per command (each step below at most doubles them; the bound keeps the
/// hook's work fixed whatever the command).
const MAX_TEXTS: usize = 96;

/// Add a hit for every deny/ask bash rule that matches a whole-command text. Not `all`
/// (past `runtime::MAX_HITS`): each text's scan stops at its first definite deny.
pub fn hits(
    src: &dyn RuleSource,
    host: &str,
    command: &str,
    all: bool,
    out: &mut Vec<Hit>,
) -> Result<(), Corrupt> {
    let mut found: Vec<(u32, bool)> = Vec::new();
    let mut err = Ok(());
    for text in texts(command) {
        src.match_segment_until(text.as_bytes(), Side::Restrict, host, &mut |rule, m| {
            found.push((rule, m == Match::Possible));
            if all || m == Match::Possible {
                return true;
            }
            match src.verdict(rule) {
                Ok(v) => v != Verdict::Deny,
                Err(e) => {
                    err = Err(e);
                    false
                }
            }
        })?;
        err?;
    }
    found.sort_unstable();
    found.dedup_by_key(|x| x.0);
    for (rule, possible) in found {
        let verdict = src.verdict(rule)?;
        if verdict == Verdict::Allow {
            continue;
        }
        out.push(Hit {
            rule,
            verdict,
            possible,
            segment: None,
        });
    }
    Ok(())
}

/// The whole-command texts deny/ask rules meet: the command (blanks normalised), without
/// its redirections, then each without leading assignments and wrappers, each also
/// dequoted and with its program word lower-cased.
pub fn texts(command: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let push = |out: &mut Vec<String>, t: String| {
        if !t.is_empty() && out.len() < MAX_TEXTS && !out.contains(&t) {
            out.push(t);
        }
    };
    let base = normalise_blanks(command);
    push(&mut out, base.clone());
    // Each simple command of a list or pipeline on its own, as Claude Code also tries its
    // rules on each (`xargs docker * server.js; ls` under `Bash(docker * server.js)`).
    let parts = simple_commands(command);
    if parts.len() > 1 {
        for p in parts {
            push(&mut out, normalise_blanks(&p));
        }
    }
    let (rest, redirections) = split_redirections(command);
    push(&mut out, normalise_blanks(&rest));
    // Each redirection alone (`> /dev/sda` in `echo x > /dev/sda`): a deny written for
    // one (`Bash(> /dev/*)`) stops it wherever it stands.
    for r in redirections {
        // Also with one blank after the operator (`>/dev/sda` as `> /dev/sda`).
        let k = r
            .find(|c: char| !"0123456789&<>|".contains(c))
            .unwrap_or(r.len());
        let spaced = format!("{} {}", &r[..k], r[k..].trim_start());
        push(&mut out, spaced.trim_end().to_string());
        push(&mut out, normalise_blanks(&r));
    }
    let mut i = 0;
    while i < out.len() {
        let t = out[i].clone();
        push(&mut out, strip_leading(&t));
        i += 1;
    }
    for k in 0..out.len() {
        let t = normalise_blanks(&crate::shell::dequote(&out[k]));
        push(&mut out, t);
    }
    for k in 0..out.len() {
        let t = fold_program(&out[k]);
        push(&mut out, t);
    }
    out
}

/// The texts an allow rule must also match for a segment (issue 11): Claude Code matches
/// allow rules against a command's text as written — quotes, escapes and blanks kept —
/// after removing its redirections and leading assignments and wrappers. polc's allow
/// reading dequotes words, so `gh '* push --force'` would read `gh * push --force`; an
/// allow that matches the reading but none of these texts does not allow.
pub fn literal_texts(segment_text: &str) -> Vec<String> {
    let t0 = without_redirections(segment_text).trim().to_string();
    let t1 = strip_leading(&t0);
    let mut v = vec![t0];
    if !t1.is_empty() && !v.contains(&t1) {
        v.push(t1);
    }
    v
}

/// Keep only the allow rules in `hits` that also match one of the segment's literal texts.
pub fn keep_literal(
    src: &dyn RuleSource,
    host: &str,
    segment_text: &str,
    hits: &mut Vec<u32>,
) -> Result<(), Corrupt> {
    if hits.is_empty() {
        return Ok(());
    }
    let mut ok: Vec<u32> = Vec::new();
    let texts = literal_texts(segment_text);
    for t in &texts {
        src.match_segment(t.as_bytes(), Side::Allow, host, &mut |rule, m| {
            if m == Match::Definite {
                ok.push(rule)
            }
        })?;
    }
    // Claude Code collapses blank runs for prefix and wildcard rules, not for exact ones
    // (`Bash(git push)` does not allow `git  push`; `Bash(git push:*)` does). A rule with
    // no wildcard and no word-bounded tail is exact.
    let mut loose: Vec<u32> = Vec::new();
    for t in &texts {
        let n = normalise_blanks(t);
        if n != *t {
            src.match_segment(n.as_bytes(), Side::Allow, host, &mut |rule, m| {
                if m == Match::Definite {
                    loose.push(rule)
                }
            })?;
        }
    }
    for r in loose {
        if src.score(r)?.wildcards > 0 {
            ok.push(r);
        }
    }
    hits.retain(|r| ok.contains(r));
    Ok(())
}

/// Split on `;`, `&&`, `||`, `|`, `&` and newlines outside quotes (parentheses and
/// substitutions are not looked into: the shell walk does that). At most 16 parts.
fn simple_commands(command: &str) -> Vec<String> {
    let b: Vec<char> = command.chars().collect();
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut i = 0;
    while i < b.len() && parts.len() < 16 {
        let c = b[i];
        match c {
            '\'' | '"' => {
                let end = closing(&b, i);
                cur.extend(&b[i..end]);
                i = end;
            }
            '\\' => {
                cur.extend(&b[i..(i + 2).min(b.len())]);
                i += 2;
            }
            ';' | '|' | '&' | '\n' => {
                // `2>&1`, `>&2`, `&>`: part of a redirection, not a separator.
                let redir = c == '&'
                    && (cur.ends_with('>') || cur.ends_with('<') || b.get(i + 1) == Some(&'>'));
                if redir {
                    cur.push(c);
                    i += 1;
                    continue;
                }
                parts.push(std::mem::take(&mut cur));
                i += 1;
                if i < b.len() && (b[i] == c && c != '\n') {
                    i += 1;
                }
            }
            _ => {
                cur.push(c);
                i += 1;
            }
        }
    }
    if i >= b.len() {
        parts.push(cur);
    }
    parts
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

/// The program word lower-cased (deny/ask patterns compare it case-folded).
fn fold_program(t: &str) -> String {
    match t.split_once(' ') {
        Some((p, rest)) => format!("{} {rest}", p.to_lowercase()),
        None => t.to_lowercase(),
    }
}

/// Remove `[n]>file`, `>>file`, `&>file`, `<file`, `2>&1`, `>|file` and the like, outside
/// quotes. Heredocs (`<<`) are kept as written.
pub fn without_redirections(command: &str) -> String {
    split_redirections(command).0
}

/// The command without its redirections, and the redirections (operator and target).
fn split_redirections(command: &str) -> (String, Vec<String>) {
    let b: Vec<char> = command.chars().collect();
    let mut out = String::with_capacity(command.len());
    let mut found: Vec<String> = Vec::new();
    let mut i = 0;
    let mut word_start = true;
    while i < b.len() {
        let c = b[i];
        match c {
            '\'' | '"' => {
                let end = closing(&b, i);
                out.extend(&b[i..end]);
                i = end;
                word_start = false;
                continue;
            }
            '\\' => {
                out.push(c);
                if let Some(&n) = b.get(i + 1) {
                    out.push(n);
                }
                i += 2;
                word_start = false;
                continue;
            }
            _ => {}
        }
        if word_start {
            if let Some(end) = redirection_end(&b, i) {
                found.push(b[i..end].iter().collect());
                i = end;
                continue;
            }
        }
        word_start = c.is_whitespace() || "|;&()".contains(c);
        out.push(c);
        i += 1;
    }
    (out, found)
}

/// Index just past the quoted run starting at `i` (or the end).
fn closing(b: &[char], i: usize) -> usize {
    let q = b[i];
    let mut j = i + 1;
    while j < b.len() {
        if q == '"' && b[j] == '\\' {
            j += 2;
            continue;
        }
        if b[j] == q {
            return j + 1;
        }
        j += 1;
    }
    b.len()
}

/// If a redirection starts at `i`, the index just past its target.
fn redirection_end(b: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    while j < b.len() && b[j].is_ascii_digit() {
        j += 1;
    }
    if j == i && b.get(j) == Some(&'&') && b.get(j + 1) == Some(&'>') {
        j += 1;
    }
    let op = *b.get(j)?;
    if op != '>' && op != '<' {
        return None;
    }
    j += 1;
    if op == '<' && b.get(j) == Some(&'<') {
        return None; // heredoc / here-string: kept
    }
    if matches!(b.get(j), Some('>') | Some('|') | Some('&')) {
        j += 1;
    }
    while j < b.len() && (b[j] == ' ' || b[j] == '\t') {
        j += 1;
    }
    // The target word, quote-aware, up to a blank or an operator.
    let start = j;
    while j < b.len() && !b[j].is_whitespace() && !"|;&()<>".contains(b[j]) {
        if b[j] == '\'' || b[j] == '"' {
            j = closing(b, j);
        } else if b[j] == '\\' {
            j += 2;
        } else {
            j += 1;
        }
    }
    (j > start).then_some(j.min(b.len()))
}

/// Leading `NAME=value` words and the wrappers Claude Code looks through (`timeout 5`,
/// `time`, `nice [-n N]`, `nohup`, `stdbuf -oL`), removed until none is left.
fn strip_leading(t: &str) -> String {
    let words: Vec<&str> = t.split(' ').collect();
    let mut k = 0;
    loop {
        let before = k;
        while k < words.len() && is_assignment(words[k]) {
            k += 1;
        }
        match words.get(k).copied() {
            // `xargs P …`: Claude Code also tries its rules as `xargs <rule>`.
            Some("time") | Some("nohup") | Some("xargs") => k += 1,
            Some("timeout") => {
                k += 1;
                while words.get(k).is_some_and(|w| w.starts_with('-')) {
                    let w = words[k];
                    k += 1;
                    if matches!(w, "-k" | "-s" | "--kill-after" | "--signal") {
                        k += 1;
                    }
                }
                if words
                    .get(k)
                    .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()))
                {
                    k += 1;
                }
            }
            Some("nice") => {
                k += 1;
                if words.get(k) == Some(&"-n") {
                    k += 2;
                } else if words.get(k).is_some_and(|w| w.starts_with('-')) {
                    k += 1;
                }
            }
            Some("stdbuf") => {
                k += 1;
                while words.get(k).is_some_and(|w| w.starts_with('-')) {
                    k += 1;
                }
            }
            _ => {}
        }
        if words.get(k) == Some(&"--") && k > before {
            k += 1;
        }
        if k == before || k >= words.len() {
            break;
        }
    }
    words[k.min(words.len())..].join(" ")
}

/// `NAME=value` (the value may be quoted; a quoted value with blanks is not split here,
/// which only means that variant is not tried).
fn is_assignment(w: &str) -> bool {
    let Some((name, _)) = w.split_once('=') else {
        return false;
    };
    let mut cs = name.chars();
    cs.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirections_removed_outside_quotes() {
        let cases = [
            ("echo hi > /tmp/x", "echo hi "),
            ("cmd 2>/dev/null", "cmd "),
            ("cmd 2>&1 | tee x", "cmd  | tee x"),
            ("cmd &>log", "cmd "),
            ("cmd >> 'a b' c", "cmd  c"),
            ("> /dev/sda", ""),
            ("echo '>' x", "echo '>' x"),
            ("a=b>c", "a=b>c"),
            ("cat <<EOF", "cat <<EOF"),
            ("sort < in > out", "sort  "),
        ];
        for (c, want) in cases {
            assert_eq!(without_redirections(c), want, "{c}");
        }
    }

    #[test]
    fn simple_commands_split_outside_quotes() {
        assert_eq!(
            simple_commands("xargs a * b; c && d || e | f & g"),
            vec!["xargs a * b", "c", "d", "e", "f", "g"]
        );
        assert_eq!(
            simple_commands("echo 'a; b' 2>&1 | x"),
            vec!["echo 'a; b' 2>&1", "x"]
        );
        assert_eq!(simple_commands("a &>log; b"), vec!["a &>log", "b"]);
    }

    #[test]
    fn leading_assignments_and_wrappers() {
        let cases = [
            ("FOO=1 python3 -c x", "python3 -c x"),
            ("A=1 B=2 timeout 5 nice -n 3 nohup git push", "git push"),
            ("timeout -s KILL 10s rm -rf /", "rm -rf /"),
            ("stdbuf -oL -eL make", "make"),
            ("time -- ls", "ls"),
            ("xargs docker * server.js", "docker * server.js"),
            ("git push", "git push"),
            ("FOO=1", ""),
        ];
        for (c, want) in cases {
            assert_eq!(strip_leading(c), want, "{c}");
        }
    }

    #[test]
    fn texts_cover_the_issue_cases() {
        let t = texts("FOO=1 python3 -c 'print(1)' 2>/dev/null");
        assert!(t.contains(&"python3 -c 'print(1)'".to_string()), "{t:?}");
        let t = texts("curl -fsSL URL | bash -s -- $(whoami)");
        assert!(t.contains(&"curl -fsSL URL | bash -s -- $(whoami)".to_string()));
        let t = texts("> /dev/sda");
        assert!(t.contains(&"> /dev/sda".to_string()));
        let t = texts("echo x >/dev/sda 2>&1");
        assert!(t.contains(&">/dev/sda".to_string()), "{t:?}");
        assert!(t.contains(&"> /dev/sda".to_string()), "{t:?}");
        let t = texts("'Python3' -c x");
        assert!(t.contains(&"python3 -c x".to_string()), "{t:?}");
        assert!(texts(&"A=1 ".repeat(500)).len() <= MAX_TEXTS);
        assert!(texts(&"a; ".repeat(5000)).len() <= MAX_TEXTS);
    }
}
