//! Red team session 8 (black box, 2026-12-02 03:40 UTC): one test per class the lead fixed,
//! with `Allow` rows pinning the plain forms; the workplace's `findings-session8.jsonl` ids
//! name the classes (C8-…).

use super::*;

/// C8-globalopts: a program's options before its subcommand (`aws --profile prod s3 rb`,
/// `cargo +nightly publish`) no longer hide the subcommand from deny/ask prefix rules.
#[test]
fn s8_global_options_before_a_subcommand() {
    let mut rows: Vec<(Setup, &str, Want)> = Vec::new();
    for c in [
        "aws --profile prod s3 rb s3://b --force",
        "aws --region=eu-west-1 s3 rb s3://b",
        "aws --no-cli-pager ec2 terminate-instances --instance-ids i-1",
        "aws --output json cloudformation delete-stack --stack-name x",
        "aws --debug dynamodb delete-table --table-name t",
        "pulumi --cwd infra destroy --yes",
        "pulumi -C infra destroy",
        "pulumi -s prod down",
        "heroku --app x apps:destroy",
        "aws --profile prod --region us-east-1 s3 rb s3://b",
    ] {
        rows.push((ShippedBroad, c, Deny));
        rows.push((Shipped, c, Deny));
    }
    for c in [
        "npm --prefix x publish",
        "npm -w x publish",
        "npm --registry https://r.example publish",
        "cargo +nightly publish",
        "cargo --locked publish",
        "gh -R o/r release create v1",
        "npm --prefix x install evil",
    ] {
        rows.push((ShippedBroad, c, AskOrDeny));
    }
    // Plain forms stay as they were.
    for c in [
        "aws --profile prod s3 ls",
        "cargo +nightly build",
        "npm --prefix x test",
    ] {
        rows.push((ShippedBroad, c, Allow));
    }
    expect(&rows);
}

/// C8-subalias: a subcommand's other spellings the program accepts (npm's aliases, typos and
/// unique prefixes, gh's `new`, heroku's `destroy`, `terraform apply -destroy`) meet the
/// rule that names the subcommand.
#[test]
fn s8_subcommand_aliases_meet_the_rule() {
    let mut rows: Vec<(Setup, &str, Want)> = Vec::new();
    for c in [
        "npm pub",
        "npm publ --access public",
        "npm publis",
        "npm i evil",
        "npm add evil",
        "npm in evil",
        "npm ins evil",
        "npm isntall evil",
        "npm it evil",
        "npm install-test evil",
        "gh release new v1",
        "npm --prefix x pub",
    ] {
        rows.push((ShippedBroad, c, AskOrDeny));
    }
    for c in [
        "heroku destroy -a x",
        "heroku destroy --app x --confirm x",
        "terraform apply -destroy",
        "terraform apply -destroy -input=false",
        "tofu apply -destroy",
    ] {
        rows.push((ShippedBroad, c, Deny));
    }
    for c in [
        "npm test",
        "npm run build",
        "npm ls",
        "terraform plan",
        "gh pr list",
    ] {
        rows.push((ShippedBroad, c, Allow));
    }
    expect(&rows);
}

/// C8-gitwrap: `hub`, `lab` and `yadm` hand their command line to git: git's rules and
/// effects apply.
#[test]
fn s8_git_wrappers_are_git() {
    let mut rows: Vec<(Setup, &str, Want)> = Vec::new();
    for c in [
        "hub push --force origin main",
        "hub push -f",
        "hub -C . push --force",
        "hub filter-branch --tree-filter x HEAD",
        "yadm push --force",
        "yadm push -f origin main",
        "lab push --force",
    ] {
        rows.push((ShippedBroad, c, Deny));
        rows.push((Shipped, c, Deny));
    }
    for c in [
        "hub reset --hard",
        "hub clean -fdx",
        "yadm reset --hard",
        "hub checkout -- .",
    ] {
        rows.push((ShippedBroad, c, AskOrDeny));
    }
    rows.push((ShippedBroad, "hub status", Allow));
    expect(&rows);
}

/// C8-proglink: a program reached through a symbolic link already on disk is read as the
/// program the link leads to as well (relative, absolute, after `cd`, through wrappers).
#[test]
fn s8_programs_through_links_on_disk() {
    let mut rows: Vec<(Setup, &str, &str, Want)> = Vec::new();
    for setup in [ShippedBroad, Shipped] {
        for (cwd, c) in [
            ("", "src/g push --force"),
            ("", "src/g push -f origin main"),
            ("", "./src/g push --force origin +main"),
            ("", "{ROOT}/src/g push --force"),
            ("", "cd src && ./g push --force"),
            ("src", "./g push --force"),
            ("", "sudo src/g push --force"),
            ("", "src/aws2 s3 rb s3://b --force"),
            ("", "src/e rm -rf /"),
            ("", "src/chain push --force"),
        ] {
            rows.push((setup, cwd, c, Deny));
        }
    }
    for c in ["src/g reset --hard", "src/g clean -fdx"] {
        rows.push((ShippedBroad, "", c, AskOrDeny));
    }
    // Links that keep the name, and plain programs, are unchanged.
    rows.push((ShippedBroad, "", "src/git status", Allow));
    rows.push((ShippedBroad, "", "src/g status", Allow));
    let mut projects: Vec<(Setup, Project)> = Vec::new();
    for setup in [ShippedBroad, Shipped] {
        let p = project(setup);
        for name in ["git", "aws", "env"] {
            p.write(&format!("bin/{name}"), "#!/bin/sh\n");
        }
        let link = |to: &str, at: &str| std::os::unix::fs::symlink(to, p.path(at)).unwrap();
        link("../bin/git", "src/g");
        link("../bin/git", "src/git");
        link("../bin/aws", "src/aws2");
        link(&p.path("bin/env").to_string_lossy(), "src/e");
        link("g", "src/chain");
        projects.push((setup, p));
    }
    let mut bad = Vec::new();
    for (k, (setup, cwd, cmd, want)) in rows.iter().enumerate() {
        let p = &projects.iter().find(|(s, _)| s == setup).unwrap().1;
        let cmd = expand(p, cmd);
        let (got, text) = hook_at(p, cwd, &cmd, &format!("link{k}"));
        let ok = match want {
            Deny => got.as_deref() == Some("deny"),
            AskOrDeny => matches!(got.as_deref(), Some("deny") | Some("ask")),
            Allow => got.as_deref() == Some("allow"),
        };
        if !ok {
            bad.push(format!(
                "{setup:?}: want {want:?}, got {got:?} <- {cmd}\n    {text}"
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
