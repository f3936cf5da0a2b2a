//! Claude Code rule strings (`Bash(git push:*)`, `Read(./.env)`, `mcp__github__*`) → the
//! lowered tool and pattern, under SPEC §3: Claude's meaning, except that each rule is read
//! the more restrictive way (an allow without a wildcard is exact, a deny/ask without one is
//! a word-bounded prefix).

use super::{PolicyParser, Rule as R};
use crate::ir::{Pattern, PatternKind, Verdict};
use pest::Parser;

/// What a rule string becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mapped {
    /// A rule for `tool` with one pattern.
    Rule { tool: String, pattern: Pattern },
    /// An input-field rule (`Task(model:opus)`) in an allow list: Claude Code ignores these,
    /// and so does polc — with a warning (W001), never silently.
    IgnoredInputField { tool: String, param: String },
}

/// Why a rule string cannot be read. Positions are character offsets inside the string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaudeError {
    pub code: &'static str,
    pub message: String,
    pub help: Option<String>,
}

/// Claude tool name → polc's canonical tool name.
pub fn map_tool(name: &str) -> String {
    match name {
        "Bash" => "bash",
        "Read" | "Grep" | "Glob" => "read",
        "Edit" | "Write" | "MultiEdit" | "NotebookEdit" => "edit",
        "WebFetch" => "webfetch",
        "WebSearch" => "websearch",
        other => other,
    }
    .to_string()
}

/// Does `s` contain a `*` not preceded by an odd number of backslashes?
pub fn has_unescaped_star(s: &str) -> bool {
    let mut escaped = false;
    for c in s.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '*' => return true,
            _ => {}
        }
    }
    false
}

/// `param:value` with `param` an identifier: the parameter name.
fn input_field_param(content: &str) -> Option<&str> {
    let (param, _) = content.split_once(':')?;
    let mut chars = param.chars();
    let first = chars.next()?;
    if (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        Some(param)
    } else {
        None
    }
}

/// Read one rule string found in the `verdict` list of a `permissions` block.
pub fn map_rule(s: &str, verdict: Verdict) -> Result<Mapped, ClaudeError> {
    let pairs = PolicyParser::parse(R::claude_rule, s).map_err(|_| ClaudeError {
        code: "E001",
        message: format!("syntax error: invalid rule string `{s}`"),
        help: Some(
            "expected `Tool` or `Tool(content)`, e.g. `Bash(git push:*)`, `Read(./.env)`, `mcp__github__*`"
                .into(),
        ),
    })?;
    let mut name = "";
    let mut content: Option<&str> = None;
    for p in pairs.flatten() {
        match p.as_rule() {
            R::claude_tool => name = p.as_str(),
            R::claude_content => content = Some(p.as_str()),
            _ => {}
        }
    }
    let tool = map_tool(name);
    if content.is_some_and(|c| c.trim().is_empty()) {
        return Err(ClaudeError {
            code: "E005",
            message: format!("empty pattern in `{s}`"),
            help: Some(format!(
                "write `{name}` (or `{name}(*)` for Bash) to match every call"
            )),
        });
    }
    if tool == "bash" {
        let pattern = match content {
            None => Pattern {
                kind: PatternKind::Glob,
                text: "*".into(),
            },
            Some(x) if has_unescaped_star(x) => Pattern {
                kind: PatternKind::Glob,
                text: x.to_string(),
            },
            Some(x) => Pattern {
                kind: if verdict == Verdict::Allow {
                    PatternKind::Exact
                } else {
                    PatternKind::Prefix
                },
                text: x.replace("\\*", "*"),
            },
        };
        return Ok(Mapped::Rule { tool, pattern });
    }
    let Some(spec) = content else {
        return Ok(Mapped::Rule {
            tool,
            pattern: Pattern {
                kind: PatternKind::Any,
                text: String::new(),
            },
        });
    };
    let builtin = matches!(tool.as_str(), "read" | "edit" | "webfetch" | "websearch");
    if !builtin && verdict == Verdict::Allow {
        if let Some(param) = input_field_param(spec).filter(|p| *p != "domain") {
            return Ok(Mapped::IgnoredInputField {
                tool,
                param: param.to_string(),
            });
        }
    }
    Ok(Mapped::Rule {
        tool,
        pattern: Pattern {
            kind: PatternKind::Specifier,
            text: spec.to_string(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use PatternKind::*;

    fn rule(tool: &str, kind: PatternKind, text: &str) -> Mapped {
        Mapped::Rule {
            tool: tool.into(),
            pattern: Pattern {
                kind,
                text: text.into(),
            },
        }
    }

    #[test]
    fn mapping_table() {
        use Verdict::*;
        let cases: Vec<(&str, Verdict, Mapped)> = vec![
            ("Bash(git push:*)", Deny, rule("bash", Glob, "git push:*")),
            ("Bash(git push:*)", Allow, rule("bash", Glob, "git push:*")),
            (
                "Bash(npm run build)",
                Allow,
                rule("bash", Exact, "npm run build"),
            ),
            (
                "Bash(npm run build)",
                Deny,
                rule("bash", Prefix, "npm run build"),
            ),
            (
                "Bash(npm run build)",
                Ask,
                rule("bash", Prefix, "npm run build"),
            ),
            ("Bash(* --force)", Deny, rule("bash", Glob, "* --force")),
            ("Bash(echo \\* *)", Allow, rule("bash", Glob, "echo \\* *")),
            ("Bash", Allow, rule("bash", Glob, "*")),
            ("Bash(*)", Deny, rule("bash", Glob, "*")),
            ("Bash(\\*)", Allow, rule("bash", Exact, "*")),
            ("Bash(\\*)", Deny, rule("bash", Prefix, "*")),
            ("Bash(timeout:*)", Deny, rule("bash", Glob, "timeout:*")),
            ("Bash(timeout:5)", Allow, rule("bash", Exact, "timeout:5")),
            ("Bash(echo (hi))", Deny, rule("bash", Prefix, "echo (hi)")),
            ("Read(./.env)", Deny, rule("read", Specifier, "./.env")),
            (
                "Grep(~/secrets/**)",
                Allow,
                rule("read", Specifier, "~/secrets/**"),
            ),
            ("Glob", Ask, rule("read", Any, "")),
            ("Write(//etc/**)", Deny, rule("edit", Specifier, "//etc/**")),
            ("MultiEdit", Deny, rule("edit", Any, "")),
            (
                "NotebookEdit(x.ipynb)",
                Deny,
                rule("edit", Specifier, "x.ipynb"),
            ),
            (
                "WebFetch(domain:docs.rs)",
                Allow,
                rule("webfetch", Specifier, "domain:docs.rs"),
            ),
            ("WebFetch", Deny, rule("webfetch", Any, "")),
            ("WebSearch", Allow, rule("websearch", Any, "")),
            (
                "mcp__github__get_issue",
                Allow,
                rule("mcp__github__get_issue", Any, ""),
            ),
            ("mcp__github__*", Deny, rule("mcp__github__*", Any, "")),
            ("mcp__github", Deny, rule("mcp__github", Any, "")),
            ("Agent(Explore)", Allow, rule("Agent", Specifier, "Explore")),
            (
                "Task(model:opus)",
                Deny,
                rule("Task", Specifier, "model:opus"),
            ),
            (
                "Task(model:opus)",
                Ask,
                rule("Task", Specifier, "model:opus"),
            ),
            (
                "Task(model:opus)",
                Allow,
                Mapped::IgnoredInputField {
                    tool: "Task".into(),
                    param: "model".into(),
                },
            ),
            (
                "Agent(domain:x)",
                Allow,
                rule("Agent", Specifier, "domain:x"),
            ),
            ("Task", Allow, rule("Task", Any, "")),
        ];
        for (s, v, want) in cases {
            assert_eq!(map_rule(s, v), Ok(want), "{s} in {v}");
        }
    }

    #[test]
    fn bad_rule_strings() {
        for s in ["Bash()", "Bash(  )", "Read()"] {
            assert_eq!(map_rule(s, Verdict::Deny).unwrap_err().code, "E005", "{s}");
        }
        for s in ["", "Bash(", "Bash)x", "Bash (x)", "(x)", "Bash(x)y"] {
            assert_eq!(map_rule(s, Verdict::Deny).unwrap_err().code, "E001", "{s}");
        }
    }

    #[test]
    fn star_escapes() {
        assert!(has_unescaped_star("a*"));
        assert!(!has_unescaped_star("a\\*"));
        assert!(has_unescaped_star("a\\\\*"));
        assert!(!has_unescaped_star("abc"));
    }
}
