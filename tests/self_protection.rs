//! Issue "an agent cannot loosen its own policy": self-protection through the binary, read
//! from the one walk and catalogue. Under a broad allow (trusted project table and user
//! layer), every write to a protected path or folder asks or denies; polc's own commands are
//! denied through every runner; only a user-layer rule that names the path lifts it.

mod common;
use common::Project;
use serde_json::json;

const BROAD: &str = "allow bash glob \"*\" { id all }\nallow edit glob \"**\" { id edit-all }\n";

fn project(policy: &str) -> Project {
    let p = Project::new();
    p.write("policies/main.pol", policy);
    p.write("src/main.rs", "fn main() {}");
    p.build_trusted();
    p
}

/// A user layer (the config folder's `policy.bin`) compiled from `text`.
fn user_layer(p: &Project, text: &str) {
    let src = p.config.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("user.pol"), text).unwrap();
    let out = p.config.path().join("policy.bin");
    let st = std::process::Command::new(common::polc_bin())
        .args(["build", src.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .env("POLC_CACHE_DIR", p.cache.path())
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
}

fn hook_env(
    p: &Project,
    tool: &str,
    input: serde_json::Value,
    path: Option<&str>,
) -> (Option<String>, String) {
    match path {
        Some(path) => common::claude_decision(p, tool, input, "", &[("PATH", path.as_ref())]),
        None => common::claude_decision(p, tool, input, "", &[]),
    }
}

fn bash(p: &Project, cmd: &str) -> (Option<String>, String) {
    hook_env(p, "Bash", json!({ "command": cmd }), None)
}

fn expect(p: &Project, table: &[(&str, &str)]) {
    let mut bad = Vec::new();
    for (cmd, want) in table {
        let (got, text) = bash(p, cmd);
        let ok = match *want {
            "deny" => got.as_deref() == Some("deny"),
            "ask+" => matches!(got.as_deref(), Some("deny") | Some("ask")),
            "allow" => got.as_deref() == Some("allow"),
            _ => unreachable!(),
        };
        if !ok {
            bad.push(format!("want {want}, got {got:?} <- {cmd}\n    {text}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn writes_of_every_destination_form() {
    let p = project(BROAD);
    p.write(".claude/settings.json", "{}");
    p.write(".claude/hooks/h.sh", "");
    std::fs::create_dir_all(p.path(".polc")).unwrap();
    expect(
        &p,
        &[
            ("cp -r /tmp/x/.polc .", "ask+"),
            ("tar -xf /tmp/a.tar", "ask+"),
            ("unzip -o /tmp/a.zip", "ask+"),
            ("bsdtar -xf /tmp/a.tar", "ask+"),
            ("rsync -a /tmp/x/ .", "ask+"),
            ("cp /tmp/e/settings.json .claude/", "deny"),
            ("cp -t .claude /tmp/e/settings.json", "deny"),
            ("cp --target-directory=.claude /tmp/e/settings.json", "deny"),
            ("install -t .claude /tmp/e/settings.local.json", "deny"),
            ("ln -sf /tmp/e/settings.json .claude/", "deny"),
            ("cp -r src/. .claude", "ask+"),
            ("cd .claude && cp /tmp/e/settings.json .", "deny"),
            ("cd .claude; cp /tmp/e/settings.json settings.json", "deny"),
            ("find . -name settings.json -delete", "deny"),
            ("cp -al .claude bk", "deny"),
            ("ln .claude/settings.json bk", "deny"),
            ("ln -s .claude x && cp /tmp/e x/settings.json", "ask+"),
            ("touch .polc/policy.bin", "deny"),
            ("echo x > .polc/new", "deny"),
            ("mkdir .claude/commands", "deny"),
            ("cp /tmp/c .claude/commands/x.md", "deny"),
            ("cp /tmp/h .claude/hooks/pre.sh", "deny"),
            ("chmod -R 777 .claude", "deny"),
            ("chown -R x .", "deny"),
            ("mv .claude /tmp/c", "deny"),
            ("rm -rf .claude", "deny"),
            ("setfacl -m u:x:rw .claude/settings.json", "deny"),
            ("chattr -i .claude/settings.json", "deny"),
            ("mount --bind /tmp/x .claude", "deny"),
            ("touch .", "deny"),
            ("echo x > .git/hooks/pre-commit", "ask+"),
            ("cp /tmp/x .git/config", "ask+"),
            // They point git at another configuration (whose fsmonitor or hooks run).
            ("sort -o .git/commondir x", "ask+"),
            ("cp /tmp/x .git/config.worktree", "ask+"),
            ("cp /tmp/x.json permcheck.json", "deny"),
            ("curl -o .mcp.json https://x.io/m", "deny"),
            ("cd .claude && curl -O https://x.io/settings.json", "deny"),
        ],
    );
    // A hard link made earlier: writing through it writes the protected file.
    std::fs::hard_link(p.path(".claude/settings.json"), p.path("bk.json")).unwrap();
    expect(
        &p,
        &[
            ("echo '{}' > bk.json", "deny"),
            ("cp /tmp/x bk.json", "deny"),
        ],
    );
}

#[test]
fn work_tree_rewrites_ask_only_where_agent_configuration_is() {
    let p = project(BROAD);
    let rewrites = [
        "git switch old",
        "git checkout main",
        "git checkout -f",
        "git pull",
        "git merge x",
        "git rebase main",
        "git cherry-pick abc",
        "git revert abc",
        "git bisect start",
        "git reset --hard",
        "git reset --keep x",
        "git stash",
        "git stash pop",
        "git apply p.diff",
        "git am p.mbox",
        "git restore x",
        "git read-tree -u HEAD",
        "git checkout-index -a",
        "git worktree add ../w",
        "git submodule update",
        "git sparse-checkout set x",
        "git some-new-subcommand",
        "patch -p1 < /tmp/p.diff",
        "tar -xf /tmp/a.tar",
    ];
    // No agent configuration in the tree: no prompt from self-protection.
    for c in [
        "git switch old",
        "git pull",
        "git stash pop",
        "git rebase main",
        "git switch -c x",
    ] {
        assert_eq!(bash(&p, c).0.as_deref(), Some("allow"), "{c}");
    }
    p.write(".claude/settings.json", "{}");
    // A person set it up (else the tripwire denies every call: tests/tripwire.rs).
    p.confirm_config();
    let table: Vec<(&str, &str)> = rewrites.iter().map(|c| (*c, "ask+")).collect();
    expect(&p, &table);
    let (_, text) = bash(&p, "git switch old");
    assert!(text.contains("user scope"), "{text}");
    // Commands that leave the tree alone still pass.
    expect(
        &p,
        &[
            ("git status", "allow"),
            ("git log", "allow"),
            ("git commit -m x", "allow"),
        ],
    );
}

#[test]
fn polc_binary_and_installs() {
    let p = project(BROAD);
    let exe = common::polc_bin();
    let exe_s = exe.to_string_lossy().into_owned();
    expect(
        &p,
        &[
            (&format!("cp /tmp/x {exe_s}"), "deny"),
            (&format!("cp {exe_s} /tmp/p2"), "deny"),
            (&format!("mv {exe_s} /tmp/old"), "deny"),
            ("cargo install polc", "ask+"),
            ("cargo install --path .", "ask+"),
            ("pipx install x", "ask+"),
            ("uv tool install x", "ask+"),
            ("pip install --user x", "ask+"),
            ("npm install -g x", "ask+"),
            ("npm i -g x", "ask+"),
            ("go install example.com/x@latest", "ask+"),
            ("make install", "ask+"),
        ],
    );
    // A `polc` in a PATH folder ahead of the hook's binary.
    let ahead = tempfile::tempdir().unwrap();
    let path = format!(
        "{}:{}:/usr/bin:/bin",
        ahead.path().display(),
        exe.parent().unwrap().display()
    );
    let target = ahead.path().join("polc");
    let (got, text) = hook_env(
        &p,
        "Bash",
        json!({ "command": format!("cp /tmp/x {}", target.display()) }),
        Some(&path),
    );
    assert_eq!(got.as_deref(), Some("deny"), "{text}");
}

#[test]
fn a_broad_user_allow_does_not_lift_it_but_a_naming_rule_does() {
    let p = project(BROAD);
    p.write(".claude/settings.json", "{}");
    user_layer(
        &p,
        "allow bash glob \"*\" { id user-all }\nallow edit glob \"**\" { id user-edit-all }\n",
    );
    let cfg = p.config.path().display().to_string();
    expect(
        &p,
        &[
            (&format!("cp /tmp/x {cfg}/policy.bin"), "deny"),
            ("sed -i s/a/b/ .claude/settings.json", "deny"),
        ],
    );
    let edit = |p: &Project| {
        let root = p.dir.path().canonicalize().unwrap();
        hook_env(
            p,
            "Edit",
            json!({"file_path": root.join(".claude/settings.json"), "old_string": "a", "new_string": "b"}),
            None,
        )
        .0
    };
    assert_eq!(edit(&p).as_deref(), Some("deny"));
    // A user rule naming the path (exact bash, or an edit glob whose literal part is the
    // folder) lifts it; a prefix rule does not.
    user_layer(
        &p,
        "allow bash exact \"sed -i s/a/b/ .claude/settings.json\" { id u1 }\nallow bash prefix \"touch .claude\" { id u2 }\nallow edit glob \"./.claude/**\" { id u3 }\n",
    );
    expect(
        &p,
        &[
            ("sed -i s/a/b/ .claude/settings.json", "allow"),
            ("touch .claude/settings.json", "deny"),
        ],
    );
    assert_eq!(edit(&p).as_deref(), Some("allow"));
}

#[test]
fn polc_commands_through_every_runner() {
    let p = project(BROAD);
    expect(
        &p,
        &[
            ("polc trust", "deny"),
            ("polc trust --forget /x", "deny"),
            ("polc init --host claude", "deny"),
            ("polc init --uninstall", "deny"),
            ("polc build", "deny"),
            ("polc hook --host claude", "deny"),
            ("polc decide x", "deny"),
            ("polc session reset", "deny"),
            ("polc fmt", "deny"),
            ("/usr/local/bin/polc trust .", "deny"),
            ("./target/release/polc trust", "deny"),
            ("tmux new -d 'polc trust .'", "deny"),
            ("tmux new-session -d -s x polc trust", "deny"),
            ("tmux send-keys -t x 'polc trust' Enter", "deny"),
            ("tmux send-keys y Enter", "ask+"),
            ("screen -dmS s polc trust", "deny"),
            ("expect -c 'spawn polc trust; send y\\r'", "deny"),
            ("socat - EXEC:'polc trust',pty", "deny"),
            ("script -qc 'polc trust' /dev/null", "deny"),
            ("python3 -c 'import os; os.system(\"polc trust\")'", "deny"),
            ("bash -c 'polc trust'", "deny"),
            ("env polc trust", "deny"),
            ("nohup polc init &", "deny"),
        ],
    );
    for c in [
        "polc explain 'rm -rf /'",
        "polc lint",
        "polc fmt --check",
        "polc --version",
    ] {
        assert_eq!(bash(&p, c).0.as_deref(), Some("allow"), "{c}");
    }
}

#[test]
fn no_false_positives_without_agent_configuration() {
    // The shipped default policy, permcheck.json at the root of the project.
    let p = Project::new();
    for f in ["default.pol", "permcheck.json"] {
        let text = std::fs::read_to_string(common::root().join("policies").join(f)).unwrap();
        p.write(&format!("policies/{f}"), &text);
    }
    p.write(
        "permcheck.json",
        &std::fs::read_to_string(common::root().join("policies/permcheck.json")).unwrap(),
    );
    p.write("src/main.rs", "");
    p.build_trusted();
    for c in [
        "git status",
        "git log",
        "cargo test",
        "git switch -c x",
        "git pull",
        "git stash pop",
        "git rebase main",
        "rm -rf target",
        "mkdir -p out && cp src/main.rs out/",
        "touch src/new.rs",
    ] {
        let (got, text) = bash(&p, c);
        assert!(
            !text.contains("polc-self-protection"),
            "{c}: {got:?} {text}"
        );
        assert!(
            got.as_deref() != Some("ask") && got.as_deref() != Some("deny"),
            "{c}: {text}"
        );
    }
}

/// Variants found by attacking the binary (red team, this session): each was an allow.
#[test]
fn red_team_variants_are_closed() {
    let p = project(BROAD);
    p.write(".claude/settings.json", "{}");
    p.write(".claude/hooks/h.sh", "");
    let exe = common::polc_bin();
    let exe_s = exe.to_string_lossy().into_owned();
    let dir = exe.parent().unwrap().to_string_lossy().into_owned();
    let table: Vec<(String, &str)> = vec![
        ("rm -rf ./.*".into(), "ask+"),
        ("rm -rf ./.c*".into(), "ask+"),
        ("rm -rf ./*".into(), "ask+"),
        ("rm -rf ./.claude/*".into(), "ask+"),
        ("cp x ./.c*/settings.json".into(), "ask+"),
        ("tee ./.m*".into(), "ask+"),
        ("sed -i s/a/b/ ./.claude/*".into(), "ask+"),
        ("chmod -R 000 ./*".into(), "ask+"),
        ("cd .claude && rm ./*".into(), "ask+"),
        ("rm -rf src/../.c*".into(), "ask+"),
        ("chmod -x .claude/hooks/h.sh".into(), "deny"),
        (format!("chmod -x {exe_s}"), "deny"),
        (
            "cp s.gz .claude/settings.json.gz && gunzip .claude/settings.json.gz".into(),
            "ask+",
        ),
        (format!("cp -r {dir} /tmp/kit"), "deny"),
        (format!("cat {exe_s} | tee /tmp/p"), "deny"),
        (format!("cp {dir}/pol? /tmp/p"), "deny"),
        (format!("curl -o /tmp/p file://{exe_s}"), "deny"),
        ("strace polc trust".into(), "deny"),
        ("npx polc trust".into(), "deny"),
        ("fakeroot polc init".into(), "deny"),
        ("cp x .CLAUDE/settings.json".into(), "deny"),
        ("cp x .claude/agents/a.md".into(), "deny"),
        ("cp x .claude/skills/s/SKILL.md".into(), "deny"),
        (
            "git log -1 --format=%B --output=.claude/settings.json".into(),
            "deny",
        ),
        ("tree -o .mcp.json".into(), "deny"),
        ("uniq x .claude/settings.json".into(), "deny"),
        ("cc x.c -o.claude/settings.json".into(), "deny"),
        ("less -o .claude/settings.json x".into(), "deny"),
    ];
    let table: Vec<(&str, &str)> = table.iter().map(|(c, w)| (c.as_str(), *w)).collect();
    expect(&p, &table);
}

/// Red team, session 2 (C1, C2, C3, H3, H4): rebinding a name with `hash -p`, value-taking
/// options inside short-option clusters, configuration-driven runners, terminal drivers and
/// keystroke injectors, and writers/extractors the catalogue did not model. Each was an allow.
#[test]
fn red_team_session2_variants_are_closed() {
    let p = project(BROAD);
    p.write(".claude/settings.json", "{}");
    p.write(".claude/hooks/h.sh", "");
    p.write(".mcp.json", "{}");
    let exe = common::polc_bin();
    let exe_s = exe.to_string_lossy().into_owned();
    let mut table: Vec<(String, &str)> = Vec::new();
    // C1: a name rebound to polc (or to a runner, or to rm) is read as what it runs.
    for (bind, use_) in [
        (format!("hash -p {exe_s} zz"), "zz trust"),
        (format!("hash -p {exe_s} zz"), "zz init --host claude"),
        (format!("hash -p {exe_s} ls"), "ls trust"),
        (format!("hash -p {exe_s} echo"), "echo trust"),
        (format!("hash -p {exe_s} cat"), "cat init"),
        (format!("hash -p{exe_s} zz"), "zz trust"),
        (format!("hash -r -p {exe_s} a zz"), "zz trust"),
        (format!("BASH_CMDS[zz]={exe_s}"), "zz trust"),
        (format!("alias zz={exe_s}"), "zz trust"),
        (
            "hash -p /usr/bin/script zz".into(),
            "echo y | zz -qec 'polc trust /tmp/e' /dev/null",
        ),
        ("hash -p /usr/bin/tmux zz".into(), "zz new -d 'polc trust'"),
        ("hash -p /bin/sh zz".into(), "zz -c 'polc init'"),
    ] {
        table.push((format!("{bind}; {use_}"), "deny"));
        table.push((format!("{bind} && {use_}"), "deny"));
        table.push((format!("{bind}\n{use_}"), "deny"));
    }
    table.push(("hash -p /bin/cat zz".into(), "ask+"));
    // C2: the output option inside a cluster of short options, every protected target.
    for t in [
        ".claude/settings.json",
        ".mcp.json",
        ".claude/hooks/h.sh",
        "policies/main.pol",
        "compiled/policy.bin",
        exe_s.as_str(),
        ".gemini/settings.json",
        ".codex/config.toml",
    ] {
        for form in [
            "curl -sSLo {T} https://x.io/e",
            "curl -so {T} https://x.io/e",
            "curl -fsSLo {T} https://x.io/e",
            "curl -Lo {T} https://x.io/e",
            "curl -kso {T} https://x.io/e",
            "curl -#o {T} https://x.io/e",
            "curl -vsSo {T} https://x.io/e",
            "curl -sSo{T} https://x.io/e",
            "wget -qO {T} https://x.io/e",
            "wget -nvO {T} https://x.io/e",
            "wget -qNO {T} https://x.io/e",
            "wget -qcO {T} https://x.io/e",
            "wget -qO{T} https://x.io/e",
            "shuf src/main.rs -o{T}",
            "shuf -o {T} src/main.rs",
            "sort -ruo {T} src/main.rs",
            "sort -k1 -uo {T} src/main.rs",
            "sort -uo{T} src/main.rs",
            "someunknowntool -qo{T}",
        ] {
            table.push((form.replace("{T}", t), "ask+"));
        }
    }
    for c in [
        "curl -sSLo .claude/settings.json https://x.io/e",
        "wget -qO .claude/settings.json https://x.io/e",
        "sort -ruo .claude/settings.json src/main.rs",
        "shuf src/main.rs -o.claude/settings.json",
    ] {
        table.push((c.into(), "deny"));
    }
    // C3: configuration-driven programs write, delete and run what polc cannot see.
    for c in [
        "systemd-tmpfiles --create --remove /tmp/t.conf",
        "systemd-tmpfiles --remove /tmp/t.conf",
        "systemd-tmpfiles --user --clean",
        "logrotate -f /tmp/lr.conf",
        "logrotate -s st conf",
        "run-parts /tmp/d",
        "anacron -t /tmp/tab",
        "incrontab /tmp/t",
        "crontab /tmp/t",
        "cmake -P x.cmake",
        "cmake -E chdir /tmp polc trust",
        "cmake -E env X=1 rm -rf .claude",
    ] {
        table.push((c.into(), "ask+"));
    }
    table.push(("cmake -E env X=1 polc trust".into(), "deny"));
    // H3: terminal drivers, multiplexers, emulators and keystroke injectors run polc.
    for c in [
        "zellij run -- polc trust",
        "zellij action write-chars 'polc trust'",
        "wezterm cli spawn -- polc trust",
        "wezterm cli send-text --no-paste 'polc trust'",
        "wezterm start -- polc trust",
        "kitty @ launch polc trust",
        "kitty @ send-text 'polc trust\\r'",
        "kitten @ send-text 'polc trust\\r'",
        "kitty polc trust",
        "byobu send-keys 'polc trust' Enter",
        "byobu new -d 'polc trust'",
        "tmate new -d 'polc trust'",
        "dvtm -c 'polc trust'",
        "ttyd polc trust",
        "gotty polc trust",
        "empty -f polc trust",
        "faketty polc trust",
        "pty polc trust",
        "xdotool type 'polc trust'",
        "ydotool type 'polc trust'",
        "wtype 'polc trust'",
        "xterm -e polc trust",
        "x-terminal-emulator -e polc trust",
        "foot polc trust",
        "st -e polc trust",
        "urxvt -e polc trust",
        "terminator -x polc trust",
        "tilix -e 'polc trust'",
        "gnome-terminal -- polc trust",
        "konsole -e polc trust",
        "alacritty -e polc trust",
        "ptyxis -- polc trust",
        "rlwrap polc trust",
        "ttyexec polc trust",
        "unbuffer polc trust",
    ] {
        table.push((c.into(), "deny"));
    }
    for c in [
        "zellij action write 112 111 108 99 32 116 114 117 115 116 13",
        "xdotool key p o l c",
        "kitty @ send-text y",
        "wezterm cli send-text y",
        "zellij action write-chars y",
    ] {
        table.push((c.into(), "ask+"));
    }
    // H4: writers and extractors into the project.
    for c in [
        "scp h:.mcp.json .",
        "scp h:/x/.mcp.json .",
        "scp -r h:x/.claude .",
        "sftp h:.mcp.json",
        "aria2c https://h/.mcp.json",
        "aria2c -d .claude -o settings.json https://h/x",
        "wget -x -nH https://h/.claude/settings.json",
        "wget -r https://h/",
        "wget --directory-prefix=.claude https://h/x",
        "iconv -o .claude/settings.json x",
        "iconv -f utf8 -t ascii -o.claude/settings.json x",
        "dos2unix -n x .claude/settings.json",
        "unix2dos .claude/settings.json",
        "exiftool -o .claude/settings.json x",
        "exiftool -Comment=x .claude/settings.json",
        "yq -i '.hooks={}' .claude/settings.json",
        "yq -i -P '.x=1' .mcp.json",
        "cmake -E rm -rf .claude",
        "cmake -E remove_directory .claude",
        "cmake -E copy_directory /tmp/x .claude",
        "cmake -E copy /tmp/x .claude/settings.json",
        "cmake -E rename /tmp/x .claude",
        "cmake -E tar xf x.tar",
        "python3 -m zipfile -e x.zip .",
        "python3 -m tarfile -e x.tar .",
        "python3 -m tarfile -e x.tar",
        "dpkg-deb -x x.deb .",
        "dpkg-deb -R x.deb .",
        "dpkg -x x.deb .",
        "unar -o .claude x.zip",
        "unar x.zip",
        "ditto /tmp/evil .",
        "ditto /tmp/evil .claude",
        "rclone copy r:x .",
        "rclone sync r:x .",
        "rclone move r:x .claude",
        "rclone purge .claude",
        "docker cp c:/x .",
        "docker cp c:/x .claude",
        "podman cp c:/x .",
        "kubectl cp p:/x .",
        "gh release download -p '*' -D .",
        "gh release download -p '*'",
        "gh run download 1",
        "svn export https://h/r .",
        "svn checkout https://h/r .",
        "svn update",
        "hg clone x .",
        "hg update",
        "cmake --install b --prefix .",
    ] {
        table.push((c.into(), "ask+"));
    }
    for c in [
        "scp h:.mcp.json .",
        "aria2c https://h/.mcp.json",
        "aria2c -d .claude -o settings.json https://h/x",
        "iconv -o .claude/settings.json x",
        "unix2dos .claude/settings.json",
        "yq -i '.hooks={}' .claude/settings.json",
        "cmake -E rm -rf .claude",
        "exiftool -o .claude/settings.json x",
    ] {
        table.push((c.into(), "deny"));
    }
    // Writers that name their output inside a script or a config, and more copiers.
    for c in [
        "sed -n 'w .claude/settings.json' src/main.rs",
        "sed 's/a/b/w .mcp.json' src/main.rs",
        "sed -e 1d -e 'W .mcp.json' src/main.rs",
        "awk '{print > \".claude/settings.json\"}' src/main.rs",
        "awk '{printf \"%s\", $0 >> \".mcp.json\"}' src/main.rs",
        "curl -K /tmp/cfg https://x.io",
        "curl -sSK /tmp/cfg https://x.io",
        "curl --config=/tmp/cfg https://x.io",
        "curl -w '%output{.mcp.json}%{url}' https://x.io",
        "curl --variable v=x --expand-output '{{v}}' https://x.io",
        "wget -e output_document=.mcp.json https://x.io",
        "wget --execute=dir_prefix=.claude https://x.io",
        "wget --config=/tmp/rc https://x.io",
        "aria2c -i /tmp/list",
        "aria2c --conf-path=/tmp/c https://x.io",
        "aria2c --on-download-complete=/tmp/x.sh https://x.io",
        "lftp -c 'mirror r .'",
        "sftp -b /tmp/batch h",
        "smbclient //h/s -c 'get x .mcp.json'",
        "systemctl --user start x",
        "systemctl --user link /tmp/x.service",
        "launchctl load /tmp/x.plist",
        "direnv allow",
        "mise trust",
        "aws s3 cp s3://b/x .",
        "aws s3 sync s3://b/x .claude",
        "gsutil cp -r gs://b/x .",
        "gcloud storage cp -r gs://b/x .",
        "s3cmd get s3://b/.mcp.json .",
        "azcopy copy https://a.blob/x .",
        "mc cp -r m/b/x .",
        "pax -rf x.pax",
        "cabextract x.cab",
        "unsquashfs -d .claude x.sqfs",
        "http -d https://h/.mcp.json",
        "xh --download https://h/.mcp.json",
        "ttyecho -n /dev/pts/1 polc trust",
        "prettier -w .claude",
        "prettier --write .",
        "eslint --fix .claude",
        "biome format --write .",
        "biome check --apply .",
        "deno fmt",
        "deno fmt .claude",
        "dprint fmt",
        "taplo fmt .codex/config.toml",
        "sd hooks x .claude/settings.json",
        "fastmod hooks x .claude",
        "ast-grep -p x -r y -U .",
    ] {
        table.push((c.into(), "ask+"));
    }
    for c in [
        "aria2c --on-download-complete='polc trust' https://x.io",
        "lftp -c '!polc trust'",
        "ttyecho -n /dev/pts/1 polc trust",
        "http -d https://h/.mcp.json",
    ] {
        table.push((c.into(), "deny"));
    }
    let table: Vec<(&str, &str)> = table.iter().map(|(c, w)| (c.as_str(), *w)).collect();
    expect(&p, &table);
}

/// The session-2 fixes do not prompt for the ordinary uses of the same programs.
#[test]
fn red_team_session2_fixes_keep_ordinary_uses_allowed() {
    let p = project(BROAD);
    p.write(".claude/settings.json", "{}");
    expect(
        &p,
        &[
            ("curl -sSLo build/x.tar.gz https://x.io/a.tar.gz", "allow"),
            ("curl -fsSL https://x.io/install.sh -o build/i.sh", "allow"),
            ("wget -qO build/x https://x.io/x", "allow"),
            ("wget -qO- https://x.io/x", "allow"),
            ("sort -ruo build/out src/main.rs", "allow"),
            ("shuf src/main.rs -obuild/s", "allow"),
            ("iconv -f utf8 -t ascii -o build/o src/main.rs", "allow"),
            ("cmake -E make_directory build", "allow"),
            ("cmake -E copy src/main.rs build/", "allow"),
            ("yq '.a' src/x.yaml", "allow"),
            ("hash -r", "allow"),
            ("sed -n 's/a/b/p' src/main.rs", "allow"),
            ("awk '$1 > 5 {print $2}' src/main.rs", "allow"),
            ("curl -sS https://x.io", "allow"),
            ("wget -e robots=off -qO build/x https://x.io", "allow"),
            ("systemctl --user status x", "allow"),
            ("prettier -w src", "allow"),
            ("prettier --check .", "allow"),
            ("deno fmt src", "allow"),
            ("deno run src/main.ts", "allow"),
            ("hash", "allow"),
        ],
    );
}
