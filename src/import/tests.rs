//! Unit tests of the importers on in-memory native files.

use super::*;
use std::path::PathBuf;

fn ctx() -> Ctx {
    Ctx {
        home: PathBuf::from("/home/u"),
        project: PathBuf::from("/work/p"),
        system: PathBuf::from("/"),
        xdg_config: None,
        codex_home: None,
    }
}

fn native(name: &str, scope: Scope, level: &'static str, text: &str) -> Native {
    Native {
        path: PathBuf::from(name),
        scope,
        src: SourceText::new(name, text),
        level,
    }
}

fn texts(imp: &Import) -> Vec<String> {
    imp.rules.iter().map(rule_text).collect()
}

#[test]
fn dsl_strings_escape_what_the_grammar_needs() {
    assert_eq!(dsl_string("a\"b\\c\nd\u{7}"), "\"a\\\"b\\\\c\\nd\\u{7}\"");
}

#[test]
fn scope_of_named_files() {
    let c = ctx();
    assert_eq!(
        c.scope_of(Path::new("/home/u/.claude/settings.json")),
        Scope::User
    );
    assert_eq!(
        c.scope_of(Path::new(".claude/settings.json")),
        Scope::Project
    );
    assert_eq!(
        c.scope_of(Path::new("/etc/codex/rules/a.rules")),
        Scope::User
    );
    assert_eq!(c.scope_of(Path::new("/srv/other.json")), Scope::Project);
    assert_eq!(c.shown(Path::new("/home/u/.codex/x")), "~/.codex/x");
    assert_eq!(c.shown(Path::new("/work/p/.codex/x")), ".codex/x");
}

#[test]
fn opencode_overlap_is_conservative() {
    use opencode::overlap;
    assert!(overlap("*", "git status"));
    assert!(overlap("git *", "git status*"));
    assert!(overlap("git status *", "git status"));
    assert!(!overlap("git push", "npm *"));
    assert!(!overlap("git push", "git status"));
    assert!(!overlap("*.env", "*.key"));
    assert!(overlap("rm *", "rm -rf *"));
}

#[test]
fn opencode_exception_chains_drop_the_allow_they_override() {
    // `git status -v`: OpenCode's last match is `git *` (deny). That deny has a later
    // exception, so it is left to OpenCode; the earlier allow must go with it, else polc
    // would allow what OpenCode denies.
    let n = native(
        "opencode.json",
        Scope::Project,
        "project config",
        r#"{"permission": {"bash": {"git status*": "allow", "git *": "deny", "git status --x": "allow"}}}"#,
    );
    let mut imp = Import::new(Host::OpenCode);
    opencode::import(&n, &mut imp);
    assert_eq!(
        texts(&imp),
        vec!["allow bash exact \"git status --x\"".to_string()]
    );
    assert!(imp.needs_native);
    assert_eq!(imp.diags.warnings().count(), 2);
}

#[test]
fn opencode_v2_list_and_a_global_action() {
    let n = native(
        "opencode.jsonc",
        Scope::Project,
        "project config",
        r#"{ "permissions": [
             { "action": "read", "resource": "*", "effect": "allow" },
             { "action": "read", "resource": "secrets/*", "effect": "deny" }, // trailing
           ] }"#,
    );
    let mut imp = Import::new(Host::OpenCode);
    opencode::import(&n, &mut imp);
    assert_eq!(
        texts(&imp),
        vec![
            "allow read any".to_string(),
            "deny read glob \"./secrets\"".to_string()
        ]
    );
}

#[test]
fn codex_alternatives_tokens_and_bad_files() {
    let n = native(
        "a.rules",
        Scope::User,
        "user rules",
        "prefix_rule(pattern = [\"git\", [\"push\", \"fetch\"], \"a b\"], decision = \"forbidden\")\n\
         prefix_rule(pattern = [\"echo\", \"it's\"])  # an allow with a token polc cannot hold\n",
    );
    let mut imp = Import::new(Host::Codex);
    codex::import(&n, &mut imp);
    assert!(!imp.has_errors(), "{}", imp.diags.render_all());
    // The deny is kept up to the token polc cannot hold; the allow is dropped.
    assert_eq!(
        texts(&imp),
        vec!["deny bash prefix \"git push\" prefix \"git fetch\"".to_string()]
    );
    for (bad, what) in [
        ("prefix_rule(pattern = [])", "pattern cannot be empty"),
        (
            "prefix_rule(pattern = [\"x\"], decision = \"maybe\")",
            "decision must be",
        ),
        (
            "prefix_rule(pattern = [\"x\"], match = [\"y\"])",
            "does not match the pattern",
        ),
        (
            "prefix_rule(pattern = [\"x\"], colour = 1)",
            "no argument `colour`",
        ),
        ("load(\"x\")", "expected a name"),
        ("prefix_rule(\"x\")", "expected a name"),
        ("prefix_rule(pattern = [\"x\"]", "expected `,` or `)`"),
    ] {
        let n = native("b.rules", Scope::User, "user rules", bad);
        let mut imp = Import::new(Host::Codex);
        codex::import(&n, &mut imp);
        assert!(imp.has_errors(), "{bad}");
        assert!(
            imp.diags.render_all().contains(what),
            "{bad}: {}",
            imp.diags.render_all()
        );
    }
}

#[test]
fn gemini_allow_outranking_a_deny_is_reported() {
    let n = native(
        "p.toml",
        Scope::User,
        "user policy",
        "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\ndecision = \"deny\"\npriority = 10\n\n\
         [[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git status\"\ndecision = \"allow\"\npriority = 20\n",
    );
    let mut imp = Import::new(Host::Gemini);
    gemini::import(&n, &mut imp);
    gemini::after(&[], &mut imp);
    assert_eq!(
        texts(&imp),
        vec![
            "deny bash prefix \"git\" {\n  priority 4010\n}".to_string(),
            "allow bash prefix \"git status\" {\n  priority 4020\n}".to_string()
        ]
    );
    assert!(imp.rules[1].notes[0].contains("outranks the deny at p.toml:1"));
    // A schema error: Gemini loads none of the file's rules, and neither does polc.
    let bad = native(
        "q.toml",
        Scope::User,
        "user policy",
        "[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\n",
    );
    let mut imp = Import::new(Host::Gemini);
    gemini::import(&bad, &mut imp);
    assert!(imp.has_errors());
}

#[test]
fn claude_anchor_rewrites() {
    let c = ctx();
    let n = native(
        "/work/p/.claude/settings.json",
        Scope::Project,
        "project settings",
        r#"{"permissions": {"deny": ["Read(/a/**)", "Read(//etc/x)", "Read(~/y)", "Read(z)"]}}"#,
    );
    let mut imp = Import::new(Host::Claude);
    claude::import(&c, &n, &mut imp);
    assert_eq!(
        texts(&imp),
        vec![
            "deny read glob \"./a/**\"",
            "deny read glob \"//etc/x\"",
            "deny read glob \"~/y\"",
            "deny read glob \"z\""
        ]
    );
}

#[test]
fn every_render_builds() {
    let n = native(
        "s.json",
        Scope::Project,
        "project settings",
        r#"{"permissions": {"allow": ["Bash(echo \"hi\\there\")", "mcp__x__*", "Task"], "deny": ["Agent(Explore)", "Task(model:opus)"]}}"#,
    );
    let mut imp = Import::new(Host::Claude);
    claude::import(&ctx(), &n, &mut imp);
    let text = render(&imp, Scope::Project);
    crate::lower::load_str("x.pol", &text, crate::ir::Tier::Project)
        .unwrap_or_else(|d| panic!("{}\n{text}", d.render_all()));
}

#[test]
fn a_named_file_under_home_is_still_a_project_file() {
    let home = tempfile::tempdir().unwrap();
    let f = home.path().join("evil/settings.json");
    std::fs::create_dir_all(f.parent().unwrap()).unwrap();
    std::fs::write(&f, r#"{"permissions": {"allow": ["Bash"]}}"#).unwrap();
    let c = Ctx {
        home: home.path().to_path_buf(),
        ..ctx()
    };
    let imp = import(Host::Claude, &c, &[f], &[]);
    assert_eq!(imp.rules.len(), 1);
    assert_eq!(imp.rules[0].scope, Scope::Project, "never the user layer");
    assert!(render(&imp, Scope::User)
        .lines()
        .all(|l| l.starts_with('#') || l.is_empty()));
}

/// The importer's tools are polc's: each family round-trips through the DSL's tool words, and
/// a tool the DSL has no word for stays a named tool.
#[test]
fn tools_are_the_dsl_words() {
    for name in [
        crate::tools::BASH,
        crate::tools::READ,
        crate::tools::EDIT,
        crate::tools::WEBFETCH,
        crate::tools::WEBSEARCH,
        "mcp__s__t",
    ] {
        let t = Tool::from_canonical(name);
        assert!(!matches!(t, Tool::Named(_)), "{name}");
        assert_eq!(crate::tools::dsl_word(&t.dsl()).as_deref(), Some(name));
    }
    assert_eq!(Tool::from_canonical("Task"), Tool::Named("Task".into()));
    // A Claude settings rule names its tools through the one map (`tools::claude`).
    for name in crate::tools::claude::TOOLS {
        let t = Tool::from_canonical(&crate::tools::claude::canonical(name));
        assert!(!matches!(t, Tool::Named(_)), "{name}");
    }
}
