//! `polc fmt [FILES…] [--check]`.

use crate::fmt::format_source;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Every `.pol` file named, or found (recursively, sorted) in a directory named.
fn pol_files(args: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for a in args {
        if a.is_dir() {
            let mut stack = vec![a.clone()];
            let mut found = Vec::new();
            while let Some(d) = stack.pop() {
                let Ok(rd) = std::fs::read_dir(&d) else {
                    continue;
                };
                for e in rd.flatten() {
                    let p = e.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|x| x == "pol") {
                        found.push(p);
                    }
                }
            }
            found.sort();
            out.extend(found);
        } else {
            out.push(a.clone());
        }
    }
    out
}

/// Write `text` to `path` through a temporary file in the same folder and a rename, so a
/// reader never sees half a file. The file's permissions are kept.
fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile_in(dir, path)?;
    let res = (|| {
        tmp.1.write_all(text.as_bytes())?;
        tmp.1.sync_all()?;
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp.0, meta.permissions())?;
        }
        std::fs::rename(&tmp.0, path)
    })();
    if res.is_err() {
        let _ = std::fs::remove_file(&tmp.0);
    }
    res
}

fn tempfile_in(dir: &Path, path: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    let base = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for k in 0..100u32 {
        let p = dir.join(format!(".{base}.polc-fmt-{}-{k}", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&p)
        {
            Ok(f) => return Ok((p, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("no free temporary name"))
}

pub fn fmt(files: &[PathBuf], check: bool) -> i32 {
    let files = pol_files(&super::default_sources(files));
    let mut failed = false;
    let mut changed = Vec::new();
    for f in &files {
        let name = f.display().to_string();
        let text = match std::fs::read(f).map(String::from_utf8) {
            Ok(Ok(t)) => t,
            Ok(Err(_)) => {
                eprintln!("error: `{name}` is not valid UTF-8; not formatted");
                failed = true;
                continue;
            }
            Err(e) => {
                eprintln!("error: cannot read `{name}`: {e}");
                failed = true;
                continue;
            }
        };
        let formatted = match format_source(&name, &text) {
            Ok(t) => t,
            Err(d) => {
                eprint!("{}", d.render_all());
                eprintln!("error: `{name}` has syntax errors; not formatted");
                failed = true;
                continue;
            }
        };
        if formatted == text {
            continue;
        }
        if check {
            println!("{name}");
            changed.push(name);
        } else if let Err(e) = write_atomic(f, &formatted) {
            eprintln!("error: cannot write `{name}`: {e}");
            failed = true;
        } else {
            println!("formatted {name}");
        }
    }
    if check && !changed.is_empty() {
        eprintln!(
            "{} file(s) would be reformatted; run `polc fmt` to fix",
            changed.len()
        );
    }
    i32::from(failed || !changed.is_empty())
}
