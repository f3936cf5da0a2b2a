//! Rewrites (`updatedInput`, src/session/README.md#rewrites): a `rewrite bash …` rule adds
//! plain words at the end of a simple command; the whole policy then decides the rewritten
//! command, and the hook answers allow with the rewritten input only where the host is known
//! to run it. Everywhere else polc decides the original input.

use crate::host::input::{Event, HookInput, Mapped};
use crate::host::Host;
use crate::ir::session::{Config, SEC_REWRITE_BASE, SEC_SESSION};
use crate::ir::{Decision, Tier};
use crate::runtime::layers::LoadedLayer;
use crate::runtime::table_rules::TableRules;
use crate::runtime::{Context, Request};

/// Claude Code permission modes in which a PreToolUse allow with `updatedInput` ran the
/// rewritten command (tests/agents `allow + updatedInput in MODE`, Claude Code 2.1.112,
/// print mode). A mode not listed (a new one, or none sent) gets the original decided.
pub const CLAUDE_REWRITE_MODES: &[&str] = &[
    "default",
    "acceptEdits",
    "bypassPermissions",
    "dontAsk",
    "plan",
    "auto",
];

/// Does `host` run the rewritten input of an allow answer to `ev` in `mode`? Only Claude
/// Code's PreToolUse is established. Gemini documents `hookSpecificOutput.tool_input` but
/// sends no approval mode (a mode that dropped it would run the original under polc's
/// allow); Copilot's `modifiedArgs` is unproven; the others document none.
pub fn host_applies(host: Host, ev: Event, mode: Option<&str>) -> bool {
    host == Host::Claude
        && ev == Event::PreToolUse
        && mode.is_some_and(|m| CLAUDE_REWRITE_MODES.contains(&m))
}

/// A rewrite that applies to a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub id: String,
    /// `file:line` of the rule.
    pub at: String,
    pub text: String,
    pub command: String,
}

/// May this layer rewrite? Managed and user tables, and a project table only while trusted.
fn may_rewrite(l: &LoadedLayer) -> bool {
    l.spec.tier != Tier::Project || l.trusted
}

/// The rewrite of `command` by the strongest layer that may rewrite and has a matching
/// rewrite rule (managed, then user, then a trusted project), if any.
pub fn find(layers: &[LoadedLayer], host: &str, command: &str, ctx: &Context) -> Option<Found> {
    let mut order: Vec<&LoadedLayer> = layers.iter().filter(|l| may_rewrite(l)).collect();
    order.sort_by_key(|l| std::cmp::Reverse(l.spec.tier));
    order
        .into_iter()
        .find_map(|l| find_in(|k| l.table.section(k), host, command, ctx))
}

/// The first rewrite of one table (sections by kind) that applies to `command`.
pub fn find_in<'t>(
    get: impl Fn(u32) -> Option<&'t [u8]>,
    host: &str,
    command: &str,
    ctx: &Context,
) -> Option<Found> {
    let bytes = get(SEC_SESSION)?;
    // Most tables have no rewrite (the key is left out when empty): skip the JSON decode.
    memchr::memmem::find(bytes, b"\"rewrites\"")?;
    let cfg = Config::decode(bytes).ok()?;
    if cfg.rewrites.is_empty() {
        return None;
    }
    let rules = TableRules::new(|k| get(SEC_REWRITE_BASE + k)).ok()?;
    let req = Request::Bash {
        command: command.to_string(),
    };
    let out = crate::runtime::decide_in(&rules, host, &req, ctx).ok()?;
    let (Decision::Allow, Some(w)) = (out.decision, out.winner) else {
        return None;
    };
    let rw = cfg.rewrites.iter().find(|r| r.rule == w)?;
    let new = appended(command, &rw.append)?;
    Some(Found {
        id: rw.id.clone(),
        at: if rw.line > 0 {
            format!("{}:{}", rw.file, rw.line)
        } else {
            rw.file.clone()
        },
        text: rw.text.clone(),
        command: new,
    })
}

/// The words of a command that is one plain simple command (no operator, redirection,
/// nesting, line break or construct polc cannot attest), as written.
fn simple_words(command: &str) -> Option<Vec<String>> {
    if command.contains(['\n', '\r']) {
        return None;
    }
    let mut w = crate::shell::walk(command);
    // What polc guesses an unknown program may run is not a segment of the command.
    w.segments.retain(|s| !s.seg.speculative);
    if !w.unattestable.is_empty() || w.segments.len() != 1 {
        return None;
    }
    let s = &w.segments[0];
    let plain = s.seg.depth == 0
        && s.seg.redirects.is_empty()
        && s.redirects.is_empty()
        && s.seg.unattestable.is_empty()
        && !s.seg.deny_only
        && !s.seg.words.is_empty();
    plain.then(|| s.seg.words.iter().map(|x| x.raw.clone()).collect())
}

/// `command` with `words` added at the end, if the result reads back as exactly the
/// command's words followed by them (a trailing comment, a line continuation, an open
/// quote or an operator would swallow or change them: no rewrite then).
pub fn appended(command: &str, words: &[String]) -> Option<String> {
    if words.is_empty() || !words.iter().all(|w| crate::ir::session::plain_word(w)) {
        return None;
    }
    let mut want = simple_words(command)?;
    let new = format!("{} {}", command.trim_end(), words.join(" "));
    want.extend(words.iter().cloned());
    (simple_words(&new)? == want).then_some(new)
}

/// The host's input with the command replaced (`updatedInput` replaces the whole input, so
/// every other field is kept as sent). None unless the input's `command` is the command
/// polc decided.
pub fn updated_input(inp: &HookInput, original: &str, new: &str) -> Option<serde_json::Value> {
    let mut v = inp.tool_input.clone();
    let obj = v.as_object_mut()?;
    if obj.get("command").and_then(|c| c.as_str()) != Some(original) {
        return None;
    }
    obj.insert("command".into(), serde_json::Value::String(new.to_string()));
    Some(v)
}

/// The candidate of a call: the rewritten request and input, when a rewrite applies and the
/// host runs rewrites here. The caller decides it with the whole policy.
pub fn candidate(
    host: Host,
    ev: Event,
    inp: &HookInput,
    mapped: &Mapped,
    original: Decision,
    layers: &[LoadedLayer],
    ctx: &Context,
) -> Option<(Found, Mapped, serde_json::Value)> {
    // An original deny stays a deny: were the rewrite ever dropped, the denied command would
    // run under polc's allow.
    if original == Decision::Deny || !host_applies(host, ev, inp.permission_mode.as_deref()) {
        return None;
    }
    let Request::Bash { command } = &mapped.request else {
        return None;
    };
    if !mapped.also.is_empty() || mapped.unattestable.is_some() {
        return None;
    }
    let found = find(layers, host.name(), command, ctx)?;
    let input = updated_input(inp, command, &found.command)?;
    let m = Mapped {
        request: Request::Bash {
            command: found.command.clone(),
        },
        also: Vec::new(),
        unattestable: None,
        workdir: mapped.workdir.clone(),
    };
    Some((found, m, input))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn appends_only_to_one_plain_command() {
        let dry = w(&["--dry-run"]);
        assert_eq!(
            appended("terraform apply", &dry).as_deref(),
            Some("terraform apply --dry-run")
        );
        assert_eq!(
            appended("terraform apply -auto-approve  ", &dry).as_deref(),
            Some("terraform apply -auto-approve --dry-run")
        );
        // Each of these would swallow, misplace or change the words: no rewrite.
        for bad in [
            "terraform apply # note",
            "terraform apply \\",
            "terraform apply 'x",
            "terraform apply; rm -rf ~",
            "terraform apply && true",
            "terraform apply | tee log",
            "terraform apply > out",
            "terraform apply <<EOF",
            "terraform apply &",
            "terraform apply\nrm -rf ~",
            "(terraform apply)",
            "terraform apply $(id)",
            "terraform apply `id`",
            "",
        ] {
            assert_eq!(appended(bad, &dry), None, "{bad:?}");
        }
        // Words that are not plain are refused even if a table carried them.
        assert_eq!(appended("x", &w(&["; rm -rf ~"])), None);
        assert_eq!(appended("x", &w(&["$HOME"])), None);
        assert_eq!(appended("x", &w(&["*"])), None);
    }
}
