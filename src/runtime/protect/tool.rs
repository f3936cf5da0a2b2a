//! Self-protection for a tool call other than a shell command: its path, and every string of
//! an MCP or unknown tool's input.

use super::{Finding, Protected, Worst, POLC_GUARDED, RULE_ID};
use crate::ir::Verdict;
use crate::tools;
use std::path::Path;

impl Protected {
    pub(super) fn check_tool(
        &self,
        tool: &str,
        subject: &str,
        input: &str,
        cwd: &Path,
    ) -> Option<Finding> {
        if tool == tools::READ {
            // The audit log holds what the agent was denied and why: reading it asks.
            let p = self.resolve(subject.as_bytes(), cwd);
            return self.reads_audit(&p, true).then(|| Finding {
                verdict: Verdict::Ask,
                what: format!("{tool} of polc's audit log {}", p.display()),
                paths: vec![p],
                rule_id: RULE_ID,
            });
        }
        if matches!(tool, tools::WEBFETCH | tools::WEBSEARCH) {
            return None;
        }
        let mut strings: Vec<String> = vec![subject.to_string()];
        let mut worst = Worst::default();
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(input) {
            if !collect_strings(&v, &mut strings, 0) {
                // Fields past the bound are not looked at: they could name a protected path.
                worst.raise(
                    Verdict::Ask,
                    format!("{tool} input deeper or wider than polc reads for protected paths"),
                    None,
                );
            }
        }
        // A tool polc has no name for (MCP) that says it changes files is a certain write.
        let edit = tool == tools::EDIT || (tool != tools::BASH && writes_by_name(tool));
        // The paths a patch names (`*** Add File: .claude/settings.json`): the patch is one
        // string, which read as a path named nothing (bug fixed: `apply_patch` wrote polc's
        // and the agents' configuration).
        let named = crate::runtime::toolpaths::tool_paths(tool, subject, input).files;
        strings.extend(named.iter().cloned());
        for s in strings.iter().filter(|s| !s.is_empty()) {
            // `file:///p/.claude/settings.json` names the path.
            let s = &crate::runtime::toolpaths::as_path(s).unwrap_or_else(|| s.clone());
            for p in self.resolve_all(s.as_bytes(), cwd) {
                self.tool_path(tool, s, subject, &named, edit, &p, &mut worst);
            }
        }
        if tool != tools::BASH && !tools::is_builtin(tool) {
            self.paths_inside_text(tool, &strings, cwd, &mut worst);
        }
        if tool == tools::EDIT && configures_runner(subject, input) {
            worst.raise(
                Verdict::Ask,
                format!("{tool} of {subject} sets a test runner's options"),
                None,
            );
        }
        worst.0
    }

    /// An MCP or unknown tool's text values (a patch, a diff, a command, code) may name a
    /// protected path inside them (`*** Add File: .claude/settings.json`, `rm -f
    /// .claude/settings.json`, `open('.mcp.json','w')`): each path-like word is looked at;
    /// one that names a protected path asks (red team, session 5).
    fn paths_inside_text(&self, tool: &str, strings: &[String], cwd: &Path, worst: &mut Worst) {
        let sep = |c: char| c.is_whitespace() || "'\"`()[]{},;=<>|&:".contains(c);
        // At most 1,024 path-like words are looked at (each is compared with every
        // protected path); past that, the text asks (a bound ends in ask).
        let mut budget = 1024usize;
        for s in strings.iter().filter(|s| s.contains(sep)) {
            for tok in s
                .split(sep)
                .filter(|t| t.contains('/') || t.starts_with('.'))
            {
                if budget == 0 {
                    worst.raise(
                        Verdict::Ask,
                        format!("{tool} input holds more path-like words than polc looks through"),
                        None,
                    );
                    return;
                }
                budget -= 1;
                let tok = tok
                    .strip_prefix("a/")
                    .or_else(|| tok.strip_prefix("b/"))
                    .unwrap_or(tok);
                // A `.env` named in free text ("fix the .env loader") is not a write of the
                // environment files Gemini CLI loads: those are protected by path fields and
                // shell writes (red team, session 8), not by every mention.
                if tok.rsplit('/').next() == Some(".env") {
                    continue;
                }
                if self
                    .resolve_all(tok.as_bytes(), cwd)
                    .iter()
                    .any(|p| self.covers(p))
                {
                    worst.raise(
                        Verdict::Ask,
                        format!("{tool} input names protected path `{tok}` inside its text"),
                        None,
                    );
                    return;
                }
            }
        }
    }

    /// One path a tool call names (both spellings of a path with `..`, see
    /// [`Self::resolve_all`]).
    #[allow(clippy::too_many_arguments)]
    fn tool_path(
        &self,
        tool: &str,
        s: &str,
        subject: &str,
        named: &[String],
        edit: bool,
        p: &Path,
        worst: &mut Worst,
    ) {
        if self.covers(p) {
            let v = if edit && !self.ask_only(p) {
                Verdict::Deny
            } else {
                Verdict::Ask
            };
            worst.raise(
                v,
                format!("{tool} of protected path {}", p.display()),
                Some(p),
            );
            // An ask-level name (`.claude/hooks/` at any depth) may be a known root's
            // deny-level path: look on.
            if v == Verdict::Deny || !edit {
                return;
            }
        }
        let path_field = s == subject || named.iter().any(|n| n == s);
        if tool == tools::EDIT && path_field && self.ancestor_of_protected(p) {
            worst.raise(
                Verdict::Deny,
                format!("{tool} of {}, which holds protected paths", p.display()),
                Some(p),
            );
            return;
        }
        // An MCP tool that says it writes, given a folder holding protected paths (its file
        // named in another field, or chosen by the server): red team, session 8. Not the
        // project root or above (every tool is given the root).
        if tool != tools::EDIT
            && edit
            && !self.project_root.starts_with(p)
            && self.ancestor_of_protected(p)
        {
            worst.raise(
                Verdict::Ask,
                format!(
                    "{tool} may write into {}, which holds protected paths",
                    p.display()
                ),
                Some(p),
            );
        }
        if tool != tools::EDIT || path_field {
            let cap = if edit { Verdict::Deny } else { Verdict::Ask };
            // An existing file that is another name of a protected file (a hard link): every
            // host's file tools but Claude's write it in place (red team, session 7). The
            // file's verdict for a tool that says it writes; ask for one that may.
            self.hard_link_write(tool, p, cap, worst);
            // Another project's protected paths (`others.rs`); by name only for a tool that
            // says it writes. A tool that only may write (an MCP search, a lookup) has the
            // lists read only for a path outside the project root: most of its strings are
            // no paths at all, and a known root inside the project is rare.
            if !edit && p.starts_with(&self.project_root) {
                return;
            }
            let h = self.elsewhere(p, edit).or_else(|| {
                (tool == tools::EDIT)
                    .then(|| self.elsewhere_above(p, true))
                    .flatten()
            });
            if let Some(h) = h {
                worst.raise(
                    h.verdict.min(cap),
                    format!("{tool} of {}: {}", p.display(), h.why),
                    Some(p),
                );
            }
        }
    }
}

/// `polc SUB` anywhere in a text (inline code, typed keys): the guarded subcommand.
/// Does an edit of a project file that also configures a runner set its options? pytest
/// reads `addopts` from `pyproject.toml`'s `[tool.pytest.ini_options]` (and, since pytest 9,
/// `[tool.pytest]`): options an allowed `pytest` then obeys (`--junitxml=.claude/settings.json`;
/// red team, session 7). A shell write of the file is not read (its content is not known):
/// the file tools' new text is.
fn configures_runner(subject: &str, input: &str) -> bool {
    let base = subject.rsplit(['/', '\\']).next().unwrap_or(subject);
    base.eq_ignore_ascii_case("pyproject.toml")
        && ["tool.pytest", "addopts", "tool.coverage", "tool.tox"]
            .iter()
            .any(|k| input.contains(k))
}

pub(super) fn polc_in_text(text: &str) -> Option<String> {
    // Every word below is a piece of the text: without `polc` in the text, no word holds it
    // (a 100 kB command was split into its 16,000 words for nothing; issue 12 item 6).
    if !text.contains("polc") {
        return None;
    }
    let words: Vec<&str> = text
        .split(|c: char| {
            c.is_whitespace()
                || matches!(
                    c,
                    '\'' | '"' | '`' | ';' | '|' | '&' | '(' | ')' | ',' | '[' | ']' | '{' | '}'
                )
        })
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        let base = w.rsplit('/').next().unwrap_or(w);
        if base.contains("polc") {
            if let Some(s) = words[i + 1..]
                .iter()
                .take(4)
                .find(|s| POLC_GUARDED.contains(s))
            {
                return Some(s.to_string());
            }
        }
    }
    None
}

/// Does an MCP/unknown tool's name say it changes files (`write_file`, `move_file`,
/// `create_directory`, `edit_block`, `delete`)? Then a protected path in its input is a
/// certain write (deny); other tools that may write ask.
pub(super) fn writes_by_name(tool: &str) -> bool {
    let name = tool
        .rsplit("__")
        .next()
        .unwrap_or(tool)
        .to_ascii_lowercase();
    [
        "write",
        "edit",
        "create",
        "delete",
        "remove",
        "move",
        "rename",
        "put",
        "save",
        "upload",
        "patch",
        "replace",
        "append",
        "insert",
        "copy",
        "mkdir",
        "update",
        "set",
        "overwrite",
        "truncate",
        "chmod",
        "unlink",
        "rm",
    ]
    .iter()
    .any(|w| {
        name.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|p| p == *w)
            || (w.len() >= 4 && name.contains(w))
    })
}

/// Every string of a tool input; false when the input is deeper or wider than the bound
/// (the caller then asks: what lies past it is not read).
pub(super) fn collect_strings(v: &serde_json::Value, out: &mut Vec<String>, depth: u32) -> bool {
    if depth > 16 || out.len() > 4096 {
        return false;
    }
    match v {
        serde_json::Value::String(s) => {
            out.push(s.clone());
            true
        }
        serde_json::Value::Array(a) => a.iter().all(|x| collect_strings(x, out, depth + 1)),
        serde_json::Value::Object(m) => m.values().all(|x| collect_strings(x, out, depth + 1)),
        _ => true,
    }
}
