//! Readings of one segment (SPEC §4.3–§4.4): the forms deny/ask rules are matched against,
//! the one literal form allow rules are matched against, what makes the segment
//! unattestable, and the commands it runs that must be looked into.

use super::lists::{self, WrapperSpec};
use super::{Segment, Word, MAX_BRACE_WORDS, MAX_READINGS};
use crate::pattern::WILD;

/// In [`SegmentReadings::stages`]: bytes from a parameter or a substitution's output.
pub const UNKNOWN: u8 = 0xFD;

/// A command found inside a segment, to be analysed as segments of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inner {
    /// Shell text (`bash -c SCRIPT`, `eval ARGS`, `su -c CMD`, `ssh HOST CMD…`).
    Script(String),
    /// Words that are already one command (`find … -exec CMD… ;`).
    Words(Vec<Word>),
}

#[derive(Clone, Debug, Default)]
pub struct SegmentReadings {
    /// Deny/ask readings: words joined by spaces, unknown bytes as WILD. Deduplicated.
    pub deny: Vec<Vec<u8>>,
    /// The literal reading, minus Claude Code's own strips; what allow rules see.
    pub allow: Vec<u8>,
    /// Reasons this segment cannot be attested (lexer's and every reading's).
    pub unattestable: Vec<&'static str>,
    pub inner: Vec<Inner>,
    /// The command at every peeling step (program and arguments, dequoted; WILD for glob
    /// characters, UNKNOWN for expansions): what file and URL checks look at
    /// (`sudo cat x` → `cat x`).
    pub stages: Vec<Vec<Vec<u8>>>,
}

impl SegmentReadings {
    fn unattest(&mut self, why: &'static str) {
        if !self.unattestable.contains(&why) {
            self.unattestable.push(why);
        }
    }
    fn push(&mut self, r: Vec<u8>) {
        if self.deny.contains(&r) {
            return;
        }
        if self.deny.len() >= MAX_READINGS {
            self.unattest("more than 64 readings");
            return;
        }
        self.deny.push(r);
    }
    fn inner(&mut self, i: Inner) {
        if !self.inner.contains(&i) {
            self.inner.push(i);
        }
    }
}

fn join(values: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (k, v) in values.iter().enumerate() {
        if k > 0 {
            out.push(b' ');
        }
        out.extend_from_slice(v);
    }
    out
}

fn text(v: &[u8]) -> String {
    String::from_utf8_lossy(v).into_owned()
}

/// Basename, ASCII-lowercased: `/usr/bin/RM` → `rm`.
pub fn program_name(v: &[u8]) -> String {
    let base = match v.iter().rposition(|&b| b == b'/') {
        Some(i) => &v[i + 1..],
        None => v,
    };
    text(base).to_ascii_lowercase()
}

pub fn analyse_segment(seg: &Segment) -> SegmentReadings {
    let mut r = SegmentReadings::default();
    for u in &seg.unattestable {
        r.unattest(u);
    }
    for w in &seg.words {
        for u in &w.unattestable {
            r.unattest(u);
        }
    }
    for red in &seg.redirects {
        if let Some(t) = &red.target {
            for u in &t.unattestable {
                r.unattest(u);
            }
        }
    }
    r.allow = allow_reading(&seg.words);
    if seg.words.is_empty() {
        return r;
    }
    // The raw reading: words as written.
    r.push(
        seg.words
            .iter()
            .map(|w| w.raw.as_str())
            .collect::<Vec<_>>()
            .join(" ")
            .into_bytes(),
    );
    // Dequoted values per word, brace-expanded; combinations bounded.
    // Dequoted values; a word with brace expansion becomes several words, as in bash
    // (`{rm,-rf,/}` runs `rm -rf /`), at most 256 in all.
    let mut budget = MAX_BRACE_WORDS;
    let mut words: Vec<Word> = Vec::with_capacity(seg.words.len());
    let mut values: Vec<Vec<u8>> = Vec::with_capacity(seg.words.len());
    for w in &seg.words {
        match w.deny_values(&mut budget) {
            Some(v) if v.len() == 1 => {
                words.push(w.clone());
                values.extend(v);
            }
            Some(v) => {
                for x in v {
                    words.push(Word {
                        expanded: true,
                        ..Word::unknown(w.raw.clone())
                    });
                    values.push(x);
                }
            }
            None => {
                r.unattest("brace expansion over 256 words");
                words.push(Word::unknown(w.raw.clone()));
                values.push(vec![WILD]);
            }
        }
    }
    peel(words, values, &mut r);
    if r.unattestable
        .contains(&"shell runs a script file or stdin")
    {
        // `bash <<< 'rm -rf /'`: the here-string is the script. (Heredoc bodies are read
        // as commands by the lexer already.)
        for red in &seg.redirects {
            if red.op == "<<<" {
                if let Some(t) = &red.target {
                    r.inner(Inner::Script(t.lit_value()));
                }
            }
        }
    }
    r
}

/// Remove, one at a time, what deny/ask rules must see through, recording a reading at
/// every step and checking every step's program for unattestable constructs.
fn peel(mut words: Vec<Word>, mut values: Vec<Vec<u8>>, r: &mut SegmentReadings) {
    let mut steps = 0;
    loop {
        steps += 1;
        if values.is_empty() || steps > 64 {
            return;
        }
        r.push(join(&values));
        if r.stages.len() < 16 {
            // In stages, bytes from a parameter or substitution (which may hold `/` and `..`)
            // are UNKNOWN; WILD is left for glob characters (which stay in one folder).
            let stage = values
                .iter()
                .zip(&words)
                .map(|(v, w)| {
                    if w.parts.iter().any(|p| matches!(p, super::Part::Unknown(_))) {
                        v.iter()
                            .map(|&b| if b == WILD { UNKNOWN } else { b })
                            .collect()
                    } else {
                        v.clone()
                    }
                })
                .collect();
            r.stages.push(stage);
        }
        let prog = values[0].clone();
        let name = program_name(&prog);
        let mut folded = values.clone();
        folded[0] = name.clone().into_bytes();
        r.push(join(&folded));

        let w0 = &words[0];
        // Leading env assignment (`FOO=1 cmd`): needs an unquoted `NAME=` start.
        if let Some(super::Part::Lit(t)) = w0.parts.first() {
            if lists::assignment_name(t).is_some() {
                words.remove(0);
                values.remove(0);
                continue;
            }
        }
        if prog.contains(&WILD) {
            r.unattest("program name is not a literal word");
            return;
        }
        if w0.expanded {
            // What runs is the expansion's first word, not what an allow rule reads.
            r.unattest("brace expansion in command position");
        }
        if let Some(u) = w0.unquoted() {
            if lists::LEADING_RESERVED.contains(&u) && u != "time" {
                words.remove(0);
                values.remove(0);
                continue;
            }
        }
        let args: Vec<String> = values[1..].iter().map(|v| text(v)).collect();
        classify(&name, &args, &words[1..], r);
        if name == "git" {
            // `git -C dir push --force` is `git push --force` to a deny rule: git's global
            // options are read through (a reading without them; git stays the program).
            let k = git_subcommand_at(&args) + 1;
            if k > 1 && k < values.len() {
                let mut v = vec![name.clone().into_bytes()];
                v.extend_from_slice(&values[k..]);
                r.push(join(&v));
            }
        }
        let Some(spec) = lists::wrapper(&name) else {
            return;
        };
        match peel_wrapper(spec, &values, r) {
            Some(k) => {
                words.drain(..k);
                values.drain(..k);
                if name == "xargs" {
                    // xargs appends words read from stdin.
                    values.push(vec![WILD]);
                    words.push(Word::unknown("…".into()));
                }
            }
            None => return,
        }
    }
}

/// Index of the command after a wrapper and its options, or None when no command follows
/// (or the options make it a query, not a wrapper). Unknown options are unattestable.
fn peel_wrapper(spec: &WrapperSpec, values: &[Vec<u8>], r: &mut SegmentReadings) -> Option<usize> {
    let mut k = 1;
    let mut positionals = spec.positionals;
    while k < values.len() {
        let v = &values[k];
        if v.contains(&WILD) {
            r.unattest("wrapper option polc cannot read");
            return None;
        }
        let a = text(v);
        if spec.stop.contains(&a.as_str()) {
            return None;
        }
        if spec.shell.contains(&a.as_str()) {
            r.unattest("wrapper runs its command through a shell");
        }
        if a == "--" {
            k += 1;
            break;
        }
        if spec.name == "env"
            && (a == "-S"
                || a.starts_with("--split-string")
                || (a.starts_with("-S") && a.len() > 2))
        {
            r.unattest("env -S splits a string into a command");
            let s = if a == "-S" || a == "--split-string" {
                values.get(k + 1).map(|v| text(v)).unwrap_or_default()
            } else if let Some(rest) = a.strip_prefix("--split-string=") {
                rest.to_string()
            } else {
                a[2..].to_string()
            };
            let rest: Vec<String> = values[(k + 2).min(values.len())..]
                .iter()
                .map(|v| text(v))
                .collect();
            let mut script = s;
            for x in rest {
                script.push(' ');
                script.push_str(&x);
            }
            r.inner(Inner::Script(script));
            return None;
        }
        if spec.assignments && lists::assignment_name(&a).is_some() {
            k += 1;
            continue;
        }
        if a.starts_with('-') && a.len() > 1 && positionals == spec.positionals {
            if spec.flags.contains(&a.as_str()) {
                k += 1;
                continue;
            }
            if spec.with_arg.contains(&a.as_str()) {
                k += 2;
                continue;
            }
            if let Some((opt, _)) = a.split_once('=') {
                if opt.starts_with("--")
                    && (spec.with_arg.contains(&opt) || spec.flags.contains(&opt))
                {
                    k += 1;
                    continue;
                }
            }
            if spec.numeric && a[1..].bytes().all(|b| b.is_ascii_digit()) {
                k += 1;
                continue;
            }
            if !a.starts_with("--") && cluster_ok(spec, &a) {
                // Value attached or in the next word.
                k += if cluster_takes_next(spec, &a) { 2 } else { 1 };
                continue;
            }
            r.unattest("unknown option of a wrapper");
            return None;
        }
        if positionals > 0 {
            positionals -= 1;
            k += 1;
            continue;
        }
        break;
    }
    if k >= values.len() {
        return None;
    }
    Some(k)
}

/// `-Eu` / `-uroot` / `-oL`: every letter a flag, until one that takes an argument.
fn cluster_ok(spec: &WrapperSpec, a: &str) -> bool {
    for (i, c) in a[1..].char_indices() {
        let opt = format!("-{c}");
        if spec.stop.contains(&opt.as_str()) {
            return false;
        }
        if spec.with_arg.contains(&opt.as_str()) {
            return true;
        }
        if !spec.flags.contains(&opt.as_str()) {
            let _ = i;
            return false;
        }
    }
    true
}

fn cluster_takes_next(spec: &WrapperSpec, a: &str) -> bool {
    let b = a.as_bytes();
    for (i, c) in a[1..].char_indices() {
        let opt = format!("-{c}");
        if spec.with_arg.contains(&opt.as_str()) {
            // The argument is attached unless this letter ends the cluster.
            return 1 + i + c.len_utf8() == b.len();
        }
    }
    false
}

fn short_cluster_has(a: &str, letter: char) -> bool {
    a.starts_with('-') && !a.starts_with("--") && a[1..].contains(letter)
}

/// Unattestable programs (SPEC §4.4, Appendix A) and the commands they run.
fn classify(name: &str, args: &[String], arg_words: &[Word], r: &mut SegmentReadings) {
    let n = name;
    let shell = lists::SHELLS.contains(&n);
    if shell {
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
            if let Some(w) = arg_words.first() {
                r.inner(Inner::Script(w.lit_value()));
            }
        }
        "alias" | "enable" | "bind" | "complete" | "compgen" | "fc" | "coproc" => {
            r.unattest("builtin that defines or runs commands")
        }
        "let" | "mapfile" | "readarray" | "[[" | "((" => {
            r.unattest("builtin that evaluates arithmetic or code")
        }
        "printf" if args.iter().any(|a| a == "-v" || a.starts_with("-v")) => {
            r.unattest("printf -v evaluates array subscripts")
        }
        "test" | "[" if args.iter().any(|a| a == "-v" || a == "-R") => {
            r.unattest("test -v evaluates array subscripts")
        }
        "declare" | "typeset" | "local" | "readonly" | "export"
            if args.iter().any(|a| short_cluster_has(a, 'i'))
                || arg_words.iter().any(|w| w.raw.contains('[')) =>
        {
            r.unattest("declaration evaluating arithmetic or subscripts")
        }
        "read" if args.iter().any(|a| short_cluster_has(a, 'a')) => {
            r.unattest("read -a evaluates subscripts")
        }
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
                        r.inner(Inner::Words(arg_words[start..end].to_vec()));
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
    // Inline code and programs given options that run commands.
    let inline = |flags: &[&str]| args.iter().any(|a| flags.contains(&a.as_str()));
    let base = n.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let code = match base {
        "python" | "pypy" => args
            .iter()
            .any(|a| a == "-c" || (short_cluster_has(a, 'c') && a.len() <= 4)),
        "node" | "nodejs" | "bun" | "deno" => inline(&["-e", "--eval", "-p", "--print", "eval"]),
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
        }),
        "sed" | "gsed" => sed_runs_commands(args),
        "rg" => args.iter().any(|a| a.starts_with("--pre")),
        "tar" | "gtar" | "bsdtar" => args.iter().any(|a| {
            a.starts_with("--to-command")
                || a.starts_with("--use-compress-program")
                || a.starts_with("--checkpoint-action")
                || a.starts_with("--info-script")
                || a.starts_with("--new-volume-script")
                || a == "-I"
                || a == "-F"
                || (short_cluster_has(a, 'I') && !a.starts_with("--"))
        }),
        "git" => git_runs_commands(args),
        "vim" | "vi" | "nvim" | "view" | "ex" | "vimdiff" => args
            .iter()
            .any(|a| a == "-c" || a == "--cmd" || a == "-S" || a.starts_with('+')),
        "zip" => args
            .iter()
            .any(|a| a == "-TT" || a.starts_with("--unzip-command")),
        "less" | "more" => args.iter().any(|a| a.contains('!')),
        _ => false,
    };
    if code {
        r.unattest("inline code or an option that runs commands");
    }
}

fn runner_inner(n: &str, args: &[String], arg_words: &[Word], r: &mut SegmentReadings) {
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
        _ => r.inner(Inner::Words(arg_words[k..].to_vec())),
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
            b'e' => return true,
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
                if is_s && b[fs.min(b.len())..i.min(b.len())].contains(&b'e') {
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

/// Index (in `args`) of git's subcommand, after its global options.
fn git_subcommand_at(args: &[String]) -> usize {
    let mut k = 0;
    while k < args.len() {
        let a = args[k].as_str();
        if matches!(
            a,
            "-C" | "-c"
                | "--git-dir"
                | "--work-tree"
                | "--namespace"
                | "--config-env"
                | "--super-prefix"
        ) {
            k += 2;
        } else if (a.starts_with("-C") || a.starts_with("-c")) && a.len() > 2
            || [
                "--git-dir=",
                "--work-tree=",
                "--namespace=",
                "--config-env=",
                "--super-prefix=",
            ]
            .iter()
            .any(|p| a.starts_with(p))
            || matches!(
                a,
                "-p" | "--paginate"
                    | "-P"
                    | "--no-pager"
                    | "--no-replace-objects"
                    | "--bare"
                    | "--literal-pathspecs"
                    | "--glob-pathspecs"
                    | "--noglob-pathspecs"
                    | "--icase-pathspecs"
                    | "--no-optional-locks"
                    | "--no-lazy-fetch"
            )
        {
            k += 1;
        } else {
            break;
        }
    }
    k.min(args.len())
}

fn git_runs_commands(args: &[String]) -> bool {
    let mut k = 0;
    while k < args.len() {
        let a = args[k].as_str();
        if a.starts_with("--exec-path") || a.starts_with("--config-env") {
            return true;
        }
        let cfg = if a == "-c" {
            k += 1;
            args.get(k).map(|s| s.as_str())
        } else {
            a.strip_prefix("-c")
                .filter(|s| !s.is_empty() && !a.starts_with("--"))
        };
        if let Some(kv) = cfg {
            let key = kv.split('=').next().unwrap_or("").to_ascii_lowercase();
            let harmless = [
                "color.",
                "user.",
                "advice.",
                "log.",
                "column.",
                "init.defaultbranch",
            ];
            if !harmless.iter().any(|h| key.starts_with(h)) {
                return true;
            }
        }
        if !a.starts_with('-') {
            // The subcommand: options after it are its own.
            return false;
        }
        k += 1;
    }
    false
}

/// The literal reading minus Claude Code's own strips (safe env assignments and the
/// `timeout`/`time`/`nice`/`nohup`/`stdbuf` wrappers with their options).
fn allow_reading(words: &[Word]) -> Vec<u8> {
    let mut i = 0;
    'outer: while i < words.len() {
        let w = &words[i];
        if let Some(super::Part::Lit(t)) = w.parts.first() {
            if let Some(name) = lists::assignment_name(t) {
                if lists::is_safe_env(name) && w.is_literal() {
                    i += 1;
                    continue;
                }
                break;
            }
        }
        if let Some(u) = w.unquoted() {
            if lists::ALLOW_STRIPPED_WRAPPERS.contains(&u) {
                if let Some(spec) = lists::wrapper(u) {
                    let values: Vec<Vec<u8>> = words[i..]
                        .iter()
                        .map(|w| {
                            w.literal()
                                .map(String::into_bytes)
                                .unwrap_or_else(|| vec![WILD])
                        })
                        .collect();
                    let mut scratch = SegmentReadings::default();
                    if let Some(k) = peel_wrapper(spec, &values, &mut scratch) {
                        if scratch.unattestable.is_empty() {
                            i += k;
                            continue 'outer;
                        }
                    }
                }
            }
        }
        break;
    }
    words[i..]
        .iter()
        .map(|w| w.lit_value())
        .collect::<Vec<_>>()
        .join(" ")
        .into_bytes()
}
