//! Matching a non-bash rule's pattern against a tool call's main argument or input fields
//! (`Tool(spec)`, `field:value`, web domains). The compiled table and the reference
//! interpreter both use it, so the two agree by construction.

use crate::ir::PatternKind;
use crate::pattern::{self, Match};

/// A non-bash pattern against a tool's main argument. Specifiers polc does not decide yet
/// are a possible match for deny/ask (so they ask) and never match for allow.
pub fn tool_pattern_match(
    rule_tool: &str,
    kind: PatternKind,
    text: &[u8],
    subject: &str,
    input_text: &str,
    allow: bool,
) -> Option<Match> {
    let s = subject.as_bytes();
    if kind == PatternKind::Any {
        return Some(Match::Definite);
    }
    if rule_tool == "webfetch" && !kind.is_content() {
        // Domain rules: `domain:example.com`, `*.example.com`, on every reading of the URL
        // (web.rs): a deny/ask matches if any reading names a covered host, and possibly
        // matches when a reading has no host polc can read; an allow needs every reading.
        let rule = std::str::from_utf8(text).ok()?;
        return crate::web::rule_meets_url(rule, subject, allow).map(|definite| {
            if definite {
                Match::Definite
            } else {
                Match::Possible
            }
        });
    }
    match kind {
        PatternKind::Exact => (text == s).then_some(Match::Definite),
        PatternKind::Prefix => s.starts_with(text).then_some(Match::Definite),
        // Other tools: `glob "x*"` over the main argument, `glob "field:value*"` over an
        // input field (like Claude's `Tool(field:value)`).
        PatternKind::Glob | PatternKind::Specifier => {
            specifier_match(text, subject, input_text, allow)
        }
        _ => None,
    }
}

/// `Tool(spec)` rules: `param:value` is an input-field rule (deny/ask only; the front end
/// drops it from allow with a warning); otherwise the spec is a glob over the tool's main
/// argument. A call polc cannot read for it (no input, no field) is a possible match for
/// deny/ask and none for allow.
fn specifier_match(text: &[u8], subject: &str, input_text: &str, allow: bool) -> Option<Match> {
    let spec = std::str::from_utf8(text).ok()?;
    let glob = |pat: &str, v: &str| {
        pattern::SegPattern {
            body: pat
                .bytes()
                .map(|b| if b == b'*' { pattern::STAR } else { b })
                .collect(),
            tail: false,
        }
        .matches(v.as_bytes())
        .is_some()
    };
    if let Some((param, value)) = spec.split_once(':') {
        if !param.is_empty()
            && param
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            if allow {
                return None;
            }
            let v: serde_json::Value = match serde_json::from_str(input_text) {
                Ok(v) => v,
                Err(_) => return Some(Match::Possible),
            };
            return match v.get(param) {
                Some(serde_json::Value::String(s)) => glob(value, s).then_some(Match::Definite),
                Some(other) => glob(value, &other.to_string()).then_some(Match::Definite),
                None => None,
            };
        }
    }
    if subject.is_empty() {
        return (!allow).then_some(Match::Possible);
    }
    glob(spec, subject).then_some(Match::Definite)
}
