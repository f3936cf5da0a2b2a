//! Remembered approvals (src/session/README.md#remembered-approvals): on Claude Code's
//! PermissionRequest, an allow by a rule marked `remember` carries `updatedPermissions` so
//! Claude Code stops asking for the same command in this session: one `addRules` of one
//! `Bash` rule, `behavior: "allow"`, `destination: "session"`, nothing else ever.

use crate::host::input::{Event, Mapped};
use crate::host::Host;
use crate::ir::session::{Config, SEC_SESSION};
use crate::ir::Decision;
use crate::runtime::entry::Decided;
use crate::runtime::{Cause, Request};

/// The `ruleContent` Claude Code reads as exactly `command`, or None when no such text
/// exists. Claude Code 2.1.112 reads a Bash rule's content three ways: ending in `:*`, a
/// prefix; with an unescaped `*`, a wildcard; else an exact command compared as written
/// (its escapes are not undone there, so `\*` is a literal backslash and star). A command
/// with a `*` therefore has no exact form: it is never remembered. Backslashes and
/// parentheses (the rule string's own escapes) and every control or invisible character are
/// refused too; so is a command Claude Code would trim.
pub fn rule_content(command: &str) -> Option<String> {
    let ok = !command.is_empty()
        && command.len() <= 1000
        && command.trim() == command
        && !command.contains(['*', '\\', '(', ')'])
        && !command
            .chars()
            .any(|c| c.is_control() || crate::shell::is_suspicious_char(c));
    ok.then(|| command.to_string())
}

/// Is the call one plain command whose allow rests on no path or URL (a single simple
/// command: no operator, redirection, nesting, file or URL use, network or folder change)?
fn plain_command(command: &str) -> bool {
    let mut w = crate::shell::walk(command);
    // What polc guesses an unknown program may run is not a segment of the command.
    w.segments.retain(|s| !s.seg.speculative);
    if !w.unattestable.is_empty() || w.segments.len() != 1 {
        return false;
    }
    let s = &w.segments[0];
    s.seg.depth == 0
        && s.seg.redirects.is_empty()
        && s.redirects.is_empty()
        && s.seg.unattestable.is_empty()
        && !s.seg.deny_only
        && s.effects.iter().all(|e| {
            e.files.is_empty()
                && e.urls.is_empty()
                && e.chdir.is_empty()
                && e.net == crate::shell::effects::Net::No
        })
}

/// What the hook knows when it may remember an allow.
pub struct Allowed<'a> {
    pub host: Host,
    pub ev: Event,
    pub mapped: &'a Mapped,
    pub decided: &'a Decided,
    /// polc's decision after the session (before host authority).
    pub decision: Decision,
    /// The session's rules looked at this call (a sequence step matched it, or denial limits
    /// are on): the allow depended on the session's state.
    pub session_dependent: bool,
    /// The answer is a rewrite.
    pub rewritten: bool,
}

/// The `ruleContent` to remember for this allow, or None.
pub fn remembered(a: &Allowed<'_>) -> Option<String> {
    if a.host != Host::Claude
        || a.ev != Event::PermissionRequest
        || a.decision != Decision::Allow
        || a.decided.decision != Decision::Allow
        || a.session_dependent
        || a.rewritten
        || a.decided.adjusted.is_some()
        || a.decided.failure.is_some()
        || a.decided.disagree.is_some()
        || !a.mapped.also.is_empty()
        || a.mapped.unattestable.is_some()
    {
        return None;
    }
    let Request::Bash { command } = &a.mapped.request else {
        return None;
    };
    let j = a.decided.judged.as_ref()?;
    if j.finding.is_some() || !j.outcome.unattestable.is_empty() {
        return None;
    }
    let Cause::Rule { rule } = j.outcome.cause else {
        return None;
    };
    if j.outcome.winner != Some(rule) || !winner_remembers(a.decided, rule) {
        return None;
    }
    if !plain_command(command) {
        return None;
    }
    rule_content(command)
}

/// Is union rule `rule` marked `remember` in its own table?
fn winner_remembers(d: &Decided, rule: u32) -> bool {
    let Ok(u) = d.rules() else {
        return false;
    };
    let (Some((layer, _)), Ok(desc)) = (
        u.locate(rule),
        crate::runtime::RuleFacts::describe(&u, rule),
    ) else {
        return false;
    };
    let Some(l) = d.loaded.get(layer) else {
        return false;
    };
    l.table
        .section(SEC_SESSION)
        .and_then(|b| Config::decode(b).ok())
        .is_some_and(|c| c.remember.contains(&desc.id))
}

/// The PermissionRequest allow answer that remembers `content` for this session.
pub fn render(content: &str) -> crate::host::answer::Rendered {
    let rule = serde_json::json!({
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {
                "behavior": "allow",
                "updatedPermissions": [{
                    "type": "addRules",
                    "rules": [{"toolName": "Bash", "ruleContent": content}],
                    "behavior": "allow",
                    "destination": "session"
                }]
            }
        }
    });
    crate::host::answer::json(rule.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_commands_claude_reads_exactly() {
        assert_eq!(rule_content("git status").as_deref(), Some("git status"));
        assert_eq!(
            rule_content("git log --oneline -n 5").as_deref(),
            Some("git log --oneline -n 5")
        );
        for bad in [
            "",
            " git status",
            "git status ",
            "npm run:*",
            "ls *.txt",
            "ls \\*.txt",
            "echo \\",
            "echo (a)",
            "git status\nrm -rf ~",
            "git status\r",
            "git\tstatus",
            "git status\u{202e}",
        ] {
            assert_eq!(rule_content(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn plain_commands_only() {
        assert!(plain_command("git status"));
        for bad in [
            "git status; rm -rf ~",
            "git status && true",
            "git status | cat",
            "git status > out",
            "cat notes.txt",
            "curl https://x.io",
            "cd /tmp",
            "git status $(id)",
        ] {
            assert!(!plain_command(bad), "{bad:?}");
        }
    }
}
