//! Gemini CLI: settings (`tools.exclude`, `tools.allowed`, `tools.confirmationRequired`,
//! `tools.core`, `mcp.excluded`, trusted `mcpServers`, and the legacy top-level
//! `excludeTools`/`allowedTools`/`coreTools`) and TOML policies (`[[rule]]`), admin, user and
//! workspace tiers. Gemini's engine picks the highest-priority matching rule (tier +
//! priority/1000); polc keeps that number as the rule's `priority` (tier × 1000 + priority),
//! which names the rule, while deny > ask > allow decides — stricter where a Gemini allow
//! outranks a deny or ask, and each such allow is reported.

use super::text::{get, get_path, json, pairs, strings};
use super::toml::{field, parse, str_list, tables};
use super::{pat, Ctx, Import, Native, Rule, Scope, Tool};
use crate::ir::{PatternKind, Verdict};
use crate::syntax::json::{JNode, JValue};
use std::path::PathBuf;

use crate::tools::gemini::SHELL_TOOLS as SHELL;

/// Tier of a file (Gemini's numbers): admin 5, user 4, workspace 3.
fn tier(n: &Native) -> i32 {
    match n.level {
        "system settings" | "system defaults" | "admin policy" => 5,
        "user settings" | "user policy" => 4,
        _ => 3,
    }
}

pub fn locate(ctx: &Ctx) -> Vec<(PathBuf, Scope, &'static str)> {
    let mut v = vec![
        (
            ctx.sys("/etc/gemini-cli/system-defaults.json"),
            Scope::User,
            "system defaults",
        ),
        (
            std::env::var_os("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
                .map(PathBuf::from)
                .unwrap_or_else(|| ctx.sys("/etc/gemini-cli/settings.json")),
            Scope::User,
            "system settings",
        ),
        (
            ctx.home.join(".gemini/settings.json"),
            Scope::User,
            "user settings",
        ),
        (
            ctx.project.join(".gemini/settings.json"),
            Scope::Project,
            "workspace settings",
        ),
    ];
    for p in super::files_in(&ctx.sys("/etc/gemini-cli/policies"), "toml") {
        v.push((p, Scope::User, "admin policy"));
    }
    for p in super::files_in(&ctx.home.join(".gemini/policies"), "toml") {
        v.push((p, Scope::User, "user policy"));
    }
    for p in super::files_in(&ctx.project.join(".gemini/policies"), "toml") {
        v.push((p, Scope::Project, "workspace policy"));
    }
    v
}

pub fn import(n: &Native, imp: &mut Import) {
    if n.path.extension().is_some_and(|x| x == "toml") {
        policy(n, imp);
    } else {
        settings(n, imp);
    }
}

/// `name` or `name(args)` (Gemini's legacy tool strings).
fn split_entry(s: &str) -> (&str, Option<&str>) {
    if let Some(open) = s.find('(') {
        if s.ends_with(')')
            && s[..open]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return (&s[..open], Some(&s[open + 1..s.len() - 1]));
        }
    }
    (s, None)
}

fn tool_of(name: &str) -> Tool {
    if SHELL.contains(&name) {
        Tool::Bash
    } else {
        Tool::Named(name.to_string())
    }
}

/// A shell command prefix as a polc `prefix` (Gemini's `commandPrefix` is word-bounded:
/// the prefix must be followed by a blank, a quote or the end).
fn prefix_ok(p: &str) -> bool {
    let t = p.trim();
    !t.is_empty() && !t.contains(['"', '\'', '\\', '`', '$'])
}

fn settings(n: &Native, imp: &mut Import) {
    let Some(doc) = json(
        n,
        true,
        imp,
        "Gemini CLI reports an invalid settings file and starts without its settings",
    ) else {
        return;
    };
    // Every settings-derived rule is in Gemini's user tier (4.x), whichever file it is in.
    let lists: [(&[&str], &str, Verdict, i32); 7] = [
        (&["tools", "exclude"], "tools.exclude", Verdict::Deny, 4400),
        (&["excludeTools"], "excludeTools", Verdict::Deny, 4400),
        (
            &["tools", "confirmationRequired"],
            "tools.confirmationRequired",
            Verdict::Ask,
            4350,
        ),
        (&["tools", "allowed"], "tools.allowed", Verdict::Allow, 4300),
        (&["allowedTools"], "allowedTools", Verdict::Allow, 4300),
        (&["tools", "core"], "tools.core", Verdict::Allow, 4250),
        (&["coreTools"], "coreTools", Verdict::Allow, 4250),
    ];
    for (path, what, verdict, prio) in lists {
        if let Some(list) = get_path(&doc, path) {
            settings_list(n, imp, list, what, verdict, prio);
        }
    }
    mcp_settings(n, imp, &doc);
}

/// One of the settings' tool lists (`tools.exclude`, …): a rule per entry, at `prio`.
fn settings_list(
    n: &Native,
    imp: &mut Import,
    list: &JNode,
    what: &str,
    verdict: Verdict,
    prio: i32,
) {
    let core = what.ends_with("core") || what == "coreTools";
    let mut narrowed = false;
    for (s, a, b) in strings(list, n, imp, what) {
        let (name, args) = split_entry(s);
        let native = format!("{what}: {s}");
        if core {
            imp.dropped(n, a, b, format!("`{s}` in {what} not imported: Gemini allows core tools only outside plan mode, a condition polc cannot express"));
            continue;
        }
        let tool = tool_of(name);
        let mut r = Rule::new(verdict, tool.clone(), Vec::new(), n, a, &native);
        r.priority = Some(prio);
        match (args, &tool) {
            (None, _) => imp.rules.push(r),
            (Some(p), Tool::Bash) if prefix_ok(p) => {
                if verdict == Verdict::Allow {
                    narrowed = true;
                }
                r.patterns.push(pat(PatternKind::Prefix, p.trim()));
                imp.rules.push(r);
            }
            (Some(p), Tool::Bash) => {
                if verdict == Verdict::Allow {
                    narrowed = true;
                    imp.dropped(n, a, b, format!("`{s}` not imported: the command prefix `{p}` has quotes or expansions polc's prefix cannot hold"));
                } else {
                    imp.inexact(n, a, b, r, format!("`{s}`: the prefix `{p}` cannot be held exactly; imported for every shell command (stricter)"));
                }
            }
            (Some(_), _) if verdict == Verdict::Allow => {
                // Gemini allows the tool itself and ignores the arguments.
                r.notes.push("Gemini ignores the arguments of a non-shell tool entry: the whole tool is allowed".into());
                imp.rules.push(r);
            }
            (Some(p), _) => {
                imp.inexact(n, a, b, r, format!("`{s}`: arguments `{p}` cannot be matched on this tool; imported for every call (stricter)"));
            }
        }
    }
    if core {
        imp.needs_native = true;
        imp.dropped(n, list.start, list.end, format!("{what} denies every tool it does not list (a catch-all with exceptions): polc cannot say that where deny beats allow, so it is left to Gemini's own engine (no rule); keep the settings file"));
    }
    if narrowed {
        imp.needs_native = true;
        imp.dropped(n, list.start, list.end, format!("{what} with shell command prefixes also denies every other shell command (a catch-all with exceptions): left to Gemini's own engine (no rule); keep the settings file"));
    }
}

/// `mcp.excluded` servers (deny) and trusted `mcpServers` (allow).
fn mcp_settings(n: &Native, imp: &mut Import, doc: &JNode) {
    if let Some(ex) = get_path(doc, &["mcp", "excluded"]) {
        for (s, a, _b) in strings(ex, n, imp, "mcp.excluded") {
            let name = if s == "*" {
                "mcp__*".to_string()
            } else {
                format!("mcp__{s}")
            };
            if s == "*" || s.contains('*') {
                imp.needs_native = true;
                imp.dropped(n, a, a + s.len() + 2, format!("mcp.excluded `{s}`: a wildcard server cannot be named in polc; left to Gemini's engine"));
                continue;
            }
            let mut r = Rule::new(
                Verdict::Deny,
                Tool::Mcp(name),
                Vec::new(),
                n,
                a,
                &format!("mcp.excluded: {s}"),
            );
            r.priority = Some(4900);
            imp.rules.push(r);
        }
    }
    if let Some(servers) = get(doc, "mcpServers") {
        for (name, k, v) in pairs(servers) {
            if matches!(get(v, "trust").map(|t| &t.value), Some(JValue::Bool(true))) {
                let mut r = Rule::new(
                    Verdict::Allow,
                    Tool::Mcp(format!("mcp__{name}__*")),
                    Vec::new(),
                    n,
                    k.start,
                    &format!("mcpServers.{name}.trust = true"),
                );
                r.priority = Some(4200);
                imp.rules.push(r);
            }
        }
    }
}

/// What Gemini does with a policy file that has a bad rule.
const POLICY_AGENT: &str = "Gemini CLI reports the policy file's error and loads none of its rules";

/// A list of strings with their spans.
type Spanned = Vec<(String, usize, usize)>;

/// One `[[rule]]` of a policy file, its required fields checked.
struct PolicyRule {
    verdict: Verdict,
    /// tier × 1000 + the rule's priority.
    priority: i32,
    /// The `[[rule]]` table's span.
    start: usize,
    end: usize,
    /// `commandPrefix`: the list (None: not strings) and its span.
    prefixes: Option<(Option<Spanned>, usize, usize)>,
    regex: Option<String>,
    args: bool,
    mcp: Option<String>,
    reason: Option<String>,
    /// The conditions polc cannot express (`modes`, `argsPattern`, …).
    conditions: Vec<&'static str>,
    native: String,
}

fn policy(n: &Native, imp: &mut Import) {
    let Some(doc) = parse(n, imp, POLICY_AGENT) else {
        return;
    };
    let Some(root) = doc.as_item().as_table_like() else {
        return;
    };
    let tier = tier(n);
    let Some((rules, _, _)) = field(root, "rule") else {
        return;
    };
    for (t, ts, te) in tables(rules) {
        let Some((names, rule)) = policy_rule(n, imp, t, ts, te, tier) else {
            continue;
        };
        for (name, ns, ne) in &names {
            name_rules(n, imp, &rule, name, *ns, *ne);
        }
    }
}

/// A `[[rule]]`'s tool names and fields; None after a located error (required fields, as
/// Gemini's schema checks them: a file with a bad rule loads none).
fn policy_rule(
    n: &Native,
    imp: &mut Import,
    t: &dyn toml_edit::TableLike,
    ts: usize,
    te: usize,
    tier: i32,
) -> Option<(Spanned, PolicyRule)> {
    let agent = POLICY_AGENT;
    let Some((tn, tn_s, tn_e)) = field(t, "toolName") else {
        imp.error(n, ts, te.max(ts + 1), "rule without toolName", agent);
        return None;
    };
    let Some(names) = str_list(tn) else {
        imp.error(
            n,
            tn_s,
            tn_e,
            "toolName must be a string or an array of strings",
            agent,
        );
        return None;
    };
    let Some((d, d_s, d_e)) = field(t, "decision") else {
        imp.error(n, ts, te.max(ts + 1), "rule without decision", agent);
        return None;
    };
    let verdict = match d.as_str() {
        Some("allow") => Verdict::Allow,
        Some("deny") => Verdict::Deny,
        Some("ask_user") => Verdict::Ask,
        _ => {
            imp.error(
                n,
                d_s,
                d_e,
                "decision must be \"allow\", \"deny\" or \"ask_user\"",
                agent,
            );
            return None;
        }
    };
    let prio = match field(t, "priority") {
        Some((p, ps, pe)) => match p.as_integer() {
            Some(v) if (0..=999).contains(&v) => v as i32,
            _ => {
                imp.error(
                    n,
                    ps,
                    pe,
                    "priority must be an integer from 0 to 999",
                    agent,
                );
                return None;
            }
        },
        None => {
            imp.error(n, ts, te.max(ts + 1), "rule without priority", agent);
            return None;
        }
    };
    let prefixes = field(t, "commandPrefix").map(|(i, s, e)| (str_list(i), s, e));
    let args = field(t, "argsPattern").is_some();
    let mut conditions = Vec::new();
    for key in ["modes", "interactive", "toolAnnotations", "subagent"] {
        if field(t, key).is_some() {
            conditions.push(key);
        }
    }
    if args {
        conditions.push("argsPattern");
    }
    let joined = |l: &Spanned| l.iter().map(|x| x.0.as_str()).collect::<Vec<_>>().join(",");
    let native = format!(
        "[[rule]] toolName = {} decision = {}{}",
        joined(&names),
        d.as_str().unwrap_or(""),
        prefixes
            .as_ref()
            .and_then(|p| p.0.as_ref())
            .map(|p| format!(" commandPrefix = {}", joined(p)))
            .unwrap_or_default()
    );
    let string = |key: &str| field(t, key).and_then(|(i, _, _)| i.as_str().map(str::to_string));
    let rule = PolicyRule {
        verdict,
        priority: tier * 1000 + prio,
        start: ts,
        end: te,
        prefixes,
        regex: string("commandRegex"),
        args,
        mcp: string("mcpName"),
        reason: string("denyMessage").or_else(|| string("deny_message")),
        conditions,
        native,
    };
    Some((names, rule))
}

/// The rules of one of a `[[rule]]`'s tool names.
fn name_rules(n: &Native, imp: &mut Import, rule: &PolicyRule, name: &str, ns: usize, ne: usize) {
    let (verdict, ts) = (rule.verdict, rule.start);
    if name.is_empty() {
        imp.error(
            n,
            ns,
            ne,
            "toolName cannot be empty (use \"*\" for every tool)",
            POLICY_AGENT,
        );
        return;
    }
    let tools: Vec<Tool> = if let Some(server) = &rule.mcp {
        if name == "*" {
            vec![Tool::Mcp(format!("mcp__{server}"))]
        } else {
            vec![Tool::Mcp(format!("mcp__{server}__{name}"))]
        }
    } else if name == "*" {
        vec![
            Tool::Bash,
            Tool::Read,
            Tool::Edit,
            Tool::WebFetch,
            Tool::WebSearch,
        ]
    } else if name.contains('*') {
        imp.needs_native = true;
        imp.dropped(n, ns, ne, format!("toolName `{name}`: a wildcard tool name cannot be said in polc; left to Gemini's engine (no rule)"));
        return;
    } else {
        vec![tool_of(name)]
    };
    if name == "*" && rule.mcp.is_none() {
        if verdict == Verdict::Allow {
            imp.dropped(n, ns, ne, "an allow for every tool is not imported (stricter): Gemini's own engine still applies it");
            return;
        }
        imp.warn(n, ns, ne, "toolName \"*\": imported for polc's shell, read, edit, webfetch and websearch families; other tools are left to Gemini's engine");
        imp.needs_native = true;
    }
    let conditions = rule.conditions.join(", ");
    if !rule.conditions.is_empty() {
        if verdict == Verdict::Allow {
            imp.dropped(n, ts, ts + 6, format!("a conditional allow ({conditions}) is not imported: polc cannot express the condition"));
            return;
        }
        imp.warn(n, ts, ts + 6, format!("the condition ({conditions}) cannot be expressed: the {} is imported unconditionally (stricter)", verdict.as_str()));
    }
    for tool in tools {
        let mut base = Rule::new(verdict, tool.clone(), Vec::new(), n, ts, &rule.native);
        base.priority = Some(rule.priority);
        base.reason = rule.reason.clone();
        if !rule.conditions.is_empty() {
            base.notes.push(format!(
                "imported unconditionally: Gemini applies it only under {conditions}"
            ));
        }
        if tool != Tool::Bash {
            if rule.prefixes.is_some() || rule.regex.is_some() {
                imp.error(n, ts, rule.end.max(ts + 1), "commandPrefix and commandRegex can only be used with toolName = \"run_shell_command\"", POLICY_AGENT);
                continue;
            }
            imp.rules.push(base);
        } else if rule.args {
            // argsPattern on the shell: a conditional deny/ask, imported for every shell
            // command (the allow was dropped above).
            imp.rules.push(base);
        } else {
            shell_rule(n, imp, rule, base);
        }
    }
}

/// A shell rule's `commandPrefix` or `commandRegex` (`base` is the rule without them).
fn shell_rule(n: &Native, imp: &mut Import, rule: &PolicyRule, base: Rule) {
    let (verdict, ts) = (rule.verdict, rule.start);
    if let Some((list, ps, pe)) = &rule.prefixes {
        let Some(list) = list else {
            imp.error(
                n,
                *ps,
                *pe,
                "commandPrefix must be a string or an array of strings",
                POLICY_AGENT,
            );
            return;
        };
        let mut r = base;
        let mut bad = Vec::new();
        for (p, _, _) in list {
            if prefix_ok(p) {
                r.patterns.push(pat(PatternKind::Prefix, p.trim()));
            } else {
                bad.push(p.clone());
            }
        }
        if !bad.is_empty() {
            if verdict == Verdict::Allow {
                imp.dropped(n, *ps, *pe, format!("command prefixes {bad:?} not imported: quotes or expansions polc's prefix cannot hold"));
            } else {
                r.patterns.clear();
                imp.inexact(n, *ps, *pe, r, format!("command prefixes {bad:?} cannot be held exactly: imported for every shell command (stricter)"));
                return;
            }
        }
        if !r.patterns.is_empty() {
            imp.rules.push(r);
        }
    } else if let Some(rx) = &rule.regex {
        if verdict == Verdict::Allow {
            imp.dropped(n, ts, ts + 6, format!("an allow by commandRegex `{rx}` is not imported: Gemini matches it on the JSON-encoded arguments, which polc cannot reproduce exactly"));
            return;
        }
        let mut r = base;
        if rx.contains("(?=") || rx.contains("(?!") || rx.contains("(?<") || rx.contains("\\1") {
            imp.inexact(n, ts, ts + 6, r, format!("commandRegex `{rx}` uses look-around or back-references polc's DFA cannot: imported for every shell command (stricter)"));
            return;
        }
        r.patterns
            .push(pat(PatternKind::Regex, format!("^(?:{rx})")));
        imp.inexact(n, ts, ts + 6, r, format!("commandRegex `{rx}` is matched on the raw command (Gemini matches its JSON encoding); quotes and backslashes may differ"));
    } else {
        imp.rules.push(base);
    }
}

/// After every file: report each allow that outranks a deny or ask of the same tool in
/// Gemini (there it would win; in polc the deny or ask does).
pub fn after(files: &[Native], imp: &mut Import) {
    let mut notes = Vec::new();
    for (i, a) in imp.rules.iter().enumerate() {
        if a.verdict != Verdict::Allow {
            continue;
        }
        let pa = a.priority.unwrap_or(0);
        if let Some(d) = imp.rules.iter().find(|d| {
            d.verdict != Verdict::Allow
                && d.tool == a.tool
                && d.priority.unwrap_or(0) < pa
                && may_overlap(a, d)
        }) {
            notes.push((
                i,
                format!(
                    "in Gemini this allow (priority {pa}) outranks the {} at {}:{} (priority {}) where both match; in polc the {} wins (stricter)",
                    d.verdict.as_str(),
                    d.origin.file,
                    d.origin.line,
                    d.priority.unwrap_or(0),
                    d.verdict.as_str()
                ),
            ));
        }
    }
    for (i, msg) in notes {
        let r = &mut imp.rules[i];
        r.notes.push(msg.clone());
        let span = r.origin.clone();
        let line = files
            .iter()
            .find(|f| f.src.name == span.file)
            .map(|f| f.src.line_text(span.line).to_string())
            .unwrap_or_default();
        imp.diags.push(
            crate::syntax::diag::Diagnostic::warning(crate::syntax::codes::W005, msg, span)
                .with_line(line),
        );
    }
}

/// Whether two rules of one tool could match one call: only word prefixes are compared
/// (one must begin the other); anything else may overlap.
fn may_overlap(a: &Rule, b: &Rule) -> bool {
    let prefixes = |r: &Rule| -> Option<Vec<Vec<String>>> {
        if r.patterns.is_empty() {
            return None;
        }
        r.patterns
            .iter()
            .map(|p| {
                (p.kind == PatternKind::Prefix)
                    .then(|| p.text.split_whitespace().map(str::to_string).collect())
            })
            .collect()
    };
    match (prefixes(a), prefixes(b)) {
        (Some(x), Some(y)) => x.iter().any(|p| {
            y.iter().any(|q| {
                let k = p.len().min(q.len());
                p[..k] == q[..k]
            })
        }),
        _ => true,
    }
}
