//! The shared input model: every host's hook JSON, read into one [`HookInput`], and the
//! mapping from a host's tool name and input to a [`Request`].
//!
//! Unknown fields are ignored; both spellings are accepted where hosts drifted (Copilot's
//! camelCase `toolName`/`toolArgs` — an object or a JSON string — and snake_case fields).

use crate::runtime::Request;
use serde_json::Value;

/// Which event the host is asking about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    PreToolUse,
    PermissionRequest,
}

/// What polc takes from a hook's stdin.
#[derive(Clone, Debug, Default)]
pub struct HookInput {
    pub event_name: Option<String>,
    pub tool_name: Option<String>,
    pub tool_input: Value,
    pub cwd: Option<String>,
    pub session_id: Option<String>,
    pub permission_mode: Option<String>,
    pub transcript_path: Option<String>,
    /// Cursor: the workspace folders.
    pub workspace_roots: Vec<String>,
    /// The call's id (Claude `tool_use_id`): a post-tool event for a call polc asked about
    /// resets the session's denial counters (src/session/README.md).
    pub tool_use_id: Option<String>,
    /// The user's turn (Codex `turn_id`, Claude `prompt_id`; Cursor `generation_id`).
    pub turn_id: Option<String>,
    /// Gemini CLI's `mcp_context` of an MCP call: the server's and the tool's names.
    pub mcp_context: Option<(String, String)>,
}

/// Why the input cannot be read (the error row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadInput(pub String);

fn str_field(v: &Value, keys: &[&str]) -> Option<String> {
    keys.iter()
        .find_map(|k| v.get(*k).and_then(Value::as_str))
        .map(str::to_string)
}

/// The permission mode. A mode that is present but not a string (`0`, `true`, `[…]`) is a
/// mode polc does not know, which cannot prompt (it was read as no mode at all).
fn mode_field(v: &Value) -> Option<String> {
    let m = ["permission_mode", "permissionMode"]
        .iter()
        .find_map(|k| v.get(*k).filter(|x| !x.is_null()))?;
    Some(
        m.as_str()
            .map_or_else(|| format!("(not a string: {m})"), str::to_string),
    )
}

/// Parse the hook's stdin bytes.
pub fn parse(bytes: &[u8]) -> Result<HookInput, BadInput> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| BadInput(format!("hook input is not UTF-8 ({e})")))?;
    if text.trim().is_empty() {
        return Err(BadInput("hook input is empty".into()));
    }
    let v: Value = serde_json::from_str(text)
        .map_err(|e| BadInput(format!("hook input is not JSON ({e})")))?;
    if !v.is_object() {
        return Err(BadInput("hook input is not a JSON object".into()));
    }
    let mut tool_input = v
        .get("tool_input")
        .or_else(|| v.get("toolArgs"))
        .or_else(|| v.get("tool_args"))
        .cloned()
        .unwrap_or(Value::Null);
    // Older Copilot CLI releases send toolArgs as a JSON string.
    if let Value::String(s) = &tool_input {
        tool_input = serde_json::from_str(s)
            .map_err(|_| BadInput("toolArgs is a string that is not JSON".into()))?;
    }
    // Cursor's beforeShellExecution puts `command` at the top level.
    if tool_input.is_null() {
        if let Some(c) = v.get("command") {
            tool_input = serde_json::json!({ "command": c });
        }
    }
    let workspace_roots = v
        .get("workspace_roots")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    Ok(HookInput {
        event_name: str_field(&v, &["hook_event_name", "hookEventName"]),
        tool_name: str_field(&v, &["tool_name", "toolName"]),
        tool_input,
        cwd: str_field(&v, &["cwd"]),
        session_id: str_field(&v, &["session_id", "sessionId", "conversation_id"]),
        permission_mode: mode_field(&v),
        transcript_path: str_field(&v, &["transcript_path"]),
        workspace_roots,
        tool_use_id: str_field(&v, &["tool_use_id", "toolUseId"]),
        turn_id: str_field(&v, &["turn_id", "prompt_id", "turnId", "promptId"]),
        mcp_context: v.get("mcp_context").and_then(|c| {
            let server = str_field(c, &["server_name", "serverName"])?;
            let tool = str_field(c, &["tool_name", "toolName"])?;
            (!server.is_empty() && !tool.is_empty()).then_some((server, tool))
        }),
    })
}

impl HookInput {
    /// The event: `--event` wins, else the input's event name, else PreToolUse.
    pub fn event(&self, flag: Option<Event>) -> Event {
        flag.unwrap_or(match self.event_name.as_deref() {
            Some("PermissionRequest") | Some("permissionRequest") => Event::PermissionRequest,
            _ => Event::PreToolUse,
        })
    }
}

use crate::tools::POWERSHELL_TOOLS;
pub use crate::tools::{canonical as canonical_tool, SHELL_TOOLS};

/// A request, and why polc cannot attest it whatever the rules say (None: it can).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapped {
    pub request: Request,
    /// Other readings of the same call: decided too, the most restrictive answer wins (an
    /// argv array from a host that may run it either way).
    pub also: Vec<Request>,
    /// Set for a PowerShell command and for an argv array from a host that does not say how
    /// it runs one: the answer is never better than ask.
    pub unattestable: Option<String>,
    /// The folder a shell tool runs its command in when the input names one (Codex's
    /// `workdir`): relative paths in the command resolve there, not in the session's cwd.
    pub workdir: Option<String>,
}

pub use crate::hosts::ArgvRun;

/// How `host` runs an argv array (`crate::hosts::Host::argv_run`; an unknown name: unknown).
pub fn argv_run(host: &str) -> ArgvRun {
    crate::hosts::Host::parse(host).map_or(ArgvRun::Unknown, |h| h.argv_run())
}

/// Quote one word for a POSIX shell so that it reads back as exactly that word.
pub fn shell_quote(w: &str) -> String {
    let plain = !w.is_empty()
        && w.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'_' | b'-' | b'.' | b'/' | b',' | b':' | b'@' | b'%' | b'+'
                )
        });
    if plain {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// The POSIX-quoted join of an argv: a shell reads back exactly these words. The program
/// word is quoted too when it would otherwise read as an assignment (`X=1`).
pub fn quoted_join(argv: &[&str]) -> String {
    argv.iter()
        .enumerate()
        .map(|(i, w)| {
            if i == 0 && w.contains('=') {
                format!("'{}'", w.replace('\'', "'\\''"))
            } else {
                shell_quote(w)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Shells whose `-c` argument is a script polc reads as shell text.
const SH_FAMILY: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "posh", "yash",
];

/// `[sh, opts…, -c…, S, args…]` → S: the script a shell given `-c` runs. Only options
/// known to take no argument (`-l`, `-e`, `-x`, `--login`, `--norc`, …) or `-o NAME` may
/// come before it; anything else (a script file, `--rcfile F`) is None, and the quoted join
/// is analysed instead (where `bash -c` is itself a runner polc looks into).
pub fn shell_c_script<'a>(argv: &[&'a str]) -> Option<&'a str> {
    let prog = argv.first()?;
    // A relative path (`./bash`) may be any program the agent wrote: not a known shell.
    if prog.contains('/') && !prog.starts_with('/') {
        return None;
    }
    let name = prog.rsplit('/').next().unwrap_or(prog);
    if !SH_FAMILY.contains(&name) {
        return None;
    }
    let mut c = false;
    let mut i = 1;
    while i < argv.len() {
        let a = argv[i];
        match a {
            "--" => {
                i += 1;
                break;
            }
            "--login" | "--norc" | "--noprofile" | "--posix" | "--noediting" | "--restricted" => {}
            "-o" | "+o" | "-O" | "+O" => i += 1,
            _ if a.len() > 1
                && (a.starts_with('-') || a.starts_with('+'))
                && !a.starts_with("--")
                && a[1..].bytes().all(|b| b.is_ascii_alphabetic()) =>
            {
                // `-i` would read startup files that may define aliases: still S runs.
                c |= a.starts_with('-') && a.contains('c');
            }
            _ => break,
        }
        i += 1;
    }
    if !c {
        return None;
    }
    argv.get(i).copied()
}

/// The tool call as a request. A shell tool without a string `command` is an error.
pub fn to_request(inp: &HookInput, host: &str) -> Result<Mapped, BadInput> {
    // Cursor's beforeShellExecution and Copilot's CLI without a tool name are shell calls.
    let name = match inp.tool_name.as_deref() {
        Some(n) => n,
        None if inp.tool_input.get("command").is_some()
            && crate::hosts::Host::parse(host).is_some_and(|h| h.bare_command_is_shell()) =>
        {
            "bash"
        }
        None => return Err(BadInput("hook input has no tool_name".into())),
    };
    // The host's own spelling of a tool polc knows (`createAndRunTask`): read as polc's.
    let name = crate::tools::known_spelling(name);
    if let Some(command) = typed_shell_text(name, &inp.tool_input) {
        return Ok(Mapped {
            request: Request::Bash { command },
            also: Vec::new(),
            unattestable: Some("text sent to a shell or task polc does not see start".into()),
            workdir: None,
        });
    }
    let powershell = POWERSHELL_TOOLS.contains(&name);
    if SHELL_TOOLS.contains(&name) || powershell {
        return shell_request(inp, host, name, powershell);
    }
    if let Some(mut m) = mcp_request(inp, name) {
        if let Request::Tool { tool, .. } = &m.request {
            m.also
                .extend(super::kernel::readings(tool, &inp.tool_input));
        }
        return Ok(m);
    }
    // Claude Code's `Config` tool with a value writes Claude's settings (the permission
    // mode among them): an edit of the user's settings file, which self-protection denies
    // (red team, session 7). Reading a setting (no value) stays the tool's own call.
    if name == "Config" && inp.tool_input.get("value").is_some_and(|v| !v.is_null()) {
        let file = "~/.claude/settings.json";
        return Ok(Mapped {
            request: Request::Tool {
                tool: crate::tools::EDIT.to_string(),
                subject: file.to_string(),
                input_text: serde_json::json!({ "file_path": file, "setting": inp.tool_input })
                    .to_string(),
                name: name.to_string(),
            },
            also: Vec::new(),
            unattestable: Some("a change to the agent's own settings".into()),
            workdir: None,
        });
    }
    let tool = canonical_tool(name);
    let ti = &inp.tool_input;
    // Search tools (Grep, Glob, search_file_content, …) read a folder: `path`, else the cwd.
    let search =
        ti.get("pattern").is_some() && ti.get("file_path").is_none() && tool == crate::tools::READ;
    let mut subject = tool_subject(ti, &tool, search);
    let input_text = if ti.is_null() {
        String::new()
    } else {
        ti.to_string()
    };
    // A fetch of several URLs (VS Code's `fetch_webpage {"urls": […]}`): the first is the
    // subject, each other one a reading of its own (a deny on any denies).
    let (also_urls, too_many) = several_urls(ti, &tool, &mut subject, name);
    Ok(Mapped {
        request: Request::Tool {
            tool,
            subject,
            input_text,
            name: name.to_string(),
        },
        // Code a notebook kernel runs (`mcp__ide__executeCode`): its inline-code and shell
        // readings.
        also: super::kernel::readings(name, ti)
            .into_iter()
            .chain(also_urls)
            .collect(),
        unattestable: too_many.then(|| "a fetch of more URLs than polc checks".to_string()),
        workdir: None,
    })
}

/// How many URLs of one fetch are each decided; past it the call asks.
const MAX_FETCH_URLS: usize = 16;

/// A web fetch's `urls` array: the first URL as `subject` (when no `url` gave one), the
/// others as webfetch readings, and whether there were more than polc checks.
fn several_urls(ti: &Value, tool: &str, subject: &mut String, name: &str) -> (Vec<Request>, bool) {
    if tool != crate::tools::WEBFETCH {
        return (Vec::new(), false);
    }
    let Some(Value::Array(a)) = ti.get("urls") else {
        return (Vec::new(), false);
    };
    let urls: Vec<String> = a
        .iter()
        .map(|u| u.as_str().map_or_else(|| u.to_string(), str::to_string))
        .collect();
    let mut rest = urls.iter();
    if subject.is_empty() {
        if let Some(u) = rest.next() {
            *subject = u.clone();
        }
    }
    let also = rest
        .by_ref()
        .take(MAX_FETCH_URLS)
        .map(|u| Request::Tool {
            tool: crate::tools::WEBFETCH.to_string(),
            subject: u.clone(),
            input_text: serde_json::json!({ "url": u }).to_string(),
            name: name.to_string(),
        })
        .collect();
    (also, rest.next().is_some())
}

/// An MCP call a host names its own way, as polc's `mcp__SERVER__TOOL` (red team, session
/// 7: `deny mcp__github__delete_repo` never met Gemini's or Cursor's MCP calls):
/// - Gemini CLI names an MCP tool `mcp_SERVER_TOOL` and sends `mcp_context` with both names:
///   those names. Without the context the name splits at any `_`: each split is a reading
///   (the most restrictive answer wins, so a deny under any reading denies and an allow
///   needs every reading allowed).
/// - Cursor's `beforeMCPExecution` names the tool, not its server: no rule can be placed,
///   so the call is never better than ask.
fn mcp_request(inp: &HookInput, name: &str) -> Option<Mapped> {
    let tool_call = |n: String| Request::Tool {
        tool: n.clone(),
        subject: String::new(),
        input_text: if inp.tool_input.is_null() {
            String::new()
        } else {
            inp.tool_input.to_string()
        },
        name: n,
    };
    let mapped = |request, also, unattestable: Option<&str>| Mapped {
        request,
        also,
        unattestable: unattestable.map(str::to_string),
        workdir: None,
    };
    if name.starts_with("mcp__") {
        return None;
    }
    let event = inp.event_name.as_deref().unwrap_or("");
    if event.eq_ignore_ascii_case("beforeMCPExecution") {
        return Some(mapped(
            tool_call(format!("mcp__(unnamed server)__{name}")),
            Vec::new(),
            Some("an MCP call whose server the host does not name"),
        ));
    }
    let rest = name.strip_prefix("mcp_")?;
    if let Some((server, tool)) = &inp.mcp_context {
        return Some(mapped(
            tool_call(format!("mcp__{server}__{tool}")),
            Vec::new(),
            None,
        ));
    }
    let mut readings = rest
        .match_indices('_')
        .map(|(i, _)| (&rest[..i], &rest[i + 1..]))
        .filter(|(s, t)| !s.is_empty() && !t.is_empty())
        .map(|(s, t)| tool_call(format!("mcp__{s}__{t}")));
    let first = readings.next()?;
    let also: Vec<Request> = readings.by_ref().take(8).collect();
    // Past the bound on readings, the rest could hold a deny: ask.
    let more = readings
        .next()
        .map(|_| "an MCP tool name with more readings than polc checks");
    Some(mapped(first, also, more))
}

/// Tools that send text to a shell without being a shell tool: Copilot CLI's `write_bash`
/// (`input`: a line typed into a shell its `bash` tool started), VS Code's
/// `create_and_run_task` (`task.command` and `task.args`) and `run_vscode_command` with a
/// terminal command (`args.text`). The text is decided as a command (a deny in it denies);
/// where it runs is not known, so it is never allowed.
fn typed_shell_text(name: &str, ti: &Value) -> Option<String> {
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s.clone(),
        Some(v) if !v.is_null() => v.to_string(),
        _ => String::new(),
    };
    match name {
        "write_bash" | "write_powershell" => Some(text(ti.get("input"))),
        // Codex's `write_stdin`: keystrokes to a session `exec_command` started (a shell, a
        // pager whose `!` runs a command): red team, session 6.
        "write_stdin" => Some(text(ti.get("chars"))),
        "create_and_run_task" => {
            let task = ti.get("task").unwrap_or(ti);
            let mut s = text(task.get("command"));
            if let Some(Value::Array(a)) = task.get("args") {
                for x in a {
                    s.push(' ');
                    s.push_str(&text(Some(x)));
                }
            }
            Some(s)
        }
        "run_vscode_command" => {
            let id = text(ti.get("commandId").or(ti.get("command"))).to_ascii_lowercase();
            [
                "terminal", "task", "run", "exec", "send", "shell", "script", "launch",
            ]
            .iter()
            .any(|w| id.contains(w))
            .then(|| {
                let mut out = Vec::new();
                args_text(ti.get("args"), 0, &mut out);
                out.join("\n")
            })
        }
        _ => None,
    }
}

/// The text a VS Code command's `args` carries, in any shape (red team, session 8:
/// `"args": [{"text": "git push --force\n"}]` only asked, read as one JSON word): a string
/// is itself; an object its `text`, else each of its values; an array of strings one argv
/// line, else each element. Each piece is one line of the command decided. Bounded: past
/// the depth or count the rest is one JSON line (a word polc cannot attest).
fn args_text(v: Option<&Value>, depth: usize, out: &mut Vec<String>) {
    let Some(v) = v else { return };
    if depth > 6 || out.len() > 64 {
        out.push(v.to_string());
        return;
    }
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Object(m) => match m.get("text") {
            Some(t @ Value::String(_)) => args_text(Some(t), depth + 1, out),
            _ => m.values().for_each(|x| args_text(Some(x), depth + 1, out)),
        },
        Value::Array(a) if !a.is_empty() && a.iter().all(Value::is_string) => {
            let words: Vec<&str> = a.iter().filter_map(Value::as_str).collect();
            out.push(words.join(" "));
        }
        Value::Array(a) => a.iter().for_each(|x| args_text(Some(x), depth + 1, out)),
        Value::Null => {}
        other => out.push(other.to_string()),
    }
}

/// A shell tool's call: its `command` (a string, or an argv array as the host runs it) and
/// its working folder.
fn shell_request(
    inp: &HookInput,
    host: &str,
    name: &str,
    powershell: bool,
) -> Result<Mapped, BadInput> {
    let bad = || BadInput(format!("{name} call without a string `command`"));
    let c = inp
        .tool_input
        .get("command")
        .or_else(|| inp.tool_input.get("cmd"))
        .ok_or_else(bad)?;
    let ps = powershell.then_some("a PowerShell command (polc has no PowerShell segmenter)");
    let mut mapped = match c {
        Value::String(s) => Mapped {
            request: Request::Bash { command: s.clone() },
            also: Vec::new(),
            unattestable: None,
            workdir: None,
        },
        Value::Array(a) if !a.is_empty() && a.iter().all(Value::is_string) => {
            let argv: Vec<&str> = a.iter().filter_map(Value::as_str).collect();
            argv_request(&argv, argv_run(host))
        }
        _ => return Err(bad()),
    };
    if let Some(why) = ps {
        mapped.unattestable = Some(why.into());
    }
    match inp
        .tool_input
        .get("workdir")
        .or_else(|| inp.tool_input.get("working_directory"))
        // Cursor's Shell tool runs in `workingDirectory` (red team, session 6).
        .or_else(|| inp.tool_input.get("workingDirectory"))
        .or_else(|| inp.tool_input.get("working_dir"))
        .or_else(|| inp.tool_input.get("workDir"))
        .or_else(|| inp.tool_input.get("cwd"))
        // Gemini CLI's `run_shell_command` runs in `dir_path` (older releases: `directory`),
        // relative to the project folder.
        .or_else(|| inp.tool_input.get("dir_path"))
        .or_else(|| inp.tool_input.get("directory"))
    {
        None | Some(Value::Null) => {}
        Some(Value::String(w)) if !w.is_empty() => mapped.workdir = Some(w.clone()),
        Some(_) => {
            mapped.unattestable = Some("a working directory polc cannot read".into());
        }
    }
    Ok(mapped)
}

/// A tool call's main argument, for tool rules and explain.
fn tool_subject(ti: &Value, tool: &str, search: bool) -> String {
    if tool == crate::tools::WEBFETCH {
        // The URL fetched, and nothing else: another field (`file_path`) must not stand in
        // for it (domain rules would meet the wrong string). No string `url` → "" (a
        // deny/ask domain rule possibly matches).
        ti.get("url")
            .or_else(|| ti.get("uri"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    } else if search {
        ti.get("path")
            .or_else(|| ti.get("dir_path"))
            .and_then(Value::as_str)
            .unwrap_or(".")
            .to_string()
    } else {
        // The main argument, for tool rules and explain; the decision reads every path
        // field itself (runtime/toolpaths.rs).
        [
            "file_path",
            "filePath",
            "target_file",
            "path",
            "notebook_path",
            "absolute_path",
            "url",
            "pattern",
            "query",
            "dir_path",
        ]
        .iter()
        .find_map(|k| ti.get(*k).and_then(Value::as_str))
        .or_else(|| {
            ti.get("paths")
                .and_then(Value::as_array)
                .and_then(|a| a.first())
                .and_then(Value::as_str)
        })
        .unwrap_or("")
        .to_string()
    }
}

/// A shell tool's argv array as the host runs it (see [`ArgvRun`]).
pub fn argv_request(argv: &[&str], run: ArgvRun) -> Mapped {
    let exec = match shell_c_script(argv) {
        Some(script) => script.to_string(),
        None => quoted_join(argv),
    };
    let exec = Request::Bash { command: exec };
    // execve cuts an argument at a NUL byte (`rm\0x` runs `rm`): polc cannot attest it,
    // and the cut argv is one more reading.
    if argv.iter().any(|w| w.contains('\0')) {
        let cut: Vec<&str> = argv
            .iter()
            .map(|w| w.split('\0').next().unwrap_or(""))
            .collect();
        let mut m = argv_request(&cut, ArgvRun::Unknown);
        m.also.push(exec);
        m.also.push(Request::Bash {
            command: argv.join(" "),
        });
        return m;
    }
    match run {
        ArgvRun::Exec => Mapped {
            request: exec,
            also: Vec::new(),
            unattestable: None,
            workdir: None,
        },
        ArgvRun::Unknown => Mapped {
            request: exec,
            also: vec![Request::Bash {
                command: argv.join(" "),
            }],
            unattestable: Some(
                "a `command` array from a host that does not document how it runs one".into(),
            ),
            workdir: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_join_reads_back_as_the_argv() {
        let cases: &[(&[&str], &str)] = &[
            (&["git", "status"], "git status"),
            (
                &["env", "X='", "rm", "-rf", "x", "'"],
                r#"env 'X='\''' rm -rf x ''\'''"#,
            ),
            (
                &["echo", "a b", "$HOME", "`id`", "*"],
                "echo 'a b' '$HOME' '`id`' '*'",
            ),
            (&["echo", "", "x;y", "a\nb"], "echo '' 'x;y' 'a\nb'"),
            (&["X=1", "rm"], "'X=1' rm"),
            (&["ls", "~/x", "a=b"], "ls '~/x' 'a=b'"),
        ];
        for (argv, want) in cases {
            assert_eq!(quoted_join(argv), *want, "{argv:?}");
        }
    }

    #[test]
    fn shell_c_scripts() {
        let s = |a: &[&str]| shell_c_script(a).map(str::to_string);
        for (argv, want) in [
            (&["bash", "-lc", "ls; rm x"][..], Some("ls; rm x")),
            (&["/bin/sh", "-c", "S", "arg0", "arg1"][..], Some("S")),
            (&["zsh", "-c", "-x", "S"][..], Some("S")),
            (&["bash", "-o", "pipefail", "-c", "S"][..], Some("S")),
            (&["bash", "--login", "-ec", "S"][..], Some("S")),
            (&["bash", "-c", "--", "S"][..], Some("S")),
            (&["bash", "script.sh", "-c", "S"][..], None),
            (&["bash", "--rcfile", "f", "-c", "S"][..], None),
            (&["bash", "-l", "S"][..], None),
            (&["bash", "-c"][..], None),
            (&["./bash", "-c", "S"][..], None),
            (&["python3", "-c", "S"][..], None),
            (&["fish", "-c", "S"][..], None),
        ] {
            assert_eq!(s(argv), want.map(str::to_string), "{argv:?}");
        }
    }

    #[test]
    fn argv_arrays_per_host() {
        let argv = ["env", "X='", "rm", "-rf", "x", "'"];
        let m = argv_request(&argv, ArgvRun::Exec);
        assert_eq!(
            m.request,
            Request::Bash {
                command: quoted_join(&argv)
            }
        );
        assert!(m.also.is_empty() && m.unattestable.is_none());
        let m = argv_request(&["bash", "-lc", "git status"], ArgvRun::Exec);
        assert_eq!(
            m.request,
            Request::Bash {
                command: "git status".into()
            }
        );
        let m = argv_request(&argv, ArgvRun::Unknown);
        assert!(m.unattestable.is_some());
        assert_eq!(
            m.also,
            vec![Request::Bash {
                command: "env X=' rm -rf x '".into()
            }]
        );
        let m = argv_request(&["rm\0x", "y"], ArgvRun::Exec);
        assert!(m.unattestable.is_some(), "a NUL byte is never attested");
        assert_eq!(argv_run("codex"), ArgvRun::Exec);
        for h in [
            "claude", "vscode", "copilot", "gemini", "cursor", "droid", "vibe", "x",
        ] {
            assert_eq!(argv_run(h), ArgvRun::Unknown, "{h}");
        }
    }
}
