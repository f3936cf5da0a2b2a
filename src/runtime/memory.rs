//! Agents' memory and rules files import other files into the model's context (red team 8,
//! C8-memoryimport): Claude Code expands `@path` lines of `CLAUDE.md`, `CLAUDE.local.md`,
//! `.claude/**/*.md` and nested `CLAUDE.md` files, and inlines the file it names (`@.env`
//! puts the secret in the context with no Read at all); Cursor's rules (`.cursor/rules/*`)
//! and other agents' instruction files (`AGENTS.md`, `GEMINI.md`) reference files the same
//! way. A file tool's write of such a file is also a read of every path it imports: the
//! read rules meet them (`runtime::decide_tool`).

/// Whether `subject` is a memory or rules file an agent loads into its context.
pub fn is_memory_file(subject: &str) -> bool {
    let p = subject.replace('\\', "/");
    let name = p.rsplit('/').next().unwrap_or(&p);
    let lower = name.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "claude.md"
            | "claude.local.md"
            | "agents.md"
            | "agent.md"
            | "gemini.md"
            | "qwen.md"
            | "copilot-instructions.md"
            | ".cursorrules"
            | ".windsurfrules"
    ) || ((p.contains(".claude/") || p.contains(".gemini/") || p.contains(".github/instructions/"))
        && (lower.ends_with(".md") || lower.ends_with(".mdc")))
        || p.contains(".cursor/rules/")
}

/// The paths a memory file's text imports: each `@path` word (at the start of the text or
/// after a blank; a path starts with a letter, a digit, `.`, `/` or `~/`), placed from the
/// memory file's folder (and from the working folder) unless absolute or under `~`. At most 64 (past it, the rest are
/// not read: `None`, and the caller asks).
pub fn imports(subject: &str, input_text: &str) -> Option<Vec<String>> {
    let mut strings = Vec::new();
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(input_text) {
        collect(&v, &mut strings, 0);
    }
    let dir = match subject.rfind('/') {
        Some(i) => &subject[..=i],
        None => "",
    };
    let mut out = Vec::new();
    for s in &strings {
        let b = s.as_bytes();
        for (i, _) in s.match_indices('@') {
            if i > 0 && !b[i - 1].is_ascii_whitespace() {
                continue;
            }
            let rest = &s[i + 1..];
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '`' || c == ')' || c == ']')
                .unwrap_or(rest.len());
            let path = rest[..end].trim_end_matches(['.', ',', ';', ':']);
            let first = path.chars().next();
            if !first.is_some_and(|c| c.is_alphanumeric() || c == '.' || c == '/' || c == '~') {
                continue;
            }
            if out.len() >= 64 {
                return None;
            }
            if path.starts_with('/') || path.starts_with("~/") {
                out.push(path.to_string());
            } else {
                // From the memory file's folder (Claude Code's documented rule) and from the
                // project's (the folder the agent works in): either may be what is loaded.
                out.push(format!("{dir}{path}"));
                if !dir.is_empty() {
                    out.push(path.to_string());
                }
            }
        }
    }
    Some(out)
}

fn collect(v: &serde_json::Value, out: &mut Vec<String>, depth: usize) {
    if depth > 16 || out.len() > 256 {
        return;
    }
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| collect(x, out, depth + 1)),
        serde_json::Value::Object(o) => o.values().for_each(|x| collect(x, out, depth + 1)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_files_and_their_imports() {
        assert!(is_memory_file("CLAUDE.md"));
        assert!(is_memory_file("/p/src/CLAUDE.md"));
        assert!(is_memory_file(".claude/rules/env.md"));
        assert!(is_memory_file(".cursor/rules/env.mdc"));
        assert!(!is_memory_file("README.md"));
        let i =
            |s: &str, t: &str| imports(s, &serde_json::json!({"content": t}).to_string()).unwrap();
        assert_eq!(i("CLAUDE.md", "Project notes.\n@.env"), [".env"]);
        assert_eq!(
            i("src/CLAUDE.md", "see @../.env and more"),
            ["src/../.env", "../.env"]
        );
        assert_eq!(
            i("CLAUDE.md", "@/abs/.env @~/.ssh/id_rsa"),
            ["/abs/.env", "~/.ssh/id_rsa"]
        );
        assert_eq!(
            i("CLAUDE.md", "@~/.aws/credentials"),
            ["~/.aws/credentials"]
        );
        assert!(i("CLAUDE.md", "mail me@example.com, @ alone, @-x").is_empty());
    }
}
