//! Short-option clusters, read the way getopt reads them: `-sSLo FILE` is `-s -S -L -o FILE`,
//! `-kT.env` is `-k -T .env`, `-d@f` is `-d @f`. Which letters take a value is per program
//! ([`short_with_arg`]); the catalogue reads a known program's arguments split this way, and
//! the deny/ask readings gain a reading with the clusters split (so `curl * -T *` sees
//! `curl -sST .env URL`). For a program without a table, an attached value is still an
//! unknown use at every letter of a cluster ([`cluster_suffixes`]): a cluster never hides a
//! path.

/// The short options of `program` that take a value (a letter each), for the programs whose
/// writes, reads or uploads the catalogue or the shipped policy reads through an option.
/// Programs whose long options take one dash (`exiftool -Comment=x`, `unar -output-directory`,
/// `find -name`) have no table: their words are not clusters.
pub fn short_with_arg(program: &str) -> Option<&'static str> {
    Some(match program {
        "curl" | "curlie" => "AbcCdDeEFHKmoPQrtTuUwxXyYz",
        "env" => "uSC",
        "sudo" | "sudo-rs" => "ugpCDhrtUT",
        "time" | "gtime" => "fo",
        "wget" | "wget2" => "aABDeiIlOoPQRtTUwX",
        "sort" => "koStT",
        "shuf" => "ino",
        "aria2c" => "dijlosxkmtuTMU",
        "iconv" => "fto",
        "cp" | "mv" | "ln" | "gcp" => "tS",
        "install" | "ginstall" => "tSmog",
        "rsync" => "efBTM",
        "scp" => "cFiJlPSoX",
        "sftp" => "bBcDFiJlPRsSoX",
        "unzip" => "dPx",
        "grep" | "egrep" | "fgrep" | "zgrep" => "efmABCdD",
        "rg" => "efmABCgtTjM",
        "sed" | "gsed" => "efl",
        "tree" => "oLPIH",
        "uniq" => "fsw",
        "xxd" => "clgso",
        "touch" => "dtr",
        "truncate" => "sr",
        "mktemp" => "p",
        "split" => "bClnat",
        "patch" => "pidoerBzFDV",
        "less" => "bhjkoOpPtTxyz",
        "dos2unix" | "unix2dos" | "mac2unix" | "unix2mac" => "",
        "yq" => "",
        "xh" | "xhs" | "http" | "https" => "aAo",
        "kubectl" | "oc" => "ncsl",
        "helm" => "n",
        "gh" => "DOpR",
        "dpkg-deb" => "",
        "svn" => "rmF",
        "hg" => "Rr",
        _ => return None,
    })
}

/// `args` with every short-option cluster of `program` split into one word per option and
/// an attached value as a word of its own; None when `program` has no table or nothing
/// changed. Words after `--`, and clusters holding a byte that is not a letter or digit
/// before a value letter (a glob, an expansion), are left as written.
pub fn split_clusters(program: &str, args: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
    let letters = short_with_arg(program)?.as_bytes();
    let wget = program.starts_with("wget");
    let mut out: Vec<Vec<u8>> = Vec::with_capacity(args.len() + 4);
    let mut changed = false;
    let mut k = 0;
    while k < args.len() {
        let a = &args[k];
        k += 1;
        if a.as_slice() == b"--" {
            out.extend(args[k - 1..].iter().cloned());
            break;
        }
        if a.len() < 2 || a[0] != b'-' || a[1] == b'-' {
            out.push(a.clone());
            continue;
        }
        let mut pieces: Vec<Vec<u8>> = Vec::new();
        let mut i = 1;
        let mut ok = true;
        let mut took_next = false;
        while i < a.len() {
            let c = a[i];
            if !(c.is_ascii_alphanumeric() || c == b'#') {
                ok = false;
                break;
            }
            if wget && c == b'n' && i + 1 < a.len() {
                // wget's `-nv`, `-nH`, `-nc`: `n` and the next letter are one option.
                pieces.push(vec![b'-', b'n', a[i + 1]]);
                i += 2;
                continue;
            }
            pieces.push(vec![b'-', c]);
            i += 1;
            if letters.contains(&c) {
                if i < a.len() {
                    pieces.push(a[i..].to_vec());
                } else if k < args.len() {
                    pieces.push(args[k].clone());
                    k += 1;
                    took_next = true;
                }
                i = a.len();
            }
        }
        if !ok {
            out.push(a.clone());
            continue;
        }
        let expected = if took_next { 2 } else { 1 };
        if pieces.len() != expected || pieces[0] != *a {
            changed = true;
        }
        out.extend(pieces);
    }
    changed.then_some(out)
}

/// Every value a short cluster could carry attached, whichever letter takes it:
/// `-sSLo.claude/x` → `SLo.claude/x`, `Lo.claude/x`, `o.claude/x`, `.claude/x` (the letters
/// before a non-letter; a word that is not a cluster gives nothing).
pub fn cluster_suffixes(a: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    if a.len() < 3 || a[0] != b'-' || a[1] == b'-' {
        return out;
    }
    let mut i = 1;
    while i + 1 < a.len() && (a[i].is_ascii_alphanumeric() || a[i] == b'#') {
        let rest = &a[i + 1..];
        let rest = match rest.iter().position(|&b| b == b'@') {
            Some(j) if j == 0 || rest[..j].iter().all(|b| b.is_ascii_alphanumeric()) => {
                &rest[j + 1..]
            }
            _ => rest,
        };
        if !rest.is_empty() {
            out.push(rest.to_vec());
        }
        i += 1;
    }
    out
}

/// The long options the catalogue and the shipped policy read, per program (canonical
/// names, the most dangerous first), and the program's harmless options that are a prefix
/// of one of them (an exact harmless name is never expanded: `tar --checkpoint=10`).
/// GNU getopt_long (and curl's and git's parsers) accept any unambiguous prefix of a long
/// option: `sort --comp=sh` is `--compress-program=sh`, `curl --upl F` is `--upload-file F`.
struct LongTable {
    programs: &'static [&'static str],
    named: &'static [&'static str],
    harmless: &'static [&'static str],
}

static LONG_TABLES: &[LongTable] = &[
    // git's option parser takes any unambiguous prefix of a long option (red team 8,
    // C8-longabbrev: `git push --mirr origin` force-updated the remote).
    LongTable {
        programs: &["git", "hub", "lab", "yadm"],
        named: &[
            "--mirror",
            "--force",
            "--force-with-lease",
            "--delete",
            "--prune",
            "--all",
            "--tags",
            "--hard",
            "--upload-pack",
            "--receive-pack",
            "--exec",
            "--no-verify",
            "--exec-path",
            "--git-dir",
            "--work-tree",
            "--output",
            "--ext-diff",
            "--textconv",
        ],
        harmless: &[
            "--dry-run",
            "--porcelain",
            "--verbose",
            "--quiet",
            "--follow-tags",
            "--force-if-includes",
            "--progress",
            "--no-progress",
            "--atomic",
            "--oneline",
            "--stat",
        ],
    },
    LongTable {
        programs: &["mdadm"],
        named: &[
            "--zero-superblock",
            "--create",
            "--build",
            "--grow",
            "--fail",
            "--remove",
        ],
        harmless: &["--detail", "--query", "--examine", "--scan"],
    },
    LongTable {
        programs: &["sfdisk"],
        named: &[
            "--delete",
            "--wipe",
            "--wipe-partitions",
            "--part-type",
            "--relocate",
        ],
        harmless: &["--list", "--dump", "--show-size", "--verify"],
    },
    LongTable {
        programs: &["flashrom"],
        named: &["--write", "--erase", "--wp-disable"],
        harmless: &["--read", "--verify", "--flash-name"],
    },
    LongTable {
        programs: &[
            "wipefs",
            "blkdiscard",
            "shred",
            "parted",
            "sgdisk",
            "gdisk",
            "fdisk",
        ],
        named: &[
            "--all",
            "--zap-all",
            "--zap",
            "--delete",
            "--force",
            "--remove",
            "--secure",
            "--zero",
        ],
        harmless: &["--list", "--print", "--help", "--version", "--no-act"],
    },
    LongTable {
        programs: &["curl", "curlie"],
        named: &[
            "--upload-file",
            "--data",
            "--data-binary",
            "--data-ascii",
            "--data-urlencode",
            "--data-raw",
            "--form",
            "--form-string",
            "--json",
            "--output-dir",
            "--output",
            "--config",
            "--cookie-jar",
            "--dump-header",
            "--trace-ascii",
            "--trace",
            "--stderr",
            "--libcurl",
            "--write-out",
            "--proxy",
            "--preproxy",
            "--connect-to",
            "--resolve",
            "--remote-name-all",
            "--remote-name",
            "--create-dirs",
            "--etag-save",
            "--hsts",
            "--alt-svc",
        ],
        harmless: &[
            "--url",
            "--url-query",
            "--compressed",
            "--remote-time",
            "--etag-compare",
        ],
    },
    LongTable {
        programs: &["wget", "wget2"],
        named: &[
            "--post-file",
            "--body-file",
            "--post-data",
            "--body-data",
            "--output-document",
            "--output-file",
            "--append-output",
            "--directory-prefix",
            "--input-file",
            "--execute",
            "--config",
            "--save-cookies",
            "--load-cookies",
            "--save-headers",
            "--warc-file",
            "--recursive",
            "--mirror",
            "--force-directories",
            "--page-requisites",
        ],
        harmless: &["--post"],
    },
    LongTable {
        programs: &["sort"],
        named: &[
            "--compress-program",
            "--output",
            "--files0-from",
            "--random-source",
            "--temporary-directory",
        ],
        harmless: &[],
    },
    LongTable {
        programs: &["shuf"],
        named: &["--output", "--input-range", "--random-source"],
        harmless: &[],
    },
    LongTable {
        programs: &["sed", "gsed"],
        named: &["--in-place", "--expression", "--file"],
        harmless: &[],
    },
    LongTable {
        programs: &["awk", "gawk", "mawk", "nawk"],
        named: &[
            "--include",
            "--load",
            "--source",
            "--exec",
            "--file",
            "--dump-variables",
            "--pretty-print",
            "--profile",
        ],
        harmless: &[],
    },
    LongTable {
        programs: &["tar", "gtar", "bsdtar"],
        named: &[
            "--to-command",
            "--use-compress-program",
            "--checkpoint-action",
            "--info-script",
            "--new-volume-script",
            "--rsh-command",
            "--rmt-command",
            "--remove-files",
            "--files-from",
            "--exclude-from",
            "--directory",
            "--file",
            "--index-file",
            "--volno-file",
            "--listed-incremental",
            "--to-stdout",
        ],
        harmless: &["--checkpoint"],
    },
    LongTable {
        programs: &["zip"],
        named: &[
            "--unzip-command",
            "--test",
            "--out",
            "--names-stdin",
            "--move",
        ],
        harmless: &[],
    },
    LongTable {
        programs: &["cp", "mv", "ln", "install", "gcp", "ginstall", "gmv", "gln"],
        named: &[
            "--target-directory",
            "--suffix",
            "--symbolic",
            "--recursive",
        ],
        harmless: &[],
    },
    LongTable {
        programs: &["du", "wc", "gdu", "gwc"],
        named: &["--files0-from", "--exclude-from"],
        harmless: &[],
    },
    LongTable {
        programs: &["date", "gdate"],
        named: &["--file", "--reference", "--set"],
        harmless: &[],
    },
    LongTable {
        programs: &["rg"],
        named: &[
            "--pre",
            "--pre-glob",
            "--hostname-bin",
            "--file",
            "--ignore-file",
        ],
        harmless: &[],
    },
    LongTable {
        programs: &["grep", "egrep", "fgrep"],
        named: &[
            "--file",
            "--exclude-from",
            "--recursive",
            "--dereference-recursive",
        ],
        harmless: &[],
    },
    LongTable {
        programs: &["make", "gmake"],
        named: &[
            "--eval",
            "--file",
            "--makefile",
            "--directory",
            "--include-dir",
        ],
        harmless: &[],
    },
    LongTable {
        programs: &["gpg", "gpg2"],
        named: &[
            "--send-keys",
            "--send-key",
            "--keyserver",
            "--output",
            "--export-secret-keys",
            "--export-secret-subkeys",
            "--exec-path",
        ],
        harmless: &["--export"],
    },
    LongTable {
        programs: &["iconv", "tree", "patch", "tee"],
        named: &["--output", "--fromfile", "--fromtabfile", "--input"],
        harmless: &[],
    },
    LongTable {
        programs: &["diff", "cmp"],
        named: &["--from-file", "--to-file"],
        harmless: &[],
    },
    LongTable {
        programs: &["man"],
        named: &["--pager", "--html", "--config-file"],
        harmless: &[],
    },
    LongTable {
        programs: &["mysql", "mariadb"],
        named: &[
            "--execute",
            "--pager",
            "--tee",
            "--init-command",
            "--defaults-file",
        ],
        harmless: &[],
    },
    LongTable {
        programs: &["psql"],
        named: &["--command", "--file", "--output", "--log-file"],
        harmless: &[],
    },
];

/// `args` with every long option of `program` that abbreviates a named one written out in
/// full (`--comp=sh` → `--compress-program=sh`); None when nothing changed. A prefix shared
/// by several named options takes the first (the most dangerous); one that is also a prefix
/// of a harmless option is still expanded (getopt would refuse it as ambiguous: reading it
/// as the dangerous one only asks). Words after `--` are operands.
pub fn expand_long(program: &str, args: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
    let t = LONG_TABLES.iter().find(|t| t.programs.contains(&program))?;
    let mut out: Option<Vec<Vec<u8>>> = None;
    for (k, a) in args.iter().enumerate() {
        if a.as_slice() == b"--" {
            break;
        }
        if a.len() < 3 || !a.starts_with(b"--") {
            continue;
        }
        let (name, rest) = match a.iter().position(|&b| b == b'=') {
            Some(i) => (&a[..i], &a[i..]),
            None => (&a[..], &a[a.len()..]),
        };
        let Ok(name) = std::str::from_utf8(name) else {
            continue;
        };
        if t.named.contains(&name) || t.harmless.contains(&name) {
            continue;
        }
        if let Some(full) = t.named.iter().find(|n| n.starts_with(name)) {
            let mut v = full.as_bytes().to_vec();
            v.extend_from_slice(rest);
            out.get_or_insert_with(|| args.to_vec())[k] = v;
        }
    }
    out
}

/// `--name=value` as two words (`--upload-file=x` → `--upload-file x`), for readings.
pub fn split_long(args: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut out = Vec::with_capacity(args.len());
    for (k, a) in args.iter().enumerate() {
        if a.as_slice() == b"--" {
            out.extend(args[k..].iter().cloned());
            break;
        }
        match a.iter().position(|&b| b == b'=') {
            Some(i) if a.starts_with(b"--") && i > 2 => {
                out.push(a[..i].to_vec());
                out.push(a[i + 1..].to_vec());
            }
            _ => out.push(a.clone()),
        }
    }
    out
}

/// Where the subcommand starts after the global options of `kubectl`, `oc`, `helm` and
/// `terraform` (`kubectl -n prod --context x delete …` → the index of `delete`); None for
/// other programs or when no global option comes first.
pub fn global_options_end(program: &str, args: &[Vec<u8>]) -> Option<usize> {
    // Global options that take a value as the next word (`-n prod`, `--context x`).
    let with_arg: &[&str] = match program {
        "kubectl" | "oc" => &[
            "-n",
            "--namespace",
            "--context",
            "--kubeconfig",
            "--cluster",
            "--user",
            "-s",
            "--server",
            "--token",
            "--as",
            "--as-group",
            "--as-uid",
            "--certificate-authority",
            "--client-certificate",
            "--client-key",
            "--cache-dir",
            "--request-timeout",
            "--tls-server-name",
            "-v",
            "--v",
            "--vmodule",
            "--log-file",
            "--profile",
            "--profile-output",
            "--password",
            "--username",
        ],
        "helm" => &[
            "-n",
            "--namespace",
            "--kube-context",
            "--kubeconfig",
            "--kube-apiserver",
            "--kube-as-user",
            "--kube-as-group",
            "--kube-ca-file",
            "--kube-token",
            "--kube-tls-server-name",
            "--registry-config",
            "--repository-cache",
            "--repository-config",
            "--burst-limit",
            "--qps",
        ],
        "terraform" | "tofu" => &[],
        _ => return None,
    };
    let mut k = 0;
    while k < args.len() {
        let a = &args[k];
        if a.as_slice() == b"--" {
            k += 1;
            break;
        }
        if !a.starts_with(b"-") {
            break;
        }
        let t = String::from_utf8_lossy(a);
        if with_arg.contains(&t.as_ref()) {
            k += 2;
        } else {
            // `--namespace=prod`, `-nprod`, `-chdir=x`, flags: one word.
            k += 1;
        }
    }
    (k > 0 && k < args.len()).then_some(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<Vec<u8>> {
        s.iter().map(|x| x.as_bytes().to_vec()).collect()
    }

    #[test]
    fn clusters_split_by_each_programs_value_letters() {
        let cases: &[(&str, &[&str], &[&str])] = &[
            (
                "curl",
                &["-sSLo", "f", "u"],
                &["-s", "-S", "-L", "-o", "f", "u"],
            ),
            ("curl", &["-kT.env", "u"], &["-k", "-T", ".env", "u"]),
            (
                "curl",
                &["-sST", ".env", "u"],
                &["-s", "-S", "-T", ".env", "u"],
            ),
            ("curl", &["-d@f", "u"], &["-d", "@f", "u"]),
            ("curl", &["-Ff=@x"], &["-F", "f=@x"]),
            ("curl", &["-#o", "f"], &["-#", "-o", "f"]),
            ("wget", &["-nvO", "f"], &["-nv", "-O", "f"]),
            ("wget", &["-qO-", "u"], &["-q", "-O", "-", "u"]),
            ("sort", &["-ruo", "f", "x"], &["-r", "-u", "-o", "f", "x"]),
            ("shuf", &["x", "-oT"], &["x", "-o", "T"]),
        ];
        for (p, a, want) in cases {
            assert_eq!(split_clusters(p, &v(a)), Some(v(want)), "{p} {a:?}");
        }
        assert_eq!(split_clusters("curl", &v(&["-o", "f", "u"])), None);
        assert_eq!(split_clusters("nosuch", &v(&["-abc"])), None);
        assert_eq!(split_clusters("curl", &v(&["--", "-sSo"])), None);
    }

    #[test]
    fn suffixes_cover_every_letter() {
        let s = cluster_suffixes(b"-sSLo.claude/x");
        assert!(s.contains(&b".claude/x".to_vec()));
        assert!(cluster_suffixes(b"-Tx").contains(&b"x".to_vec()));
        assert!(cluster_suffixes(b"-d@f").contains(&b"f".to_vec()));
        assert!(cluster_suffixes(b"--long=x").is_empty());
    }

    #[test]
    fn long_option_prefixes_expand_to_the_named_option() {
        let cases: &[(&str, &[&str], &[&str])] = &[
            ("sort", &["--comp=sh", "x"], &["--compress-program=sh", "x"]),
            ("sort", &["--ou", "f", "x"], &["--output", "f", "x"]),
            ("sort", &["--o", "f"], &["--output", "f"]),
            (
                "curl",
                &["--upl", ".env", "u"],
                &["--upload-file", ".env", "u"],
            ),
            ("curl", &["--data-bi", "@f"], &["--data-binary", "@f"]),
            ("curl", &["--for", "f=@x"], &["--form", "f=@x"]),
            ("wget", &["--post-fi=x"], &["--post-file=x"]),
            (
                "sed",
                &["--in", "s/a/b/", "f"],
                &["--in-place", "s/a/b/", "f"],
            ),
            ("gawk", &["--inc=inplace"], &["--include=inplace"]),
            ("tar", &["--use-comp=sh"], &["--use-compress-program=sh"]),
            (
                "tar",
                &["--checkpoint-a=exec=sh"],
                &["--checkpoint-action=exec=sh"],
            ),
            ("zip", &["--unzip-c=sh"], &["--unzip-command=sh"]),
            ("date", &["--fi=.env"], &["--file=.env"]),
        ];
        for (p, a, want) in cases {
            assert_eq!(expand_long(p, &v(a)), Some(v(want)), "{p} {a:?}");
        }
        // Exact names (named or harmless), operands after `--`, other programs: unchanged.
        assert_eq!(expand_long("tar", &v(&["--checkpoint=10"])), None);
        assert_eq!(expand_long("curl", &v(&["--data", "x"])), None);
        assert_eq!(expand_long("sort", &v(&["--", "--comp"])), None);
        assert_eq!(expand_long("ls", &v(&["--comp"])), None);
    }

    #[test]
    fn global_options_are_skipped() {
        let cases: &[(&str, &[&str], Option<usize>)] = &[
            ("kubectl", &["-n", "prod", "delete", "pod"], Some(2)),
            ("kubectl", &["--namespace=prod", "delete"], Some(1)),
            ("kubectl", &["-nprod", "delete"], Some(1)),
            (
                "kubectl",
                &["--kubeconfig", "c", "--context", "x", "delete"],
                Some(4),
            ),
            ("helm", &["--kube-context", "p", "uninstall", "x"], Some(2)),
            ("terraform", &["-chdir=infra", "destroy"], Some(1)),
            ("kubectl", &["delete", "pod"], None),
            ("ls", &["-l", "x"], None),
        ];
        for (p, a, want) in cases {
            assert_eq!(global_options_end(p, &v(a)), *want, "{p} {a:?}");
        }
    }
}
