//! Files that build and test tools, `date`, `find`'s output options and `sqlite3` write or
//! read through option values (the catalogue's "files" column for them). What these tools
//! *run* through options (`go test -exec`, `cargo --config target.runner`) is in
//! `escapes.rs`.
//!
//! - `go build|test|run|vet …`: `-o F`, `-coverprofile F`, `-cpuprofile F`, `-memprofile F`,
//!   `-blockprofile F`, `-mutexprofile F`, `-trace F` write `F` (under `-outputdir D` for the
//!   test profiles, under `-C D` for everything: `go build -C .claude -o settings.json`);
//! - `cargo … --target-dir D` writes unknown names under `D`; `--manifest-path P` reads `P`;
//! - `pytest --basetemp D` deletes and rewrites `D`; `--junitxml F`, `--cov-report TYPE:F`,
//!   `-o log_file=F` / `--override-ini`, `--log-file F`, `--result-log F`, `--report-log F`
//!   write `F`; `-o cache_dir=D` writes under `D`;
//! - `date -f F` / `--file F` / `-r F` / `--reference F` read `F` (`date -f .env` prints its
//!   lines in error messages);
//! - `sqlite3 DB "VACUUM INTO 'F'"` writes `F`, `.output F` / `.once F` / `.save F` /
//!   `.backup F` write `F`, `.read F` / `.import F T` read `F`; the database is written.

use super::files::opt_values;
use super::{text, Access, Effects};

/// Go's flag package takes `-name` and `--name`, with the value attached by `=` or next.
fn go_values(args: &[Vec<u8>], names: &[&str]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < args.len() {
        let a = text(&args[k]);
        if a == "--" {
            break;
        }
        let bare = a.strip_prefix("--").or_else(|| a.strip_prefix('-'));
        if let Some(bare) = bare {
            let (name, val) = match bare.split_once('=') {
                Some((n, v)) => (n, Some(v.as_bytes().to_vec())),
                None => (bare, None),
            };
            if names.contains(&name) {
                match val {
                    Some(v) => out.push(v),
                    None => {
                        if let Some(v) = args.get(k + 1) {
                            out.push(v.clone());
                        }
                        k += 1;
                    }
                }
            }
        }
        k += 1;
    }
    out
}

pub(super) fn go_value_words(args: &[String], names: &[&str]) -> Vec<String> {
    let b: Vec<Vec<u8>> = args.iter().map(|a| a.as_bytes().to_vec()).collect();
    go_values(&b, names).iter().map(|v| text(v)).collect()
}

fn under(dir: Option<&Vec<u8>>, p: &[u8]) -> Vec<u8> {
    match dir {
        Some(d) if !p.starts_with(b"/") && !p.starts_with(b"~") => {
            let mut v = d.clone();
            if v.last() != Some(&b'/') {
                v.push(b'/');
            }
            v.extend_from_slice(p);
            v
        }
        _ => p.to_vec(),
    }
}

/// Tools that empty or remove their output folder before writing it (red team, session 5):
/// `cargo vendor DIR` removes DIR's entries, `go mod vendor -o DIR` removes DIR, `venv
/// --clear DIR` wipes DIR, static-site and bundler builds empty their output folder. The
/// folder is a recursive delete.
pub(super) fn output_wipes(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    let positional = |from: usize, with_arg: &[&str]| -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut k = from;
        while k < args.len() {
            let t = text(&args[k]);
            if with_arg.contains(&t.as_str()) {
                k += 2;
                continue;
            }
            if !t.starts_with('-') {
                out.push(args[k].clone());
            }
            k += 1;
        }
        out
    };
    let at = |w: &str| args.iter().position(|a| a == w.as_bytes());
    let mut wiped: Vec<Vec<u8>> = Vec::new();
    match n {
        "cargo" => {
            if let Some(i) = at("vendor").filter(|&i| args[..i].iter().all(|a| a.starts_with(b"-")))
            {
                let dirs = positional(
                    i + 1,
                    &[
                        "-s",
                        "--sync",
                        "--manifest-path",
                        "--config",
                        "-Z",
                        "--color",
                        "--lockfile-path",
                    ],
                );
                wiped.extend(dirs.into_iter().next().or(Some(b"vendor".to_vec())));
            }
        }
        "go" => {
            let vendor = args.windows(2).any(|w| {
                matches!(w[0].as_slice(), b"mod" | b"work") && w[1].as_slice() == b"vendor"
            });
            if vendor {
                let o = go_values(args, &["o"]);
                wiped.extend(o.into_iter().next().or(Some(b"vendor".to_vec())));
            }
        }
        "virtualenv" | "uv" | "python" | "python3" | "pypy" | "pypy3"
            if args.iter().any(|a| a == b"--clear") =>
        {
            let from = match n {
                "virtualenv" => Some(0),
                _ => at("venv").map(|i| i + 1),
            };
            if let Some(f) = from {
                wiped.extend(positional(f, &["--prompt", "-p", "--python", "--seed"]).pop());
            }
        }
        "mkdocs" | "mdbook" | "jekyll" | "hugo" | "vite" | "webpack" | "webpack-cli" | "astro"
        | "zola" | "eleventy" | "gatsby" | "next" => {
            wiped.extend(opt_values(
                args,
                &["-d", "-o"],
                &[
                    "--site-dir",
                    "--dest-dir",
                    "--destination",
                    "--outDir",
                    "--out-dir",
                    "--output-path",
                    "--output-dir",
                    "--output",
                ],
            ));
        }
        _ => {}
    }
    for d in wiped {
        e.file(d, Access::Delete, true);
    }
}

/// The build/test tools' file uses; false for other programs.
pub(super) fn build_tools(e: &mut Effects, n: &str, args: &[Vec<u8>]) -> bool {
    match n {
        "go" => go(e, args),
        "cargo" => {
            for d in opt_values(args, &[], &["--target-dir", "--artifact-dir", "--out-dir"]) {
                e.file_into(d);
            }
            for p in opt_values(args, &[], &["--manifest-path", "--lockfile-path"]) {
                e.file(p, Access::Read, false);
            }
            // `cargo clippy -- --emit=dep-info=F`, `cargo rustc -- -o F`: after `--` the
            // compiler's own options (red team, session 5).
            if let Some(i) = args.iter().position(|a| a == b"--") {
                super::files::compiler_files(e, &args[i + 1..]);
                // `cargo clippy -- @.env`: rustc prints the response file's lines.
                for f in super::toolflags::response_files(&args[i + 1..]) {
                    e.file(f, Access::Read, false);
                }
            }
            return false;
        }
        "pytest" | "py.test" => pytest(e, args),
        "pdftotext" | "pdftohtml" | "pdftops" | "pdftocairo" | "pdftoppm" | "pdfimages"
        | "ps2pdf" | "pdf2ps" | "ps2ascii" | "djvutxt" | "ebook-convert" => {
            // `pdftotext IN [OUT]`: the second operand is written (a prefix for the image
            // converters: names beginning with it).
            let ops: Vec<&Vec<u8>> = args.iter().filter(|a| !a.starts_with(b"-")).collect();
            if let Some(i) = ops.first() {
                e.file((*i).clone(), Access::Read, false);
            }
            for o in ops.iter().skip(1) {
                let mut p = (*o).clone();
                e.file(p.clone(), Access::Write, false);
                p.push(crate::pattern::WILD);
                e.file(p, Access::Write, false);
            }
        }
        "du" | "gdu" => {
            for v in opt_values(args, &["-X"], &["--files0-from", "--exclude-from"]) {
                e.file(v, Access::Read, false);
            }
        }
        "date" | "gdate" => {
            for v in opt_values(args, &["-f", "-r"], &["--file", "--reference"]) {
                e.file(v, Access::Read, false);
            }
        }
        "sqlite3" | "sqlite" | "duckdb" | "litecli" | "spatialite" => sqlite(e, args),
        _ => return false,
    }
    true
}

/// Values of `-test.NAME` flags other than plain settings (anywhere, also after `--`).
fn go_test_flag_values(args: &[Vec<u8>]) -> Vec<Vec<u8>> {
    static SETTINGS: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
        "v",
        "run",
        "bench",
        "benchtime",
        "benchmem",
        "count",
        "cpu",
        "parallel",
        "short",
        "failfast",
        "list",
        "skip",
        "timeout",
        "shuffle",
        "fuzz",
        "fuzztime",
        "fuzzminimizetime",
        "paniconexit0",
        "fullpath",
        "coverprofile",
        "cpuprofile",
        "memprofile",
        "memprofilerate",
        "blockprofile",
        "blockprofilerate",
        "mutexprofile",
        "mutexprofilefraction",
        "trace",
        "outputdir",
    ]);
    let mut out = Vec::new();
    for (k, a) in args.iter().enumerate() {
        let t = text(a);
        let Some(rest) = t
            .strip_prefix("--test.")
            .or_else(|| t.strip_prefix("-test."))
        else {
            continue;
        };
        let (name, val) = match rest.split_once('=') {
            Some((n, v)) => (n, Some(v.as_bytes().to_vec())),
            None => (rest, None),
        };
        if SETTINGS.contains(&name) {
            continue;
        }
        match val {
            Some(v) => out.push(v),
            None => out.extend(args.get(k + 1).cloned()),
        }
    }
    out
}

fn go(e: &mut Effects, args: &[Vec<u8>]) {
    let chdir = go_values(args, &["C"]).into_iter().next();
    let outdir = go_values(args, &["outputdir", "test.outputdir"])
        .into_iter()
        .next();
    for v in go_values(args, &["o"]) {
        e.file(under(chdir.as_ref(), &v), Access::Write, false);
    }
    let profiles = [
        "coverprofile",
        "cpuprofile",
        "memprofile",
        "blockprofile",
        "mutexprofile",
        "trace",
        "test.coverprofile",
        "test.cpuprofile",
        "test.memprofile",
        "test.blockprofile",
        "test.mutexprofile",
        "test.trace",
    ];
    for v in go_values(args, &profiles) {
        let p = under(outdir.as_ref(), &v);
        e.file(under(chdir.as_ref(), &p), Access::Write, false);
    }
    // Any other `-test.NAME=VALUE` (after `-args`, or given to a test binary) whose NAME is
    // not a plain setting may name a file the test binary writes (`-test.testlogfile=F`
    // wrote `.claude/settings.json`: red team, session 5).
    for v in go_test_flag_values(args) {
        let p = under(outdir.as_ref(), &v);
        e.file(under(chdir.as_ref(), &p), Access::Write, false);
    }
    if let Some(d) = &outdir {
        e.file_into(under(chdir.as_ref(), d));
    }
    // `go tool pprof -output=F` writes the report.
    if args.windows(2).any(|w| w[0] == b"tool" && w[1] == b"pprof") {
        for v in go_values(args, &["output"]) {
            e.file(under(chdir.as_ref(), &v), Access::Write, false);
        }
    }
    for v in go_values(args, &["modfile", "overlay", "pgo", "coverpkg"]) {
        e.file(under(chdir.as_ref(), &v), Access::Unknown, false);
    }
    // The packages and files named are read (and `go run x.go` runs them).
    for a in args.iter().filter(|a| !a.starts_with(b"-")) {
        e.file(under(chdir.as_ref(), a), Access::Unknown, false);
    }
    e.net = super::Net::Yes;
}

fn pytest(e: &mut Effects, args: &[Vec<u8>]) {
    for d in opt_values(args, &[], &["--basetemp"]) {
        // pytest empties and rewrites its base temporary folder.
        e.file(d, Access::Delete, true);
    }
    for f in opt_values(
        args,
        &[],
        &[
            "--junitxml",
            "--junit-xml",
            "--log-file",
            "--result-log",
            "--report-log",
            "--resultlog",
            "--html",
            "--json-report-file",
            "--alluredir",
            "--benchmark-json",
            "--benchmark-histogram",
            "--cache-dir",
        ],
    ) {
        e.file(f, Access::Write, false);
    }
    // pytest-benchmark saves runs under its storage (`file://PATH`, or a URL it uploads
    // to): red team, session 5.
    for d in opt_values(args, &[], &["--benchmark-storage"]) {
        let d = d.strip_prefix(b"file://").map(<[u8]>::to_vec).unwrap_or(d);
        if d.windows(3).any(|w| w == b"://") {
            e.net = super::Net::Yes;
        } else {
            e.file_into(d);
        }
    }
    for r in opt_values(args, &[], &["--cov-report"]) {
        // `TYPE:PATH`: a file (`xml:cov.xml`, `json:`, `lcov:`) or a folder (`html:D`).
        if let Some(i) = r.iter().position(|&b| b == b':') {
            let path = r[i + 1..].to_vec();
            e.file(path.clone(), Access::Write, false);
            e.file_into(path);
        }
    }
    for o in opt_values(args, &["-o"], &["--override-ini"]) {
        // `-o log_file=F`, `-o cache_dir=D`, `-o junit_…`: any ini value may be a path.
        if let Some(i) = o.iter().position(|&b| b == b'=') {
            let path = o[i + 1..].to_vec();
            e.file(path.clone(), Access::Write, false);
            e.file_into(path);
        }
    }
    for c in opt_values(
        args,
        &["-c"],
        &["--config-file", "--rootdir", "--confcutdir"],
    ) {
        e.file(c, Access::Unknown, false);
    }
    for a in args.iter().filter(|a| !a.starts_with(b"-")) {
        e.file(a.clone(), Access::Unknown, false);
    }
}

/// The quoted or bare path after `KEYWORD` in SQL or a dot command.
fn path_after(text: &str, at: usize) -> Option<Vec<u8>> {
    let rest = text[at..].trim_start();
    let (q, body) = match rest.chars().next()? {
        c @ ('\'' | '"') => (Some(c), &rest[1..]),
        _ => (None, rest),
    };
    let end = match q {
        Some(c) => body.find(c).unwrap_or(body.len()),
        None => body
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(body.len()),
    };
    let p = &body[..end];
    (!p.is_empty() && !p.starts_with('|')).then(|| p.as_bytes().to_vec())
}

fn sqlite(e: &mut Effects, args: &[Vec<u8>]) {
    let mut ops = Vec::new();
    let mut k = 0;
    while k < args.len() {
        let a = &args[k];
        k += 1;
        if matches!(
            a.as_slice(),
            b"-cmd" | b"-init" | b"-separator" | b"-newline" | b"-nullvalue" | b"-c"
        ) {
            if let Some(v) = args.get(k) {
                if a.as_slice() == b"-init" {
                    e.file(v.clone(), Access::Read, false);
                }
                ops.push(v.clone());
            }
            k += 1;
        } else if !a.starts_with(b"-") {
            ops.push(a.clone());
        }
    }
    if let Some(db) = ops.first() {
        if !db.contains(&b' ') {
            e.file(db.clone(), Access::Write, false);
        }
    }
    for o in &ops {
        let t = text(o).split_whitespace().collect::<Vec<_>>().join(" ");
        let low = t.to_ascii_lowercase();
        // `VACUUM INTO 'f'` (not `INSERT INTO t`).
        let into = if low.contains("vacuum") { "into" } else { "\0" };
        for (kw, access) in [
            (into, Access::Write),
            (".output", Access::Write),
            (".once", Access::Write),
            (".save", Access::Write),
            (".backup", Access::Write),
            (".excel", Access::Write),
            (".log", Access::Write),
            (".read", Access::Read),
            (".import", Access::Read),
            (".open", Access::Write),
            (".restore", Access::Read),
            ("attach", Access::Write),
            ("writefile(", Access::Write),
            ("readfile(", Access::Read),
        ] {
            let mut from = 0;
            while let Some(i) = low[from..].find(kw) {
                let at = from + i + kw.len();
                // `ATTACH DATABASE 'f'`: the keyword is not the path.
                let at = if low[at..].trim_start().starts_with("database") {
                    at + low[at..].find("database").unwrap_or(0) + "database".len()
                } else {
                    at
                };
                if let Some(p) = path_after(&t, at) {
                    e.file(p, access, false);
                }
                from = at;
            }
        }
        for piece in t.split_whitespace() {
            let p = piece.trim_matches(|c| matches!(c, '\'' | '"' | ';' | '(' | ')' | ','));
            if p.contains('/') || p.starts_with('.') && p.len() > 1 && !p[1..].contains(' ') {
                e.file(p.as_bytes().to_vec(), Access::Unknown, false);
            }
        }
    }
}
