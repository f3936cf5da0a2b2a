//! Code run in a notebook kernel by a tool call: Claude Code's IDE integration exposes
//! `mcp__ide__executeCode {"code": …}` ("execute python code in the Jupyter kernel"), and
//! Jupyter MCP servers have the like. The code is read as polc reads inline code
//! (`python3 -c CODE`), and IPython's shell escapes as shell commands: each is an extra
//! reading of the call (`Mapped::also`), so a deny found in any denies, the call is never
//! better than the inline-code reading gives, and every reading is a session step (red
//! team, session 8: `{"code": "!git push --force"}` met no deny at all).
//!
//! IPython lines that reach a shell or another program (each becomes a line of one shell
//! script, in order, so `%cd` and `%env` move the lines after them):
//! - `!cmd`, `!!cmd`, `x = !cmd`, `%system cmd`, `%sx cmd` (and `%%!` / `%%system` cells);
//! - `%%bash`, `%%sh`, `%%zsh`, `%%script PROG ARGS` cells: the cell's body run by the
//!   shell (a shell body as shell lines; another program fed the body on stdin);
//! - `%%perl`, `%%ruby`, `%%python3`, … cells: that interpreter fed the body;
//! - `%%writefile [-a] F`: a write of F; `%run F`: `python3 F`; `%load F`: a read of F;
//! - `%cd D`: `cd D`; `%env X=Y` / `%env X Y` / `%set_env X Y`: `export X=Y`.
//!
//! A line magic polc does not know reads as its own program (`%foo x` → `foo x`): an unknown
//! program, never allowed.

use super::input::shell_quote;
use crate::runtime::Request;
use serde_json::Value;

/// Is `name` (an MCP tool, as polc names it) one whose `code` runs in a Python kernel?
fn runs_kernel_code(name: &str) -> bool {
    let Some(tool) = name
        .strip_prefix("mcp__")
        .and_then(|r| r.split("__").nth(1))
    else {
        return false;
    };
    let key: String = tool
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    matches!(
        key.as_str(),
        "executecode"
            | "runcode"
            | "executepython"
            | "runpython"
            | "executeipython"
            | "executecell"
            | "runcell"
            | "insertexecutecodecell"
            | "appendexecutecodecell"
            | "executenotebookcode"
    )
}

/// The code field of a kernel tool's input.
fn code_of(ti: &Value) -> Option<&str> {
    ["code", "source", "cell_source", "python", "script"]
        .iter()
        .find_map(|k| ti.get(k).and_then(Value::as_str))
}

/// The extra readings of a tool call that runs kernel code: the inline-code reading, and
/// the shell script its IPython lines make (when it has any). Empty for any other tool.
pub fn readings(name: &str, ti: &Value) -> Vec<Request> {
    if !runs_kernel_code(name) {
        return Vec::new();
    }
    let Some(code) = code_of(ti) else {
        // A kernel tool whose code polc cannot find: read its whole input as the code.
        return vec![inline(&ti.to_string())];
    };
    let mut out = vec![inline(code)];
    let script = shell_lines(code);
    if !script.is_empty() {
        out.push(Request::Bash { command: script });
    }
    out
}

fn inline(code: &str) -> Request {
    Request::Bash {
        command: format!("python3 -c {}", shell_quote(code)),
    }
}

/// The heredoc terminator a cell's body is fed under (a body holding it is cut there, as a
/// shell would; what follows is then read as shell lines: stricter, never looser).
const EOF_MARK: &str = "POLC_CELL_EOF";

/// A body fed on stdin to `prog`.
fn fed(prog: &str, body: &str) -> String {
    format!("{prog} <<'{EOF_MARK}'\n{body}\n{EOF_MARK}")
}

/// The shell script of the code's IPython lines (empty when it has none).
pub fn shell_lines(code: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let lines: Vec<&str> = code.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        i += 1;
        if let Some(cell) = t.strip_prefix("%%") {
            let body = lines[i..].join("\n");
            i = lines.len();
            out.push(cell_magic(cell.trim(), &body));
            continue;
        }
        if let Some(cmd) = bang(t) {
            out.push(cmd.to_string());
        } else if let Some(m) = t.strip_prefix('%') {
            out.push(line_magic(m.trim()));
        }
    }
    out.retain(|l| !l.trim().is_empty());
    out.join("\n")
}

/// `!cmd`, `!!cmd`, `NAME = !cmd`: the command.
fn bang(t: &str) -> Option<&str> {
    if let Some(r) = t.strip_prefix('!') {
        return Some(r.strip_prefix('!').unwrap_or(r));
    }
    // `files = !ls`, `a, b = !cmd`
    let (lhs, rhs) = t.split_once('=')?;
    let rhs = rhs.trim_start();
    let names = lhs
        .trim()
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | ',' | ' ' | '.' | '[' | ']'));
    (names && !lhs.trim().is_empty() && !lhs.ends_with(['!', '<', '>', '=']))
        .then(|| rhs.strip_prefix('!'))
        .flatten()
        .map(|r| r.strip_prefix('!').unwrap_or(r))
}

fn split1(s: &str) -> (&str, &str) {
    match s.split_once(char::is_whitespace) {
        Some((a, b)) => (a, b.trim()),
        None => (s, ""),
    }
}

fn line_magic(m: &str) -> String {
    let (name, rest) = split1(m);
    match name {
        "system" | "sx" | "sc" => rest.to_string(),
        "cd" | "pushd" => format!("cd {rest}"),
        "env" | "set_env" => {
            let (k, v) = match rest.split_once('=') {
                Some((k, v)) => (k.trim(), v.trim()),
                None => split1(rest),
            };
            if k.is_empty() {
                String::new()
            } else {
                format!("export {}={}", k, shell_quote(v))
            }
        }
        "run" => format!("python3 {rest}"),
        "load" | "pycat" | "cat" | "less" | "more" => format!("cat {rest}"),
        "rm" | "mv" | "cp" | "mkdir" | "rmdir" | "ls" | "ll" | "man" | "pwd" => {
            format!("{name} {rest}")
        }
        // `%time EXPR`, `%timeit EXPR`, `%prun EXPR`, `%debug EXPR`: Python, already in the
        // inline-code reading; a shell escape after them (`%time !cmd`) is a command.
        "time" | "timeit" | "prun" | "debug" | "capture" => {
            bang(rest).map(str::to_string).unwrap_or_default()
        }
        _ => format!("{name} {rest}"),
    }
}

fn cell_magic(cell: &str, body: &str) -> String {
    let (name, rest) = split1(cell);
    const SHELLS: &[&str] = &["bash", "sh", "zsh", "dash", "ksh", "fish"];
    match name {
        "!" | "system" | "sx" => body.to_string(),
        n if SHELLS.contains(&n) => body.to_string(),
        "script" => {
            let (prog, _) = split1(rest);
            let base = prog.rsplit('/').next().unwrap_or(prog);
            if SHELLS.contains(&base) {
                body.to_string()
            } else {
                fed(rest, body)
            }
        }
        "writefile" | "file" => {
            let (append, file) = match rest.strip_prefix("-a") {
                Some(f) => (true, f.trim()),
                None => (false, rest),
            };
            let op = if append { ">>" } else { ">" };
            fed(&format!("cat {op} {file}"), body)
        }
        "python" | "python2" | "python3" | "pypy" => fed("python3 -", body),
        "capture" | "time" | "timeit" | "prun" | "debug" => shell_lines(body),
        "html" | "HTML" | "markdown" | "latex" | "svg" | "javascript" | "js" => String::new(),
        other => fed(&format!("{other} {rest}"), body),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipython_lines_become_shell_lines() {
        for (code, want) in [
            ("!rm -rf ~", "rm -rf ~"),
            ("!!git push --force", "git push --force"),
            ("files = !ls -a", "ls -a"),
            ("x=1\n  !cat .env\ny=2", "cat .env"),
            ("%system rm -rf ~", "rm -rf ~"),
            ("%%bash\nrm -rf ~\necho hi", "rm -rf ~\necho hi"),
            ("%%script bash\ngit push -f", "git push -f"),
            (
                "%cd .claude\n!rm settings.json",
                "cd .claude\nrm settings.json",
            ),
            ("%run tools/x.py", "python3 tools/x.py"),
            ("%load .env", "cat .env"),
        ] {
            assert_eq!(shell_lines(code), want, "{code}");
        }
        let w = shell_lines("%%writefile .claude/settings.json\n{}");
        assert!(w.starts_with("cat > .claude/settings.json <<"), "{w}");
        let w = shell_lines("%%perl\nsystem('rm -rf ~')");
        assert!(w.starts_with("perl  <<") || w.starts_with("perl <<"), "{w}");
        // Plain Python has no shell lines (its own reading is the inline code).
        for code in [
            "x = 1",
            "print(a != b)",
            "import os\nos.listdir('.')",
            "a = b != c",
        ] {
            assert_eq!(shell_lines(code), "", "{code}");
        }
    }

    #[test]
    fn only_kernel_tools_have_readings() {
        let ti = serde_json::json!({"code": "!rm -rf ~"});
        let r = readings("mcp__ide__executeCode", &ti);
        assert_eq!(r.len(), 2);
        assert!(matches!(&r[1], Request::Bash { command } if command == "rm -rf ~"));
        assert_eq!(readings("mcp__jupyter__execute_code", &ti).len(), 2);
        assert!(readings("mcp__ide__getDiagnostics", &ti).is_empty());
        assert!(readings("executeCode", &ti).is_empty());
        // Python alone: the inline-code reading only.
        let r = readings(
            "mcp__ide__executeCode",
            &serde_json::json!({"code": "print(1)"}),
        );
        assert_eq!(r.len(), 1);
    }
}
