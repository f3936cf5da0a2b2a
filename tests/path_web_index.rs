//! Denies that the path and web indexes (issue 16, table format 4) must still find, in a
//! table where hundreds of other path and domain rules share the index: every spelling of
//! a denied path or host that the matcher already catches (case, `.`/`..`, characters that
//! case folding or NFC map onto ASCII, percent-encoding, trailing dots, full-width dots,
//! IDN, ports, userinfo) is still denied through the index.

use polc::ir::{Decision, Tier};
use polc::runtime::table_rules::TableRules;
use polc::runtime::{decide_in, Context, Request};
use std::path::PathBuf;

fn ctx() -> Context {
    Context {
        cwd: Some(PathBuf::from("/nonexistent/proj")),
        project_root: Some(PathBuf::from("/nonexistent/proj")),
        home: Some(PathBuf::from("/nonexistent/home")),
    }
}

/// The rules under test after 300 filler rules of each kind (allow globs under literal
/// folders, allow domains), so the index has many groups around the denies.
fn table(denies: &str) -> polc::table::Table {
    let mut text = String::new();
    for i in 0..300 {
        text.push_str(&format!("allow read glob \"src/mod{i}/**\"\n"));
        text.push_str(&format!("allow read glob \"~/proj{i}/*.txt\"\n"));
        text.push_str(&format!("allow webfetch glob \"domain:site{i}.example\"\n"));
        text.push_str(&format!("allow webfetch glob \"*.cdn{i}.example\"\n"));
    }
    text.push_str("allow read glob \"//nonexistent/**\"\n");
    text.push_str("allow webfetch glob \"*.com\"\n");
    text.push_str(denies);
    let (p, _) = polc::lower::load_str("p.pol", &text, Tier::Project).expect("lowers");
    let c = polc::compile::compile(&p).expect("compiles");
    let sections: Vec<(u32, &[u8])> = c.sections.iter().map(|(k, v)| (*k, v.as_slice())).collect();
    polc::table::Table::from_bytes(polc::table::encode(&[], &c.counts, &sections)).expect("loads")
}

fn read(path: &str) -> Request {
    Request::Tool {
        tool: "read".into(),
        subject: path.into(),
        input_text: serde_json::json!({ "file_path": path }).to_string(),
        name: "Read".into(),
    }
}

fn fetch(url: &str) -> Request {
    Request::Tool {
        tool: "webfetch".into(),
        subject: url.into(),
        input_text: serde_json::json!({ "url": url }).to_string(),
        name: "WebFetch".into(),
    }
}

fn decision(t: &polc::table::Table, req: &Request) -> Decision {
    let rules = TableRules::new(|k| t.section(k)).unwrap();
    decide_in(&rules, "claude", req, &ctx()).unwrap().decision
}

#[test]
fn ssh_deny_still_hits_through_the_index() {
    let t = table("deny read glob \"~/.ssh/**\"\n");
    for p in [
        "~/.ssh/id_rsa",
        "~/.SSH/ID_RSA",
        "~/.ssh",
        "/nonexistent/home/.ssh/config",
        "/nonexistent/home/./.ssh/x",
        "/nonexistent/home/a/../.ssh/k",
        "/nonexistent/home//.ssh//k",
        "/nonexistent/home/.\u{17F}sh/id_rsa",
        "/nonexistent/home/.ssh/\u{212A}ey",
        "/NONEXISTENT/home/.ssh/id_rsa",
    ] {
        let want = if p.starts_with("/NONEXISTENT") {
            // Not under the home (the home is matched case-sensitively): the allow of
            // `//nonexistent/**` does not cover it either.
            Decision::Default
        } else {
            Decision::Deny
        };
        assert_eq!(decision(&t, &read(p)), want, "{p:?}");
    }
    assert_eq!(decision(&t, &read("~/proj7/a.txt")), Decision::Allow);
    assert_eq!(decision(&t, &read("src/mod299/x/y.rs")), Decision::Allow);
}

#[test]
fn env_denies_at_any_depth_still_hit() {
    for rule in ["deny read glob \"**/.env\"\n", "deny read glob \".env\"\n"] {
        let t = table(rule);
        for p in [
            ".env",
            "/nonexistent/proj/.env",
            "/nonexistent/proj/src/mod3/.env",
            "src/mod3/.ENV",
            "/nonexistent/proj/a/b/c/.Env/x",
            "/nonexistent/proj/src/../.env",
        ] {
            assert_eq!(decision(&t, &read(p)), Decision::Deny, "{rule} {p:?}");
        }
        // `**/.env` is under the project root; a bare `.env` is anywhere.
        let outside = if rule.contains("**") {
            Decision::Allow
        } else {
            Decision::Deny
        };
        assert_eq!(
            decision(&t, &read("/nonexistent/x/.env")),
            outside,
            "{rule}"
        );
        assert_eq!(
            decision(&t, &read("src/mod3/.envrc")),
            Decision::Allow,
            "{rule}"
        );
    }
}

#[test]
fn deep_literal_folder_denies_still_hit() {
    let t = table("deny read glob \"src/mod7/secret/**\"\nask read glob \"src/MOD8/*.pem\"\n");
    for p in [
        "src/mod7/secret/k",
        "SRC/Mod7/SECRET/k",
        "/nonexistent/proj/src/mod7/secret",
        "/nonexistent/proj/src/mod7/x/../secret/k",
        "src/mod7/\u{17F}ecret/k",
    ] {
        assert_eq!(decision(&t, &read(p)), Decision::Deny, "{p:?}");
    }
    assert_eq!(decision(&t, &read("src/mod8/a.PEM")), Decision::Ask);
    assert_eq!(decision(&t, &read("src/mod7/other")), Decision::Allow);
}

#[test]
fn subdomain_deny_still_hits_through_the_index() {
    let t = table("deny webfetch glob \"*.evil.com\"\n");
    for u in [
        "https://a.evil.com",
        "https://A.EVIL.COM./",
        "https://a.evil%2Ecom/",
        "https://a.evil.com:8443/x",
        "https://x.y.evil.com",
        "https://a.evil\u{3002}com/",
        "https://a.\u{FF45}\u{FF56}\u{FF49}\u{FF4C}.com/",
        "https://good.com@a.evil.com/",
        "https://a.evil.com\\@good.com/",
        "a.evil.com/x",
        "https:/a.evil.com",
        "https://a.evil.com../x",
    ] {
        assert_eq!(decision(&t, &fetch(u)), Decision::Deny, "{u:?}");
    }
    // `*.com` allows, the apex is not under `*.evil.com`.
    assert_eq!(decision(&t, &fetch("https://evil.com/")), Decision::Allow);
    assert_eq!(
        decision(&t, &fetch("https://site5.example/")),
        Decision::Allow
    );
    // No host polc can read: every deny possibly applies.
    assert_eq!(decision(&t, &fetch("https://[::1/")), Decision::Ask);
}

#[test]
fn host_denies_in_every_form_still_hit() {
    let t = table(
        "deny webfetch glob \"domain:evil.com\"\n\
         deny webfetch glob \"domain:b\u{FC}cher.example\"\n\
         deny webfetch glob \"domain:127.0.0.1\"\n\
         deny webfetch glob \"domain:EVIL.org.\"\n",
    );
    for u in [
        "https://evil.com",
        "https://EVIL.com.:443/",
        "https://%65vil.com/",
        "evil.com:8080/x",
        "https://b\u{FC}cher.example/",
        "https://B\u{DC}CHER.example/",
        "https://xn--bcher-kva.example/",
        "http://0x7f.1/",
        "http://2130706433/",
        "https://evil.org/",
        "https://Evil.Org../",
    ] {
        assert_eq!(decision(&t, &fetch(u)), Decision::Deny, "{u:?}");
    }
}
