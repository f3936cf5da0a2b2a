//! The one walk of a command: its segments (top level and every command found inside one,
//! one level deeper each time), each segment's readings, and the catalogue's effects of
//! every stage. The decision and self-protection both read this, computed once per request.

use super::effects::{self, Access, Effects, FileUse, Inner};
use super::{analyse_segment, parse, Segment, SegmentReadings, MAX_DEPTH, MAX_SEGMENTS, UNKNOWN};
use crate::pattern::WILD;

/// Paths one segment may name before the rest are not checked (and the segment is
/// unattestable).
pub const MAX_FILE_USES: usize = 1024;

/// One segment of the walk.
#[derive(Clone, Debug, Default)]
pub struct Walked {
    pub seg: Segment,
    pub rd: SegmentReadings,
    /// The catalogue's effects of every stage (`sudo cat x`: sudo's, then cat's).
    pub effects: Vec<Effects>,
    /// Files named by redirections (`> f` writes, `< f` reads).
    pub redirects: Vec<FileUse>,
}

impl Walked {
    /// Every path this segment uses: its stages' and its redirections'.
    pub fn file_uses(&self) -> impl Iterator<Item = &FileUse> {
        self.effects
            .iter()
            .flat_map(|e| e.files.iter())
            .chain(self.redirects.iter())
    }
}

/// A whole command, walked.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    pub segments: Vec<Walked>,
    /// Whole-command reasons it cannot be attested (bounds, control characters).
    pub unattestable: Vec<String>,
}

/// Set by [`keep_walks_until_exit`].
static KEEP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A process that exits right after deciding (the `polc` binary: one hook call or one
/// command per process) does not free its walks: a 100 kB command's walk is hundreds of
/// thousands of allocations, and freeing them one by one cost a tenth of the call
/// (issue 12 item 6). The memory goes back when the process exits. Library users (tests,
/// a long-running host) keep the default: walks are freed.
pub fn keep_walks_until_exit() {
    KEEP.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Drop `x`, unless this process keeps its walks until it exits ([`keep_walks_until_exit`]):
/// for the walk's big temporaries (a reading's copy of 16,000 words).
pub(crate) fn discard<T>(x: T) {
    if KEEP.load(std::sync::atomic::Ordering::Relaxed) {
        std::mem::forget(x);
    }
}

impl Drop for Walk {
    fn drop(&mut self) {
        if KEEP.load(std::sync::atomic::Ordering::Relaxed) {
            std::mem::forget(std::mem::take(&mut self.segments));
        }
    }
}

impl Walk {
    /// Folders the command changes into (`cd`, `pushd`, `git -C`), as written; None when
    /// one is unknown (`cd $D`, `cd -`) or there are more than 64, or when `CDPATH` is set
    /// (by the command or in polc's environment) and a `cd`/`pushd` names a relative folder
    /// bash looks up there first
    /// (`CDPATH=/p/.claude cd hooks` lands in `/p/.claude/hooks`).
    pub fn chdirs(&self) -> Option<Vec<Vec<u8>>> {
        // Set in the command, or exported into the agent's environment (and so, most likely,
        // into the shell that runs the command).
        // zsh's lower-case `cdpath` is tied to `CDPATH` (red team, session 6): any case.
        let cdpath = self.segments.iter().any(|w| {
            w.seg
                .text
                .as_bytes()
                .windows(6)
                .any(|x| x.eq_ignore_ascii_case(b"cdpath"))
        }) || std::env::var_os("CDPATH").is_some_and(|v| !v.is_empty());
        let mut out: Vec<Vec<u8>> = Vec::new();
        for w in &self.segments {
            for e in &w.effects {
                let searched = cdpath && matches!(e.program.as_str(), "cd" | "pushd");
                for d in &e.chdir {
                    if d.contains(&WILD) || d.contains(&UNKNOWN) || d.as_slice() == b"-" {
                        return None;
                    }
                    if searched
                        && !(d.starts_with(b"/")
                            || d.starts_with(b"~")
                            || d.starts_with(b"./")
                            || d.starts_with(b"../")
                            || d == b"."
                            || d == b"..")
                    {
                        return None;
                    }
                    if !out.contains(d) {
                        out.push(d.clone());
                    }
                    if out.len() > 64 {
                        return None;
                    }
                }
            }
        }
        Some(out)
    }
}

/// Where a program goes because of its leading assignments: `https_proxy=http://x curl …`
/// through the proxy (a copied segment's effects have it already), `GOPROXY=…`,
/// `PIP_INDEX_URL=…` to the registry.
fn env_destinations(rd: &SegmentReadings, effects: &mut [Effects]) {
    // `https_proxy=http://x curl …`: the request goes through the proxy (a copied
    // segment's effects have it already).
    for (name, value) in rd.env.iter() {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with("_proxy") {
            for e in effects.iter_mut().filter(|e| e.net != effects::Net::No) {
                e.urls.push(String::from_utf8_lossy(value).into_owned());
            }
        } else if downloads_from(&lower) {
            // `GOPROXY=https://bad.org go build`, `PIP_INDEX_URL=… pip install`: the
            // program downloads from there (red team 8, C8-nethost).
            let mut urls = effects::net::hosts_in(&String::from_utf8_lossy(value));
            if value.contains(&UNKNOWN) || value.contains(&WILD) {
                urls.push(String::new());
            }
            for e in effects.iter_mut().filter(|e| !e.program.is_empty()) {
                if !urls.is_empty() {
                    e.urls.extend(urls.iter().cloned());
                    e.net = effects::Net::Yes;
                }
            }
        }
    }
}

/// Files named by leading assignments (red team 8, C8-envoutput, C8-derivedname): a log or
/// report the program writes there (`PIP_LOG=F pip list`, `FFREPORT=file=F ffmpeg`,
/// `SSLKEYLOGFILE=F`, `*_LOG_FILE=F`), the backup suffix of `cp -b`/`mv -b`
/// (`SIMPLE_BACKUP_SUFFIX`, also from polc's own environment, which the agent's shell
/// shares), and any other value that is a path (named: self-protection asks for a
/// protected one).
fn env_files(rd: &SegmentReadings, effects: &mut [Effects]) {
    let mut backup: Option<Vec<u8>> =
        std::env::var_os("SIMPLE_BACKUP_SUFFIX").map(|v| v.as_encoded_bytes().to_vec());
    for (name, value) in rd.env.iter() {
        let lower = name.to_ascii_lowercase();
        let text = String::from_utf8_lossy(value);
        let pathlike = !value.is_empty()
            && !text.contains("://")
            && (value.contains(&b'/') || value.contains(&b'.'))
            && !value.contains(&b',')
            && !value.contains(&b'=');
        let written: Option<Vec<u8>> = if lower == "simple_backup_suffix" {
            backup = Some(value.clone());
            None
        } else if lower == "ffreport" {
            text.split(':')
                .find_map(|kv| kv.strip_prefix("file="))
                .map(|f| f.as_bytes().to_vec())
        } else if pathlike
            && (lower == "sslkeylogfile"
                || lower.ends_with("_log")
                || lower.ends_with("_log_file")
                || lower.ends_with("_logfile")
                || lower.ends_with("histfile")
                || (lower.starts_with("pip_") && lower.contains("log")))
        {
            Some(value.clone())
        } else {
            None
        };
        for e in effects.iter_mut().filter(|e| !e.program.is_empty()) {
            match &written {
                Some(f) => e.file(f.clone(), effects::Access::Write, false),
                None if pathlike && value.contains(&b'/') => {
                    e.file(value.clone(), effects::Access::Unknown, false)
                }
                None => {}
            }
        }
    }
    if let Some(suffix) = backup {
        for (e, stage) in effects.iter_mut().zip(&rd.stages) {
            effects::env_backups(e, stage, &suffix);
        }
    }
}

/// Environment variables (lower-cased) that name where a program downloads from: package
/// indexes, registries, module proxies and mirrors.
fn downloads_from(lower: &str) -> bool {
    matches!(
        lower,
        "goproxy" | "gosumdb" | "goflags" | "rustup_dist_server" | "rustup_update_root"
    ) || lower.ends_with("_index_url")
        || lower.ends_with("_index")
        || lower.ends_with("_registry")
        || lower.ends_with("registry_url")
        || lower.ends_with("_mirror")
        || lower.starts_with("npm_config_")
        || lower.starts_with("yarn_")
        || lower.starts_with("cargo_registries_")
        || lower.starts_with("bundle_mirror")
}

fn push_unique(v: &mut Vec<String>, s: &str) {
    if !v.iter().any(|x| x == s) {
        v.push(s.to_string());
    }
}

/// Walk a command. Never fails: what cannot be read is unattestable.
pub fn walk(command: &str) -> Walk {
    walk_resolving(command, &|_, _| None)
}

/// What a program word that names a file on disk runs: the path it resolves to through
/// symbolic links when that file's name is another program's (`src/g` → `/usr/bin/git`);
/// `None` when it is not a link, does not exist or keeps its name. The second argument is
/// the literal folders the command `cd`s into before it (the word may be relative to any).
/// The walk itself reads no file: the runtime gives this (`runtime::links`), relative to
/// the call's folder.
pub type Resolve<'a> = &'a dyn Fn(&[u8], &[Vec<u8>]) -> Option<Vec<u8>>;

/// Program words resolved through links in one command, at most (each is a system call).
const MAX_LINKED_PROGRAMS: usize = 16;

/// [`walk`], reading a program reached through a symbolic link on disk as the program it
/// runs as well (red team 8, C8-proglink: with `src/g -> /usr/bin/git`, `src/g push --force`
/// was an unknown program `g`). The target's segment is one level deeper and deny-only: deny
/// and ask rules and self-protection read it; allow rules still need the command as written.
pub fn walk_resolving(command: &str, resolve: Resolve<'_>) -> Walk {
    let parsed = parse(command);
    let mut global: Vec<String> = parsed.unattestable.iter().map(|s| s.to_string()).collect();
    let mut work: Vec<Segment> = parsed.segments;
    let mut out: Vec<Walked> = Vec::with_capacity(work.len());
    let mut i = 0;
    // Names rebound in this command (`hash -p PROG NAME`, `BASH_CMDS[NAME]=PROG`, `alias
    // NAME=TEXT`) and the segments already read through a rebinding.
    let mut rebinds: Vec<(Vec<u8>, String)> = Vec::new();
    let mut rebound: Vec<(usize, usize)> = Vec::new();
    let mut speculative = 0usize;
    let mut linked = 0usize;
    let mut dirs: Vec<Vec<u8>> = Vec::new();
    // A segment equal to one already read (`ls x; ls x; …`, the same `$(…)` 4,000 times) has
    // the same readings and effects: both are functions of the segment alone (issue 12,
    // item 6: 10,000 equal segments cost 10,000 analyses). Checked whole; keyed by the text's
    // keyed hash (SipHash with this process's random keys, computed once
    // a segment): no copy of the text, one hash a segment, room for every segment at once.
    let keys = std::collections::hash_map::RandomState::new();
    let mut seen: std::collections::HashMap<u64, usize, Prehashed> =
        std::collections::HashMap::with_capacity_and_hasher(work.len(), Prehashed);
    loop {
        while i < work.len() {
            let seg = std::mem::take(&mut work[i]);
            i += 1;
            let key = std::hash::BuildHasher::hash_one(&keys, seg.text.as_str());
            let same = seen.get(&key).copied().filter(|&k| out[k].seg == seg);
            let (mut rd, cached) = match same {
                Some(k) => (out[k].rd.clone(), Some(out[k].effects.clone())),
                None => (analyse_segment(&seg), None),
            };
            // What a speculative segment cannot attest does not count (see
            // `unknown_program_runs`): its findings stay local.
            let mut scratch: Vec<String> = Vec::new();
            let global_or_scratch = if seg.speculative {
                &mut scratch
            } else {
                &mut global
            };
            inner_segments(&seg, &rd.inner, &mut work, global_or_scratch);
            deny_scripts(&seg, &rd.deny_scripts, &mut work, global_or_scratch);
            let fresh = cached.is_none();
            let mut effects: Vec<Effects> =
                cached.unwrap_or_else(|| rd.stages.iter().map(|s| effects::of(s)).collect());
            // (Not when the segment's runs are read already: `eval`, `sh -c`. At most 256
            // speculative segments a command: each `eval` of `eval eval … rm x` spawned 16.)
            if !seg.speculative
                && rd.inner.is_empty()
                && speculative < 256
                && effects
                    .iter()
                    .any(|e| !e.known && !e.program.is_empty() && e.program != "polc")
            {
                speculative += unknown_program_runs(&seg, &mut work);
            }
            if fresh {
                env_destinations(&rd, &mut effects);
                env_files(&rd, &mut effects);
            }
            let redirects = redirect_uses(&seg);
            let uses = effects.iter().map(|e| e.files.len()).sum::<usize>() + redirects.len();
            if uses > MAX_FILE_USES && fresh {
                rd.unattestable.push("more than 1,024 paths in one command");
            }
            rebinds_of(&seg, &rd, &effects, &mut rebinds);
            if fresh && linked < MAX_LINKED_PROGRAMS {
                linked += linked_programs(&seg, &rd, (resolve, &dirs), &mut work, &mut global);
            }
            for d in effects.iter().flat_map(|e| e.chdir.iter()) {
                if dirs.len() < 8
                    && !d.contains(&WILD)
                    && !d.contains(&UNKNOWN)
                    && !dirs.contains(d)
                {
                    dirs.push(d.clone());
                }
            }
            if fresh {
                seen.insert(key, out.len());
            }
            out.push(Walked {
                seg,
                rd,
                effects,
                redirects,
            });
        }
        let before = work.len();
        read_rebound(&out, &rebinds, &mut rebound, &mut work, &mut global);
        if work.len() == before {
            break;
        }
    }
    through_links(&mut out);
    Walk {
        segments: out,
        unattestable: global,
    }
}

/// The hasher of a map whose keys are hashes already ([`walk`]'s segment texts): the key is
/// its own hash.
#[derive(Clone, Copy, Default)]
struct Prehashed;

impl std::hash::BuildHasher for Prehashed {
    type Hasher = PrehashedKey;
    fn build_hasher(&self) -> PrehashedKey {
        PrehashedKey(0)
    }
}

#[derive(Default)]
struct PrehashedKey(u64);

impl std::hash::Hasher for PrehashedKey {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed here; any other input still spreads.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// A program polc does not know may be a wrapper or runner (`run-this-one rm -rf /`,
/// `tcpclient HOST PORT CMD`, `mispipe 'CMD1' 'CMD2'`: every red team found more). Deny and
/// ask rules read each suffix of its words that starts with a non-option word, and each
/// argument holding a blank as a script, as speculative segments: a match asks.
fn unknown_program_runs(seg: &Segment, work: &mut Vec<Segment>) -> usize {
    let mut new: Vec<Segment> = Vec::new();
    for (k, w) in seg.words.iter().enumerate().skip(1) {
        if new.len() >= 16 {
            break;
        }
        let value = w.lit_value();
        if value.starts_with('-') {
            continue;
        }
        if value.contains(' ') {
            new.extend(parse(&value).segments);
        }
        let words = seg.words[k..].to_vec();
        new.push(Segment {
            text: words
                .iter()
                .map(|w| w.raw.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            words,
            ..Segment::default()
        });
    }
    let mut added = 0;
    for mut s in new {
        if work.len() >= MAX_SEGMENTS || seg.depth + 1 > MAX_DEPTH {
            break;
        }
        s.depth += seg.depth + 1;
        s.deny_only = true;
        s.speculative = true;
        work.push(s);
        added += 1;
    }
    added
}

/// Each stage whose program word is a path (`src/g`, `./g`, `/opt/x/g`) that `resolve` finds
/// to be a link to another program: the stage again under the target's path, as a deny-only
/// segment one level deeper (see [`walk_resolving`]). Returns the number of words resolved.
fn linked_programs(
    seg: &Segment,
    rd: &SegmentReadings,
    (resolve, dirs): (Resolve<'_>, &[Vec<u8>]),
    work: &mut Vec<Segment>,
    global: &mut Vec<String>,
) -> usize {
    let mut n = 0;
    for stage in &rd.stages {
        let Some(prog) = stage.first() else { continue };
        if !prog.contains(&b'/') || prog.iter().any(|&b| b == WILD || b == UNKNOWN) {
            continue;
        }
        n += 1;
        let Some(target) = resolve(prog, dirs) else {
            continue;
        };
        run_as(&sh_quote(&target), stage, seg, true, work, global);
    }
    n
}

/// `stage`'s arguments run by `program` (shell text) as segments one level deeper than
/// `seg`, into `work` (a rebound name, a link's target). Deny-only when `deny_only`, else
/// as `seg` is.
fn run_as(
    program: &str,
    stage: &[Vec<u8>],
    seg: &Segment,
    deny_only: bool,
    work: &mut Vec<Segment>,
    global: &mut Vec<String>,
) {
    let mut script = program.to_string();
    for a in &stage[1..] {
        script.push(' ');
        script.push_str(&sh_quote(a));
    }
    let p = parse(&script);
    for u in p.unattestable {
        push_unique(global, u);
    }
    for mut s in p.segments {
        if work.len() >= MAX_SEGMENTS || seg.depth + 1 > MAX_DEPTH {
            push_unique(global, "nesting deeper than 32");
            break;
        }
        s.depth += seg.depth + 1;
        s.deny_only |= deny_only || seg.deny_only;
        s.speculative |= seg.speculative;
        work.push(s);
    }
}

/// A path through a symbolic link made earlier in the command is also named at the link's
/// target: `mkdir -p y; ln -s .. y/r; head y/r/.env` reads `./.env` (red team, session 5).
/// The target is placed from the link's folder, as the kernel reads it; at most 16 links.
fn through_links(out: &mut [Walked]) {
    let mut links: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    let clean = |p: &[u8]| -> Vec<u8> {
        let p = p.strip_prefix(b"./").unwrap_or(p);
        p.strip_suffix(b"/").unwrap_or(p).to_vec()
    };
    for w in out.iter_mut() {
        for (e, stage) in w.effects.iter_mut().zip(&w.rd.stages) {
            if !links.is_empty() {
                let mut extra = Vec::new();
                for u in &e.files {
                    let path = clean(&u.path);
                    for (name, target) in &links {
                        if let Some(rest) = path.strip_prefix(name.as_slice()) {
                            if rest.is_empty() || rest.starts_with(b"/") {
                                let mut p = target.clone();
                                p.extend_from_slice(rest);
                                extra.push(FileUse {
                                    path: p,
                                    ..u.clone()
                                });
                            }
                        }
                    }
                }
                e.files.extend(extra.into_iter().take(MAX_FILE_USES));
            }
            if !matches!(e.program.as_str(), "ln" | "cp") || links.len() >= 16 {
                continue;
            }
            let args = &stage[1.min(stage.len())..];
            // `ln -s`, and `cp -s`/`--symbolic-link` (which makes links too).
            let symbolic = args.iter().any(|a| {
                matches!(a.as_slice(), b"--symbolic" | b"--symbolic-link")
                    || (a.starts_with(b"-") && !a.starts_with(b"--") && a.contains(&b's'))
            });
            let ops: Vec<&Vec<u8>> = args.iter().filter(|a| !a.starts_with(b"-")).collect();
            if let (true, [target, .., name]) = (symbolic, ops.as_slice()) {
                let name = clean(name);
                let placed = match name.iter().rposition(|&b| b == b'/') {
                    Some(i) if !target.starts_with(b"/") && !target.starts_with(b"~") => {
                        let mut p = name[..=i].to_vec();
                        p.extend_from_slice(target);
                        p
                    }
                    _ => target.to_vec(),
                };
                links.push((name, placed));
            }
        }
    }
}

/// Commands run by a segment become segments of their own, one level deeper.
fn inner_segments(
    seg: &Segment,
    inners: &[Inner],
    work: &mut Vec<Segment>,
    global: &mut Vec<String>,
) {
    for inner in inners {
        if seg.depth + 1 > MAX_DEPTH {
            push_unique(global, "nesting deeper than 32");
            break;
        }
        let mut new: Vec<Segment> = match inner {
            Inner::Script(s) => {
                let p = parse(s);
                for u in p.unattestable {
                    push_unique(global, u);
                }
                p.segments
            }
            Inner::Words(ws) => vec![Segment {
                text: ws
                    .iter()
                    .map(|w| w.raw.as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
                words: ws.clone(),
                ..Segment::default()
            }],
        };
        for s in &mut new {
            s.depth += seg.depth + 1;
            s.deny_only |= seg.deny_only;
            s.speculative |= seg.speculative;
        }
        for s in new {
            if work.len() >= MAX_SEGMENTS {
                push_unique(global, "more than 10,000 segments");
                break;
            }
            work.push(s);
        }
    }
}

/// Assigned text a later expansion may run (`x='a[$(rm -rf ~)]'; echo $[x]`): deny rules
/// read it; it never needs an allow.
fn deny_scripts(
    seg: &Segment,
    texts: &[String],
    work: &mut Vec<Segment>,
    global: &mut Vec<String>,
) {
    for text in texts {
        if seg.depth + 1 > MAX_DEPTH {
            break;
        }
        for mut s in parse(text).segments {
            s.depth += seg.depth + 1;
            s.deny_only = true;
            s.speculative |= seg.speculative;
            if work.len() >= MAX_SEGMENTS {
                push_unique(global, "more than 10,000 segments");
                break;
            }
            work.push(s);
        }
    }
}

/// Files a segment's redirections read or write.
fn redirect_uses(seg: &Segment) -> Vec<FileUse> {
    let mut out = Vec::new();
    for red in &seg.redirects {
        let (true, Some(t)) = (red.file, &red.target) else {
            continue;
        };
        let mut budget = super::MAX_BRACE_WORDS;
        let unknown = t.parts.iter().any(|p| matches!(p, super::Part::Unknown(_)));
        let path = t
            .deny_values(&mut budget)
            .and_then(|v| (v.len() == 1).then(|| v.into_iter().next()).flatten())
            .map(|v| {
                if unknown {
                    v.iter()
                        .map(|&b| if b == WILD { UNKNOWN } else { b })
                        .collect()
                } else {
                    v
                }
            })
            .unwrap_or(vec![UNKNOWN]);
        let access = if red.op.starts_with('<') && red.op != "<>" {
            Access::Read
        } else {
            Access::Write
        };
        out.push(FileUse {
            path: effects::tilde(&path),
            access,
            recursive: false,
            into: false,
        });
    }
    out
}

/// A word as shell text that reads back as the same word (`'…'`, quotes escaped).
fn sh_quote(v: &[u8]) -> String {
    let t = String::from_utf8_lossy(v);
    format!("'{}'", t.replace('\'', "'\\''"))
}

/// Whether `w.lit_value()` starts with `p`, without building it.
fn lit_starts_with(w: &super::Word, mut p: &[u8]) -> bool {
    for part in &w.parts {
        let (super::Part::Lit(t) | super::Part::Quoted(t) | super::Part::Unknown(t)) = part;
        let t = t.as_bytes();
        let k = p.len().min(t.len());
        if t[..k] != p[..k] {
            return false;
        }
        p = &p[k..];
        if p.is_empty() {
            return true;
        }
    }
    p.is_empty()
}

/// Names this segment rebinds: `hash -p PROG NAME…` (also `-pPROG`), `BASH_CMDS[NAME]=PROG`,
/// `BASH_ALIASES[NAME]=TEXT` and `alias NAME=TEXT`, as (name, shell text it now runs).
fn rebinds_of(
    seg: &Segment,
    rd: &SegmentReadings,
    effects: &[Effects],
    out: &mut Vec<(Vec<u8>, String)>,
) {
    let mut add = |name: &[u8], to: String| {
        let e = (name.to_vec(), to);
        if !name.is_empty() && !out.contains(&e) && out.len() < 64 {
            out.push(e);
        }
    };
    for w in &seg.words {
        // Only these words matter: the others are not copied (segments hold 16,000).
        if !(lit_starts_with(w, b"BASH_CMDS[") || lit_starts_with(w, b"BASH_ALIASES[")) {
            continue;
        }
        let v = w.lit_value();
        for (arr, is_prog) in [("BASH_CMDS[", true), ("BASH_ALIASES[", false)] {
            if let Some(rest) = v.strip_prefix(arr) {
                if let Some((name, to)) = rest.split_once("]=") {
                    let name = name.trim_matches(|c| c == '\'' || c == '"');
                    let to = if is_prog {
                        sh_quote(to.as_bytes())
                    } else {
                        to.to_string()
                    };
                    add(name.as_bytes(), to);
                }
            }
        }
    }
    for (i, stage) in rd.stages.iter().enumerate() {
        let Some((prog, args)) = stage.split_first() else {
            continue;
        };
        // The stage's effects name its program already (`effects::of`): not found again.
        let name = match effects.get(i) {
            Some(e) => std::borrow::Cow::Borrowed(e.program.as_str()),
            None => std::borrow::Cow::Owned(effects::program_name(prog)),
        };
        match name.as_ref() {
            "hash" => {
                let mut target: Option<Vec<u8>> = None;
                let mut k = 0;
                while k < args.len() {
                    let a = &args[k];
                    k += 1;
                    if target.is_none() && a.starts_with(b"-") && a.len() > 1 {
                        if let Some(i) = a.iter().position(|&b| b == b'p') {
                            if i + 1 < a.len() {
                                target = Some(a[i + 1..].to_vec());
                            } else if let Some(t) = args.get(k) {
                                target = Some(t.clone());
                                k += 1;
                            }
                        }
                        continue;
                    }
                    if let Some(t) = &target {
                        if !a.starts_with(b"-") {
                            add(a, sh_quote(t));
                        }
                    } else if let Some(i) = a.iter().position(|&b| b == b'=') {
                        // zsh's `hash x=/bin/rm`: `x` now runs /bin/rm.
                        add(&a[..i], sh_quote(&a[i + 1..]));
                    }
                }
            }
            "alias" => {
                for a in args {
                    if let Some(i) = a.iter().position(|&b| b == b'=') {
                        add(&a[..i], String::from_utf8_lossy(&a[i + 1..]).into_owned());
                    }
                }
            }
            // `ln -s /bin/rm x; ./x -rf /`, `cp /bin/rm b/; b/rm -rf /`: the new name runs
            // the program it links to or copies.
            "ln" | "cp" | "gcp" | "install" | "ginstall" | "link" | "mv" => {
                let ops: Vec<&Vec<u8>> = args.iter().filter(|a| !a.starts_with(b"-")).collect();
                if let [src, .., dest] = ops.as_slice() {
                    let mut name = dest.to_vec();
                    if name.ends_with(b"/") {
                        name.extend_from_slice(effects::basename(src));
                    }
                    let to = sh_quote(src);
                    let bare = name.strip_prefix(b"./").unwrap_or(&name).to_vec();
                    let mut dotted = b"./".to_vec();
                    dotted.extend_from_slice(&bare);
                    add(&bare, to.clone());
                    add(&dotted, to);
                }
            }
            _ => {}
        }
    }
}

/// A later use of a rebound name runs the program (or text) it was bound to: read it so,
/// one level deeper, so deny rules and self-protection see `rm -rf /` in
/// `hash -p /bin/rm zz; zz -rf /`. New segments go to `work`.
fn read_rebound(
    out: &[Walked],
    rebinds: &[(Vec<u8>, String)],
    rebound: &mut Vec<(usize, usize)>,
    work: &mut Vec<Segment>,
    global: &mut Vec<String>,
) {
    // A later use of a rebound name runs the program (or text) it was bound to: read it so,
    // one level deeper, so deny rules and self-protection see `rm -rf /` in
    // `hash -p /bin/rm zz; zz -rf /`.
    for (k, w) in out.iter().enumerate() {
        for (b, (name, to)) in rebinds.iter().enumerate() {
            if rebound.contains(&(k, b)) {
                continue;
            }
            for stage in &w.rd.stages {
                if stage.first() != Some(name) {
                    continue;
                }
                rebound.push((k, b));
                run_as(to, stage, &w.seg, false, work, global);
                break;
            }
        }
    }
}
