//! `polc trust [PROJECT] [--table FILE]`: a person confirms, on the terminal, that a
//! project's table may grant permissions; the root and the table's SHA-256 are recorded in
//! the user's config dir (`runtime::trust`). An agent has no terminal: without `/dev/tty`
//! this refuses.

use crate::runtime::layers::PROJECT_TABLES;
use crate::runtime::table_rules::TableRules;
use crate::runtime::trust;
use crate::table::Table;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

pub fn trust_cmd(project: Option<PathBuf>, table: Option<PathBuf>) -> i32 {
    let root = trust::canon(&project.unwrap_or_else(|| PathBuf::from(".")));
    let table = match table {
        Some(t) => t,
        None => match PROJECT_TABLES
            .iter()
            .map(|r| root.join(r))
            .find(|p| std::fs::symlink_metadata(p).is_ok())
        {
            Some(p) => p,
            None => {
                eprintln!(
                    "polc: no table under {} (looked for {}): run `polc build` first, or pass --table",
                    root.display(),
                    PROJECT_TABLES.join(", ")
                );
                return 2;
            }
        },
    };
    match confirm_and_record(&root, &table, "Trust") {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(e) => {
            eprintln!("polc: {e}");
            2
        }
    }
}

/// `polc trust --forget ROOT [TABLE]`: after confirmation on the terminal, drop the trust
/// and the state-folder record of (ROOT, TABLE), or of every table of ROOT.
pub fn forget_cmd(project: Option<PathBuf>, table: Option<PathBuf>) -> i32 {
    let root = trust::canon(&project.unwrap_or_else(|| PathBuf::from(".")));
    // A table path is kept as recorded: the root's canonical form joined with the rest.
    let table = table.map(|t| if t.is_absolute() { t } else { root.join(t) });
    let what = match &table {
        Some(t) => format!("the table {} of {}", t.display(), root.display()),
        None => format!("every table of {}", root.display()),
    };
    let run = || -> Result<bool, TrustError> {
        let tty = open_tty("polc trust --forget")?;
        if !ask_yes(
            &tty,
            &format!("polc: forget {what} (its trust, and the record that makes its absence a deny)? [y/N] "),
        )? {
            return Ok(false);
        }
        let mut n = 0;
        if let Some(cfg) = trust::config_dir() {
            n += trust::forget(&cfg, &root, table.as_deref())
                .map_err(|e| TrustError::Update(cfg.clone(), e))?;
        }
        if let Some(state) = crate::runtime::state::state_dir() {
            n += crate::runtime::state::forget_tables(&state, &root, table.as_deref())
                .map_err(|e| TrustError::Update(state.clone(), e))?;
        }
        let mut w = &tty;
        let _ = writeln!(w, "polc: forgot {what} ({n} record(s))");
        Ok(true)
    };
    exit_code(run())
}

/// `polc confirm [PROJECT]`: show what changed in the project's agent configuration since
/// polc last saw it, and on yes (on the terminal) record it as it is now.
pub fn confirm_cmd(project: Option<PathBuf>) -> i32 {
    use crate::runtime::tripwire;
    let root = trust::canon(&project.unwrap_or_else(|| PathBuf::from(".")));
    let run = || -> Result<bool, TrustError> {
        let at = tripwire::Places::fixed().ok_or(TrustError::NoStateFolder)?;
        let (changes, recorded) = tripwire::pending(&at, &root);
        let tty = open_tty("polc confirm")?;
        let mut w = &tty;
        if recorded && changes.is_empty() {
            let _ = writeln!(
                w,
                "polc: the agent configuration of {} is as recorded; nothing to confirm",
                root.display()
            );
            return Ok(true);
        }
        let _ = writeln!(
            w,
            "polc: agent configuration of {} since polc last saw it:",
            root.display()
        );
        for c in &changes {
            let _ = writeln!(w, "  {} {}", c.what, c.path.display());
        }
        if !recorded {
            let _ = writeln!(w, "  (no record yet: the configuration as it is now)");
        }
        if !ask_yes(
            &tty,
            "Review these files (hooks, permissions, MCP servers, commands). Record them as they are now? [y/N] ",
        )? {
            let _ = writeln!(w, "polc: not confirmed; the hook keeps denying");
            return Ok(false);
        }
        tripwire::record(&at, &root).map_err(|e| TrustError::Record(at.state.clone(), e))?;
        let _ = writeln!(w, "polc: confirmed");
        Ok(true)
    };
    exit_code(run())
}

/// A confirmed command's exit: 0 done, 1 declined, 2 an error (said on stderr).
fn exit_code(r: Result<bool, TrustError>) -> i32 {
    match r {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(e) => {
            eprintln!("polc: {e}");
            2
        }
    }
}

fn open_tty(cmd: &'static str) -> Result<std::fs::File, TrustError> {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .map_err(|e| TrustError::NoTty(cmd, e))
}

fn ask_yes(tty: &std::fs::File, prompt: &str) -> Result<bool, TrustError> {
    let mut w = tty;
    let _ = write!(w, "{prompt}");
    let _ = w.flush();
    let mut line = String::new();
    BufReader::new(tty)
        .read_line(&mut line)
        .map_err(TrustError::Answer)?;
    Ok(matches!(line.trim(), "y" | "Y" | "yes" | "YES" | "Yes"))
}

/// Show the table on the terminal, ask, record on yes. Ok(false) when the person declines.
pub fn confirm_and_record(root: &Path, table: &Path, verb: &str) -> Result<bool, TrustError> {
    let bad = |e| TrustError::Table(table.to_path_buf(), e);
    let t = Table::open_unmapped(table, None).map_err(bad)?;
    t.check_fresh().map_err(bad)?;
    let rules = TableRules::new(|k| t.section(k))
        .map_err(|_| TrustError::NoRules(table.to_path_buf()))?
        .rule_count();
    // The digest of exactly the bytes shown and checked (a private copy).
    let digest = trust::table_digest(None, None, t.bytes());
    let cfg = trust::config_dir().ok_or(TrustError::NoConfigDir)?;
    let tty = open_tty("polc trust")?;
    let mut w = &tty;
    let _ = write!(
        w,
        "polc: {verb} this table for {}?\n  table: {}\n  rules: {rules}\n  sha256: {digest}\n  (its allow rules will grant permissions to agents in this project) [y/N] ",
        root.display(),
        trust::canon(table).display()
    );
    let _ = w.flush();
    let mut line = String::new();
    BufReader::new(&tty)
        .read_line(&mut line)
        .map_err(TrustError::Answer)?;
    if !matches!(line.trim(), "y" | "Y" | "yes" | "YES" | "Yes") {
        let _ = writeln!(w, "polc: not trusted");
        return Ok(false);
    }
    trust::record(&cfg, root, table, &digest)
        .map_err(|e| TrustError::RecordTrust(cfg.clone(), e))?;
    // The agent configuration as the person has it now is the tripwire's baseline
    // (runtime::tripwire); an existing record keeps its pending changes for `polc confirm`.
    if let Some(at) = crate::runtime::tripwire::Places::fixed() {
        if let Ok(true) = crate::runtime::tripwire::record_if_absent(&at, &trust::canon(root)) {
            let _ = writeln!(
                w,
                "polc: recorded this project's agent configuration (hooks, MCP servers, commands); a later change is denied until `polc confirm`"
            );
        }
    }
    let _ = writeln!(
        w,
        "polc: trusted ({})",
        cfg.join(trust::TRUST_FILE).display()
    );
    Ok(true)
}

/// Why `polc trust`, `polc trust --forget` or `polc confirm` stopped: the table, folder or
/// terminal concerned.
#[derive(Debug)]
pub enum TrustError {
    /// The command must be confirmed on `/dev/tty` (an agent has none).
    NoTty(&'static str, std::io::Error),
    Answer(std::io::Error),
    /// The table does not load or is stale.
    Table(PathBuf, crate::table::LoadError),
    NoRules(PathBuf),
    NoConfigDir,
    NoStateFolder,
    /// A trust or state record in this folder cannot be dropped.
    Update(PathBuf, std::io::Error),
    /// The agent configuration cannot be recorded in this folder.
    Record(PathBuf, std::io::Error),
    /// The trust cannot be recorded in this folder.
    RecordTrust(PathBuf, std::io::Error),
}

impl std::fmt::Display for TrustError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrustError::NoTty(cmd, e) => write!(
                f,
                "`{cmd}` must be confirmed on a terminal and /dev/tty cannot be opened ({e}); refusing"
            ),
            TrustError::Answer(e) => write!(f, "cannot read the answer from /dev/tty: {e}"),
            TrustError::Table(t, e) => f.write_str(&e.describe(t)),
            TrustError::NoRules(t) => {
                write!(f, "{} has no rule section: run `polc build`", t.display())
            }
            TrustError::NoConfigDir => {
                f.write_str("cannot find the user's config dir (no home directory)")
            }
            TrustError::NoStateFolder => {
                f.write_str("cannot find polc's state folder (no home directory)")
            }
            TrustError::Update(d, e) => write!(f, "cannot update {}: {e}", d.display()),
            TrustError::Record(d, e) => write!(f, "cannot record in {}: {e}", d.display()),
            TrustError::RecordTrust(d, e) => {
                write!(f, "cannot record trust in {}: {e}", d.display())
            }
        }
    }
}

impl std::error::Error for TrustError {}

#[cfg(feature = "compiler")]
/// Was the table at `path` (as it is now) trusted for the current directory? Used by
/// `polc build` to offer re-trusting what it writes.
pub fn previously_trusted(path: &Path) -> bool {
    let Ok(root) = std::env::current_dir() else {
        return false;
    };
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    let cfg = trust::config_dir();
    let digest = trust::table_digest(None, None, &bytes);
    trust::is_trusted(cfg.as_deref(), &root, path, &digest)
}

#[cfg(feature = "compiler")]
/// After `polc build`: when run interactively (stdin and stderr are terminals) for a
/// project whose previous table was trusted, offer to trust the new one.
pub fn offer_retrust(output: &Path, was_trusted: bool) {
    use std::io::IsTerminal;
    let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if !was_trusted || !interactive {
        return;
    }
    let Ok(root) = std::env::current_dir() else {
        return;
    };
    if let Err(e) = confirm_and_record(&root, output, "Re-trust") {
        eprintln!("polc: {e}");
    }
}
