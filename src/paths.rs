//! Path rules for file tools (docs/contract.md#c-paths): gitignore-style globs with Claude Code's anchors,
//! compiled at build time to a regex (then a DFA in the table), and the two forms of a path
//! they are checked against — lexical (`..`, `.`, `//` folded) and canonical (symlinks
//! resolved). Deny/ask match if either form matches, also case-insensitively after Unicode
//! NFC normalisation; allow needs both forms to match exactly.

use std::path::{Component, Path, PathBuf};

/// Where a path pattern is rooted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Anchor {
    /// `//abs/path`: the file system root.
    Absolute = 0,
    /// `~/x`: the user's home.
    Home = 1,
    /// `/x`: the folder of the policy file that holds the rule.
    PolicyDir = 2,
    /// `./x` or `x/y`: the project root.
    ProjectRoot = 3,
    /// A bare name (`.env`, `*.pem`): at any depth, anywhere.
    AnyDepth = 4,
}

impl Anchor {
    pub fn from_u8(v: u8) -> Option<Anchor> {
        Some(match v {
            0 => Anchor::Absolute,
            1 => Anchor::Home,
            2 => Anchor::PolicyDir,
            3 => Anchor::ProjectRoot,
            4 => Anchor::AnyDepth,
            _ => return None,
        })
    }
}

/// A path pattern split into its anchor and the glob below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathGlob {
    pub anchor: Anchor,
    /// The glob relative to the anchor (no leading `/`).
    pub glob: String,
}

impl PathGlob {
    pub fn parse(text: &str) -> PathGlob {
        let t = text.trim();
        let (anchor, rest) = if let Some(r) = t.strip_prefix("//") {
            (Anchor::Absolute, r)
        } else if let Some(r) = t.strip_prefix("~/") {
            (Anchor::Home, r)
        } else if t == "~" {
            (Anchor::Home, "")
        } else if let Some(r) = t.strip_prefix('/') {
            (Anchor::PolicyDir, r)
        } else if let Some(r) = t.strip_prefix("./") {
            (Anchor::ProjectRoot, r)
        } else if t.trim_end_matches('/').contains('/') {
            (Anchor::ProjectRoot, t)
        } else {
            (Anchor::AnyDepth, t)
        };
        PathGlob {
            anchor,
            glob: rest.trim_end_matches('/').to_string(),
        }
    }

    /// The literal start of the glob (up to its first wildcard) and whether a wildcard
    /// follows: what "could a path under this folder match?" looks at.
    pub fn fixed(&self) -> (String, bool) {
        match self.glob.find(['*', '?', '[', '\\']) {
            Some(i) => {
                let head = &self.glob[..i];
                (
                    head.rsplit_once('/')
                        .map(|(d, _)| d.to_string())
                        .unwrap_or_default(),
                    true,
                )
            }
            None => (self.glob.clone(), false),
        }
    }

    /// The regex (anchored, over the path relative to the anchor's base with no leading
    /// `/`, or over the whole absolute path for `AnyDepth`) that the table stores as a DFA.
    /// A pattern also matches everything below what it names (`~/.ssh` covers its keys).
    pub fn regex(&self, case_insensitive: bool) -> String {
        let body = glob_to_regex(&self.glob);
        let flags = if case_insensitive { "(?i)" } else { "" };
        match self.anchor {
            Anchor::AnyDepth => format!("{flags}^(?:.*/)?{body}(?:/.*)?$"),
            _ if self.glob.is_empty() => format!("{flags}^.*$"),
            _ => format!("{flags}^{body}(?:/.*)?$"),
        }
    }
}

fn glob_to_regex(g: &str) -> String {
    let b: Vec<char> = g.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == '*' && b.get(i + 1) == Some(&'*') {
            // `**/` any number of folders; `/**` everything below; `**` anything.
            let slash_after = b.get(i + 2) == Some(&'/');
            if slash_after {
                out.push_str("(?:.*/)?");
                i += 3;
            } else {
                out.push_str(".*");
                i += 2;
            }
            continue;
        }
        match c {
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str("[^/]"),
            '[' => {
                // A class up to the next `]`; `!` negates as in gitignore.
                if let Some(end) = b[i + 1..].iter().position(|&x| x == ']') {
                    let inner: String = b[i + 1..i + 1 + end].iter().collect();
                    let inner = inner
                        .strip_prefix('!')
                        .map(|r| format!("^{r}"))
                        .unwrap_or(inner);
                    let safe: String = inner
                        .chars()
                        .flat_map(|ch| {
                            if ch == '\\' || ch == '[' {
                                vec!['\\', ch]
                            } else {
                                vec![ch]
                            }
                        })
                        .collect();
                    out.push('[');
                    out.push_str(&safe);
                    out.push(']');
                    i += end + 2;
                    continue;
                }
                out.push_str("\\[");
            }
            '\\' if i + 1 < b.len() => {
                out.push_str(&regex_escape(b[i + 1]));
                i += 2;
                continue;
            }
            _ => out.push_str(&regex_escape(c)),
        }
        i += 1;
    }
    out
}

fn regex_escape(c: char) -> String {
    if "\\.+*?()|[]{}^$#&-~".contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

/// Fold `.`, `..` and repeated `/` without touching the file system; relative paths are
/// taken from `cwd`. `..` above the root stays at the root.
pub fn lexical(path: &str, cwd: Option<&Path>, home: Option<&Path>) -> PathBuf {
    fold_dots(&joined(path, cwd, home), |out| {
        out.pop();
    })
}

/// `path` with `~`/`~/x` read under `home` and a relative path taken from `cwd`.
fn joined(path: &str, cwd: Option<&Path>, home: Option<&Path>) -> PathBuf {
    let p = if let (Some(rest), Some(h)) = (path.strip_prefix("~/"), home) {
        h.join(rest)
    } else if path == "~" && home.is_some() {
        home.map(Path::to_path_buf).unwrap_or_default()
    } else {
        PathBuf::from(path)
    };
    if p.is_absolute() {
        p
    } else {
        cwd.map(|c| c.join(&p)).unwrap_or(p)
    }
}

/// `p`'s components from `/`, `.` dropped, each `..` handled by `parent`.
fn fold_dots(p: &Path, parent: impl Fn(&mut PathBuf)) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in p.components() {
        match c {
            Component::ParentDir => parent(&mut out),
            Component::Normal(n) => out.push(n),
            _ => {}
        }
    }
    out
}

/// The folder the kernel reaches for a path holding `..`: a `..` after a symbolic link
/// leads to the parent of the link's *target*, which [`lexical`] folds away (`h/../x` with
/// `h -> .claude/hooks` is `.claude/x`: red team, session 5). `None` when the path has no
/// `..` component (then the kernel and [`lexical`] + [`canonical_memo`] agree).
pub fn physical(path: &str, cwd: Option<&Path>, home: Option<&Path>) -> Option<PathBuf> {
    if !path.split('/').any(|c| c == "..") {
        return None;
    }
    // Resolved as far as it exists: the parent of where the links lead.
    Some(fold_dots(&joined(path, cwd, home), |out| {
        *out = canonical_memo(out);
        out.pop();
    }))
}

/// Resolve symlinks as far as the path exists; the rest is appended lexically.
pub fn canonical(lex: &Path) -> PathBuf {
    let mut existing = lex.to_path_buf();
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    for _ in 0..4096 {
        if let Ok(c) = existing.canonicalize() {
            let mut out = c;
            for r in rest.iter().rev() {
                out.push(r);
            }
            return lexical(&out.to_string_lossy(), None, None);
        }
        match (
            existing.file_name().map(|n| n.to_os_string()),
            existing.parent(),
        ) {
            (Some(n), Some(p)) => {
                rest.push(n);
                existing = p.to_path_buf();
            }
            _ => break,
        }
    }
    lex.to_path_buf()
}

/// Fold `.` and `..` without touching the file system.
pub fn normalize(p: &Path) -> PathBuf {
    // On bytes: `Path::components` is several times slower, and this runs for every
    // protected path and every path a request names.
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let b = p.as_os_str().as_bytes();
    let absolute = b.first() == Some(&b'/');
    let mut parts: Vec<&[u8]> = Vec::new();
    for c in b.split(|&x| x == b'/') {
        match c {
            b"" | b"." => {}
            b".." => {
                parts.pop();
            }
            _ => parts.push(c),
        }
    }
    if parts.is_empty() {
        return PathBuf::from("/");
    }
    let mut out = Vec::with_capacity(b.len());
    for (i, c) in parts.iter().enumerate() {
        if absolute || i > 0 {
            out.push(b'/');
        }
        out.extend_from_slice(c);
    }
    PathBuf::from(std::ffi::OsString::from_vec(out))
}

/// Symlinks resolved: the path itself if it exists, else its nearest existing ancestor
/// resolved with the rest appended (as [`canonical`]), remembering the folders already
/// resolved in this process.
pub fn canonical_memo(p: &Path) -> PathBuf {
    // Resolve symlinks component by component with the folders already resolved in this
    // process remembered: gathering ~30 protected paths that share a few folders costs one
    // `lstat` per new component instead of a full realpath each (≈170 readlinks before).
    // Keyed by the path's bytes: hashing a `Path` walks its components, several times
    // slower than hashing bytes.
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    // A component under one that does not exist does not exist either: no `lstat` for it
    // (most agents' hook files are absent, e.g. `~/.gemini/settings.json` without `~/.gemini`).
    /// Path bytes → (resolved bytes, exists).
    type Memo = std::collections::HashMap<Vec<u8>, (Vec<u8>, bool)>;
    thread_local! {
        static MEMO: std::cell::RefCell<Memo> =
            std::cell::RefCell::new(std::collections::HashMap::new());
    }
    fn resolve(p: &[u8], depth: u32) -> (Vec<u8>, bool) {
        if let Some(hit) = MEMO.with(|m| m.borrow().get(p).cloned()) {
            return hit;
        }
        let Some(cut) = p.iter().rposition(|&b| b == b'/') else {
            return (p.to_vec(), true);
        };
        let name = &p[cut + 1..];
        if name.is_empty() {
            return (p.to_vec(), true);
        }
        let (mut joined, parent_exists) = if cut == 0 {
            (b"/".to_vec(), true)
        } else {
            resolve(&p[..cut], depth + 1)
        };
        if joined.last() != Some(&b'/') {
            joined.push(b'/');
        }
        joined.extend_from_slice(name);
        let out = if !parent_exists {
            (joined, false)
        } else {
            let jp = Path::new(std::ffi::OsStr::from_bytes(&joined));
            match std::fs::symlink_metadata(jp) {
                // A link (possibly dangling): the kernel's answer, else where it sits.
                Ok(m) if m.file_type().is_symlink() && depth < 64 => match jp.canonicalize() {
                    Ok(c) => (c.into_os_string().into_encoded_bytes(), true),
                    // A dangling link: a write through it creates its target (`nh ->
                    // .claude/hooks/new.sh`, then `tee nh`: red team, session 5).
                    Err(_) => match std::fs::read_link(jp) {
                        Ok(t) => {
                            let pi = joined.iter().rposition(|&b| b == b'/').unwrap_or(0);
                            let parent =
                                Path::new(std::ffi::OsStr::from_bytes(&joined[..pi.max(1)]));
                            let target = normalize(&parent.join(t));
                            let (r, _) = resolve(target.as_os_str().as_bytes(), depth + 8);
                            (r, false)
                        }
                        Err(_) => (joined, false),
                    },
                },
                Ok(_) => (joined, true),
                Err(_) => (joined, false),
            }
        };
        MEMO.with(|m| {
            let mut m = m.borrow_mut();
            if m.len() < 4096 {
                m.insert(p.to_vec(), out.clone());
            }
        });
        out
    }
    PathBuf::from(std::ffi::OsString::from_vec(
        resolve(p.as_os_str().as_bytes(), 0).0,
    ))
}

/// Unicode NFC form (deny/ask compare paths after it, and case-insensitively).
pub fn nfc(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    // ASCII is its own NFC (and the decomposing iterator costs ~90 instructions a byte:
    // a 10 kB path argument matched against a dozen path rules was 10 M instructions).
    if s.is_ascii() {
        return s.to_string();
    }
    s.nfc().collect()
}

/// The text a pattern with this anchor is matched against, for one form of the path:
/// relative to the base (None when the path is not under it), or the absolute path.
pub fn relative_to(path: &Path, anchor: Anchor, base: Option<&Path>) -> Option<String> {
    match anchor {
        Anchor::AnyDepth => Some(path.to_string_lossy().into_owned()),
        Anchor::Absolute => Some(path.to_string_lossy().trim_start_matches('/').to_string()),
        _ => {
            let base = base?;
            let rel = path.strip_prefix(base).ok()?;
            Some(rel.to_string_lossy().into_owned())
        }
    }
}

/// Could a path at or below `folder` match a pattern with this anchor and glob?
/// (Recursive reads of a folder that may hold a denied file are at least ask.) Exact where
/// it can be: `./.env.*` cannot match anything inside `src/`, `./**/*.pem` can.
pub fn could_hold(anchor: Anchor, base: Option<&Path>, glob: &str, folder: &Path) -> bool {
    let root = match anchor {
        Anchor::AnyDepth => return true,
        Anchor::Absolute => PathBuf::from("/"),
        _ => match base {
            Some(b) => b.to_path_buf(),
            None => return true,
        },
    };
    let g = PathGlob {
        anchor,
        glob: glob.to_string(),
    };
    let (fixed, wild) = g.fixed();
    let p = if fixed.is_empty() {
        root.clone()
    } else {
        root.join(&fixed)
    };
    if p.starts_with(folder) {
        return true;
    }
    if !folder.starts_with(&p) {
        return false;
    }
    if !wild || glob.contains("**") {
        return true;
    }
    // The pattern names paths exactly N components below its root (and what lies inside
    // them, which a direct match of the folder already covers).
    let depth = folder
        .strip_prefix(&root)
        .map(|r| r.components().count())
        .unwrap_or(0);
    depth < glob.split('/').count()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Re(Vec<u8>);
    impl Re {
        fn is_match(&self, s: &str) -> bool {
            crate::content::regex_dfa_is_match(&self.0, s.as_bytes()).unwrap()
        }
    }
    fn re(p: &str) -> Re {
        Re(crate::content::build_regex_dfa(&PathGlob::parse(p).regex(false)).unwrap())
    }

    #[test]
    fn anchors() {
        assert_eq!(PathGlob::parse("//etc/**").anchor, Anchor::Absolute);
        assert_eq!(PathGlob::parse("~/.ssh").anchor, Anchor::Home);
        assert_eq!(PathGlob::parse("/secrets").anchor, Anchor::PolicyDir);
        assert_eq!(PathGlob::parse("./.env").anchor, Anchor::ProjectRoot);
        assert_eq!(PathGlob::parse("src/**").anchor, Anchor::ProjectRoot);
        assert_eq!(PathGlob::parse(".env").anchor, Anchor::AnyDepth);
        assert_eq!(PathGlob::parse("*.pem").anchor, Anchor::AnyDepth);
        assert_eq!(PathGlob::parse("build/").anchor, Anchor::AnyDepth);
    }

    #[test]
    fn globs() {
        assert!(re(".env").is_match("/home/u/p/.env"));
        assert!(re(".env").is_match("/home/u/p/a/b/.env"));
        assert!(!re(".env").is_match("/home/u/p/.envrc"));
        assert!(re("*.pem").is_match("/x/key.pem"));
        assert!(re("src/**").is_match("src/a/b.rs"));
        assert!(re("src/*.rs").is_match("src/a.rs"));
        assert!(!re("src/*.rs").is_match("src/a/b.rs"));
        assert!(
            re(".ssh").is_match("/home/u/.ssh/id_rsa"),
            "a folder covers its contents"
        );
        assert!(re("**/node_modules").is_match("a/node_modules/x"));
        assert!(re("f[ab].txt").is_match("/fa.txt"));
        assert!(!re("f[!ab].txt").is_match("/fa.txt"));
    }

    #[test]
    fn could_hold_is_exact_about_depth() {
        let root = Path::new("/p");
        let ch = |g: &str, f: &str| {
            could_hold(
                PathGlob::parse(g).anchor,
                Some(root),
                &PathGlob::parse(g).glob,
                Path::new(f),
            )
        };
        assert!(ch("./.env", "/p"));
        assert!(!ch("./.env", "/p/src"));
        assert!(!ch("./.env.*", "/p/src"));
        assert!(ch("./**/*.pem", "/p/src"));
        assert!(ch("./a/*/b", "/p/a/x"));
        assert!(!ch("./a/*/b", "/p/c"));
        assert!(ch(".env", "/anything"));
        assert!(ch("//etc/**", "/"));
        assert!(!ch("//etc/**", "/p"));
    }

    #[test]
    fn lexical_folding() {
        let cwd = Path::new("/p/src");
        assert_eq!(
            lexical("../.env", Some(cwd), None),
            PathBuf::from("/p/.env")
        );
        assert_eq!(
            lexical("./a//b/./c", Some(cwd), None),
            PathBuf::from("/p/src/a/b/c")
        );
        assert_eq!(lexical("/../../etc", None, None), PathBuf::from("/etc"));
        assert_eq!(
            lexical("~/.ssh/id", None, Some(Path::new("/home/u"))),
            PathBuf::from("/home/u/.ssh/id")
        );
    }

    #[test]
    fn canonical_resolves_links() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("home");
        std::fs::create_dir_all(home.join("proj/src")).unwrap();
        std::os::unix::fs::symlink(&home, home.join("proj/src/lnk")).unwrap();
        let lex = lexical(
            &home.join("proj/src/lnk/.bashrc").to_string_lossy(),
            None,
            None,
        );
        let can = canonical(&lex);
        assert!(lex.starts_with(home.join("proj/src")));
        assert_eq!(can, home.canonicalize().unwrap().join(".bashrc"));
    }
}
