//! git in the catalogue: its global options, the subcommands that run commands (and the
//! configuration keys that hold commands), the files its subcommands read, write or
//! delete, which subcommands rewrite the work tree, and which reach the network.

use super::super::{WordRef, UNKNOWN};
use super::{text, Access, Effects, Inner, Net, Runs};

/// Configuration keys whose values are plain data (prefixes, lowercased). Any other key a
/// command sets (`-c`, `git config`) may run code: `core.pager`, `core.fsmonitor`,
/// `*.textconv`, `filter.*.clean`, `alias.x=!cmd`, `credential.helper`, `include.path`, …
const HARMLESS_KEYS: &[&str] = &[
    "color.",
    "user.",
    "advice.",
    "log.",
    "column.",
    "init.defaultbranch",
    "pull.rebase",
    "pull.ff",
    "push.default",
    "push.autosetupremote",
    "fetch.prune",
    "merge.conflictstyle",
    "rebase.autosquash",
    "rebase.autostash",
    "core.autocrlf",
    "core.quotepath",
    "diff.algorithm",
    "diff.colormoved",
    "status.showuntrackedfiles",
    "commit.verbose",
    "tag.sort",
    "branch.sort",
];

fn harmless_key(key: &str) -> bool {
    HARMLESS_KEYS.iter().any(|h| key.starts_with(h))
}

/// Keys whose value is a command line (the value is analysed as shell text).
fn command_key(key: &str) -> bool {
    let k = key;
    matches!(
        k,
        "core.fsmonitor"
            | "core.sshcommand"
            | "core.pager"
            | "core.editor"
            | "core.askpass"
            | "core.gitproxy"
            | "sequence.editor"
            | "diff.external"
            | "credential.helper"
            | "gpg.program"
    ) || k.ends_with(".textconv")
        || k.ends_with(".command")
        || k.ends_with(".cmd")
        || k.ends_with(".driver")
        || k.ends_with(".helper")
        || k.ends_with(".program")
        || (k.starts_with("filter.")
            && (k.ends_with(".clean") || k.ends_with(".smudge") || k.ends_with(".process")))
        || k.starts_with("pager.")
}

/// Subcommands that leave the work tree alone (everything else may rewrite it: switch,
/// checkout, pull, merge, rebase, reset, stash, apply, restore, …, and any subcommand or
/// alias polc does not know).
static LEAVES_TREE: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "status",
    "log",
    "diff",
    "show",
    "blame",
    "annotate",
    "branch",
    "tag",
    "commit",
    "add",
    "fetch",
    "push",
    "remote",
    "config",
    "rev-parse",
    "ls-files",
    "ls-tree",
    "ls-remote",
    "cat-file",
    "describe",
    "shortlog",
    "grep",
    "reflog",
    "init",
    "clone",
    "archive",
    "format-patch",
    "notes",
    "var",
    "version",
    "help",
    "count-objects",
    "fsck",
    "gc",
    "hash-object",
    "update-index",
    "symbolic-ref",
    "for-each-ref",
    "name-rev",
    "merge-base",
    "rev-list",
    "whatchanged",
    "range-diff",
    "cherry",
    "verify-commit",
    "verify-tag",
    "check-ignore",
    "check-attr",
    "check-ref-format",
    "show-ref",
    "show-branch",
    "mktag",
    "mktree",
    "commit-tree",
    "write-tree",
    "diff-files",
    "diff-index",
    "diff-tree",
    "rm",
    "mv",
    "--version",
    "--help",
]);

/// Subcommands that talk to a remote.
static NETWORK: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "clone",
    "fetch",
    "pull",
    "push",
    "ls-remote",
    "remote",
    "submodule",
    "send-email",
    "request-pull",
    "archive",
]);

/// Index (in `args`) of git's subcommand, after its global options.
pub fn subcommand_at(args: &[String]) -> usize {
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

fn global_runs(args: &[String]) -> bool {
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
            if !harmless_key(&key) {
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

/// Commands git runs for options and configuration (see [`HARMLESS_KEYS`]).
pub fn runs(args: &[String], arg_words: &[WordRef<'_>], r: &mut Runs) {
    if global_runs(args) {
        r.unattest("inline code or an option that runs commands");
    }
    let at = subcommand_at(args);
    if args[..at].iter().any(|a| {
        ["--git-dir", "--work-tree"]
            .iter()
            .any(|o| a == o || a.starts_with(&format!("{o}=")))
    }) {
        // Like `GIT_DIR`: another repository's configuration, which may run commands.
        r.unattest("git told to use another repository, whose configuration may run commands");
    }
    ext_transport(&args[at.min(args.len())..], r);
    let Some(sub) = args.get(at).map(String::as_str) else {
        return;
    };
    let rest = &args[at + 1..];
    let rest_words = &arg_words[(at + 1).min(arg_words.len())..];
    let cmd = |r: &mut Runs, why: &'static str, c: Option<String>| {
        r.unattest(why);
        if let Some(c) = c {
            r.inner(Inner::Script(c));
        }
    };
    let word = |k: usize| rest_words.get(k).map(|w| w.lit_value());
    let mut k = 0;
    while k < rest.len() {
        let a = rest[k].as_str();
        // Options whose value is a command, in every subcommand that has them.
        let opt_cmd = |names: &[&str]| -> Option<Option<String>> {
            // git's option parser takes any unambiguous prefix of a long option
            // (`--upload-p=CMD`): two letters after `--` are read as the named option.
            let (name, val) = match a.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (a, None),
            };
            for n in names {
                let hit =
                    name == *n || (n.starts_with("--") && name.len() >= 4 && n.starts_with(name));
                if hit {
                    return Some(match val {
                        Some(v) => Some(v.to_string()),
                        None => word(k + 1),
                    });
                }
                if n.len() == 2 && !a.starts_with("--") && a.starts_with(n) && a.len() > 2 {
                    // `-uCMD`: attached.
                    if *n == "-u" {
                        return Some(Some(a[2..].to_string()));
                    }
                }
            }
            None
        };
        let found = match sub {
            "rebase" => opt_cmd(&["--exec", "-x"])
                .or_else(|| (a.starts_with("-x") && a.len() > 2).then(|| Some(a[2..].to_string()))),
            "difftool" | "mergetool" => opt_cmd(&["--extcmd", "-x"]),
            "filter-branch" => (a.starts_with("--") && a.ends_with("-filter")).then(|| word(k + 1)),
            "grep" => (a.starts_with("-O") || a.starts_with("--open-files-in-pager")).then(|| {
                a.split_once('=')
                    .map(|(_, v)| v.to_string())
                    .or_else(|| (a.len() > 2 && a.starts_with("-O")).then(|| a[2..].to_string()))
            }),
            // `--exec` is the hidden spelling of `--upload-pack` in fetch and pull.
            "clone" | "ls-remote" => opt_cmd(&["--upload-pack", "-u", "--exec"]),
            "fetch" | "pull" | "fetch-pack" | "submodule" | "remote" => {
                opt_cmd(&["--upload-pack", "--exec"])
            }
            "push" | "send-pack" => opt_cmd(&["--receive-pack", "--exec"]),
            "archive" | "upload-archive" => opt_cmd(&["--exec"]),
            _ => None,
        };
        if let Some(c) = found {
            cmd(r, "git option that runs a command", c);
        }
        k += 1;
    }
    subcommand_runs(sub, rest, rest_words, r);
}

/// git's `ext::CMD ARGS` remote runs CMD (`% ` is a space, `%%` a `%`) once
/// `GIT_ALLOW_PROTOCOL` or `protocol.ext.allow` lets it: any argument spelled so is a
/// command (red team, session 5: `git ls-remote 'ext::sh -c touch% x'`).
fn ext_transport(args: &[String], r: &mut Runs) {
    for a in args {
        let Some(i) = a.find("ext::") else { continue };
        r.unattest("git's ext:: transport runs a command");
        let mut cmd = String::new();
        let mut it = a[i + 5..].chars();
        while let Some(c) = it.next() {
            match (c, it.clone().next()) {
                ('%', Some(' ')) => {
                    cmd.push(' ');
                    it.next();
                }
                ('%', Some('%')) => {
                    cmd.push('%');
                    it.next();
                }
                ('%', Some('G' | 'S' | 'V')) => {
                    it.next();
                }
                _ => cmd.push(c),
            }
        }
        r.inner(Inner::Script(cmd));
    }
}

/// What a subcommand itself runs (`bisect run`, `submodule foreach`, `config` values).
fn subcommand_runs(sub: &str, rest: &[String], rest_words: &[WordRef<'_>], r: &mut Runs) {
    match sub {
        "bisect" if rest.first().map(String::as_str) == Some("run") => {
            r.unattest("git bisect run runs a command");
            if rest_words.len() > 1 {
                r.inner(Inner::Words(crate::shell::owned_words(&rest_words[1..])));
            }
        }
        "submodule" => {
            if let Some(i) = rest.iter().position(|a| a == "foreach") {
                let mut j = i + 1;
                while j < rest.len() && rest[j].starts_with('-') {
                    j += 1;
                }
                r.unattest("git submodule foreach runs a command");
                if j < rest_words.len() {
                    r.inner(Inner::Script(
                        rest_words[j..]
                            .iter()
                            .map(|w| w.lit_value())
                            .collect::<Vec<_>>()
                            .join(" "),
                    ));
                }
            }
        }
        "filter-branch" | "difftool" | "mergetool" | "instaweb" | "daemon" => {
            r.unattest("git subcommand that runs configured or given commands")
        }
        "config" => config_runs(rest, rest_words, r),
        "clone" | "init" => new_repository_runs(rest, rest_words, r),
        _ => {}
    }
}

/// `git clone -c KEY=VALUE` writes KEY into the new repository's configuration, and
/// `--template=DIR` (clone, init) copies DIR's hooks and config into it: the next git
/// command run there runs them.
fn new_repository_runs(rest: &[String], rest_words: &[WordRef<'_>], r: &mut Runs) {
    let mut k = 0;
    while k < rest.len() {
        let a = rest[k].as_str();
        if a == "--template" || a.starts_with("--template=") {
            r.unattest("git copies hooks and configuration from a template folder");
        }
        let kv = match a {
            "-c" | "--config" => rest_words.get(k + 1).map(|w| w.lit_value()),
            _ if a.starts_with("--config=") => Some(a["--config=".len()..].to_string()),
            _ if a.starts_with("-c") && a.len() > 2 && !a.starts_with("--") => {
                Some(a[2..].to_string())
            }
            _ => None,
        };
        if let Some(kv) = kv {
            let (key, value) = kv.split_once('=').unwrap_or((kv.as_str(), ""));
            let key = key.to_ascii_lowercase();
            if !harmless_key(&key) {
                r.unattest("git clone sets a key that may run commands");
                if command_key(&key) {
                    r.inner(Inner::Script(value.to_string()));
                } else if let Some(c) = key
                    .starts_with("alias.")
                    .then(|| value.strip_prefix('!'))
                    .flatten()
                {
                    r.inner(Inner::Script(c.to_string()));
                }
            }
        }
        k += 1;
    }
}

/// `git config KEY VALUE` (and `git config set KEY VALUE`): a key that is not plain data
/// is unattestable; a command-valued key's value is analysed as shell text.
fn config_runs(rest: &[String], rest_words: &[WordRef<'_>], r: &mut Runs) {
    let reads = rest.iter().any(|a| {
        matches!(
            a.as_str(),
            "--get"
                | "--get-all"
                | "--get-regexp"
                | "--list"
                | "-l"
                | "get"
                | "list"
                | "--show-origin"
                | "--get-urlmatch"
        )
    });
    if reads {
        return;
    }
    let mut pos: Vec<usize> = Vec::new();
    let mut k = 0;
    while k < rest.len() {
        let a = rest[k].as_str();
        if matches!(
            a,
            "-f" | "--file" | "--blob" | "--type" | "--default" | "--comment"
        ) {
            k += 2;
            continue;
        }
        let verb = pos.is_empty() && matches!(a, "set" | "unset");
        if !a.starts_with('-') && !verb {
            pos.push(k);
        }
        k += 1;
    }
    let Some(&key_at) = pos.first() else { return };
    let key = rest[key_at].to_ascii_lowercase();
    if harmless_key(&key) {
        return;
    }
    r.unattest("git config sets a key that may run commands");
    let value = pos
        .get(1)
        .and_then(|&v| rest_words.get(v))
        .map(|w| w.lit_value());
    if let Some(v) = value {
        if key.starts_with("alias.") {
            if let Some(c) = v.strip_prefix('!') {
                r.inner(Inner::Script(c.to_string()));
            }
        } else if command_key(&key) {
            r.inner(Inner::Script(v));
        }
    }
}

/// Global `-C DIR` options (before the subcommand at `at`): the command runs there.
fn global_chdirs(args: &[Vec<u8>], targs: &[String], at: usize, e: &mut Effects) {
    let mut k = 0;
    while k < at {
        if targs[k] == "-C" {
            if let Some(d) = args.get(k + 1) {
                e.chdir.push(d.clone());
            }
            k += 1;
        } else if let Some(d) = args[k].strip_prefix(b"-C").filter(|d| !d.is_empty()) {
            e.chdir.push(d.to_vec());
        }
        k += 1;
    }
}

/// Files named by a subcommand's options.
fn option_files(rest: &[Vec<u8>], sub: &str, e: &mut Effects) {
    // `--output=F` (log, diff, show, format-patch, …) writes F; `format-patch -o DIR` and
    // `--output-directory` write under DIR; `commit -F`, `--pathspec-from-file` read.
    let targs_rest: Vec<Vec<u8>> = rest.to_vec();
    for v in super::files::opt_values(&targs_rest, &[], &["--output"]) {
        e.file(v, Access::Write, false);
    }
    if sub == "format-patch" {
        for v in super::files::opt_values(&targs_rest, &["-o"], &["--output-directory"]) {
            e.file_into(v);
        }
    }
    for v in super::files::opt_values(
        &targs_rest,
        &["-F"],
        &["--file", "--pathspec-from-file", "--template"],
    ) {
        e.file(v, Access::Read, false);
    }
    // Index plumbing (red team, session 5): `update-index --cacheinfo MODE,SHA,PATH` and
    // `--index-info` put PATH in the index, which `checkout-index -a` (or `read-tree -u`)
    // then writes into the work tree — a file polc would otherwise not see created.
    if sub == "update-index" {
        for v in super::files::opt_values(&targs_rest, &[], &["--cacheinfo"]) {
            if let Some(p) = v.rsplit(|&b| b == b',').next() {
                e.file(p.to_vec(), Access::Write, false);
            }
        }
        if rest.iter().any(|a| a.as_slice() == b"--index-info") {
            e.file(vec![UNKNOWN], Access::Write, true);
        }
    }
    if sub == "checkout-index" {
        let all = rest
            .iter()
            .any(|a| matches!(a.as_slice(), b"-a" | b"--all" | b"--stdin"));
        if all {
            e.file_into(b".".to_vec());
        }
        for p in rest.iter().filter(|a| !a.starts_with(b"-")) {
            e.file(p.clone(), Access::Write, false);
        }
    }
    // Pathspecs read from a file are paths polc cannot see: `git rm` may delete any
    // (red team, session 5), the commands that rewrite files may write any.
    if rest.iter().any(|a| a.starts_with(b"--pathspec-from-file")) {
        match sub {
            "rm" => e.file(vec![UNKNOWN], Access::Delete, true),
            "checkout" | "restore" | "reset" | "stash" | "mv" => {
                e.file(vec![UNKNOWN], Access::Write, true)
            }
            _ => {}
        }
    }
}

/// Subcommands that take object names (`REV:path`, `:N:path`): the blob is printed or
/// named (`rev-parse HEAD:.env` gives the id `cat-file -p ID` prints).
static OBJECT_NAMES: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "show",
    "cat-file",
    "grep",
    "archive",
    "diff",
    "log",
    "rev-parse",
    "ls-tree",
    "whatchanged",
    "diff-tree",
    "blame",
    "annotate",
]);

/// The path of an object name `REV:path`, `:N:path` (index stage N) or `:path` (the index).
fn object_path(a: &[u8]) -> Option<&[u8]> {
    let i = a.iter().position(|&b| b == b':')?;
    let p = &a[i + 1..];
    if i == 0 && p.len() >= 2 && (b'0'..=b'3').contains(&p[0]) && p[1] == b':' {
        return Some(&p[2..]);
    }
    Some(p)
}

/// Does this subcommand print the contents of tracked files it does not name: a commit's
/// patch (`show`, `log -p`, `whatchanged -p`, `format-patch`), changes (`diff`, `stash show
/// -p`, `add -p`), a search or an archive of the tree (`grep`, `archive`), every object
/// (`cat-file --batch-all-objects`)? A pathspec after `--` that is not only exclusions
/// restricts it to what it names (those paths are checked as operands).
fn prints_tracked(sub: &str, rest: &[Vec<u8>]) -> bool {
    let has = |o: &[&str]| {
        rest.iter()
            .any(|a| o.iter().any(|x| a.as_slice() == x.as_bytes()))
    };
    let patch = has(&[
        "-p",
        "-u",
        "--patch",
        "--patch-with-stat",
        "--patch-with-raw",
        "-c",
        "--cc",
        "-m",
        "--full-diff",
    ]) || rest
        .iter()
        .any(|a| a.starts_with(b"-U") || a.starts_with(b"--unified"));
    let prints = match sub {
        "show" => {
            patch
                || !has(&[
                    "-s",
                    "--no-patch",
                    "--stat",
                    "--numstat",
                    "--shortstat",
                    "--name-only",
                    "--name-status",
                    "--summary",
                    "--raw",
                ])
        }
        // The pickaxe searches the diffs' text and prints what matches: a yes/no oracle on
        // every tracked file's content (red team 8, C8-gitpickaxe: `git log -G '^SECRET=h'`).
        "log" | "whatchanged" | "reflog" | "rev-list" => {
            patch
                || rest.iter().any(|a| {
                    a.starts_with(b"-G")
                        || a.starts_with(b"-S")
                        || a.starts_with(b"--pickaxe")
                        || a.starts_with(b"--find-object")
                        || a.starts_with(b"-L")
                })
        }
        "diff" | "difftool" | "format-patch" | "grep" | "archive" | "range-diff" => {
            !has(&[
                "--stat",
                "--numstat",
                "--shortstat",
                "--name-only",
                "--name-status",
                "--quiet",
                "--exit-code",
            ]) || patch
        }
        "stash" => rest.first().is_some_and(|a| a == b"show") && patch,
        "add" | "checkout" | "restore" | "reset" => has(&["-p", "--patch", "-i", "--interactive"]),
        "cat-file" => rest.iter().any(|a| a.starts_with(b"--batch")),
        _ => false,
    };
    if !prints {
        return false;
    }
    match rest.iter().position(|a| a.as_slice() == b"--") {
        // A folder (`-- .`, `-- src`, `-- ':/'`) or a wildcard still covers tracked files
        // polc does not see named: the index is read as without a pathspec.
        Some(i) => {
            let specs = &rest[i + 1..];
            specs.is_empty()
                || specs.iter().all(|a| excluding_pathspec(a))
                || specs
                    .iter()
                    .any(|a| may_be_folder(a) || a.starts_with(b":"))
        }
        None => true,
    }
}

/// Is `a` an excluding pathspec (`:!x`, `:^x`, `:/!x`, `:(exclude)x`, `:(top,exclude)x`)?
fn excluding_pathspec(a: &[u8]) -> bool {
    let Some(r) = a.strip_prefix(b":") else {
        return false;
    };
    if let Some(inner) = r.strip_prefix(b"(") {
        let close = inner.iter().position(|&b| b == b')').unwrap_or(inner.len());
        return inner[..close]
            .split(|&b| b == b',')
            .any(|w| w.trim_ascii().eq_ignore_ascii_case(b"exclude"));
    }
    r.iter()
        .take_while(|&&b| matches!(b, b'/' | b'!' | b'^'))
        .any(|&b| b == b'!' || b == b'^')
}

/// The paths a git pathspec names, as rules see them. Magic (`:(top,icase)x`, `:/x`,
/// `:!x`) is removed (`:/` alone is the whole tree, `.`); an excluding pathspec names
/// nothing; unless `literal`, git's glob characters `*`, `?`, `[` (quoted from the shell,
/// so not expanded by it) are wildcards (git's `*` also crosses `/`). Case-insensitive
/// matching adds the lowercased form and a form with every letter a wildcard. Empty when
/// the operand is no pathspec form (nothing to add to the literal path).
pub fn pathspec_paths(a: &[u8], literal: bool, icase: bool) -> Vec<Vec<u8>> {
    let (mut lit, mut ic, mut body) = (literal, icase, a);
    let magic = !literal && a.first() == Some(&b':');
    if magic {
        let r = &a[1..];
        if let Some(inner) = r.strip_prefix(b"(") {
            let Some(close) = inner.iter().position(|&b| b == b')') else {
                return vec![];
            };
            for w in inner[..close].split(|&b| b == b',') {
                match w {
                    b"literal" => lit = true,
                    b"icase" => ic = true,
                    b"glob" => lit = false,
                    b"exclude" => return vec![],
                    _ => {}
                }
            }
            body = &inner[close + 1..];
        } else {
            let n = r
                .iter()
                .take_while(|&&b| matches!(b, b'/' | b'!' | b'^'))
                .count();
            if r[..n].iter().any(|&b| b == b'!' || b == b'^') {
                return vec![];
            }
            body = r[n..].strip_prefix(b":").unwrap_or(&r[n..]);
        }
    }
    let globbed = !lit && body.iter().any(|&b| matches!(b, b'*' | b'?' | b'['));
    if !magic && !globbed && !ic {
        return vec![];
    }
    let body: &[u8] = if body.is_empty() { b"." } else { body };
    let p: Vec<u8> = if lit { body.to_vec() } else { git_glob(body) };
    let mut out = vec![p.clone()];
    if ic {
        out.push(p.to_ascii_lowercase());
        out.push(
            p.iter()
                .map(|&b| {
                    if b.is_ascii_alphabetic() {
                        crate::pattern::WILD
                    } else {
                        b
                    }
                })
                .collect(),
        );
    }
    out
}

/// git's glob characters as wildcards: `*`, `?`, and a bracket expression `[…]` (one
/// character) each become one WILD.
fn git_glob(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            b'*' | b'?' => out.push(crate::pattern::WILD),
            b'[' => {
                out.push(crate::pattern::WILD);
                // `[]x]` and `[!]x]`: a `]` first is a member, not the end.
                let mut j = i + 1;
                if matches!(body.get(j), Some(b'!' | b'^')) {
                    j += 1;
                }
                if body.get(j) == Some(&b']') {
                    j += 1;
                }
                match body[j.min(body.len())..].iter().position(|&b| b == b']') {
                    Some(k) => i = j + k,
                    None => i = body.len(),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    out
}

/// Could this path be a folder (then `git add`/`git rm -r` take everything under it)?
/// `.`, `..`, `x/`, a wildcard, or a name without an extension.
fn may_be_folder(p: &[u8]) -> bool {
    let base = super::basename(p);
    p.ends_with(b"/")
        || p.contains(&crate::pattern::WILD)
        || matches!(base, b"" | b"." | b"..")
        || !base.iter().skip(1).any(|&b| b == b'.')
}

/// `git add`/`stash -u`/`hash-object` copy files into the object store, where `git diff
/// --cached`, `git show :0:F` or `git stash show -p` print them: a read (a folder, the
/// whole tree).
fn stores_files(sub: &str, rest: &[Vec<u8>]) -> bool {
    matches!(sub, "add" | "hash-object" | "update-index")
        || (sub == "stash"
            && rest.iter().any(|a| {
                matches!(
                    a.as_slice(),
                    b"-u" | b"--include-untracked" | b"-a" | b"--all"
                )
            }))
}

/// What a subcommand does with an operand; `printed`: after `--`, or a subcommand whose
/// operands are paths (`blame`, `diff --no-index`).
fn operand_access(sub: &str, printed: bool, stores: bool) -> Access {
    match sub {
        // Paths git prints the contents of.
        "show" | "cat-file" | "log" | "diff" | "grep" | "archive" | "blame" | "annotate"
            if printed =>
        {
            Access::Read
        }
        "rm" => Access::Delete,
        // Paths checked out or restored are overwritten.
        "checkout" if printed => Access::Write,
        "restore" | "checkout-index" => Access::Write,
        "clean" => Access::Delete,
        _ if stores && sub != "stash" => Access::Read,
        _ => Access::Unknown,
    }
}

/// Trees git reads outside its index: `--no-index` operands (or here for `grep`), and
/// `git grep --untracked`/`--no-exclude-standard` or `git stash show --only-untracked`/`-u`,
/// which print untracked (and ignored) files such as `.env`.
fn reads_outside_index(
    sub: &str,
    rest: &[Vec<u8>],
    no_index: bool,
    operands: &[&Vec<u8>],
    e: &mut Effects,
) {
    // `git grep --untracked` and `--no-exclude-standard` search untracked (and ignored)
    // files too: `.env`. `git stash show --only-untracked`/`-u` prints untracked files
    // stashed with their contents.
    let untracked = |a: &Vec<u8>| {
        matches!(
            a.as_slice(),
            b"--untracked"
                | b"--no-exclude-standard"
                | b"--only-untracked"
                | b"--include-untracked"
                | b"-u"
        )
    };
    let reads_untracked = (sub == "grep" && rest.iter().any(untracked))
        || (sub == "stash"
            && rest.first().is_some_and(|s| s.as_slice() == b"show")
            && rest.iter().any(untracked));
    if no_index
        || reads_untracked
        || (sub == "grep" && rest.iter().any(|a| a.as_slice() == b"--no-index"))
    {
        // Outside the index, git reads the trees it is given (or here).
        for o in operands {
            e.file((*o).clone(), Access::Read, true);
        }
        if sub == "grep" || reads_untracked {
            e.file(b".".to_vec(), Access::Read, true);
        }
    }
}

/// The files a git subcommand reads, writes or deletes, whether it rewrites the work tree,
/// and whether it reaches the network.
pub fn effects(args: &[Vec<u8>], e: &mut Effects) {
    let targs: Vec<String> = args.iter().map(|a| text(a)).collect();
    let at = subcommand_at(&targs);
    let sub = targs.get(at).cloned().unwrap_or_default();
    let rest = &args[(at + 1).min(args.len())..];
    global_chdirs(args, &targs, at, e);
    e.tree = !LEAVES_TREE.contains(&sub.as_str());
    if NETWORK.contains(&sub.as_str()) {
        e.net = Net::Yes;
    }
    let no_index = rest.iter().any(|a| a.as_slice() == b"--no-index");
    let blame = matches!(sub.as_str(), "blame" | "annotate");
    let literal = targs[..at].iter().any(|a| a == "--literal-pathspecs");
    let icase = targs[..at].iter().any(|a| a == "--icase-pathspecs");
    let stores = stores_files(&sub, rest);
    let recursive_rm = rest.iter().any(|a| {
        a.as_slice() == b"--recursive"
            || (a.starts_with(b"-") && !a.starts_with(b"--") && a.contains(&b'r'))
    });
    e.prints_tracked = prints_tracked(&sub, rest);
    let mut after_dashdash = false;
    let mut operands: Vec<&Vec<u8>> = Vec::new();
    for a in rest {
        if !after_dashdash && a.as_slice() == b"--" {
            after_dashdash = true;
            continue;
        }
        if !after_dashdash && a.starts_with(b"-") {
            continue;
        }
        operands.push(a);
        let access = operand_access(&sub, after_dashdash || blame || no_index, stores);
        let folder_op = (sub == "rm" && recursive_rm) || stores;
        e.file(a.clone(), access, folder_op && may_be_folder(a));
        // The same operand as git reads it: a pathspec (`:(top).env`, `:/x`,
        // `:(icase).ENV`, a quoted `'*.env'` is git's glob) names these paths.
        for p in pathspec_paths(a, literal, icase) {
            let rec = folder_op && may_be_folder(&p);
            e.file(p, access, rec);
        }
        // `REV:path`, `:N:path` and `:path` name a file's contents (blob) in history or
        // in the index.
        if !after_dashdash && OBJECT_NAMES.contains(&sub.as_str()) {
            if let Some(p) = object_path(a) {
                e.file(p.to_vec(), Access::Read, false);
            }
        }
    }
    // A pathspec list made only of exclusions excludes from everything (`git add ':!src'`
    // adds every other file: red team, session 7).
    let only_excludes = !operands.is_empty() && operands.iter().all(|a| excluding_pathspec(a));
    if stores && (sub == "stash" || operands.is_empty() || only_excludes) {
        // `git add -A`/`--all`/`-u`, `stash -u`, `--pathspec-from-file`: the whole tree.
        e.file(b".".to_vec(), Access::Read, true);
    }
    option_files(rest, &sub, e);
    if sub == "log" {
        // `-L START,END:FILE`, `-L:FUNC:FILE` print the file's lines (from history).
        for (k, a) in rest.iter().enumerate() {
            let v = match a.as_slice() {
                b"-L" => rest.get(k + 1).map(|v| v.as_slice()),
                _ if a.starts_with(b"-L") => Some(&a[2..]),
                _ => None,
            };
            if let Some(i) = v.and_then(|v| v.iter().rposition(|&b| b == b':')) {
                e.file(v.unwrap_or_default()[i + 1..].to_vec(), Access::Read, false);
            }
        }
    }
    reads_outside_index(&sub, rest, no_index, &operands, e);
    match sub.as_str() {
        "mv" => {
            if let Some((dest, srcs)) = operands.split_last() {
                for s in srcs {
                    e.file((*s).clone(), Access::Delete, false);
                }
                e.copy_dest(dest, srcs, false);
            }
        }
        "clone" => {
            // The destination folder is created and filled.
            if let Some(d) = operands.get(1) {
                e.file_into((*d).clone());
            } else {
                e.file_into(vec![UNKNOWN]);
            }
        }
        _ => {}
    }
}
