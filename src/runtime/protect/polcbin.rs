//! Recognising polc by what it is, not by its name (red team, session 8, C8-polccopy): a
//! build of polc in `target/*/`, a renamed copy of one, a link to one reached by a relative
//! path, a script that forwards its arguments to one, and `cargo run` in polc's own crate
//! all run polc's commands; self-protection reads each as `polc`.
//!
//! - **A polc binary** is an executable (ELF or Mach-O) holding [`MARK`], the synthetic
//!   rule's name every polc build carries (also builds older than this check). On ELF only
//!   the read-only loaded segments are searched (where string constants live: about 4 MiB of
//!   a 78 MiB debug build), so the check costs an `open`, two small reads and one bounded
//!   read. Other executables are read whole up to [`MAX_SCAN`].
//! - **A wrapper script** (`#!`, at most [`MAX_SCRIPT`] bytes) names a polc program word and
//!   forwards its arguments (`"$@"`, `$*`).
//! - **A copy**: reading a polc binary, or any file named `polc` (it may not exist yet:
//!   `cargo build && cp target/debug/polc x`), in a command that writes.
//! - **`cargo run`** (or `cargo r`) whose package is polc: `--bin polc`, `-p polc`, or a
//!   manifest (the `--manifest-path`, else the nearest `Cargo.toml` above the folder) whose
//!   package or binaries are named polc, or whose crate's `src/main.rs`/`src/lib.rs` names
//!   polc (a renamed package still builds polc), or whose `target/debug` or
//!   `target/release` holds a `polc` (the crate builds polc). Its arguments are polc's.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The bytes every polc binary holds: the self-protection rule's name.
pub(super) const MARK: &[u8] = super::RULE_ID.as_bytes();
/// The most bytes of one executable searched for [`MARK`].
const MAX_SCAN: u64 = 64 << 20;
/// The largest script read as a possible wrapper.
const MAX_SCRIPT: u64 = 64 << 10;
/// The smallest polc binary (anything smaller is not one; saves reading small files).
const MIN_BINARY: u64 = 256 << 10;

/// Is the file at `p` (links followed) a polc binary?
pub(super) fn is_polc_binary(p: &Path) -> bool {
    scan(p, false)
}

/// Is the file at `p` a polc binary, or a script that runs polc with its arguments?
pub(super) fn runs_polc(p: &Path) -> bool {
    scan(p, true)
}

fn scan(p: &Path, scripts: bool) -> bool {
    let Ok(mut f) = std::fs::File::open(p) else {
        return false;
    };
    let Ok(meta) = f.metadata() else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    let mut head = [0u8; 64];
    let n = read_up_to(&mut f, &mut head);
    let head = &head[..n];
    if head.starts_with(b"#!") {
        return scripts && meta.len() <= MAX_SCRIPT && wrapper(&mut f);
    }
    if meta.len() < MIN_BINARY {
        return false;
    }
    if head.starts_with(b"\x7fELF") {
        if let Some(found) = elf_rodata_has_mark(&mut f, head) {
            return found;
        }
    }
    // Mach-O (thin or fat) or an ELF whose headers polc cannot read: the file up to the bound.
    let _ = f.seek(SeekFrom::Start(0));
    range_has_mark(&mut f, 0, meta.len().min(MAX_SCAN))
}

fn read_up_to(f: &mut std::fs::File, buf: &mut [u8]) -> usize {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) | Err(_) => break,
            Ok(k) => n += k,
        }
    }
    n
}

/// Search `[from, from + len)` of `f` for [`MARK`], in chunks that overlap by its length.
fn range_has_mark(f: &mut std::fs::File, from: u64, len: u64) -> bool {
    if f.seek(SeekFrom::Start(from)).is_err() {
        return false;
    }
    let mut buf = vec![0u8; 1 << 20];
    let keep = MARK.len() - 1;
    let mut have = 0usize;
    let mut left = len;
    while left > 0 {
        let want = ((buf.len() - have) as u64).min(left) as usize;
        let n = read_up_to(f, &mut buf[have..have + want]);
        if n == 0 {
            return false;
        }
        left -= n as u64;
        let end = have + n;
        if memchr::memmem::find(&buf[..end], MARK).is_some() {
            return true;
        }
        let k = keep.min(end);
        buf.copy_within(end - k..end, 0);
        have = k;
    }
    false
}

/// [`MARK`] in an ELF file's read-only loaded segments: Some(found), None when the headers
/// cannot be read.
fn elf_rodata_has_mark(f: &mut std::fs::File, head: &[u8]) -> Option<bool> {
    if head.len() < 64 {
        return None;
    }
    let wide = match head[4] {
        1 => false,
        2 => true,
        _ => return None,
    };
    let le = match head[5] {
        1 => true,
        2 => false,
        _ => return None,
    };
    let u16_at = |b: &[u8], i: usize| {
        let x = [b[i], b[i + 1]];
        if le {
            u16::from_le_bytes(x)
        } else {
            u16::from_be_bytes(x)
        }
    };
    let u32_at = |b: &[u8], i: usize| {
        let x = [b[i], b[i + 1], b[i + 2], b[i + 3]];
        if le {
            u32::from_le_bytes(x)
        } else {
            u32::from_be_bytes(x)
        }
    };
    let u64_at = |b: &[u8], i: usize| {
        let mut x = [0u8; 8];
        x.copy_from_slice(&b[i..i + 8]);
        if le {
            u64::from_le_bytes(x)
        } else {
            u64::from_be_bytes(x)
        }
    };
    let (phoff, phentsize, phnum) = if wide {
        (u64_at(head, 32), u16_at(head, 54), u16_at(head, 56))
    } else {
        (u32_at(head, 28) as u64, u16_at(head, 42), u16_at(head, 44))
    };
    let min = if wide { 56 } else { 32 };
    if (phentsize as usize) < min || phnum == 0 || phnum > 128 {
        return None;
    }
    let mut table = vec![0u8; phentsize as usize * phnum as usize];
    f.seek(SeekFrom::Start(phoff)).ok()?;
    if read_up_to(f, &mut table) != table.len() {
        return None;
    }
    let mut budget = MAX_SCAN;
    let mut any = false;
    for e in table.chunks(phentsize as usize) {
        let (kind, flags, off, size) = if wide {
            (u32_at(e, 0), u32_at(e, 4), u64_at(e, 8), u64_at(e, 32))
        } else {
            (
                u32_at(e, 0),
                u32_at(e, 24),
                u32_at(e, 4) as u64,
                u32_at(e, 16) as u64,
            )
        };
        // PT_LOAD, not executable (PF_X = 1): string constants.
        if kind != 1 || flags & 1 != 0 || size == 0 {
            continue;
        }
        any = true;
        let len = size.min(budget);
        if range_has_mark(f, off, len) {
            return Some(true);
        }
        budget -= len;
        if budget == 0 {
            break;
        }
    }
    // No read-only segment (an unusual link): read the file as a whole.
    any.then_some(false)
}

/// A script that names a polc program word and forwards its arguments to it.
fn wrapper(f: &mut std::fs::File) -> bool {
    let _ = f.seek(SeekFrom::Start(0));
    let mut text = String::new();
    if f.take(MAX_SCRIPT).read_to_string(&mut text).is_err() {
        return false;
    }
    let forwards = ["\"$@\"", "$@", "${@}", "$*", "${*}", "\"${@}\""]
        .iter()
        .any(|s| text.contains(s));
    forwards
        && text
            .split(|c: char| c.is_whitespace() || "'\"`;|&(){}".contains(c))
            .any(|w| {
                let base = w.rsplit('/').next().unwrap_or(w);
                base == "polc" || base.starts_with("polc.")
            })
}

/// Is `p` a file polc's copies are made from: a polc binary, or a file named `polc`
/// (`polc.exe`) that is not a folder (it may not exist yet)?
pub(super) fn polc_file(p: &Path) -> bool {
    let named = p
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n == "polc" || n == "polc.exe");
    if named {
        return !p.is_dir();
    }
    is_polc_binary(p)
}

/// `cargo [+TOOLCHAIN] [GLOBAL OPTIONS] run|r [OPTIONS] [-- ARGS]` in `cwd`: polc's
/// arguments when the package run is polc (see the module's notes), else None.
pub(super) fn cargo_run_args(stage: &[Vec<u8>], cwd: &Path) -> Option<Vec<String>> {
    let words: Vec<String> = stage
        .iter()
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect();
    let mut i = 1;
    let mut dir = cwd.to_path_buf();
    // Global options before the subcommand (with their values).
    while i < words.len() {
        let w = words[i].as_str();
        if w.starts_with('+') {
            i += 1;
        } else if matches!(w, "-C" | "-Z" | "--config" | "--color") {
            if w == "-C" {
                dir = join(&dir, words.get(i + 1)?);
            }
            i += 2;
        } else if w.starts_with('-') {
            i += 1;
        } else {
            break;
        }
    }
    if !matches!(words.get(i).map(String::as_str), Some("run" | "r")) {
        return None;
    }
    i += 1;
    const VALUED: &[&str] = &[
        "--bin",
        "-p",
        "--package",
        "--example",
        "--manifest-path",
        "--features",
        "-F",
        "--target",
        "--profile",
        "-j",
        "--jobs",
        "--target-dir",
        "--color",
        "--config",
        "-Z",
        "--message-format",
        "--lockfile-path",
    ];
    let (mut bin, mut package, mut manifest, mut example) = (None, None, None, false);
    let mut args: Vec<String> = Vec::new();
    while i < words.len() {
        let w = words[i].as_str();
        i += 1;
        if w == "--" {
            args.extend(words[i..].iter().cloned());
            break;
        }
        let (name, inline) = match w.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (w, None),
        };
        if VALUED.contains(&name) {
            let v = match inline {
                Some(v) => v,
                None => {
                    i += 1;
                    words.get(i - 1).cloned().unwrap_or_default()
                }
            };
            match name {
                "--bin" => bin = Some(v),
                "-p" | "--package" => package = Some(v),
                "--manifest-path" => manifest = Some(join(&dir, &v)),
                "--example" => example = true,
                _ => {}
            }
        } else if !w.starts_with('-') {
            args.push(w.to_string());
        }
    }
    if example {
        return None;
    }
    let named = |n: &Option<String>| n.as_deref().map(|n| n == "polc");
    let polc = match (named(&bin), named(&package)) {
        (Some(b), _) => b,
        (None, Some(p)) => p,
        (None, None) => {
            let m = manifest.or_else(|| nearest_manifest(&dir));
            let home = m
                .as_deref()
                .and_then(Path::parent)
                .unwrap_or(&dir)
                .to_path_buf();
            m.is_some_and(|m| crate_is_polc(&m)) || builds_polc(&home) || builds_polc(&dir)
        }
    };
    polc.then_some(args)
}

/// Does the folder's `target/` hold a build of polc (`target/debug/polc`,
/// `target/release/polc`)? Then `cargo run` there builds and runs polc.
fn builds_polc(dir: &Path) -> bool {
    ["debug", "release"]
        .iter()
        .any(|p| dir.join("target").join(p).join("polc").is_file())
}

fn join(dir: &Path, w: &str) -> PathBuf {
    crate::paths::normalize(&dir.join(w))
}

fn nearest_manifest(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .take(32)
        .map(|d| d.join("Cargo.toml"))
        .find(|m| m.is_file())
}

/// Does the manifest's package or a binary bear polc's name, or its crate's main source name
/// polc?
fn crate_is_polc(manifest: &Path) -> bool {
    let read = |p: &Path| {
        std::fs::File::open(p).ok().and_then(|f| {
            let mut s = String::new();
            f.take(MAX_SCRIPT * 4).read_to_string(&mut s).ok()?;
            Some(s)
        })
    };
    let names_polc = |text: &str| {
        text.lines().any(|l| {
            let l: String = l.chars().filter(|c| !c.is_whitespace()).collect();
            l == "name=\"polc\"" || l == "name='polc'" || l.starts_with("default-run=\"polc\"")
        })
    };
    if read(manifest).is_some_and(|t| names_polc(&t)) {
        return true;
    }
    let dir = manifest.parent().unwrap_or(Path::new("/"));
    ["src/main.rs", "src/lib.rs"].iter().any(|s| {
        read(&dir.join(s)).is_some_and(|t| {
            t.contains("polc::") || t.contains(std::str::from_utf8(MARK).unwrap_or("polc"))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_build_is_a_polc_binary_and_others_are_not() {
        // The test binary links polc's library, so it holds the mark.
        let me = std::env::current_exe().unwrap();
        assert!(is_polc_binary(&me));
        let d = tempfile::tempdir().unwrap();
        let copy = d.path().join("xtool");
        std::fs::copy(&me, &copy).unwrap();
        assert!(is_polc_binary(&copy));
        assert!(polc_file(&copy));
        // A link reached by any name.
        std::os::unix::fs::symlink(&copy, d.path().join("p")).unwrap();
        assert!(runs_polc(&d.path().join("p")));
        for other in ["/bin/sh", "/usr/bin/env"] {
            assert!(!is_polc_binary(Path::new(other)), "{other}");
        }
        let s = d.path().join("w.sh");
        std::fs::write(&s, "#!/bin/sh\nexec ./target/debug/polc \"$@\"\n").unwrap();
        assert!(runs_polc(&s));
        assert!(!is_polc_binary(&s));
        std::fs::write(&s, "#!/bin/sh\n# builds polc\ncargo build\n").unwrap();
        assert!(!runs_polc(&s));
        // A name alone: not yet built.
        assert!(polc_file(&d.path().join("target/debug/polc")));
        assert!(!polc_file(&d.path().join("target/debug/polc2")));
    }

    #[test]
    fn cargo_run_in_polcs_crate() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join("Cargo.toml"),
            "[package]\nname = \"polc\"\nversion = \"0.1.0\"\n",
        )
        .unwrap();
        std::fs::create_dir_all(d.path().join("sub")).unwrap();
        let other = tempfile::tempdir().unwrap();
        std::fs::write(
            other.path().join("Cargo.toml"),
            "[package]\nname = \"app\"\n",
        )
        .unwrap();
        let w = |s: &str| -> Vec<Vec<u8>> { s.split(' ').map(|x| x.as_bytes().to_vec()).collect() };
        let sub = d.path().join("sub");
        for (cmd, at, want) in [
            ("cargo run -- import --from x", d.path(), Some("import")),
            (
                "cargo run -q -- session reset",
                sub.as_path(),
                Some("session"),
            ),
            (
                "cargo +nightly r --release -- trust",
                d.path(),
                Some("trust"),
            ),
            ("cargo run build", d.path(), Some("build")),
            ("cargo run --bin polc -- build", other.path(), Some("build")),
            ("cargo run -p polc -- build", other.path(), Some("build")),
            ("cargo run -- build", other.path(), None),
            ("cargo run --example e -- build", d.path(), None),
            ("cargo build", d.path(), None),
        ] {
            let got = cargo_run_args(&w(cmd), at);
            let first = got.as_ref().and_then(|a| a.first().cloned());
            assert_eq!(first.as_deref(), want, "{cmd}");
        }
        let m = format!(
            "cargo run --manifest-path {}/Cargo.toml -- init",
            d.path().display()
        );
        assert!(cargo_run_args(&w(&m), other.path()).is_some());
    }
}
