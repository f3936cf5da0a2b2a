//! The keys entries are filed under at build time and looked up under at decision time.
//! Both sides call these functions, so they cannot disagree.

use crate::pattern::STAR;

/// Index keys hold up to this many leading literal words of a segment pattern, so a
/// lookup for `git status --short` reads only the groups `git`, `git status` and
/// `git status --short`, not every `git` rule.
pub const KEY_WORDS: usize = 3;

/// The index key of a compiled segment pattern body: its leading *complete* literal words
/// (no `*`, followed by a space or by the end of the body), at most [`KEY_WORDS`]. `None`:
/// the first word is not literal, the pattern goes to the wild group (scanned always).
///
/// Why this is sound: if the pattern matches a reading without unknown bytes, the reading
/// starts with those words, each followed by a space or the end of the reading (a body's
/// last word is followed, in the reading, by the end (exact) or by a space or the end
/// (tail)). So the reading's first `k` space-separated tokens equal the key.
pub fn index_key(body: &[u8]) -> Option<&[u8]> {
    let mut end = None;
    let mut start = 0;
    for _ in 0..KEY_WORDS {
        let rel = body[start..].iter().position(|&b| b == b' ');
        let stop = rel.map(|r| start + r).unwrap_or(body.len());
        let w = &body[start..stop];
        if w.is_empty() || w.contains(&STAR) {
            break;
        }
        end = Some(stop);
        match rel {
            Some(_) => start = stop + 1,
            None => break,
        }
    }
    end.map(|e| &body[..e])
}

/// The tool index key of a non-bash pattern: the rule's tool name and a NUL, or `None` (the
/// wild group) when the tool name has a `*`. (File tools' path globs live in their own
/// section; domain, field and argument patterns of other tools are not subject prefixes, so
/// the key holds no directory part: a lookup reads the empty-prefix group of each name.)
pub fn tool_key(tool: &str) -> Option<Vec<u8>> {
    if tool.contains('*') {
        return None;
    }
    let mut key = tool.as_bytes().to_vec();
    key.push(0);
    Some(key)
}

/// The keys a call of `tool` looks up: its own name and (MCP) each server prefix of it that
/// ends before a `__` (a rule may name a whole server), each as [`tool_key`] makes them.
pub fn tool_lookup_keys(tool: &str) -> Vec<Vec<u8>> {
    let t = tool.as_bytes();
    let mut names: Vec<&[u8]> = vec![t];
    if t.starts_with(b"mcp__") {
        for i in 5..t.len() {
            if t[i..].starts_with(b"__") {
                names.push(&t[..i]);
            }
        }
    }
    names
        .into_iter()
        .map(|n| {
            let mut k = n.to_vec();
            k.push(0);
            k
        })
        .collect()
}

/// Every known host has a bit in a rule's host mask (0 = every host).
pub fn host_bit(host: &str) -> u32 {
    crate::ir::CLAUDE_AUTHORITY_HOSTS
        .iter()
        .chain(crate::ir::HOST_AUTHORITATIVE_HOSTS)
        .position(|h| *h == host)
        .map(|i| 1u32 << i)
        .unwrap_or(0)
}

/// Does a rule with host mask `mask` apply to `host`?
pub fn host_applies(mask: u32, host: &str) -> bool {
    mask == 0 || mask & host_bit(host) != 0
}

/// Bytes that start a wildcard, a class or an escape in a path glob (as
/// `crate::paths::PathGlob::fixed` reads them).
const PATH_WILD: &[u8] = b"*?[\\";

/// A literal path component the index may key on: non-empty, not `.` or `..`, ASCII, no
/// wildcard and no `/`.
fn literal_component(c: &[u8]) -> bool {
    !c.is_empty()
        && c != b"."
        && c != b".."
        && c.iter()
            .all(|&b| b.is_ascii() && b != b'/' && !PATH_WILD.contains(&b))
}

/// The literal key of a path glob below its anchor (the path index, section 19),
/// ASCII-lowercased (deny/ask match case-insensitively; for allow the key is a superset):
///
/// - anchored (`//`, `~/`, `/`, `./`, `a/b`): the leading components that are literal
///   ([`literal_component`]), joined by `/`. The glob's regex is `^{body}(?:/.*)?$` over the
///   path relative to a base, so a text it matches starts with those components followed by
///   `/` or its end: one of the text's folder prefixes ([`path_lookups`]) is the key.
/// - a bare name at any depth (`.env`): the name when it is wholly literal (its regex,
///   `^(?:.*/)?{name}(?:/.*)?$`, matches only a path with a component equal to it).
///
/// Empty: no literal start, looked up for every text of its class.
pub fn path_literal(anchor: crate::paths::Anchor, glob: &str) -> Vec<u8> {
    let g = glob.as_bytes();
    if anchor == crate::paths::Anchor::AnyDepth {
        return if literal_component(g) {
            g.to_ascii_lowercase()
        } else {
            Vec::new()
        };
    }
    let mut end = 0;
    let mut at = 0;
    for c in g.split(|&b| b == b'/') {
        if !literal_component(c) {
            break;
        }
        end = at + c.len();
        at = end + 1;
    }
    g[..end].to_ascii_lowercase()
}

/// The literal keys a text (a path relative to a pattern's base, or the whole path for bare
/// names) is looked up under: the empty key, and every folder prefix of the text (bare
/// names: every component), ASCII-lowercased. `None` when the text has a non-ASCII byte:
/// case folding after NFC may map it onto an ASCII key (`K` U+212A is `k`, `ſ` is `s`,
/// U+037E is `;`), so every key of the class may match.
pub fn path_lookups(anchor: crate::paths::Anchor, text: &str) -> Option<Vec<Vec<u8>>> {
    let t = text.as_bytes();
    if !t.is_ascii() {
        return None;
    }
    let lower = t.to_ascii_lowercase();
    let mut out: Vec<Vec<u8>> = vec![Vec::new()];
    if anchor == crate::paths::Anchor::AnyDepth {
        for c in lower.split(|&b| b == b'/') {
            if !c.is_empty() && !out.iter().any(|k| k == c) {
                out.push(c.to_vec());
            }
        }
    } else {
        for (i, &b) in lower.iter().enumerate() {
            if b == b'/' && i > 0 {
                out.push(lower[..i].to_vec());
            }
        }
        if !lower.is_empty() {
            out.push(lower);
        }
    }
    Some(out)
}
