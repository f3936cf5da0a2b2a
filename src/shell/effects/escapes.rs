//! More of the catalogue's "runs" column (`runs.rs` calls [`classify`] for every program):
//!
//! - **runners** ([`RUNNERS`], [`SUBCOMMAND_RUNNERS`], the `ld.so` shape, `coreutils
//!   --coreutils-prog=NAME`): programs that run the command after their own options.
//!   Every suffix of their arguments that starts with a non-option word is walked as a
//!   command (a deny anywhere in it denies) and the segment is unattestable;
//! - **build tools' options that run programs**: `go … -exec/-toolexec/-vettool`, `-ldflags
//!   -extld=…`, `go generate`; `cargo --config` (a runner, `rustc-wrapper`, `rustc`, a
//!   linker: the value after `=` is walked), `cargo --manifest-path` outside the project,
//!   `cargo watch -x/-s`; `npm|pnpm|yarn --script-shell`;
//! - **inline shell escapes**: SQL shells' dot commands and functions (`sqlite3 '.shell …'`,
//!   `-cmd`, `duckdb -c`), `psql -c '\! …'` / `\o |…` / `COPY … PROGRAM`, `mysql -e 'system …'`
//!   / `--pager`, `erl -eval`, `Rscript -e`, `julia -e` and other interpreters' inline code,
//!   `scp|sftp|ssh -o ProxyCommand=…` / `-S PROG` / `-F CONFIG`, netcat's `-e`/`-c`/`--exec`/
//!   `--sh-exec`;
//! - **code on stdin**: a program that executes what it reads from stdin (an interpreter
//!   given no script, `ed`, `dc`, `gdb`, `psql`/`mysql`/`sqlite3` without a query, `newgrp`,
//!   file-transfer clients, `make -f -`, `sed -f -`): the text is not visible, so the
//!   segment is unattestable (as `… | sh` is).

use super::super::{Part, Word, WordRef};
use super::builds::go_value_words;
use super::runs::{option_values, suffix_runner};
use super::toolflags;
use super::{Inner, Runs};

/// Programs that run the command given after their own options (a transparent or
/// privileged exec wrapper, a personality or loader, a job launcher, an init for
/// containers). Each is read as a suffix runner.
pub static RUNNERS: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "nocache",
    "caffeinate",
    "run0",
    "please",
    "pleaseedit",
    "sudo-rs",
    "ksu",
    "calife",
    "setarch",
    "linux32",
    "linux64",
    "i386",
    "i686",
    "x86_64",
    "uname26",
    "arch",
    "ssh-agent",
    "dbus-launch",
    "xinit",
    "startx",
    "tsocks",
    "socksify",
    "graftcp",
    "trickle",
    "aa-exec",
    "systemd-nspawn",
    "systemd-socket-activate",
    "heaptrack",
    "memusage",
    "uftrace",
    "mpirun",
    "mpiexec",
    "orterun",
    "srun",
    "salloc",
    "prun",
    "aprun",
    "jsrun",
    "flatpak-spawn",
    "distrobox-host-exec",
    "host-spawn",
    "envchain",
    "summon",
    "tini",
    "dumb-init",
    "catatonit",
    "gamemoderun",
    "prime-run",
    "optirun",
    "primusrun",
    "mangohud",
    "steam-run",
    "box64",
    "box86",
    "qemu-x86_64",
    "qemu-i386",
    "qemu-aarch64",
    "qemu-arm",
    "qemu-riscv64",
    "fexinterpreter",
    "nsjail",
    "minijail0",
    "landrun",
    "lxc-execute",
    "lxc-attach",
    "ccache",
    "sccache",
    "distcc",
    "icecc",
    "pump",
    "bear",
    "intercept-build",
    "scan-build",
    "compiledb",
    "datefudge",
    "schedtool",
    "hwloc-bind",
    "runlim",
    "timelimit",
    "xcrun",
    "with-env",
    "daemon",
    "pee",
    "ch-run",
    "wsl",
    "winpty",
    "rsh",
    "remsh",
    "rlogin",
    "sandbox",
    "bubblewrap",
    "rush",
    "pdsh",
    "clush",
    "logsave",
    "zpty",
    "zargs",
    "libtool",
    "glibtool",
    "envuidgid",
    "vglrun",
]);

/// Programs whose subcommand runs the command after it (`pueue add -- CMD`, `rbenv exec
/// CMD`, `toolbox run CMD`).
pub const SUBCOMMAND_RUNNERS: &[(&str, &[&str])] = &[
    ("pueue", &["add"]),
    ("machinectl", &["shell", "run"]),
    ("rr", &["record", "replay"]),
    ("toolbox", &["run"]),
    ("distrobox", &["enter", "ephemeral"]),
    ("snap", &["run"]),
    ("flatpak", &["run"]),
    ("volta", &["run"]),
    ("rbenv", &["exec"]),
    ("pyenv", &["exec"]),
    ("goenv", &["exec"]),
    ("nodenv", &["exec"]),
    ("jenv", &["exec"]),
    ("plenv", &["exec"]),
    ("phpenv", &["exec"]),
    ("luaenv", &["exec"]),
    ("scalaenv", &["exec"]),
    ("opam", &["exec"]),
    ("stack", &["exec", "run", "runghc", "runhaskell", "eval"]),
    ("cabal", &["exec", "run"]),
    ("guix", &["shell", "environment", "time-machine"]),
    ("dotenvx", &["run"]),
    ("fnm", &["exec"]),
    ("nvm", &["exec", "run"]),
    ("rustup", &["run"]),
    ("ghcup", &["run"]),
    ("pipx", &["run"]),
    ("tox", &["exec"]),
    ("pixi", &["exec", "run"]),
    ("infisical", &["run"]),
    ("chamber", &["exec"]),
    ("sops", &["exec-env", "exec-file"]),
    ("berglas", &["exec"]),
    ("teller", &["run"]),
    ("heroku", &["run", "local:run"]),
    ("railway", &["run"]),
    ("firebase", &["emulators:exec"]),
    ("singularity", &["exec", "run", "shell"]),
    ("apptainer", &["exec", "run", "shell"]),
    ("enroot", &["start", "exec"]),
    ("podman", &["unshare"]),
    ("perf", &["record", "stat", "trace"]),
    ("py-spy", &["record", "top"]),
    ("sdk", &["exec"]),
    ("buildah", &["run", "unshare"]),
    ("keyctl", &["session"]),
    ("launchctl", &["asuser", "bsexec", "submit"]),
    // Local Linux machines on macOS that mount the user's home read-write.
    ("orb", &["run"]),
    ("orbctl", &["run"]),
    ("limactl", &["shell"]),
    ("colima", &["ssh"]),
    ("multipass", &["exec"]),
];

/// Programs whose inline code [`exec_strings`] looks into.
static INTERPRETER_LIKE: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "python",
    "pypy",
    "node",
    "nodejs",
    "bun",
    "deno",
    "tsx",
    "ts-node",
    "ts-node-esm",
    "esno",
    "vite-node",
    "jiti",
    "bb",
    "nbb",
    "perl",
    "ruby",
    "php",
    "lua",
    "luajit",
    "rscript",
    "r",
    "julia",
    "erl",
    "elixir",
    "iex",
    "racket",
    "guile",
    "sbcl",
    "clisp",
    "scala",
    "groovy",
    "kotlin",
    "swift",
    "osascript",
    "tclsh",
    "jimsh",
    "ghc",
    "ghci",
    "mongosh",
    "mongo",
    "awk",
    "gawk",
    "mawk",
    "nawk",
]);

/// `ld-linux-x86-64.so.2`, `ld.so`, `ld-musl-x86_64.so.1`, `ld64.so.2`: the dynamic loader
/// runs the program named after its options.
fn is_loader(n: &str) -> bool {
    n.starts_with("ld") && n.contains(".so")
}

/// Calls that run a command line in common languages: `os.system("…")`, `os:cmd("…")`,
/// `system("…")`, `exec("…")`, `execSync("…")`, `popen("…")`, `shell_exec("…")`,
/// `` run(`…`) ``, backquotes. Their string arguments are walked as shell text.
const EXEC_CALLS: &[&str] = &[
    "system",
    "os:cmd",
    "exec",
    "execsync",
    "popen",
    "shell_exec",
    "passthru",
    "spawn",
    "spawnsync",
    "execute",
    "check_output",
    "check_call",
    "call",
    "run",
    "getoutput",
    "getstatusoutput",
    "proc_open",
    "%x",
    "qx",
    "pipeline",
    "shell",
];

/// The string literals passed to an exec-like call in inline code (see [`EXEC_CALLS`]).
pub fn exec_strings(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let low = code.to_ascii_lowercase();
    let b = code.as_bytes();
    for call in EXEC_CALLS {
        let mut from = 0;
        while let Some(i) = low[from..].find(call) {
            let mut j = from + i + call.len();
            from = j;
            while j < b.len() && matches!(b[j], b' ' | b'(' | b'[' | b'{') {
                j += 1;
            }
            let Some(&q) = b.get(j) else { break };
            if !matches!(q, b'"' | b'\'' | b'`') {
                continue;
            }
            let end = code[j + 1..].find(q as char).map(|e| j + 1 + e);
            if let Some(end) = end {
                out.push(code[j + 1..end].to_string());
            }
        }
    }
    // Backquotes (ruby, perl, php, julia's command literals).
    let mut parts = code.split('`');
    parts.next();
    while let Some(inside) = parts.next() {
        out.push(inside.to_string());
        parts.next();
    }
    out
}

/// Inline code options of interpreters, whose values are code.
const CODE_OPTS: &[&str] = &[
    "-c",
    "-e",
    "-E",
    "-r",
    "--eval",
    "-eval",
    "-p",
    "--print",
    "--expr",
    "-x",
    "--command",
];

pub fn classify(n: &str, base: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    // The version-trimmed name, unless trimming ate a name that ends in a digit (`m4`).
    let base = if base.len() < 2 { n } else { base };
    if INTERPRETER_LIKE.contains(&base) {
        // Inline code: the command lines its exec-like calls run are walked (`perl -pe`,
        // `ruby -ne`: a cluster ending in `e` takes the code; awk's program is an operand).
        let mut code = option_values(args, arg_words, CODE_OPTS);
        for (k, a) in args.iter().enumerate() {
            let cluster_e = a.starts_with('-') && !a.starts_with("--") && a.ends_with('e');
            if cluster_e && a.len() > 2 {
                if let Some(w) = arg_words.get(k + 1) {
                    code.push(w.lit_value());
                }
            }
            if base.ends_with("awk") && !a.starts_with('-') {
                code.push(a.clone());
            }
        }
        for v in code {
            for s in exec_strings(&v) {
                r.unattest("inline code or an option that runs commands");
                r.inner(Inner::Script(s));
            }
        }
    }
    runners(n, args, arg_words, r);
    build_tools(n, args, arg_words, r);
    escapes(n, base, args, arg_words, r);
    if stdin_code(n, base, args) {
        r.unattest("runs code it reads from stdin");
    }
}

/// zsh's precommand modifiers and builtins that run a command (Claude Code's Bash tool
/// runs the user's login shell, zsh on macOS): `noglob CMD`, `nocorrect CMD`, `repeat N
/// CMD`, `sched TIME CMD`, `emulate sh -c TEXT`, `=CMD` (path lookup of CMD).
fn zsh_forms(n: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    match n {
        "noglob" | "nocorrect" | "repeat" | "sched" => suffix_runner(args, arg_words, r),
        "emulate" => {
            for v in option_values(args, arg_words, &["-c"]) {
                r.unattest("shell -c wrapper");
                r.inner(Inner::Script(v));
            }
        }
        _ => {}
    }
}

fn runners(n: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    zsh_forms(n, args, arg_words, r);
    if RUNNERS.contains(&n) || is_loader(n) {
        // Without a command (`ssh-agent -s`, `arch`) they run nothing.
        if args.iter().any(|a| !a.starts_with('-')) {
            suffix_runner(args, arg_words, r);
        }
        if n == "pee" {
            // moreutils `pee CMD…`: each argument is a shell command.
            for w in arg_words {
                r.inner(Inner::Script(w.lit_value()));
            }
        }
        return;
    }
    if let Some((_, subs)) = SUBCOMMAND_RUNNERS.iter().find(|(p, _)| *p == n) {
        if let Some(i) = args.iter().position(|a| subs.contains(&a.as_str())) {
            suffix_runner(
                &args[i + 1..],
                &arg_words[(i + 1).min(arg_words.len())..],
                r,
            );
            if n == "flatpak" {
                for v in option_values(args, arg_words, &["--command"]) {
                    r.inner(Inner::Script(v));
                }
            }
        }
        return;
    }
    if matches!(n, "coreutils" | "gnu-coreutils") {
        // `coreutils --coreutils-prog=rm -rf /`: the named utility with the other words.
        for (k, a) in args.iter().enumerate() {
            let prog = a
                .strip_prefix("--coreutils-prog=")
                .or_else(|| a.strip_prefix("--coreutils-prog-shebang="));
            if let Some(p) = prog {
                let mut ws = vec![Word {
                    raw: p.to_string(),
                    parts: vec![Part::Lit(p.to_string())],
                    ..Word::default()
                }];
                ws.extend(arg_words.iter().skip(k + 1).map(|w| w.as_ref().clone()));
                r.unattest("command runner");
                r.inner(Inner::Words(ws));
            }
        }
        suffix_runner(args, arg_words, r);
    }
}

/// Compiler and linker options (also inside `-Wl,…`, `-Xlinker`, go's `-gcflags=`) that
/// write files polc does not place or run and load other programs.
fn compiler_flags_write_or_run(v: &str) -> bool {
    const WRITES_OR_RUNS: &[&str] = &[
        "-cpuprofile",
        "-memprofile",
        "-blockprofile",
        "-mutexprofile",
        "-traceprofile",
        "-json=",
        "-bench",
        "-Map",
        "--Map",
        "-Wl,-o",
        "-Wl,--output",
        "-Wa,-a",
        "-Xlinker",
        "-Xassembler",
        "-dumpdir",
        "-dumpbase",
        "-aux-info",
        "-fopt-info",
        "-fdump-",
        "-fprofile-generate",
        "-fprofile-dir",
        "-save-temps",
        "--save-temps",
        "-fplugin",
        "-specs",
        "-wrapper",
        "-B",
    ];
    v.split(|c: char| c.is_whitespace() || c == '\'').any(|p| {
        let p = p
            .trim_start_matches(|c: char| c != '-' && c != '=')
            .trim_start_matches('=');
        WRITES_OR_RUNS.iter().any(|w| p.starts_with(w))
            || p.starts_with("-o=")
            || p.contains(",-Map")
            || p.contains(",-o,")
            || p.contains(",--output")
    })
}

/// cargo's options that run programs: `--config` (a runner, `rustc-wrapper`, `rustc`, a
/// linker: the value after `=` is walked), `--manifest-path` outside the project, `cargo
/// watch -x/-s`.
fn cargo_runs(args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    for v in option_values(args, arg_words, &["--config"]) {
        // `--config target.runner="polc confirm"`, `build.rustc-wrapper=…`, a file.
        r.unattest("cargo --config can set a runner, a compiler wrapper or a linker");
        if let Some((_, val)) = v.split_once('=') {
            let val = unquote(val);
            let val = val.trim_start_matches('[').trim_end_matches(']');
            let cmd: Vec<String> = val
                .split(',')
                .map(|s| unquote(s.trim()))
                .filter(|s| !s.is_empty())
                .collect();
            r.inner(Inner::Script(cmd.join(" ")));
        }
    }
    for p in option_values(args, arg_words, &["--manifest-path"]) {
        if p.starts_with('/') || p.starts_with('~') || p.contains("..") {
            r.unattest("cargo builds a package from outside the project");
        }
    }
    if args.first().is_some_and(|a| a == "watch") {
        for v in option_values(args, arg_words, &["-x", "--exec"]) {
            r.unattest("cargo watch runs commands");
            r.inner(Inner::Script(format!("cargo {v}")));
        }
        for v in option_values(args, arg_words, &["-s", "--shell"]) {
            r.unattest("cargo watch runs commands");
            r.inner(Inner::Script(v));
        }
    }
}

/// Strip one pair of surrounding quotes (`"polc confirm"` → `polc confirm`).
fn unquote(v: &str) -> String {
    let t = v.trim();
    for q in ['"', '\''] {
        if t.len() >= 2 && t.starts_with(q) && t.ends_with(q) {
            return t[1..t.len() - 1].to_string();
        }
    }
    t.to_string()
}

fn build_tools(n: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    toolflags::unattested(n, args, r);
    match n {
        "go" => {
            for v in go_value_words(args, &["exec", "toolexec", "vettool", "test.exec"]) {
                r.unattest("an option that runs a program");
                r.inner(Inner::Script(v));
            }
            for kind in ["ldflags", "gcflags", "asmflags", "gccgoflags"] {
                for v in go_value_words(args, &[kind]) {
                    // `-ldflags '-linkmode=external -extld=sh'` runs sh, `-ldflags='-o F'` and
                    // `-gcflags=-linkobj=F` write F: only the flags known plain are attested.
                    if !toolflags::go_flags_plain(kind, &v) {
                        r.unattest("compiler or linker flags polc does not know (they may write files or run programs)");
                    }
                    for piece in v.split_whitespace() {
                        if let Some(x) = piece.strip_prefix("-extld=") {
                            r.inner(Inner::Script(x.to_string()));
                        }
                    }
                }
            }
            if args.iter().any(|a| a == "generate") {
                r.unattest("go generate runs the commands its sources name");
            }
        }
        // A configuration file's `addopts` is any command line (`--basetemp=.claude`
        // empties that folder): like `-o addopts=…` (red team, session 5).
        "pytest" | "py.test"
            if !option_values(
                args,
                arg_words,
                &["-c", "--config-file", "--inifile", "--cov-config"],
            )
            .is_empty() =>
        {
            r.unattest("pytest reads its options from a configuration file polc does not read");
        }
        "cargo" => cargo_runs(args, arg_words, r),
        // gcc/clang driver options that write files the catalogue does not place (a link
        // map, dumps, profiles, another output) or load code (plugins, spec files, another
        // program folder); `protoc --plugin` runs the plugin.
        "cc" | "gcc" | "g++" | "c++" | "clang" | "clang++" | "ld" | "ld.bfd" | "ld.gold"
        | "ld.lld"
            if args.iter().any(|a| compiler_flags_write_or_run(a)) =>
        {
            r.unattest("compiler or linker flags that write files or run programs");
        }
        "protoc" if args.iter().any(|a| a.starts_with("--plugin")) => {
            r.unattest("an option that runs a program");
        }
        // pytest-xdist's `--tx popen//python=CMD` runs CMD; `--tx ssh=H --rsyncdir D` copies D
        // to another host; `--pdbcls=MOD:CLS` imports MOD.
        "pytest" | "py.test"
            if args.iter().any(|a| {
                a.starts_with("--tx") || a.starts_with("--rsyncdir") || a.starts_with("--pdbcls")
            }) =>
        {
            r.unattest("an option that runs a program");
        }
        "wget" | "wget2" if args.iter().any(|a| a.starts_with("--use-askpass")) => {
            r.unattest("an option that runs a program");
        }
        "npm" | "pnpm" | "yarn" | "npx" => {
            for v in option_values(args, arg_words, &["--script-shell", "--shell"]) {
                r.unattest("an option that runs a program");
                r.inner(Inner::Script(v));
            }
        }
        _ => {}
    }
}

/// SQL shells' dot commands: the safe ones (any unambiguous prefix is accepted by sqlite3,
/// so a word that begins a dangerous one, or no safe one, is dangerous).
const SQL_SAFE_DOT: &[&str] = &[
    "tables",
    "schema",
    "headers",
    "mode",
    "indexes",
    "indices",
    "databases",
    "dump",
    "help",
    "show",
    "width",
    "separator",
    "nullvalue",
    "timer",
    "eqp",
    "bail",
    "echo",
    "stats",
    "print",
    "quit",
    "exit",
    "version",
    "dbinfo",
    "fullschema",
    "lint",
    "changes",
    "explain",
    "limits",
    "prompt",
    "timeout",
    "columns",
    "maxrows",
    "maxwidth",
];
const SQL_DANGEROUS_DOT: &[&str] = &[
    "shell", "system", "output", "once", "read", "import", "load", "open", "save", "backup",
    "excel", "log", "cd", "trace", "testcase", "restore", "clone", "archive", "ar", "sh", "edit",
    "iotrace", "recover", "session", "filectrl", "vfsname",
];

/// A SQL shell's text (`.shell …`, `edit(…)`): unattestable reasons and the commands found.
fn sql_text(t: &str, r: &mut Runs) {
    for line in t.split(['\n', ';']) {
        let line = line.trim_start();
        let Some(rest) = line.strip_prefix('.') else {
            continue;
        };
        let word: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect::<String>()
            .to_ascii_lowercase();
        if word.is_empty() {
            continue;
        }
        let dangerous = SQL_DANGEROUS_DOT.iter().any(|d| d.starts_with(&word))
            || !SQL_SAFE_DOT.iter().any(|s| s.starts_with(&word));
        if dangerous {
            r.unattest("a SQL shell's command that runs programs or opens files");
            let arg = rest[word.len()..].trim();
            if "shell".starts_with(&word) || "system".starts_with(&word) {
                r.inner(Inner::Script(arg.to_string()));
            } else if let Some(cmd) = arg.trim_start_matches(['\'', '"']).strip_prefix('|') {
                r.inner(Inner::Script(cmd.trim_end_matches(['\'', '"']).to_string()));
            }
        }
    }
    let low = t.to_ascii_lowercase();
    if [
        "edit(",
        "writefile(",
        "load_extension",
        "readfile(",
        "fts3_tokenizer",
        // duckdb reads any file a string names (`read_text('.env')`, `FROM '.env'`,
        // `glob(…)`) and loads extensions that run commands (`shellfs`); `ATTACH`,
        // `COPY`, `VACUUM INTO`, `EXPORT`/`IMPORT DATABASE` open files (red team,
        // session 5).
        "read_",
        "from '",
        "from \"",
        "glob(",
        "install ",
        "load ",
        "attach",
        "copy ",
        "vacuum",
        "export ",
        "import ",
        "shellfs",
    ]
    .iter()
    .any(|f| low.contains(f))
    {
        r.unattest("a SQL function that runs programs or opens files");
    }
}

/// psql's meta commands that run programs or open files (`\!`, `\o |cmd`, `\copy … program`).
fn psql_text(t: &str, r: &mut Runs) {
    let low = t.to_ascii_lowercase();
    if low.contains("program") {
        r.unattest("COPY … PROGRAM runs a command");
    }
    for (i, _) in t.match_indices('\\') {
        let rest = &t[i + 1..];
        let word: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '!')
            .collect();
        let arg = rest[word.len()..].trim();
        let arg = arg.split("\\").next().unwrap_or(arg);
        match word.as_str() {
            "!" => {
                r.unattest("psql \\! runs a shell command");
                r.inner(Inner::Script(arg.to_string()));
            }
            "o" | "out" | "g" | "gx" | "w" | "write" | "copy" | "i" | "include" | "ir"
            | "include_relative" | "e" | "edit" | "ef" | "ev" | "s" | "cd" | "lo_export"
            | "lo_import" | "setenv" | "pset" | "gexec" | "watch" => {
                r.unattest("a psql command that runs programs or opens files");
                if let Some(cmd) = arg.strip_prefix('|') {
                    r.inner(Inner::Script(cmd.to_string()));
                }
            }
            _ => {}
        }
    }
}

/// mysql/mariadb client commands that run programs or open files.
fn mysql_text(t: &str, r: &mut Runs) {
    for stmt in t.split([';', '\n']) {
        let s = stmt.trim();
        let low = s.to_ascii_lowercase();
        for kw in ["system ", "\\! "] {
            if let Some(cmd) = low.starts_with(kw).then(|| &s[kw.len()..]) {
                r.unattest("a mysql client command that runs a program");
                r.inner(Inner::Script(cmd.to_string()));
            }
        }
        if s.contains("\\!") || s.starts_with("\\!") {
            r.unattest("a mysql client command that runs a program");
            if let Some(i) = s.find("\\!") {
                r.inner(Inner::Script(s[i + 2..].trim().to_string()));
            }
        }
        if [
            "pager",
            "tee",
            "source",
            "edit",
            "outfile",
            "dumpfile",
            "system",
            "load_file",
            "load data",
            "load xml",
        ]
        .iter()
        .any(|k| low.contains(k))
            || ["\\p", "\\t", "\\.", "\\e"].iter().any(|k| low.contains(k))
        {
            r.unattest("a mysql client command that runs programs or opens files");
        }
    }
}

/// ssh's `-o Key=Value` options that run a local command.
fn ssh_options(args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    for v in option_values(args, arg_words, &["-o"]) {
        let (k, val) = match v.split_once(['=', ' ']) {
            Some((k, val)) => (k.trim().to_ascii_lowercase(), val.trim().to_string()),
            None => (v.to_ascii_lowercase(), String::new()),
        };
        if k.ends_with("command") || k == "match" || k == "include" {
            r.unattest("an ssh option that runs a command");
            if !val.is_empty() {
                r.inner(Inner::Script(val));
            }
        }
    }
}

/// SQL shells: their SQL and meta-commands (`.shell`, `\\!`, `system`) as commands.
fn sql_escapes(n: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    match n {
        "sqlite3" | "sqlite" | "duckdb" | "litecli" | "spatialite" => {
            // The first operand is the database; the others and `-cmd` values are SQL and
            // dot commands.
            let mut db_seen = false;
            for (k, a) in args.iter().enumerate() {
                if a == "-init" {
                    r.unattest("a SQL shell reading commands from a file");
                }
                let prev = k.checked_sub(1).map(|j| args[j].as_str());
                if matches!(prev, Some("-cmd" | "-c" | "-s")) {
                    sql_text(a, r);
                } else if !a.starts_with('-')
                    && !matches!(
                        prev,
                        Some("-init" | "-separator" | "-newline" | "-nullvalue")
                    )
                {
                    if db_seen {
                        sql_text(a, r);
                    }
                    db_seen = true;
                }
            }
        }
        "psql" => {
            for v in option_values(args, arg_words, &["-c", "--command"]) {
                psql_text(&v, r);
            }
            for v in option_values(args, arg_words, &["-o", "--output", "-L", "--log-file"]) {
                r.unattest("a psql option that runs programs or opens files");
                if let Some(cmd) = v.strip_prefix('|') {
                    r.inner(Inner::Script(cmd.to_string()));
                }
            }
            if !option_values(args, arg_words, &["-f", "--file"]).is_empty() {
                r.unattest("psql runs a script file");
            }
        }
        "mysql" | "mariadb" | "mysqlsh" => {
            for v in option_values(args, arg_words, &["-e", "--execute"]) {
                mysql_text(&v, r);
            }
            for v in option_values(args, arg_words, &["--pager", "--tee"]) {
                r.unattest("a mysql option that runs programs or opens files");
                r.inner(Inner::Script(v));
            }
            if args.iter().any(|a| {
                a == "--pager"
                    || a.starts_with("--defaults-file")
                    || a.starts_with("--defaults-extra-file")
                    || a.starts_with("--init-command")
            }) {
                r.unattest("a mysql option that runs programs or opens files");
            }
        }
        _ => {}
    }
}

/// Archivers' options whose value is a command (`tar --use-compress-program`, `zip -TT`).
fn archive_escapes(n: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    match n {
        "tar" | "gtar" | "bsdtar" => {
            // The command options' values are walked (`--use-compress-program='rm -rf ~'`,
            // `--checkpoint-action=exec=CMD`).
            let opts = [
                "--to-command",
                "--use-compress-program",
                "--info-script",
                "--new-volume-script",
                "--rsh-command",
                "--rmt-command",
                "-I",
                "-F",
            ];
            for v in option_values(args, arg_words, &opts) {
                r.inner(Inner::Script(v));
            }
            for v in option_values(args, arg_words, &["--checkpoint-action"]) {
                if let Some(cmd) = v.strip_prefix("exec=") {
                    r.inner(Inner::Script(cmd.to_string()));
                }
            }
        }
        "zip" => {
            for v in option_values(args, arg_words, &["-TT", "--unzip-command"]) {
                r.inner(Inner::Script(v));
            }
        }
        // `erl -eval`, `-s M F`, `-run M F`; iex and erl without them read stdin.
        _ => {}
    }
}

fn escapes(n: &str, base: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    match n {
        "sqlite3" | "sqlite" | "duckdb" | "litecli" | "spatialite" | "psql" | "mysql"
        | "mariadb" | "mysqlsh" => sql_escapes(n, args, arg_words, r),
        "tar" | "gtar" | "bsdtar" | "zip" => archive_escapes(n, args, arg_words, r),
        "erl" | "erlc" | "iex" | "elixir"
            if args.iter().any(|a| {
                matches!(a.as_str(), "-eval" | "-s" | "-run" | "-e" | "--eval" | "-r")
            }) =>
        {
            r.unattest("inline code or an option that runs commands");
        }
        "scp" | "sftp" | "ssh" | "autossh" => {
            ssh_options(args, arg_words, r);
            for v in option_values(args, arg_words, &["-F"]) {
                // A configuration file may hold `ProxyCommand`/`LocalCommand`.
                let _ = v;
                r.unattest("an ssh option that reads a configuration polc does not read");
            }
            if n != "ssh" {
                // `scp -S PROG`, `sftp -S PROG`, `sftp -D SERVER`: local programs run.
                for v in option_values(args, arg_words, &["-S", "-D"]) {
                    r.unattest("an ssh option that runs a program");
                    r.inner(Inner::Script(v));
                }
            }
        }
        _ => {}
    }
    // Netcat's program options: `-e PROG`, `-c CMD` (traditional, ncat), `--exec`,
    // `--sh-exec`, `--lua-exec`.
    if matches!(
        n,
        "nc" | "netcat" | "ncat" | "pwncat" | "nc.traditional" | "nc.openbsd"
    ) || n.starts_with("nc.")
        || n.starts_with("netcat")
    {
        let opts: &[&str] = if n == "nc.openbsd" {
            &["-e", "--exec", "--sh-exec", "--lua-exec"]
        } else {
            &["-e", "-c", "--exec", "--sh-exec", "--lua-exec"]
        };
        for v in option_values(args, arg_words, opts) {
            r.unattest("netcat runs a program for the connection");
            r.inner(Inner::Script(v));
        }
    }
    // Interpreters' inline code (`Rscript -e`, `julia -e`, `racket -e`, …).
    let inline: &[&str] = match base {
        "rscript" | "r" => &["-e", "--expr", "--file"],
        "julia" => &["-e", "-E", "--eval", "--print", "-L", "--load"],
        "racket" => &["-e", "--eval", "-i", "--repl"],
        "guile" => &["-c", "-e"],
        "sbcl" => &["--eval", "--load"],
        "clisp" => &["-x"],
        "gforth" => &["-e", "--evaluate"],
        "scala" | "groovy" | "kotlin" | "kotlinc" => &["-e", "-expression"],
        "ghc" | "ghci" | "runghc" => &["-e"],
        "swift" => &["-e"],
        "mongosh" | "mongo" => &["--eval"],
        "osascript" => &["-e"],
        "m4" => &["-D", "--define"],
        "jshell" | "groovysh" => &["-R", "-J"],
        _ => &[],
    };
    if args.iter().any(|a| {
        inline
            .iter()
            .any(|o| a == o || a.starts_with(&format!("{o}=")))
    }) {
        r.unattest("inline code or an option that runs commands");
    }
    if base == "m4" && args.iter().any(|a| a.contains("syscmd")) {
        r.unattest("inline code or an option that runs commands");
    }
    if matches!(base, "vim" | "vi" | "nvim" | "ex" | "view")
        && args.iter().any(|a| {
            matches!(
                a.as_str(),
                "-e" | "-E" | "-es" | "-Es" | "-s" | "-" | "--clean"
            ) && a != "--clean"
        })
    {
        r.unattest("an editor reading commands from stdin or a script");
    }
}

/// Version and help queries run nothing.
fn query(args: &[String]) -> bool {
    args.len() == 1
        && matches!(
            args[0].as_str(),
            "--version" | "-V" | "-v" | "--help" | "-h" | "-version" | "-help"
        )
}

/// The options of an interpreter that take the next word as their value.
fn value_opts(base: &str) -> &'static [&'static str] {
    match base {
        "python" | "pypy" => &["-W", "-X", "-Q"],
        "node" | "nodejs" | "bun" => &[
            "-r",
            "--require",
            "--import",
            "--loader",
            "-C",
            "--conditions",
            "--env-file",
        ],
        "ruby" => &["-r", "-I", "-C", "-E", "-F"],
        "perl" => &["-I", "-M", "-m", "-C"],
        "php" => &["-c", "-d", "-z"],
        "lua" | "luajit" => &["-l"],
        "julia" => &["-J", "-t", "-p", "--project", "-C"],
        _ => &[],
    }
}

/// An interpreter with no script, inline code or module reads its program from stdin.
fn interpreter_reads_stdin(base: &str, args: &[String]) -> bool {
    static STDIN_SCRIPTS: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
        "-",
        "/dev/stdin",
        "/dev/fd/0",
        "/proc/self/fd/0",
        "/dev/tty",
    ]);
    // Inline code and modules are read elsewhere (`python -c`, `node -e`).
    let inline = [
        "-c", "-e", "-E", "-m", "-r", "--eval", "-p", "--print", "-R", "-B", "-F", "-f", "-x",
        "--expr", "--run", "-eval",
    ];
    let vopts = value_opts(base);
    let mut k = 0;
    while k < args.len() {
        let a = args[k].as_str();
        if STDIN_SCRIPTS.contains(&a) {
            return true;
        }
        if a == "--" {
            return args
                .get(k + 1)
                .is_none_or(|s| STDIN_SCRIPTS.contains(&s.as_str()));
        }
        if !a.starts_with('-') {
            // The script (deno: `deno run -`, `deno eval` are subcommands).
            if matches!(base, "deno" | "bun") && matches!(a, "run" | "repl") {
                k += 1;
                continue;
            }
            return base == "deno" && a == "repl";
        }
        if inline.contains(&a)
            || (base == "perl" && (a.contains('e') || a.contains('E')) && !a.starts_with("--"))
        {
            return false;
        }
        k += if vopts.contains(&a) { 2 } else { 1 };
    }
    // No script: the interpreter reads its program from stdin (or a terminal).
    true
}

/// `sqlite3 DB` reads SQL (and dot commands) from stdin; `sqlite3 DB SQL` does not.
fn sql_shell_reads_stdin(n: &str, args: &[String]) -> bool {
    // `sqlite3 DB` reads SQL (and dot commands) from stdin; `sqlite3 DB SQL` does not.
    let mut ops = 0;
    let mut k = 0;
    while k < args.len() {
        let a = args[k].as_str();
        if matches!(
            a,
            "-cmd" | "-init" | "-separator" | "-newline" | "-nullvalue"
        ) {
            k += 2;
            continue;
        }
        if duck_c(n, a) {
            return false;
        }
        if !a.starts_with('-') || a == "-" {
            ops += 1;
        }
        k += 1;
    }
    ops < 2
}

/// Does the program execute code it reads from stdin (no script, file or inline code)?
fn stdin_code(n: &str, base: &str, args: &[String]) -> bool {
    if query(args) {
        return false;
    }
    const STDIN_SCRIPTS: &[&str] = &[
        "-",
        "/dev/stdin",
        "/dev/fd/0",
        "/proc/self/fd/0",
        "/dev/tty",
    ];
    let script_from_stdin = |opts: &[&str]| {
        let vals: Vec<&String> = args
            .windows(2)
            .filter(|w| opts.contains(&w[0].as_str()))
            .map(|w| &w[1])
            .collect();
        vals.iter().any(|v| STDIN_SCRIPTS.contains(&v.as_str()))
            || args.iter().any(|a| {
                opts.iter().any(|o| {
                    o.starts_with("--")
                        && a.strip_prefix(o)
                            .and_then(|v| v.strip_prefix('='))
                            .is_some_and(|v| STDIN_SCRIPTS.contains(&v))
                })
            })
    };
    match base {
        "python" | "pypy" | "node" | "nodejs" | "ruby" | "perl" | "php" | "lua" | "luajit"
        | "tclsh" | "wish" | "jimsh" | "julia" | "ocaml" | "guile" | "sbcl" | "clisp"
        | "racket" | "scheme" | "chez" | "petite" | "csi" | "gosh" | "expect" | "osascript"
        | "gforth" | "bun" | "deno" | "irb" | "jshell" | "groovysh" | "swift" | "scala"
        | "rscript" | "m4" | "mongosh" | "mongo" | "ts-node" | "tsx" => {
            interpreter_reads_stdin(base, args)
        }
        "ed" | "red" | "ex" | "gdb" | "lldb" | "rr" | "newgrp" | "ftp" | "tftp" | "lftp"
        | "ncftp" | "smbclient" | "telnet" | "erl" | "iex" | "r" | "ghci"
        // REPLs and interpreters that run what they read (red team, session 5): `system()`
        // in gnuplot, octave, maxima, PARI/GP and calc, LLVM IR in lli, C in `tcc -run -`.
        | "lli" | "gnuplot" | "octave" | "octave-cli" | "maxima" | "gp" | "calc" | "pry"
        | "bb" | "clj" | "clojure" | "kotlinc" | "utop" | "coqtop" | "gap" | "sage"
        | "magma" | "matlab" | "wolfram" | "wolframscript" | "math" | "pwsh"
        | "powershell" => {
            // Each reads commands from stdin whatever its arguments (`ed FILE`, `gdb -batch
            // PROG`, `newgrp GROUP` starts a shell, `ftp HOST` runs `!CMD` lines).
            true
        }
        "dc" => !args.iter().any(|a| {
            matches!(a.as_str(), "-e" | "--expression" | "-f" | "--file")
                || a.starts_with("--expression=")
                || a.starts_with("--file=")
                || (a.starts_with("-e") && a.len() > 2)
        }),
        "psql" => {
            !args.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "-c" | "--command" | "-l" | "--list" | "-f" | "--file"
                ) || a.starts_with("--command=")
                    || a.starts_with("--file=")
                    || (a.starts_with("-c") && a.len() > 2 && !a.starts_with("--"))
            }) || script_from_stdin(&["-f", "--file"])
        }
        "mysql" | "mariadb" | "mysqlsh" => !args.iter().any(|a| {
            matches!(a.as_str(), "-e" | "--execute")
                || a.starts_with("--execute=")
                || (a.starts_with("-e") && a.len() > 2 && !a.starts_with("--"))
        }),
        "sqlite3" | "sqlite" | "duckdb" | "litecli" | "spatialite" => {
            sql_shell_reads_stdin(n, args)
        }
        "make" | "gmake" => script_from_stdin(&["-f", "--file", "--makefile"]),
        "tcc" => args.iter().any(|a| a == "-run") && args.iter().any(|a| STDIN_SCRIPTS.contains(&a.as_str())),
        "dotnet" => args.first().is_some_and(|a| a == "script") && (args.len() == 1 || args.iter().any(|a| STDIN_SCRIPTS.contains(&a.as_str()))),
        "sed" | "gsed" | "awk" | "gawk" | "mawk" | "nawk" => script_from_stdin(&["-f", "--file"]),
        _ => false,
    }
}

fn duck_c(n: &str, a: &str) -> bool {
    n == "duckdb" && matches!(a, "-c" | "-s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_strings_find_command_lines_in_code() {
        let cases: &[(&str, &str)] = &[
            ("import os; os.system(\"rm -rf ~\")", "rm -rf ~"),
            ("os:cmd(\"rm -rf ~\")", "rm -rf ~"),
            ("require('child_process').execSync('rm -rf ~')", "rm -rf ~"),
            ("run(`rm -rf ~`)", "rm -rf ~"),
            ("system \"rm -rf ~\"", "rm -rf ~"),
            ("subprocess.run('rm -rf ~', shell=True)", "rm -rf ~"),
        ];
        for (code, want) in cases {
            assert!(
                exec_strings(code).iter().any(|s| s == want),
                "{code}: {:?}",
                exec_strings(code)
            );
        }
        assert!(exec_strings("print(1 + 2)").is_empty());
    }

    #[test]
    fn shells_are_a_class() {
        use super::super::super::lists::is_shell;
        for s in [
            "sh",
            "bash",
            "rbash",
            "ksh93",
            "oksh",
            "lksh",
            "posh",
            "hush",
            "bash5",
            "zsh-5.9",
            "sh.distrib",
            "bash-static",
            "nu",
            "elvish",
            "xonsh",
            "osh",
            "ysh",
            "rc",
            "es",
            "murex",
            "mksh-static",
            "dash.static",
        ] {
            assert!(is_shell(s), "{s}");
        }
        for s in [
            "ssh", "hash", "chsh", "tclsh", "mosh", "ls", "publish", "git",
        ] {
            assert!(!is_shell(s), "{s}");
        }
    }

    #[test]
    fn loaders_and_listed_runners_are_runners() {
        assert!(is_loader("ld-linux-x86-64.so.2"));
        assert!(is_loader("ld.so"));
        assert!(is_loader("ld-musl-x86_64.so.1"));
        assert!(!is_loader("ld"));
        for (p, subs) in SUBCOMMAND_RUNNERS {
            assert!(!subs.is_empty(), "{p}");
            assert!(!RUNNERS.contains(p), "{p} is in both lists");
        }
    }
}
