//! Lowering: sources → [`ir::Policy`]. Reads files and directories, resolves includes,
//! validates every rule and example (collecting every error, not just the first), derives
//! ids, and stamps each file read. Validation rules and codes: `src/lower/README.md`.

use crate::ir::{self, Decision, Pattern, PatternKind, Policy, SourceStamp, Span, Tier};
use crate::syntax::{
    self, file_name, AstExample, AstRule, Diagnostic, Diagnostics, Item, Located, SourceKind,
    SourceText,
};
use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

mod session;

/// Read every source (a `.pol` file, a `permcheck.json`, a directory of them (recursively,
/// sorted by path for determinism, only *.pol and permcheck.json / *.json files that are
/// polc policies), or an agent settings file `settings.json`/`settings.local.json` whose
/// `permissions` block is read and every other key ignored). Returns the policy (rules in
/// source order, examples, and `sources: Vec<SourceStamp>` for every file read, with `path`
/// made relative to `stamp_base` when possible, `size`, `hash = ir::fnv1a64(content)`), plus
/// warnings; or every error found.
pub fn load(
    sources: &[PathBuf],
    tier: Tier,
    stamp_base: Option<&Path>,
) -> Result<(Policy, Diagnostics), Diagnostics> {
    let mut l = Loader::new(tier, stamp_base);
    for s in sources {
        l.add_path(s, &s.display().to_string(), None);
    }
    l.finish()
}

/// [`load`] plus in-memory DSL texts (`polc build --from HOST`: an agent's native rules,
/// imported at build time). Each text is stamped under its name, which is no file: the
/// table's freshness check skips a source that does not exist, so the native rules are a
/// snapshot, never a stale source (`polc explain` reports drift instead).
pub fn load_with_texts(
    sources: &[PathBuf],
    texts: &[(String, String)],
    tier: Tier,
    stamp_base: Option<&Path>,
) -> Result<(Policy, Diagnostics), Diagnostics> {
    let mut l = Loader::new(tier, stamp_base);
    for s in sources {
        l.add_path(s, &s.display().to_string(), None);
    }
    for (name, text) in texts {
        l.sources.push(SourceStamp {
            path: name.clone(),
            size: text.len() as u64,
            hash: ir::fnv1a64(text.as_bytes()),
        });
        let path = PathBuf::from(name);
        l.loaded.insert(canonical(&path));
        l.read_text(name, text.clone(), &path);
    }
    l.finish()
}

/// Same, from in-memory text (for tests and the conformance runner): `name` is the file name
/// used in spans and to pick the front end (`*.json` → JSON, else DSL). Includes are resolved
/// relative to `name` on disk.
pub fn load_str(name: &str, text: &str, tier: Tier) -> Result<(Policy, Diagnostics), Diagnostics> {
    let mut l = Loader::new(tier, None);
    l.sources.push(SourceStamp {
        path: name.to_string(),
        size: text.len() as u64,
        hash: ir::fnv1a64(text.as_bytes()),
    });
    let path = PathBuf::from(name);
    l.loaded.insert(canonical(&path));
    l.read_text(name, text.to_string(), &path);
    l.finish()
}

struct Loader<'a> {
    tier: Tier,
    stamp_base: Option<&'a Path>,
    diags: Diagnostics,
    /// Every text read, by the name used in its spans (for snippets of later errors).
    texts: HashMap<String, SourceText>,
    rules: Vec<AstRule>,
    examples: Vec<AstExample>,
    sources: Vec<SourceStamp>,
    /// Canonical paths of files already read (a file is read once, wherever it is named).
    loaded: HashSet<PathBuf>,
    /// Canonical paths of the include chain being read (for cycle detection).
    stack: Vec<PathBuf>,
    /// `session …` and `sequence` items, in source order (`session.rs`).
    session_items: Vec<crate::syntax::Item>,
    /// Ids of the rules marked `remember` (`session.rs`).
    remember: Vec<String>,
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

fn slash(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// `path` relative to `base` (both canonical), with `..` steps when needed.
fn relative(path: &Path, base: &Path) -> Option<PathBuf> {
    let p: Vec<Component<'_>> = path.components().collect();
    let b: Vec<Component<'_>> = base.components().collect();
    if p.first() != b.first() {
        return None;
    }
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    Some(out)
}

fn whole_file(path: &str) -> Span {
    Span {
        file: path.to_string(),
        line: 0,
        column: 0,
    }
}

impl<'a> Loader<'a> {
    fn new(tier: Tier, stamp_base: Option<&'a Path>) -> Loader<'a> {
        Loader {
            tier,
            stamp_base,
            diags: Diagnostics::new(),
            texts: HashMap::new(),
            rules: Vec::new(),
            examples: Vec::new(),
            sources: Vec::new(),
            loaded: HashSet::new(),
            stack: Vec::new(),
            session_items: Vec::new(),
            remember: Vec::new(),
        }
    }

    /// A diagnostic at a located token, with its line's text.
    fn at(
        &self,
        code: crate::syntax::codes::Code,
        msg: impl Into<String>,
        span: &Span,
        len: u32,
    ) -> Diagnostic {
        let line = self
            .texts
            .get(&span.file)
            .map(|t| t.line_text(span.line).to_string())
            .unwrap_or_default();
        Diagnostic::error(code, msg, span.clone())
            .with_len(len)
            .with_line(line)
    }

    fn stamp_path(&self, path: &Path) -> String {
        if let Some(base) = self.stamp_base {
            if let Ok(rel) = path.strip_prefix(base) {
                return slash(rel);
            }
            if let (Ok(p), Ok(b)) = (std::fs::canonicalize(path), std::fs::canonicalize(base)) {
                if let Some(rel) = relative(&p, &b) {
                    return slash(&rel);
                }
            }
        }
        slash(path)
    }

    /// A source named on the command line, by a directory walk or by an include.
    fn add_path(&mut self, path: &Path, display: &str, include: Option<&Located<String>>) {
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() && include.is_none() => self.add_dir(path),
            Ok(_) => self.add_file(path, display, include),
            Err(e) => self.unreadable(display, include, &e.to_string()),
        }
    }

    fn unreadable(&mut self, display: &str, include: Option<&Located<String>>, err: &str) {
        let d = match include {
            Some(inc) => self
                .at(
                    crate::syntax::codes::E010,
                    format!("cannot read included file `{display}`: {err}"),
                    &inc.span,
                    inc.len,
                )
                .with_help("include paths are relative to the including file"),
            None => Diagnostic::error(
                crate::syntax::codes::E002,
                format!("cannot read `{display}`: {err}"),
                whole_file(display),
            ),
        };
        self.diags.push(d);
    }

    fn add_dir(&mut self, dir: &Path) {
        let mut files = Vec::new();
        let mut dirs = Vec::new();
        let mut seen_dirs = HashSet::new();
        if let Err(e) = walk(dir, &mut files, &mut dirs, &mut seen_dirs) {
            self.diags.push(Diagnostic::error(
                crate::syntax::codes::E002,
                format!("cannot read directory `{}`: {e}", dir.display()),
                whole_file(&dir.display().to_string()),
            ));
        }
        files.sort();
        for f in files {
            let display = f.display().to_string();
            let name = file_name(&display);
            let wanted = if name.ends_with(".pol") || name == "permcheck.json" {
                true
            } else if name.ends_with(".json") {
                SourceKind::for_name(name) == SourceKind::AgentSettings || is_polc_json(&f)
            } else {
                false
            };
            if wanted {
                self.add_file(&f, &display, None);
            }
        }
        // Each folder walked, by its listing: a source added later makes the table stale.
        dirs.sort();
        for d in dirs {
            if let Ok(hash) = crate::table::dir_listing_hash(&d) {
                self.sources.push(SourceStamp {
                    path: self.stamp_path(&d),
                    size: ir::DIR_STAMP,
                    hash,
                });
            }
        }
    }

    fn add_file(&mut self, path: &Path, display: &str, include: Option<&Located<String>>) {
        let canon = canonical(path);
        if self.stack.contains(&canon) {
            if let Some(inc) = include {
                let chain: Vec<String> = self
                    .stack
                    .iter()
                    .map(|p| p.display().to_string())
                    .chain(std::iter::once(canon.display().to_string()))
                    .collect();
                let d = self
                    .at(
                        crate::syntax::codes::E009,
                        format!("include cycle: `{display}` includes itself"),
                        &inc.span,
                        inc.len,
                    )
                    .with_help(format!("cycle: {}", chain.join(" -> ")));
                self.diags.push(d);
            }
            return;
        }
        if self.loaded.contains(&canon) {
            return;
        }
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => return self.unreadable(display, include, &e.to_string()),
        };
        self.loaded.insert(canon);
        self.sources.push(SourceStamp {
            path: self.stamp_path(path),
            size: bytes.len() as u64,
            hash: ir::fnv1a64(&bytes),
        });
        match String::from_utf8(bytes) {
            Ok(text) => self.read_text(display, text, path),
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let bytes = e.into_bytes();
                let prefix = String::from_utf8_lossy(&bytes[..valid]).into_owned();
                let src = SourceText::new(display, prefix);
                let (line, column) = src.line_col(valid);
                let line_start = bytes[..valid]
                    .iter()
                    .rposition(|b| *b == b'\n')
                    .map_or(0, |i| i + 1);
                let line_end = bytes[valid..]
                    .iter()
                    .position(|b| *b == b'\n')
                    .map_or(bytes.len(), |i| valid + i);
                let line_text = String::from_utf8_lossy(&bytes[line_start..line_end])
                    .trim_end_matches('\r')
                    .to_string();
                self.diags.push(
                    Diagnostic::error(
                        crate::syntax::codes::E008,
                        format!(
                            "invalid UTF-8 in `{display}` (byte 0x{:02x} at offset {valid})",
                            bytes[valid]
                        ),
                        Span {
                            file: display.to_string(),
                            line,
                            column,
                        },
                    )
                    .with_line(line_text)
                    .with_help("policy sources must be UTF-8 text"),
                );
            }
        }
    }

    /// Parse one text and take in its items; includes are read where they appear.
    fn read_text(&mut self, display: &str, text: String, path: &Path) {
        let src = SourceText::new(display, text);
        let ast = syntax::parse_source(&src, &mut self.diags);
        self.texts.insert(display.to_string(), src);
        self.stack.push(canonical(path));
        for item in ast.items {
            match item {
                Item::Rule(r) => {
                    // Examples in source order: a rule's own examples where the rule is.
                    self.examples.extend(r.examples.iter().cloned());
                    self.rules.push(r);
                }
                Item::Example(e) => self.examples.push(e),
                it @ (Item::Session(_) | Item::Sequence(_) | Item::Rewrite(_)) => {
                    self.session_items.push(it)
                }
                Item::Include(inc) => {
                    let target = Path::new(&inc.value);
                    let resolved = if target.is_absolute() {
                        target.to_path_buf()
                    } else {
                        path.parent().unwrap_or(Path::new("")).join(target)
                    };
                    let shown = resolved.display().to_string();
                    if std::fs::metadata(&resolved).is_ok_and(|m| m.is_dir()) {
                        let d = self
                            .at(
                                crate::syntax::codes::E010,
                                format!("included path `{shown}` is a directory"),
                                &inc.span,
                                inc.len,
                            )
                            .with_help(
                                "include names one file; give directories to `polc build` instead",
                            );
                        self.diags.push(d);
                        continue;
                    }
                    self.add_path(&resolved, &shown, Some(&inc));
                }
            }
        }
        self.stack.pop();
    }

    fn finish(mut self) -> Result<(Policy, Diagnostics), Diagnostics> {
        let rules = std::mem::take(&mut self.rules);
        let examples = std::mem::take(&mut self.examples);
        let mut explicit: HashMap<String, Span> = HashMap::new();
        for r in &rules {
            if let Some(id) = &r.id {
                if let Some(first) = explicit.get(&id.value) {
                    let d = self
                        .at(
                            crate::syntax::codes::E007,
                            format!("duplicate rule id `{}`", id.value),
                            &id.span,
                            id.len,
                        )
                        .with_help(format!(
                            "first defined at {first}; ids must be unique across all sources"
                        ));
                    self.diags.push(d);
                } else {
                    explicit.insert(id.value.clone(), id.span.clone());
                }
            }
        }
        let mut taken: HashSet<String> = explicit.keys().cloned().collect();
        let mut out = Vec::with_capacity(rules.len());
        for r in rules {
            let id = match &r.id {
                Some(id) => id.value.clone(),
                None => derive_id(&r.span, &mut taken),
            };
            let remember = r.remember.clone();
            if let Some(rule) = self.rule(r, id) {
                self.remember_rule(&rule, remember);
                out.push(rule);
            }
        }
        let examples: Vec<ir::Example> = examples
            .into_iter()
            .filter_map(|e| self.example(e))
            .collect();
        let session = self.lower_session(&mut taken, &explicit);
        if self.diags.has_errors() {
            return Err(self.diags);
        }
        Ok((
            Policy {
                rules: out,
                examples,
                sources: self.sources,
                session,
            },
            self.diags,
        ))
    }

    fn hosts_ok(&mut self, hosts: &[Located<String>]) -> bool {
        let mut ok = true;
        for h in hosts {
            if !crate::hosts::is_known_host(&h.value) {
                ok = false;
                let known: Vec<&str> = crate::hosts::ALL.iter().map(|h| h.name()).collect();
                let d = self
                    .at(
                        crate::syntax::codes::E004,
                        format!("unknown host `{}`", h.value),
                        &h.span,
                        h.len,
                    )
                    .with_help(format!("expected one of {}", known.join(", ")));
                self.diags.push(d);
            }
        }
        ok
    }

    fn rule(&mut self, r: AstRule, id: String) -> Option<ir::Rule> {
        let mut ok = self.hosts_ok(r.hosts.as_deref().unwrap_or(&[]));
        let mut patterns = Vec::with_capacity(r.patterns.len().max(1));
        for p in &r.patterns {
            let Pattern { kind, text } = &p.value;
            let needs_text = !matches!(kind, PatternKind::Any);
            if needs_text && text.trim().is_empty() {
                ok = false;
                let d = self
                    .at(
                        crate::syntax::codes::E005,
                        format!("empty {} pattern", kind.as_str()),
                        &p.span,
                        p.len,
                    )
                    .with_help(
                        "a pattern needs some text; use `any` to match every call of the tool",
                    );
                self.diags.push(d);
                continue;
            }
            if *kind == PatternKind::Regex {
                if let Err(msg) = crate::content::build_regex_dfa(text) {
                    ok = false;
                    // The DFA builder's message is terse ("error building NFA"); the regex
                    // parser says what is wrong, when the problem is the syntax.
                    let first = match regex_automata::util::syntax::parse(text) {
                        Err(e) => e
                            .to_string()
                            .lines()
                            .find_map(|l| l.strip_prefix("error: "))
                            .map_or(msg.clone(), str::to_string),
                        Ok(_) => msg.clone(),
                    };
                    let d = self
                        .at(crate::syntax::codes::E006, format!("invalid regex: {first}"), &p.span, p.len)
                        .with_help("regexes use regex-automata syntax without look-around or backreferences, and must compile to a DFA under the size cap");
                    self.diags.push(d);
                    continue;
                }
            }
            patterns.push(p.value.clone());
        }
        if r.patterns.is_empty() {
            patterns.push(Pattern {
                kind: PatternKind::Any,
                text: String::new(),
            });
        }
        let priority = match &r.priority {
            None => 0,
            Some(p) => match i32::try_from(p.value) {
                Ok(v) => v,
                Err(_) => {
                    ok = false;
                    let d = self
                        .at(
                            crate::syntax::codes::E014,
                            "priority out of range",
                            &p.span,
                            p.len,
                        )
                        .with_help(format!(
                            "priority must be between {} and {}",
                            i32::MIN,
                            i32::MAX
                        ));
                    self.diags.push(d);
                    0
                }
            },
        };
        if !ok {
            return None;
        }
        Some(ir::Rule {
            id,
            verdict: r.verdict,
            tool: r.tool,
            patterns,
            reason: r.reason,
            priority,
            hosts: r
                .hosts
                .unwrap_or_default()
                .into_iter()
                .map(|h| h.value)
                .collect(),
            tags: r.tags,
            text: r.text,
            span: r.span,
            tier: self.tier,
        })
    }

    fn example(&mut self, e: AstExample) -> Option<ir::Example> {
        let mut ok = true;
        if let Some(h) = &e.host {
            ok &= self.hosts_ok(std::slice::from_ref(h));
        }
        let expect = Decision::parse(&e.expect.value);
        if expect.is_none() {
            ok = false;
            let d = self
                .at(
                    crate::syntax::codes::E011,
                    format!("bad example expectation `{}`", e.expect.value),
                    &e.expect.span,
                    e.expect.len,
                )
                .with_help("expected allow, ask, deny or default");
            self.diags.push(d);
        }
        if !ok {
            return None;
        }
        Some(ir::Example {
            tool: e.tool,
            input: e.input,
            host: e.host.map(|h| h.value),
            expect: expect?,
            span: e.span,
        })
    }
}

/// `<file name>:<line>`; if that is taken (two rules on one JSON line, or two files of the
/// same name), `<file name>:<line>:<column>`, then `<path>:<line>:<column>`.
fn derive_id(span: &Span, taken: &mut HashSet<String>) -> String {
    let name = file_name(&span.file);
    let candidates = [
        format!("{name}:{}", span.line),
        format!("{name}:{}:{}", span.line, span.column),
        format!("{}:{}:{}", span.file, span.line, span.column),
    ];
    for c in &candidates {
        if !taken.contains(c) {
            taken.insert(c.clone());
            return c.clone();
        }
    }
    let mut n = 2;
    loop {
        let c = format!("{}#{n}", candidates[2]);
        if taken.insert(c.clone()) {
            return c;
        }
        n += 1;
    }
}

/// Every file under `dir`, recursively (directory symlink loops are skipped).
/// The folders walked go to `dirs` (each is stamped: a new source there makes the table
/// stale).
fn walk(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    dirs: &mut Vec<PathBuf>,
    seen: &mut HashSet<PathBuf>,
) -> std::io::Result<()> {
    if !seen.insert(canonical(dir)) {
        return Ok(());
    }
    dirs.push(dir.to_path_buf());
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
            walk(&path, out, dirs, seen)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// A `*.json` found in a directory is a polc policy when its top level is an object with a
/// `permissions` or `rules` key, or when it is not valid JSON at all (a broken policy must
/// be reported, not skipped). Other JSON files (package.json, tsconfig.json, …) are skipped.
fn is_polc_json(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return true; // let add_file report it
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return true;
    };
    match syntax::json::parse_json(&SourceText::new("", text)) {
        Err(_) => true,
        Ok(node) => match node.value {
            syntax::json::JValue::Obj(pairs) => pairs.iter().any(|(k, _)| {
                matches!(&k.value, syntax::json::JValue::Str(s) if s == "permissions" || s == "rules")
            }),
            _ => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Verdict;

    fn fixture(rel: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/syntax")
            .join(rel)
    }

    fn codes(d: &Diagnostics) -> Vec<(crate::syntax::codes::Code, u32, u32)> {
        d.iter()
            .map(|d| (d.code, d.span.line, d.span.column))
            .collect()
    }

    fn load_err(name: &str, text: &str) -> Diagnostics {
        load_str(name, text, Tier::Project).expect_err("should fail")
    }

    #[test]
    fn dsl_lowers_to_ir() {
        let (p, w) = load(&[fixture("default.pol")], Tier::User, Some(&fixture(""))).unwrap();
        assert!(w.is_empty(), "{}", w.render_all());
        let ids: Vec<&str> = p.rules.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(
            ids,
            vec![
                "no-force-push",
                "git.pol:11",
                "default.pol:4",
                "default.pol:9",
                "default.pol:10",
                "default.pol:11",
                "default.pol:12"
            ]
        );
        let force = &p.rules[0];
        assert_eq!(force.verdict, Verdict::Deny);
        assert_eq!(force.priority, 10);
        assert_eq!(force.hosts, vec!["claude", "codex"]);
        assert_eq!(force.tier, Tier::User);
        assert_eq!(force.patterns.len(), 3);
        assert!(force.span.file.ends_with("git.pol"));
        assert_eq!((force.span.line, force.span.column), (1, 1));
        let task = &p.rules[4];
        assert_eq!(task.tool, "Task");
        assert_eq!(task.patterns[0].kind, PatternKind::Any);
        assert_eq!(task.text, "ask tool \"Task\" any");
        // No pattern at all = any.
        assert_eq!(p.rules[5].tool, "mcp__github__delete_repo");
        assert_eq!(
            p.rules[5].patterns,
            vec![Pattern {
                kind: PatternKind::Any,
                text: String::new()
            }]
        );
        // Examples: in rules (in rule order) then top-level ones.
        assert_eq!(p.examples.len(), 5);
        assert_eq!(p.examples[1].host.as_deref(), Some("openclaw"));
        assert_eq!(p.examples[1].expect, Decision::Default);
        assert_eq!(p.examples[4].tool, "read");
        // Both files are stamped, relative to the base.
        let stamps: Vec<&str> = p.sources.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(stamps, vec!["default.pol", "git.pol"]);
        let text = std::fs::read(fixture("git.pol")).unwrap();
        assert_eq!(p.sources[1].hash, ir::fnv1a64(&text));
        assert_eq!(p.sources[1].size, text.len() as u64);
    }

    #[test]
    fn semantic_errors_are_reported_together() {
        let text = "deny bash prefix \"x\" {\n  id a\n  hosts claude nosuchhost\n}\ndeny bash prefix \"  \"\nask bash regex '(unclosed'\nallow bash exact \"y\" {\n  id a\n  priority 3000000000\n  example \"y\" => maybe\n  example \"y\" on mars => allow\n}\n";
        let d = load_err("p.pol", text);
        assert_eq!(
            codes(&d),
            vec![
                (crate::syntax::codes::E007, 8, 6),
                (crate::syntax::codes::E004, 3, 16),
                (crate::syntax::codes::E005, 5, 18),
                (crate::syntax::codes::E006, 6, 16),
                (crate::syntax::codes::E014, 9, 12),
                (crate::syntax::codes::E011, 10, 18),
                (crate::syntax::codes::E004, 11, 18),
            ],
            "{}",
            d.render_all()
        );
        let dup = &d.0[0];
        assert_eq!(
            dup.help.as_deref(),
            Some("first defined at p.pol:2:6; ids must be unique across all sources")
        );
        assert_eq!(dup.line_text, "  id a");
        assert_eq!(d.0[3].message, "invalid regex: unclosed group");
        assert_eq!(d.0[1].len, 10);
    }

    #[test]
    fn syntax_and_semantic_errors_from_several_regions() {
        let text =
            "deny bsah prefix \"x\"\nallow bash prefix \"ok\" extra\ndeny bash prefix \"\"\n";
        let d = load_err("p.pol", text);
        assert_eq!(
            codes(&d),
            vec![
                (crate::syntax::codes::E003, 1, 6),
                (crate::syntax::codes::E001, 2, 24),
                (crate::syntax::codes::E005, 3, 18)
            ]
        );
    }

    #[test]
    fn unreadable_file() {
        let d = load(&[fixture("nope.pol")], Tier::Project, None).unwrap_err();
        assert_eq!(codes(&d), vec![(crate::syntax::codes::E002, 0, 0)]);
        assert!(d.0[0].message.contains("nope.pol"));
        assert!(d.0[0].render().contains("--> "));
    }

    #[test]
    fn invalid_utf8_points_at_the_byte() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("bad.pol");
        std::fs::write(&f, b"deny bash any\nallow bash exact \"caf\xe9\"\n").unwrap();
        let d = load(&[f], Tier::Project, None).unwrap_err();
        assert_eq!(codes(&d), vec![(crate::syntax::codes::E008, 2, 22)]);
        assert!(d.0[0].message.contains("0xe9"));
    }

    #[test]
    fn include_cycle_and_missing_include() {
        let d = load(&[fixture("cycle/a.pol")], Tier::Project, None).unwrap_err();
        assert_eq!(codes(&d), vec![(crate::syntax::codes::E009, 2, 9)]);
        assert!(d.0[0].span.file.ends_with("b.pol"));
        let d = load_err(
            fixture("x.pol").to_str().unwrap(),
            "include \"missing.pol\"\ninclude \"dir\"\n",
        );
        assert_eq!(
            codes(&d),
            vec![
                (crate::syntax::codes::E010, 1, 9),
                (crate::syntax::codes::E010, 2, 9)
            ]
        );
    }

    #[test]
    fn directories_load_sorted_and_deterministic() {
        let base = fixture("");
        let (p, _) = load(&[fixture("dir")], Tier::Project, Some(&base)).unwrap();
        let got: Vec<(String, String)> = p
            .rules
            .iter()
            .map(|r| (r.id.clone(), r.patterns[0].text.clone()))
            .collect();
        let want = [
            ("shared.pol:1", "docker"),
            ("a.pol:2", "reboot"),
            ("b.pol:1", "shutdown"),
            ("extra.json:1", "curl"),
            ("permcheck.json:2", "mkfs:*"),
            ("permcheck.json:2:56", "ls"),
            ("permcheck.json:2:68", "pwd"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(got, want);
        let stamps: Vec<&str> = p.sources.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(
            stamps,
            vec![
                "dir/a.pol",
                "dir/sub/shared.pol",
                "dir/b.pol",
                "dir/z/extra.json",
                "dir/z/permcheck.json",
                // Each folder walked, by its listing (red team, session 8).
                "dir",
                "dir/sub",
                "dir/z",
            ]
        );
        let dirs: Vec<&ir::SourceStamp> = p
            .sources
            .iter()
            .filter(|s| s.size == ir::DIR_STAMP)
            .collect();
        assert_eq!(dirs.len(), 3);
        assert_eq!(
            dirs[0].hash,
            crate::table::dir_listing_hash(&fixture("dir")).unwrap()
        );
        let again = load(&[fixture("dir")], Tier::Project, Some(&base))
            .unwrap()
            .0;
        assert_eq!(p, again);
        // Relative to a sibling folder (the table's), with `..`.
        let (p, _) = load(
            &[fixture("dir/b.pol")],
            Tier::Project,
            Some(&fixture("cycle")),
        )
        .unwrap();
        assert_eq!(p.sources[0].path, "../dir/b.pol");
    }

    #[test]
    fn claude_settings_file_reads_only_permissions() {
        let (p, w) = load(&[fixture(".claude/settings.json")], Tier::Project, None).unwrap();
        assert!(w.is_empty(), "{}", w.render_all());
        assert_eq!(p.rules.len(), 9);
        assert!(p.rules.iter().all(|r| r.hosts == vec!["claude", "vscode"]));
        let r = &p.rules[0];
        assert_eq!(
            (
                r.tool.as_str(),
                r.patterns[0].kind,
                r.patterns[0].text.as_str()
            ),
            // A legacy `:*` allow is the literal prefix Claude Code reads.
            ("bash", PatternKind::Prefix, "cargo test")
        );
        assert_eq!(r.id, "settings.json:10");
        assert_eq!((r.span.line, r.span.column), (10, 7));
        assert_eq!(r.text, "Bash(cargo test:*)");
        assert_eq!(p.rules[1].patterns[0].kind, PatternKind::Exact);
        assert_eq!(p.rules[3].tool, "mcp__github__get_issue");
        assert_eq!(p.rules[4].patterns[0].kind, PatternKind::Glob);
        assert_eq!(
            p.rules[6].patterns[0],
            Pattern {
                kind: PatternKind::Specifier,
                text: "./.env".into()
            }
        );
    }

    #[test]
    fn allow_input_field_rule_is_a_warning() {
        let (p, w) = load_str(
            "permcheck.json",
            r#"{"permissions": {"allow": ["Task(model:opus)"], "deny": ["Task(model:opus)"]}}"#,
            Tier::Project,
        )
        .unwrap();
        assert_eq!(codes(&w), vec![(crate::syntax::codes::W001, 1, 28)]);
        assert!(!w.has_errors());
        assert_eq!(p.rules.len(), 1);
        assert_eq!(p.rules[0].verdict, Verdict::Deny);
        assert_eq!(p.rules[0].patterns[0].kind, PatternKind::Specifier);
    }

    #[test]
    fn json_errors_are_all_reported() {
        let d = load_err(
            "permcheck.json",
            r#"{"permissions": {"deny": ["Bash()", "Bash(", 7]}, "rules": [{"verdict": "deny", "regex": ["("], "hosts": ["nope"], "priority": 1.5}], "exampels": []}"#,
        );
        let c: Vec<crate::syntax::codes::Code> = d.iter().map(|d| d.code).collect();
        assert_eq!(
            c,
            vec![
                crate::syntax::codes::E005,
                crate::syntax::codes::E001,
                crate::syntax::codes::E013,
                crate::syntax::codes::E013,
                crate::syntax::codes::E012,
                crate::syntax::codes::E004,
                crate::syntax::codes::E006
            ],
            "{}",
            d.render_all()
        );
    }

    #[test]
    fn json_examples_and_ids() {
        let (p, _) = load_str(
            "permcheck.json",
            "{\n \"permissions\": {\"deny\": [{\"rule\": \"Bash(git push --force)\", \"id\": \"nf\", \"examples\": [{\"command\": \"git push --force\", \"expect\": \"deny\"}]}]},\n \"examples\": [{\"tool\": \"Read\", \"input\": \".env\", \"expect\": \"deny\", \"host\": \"claude\"}]\n}",
            Tier::Managed,
        )
        .unwrap();
        assert_eq!(p.rules[0].id, "nf");
        assert_eq!(p.rules[0].patterns[0].kind, PatternKind::Prefix);
        assert_eq!(p.examples.len(), 2);
        assert_eq!(p.examples[1].tool, "read");
        assert_eq!(p.examples[1].host.as_deref(), Some("claude"));
        assert_eq!(p.sources[0].path, "permcheck.json");
        let d = load_err(
            "permcheck.json",
            r#"{"permissions": {"deny": [{"rule": "Bash(a)", "id": "x"}, {"rule": "Bash(b)", "id": "x"}]}}"#,
        );
        assert_eq!(codes(&d), vec![(crate::syntax::codes::E007, 1, 85)]);
    }

    #[test]
    fn conformance_rule_strings_lower() {
        for s in [
            "Bash(git push --force)",
            "Bash(*:*)",
            "Bash(git status *)",
            "Bash(echo \\*)",
            "Bash(sudo:*)",
        ] {
            let text = format!(
                r#"{{"permissions": {{"allow": [{s:?}], "ask": [{s:?}], "deny": [{s:?}]}}}}"#
            );
            let (p, w) = load_str("permcheck.json", &text, Tier::Project).unwrap();
            assert!(w.is_empty());
            assert_eq!(p.rules.len(), 3);
        }
    }
}
