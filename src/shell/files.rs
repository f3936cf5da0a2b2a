//! Files a shell command reads or writes, and URLs it fetches, by program (SPEC §3, issue
//! "full rule vocabulary"): `cat .env` reads `.env` as surely as the Read tool does.

use super::readings::program_name;
use crate::pattern::WILD;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// One path argument and what the program does with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileUse {
    /// Dequoted, with WILD for bytes polc cannot know.
    pub path: Vec<u8>,
    pub access: Access,
    /// A folder read recursively (`grep -r x dir`, `cp -r`, `tar c`, `zip -r`).
    pub recursive: bool,
}

/// Programs that read the files named in their arguments.
const READERS: &[&str] = &[
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
    "strings",
    "base64",
    "base32",
    "basenc",
    "uuencode",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "cksum",
    "wc",
    "sort",
    "uniq",
    "cut",
    "paste",
    "join",
    "comm",
    "diff",
    "cmp",
    "fold",
    "fmt",
    "pr",
    "expand",
    "column",
    "tr",
    "jq",
    "yq",
    "file",
    "iconv",
    "openssl",
    "gpg",
    "view",
    "vi",
    "vim",
    "nvim",
    "nano",
    "emacs",
    "code",
    "source",
    ".",
];
/// Readers whose first non-option argument is a pattern or script, not a file.
const PATTERN_FIRST: &[&str] = &[
    "grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "awk", "gawk", "mawk", "nawk",
];
/// Programs that write (or remove) every path they are given.
const WRITERS: &[&str] = &[
    "rm", "rmdir", "unlink", "shred", "truncate", "touch", "chmod", "chown", "chgrp", "chattr",
    "setfacl", "mkdir", "tee", "patch",
];
/// Programs that fetch URLs.
pub const FETCHERS: &[&str] = &[
    "curl", "wget", "http", "https", "xh", "aria2c", "lynx", "links", "w3m", "httpie", "fetch",
];

fn text(v: &[u8]) -> String {
    String::from_utf8_lossy(v).into_owned()
}

fn has_flag(args: &[Vec<u8>], short: char, long: &[&str]) -> bool {
    args.iter().any(|a| {
        let a = text(a);
        (a.starts_with('-') && !a.starts_with("--") && a[1..].contains(short))
            || long
                .iter()
                .any(|l| a == *l || a.starts_with(&format!("{l}=")))
    })
}

/// The file uses of one command (program and arguments).
pub fn uses(stage: &[Vec<u8>]) -> Vec<FileUse> {
    let Some((prog, args)) = stage.split_first() else {
        return Vec::new();
    };
    let name = program_name(prog);
    let mut out = Vec::new();
    let operands: Vec<&Vec<u8>> = {
        let mut v = Vec::new();
        let mut after_dashdash = false;
        for a in args {
            if !after_dashdash && a.as_slice() == b"--" {
                after_dashdash = true;
                continue;
            }
            if after_dashdash || !a.starts_with(b"-") || a.as_slice() == b"-" {
                v.push(a);
            }
        }
        v
    };
    let push = |out: &mut Vec<FileUse>, p: &Vec<u8>, access, recursive| {
        if !p.is_empty() && p.as_slice() != b"-" {
            out.push(FileUse {
                path: p.clone(),
                access,
                recursive,
            });
        }
    };
    let n = name.as_str();
    if READERS.contains(&n) {
        for p in &operands {
            push(&mut out, p, Access::Read, false);
        }
    } else if PATTERN_FIRST.contains(&n) {
        let explicit_pattern =
            has_flag(args, 'e', &["--regexp", "--expression"]) || has_flag(args, 'f', &["--file"]);
        let recursive = n == "rg"
            || n == "ag"
            || n == "ack"
            || has_flag(args, 'r', &["--recursive"])
            || has_flag(args, 'R', &["--dereference-recursive"]);
        let in_place = (n == "sed" || n.ends_with("awk")) && has_flag(args, 'i', &["--in-place"]);
        for (k, p) in operands.iter().enumerate() {
            if k == 0 && !explicit_pattern {
                continue;
            }
            push(
                &mut out,
                p,
                if in_place {
                    Access::Write
                } else {
                    Access::Read
                },
                recursive,
            );
        }
        if recursive && operands.len() <= usize::from(!explicit_pattern) {
            // `grep -r x` / `rg x`: the current folder.
            out.push(FileUse {
                path: b".".to_vec(),
                access: Access::Read,
                recursive: true,
            });
        }
    } else if WRITERS.contains(&n) {
        for p in &operands {
            push(&mut out, p, Access::Write, false);
        }
    } else if matches!(n, "cp" | "mv" | "ln" | "install" | "rsync" | "scp") {
        let recursive = has_flag(args, 'r', &["--recursive"])
            || has_flag(args, 'R', &[])
            || has_flag(args, 'a', &["--archive"]);
        if let Some((dest, srcs)) = operands.split_last() {
            for p in srcs {
                let access = if n == "mv" {
                    Access::Write
                } else {
                    Access::Read
                };
                push(&mut out, p, access, recursive);
            }
            push(&mut out, dest, Access::Write, false);
        }
    } else if n == "dd" {
        for a in args {
            if let Some(p) = a.strip_prefix(b"if=") {
                push(&mut out, &p.to_vec(), Access::Read, false);
            }
            if let Some(p) = a.strip_prefix(b"of=") {
                push(&mut out, &p.to_vec(), Access::Write, false);
            }
        }
    } else if n == "git" {
        // git prints tracked files' contents: `git show REV:path`, `git cat-file -p REV:path`,
        // `git blame path`, and paths after `--` for log/diff/show/grep/archive.
        let at = args.iter().position(|a| !a.starts_with(b"-"));
        let sub = at.map(|i| text(&args[i])).unwrap_or_default();
        let rest: &[Vec<u8>] = at.map(|i| &args[i + 1..]).unwrap_or(&[]);
        let blame = matches!(sub.as_str(), "blame" | "annotate");
        if blame
            || matches!(
                sub.as_str(),
                "show" | "cat-file" | "log" | "diff" | "grep" | "archive"
            )
        {
            let mut after_dashdash = false;
            for a in rest {
                if a.as_slice() == b"--" {
                    after_dashdash = true;
                } else if after_dashdash || (blame && !a.starts_with(b"-")) {
                    push(&mut out, a, Access::Read, false);
                } else if let (false, Some(i)) =
                    (a.starts_with(b"-"), a.iter().position(|&b| b == b':'))
                {
                    push(&mut out, &a[i + 1..].to_vec(), Access::Read, false);
                }
            }
        }
    } else if FETCHERS.contains(&n) {
        // `curl -d @file`, `-F f=@file`, `--data-binary @file`, `-T file` upload files.
        for (k, a) in args.iter().enumerate() {
            let at = a
                .windows(2)
                .position(|w| w == b"=@")
                .map(|i| i + 2)
                .or(a.starts_with(b"@").then_some(1));
            if let Some(i) = at {
                push(&mut out, &a[i..].to_vec(), Access::Read, false);
            }
            if matches!(
                a.as_slice(),
                b"-T" | b"--upload-file" | b"--post-file" | b"--body-file"
            ) {
                if let Some(p) = args.get(k + 1) {
                    push(&mut out, p, Access::Read, false);
                }
            }
            for opt in [&b"--upload-file="[..], b"--post-file=", b"--body-file="] {
                if let Some(p) = a.strip_prefix(opt) {
                    push(&mut out, &p.to_vec(), Access::Read, false);
                }
            }
        }
    } else if matches!(
        n,
        "tar" | "bsdtar" | "gtar" | "zip" | "7z" | "gzip" | "bzip2" | "xz" | "zstd"
    ) {
        for p in &operands {
            push(&mut out, p, Access::Read, true);
        }
    }
    out
}

/// URL arguments of a fetcher (`curl URL`, `wget -O f URL`); a bare `host/path` counts.
pub fn urls(stage: &[Vec<u8>]) -> Vec<String> {
    let Some((prog, args)) = stage.split_first() else {
        return Vec::new();
    };
    if !FETCHERS.contains(&program_name(prog).as_str()) {
        return Vec::new();
    }
    args.iter()
        .filter(|a| {
            !a.starts_with(b"-")
                && !a.starts_with(b"@")
                && !a.windows(2).any(|w| w == b"=@")
                && !a.contains(&WILD)
                && (a.windows(3).any(|w| w == b"://") || a.contains(&b'.'))
        })
        .map(|a| text(a))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(cmd: &str) -> Vec<Vec<u8>> {
        cmd.split(' ').map(|w| w.as_bytes().to_vec()).collect()
    }

    #[test]
    fn readers_writers_and_recursion() {
        let u = uses(&st("cat -n a .env"));
        assert_eq!(
            u.iter().map(|x| text(&x.path)).collect::<Vec<_>>(),
            vec!["a", ".env"]
        );
        let u = uses(&st("grep -rn TODO src"));
        assert_eq!(u.len(), 1);
        assert!(u[0].recursive && u[0].path == b"src");
        let u = uses(&st("rg secret"));
        assert_eq!(text(&u[0].path), ".");
        let u = uses(&st("sed -i s/a/b/ f"));
        assert_eq!(u[0].access, Access::Write);
        let u = uses(&st("cp -r src /tmp/x"));
        assert_eq!(
            (u[0].access, u[0].recursive, u[1].access),
            (Access::Read, true, Access::Write)
        );
        let u = uses(&st("dd if=/dev/zero of=disk.img"));
        assert_eq!(u.len(), 2);
        assert!(uses(&st("ls -la")).is_empty());
    }

    #[test]
    fn fetcher_urls() {
        assert_eq!(
            urls(&st("curl -s https://evil.com/x")),
            vec!["https://evil.com/x"]
        );
        assert_eq!(urls(&st("wget evil.com/x")), vec!["evil.com/x"]);
        assert!(urls(&st("git clone https://x.io/r")).is_empty());
    }
}
