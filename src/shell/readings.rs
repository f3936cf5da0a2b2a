//! Readings of one segment (docs/contract.md#c-readings, docs/contract.md#c-unattestable): the forms deny/ask rules are matched against,
//! the one literal form allow rules are matched against, what makes the segment
//! unattestable, and the commands it runs that must be looked into.

use super::effects::{self, git, Inner};
use super::lists::{self, WrapperSpec};
use super::{Segment, Word, WordRef, MAX_BRACE_WORDS, MAX_READINGS};
use crate::pattern::WILD;
use std::borrow::Cow;

/// In [`SegmentReadings::stages`]: bytes from a parameter or a substitution's output.
pub const UNKNOWN: u8 = 0xFD;

#[derive(Clone, Debug, Default)]
pub struct SegmentReadings {
    /// Deny/ask readings: words joined by spaces, unknown bytes as WILD. Deduplicated.
    pub deny: Vec<Vec<u8>>,
    /// The literal reading, minus Claude Code's own strips; what allow rules see.
    pub allow: Vec<u8>,
    /// Reasons this segment cannot be attested (lexer's and every reading's).
    pub unattestable: Vec<&'static str>,
    pub inner: Vec<Inner>,
    /// The command at every peeling step where a program stands first (program and
    /// arguments, dequoted; WILD for glob characters, UNKNOWN for expansions): what the
    /// catalogue of effects reads (`sudo cat x` → `sudo cat x` and `cat x`).
    pub stages: Vec<Vec<Vec<u8>>>,
    /// Leading `NAME=VALUE` assignments peeled off (dequoted): some change where a program
    /// connects (`https_proxy=…`).
    pub env: Vec<(String, Vec<u8>)>,
    /// Assigned text holding `$( )` or backticks (`x='a[$(rm -rf ~)]'`), which a later
    /// arithmetic or prompt expansion runs: read by deny rules only (the walk makes
    /// deny-only segments of it).
    pub deny_scripts: Vec<String>,
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

pub use effects::program_name;

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
    // zsh's `=NAME` in an argument is NAME's path (`rm -f =polc` deletes the polc on PATH):
    // a path polc cannot know. (In command position it is read as NAME, in `runs`.)
    if seg.words.iter().skip(1).any(|w| {
        matches!(w.parts.first(), Some(super::Part::Lit(t))
            if t.len() > 1 && t.starts_with('=') && t[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
    }) {
        r.unattest("zsh =NAME expansion (a program's path)");
    }
    let mut budget = MAX_BRACE_WORDS;
    // The segment's words are borrowed, not copied, by every reading.
    let mut words: Vec<WordRef<'_>> = Vec::with_capacity(seg.words.len());
    let mut values: Vec<Vec<u8>> = Vec::with_capacity(seg.words.len());
    for w in &seg.words {
        match w.deny_values(&mut budget) {
            Some(v) if v.len() == 1 => {
                words.push(Cow::Borrowed(w));
                values.extend(v);
            }
            Some(v) => {
                for x in v {
                    words.push(Cow::Owned(Word {
                        expanded: true,
                        ..Word::unknown(w.raw.clone())
                    }));
                    values.push(x);
                }
            }
            None => {
                r.unattest("brace expansion over 256 words");
                words.push(Cow::Owned(Word::unknown(w.raw.clone())));
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

/// An assigned value holding `$( )` or backticks: deny rules read it as a command.
fn code_in_value(value: &[u8], r: &mut SegmentReadings) {
    if value.windows(2).any(|w| w == b"$(") || value.contains(&b'`') {
        let t = text(value);
        if !r.deny_scripts.contains(&t) && r.deny_scripts.len() < 8 {
            r.deny_scripts.push(t);
        }
    }
}

/// An assignment to a variable whose value a program runs ([`lists::runs_env`]): the segment
/// is unattestable and the value is read as a command for deny rules, whole and after each
/// `=` (`GIT_CONFIG_PARAMETERS="'core.pager'='rm -rf ~'"`).
fn env_runs(name: &str, value: &[u8], r: &mut SegmentReadings) {
    // `RANDOM=x`, `export OPTIND=x`: the value is arithmetic, and a name in it may hold
    // `a[$(CMD)]` (red team, session 6). A plain number is the only value left alone.
    if lists::integer_special(name) && !plain_number(value) {
        r.unattest("an assignment to a shell integer variable evaluates arithmetic");
    }
    if lists::writes_env(name) {
        r.unattest("an environment variable that names a file a program writes");
    }
    if !lists::runs_env(name) {
        return;
    }
    r.unattest("an environment variable that names a program or code to run");
    let v = text(value);
    r.inner(Inner::Script(v.clone()));
    for (i, _) in v.match_indices('=').take(8) {
        let rest = v[i + 1..].trim_matches(|c| c == '\'' || c == '"' || c == ' ');
        if !rest.is_empty() {
            r.inner(Inner::Script(rest.to_string()));
        }
    }
}

/// A decimal number, optionally signed: the one arithmetic value that names nothing.
fn plain_number(value: &[u8]) -> bool {
    let digits = value
        .strip_prefix(b"-")
        .or_else(|| value.strip_prefix(b"+"))
        .unwrap_or(value);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

/// `NAME[` with its subscript continued in later words up to one holding `]=`/`]+=`: the
/// index of that word (at most 16 words on).
fn spaced_array_assignment(words: &[WordRef<'_>]) -> Option<usize> {
    let w0 = words.first()?.raw.as_str();
    let open = w0.find('[')?;
    let name_ok = w0[..open]
        .bytes()
        .enumerate()
        .all(|(i, c)| c == b'_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()));
    if open == 0 || !name_ok || w0[open..].contains(']') {
        return None;
    }
    words
        .iter()
        .enumerate()
        .skip(1)
        .take(16)
        .find(|(_, w)| w.raw.contains("]=") || w.raw.contains("]+="))
        .map(|(j, _)| j)
}

/// `NAME[SUBSCRIPT]=…` or `NAME[SUBSCRIPT]+=…` as written: the subscript's text.
fn array_assignment(raw: &str) -> Option<&str> {
    let b = raw.as_bytes();
    let first = *b.first()?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    let open = raw.find('[')?;
    if !raw[..open]
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || c == b'_')
    {
        return None;
    }
    let close = raw.find("]=").or_else(|| raw.find("]+="))?;
    (close > open).then(|| &raw[open + 1..close])
}

/// Builtins whose arguments reach later commands or run as code: `export`/`declare`/`env`
/// assignments of command-holding variables, and zsh's `emulate … -c CMD`.
fn shell_builtins(name: &str, values: &[Vec<u8>], args: &[String], r: &mut SegmentReadings) {
    if matches!(
        name,
        "export" | "declare" | "typeset" | "local" | "readonly" | "env" | "set" | "setenv"
    ) {
        // `export GIT_PAGER='rm -rf ~'; git log`, `env GIT_PAGER=… git log`: the
        // assignment reaches the programs run after it.
        for v in &values[1..] {
            let t = text(v);
            if let Some(n) = lists::assignment_name(&t) {
                let value = &v[t.find('=').map_or(0, |i| i + 1)..];
                env_runs(n, value, r);
                code_in_value(value, r);
            }
        }
    }
    if name == "emulate" {
        // zsh's `emulate sh -c 'CMD'` runs CMD.
        if let Some(i) = args.iter().position(|a| a == "-c" || a.starts_with("-c")) {
            r.unattest("emulate -c runs a string as a command");
            let script = if args[i] == "-c" {
                args.get(i + 1).cloned()
            } else {
                Some(args[i][2..].to_string())
            };
            if let Some(sc) = script {
                r.inner(Inner::Script(sc));
            }
        }
    }
}

/// Peel one word that stands before the program: an assignment (`FOO=1`, `a['1']=1`,
/// `a[ ]=1`), or a zsh form (`=rm`, `noglob`, `nocorrect`, `repeat N`, `sched T`). True when
/// one was peeled.
fn peel_prefix(
    words: &mut Vec<WordRef<'_>>,
    values: &mut Vec<Vec<u8>>,
    r: &mut SegmentReadings,
) -> bool {
    let w0 = &words[0];
    // `a['1']=1 cmd`, `a[ ]=1 cmd`: bash rejects the assignment and still runs cmd, and
    // evaluates the subscript as arithmetic first (`a['$(cmd)']=1` runs cmd). Bug fixed:
    // the word was read as the program, hiding cmd from every rule.
    if let Some(sub) = array_assignment(&w0.raw) {
        r.unattest("array element assignment");
        r.inner(Inner::Script(super::dequote(sub)));
        words.remove(0);
        values.remove(0);
        return true;
    }
    // In that position bash reads blanks inside the subscript as part of the word
    // (`a[ ]=1 rm -rf /` is one assignment, then rm), where polc split words.
    if let Some(j) = spaced_array_assignment(words) {
        r.unattest("array element assignment");
        let text: Vec<&str> = words[..=j].iter().map(|w| w.raw.as_str()).collect();
        let text = text.join(" ");
        if let Some(sub) = array_assignment(&text) {
            r.inner(Inner::Script(super::dequote(sub)));
        }
        words.drain(..=j);
        values.drain(..=j);
        return true;
    }
    // zsh reads `=rm` as the path of `rm` (EQUALS expansion), and `noglob`/`nocorrect`
    // are precommand modifiers; `repeat N cmd` and `sched TIME cmd` run cmd (Claude Code
    // runs commands in the user's shell, zsh on macOS).
    if w0.parts.len() == 1 && matches!(w0.parts[0], super::Part::Lit(_)) {
        let raw = w0.raw.as_str();
        if raw.len() > 1 && raw.starts_with('=') && values[0].first() == Some(&b'=') {
            r.unattest("zsh =command expansion");
            values[0].remove(0);
            words[0] = Cow::Owned(Word {
                expanded: true,
                ..Word::unknown(raw[1..].to_string())
            });
            return true;
        }
        match raw {
            "noglob" | "nocorrect" => {
                words.remove(0);
                values.remove(0);
                return true;
            }
            "repeat" | "sched" if values.len() > 2 => {
                r.unattest("zsh precommand that runs a command later or repeatedly");
                words.drain(..2);
                values.drain(..2);
                return true;
            }
            _ => {}
        }
    }
    // Leading env assignment (`FOO=1 cmd`): needs an unquoted `NAME=` start.
    if let Some(super::Part::Lit(t)) = w0.parts.first() {
        if let Some(name) = lists::assignment_name(t) {
            let v = &values[0];
            let eq = v
                .iter()
                .position(|&b| b == b'=')
                .map(|i| i + 1)
                .unwrap_or(0);
            env_runs(name, &v[eq..], r);
            code_in_value(&v[eq..], r);
            r.env.push((name.to_string(), v[eq..].to_vec()));
            words.remove(0);
            values.remove(0);
            return true;
        }
    }
    false
}

/// Remove, one at a time, what deny/ask rules must see through, recording a reading at
/// every step and checking every step's program for unattestable constructs.
fn peel(mut words: Vec<WordRef<'_>>, mut values: Vec<Vec<u8>>, r: &mut SegmentReadings) {
    peel_steps(&mut words, &mut values, r);
    // Up to 16,000 words made for the readings: not freed one by one in a one-call process.
    super::walk::discard(words);
}

fn peel_steps(words: &mut Vec<WordRef<'_>>, values: &mut Vec<Vec<u8>>, r: &mut SegmentReadings) {
    let mut steps = 0;
    loop {
        if values.is_empty() {
            return;
        }
        steps += 1;
        if steps > MAX_PEEL {
            // Every bound makes the segment unattestable: what lies deeper is not read.
            r.unattest("more than 64 wrappers, reserved words or assignments");
            return;
        }
        r.push(join(values));
        let prog = values[0].clone();
        let name = program_name(&prog);
        // The program word folded (not a copy of every word: segments hold 16,000).
        let mut folded = name.clone().into_bytes();
        for v in &values[1..] {
            folded.push(b' ');
            folded.extend_from_slice(v);
        }
        r.push(folded);

        if peel_prefix(words, values, r) {
            continue;
        }
        let w0 = &words[0];
        if prog.contains(&WILD) {
            r.unattest("program name is not a literal word");
            r.stages.push(stage_into(words, std::mem::take(values)));
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
        if prog.first() == Some(&b'-') {
            // `-X DELETE a b`: not a command bash can run as written (Claude Code asks too).
            r.unattest("a command word that begins with `-`");
        }
        // A program stands first: this is a stage the catalogue reads. Filled in when the
        // step ends: with the words themselves when it is the last (no copy of every word).
        let stage = r.stages.len();
        r.stages.push(Vec::new());
        let args: Vec<String> = values[1..].iter().map(|v| text(v)).collect();
        let runs = effects::runs_of(&name, &args, &words[1..]);
        for u in runs.unattestable {
            r.unattest(u);
        }
        shell_builtins(&name, values, &args, r);
        for i in runs.inner {
            r.inner(i);
        }
        git_reading(&name, &args, values, r);
        super::walk::discard(args);
        extra_readings(&name, values, r);
        // `git-push …` is `git push …`, `python3 -m awscli …` is `aws …` (a new step).
        if let Some(k) = dispatched_program(&name, values) {
            r.stages[stage] = stage_of(words, values);
            apply_dispatch(k, words, values);
            continue;
        }
        let Some(spec) = lists::wrapper(&name) else {
            r.stages[stage] = stage_into(words, std::mem::take(values));
            return;
        };
        match peel_wrapper(spec, values, r) {
            Err(Unpeeled::Unread) => {
                // A wrapper polc cannot read through (an unknown option, an option value
                // from an expansion) may still run what follows: every suffix that starts
                // with a non-option word is walked as a command (the segment is
                // unattestable already).
                unread_suffixes(words, values, r);
                r.stages[stage] = stage_into(words, std::mem::take(values));
                return;
            }
            Err(Unpeeled::Stop) => {
                r.stages[stage] = stage_into(words, std::mem::take(values));
                return;
            }
            Ok(k) => {
                r.stages[stage] = stage_of(words, values);
                words.drain(..k);
                values.drain(..k);
                if name == "xargs" {
                    // xargs appends words read from stdin.
                    values.push(vec![WILD]);
                    words.push(Cow::Owned(Word::unknown("…".into())));
                }
            }
        }
    }
}

/// Rewrites the command as the program it dispatches to (see [`Dispatch`]).
fn apply_dispatch(k: Dispatch, words: &mut Vec<WordRef<'_>>, values: &mut Vec<Vec<u8>>) {
    let lit = |t: &str| {
        Cow::Owned(Word {
            raw: t.to_string(),
            parts: vec![super::Part::Lit(t.to_string())],
            unattestable: Vec::new(),
            expanded: false,
        })
    };
    match k {
        Dispatch::GitBuiltin(sub) => {
            words[0] = lit("git");
            values[0] = b"git".to_vec();
            words.insert(1, lit(&sub));
            values.insert(1, sub.into_bytes());
        }
        Dispatch::Rename(to) => {
            words[0] = lit(to);
            values[0] = to.as_bytes().to_vec();
        }
        Dispatch::Module(k, name) => {
            words.drain(..k);
            values.drain(..k);
            if let Some(a) = name {
                words[0] = lit(&a);
                values[0] = a.into_bytes();
            }
        }
    }
}

/// A program that is another program's command under another name.
enum Dispatch {
    /// `git-NAME` (git's dashed builtins in `git --exec-path`, and the external commands
    /// `git NAME` runs): `git NAME`.
    GitBuiltin(String),
    /// `python[X.Y] [options] -m MODULE …`: the module (the word at this index) runs as its
    /// command line, under this name when the word is not just it (`awscli` → `aws`;
    /// `-mpip` → `pip`).
    Module(usize, Option<String>),
    /// A wrapper that hands every command line to another program: `hub`/`lab` (GitHub's and
    /// GitLab's git wrappers, often `alias git=hub`) and `yadm` (git with the home folder as
    /// its work tree) run `git ARGS` (red team 8, C8-gitwrap).
    Rename(&'static str),
}

/// Programs that are another program with extra commands of their own (see
/// [`Dispatch::Rename`]).
const FORWARDERS: &[(&str, &str)] = &[("hub", "git"), ("lab", "git"), ("yadm", "git")];

/// Modules whose command line goes by another name.
const MODULE_PROGRAMS: &[(&str, &str)] = &[
    ("awscli", "aws"),
    ("azure.cli", "az"),
    ("samcli", "sam"),
    ("httpie", "http"),
    ("yt_dlp", "yt-dlp"),
    (
        "huggingface_hub.commands.huggingface_cli",
        "huggingface-cli",
    ),
];

/// Coding agents' npm packages, run by a package runner under the package's name (`npx
/// @anthropic-ai/claude-code mcp add …` is `claude mcp add …`; the runner's command is the
/// package path's last part, here `claude-code`, a version after `@` dropped): the command
/// each installs (red team 8, C8-agentcfgrunner).
const AGENT_PACKAGES: &[(&str, &str)] = &[
    ("claude-code", "claude"),
    ("gemini-cli", "gemini"),
    ("qwen-code", "qwen"),
    ("opencode-ai", "opencode"),
    ("mistral-vibe", "vibe"),
    ("cursor-agent", "cursor-agent"),
    ("codex", "codex"),
    ("copilot", "copilot"),
    ("droid", "droid"),
    ("amp", "amp"),
    ("crush", "crush"),
    ("openclaw", "openclaw"),
];

fn dispatched_program(name: &str, values: &[Vec<u8>]) -> Option<Dispatch> {
    if let Some((_, to)) = FORWARDERS.iter().find(|(n, _)| *n == name) {
        return Some(Dispatch::Rename(to));
    }
    // A package name with a version (`codex@latest`), or an agent's package name.
    let package = name.split('@').next().unwrap_or(name);
    if let Some((_, to)) = AGENT_PACKAGES.iter().find(|(n, _)| *n == package) {
        if *to != name {
            return Some(Dispatch::Rename(to));
        }
    }
    if let Some(sub) = name.strip_prefix("git-") {
        let sub = sub.strip_suffix(".exe").unwrap_or(sub);
        if !sub.is_empty()
            && sub
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Some(Dispatch::GitBuiltin(sub.to_string()));
        }
        return None;
    }
    let py = name
        .strip_prefix("python")
        .or_else(|| name.strip_prefix("pypy"))?;
    if !py.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let mut i = 1;
    while i < values.len() {
        let a = &values[i];
        match a.as_slice() {
            b"-m" => break,
            // Options that take the next word.
            b"-W" | b"-X" | b"--check-hash-based-pycs" => i += 1,
            _ if a.starts_with(b"--") => {}
            [b'-', rest @ ..] if !rest.is_empty() => {
                // A cluster of flags (`-Im`, `-Bm`): `m` takes the module; `c` a command;
                // `W`/`X` their value, attached or next.
                for (j, &c) in rest.iter().enumerate() {
                    match c {
                        b'm' if j + 1 == rest.len() => return module_at(values, i + 1),
                        b'm' => {
                            let m = String::from_utf8_lossy(&rest[j + 1..]).into_owned();
                            let alias = module_alias(m.as_bytes()).map(str::to_string);
                            return Some(Dispatch::Module(i, Some(alias.unwrap_or(m))));
                        }
                        b'c' => return None,
                        b'W' | b'X' => {
                            if j + 1 == rest.len() {
                                i += 1;
                            }
                            break;
                        }
                        _ => {}
                    }
                }
            }
            // A script file, `-` or `-c`: not a module run.
            _ => return None,
        }
        i += 1;
    }
    module_at(values, i + 1)
}

fn module_at(values: &[Vec<u8>], k: usize) -> Option<Dispatch> {
    let m = values.get(k)?;
    Some(Dispatch::Module(k, module_alias(m).map(str::to_string)))
}

fn module_alias(m: &[u8]) -> Option<&'static str> {
    MODULE_PROGRAMS
        .iter()
        .find(|(n, _)| n.as_bytes() == m)
        .map(|(_, a)| *a)
}

/// `git -C dir push --force` is `git push --force` to a deny rule: git's global options are
/// read through (a reading without them; git stays the program).
fn git_reading(name: &str, args: &[String], values: &[Vec<u8>], r: &mut SegmentReadings) {
    if name == "git" {
        let k = git::subcommand_at(args) + 1;
        if k > 1 && k < values.len() {
            let mut v = vec![name.as_bytes().to_vec()];
            v.extend_from_slice(&values[k..]);
            r.push(join(&v));
        }
    }
}

/// Readings of the same command in the forms deny/ask rules are written for: short-option
/// clusters split (`curl -sST .env u` → `curl -s -S -T .env u`) and `--opt=value` as two
/// words, the global options of `kubectl`/`helm`/`terraform` read through (`kubectl -n prod
/// delete` → `kubectl delete`), and `dd` with its `of=` operand last and its path's repeated
/// slashes and `/./` folded (`dd of=//dev/sda if=x` → `dd if=x of=/dev/sda`).
fn extra_readings(name: &str, values: &[Vec<u8>], r: &mut SegmentReadings) {
    let args = &values[1..];
    let prog = name.as_bytes().to_vec();
    let with = |rest: &[Vec<u8>]| {
        let mut v = vec![prog.clone()];
        v.extend_from_slice(rest);
        join(&v)
    };
    // Abbreviated long options written out (`curl --upl F` → `curl --upload-file F`).
    let expanded = effects::options::expand_long(name, args);
    let args = expanded.as_deref().unwrap_or(args);
    let split = effects::options::split_clusters(name, args);
    let split = split.as_deref().unwrap_or(args);
    // Copied only when some `--opt=value` is split (a segment may hold 16,000 words).
    let has_long = split
        .iter()
        .any(|a| a.starts_with(b"--") && a.iter().position(|&b| b == b'=').is_some_and(|i| i > 2));
    let long_split;
    let long: &[Vec<u8>] = if has_long {
        long_split = effects::options::split_long(split);
        &long_split
    } else {
        split
    };
    // Compared with the words as written: an expanded abbreviation is a new reading too.
    if long != &values[1..] {
        r.push(with(split));
        r.push(with(long));
    }
    if let Some(k) = effects::options::global_options_end(name, long) {
        // A global option polc does not know may take the next word: every word after an
        // option among the first few is also tried as the subcommand.
        let mut j = 0;
        while j < long.len().min(16) {
            if !long[j].starts_with(b"-") {
                // The subcommand, or the value of the option before it.
                r.push(with(&long[j..]));
                if j == 0 || !long[j - 1].starts_with(b"-") {
                    break;
                }
            }
            j += 1;
        }
        r.push(with(&long[k..]));
        // `kubectl delete -n prod …` and `kubectl -n prod delete …` alike.
        let mut moved = long[k..].to_vec();
        moved.extend_from_slice(&long[..k]);
        r.push(with(&moved));
    } else if long.first().is_some_and(|a| global_option(name, a)) {
        // Any other program's options before its subcommand (red team 8, C8-globalopts:
        // `aws --profile prod s3 rb`, `pulumi -C infra destroy`, `cargo +nightly publish`,
        // `gh -R o/r release create`): polc does not know which of them take a value, so each
        // non-option word after an option among the first 16 words is tried as the
        // subcommand, up to the first one after a non-option (both readings of `--profile
        // prod`). Deny and ask rules only: a reading can only raise the answer.
        let mut j = 0;
        while j < long.len().min(16) {
            if !global_option(name, &long[j]) {
                r.push(with(&long[j..]));
                if j > 0 && !global_option(name, &long[j - 1]) {
                    break;
                }
            }
            j += 1;
        }
    }
    for other in super::aliases::readings(name, long) {
        r.push(with(&other));
    }
    for mode in super::aliases::mode_readings(name, long, WILD) {
        let mut v = vec![b"chmod".to_vec()];
        v.extend(mode);
        r.push(join(&v));
    }
    if name == "dd" {
        let mut ops: Vec<Vec<u8>> = Vec::new();
        let mut outs: Vec<Vec<u8>> = Vec::new();
        for a in args {
            match a.strip_prefix(b"of=") {
                Some(p) => {
                    let mut v = b"of=".to_vec();
                    v.extend(fold_path(p));
                    outs.push(v);
                }
                None => ops.push(a.clone()),
            }
        }
        if !outs.is_empty() {
            ops.extend(outs);
            r.push(with(&ops));
        }
    }
}

/// An option word before a subcommand: `-x`, `--x`, and rustup's toolchain override
/// `+nightly` for the Rust tools (`cargo +nightly publish`).
fn global_option(program: &str, w: &[u8]) -> bool {
    (w.len() > 1 && w[0] == b'-')
        || (w.len() > 1
            && w[0] == b'+'
            && matches!(
                program,
                "cargo" | "rustc" | "rustup" | "rustdoc" | "clippy-driver"
            ))
}

/// `//dev//./sda` → `/dev/sda`: repeated slashes and `.` components folded, `..` removed
/// with the component before it, and `/proc/self/root` (the same root) dropped.
fn fold_path(p: &[u8]) -> Vec<u8> {
    let abs = p.first() == Some(&b'/');
    let mut parts: Vec<&[u8]> = Vec::new();
    for c in p.split(|&b| b == b'/') {
        match c {
            b"" | b"." => {}
            b".." => {
                parts.pop();
            }
            _ => parts.push(c),
        }
        if abs
            && parts.len() == 3
            && parts[0] == b"proc"
            && parts[2] == b"root"
            && (parts[1] == b"self"
                || parts[1] == b"thread-self"
                || parts[1].iter().all(u8::is_ascii_digit))
        {
            parts.clear();
        }
    }
    let mut out = if abs { b"/".to_vec() } else { Vec::new() };
    out.extend(parts.join(&b'/'));
    out
}

/// Bound on peeling steps (wrappers, reserved words, assignments) per segment.
pub const MAX_PEEL: usize = 64;

/// In stages, bytes from a parameter or substitution (which may hold `/` and `..`) are
/// UNKNOWN; WILD is left for glob characters (which stay in one folder).
/// [`stage_of`] made of `values` themselves.
fn stage_into(words: &[WordRef<'_>], mut values: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    for (v, w) in values.iter_mut().zip(words) {
        if w.parts.iter().any(|p| matches!(p, super::Part::Unknown(_))) {
            for b in v.iter_mut() {
                if *b == WILD {
                    *b = UNKNOWN;
                }
            }
        }
    }
    // `stage_of` zips: a value without a word is not part of the stage.
    values.truncate(words.len());
    values
}

fn stage_of(words: &[WordRef<'_>], values: &[Vec<u8>]) -> Vec<Vec<u8>> {
    values
        .iter()
        .zip(words)
        .map(|(v, w)| {
            if w.parts.iter().any(|p| matches!(p, super::Part::Unknown(_))) {
                v.iter()
                    .map(|&b| if b == WILD { UNKNOWN } else { b })
                    .collect()
            } else {
                v.clone()
            }
        })
        .collect()
}

/// Index of the command after a wrapper and its options, or None when no command follows
/// (or the options make it a query, not a wrapper). Unknown options are unattestable.
/// Why a wrapper was not peeled: a form that runs nothing further (`--help`, no command
/// left, `env -S` read already), or options polc cannot read (what follows may still run).
enum Unpeeled {
    Stop,
    Unread,
}

/// Every suffix of a wrapper's words that starts with a non-option word, as a command (at
/// most 16): `xargs --frob rm -rf /` reads `rm -rf /`.
fn unread_suffixes(words: &[WordRef<'_>], values: &[Vec<u8>], r: &mut SegmentReadings) {
    let n = words.len().min(values.len()).saturating_sub(1);
    for s in effects::command_suffixes(&words[1..], n, |k| values[k + 1].starts_with(b"-")) {
        r.inner(Inner::Words(super::owned_words(s)));
    }
}

fn peel_wrapper(
    spec: &WrapperSpec,
    values: &[Vec<u8>],
    r: &mut SegmentReadings,
) -> Result<usize, Unpeeled> {
    let mut k = 1;
    let mut positionals = spec.positionals;
    while k < values.len() {
        let v = &values[k];
        if v.contains(&WILD) {
            r.unattest("wrapper option polc cannot read");
            return Err(Unpeeled::Unread);
        }
        let a = text(v);
        if spec.stop.contains(&a.as_str()) {
            return Err(Unpeeled::Stop);
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
            return Err(Unpeeled::Stop);
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
            return Err(Unpeeled::Unread);
        }
        if positionals > 0 {
            positionals -= 1;
            k += 1;
            continue;
        }
        break;
    }
    if k >= values.len() {
        return Err(Unpeeled::Stop);
    }
    Ok(k)
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
                    if let Ok(k) = peel_wrapper(spec, &values, &mut scratch) {
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
    // The words' literal values joined by blanks, built in place (no copy per word).
    let mut out = Vec::new();
    for (k, w) in words[i..].iter().enumerate() {
        if k > 0 {
            out.push(b' ');
        }
        for p in &w.parts {
            let (super::Part::Lit(t) | super::Part::Quoted(t) | super::Part::Unknown(t)) = p;
            out.extend_from_slice(t.as_bytes());
        }
    }
    out
}
