//! Options a build tool hands on to another tool, read by what polc *knows* is plain rather
//! than by a list of known dangers (red team, session 6: every list of dangerous linker or
//! compiler options had a sibling it missed — `-ldflags='-o F'`, `-gcflags=-linkobj=F`,
//! `-ldflags=-extar=PROG`, rustc's `--print=cfg=F`):
//!
//! - go's `-ldflags`, `-gcflags`, `-asmflags`, `-gccgoflags` values ([`go_flags_plain`]): only
//!   `-s -w -v -X name=value -buildid=… -trimpath…` for the linker and `-N -l -m -B -S -e -C`
//!   for the compiler (after an optional `PATTERN=`); anything else is unattestable;
//! - the words after cargo's `--` ([`cargo_passthrough_plain`]): for `clippy`, `rustc`,
//!   `rustdoc` the compiler's options, of which only the lint levels are plain; for `test`
//!   and `bench` the test harness's options, of which only libtest's plain settings are;
//! - response files (`@FILE`, [`reads_response_files`]): compilers, linkers, binutils, javac,
//!   pytest and the others that read more arguments from `FILE` run options polc never sees
//!   (unattestable), and print the file's lines in their errors (a read of `FILE`).

/// Is a go `-ldflags`/`-gcflags`/`-asmflags`/`-gccgoflags` value (`kind` without the dash)
/// made only of flags polc knows write nothing and run nothing?
pub(super) fn go_flags_plain(kind: &str, value: &str) -> bool {
    // `all=-N -l`, `example.com/m/...=-m`: a package pattern first.
    let v = value.trim();
    let v = match v.split_once('=') {
        Some((pattern, rest)) if !pattern.starts_with('-') && !pattern.contains(' ') => rest,
        _ => v,
    };
    let mut pieces = v.split_whitespace();
    while let Some(p) = pieces.next() {
        // Go's flag package takes `--s` as `-s`.
        let p = p
            .strip_prefix("--")
            .map_or(p, |r| &p[p.len() - r.len() - 1..]);
        let ok = match kind {
            "ldflags" => match p {
                "-s" | "-w" | "-v" => true,
                // `-X importpath.name=value` sets a string: nothing is run or written.
                "-X" => pieces.next().is_some(),
                _ => {
                    p.starts_with("-X=")
                        || p.starts_with("-buildid=")
                        || p == "-s=true"
                        || p == "-w=true"
                        || p == "-compressdwarf=false"
                }
            },
            "gcflags" => {
                matches!(p, "-N" | "-l" | "-m" | "-B" | "-S" | "-e" | "-C" | "-race")
                    || p.strip_prefix("-m=")
                        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            }
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// The cargo subcommand in `args` (the first word that is neither an option nor a
/// `+toolchain`).
fn cargo_subcommand(args: &[String]) -> Option<&str> {
    args.iter()
        .take_while(|a| a.as_str() != "--")
        .find(|a| !a.starts_with('-') && !a.starts_with('+'))
        .map(String::as_str)
}

/// Are the words after cargo's `--` options polc knows are plain? `None` when there is no
/// `--` or the subcommand passes its words to the project's own program (`cargo run`,
/// which runs project code anyway).
pub(super) fn cargo_passthrough_plain(args: &[String]) -> Option<bool> {
    let i = args.iter().position(|a| a == "--")?;
    let after = &args[i + 1..];
    match cargo_subcommand(args)? {
        "clippy" | "rustc" | "rustdoc" | "doc" => Some(compiler_words_plain(after)),
        "test" | "t" | "bench" | "b" | "nextest" => Some(libtest_words_plain(after)),
        _ => None,
    }
}

/// Are all `words` options `with_value` (followed by their value, or `--opt=value`) or
/// words `plain` accepts?
fn words_plain(words: &[String], with_value: &[&str], plain: impl Fn(&str) -> bool) -> bool {
    let mut k = 0;
    while k < words.len() {
        let w = words[k].as_str();
        if with_value.contains(&w) {
            k += 2;
            continue;
        }
        let joined = with_value
            .iter()
            .any(|o| o.starts_with("--") && w.starts_with(o) && w[o.len()..].starts_with('='));
        if !(joined || plain(w)) {
            return false;
        }
        k += 1;
    }
    true
}

/// rustc/clippy-driver/rustdoc words: lint levels only (`-D warnings`, `-Dclippy::all`,
/// `--deny=…`, `--cap-lints warn`), and rustdoc's item visibility switches.
fn compiler_words_plain(words: &[String]) -> bool {
    const WITH_VALUE: &[&str] = &[
        "-D",
        "-W",
        "-A",
        "-F",
        "--deny",
        "--warn",
        "--allow",
        "--forbid",
        "--force-warn",
        "--cap-lints",
    ];
    words_plain(words, WITH_VALUE, |w| {
        ["-D", "-W", "-A", "-F"]
            .iter()
            .any(|o| w.len() > 2 && w.starts_with(o))
            || matches!(
                w,
                "--document-private-items" | "--document-hidden-items" | "-v" | "--verbose"
            )
    })
}

/// libtest's words: test name filters and plain settings; anything else (`--logfile F`, a
/// custom harness's options) is not known.
fn libtest_words_plain(words: &[String]) -> bool {
    const WITH_VALUE: &[&str] = &[
        "--test-threads",
        "--skip",
        "--color",
        "--format",
        "--shuffle-seed",
        "-Z",
    ];
    const PLAIN: &[&str] = &[
        "--nocapture",
        "--no-capture",
        "--exact",
        "--ignored",
        "--include-ignored",
        "--show-output",
        "-q",
        "--quiet",
        "--list",
        "--report-time",
        "--ensure-time",
        "--shuffle",
        "--bench",
        "--test",
        "-h",
        "--help",
    ];
    // A filter (a test's name or part of it) is plain too.
    words_plain(words, WITH_VALUE, |w| {
        PLAIN.contains(&w) || (!w.starts_with('-') && !w.starts_with('@'))
    })
}

/// Programs that read more arguments from `@FILE` (response files).
pub(super) fn reads_response_files(n: &str) -> bool {
    matches!(
        n,
        "pytest"
            | "py.test"
            | "rustc"
            | "clippy-driver"
            | "rustdoc"
            | "cc"
            | "c++"
            | "cpp"
            | "gcc"
            | "g++"
            | "clang"
            | "clang++"
            | "clang-cl"
            | "gfortran"
            | "nvcc"
            | "emcc"
            | "em++"
            | "zig"
            | "tcc"
            | "swiftc"
            | "ld"
            | "ld.bfd"
            | "ld.gold"
            | "ld.lld"
            | "lld"
            | "mold"
            | "wasm-ld"
            | "as"
            | "ar"
            | "nm"
            | "objdump"
            | "objcopy"
            | "strip"
            | "ranlib"
            | "size"
            | "strings"
            | "readelf"
            | "addr2line"
            | "c++filt"
            | "javac"
            | "java"
            | "javadoc"
            | "jar"
            | "jlink"
            | "kotlinc"
            | "scalac"
            | "dotnet"
            | "msbuild"
            | "csc"
    ) || n.starts_with("gcc-")
        || n.starts_with("g++-")
        || n.starts_with("clang-")
        || n.starts_with("clang++-")
        || n.ends_with("-gcc")
        || n.ends_with("-g++")
        || n.ends_with("-ld")
}

/// The `@FILE` words of `args` (FILE without the `@`).
pub(super) fn response_files<A: AsRef<[u8]>>(args: &[A]) -> Vec<Vec<u8>> {
    args.iter()
        .map(AsRef::as_ref)
        .filter(|a| a.len() > 1 && a[0] == b'@')
        .map(|a| a[1..].to_vec())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn go_flags_known_plain_and_everything_else_not() {
        for (k, v) in [
            ("ldflags", "-s -w"),
            ("ldflags", "-X main.version=1.2.3 -s"),
            ("ldflags", "-X=main.v=1"),
            ("ldflags", ""),
            ("gcflags", "all=-N -l"),
            ("gcflags", "-m=2"),
            ("gcflags", "--N"),
        ] {
            assert!(go_flags_plain(k, v), "{k} {v:?}");
        }
        for (k, v) in [
            ("ldflags", "-o .claude/settings.json"),
            ("ldflags", "-linkmode=external -extld=sh"),
            ("ldflags", "-extar=/tmp/evil"),
            ("ldflags", "-X"),
            ("gcflags", "-linkobj=.claude/settings.json"),
            ("gcflags", "all=-cpuprofile=x"),
            ("gcflags", "-m=x"),
            ("asmflags", "-S"),
            ("gccgoflags", "-O2"),
            ("ldflags", "-s -w -tmpdir=x"),
        ] {
            assert!(!go_flags_plain(k, v), "{k} {v:?}");
        }
    }

    #[test]
    fn cargo_words_after_the_double_dash() {
        assert_eq!(cargo_passthrough_plain(&s(&["clippy"])), None);
        assert_eq!(cargo_passthrough_plain(&s(&["run", "--", "-o", "x"])), None);
        for a in [
            &["clippy", "--", "-D", "warnings"][..],
            &[
                "+nightly",
                "clippy",
                "--all-targets",
                "--",
                "-Dclippy::all",
                "-W",
                "x",
            ],
            &["clippy", "--", "--deny=warnings", "--cap-lints", "warn"],
            &["test", "--", "--nocapture", "my_test", "--test-threads=1"],
            &["test", "--", "--skip", "slow", "--exact", "a::b"],
        ] {
            assert_eq!(cargo_passthrough_plain(&s(a)), Some(true), "{a:?}");
        }
        for a in [
            &["clippy", "--", "--print=cfg=.claude/settings.json"][..],
            &["clippy", "--", "--emit=dep-info=x"],
            &["clippy", "--", "@args.txt"],
            &["rustc", "--", "-C", "linker=sh"],
            &["test", "--", "--logfile", ".claude/settings.json"],
            &["test", "--", "@x"],
            &["bench", "--", "--save-baseline", "x"],
        ] {
            assert_eq!(cargo_passthrough_plain(&s(a)), Some(false), "{a:?}");
        }
    }

    #[test]
    fn response_file_words() {
        assert!(reads_response_files("pytest") && reads_response_files("x86_64-linux-gnu-gcc"));
        assert!(!reads_response_files("npm") && !reads_response_files("git"));
        assert_eq!(
            response_files(&s(&["-q", "@.env", "@", "x@y"])),
            vec![b".env".to_vec()]
        );
    }
}
