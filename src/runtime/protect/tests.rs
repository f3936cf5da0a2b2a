use super::gather::glob_match;
use super::*;
use crate::paths::canonical_memo as canonical;
use crate::paths::normalize;
use crate::pattern::WILD;

fn pat(s: &str) -> Vec<u8> {
    s.bytes()
        .map(|b| if b == b'*' { WILD } else { b })
        .collect()
}

#[test]
fn glob_matches_across_slashes() {
    assert!(glob_match(&pat("/p/*"), b"/p/.claude/settings.json"));
    assert!(glob_match(&pat("*"), b"/anything"));
    assert!(!glob_match(&pat("/p/*.o"), b"/p/.claude/settings.json"));
    assert!(glob_match(&pat("/p/.cl*"), b"/p/.claude"));
}

#[test]
fn normalize_folds_dots() {
    assert_eq!(
        normalize(Path::new("/a/b/../c/./d")),
        PathBuf::from("/a/c/d")
    );
    assert_eq!(normalize(Path::new("/../..")), PathBuf::from("/"));
}

fn prot(root: &Path) -> Protected {
    Protected::gather(&[], None, root)
}

fn check(cmd: &str) -> Option<Verdict> {
    let root = Path::new("/proj");
    prot(root)
        .check(
            &Request::Bash {
                command: cmd.into(),
            },
            None,
            root,
        )
        .map(|f| f.verdict)
}

#[test]
fn writes_to_hook_config_are_denied() {
    use Verdict::*;
    for (cmd, want) in [
        ("echo '{}' > .claude/settings.json", Some(Deny)),
        ("rm -rf .claude/settings.local.json", Some(Deny)),
        ("cd .claude && rm settings.json", Some(Deny)),
        ("cd / && cd proj/.claude && rm settings.json", Some(Deny)),
        ("mv .polc /tmp/x", Some(Deny)),
        ("sudo -u root rm -f .cursor/hooks.json", Some(Deny)),
        ("tee .github/hooks/x.json < /dev/null", Some(Deny)),
        ("sed -i s/a/b/ .gemini/settings.json", Some(Deny)),
        ("dd if=/dev/zero of=.cursor/hooks.json", Some(Deny)),
        ("ln -sf /tmp/evil .codex", Some(Deny)),
        ("rm -rf ../proj", Some(Deny)),
        ("rm -rf $X", Some(Ask)),
        ("rm -rf .cl*", Some(Ask)),
        ("vim .claude/settings.json", Some(Deny)),
        ("python3 tool.py .claude/settings.json", Some(Ask)),
        ("cat .claude/settings.json", None),
        ("rm -f build/*.o", None),
        ("ls -la", None),
        ("/tmp/copy-of-polc trust", Some(Deny)),
        ("./polc.bak trust /proj", Some(Deny)),
        ("git checkout -- .polc/policy.bin", Some(Deny)),
        ("bash -c 'rm .claude/settings.json'", Some(Deny)),
    ] {
        assert_eq!(check(cmd), want, "{cmd}");
    }
}

#[test]
fn edit_tools_cannot_touch_protected_paths() {
    let root = Path::new("/proj");
    let p = prot(root);
    let edit = |path: &str| Request::Tool {
        tool: "edit".into(),
        subject: path.into(),
        input_text: format!("{{\"file_path\":\"{path}\"}}"),
        name: String::new(),
    };
    assert_eq!(
        p.check(&edit("/proj/.claude/settings.json"), None, root)
            .map(|f| f.verdict),
        Some(Verdict::Deny)
    );
    assert_eq!(p.check(&edit("/proj/src/main.rs"), None, root), None);
    let read = Request::Tool {
        tool: "read".into(),
        subject: "/proj/.claude/settings.json".into(),
        input_text: String::new(),
        name: String::new(),
    };
    assert_eq!(p.check(&read, None, root), None);
}

#[test]
fn normalize_and_canonical_agree_with_std() {
    assert_eq!(normalize(Path::new("/a/./b//../c/")), PathBuf::from("/a/c"));
    assert_eq!(normalize(Path::new("/../..")), PathBuf::from("/"));
    assert_eq!(normalize(Path::new("")), PathBuf::from("/"));
    let d = tempfile::tempdir().unwrap();
    let real = d.path().join("real");
    std::fs::create_dir_all(real.join("sub")).unwrap();
    std::os::unix::fs::symlink(&real, d.path().join("link")).unwrap();
    std::os::unix::fs::symlink(d.path().join("nowhere"), d.path().join("dangling")).unwrap();
    let std_real = real.canonicalize().unwrap();
    assert_eq!(canonical(&d.path().join("link/sub")), std_real.join("sub"));
    assert_eq!(
        canonical(&d.path().join("link/sub/missing/x")),
        std_real.join("sub/missing/x")
    );
    assert_eq!(canonical(&d.path().join("link")), std_real);
    // A dangling link leads to where a write through it lands (red team, session 5).
    let dangling = canonical(&d.path().join("dangling"));
    assert!(dangling.ends_with("nowhere"), "{dangling:?}");
}

#[test]
fn tool_inputs_past_the_bound_ask() {
    let root = Path::new("/proj");
    let p = prot(root);
    let mut deep = serde_json::json!("/proj/src/x");
    for _ in 0..20 {
        deep = serde_json::json!({ "a": deep });
    }
    let wide: Vec<String> = (0..5000).map(|i| format!("/proj/src/{i}")).collect();
    for input in [deep, serde_json::json!(wide)] {
        let req = Request::Tool {
            tool: "mcp__x__y".into(),
            subject: String::new(),
            input_text: input.to_string(),
            name: String::new(),
        };
        assert_eq!(
            p.check(&req, None, root).map(|f| f.verdict),
            Some(Verdict::Ask)
        );
    }
    // Within the bound, nothing protected: nothing found.
    let req = Request::Tool {
        tool: "mcp__x__y".into(),
        subject: String::new(),
        input_text: serde_json::json!({ "a": { "b": "/proj/src/x" } }).to_string(),
        name: String::new(),
    };
    assert_eq!(p.check(&req, None, root), None);
}

/// Every path the tripwire watches is guarded: a write to it (or into it) is denied before
/// it lands, not only noticed on the next call (red team session 3, M1: `.gemini/policies`,
/// `.gemini/commands`, `.vscode/tasks.json`, `opencode.jsonc` were watched but writable).
#[test]
fn every_watched_path_is_guarded() {
    let mut bad = Vec::new();
    for w in crate::runtime::tripwire::WATCHED {
        for cmd in [
            format!("cp x {w}"),
            format!("cp x {w}/x"),
            format!("rm -rf {w}"),
        ] {
            // `cp x FILE/x` is only a write into a folder; a file's own write is the first.
            let base = w.rsplit('/').next().unwrap_or(w);
            if cmd.ends_with("/x") && base[1..].contains('.') {
                continue;
            }
            if check(&cmd) != Some(Verdict::Deny) {
                bad.push(format!("{cmd}: {:?}", check(&cmd)));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "watched but not guarded:\n{}",
        bad.join("\n")
    );
}

/// Issue 16: protected paths are compared byte-wise when both sides are clean absolute
/// paths (`gather::Entry::covers`); every spelling that reaches a protected path must still
/// be found — doubled slashes, `.` and `..` pieces, trailing slashes, case, wrappers,
/// variables, globs, relative paths after `cd`.
#[test]
fn every_spelling_of_a_protected_path_is_found() {
    use Verdict::*;
    for (cmd, want) in [
        ("echo x > .//.claude/settings.json", Some(Deny)),
        ("echo x > ./.claude/./settings.json", Some(Deny)),
        (
            "echo x >> .claude/../.claude/settings.local.json",
            Some(Deny),
        ),
        ("echo x > /proj//.polc/policy.bin", Some(Deny)),
        ("cp a /proj/.polc/", Some(Deny)),
        ("cp a /proj/./.polc/new.pol", Some(Deny)),
        ("touch .POLC/x", Some(Deny)),
        // `mv`'s destination may be a folder: names unknown to polc land in it.
        ("mv a .POLC/x", Some(Ask)),
        ("tee -a .CLAUDE/Settings.json < /dev/null", Some(Deny)),
        ("cat x | tee .mcp.json", Some(Deny)),
        ("sed -i s/a/b/ ./.claude/settings.local.json", Some(Deny)),
        ("git mv x .claude/settings.json", Some(Deny)),
        ("env X=1 nice cp a .polc/x", Some(Deny)),
        ("cd .polc && rm -f policy.bin", Some(Deny)),
        ("cd src && rm -f ../.polc/policy.bin", Some(Deny)),
        ("cd /proj/src/.. && touch .claude/settings.json", Some(Deny)),
        ("rm -rf /proj/.polc/..", Some(Deny)),
        ("rm -rf /proj/", Some(Deny)),
        ("cp a .claude/$X", Some(Ask)),
        ("cp a .claude/settings*.json", Some(Ask)),
        ("echo x > .claude/settingsX.json", Some(Deny)),
        ("echo x > .claude/notes.md", None),
        ("echo x > .polcx", None),
        ("echo x > src/.polc", None),
    ] {
        assert_eq!(check(cmd), want, "{cmd}");
    }
}

/// Red team session 7 (C7-toolhardlink): a write onto an existing hard link of a protected
/// file takes the protected file's verdict — deny for hook configuration, ask for
/// `.git/config` and runner configuration — from the shell and from a file tool; a hard
/// link of an ordinary file, or a file with one link, is left alone.
#[test]
fn writes_onto_a_hard_link_take_the_protected_files_verdict() {
    use Verdict::*;
    let d = tempfile::tempdir().unwrap();
    let root = d.path().canonicalize().unwrap();
    let w = |rel: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "x\n").unwrap();
    };
    for f in [
        ".claude/settings.json",
        ".git/config",
        "pytest.ini",
        ".claude/hooks/a/b/c.sh",
        "src/u1",
        "src/one",
    ] {
        w(f);
    }
    for (from, to) in [
        (".claude/settings.json", "src/sl"),
        (".git/config", "src/gc"),
        ("pytest.ini", "src/pi"),
        (".claude/hooks/a/b/c.sh", "src/deep"),
        ("src/u1", "src/u2"),
    ] {
        std::fs::hard_link(root.join(from), root.join(to)).unwrap();
    }
    std::os::unix::fs::symlink("sl", root.join("src/ln")).unwrap();
    let p = prot(&root);
    let bash = |cmd: &str| {
        p.check(
            &Request::Bash {
                command: cmd.into(),
            },
            None,
            &root,
        )
        .map(|f| f.verdict)
    };
    for (cmd, want) in [
        ("sed -i s/a/b/ src/sl", Some(Deny)),
        ("tee src/ln < /dev/null", Some(Deny)),
        ("chmod 777 src/deep", Some(Deny)),
        ("sed -i s/a/b/ src/gc", Some(Ask)),
        ("cp x src/pi", Some(Ask)),
        ("some-unknown-tool src/sl", Some(Ask)),
        ("sed -i s/a/b/ src/u2", None),
        ("sed -i s/a/b/ src/one", None),
        ("cat src/sl", None),
        // Names copied into a folder holding a hard link land on it.
        ("cp -r lib/. src/", Some(Ask)),
        ("cp -r src/. lib/", None),
    ] {
        assert_eq!(bash(cmd), want, "{cmd}");
    }
    let tool = |tool: &str, path: &str| {
        let path = root.join(path).display().to_string();
        p.check(
            &Request::Tool {
                tool: tool.into(),
                subject: path.clone(),
                input_text: serde_json::json!({ "file_path": path, "content": "x" }).to_string(),
                name: String::new(),
            },
            None,
            &root,
        )
        .map(|f| f.verdict)
    };
    for (t, path, want) in [
        ("edit", "src/sl", Some(Deny)),
        ("edit", "src/ln", Some(Deny)),
        ("edit", "src/../src/deep", Some(Deny)),
        ("edit", "src/gc", Some(Ask)),
        ("edit", "src/pi", Some(Ask)),
        ("mcp__fs__write_file", "src/sl", Some(Deny)),
        ("mcp__fs__touch_up", "src/sl", Some(Ask)),
        ("edit", "src/u2", None),
        ("edit", "src/one", None),
        ("edit", "src/new", None),
    ] {
        assert_eq!(tool(t, path), want, "{t} {path}");
    }
}

/// Past the bound of the inode listing, a file with several links that matches none asks
/// (it may be a protected file polc did not reach); a file with one link is not affected.
#[test]
fn a_hard_link_past_the_listing_bound_asks() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().canonicalize().unwrap();
    // Deeper than the listing goes.
    let mut deep = root.join(".claude/hooks");
    for k in 0..12 {
        deep.push(format!("d{k}"));
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("h.sh"), "x").unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::hard_link(deep.join("h.sh"), root.join("src/h")).unwrap();
    std::fs::write(root.join("src/one"), "x").unwrap();
    let p = prot(&root);
    let sed = |f: &str| {
        p.check(
            &Request::Bash {
                command: format!("sed -i s/a/b/ {f}"),
            },
            None,
            &root,
        )
        .map(|f| f.verdict)
    };
    assert_eq!(sed("src/h"), Some(Verdict::Ask));
    assert_eq!(sed("src/one"), None);
}

/// Red team session 7 (C7-otherroots): another root polc knows keeps its hook
/// configuration, sources and tables (deny); outside the root, hook configuration by name
/// asks; past the lists' bound every write outside the root asks; reads and ordinary
/// files are left alone.
#[test]
fn other_roots_and_names_elsewhere() {
    use Verdict::*;
    let root = Path::new("/proj");
    let known = |bounded: bool| {
        let p = prot(root);
        let o = super::others::Others {
            roots: vec![(PathBuf::from("/b"), "/b".into())],
            tables: vec![(PathBuf::from("/t/B.bin"), "/t/b.bin".into())],
            bounded,
        };
        assert!(p.others.set(o).is_ok());
        p
    };
    let p = known(false);
    let bash = |p: &Protected, cmd: &str| {
        p.check(
            &Request::Bash {
                command: cmd.into(),
            },
            None,
            root,
        )
        .map(|f| f.verdict)
    };
    for (cmd, want) in [
        ("cp x /b/.claude/settings.json", Some(Deny)),
        ("cp x /B/.Claude/settings.local.json", Some(Deny)),
        ("cp x /b/policies/new.pol", Some(Deny)),
        ("cp x /b/policies/notes.md", Some(Deny)),
        ("cp x /b/compiled/policy.bin", Some(Deny)),
        ("cp x /b/.claude/hooks/h.sh", Some(Deny)),
        ("cp x /t/B.bin", Some(Deny)),
        ("rm -rf /b/compiled", Some(Deny)),
        ("rm -rf /b", Some(Deny)),
        ("rm -rf /t", Some(Deny)),
        ("cd /b && rm -f .mcp.json", Some(Deny)),
        ("rm -rf /*/compiled", Some(Ask)),
        ("cp -r x /b/.claude/", Some(Ask)),
        ("mystery /b/.claude", Some(Ask)),
        ("cp x /b/src/main.rs", None),
        ("cat /b/.claude/settings.json", None),
        ("cp x /elsewhere/.claude/settings.json", Some(Ask)),
        ("cp x /elsewhere/policies/a.pol", Some(Ask)),
        ("cp x /elsewhere/policies/a.md", None),
        ("rm -rf /elsewhere/.claude", Some(Ask)),
        ("cp x /elsewhere/src/x", None),
        ("cp x src/.claude/settings.json", None),
        ("git -C /b checkout .", Some(Ask)),
        ("cd /b/src && git stash", Some(Ask)),
        ("git -C /elsewhere checkout .", None),
        ("git checkout .", None),
    ] {
        assert_eq!(bash(&p, cmd), want, "{cmd}");
    }
    let p = known(true);
    for (cmd, want) in [
        ("cp x /elsewhere/src/x", Some(Ask)),
        ("cp x /proj/src/x", None),
        ("ls 2>/dev/null", None),
        ("ls > /dev/stderr", None),
        ("cat /elsewhere/src/x", None),
    ] {
        assert_eq!(bash(&p, cmd), want, "bounded: {cmd}");
    }
}

/// The other roots' lists are read only for a write that could meet them: not for a read,
/// a command that names no path, or a write inside the project root whose path has no
/// component a protected path begins with.
#[test]
fn other_roots_are_read_only_for_writes_that_could_meet_them() {
    let root = Path::new("/proj");
    let run = |cmd: &str| {
        let p = prot(root);
        let _ = p.check(
            &Request::Bash {
                command: cmd.into(),
            },
            None,
            root,
        );
        p.others.get().is_some()
    };
    for quiet in [
        "git status",
        "cat /elsewhere/.claude/settings.json",
        "cp a src/main.rs",
        "sed -i s/a/b/ src/lib.rs",
        "ls 2>/dev/null",
        "rm -f src/x.o",
        "touch src/x",
    ] {
        assert!(!run(quiet), "{quiet} read the lists");
    }
    for busy in [
        "cp a /elsewhere/x",
        "cp a src/.claude/x",
        "cp a policies/x.pol",
        "rm -rf /",
        "rm -rf compiled",
    ] {
        assert!(run(busy), "{busy} did not read the lists");
    }
}

/// A known root inside the project (a sub-project polc has seen): its configuration is
/// denied, and so is deleting the folder that holds it, though the folder's name is plain.
#[test]
fn a_known_root_inside_the_project() {
    use Verdict::*;
    let d = tempfile::tempdir().unwrap();
    let root = d.path().canonicalize().unwrap();
    let b = root.join("sub/b");
    std::fs::create_dir_all(b.join(".claude")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    let p = prot(&root);
    let f = b.to_string_lossy().to_lowercase();
    assert!(p
        .others
        .set(super::others::Others {
            roots: vec![(b.clone(), f)],
            tables: Vec::new(),
            bounded: false,
        })
        .is_ok());
    let bash = |cmd: &str| {
        p.check(
            &Request::Bash {
                command: cmd.into(),
            },
            None,
            &root,
        )
        .map(|f| f.verdict)
    };
    for (cmd, want) in [
        ("cp x sub/b/.claude/settings.json", Some(Deny)),
        ("rm -rf sub", Some(Deny)),
        ("rm -rf sub/b", Some(Deny)),
        ("rm -rf src", None),
        ("cp x sub/b/src.rs", None),
    ] {
        assert_eq!(bash(cmd), want, "{cmd}");
    }
}

/// A `.git` file naming the repository's folder elsewhere (`--separate-git-dir`): a hard
/// link of that folder's `config` asks like `.git/config`'s, and its objects are not walked
/// (a file with several links elsewhere is not made to ask by the bound).
#[test]
fn a_hard_link_of_a_separate_git_dirs_config_asks() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().canonicalize().unwrap().join("p");
    let gd = d.path().canonicalize().unwrap().join("gd");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::create_dir_all(gd.join("objects")).unwrap();
    for k in 0..(9000 / 64 + 1) {
        let o = gd.join(format!("objects/{k:02x}"));
        std::fs::create_dir_all(&o).unwrap();
        for j in 0..64 {
            std::fs::write(o.join(format!("{j}")), "").unwrap();
        }
    }
    std::fs::write(gd.join("config"), "[core]\n").unwrap();
    std::fs::write(root.join(".git"), format!("gitdir: {}\n", gd.display())).unwrap();
    std::fs::hard_link(gd.join("config"), root.join("src/gc")).unwrap();
    std::fs::write(root.join("src/u1"), "x").unwrap();
    std::fs::hard_link(root.join("src/u1"), root.join("src/u2")).unwrap();
    let p = prot(&root);
    let sed = |f: &str| {
        p.check(
            &Request::Bash {
                command: format!("sed -i s/a/b/ {f}"),
            },
            None,
            &root,
        )
        .map(|f| f.verdict)
    };
    assert_eq!(sed("src/gc"), Some(Verdict::Ask));
    assert_eq!(sed("src/u2"), None);
}
