//! The catalogue of program effects: for a command (program and arguments, after the walk
//! peeled its wrappers), what it reads, writes, deletes or changes the metadata of (and
//! whether recursively), what it runs ([`runs`]), which URLs it fetches and whether it
//! reaches the network, whether it rewrites the work tree from elsewhere, and whether it may
//! install a command on `PATH`. The decision's file and URL checks and self-protection read
//! this one table; `README.md` in this folder documents it.
//!
//! A program the catalogue does not know may do anything with its arguments: each of them
//! that could be a path is an [`Access::Unknown`] use (a denied or protected path given to
//! an unknown program asks). A folder argument counts as recursive only for programs the
//! catalogue marks so (`eslint .` does not ask because `.env` sits in `.`).

pub(crate) mod builds;
mod derived;
pub use derived::env_backups;
pub(crate) mod escapes;
pub(crate) mod files;
pub(crate) mod git;
pub(crate) mod net;
pub(crate) mod options;
pub(crate) mod runs;
pub(crate) mod toolflags;
mod urlglob;

use super::{Word, WordRef, UNKNOWN};

/// A command found inside a segment, to be analysed as segments of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inner {
    /// Shell text (`bash -c SCRIPT`, `eval ARGS`, `su -c CMD`, `ssh HOST CMD…`).
    Script(String),
    /// Words that are already one command (`find … -exec CMD… ;`).
    Words(Vec<Word>),
}

/// What a program runs besides itself: reasons it cannot be attested, and inner commands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Runs {
    pub unattestable: Vec<&'static str>,
    pub inner: Vec<Inner>,
}

impl Runs {
    pub fn unattest(&mut self, why: &'static str) {
        if !self.unattestable.contains(&why) {
            self.unattestable.push(why);
        }
    }
    pub fn inner(&mut self, i: Inner) {
        if !self.inner.contains(&i) {
            self.inner.push(i);
        }
    }
}

/// What a program does with a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Access {
    /// Lists the names under it without opening files (`find DIR`): no rule's business
    /// except the host's own checks on folders outside the project.
    List,
    /// Opens it for reading (its contents reach the agent or another file).
    Read,
    /// An argument of a program polc does not know (or of an option it does not model):
    /// it may be read or written.
    Unknown,
    /// Creates or changes it (a `into` use writes unknown names inside it).
    Write,
    /// Changes its metadata or what it is: `chmod`, `chown`, `chattr`, `setfacl`, `touch`,
    /// `mount` over it.
    Meta,
    /// Makes a hard link to it: later writes through the link change it.
    Link,
    /// Removes or moves it away (and everything inside it).
    Delete,
}

impl Access {
    /// Changes the path (everything but reading and unknown use).
    pub fn writes(self) -> bool {
        matches!(
            self,
            Access::Write | Access::Meta | Access::Link | Access::Delete
        )
    }
}

/// One path a command uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileUse {
    /// Dequoted; WILD for glob characters, UNKNOWN for expansions.
    pub path: Vec<u8>,
    pub access: Access,
    /// The whole tree under the path (`grep -r x dir`, `cp -r`, `rm -r`, `tar c`).
    pub recursive: bool,
    /// A folder that unknown names are written into (`tar -x -C dir`, `cp -r a/. dir`,
    /// `unzip -d dir`).
    pub into: bool,
}

/// Whether a command can reach the network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Net {
    #[default]
    No,
    Yes,
    /// Runs code or is unknown: it may.
    Maybe,
}

/// What one command (a stage of a segment) does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// The program's lowercased basename.
    pub program: String,
    pub files: Vec<FileUse>,
    /// URLs it fetches or sends to; an empty string is a destination polc cannot read
    /// (`curl --resolve`, `--connect-to`, a config file of URLs).
    pub urls: Vec<String>,
    pub net: Net,
    /// Rewrites files of the work tree that it does not name (`git switch`, `git stash
    /// pop`, `patch`, archive extraction).
    pub tree: bool,
    /// May create or replace a command on `PATH` (`cargo install`, `npm -g`, …).
    pub installs: bool,
    /// Installs into the project's own program folders (`npm install` into
    /// `node_modules/.bin`, `pip install` into the active virtual environment's `bin`):
    /// a command on `PATH` only when such a folder is on it.
    pub installs_local: bool,
    /// Folders it changes into for what follows (`cd DIR`) or runs in (`git -C DIR`).
    pub chdir: Vec<Vec<u8>>,
    /// The catalogue knows the program.
    pub known: bool,
    /// Prints the contents of tracked files without naming them (`git show`, `git log -p`,
    /// `git diff`, `git grep`, `git archive`): a tracked file a read rule denies may be
    /// printed (the runtime reads the repository's index; red team, session 7).
    pub prints_tracked: bool,
    /// Follows symbolic links it meets inside the folders it recurses into (`grep -R`,
    /// `rg -L`, `diff -r`, `find -L`, `chown -RL`): a link there may lead anywhere.
    pub follows_links: bool,
}

impl Effects {
    pub fn file(&mut self, path: Vec<u8>, access: Access, recursive: bool) {
        let path = tilde_owned(path);
        if path.is_empty() || path.as_slice() == b"-" {
            return;
        }
        let u = FileUse {
            path,
            access,
            recursive,
            into: false,
        };
        if !self.files.contains(&u) {
            self.files.push(u);
        }
    }

    /// Unknown names are written anywhere under `folder`.
    /// Writes into each of `dirs`, or into the current folder when none is named (an
    /// extractor's or downloader's destination).
    pub fn files_into_or_here(&mut self, dirs: Vec<Vec<u8>>) {
        if dirs.is_empty() {
            self.file_into(b".".to_vec());
        }
        for d in dirs {
            self.file_into(d);
        }
    }

    pub fn file_into(&mut self, folder: Vec<u8>) {
        let path = tilde_owned(folder);
        if path.is_empty() {
            return;
        }
        let u = FileUse {
            path,
            access: Access::Write,
            recursive: true,
            into: true,
        };
        if !self.files.contains(&u) {
            self.files.push(u);
        }
    }

    /// A copy's destination: `dest` itself (a new file) and `dest/NAME` for each source
    /// (an existing folder). A recursive copy writes unknown names under both.
    pub fn copy_dest(&mut self, dest: &[u8], srcs: &[&Vec<u8>], recursive: bool) {
        if recursive {
            self.file_into(dest.to_vec());
        } else {
            self.file(dest.to_vec(), Access::Write, false);
        }
        for s in srcs {
            let base = basename(s);
            let mut p = dest.to_vec();
            if p.last() != Some(&b'/') {
                p.push(b'/');
            }
            p.extend_from_slice(base);
            if recursive {
                self.file_into(p);
            } else {
                self.file(p, Access::Write, false);
            }
        }
    }
}

/// The suffixes of `words` that start at one of its first `n` words that `is_option` (given
/// the word's index) says is not an option, at most 16: the commands a runner, or a wrapper
/// polc cannot read through, may run (`strace -o log CMD`, `xargs --frob rm -rf /`).
pub fn command_suffixes<'a>(
    words: &'a [WordRef<'a>],
    n: usize,
    is_option: impl Fn(usize) -> bool + 'a,
) -> impl Iterator<Item = &'a [WordRef<'a>]> + 'a {
    (0..n.min(words.len()))
        .filter(move |&k| !is_option(k))
        .take(16)
        .map(move |k| &words[k..])
}

/// The last component of a path (`a/b/` → `b`; `src/.` → `.`).
pub fn basename(p: &[u8]) -> &[u8] {
    let t = p.strip_suffix(b"/").unwrap_or(p);
    match t.iter().rposition(|&b| b == b'/') {
        Some(i) => &t[i + 1..],
        None => t,
    }
}

/// Tilde prefixes as bash expands them: `~` and `~/x` stay (path resolution knows the
/// home), `~+` is the current folder, `~-` (`OLDPWD`), `~N`/`~+N`/`~-N` (the directory
/// stack) and `~user` are folders polc cannot know here: UNKNOWN.
pub fn tilde(p: &[u8]) -> Vec<u8> {
    if p.first() != Some(&b'~') {
        return p.to_vec();
    }
    let end = p.iter().position(|&b| b == b'/').unwrap_or(p.len());
    let user = &p[1..end];
    match user {
        b"" => p.to_vec(),
        b"+" => {
            let mut v = b".".to_vec();
            v.extend_from_slice(&p[end..]);
            v
        }
        _ => {
            let mut v = vec![UNKNOWN];
            v.extend_from_slice(&p[end..]);
            v
        }
    }
}

/// [`tilde`] of an owned path, without a copy when it does not start with `~`.
fn tilde_owned(p: Vec<u8>) -> Vec<u8> {
    if p.first() != Some(&b'~') {
        return p;
    }
    tilde(&p)
}

pub(crate) fn text(v: &[u8]) -> String {
    String::from_utf8_lossy(v).into_owned()
}

/// Basename, ASCII-lowercased, without a Windows `.exe` suffix: `/usr/bin/RM` → `rm`,
/// `RM.EXE` → `rm`. Git Bash (MSYS2), where Claude Code runs its Bash tool on Windows, runs
/// `rm.exe` as `rm`: a deny rule for `rm` must see it, and the catalogue must know it.
pub fn program_name(v: &[u8]) -> String {
    // One allocation: the name is almost always UTF-8 already.
    let b = basename_raw(v);
    let mut n = match std::str::from_utf8(b) {
        Ok(s) => s.to_ascii_lowercase(),
        Err(_) => text(b).to_ascii_lowercase(),
    };
    if n.len() > 4 && n.ends_with(".exe") {
        n.truncate(n.len() - 4);
    }
    // Homebrew installs GNU coreutils, findutils, grep, sed, tar… with a `g` prefix on macOS
    // (`grm`, `gdd`, `ggrep`): the same programs (red team, session 6).
    if let Some(rest) = n.strip_prefix('g') {
        if GNU_PREFIXED.contains(&rest) {
            n.remove(0);
        }
    }
    n
}

/// GNU programs Homebrew installs as `g` + name. Only names whose `g`-prefixed form is that
/// program (`gcc`, `git`, `gzip`, `gdb` are other programs: `cc`, `it`, `zip`, `db` are not
/// listed).
const GNU_PREFIXED: &[&str] = &[
    "rm",
    "cp",
    "mv",
    "ln",
    "dd",
    "cat",
    "chmod",
    "chown",
    "chgrp",
    "touch",
    "mkdir",
    "rmdir",
    "install",
    "mktemp",
    "tee",
    "head",
    "tail",
    "cut",
    "sort",
    "uniq",
    "wc",
    "tr",
    "split",
    "csplit",
    "shred",
    "stat",
    "readlink",
    "realpath",
    "dirname",
    "basename",
    "env",
    "nice",
    "nohup",
    "timeout",
    "stdbuf",
    "chroot",
    "date",
    "du",
    "df",
    "truncate",
    "unlink",
    "link",
    "od",
    "base64",
    "base32",
    "md5sum",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "b2sum",
    "cksum",
    "paste",
    "join",
    "comm",
    "fold",
    "fmt",
    "pr",
    "nl",
    "expand",
    "unexpand",
    "tac",
    "seq",
    "printf",
    "echo",
    "sleep",
    "whoami",
    "uname",
    "nproc",
    "numfmt",
    "shuf",
    "ls",
    "dir",
    "vdir",
    "find",
    "xargs",
    "locate",
    "updatedb",
    "grep",
    "egrep",
    "fgrep",
    "sed",
    "tar",
    "awk",
    "make",
    "patch",
    "diff",
    "diff3",
    "sdiff",
    "cmp",
    "m4",
    "indent",
    "which",
    "getopt",
    "tsort",
    "ptx",
    "mkfifo",
    "mknod",
    "runcon",
    "chcon",
    "dircolors",
    "printenv",
    "pathchk",
    "sync",
    "tty",
    "stty",
    "split",
    "factor",
];

fn basename_raw(v: &[u8]) -> &[u8] {
    match v.iter().rposition(|&b| b == b'/') {
        Some(i) => &v[i + 1..],
        None => v,
    }
}

/// The effects of one command: program and arguments (dequoted; WILD for glob characters,
/// UNKNOWN for expansions).
pub fn of(stage: &[Vec<u8>]) -> Effects {
    let Some((prog, args)) = stage.split_first() else {
        return Effects::default();
    };
    let mut e = Effects {
        program: program_name(prog),
        ..Effects::default()
    };
    // Abbreviated long options read as the option they abbreviate (`sort --ou F`).
    let expanded = options::expand_long(&e.program, args);
    files::effects(&mut e, expanded.as_deref().unwrap_or(args));
    net::destinations(&mut e, expanded.as_deref().unwrap_or(args));
    e
}

/// What program `name` with `args` runs (see [`runs`]).
pub fn runs_of(name: &str, args: &[String], arg_words: &[WordRef<'_>]) -> Runs {
    let mut r = Runs::default();
    // Abbreviated long options read as the option they abbreviate (`sort --comp=sh`); the
    // words keep their count, so `arg_words[k]` is still the value of `args[k - 1]`.
    // Only a word of `--` and more can be expanded: no copy of every word otherwise.
    let long = args.iter().any(|a| a.len() >= 3 && a.starts_with("--"));
    let expanded = if long {
        let bytes: Vec<Vec<u8>> = args.iter().map(|a| a.as_bytes().to_vec()).collect();
        options::expand_long(name, &bytes)
    } else {
        None
    };
    match expanded {
        Some(x) => {
            let x: Vec<String> = x.iter().map(|v| text(v)).collect();
            runs::classify(name, &x, arg_words, &mut r);
        }
        None => runs::classify(name, args, arg_words, &mut r),
    }
    r
}

#[cfg(test)]
mod tests;
