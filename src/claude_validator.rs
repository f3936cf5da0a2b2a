//! Claude Code's settings validator, as polc reads it: which permission-rule strings Claude
//! Code rejects (and then ignores, with the whole settings file in some versions). Used by
//! the compiler's Claude front end and importer (W002) and by the hook's tripwire, which
//! tolerates only additions to `.claude/settings.local.json` that Claude itself would write,
//! so it is always compiled (no pest, no allocation beyond two small lists).

/// Is the character at byte `i` escaped by an odd number of backslashes before it?
fn escaped_at(s: &str, i: usize) -> bool {
    s.as_bytes()[..i]
        .iter()
        .rev()
        .take_while(|&&b| b == b'\\')
        .count()
        % 2
        == 1
}

/// Why Claude Code's own settings validator rejects a rule string, in its words (None: it
/// accepts it). Claude Code drops a rejected rule, so polc reports it (W002) rather than
/// compile it silently. The checks follow Claude Code 2.1.112's validator (behaviour
/// observed with tests/claude_matcher): parentheses, tool name, `:*` placement for Bash,
/// wildcard placement for the file tools, `domain:` for WebFetch, no wildcard in WebSearch,
/// no parentheses on MCP rules.
pub fn claude_rejects(rule: &str) -> Option<&'static str> {
    if rule.trim().is_empty() {
        return Some("Permission rule cannot be empty");
    }
    let unescaped = |c: char| {
        rule.char_indices()
            .filter(|&(i, x)| x == c && !escaped_at(rule, i))
            .map(|(i, _)| i)
            .collect::<Vec<_>>()
    };
    let (opens, closes) = (unescaped('('), unescaped(')'));
    if opens.len() != closes.len() {
        return Some("Mismatched parentheses");
    }
    if opens.iter().any(|&i| rule[i + 1..].starts_with(')')) {
        return Some("Empty parentheses");
    }
    // Tool and content: the first unescaped `(` to a final unescaped `)`.
    let (tool, content) = match (opens.first(), closes.last()) {
        (Some(&o), Some(&c)) if c > o && c == rule.len() - 1 && o > 0 => {
            let inner = &rule[o + 1..c];
            let content = (!inner.is_empty() && inner != "*").then_some(inner);
            (&rule[..o], content)
        }
        _ => (rule, None),
    };
    let mut parts = tool.split("__");
    if parts.next() == Some("mcp") && parts.next().is_some_and(|s| !s.is_empty()) {
        return (content.is_some() || !opens.is_empty())
            .then_some("MCP rules do not support patterns in parentheses");
    }
    let Some(first) = tool.chars().next() else {
        return Some("Tool name cannot be empty");
    };
    if first.to_uppercase().next() != Some(first) {
        return Some("Tool names must start with uppercase");
    }
    let c = content?;
    match tool {
        "WebSearch" if c.contains(['*', '?']) => Some("WebSearch does not support wildcards"),
        "WebFetch" if c.contains("://") || c.starts_with("http") => {
            Some("WebFetch permissions use domain format, not URLs")
        }
        "WebFetch" if !c.starts_with("domain:") => {
            Some("WebFetch permissions must use \"domain:\" prefix")
        }
        "Bash" if c.contains(":*") && !c.ends_with(":*") => {
            Some("The :* pattern must be at the end")
        }
        "Bash" if c == ":*" => Some("Prefix cannot be empty before :*"),
        "Read" | "Write" | "Edit" | "Glob" | "NotebookRead" | "NotebookEdit" => {
            if c.contains(":*") {
                Some("The \":*\" syntax is only for Bash prefix rules")
            } else if c.contains('*')
                && !(c.starts_with('*')
                    || c.ends_with('*')
                    || c.contains("**")
                    || c.contains("/*")
                    || c.contains("*.")
                    || c.contains("*)"))
            {
                Some("Wildcard placement might be incorrect")
            } else {
                None
            }
        }
        _ => None,
    }
}
