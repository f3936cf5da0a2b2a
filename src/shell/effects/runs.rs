//! Commands and code a program runs (the catalogue's "runs" column): shells and their `-c`
//! scripts, `eval`, runners (`find -exec`, `ssh`, `watch`, …), terminal drivers and
//! multiplexers, options and configuration that run commands (`git rebase --exec`,
//! `rsync -e`, `git config core.pager`), inline code (`python -c`), and nested agent
//! sessions. Each finding makes the segment unattestable; a command found inside is handed
//! back as an [`Inner`] so the walk analyses it as segments of its own (a deny found there
//! denies).

use super::super::lists;
use super::super::{Word, WordRef};
use super::{git, Inner, Runs};

fn short_cluster_has(a: &str, letter: char) -> bool {
    a.starts_with('-') && !a.starts_with("--") && a[1..].contains(letter)
}

/// What program `name` given `args` runs besides itself (see the module doc).
pub fn classify(name: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    let n = name;
    if let Some(prog) = n.strip_prefix('=').filter(|p| !p.is_empty()) {
        // zsh's `=rm -rf /`: `=NAME` expands to NAME's path, so NAME runs with the words.
        r.unattest("zsh =NAME expansion in command position");
        let mut ws = vec![Word {
            raw: prog.to_string(),
            parts: vec![super::super::Part::Lit(prog.to_string())],
            ..Word::default()
        }];
        ws.extend(arg_words.iter().map(|w| w.as_ref().clone()));
        r.inner(Inner::Words(ws));
        return;
    }
    if matches!(n, "pwsh" | "powershell" | "pwsh-preview") {
        powershell(args, arg_words, r);
        return;
    }
    if lists::is_shell(n) {
        shell(args, arg_words, r);
        return;
    }
    builtin_or_runner(n, args, arg_words, r);
    config_runners(n, args, arg_words, r);
    // Inline code and programs given options that run commands (each program is in one of
    // these).
    let base = n.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let code = inline_code(base, args);
    runs_through(n, base, args, arg_words, r);
    wrapper(n, base, args, arg_words, r);
    // Runners, inline escapes, stdin code, build tools' runner options (`escapes.rs`).
    super::escapes::classify(n, base, args, arg_words, r);
    if code || document_runs_commands(base, args) {
        r.unattest("inline code or an option that runs commands");
    }
}

/// Document and data processors whose input runs commands (red team, session 7): groff's
/// unsafe mode (`-U`: `.sy CMD`, `.pso CMD`), TeX's shell escape (`\write18{CMD}`), and
/// Miller's `put`/`filter` expressions calling `system`/`exec`.
fn document_runs_commands(base: &str, args: &[String]) -> bool {
    match base {
        "groff" | "troff" | "gtroff" | "nroff" | "gnroff" => args.iter().any(|a| {
            a == "-U" || (a.starts_with('-') && !a.starts_with("--") && a[1..].contains('U'))
        }),
        "tex" | "latex" | "pdflatex" | "xelatex" | "lualatex" | "pdftex" | "luatex" | "xetex"
        | "etex" | "latexmk" | "context" => args.iter().any(|a| {
            let a = a.trim_start_matches('-');
            a.starts_with("shell-escape")
                || a.starts_with("enable-write18")
                || a.starts_with("shell-restricted")
                || a == "shell"
        }),
        "mlr" | "miller" => args
            .iter()
            .any(|a| a.contains("system") || a.contains("exec") || a.contains("os.")),
        _ => false,
    }
}

/// PowerShell (red team 8, C8-pwshcase): parameter names in any case and any unique prefix,
/// after `-` or `/` (`-Command`, `-COMMAND`, `-c`, `-co`, `/Command`); the words after
/// `-Command` joined are the command text, `-CommandWithArgs CMD ARGS…` runs CMD, and
/// `-EncodedCommand B64` is base64 of UTF-16LE text. The text is read as shell text (deny
/// rules see `git push --force` in it); never attestable.
fn powershell(args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    r.unattest("shell -c wrapper");
    let mut k = 0;
    while k < args.len() {
        let a = args[k].to_ascii_lowercase();
        let name = a.trim_start_matches(['-', '/']);
        let rest = || -> String {
            arg_words[(k + 1).min(arg_words.len())..]
                .iter()
                .map(|w| w.lit_value())
                .collect::<Vec<_>>()
                .join(" ")
        };
        if name.is_empty() || name.len() == a.len() {
            // A word that is no parameter: PowerShell runs it as the command (`pwsh git …`
            // is `-Command git …` for Windows PowerShell; pwsh reads it as a file).
            let text: Vec<String> = arg_words[k.min(arg_words.len())..]
                .iter()
                .map(|w| w.lit_value())
                .collect();
            r.inner(Inner::Script(text.join(" ")));
            return;
        }
        let prefix_of = |full: &str, min: usize| name.len() >= min && full.starts_with(name);
        if name == "c"
            || name == "cwa"
            || prefix_of("commandwithargs", 8)
            || prefix_of("command", 2)
        {
            r.inner(Inner::Script(rest()));
            return;
        }
        if name == "e" || name == "ec" || prefix_of("encodedcommand", 2) {
            let text = arg_words
                .get(k + 1)
                .and_then(|w| utf16le_base64(&w.lit_value()))
                .unwrap_or_default();
            r.inner(Inner::Script(text));
            return;
        }
        if name == "f" || prefix_of("file", 2) {
            r.unattest("shell runs a script file or stdin");
            return;
        }
        // Parameters that take a value.
        if matches!(
            name,
            "ex" | "ep"
                | "executionpolicy"
                | "wd"
                | "workingdirectory"
                | "o"
                | "of"
                | "outputformat"
                | "i"
                | "if"
                | "inputformat"
                | "config"
                | "configurationname"
                | "settingsfile"
                | "custompipename"
                | "version"
                | "v"
                | "wa"
                | "windowstyle"
        ) || prefix_of("executionpolicy", 3)
            || prefix_of("workingdirectory", 3)
        {
            k += 1;
        }
        k += 1;
    }
    r.unattest("shell runs a script file or stdin");
}

/// `-EncodedCommand`'s text: base64 of UTF-16LE.
fn utf16le_base64(b64: &str) -> Option<String> {
    let mut bits: u32 = 0;
    let mut n = 0;
    let mut bytes = Vec::new();
    for c in b64
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
    {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(v);
        n += 6;
        if n >= 8 {
            n -= 8;
            bytes.push((bits >> n) as u8);
        }
    }
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect();
    Some(String::from_utf16_lossy(&units))
}

/// A shell: `-c SCRIPT` is looked into; a script file or stdin is not attestable.
fn shell(args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    // `cmd /c CMD …`, `cmd //c` (Git Bash's spelling), `/k`: cmd runs the rest of its words
    // joined as one command line.
    if let Some(k) = args.iter().position(|a| {
        matches!(
            a.to_ascii_lowercase().as_str(),
            "/c" | "//c" | "/k" | "//k" | "/r" | "//r"
        )
    }) {
        r.unattest("shell -c wrapper");
        let rest: Vec<String> = arg_words[(k + 1).min(arg_words.len())..]
            .iter()
            .map(|w| w.lit_value())
            .collect();
        r.inner(Inner::Script(rest.join(" ")));
        return;
    }
    let mut has_c = false;
    let mut k = 0;
    while k < args.len() {
        let a = &args[k];
        if a == "--command" || a == "-c" || (short_cluster_has(a, 'c') && a.len() > 1) {
            has_c = true;
            if a == "--command" {
                k += 1;
                break;
            }
        } else if (a == "-o" || a == "+o" || a == "-O" || a == "+O") && k + 1 < args.len() {
            k += 1;
        } else if a == "--" {
            k += 1;
            break;
        } else if !a.starts_with('-') && !a.starts_with('+') {
            break;
        }
        k += 1;
    }
    if has_c {
        r.unattest("shell -c wrapper");
        if let Some(w) = arg_words.get(k) {
            r.inner(Inner::Script(w.lit_value()));
        }
    } else {
        r.unattest("shell runs a script file or stdin");
    }
}

/// Builtins that evaluate arithmetic or array subscripts, or assign variables polc does not
/// see named (`declare -n`, `export $v=…`): a variable's value can hold `a[$(CMD)]`.
fn evaluating_builtin(n: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) -> bool {
    match n {
        "let" | "mapfile" | "readarray" | "[[" | "((" => {
            r.unattest("builtin that evaluates arithmetic or code");
            // `mapfile -C CMD` / `readarray -C CMD` run CMD every `-c` lines (red team 8,
            // C8-cmdstrings).
            if matches!(n, "mapfile" | "readarray") {
                for v in option_values(args, arg_words, &["-C"]) {
                    r.inner(Inner::Script(v));
                }
            }
        }
        "printf" if args.iter().any(|a| a == "-v" || a.starts_with("-v")) => {
            r.unattest("printf -v evaluates array subscripts")
        }
        "test" | "[" if args.iter().any(|a| a == "-v" || a == "-R") => {
            r.unattest("test -v evaluates array subscripts")
        }
        // `declare -n r=GIT_EDITOR; r='rm -rf ~'`: assignments through a name reference
        // reach a variable polc does not see named.
        "declare" | "typeset" | "local" if args.iter().any(|a| short_cluster_has(a, 'n')) => {
            r.unattest("a name reference (assignments through it reach another variable)")
        }
        // `export $v='rm -rf ~'`: the name assigned is an expansion.
        "declare" | "typeset" | "local" | "readonly" | "export"
            if arg_words.iter().any(|w| {
                w.raw
                    .split_once('=')
                    .is_some_and(|(n, _)| n.contains('$') || n.contains('`'))
            }) =>
        {
            r.unattest("an assignment whose name is not a literal word")
        }
        "declare" | "typeset" | "local" | "readonly" | "export"
            if args.iter().any(|a| short_cluster_has(a, 'i'))
                || arg_words.iter().any(|w| w.raw.contains('[')) =>
        {
            r.unattest("declaration evaluating arithmetic or subscripts")
        }
        // zsh's `integer`/`float` are `typeset -i`/`-F`: later assignments are arithmetic.
        "integer" | "float" => r.unattest("declaration of an arithmetic variable"),
        // zsh's `autoload NAME` makes NAME run a file found on `fpath` (like `source`).
        "autoload" => r.unattest("autoload runs a function file found on fpath"),
        // `read RANDOM`, `for OPTIND in x`, `getopts o OPTIND`, `select SECONDS in …`: the
        // variable the builtin assigns is one the shell evaluates as arithmetic.
        "read" | "for" | "select" | "getopts" | "wait" | "printf"
            if args.iter().any(|a| lists::integer_special(a)) =>
        {
            r.unattest("a builtin assigning a shell integer variable")
        }
        "read" if args.iter().any(|a| short_cluster_has(a, 'a')) => {
            r.unattest("read -a evaluates subscripts")
        }
        // `unset a[x]`, `wait -p a[x]`, `read a[x]`, `getopts o a[x]`: a variable name with a
        // subscript is evaluated arithmetically, and `x` may hold `b[$(CMD)]`.
        "unset" | "wait" | "read" | "getopts" | "select" | "for"
            if arg_words.iter().any(|w| w.raw.contains('[')) =>
        {
            r.unattest("a builtin evaluating an array subscript")
        }
        _ => return false,
    }
    true
}

/// Builtins that define or evaluate code, and programs that run a command given to them.
fn builtin_or_runner(n: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    if evaluating_builtin(n, args, arg_words, r)
        || session5_runs(n, args, arg_words, r)
        || session7_runs(n, args, r)
    {
        return;
    }
    match n {
        "eval" => {
            r.unattest("eval");
            r.inner(Inner::Script(
                arg_words
                    .iter()
                    .map(|w| w.lit_value())
                    .collect::<Vec<_>>()
                    .join(" "),
            ));
        }
        "." | "source" => r.unattest("source runs a script file"),
        "trap" => {
            r.unattest("trap");
            // The handler is the first word after the options (`trap -- 'CMD' ERR`, `trap
            // -p`): red team 8, C8-cmdstrings.
            let k = match args.iter().position(|a| a == "--") {
                Some(d) => Some(d + 1),
                None => args.iter().position(|a| !a.starts_with('-') || a == "-"),
            };
            if let Some(w) = k.and_then(|k| arg_words.get(k)) {
                r.inner(Inner::Script(w.lit_value()));
            }
        }

        "hash" if args.iter().any(|a| short_cluster_has(a, 'p')) => {
            // `hash -p PROG NAME` binds NAME to any program (the walk reads NAME's later
            // uses as PROG).
            r.unattest("hash -p binds a command name to any program")
        }
        "alias" | "enable" | "bind" | "complete" | "compgen" | "fc" | "coproc" | "zmodload" => {
            r.unattest("builtin that defines or runs commands")
        }
        // zsh: `print -P` expands prompt sequences (`$(…)` under `promptsubst`); `setopt`
        // and `unsetopt` change how later words are read (`globsubst`, `promptsubst`).
        "print" if args.iter().any(|a| short_cluster_has(a, 'P')) => {
            r.unattest("zsh print -P expands prompt sequences")
        }
        "setopt" | "unsetopt" => r.unattest("shell options that change how words are read"),
        "find" | "fd" | "fdfind" => {
            let mut k = 0;
            while k < args.len() {
                let a = args[k].as_str();
                if matches!(
                    a,
                    "-exec"
                        | "-execdir"
                        | "-ok"
                        | "-okdir"
                        | "-x"
                        | "--exec"
                        | "-X"
                        | "--exec-batch"
                ) {
                    r.unattest("find -exec runs commands");
                    let start = k + 1;
                    let mut end = start;
                    while end < args.len()
                        && args[end] != ";"
                        && args[end] != "+"
                        && args[end] != "\\;"
                    {
                        end += 1;
                    }
                    if start < end {
                        r.inner(Inner::Words(crate::shell::owned_words(
                            &arg_words[start..end],
                        )));
                    }
                    k = end;
                } else if matches!(a, "-fprint" | "-fprintf" | "-fls" | "-delete") && n == "find" {
                    // Writes files or deletes: not a runner, decided by rules.
                }
                k += 1;
            }
        }
        "parallel" | "watch" | "flock" | "su" | "runuser" | "script" | "ssh" | "sg" | "nsenter"
        | "unshare" | "chroot" | "firejail" | "bwrap" | "systemd-run" | "dbus-run-session"
        | "at" | "batch" | "crontab" => {
            r.unattest("command runner");
            runner_inner(n, args, arg_words, r);
        }
        _ => {}
    }
}

/// Tools and settings found by the seventh red team (persistent configuration a later,
/// allowed command obeys). True when `n` was one of them.
fn session7_runs(n: &str, args: &[String], r: &mut Runs) -> bool {
    match n {
        // `git init|clone --separate-git-dir=DIR`: the repository's configuration and hooks
        // (which allowed git commands run) move to DIR, out of `.git`'s protection.
        "git" if args.iter().any(|a| a.starts_with("--separate-git-dir")) => {
            r.unattest("git's directory moved where polc does not protect it")
        }
        "npm" | "pnpm" if args.first().is_some_and(|a| a == "set") => {
            r.unattest("a package manager's configuration sets what later commands run or fetch")
        }
        "rustup" if rustup_repoints(args) => {
            r.unattest("rustup's toolchain choice sets what later cargo and rustc commands run")
        }
        "mise" | "rtx" | "asdf" | "proto" | "uv" | "rye" | "pyenv" | "nodenv" | "goenv"
            if args
                .iter()
                .any(|a| a.contains("path:") || a.contains("ref:"))
                || (n == "uv"
                    && args.iter().take(2).eq(["python", "pin"].iter())
                    && args.iter().skip(2).any(|a| a.contains('/'))) =>
        {
            r.unattest("a version pinned to a path or a build runs a program polc cannot see")
        }
        _ => return false,
    }
    true
}

/// Does this rustup command make later cargo/rustc commands run another toolchain than a
/// released channel (`toolchain link NAME DIR`, `override set NAME`, `default NAME` with a
/// name that is not `stable`/`beta`/`nightly`/a version)?
fn rustup_repoints(args: &[String]) -> bool {
    let ops: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let channel = |t: &str| {
        let head = t.split('-').next().unwrap_or(t);
        matches!(head, "stable" | "beta" | "nightly")
            || head.starts_with(|c: char| c.is_ascii_digit())
    };
    match ops.as_slice() {
        ["toolchain", "link", ..] => true,
        ["override", "set", t, ..] | ["default", t, ..] => !channel(t),
        ["set", ..] => true,
        _ => false,
    }
}

/// Builtins, tools and options found by the fifth red team: shell options that change what
/// later words mean, persistent tool configuration, filters and file names that run
/// programs, `jobs -x`. True when `n` was one of them.
fn session5_runs(n: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) -> bool {
    match n {
        // bash options that change what later words mean (red team, session 5): `set -k`
        // makes `NAME=VALUE` after a command name an assignment (`git log GIT_PAGER=CMD`),
        // `cdable_vars` makes `cd NAME` go to `$NAME`, `expand_aliases` and `extdebug`
        // run other text.
        "set" | "shopt" if shell_option_changes_words(n, args) => {
            r.unattest("shell options that change how words are read")
        }
        // Persistent tool configuration that a later, allowed command obeys (red team,
        // session 5): `go env -w GOFLAGS=-toolexec=X`, `npm config set script-shell X`,
        // `gh alias set x '!CMD'`, `pip config set global.index-url URL`. Like `git config`
        // of a key that may run commands: unattestable, a command value read as one.
        "go" if args.iter().take(2).eq(["env", "-w"].iter())
            || args.iter().take(2).eq(["env", "-u"].iter()) =>
        {
            r.unattest("go env -w sets what later go commands run");
            for kv in args.iter().skip(2) {
                if let Some((k, v)) = kv.split_once('=') {
                    if lists::runs_env(k) || matches!(k, "CC" | "CXX" | "GOFLAGS") {
                        r.inner(Inner::Script(
                            v.trim_start_matches("-toolexec=")
                                .trim_start_matches("-exec=")
                                .to_string(),
                        ));
                    }
                }
            }
        }
        "npm" | "pnpm" | "yarn" | "bun" | "pip" | "pip3" | "uv" | "poetry" | "conda"
            if args.iter().any(|a| a == "config")
                && args
                    .iter()
                    .any(|a| matches!(a.as_str(), "set" | "edit" | "add" | "--set" | "--add")) =>
        {
            r.unattest("a package manager's configuration sets what later commands run or fetch")
        }
        // Red team, session 7: npm's `set` (an alias of `config set`), rustup's toolchain
        // links and overrides (the project's `cargo build` then runs another folder's
        // cargo), version managers pinned to a path (`mise use go@path:DIR`, `asdf set x
        // path:DIR`), `uv python pin PATH`.
        "gh" if args.first().is_some_and(|a| a == "alias" || a == "config")
            && args
                .get(1)
                .is_some_and(|a| matches!(a.as_str(), "set" | "import")) =>
        {
            r.unattest("gh aliases and configuration name commands");
            for v in args.iter().skip(2).filter(|a| !a.starts_with('-')).skip(1) {
                r.inner(Inner::Script(v.trim_start_matches('!').to_string()));
            }
        }
        // Filters and file names that run programs (red team, session 5): pandoc's Lua and
        // JSON filters; `|CMD` as a file name in sox and ImageMagick; gnuplot's `!CMD` and
        // `system()`.
        "pandoc"
            if args.iter().any(|a| {
                ["--filter", "--lua-filter", "-F", "-L"].iter().any(|o| {
                    a == o || a.starts_with(&format!("{o}=")) || (o.len() == 2 && a.starts_with(o))
                })
            }) =>
        {
            r.unattest("pandoc filters run programs")
        }
        "sox" | "play" | "rec" | "convert" | "magick" | "mogrify" | "identify" | "composite"
        | "montage" => {
            for a in args.iter().filter(|a| a.starts_with('|')) {
                r.unattest("a file name that runs a command");
                r.inner(Inner::Script(a[1..].to_string()));
            }
        }
        "gnuplot" => {
            for v in args.windows(2).filter(|w| w[0] == "-e").map(|w| &w[1]) {
                r.unattest("gnuplot commands run programs");
                for line in v.split([';', '\n']) {
                    if let Some(c) = line.trim_start().strip_prefix('!') {
                        r.inner(Inner::Script(c.to_string()));
                    }
                }
            }
        }
        // `jobs -x CMD ARGS` runs CMD (with job specs replaced).
        "jobs" => {
            if let Some(i) = args
                .iter()
                .position(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('x'))
            {
                r.unattest("jobs -x runs a command");
                if i + 1 < arg_words.len() {
                    r.inner(Inner::Words(crate::shell::owned_words(&arg_words[i + 1..])));
                }
            }
        }
        _ => return false,
    }
    true
}

/// `set -k`, `set -H`, `set -o NAME` / `set +o NAME` for a name outside [`SET_O_PLAIN`] (bash's
/// `keyword`, `histexpand`, `posix`, `interactive-comments`, and zsh's option names, which
/// zsh takes in `set -o`: `set -o braceccl; cat .en{v}`), and `shopt` of the names in
/// [`SHOPT_WORDS`]: options after which later words of the command mean something else
/// (red team, session 5). (`-P`/`physical`: self-protection reads both folders of a `cd`.)
fn shell_option_changes_words(n: &str, args: &[String]) -> bool {
    if n == "shopt" {
        return args.iter().any(|a| {
            SHOPT_WORDS.contains(&a.as_str())
                || a.starts_with("compat")
                || (!SET_O_PLAIN.contains(&a.as_str())
                    && args.iter().any(|f| f.starts_with('-') && f.contains('o'))
                    && !a.starts_with('-'))
        });
    }
    let mut k = 0;
    while k < args.len() {
        let a = args[k].as_str();
        if a == "--" || !(a.starts_with('-') || a.starts_with('+')) || a.len() < 2 {
            break;
        }
        if a[1..].contains('o') {
            match args.get(k + 1) {
                Some(name) if SET_O_PLAIN.contains(&name.as_str()) => k += 1,
                // `set -o` alone lists the options.
                None => {}
                Some(_) => return true,
            }
        }
        // Single letters mean different options in bash and zsh (zsh's `-T` is
        // `cdablevars`, `-J` `autocd`, `-k` `interactivecomments`; bash's `-k` is
        // `keyword`): only letters that leave later words alone in both are plain.
        if !a[1..].chars().all(|c| {
            matches!(
                c,
                'e' | 'u' | 'x' | 'v' | 'o' | 'a' | 'n' | 'C' | 'f' | 'h' | 'B' | 'E' | 'm'
            )
        }) {
            return true;
        }
        k += 1;
    }
    false
}

/// bash's `set -o` names that leave the meaning of later words alone (or make them more
/// literal: `noglob`, `braceexpand` off).
static SET_O_PLAIN: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "allexport",
    "braceexpand",
    "emacs",
    "errexit",
    "errtrace",
    "functrace",
    "hashall",
    "ignoreeof",
    "monitor",
    "noclobber",
    "noexec",
    "noglob",
    "nolog",
    "notify",
    "nounset",
    "onecmd",
    "physical",
    "pipefail",
    "privileged",
    "verbose",
    "vi",
    "xtrace",
    "history",
]);

/// `shopt` names that change what later words mean.
static SHOPT_WORDS: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "cdable_vars",
    "expand_aliases",
    "extdebug",
    "interactive_comments",
    "keyword",
    "histexpand",
    "posix",
]);

/// Interpreters given inline code, and programs given an option that runs a command whose
/// text is not looked into.
fn inline_code(base: &str, args: &[String]) -> bool {
    let inline = |flags: &[&str]| args.iter().any(|a| flags.contains(&a.as_str()));
    match base {
        "python" | "pypy" => {
            // `python -m pty` hands a terminal to a command.
            let pty = args.windows(2).any(|w| w[0] == "-m" && w[1] == "pty");
            pty || args
                .iter()
                .any(|a| a == "-c" || (short_cluster_has(a, 'c') && a.len() <= 4))
        }
        "node" | "nodejs" | "bun" | "deno" | "tsx" | "ts-node" | "ts-node-esm" | "esno"
        | "vite-node" | "jiti" | "bb" | "nbb" => node_inline(base, args),
        "perl" => args
            .iter()
            .any(|a| short_cluster_has(a, 'e') || short_cluster_has(a, 'E')),
        "ruby" | "lua" | "luajit" => args.iter().any(|a| short_cluster_has(a, 'e')),
        "php" => inline(&["-r", "--run"]),
        "awk" | "gawk" | "mawk" | "nawk" => args.iter().any(|a| {
            a.contains("system")
                || a.contains('|')
                || a.contains("getline")
                || a == "-f"
                || a.starts_with("--exec")
                || awk_prints_to_file(a)
        }),
        "sed" | "gsed" => sed_runs_commands(args),
        "rg" => args
            .iter()
            .any(|a| a.starts_with("--pre") || a.starts_with("--hostname-bin")),
        "tar" | "gtar" | "bsdtar" => args.iter().any(|a| {
            a.starts_with("--to-command")
                || a.starts_with("--use-compress-program")
                || a.starts_with("--checkpoint-action")
                || a.starts_with("--info-script")
                || a.starts_with("--new-volume-script")
                || a.starts_with("--rsh-command")
                || a.starts_with("--rmt-command")
                || a == "-I"
                || a == "-F"
                || (short_cluster_has(a, 'I') && !a.starts_with("--"))
        }),
        "make" | "gmake" => args
            .iter()
            .any(|a| a.starts_with("SHELL=") || a == "--eval" || a.starts_with("--eval=")),
        "vim" | "vi" | "nvim" | "view" | "ex" | "vimdiff" => args
            .iter()
            .any(|a| a == "-c" || a == "--cmd" || a == "-S" || a.starts_with('+')),
        "zip" => args
            .iter()
            .any(|a| a == "-TT" || a.starts_with("--unzip-command")),
        "less" | "more" => args.iter().any(|a| a.contains('!')),
        // kakoune's `-e`/`-E` run editor commands (`%sh{…}` runs a shell).
        "kak" => inline(&["-e", "-E"]),
        _ => false,
    }
}

/// JavaScript runtimes and runners (and babashka): `-e`/`-p` and their clusters (`-pe`),
/// `--eval=`/`--print=`, `eval`, and any `data:` URL (`--import=data:text/javascript,…`,
/// `--experimental-loader data:…`, `-r data:…`), which is inline code under another option.
/// babashka also evaluates a first argument that is an expression (`bb '(shell "…")'`).
fn node_inline(base: &str, args: &[String]) -> bool {
    args.iter().any(|a| {
        matches!(a.as_str(), "-e" | "--eval" | "-p" | "--print" | "eval")
            || a.starts_with("--eval=")
            || a.starts_with("--print=")
            || ((short_cluster_has(a, 'e') || short_cluster_has(a, 'p')) && a.len() <= 4)
            || a.contains("data:")
    }) || (base == "bb" && args.first().is_some_and(|a| a.starts_with('(')))
}

/// Programs whose options or arguments run commands: git, rsync, multiplexers, terminal
/// drivers, socat, nested agent sessions.
fn runs_through(n: &str, base: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    if transfers_and_services(n, args, arg_words, r) {
        return;
    }
    match base {
        "git" => {
            git::runs(args, arg_words, r);
        }
        "rsync" => {
            rsync_runs(args, arg_words, r);
        }
        "tmux" | "screen" | "byobu" | "tmate" => {
            let as_name = if n == "screen" { "screen" } else { "tmux" };
            multiplexer(as_name, args, arg_words, r);
        }
        _ if TERMINALS.contains(&base) || TERMINALS.contains(&n) => {
            terminal(n, args, arg_words, r);
        }
        "expect" => {
            // expect drives a terminal: what it types is not attestable. `-c SCRIPT` and
            // its `spawn CMD` lines are looked into.
            r.unattest("terminal driver");
            for (k, a) in args.iter().enumerate() {
                if a == "-c" {
                    if let Some(w) = arg_words.get(k + 1) {
                        for line in w.lit_value().split([';', '\n']) {
                            if let Some(cmd) = line.trim().strip_prefix("spawn ") {
                                r.inner(Inner::Script(cmd.to_string()));
                            }
                        }
                    }
                }
            }
        }
        "socat" => {
            // `EXEC:cmd` / `SYSTEM:cmd` addresses run commands (options follow a comma).
            for a in args {
                let up = a.to_ascii_uppercase();
                for kind in ["EXEC:", "SYSTEM:"] {
                    if let Some(i) = up.find(kind) {
                        r.unattest("socat runs a command");
                        let cmd = &a[i + kind.len()..];
                        let cmd = cmd.split(',').next().unwrap_or("");
                        r.inner(Inner::Script(cmd.to_string()));
                    }
                }
            }
        }
        // macOS: `open F` runs F's default application (`x.command` in Terminal, a script
        // with `-a Terminal`), Automator workflows and Shortcuts run actions (red team,
        // session 6); `xdg-open`/`gio open` likewise on Linux desktops.
        "open" | "xdg-open" | "automator" | "shortcuts" | "gnome-open" | "kde-open"
        | "kioclient" | "kioclient5" | "exo-open" | "wslview" => {
            r.unattest("opens a file with the application that runs it");
        }
        "gio" if args.first().is_some_and(|a| a == "open" || a == "launch") => {
            r.unattest("opens a file with the application that runs it");
        }
        // VS Code and its forks: an extension or an MCP server added to the editor is code
        // the editor (and its agents) run (red team, session 6: `code --add-mcp '{…}'`).
        "code" | "codium" | "code-insiders" | "code-oss" | "vscodium" | "cursor" | "windsurf"
            if args.iter().any(|a| {
                a.starts_with("--add-mcp")
                    || a.starts_with("--install-extension")
                    || a.starts_with("--uninstall-extension")
                    || a.starts_with("--update-extensions")
                    || a.starts_with("--extensions-dir")
                    || a.starts_with("--enable-proposed-api")
            }) =>
        {
            r.unattest("an editor's extensions or MCP servers change (code its agents run)");
        }
        // A nested agent session runs whatever its own rules allow (this session's rules do
        // not reach it), and its subcommands change agents' configuration: any use but a
        // version or help query (red team, session 6: `q chat --trust-all-tools`, `pi -p`,
        // `kimi --yolo`, `claude mcp add` were missed by a list of prompt options).
        _ if lists::AGENT_CLIS.contains(&n)
            && !matches!(
                args.iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .as_slice(),
                ["--version"] | ["-v"] | ["-V"] | ["--help"] | ["-h"] | ["help"] | ["version"]
            ) =>
        {
            r.unattest(
                "a coding agent's command line (a nested session or a change to its configuration)",
            );
        }
        _ => {}
    }
}

/// Wrappers that run the command after their own options (`strace CMD`, `npx CMD`,
/// `docker run … CMD`) and programs with an option whose value is code or a command.
fn wrapper(n: &str, base: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    match base {
        "strace" | "ltrace" | "valgrind" | "perf" | "toybox" | "gtimeout" | "fakeroot"
        | "fakechroot" | "proot" | "torsocks" | "torify" | "proxychains" | "proxychains4"
        | "pkexec" | "numactl" | "prlimit" | "cpulimit" | "faketime" | "eatmydata" | "chronic"
        | "ifne" | "setpriv" | "capsh" | "xvfb-run" | "dtach" | "abduco" | "entr" | "hyperfine"
        | "start-stop-daemon" | "daemonize" | "npx" | "bunx" | "pnpx" | "uvx" | "catchsegv"
        | "vipe" | "sem" | "tsp" | "nq" | "lckdo" | "run-one" | "systemd-inhibit" | "schroot"
        | "firejail" | "bwrap" | "sandbox-exec" | "cgexec" | "ip" | "gosu" | "su-exec"
        | "chpst" | "softlimit" | "setuidgid" | "envdir" | "runcon" | "torsocks5" | "watchexec"
        | "reflex" | "nodemon" | "asciinema" | "ttyrec" | "termrec" | "mosh" | "sshpass"
        | "with-contenv" | "s6-setuidgid" | "doppler" | "op" | "aws-vault" | "dotenv"
        | "env-cmd" | "cross-env" | "concurrently" | "npm-run-all" | "run-p" | "run-s" => {
            suffix_runner(args, arg_words, r);
        }
        "npm" | "pnpm" | "yarn"
            if args
                .first()
                .is_some_and(|a| matches!(a.as_str(), "exec" | "x" | "dlx")) =>
        {
            suffix_runner(&args[1..], &arg_words[1..], r);
        }
        "uv" | "poetry" | "pdm" | "hatch" | "pipenv" | "rye" | "conda" | "mamba" | "micromamba"
        | "pixi"
            if args.first().is_some_and(|a| a == "run") =>
        {
            suffix_runner(&args[1..], &arg_words[1..], r);
        }
        // `uv tool run CMD` is `uvx CMD`; `bun x CMD` is `bunx CMD`, `bun exec` runs a script.
        "uv" if args.len() > 1 && args[0] == "tool" && args[1] == "run" => {
            suffix_runner(&args[2..], &arg_words[2..], r);
        }
        "bun" if args.first().is_some_and(|a| a == "x" || a == "exec") => {
            suffix_runner(&args[1..], &arg_words[1..], r);
        }
        "bundle" | "mise" | "rtx" | "asdf" | "direnv" | "devbox" | "flox"
            if args
                .first()
                .is_some_and(|a| matches!(a.as_str(), "exec" | "run" | "x")) =>
        {
            suffix_runner(&args[1..], &arg_words[1..], r);
        }
        "docker" | "podman" | "nerdctl" | "kubectl" | "oc" | "lxc" | "incus" | "vagrant"
            if args.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "run" | "exec" | "debug" | "ssh" | "create" | "start"
                )
            }) =>
        {
            suffix_runner(args, arg_words, r);
        }
        "nix-shell" | "nix" | "guix" => {
            for v in option_values(args, arg_words, &["--run", "--command", "-c"]) {
                r.unattest("command runner");
                r.inner(Inner::Script(v));
            }
            if n == "nix"
                && args
                    .iter()
                    .any(|a| matches!(a.as_str(), "develop" | "shell" | "run"))
            {
                suffix_runner(args, arg_words, r);
            }
        }
        "gdb" | "lldb" | "emacs" | "emacsclient" | "dc" | "man" | "osascript" | "sort" | "rr" => {
            // Options whose value is code or a command (`gdb -ex 'shell …'`, `emacs --eval`,
            // `dc -e '!…'`, `man -P CMD`, `sort --compress-program=CMD`).
            let opts: &[&str] = match n {
                "gdb" | "rr" => &["-ex", "-iex", "--eval-command", "-x", "--command"],
                "lldb" => &["-o", "--one-line", "-O", "-s", "--source"],
                "emacs" | "emacsclient" => &["--eval", "-eval", "--execute", "-l", "--load"],
                "dc" => &["-e", "--expression", "-f", "--file"],
                "man" => &["-P", "--pager", "-H", "--html"],
                "osascript" => &["-e"],
                _ => &["--compress-program"],
            };
            let vals = option_values(args, arg_words, opts);
            for v in &vals {
                r.unattest("an option that runs code or a command");
                let cmd = v
                    .trim_start_matches("shell ")
                    .trim_start_matches("platform shell ")
                    .trim_start_matches('!');
                r.inner(Inner::Script(cmd.to_string()));
            }
            if matches!(n, "gdb" | "lldb" | "rr")
                && (args.iter().any(|a| a == "--args" || a == "--") || !vals.is_empty())
            {
                suffix_runner(args, arg_words, r);
            }
        }
        _ => {}
    }
}

fn runner_inner(n: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    // `-c CMD` / `--command=CMD` / `--command CMD`.
    for (k, a) in args.iter().enumerate() {
        if a == "-c" || a == "--command" {
            if let Some(w) = arg_words.get(k + 1) {
                r.inner(Inner::Script(w.lit_value()));
            }
            return;
        }
        if let Some(s) = a.strip_prefix("--command=") {
            r.inner(Inner::Script(s.to_string()));
            return;
        }
    }
    // Otherwise the words after the runner's own options (and target) are the command.
    let with_arg: &[&str] = match n {
        "ssh" => &[
            "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o",
            "-p", "-Q", "-R", "-S", "-W", "-w",
        ],
        "watch" => &["-n", "--interval", "-q", "--equexit"],
        "flock" => &["-w", "--timeout", "-E", "--conflict-exit-code"],
        "runuser" | "su" => &["-u", "--user", "-g", "--group", "-G", "-s", "--shell"],
        "parallel" => &[
            "-j",
            "--jobs",
            "-S",
            "--sshlogin",
            "--halt",
            "--delay",
            "--results",
        ],
        _ => &[],
    };
    let mut k = 0;
    while k < args.len() {
        let a = &args[k];
        if a == "--" {
            k += 1;
            break;
        }
        if a.starts_with('-') {
            k += if with_arg.contains(&a.as_str()) { 2 } else { 1 };
            continue;
        }
        break;
    }
    // ssh HOST, flock FILE, su USER, chroot DIR, sg GROUP: one target before the command.
    if matches!(n, "ssh" | "flock" | "su" | "chroot" | "sg") {
        k += 1;
    }
    if k >= args.len() {
        return;
    }
    match n {
        // These join their arguments and hand them to a shell.
        "ssh" | "watch" | "su" | "sg" | "at" | "batch" => r.inner(Inner::Script(
            arg_words[k..]
                .iter()
                .map(|w| w.lit_value())
                .collect::<Vec<_>>()
                .join(" "),
        )),
        "parallel" => {
            let end = args[k..]
                .iter()
                .position(|a| a.starts_with(":::"))
                .map(|e| k + e)
                .unwrap_or(args.len());
            r.inner(Inner::Script(
                arg_words[k..end]
                    .iter()
                    .map(|w| w.lit_value())
                    .collect::<Vec<_>>()
                    .join(" "),
            ))
        }
        _ => r.inner(Inner::Words(crate::shell::owned_words(&arg_words[k..]))),
    }
}

fn sed_runs_commands(args: &[String]) -> bool {
    let mut scripts: Vec<&str> = Vec::new();
    let mut k = 0;
    let mut saw_script_opt = false;
    while k < args.len() {
        let a = args[k].as_str();
        if a == "-e" || a == "--expression" {
            if let Some(s) = args.get(k + 1) {
                scripts.push(s);
            }
            saw_script_opt = true;
            k += 2;
            continue;
        }
        if let Some(s) = a.strip_prefix("--expression=") {
            scripts.push(s);
            saw_script_opt = true;
        } else if a == "-f" || a.starts_with("--file") {
            // A script file polc cannot read.
            return true;
        } else if !a.starts_with('-') && !saw_script_opt {
            scripts.push(a);
            saw_script_opt = true;
        }
        k += 1;
    }
    scripts.iter().any(|s| sed_script_has_e(s))
}

/// Does a sed script use the `e` command or the `e` flag of `s`?
fn sed_script_has_e(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // Skip blanks, separators and addresses (digits, $, /re/, commas).
        while i < b.len()
            && matches!(
                b[i],
                b' ' | b'\t' | b'\n' | b';' | b'{' | b'}' | b'!' | b',' | b'$' | b'0'..=b'9'
            )
        {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        match b[i] {
            b'/' => {
                i += 1;
                while i < b.len() && b[i] != b'/' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            // `e` runs a command; `w`/`W` write and `r`/`R` read a file named in the script.
            b'e' | b'w' | b'W' | b'r' | b'R' => return true,
            b's' | b'y' if i + 1 < b.len() => {
                let is_s = b[i] == b's';
                let d = b[i + 1];
                i += 2;
                for _ in 0..2 {
                    while i < b.len() && b[i] != d {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                let fs = i;
                while i < b.len() && !matches!(b[i], b';' | b'\n' | b'}') {
                    i += 1;
                }
                let flags = &b[fs.min(b.len())..i.min(b.len())];
                if is_s && (flags.contains(&b'e') || flags.contains(&b'w')) {
                    return true;
                }
            }
            _ => {
                // Another command: skip to the next separator.
                while i < b.len() && !matches!(b[i], b';' | b'\n') {
                    i += 1;
                }
            }
        }
    }
    false
}

/// `rsync -e CMD`, `--rsh=CMD`, `--rsync-path=CMD`: the remote shell and remote program
/// are commands.
fn rsync_runs(args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    let mut k = 0;
    while k < args.len() {
        let a = args[k].as_str();
        let cmd = if a == "-e" || a == "--rsh" || a == "--rsync-path" {
            k += 1;
            arg_words.get(k).map(|w| w.lit_value())
        } else if let Some(v) = a
            .strip_prefix("--rsh=")
            .or_else(|| a.strip_prefix("--rsync-path="))
        {
            Some(v.to_string())
        } else if a.starts_with("-e") && !a.starts_with("--") && a.len() > 2 {
            Some(a[2..].to_string())
        } else if short_cluster_has(a, 'e') && !a.starts_with("--") {
            // `-ae ssh`: `e` ends a cluster and takes the next word.
            k += 1;
            arg_words.get(k).map(|w| w.lit_value())
        } else {
            None
        };
        if let Some(c) = cmd {
            r.unattest("rsync runs a remote shell command");
            r.inner(Inner::Script(c));
        }
        k += 1;
    }
}

/// tmux and screen: commands given to sessions, windows and panes run in a shell, and
/// `send-keys`/`stuff` type text into one. Both are runners; their text is looked into.
fn multiplexer(n: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    r.unattest("terminal multiplexer");
    // Options of tmux's commands that take a value (the command follows them).
    static WITH_ARG: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
        "-t", "-s", "-n", "-c", "-F", "-x", "-y", "-e", "-l", "-p", "-S", "-L", "-f", "-T", "-w",
        "-h", "-d", "-X", "-r", "-R", "-N",
    ]);
    let starts_cmd = |a: &str| {
        matches!(
            a,
            "new-session"
                | "new"
                | "new-window"
                | "neww"
                | "split-window"
                | "splitw"
                | "respawn-pane"
                | "respawnp"
                | "respawn-window"
                | "respawnw"
                | "run-shell"
                | "run"
                | "display-popup"
                | "popup"
                | "pipe-pane"
                | "pipep"
                | "if-shell"
                | "if"
        )
    };
    let keys = |a: &str| match n {
        "tmux" => matches!(a, "send-keys" | "send"),
        _ => a == "stuff",
    };
    let mut k = 0;
    while k < args.len() {
        let a = args[k].as_str();
        if n == "tmux" && starts_cmd(a) {
            // Skip this command's options; the rest up to `;` is the shell command.
            let mut j = k + 1;
            while j < args.len() && args[j].starts_with('-') && args[j] != "--" {
                let flag = args[j].as_str();
                j += if WITH_ARG.contains(&flag) && !matches!(flag, "-d" | "-h") {
                    2
                } else {
                    1
                };
            }
            if args.get(j).map(String::as_str) == Some("--") {
                j += 1;
            }
            let end = args[j.min(args.len())..]
                .iter()
                .position(|x| x == ";" || x == "\\;")
                .map(|e| j + e)
                .unwrap_or(args.len());
            if j < end {
                r.inner(Inner::Script(join_words(&arg_words[j..end])));
            }
            k = end;
        } else if keys(a) {
            // Typed text: keys such as `Enter` and `C-m` end a line.
            let mut j = k + 1;
            while j < args.len() && args[j].starts_with('-') && args[j].len() == 2 {
                j += if args[j] == "-t" { 2 } else { 1 };
            }
            let mut text = String::new();
            for w in &arg_words[j.min(args.len())..] {
                let v = w.lit_value();
                match v.as_str() {
                    "Enter" | "C-m" | "KPEnter" | "C-j" | "^M" => text.push('\n'),
                    _ => {
                        text.push_str(&v);
                        text.push(' ');
                    }
                }
            }
            r.inner(Inner::Script(text));
            k = args.len();
        } else if n == "screen" && !a.starts_with('-') {
            // `screen [opts] CMD ARGS…`
            r.inner(Inner::Words(crate::shell::owned_words(&arg_words[k..])));
            k = args.len();
        } else {
            // screen's options that take a value (`-S name`, `-dmS name`).
            let takes = matches!(a, "-t" | "-c" | "-T" | "-e" | "-p" | "-h" | "-s")
                || (a.starts_with('-') && !a.starts_with("--") && a.ends_with('S'));
            if n == "screen" && takes {
                k += 1;
            }
            k += 1;
        }
    }
}

pub(super) fn join_words(ws: &[WordRef<'_>]) -> String {
    ws.iter()
        .map(|w| w.lit_value())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A runner whose command starts at some word after its own options, which polc does not
/// model one by one (`strace -o log CMD`, `npx pkg`, `docker run IMG CMD`): every suffix that
/// starts with a non-option word is walked as a command, so a deny anywhere in it denies.
pub(super) fn suffix_runner(args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    r.unattest("command runner");
    let n = args.len().min(arg_words.len());
    for s in super::command_suffixes(arg_words, n, |k| args[k].starts_with('-')) {
        r.inner(Inner::Words(crate::shell::owned_words(s)));
    }
}

/// Values of `-o V`, `-oV`, `--opt V` and `--opt=V` for the options named.
pub(super) fn option_values(
    args: &[String],
    arg_words: &[WordRef<'_>],
    opts: &[&str],
) -> Vec<String> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < args.len() {
        let a = args[k].as_str();
        for o in opts {
            if a == *o {
                if let Some(w) = arg_words.get(k + 1) {
                    out.push(w.lit_value());
                }
            } else if let Some(v) = a.strip_prefix(&format!("{o}=")) {
                out.push(v.to_string());
            } else if o.len() == 2 && a.starts_with(o) && a.len() > 2 && !a.starts_with("--") {
                out.push(a[2..].to_string());
            }
        }
        k += 1;
    }
    out
}

/// Terminal emulators, multiplexers other than tmux/screen, terminal servers, pty wrappers
/// and keystroke injectors: what they run or type is a command polc cannot attest. Every
/// suffix of their arguments is walked as a command, and typed text as shell input.
static TERMINALS: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "zellij",
    "wezterm",
    "wezterm-gui",
    "kitty",
    "kitten",
    "dvtm",
    "ttyd",
    "gotty",
    "empty",
    "faketty",
    "pty",
    "xdotool",
    "ydotool",
    "wtype",
    "dotool",
    "xterm",
    "uxterm",
    "lxterm",
    "x-terminal-emulator",
    "foot",
    "footclient",
    "st",
    "urxvt",
    "urxvtc",
    "rxvt",
    "rxvt-unicode",
    "terminator",
    "tilix",
    "gnome-terminal",
    "gnome-terminal.wrapper",
    "konsole",
    "alacritty",
    "ptyxis",
    "kgx",
    "xfce4-terminal",
    "lxterminal",
    "mate-terminal",
    "qterminal",
    "terminology",
    "sakura",
    "guake",
    "tilda",
    "cool-retro-term",
    "ghostty",
    "contour",
    "rio",
    "mlterm",
    "kterm",
    "aterm",
    "eterm",
    "zutty",
    "termite",
    "yakuake",
    "weston-terminal",
    "xdg-terminal-exec",
    "i3-sensible-terminal",
    "sensible-terminal",
    "rlwrap",
    "ttyexec",
    "unbuffer",
    "conspy",
    "ttyecho",
    "writevt",
    "xte",
    "xvkbd",
    "kdotool",
    "dotoolc",
    "cliclick",
    "autokey-run",
    "ttysnoop",
    "reptyr",
    "retty",
    "injcode",
    "tio",
    "minicom",
    "picocom",
    "cu",
]);

fn terminal(n: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    r.unattest("terminal driver runs or types commands");
    // Typed or sent text is shell input (`\r`/`\n` escapes end a line; `zellij action
    // write 112 111 …` writes bytes).
    let decode = |t: &str| {
        t.replace("\\r", "\n")
            .replace("\\n", "\n")
            .replace("\\x0d", "\n")
    };
    let mut text = String::new();
    let typing = args.iter().any(|a| {
        matches!(
            a.as_str(),
            "type" | "send-text" | "write-chars" | "write" | "send-key" | "send-keys" | "key"
        )
    });
    if typing || matches!(n, "wtype" | "dotool") {
        let bytes_mode = args.iter().any(|a| a == "write") && n == "zellij";
        for a in args.iter().filter(|a| !a.starts_with('-')) {
            if bytes_mode {
                if let Ok(b) = a.parse::<u8>() {
                    text.push(if b == 13 { '\n' } else { b as char });
                    continue;
                }
            }
            text.push_str(&decode(a));
            text.push(' ');
        }
        r.inner(Inner::Script(text));
    }
    // `-e CMD…`, `-x CMD…`, `--command CMD`, `-- CMD…`: the rest is the command, as words
    // and as shell text.
    for (k, a) in args.iter().enumerate() {
        if matches!(
            a.as_str(),
            "-e" | "-x" | "--" | "--command" | "-c" | "--exec" | "--execute"
        ) && k + 1 < args.len()
        {
            r.inner(Inner::Script(join_words(&arg_words[k + 1..])));
        }
    }
    suffix_runner(args, arg_words, r);
}

/// `awk '{print > "f"}'`, `printf … >> f`: awk writes a file named in its program.
fn awk_prints_to_file(prog: &str) -> bool {
    let mut rest = prog;
    while let Some(i) = rest.find("print") {
        let after = &rest[i + 5..];
        let end = after.find([';', '}', '\n']).unwrap_or(after.len());
        if after[..end].contains('>') {
            return true;
        }
        rest = after;
    }
    false
}

/// Fetchers and transfer clients driven by files or variables, services started from unit
/// files, and file-watching runners (see [`classify`]).
fn transfers_and_services(n: &str, args: &[String], words: &[WordRef<'_>], r: &mut Runs) -> bool {
    match n {
        // A config file (`-K`, also inside a cluster: `-sSK f`), `-w '%output{f}'` and
        // `--expand-*` values name outputs polc cannot read.
        "curl" | "curlie"
            if args.iter().any(|a| {
                a == "-K"
                    || a.starts_with("--config")
                    || a.starts_with("--expand-")
                    || a.contains("%output{")
                    || (a.starts_with('-')
                        && !a.starts_with("--")
                        && a[1..].starts_with(|c: char| c.is_ascii_alphabetic())
                        && a[1..].contains('K'))
            }) =>
        {
            r.unattest("a fetcher driven by a config or variables polc does not read");
        }
        "wget" | "wget2" => {
            // `-e output_document=F`, `--config F`: wgetrc commands decide what is written.
            let mut k = 0;
            while k < args.len() {
                let a = args[k].as_str();
                let cmd = if a == "-e" || a == "--execute" {
                    k += 1;
                    args.get(k).cloned()
                } else if let Some(v) = a.strip_prefix("--execute=") {
                    Some(v.to_string())
                } else if a.starts_with("-e") && a.len() > 2 && !a.starts_with("--") {
                    Some(a[2..].to_string())
                } else {
                    None
                };
                if let Some(c) = cmd {
                    let key = c
                        .split('=')
                        .next()
                        .unwrap_or("")
                        .trim()
                        .to_ascii_lowercase();
                    if !(key.ends_with("_proxy")
                        || matches!(
                            key.as_str(),
                            "robots" | "use_proxy" | "tries" | "timeout" | "wait"
                        ))
                    {
                        r.unattest("a fetcher driven by a config or variables polc does not read");
                    }
                }
                if a.starts_with("--config") {
                    r.unattest("a fetcher driven by a config or variables polc does not read");
                }
                k += 1;
            }
        }
        "aria2c" => {
            // `--on-download-complete=CMD` and friends run a command; `--conf-path` and an
            // input file (`-i`, with per-download `dir=`/`out=`) decide what is written.
            for (k, a) in args.iter().enumerate() {
                if a.starts_with("--on-") {
                    r.unattest("aria2c runs a command on an event");
                    match a.split_once('=') {
                        Some((_, v)) => r.inner(Inner::Script(v.to_string())),
                        None => {
                            if let Some(w) = words.get(k + 1) {
                                r.inner(Inner::Words(vec![w.as_ref().clone()]));
                            }
                        }
                    }
                }
                if a.starts_with("--conf-path")
                    || a.starts_with("--input-file")
                    || (a.starts_with("-i") && !a.starts_with("--"))
                {
                    r.unattest("a fetcher driven by a config or variables polc does not read");
                }
            }
        }
        "lftp" | "smbclient" | "ftp" | "tftp" | "ncftp" | "sftp"
            if args.iter().any(|a| {
                matches!(a.as_str(), "-c" | "-e" | "-f" | "--command") || a.starts_with("-b")
            }) =>
        {
            // Their command scripts get and put any file and run `!CMD` in a shell.
            r.unattest("a file-transfer client given a command script");
            for v in option_values(args, words, &["-c", "-e", "--command"]) {
                for piece in v.split([';', '\n']) {
                    if let Some(cmd) = piece.trim().strip_prefix('!') {
                        r.inner(Inner::Script(cmd.to_string()));
                    }
                }
            }
        }
        _ => return services(n, args, words, r),
    }
    true
}

/// Programs driven by configuration polc does not read, and `cmake`'s runners.
fn config_runners(n: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    match n {
        // Programs driven by a configuration file or folder polc does not read: what they
        // write, delete or run is not on the command line (`systemd-tmpfiles` creates and
        // removes any path, `logrotate` runs `postrotate` scripts, `run-parts` runs a folder).
        "systemd-tmpfiles" | "logrotate" | "run-parts" | "anacron" | "incrontab" | "atrun"
        | "cron" | "crond" | "systemd-sysusers" | "systemd-firstboot" | "tmpreaper"
        | "tmpwatch" | "systemd-cat" | "startpar" | "supervisord" | "supervisorctl" | "pm2"
        | "foreman" | "honcho" | "overmind" | "hivemind" | "incrond" | "fcron" | "fcrontab" => {
            r.unattest("a program driven by configuration polc does not read");
            suffix_runner(args, arg_words, r);
        }
        "cmake" => {
            // `cmake -E chdir DIR CMD`, `cmake -E env … CMD`, `cmake -E time CMD`, `-P script`.
            if let Some(i) = args.iter().position(|a| a == "-E") {
                if matches!(
                    args.get(i + 1).map(String::as_str),
                    Some("chdir" | "env" | "time")
                ) {
                    suffix_runner(&args[i + 2..], &arg_words[i + 2..], r);
                }
            }
            if args.iter().any(|a| a == "-P") {
                r.unattest("cmake -P runs a script");
            }
        }
        _ => {}
    }
}

/// Services started from unit files, folders trusted to run commands, file watchers.
fn services(n: &str, args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) -> bool {
    match n {
        "systemctl" | "launchctl" | "service" | "rc-service" | "initctl" | "sv" | "direnv"
        | "mise" | "rtx"
            if args.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "start"
                        | "restart"
                        | "reload"
                        | "try-restart"
                        | "reload-or-restart"
                        | "enable"
                        | "reenable"
                        | "link"
                        | "edit"
                        | "isolate"
                        | "daemon-reload"
                        | "daemon-reexec"
                        | "set-environment"
                        | "import-environment"
                        | "preset"
                        | "load"
                        | "bootstrap"
                        | "submit"
                        | "kickstart"
                        | "up"
                        | "once"
                        | "allow"
                        | "trust"
                )
            }) =>
        {
            // Starting or enabling a unit runs the command its file names; `direnv allow` and
            // `mise trust` let a folder's file run commands in later shells.
            r.unattest("runs or trusts commands from a file polc does not read");
        }
        "watchman" | "watchman-make" | "chokidar" | "onchange" | "when-changed" => {
            suffix_runner(args, arg_words, r);
        }
        _ => return false,
    }
    true
}
