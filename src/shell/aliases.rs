//! Other spellings of a subcommand that the program itself accepts (red team 8,
//! C8-subalias): `npm pub` publishes, `npm isntall x` installs, `gh release new` creates a
//! release, `heroku destroy` is `heroku apps:destroy`, `terraform apply -destroy` is
//! `terraform destroy`. A deny/ask rule names one spelling; the readings here give the
//! others, so the rule meets them all (deny and ask readings only: they can only raise the
//! answer; allow rules still see the command as written).
//!
//! Facts from each program's documentation and behaviour (npm's command alias list and its
//! rule that any unambiguous prefix of a command name is that command; gh's `Aliases:`
//! lines; the Heroku and Vercel CLIs' aliases; Terraform documents `destroy` as an alias of
//! `apply -destroy`, OpenTofu and Terragrunt follow it).

/// npm's commands (npm 10), for its unique-prefix rule (`npm pub` → `publish`).
const NPM_COMMANDS: &[&str] = &[
    "access",
    "adduser",
    "audit",
    "bugs",
    "cache",
    "ci",
    "completion",
    "config",
    "dedupe",
    "deprecate",
    "diff",
    "dist-tag",
    "docs",
    "doctor",
    "edit",
    "exec",
    "explain",
    "explore",
    "find-dupes",
    "fund",
    "get",
    "help",
    "help-search",
    "hook",
    "init",
    "install",
    "install-ci-test",
    "install-test",
    "link",
    "ll",
    "login",
    "logout",
    "ls",
    "org",
    "outdated",
    "owner",
    "pack",
    "ping",
    "pkg",
    "prefix",
    "profile",
    "prune",
    "publish",
    "query",
    "rebuild",
    "repo",
    "restart",
    "root",
    "run",
    "run-script",
    "sbom",
    "search",
    "set",
    "shrinkwrap",
    "star",
    "stars",
    "start",
    "stop",
    "team",
    "test",
    "token",
    "undeprecate",
    "uninstall",
    "unpublish",
    "unstar",
    "update",
    "version",
    "view",
    "whoami",
];

/// npm's aliases and the typos it accepts, with the command each runs.
const NPM_ALIASES: &[(&str, &str)] = &[
    ("add", "install"),
    ("i", "install"),
    ("in", "install"),
    ("ins", "install"),
    ("inst", "install"),
    ("insta", "install"),
    ("instal", "install"),
    ("isnt", "install"),
    ("isnta", "install"),
    ("isntal", "install"),
    ("isntall", "install"),
    ("it", "install-test"),
    ("cit", "install-ci-test"),
    ("sit", "install-ci-test"),
    ("clean-install", "ci"),
    ("clean-install-test", "install-ci-test"),
    ("ic", "ci"),
    ("install-clean", "ci"),
    ("isntall-clean", "ci"),
    ("unlink", "uninstall"),
    ("remove", "uninstall"),
    ("rm", "uninstall"),
    ("r", "uninstall"),
    ("un", "uninstall"),
    ("rb", "rebuild"),
    ("list", "ls"),
    ("la", "ll"),
    ("ln", "link"),
    ("create", "init"),
    ("innit", "init"),
    ("up", "update"),
    ("upgrade", "update"),
    ("udpate", "update"),
    ("c", "config"),
    ("t", "test"),
    ("tst", "test"),
    ("x", "exec"),
    ("rum", "run-script"),
    ("urn", "run-script"),
    ("author", "owner"),
    ("info", "view"),
    ("show", "view"),
    ("v", "view"),
    ("why", "explain"),
    ("verison", "version"),
    ("dist-tags", "dist-tag"),
    ("add-user", "adduser"),
];

/// Other programs' aliases: (program, alias, command).
const ALIASES: &[(&str, &str, &str)] = &[
    ("heroku", "destroy", "apps:destroy"),
    ("k3d", "rm", "delete"),
    ("k3d", "del", "delete"),
    ("heroku", "apps:delete", "apps:destroy"),
    ("vercel", "rm", "remove"),
    ("vercel", "ls", "list"),
    ("docker", "rm", "container rm"),
    ("docker", "rmi", "image rm"),
    ("podman", "rm", "container rm"),
    ("podman", "rmi", "image rm"),
    ("cargo", "b", "build"),
    ("cargo", "r", "run"),
    ("cargo", "t", "test"),
    ("cargo", "c", "check"),
    ("pnpm", "i", "install"),
    ("pnpm", "rm", "remove"),
    ("pnpm", "un", "remove"),
    ("pnpm", "uninstall", "remove"),
    ("yarn", "rm", "remove"),
    ("bun", "i", "install"),
    ("bun", "a", "add"),
    ("bun", "rm", "remove"),
];

/// The command an npm word runs: an alias, a typo npm accepts, or a unique prefix of a
/// command's name.
fn npm_command(word: &str) -> Option<&'static str> {
    if let Some((_, c)) = NPM_ALIASES.iter().find(|(a, _)| *a == word) {
        return Some(c);
    }
    if word.is_empty() || NPM_COMMANDS.contains(&word) {
        return None;
    }
    let mut found = NPM_COMMANDS.iter().filter(|c| c.starts_with(word));
    match (found.next(), found.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// The subcommand words `word` (at `at`, the subcommand's place) stands for in `program`;
/// empty when it is written as the program's own name for it.
fn canonical(program: &str, args: &[Vec<u8>], at: usize) -> Vec<&'static str> {
    let Ok(word) = std::str::from_utf8(&args[at]) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    match program {
        "npm" => {
            if let Some(c) = npm_command(word) {
                out.push(c);
            }
            // `npm install-test x` installs x, then tests: also `install`.
            let c = out.first().copied().unwrap_or(word);
            match c {
                "install-test" => out.push("install"),
                "install-ci-test" => out.push("ci"),
                _ => {}
            }
        }
        // `gh release new`, `gh pr new`, `gh repo new`: the group's `create`.
        "gh" if at > 0 && word == "new" => out.push("create"),
        "gh" if at > 0 && matches!(word, "rm" | "remove") => out.push("delete"),
        "terraform" | "tofu" | "terragrunt"
            if word == "apply"
                && args[at + 1..]
                    .iter()
                    .any(|a| matches!(a.as_slice(), b"-destroy" | b"--destroy")) =>
        {
            out.push("destroy")
        }
        _ => {
            for (p, a, c) in ALIASES {
                if *p == program && *a == word {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// Where the subcommand may stand: the first non-option word, or one after an option that
/// may or may not take it as its value (`npm --prefix x pub`: `x` or `pub`), among the
/// first 16 words; for gh also the word after (`gh release new`: a group's command).
fn places(program: &str, args: &[Vec<u8>]) -> Vec<usize> {
    let opt = |w: &[u8]| w.len() > 1 && (w[0] == b'-' || w[0] == b'+');
    let mut out = Vec::new();
    for j in 0..args.len().min(16) {
        if opt(&args[j]) {
            continue;
        }
        out.push(j);
        if matches!(program, "gh" | "k3d") && j + 1 < args.len() {
            out.push(j + 1);
        }
        if j == 0 || !opt(&args[j - 1]) {
            break;
        }
    }
    out
}

/// The argument lists of `program` with a subcommand spelled another way (see the module
/// notes): for each place a subcommand may stand whose word the program reads as a
/// subcommand of another name, the arguments with that name in its place.
pub fn readings(program: &str, args: &[Vec<u8>]) -> Vec<Vec<Vec<u8>>> {
    let mut out = Vec::new();
    for at in places(program, args) {
        for c in canonical(program, args, at) {
            let mut tail: Vec<Vec<u8>> = c.split(' ').map(|w| w.as_bytes().to_vec()).collect();
            tail.extend(
                args[at + 1..]
                    .iter()
                    .filter(|a| {
                        !(c == "destroy" && matches!(a.as_slice(), b"-destroy" | b"--destroy"))
                    })
                    .cloned(),
            );
            // With the words before it, and without them (`npm --prefix x pub` is also
            // `npm publish` to a `prefix "npm publish"` rule).
            if at > 0 {
                let mut v: Vec<Vec<u8>> = args[..at].to_vec();
                v.extend(tail.iter().cloned());
                out.push(v);
            }
            out.push(tail);
        }
    }
    out
}

/// Mode changes written another way, as the `chmod` they amount to (red team 8,
/// C8-worldwritable): `setfacl -R -m o::rwx DIR` is `chmod -R o+rwx DIR` (write for others
/// over a tree); `chmod -R --reference=F DIR` copies a mode polc cannot see: `chmod -R ?
/// DIR` with the mode unknown (`unknown`), so a rule about modes meets it as a maybe.
pub fn mode_readings(program: &str, args: &[Vec<u8>], unknown: u8) -> Vec<Vec<Vec<u8>>> {
    let recursive = args.iter().any(|a| {
        a.as_slice() == b"--recursive"
            || (a.starts_with(b"-") && !a.starts_with(b"--") && a.contains(&b'R'))
    });
    if !recursive {
        return Vec::new();
    }
    let operands = |skip_next: &[&[u8]]| -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut k = 0;
        while k < args.len() {
            let a = &args[k];
            if skip_next.contains(&a.as_slice()) {
                k += 2;
                continue;
            }
            if !a.starts_with(b"-") {
                out.push(a.clone());
            }
            k += 1;
        }
        out
    };
    let chmod = |mode: Vec<u8>, targets: Vec<Vec<u8>>| {
        let mut v = vec![b"-R".to_vec(), mode];
        v.extend(targets);
        vec![v]
    };
    match program {
        "chmod" if args.iter().any(|a| a.starts_with(b"--reference")) => {
            chmod(vec![unknown], operands(&[b"--reference"]))
        }
        "setfacl" => {
            // The ACL specs: values of -m/--modify (also `-Rm SPEC`, `--modify=SPEC`).
            let mut specs: Vec<&[u8]> = Vec::new();
            for (k, a) in args.iter().enumerate() {
                if let Some(v) = a.strip_prefix(b"--modify=") {
                    specs.push(v);
                } else if a.as_slice() == b"--modify"
                    || (a.starts_with(b"-") && !a.starts_with(b"--") && a.ends_with(b"m"))
                {
                    specs.extend(args.get(k + 1).map(Vec::as_slice));
                }
            }
            let others_write = specs.iter().any(|s| {
                s.split(|&b| b == b',').any(|e| {
                    let e = e
                        .strip_prefix(b"d:")
                        .or_else(|| e.strip_prefix(b"default:"))
                        .unwrap_or(e);
                    (e.starts_with(b"o:") || e.starts_with(b"other:"))
                        && e.rsplit(|&b| b == b':')
                            .next()
                            .is_some_and(|p| p.contains(&b'w'))
                })
            });
            if others_write {
                let mut skip: Vec<&[u8]> = vec![b"--modify", b"-M", b"-X"];
                skip.extend(
                    args.iter()
                        .filter(|a| {
                            a.starts_with(b"-") && a.ends_with(b"m") && !a.starts_with(b"--")
                        })
                        .map(Vec::as_slice),
                );
                chmod(b"o+w".to_vec(), operands(&skip))
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &str) -> Vec<Vec<u8>> {
        args.split(' ').map(|w| w.as_bytes().to_vec()).collect()
    }

    fn joined(v: Vec<Vec<Vec<u8>>>) -> Vec<String> {
        v.into_iter()
            .map(|v| {
                v.iter()
                    .map(|w| String::from_utf8_lossy(w).into_owned())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    fn read(program: &str, args: &str) -> Vec<String> {
        joined(readings(program, &words(args)))
    }

    fn read_mode(program: &str, args: &str) -> Vec<String> {
        joined(mode_readings(program, &words(args), b'?'))
    }

    #[test]
    fn each_programs_other_spellings() {
        assert_eq!(read("npm", "pub"), ["publish"]);
        assert_eq!(
            read("npm", "publ --access public"),
            ["publish --access public"]
        );
        assert_eq!(read("npm", "isntall evil"), ["install evil"]);
        assert_eq!(read("npm", "i evil"), ["install evil"]);
        assert_eq!(read("npm", "add evil"), ["install evil"]);
        assert_eq!(
            read("npm", "it evil"),
            ["install-test evil", "install evil"]
        );
        assert_eq!(read("npm", "install-test evil"), ["install evil"]);
        assert!(read("npm", "--prefix x pub").contains(&"--prefix x publish".to_string()));
        assert!(read("npm", "--prefix x pub").contains(&"publish".to_string()));
        assert!(read("gh", "release new v1").contains(&"release create v1".to_string()));
        assert_eq!(read("heroku", "destroy -a x"), ["apps:destroy -a x"]);
        assert_eq!(read("vercel", "rm x --yes"), ["remove x --yes"]);
        assert_eq!(read("tofu", "apply -destroy"), ["destroy"]);
        assert_eq!(
            read("terraform", "apply -destroy -input=false"),
            ["destroy -input=false"]
        );
        assert_eq!(read("docker", "rmi x"), ["image rm x"]);
        assert!(read("k3d", "cluster rm x").contains(&"cluster delete x".to_string()));
    }

    #[test]
    fn names_as_written_and_ambiguous_prefixes_have_no_other_reading() {
        for (p, a) in [
            ("npm", "publish"),
            ("npm", "install x"),
            ("npm", "p"),
            ("npm", "st"),
            ("gh", "new"),
            ("terraform", "apply"),
            ("git", "push --force"),
            ("heroku", "apps:destroy"),
        ] {
            assert!(read(p, a).is_empty(), "{p} {a}: {:?}", read(p, a));
        }
    }

    #[test]
    fn acls_and_reference_modes_as_chmod() {
        assert_eq!(read_mode("setfacl", "-R -m other::rwx src"), ["-R o+w src"]);
        assert_eq!(read_mode("setfacl", "-Rm o:rwx src"), ["-R o+w src"]);
        assert_eq!(
            read_mode("setfacl", "--recursive --modify=other::rwx src"),
            ["-R o+w src"]
        );
        assert_eq!(read_mode("chmod", "-R --reference=/tmp src"), ["-R ? src"]);
        assert!(read_mode("setfacl", "-R -m u:bob:rwx src").is_empty());
        assert!(read_mode("setfacl", "-m o::rwx src").is_empty());
    }
}
