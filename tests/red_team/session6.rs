//! Red team session 6 (black box, 2026-12-01 21:36 UTC): one test per class, with the
//! workplace's `findings-session6.jsonl` ids where a row is one of them.

use super::*;

/// C6-intvar: bash and zsh evaluate an assignment to their integer variables (`RANDOM`,
/// `OPTIND`, `SECONDS`, …) as arithmetic, and arithmetic on a name holding `a[$(CMD)]` runs
/// CMD; zsh's `integer`/`float` declare such variables.
#[test]
fn s6_assignments_to_integer_variables_evaluate_arithmetic() {
    let mut rows = Vec::new();
    for assign in [
        "RANDOM=x",
        "SRANDOM=x",
        "OPTIND=x",
        "HISTCMD=x",
        "OPTIND+=x",
        "export OPTIND=x",
        "export RANDOM=x",
        "declare OPTIND=x",
        "local SECONDS=x",
        "readonly SHLVL=x",
        "typeset COLUMNS=x",
        "LINES=x",
        "FUNCNEST=x",
        "HISTSIZE=x",
        "OPTIND=x true",
        "read OPTIND <<< x",
        "for RANDOM in x; do :; done",
        "integer i; i=x",
        "float f; f=x",
    ] {
        for payload in ["rm -rf ~", "git push --force", "cat .env"] {
            let cmd = format!("p=$; x=\"b[${{p}}({payload})]\"; declare -a b; {assign}");
            // `${p}(` hides the substitution from every reading: ask, not deny.
            rows.push((ShippedBroad, cmd.clone(), AskOrDeny));
            rows.push((Shipped, cmd, AskOrDeny));
            // Written out, the substitution in the value is read by the deny rules.
            let seen = format!("x='b[$({payload})]'; {assign}");
            let want = if payload == "cat .env" {
                AskOrDeny
            } else {
                Deny
            };
            rows.push((ShippedBroad, seen, want));
        }
    }
    for cmd in [
        "p=$; x=\"b[${p}(polc confirm)]\"; RANDOM=x",
        "p=$; x=\"b[${p}(rm -f .claude/settings.json)]\"; OPTIND=x",
        "RANDOM='b[$(rm -f .claude/settings.json)]'",
    ] {
        rows.push((Broad, cmd.to_string(), AskOrDeny));
    }
    let rows: Vec<(Setup, &str, Want)> =
        rows.iter().map(|(s, c, w)| (*s, c.as_str(), *w)).collect();
    expect(&rows);
}

/// C6-zshcdpath: zsh's `cdpath` is tied to `CDPATH`, so a relative `cd` after it may land in
/// a protected folder; `fpath`/`module_path` are tied to `FPATH`/`MODULE_PATH`.
#[test]
fn s6_zsh_lower_case_cdpath_moves_cd() {
    expect_at(&[
        (
            Broad,
            "",
            "cdpath={ROOT}/.claude; cd hooks; cp {ROOT}/src/main.rs h.sh",
            AskOrDeny,
        ),
        (
            Broad,
            "",
            "cdpath={ROOT}/.claude; cd hooks && echo x | tee h.sh",
            AskOrDeny,
        ),
        (
            Broad,
            "",
            "cdpath={ROOT}/.claude; cd hooks || exit; rm -f h.sh",
            AskOrDeny,
        ),
        (
            Broad,
            "src",
            "cdpath=..; cd .claude && echo '{}' | tee settings.json",
            AskOrDeny,
        ),
        (
            Broad,
            "src",
            "CdPath=..; cd .claude && echo '{}' | tee settings.json",
            AskOrDeny,
        ),
        (
            Broad,
            "",
            "cdpath={ROOT}; cd compiled && rm -f policy.bin",
            AskOrDeny,
        ),
        (
            Broad,
            "",
            "export cdpath={ROOT}; cd compiled && rm -f policy.bin",
            AskOrDeny,
        ),
        (Broad, "", "fpath=({ROOT}/x); autoload f; f", AskOrDeny),
        (Broad, "", "fpath={ROOT}/x; autoload f; f", AskOrDeny),
        (Broad, "", "module_path={ROOT}/x; zmodload m", AskOrDeny),
        (
            ShippedBroad,
            "",
            "fpath=/tmp/f; autoload -U rmall; rmall",
            AskOrDeny,
        ),
    ]);
}

/// C6-argfile/goflags/rustcprint: options the shipped policy's allowed build and test tools
/// hand to another tool or read from a response file: only those known plain are attested.
#[test]
fn s6_options_handed_on_by_allowed_build_tools() {
    let mut rows = vec![(Shipped, "pytest @.env", Deny)];
    for cmd in [
        "pytest @src/args.txt",
        "pytest -q @src/args.txt tests",
        "cargo clippy -- @src/args.txt",
        "cargo clippy --all-targets -- -D warnings @src/args.txt",
        "cargo test -- @src/args.txt",
        "cargo test -- --logfile .claude/settings.json",
        "cargo clippy -- --print=cfg=.claude/settings.json",
        "cargo clippy -- --print cfg=.claude/settings.json",
        "cargo clippy -- -C linker=/tmp/evil",
        "cargo clippy -- -Clink-arg=-o.claude/settings.json",
        "cargo rustc --print=cfg=.claude/settings.json",
        "cargo +nightly clippy -- -Zunpretty=expanded -o .claude/x",
        "go build -gcflags=-linkobj=.claude/settings.json .",
        "go build -ldflags='-o .claude/settings.json' .",
        "go build -ldflags '-o .claude/settings.json' .",
        "go build -buildmode=c-archive -ldflags=-extar=/tmp/evil .",
        "go build -ldflags=-tmpdir=.claude .",
        "go build -gcflags='all=-importcfg=/tmp/x' .",
        "go build -asmflags=-o=.claude/x .",
        "go build -gccgoflags=-fplugin=/tmp/p.so .",
        "go test -ldflags=-linkmode=external -ldflags=-extld=/tmp/evil ./...",
        "go vet -gcflags=-linkobj=.claude/settings.json .",
        "gcc @src/args.txt -c src/main.c",
        "javac @src/args.txt",
    ] {
        rows.push((Shipped, cmd, AskOrDeny));
        rows.push((Broad, cmd, AskOrDeny));
    }
    for cmd in [
        "cargo clippy --all-targets -- -D warnings",
        "cargo clippy -- -Dclippy::all -W clippy::pedantic --cap-lints=warn",
        "cargo test -- --nocapture --test-threads=1 parser::",
        "go build -ldflags='-s -w -X main.version=1.2.3' ./...",
        "go test -gcflags=all=-N ./...",
        "pytest -q tests",
    ] {
        rows.push((Shipped, cmd, Allow));
    }
    expect(&rows);
}
