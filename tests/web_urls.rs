//! Issue 8, class 6 through the real binary: URLs that a WHATWG parser (or the fetching
//! program) reads as a denied host, given to WebFetch and to `curl`/`wget` alike, never pass
//! a `domain:` deny; an allow needs every reading of the URL to agree.

mod common;
use common::Project;
use serde_json::json;

const POLICY: &str = r#"
allow bash prefix "curl" { id curl }
allow bash prefix "wget" { id wget }
deny webfetch glob "domain:evil.com" { id evil }
deny webfetch glob "domain:127.0.0.1" { id loopback }
allow webfetch glob "domain:docs.rs" { id docs }
"#;

fn setup() -> Project {
    let p = Project::new();
    p.write("policies/main.pol", POLICY);
    p.build_trusted();
    p
}

/// The Claude PreToolUse decision for one tool call (None = no output: default).
fn decide(p: &Project, tool: &str, input: serde_json::Value) -> Option<String> {
    let home = p.dir.path().canonicalize().unwrap().join("home");
    common::claude_decision(p, tool, input, "", &[("HOME", home.as_os_str())]).0
}

/// Single-quote a word for the shell.
fn sq(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[test]
fn issue_examples_are_denied_for_webfetch_and_curl() {
    let p = setup();
    for url in [
        "https:/evil.com",
        "https:\\\\evil.com",
        "https:/\\evil.com",
        "https://evil.com",
        "https:evil.com/x",
        "https://ev\til.com/",
        "https://good.com\\@evil.com/",
        "https://evil%2ecom/",
        "https://evil\u{FF0E}com./",
        "evil.com/x",
        "evil.com:8080",
        "http://0x7f.1/",
        "http://2130706433:80/",
    ] {
        assert_eq!(
            decide(&p, "WebFetch", json!({"url": url, "prompt": "x"})).as_deref(),
            Some("deny"),
            "WebFetch {url:?}"
        );
        for prog in ["curl -s", "wget -q"] {
            let cmd = format!("{prog} {}", sq(url));
            assert_eq!(
                decide(&p, "Bash", json!({"command": cmd})).as_deref(),
                Some("deny"),
                "{cmd:?}"
            );
        }
    }
}

#[test]
fn allows_need_every_reading_to_agree() {
    let p = setup();
    for url in ["https://docs.rs/serde", "https://DOCS.RS./x", "docs.rs/x"] {
        assert_eq!(
            decide(&p, "WebFetch", json!({"url": url})).as_deref(),
            Some("allow"),
            "{url:?}"
        );
    }
    // One reading says docs.rs, another says evil.com or something else: never allowed.
    for url in [
        "https://docs.rs\\@evil.com/",
        "https://evil.com\\@docs.rs/",
        "https:/docs.rs",
        "docs.rs:443",
    ] {
        assert_ne!(
            decide(&p, "WebFetch", json!({"url": url})).as_deref(),
            Some("allow"),
            "{url:?}"
        );
    }
    // Another field never stands in for the URL.
    assert_eq!(
        decide(
            &p,
            "WebFetch",
            json!({"file_path": "https://docs.rs/", "url": "https://evil.com/"})
        )
        .as_deref(),
        Some("deny")
    );
    assert_eq!(
        decide(
            &p,
            "WebFetch",
            json!({"path": "https://docs.rs/", "url": 7})
        )
        .as_deref(),
        Some("ask")
    );
    // No host polc can read: a deny could apply, so at least ask.
    for url in ["https://", "https://ev il.com/", "javascript:x", ""] {
        assert_eq!(
            decide(&p, "WebFetch", json!({"url": url})).as_deref(),
            Some("ask"),
            "{url:?}"
        );
    }
}
