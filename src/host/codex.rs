//! OpenAI Codex CLI hooks: Claude-shaped, but strict and fail-open — `allow` and `ask` mark
//! the hook as failed and the command runs. So only deny-with-reason is ever written; an ask
//! arrives here already turned into a deny (Codex cannot prompt from a hook), and allow or
//! default is no output. The error row is the deny answer (exit 0) plus R on stderr.

use super::answer::{clip, js, json, silent, Answer, Kind, Rendered};

pub fn render(a: &Answer) -> Rendered {
    match a.kind {
        // Ask is converted upstream; render it as deny anyway rather than fail open.
        Kind::Deny | Kind::Ask => json(format!(
            r#"{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":{}}}}}"#,
            js(&clip(&a.reason))
        )),
        Kind::Allow | Kind::Default => silent(),
    }
}

pub fn error(reason: &str) -> Rendered {
    let mut r = render(&Answer {
        kind: Kind::Deny,
        reason: reason.into(),
    });
    r.stderr = Some(clip(reason));
    r
}

/// Codex's hook input for `exec_command`/`shell_command` is `{command}` alone: the folder
/// the model ran it in (`workdir`) is not sent, so a relative path may land anywhere (with
/// `workdir: ".claude"`, `cp x settings.json` replaces Claude's hook settings). Judging it in
/// the session's folder would miss that, and asking about every relative write would stop
/// Codex from writing at all; so a relative write whose file name is that of a protected
/// file (or a `.pol` source) is asked about (a deny on Codex). The reason, when so.
pub fn unplaced_write(command: &str) -> Option<String> {
    let names = crate::runtime::protect::protected_names();
    let walk = crate::shell::walk(command);
    for w in &walk.segments {
        for u in w.file_uses().filter(|u| u.access.writes()) {
            let p = u.path.as_slice();
            if p.starts_with(b"/") || p.starts_with(b"~") {
                continue;
            }
            // Any component: `rm -rf hooks`, `cp x hooks/h.sh`, `tee x/policy.bin`.
            let named = p
                .split(|&b| b == b'/')
                .any(|c| names.iter().any(|n| n.as_bytes() == c));
            let base = crate::shell::effects::basename(p);
            if named || base.ends_with(b".pol") {
                return Some(format!(
                    "polc: this host does not say which folder the command runs in, and it writes `{}`, the name of a protected file or folder (agent hook configuration or polc's own)",
                    String::from_utf8_lossy(p)
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::unplaced_write;

    #[test]
    fn relative_writes_of_protected_names_are_unplaced() {
        for c in [
            "cp /tmp/x settings.json",
            "echo '{}' > hooks.json",
            "go build -o hooks.json /tmp/x/main.go",
            "rm -f settings.local.json",
            "tee x/policy.bin < y",
            "sed -i s/a/b/ default.pol",
            "rm -rf hooks",
            "cp x hooks/h.sh",
            "rm -f trusted",
            "mv x .mcp.json",
        ] {
            assert!(unplaced_write(c).is_some(), "{c}");
        }
        for c in [
            "cp /tmp/x notes.json",
            "cat settings.json",
            "echo hi > out.txt",
            "cargo build",
            "cp x /tmp/settings.json",
        ] {
            assert!(unplaced_write(c).is_none(), "{c}");
        }
    }
}
