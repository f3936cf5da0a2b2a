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
