//! The command line: the only place that reads arguments, the environment and files for
//! the user, and prints. Each command is a thin glue over the library.

#[cfg(feature = "compiler")]
mod build;
mod decide;
#[cfg(feature = "compiler")]
mod explain;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "polc",
    version,
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
    },
    /// Run every inline example of the policy and report each failure with its location.
    #[cfg(feature = "compiler")]
    Test { sources: Vec<PathBuf> },
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
        /// The command (everything after `--`, or the trailing words).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
        command: Vec<String>,
    },
    /// Decide a command and answer with an exit code: 0 allow, 2 deny or unusable table,
    /// 3 ask (and default under Claude authority), 1 no table at all.
    Decide {
        #[arg(long)]
        table: Option<PathBuf>,
        /// The calling host (default: $POLC_HOST, else claude).
        #[arg(long)]
        host: Option<String>,
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
        command: Vec<String>,
    },
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// Parse arguments and run; returns the process exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        #[cfg(feature = "compiler")]
        Command::Build {
            sources,
            output,
            check,
        } => build::build(&sources, &output, check),
        #[cfg(feature = "compiler")]
        Command::Test { sources } => build::test(&sources),
        #[cfg(feature = "compiler")]
        Command::Explain {
            table,
            policy,
            host,
            tool,
            format,
            command,
        } => explain::explain(table, &policy, &host, &tool, format, &command),
        Command::Decide {
            table,
            host,
            command,
        } => decide::decide(table, host, &command),
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
