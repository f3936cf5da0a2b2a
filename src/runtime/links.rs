//! Programs reached through symbolic links already on disk (red team 8, C8-proglink).
//!
//! `ln -s /usr/bin/git src/g` made in the same command is read by the walk itself; a link
//! that exists before the command (a tool shim, `node_modules/.bin/*`, one an agent made in
//! an earlier call) is only visible on disk. The walk asks this resolver about every program
//! word that is a path (`src/g`, `./g`, `/opt/tools/g`): when the word names a symbolic link
//! whose final target has another file name, the stage is read again under the target's
//! path (`/usr/bin/git push --force`), deny-only (`shell::walk_resolving`).
//!
//! Relative words are tried from the call's folder and from each literal folder the command
//! `cd`s into before (`cd src && ./g push`). One `lstat` per word (at most 16 words a
//! command); a link is followed to its end with `realpath`. A dangling link or one that
//! cannot be read is left as written: an unknown program, whose words deny and ask rules
//! still read speculatively. A copy of a program under another name (not a link) is not
//! recognised: polc does not read file contents to identify programs.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The walk of `command` with program links resolved from `cwd` (see the module notes).
pub fn walk(command: &str, cwd: &Path) -> crate::shell::Walk {
    crate::shell::walk::walk_resolving(command, &|word, dirs| resolve(cwd, word, dirs))
}

/// What `word` runs when it is a link to a file of another name: the target's path.
pub fn resolve(cwd: &Path, word: &[u8], dirs: &[Vec<u8>]) -> Option<Vec<u8>> {
    let written = Path::new(OsStr::from_bytes(word));
    let name = written.file_name()?;
    let candidates: Vec<PathBuf> = if written.is_absolute() {
        vec![written.to_path_buf()]
    } else {
        let mut c = vec![cwd.join(written)];
        let mut at = cwd.to_path_buf();
        for d in dirs {
            let d = Path::new(OsStr::from_bytes(d));
            // Each folder alone from the call's, and the `cd`s one after the other.
            c.push(cwd.join(d).join(written));
            at = at.join(d);
            c.push(at.join(written));
        }
        c
    };
    for full in candidates {
        let Ok(meta) = std::fs::symlink_metadata(&full) else {
            continue;
        };
        if !meta.file_type().is_symlink() {
            return None;
        }
        let target = std::fs::canonicalize(&full).ok()?;
        if target.file_name()? == name {
            return None;
        }
        return Some(target.as_os_str().as_bytes().to_vec());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_to_another_name_resolves_and_others_do_not() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir(root.join("src")).unwrap();
        std::fs::write(root.join("tool"), b"#!/bin/sh\n").unwrap();
        std::os::unix::fs::symlink(root.join("tool"), root.join("src/g")).unwrap();
        std::os::unix::fs::symlink("../tool", root.join("src/tool")).unwrap();
        std::os::unix::fs::symlink("/nonexistent/x", root.join("src/dangling")).unwrap();
        let canon = std::fs::canonicalize(root.join("tool")).unwrap();
        let want = Some(canon.as_os_str().as_bytes().to_vec());
        assert_eq!(resolve(root, b"src/g", &[]), want);
        assert_eq!(resolve(root, b"./src/g", &[]), want);
        let abs = root.join("src/g");
        assert_eq!(
            resolve(Path::new("/"), abs.as_os_str().as_bytes(), &[]),
            want
        );
        // After `cd src`.
        assert_eq!(resolve(root, b"./g", &[b"src".to_vec()]), want);
        // Same name, not a link, dangling, missing: left as written.
        assert_eq!(resolve(root, b"src/tool", &[]), None);
        assert_eq!(resolve(root, b"tool", &[]), None);
        assert_eq!(resolve(root, b"src/dangling", &[]), None);
        assert_eq!(resolve(root, b"src/missing", &[]), None);
    }
}
