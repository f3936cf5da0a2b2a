//! Unit tests of the segmenter, the readings and every Appendix A entry.

use super::lists::{self, WRAPPERS};
use super::*;
use crate::pattern::WILD;

fn deny_readings(cmd: &str) -> Vec<String> {
    let p = parse(cmd);
    let mut out = Vec::new();
    for s in &p.segments {
        for r in analyse_segment(s).deny {
            out.push(String::from_utf8_lossy(&r).replace('\u{FFFD}', "?"));
        }
    }
    out
}

fn unattestable(cmd: &str) -> bool {
    let p = parse(cmd);
    !p.unattestable.is_empty()
        || p.segments
            .iter()
            .any(|s| !analyse_segment(s).unattestable.is_empty())
}

fn allow_reading(cmd: &str) -> String {
    let p = parse(cmd);
    String::from_utf8_lossy(&analyse_segment(&p.segments[0]).allow).into_owned()
}

#[test]
fn segments_split_on_every_operator() {
    for (cmd, n) in [
        ("a && b", 2),
        ("a || b", 2),
        ("a; b", 2),
        ("a | b", 2),
        ("a |& b", 2),
        ("a & b", 2),
        ("a\nb", 2),
        ("(a; b)", 2),
        ("a 'x;y' \"p|q\" r\\;s", 1),
        ("a # b; c", 1),
    ] {
        let p = parse(cmd);
        let with_words = p.segments.iter().filter(|s| !s.words.is_empty()).count();
        assert_eq!(with_words, n, "{cmd:?}");
    }
}

#[test]
fn substitutions_are_descended() {
    let p = parse("echo $(rm -rf /) `id` <(ls) \"$(pwd)\"");
    let progs: Vec<String> = p
        .segments
        .iter()
        .filter_map(|s| s.words.first().map(|w| w.lit_value()))
        .collect();
    for prog in ["echo", "rm", "id", "ls", "pwd"] {
        assert!(progs.iter().any(|p| p == prog), "{prog} in {progs:?}");
    }
}

#[test]
fn redirections_are_set_aside() {
    let p = parse("2>&1 >/dev/null git status <&0 1>&-");
    assert_eq!(p.segments[0].words.len(), 2);
    assert!(!unattestable("2>&1 >/dev/null git status <&0 1>&-"));
    for cmd in [
        "ls >out",
        "ls >>out",
        "ls &>out",
        "ls &>>out",
        "ls >|out",
        "ls <>f",
        "ls >&out",
        "ls <in",
        "cat <<E\nx\nE",
        "cat <<<x",
        "cat <<-E\nx\nE",
    ] {
        assert!(unattestable(cmd), "{cmd:?}");
    }
}

#[test]
fn readings_see_through_quotes_wrappers_paths() {
    let r = deny_readings("sudo -u root /usr/bin/RM -rf /");
    assert!(r.iter().any(|x| x == "rm -rf /"), "{r:?}");
    let r = deny_readings("FOO=1 'r''m' -rf /");
    assert!(r.iter().any(|x| x == "rm -rf /"), "{r:?}");
    let r = deny_readings("git push {--force,-n}");
    assert!(r.iter().any(|x| x == "git push --force -n"), "{r:?}");
    let r = deny_readings("git push $X");
    assert!(r.iter().any(|x| x == "git push ?"), "{r:?}");
}

#[test]
fn every_wrapper_is_peeled() {
    let cases: &[(&str, &str)] = &[
        ("sudo", "sudo -u root -E --preserve-env=PATH -- rm x"),
        ("doas", "doas -u root rm x"),
        ("env", "env -i -u HOME FOO=1 --chdir=/ rm x"),
        ("command", "command -p rm x"),
        ("builtin", "builtin rm x"),
        ("exec", "exec -a name -c rm x"),
        ("nice", "nice -n 5 rm x"),
        ("nohup", "nohup rm x"),
        ("time", "time -p rm x"),
        ("timeout", "timeout -s KILL 5 rm x"),
        ("stdbuf", "stdbuf -oL -e 0 rm x"),
        ("ionice", "ionice -c3 -n 7 rm x"),
        ("chrt", "chrt -f 10 rm x"),
        ("taskset", "taskset -c 0x1 rm x"),
        ("setsid", "setsid -f rm x"),
        ("unbuffer", "unbuffer -p rm x"),
        ("busybox", "busybox rm x"),
        ("xargs", "xargs -0 -n 1 rm x"),
    ];
    assert_eq!(cases.len(), WRAPPERS.len(), "a case per wrapper");
    for (name, cmd) in cases {
        assert!(lists::wrapper(name).is_some());
        let r = deny_readings(cmd);
        assert!(r.iter().any(|x| x.starts_with("rm x")), "{cmd:?}: {r:?}");
    }
    // Not wrappers with these options.
    assert!(!deny_readings("command -v rm")
        .iter()
        .any(|x| x.starts_with("rm")));
    assert!(!deny_readings("taskset -p 1234")
        .iter()
        .any(|x| x.starts_with("1234")));
    // Unknown options cannot be attested.
    assert!(unattestable("sudo --bogus rm x"));
    assert!(unattestable("timeout --bogus 5 rm x"));
    // nice -5
    assert!(deny_readings("nice -5 rm x").iter().any(|x| x == "rm x"));
}

#[test]
fn allow_reading_strips_only_claude_code_strips() {
    assert_eq!(allow_reading("timeout 5 git status"), "git status");
    assert_eq!(allow_reading("nice -n 5 nohup git status"), "git status");
    assert_eq!(allow_reading("time git status"), "git status");
    assert_eq!(allow_reading("stdbuf -oL git status"), "git status");
    assert_eq!(
        allow_reading("NODE_ENV=x LC_ALL=C git status"),
        "git status"
    );
    assert_eq!(allow_reading("PATH=/x git status"), "PATH=/x git status");
    assert_eq!(
        allow_reading("NODE_ENV=$X git status"),
        "NODE_ENV=$X git status"
    );
    assert_eq!(allow_reading("sudo git status"), "sudo git status");
    assert_eq!(allow_reading("'git' \"status\""), "git status");
}

#[test]
fn safe_env_list_excludes_loaders() {
    for bad in [
        "PATH",
        "LD_PRELOAD",
        "DYLD_INSERT_LIBRARIES",
        "BASH_ENV",
        "ENV",
        "IFS",
        "PS4",
        "PROMPT_COMMAND",
        "PYTHONPATH",
        "PYTHONSTARTUP",
        "NODE_OPTIONS",
        "PERL5OPT",
        "RUBYOPT",
        "GIT_SSH_COMMAND",
        "SHELLOPTS",
    ] {
        assert!(!lists::is_safe_env(bad), "{bad}");
    }
    for good in lists::SAFE_ENV.iter() {
        assert!(lists::is_safe_env(good));
    }
    assert!(lists::is_safe_env("LC_ALL"));
    assert_eq!(lists::assignment_name("A_1=x"), Some("A_1"));
    assert_eq!(lists::assignment_name("A+=x"), Some("A"));
    assert_eq!(lists::assignment_name("1A=x"), None);
    assert_eq!(lists::assignment_name("--a=b"), None);
}

#[test]
fn shells_runners_and_builtins_are_unattestable() {
    for sh in lists::SHELLS.iter() {
        assert!(unattestable(&format!("{sh} -c 'ls'")), "{sh}");
        assert!(unattestable(&format!("{sh} script")), "{sh}");
    }
    for cmd in [
        "bash -lc ls",
        "bash -ec ls",
        "bash -xc ls",
        "fish --command ls",
        "busybox sh -c ls",
        "find . -execdir ls \\;",
        "find . -ok ls \\;",
        "find . -okdir ls \\;",
        "parallel ls ::: a",
        "watch ls",
        "flock f ls",
        "su -c ls",
        "runuser -u x -- ls",
        "script -c ls",
        "ssh h ls",
        ". x",
        "source x",
        "trap ls EXIT",
        "alias a=b",
        "bind -x ls",
        "complete -C ls x",
        "enable -f x y",
        "python -c 1",
        "node -e 1",
        "perl -e 1",
        "ruby -e 1",
        "awk '{system(\"ls\")}'",
        "sed -n 's/a/b/ep' f",
        "rg --pre=ls x",
        "tar -I sh -xf x",
        "tar --use-compress-program=sh -xf x",
        "git --exec-path=/tmp x",
        "vim +q f",
        "zip -TT x a f",
        "less '!ls'",
        "let a=1",
        "printf -v a b",
        "test -v a",
        "[ -v a ]",
        "declare -i a",
        "typeset a[1]=2",
        "local -i a",
        "readonly a[0]=1",
        "export -i a",
        "read -a x",
        "mapfile a",
        "readarray a",
        "eval ls",
    ] {
        assert!(unattestable(cmd), "{cmd:?}");
    }
}

/// Red team, session 6: the shell evaluates assignments to its integer variables as
/// arithmetic (a name in the value may hold `a[$(CMD)]`); a plain number is left alone.
#[test]
fn assignments_to_integer_variables() {
    for cmd in [
        "RANDOM=x",
        "SRANDOM=x",
        "OPTIND=x",
        "HISTCMD=x",
        "OPTIND+=x",
        "SECONDS=y",
        "export RANDOM=x",
        "declare OPTIND=x",
        "local SHLVL=x",
        "read OPTIND",
        "getopts ab OPTIND",
        "integer i",
        "float f",
        "RANDOM=1+1",
    ] {
        assert!(unattestable(cmd), "{cmd:?}");
    }
    for cmd in [
        "RANDOM=5",
        "OPTIND=1",
        "export OPTIND=-1",
        "random=x",
        "X_OPTIND=x",
    ] {
        assert!(!unattestable(cmd), "{cmd:?}");
    }
}

#[test]
fn suspicious_characters() {
    for c in [
        '\r',
        '\x07',
        '\u{80}',
        '\u{9f}',
        '\u{a0}',
        '\u{200b}',
        '\u{200e}',
        '\u{202e}',
        '\u{2066}',
        '\u{feff}',
        '\u{e0041}',
    ] {
        assert!(is_suspicious_char(c), "{:?}", c);
    }
    for c in ['a', ' ', '\t', '\n', 'é', '日'] {
        assert!(!is_suspicious_char(c), "{:?}", c);
    }
}

#[test]
fn dequote_for_content_scanners() {
    assert_eq!(dequote("a'b'\"c\"\\d"), "abcd");
    assert_eq!(dequote("prod-db.inter\"\"nal"), "prod-db.internal");
    assert_eq!(dequote("'a\\b'"), "a\\b");
}

#[test]
fn brace_expansion_is_bounded() {
    let w = &parse("x {a,b}{c,d}").segments[0].words[1];
    let mut budget = MAX_BRACE_WORDS;
    assert_eq!(w.deny_values(&mut budget).unwrap().len(), 4);
    let big = format!("x {}", "{a,b}".repeat(9));
    let w = &parse(&big).segments[0].words[1];
    let mut budget = MAX_BRACE_WORDS;
    assert!(w.deny_values(&mut budget).is_none());
    // Quoted braces do not expand.
    let w = &parse("x '{a,b}'").segments[0].words[1];
    let mut budget = MAX_BRACE_WORDS;
    assert_eq!(w.deny_values(&mut budget).unwrap(), vec![b"{a,b}".to_vec()]);
}

#[test]
fn glob_characters_are_unknown() {
    let w = &parse("x --forc?").segments[0].words[1];
    let mut budget = MAX_BRACE_WORDS;
    assert_eq!(
        w.deny_values(&mut budget).unwrap(),
        vec![b"--forc\xff".to_vec()]
    );
    assert_eq!(WILD, 0xFF);
    assert!(w.literal().is_none());
    assert!(
        parse("[ -f x ]").segments[0].words[0].literal().is_some(),
        "a lone [ is the test command"
    );
}

#[test]
fn syntax_errors_are_unattestable() {
    for cmd in [
        "ls )",
        "&& ls",
        "ls &&",
        "ls |",
        "( ls",
        "{ ls",
        "ls ;;",
        "; ls",
        "( ls ) x",
        "echo (",
        "ls || || x",
    ] {
        assert!(unattestable(cmd), "{cmd:?}");
    }
    for cmd in [
        "ls",
        "(ls)",
        "{ ls; }",
        "ls &&\nls",
        "ls &",
        "( ls ) >/dev/null",
        "a | b",
    ] {
        assert!(!unattestable(cmd), "{cmd:?}");
    }
}

#[test]
fn ansi_c_quoting_is_decoded_for_readings() {
    let r = deny_readings("$'\\x72m' -rf /");
    assert!(r.iter().any(|x| x == "rm -rf /"), "{r:?}");
    let r = deny_readings("$'\\162m' -rf /");
    assert!(r.iter().any(|x| x == "rm -rf /"), "{r:?}");
    assert!(unattestable("$'\\x72m' -rf /"));
}

#[test]
fn hostile_input_never_panics() {
    for cmd in [
        "\\",
        "'",
        "\"",
        "$",
        "${",
        "$(",
        "`",
        "$((",
        "<(",
        ">&",
        "2>",
        "<<",
        "{",
        "}",
        "((",
        "))",
        "$'\\",
        "$'\\x",
        "$'\\u",
        "$'\\c",
        "a\\\n",
        "\u{0}",
        "\u{10FFFF}",
        "${a[$(ls)]}",
        "é$'é'\"é\"",
    ] {
        let _ = deny_readings(cmd);
        let _ = unattestable(cmd);
    }
}

#[test]
fn sequence_braces_expand_as_bash_does() {
    let vals = |cmd: &str| {
        let w = &parse(cmd).segments[0].words[1];
        let mut budget = MAX_BRACE_WORDS;
        w.deny_values(&mut budget).map(|v| {
            v.into_iter()
                .map(|x| String::from_utf8_lossy(&x).into_owned())
                .collect::<Vec<_>>()
        })
    };
    let v = |xs: &[&str]| Some(xs.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(vals("cat .en{v..v}"), v(&[".env"]));
    assert_eq!(vals("cat .en{u..w}"), v(&[".enu", ".env", ".enw"]));
    assert_eq!(vals("x {1..3}"), v(&["1", "2", "3"]));
    assert_eq!(vals("x {3..1}"), v(&["3", "2", "1"]));
    assert_eq!(vals("x {01..3}"), v(&["01", "02", "03"]));
    assert_eq!(vals("x {1..7..3}"), v(&["1", "4", "7"]));
    assert_eq!(vals("x {-1..1}"), v(&["-1", "0", "1"]));
    assert_eq!(
        vals("x {Z..a}"),
        v(&["Z", "[", "\\", "]", "^", "_", "`", "a"])
    );
    assert_eq!(vals("x a{b,{1..2}}"), v(&["ab", "a1", "a2"]));
    assert_eq!(vals("x {{a..b}}"), v(&["{a}", "{b}"]));
    // Not sequences: literal text, as in bash.
    assert_eq!(vals("x {a..1}"), v(&["{a..1}"]));
    assert_eq!(vals("x {ab..c}"), v(&["{ab..c}"]));
    assert_eq!(vals("x '{a..c}'"), v(&["{a..c}"]));
    assert_eq!(vals("x {1..3..a}"), v(&["{1..3..a}"]));
    // Past the bound, or not countable: no values (the caller makes it unattestable).
    assert_eq!(vals("x {1..1000000}{1..1000}"), None);
    assert_eq!(vals("x {1..200}{1..200}"), None);
    assert_eq!(vals("x {1..99999999999999999999}"), None);
    assert_eq!(vals("x {1..2..99999999999999999999}"), None);
    assert_eq!(
        vals("x {-9223372036854775807..9223372036854775807..9223372036854775807}"),
        v(&["-9223372036854775807", "0", "9223372036854775807"])
    );
}

#[test]
fn subshells_and_groups_count_toward_the_nesting_bound() {
    let nested =
        |n: usize, open: &str, close: &str| format!("{}ls{}", open.repeat(n), close.repeat(n));
    let deep = |p: &Parsed| p.unattestable.contains(&"nesting deeper than 32");
    assert!(!deep(&parse(&nested(32, "( ", " )"))));
    assert!(deep(&parse(&nested(33, "( ", " )"))));
    assert!(!deep(&parse(&nested(32, "{ ", "; }"))));
    assert!(deep(&parse(&nested(33, "{ ", "; }"))));
    // Mixed, and inside a substitution: the levels add up.
    assert!(deep(&parse(&format!("echo $({})", nested(32, "( ", " )")))));
    assert!(deep(&parse(&nested(17, "( { ", "; } )"))));
    // Siblings are not nesting.
    assert!(!deep(&parse(&"( ls ); ".repeat(40))));
}

/// Plain words cost none of the brace budget (bug fixed: a segment of more than 256 words
/// read "brace expansion over 256 words", and every word after the 256th as unknown).
#[test]
fn long_segments_are_not_brace_expansions() {
    let words: Vec<String> = (0..600).map(|i| format!("a{i}")).collect();
    assert!(!unattestable(&format!("echo {}", words.join(" "))));
    assert!(!unattestable(&format!(
        "echo {} {{x,y}}{{1,2}}",
        words.join(" ")
    )));
    // A deny reading still sees a word far past the 256th.
    let cmd = format!("echo {} ; rm -rf /", words.join(" "));
    assert!(deny_readings(&cmd).iter().any(|r| r == "rm -rf /"));
    // The expansions themselves stay bounded.
    assert!(unattestable("echo {1..300}"));
    assert!(unattestable(&format!(
        "echo {} {{1..200}} {{1..200}}",
        words.join(" ")
    )));
}

/// `lists::Names` answers exactly as the list's own `contains`: every name it holds, and
/// names near them (a byte more, less or changed, another case).
#[test]
fn names_filter_answers_as_the_list() {
    static WORDS: lists::Names = lists::Names::new(&["ls", "rm", "", "git", "a-b.c", "ßh", "x"]);
    for list in [
        &WORDS,
        &lists::SHELLS,
        &lists::MORE_SHELLS,
        &lists::SAFE_ENV,
    ] {
        for &n in list.iter() {
            assert!(list.contains(&n), "{n}");
            let near = [
                format!("{n}x"),
                n.chars().skip(1).collect::<String>(),
                n.to_uppercase(),
                n.replace('s', "z"),
                format!("x{n}"),
            ];
            for m in &near {
                assert_eq!(
                    list.contains(&m.as_str()),
                    list.iter().any(|x| x == m),
                    "{m}"
                );
            }
        }
    }
}

/// Issue 12 item 6: a segment equal to one read before reuses its readings and effects; a
/// speculative or deny-only copy of the same text is read on its own.
#[test]
fn equal_segments_share_their_analysis() {
    let w = crate::shell::walk("cat .env; cat .env; HTTPS_PROXY=http://p curl https://x.io; HTTPS_PROXY=http://p curl https://x.io");
    let s = &w.segments;
    assert_eq!(s.len(), 4);
    assert_eq!(s[0].effects, s[1].effects);
    assert_eq!(s[0].rd.deny, s[1].rd.deny);
    assert_eq!(s[0].rd.allow, s[1].rd.allow);
    // The proxy is added once to each, not twice to the copy.
    assert_eq!(s[2].effects, s[3].effects);
    let fresh = crate::shell::walk("HTTPS_PROXY=http://p curl https://x.io");
    assert_eq!(fresh.segments[0].effects, s[3].effects);
    // `mystery rm -rf x; rm -rf x`: the unknown program's speculative `rm -rf x` and the
    // real one differ in their flags, not their text.
    let w = crate::shell::walk("mystery rm -rf x; rm -rf x");
    let real: Vec<_> = w
        .segments
        .iter()
        .filter(|x| x.seg.text == "rm -rf x")
        .map(|x| x.seg.speculative)
        .collect();
    assert!(real.contains(&true) && real.contains(&false), "{real:?}");
}

#[test]
fn dequote_bytewise_matches_the_char_definition() {
    // The definition dequote had (by characters), against the byte-wise one.
    fn reference(command: &str) -> String {
        let mut out = String::new();
        let mut chars = command.chars().peekable();
        let (mut in_single, mut in_double) = (false, false);
        while let Some(c) = chars.next() {
            match c {
                '\'' if !in_double => in_single = !in_single,
                '"' if !in_single => in_double = !in_double,
                '\\' if !in_single => {
                    if let Some(n) = chars.next() {
                        if n != '\n' {
                            out.push(n);
                        }
                    }
                }
                _ => out.push(c),
            }
        }
        out
    }
    let pieces = [
        "", "'", "\"", "\\", "\n", "a", "é", "日", "\\é", "\\\n", "x y", "$'",
    ];
    for a in pieces {
        for b in pieces {
            for c in pieces {
                for d in pieces {
                    let s = format!("{a}{b}{c}{d}");
                    assert_eq!(crate::shell::dequote(&s), reference(&s), "{s:?}");
                }
            }
        }
    }
}
