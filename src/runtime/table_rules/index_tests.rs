//! The indexes (multi-word keys, key hashes, content index, tool index) must not change
//! a decision: compare the indexed table with the reference interpreter.
use super::*;
use crate::ir::Tier;
use crate::runtime::interp::Reference;
use crate::runtime::{decide, Request};

const POLICY: &str = r#"
allow bash prefix "git status"
allow bash prefix "git"
deny bash prefix "git push --force"
ask bash glob "git push * --force*"
ask bash glob "git push *"
deny bash exact "rm -rf /"
deny bash glob "rm -rf *"
allow bash glob "cargo b*"
allow bash glob "*.sh --help"
ask bash prefix "kubectl delete pod"
allow bash prefix "kubectl get"
deny bash prefix "curl"
deny bash contains "AKIA"
ask bash contains "password="
deny bash contains "-----BEGIN"
deny bash regex 'tok_[0-9a-f]{8,}'
ask bash regex '(?i)drop\s+table'
deny bash regex '[a-z]+://[^ ]+:[^ @]+@'
allow bash contains "ok"
deny read glob "/srv/*.key"
deny read exact "/etc/passwd"
ask read prefix "/home/u/"
deny read glob "*.pem"
ask read glob "/a/b*/c"
allow edit glob "docs/**"
deny mcp__fs__read glob "/secret/*"
allow read glob "/srv/public/*"
ask edit glob "src/*.rs"
allow webfetch glob "https://docs.rs/*"
deny mcp__github__delete_repo
allow mcp__github__get_*
ask mcp__slack
deny mcp__a_
deny mcp__*
"#;

const COMMANDS: &[&str] = &[
    "git status",
    "git status --short",
    "git",
    "gitk",
    "git push --force origin",
    "git push origin main --force-with-lease",
    "git push origin",
    "rm -rf /",
    "rm -rf /tmp",
    "cargo build --release",
    "cargo bench",
    "./x.sh --help",
    "kubectl delete pod web-1",
    "kubectl get pods",
    "curl https://x",
    "echo AKIA1234",
    "echo password=hunter2",
    "echo tok_deadbeef01",
    "echo tok_dead",
    "psql -c 'DROP  TABLE users'",
    "psql postgres://u:pw@host/db",
    "echo ok",
    "git $X",
    "$CMD status",
    "git status $(ls)",
    "g\"it\" status",
    "GIT push --force",
    "echo '-----BEGIN KEY'",
    "ls; git push --force",
    "bash -c 'git push --force'",
    "kubectl $VERB pod web",
    "git st$X",
    "",
];

const TOOLS: &[(&str, &str)] = &[
    ("read", "/srv/a.key"),
    ("read", "/srv/public/a.key"),
    ("read", "/etc/passwd"),
    ("edit", "src/main.rs"),
    ("webfetch", "https://docs.rs/x"),
    ("webfetch", "https://evil"),
    ("mcp__github__delete_repo", ""),
    ("mcp__github__get_issue", ""),
    ("mcp__slack__post", ""),
    ("mcp__a___b", ""),
    ("mcp__other__x", ""),
    ("read", "AKIA in path"),
];

#[test]
fn indexes_decide_like_the_reference() {
    let (policy, _) = crate::lower::load_str("t.pol", POLICY, Tier::Project).expect("lowers");
    let compiled = crate::compile::compile(&policy).expect("compiles");
    let indexed = TableRules::new(|k| compiled.section(k)).unwrap();
    let reference = Reference::new(&policy);
    let mut reqs: Vec<Request> = COMMANDS
        .iter()
        .map(|c| Request::Bash {
            command: c.to_string(),
        })
        .collect();
    for (tool, subject) in TOOLS {
        reqs.push(Request::Tool {
            tool: tool.to_string(),
            subject: subject.to_string(),
            input_text: subject.to_string(),
            name: String::new(),
        });
    }
    for req in &reqs {
        for host in ["claude", "codex"] {
            let a = decide(&indexed, host, req).unwrap();
            let c = decide(&reference, host, req).unwrap();
            assert_eq!(
                (a.decision, a.winner),
                (c.decision, c.winner),
                "indexed vs reference: {req:?}"
            );
            let mut ha: Vec<u32> = a.hits.iter().map(|h| h.rule).collect();
            let mut hc: Vec<u32> = c.hits.iter().map(|h| h.rule).collect();
            ha.sort_unstable();
            hc.sort_unstable();
            assert_eq!(ha, hc, "hits: {req:?}");
        }
    }
}

#[test]
fn regex_guards_are_required_prefixes() {
    use crate::content::regex_guards;
    assert_eq!(regex_guards("tok_[0-9]+"), Some(vec![b"tok_".to_vec()]));
    assert_eq!(regex_guards("[a-z]+://"), None);
    let g = regex_guards("postgres(ql)?://").unwrap();
    assert!(g.iter().all(|l| l.starts_with(b"postgres")));
}
