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
}

/// Why the input cannot be read (the error row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadInput(pub String);

fn str_field(v: &Value, keys: &[&str]) -> Option<String> {
    keys.iter()
        .find_map(|k| v.get(*k).and_then(Value::as_str))
        .map(str::to_string)
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
        permission_mode: str_field(&v, &["permission_mode", "permissionMode"]),
        transcript_path: str_field(&v, &["transcript_path"]),
        workspace_roots,
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

/// Shell tools, as each host spells them.
pub const SHELL_TOOLS: &[&str] = &[
    "Bash",
    "bash",
    "run_shell_command",
    "runTerminalCommand",
    "run_in_terminal",
    "Execute",
    "RunCommand",
    "shell",
    "exec",
    "Shell",
    "local_shell",
    "container.exec",
    "beforeShellExecution",
];

/// PowerShell tools: polc has no PowerShell segmenter, so these are unattestable.
const POWERSHELL_TOOLS: &[&str] = &["powershell", "PowerShell", "pwsh"];

/// Canonical name of a non-shell tool.
pub fn canonical_tool(name: &str) -> String {
    match name {
        "Read"
        | "Grep"
        | "Glob"
        | "LS"
        | "view"
        | "read_file"
        | "read"
        | "glob"
        | "grep"
        | "search_file_content"
        | "list_directory"
        | "read_many_files" => "read",
        "Edit" | "Write" | "MultiEdit" | "NotebookEdit" | "create" | "edit" | "write"
        | "write_file" | "replace" | "str_replace" | "apply_patch" | "Create" => "edit",
        "WebFetch" | "web_fetch" | "fetch" | "webfetch" => "webfetch",
        "WebSearch" | "google_web_search" | "web_search" | "websearch" => "websearch",
        other => other,
    }
    .to_string()
}

/// A request and whether it came from a PowerShell tool (unattestable).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapped {
    pub request: Request,
    pub powershell: bool,
}

/// The tool call as a request. A shell tool without a string `command` is an error.
pub fn to_request(inp: &HookInput, host: &str) -> Result<Mapped, BadInput> {
    // Cursor's beforeShellExecution and Copilot's CLI without a tool name are shell calls.
    let name = match inp.tool_name.as_deref() {
        Some(n) => n,
        None if inp.tool_input.get("command").is_some()
            && matches!(host, "cursor" | "copilot" | "vibe") =>
        {
            "bash"
        }
        None => return Err(BadInput("hook input has no tool_name".into())),
    };
    let shell = SHELL_TOOLS.contains(&name);
    let powershell = POWERSHELL_TOOLS.contains(&name);
    if shell || powershell {
        let command = inp
            .tool_input
            .get("command")
            .or_else(|| inp.tool_input.get("cmd"))
            .and_then(|c| match c {
                Value::String(s) => Some(s.clone()),
                // Codex-style argv arrays: joined with spaces (as typed).
                Value::Array(a) if !a.is_empty() && a.iter().all(Value::is_string) => Some(
                    a.iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                _ => None,
            })
            .ok_or_else(|| BadInput(format!("{name} call without a string `command`")))?;
        return Ok(Mapped {
            request: Request::Bash { command },
            powershell,
        });
    }
    let tool = canonical_tool(name);
    let ti = &inp.tool_input;
    // Search tools (Grep, Glob, search_file_content, …) read a folder: `path`, else the cwd.
    let search = ti.get("pattern").is_some() && ti.get("file_path").is_none() && tool == "read";
    let subject = if search {
        ti.get("path")
            .or_else(|| ti.get("dir_path"))
            .and_then(Value::as_str)
            .unwrap_or(".")
            .to_string()
    } else {
        [
            "file_path",
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
        .unwrap_or("")
        .to_string()
    };
    let input_text = if ti.is_null() {
        String::new()
    } else {
        ti.to_string()
    };
    Ok(Mapped {
        request: Request::Tool {
            tool,
            subject,
            input_text,
            name: name.to_string(),
        },
        powershell: false,
    })
}
