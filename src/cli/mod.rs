//! The command line: the only place that reads arguments, the environment and files for
//! the user, and prints. Each command is a thin glue over the library.

#[cfg(feature = "compiler")]
pub(crate) mod annotate;
pub mod arena;
#[cfg(feature = "compiler")]
mod build;
mod decide;
#[cfg(feature = "compiler")]
mod explain;
#[cfg(feature = "compiler")]
mod fmt;
mod hook;
#[cfg(feature = "compiler")]
mod import;
mod init;
#[cfg(feature = "compiler")]
mod lint;
mod session;
#[cfg(feature = "compiler")]
pub(crate) mod session_examples;
mod trust;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "polc",
    version = crate::runtime::state::VERSION_TEXT,
    about = "A declarative policy compiler for AI coding agents' permission hooks"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Compile policy sources into a table (default: policies/ → compiled/policy.bin).
    #[cfg(feature = "compiler")]
    Build {
        /// .pol files, permcheck.json files, directories of them, or an agent's settings.json.
        sources: Vec<PathBuf>,
        /// The table to write.
        #[arg(short = 'o', long = "output", default_value = "compiled/policy.bin")]
        output: PathBuf,
        /// Write nothing; exit 1 unless OUTPUT is exactly what the sources compile to.
        #[arg(long)]
        check: bool,
        /// `github`: also print findings as GitHub Actions annotations; `sarif`: a SARIF
        /// 2.1.0 log of them (both on stdout).
        #[arg(long, value_enum, default_value = "text")]
        format: Report,
        /// Also compile this agent's native rules, imported now (`polc import`): the
        /// project's rules, or the user's when OUTPUT is the user table. A snapshot: `polc
        /// explain` and `polc lint` report when the native files have changed since.
        #[arg(long = "from")]
        from: Option<String>,
    },
    /// Run every inline example of the policy and report each failure with its location.
    #[cfg(feature = "compiler")]
    Test {
        sources: Vec<PathBuf>,
        /// text, json (every example with its result), github (annotations for failures) or
        /// sarif (a SARIF 2.1.0 log of failures; the text lines go to stderr).
        #[arg(long, value_enum, default_value = "text")]
        format: Report,
    },
    /// Show the decision, the winning rule and why the other matching rules lost.
    #[cfg(feature = "compiler")]
    Explain {
        /// A compiled table (default: compiled/policy.bin when no --policy is given).
        #[arg(long, conflicts_with = "policy")]
        table: Option<PathBuf>,
        /// Decide straight from these sources, compiled in memory.
        #[arg(long, num_args = 1..)]
        policy: Vec<PathBuf>,
        #[arg(long, default_value = "claude")]
        host: String,
        /// The tool called (default bash; for others the argument is the path, URL, …).
        #[arg(long, default_value = "bash")]
        tool: String,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Also show session ID's state (denial counts, armed sequences, history) and what
        /// it makes of this command (src/session/README.md).
        #[arg(long)]
        session: Option<String>,
        /// The command (everything after `--`, or the trailing words).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
        command: Vec<String>,
    },
    /// Report rules that can never win, duplicates, no-wildcard traps, allows that grant
    /// interpreters or any program, … (codes L001…, src/lint/README.md). Exit 1 if any
    /// finding is an error (or the policy does not load), else 0: warnings exit 0.
    #[cfg(feature = "compiler")]
    Lint {
        /// Sources as for build (default: policies/).
        sources: Vec<PathBuf>,
        /// Only rules that apply to this host; `claude` also checks overlaps with the
        /// Claude ask rules of a settings.json given as a source.
        #[arg(long)]
        host: Option<String>,
        /// text, json, github (GitHub Actions annotations) or sarif (SARIF 2.1.0).
        #[arg(long, value_enum, default_value = "text")]
        format: Report,
    },
    /// Lay out .pol files canonically (comments kept). Rewrites them in place, atomically.
    #[cfg(feature = "compiler")]
    Fmt {
        /// .pol files or directories of them (default: policies/).
        files: Vec<PathBuf>,
        /// Write nothing; exit 1 and name the files that would change.
        #[arg(long)]
        check: bool,
    },
    /// Decide a command and answer with an exit code: 0 allow, 2 deny or unusable table,
    /// 3 ask (and default under Claude authority), 1 no table at all.
    Decide {
        #[arg(long)]
        table: Option<PathBuf>,
        /// The calling host (default: claude; never taken from the environment).
        #[arg(long)]
        host: Option<String>,
        /// Decide with this session's state (the plugin's session id): sequence rules and
        /// denial limits apply. Recorded only with `--host` (a plugin's hook); read-only
        /// otherwise (src/session/README.md).
        #[arg(long)]
        session: Option<String>,
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
        command: Vec<String>,
    },
    /// The permission hook: read the agent's JSON on stdin, answer in its protocol.
    Hook {
        /// The calling agent (required; no environment fallback): claude, vscode, copilot,
        /// gemini, cursor, codex, droid, vibe.
        #[arg(long)]
        host: String,
        /// The event (default: from the input's hook_event_name).
        #[arg(long, value_enum)]
        event: Option<hook::EventArg>,
        /// Name the project layer's table explicitly (trusted only after `polc trust`).
        #[arg(long)]
        table: Option<PathBuf>,
        /// Print the snippet wiring polc into this host's hook settings, and exit.
        #[arg(long)]
        print_config: bool,
    },
    /// Install polc's hook into an agent's settings (merged, idempotent, with a backup), or
    /// remove it with --uninstall. Confirmed on the terminal.
    Init {
        /// claude, gemini, codex, cursor or copilot.
        #[arg(long)]
        host: String,
        /// project: the project's settings (a command found on PATH); user: the home folder's.
        #[arg(long, value_enum, default_value = "project")]
        scope: init::Scope,
        /// Remove polc's hook, giving back the rest of the file as it was.
        #[arg(long)]
        uninstall: bool,
    },
    /// Write an agent's own permission rules (every scope it reads) as .pol source:
    /// project rules to policies/imported-HOST.pol, user and managed rules to the user
    /// layer's folder (src/import/README.md). Copilot: `polc import --from copilot -- FLAGS`.
    #[cfg(feature = "compiler")]
    Import {
        /// claude, gemini, codex, cursor, droid, opencode, vibe or copilot.
        #[arg(long = "from")]
        from: String,
        /// The project layer's file (default: policies/imported-HOST.pol).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// The user layer's file (default: ~/.config/polc/policies/imported-HOST.pol).
        #[arg(long)]
        user_output: Option<PathBuf>,
        /// Print instead of writing.
        #[arg(long)]
        stdout: bool,
        /// Native files to read instead of the agent's own places (Copilot: its flags).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// A session's state (src/session/README.md): `show ID`, or `reset [ID]` (confirmed on
    /// the terminal) to reset its denial counters and disarm its sequence rules.
    Session {
        #[command(subcommand)]
        action: SessionAction,
    },
    /// Show the audit log (`session audit` in the policy; src/session/README.md), filtered.
    Log {
        #[arg(long)]
        session: Option<String>,
        /// deny, ask, allow or default.
        #[arg(long)]
        decision: Option<String>,
        /// The winning rule's id.
        #[arg(long)]
        rule: Option<String>,
        /// Also the rotated files, oldest first.
        #[arg(long)]
        all: bool,
        /// The JSON lines as written.
        #[arg(long)]
        json: bool,
    },
    /// Confirm on the terminal that a project's table may grant permissions.
    Trust {
        /// The project root (default: the current directory).
        project: Option<PathBuf>,
        /// The table (default: the project's .polc/policy.bin or compiled/policy.bin).
        #[arg(long)]
        table: Option<PathBuf>,
        /// Forget instead (confirmed on the terminal): drop the trust and the state-folder
        /// record of PROJECT's TABLE, or of every table of PROJECT without TABLE. Needed
        /// after a recorded table is moved or removed (`compiled/` → `.polc/`).
        #[arg(long)]
        forget: bool,
        /// With --forget: the table path (absolute, or relative to PROJECT).
        #[arg(requires = "forget")]
        forget_table: Option<PathBuf>,
    },
    /// Confirm on the terminal that a project's agent configuration (hook settings,
    /// commands, MCP servers) is as you want it: clears the hook's "agent configuration
    /// changed" deny.
    Confirm {
        /// The project root (default: the current directory).
        project: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
pub enum SessionAction {
    /// Show the session's denial counts, armed sequences and recent calls.
    Show {
        id: String,
        #[arg(long, default_value = "claude")]
        host: String,
    },
    /// Reset the denial counters and disarm the sequences of session ID (every session
    /// without ID); confirmed on the terminal. The hook denies it from an agent.
    Reset {
        id: Option<String>,
        #[arg(long, default_value = "claude")]
        host: String,
    },
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// Findings' format for build, test and lint.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    Text,
    Json,
    Github,
    /// SARIF 2.1.0 on stdout (code scanning).
    Sarif,
}

/// Parse arguments and run; returns the process exit code.
pub fn run() -> i32 {
    // The hook runs before every tool call: its few flags are read by hand, skipping clap's
    // command-tree construction (~10% of a call). Anything unexpected falls through to clap,
    // which reports it as usual.
    if let Some(code) = hook_fast_path() {
        return code;
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    if !matches!(cli.command, Command::Hook { .. }) {
        // `polc explain … | head`: end quietly on a closed pipe, as Unix tools do. (The hook
        // keeps its own handling: it must always answer or fail closed.)
        // SAFETY: setting a signal disposition to its default before any thread starts.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    // An internal error is a deny (exit 2), never a crash a caller could read as success.
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| dispatch(cli))) {
        Ok(code) => code,
        Err(_) => {
            eprintln!("polc: internal error; treating it as deny");
            2
        }
    }
}

fn dispatch(cli: Cli) -> i32 {
    match cli.command {
        #[cfg(feature = "compiler")]
        Command::Build {
            sources,
            output,
            check,
            format,
            from,
        } => {
            if format == Report::Json {
                eprintln!("polc: `build --format` takes text, github or sarif");
                return 2;
            }
            build::build(&sources, &output, check, format, from.as_deref())
        }
        #[cfg(feature = "compiler")]
        Command::Test { sources, format } => build::test(&sources, format),
        #[cfg(feature = "compiler")]
        Command::Explain {
            table,
            policy,
            host,
            tool,
            format,
            session,
            command,
        } => explain_with_session(table, &policy, &host, &tool, format, session, &command),
        Command::Log {
            session: sid,
            decision,
            rule,
            all,
            json,
        } => session::log(
            sid.as_deref(),
            decision.as_deref(),
            rule.as_deref(),
            all,
            json,
        ),
        Command::Session { action } => match action {
            SessionAction::Show { id, host } => session::show(&host, &id),
            SessionAction::Reset { id, host } => session::reset(&host, id.as_deref()),
        },
        #[cfg(feature = "compiler")]
        Command::Lint {
            sources,
            host,
            format,
        } => lint::lint(&sources, host, format),
        #[cfg(feature = "compiler")]
        Command::Fmt { files, check } => fmt::fmt(&files, check),
        Command::Decide {
            table,
            host,
            session,
            command,
        } => {
            // One decision, then the exit: its allocations come from the arena.
            arena::enable();
            decide::decide(table, host, session.as_deref(), &command)
        }
        Command::Hook {
            host,
            event,
            table,
            print_config,
        } => {
            arena::enable();
            hook::hook(host, event, table, print_config)
        }
        Command::Init {
            host,
            scope,
            uninstall,
        } => init::init_cmd(&host, scope, uninstall),
        #[cfg(feature = "compiler")]
        Command::Import {
            from,
            output,
            user_output,
            stdout,
            args,
        } => import::import_cmd(&from, &args, output, user_output, stdout),
        Command::Trust {
            project,
            table,
            forget,
            forget_table,
        } => {
            if forget {
                trust::forget_cmd(project, forget_table.or(table))
            } else {
                trust::trust_cmd(project, table)
            }
        }
        Command::Confirm { project } => trust::confirm_cmd(project),
    }
}

/// `polc explain`, then with `--session ID` that session's history.
#[cfg(feature = "compiler")]
fn explain_with_session(
    table: Option<PathBuf>,
    policy: &[PathBuf],
    host: &str,
    tool: &str,
    format: Format,
    session: Option<String>,
    command: &[String],
) -> i32 {
    let t = table.clone();
    let code = explain::explain(table, policy, host, tool, format, command);
    match session {
        Some(sid) if code == 0 || code == 1 => {
            let c = session::explain_block(t.as_deref(), host, &sid, &command.join(" "));
            if c != 0 {
                c
            } else {
                code
            }
        }
        _ => code,
    }
}

/// Sources default to `policies/`.
#[cfg(feature = "compiler")]
fn default_sources(sources: &[PathBuf]) -> Vec<PathBuf> {
    if sources.is_empty() {
        vec![PathBuf::from("policies")]
    } else {
        sources.to_vec()
    }
}

/// The command as one string: a single argument is taken as written (it may hold shell
/// syntax); several are joined with spaces.
fn command_text(words: &[String]) -> String {
    words.join(" ")
}

/// `polc hook --host H [--event E] [--table F]`, parsed without clap; None for anything else.
fn hook_fast_path() -> Option<i32> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != "hook" {
        return None;
    }
    let (mut host, mut event, mut table) = (None, None, None);
    while let Some(a) = args.next() {
        let a = a.into_string().ok()?;
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (a, None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next().and_then(|v| v.into_string().ok()))
        };
        match flag.as_str() {
            "--host" => host = Some(value()?),
            "--event" => {
                event = Some(match value()?.as_str() {
                    "pre-tool-use" => hook::EventArg::PreToolUse,
                    "permission-request" => hook::EventArg::PermissionRequest,
                    _ => return None,
                })
            }
            "--table" => table = Some(PathBuf::from(value()?)),
            _ => return None,
        }
    }
    Some(hook::hook(host?, event, table, false))
}
