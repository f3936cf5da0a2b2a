//! The lists of docs/contract.md#c-readings and docs/contract.md#c-unattestable, as data: transparent wrappers and their options, shells, runners,
//! builtins that evaluate code, and the env assignments an allow reading may strip.
//! Every entry has a test in `tests.rs`.

/// A list of names with a membership test that does not scan the list for most names
/// (issue 12 item 6): the catalogue asks a few dozen of these lists about every segment's
/// program and words, and scanning them one by one cost about 5,000 instructions a
/// segment. A 1,024-bit filter of the names' hashes, computed at compile time, answers
/// "not in the list" for about nine names in ten; the others are checked against the list
/// itself, so the answer is always the list's.
pub struct Names {
    list: &'static [&'static str],
    /// Two bits a name, from two hashes: a name outside the list passes only when both are
    /// set (with one bit, `ls` passed `MORE_SHELLS`' filter and every `ls` segment compared
    /// it with the 55 names: ≈ 400 instructions a segment, issue 12 item 6).
    bits: [u64; 16],
    bits2: [u64; 16],
}

/// FNV-1a of the name.
const fn name_fnv(s: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < s.len() {
        h ^= s[i] as u32;
        h = h.wrapping_mul(0x0100_0193);
        i += 1;
    }
    h
}

/// The filters' bit numbers (0..1024) from the FNV hash: two multiplies, so each bit (the
/// high bits) depends on every byte.
const fn name_bits(h: u32) -> (u32, u32) {
    (
        h.wrapping_mul(0x9E37_79B1) >> 22,
        h.wrapping_mul(0x85EB_CA6B) >> 22,
    )
}

impl Names {
    pub const fn new(list: &'static [&'static str]) -> Names {
        let mut bits = [0u64; 16];
        let mut bits2 = [0u64; 16];
        let mut i = 0;
        while i < list.len() {
            let (a, b) = name_bits(name_fnv(list[i].as_bytes()));
            bits[(a >> 6) as usize] |= 1 << (a & 63);
            bits2[(b >> 6) as usize] |= 1 << (b & 63);
            i += 1;
        }
        Names { list, bits, bits2 }
    }

    /// Whether `name` is in the list (the signature of `<[&str]>::contains`).
    #[inline]
    pub fn contains(&self, name: &&str) -> bool {
        let (a, b) = name_bits(name_fnv(name.as_bytes()));
        self.bits[(a >> 6) as usize] & (1 << (a & 63)) != 0
            && self.bits2[(b >> 6) as usize] & (1 << (b & 63)) != 0
            && self.list.contains(name)
    }
}

impl std::ops::Deref for Names {
    type Target = [&'static str];
    fn deref(&self) -> &[&'static str] {
        self.list
    }
}

/// How a transparent wrapper takes its options before the command it runs.
pub struct WrapperSpec {
    pub name: &'static str,
    /// Options without an argument (`-E`, `--login`).
    pub flags: &'static [&'static str],
    /// Options taking an argument, attached (`-uroot`, `--user=root`) or as the next word.
    pub with_arg: &'static [&'static str],
    /// Options after which no command follows (`command -v`, `taskset -p`): not a wrapper.
    pub stop: &'static [&'static str],
    /// Options that make the wrapper run its command through a shell (`sudo -s`).
    pub shell: &'static [&'static str],
    /// Positional words between the options and the command (`timeout DURATION`).
    pub positionals: usize,
    /// `NAME=VALUE` words may appear among the options (env).
    pub assignments: bool,
    /// `-N` numeric options (`nice -5`).
    pub numeric: bool,
}

const fn w(name: &'static str) -> WrapperSpec {
    WrapperSpec {
        name,
        flags: &[],
        with_arg: &[],
        stop: &[],
        shell: &[],
        positionals: 0,
        assignments: false,
        numeric: false,
    }
}

pub static WRAPPERS: &[WrapperSpec] = &[
    WrapperSpec {
        flags: &[
            "-A",
            "-b",
            "-E",
            "-e",
            "-H",
            "-i",
            "-K",
            "-k",
            "-l",
            "-n",
            "-P",
            "-S",
            "-s",
            "-v",
            "-B",
            "-N",
            "--askpass",
            "--background",
            "--preserve-env",
            "--edit",
            "--set-home",
            "--login",
            "--remove-timestamp",
            "--reset-timestamp",
            "--list",
            "--non-interactive",
            "--preserve-groups",
            "--stdin",
            "--shell",
            "--validate",
            "--bell",
        ],
        with_arg: &[
            "-C",
            "-D",
            "-g",
            "-h",
            "-p",
            "-R",
            "-r",
            "-T",
            "-t",
            "-U",
            "-u",
            "--close-from",
            "--chdir",
            "--group",
            "--host",
            "--prompt",
            "--chroot",
            "--role",
            "--type",
            "--command-timeout",
            "--other-user",
            "--user",
        ],
        stop: &["-V", "--version", "--help"],
        shell: &["-i", "-s", "--login", "--shell"],
        ..w("sudo")
    },
    WrapperSpec {
        flags: &["-n", "-s", "-L"],
        with_arg: &["-u", "-C"],
        shell: &["-s"],
        ..w("doas")
    },
    WrapperSpec {
        flags: &[
            "-i",
            "-0",
            "-v",
            "--ignore-environment",
            "--null",
            "--debug",
            "-",
        ],
        with_arg: &["-u", "-C", "-P", "--unset", "--chdir"],
        stop: &["--help", "--version"],
        assignments: true,
        ..w("env")
    },
    WrapperSpec {
        flags: &["-p"],
        stop: &["-v", "-V"],
        ..w("command")
    },
    w("builtin"),
    WrapperSpec {
        flags: &["-c", "-l"],
        with_arg: &["-a"],
        ..w("exec")
    },
    WrapperSpec {
        with_arg: &["-n", "--adjustment"],
        numeric: true,
        ..w("nice")
    },
    w("nohup"),
    WrapperSpec {
        flags: &[
            "-p",
            "-a",
            "-v",
            "-q",
            "--portability",
            "--append",
            "--verbose",
            "--quiet",
        ],
        with_arg: &["-f", "-o", "--format", "--output"],
        ..w("time")
    },
    WrapperSpec {
        flags: &["-v", "--verbose", "--preserve-status", "--foreground"],
        with_arg: &["-s", "-k", "--signal", "--kill-after"],
        positionals: 1,
        ..w("timeout")
    },
    WrapperSpec {
        with_arg: &["-i", "-o", "-e", "--input", "--output", "--error"],
        ..w("stdbuf")
    },
    WrapperSpec {
        flags: &["-t", "--ignore"],
        with_arg: &["-c", "-n", "--class", "--classdata"],
        stop: &["-p", "-P", "-u", "--pid", "--pgid", "--uid"],
        ..w("ionice")
    },
    WrapperSpec {
        flags: &[
            "-a",
            "-b",
            "-d",
            "-f",
            "-i",
            "-o",
            "-r",
            "-R",
            "-v",
            "-e",
            "--all-tasks",
            "--batch",
            "--deadline",
            "--fifo",
            "--idle",
            "--other",
            "--rr",
            "--reset-on-fork",
            "--verbose",
        ],
        with_arg: &[
            "-T",
            "-P",
            "-D",
            "--sched-runtime",
            "--sched-period",
            "--sched-deadline",
        ],
        stop: &["-p", "-m", "--pid", "--max"],
        positionals: 1,
        ..w("chrt")
    },
    WrapperSpec {
        flags: &["-a", "--all-tasks", "-c", "--cpu-list"],
        stop: &["-p", "--pid"],
        positionals: 1,
        ..w("taskset")
    },
    WrapperSpec {
        flags: &["-c", "-f", "-w", "--ctty", "--fork", "--wait"],
        ..w("setsid")
    },
    WrapperSpec {
        flags: &["-p"],
        ..w("unbuffer")
    },
    w("busybox"),
    WrapperSpec {
        flags: &[
            "-0",
            "-r",
            "-t",
            "-p",
            "-x",
            "-o",
            "--null",
            "--no-run-if-empty",
            "--verbose",
            "--interactive",
            "--exit",
            "--open-tty",
            "--show-limits",
        ],
        with_arg: &[
            "-a",
            "-d",
            "-E",
            "-I",
            "-L",
            "-n",
            "-P",
            "-s",
            "--arg-file",
            "--delimiter",
            "--eof",
            "--replace",
            "--max-lines",
            "--max-args",
            "--max-procs",
            "--max-chars",
            "--process-slot-var",
        ],
        // `--show-limits` prints the limits and still runs the command.
        stop: &["--help", "--version"],
        ..w("xargs")
    },
];

/// The wrapper named `name`, or by its stem before a build suffix (`busybox.static`).
pub fn wrapper(name: &str) -> Option<&'static WrapperSpec> {
    let stem = name.split('.').next().unwrap_or(name);
    WRAPPERS
        .iter()
        .find(|w| w.name == name)
        .or_else(|| WRAPPERS.iter().find(|w| w.name == stem))
}

/// Wrappers Claude Code itself strips before matching allow rules.
pub static ALLOW_STRIPPED_WRAPPERS: Names =
    Names::new(&["timeout", "time", "nice", "nohup", "stdbuf"]);

/// Reserved words removed from the front of a deny/ask reading.
pub static LEADING_RESERVED: Names = Names::new(&[
    "!", "{", "}", "(", "if", "then", "elif", "else", "do", "while", "until", "time",
]);

pub static SHELLS: Names = Names::new(&[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "mksh",
    "ash",
    "fish",
    "csh",
    "tcsh",
    "yash",
    "pwsh",
    "powershell",
]);

/// Shells and shell-like command interpreters beyond [`SHELLS`] (restricted, versioned,
/// static and minor shells, and new-style shells whose `-c` takes a script).
pub static MORE_SHELLS: Names = Names::new(&[
    "rbash",
    "ksh93",
    "ksh88",
    "ksh2020",
    "oksh",
    "loksh",
    "pdksh",
    "lksh",
    "posh",
    "hush",
    "msh",
    "bosh",
    "jsh",
    "osh",
    "ysh",
    "oil",
    "nu",
    "nushell",
    "elvish",
    "xonsh",
    "rc",
    "es",
    "murex",
    "ion",
    "scsh",
    "sash",
    "mrsh",
    "gash",
    "smoosh",
    "oshell",
    "brush",
    "sh5",
    "jsh",
    "pfsh",
    "pfbash",
    "pfksh",
    "pfzsh",
    "pfcsh",
    "pftcsh",
    "rksh",
    "rzsh",
    "rpwsh",
    "bash-static",
    "zsh-static",
    "dash-static",
    "busybox-sh",
    "toysh",
    "fish-shell",
    "nsh",
    "closh",
    "ngs",
    "bsh",
    "oh",
    "oilshell",
    // Windows' command interpreter, runnable from Git Bash: `cmd /c CMD`, `cmd //c CMD`.
    "cmd",
]);

/// Names ending in `sh` that are not shells (the runners among them are read as runners).
static NOT_SHELLS: Names = Names::new(&[
    "ssh",
    "mosh",
    "autossh",
    "hash",
    "chsh",
    "lchsh",
    "sshfs",
    "sshpass",
    "push",
    "flash",
    "refresh",
    "publish",
    "finish",
    "fresh",
    "slash",
    "mesh",
    "splash",
    "crash",
    "trash",
    "smash",
    "stash",
    "wash",
    "dish",
    "fish_indent",
    "fish_key_reader",
    "rsh",
    "remsh",
    "tclsh",
    "jimsh",
    "wish",
]);

/// Is `name` (a lowercased basename) a shell? The lists above, plus a shape: after a
/// version or build suffix is cut (`bash5`, `zsh-5.9`, `ksh93`, `sh.distrib`, `bash.static`),
/// a short name ending in `sh` (`oksh`, `yash`, `posh`) is read as a shell. A shell polc
/// does not know by name is still a shell: its `-c` script is looked into and a script on
/// stdin is unattestable.
pub fn is_shell(name: &str) -> bool {
    if SHELLS.contains(&name) || MORE_SHELLS.contains(&name) {
        return true;
    }
    if NOT_SHELLS.contains(&name) {
        return false;
    }
    // `sh.distrib`, `bash.static`: the part before the first dot.
    let stem = name.split('.').next().unwrap_or(name);
    // `bash5`, `zsh-5.9`, `ksh_93`: version digits and separators cut.
    let stem = stem.trim_end_matches(|c: char| c.is_ascii_digit() || matches!(c, '-' | '_' | '.'));
    let stem = stem.strip_suffix("-static").unwrap_or(stem);
    if stem != name && (SHELLS.contains(&stem) || MORE_SHELLS.contains(&stem)) {
        return true;
    }
    // `heirloom-sh`, `schily-sh`, `busybox-ash`: a distribution's prefix before a shell's
    // name; `oilshell`, `nushell`: a name ending in `shell`.
    if let Some((_, last)) = stem.rsplit_once('-') {
        if SHELLS.contains(&last) || MORE_SHELLS.contains(&last) {
            return true;
        }
    }
    if stem.ends_with("shell") {
        return true;
    }
    stem.ends_with("sh") && stem.len() <= 6 && !NOT_SHELLS.contains(&stem)
}

/// Env assignments an allow reading may strip (they cannot change which program runs or
/// what it loads). Anything else keeps the assignment in the reading, so no allow matches.
pub static SAFE_ENV: Names = Names::new(&[
    "NODE_ENV",
    "RUST_LOG",
    "RUST_BACKTRACE",
    "CI",
    "TERM",
    "LANG",
    "LANGUAGE",
    "TZ",
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR",
    "COLUMNS",
    "LINES",
    "PAGER_DISABLE",
    "DEBUG",
]);

pub fn is_safe_env(name: &str) -> bool {
    SAFE_ENV.contains(&name) || name.starts_with("LC_")
}

/// Environment variables whose value is a program, a command line or code that the program
/// being run (git, less, ssh, rsync, a shell, a dynamic loader, an interpreter) executes:
/// `GIT_PAGER='rm -rf ~' git log` runs `rm`. An assignment of one makes the segment
/// unattestable, and its value is read as a command for deny rules. Named exactly, or by the
/// shape of the name (`…_COMMAND`, `…_PAGER`, `GIT_CONFIG_…`: `GIT_CONFIG_KEY_0=core.pager`
/// with `GIT_CONFIG_VALUE_0=…` is `git -c core.pager=…`).
pub static RUNS_ENV: Names = Names::new(&[
    "PAGER",
    "MANPAGER",
    "SYSTEMD_PAGER",
    "EDITOR",
    "VISUAL",
    "FCEDIT",
    "BROWSER",
    "GIT_SSH",
    "LESSOPEN",
    "LESSCLOSE",
    "LESS",
    "BASH_ENV",
    "ENV",
    "PS0",
    "PS1",
    "PS2",
    "PS4",
    "PROMPT_COMMAND",
    "SHELLOPTS",
    "BASHOPTS",
    "SHELL",
    "MAKESHELL",
    "RSH",
    "CVS_RSH",
    "LD_PRELOAD",
    "LD_AUDIT",
    "LD_LIBRARY_PATH",
    "DYLD_INSERT_LIBRARIES",
    "PYTHONSTARTUP",
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONINSPECT",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "RUBYOPT",
    "RUBYLIB",
    "NODE_OPTIONS",
    "NODE_PATH",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "GIT_EXEC_PATH",
    "GIT_TEMPLATE_DIR",
    "GIT_DIR",
    "GIT_WORK_TREE",
    "RUSTC",
    "RUSTDOC",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "CC",
    "CXX",
    "LD",
    "AR",
    "GOFLAGS",
    "CGO_LDFLAGS",
    "CARGO_HOME",
    "RUSTFLAGS",
    "MAKEFLAGS",
    "GNUMAKEFLAGS",
    "TAR_OPTIONS",
    "ZIPOPT",
    "UNZIP",
    "WGETRC",
    "CURL_HOME",
    "GNUPGHOME",
    "SSH_AUTH_SOCK",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    // A debugger or breakpoint hook the interpreter loads: code.
    "PERL5DB",
    "PERLDB_OPTS",
    "PYTHONBREAKPOINT",
    // The make that a recursive make runs.
    "MAKE",
    // Files of settings that name programs (`GOENV` can set `GOFLAGS=-toolexec=…`), and the
    // folders programs read their configuration from (git's `core.pager` in
    // `$XDG_CONFIG_HOME/git/config` or `$HOME/.gitconfig`; zsh's `$ZDOTDIR/.zshenv`).
    "GOENV",
    "GOTOOLCHAIN",
    "XDG_CONFIG_HOME",
    "XDG_CONFIG_DIRS",
    "HOME",
    "ZDOTDIR",
    // Which program a name runs; zsh's folders of autoloaded functions and of modules (its
    // lower-case arrays `fpath`/`module_path` are tied to these: the names are compared
    // upper-cased).
    "PATH",
    "FPATH",
    "MODULE_PATH",
    // Lets git's `ext::` transport run its command (red team, session 5).
    "GIT_ALLOW_PROTOCOL",
]);

/// Variables a program reads its options, its configuration file or its plugins from
/// (red team, session 6: `XZ_OPT=--files=.env xz`, `PYTEST_PLUGINS=m pytest`,
/// `KUBECONFIG=F` whose exec plugin runs a command): like the command-holding ones.
const OPTIONS_ENV: &[&str] = &[
    "XZ_OPT",
    "XZ_DEFAULTS",
    "GZIP",
    "BZIP",
    "BZIP2",
    "ZIPOPT",
    "UNZIP",
    "UNZIPOPT",
    "ZIPINFO",
    "LZOP",
    "PIGZ",
    "PARALLEL",
    "MFLAGS",
    "MANOPT",
    "PYTHONWARNINGS",
    "BUNDLE_GEMFILE",
    "SQLITE_HISTORY",
    "LESSKEY",
    "LESSKEYIN",
    "LESSKEYIN_SYSTEM",
    "KUBECONFIG",
    "DOCKER_CONFIG",
    "ANSIBLE_CONFIG",
    "HGRCPATH",
    "CLASSPATH",
];

/// Is an assignment to `name` one of [`RUNS_ENV`] (or of its shapes)?
pub fn runs_env(name: &str) -> bool {
    let up = name.to_ascii_uppercase();
    RUNS_ENV.contains(&up.as_str())
        || OPTIONS_ENV.contains(&up.as_str())
        // Options (`CFLAGS`, `CGO_LDFLAGS`, `TF_CLI_ARGS_apply`), configuration files and
        // folders (`RIPGREP_CONFIG_PATH`, `PSQLRC`, `CONDARC`, `PIP_CONFIG_FILE`,
        // `MYSQL_HOME`, `JAVA_HOME`), search paths of code and plugins (`PYTHONPATH`,
        // `GEM_PATH`, `HELM_PLUGINS`, `CORECLR_PROFILER_PATH`).
        || [
            "FLAGS",
            "_ARGS",
            "_OPT",
            "CONFIG",
            "_CONFIG_FILE",
            "_CONFIG_PATH",
            "RC",
            "RCPATH",
            "_HOME",
            "PATH",
            "_PLUGINS",
            "_PLUGIN",
            "LIB",
        ]
        .iter()
        .any(|s| up.ends_with(s))
        || up.starts_with("TF_CLI_ARGS")
        || up.starts_with("GIT_CONFIG")
        || up.starts_with("NPM_CONFIG_")
        || up.starts_with("YARN_")
        || up.starts_with("CARGO_TARGET_") && up.ends_with("_RUNNER")
        || up.starts_with("CARGO_BUILD_")
        || up.starts_with("LD_")
        || up.starts_with("DYLD_")
        || up.ends_with("RUSTFLAGS")
        || [
            "_COMMAND",
            "_CMD",
            "_PAGER",
            "_EDITOR",
            "_ASKPASS",
            "_RSH",
            "_SSH",
            "_SHELL",
            "_WRAPPER",
            "_RUNNER",
            "_PRELOAD",
            "_OPTIONS",
            "_OPTS",
            "_EXTERNAL_DIFF",
            "_PROGRAM",
            "_EXEC",
            "_HOOK",
            "_HOOKS",
            "_LINKER",
            "_BROWSER",
            "_DEBUGGER",
            "ADDOPTS",
        ]
        .iter()
        .any(|s| up.ends_with(s))
}

/// Environment variables whose value is a file or folder a program writes: `GIT_TRACE=/p/
/// .claude/settings.json git status` appends trace lines to it (every `GIT_TRACE*`),
/// `COVERAGE_FILE=…`, `CARGO_TARGET_DIR=…` stand for output options. An assignment of one
/// makes the segment unattestable: the path is not placed here.
pub fn writes_env(name: &str) -> bool {
    let up = name.to_ascii_uppercase();
    up.starts_with("GIT_TRACE")
        || matches!(
            up.as_str(),
            "GIT_REDACT_COOKIES"
                // `~+` and `~-` expand to these: `PWD=/p/.claude; rm ~+/settings.json`
                // (red team, session 5).
                | "PWD"
                | "OLDPWD"
                | "HISTFILE"
                | "LESSHISTFILE"
                | "SSLKEYLOGFILE"
                | "NODE_REPL_HISTORY"
                // Output folders and files set by the environment instead of an option.
                | "COVERAGE_FILE"
                | "CARGO_TARGET_DIR"
                | "CARGO_BUILD_TARGET_DIR"
                | "PIP_TARGET"
                | "PIP_PREFIX"
                | "GOCACHE"
                | "GOMODCACHE"
                | "GOBIN"
                | "NODE_V8_COVERAGE"
                | "GCOV_PREFIX"
                | "XDG_CACHE_HOME"
                | "XDG_DATA_HOME"
                | "XDG_STATE_HOME"
                | "PYTHONPYCACHEPREFIX"
                | "TMPDIR"
                | "TMP"
                | "TEMP"
        )
}

/// Coding-agent command-line programs: a nested session given a prompt runs whatever its
/// own rules allow, and their configuration subcommands change what an agent may do
/// (`claude mcp add`, `gemini extensions install`, `openclaw plugins disable`).
pub const AGENT_CLIS: &[&str] = &[
    "claude",
    "codex",
    "gemini",
    "copilot",
    "cursor-agent",
    "droid",
    "opencode",
    "aider",
    "goose",
    "amp",
    "qwen",
    "crush",
    "vibe",
    "q",
    "kiro-cli",
    "pi",
    "openclaw",
    "interpreter",
    "kimi",
    "cline",
    "cn",
    "auggie",
    "plandex",
    "sgpt",
    "aichat",
    "gptme",
    "mentat",
    "openhands",
    "codebuff",
    "ccr",
    "happy",
    "hermes",
    "kilocode",
    "qodo",
    "warp",
    "jules",
    "llm",
    "iflow",
    "letta",
];

/// Variables bash or zsh give the integer attribute themselves: an assignment evaluates its
/// value as arithmetic, and arithmetic on a name holding `a[$(CMD)]` runs CMD
/// (`x='a[$(rm -rf ~)]'; RANDOM=x`). Checked with bash 5.2 and zsh 5.9 (red team, session 6);
/// zsh's interactive-only ones are listed too.
const INTEGER_SPECIALS: &[&str] = &[
    "RANDOM",
    "SRANDOM",
    "OPTIND",
    "HISTCMD",
    "SECONDS",
    "LINENO",
    "COLUMNS",
    "LINES",
    "HISTSIZE",
    "SAVEHIST",
    "KEYTIMEOUT",
    "LISTMAX",
    "MAILCHECK",
    "PERIOD",
    "TMOUT",
    "SHLVL",
    "ERRNO",
    "TRY_BLOCK_ERROR",
    "TRY_BLOCK_INTERRUPT",
    "ZLE_RPROMPT_INDENT",
    "FUNCNEST",
    "DIRSTACKSIZE",
    "TTYIDLE",
    "EPOCHSECONDS",
];

/// Is `name` a variable the shell itself evaluates as arithmetic on assignment?
pub fn integer_special(name: &str) -> bool {
    INTEGER_SPECIALS.contains(&name)
}

/// Is `s` a `NAME=value` (or `NAME+=value`) assignment word? Returns the name.
pub fn assignment_name(s: &str) -> Option<&str> {
    let eq = s.find('=')?;
    let name = s[..eq].strip_suffix('+').unwrap_or(&s[..eq]);
    let mut chars = name.chars();
    let first = chars.next()?;
    if !(first.is_ascii_alphabetic() || first == '_') {
        return None;
    }
    if chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Some(name)
    } else {
        None
    }
}

#[cfg(test)]
mod names_tests {
    use super::*;

    #[test]
    fn names_find_every_listed_name_and_only_those() {
        for list in [
            &SHELLS,
            &MORE_SHELLS,
            &NOT_SHELLS,
            &LEADING_RESERVED,
            &SAFE_ENV,
        ] {
            for n in list.iter() {
                assert!(list.contains(n), "{n}");
                // Case and one byte more or less are other names.
                let upper = n.to_ascii_uppercase();
                assert_eq!(
                    list.contains(&upper.as_str()),
                    list.iter().any(|x| *x == upper)
                );
                let longer = format!("{n}x");
                assert_eq!(
                    list.contains(&longer.as_str()),
                    list.iter().any(|x| *x == longer)
                );
            }
        }
        // `ls` passed MORE_SHELLS' first filter (the reason for the second one).
        assert!(!MORE_SHELLS.contains(&"ls"));
        assert!(!SHELLS.contains(&"") && !MORE_SHELLS.contains(&""));
    }
}
