//! The names of the files a git repository tracks, read from its index (`.git/index`)
//! without running git: a command that prints tracked files' contents without naming them
//! (`git show HEAD`, `git log -p`, `git diff`) may print a tracked file a read rule denies
//! (red team, session 7: a committed `.env` printed by `git show`). Formats 2, 3 and 4,
//! SHA-1 and SHA-256 object names. Bounded: [`MAX_INDEX_BYTES`], [`MAX_NAMES`]; past a
//! bound, or when the index cannot be read as one, the caller treats every path under the
//! repository as possibly printed.

use std::path::{Path, PathBuf};

/// Largest index read.
pub const MAX_INDEX_BYTES: u64 = 16 << 20;
/// Most names returned.
pub const MAX_NAMES: usize = 100_000;

/// What the index of the repository holding a folder says.
#[derive(Debug, PartialEq, Eq)]
pub enum Tracked {
    /// No repository, or one without an index (nothing tracked).
    None,
    /// The work tree's root and the tracked names (relative to it).
    Names(PathBuf, Vec<Vec<u8>>),
    /// A repository whose index cannot be read within the bounds: its work tree's root.
    Unknown(PathBuf),
}

/// The repository holding `dir` (its `.git` folder or `gitdir:` file, up to 64 levels up).
pub fn tracked(dir: &Path) -> Tracked {
    let Some((root, gitdir)) = find_repo(dir) else {
        return Tracked::None;
    };
    let index = gitdir.join("index");
    let bytes = match std::fs::metadata(&index) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Tracked::None,
        Err(_) => return Tracked::Unknown(root),
        Ok(m) if !m.is_file() || m.len() > MAX_INDEX_BYTES => return Tracked::Unknown(root),
        Ok(_) => match std::fs::read(&index) {
            Ok(b) => b,
            Err(_) => return Tracked::Unknown(root),
        },
    };
    match names(&bytes) {
        Some(n) => Tracked::Names(root, n),
        None => Tracked::Unknown(root),
    }
}

fn find_repo(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let mut d = Some(dir);
    for _ in 0..64 {
        let here = d?;
        let dot = here.join(".git");
        match std::fs::symlink_metadata(&dot) {
            Ok(m) if m.is_dir() => return Some((here.to_path_buf(), dot)),
            Ok(_) => {
                // `gitdir: DIR` (a separate git directory, a worktree, a submodule).
                let text = std::fs::read_to_string(&dot).ok()?;
                let g = text.lines().next()?.strip_prefix("gitdir:")?.trim();
                return Some((here.to_path_buf(), here.join(g)));
            }
            Err(_) => d = here.parent(),
        }
    }
    None
}

/// The tracked names of an index, or `None` when it is not one polc can read.
pub fn names(b: &[u8]) -> Option<Vec<Vec<u8>>> {
    names_with(b, 20).or_else(|| names_with(b, 32))
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn names_with(b: &[u8], hash: usize) -> Option<Vec<Vec<u8>>> {
    if b.get(..4)? != b"DIRC" {
        return None;
    }
    let version = be32(b, 4)?;
    let count = be32(b, 8)? as usize;
    if !(2..=4).contains(&version) || count > MAX_NAMES {
        return None;
    }
    let mut out: Vec<Vec<u8>> = Vec::with_capacity(count.min(4096));
    let mut at = 12;
    let mut prev: Vec<u8> = Vec::new();
    for _ in 0..count {
        let start = at;
        // ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size (4 each), the object
        // name, the flags.
        at += 40 + hash;
        let flags = u16::from_be_bytes(b.get(at..at + 2)?.try_into().ok()?);
        at += 2;
        if version >= 3 && flags & 0x4000 != 0 {
            at += 2;
        }
        let name = if version == 4 {
            // The name is the previous one less N bytes, then this suffix.
            let (strip, used) = varint(b.get(at..)?)?;
            at += used;
            let keep = prev.len().checked_sub(strip)?;
            let end = at + b.get(at..)?.iter().position(|&c| c == 0)?;
            let mut n = prev[..keep].to_vec();
            n.extend_from_slice(&b[at..end]);
            at = end + 1;
            n
        } else {
            let end = at + b.get(at..)?.iter().position(|&c| c == 0)?;
            let n = b[at..end].to_vec();
            // Padded with 1 to 8 NUL bytes to a multiple of 8 from the entry's start.
            let next = start + ((end - start + 8) & !7);
            if b.get(end..next)?.iter().any(|&c| c != 0) {
                return None;
            }
            at = next;
            n
        };
        let len = (flags & 0x0fff) as usize;
        if name.is_empty() || (len < 0x0fff && len != name.len()) {
            return None;
        }
        prev.clone_from(&name);
        out.push(name);
    }
    Some(out)
}

/// git's offset varint: (value, bytes used).
fn varint(b: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    let mut c = *b.first()?;
    let mut v = (c & 0x7f) as usize;
    while c & 0x80 != 0 {
        i += 1;
        c = *b.get(i)?;
        v = v.checked_add(1)?.checked_mul(128)? | (c & 0x7f) as usize;
    }
    Some((v, i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) -> bool {
        std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .is_ok_and(|o| o.status.success())
    }

    /// The names git itself wrote, in every index format (skipped without git).
    #[test]
    fn reads_the_names_git_writes() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        if !git(d, &["init", "-q"]) {
            return;
        }
        let files = [".env", "src/main.rs", "src/deep/a very long name.txt", "z"];
        for f in files {
            let p = d.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "x").unwrap();
        }
        assert!(git(d, &["add", "."]));
        for v in ["2", "3", "4"] {
            assert!(git(d, &["update-index", "--index-version", v]));
            let Tracked::Names(root, mut n) = tracked(&d.join("src")) else {
                panic!("index version {v} not read")
            };
            assert_eq!(root, d);
            n.sort();
            let mut want: Vec<Vec<u8>> = files.iter().map(|f| f.as_bytes().to_vec()).collect();
            want.sort();
            assert_eq!(n, want, "version {v}");
        }
    }

    #[test]
    fn damaged_or_absent_indexes() {
        assert_eq!(names(b"DIRC"), None);
        assert_eq!(names(b"nope"), None);
        let mut b = b"DIRC\0\0\0\x02\0\0\0\x01".to_vec();
        b.extend(vec![0u8; 62]);
        assert_eq!(names(&b), None, "an entry without a name");
        let t = tempfile::tempdir().unwrap();
        assert_eq!(tracked(t.path()), Tracked::None);
        std::fs::create_dir(t.path().join(".git")).unwrap();
        assert_eq!(
            tracked(t.path()),
            Tracked::None,
            "no index: nothing tracked"
        );
        std::fs::write(t.path().join(".git/index"), b"garbage").unwrap();
        assert_eq!(tracked(t.path()), Tracked::Unknown(t.path().to_path_buf()));
        assert_eq!(varint(&[0x80]), None);
        assert_eq!(varint(&[0x05]), Some((5, 1)));
        assert_eq!(varint(&[0x80, 0x00]), Some((128, 2)));
    }
}
