//! Claude Code rule strings (`Bash(git push:*)`, `Read(./.env)`, `mcp__github__*`) → the
//! lowered tool and pattern, under docs/contract.md#c-claude-strings: Claude's meaning, except that each rule is read
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
    /// A path rule written for a file tool other than `Read` and `Edit` (`Write(…)`,
    /// `Glob(…)`) in an allow list: Claude Code never consults it; polc drops it (W003).
    IgnoredPathRule { tool: String },
    /// A `WebFetch(domain:*.x)` allow: Claude Code compares the domain exactly, so the rule
    /// allows nothing there; polc drops it (W004).
    IgnoredDomainWildcard,
}

/// Claude Code's built-in file tools, whose bare rules keep their own name (`crate::tools`).
pub use crate::tools::claude::FILE_TOOLS;

/// Why a rule string cannot be read. Positions are character offsets inside the string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaudeError {
    pub code: crate::syntax::codes::Code,
    pub message: String,
    pub help: Option<String>,
}

/// Top-level keys of Claude Code's settings schema (2.1.112, read from the installed package
/// by tests/claude_matcher, which fails when this list falls behind), other than
/// `permissions` and `$schema`. In `permcheck.json` they are accepted with a note (N001).
pub const SETTINGS_KEYS: &[&str] = &[
    "apiKeyHelper",
    "proxyAuthHelper",
    "awsCredentialExport",
    "awsAuthRefresh",
    "gcpAuthRefresh",
    "fileSuggestion",
    "respectGitignore",
    "cleanupPeriodDays",
    "skillListingMaxDescChars",
    "skillListingBudgetFraction",
    "env",
    "attribution",
    "includeCoAuthoredBy",
    "includeGitInstructions",
    "model",
    "availableModels",
    "modelOverrides",
    "enableAllProjectMcpServers",
    "enabledMcpjsonServers",
    "disabledMcpjsonServers",
    "skillOverrides",
    "allowedMcpServers",
    "deniedMcpServers",
    "hooks",
    "worktree",
    "disableAllHooks",
    "disableSkillShellExecution",
    "defaultShell",
    "allowManagedHooksOnly",
    "allowedHttpHookUrls",
    "httpHookAllowedEnvVars",
    "allowManagedPermissionRulesOnly",
    "allowManagedMcpServersOnly",
    "strictPluginOnlyCustomization",
    "statusLine",
    "subagentStatusLine",
    "enabledPlugins",
    "extraKnownMarketplaces",
    "strictKnownMarketplaces",
    "blockedMarketplaces",
    "forceLoginMethod",
    "forceLoginOrgUUID",
    "forceRemoteSettingsRefresh",
    "otelHeadersHelper",
    "outputStyle",
    "viewMode",
    "language",
    "skipWebFetchPreflight",
    "sandbox",
    "feedbackSurveyRate",
    "spinnerTipsEnabled",
    "spinnerVerbs",
    "spinnerTipsOverride",
    "syntaxHighlightingDisabled",
    "terminalTitleFromRename",
    "alwaysThinkingEnabled",
    "effortLevel",
    "autoCompactWindow",
    "advisorModel",
    "fastMode",
    "fastModePerSessionOptIn",
    "promptSuggestionEnabled",
    "awaySummaryEnabled",
    "showClearContextOnPlanAccept",
    "agent",
    "companyAnnouncements",
    "pluginConfigs",
    "remote",
    "autoUpdatesChannel",
    "minimumVersion",
    "plansDirectory",
    "tui",
    "voice",
    "channelsEnabled",
    "allowedChannelPlugins",
    "prefersReducedMotion",
    "autoMemoryEnabled",
    "autoMemoryDirectory",
    "autoDreamEnabled",
    "showThinkingSummaries",
    "skipDangerousModePermissionPrompt",
    "disableAutoMode",
    "sshConfigs",
    "claudeMdExcludes",
    "pluginTrustMessage",
    "skipAutoPermissionPrompt",
    "useAutoModeDuringPlan",
    "autoMode",
    "disableDeepLinkRegistration",
    "voiceEnabled",
    "defaultView",
];

/// Keys of Claude Code's `permissions` object other than `allow`, `ask` and `deny`.
pub const PERMISSIONS_KEYS: &[&str] = &[
    "defaultMode",
    "disableBypassPermissionsMode",
    "disableAutoMode",
    "additionalDirectories",
];

/// Claude tool name → polc's canonical tool name (`crate::tools::claude`).
pub use crate::tools::claude::canonical as map_tool;

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

/// The literal prefix of a legacy `prefix:*` rule (Claude Code: the text before a final
/// `:*`, at least one character).
pub fn legacy_prefix(content: &str) -> Option<&str> {
    content.strip_suffix(":*").filter(|p| !p.is_empty())
}

/// Is some `*` of a legacy `prefix:*` rule a literal star to Claude Code (`node *:*`)?
pub fn legacy_literal_star(content: &str) -> bool {
    legacy_prefix(content).is_some_and(|p| p.contains('*'))
}

/// An allow glob as Claude Code reads it. Claude makes a trailing ` *` optional (`git *`
/// also matches `git`) only when it is the pattern's one wildcard; with more (`git * *`) the
/// space is required. polc's glob always reads a trailing ` *` as a word boundary, so the
/// last star is doubled (`**` matches what `*` does) to keep the space required.
fn allow_glob(x: &str) -> String {
    if unescaped_stars(x) > 1 && x.ends_with(" *") {
        format!("{x}*")
    } else {
        x.to_string()
    }
}

/// How many `*` are not escaped by a backslash.
fn unescaped_stars(s: &str) -> usize {
    let (mut n, mut escaped) = (0, false);
    for c in s.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '*' => n += 1,
            _ => {}
        }
    }
    n
}

pub use crate::claude_validator::claude_rejects;

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

/// The pattern of a `Bash(…)` rule (`content` None: bare `Bash`), as Claude Code reads it.
fn bash_pattern(content: Option<&str>, verdict: Verdict) -> Pattern {
    match content {
        None => Pattern {
            kind: PatternKind::Glob,
            text: "*".into(),
        },
        // A legacy prefix rule: Claude Code takes the text before `:*` literally, stars
        // included (`node *:*` matches only commands that begin `node *`). An allow keeps
        // that literal reading; a deny or ask keeps the wildcard reading as well, which
        // matches every command the literal one does.
        Some(x) if legacy_prefix(x).is_some() && verdict == Verdict::Allow => Pattern {
            kind: PatternKind::Prefix,
            text: legacy_prefix(x).unwrap_or_default().to_string(),
        },
        Some(x) if legacy_prefix(x).is_some() => Pattern {
            kind: PatternKind::Glob,
            text: x.to_string(),
        },
        // `Bash(:*)`: Claude Code reads it as the exact command `:*` (the prefix before
        // `:*` may not be empty); as a glob it would be "anything".
        Some(x) if x.ends_with(":*") && verdict == Verdict::Allow => Pattern {
            kind: PatternKind::Exact,
            text: x.to_string(),
        },
        Some(x) if has_unescaped_star(x) => Pattern {
            kind: PatternKind::Glob,
            text: if verdict == Verdict::Allow {
                allow_glob(x)
            } else {
                x.to_string()
            },
        },
        // No wildcard: Claude Code compares the text exactly, a `\*` included as
        // written (`Bash(npm \* build)` allows `npm \* build`, not `npm * build`).
        Some(x) if verdict == Verdict::Allow => Pattern {
            kind: PatternKind::Exact,
            text: x.to_string(),
        },
        // A deny or ask is a word-bounded prefix, with `\*` read as the star it escapes
        // (the raw text with the backslash is matched by the whole-command pass).
        Some(x) => Pattern {
            kind: PatternKind::Prefix,
            text: x.replace("\\*", "*"),
        },
    }
}

/// Read one rule string found in the `verdict` list of a `permissions` block.
pub fn map_rule(s: &str, verdict: Verdict) -> Result<Mapped, ClaudeError> {
    let pairs = PolicyParser::parse(R::claude_rule, s).map_err(|_| ClaudeError {
        code: crate::syntax::codes::E001,
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
            code: crate::syntax::codes::E005,
            message: format!("empty pattern in `{s}`"),
            help: Some(format!(
                "write `{name}` (or `{name}(*)` for Bash) to match every call"
            )),
        });
    }
    if tool == crate::tools::BASH {
        let pattern = bash_pattern(content, verdict);
        return Ok(Mapped::Rule { tool, pattern });
    }
    let Some(spec) = content else {
        // A bare file tool rule applies to that tool only, as in Claude Code: a bare `Glob`
        // allow does not allow `Grep`, a bare `NotebookEdit` deny does not deny `Edit`.
        let tool = if FILE_TOOLS.contains(&name) {
            name.to_string()
        } else {
            tool
        };
        return Ok(Mapped::Rule {
            tool,
            pattern: Pattern {
                kind: PatternKind::Any,
                text: String::new(),
            },
        });
    };
    // Claude Code checks paths against `Read(…)` and `Edit(…)` rules only (for every tool
    // that reads, resp. edits); a path rule written for `Write`, `Glob`, … is never
    // consulted. An allow of that kind grants nothing there, so polc drops it (W003); a
    // deny or ask is kept as a read/edit path rule (stricter).
    if verdict == Verdict::Allow && FILE_TOOLS.contains(&name) && !matches!(name, "Read" | "Edit") {
        return Ok(Mapped::IgnoredPathRule {
            tool: name.to_string(),
        });
    }
    // Claude Code matches a WebFetch rule by its exact `domain:host` text: a `*` in an allow
    // never matches a host there, so polc drops the rule (W004); a deny keeps the wildcard.
    if name == "WebFetch" && verdict == Verdict::Allow && spec.contains('*') {
        return Ok(Mapped::IgnoredDomainWildcard);
    }
    let builtin = crate::tools::is_builtin(&tool);
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
            ("Bash(git push:*)", Allow, rule("bash", Prefix, "git push")),
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
            ("Bash(\\*)", Allow, rule("bash", Exact, "\\*")),
            ("Bash(\\*)", Deny, rule("bash", Prefix, "*")),
            ("Bash(timeout:*)", Deny, rule("bash", Glob, "timeout:*")),
            ("Bash(timeout:5)", Allow, rule("bash", Exact, "timeout:5")),
            ("Bash(echo (hi))", Deny, rule("bash", Prefix, "echo (hi)")),
            ("Read(./.env)", Deny, rule("read", Specifier, "./.env")),
            (
                "Grep(~/secrets/**)",
                Deny,
                rule("read", Specifier, "~/secrets/**"),
            ),
            ("Glob", Ask, rule("Glob", Any, "")),
            ("Write(//etc/**)", Deny, rule("edit", Specifier, "//etc/**")),
            ("MultiEdit", Deny, rule("MultiEdit", Any, "")),
            ("NotebookEdit", Deny, rule("NotebookEdit", Any, "")),
            ("Write", Allow, rule("Write", Any, "")),
            ("Read", Allow, rule("Read", Any, "")),
            ("Edit(src/**)", Allow, rule("edit", Specifier, "src/**")),
            (
                "Write(//etc/**)",
                Allow,
                Mapped::IgnoredPathRule {
                    tool: "Write".into(),
                },
            ),
            (
                "Grep(~/x/**)",
                Allow,
                Mapped::IgnoredPathRule {
                    tool: "Grep".into(),
                },
            ),
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
            (
                "WebFetch(domain:*.github.com)",
                Allow,
                Mapped::IgnoredDomainWildcard,
            ),
            (
                "WebFetch(domain:*.github.com)",
                Deny,
                rule("webfetch", Specifier, "domain:*.github.com"),
            ),
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
            assert_eq!(
                map_rule(s, Verdict::Deny).unwrap_err().code,
                crate::syntax::codes::E005,
                "{s}"
            );
        }
        for s in ["", "Bash(", "Bash)x", "Bash (x)", "(x)", "Bash(x)y"] {
            assert_eq!(
                map_rule(s, Verdict::Deny).unwrap_err().code,
                crate::syntax::codes::E001,
                "{s}"
            );
        }
    }

    #[test]
    fn legacy_prefix_rules() {
        use Verdict::*;
        // Claude reads the text before `:*` literally: `node *:*` only matches `node *…`.
        assert_eq!(
            map_rule("Bash(node *:*)", Allow),
            Ok(rule("bash", Prefix, "node *"))
        );
        assert_eq!(
            map_rule("Bash(gh api users/*:*)", Allow),
            Ok(rule("bash", Prefix, "gh api users/*"))
        );
        // Deny and ask keep the wildcard reading, which covers the literal one.
        assert_eq!(
            map_rule("Bash(node *:*)", Deny),
            Ok(rule("bash", Glob, "node *:*"))
        );
        assert_eq!(map_rule("Bash(:*)", Allow), Ok(rule("bash", Exact, ":*")));
        assert_eq!(map_rule("Bash(:*)", Deny), Ok(rule("bash", Glob, ":*")));
        assert!(legacy_literal_star("node *:*"));
        assert!(!legacy_literal_star("node:*"));
        assert!(!legacy_literal_star("node *"));
        // Several stars: the trailing ` *` needs its space (Claude's regex has no optional tail).
        assert_eq!(
            map_rule("Bash(git * *)", Allow),
            Ok(rule("bash", Glob, "git * **"))
        );
        assert_eq!(
            map_rule("Bash(git *)", Allow),
            Ok(rule("bash", Glob, "git *"))
        );
        assert_eq!(
            map_rule("Bash(git * *)", Deny),
            Ok(rule("bash", Glob, "git * *"))
        );
    }

    #[test]
    fn claude_validator() {
        let cases: &[(&str, Option<&str>)] = &[
            ("Bash(sudo :* )", Some("The :* pattern must be at the end")),
            (
                "Read(.env .* )",
                Some("Wildcard placement might be incorrect"),
            ),
            ("Bash(:*)", Some("Prefix cannot be empty before :*")),
            ("Bash(git:*)", None),
            ("Bash(npm run *)", None),
            ("Bash", None),
            ("Bash(*)", None),
            ("bash(ls)", Some("Tool names must start with uppercase")),
            ("Bash(ls", Some("Mismatched parentheses")),
            ("Bash()", Some("Empty parentheses")),
            (
                "mcp__github(x)",
                Some("MCP rules do not support patterns in parentheses"),
            ),
            ("mcp__github__*", None),
            (
                "WebFetch(https://x.com)",
                Some("WebFetch permissions use domain format, not URLs"),
            ),
            (
                "WebFetch(x.com)",
                Some("WebFetch permissions must use \"domain:\" prefix"),
            ),
            ("WebFetch(domain:x.com)", None),
            (
                "WebSearch(a*)",
                Some("WebSearch does not support wildcards"),
            ),
            ("Read(src/**)", None),
            ("Read(*.env)", None),
            ("Edit(a*b)", Some("Wildcard placement might be incorrect")),
            (
                "Read(x:*)",
                Some("The \":*\" syntax is only for Bash prefix rules"),
            ),
            ("Grep(a*b)", None),
            ("", Some("Permission rule cannot be empty")),
        ];
        for (r, want) in cases {
            assert_eq!(claude_rejects(r), *want, "{r}");
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
