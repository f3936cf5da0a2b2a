//! Files a program names itself, from an operand plus an option (red team 8,
//! C8-derivedname, C8-dlname, C8-jqfile): the written name never appears in the command,
//! so self-protection must be given it.
//!
//! - backup copies: GNU `sed -i SUFFIX` keeps FILE+SUFFIX (a `*` in SUFFIX is the file's
//!   name, and a `/` places it in another folder: `sed -i'.claude/*' … settings.json`);
//!   `cp`/`mv`/`install`/`ln` with `-b`/`--backup` and `-S`/`--suffix` keep DEST+SUFFIX
//!   (`SIMPLE_BACKUP_SUFFIX` is read by the walk: `walk::env_effects`); `rsync -b --suffix`;
//!   gawk's `-i inplace` with `INPLACE_SUFFIX`;
//! - numbered pieces: `csplit -f PREFIX -b FORMAT` names piece N `PREFIX` + printf(FORMAT,
//!   N) (`-b 'n%.0d'` prints nothing for 0), `split --additional-suffix`;
//! - `mmv`'s `#N` in the target: the source's wildcard text (unknown here);
//! - downloaders that name the file from the URL or the server (`http -d`, `xh -d`, `axel`,
//!   `lwp-download`, BSD `fetch`, `gdown`): unknown names in the current folder;
//! - `jq -f FILE`: the program is FILE (read), and a program polc does not see may import
//!   any file (as C7-jqimport's directives).

use super::files::opt_values;
use super::{Access, Effects};
use crate::pattern::WILD;

/// Adds the files `n` names itself (see the module notes). `args` as written (option
/// clusters not split: `sed -i.json`, `cp -bS.json`).
pub(super) fn derived_names(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    match n {
        "sed" | "gsed" => sed_backups(e, args),
        // (rsync's `-S` is `--sparse`.)
        "rsync" if has_short(args, 'b') || args.iter().any(|a| a.as_slice() == b"--backup") => {
            let mut suffixes = opt_values(args, &[], &["--suffix"]);
            if suffixes.is_empty() {
                suffixes.push(b"~".to_vec());
            }
            backup_copies(e, n, args, &suffixes);
        }
        "cp" | "mv" | "install" | "ln" | "ginstall" | "gcp" | "gmv" if backs_up(args) => {
            let mut suffixes = opt_values(args, &[], &["--suffix"]);
            suffixes.extend(short_values(args, 'S'));
            backup_copies(e, n, args, &suffixes);
        }
        "awk" | "gawk" => {
            for v in opt_values(args, &["-v"], &["--assign"]) {
                let t = String::from_utf8_lossy(&v);
                if let Some((k, s)) = t.split_once('=') {
                    if k == "INPLACE_SUFFIX" || k == "inplace::suffix" {
                        let writes = writes_of(e);
                        for p in writes {
                            let mut b = p.clone();
                            b.extend_from_slice(s.as_bytes());
                            e.file(b, Access::Write, false);
                        }
                    }
                }
            }
        }
        "csplit" | "gcsplit" => csplit_names(e, args),
        "split" | "gsplit" => {
            for s in opt_values(args, &[], &["--additional-suffix"]) {
                // PREFIX + letters + SUFFIX: the prefix's own pattern, ending in SUFFIX.
                let pats: Vec<Vec<u8>> = e
                    .files
                    .iter()
                    .filter(|u| u.access == Access::Write && u.path.last() == Some(&WILD))
                    .map(|u| u.path.clone())
                    .collect();
                for mut p in pats {
                    p.extend_from_slice(&s);
                    e.file(p, Access::Write, false);
                }
            }
        }
        "mmv" => {
            // `mmv FROM TO`: `#1` … `#9` in TO are FROM's wildcard texts.
            let ops: Vec<&Vec<u8>> = args.iter().filter(|a| !a.starts_with(b"-")).collect();
            if let Some(to) = ops.get(1) {
                let pat: Vec<u8> = to
                    .iter()
                    .map(|&b| if b == b'#' { WILD } else { b })
                    .collect();
                e.file(pat, Access::Write, false);
            }
        }
        "axel" | "lwp-download" | "fetch" | "gdown" | "wget2" | "http" | "https" | "xh" | "xhs"
        | "httpie" => server_or_url_names(e, n, args),
        "polc" => polc_reads(e, args),
        "jq" | "gojq" | "jaq" | "yq" | "xq" | "tomlq" => {
            let mut files = opt_values(args, &[], &["--from-file"]);
            files.extend(short_values(args, 'f'));
            for f in &files {
                e.file(f.clone(), Access::Read, false);
            }
            if !files.is_empty() {
                e.file(vec![WILD], Access::Read, true);
            }
        }
        _ => {}
    }
}

/// `-x` in a cluster of short options.
fn has_short(args: &[Vec<u8>], c: char) -> bool {
    args.iter()
        .any(|a| a.starts_with(b"-") && !a.starts_with(b"--") && a[1..].contains(&(c as u8)))
}

/// The values of short option `c` anywhere in a cluster: the rest of the word after it
/// (`-bS.json`), else the next word (`-bS .json`).
fn short_values(args: &[Vec<u8>], c: char) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (k, a) in args.iter().enumerate() {
        if !a.starts_with(b"-") || a.starts_with(b"--") {
            continue;
        }
        if let Some(i) = a[1..].iter().position(|&b| b == c as u8) {
            let rest = &a[i + 2..];
            if !rest.is_empty() {
                out.push(rest.to_vec());
            } else if let Some(v) = args.get(k + 1) {
                out.push(v.clone());
            }
        }
    }
    out
}

/// `SIMPLE_BACKUP_SUFFIX=S cp -b …`: the backups a copier given `-b` keeps under the
/// suffix from the environment (the stage: program and arguments as written).
pub fn env_backups(e: &mut Effects, stage: &[Vec<u8>], suffix: &[u8]) {
    let n = e.program.clone();
    let args = stage.get(1..).unwrap_or(&[]);
    if matches!(
        n.as_str(),
        "cp" | "mv" | "install" | "ln" | "ginstall" | "gcp" | "gmv"
    ) && backs_up(args)
        && short_values(args, 'S').is_empty()
        && opt_values(args, &[], &["--suffix"]).is_empty()
    {
        backup_copies(e, &n, args, &[suffix.to_vec()]);
    }
}

/// polc's own commands read the sources and tables they are given, and a source's
/// `include`s any path, whose lines a diagnostic prints (red team 8, C8-polcreads: `polc
/// lint .env` printed `SECRET=…`). Its writing commands are self-protection's.
fn polc_reads(e: &mut Effects, args: &[Vec<u8>]) {
    let Some(sub) = args.iter().find(|a| !a.starts_with(b"-")) else {
        return;
    };
    if !matches!(
        sub.as_slice(),
        b"lint" | b"test" | b"fmt" | b"explain" | b"build" | b"annotate" | b"decide" | b"import"
    ) {
        return;
    }
    let mut named = opt_values(args, &[], &["--policy", "--table", "--from-file"]);
    if matches!(
        sub.as_slice(),
        b"lint" | b"test" | b"fmt" | b"build" | b"annotate"
    ) {
        // Operands up to `--` (after it, `explain`/`decide` take a command).
        let stop = args
            .iter()
            .position(|a| a.as_slice() == b"--")
            .unwrap_or(args.len());
        named.extend(
            args[..stop]
                .iter()
                .filter(|a| !a.starts_with(b"-") && a.as_slice() != sub.as_slice())
                .cloned(),
        );
    }
    for f in &named {
        e.file(f.clone(), Access::Read, true);
    }
    if !named.is_empty() {
        e.file(vec![WILD], Access::Read, true);
    }
}

/// The paths this program writes (for suffixes added to them).
fn writes_of(e: &Effects) -> Vec<Vec<u8>> {
    e.files
        .iter()
        .filter(|u| matches!(u.access, Access::Write | Access::Link) && !u.into)
        .map(|u| u.path.clone())
        .collect()
}

/// GNU sed's `-i[SUFFIX]` / `--in-place[=SUFFIX]`: the backup of each edited file.
fn sed_backups(e: &mut Effects, args: &[Vec<u8>]) {
    let mut suffixes: Vec<Vec<u8>> = Vec::new();
    for a in args {
        if let Some(v) = a.strip_prefix(b"--in-place=") {
            suffixes.push(v.to_vec());
        } else if a.starts_with(b"-") && !a.starts_with(b"--") {
            // `-i.bak`, and `-ni.bak` / `-Ei.bak` (an `i` in a cluster takes the rest).
            if let Some(i) = a[1..].iter().position(|&b| b == b'i') {
                let rest = &a[i + 2..];
                if !rest.is_empty() {
                    suffixes.push(rest.to_vec());
                }
            }
        }
    }
    if suffixes.is_empty() {
        return;
    }
    for file in writes_of(e) {
        for s in &suffixes {
            for b in suffixed(&file, s) {
                e.file(b, Access::Write, false);
            }
        }
    }
}

/// `FILE` + `SUFFIX`, or with `*` in SUFFIX each `*` replaced by FILE's name, placed from
/// the current folder and from FILE's folder (GNU sed and coreutils differ in where).
pub(crate) fn suffixed(file: &[u8], suffix: &[u8]) -> Vec<Vec<u8>> {
    if !suffix.contains(&b'*') {
        let mut v = file.to_vec();
        v.extend_from_slice(suffix);
        return vec![v];
    }
    let (dir, base) = match file.iter().rposition(|&b| b == b'/') {
        Some(i) => (&file[..=i], &file[i + 1..]),
        None => (&b""[..], file),
    };
    let mut name = Vec::new();
    for &c in suffix {
        if c == b'*' {
            name.extend_from_slice(base);
        } else {
            name.push(c);
        }
    }
    let mut placed = dir.to_vec();
    placed.extend_from_slice(&name);
    if placed == name || name.starts_with(b"/") {
        vec![name]
    } else {
        vec![name, placed]
    }
}

/// `-b`, `--backup[=CONTROL]` (not `none`/`off`), or `-S`/`--suffix` alone (which implies
/// simple backups in coreutils 9).
fn backs_up(args: &[Vec<u8>]) -> bool {
    args.iter().any(|a| {
        let t = String::from_utf8_lossy(a);
        (t.starts_with('-') && !t.starts_with("--") && t[1..].contains(['b', 'S']))
            || t == "--backup"
            || (t.starts_with("--backup=") && !matches!(&t[9..], "none" | "off"))
            || t.starts_with("--suffix")
    })
}

/// The backups a copier keeps: DEST+SUFFIX for each file it writes, and DIR/NAME+SUFFIX
/// when the destination is a folder (`cp -b -S .json src/settings .claude/`).
pub(crate) fn backup_copies(e: &mut Effects, n: &str, args: &[Vec<u8>], suffixes: &[Vec<u8>]) {
    if suffixes.is_empty() {
        return;
    }
    let ops: Vec<&Vec<u8>> = args
        .iter()
        .enumerate()
        .filter(|(k, a)| {
            !a.starts_with(b"-")
                && !args.get(k.wrapping_sub(1)).is_some_and(|o| {
                    matches!(
                        o.as_slice(),
                        b"-S" | b"--suffix" | b"-t" | b"--target-directory" | b"-m" | b"-o" | b"-g"
                    )
                })
        })
        .map(|(_, a)| a)
        .collect();
    let mut dests = writes_of(e);
    // The destination as named (a file: its backup), and as a folder (each source's name
    // in it); `-t DIR`: each source's name in DIR.
    let target = opt_values(args, &["-t"], &["--target-directory"]);
    let (dir, srcs): (Option<&Vec<u8>>, &[&Vec<u8>]) = match target.first() {
        Some(t) => (Some(t), &ops[..]),
        None => match ops.split_last() {
            Some((d, s)) => (Some(*d), s),
            None => (None, &[]),
        },
    };
    if target.is_empty() {
        dests.extend(dir.cloned());
    }
    if n != "rsync" {
        if let Some(dir) = dir {
            for s in srcs {
                let name = s
                    .rsplit(|&b| b == b'/')
                    .find(|p| !p.is_empty())
                    .unwrap_or(s);
                let mut p = dir.to_vec();
                if !p.ends_with(b"/") {
                    p.push(b'/');
                }
                p.extend_from_slice(name);
                dests.push(p);
            }
        }
    }
    for d in dests {
        for s in suffixes {
            let mut b = d.clone();
            b.extend_from_slice(s);
            e.file(b, Access::Write, false);
        }
    }
}

/// `csplit [-f PREFIX] [-b FORMAT] FILE PATTERN…`: pieces PREFIX+printf(FORMAT, N).
fn csplit_names(e: &mut Effects, args: &[Vec<u8>]) {
    let prefix = opt_values(args, &["-f"], &["--prefix"])
        .pop()
        .unwrap_or(b"xx".to_vec());
    let format = opt_values(args, &["-b"], &["--suffix-format"])
        .pop()
        .unwrap_or(b"%02d".to_vec());
    // The first pieces exactly (a pattern repeated by `{*}` may make more), then any.
    for k in 0..16 {
        match printf_number(&format, k) {
            Some(s) => {
                let mut p = prefix.clone();
                p.extend_from_slice(&s);
                e.file(p, Access::Write, false);
            }
            None => break,
        }
    }
    let mut any = prefix;
    any.push(WILD);
    e.file(any, Access::Write, false);
}

/// `FORMAT` with its one integer conversion (`%d`, `%02d`, `%.0d`, `%x`, `%o`, `%u`, `%i`)
/// applied to `n`, as printf does; `None` for a format polc does not read.
fn printf_number(format: &[u8], n: u64) -> Option<Vec<u8>> {
    let t = std::str::from_utf8(format).ok()?;
    let i = t.find('%')?;
    let rest = &t[i + 1..];
    let flags_end = rest
        .find(|c: char| !"-+ #0'".contains(c))
        .unwrap_or(rest.len());
    let flags = &rest[..flags_end];
    let rest = &rest[flags_end..];
    let width_end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let width: usize = rest[..width_end].parse().unwrap_or(0);
    let mut rest = &rest[width_end..];
    let mut precision: Option<usize> = None;
    if let Some(r) = rest.strip_prefix('.') {
        let end = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        precision = Some(r[..end].parse().unwrap_or(0));
        rest = &r[end..];
    }
    let conv = rest.chars().next()?;
    let after = &rest[conv.len_utf8()..];
    if after.contains('%') {
        return None;
    }
    let mut digits = match conv {
        'd' | 'i' | 'u' => n.to_string(),
        'x' => format!("{n:x}"),
        'X' => format!("{n:X}"),
        'o' => format!("{n:o}"),
        _ => return None,
    };
    if let Some(p) = precision {
        if p == 0 && n == 0 {
            digits.clear();
        } else if digits.len() < p {
            digits = format!("{}{digits}", "0".repeat(p - digits.len()));
        }
    }
    if digits.len() < width {
        let pad = width - digits.len();
        digits = if flags.contains('-') {
            format!("{digits}{}", " ".repeat(pad))
        } else if flags.contains('0') && precision.is_none() {
            format!("{}{digits}", "0".repeat(pad))
        } else {
            format!("{}{digits}", " ".repeat(pad))
        };
    }
    Some(format!("{}{digits}{after}", &t[..i]).into_bytes())
}

/// Downloaders that name the file after the URL or as the server says: unknown names in
/// the current folder (or the `-o`/`-d`/`-P` folder), unless an output file is given.
fn server_or_url_names(e: &mut Effects, n: &str, args: &[Vec<u8>]) {
    let httpie = matches!(n, "http" | "https" | "xh" | "xhs" | "httpie");
    let has = |short: char, long: &str| {
        args.iter().any(|a| {
            let t = String::from_utf8_lossy(a);
            (t.starts_with('-') && !t.starts_with("--") && t[1..].contains(short))
                || t == long
                || t.starts_with(&format!("{long}="))
        })
    };
    if httpie {
        // `-d`/`--download` without `-o`: Content-Disposition may name it.
        if has('d', "--download") && !has('o', "--output") {
            e.file_into(b".".to_vec());
        }
        return;
    }
    let folders = opt_values(args, &["-P"], &["--directory-prefix", "--output-dir"]);
    let named = match n {
        "axel" => has('o', "--output"),
        "gdown" => has('O', "--output"),
        "fetch" => has('o', "--output"),
        _ => has('O', "--output-document"),
    };
    if folders.is_empty() && !named {
        e.file_into(b".".to_vec());
    }
    for f in folders {
        e.file_into(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_numbers_as_printf() {
        let f =
            |fmt: &str, n| printf_number(fmt.as_bytes(), n).map(|v| String::from_utf8(v).unwrap());
        assert_eq!(f("%02d", 3).as_deref(), Some("03"));
        assert_eq!(f("n%.0d", 0).as_deref(), Some("n"));
        assert_eq!(f("n%.0d", 1).as_deref(), Some("n1"));
        assert_eq!(f("p.json%.0d", 0).as_deref(), Some("p.json"));
        assert_eq!(f("%x.bin", 10).as_deref(), Some("a.bin"));
        assert_eq!(f("%s", 1), None);
    }

    #[test]
    fn backup_names() {
        let s = |f: &str, x: &str| {
            suffixed(f.as_bytes(), x.as_bytes())
                .into_iter()
                .map(|v| String::from_utf8(v).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(s(".claude/settings", ".json"), [".claude/settings.json"]);
        assert_eq!(s("settings.json", ".claude/*"), [".claude/settings.json"]);
        assert_eq!(
            s("src/settings.json", "../.claude/*"),
            ["../.claude/settings.json", "src/../.claude/settings.json"]
        );
        assert_eq!(s("a/b", "bak_*"), ["bak_b", "a/bak_b"]);
    }
}
