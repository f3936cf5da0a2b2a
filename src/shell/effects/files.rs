//! The file, URL and network columns of the catalogue, per program.

use super::{git, options, text, Access, Effects, Net};
use crate::pattern::WILD;

/// Programs that read every operand.
static READERS: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "cat",
    "tac",
    "head",
    "tail",
    "less",
    "more",
    "most",
    "bat",
    "batcat",
    "nl",
    "rev",
    "od",
    "xxd",
    "hexdump",
    "hd",
    "strings",
    "base64",
    "base32",
    "basenc",
    "uuencode",
    "md5sum",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "b2sum",
    "cksum",
    "sum",
    "wc",
    "uniq",
    "cut",
    "paste",
    "join",
    "comm",
    "diff",
    "diff3",
    "sdiff",
    "cmp",
    "fold",
    "fmt",
    "pr",
    "expand",
    "unexpand",
    "column",
    "jq",
    "yq",
    "file",
    "iconv",
    "zcat",
    "zless",
    "zmore",
    "bzcat",
    "xzcat",
    "zstdcat",
    "lz4cat",
    "xmllint",
    "csvlook",
    "mlr",
    "tsort",
    "ptx",
    "numfmt",
    "gpg",
    "openssl",
    "pygmentize",
    "glow",
    "mdcat",
    "xsv",
    "qsv",
    "strings",
    "readelf",
    "objdump",
    "nm",
    "ldd",
    "identify",
    "pdftotext",
    "source",
    ".",
]);
/// Readers whose first operand is a pattern or script, not a file (unless given by `-e`/`-f`).
static PATTERN_FIRST: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "sed", "gsed", "awk", "gawk", "mawk",
    "nawk", "look",
]);
/// Editors: read and write every operand.
static EDITORS: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "vi",
    "vim",
    "nvim",
    "view",
    "vimdiff",
    "ex",
    "ed",
    "red",
    "nano",
    "pico",
    "emacs",
    "emacsclient",
    "code",
    "codium",
    "sudoedit",
    "micro",
    "hx",
    "helix",
    "kak",
    "joe",
    "jed",
    "mcedit",
    "gedit",
    "kate",
    "subl",
    "sponge",
]);
/// Remove (or move away) every operand.
static DELETERS: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "rm",
    "rmdir",
    "unlink",
    "shred",
    "srm",
    "trash",
    "trash-put",
    "gio",
    // Replacements for rm that remove or move to a bin (red team, session 6).
    "rip",
    "wipe",
    "safe-rm",
    "rmtrash",
    "gtrash",
    "rmw",
    "rimraf",
    "del",
    "del-cli",
    "rmz",
    "grm",
    "gunlink",
    "gshred",
    "grmdir",
    "recycle",
]);
/// Change metadata of every operand after the first (mode, owner, attribute, ACL).
static META_AFTER_FIRST: crate::shell::lists::Names =
    crate::shell::lists::Names::new(&["chmod", "chown", "chgrp", "chattr", "chcon"]);
/// Change metadata or what a path is, every operand.
static META: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "touch", "mount", "umount", "setfacl", "setfattr", "chflags", "utime",
]);
/// Create or overwrite every operand.
static CREATORS: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "mkdir",
    "mkfifo",
    "mknod",
    "truncate",
    "tee",
    "fallocate",
    "mktemp",
]);
/// Copy-like programs: sources, then a destination (or `-t DIR`).
static COPIERS: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "cp", "mv", "ln", "install", "rsync", "scp", "ginstall", "gcp", "ditto",
]);
/// Programs that fetch URLs.
pub static FETCHERS: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "curl", "wget", "wget2", "http", "https", "xh", "xhs", "aria2c", "lynx", "links", "w3m",
    "httpie", "fetch", "curlie",
]);
/// Programs that reach the network (besides fetchers).
static NETWORK: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "ssh", "scp", "sftp", "rsync", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "lftp", "gh",
    "aws", "gcloud", "az", "kubectl", "docker", "podman", "npm", "pnpm", "yarn", "pip", "pip3",
    "uv", "cargo", "go", "gem", "brew", "apt", "apt-get", "dnf", "yum", "dig", "nslookup", "host",
    "ping", "mail", "sendmail", "s3cmd", "rclone", "openssl",
    // Test runners that can upload (`pytest --pastebin`) or fetch as a plugin does.
    "pytest", "py.test", "tox", "nox",
]);
/// Programs whose operands are not opened (names, numbers, text, queries).
static NO_FILES: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "ls", "stat", "test", "[", "[[", "du", "df", "basename", "dirname", "realpath", "readlink",
    "echo", "printf", "pwd", "true", "false", "which", "type", "whereis", "hash", "exit", "return",
    "export", "unset", "set", "shopt", "wait", "kill", "pkill", "sleep", "date", "id", "whoami",
    "uname", "hostname", "ps", "tree", "seq", "yes", "cd", "pushd", "popd", "dirs", "env",
    "printenv", "getconf", "nproc", "uptime", "free", "tty", "stty", "clear", "history", "jobs",
    "fg", "bg", "disown", "umask", "ulimit", "times", "logname", "groups", "locale", "cal", "bc",
    "expr", "factor", "find", "fd", "fdfind", "tr", "git-lfs", "man", "info", "help", "apropos",
    "whatis", "lsof", "pgrep", "top", "htop", "watch", "timeout", "time", "nice", "nohup", "sudo",
    "doas", "command", "builtin", "exec", "xargs", "ionice", "chrt", "taskset", "setsid", "stdbuf",
    "unbuffer", "busybox",
]);
/// Interpreters: the first operand is a script they read and run; the rest is the
/// script's business.
static INTERPRETERS: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "python",
    "python2",
    "python3",
    "pypy",
    "pypy3",
    "node",
    "nodejs",
    "deno",
    "bun",
    "ruby",
    "perl",
    "php",
    "lua",
    "luajit",
    "rscript",
    "julia",
    "tclsh",
    "wish",
    "osascript",
    "groovy",
    "kotlin",
    "scala",
    "swift",
    "elixir",
    "erl",
    "escript",
    "racket",
    "guile",
    "sbcl",
    "ts-node",
    "tsx",
]);

/// GNU programs accept any unambiguous prefix of a long option (`--recur` is
/// `--recursive`): a word of at least `--` and 2 letters that begins a long name counts.
fn long_is(word: &str, long: &str) -> bool {
    let name = word.split_once('=').map(|(n, _)| n).unwrap_or(word);
    // Two letters are enough (`sort --ou F` is `--output F`, checked with GNU sort).
    name == long || (name.len() >= 4 && name.starts_with("--") && long.starts_with(name))
}

fn has_flag(args: &[Vec<u8>], short: char, long: &[&str]) -> bool {
    args.iter().any(|a| {
        // Borrowed for UTF-8 words (no copy per word: segments hold 16,000).
        let a = String::from_utf8_lossy(a);
        (a.starts_with('-') && !a.starts_with("--") && a.len() > 1 && a[1..].contains(short))
            || long.iter().any(|l| long_is(&a, l))
    })
}

/// The value of `-X VALUE`, `-XVALUE`, `--long VALUE` or `--long=VALUE`, every occurrence.
pub(super) fn opt_values(args: &[Vec<u8>], short: &[&str], long: &[&str]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < args.len() {
        let a = &args[k];
        let t = String::from_utf8_lossy(a);
        let mut took = false;
        for s in short {
            if t == *s {
                if let Some(v) = args.get(k + 1) {
                    out.push(v.clone());
                }
                k += 1;
                took = true;
                break;
            }
            if t.starts_with(s) && !t.starts_with("--") && t.len() > s.len() {
                out.push(a[s.len()..].to_vec());
                took = true;
                break;
            }
        }
        if !took && t.starts_with("--") {
            for l in long {
                if !long_is(&t, l) {
                    continue;
                }
                match t.split_once('=') {
                    Some((_, v)) => out.push(v.as_bytes().to_vec()),
                    None => {
                        if let Some(v) = args.get(k + 1) {
                            out.push(v.clone());
                        }
                        k += 1;
                    }
                }
                break;
            }
        }
        k += 1;
    }
    out
}

/// Operands: words that are not options (all words after `--`). The values of the options
/// in `with_arg` are not operands; they are recorded as [`Access::Unknown`] uses, so an
/// option polc models wrongly can only ask, never hide a path.
fn operands<'a>(e: &mut Effects, args: &'a [Vec<u8>], with_arg: &[&str]) -> Vec<&'a Vec<u8>> {
    let mut v = Vec::new();
    let mut after = false;
    let mut k = 0;
    while k < args.len() {
        let a = &args[k];
        k += 1;
        if !after && a.as_slice() == b"--" {
            after = true;
            continue;
        }
        if after || !a.starts_with(b"-") || a.as_slice() == b"-" {
            v.push(a);
        } else if with_arg.iter().any(|o| o.as_bytes() == a.as_slice()) {
            if let Some(val) = args.get(k) {
                e.file(val.clone(), Access::Unknown, false);
            }
            k += 1;
        }
    }
    v
}

/// Every word of an unknown command that could name a path: operands, `--opt=VALUE` and
/// `NAME=VALUE` values, `@file`, and the blank-separated pieces of a word
/// (`sqlite3 db ".read .env"`).
fn unknown_candidates(e: &mut Effects, args: &[Vec<u8>]) {
    for a in args {
        let mut cands: Vec<&[u8]> = Vec::new();
        if !a.starts_with(b"-") || a.as_slice() == b"-" {
            cands.push(a);
        }
        if let Some(i) = a.iter().position(|&b| b == b'=') {
            cands.push(&a[i + 1..]);
        }
        if let Some(rest) = a.strip_prefix(b"@") {
            cands.push(rest);
        }
        if a.iter().any(|b| b.is_ascii_whitespace()) {
            for piece in a.split(|b| b.is_ascii_whitespace()) {
                cands.push(piece);
            }
        }
        // `-sSLoFILE`: a value attached after any letter of a cluster.
        let suffixes = options::cluster_suffixes(a);
        for c in &suffixes {
            cands.push(c);
        }
        for c in cands {
            let c = c.strip_prefix(b"@").unwrap_or(c);
            if !c.is_empty() && !c.starts_with(b"-") {
                // A program may expand glob characters the shell left alone (`mmv
                // ".claude/*" "x/#1"`): quoted `*` and `?` are wildcards here too.
                let globbed: Vec<u8> = c
                    .iter()
                    .map(|&b| if b == b'*' || b == b'?' { WILD } else { b })
                    .collect();
                e.file(globbed, Access::Unknown, false);
            }
        }
    }
}

/// Values attached to options (`--opt=VALUE`, `-xVALUE`, `-d@file`, `name@file`): a known
/// program may open them, and polc does not model every option of every program, so each
/// is an [`Access::Unknown`] use (a denied path there asks, never hides).
fn attached_values(e: &mut Effects, args: &[Vec<u8>]) {
    for a in args {
        if !a.starts_with(b"-") || a.len() < 3 {
            continue;
        }
        let v: &[u8] = if a.starts_with(b"--") {
            match a.iter().position(|&b| b == b'=') {
                Some(i) => &a[i + 1..],
                None => continue,
            }
        } else {
            &a[2..]
        };
        let v = match v.iter().position(|&b| b == b'@') {
            Some(i) => &v[i + 1..],
            None => v,
        };
        if !v.is_empty() {
            e.file(v.to_vec(), Access::Unknown, false);
        }
        // `-kT.env`, `-uoFILE`: the value may start after any letter of the cluster.
        if !a.starts_with(b"--") {
            for s in options::cluster_suffixes(a) {
                e.file(s, Access::Unknown, false);
            }
        }
    }
}

/// `tree --fromfile F`, `--fromtabfile F`: the operands are files whose lines are printed as
/// a listing (red team, session 6).
fn tree_from_files(e: &mut Effects, args: &[Vec<u8>]) {
    if args
        .iter()
        .any(|a| a.starts_with(b"--fromfile") || a.starts_with(b"--fromtabfile"))
    {
        for v in opt_values(args, &[], &["--fromfile", "--fromtabfile"]) {
            e.file(v, Access::Read, false);
        }
        for o in operands(e, args, &["-o", "-L", "-P", "-I", "-H", "-T"]) {
            e.file(o.clone(), Access::Read, false);
        }
    }
}

/// Programs that read the folder's `.env` files without naming them, and print or export
/// their values (red team, session 6: `python3 -m dotenv list`, `dotenvx get`, `docker
/// compose config`): a read of `.env` and `.env.*`, as `cat .env` is.
fn dotenv_readers(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    let reads = match n {
        "dotenv" | "dotenvx" | "dotenv-cli" | "env-cmd" | "foreman" | "honcho" | "forego"
        | "overmind" | "hivemind" | "dotenv-linter" | "dotenv-vault" => true,
        "python" | "python3" | "pypy3" => args
            .windows(2)
            .any(|w| w[0] == b"-m" && (w[1] == b"dotenv" || w[1] == b"dotenv_cli")),
        // `docker compose [--project-directory D] config`: any word after `compose`.
        "docker" | "podman" | "nerdctl" | "docker-compose" | "podman-compose" => {
            let words: Vec<&[u8]> = args.iter().map(Vec::as_slice).collect();
            let from = if n.ends_with("compose") {
                Some(0)
            } else {
                words.iter().position(|w| *w == b"compose")
            };
            from.is_some_and(|i| {
                words[i..]
                    .iter()
                    .any(|w| *w == b"config" || *w == b"convert")
            })
        }
        _ => false,
    };
    if reads {
        e.file(b".env".to_vec(), Access::Read, false);
        e.file(
            vec![b'.', b'e', b'n', b'v', b'.', crate::pattern::WILD],
            Access::Read,
            false,
        );
    }
}

/// Subcommands that print a stored credential (red team, session 6: `aws configure
/// export-credentials`, `gcloud auth print-access-token`): a read of the file that holds it,
/// as `cat` of that file is.
fn credential_printers(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    let words: Vec<&[u8]> = args
        .iter()
        .filter(|a| !a.starts_with(b"-"))
        .map(Vec::as_slice)
        .collect();
    let has = |seq: &[&str]| {
        words
            .windows(seq.len())
            .any(|w| w.iter().zip(seq).all(|(a, b)| *a == b.as_bytes()))
    };
    let file: &[u8] = match n {
        "aws"
            if has(&["configure", "export-credentials"])
                || has(&["configure", "get"])
                || has(&["ecr", "get-login-password"])
                || has(&["ecr-public", "get-login-password"])
                || has(&["codeartifact", "get-authorization-token"])
                // STS turns the stored credentials into fresh secret ones on stdout (red
                // team 8, C8-tokenprint).
                || has(&["sts", "get-session-token"])
                || has(&["sts", "get-federation-token"])
                || words.windows(2).any(|w| {
                    w[0] == b"sts" && w[1].starts_with(b"assume-role")
                }) =>
        {
            b"~/.aws/credentials"
        }
        "gcloud"
            if has(&["print-access-token"])
                || has(&["print-identity-token"])
                || has(&["config", "config-helper"]) =>
        {
            b"~/.config/gcloud/credentials.db"
        }
        "gh" | "glab"
            if has(&["auth", "token"])
                || has(&["auth", "status"])
                    && args.iter().any(|a| a == b"--show-token" || a == b"-t")
                // `gh config get -h HOST oauth_token` prints the stored token.
                || (has(&["config", "get"])
                    && words.iter().any(|w| w.ends_with(b"token"))) =>
        {
            b"~/.config/gh/hosts.yml"
        }
        "az" if has(&["get-access-token"]) => b"~/.azure/msal_token_cache.json",
        "vault" if has(&["print", "token"]) => b"~/.vault-token",
        "heroku" if has(&["auth:token"]) => b"~/.netrc",
        "kubectl" | "oc" if has(&["config", "view"]) && args.iter().any(|a| a == b"--raw") => {
            b"~/.kube/config"
        }
        "git" if has(&["credential", "fill"]) => b"~/.git-credentials",
        _ if n.starts_with("docker-credential-") && has(&["get"]) => b"~/.docker/config.json",
        _ => return,
    };
    e.file(file.to_vec(), Access::Read, false);
}

/// An agent's own configuration subcommands (`claude mcp add -s project …` writes
/// `.mcp.json`, `claude mcp add` writes `~/.claude.json`, `gemini extensions install`,
/// `codex mcp add`, `openclaw plugins disable polc`): writes of the files they change, so
/// self-protection judges them as it judges `cp x .mcp.json` (red team, session 6).
fn agent_configuration(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    const CHANGES: &[&str] = &[
        "add",
        "add-json",
        "add-from-claude-desktop",
        "remove",
        "rm",
        "set",
        "unset",
        "install",
        "uninstall",
        "enable",
        "disable",
        "update",
        "link",
        "new",
        "import",
        "reset",
        "reset-project-choices",
        "login",
        "trust",
        "allow",
        "approve",
    ];
    const AREAS: &[&str] = &[
        "mcp",
        "config",
        "plugin",
        "plugins",
        "extension",
        "extensions",
        "hooks",
        "permissions",
        "marketplace",
        "skills",
        "agents",
        "settings",
    ];
    if !super::super::lists::AGENT_CLIS.contains(&n) {
        return;
    }
    let words: Vec<String> = args
        .iter()
        .filter(|a| !a.starts_with(b"-"))
        .map(|a| text(a))
        .collect();
    let changes = words
        .windows(2)
        .any(|w| AREAS.contains(&w[0].as_str()) && CHANGES.contains(&w[1].as_str()));
    if !changes {
        return;
    }
    let files: &[&str] = match n {
        "claude" => &[
            ".mcp.json",
            ".claude/settings.json",
            ".claude/settings.local.json",
            "~/.claude.json",
            "~/.claude/settings.json",
        ],
        "gemini" => &[
            ".gemini/settings.json",
            ".gemini/extensions",
            "~/.gemini/settings.json",
            "~/.gemini/extensions",
        ],
        "codex" => &["~/.codex/config.toml", ".codex/config.toml"],
        "copilot" => &["~/.copilot/config.json", "~/.copilot/mcp-config.json"],
        "cursor-agent" => &[".cursor/mcp.json", "~/.cursor/mcp.json", ".cursor/cli.json"],
        "droid" => &[
            ".factory/settings.json",
            ".factory/mcp.json",
            "~/.factory/settings.json",
        ],
        "opencode" => &["opencode.json", "~/.config/opencode/opencode.json"],
        "openclaw" => &["~/.openclaw/openclaw.json", "~/.openclaw/extensions"],
        "vibe" => &[".vibe/config.toml", "~/.vibe/config.toml"],
        // Another agent's files polc does not know: any path (self-protection asks).
        _ => &[],
    };
    if files.is_empty() {
        e.file(vec![crate::pattern::WILD], Access::Write, true);
    }
    for f in files {
        e.file(f.as_bytes().to_vec(), Access::Write, false);
    }
}

/// Operands named in a list file (or read from stdin) that polc cannot see: `xz
/// --files=LIST` compresses and removes every file LIST names, `zstd --rm --filelist LIST`,
/// `sort --files0-from=LIST` prints them (red team, session 6). Any path may be used the way
/// the program uses its operands.
fn list_operands(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    let has = |names: &[&str]| {
        args.iter().any(|a| {
            names.iter().any(|o| {
                a.as_slice() == o.as_bytes()
                    || (a.starts_with(o.as_bytes()) && a.get(o.len()) == Some(&b'='))
            })
        })
    };
    let flag = |names: &[&str]| args.iter().any(|a| names.iter().any(|o| a == o.as_bytes()));
    let access = match n {
        "xz" | "lzma" | "unxz" | "unlzma" | "xzcat" | "lzcat" | "xzdec" | "lzmadec"
            if has(&["--files", "--files0"]) =>
        {
            let keeps = flag(&[
                "-k", "--keep", "-c", "--stdout", "-t", "--test", "-l", "--list",
            ]) || n.ends_with("cat")
                || n.ends_with("dec");
            if keeps {
                Access::Read
            } else {
                Access::Delete
            }
        }
        "zstd" | "unzstd" | "zstdcat" | "zstdmt" if has(&["--filelist"]) => {
            if flag(&["--rm"]) {
                Access::Delete
            } else {
                Access::Write
            }
        }
        "sort" | "wc" | "du" | "cat" | "head" | "tail" if has(&["--files0-from"]) => Access::Read,
        // `tar -cf - -T LIST` archives every file LIST (or stdin) names; `cfT` bundled the
        // old way; extracting with a list writes the members it names (red team, session 7).
        "tar" | "bsdtar" | "gtar" if has(&["--files-from", "-T"]) || tar_bundled_list(args) => {
            let extracting = args.iter().any(|a| {
                a == b"--extract"
                    || a == b"--get"
                    || (a.first() == Some(&b'-') && a.get(1) != Some(&b'-') && a.contains(&b'x'))
                    || (a.first() != Some(&b'-') && a.contains(&b'x') && a.contains(&b'f'))
            });
            if extracting {
                Access::Write
            } else {
                Access::Read
            }
        }
        _ => return,
    };
    e.file(vec![crate::pattern::WILD], access, true);
}

/// Programs whose input language names files they read (red team, session 7): the C
/// preprocessor's `#include ".env"`, roff's `.so FILE`, TeX's `\input{F}`, Dhall's `./F as
/// Text`; jq's and yq's `import "P" as $x;` (`P.json` under `-L DIR`, the current folder or
/// the directive's `{search: …}`) and yq's `load(F)`/`load_str(F)`. Their input (stdin or a
/// file the agent may have written) cannot be read here: any path may be read.
fn included_files(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    let reads_any = match n {
        "cpp" | "mcpp" | "nroff" | "groff" | "troff" | "gtroff" | "gnroff" | "soelim" | "tex"
        | "latex" | "pdflatex" | "xelatex" | "lualatex" | "pdftex" | "luatex" | "xetex"
        | "etex" | "latexmk" | "tectonic" | "context" | "dhall" | "dhall-to-json"
        | "dhall-to-yaml" => true,
        "jq" | "gojq" | "jaq" | "yq" | "xq" | "tomlq" => {
            args.iter().any(|a| module_directive(a))
                || args.iter().any(|a| {
                    a.starts_with(b"-L") || a == b"--library-path" || a.starts_with(b"-nL")
                })
        }
        _ => compiler_reads_any(n, args),
    };
    if reads_any {
        e.file(vec![crate::pattern::WILD], Access::Read, true);
    }
}

/// A compiler driver, assembler or rustc fed its source on stdin (`-`, or an assembler with
/// no input file), or only preprocessing (`-E`): the text, which polc does not see, names
/// the files it includes (`#include ".env"`, C23 `#embed`, `.incbin`, `%include`,
/// `include_str!`) and the output or the diagnostics print them (red team 8,
/// C8-compilerstdin). A source file given by name is read as that file (the agent may have
/// written it: see the README's limits).
fn compiler_reads_any(n: &str, args: &[Vec<u8>]) -> bool {
    // `x86_64-linux-gnu-gcc-12` is gcc.
    let base = n.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let base = base.strip_suffix('-').unwrap_or(base);
    let base = base.rsplit('-').next().unwrap_or(base);
    let driver = matches!(
        base,
        "gcc"
            | "cc"
            | "g++"
            | "c++"
            | "clang"
            | "clang++"
            | "tcc"
            | "gfortran"
            | "icc"
            | "icx"
            | "icpx"
            | "cpp"
            | "rustc"
            | "zig"
    );
    let assembler = matches!(base, "as" | "gas" | "mc" | "nasm" | "yasm");
    if !driver && !assembler {
        return false;
    }
    let stdin = args.iter().any(|a| a.as_slice() == b"-");
    let preprocess = driver && args.iter().any(|a| a.as_slice() == b"-E");
    // `as` and `llvm-mc` read stdin when no input file is named.
    let no_input = assembler
        && matches!(base, "as" | "gas" | "mc")
        && !args.iter().enumerate().any(|(k, a)| {
            !a.starts_with(b"-")
                && !args.get(k.wrapping_sub(1)).is_some_and(|o| {
                    matches!(
                        o.as_slice(),
                        b"-o" | b"-I" | b"--defsym" | b"-march" | b"-mcpu" | b"-triple" | b"--arch"
                    )
                })
        });
    stdin || preprocess || no_input
}

/// A jq/yq program word holding a module directive (`import "P" as $x;`, `include "P";`) or
/// a file loader (`load("F")`, `load_str(F)`, `load_xml(…)`): each a whole word, not part of
/// a key (`.payload`, `.imported` stay plain).
fn module_directive(a: &[u8]) -> bool {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.';
    let at_word = |i: usize| i == 0 || !ident(a[i - 1]);
    (0..a.len()).any(|i| {
        if !at_word(i) {
            return false;
        }
        let rest = &a[i..];
        for kw in [&b"import"[..], b"include"] {
            if let Some(r) = rest.strip_prefix(kw) {
                if r.first()
                    .is_some_and(|c| c.is_ascii_whitespace() || *c == b'"')
                {
                    return true;
                }
            }
        }
        if let Some(r) = rest.strip_prefix(b"load") {
            let name = r
                .iter()
                .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_')
                .count();
            let after = r[name..].iter().find(|c| !c.is_ascii_whitespace());
            return after == Some(&b'(');
        }
        false
    })
}

/// tar's first word in the old bundled form (`cfT`, `-cfT`, `czvT`): holds `T`.
fn tar_bundled_list(args: &[Vec<u8>]) -> bool {
    args.iter().take(2).any(|a| {
        let b = a.strip_prefix(b"-").unwrap_or(a);
        !b.starts_with(b"-")
            && b.len() > 1
            && b.contains(&b'T')
            && b.iter().all(u8::is_ascii_alphabetic)
    })
}

/// Options whose value is a file the program reads (any program).
const READ_OPTS: &[&str] = &[
    "--from-file",
    "--to-file",
    "--files0-from",
    "--files-from",
    "--magic-file",
    // `tree --fromfile F` / `--fromtabfile F` prints F's lines as a listing (red team,
    // session 6).
    "--fromfile",
    "--fromtabfile",
    "--fromfile",
    "--file",
    "--arg-file",
    "--pathspec-from-file",
    "--exclude-from",
    "--env-file",
    "--rcfile",
    "--init-file",
    "--config",
    "--settings",
    "--load-cookies",
];
/// Options whose value is a file the program writes (any program).
const WRITE_OPTS: &[&str] = &[
    "--output",
    "--output-file",
    "--log-file",
    "--dump-header",
    "--trace",
    "--trace-ascii",
    "--stderr",
    "--libcurl",
    "--cookie-jar",
    "--outfile",
    "--out-file",
    "--save",
    "--save-cookies",
    "--index-file",
    "--volno-file",
    "--listed-incremental",
];

pub(super) fn effects(e: &mut Effects, args: &[Vec<u8>]) {
    // Short-option clusters split the way the program's getopt reads them (`curl -sSLo F`
    // is `curl -s -S -L -o F`): every branch below then sees the option and its value.
    let split = options::split_clusters(&e.program, args);
    effects_of(e, split.as_deref().unwrap_or(args));
    // Names a program makes from an operand and an option (`sed -i.json`, `cp -b -S`).
    let program = e.program.clone();
    super::derived::derived_names(e, &program, args);
    // Programs whose operands are not files have no file-valued options worth a prompt
    // (`ls -la`, `echo -n`); `find` has its own branch.
    let plain = NO_FILES.contains(&e.program.as_str()) && e.program != "find";
    if e.known && !plain {
        attached_values(e, args);
        for v in opt_values(args, &[], READ_OPTS) {
            e.file(v, Access::Read, false);
        }
        for v in opt_values(args, &[], WRITE_OPTS) {
            e.file(v, Access::Write, false);
        }
    }
}

fn effects_of(e: &mut Effects, args: &[Vec<u8>]) {
    let name = e.program.clone();
    let n = name.as_str();
    let base = n.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    e.known = true;
    wrapper_options(e, n, args);
    list_operands(e, n, args);
    included_files(e, n, args);
    agent_configuration(e, n, args);
    dotenv_readers(e, n, args);
    credential_printers(e, n, args);
    // `pytest @.env` prints the file's lines in its error (red team, session 6).
    if super::toolflags::reads_response_files(n)
        || (n == "go" && args.first().is_some_and(|a| a == b"tool"))
    {
        for f in super::toolflags::response_files(args) {
            e.file(f, Access::Read, false);
        }
    }
    let handled = super::builds::build_tools(e, n, args)
        || files_read_or_written(e, n, args)
        || converters(e, n, args)
        || files_changed(e, n, args)
        || archives_and_fetchers(e, n, args)
        || copies_from_elsewhere(e, n, args)
        || rewriters(e, n, args)
        || other_known(e, n, base, args);
    if !handled {
        e.known = false;
        e.net = Net::Maybe;
        unknown_candidates(e, args);
    }
    // A network program is `Yes` even when polc does not model its arguments (`nc`, `socat`
    // fell to the unknown branch's `Maybe` before: a send after a secret read only asked).
    if NETWORK.contains(&n) {
        e.net = Net::Yes;
    }
    more_uses(e, n, args);
    // gpg's keyserver operations send or fetch keys (`--send-keys` after a secret read).
    if matches!(n, "gpg" | "gpg2")
        && args.iter().any(|a| {
            let t = text(a);
            [
                "--send-key",
                "--recv-key",
                "--receive-keys",
                "--keyserver",
                "--search-keys",
                "--refresh-keys",
                "--fetch-keys",
                "--locate-keys",
                "--locate-external-keys",
                "--auto-key-locate",
                "--auto-key-retrieve",
            ]
            .iter()
            .any(|o| t.starts_with(o))
        })
    {
        e.net = Net::Yes;
    }
    e.installs = installs(n, args);
    e.installs_local = !e.installs && installs_local(n, args);
}

/// Package managers installing into the project's or the active environment's own folders
/// (red team, session 6: with `node_modules/.bin` on `PATH`, `npm install ./pkg` put a
/// `polc` there ahead of the real one).
fn installs_local(n: &str, args: &[Vec<u8>]) -> bool {
    let sub = args
        .iter()
        .find(|a| !a.starts_with(b"-"))
        .map(|a| text(a))
        .unwrap_or_default();
    match n {
        "npm" | "pnpm" | "yarn" | "bun" => {
            // `yarn` alone installs.
            sub.is_empty() && n == "yarn"
                || matches!(
                    sub.as_str(),
                    "install"
                        | "i"
                        | "add"
                        | "ci"
                        | "link"
                        | "update"
                        | "up"
                        | "upgrade"
                        | "rebuild"
                        | "dedupe"
                        | "isntall"
                        | "in"
                        | "ins"
                        | "inst"
                        | "insta"
                        | "instal"
                        | "it"
                        | "install-test"
                        | "install-ci-test"
                        | "clean-install"
                )
        }
        "pip" | "pip3" | "easy_install" | "pipenv" | "poetry" | "pdm" | "conda" | "mamba"
        | "micromamba" | "pixi" | "composer" | "bundle" | "gem" => {
            matches!(
                sub.as_str(),
                "install" | "add" | "sync" | "update" | "upgrade"
            )
        }
        "uv" => matches!(sub.as_str(), "sync" | "add" | "pip" | "run"),
        "python" | "python3" => args
            .windows(2)
            .any(|w| w[0] == b"-m" && (w[1] == b"pip" || w[1] == b"ensurepip")),
        _ => false,
    }
}

/// Does a recursive reader or writer follow the links it meets (red team, session 5: with a
/// planted `src/up -> ..`, `grep -R SECRET src` printed `.env`)?
fn follows_links(n: &str, args: &[Vec<u8>]) -> bool {
    let short = |c: u8| {
        args.iter()
            .any(|a| a.starts_with(b"-") && !a.starts_with(b"--") && a.contains(&c))
    };
    let long = |o: &[u8]| args.iter().any(|a| a.starts_with(o));
    match n {
        "grep" | "egrep" | "fgrep" | "ggrep" => short(b'R') || long(b"--dereference-recursive"),
        "rg" | "ag" | "ack" => short(b'L') || long(b"--follow"),
        // GNU diff follows links inside the folders it compares.
        "diff" | "gdiff" => short(b'r') || long(b"--recursive"),
        "find" | "gfind" => args
            .iter()
            .any(|a| a.as_slice() == b"-L" || a.as_slice() == b"-follow"),
        "chown" | "chgrp" | "chmod" | "setfacl" | "cp" | "ls" | "du" => {
            short(b'L') || long(b"--dereference")
        }
        "tar" | "gtar" => long(b"--dereference") || short(b'h'),
        "rsync" => short(b'L') || long(b"--copy-links") || long(b"--copy-unsafe-links"),
        "zip" => short(b'r') && !short(b'y'),
        _ => false,
    }
}

/// Uses that programs in any branch above also have: output folders emptied, the history
/// builtin's files, local files given as pages, editors that reach the network (red team,
/// session 5).
fn more_uses(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    super::builds::output_wipes(e, n, args);
    manifest_edits(e, n, args);
    e.follows_links = follows_links(n, args);
    // `history -w FILE` / `-a FILE` write the history list into FILE (`history -s TEXT`
    // puts any text there first), `-r FILE` / `-n FILE` read FILE into it (then `history`
    // prints it): red team, session 5.
    if n == "history" {
        let mut access = None;
        for a in args {
            if a.starts_with(b"-") && a.len() > 1 {
                if a.contains(&b'w') || a.contains(&b'a') {
                    access = Some(Access::Write);
                } else if a.contains(&b'r') || a.contains(&b'n') {
                    access = Some(Access::Read);
                }
            } else if let Some(acc) = access {
                e.file(a.clone(), acc, false);
                break;
            }
        }
    }
    // Programs that print a local file given where a page name or URL is expected:
    // `man -l F`, `man ./F` (man-db reads an operand holding `/` as a file), the text
    // browsers' `-dump F` (red team, session 5).
    let page_readers = match n {
        "man" => {
            let local = args
                .iter()
                .any(|a| a.as_slice() == b"-l" || a.starts_with(b"--local"));
            args.iter()
                .filter(|a| !a.starts_with(b"-"))
                .filter(|a| local || a.contains(&b'/'))
                .cloned()
                .collect()
        }
        "lynx" | "links" | "links2" | "elinks" | "w3m" | "browsh" => args
            .iter()
            .filter(|a| !a.starts_with(b"-") && !a.windows(3).any(|w| w == b"://"))
            .cloned()
            .collect(),
        _ => Vec::new(),
    };
    for p in page_readers {
        e.file(p, Access::Read, false);
    }
    // VS Code and its forks download extensions from a marketplace, open a tunnel to the
    // machine or serve it over the web (red team, session 5: steps of the exfiltration
    // sequence).
    if matches!(
        n,
        "code" | "codium" | "code-insiders" | "code-oss" | "vscodium" | "cursor" | "windsurf"
    ) && args.iter().any(|a| {
        let t = text(a);
        t.starts_with("--install-extension")
            || t.starts_with("--update-extensions")
            || matches!(t.as_str(), "tunnel" | "serve-web" | "--remote" | "--tunnel")
    }) {
        e.net = Net::Yes;
    }
}

/// Compilers and linkers: `-o FILE` (`-oFILE`), dependency files and maps are written,
/// sources read.
pub(super) fn compiler_files(e: &mut Effects, args: &[Vec<u8>]) {
    // Compilers write `-o FILE` (`-oFILE` attached) and read their sources.
    for v in opt_values(args, &["-o"], &["--out-dir"]) {
        e.file(v, Access::Write, false);
    }
    // rustc `--emit=link=F,metadata=G`: each `KIND=PATH` writes PATH (a bare KIND writes
    // next to the output).
    for v in opt_values(args, &[], &["--emit"]) {
        for kind in text(&v).split(',') {
            if let Some((_, path)) = kind.split_once('=') {
                e.file(path.as_bytes().to_vec(), Access::Write, false);
            }
        }
    }
    // Dependency files, maps and dumps: `-MF F`, `-Wl,-Map=F`, `-save-temps=` folder.
    for v in opt_values(args, &["-MF"], &["--output"]) {
        e.file(v, Access::Write, false);
    }
    for a in args {
        let t = text(a);
        if let Some(i) = t.find("-Map=").or_else(|| t.find("--Map=")) {
            let v = &t[i..];
            let v = &v[v.find('=').unwrap_or(0) + 1..];
            e.file(
                v.split(',').next().unwrap_or("").as_bytes().to_vec(),
                Access::Write,
                false,
            );
        }
    }
    for p in operands(
        e,
        args,
        &["-o", "-I", "-L", "-l", "-x", "-D", "-U", "-include"],
    ) {
        e.file(p.clone(), Access::Read, false);
    }
}

/// Readers and writers of named files: `uniq`, compilers, `tree`, the readers, `sort`, `split`.
fn files_read_or_written(e: &mut Effects, n: &str, args: &[Vec<u8>]) -> bool {
    if matches!(n, "uniq" | "xxd") {
        // `uniq IN OUT`, `xxd [-r] IN OUT`: the second operand is written.
        // Only uniq's `-f N`, `-s N`, `-w N` take a value (`uniq -c IN OUT` writes OUT).
        let with_arg: &[&str] = if n == "uniq" {
            &["-f", "-s", "-w"]
        } else {
            &["-c", "-g", "-l", "-o", "-s"]
        };
        let ops = operands(e, args, with_arg);
        if let Some(i) = ops.first() {
            e.file((*i).clone(), Access::Read, false);
        }
        if let Some(o) = ops.get(1) {
            e.file((*o).clone(), Access::Write, false);
        }
    } else if matches!(
        n,
        "cc" | "gcc" | "g++" | "c++" | "clang" | "clang++" | "ld" | "rustc" | "tcc" | "as" | "nasm"
    ) {
        compiler_files(e, args);
    } else if n == "tree" {
        for v in opt_values(args, &["-o"], &["--output"]) {
            e.file(v, Access::Write, false);
        }
        tree_from_files(e, args);
        if has_flag(args, 'R', &[]) && has_flag(args, 'H', &[]) {
            // `tree -R -H URL`: writes `00Tree.html` into every folder it walks.
            let ops = operands(e, args, &["-o", "-L", "-P", "-I", "-H", "-T"]);
            if ops.is_empty() {
                e.file_into(b".".to_vec());
            }
            for d in ops {
                e.file_into(d.clone());
            }
        }
        for v in opt_values(args, &[], &["--fromfile"]) {
            e.file(v, Access::Read, false);
        }
        if args.iter().any(|a| a.as_slice() == b"--fromfile") {
            for p in operands(e, args, &["-o", "-L", "-P", "-I"]) {
                e.file(p.clone(), Access::Read, false);
            }
        }
    } else if READERS.contains(&n) {
        // Option values are read as operands too: a path is never hidden behind a flag
        // polc reads wrongly (`cat -n .env`), and `head -n 5` only adds a harmless `5`.
        let ops = operands(e, args, &[]);
        // `diff -r A B` reads both trees.
        let recursive = n == "diff" && has_flag(args, 'r', &["--recursive"]);
        for p in ops {
            e.file(p.clone(), Access::Read, recursive);
        }
        if matches!(n, "less" | "more" | "most") {
            for v in opt_values(args, &["-o", "-O"], &["--log-file", "--LOG-FILE"]) {
                e.file(v, Access::Write, false);
            }
        }
        reader_outputs(e, n, args);
        if n == "yq" && has_flag(args, 'i', &["--inplace"]) {
            // `yq -i EXPR FILE` rewrites its files.
            for p in operands(e, args, &[]) {
                e.file(p.clone(), Access::Write, false);
            }
        }
        if n == "gpg" || n == "openssl" {
            for v in opt_values(args, &["-o"], &["--output", "-out"]) {
                e.file(v, Access::Write, false);
            }
            unknown_candidates(e, args);
        }
    } else if n == "sort" {
        for v in opt_values(args, &["-o"], &["--output"]) {
            e.file(v, Access::Write, false);
        }
        // Temporary files are written under `-T DIR`.
        for v in opt_values(args, &["-T"], &["--temporary-directory"]) {
            e.file_into(v);
        }
        for p in operands(e, args, &["-o", "-k", "-t", "-S", "-T"]) {
            e.file(p.clone(), Access::Read, false);
        }
    } else if n == "split" || n == "csplit" {
        // `split IN PREFIX` writes PREFIXaa, PREFIXab, …
        let ops = operands(e, args, &["-b", "-l", "-n", "-a", "-C", "-t", "-f"]);
        if let Some(i) = ops.first() {
            e.file((*i).clone(), Access::Read, false);
        }
        // (csplit's operands after the input are patterns: its names are `derived.rs`'s.)
        if n == "split" {
            let mut out = ops.get(1).map(|p| p.to_vec()).unwrap_or(b"x".to_vec());
            out.push(WILD);
            e.file(out, Access::Write, false);
        }
    } else {
        return false;
    }
    true
}

/// gzip and the compressors with its interface (parallel ones: red team 8, C8-derivedname).
const COMPRESSORS: &[&str] = &[
    "gzip",
    "gunzip",
    "bzip2",
    "bunzip2",
    "xz",
    "unxz",
    "zstd",
    "unzstd",
    "lz4",
    "lzma",
    "brotli",
    "compress",
    "uncompress",
    "pigz",
    "unpigz",
    "pbzip2",
    "lbzip2",
    "pixz",
    "pzstd",
    "lzip",
    "plzip",
    "lunzip",
    "lzop",
];

/// What a compressor writes: each operand in place, and the name it makes of it.
fn compressors(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    let stdout = has_flag(args, 'c', &["--stdout", "--to-stdout"]);
    let access = if stdout { Access::Read } else { Access::Write };
    let recursive = has_flag(args, 'r', &["--recursive"]);
    let decompress = n.starts_with("un") || n == "lunzip" || has_flag(args, 'd', &["--decompress"]);
    let suffixes = opt_values(args, &["-S"], &["--suffix"]);
    for p in operands(e, args, &["-S", "--suffix", "-o"]) {
        e.file(p.clone(), access, recursive);
        if !stdout {
            // The names written for certain: `x.json.gz` → `x.json` when decompressing,
            // `x` → `x` + the `-S` suffix when compressing.
            if decompress {
                if let Some(i) = p.iter().rposition(|&b| b == b'.') {
                    if i > 0 && !p[i..].contains(&b'/') {
                        e.file(p[..i].to_vec(), Access::Write, false);
                    }
                }
            } else {
                for s in &suffixes {
                    let mut out = p.clone();
                    out.extend_from_slice(s);
                    e.file(out, Access::Write, false);
                }
            }
            // Decompressing `x.gz` writes `x`; compressing `x` writes `x.gz`: any name
            // starting with the operand's stem.
            let stem: Vec<u8> = match p.iter().rposition(|&b| b == b'.') {
                Some(i) if i > 0 && !p[i..].contains(&b'/') => p[..i].to_vec(),
                _ => p.clone(),
            };
            let mut out = stem;
            out.push(WILD);
            e.file(out, Access::Write, false);
        }
    }
}

/// Editors, deleters, metadata changers, creators, copiers, `link`, `dd`, and pattern-first programs (`grep`, `sed`).
fn files_changed(e: &mut Effects, n: &str, args: &[Vec<u8>]) -> bool {
    if PATTERN_FIRST.contains(&n) {
        pattern_first(e, n, args);
    } else if EDITORS.contains(&n) {
        for p in operands(
            e,
            args,
            &["-c", "--cmd", "-S", "-u", "-i", "-T", "-w", "-W"],
        ) {
            if !p.starts_with(b"+") {
                e.file(p.clone(), Access::Write, false);
            }
        }
    } else if DELETERS.contains(&n) {
        let recursive = (matches!(n, "rm" | "grm")
            && (has_flag(args, 'r', &["--recursive"]) || has_flag(args, 'R', &[])))
            || !matches!(
                n,
                "rm" | "grm"
                    | "rmdir"
                    | "grmdir"
                    | "unlink"
                    | "gunlink"
                    | "shred"
                    | "gshred"
                    | "srm"
            );
        for p in operands(e, args, &[]) {
            if n == "gio" && p.as_slice() == b"trash" {
                continue;
            }
            e.file(p.clone(), Access::Delete, recursive);
        }
    } else if META_AFTER_FIRST.contains(&n) {
        let recursive = has_flag(args, 'R', &["--recursive"]);
        // The mode or owner is not skipped: it may be written like an option (`chmod -x f`,
        // `chattr -i f`), and as a path it is harmless (`600`, `u+x`).
        for p in operands(e, args, &[]) {
            e.file(p.clone(), Access::Meta, recursive);
        }
    } else if META.contains(&n) {
        let recursive = n == "setfacl" && has_flag(args, 'R', &["--recursive"]);
        let with_arg: &[&str] = match n {
            "touch" => &["-d", "-t", "-r", "--date", "--reference"],
            "setfacl" => &["-m", "-x", "-M", "-X", "--modify", "--remove", "--set"],
            "setfattr" => &["-n", "-v", "-x"],
            "mount" => &["-t", "-o", "-O", "-L", "-U"],
            _ => &[],
        };
        for p in operands(e, args, with_arg) {
            e.file(p.clone(), Access::Meta, recursive);
        }
    } else if CREATORS.contains(&n) {
        let with_arg: &[&str] = match n {
            "mkdir" => &["-m", "--mode"],
            "truncate" => &["-s", "-r", "--size", "--reference"],
            "fallocate" => &["-l", "-o", "-n"],
            "mknod" | "mkfifo" => &["-m", "--mode"],
            "mktemp" => &["-p", "--tmpdir", "--suffix"],
            _ => &[],
        };
        let ops = operands(e, args, with_arg);
        let ops: &[&Vec<u8>] = if n == "mknod" {
            &ops[..ops.len().min(1)]
        } else {
            &ops
        };
        for p in ops {
            e.file((*p).clone(), Access::Write, false);
        }
    } else if COPIERS.contains(&n) {
        copier(e, n, args);
    } else if n == "link" {
        let ops = operands(e, args, &[]);
        if let [a, b, ..] = ops.as_slice() {
            e.file((*a).clone(), Access::Link, false);
            e.file((*b).clone(), Access::Write, false);
        }
    } else if n == "dd" {
        for a in args {
            if let Some(p) = a.strip_prefix(b"if=") {
                e.file(p.to_vec(), Access::Read, false);
            }
            if let Some(p) = a.strip_prefix(b"of=") {
                e.file(p.to_vec(), Access::Write, false);
            }
        }
    } else {
        return false;
    }
    true
}

/// `git`, fetchers, archives and compressors, `patch`.
fn archives_and_fetchers(e: &mut Effects, n: &str, args: &[Vec<u8>]) -> bool {
    if n == "git" {
        git::effects(args, e);
    } else if FETCHERS.contains(&n) {
        fetcher(e, n, args);
    } else if matches!(n, "tar" | "gtar" | "bsdtar") {
        tar(e, args);
    } else if matches!(
        n,
        "unzip" | "7z" | "7za" | "7zr" | "unrar" | "cpio" | "ar" | "jar"
    ) {
        extractor(e, n, args);
    } else if n == "zip" {
        let ops = operands(
            e,
            args,
            &["-x", "-i", "-b", "-n", "-t", "-tt", "-O", "--out"],
        );
        let recursive = has_flag(args, 'r', &["--recurse-paths"]);
        // `zip -m` moves the files into the archive (deletes them).
        let moves = has_flag(args, 'm', &["--move"]);
        if let Some((archive, rest)) = ops.split_first() {
            e.file((*archive).clone(), Access::Write, false);
            for p in rest {
                let access = if moves { Access::Delete } else { Access::Read };
                e.file((*p).clone(), access, recursive);
            }
        }
    } else if COMPRESSORS.contains(&n) {
        compressors(e, n, args);
    } else if n == "patch" {
        // Writes the files the patch names: the work tree under `-d DIR` (or here).
        e.tree = true;
        for d in opt_values(args, &["-d"], &["--directory"]) {
            e.file_into(d);
        }
        if opt_values(args, &["-d"], &["--directory"]).is_empty() {
            e.file_into(b".".to_vec());
        }
        for p in opt_values(args, &["-i"], &["--input"]) {
            e.file(p, Access::Read, false);
        }
        let ops = operands(
            e,
            args,
            &["-p", "-i", "-d", "-o", "-r", "-B", "-z", "-F", "-D"],
        );
        if let Some(f) = ops.first() {
            e.file((*f).clone(), Access::Write, false);
        }
        if let Some(p) = ops.get(1) {
            e.file((*p).clone(), Access::Read, false);
        }
    } else {
        return false;
    }
    true
}

/// `xargs -a`, `cd`/`pushd`, `find`, interpreters, programs whose operands are no files.
fn other_known(e: &mut Effects, n: &str, base: &str, args: &[Vec<u8>]) -> bool {
    if n == "xargs" {
        // A wrapper (the walk peels it); `-a FILE` reads its arguments from a file.
        for v in opt_values(args, &["-a"], &["--arg-file"]) {
            e.file(v, Access::Read, false);
        }
    } else if matches!(n, "cd" | "pushd") {
        let ops = operands(e, args, &[]);
        if ops.len() > 1 {
            // zsh's `cd OLD NEW` replaces OLD by NEW in `$PWD`: a folder polc cannot know.
            e.chdir.push(vec![super::UNKNOWN]);
            return true;
        }
        let target = ops.first().map(|t| (*t).clone());
        // `cd +1`, `pushd -2`: an entry of the folder stack, which zsh's `dirstack=…`
        // sets (red team, session 6): a folder polc cannot know.
        let stack = target.as_ref().is_some_and(|t| {
            t.len() > 1 && (t[0] == b'+' || t[0] == b'-') && t[1..].iter().all(u8::is_ascii_digit)
        });
        if stack || (n == "pushd" && target.is_none()) {
            e.chdir.push(vec![super::UNKNOWN]);
            return true;
        }
        e.chdir.push(target.unwrap_or_else(|| b"~".to_vec()));
    } else if n == "popd" {
        // The folder on top of the stack, which the command (or zsh's `dirstack=…`) may set.
        e.chdir.push(vec![super::UNKNOWN]);
    } else if n == "find" {
        // Starting points are listed, not read; `-delete` removes what matches under them,
        // `-fprint FILE` writes.
        let delete = args.iter().any(|a| a.as_slice() == b"-delete");
        let access = if delete { Access::Delete } else { Access::List };
        let mut starts = 0;
        for a in args {
            // GNU find's global options (`-H`, `-L`, `-P`, `-D x`, `-Olevel`) come first.
            if matches!(a.as_slice(), b"-H" | b"-L" | b"-P") && starts == 0 {
                continue;
            }
            if a.starts_with(b"-") || a.as_slice() == b"(" || a.as_slice() == b"!" {
                break;
            }
            e.file(a.clone(), access, true);
            starts += 1;
        }
        if starts == 0 {
            // GNU find with no start path searches `.` (`find -delete` empties the project).
            e.file(b".".to_vec(), access, true);
        }
        // `-fprint F`, `-fprint0 F`, `-fls F`, `-fprintf F FORMAT` write `F` (one-dash long
        // options: `opt_values` reads only `--` ones).
        for w in args.windows(2) {
            if matches!(
                w[0].as_slice(),
                b"-fprint" | b"-fprint0" | b"-fls" | b"-fprintf"
            ) {
                e.file(w[1].clone(), Access::Write, false);
            }
        }
    } else if INTERPRETERS.contains(&base) || INTERPRETERS.contains(&n) {
        interpreter(e, args);
    } else if NO_FILES.contains(&n) {
        // Operands are names, numbers or text.
    } else {
        return false;
    }
    true
}

fn pattern_first(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    let explicit_pattern =
        has_flag(args, 'e', &["--regexp", "--expression"]) || has_flag(args, 'f', &["--file"]);
    let recursive = matches!(n, "rg" | "ag" | "ack")
        || has_flag(args, 'r', &["--recursive"])
        || has_flag(args, 'R', &["--dereference-recursive"])
        || opt_values(args, &["-d"], &["--directories"])
            .iter()
            .any(|v| v.as_slice() != b"skip" && v.as_slice() != b"read");
    let in_place = matches!(n, "sed" | "gsed") && has_flag(args, 'i', &["--in-place"])
        || n.ends_with("awk") && awk_in_place(args);
    let with_arg = [
        "-e",
        "-f",
        "-m",
        "-A",
        "-B",
        "-C",
        "-g",
        "-t",
        "-T",
        "--type",
        "--glob",
        "--max-count",
        "-v",
        // `grep -d recurse KEY`: the action is no operand (else `KEY` read as the file and
        // the implicit `.` missed).
        "-d",
        "--directories",
        "--regexp",
        "--file",
        "--expression",
        // grep's `-d ACTION` / `-D ACTION` take a value (`grep -d recurse KEY` has one
        // operand, the pattern: it searches `.`).
        "-d",
        "-D",
        "--directories",
        "--devices",
    ];
    let ops = operands(e, args, &with_arg);
    for (k, p) in ops.iter().enumerate() {
        if k == 0 && !explicit_pattern {
            continue;
        }
        let access = if in_place {
            Access::Write
        } else {
            Access::Read
        };
        e.file((*p).clone(), access, recursive);
    }
    // Script and pattern files are read too.
    for f in opt_values(args, &["-f"], &["--file"]) {
        e.file(f, Access::Read, false);
    }
    if recursive && ops.len() <= usize::from(!explicit_pattern) {
        // `grep -r x` / `rg x`: the current folder.
        e.file(b".".to_vec(), Access::Read, true);
    }
}

/// gawk's in-place library: `-i inplace`, `-iinplace`, `--include=inplace`, `-i
/// /usr/share/awk/inplace.awk` (any included file whose name starts with `inplace`).
fn awk_in_place(args: &[Vec<u8>]) -> bool {
    opt_values(args, &["-i"], &["--include"]).iter().any(|v| {
        let b = super::basename(v);
        b.starts_with(b"inplace") || b.contains(&crate::pattern::WILD)
    })
}

/// Options of wrappers and runners that write a file or move the folder the command they
/// run works in: `time -o FILE`, `env -C DIR tee settings.json`, `sudo -D DIR`, `pnpm -C
/// DIR exec …`, `yarn --cwd DIR`, `uv --directory DIR run …`. A folder is a `chdir` (the
/// walk then resolves every relative path of the command in it too).
fn wrapper_options(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    let (short, long): (&[&str], &[&str]) = match n {
        "time" | "gtime" => {
            for v in opt_values(args, &["-o"], &["--output"]) {
                e.file(v, Access::Write, false);
            }
            return;
        }
        "env" => (&["-C"], &["--chdir"]),
        "sudo" | "sudo-rs" => (&["-D"], &["--chdir"]),
        "pnpm" | "poetry" | "mise" | "rtx" | "make" | "gmake" | "ninja" | "meson" | "go" => {
            (&["-C"], &["--dir", "--directory", "--cd"])
        }
        "yarn" | "bun" | "npx" | "bunx" => (&[], &["--cwd"]),
        "npm" => (&["-C"], &["--prefix"]),
        "uv" | "uvx" | "just" | "task" => (&["-d"], &["--directory", "--working-directory"]),
        "nsenter" | "unshare" => (&["-w"], &["--wd"]),
        "systemd-run" => (&[], &["--working-directory"]),
        "bwrap" | "firejail" => (&[], &["--chdir", "--private-cwd"]),
        "parallel" => (&[], &["--wd", "--workdir"]),
        "cmake" => {
            // `cmake -E chdir DIR CMD`.
            if let Some(i) = args
                .windows(2)
                .position(|w| w[0] == b"-E" && w[1] == b"chdir")
            {
                if let Some(d) = args.get(i + 2) {
                    e.chdir.push(d.clone());
                }
            }
            return;
        }
        _ => return,
    };
    for d in opt_values(args, short, long) {
        e.chdir.push(d);
    }
}

/// Readers that also write: `ptx -G IN OUT` (traditional mode) writes its second operand;
/// `-o FILE` of `iconv`, `sdiff` (the merge), BSD/macOS `base64`, `uuencode`.
fn reader_outputs(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    if n == "ptx" && has_flag(args, 'G', &["--traditional"]) {
        if let Some(o) = operands(e, args, &[]).get(1) {
            e.file((*o).clone(), Access::Write, false);
        }
    }
    if matches!(
        n,
        "iconv" | "sdiff" | "base64" | "base32" | "basenc" | "uuencode"
    ) {
        for v in opt_values(args, &["-o"], &["--output"]) {
            e.file(v, Access::Write, false);
        }
    }
}

/// `install -d -m 000 .claude`: every operand is a folder made or, when it exists, given
/// the mode and owner (as `chmod` would). False when this is not `install -d`.
fn install_dirs(e: &mut Effects, n: &str, args: &[Vec<u8>]) -> bool {
    if !(matches!(n, "install" | "ginstall") && has_flag(args, 'd', &["--directory"])) {
        return false;
    }
    let opts = ["-m", "-o", "-g", "-S", "-t", "--mode", "--owner", "--group"];
    for p in operands(e, args, &opts) {
        e.file(p.clone(), Access::Meta, false);
    }
    true
}

fn copier(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    if install_dirs(e, n, args) {
        return;
    }
    let with_arg: &[&str] = match n {
        "install" => &["-m", "-o", "-g", "-S", "--mode", "--owner", "--group", "-t"],
        "rsync" => &[
            "-e",
            "--rsh",
            "--rsync-path",
            "-f",
            "--filter",
            "--exclude",
            "--include",
            "-B",
            "--block-size",
            "--link-dest",
            "--compare-dest",
            "--copy-dest",
            "-T",
            "--temp-dir",
            "--partial-dir",
            "--backup-dir",
            "--port",
            "-t",
        ],
        "scp" => &["-P", "-i", "-o", "-F", "-c", "-l", "-S", "-J", "-t"],
        _ => &["-t", "-S", "--suffix", "--target-directory"],
    };
    let recursive = has_flag(args, 'r', &["--recursive"])
        || has_flag(args, 'R', &[])
        || (n != "scp" && has_flag(args, 'a', &["--archive"]))
        || (n == "mv")
        || (n == "ditto");
    let hard_link = (n == "ln" && !has_flag(args, 's', &["--symbolic"]))
        || (n == "cp" && has_flag(args, 'l', &["--link"]));
    let ops = operands(e, args, with_arg);
    let target = opt_values(args, &["-t"], &["--target-directory"]);
    let (srcs, dest): (Vec<&Vec<u8>>, Option<Vec<u8>>) = match target.first() {
        Some(t) if n != "rsync" && n != "scp" => (ops.clone(), Some(t.clone())),
        _ => match ops.split_last() {
            Some((d, s)) if !s.is_empty() => (s.to_vec(), Some((*d).clone())),
            // `ln -s TARGET` makes a link named after TARGET here.
            Some((d, _)) if n == "ln" => (vec![*d], Some(b".".to_vec())),
            _ => (ops.clone(), None),
        },
    };
    let src_access = if n == "mv"
        || (n == "rsync"
            && args
                .iter()
                .any(|a| long_is(&text(a), "--remove-source-files")))
    {
        Access::Delete
    } else if hard_link {
        Access::Link
    } else if n == "ln" {
        // A symbolic link's target is only named.
        Access::Unknown
    } else {
        Access::Read
    };
    for s in &srcs {
        e.file(
            (*s).clone(),
            src_access,
            recursive && src_access != Access::Unknown,
        );
    }
    if n == "ln" && !hard_link {
        symlink_targets(e, dest.as_deref(), target.is_empty(), &srcs);
    }
    if let Some(d) = dest {
        // `scp h:.mcp.json .` writes `./.mcp.json`: a remote source is named after its path.
        let local: Vec<Vec<u8>> = srcs
            .iter()
            .map(|s| match s.iter().position(|&b| b == b':') {
                Some(i) if (n == "scp" || n == "rsync") && remote_path(s) => s[i + 1..].to_vec(),
                _ => (*s).clone(),
            })
            .collect();
        let local: Vec<&Vec<u8>> = local.iter().collect();
        e.copy_dest(&d, &local, recursive && n != "ln");
    }
    if n == "rsync" {
        for d in opt_values(args, &[], &["--link-dest"]) {
            e.file(d, Access::Link, true);
        }
    }
    if (n == "rsync" || n == "scp")
        && (ops.iter().any(|o| remote_path(o)) || has_flag(args, 'e', &["--rsh"]))
    {
        e.net = Net::Yes;
    }
}

/// A symbolic link's relative target is read from the link's folder, not the command's:
/// `ln -s ../.env src/e` points at `./.env` (red team, session 5). Named from both folders
/// the link may sit in (NAME's folder, or NAME itself when it is a folder; only the folder
/// with `-t DIR`).
fn symlink_targets(e: &mut Effects, dest: Option<&[u8]>, no_target_dir: bool, srcs: &[&Vec<u8>]) {
    let Some(d) = dest else { return };
    let d = d.strip_suffix(b"/").unwrap_or(d);
    let parent = d.iter().rposition(|&b| b == b'/').map(|i| &d[..i]);
    let folders: Vec<&[u8]> = if no_target_dir {
        parent.into_iter().chain([d]).collect()
    } else {
        vec![d]
    };
    for s in srcs
        .iter()
        .filter(|s| !s.starts_with(b"/") && !s.starts_with(b"~"))
    {
        for f in &folders {
            let mut p = f.to_vec();
            p.push(b'/');
            p.extend_from_slice(s);
            e.file(p, Access::Unknown, false);
        }
    }
}

/// `host:path` / `user@host:path` / `rsync://…` (not `./a:b` or `/a:b`).
fn remote_path(p: &[u8]) -> bool {
    if p.starts_with(b"/") || p.starts_with(b".") {
        return false;
    }
    let colon = p.iter().position(|&b| b == b':');
    let slash = p.iter().position(|&b| b == b'/');
    matches!((colon, slash), (Some(c), Some(s)) if c < s)
        || matches!((colon, slash), (Some(_), None))
}

fn fetcher(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    e.net = Net::Yes;
    fetcher_reads(e, args);
    fetcher_writes(e, n, args);
    let saw_url = fetcher_urls(e, n, args);
    fetcher_saves(e, n, args, saw_url);
}

/// Files a request sends.
fn fetcher_reads(e: &mut Effects, args: &[Vec<u8>]) {
    // Files a request sends: `-d @file`, `-F f=@file`, `--data-binary @file`, `-T file`.
    for (k, a) in args.iter().enumerate() {
        let at = a
            .windows(2)
            .position(|w| w == b"=@" || w == b"=<")
            .map(|i| i + 2)
            .or(a.starts_with(b"@").then_some(1));
        if let Some(i) = at {
            e.file(a[i..].to_vec(), Access::Read, false);
        }
        if matches!(
            a.as_slice(),
            b"-T"
                | b"--upload-file"
                | b"--post-file"
                | b"--body-file"
                | b"-K"
                | b"--config"
                | b"-i"
                | b"--input-file"
                | b"-b"
                | b"--cookie"
                | b"--cert"
                | b"--key"
                | b"-E"
                | b"--cacert"
                | b"--netrc-file"
        ) {
            if let Some(p) = args.get(k + 1) {
                e.file(p.clone(), Access::Read, false);
            }
        }
        for opt in [
            &b"--upload-file="[..],
            b"--post-file=",
            b"--body-file=",
            b"--config=",
            b"--input-file=",
            b"--netrc-file=",
        ] {
            if let Some(p) = a.strip_prefix(opt) {
                e.file(p.to_vec(), Access::Read, false);
            }
        }
    }
    // `--data-urlencode name@file` sends the file.
    for v in opt_values(args, &[], &["--data-urlencode", "--form", "--form-string"]) {
        if let Some(i) = v.iter().position(|&b| b == b'@' || b == b'<') {
            e.file(v[i + 1..].to_vec(), Access::Read, false);
        }
    }
}

/// Files a fetcher writes: headers, cookies, traces and downloads.
/// Where a download is written: the output names (curl's URL globs fill `#N` in them with
/// the match: `-o '.claude/#1.json' 'http://h/{settings}'`, red team session 5; such a name
/// is one polc cannot read), and here under a name the server chooses (`curl -J`, `wget
/// --content-disposition`).
fn download_names(e: &mut Effects, n: &str, args: &[Vec<u8>], outs: Vec<Vec<u8>>) {
    // curl's URL globs (`{a,b}`, `[1-3]`) fill `#N` in the output name with the match:
    // `-o '.claude/#1.json' 'http://h/{settings}'` (red team, session 5). Such a name is
    // one polc cannot read.
    let globbed = n.starts_with("curl")
        && !has_flag(args, 'g', &["--globoff"])
        && args
            .iter()
            .any(|a| !a.starts_with(b"-") && (a.contains(&b'{') || a.contains(&b'[')));
    // The name each `#N` makes with the text its glob takes (red team 8, C8-curlglob:
    // `-o '.claude/#1' 'https://h/{settings.json}'` writes `.claude/settings.json`, a
    // protected file, for certain); a text polc cannot list is unknown.
    let urls: Vec<&[u8]> = if globbed {
        args.iter()
            .filter(|a| !a.starts_with(b"-") && !outs.contains(a))
            .map(Vec::as_slice)
            .collect()
    } else {
        Vec::new()
    };
    for o in outs.iter() {
        if globbed && o.contains(&b'#') {
            for name in super::urlglob::output_names(o, &urls, crate::shell::UNKNOWN) {
                e.file(name, Access::Write, false);
            }
        } else {
            e.file(o.clone(), Access::Write, false);
        }
    }
    // A name the server chooses (`curl -J`, `wget --content-disposition`): unknown names
    // written here.
    let server_named = args.iter().any(|a| {
        a.as_slice() == b"--remote-header-name"
            || a.as_slice() == b"--content-disposition"
            || (n.starts_with("curl")
                && a.starts_with(b"-")
                && !a.starts_with(b"--")
                && a.contains(&b'J'))
    });
    if server_named {
        e.file_into(b".".to_vec());
    }
}

fn fetcher_writes(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    // Headers, cookies and traces written to files.
    for v in opt_values(
        args,
        &["-D", "-c"],
        &[
            "--dump-header",
            "--cookie-jar",
            "--trace",
            "--trace-ascii",
            "--stderr",
            "--libcurl",
            "--etag-save",
            "--hsts",
            "--alt-svc",
        ],
    ) {
        e.file(v, Access::Write, false);
    }
    // Where a download goes.
    let outs = opt_values(args, &["-o"], &["--output", "--output-document"]);
    let outs = if n.starts_with("wget") {
        let mut v = opt_values(args, &["-O"], &["--output-document"]);
        v.extend(opt_values(
            args,
            &["-o", "-a"],
            &["--output-file", "--append-output"],
        ));
        v
    } else {
        outs
    };
    download_names(e, n, args, outs);
    for d in opt_values(args, &["-P"], &["--output-dir", "--directory-prefix"]) {
        e.file_into(d);
    }
    if n.starts_with("wget")
        && (has_flag(args, 'x', &["--force-directories"])
            || has_flag(args, 'r', &["--recursive"])
            || has_flag(args, 'm', &["--mirror"])
            || has_flag(args, 'i', &["--input-file"])
            || args
                .iter()
                .any(|a| a.as_slice() == b"-nH" || long_is(&text(a), "--no-host-directories")))
    {
        // Saved under folders named after the URL's path (and host): unknown names here.
        e.file_into(b".".to_vec());
    }
    if n == "aria2c" {
        // `-d DIR` (default here) receives the download; `-o NAME` names it; `-i FILE`,
        // torrents and metalinks name files polc cannot see.
        let dirs = opt_values(args, &["-d"], &["--dir"]);
        let outs = opt_values(args, &["-o"], &["--out"]);
        for d in &dirs {
            e.file_into(d.clone());
        }
        let dirs = if dirs.is_empty() {
            vec![b".".to_vec()]
        } else {
            dirs
        };
        for o in &outs {
            for d in &dirs {
                let mut p = d.clone();
                if p.last() != Some(&b'/') {
                    p.push(b'/');
                }
                p.extend_from_slice(o);
                e.file(p, Access::Write, false);
            }
        }
        let opaque = !opt_values(
            args,
            &["-i", "-T", "-M"],
            &["--input-file", "--torrent-file", "--metalink-file"],
        )
        .is_empty()
            || args.iter().any(|a| {
                let t = text(a).to_ascii_lowercase();
                !t.starts_with('-')
                    && (t.ends_with(".torrent")
                        || t.ends_with(".metalink")
                        || t.ends_with(".meta4")
                        || t.starts_with("magnet:"))
            });
        if opaque {
            for d in &dirs {
                e.file_into(d.clone());
            }
        }
    }
}

/// Fetcher options that take a value (their value is no URL).
const FETCH_OPTS_WITH_ARG: &[&str] = &[
    "-o",
    "-d",
    "-H",
    "-X",
    "-u",
    "-A",
    "-e",
    "-F",
    "-T",
    "-K",
    "-b",
    "-c",
    "-w",
    "-m",
    "-r",
    "-P",
    "-U",
    "-E",
    "-x",
    "-i",
    "-a",
    "--data",
    "--data-binary",
    "--data-raw",
    "--data-urlencode",
    "--header",
    "--request",
    "--user",
    "--user-agent",
    "--referer",
    "--form",
    "--upload-file",
    "--config",
    "--cookie",
    "--cookie-jar",
    "--write-out",
    "--max-time",
    "--range",
    "--proxy",
    "--proxy-user",
    "--output",
    "--output-document",
    "--resolve",
    "--connect-to",
    "--preproxy",
    "--url",
    "--cert",
    "--key",
    "--cacert",
    "--output-dir",
    "--post-data",
    "--header",
    "--method",
    "--body",
    "--dir",
    "--out",
    "--input-file",
    "--post-file",
    "--body-file",
    "--directory-prefix",
    "--output-file",
    "--append-output",
    "-D",
    "-C",
    "-t",
    "-Y",
    "-y",
    "-z",
    "-Q",
];

/// The URLs a request goes to (and through); whether an operand named one.
fn fetcher_urls(e: &mut Effects, n: &str, args: &[Vec<u8>]) -> bool {
    // URLs: operands that look like one, `--url X`, and the proxy a request goes through.
    let mut with_arg = FETCH_OPTS_WITH_ARG.to_vec();
    if n.starts_with("wget") {
        with_arg.push("-O");
    }
    if matches!(n, "http" | "https" | "xh" | "xhs" | "httpie") {
        // httpie's `-d` is `--download`, a flag.
        with_arg.retain(|o| *o != "-d");
    }
    // Every operand of a fetcher is a URL to it (`curl localhost:8080`, `curl 2130706433`,
    // `curl evil%2ecom`); a glob or expansion is a destination polc cannot read.
    let names_url = |a: &[u8]| !a.starts_with(b"@") && !a.windows(2).any(|w| w == b"=@");
    if operands(e, args, &with_arg)
        .iter()
        .any(|a| names_url(a) && a.contains(&WILD))
    {
        e.urls.push(String::new());
    }
    let mut saw_url = false;
    let mut named: Vec<Vec<u8>> = Vec::new();
    for a in operands(e, args, &with_arg) {
        if names_url(a) {
            named.push(a.clone());
        }
    }
    named.extend(opt_values(args, &[], &["--url"]));
    // curl expands URL globs (`{a,b}`, `[a-z]`) into one request each, unless `-g`: each
    // is a destination (red team 8: `curl 'https://{docs.rs,bad.org}/x'` goes to bad.org,
    // `curl 'file:///p/.en[v-v]'` reads `.env`). Too many to list: one polc cannot read.
    let globs = n.starts_with("curl") && !has_flag(args, 'g', &["--globoff"]);
    for u in named {
        saw_url = true;
        match globs.then(|| super::urlglob::expand(&u)) {
            Some(Some(all)) => e.urls.extend(all.iter().map(|x| text(x))),
            Some(None) => {
                e.urls.push(text(&u));
                e.urls.push(String::new());
            }
            None => e.urls.push(text(&u)),
        }
    }
    // `file:` URLs read local files.
    for u in e.urls.clone() {
        if let Some(path) = file_url_path(&u) {
            e.file(path, Access::Read, false);
        }
    }
    // `wget -e https_proxy=HOST`: the request goes through HOST.
    for v in opt_values(args, &["-e"], &["--execute"]) {
        let t = text(&v);
        if let Some((k, val)) = t.split_once('=') {
            if k.to_ascii_lowercase().ends_with("_proxy") {
                e.urls.push(val.to_string());
            }
        }
    }
    for p in opt_values(
        args,
        &["-x"],
        &["--proxy", "--preproxy", "--socks5", "--socks5-hostname"],
    ) {
        e.urls.push(text(&p));
    }
    let redirected = args.iter().any(|a| {
        let t = text(a);
        [
            "--resolve",
            "--connect-to",
            "-K",
            "--config",
            "-i",
            "--input-file",
        ]
        .iter()
        .any(|o| t == *o || t.starts_with(&format!("{o}=")))
    });
    if redirected
        || args
            .iter()
            .any(|a| a.contains(&super::UNKNOWN) && !a.starts_with(b"-"))
    {
        // The destination is not the URL polc reads (or not one it can read).
        e.urls.push(String::new());
    }
    saw_url
}

/// The local path a `file:` URL reads, as curl reads it (red team 8, C8-curlfile): any
/// case, `file:/P` and `file:///P`, a host part (`localhost`) dropped, `%XX` decoded
/// (`file:///p/%2eenv` is `/p/.env`).
fn file_url_path(u: &str) -> Option<Vec<u8>> {
    let rest = u
        .get(..5)
        .filter(|p| p.eq_ignore_ascii_case("file:"))
        .map(|_| &u.as_bytes()[5..])?;
    let path = match rest.strip_prefix(b"//") {
        Some(r) => &r[r.iter().position(|&b| b == b'/').unwrap_or(r.len())..],
        None => rest,
    };
    let mut out = Vec::with_capacity(path.len());
    let mut i = 0;
    while i < path.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            path[i],
            path.get(i + 1).copied().and_then(hex),
            path.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    // A query or fragment is not part of the path.
    if let Some(q) = out.iter().position(|&b| b == b'?' || b == b'#') {
        out.truncate(q);
    }
    Some(out)
}

/// `curl -O`, `wget URL`: the download is saved under the URL's last component, here.
fn fetcher_saves(e: &mut Effects, n: &str, args: &[Vec<u8>], saw_url: bool) {
    let remote_name = args.iter().any(|a| {
        matches!(
            a.as_slice(),
            b"-O" | b"--remote-name" | b"--remote-name-all" | b"-J"
        ) || (a.starts_with(b"-") && !a.starts_with(b"--") && a.contains(&b'O'))
    });
    let named = n == "aria2c"
        && !args
            .iter()
            .any(|a| a.as_slice() == b"-o" || long_is(&text(a), "--out"));
    let httpie_download = matches!(n, "http" | "https" | "xh" | "xhs" | "httpie")
        && has_flag(args, 'd', &["--download"])
        && !has_flag(args, 'o', &["--output"]);
    if (remote_name && n.starts_with("curl"))
        || ((n.starts_with("wget") || named || httpie_download) && saw_url)
    {
        // Saved under the URL's last component, here.
        let names: Vec<Vec<u8>> = e
            .urls
            .iter()
            .filter(|u| !u.is_empty())
            .map(|u| {
                let path = u.split(['?', '#']).next().unwrap_or("");
                let last = path.rsplit('/').next().unwrap_or("");
                if last.is_empty() || !path.contains('/') {
                    b"index.html".to_vec()
                } else {
                    last.as_bytes().to_vec()
                }
            })
            .collect();
        if has_flag(args, 'r', &["--recursive", "--mirror"]) && n.starts_with("wget") {
            e.file_into(b".".to_vec());
        }
        for nm in names {
            e.file(nm, Access::Write, false);
        }
    }
}

fn tar(e: &mut Effects, args: &[Vec<u8>]) {
    // Mode from the first word (`xzf`, `-xzf`) or any `--extract`/`-x`-style option.
    let first = args.first().map(|a| text(a)).unwrap_or_default();
    let old_style = !first.starts_with('-') && !first.is_empty();
    let mode_in = |c: char| {
        (old_style && first.contains(c))
            || args.iter().any(|a| {
                let t = text(a);
                t.starts_with('-') && !t.starts_with("--") && t[1..].contains(c)
            })
    };
    let long = |l: &str| args.iter().any(|a| text(a) == l);
    let extract = mode_in('x') || long("--extract") || long("--get");
    let create =
        mode_in('c') || long("--create") || mode_in('r') || mode_in('u') || long("--append");
    let mut archive: Vec<Vec<u8>> = opt_values(args, &["-f"], &["--file"]);
    // `tar xzf ARCHIVE` / `tar -xzf ARCHIVE`: `f` in a cluster takes the next word.
    for (k, a) in args.iter().enumerate() {
        let t = text(a);
        let cluster = (k == 0 && old_style) || (t.starts_with('-') && !t.starts_with("--"));
        if cluster && t.ends_with('f') && t.len() > 1 + usize::from(t.starts_with('-')) {
            let skip = if k == 0 && old_style { 1 } else { k + 1 };
            if let Some(v) = args.get(skip) {
                archive.push(v.clone());
            }
        }
    }
    let dirs = opt_values(args, &["-C"], &["--directory"]);
    // `-g FILE` is `--listed-incremental=FILE`: the snapshot file is written.
    for v in opt_values(args, &["-g"], &[]) {
        e.file(v, Access::Write, false);
    }
    let with_arg = [
        "-g",
        "-f",
        "-C",
        "--file",
        "--directory",
        "-T",
        "-X",
        "--exclude",
        "-b",
        "-H",
    ];
    let mut ops: Vec<&Vec<u8>> = operands(e, args, &with_arg);
    if old_style {
        ops.retain(|o| o.as_slice() != args[0].as_slice());
    }
    ops.retain(|o| !archive.contains(o));
    for a in &archive {
        e.file(
            a.clone(),
            if create { Access::Write } else { Access::Read },
            false,
        );
    }
    if extract {
        e.tree = true;
        e.files_into_or_here(dirs.clone());
    } else if create {
        // `--remove-files` deletes what it archives.
        let access = if long("--remove-files") {
            Access::Delete
        } else {
            Access::Read
        };
        for p in ops {
            e.file(p.clone(), access, true);
        }
        // Names read from a list file (`-T list`, `--files-from=list`) are names polc
        // cannot see: with `--remove-files` any path may be deleted (red team, session 5).
        let from_list = args.iter().any(|a| {
            a.as_slice() == b"-T"
                || a.starts_with(b"--files-from")
                || (a.starts_with(b"-") && !a.starts_with(b"--") && a.contains(&b'T'))
        });
        if access == Access::Delete && from_list {
            e.file(vec![crate::pattern::WILD], Access::Delete, true);
        }
    }
}

fn extractor(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    let ops = operands(e, args, &["-d", "-x", "-P", "-o", "-p"]);
    let list_only = match n {
        "unzip" => {
            has_flag(args, 'l', &[])
                || has_flag(args, 't', &[])
                || has_flag(args, 'p', &[])
                || has_flag(args, 'Z', &[])
        }
        "7z" | "7za" | "7zr" => ops
            .first()
            .is_some_and(|o| matches!(o.as_slice(), b"l" | b"t" | b"h")),
        _ => false,
    };
    let adding = matches!(n, "7z" | "7za" | "7zr")
        && ops
            .first()
            .is_some_and(|o| matches!(o.as_slice(), b"a" | b"u"));
    let rest: Vec<&Vec<u8>> = if matches!(n, "7z" | "7za" | "7zr" | "ar" | "jar") {
        ops.iter().skip(1).copied().collect()
    } else {
        ops.clone()
    };
    if let Some(a) = rest.first() {
        e.file(
            (*a).clone(),
            if adding { Access::Write } else { Access::Read },
            false,
        );
    }
    if adding {
        // `7z a -sdel x.7z DIR` deletes what it added.
        let sdel = args.iter().any(|a| a.as_slice() == b"-sdel");
        let access = if sdel { Access::Delete } else { Access::Read };
        for p in rest.iter().skip(1) {
            e.file((*p).clone(), access, true);
        }
        // `@list` and `-i@list` add the names a list file holds: unknown paths.
        if sdel
            && args
                .iter()
                .any(|a| a.starts_with(b"@") || a.starts_with(b"-i"))
        {
            e.file(vec![crate::pattern::WILD], Access::Delete, true);
        }
        return;
    }
    if list_only {
        return;
    }
    e.tree = true;
    let mut dirs = opt_values(args, &["-d"], &[]);
    if matches!(n, "7z" | "7za" | "7zr") {
        dirs.extend(
            args.iter()
                .filter_map(|a| a.strip_prefix(b"-o").map(|d| d.to_vec())),
        );
    }
    e.files_into_or_here(dirs);
}

fn interpreter(e: &mut Effects, args: &[Vec<u8>]) {
    e.net = Net::Maybe;
    // `python3 -m zipfile -e A DEST`, `-m tarfile -e A [DEST]`: extraction into a folder;
    // `-c A FILES…` writes the archive.
    if let Some(i) = args.iter().position(|a| a.as_slice() == b"-m") {
        let module = args.get(i + 1).map(|m| m.as_slice()).unwrap_or(b"");
        if matches!(module, b"zipfile" | b"tarfile" | b"gzip" | b"shutil") {
            let rest = &args[(i + 2).min(args.len())..];
            let ops: Vec<&Vec<u8>> = rest.iter().filter(|a| !a.starts_with(b"-")).collect();
            let has = |o: &[&[u8]]| rest.iter().any(|a| o.contains(&a.as_slice()));
            if has(&[b"-e", b"--extract"]) || module == b"gzip" && has(&[b"-d", b"--decompress"]) {
                e.tree = true;
                if let Some(a) = ops.first() {
                    e.file((*a).clone(), Access::Read, false);
                }
                match ops.get(1) {
                    Some(d) => e.file_into((*d).clone()),
                    None => e.file_into(b".".to_vec()),
                }
            } else if has(&[b"-c", b"--create"]) {
                if let Some((a, files)) = ops.split_first() {
                    e.file((*a).clone(), Access::Write, false);
                    for f in files {
                        e.file((*f).clone(), Access::Read, true);
                    }
                }
            } else if module == b"gzip" {
                for f in &ops {
                    e.file((*f).clone(), Access::Write, false);
                }
            }
        }
    }
    // The script (first operand unless code or a module is given inline), then the
    // script's own arguments, which polc cannot interpret.
    let inline = args.iter().any(|a| {
        matches!(
            a.as_slice(),
            b"-c" | b"-e" | b"-E" | b"-m" | b"-r" | b"--eval" | b"-p" | b"--print"
        )
    });
    let mut script_seen = inline;
    let mut k = 0;
    while k < args.len() {
        let a = &args[k];
        k += 1;
        if !script_seen && !a.starts_with(b"-") {
            e.file(a.clone(), Access::Read, false);
            script_seen = true;
            continue;
        }
        if script_seen {
            unknown_candidates(e, std::slice::from_ref(a));
        }
    }
}

/// Package installs that may create or replace a command on `PATH`.
fn installs(n: &str, args: &[Vec<u8>]) -> bool {
    // Built only for the programs below: every program comes through here.
    let words = std::cell::LazyCell::new(|| args.iter().map(|a| text(a)).collect::<Vec<_>>());
    let has = |w: &str| words.iter().any(|x| x == w);
    let sub = std::cell::LazyCell::new(|| {
        words
            .iter()
            .find(|w| !w.starts_with('-'))
            .map(String::as_str)
    });
    let global = || has("-g") || has("--global") || has("--location=global");
    let sub = || *sub;
    match n {
        "cargo" => matches!(sub(), Some("install" | "binstall")),
        "cargo-binstall" => true,
        // Red team, session 7: installers whose other spellings place a command on PATH.
        "deno" => matches!(sub(), Some("install" | "i")) && global(),
        "volta" => matches!(sub(), Some("install" | "fetch")),
        "pixi" => words
            .windows(2)
            .any(|w| w[0] == "global" && matches!(w[1].as_str(), "install" | "add" | "upgrade")),
        "easy_install" => true,
        "setup.py" => matches!(sub(), Some("install" | "develop" | "easy_install")),
        "pipx" => matches!(sub(), Some("install" | "inject" | "upgrade" | "reinstall")),
        "uv" => {
            words
                .windows(2)
                .any(|w| w[0] == "tool" && w[1] == "install")
                || (words.windows(2).any(|w| w[0] == "pip" && w[1] == "install")
                    && (has("--system") || has("--user") || has("--prefix") || has("--target")))
        }
        // `python3 setup.py install|develop [--user]` (setuptools' own installer).
        _ if n.starts_with("python")
            && words.first().is_some_and(|w| w.ends_with("setup.py"))
            && words
                .iter()
                .any(|w| matches!(w.as_str(), "install" | "develop" | "easy_install")) =>
        {
            true
        }
        "pip" | "pip3" => {
            // Outside a virtual environment (none active where the agent runs), pip
            // installs into the system's or, when that is not writable, the user's scheme
            // (`~/.local/bin`): a command on PATH (red team, session 7).
            let no_venv = std::env::var_os("VIRTUAL_ENV").is_none_or(|v| v.is_empty())
                && std::env::var_os("CONDA_PREFIX").is_none_or(|v| v.is_empty());
            matches!(sub(), Some("install"))
                && (no_venv
                    || has("--user")
                    || has("--target")
                    || has("--prefix")
                    || has("--root")
                    || has("--break-system-packages"))
        }
        "npm" | "pnpm" | "bun" => {
            global()
                && matches!(
                    sub(),
                    Some("install" | "i" | "add" | "link" | "update" | "up")
                )
                || matches!(sub(), Some("link"))
        }
        "yarn" => matches!(sub(), Some("global")),
        "go" => matches!(sub(), Some("install")),
        "make" | "gmake" => has("install"),
        "gem" | "brew" | "snap" | "flatpak" | "apt" | "apt-get" | "dnf" | "yum" | "zypper"
        | "apk" | "port" => matches!(sub(), Some("install" | "add" | "upgrade" | "reinstall")),
        "pacman" => words
            .iter()
            .any(|w| w.starts_with("-S") || w.starts_with("-U")),
        "nix-env" => has("-i") || has("--install"),
        "nix" => words
            .windows(2)
            .any(|w| w[0] == "profile" && w[1] == "install"),
        "dotnet" => words
            .windows(2)
            .any(|w| w[0] == "tool" && w[1] == "install"),
        "stack" | "cabal" => matches!(sub(), Some("install")),
        _ => false,
    }
}

/// Programs that copy, download or extract from elsewhere into a folder: `sftp`, `cmake -E`,
/// `cmake --install`, `dpkg-deb -x`, `unar`, `rclone`, `docker|kubectl cp`, `gh … download`,
/// `svn`, `hg`. Extraction or a copy into a folder writes names polc cannot see (`into`), and
/// rewrites the work tree.
/// The first word of `args` that is not an option (`operands_of(args).first()`).
fn first_operand(args: &[Vec<u8>]) -> Option<&Vec<u8>> {
    args.iter().find(|a| !a.starts_with(b"-"))
}

/// The words of `args` that are not options.
fn operands_of(args: &[Vec<u8>]) -> Vec<Vec<u8>> {
    args.iter()
        .filter(|a| !a.starts_with(b"-"))
        .cloned()
        .collect()
}

fn copies_from_elsewhere(e: &mut Effects, n: &str, args: &[Vec<u8>]) -> bool {
    // Built only by the programs that use it: every program comes through here, with up
    // to 16,000 words.
    let ops = std::cell::LazyCell::new(|| operands_of(args));
    match n {
        "sftp" => {
            // `sftp h:path [LOCAL]` fetches into here; a batch (`-b`) or a session gets and
            // puts anything.
            e.net = Net::Yes;
            let rest = operands(
                e,
                args,
                &[
                    "-b", "-B", "-c", "-D", "-F", "-i", "-J", "-l", "-P", "-R", "-s", "-S", "-o",
                    "-X",
                ],
            );
            if let Some(src) = rest.first() {
                let path = match src.iter().position(|&b| b == b':') {
                    Some(i) => src[i + 1..].to_vec(),
                    None => Vec::new(),
                };
                let dest = rest.get(1).map(|d| (*d).clone()).unwrap_or(b".".to_vec());
                let p: Vec<&Vec<u8>> = if path.is_empty() { vec![] } else { vec![&path] };
                e.copy_dest(&dest, &p, true);
            }
            e.file_into(b".".to_vec());
        }
        "cmake" => cmake(e, args),
        "dpkg-deb" | "dpkg" => {
            let extract = args.iter().any(|a| {
                matches!(
                    a.as_slice(),
                    b"-x" | b"-X" | b"-R" | b"--extract" | b"--vextract" | b"--raw-extract"
                ) || (a.starts_with(b"-")
                    && !a.starts_with(b"--")
                    && (a.contains(&b'x') || a.contains(&b'X') || a.contains(&b'R')))
            });
            if !extract {
                if n == "dpkg" {
                    return false;
                }
                for o in ops.iter() {
                    e.file(o.clone(), Access::Read, false);
                }
                return true;
            }
            e.tree = true;
            if let Some(a) = ops.first() {
                e.file(a.clone(), Access::Read, false);
            }
            match ops.get(1) {
                Some(d) => e.file_into(d.clone()),
                None => e.file_into(b".".to_vec()),
            }
        }
        "unar" | "lsar" => {
            if n == "lsar" {
                for o in ops.iter() {
                    e.file(o.clone(), Access::Read, false);
                }
                return true;
            }
            e.tree = true;
            let dirs = opt_values(args, &["-o"], &["-output-directory", "--output-directory"]);
            for o in operands(
                e,
                args,
                &[
                    "-o",
                    "-p",
                    "-e",
                    "-output-directory",
                    "-password",
                    "-encoding",
                ],
            ) {
                e.file(o.clone(), Access::Read, false);
            }
            e.files_into_or_here(dirs);
        }
        _ => return remote_copies(e, n, args) || image_outputs(e, n, args),
    }
    true
}

/// Container images written into folders: `docker build --output`, `skopeo copy … dir:P`.
fn image_outputs(e: &mut Effects, n: &str, args: &[Vec<u8>]) -> bool {
    let ops = std::cell::LazyCell::new(|| operands_of(args));
    match n {
        // `docker build --output type=local,dest=DIR` (or `-o DIR`) writes the result's files.
        "docker" | "podman" | "nerdctl" | "buildah"
            if ops
                .iter()
                .any(|o| matches!(o.as_slice(), b"build" | b"buildx" | b"bud")) =>
        {
            e.net = Net::Yes;
            for v in opt_values(args, &["-o"], &["--output"]) {
                let t = text(&v);
                let dest = t
                    .split(',')
                    .find_map(|kv| kv.strip_prefix("dest=").or(kv.strip_prefix("dst=")))
                    .map(str::to_string)
                    .unwrap_or(t.clone());
                if !t.contains('=') || t.contains("dest=") || t.contains("dst=") {
                    e.file_into(dest.into_bytes());
                }
            }
            unknown_candidates(e, args);
        }
        // `skopeo copy SRC dir:PATH`: an image written into a folder.
        "skopeo" => {
            e.net = Net::Yes;
            for o in ops.iter().skip(1) {
                let t = text(o);
                for scheme in ["dir:", "oci:", "oci-archive:", "docker-archive:"] {
                    if let Some(p) = t.strip_prefix(scheme) {
                        let p = p.split(':').next().unwrap_or(p);
                        e.file_into(p.as_bytes().to_vec());
                    }
                }
            }
        }
        _ => return false,
    }
    true
}

/// `rclone`, `docker|podman|kubectl cp`, `gh … download` (see [`copies_from_elsewhere`]).
fn remote_copies(e: &mut Effects, n: &str, args: &[Vec<u8>]) -> bool {
    // Built only by the programs that use it: every program comes through here, with up
    // to 16,000 words.
    let ops = std::cell::LazyCell::new(|| operands_of(args));
    // The first operand, found without building the list.
    let sub = first_operand(args).map(|o| text(o)).unwrap_or_default();
    match n {
        "rclone" => {
            e.net = Net::Yes;
            let rest: Vec<&Vec<u8>> = ops.iter().skip(1).collect();
            match sub.as_str() {
                "copy" | "sync" | "move" | "copyto" | "moveto" | "bisync" | "copyurl" | "mount"
                | "nfsmount" | "cryptdecode" | "checksum" | "check" => {
                    if let Some((d, srcs)) = rest.split_last() {
                        e.file_into((*d).clone());
                        for s in srcs {
                            let access = if sub.starts_with("move") {
                                Access::Delete
                            } else {
                                Access::Read
                            };
                            e.file((*s).clone(), access, true);
                        }
                    }
                    e.tree = true;
                }
                "delete" | "deletefile" | "purge" | "rmdir" | "rmdirs" | "cleanup" | "dedupe" => {
                    for p in rest {
                        e.file(p.clone(), Access::Delete, true);
                    }
                }
                _ => unknown_candidates(e, args),
            }
        }
        "docker" | "podman" | "nerdctl" | "kubectl" | "oc" | "lxc" | "incus"
            if ops
                .iter()
                .any(|o| matches!(o.as_slice(), b"cp" | b"push" | b"pull")) =>
        {
            // `docker cp c:/x .`, `kubectl cp pod:/x .`: the last operand receives a tree.
            e.net = Net::Yes;
            let at = ops
                .iter()
                .position(|o| matches!(o.as_slice(), b"cp" | b"push" | b"pull"))
                .unwrap_or(0);
            let rest = &ops[at + 1..];
            if let Some((d, srcs)) = rest.split_last() {
                e.file_into(d.clone());
                for s in srcs {
                    e.file(s.clone(), Access::Read, true);
                }
            }
            unknown_candidates(e, args);
        }
        "gh" if ops
            .iter()
            .any(|o| o.as_slice() == b"download" || o.as_slice() == b"clone") =>
        {
            // `gh release download -D DIR`, `gh run download`, `gh repo clone R DIR`.
            e.net = Net::Yes;
            let dirs = opt_values(args, &["-D"], &["--dir"]);
            for o in opt_values(args, &["-O"], &["--output"]) {
                e.file(o, Access::Write, false);
            }
            e.files_into_or_here(dirs);
            unknown_candidates(e, args);
        }
        _ => return cloud_copies_and_vcs(e, n, args),
    }
    true
}

/// Cloud storage copies, other extractors, other version control (see [`copies_from_elsewhere`]).
fn cloud_copies_and_vcs(e: &mut Effects, n: &str, args: &[Vec<u8>]) -> bool {
    // Built only by the programs that use it: every program comes through here, with up
    // to 16,000 words.
    let ops = std::cell::LazyCell::new(|| operands_of(args));
    match n {
        "aws" | "gsutil" | "gcloud" | "s3cmd" | "azcopy" | "mc" | "b2" | "rclone-browser"
        | "oci" | "az"
            if ops.iter().any(|o| {
                matches!(
                    o.as_slice(),
                    b"cp"
                        | b"sync"
                        | b"mv"
                        | b"rsync"
                        | b"get"
                        | b"copy"
                        | b"mirror"
                        | b"download"
                        | b"download-file"
                        | b"download-batch"
                )
            }) =>
        {
            // Cloud storage copies: the last operand receives a tree when it is local.
            e.net = Net::Yes;
            let dests: Vec<Vec<u8>> = opt_values(
                args,
                &["-f", "-d"],
                &["--file", "--destination", "--dest", "--download-dir"],
            );
            if let Some(d) = ops.last() {
                if !d.windows(3).any(|w| w == b"://") {
                    e.file_into(d.clone());
                }
            }
            for d in dests {
                e.file_into(d);
            }
            unknown_candidates(e, args);
        }
        "pax" | "cabextract" | "unsquashfs" | "xar" | "lha" | "lhasa" | "unace" | "arj"
        | "bsdunzip" | "unarj" | "unshar" | "uudecode" | "rpm2archive" | "ark" | "atool"
        | "aunpack" | "dtrx" | "unp" | "patool" | "bsdcpio" => {
            // Extractors: they write the archive's names into a folder (`-d`, `-C`, `-o`, or
            // here); `pax` only in read mode.
            if n == "pax"
                && !args
                    .iter()
                    .any(|a| a.starts_with(b"-") && !a.starts_with(b"--") && a.contains(&b'r'))
            {
                unknown_candidates(e, args);
                return true;
            }
            e.tree = true;
            let dirs = opt_values(
                args,
                &["-d", "-C", "-o", "-X"],
                &["--directory", "--dest", "--output", "--extract-dir"],
            );
            e.files_into_or_here(dirs);
            unknown_candidates(e, args);
        }
        _ => return version_control(e, n, args),
    }
    true
}

/// `svn`, `hg`, `bzr`, `fossil`, `darcs` (see [`copies_from_elsewhere`]).
fn version_control(e: &mut Effects, n: &str, args: &[Vec<u8>]) -> bool {
    // Built only by the programs that use it: every program comes through here, with up
    // to 16,000 words.
    let ops = std::cell::LazyCell::new(|| operands_of(args));
    // The first operand, found without building the list.
    let sub = first_operand(args).map(|o| text(o)).unwrap_or_default();
    match n {
        "svn" | "hg" | "bzr" | "fossil" | "darcs" => {
            // Version control: anything but a query rewrites the work tree (and `export`,
            // `clone`, `checkout` write into their target).
            e.net = Net::Maybe;
            static QUERIES: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
                "status",
                "st",
                "log",
                "diff",
                "di",
                "info",
                "list",
                "ls",
                "cat",
                "blame",
                "annotate",
                "praise",
                "help",
                "version",
                "summary",
                "sum",
                "identify",
                "id",
                "paths",
                "branches",
                "tags",
                "heads",
                "root",
                "files",
                "manifest",
                "incoming",
                "in",
                "outgoing",
                "out",
                "proplist",
                "propget",
                "mergeinfo",
            ]);
            if !QUERIES.contains(&sub.as_str()) {
                e.tree = true;
                match ops.get(2) {
                    Some(d) if matches!(sub.as_str(), "export" | "checkout" | "co" | "clone") => {
                        e.file_into(d.clone())
                    }
                    _ => e.file_into(b".".to_vec()),
                }
            }
            unknown_candidates(e, args);
        }
        _ => return false,
    }
    true
}

/// `cmake -E CMD …` (file commands) and `cmake --install DIR --prefix P`.
fn cmake(e: &mut Effects, args: &[Vec<u8>]) {
    for p in opt_values(args, &[], &["--prefix"]) {
        e.file_into(p);
    }
    if args.iter().any(|a| a.as_slice() == b"--install")
        && opt_values(args, &[], &["--prefix"]).is_empty()
    {
        e.installs = true;
    }
    let Some(at) = args.iter().position(|a| a.as_slice() == b"-E") else {
        unknown_candidates(e, args);
        return;
    };
    let sub = args.get(at + 1).map(|a| text(a)).unwrap_or_default();
    let rest: Vec<&Vec<u8>> = args[(at + 2).min(args.len())..]
        .iter()
        .filter(|a| !a.starts_with(b"-"))
        .collect();
    match sub.as_str() {
        "rm" | "remove" | "remove_directory" | "rmdir" => {
            for p in rest {
                e.file(p.clone(), Access::Delete, true);
            }
        }
        "copy"
        | "copy_if_different"
        | "copy_directory"
        | "copy_directory_if_different"
        | "copy_if_newer"
        | "copy_directory_if_newer" => {
            let recursive = sub.contains("directory");
            let target = opt_values(&args[at + 2..], &["-t"], &[]);
            let (srcs, dest) = match target.first() {
                Some(t) => (rest.clone(), Some(t.clone())),
                None => match rest.split_last() {
                    Some((d, s)) => (s.to_vec(), Some((*d).clone())),
                    None => (vec![], None),
                },
            };
            for s in &srcs {
                e.file((*s).clone(), Access::Read, recursive);
            }
            if let Some(d) = dest {
                e.copy_dest(&d, &srcs, recursive);
                if recursive {
                    e.file_into(d);
                }
            }
        }
        "rename" => {
            if let [a, b, ..] = rest.as_slice() {
                e.file((*a).clone(), Access::Delete, true);
                e.file((*b).clone(), Access::Write, true);
                e.file_into((*b).clone());
            }
        }
        "make_directory" | "touch" | "touch_nocreate" | "create_symlink" | "create_hardlink" => {
            for p in rest {
                e.file(p.clone(), Access::Write, false);
            }
        }
        "tar" => {
            let mode = rest.first().map(|m| text(m)).unwrap_or_default();
            if mode.contains('x') {
                e.tree = true;
                e.file_into(b".".to_vec());
                for p in rest.iter().skip(1) {
                    e.file((*p).clone(), Access::Read, false);
                }
            } else if let Some((archive, files)) = rest[1.min(rest.len())..].split_first() {
                e.file((*archive).clone(), Access::Write, false);
                for p in files {
                    e.file((*p).clone(), Access::Read, true);
                }
            }
        }
        "cat" | "sha1sum" | "sha224sum" | "sha256sum" | "sha384sum" | "sha512sum" | "md5sum"
        | "compare_files" | "echo" | "echo_append" | "sleep" | "true" | "false" | "environment"
        | "capabilities" => {
            if !sub.starts_with("echo") {
                for p in rest {
                    e.file(p.clone(), Access::Read, false);
                }
            }
        }
        _ => {
            e.tree = true;
            unknown_candidates(e, args);
        }
    }
}

/// Formatters and search-and-replace tools that rewrite JSON, TOML, YAML or Markdown (and so
/// agent configuration) in place: in write mode each operand (here when none) is written, and
/// a folder has unknown names written under it. Formatters of one language's sources
/// (`black`, `gofmt`, `rustfmt`) cannot rewrite configuration and are not listed.
fn rewriters(e: &mut Effects, n: &str, args: &[Vec<u8>]) -> bool {
    // Built only for the programs below: every program comes through here.
    let words = std::cell::LazyCell::new(|| args.iter().map(|a| text(a)).collect::<Vec<_>>());
    if matches!(n, "deno" | "dprint" | "taplo")
        && !words
            .first()
            .is_some_and(|w| matches!(w.as_str(), "fmt" | "format"))
    {
        // `deno run x.ts` is an interpreter's business.
        return false;
    }
    let has = |o: &[&str]| {
        words
            .iter()
            .any(|w| o.iter().any(|x| w == x || w.starts_with(&format!("{x}="))))
    };
    // (writes, leading non-file operands)
    let (writes, skip) = match n {
        "prettier" => (has(&["-w", "--write"]), 0),
        "eslint" | "oxlint" | "markdownlint" | "markdownlint-cli2" | "stylelint" => (
            has(&["--fix", "--fix-dry-run"]) && !has(&["--fix-dry-run"]),
            0,
        ),
        "biome" | "rome" => (
            has(&["--write", "--apply", "--apply-unsafe", "--fix", "--unsafe"]),
            1,
        ),
        "deno" | "dprint" | "taplo" => (
            words
                .first()
                .is_some_and(|w| matches!(w.as_str(), "fmt" | "format"))
                && !has(&["--check"]),
            1,
        ),
        "yamlfmt" => (!has(&["-lint", "-dry", "--lint", "--dry"]), 0),
        "clang-format" | "jsonnetfmt" => (has(&["-i", "--in-place"]), 0),
        "sd" => (!has(&["-p", "--preview"]), 2),
        "fastmod" | "comby" => (
            !has(&["--print", "-dry-run"]) || has(&["-i", "-in-place"]),
            2,
        ),
        "ast-grep" | "sg" => (has(&["-U", "--update-all", "-i", "--interactive"]), 0),
        _ => return false,
    };
    let ops: Vec<&Vec<u8>> = args
        .iter()
        .filter(|a| !a.starts_with(b"-"))
        .skip(skip)
        .collect();
    if !writes {
        // Checking only: read as an unknown program (`eslint .` does not read `.env`).
        return false;
    }
    if ops.is_empty() {
        e.file_into(b".".to_vec());
    }
    for o in ops {
        e.file(o.clone(), Access::Write, false);
        e.file_into(o.clone());
    }
    true
}

/// Converters and writers named by an option: `dos2unix`/`unix2dos` (in place), `exiftool`,
/// `shuf`.
fn converters(e: &mut Effects, n: &str, args: &[Vec<u8>]) -> bool {
    if matches!(n, "dos2unix" | "unix2dos" | "mac2unix" | "unix2mac") {
        // Convert in place (`-n IN OUT` writes OUT): every operand may be written.
        for p in operands(e, args, &["-c", "--convmode", "-cp", "--codepage"]) {
            e.file(p.clone(), Access::Write, false);
        }
    } else if n == "exiftool" {
        // `-o OUT` writes; tag assignments (`-TAG=V`, `-tagsFromFile`) rewrite the files.
        for v in opt_values(args, &["-o"], &["-out"]) {
            e.file(v, Access::Write, false);
        }
        let writes = args.iter().any(|a| {
            a.starts_with(b"-")
                && (a.contains(&b'=')
                    || a.contains(&b'<')
                    || text(a).to_ascii_lowercase().starts_with("-tagsfromfile"))
        });
        let access = if writes { Access::Write } else { Access::Read };
        for p in operands(
            e,
            args,
            &["-o", "-out", "-tagsFromFile", "-TagsFromFile", "-@"],
        ) {
            e.file(p.clone(), access, false);
        }
    } else if n == "shuf" {
        for v in opt_values(args, &["-o"], &["--output"]) {
            e.file(v, Access::Write, false);
        }
        for v in opt_values(args, &[], &["--random-source"]) {
            e.file(v, Access::Read, false);
        }
        for p in operands(e, args, &["-o", "-n", "-i", "--output", "--head-count"]) {
            e.file(p.clone(), Access::Read, false);
        }
    } else {
        return false;
    }
    true
}

/// Package managers' commands that rewrite package.json's fields (`npm pkg set
/// scripts.x=…`, `npm set-script x …`, `pnpm pkg set`): a write of `package.json` in the
/// folder (`--prefix D`, `-C D`), which self-protection denies when a configured hook runs
/// `npm run x` (red team, session 8).
fn manifest_edits(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    if !matches!(n, "npm" | "pnpm" | "yarn" | "bun") {
        return;
    }
    let words: Vec<String> = args.iter().map(|a| text(a)).collect();
    let mut dir: Option<String> = None;
    let mut pos: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        if matches!(w, "--prefix" | "-C" | "--dir" | "--cwd") {
            dir = words.get(i + 1).cloned();
            i += 2;
            continue;
        }
        if let Some(v) = w
            .strip_prefix("--prefix=")
            .or_else(|| w.strip_prefix("--dir="))
        {
            dir = Some(v.to_string());
        } else if !w.starts_with('-') {
            pos.push(w);
        }
        i += 1;
    }
    let edits = matches!(
        (pos.first().copied(), pos.get(1).copied()),
        (Some("pkg"), Some("set" | "delete" | "fix")) | (Some("set-script" | "version"), _)
    );
    if edits {
        let f = match dir {
            Some(d) => format!("{}/package.json", d.trim_end_matches('/')),
            None => "package.json".to_string(),
        };
        e.file(f.into_bytes(), Access::Write, false);
    }
}
