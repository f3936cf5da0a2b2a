//! OpenCode: the `permission` map (V1: `{"bash": {"*": "ask", "git *": "allow"}, "edit":
//! "deny"}`, or one action for everything) and the V2 `permissions` list (`{action,
//! resource, effect}`) of the global config (`~/.config/opencode/opencode.json[c]`) and the
//! project's (`opencode.json[c]`, `.opencode/opencode.json[c]`). The last matching pattern
//! wins. polc's deny > ask > allow cannot say "deny everything except X": a deny or ask that
//! a later, less strict pattern overlaps is left to OpenCode's own engine (no rule, a
//! warning, and the native config must stay), and an allow that such a dropped rule
//! overrode is dropped with it (else polc would allow what OpenCode denies).

use super::text::{get, json, pairs, str_of};
use super::{pat, Ctx, Import, Native, Rule, Scope, Tool};
use crate::ir::{Pattern, PatternKind, Verdict};
use crate::syntax::json::{JNode, JValue};
use std::path::PathBuf;

pub fn locate(ctx: &Ctx) -> Vec<(PathBuf, Scope, &'static str)> {
    let global = ctx
        .xdg_config
        .clone()
        .unwrap_or_else(|| ctx.home.join(".config"))
        .join("opencode");
    let mut v = Vec::new();
    for name in ["config.json", "opencode.json", "opencode.jsonc"] {
        v.push((global.join(name), Scope::User, "global config"));
    }
    if let Some(p) = std::env::var_os("OPENCODE_CONFIG").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        let scope = ctx.scope_of(&p);
        v.push((p, scope, "OPENCODE_CONFIG"));
    }
    for name in [
        "opencode.json",
        "opencode.jsonc",
        ".opencode/opencode.json",
        ".opencode/opencode.jsonc",
    ] {
        v.push((ctx.project.join(name), Scope::Project, "project config"));
    }
    v
}

#[derive(Clone, Debug)]
struct Entry {
    tool: String,
    pattern: String,
    action: Verdict,
    start: usize,
    end: usize,
    native: String,
}

fn action(s: &str) -> Option<Verdict> {
    match s {
        "allow" => Some(Verdict::Allow),
        "ask" => Some(Verdict::Ask),
        "deny" => Some(Verdict::Deny),
        _ => None,
    }
}

const AGENT: &str = "OpenCode refuses to start with an invalid config";

pub fn import(n: &Native, imp: &mut Import) {
    let Some(doc) = json(n, true, imp, AGENT) else {
        return;
    };
    let mut entries = Vec::new();
    if let Some(p) = get(&doc, "permission") {
        if !v1(n, imp, p, &mut entries) {
            return;
        }
    }
    if let Some(list) = get(&doc, "permissions") {
        if !v2(n, imp, list, &mut entries) {
            return;
        }
    }
    if entries.is_empty() {
        return;
    }
    let mut tools: Vec<String> = Vec::new();
    for e in &entries {
        if e.tool != "*" && !tools.contains(&e.tool) {
            tools.push(e.tool.clone());
        }
    }
    if entries.iter().any(|e| e.tool == "*") {
        for t in ["bash", "read", "edit", "webfetch", "websearch"] {
            if !tools.iter().any(|x| x == t) {
                tools.push(t.to_string());
            }
        }
    }
    for t in tools {
        let list: Vec<Entry> = entries
            .iter()
            .filter(|e| e.tool == t || e.tool == "*")
            .map(|e| Entry {
                tool: t.clone(),
                ..e.clone()
            })
            .collect();
        one_tool(n, imp, &list);
    }
}

fn v1(n: &Native, imp: &mut Import, p: &JNode, out: &mut Vec<Entry>) -> bool {
    match &p.value {
        JValue::Str(s) => match action(s) {
            Some(a) => out.push(Entry {
                tool: "*".into(),
                pattern: "*".into(),
                action: a,
                start: p.start,
                end: p.end,
                native: format!("permission: {s}"),
            }),
            None => {
                imp.error(
                    n,
                    p.start,
                    p.end,
                    format!("`{s}` is not allow, ask or deny"),
                    AGENT,
                );
                return false;
            }
        },
        JValue::Obj(_) => {
            for (key, k, v) in pairs(p) {
                match &v.value {
                    JValue::Str(s) => match action(s) {
                        Some(a) => out.push(Entry {
                            tool: key.into(),
                            pattern: "*".into(),
                            action: a,
                            start: k.start,
                            end: v.end,
                            native: format!("permission.{key}: {s}"),
                        }),
                        None => {
                            imp.error(
                                n,
                                v.start,
                                v.end,
                                format!("`{s}` is not allow, ask or deny"),
                                AGENT,
                            );
                            return false;
                        }
                    },
                    JValue::Obj(_) => {
                        for (pattern, pk, pv) in pairs(v) {
                            match str_of(pv).and_then(action) {
                                Some(a) => out.push(Entry {
                                    tool: key.into(),
                                    pattern: pattern.into(),
                                    action: a,
                                    start: pk.start,
                                    end: pv.end,
                                    native: format!(
                                        "permission.{key}: \"{pattern}\": {}",
                                        str_of(pv).unwrap_or("")
                                    ),
                                }),
                                None => {
                                    imp.error(
                                        n,
                                        pv.start,
                                        pv.end,
                                        "a permission is \"allow\", \"ask\" or \"deny\"",
                                        AGENT,
                                    );
                                    return false;
                                }
                            }
                        }
                    }
                    _ => {
                        imp.error(
                            n,
                            v.start,
                            v.end,
                            "a permission is an action or an object of patterns",
                            AGENT,
                        );
                        return false;
                    }
                }
            }
        }
        _ => {
            imp.error(
                n,
                p.start,
                p.end,
                "`permission` is an action or an object",
                AGENT,
            );
            return false;
        }
    }
    true
}

fn v2(n: &Native, imp: &mut Import, list: &JNode, out: &mut Vec<Entry>) -> bool {
    let JValue::Arr(items) = &list.value else {
        imp.error(
            n,
            list.start,
            list.end,
            "`permissions` is a list of {action, resource, effect}",
            AGENT,
        );
        return false;
    };
    for it in items {
        let f = |k: &str| get(it, k).and_then(str_of);
        let (Some(act), Some(res), Some(eff)) =
            (f("action"), f("resource"), f("effect").and_then(action))
        else {
            imp.error(
                n,
                it.start,
                it.end,
                "each rule needs string `action`, `resource` and an `effect` of allow, ask or deny",
                AGENT,
            );
            return false;
        };
        let tool = if act == "shell" { "bash" } else { act };
        if tool.contains('*') && tool != "*" {
            imp.needs_native = true;
            imp.dropped(
                n,
                it.start,
                it.end,
                format!(
                    "action `{act}`: a partial wildcard over actions is left to OpenCode's engine"
                ),
            );
            continue;
        }
        out.push(Entry {
            tool: tool.into(),
            pattern: res.into(),
            action: eff,
            start: it.start,
            end: it.end,
            native: format!(
                "{{action: {act}, resource: {res}, effect: {}}}",
                f("effect").unwrap_or("")
            ),
        });
    }
    true
}

fn strict(v: Verdict) -> u8 {
    match v {
        Verdict::Allow => 0,
        Verdict::Ask => 1,
        Verdict::Deny => 2,
    }
}

/// Whether two wildcard patterns could match a common text (conservative: true unless the
/// literal heads or tails differ).
pub fn overlap(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let wild = |c: char| c == '*' || c == '?';
    let head = |s: &str| s.find(wild).map_or(s.to_string(), |i| s[..i].to_string());
    let tail = |s: &str| {
        s.rfind(wild)
            .map_or(s.to_string(), |i| s[i + 1..].to_string())
    };
    let (ha, hb) = (head(a), head(b));
    if !(ha.starts_with(&hb) || hb.starts_with(&ha)) {
        return false;
    }
    let (ta, tb) = (tail(a), tail(b));
    // OpenCode: a trailing ` *` also matches nothing at all (`git status *` ~ `git status`),
    // so such a pattern's tail proves nothing.
    ta.ends_with(&tb) || tb.ends_with(&ta) || a.ends_with(" *") || b.ends_with(" *")
}

fn one_tool(n: &Native, imp: &mut Import, list: &[Entry]) {
    let m = list.len();
    let mut keep = vec![true; m];
    for i in (0..m).rev() {
        let e = &list[i];
        if e.action != Verdict::Allow {
            if let Some(j) = (i + 1..m).find(|&j| {
                strict(list[j].action) < strict(e.action) && overlap(&e.pattern, &list[j].pattern)
            }) {
                keep[i] = false;
                imp.needs_native = true;
                imp.dropped(n, e.start, e.end, format!(
                    "{} `{}` on {} has a later, less strict exception (`{}`: {}): polc cannot say that where deny beats allow, so it is left to OpenCode's own engine (no rule); keep the native config in place",
                    e.action.as_str(), e.pattern, e.tool, list[j].pattern, list[j].action.as_str()
                ));
            }
        } else if let Some(j) = (i + 1..m).find(|&j| {
            !keep[j] && strict(list[j].action) > 0 && overlap(&e.pattern, &list[j].pattern)
        }) {
            keep[i] = false;
            imp.dropped(n, e.start, e.end, format!(
                "allow `{}` on {} is overridden by the later {} `{}`, which is left to OpenCode's engine: not imported either (else polc would allow what OpenCode does not)",
                e.pattern, e.tool, list[j].action.as_str(), list[j].pattern
            ));
        }
    }
    for (e, k) in list.iter().zip(keep) {
        if k {
            rule(n, imp, e);
        }
    }
}

fn rule(n: &Native, imp: &mut Import, e: &Entry) {
    let any = e.pattern == "*";
    let deny = e.action != Verdict::Allow;
    let mut r = Rule::new(e.action, Tool::Bash, Vec::new(), n, e.start, &e.native);
    match e.tool.as_str() {
        "bash" => {
            if !any {
                let p = bash_pattern(e, deny, &mut r.notes);
                r.patterns.push(p);
            }
        }
        "read" | "edit" => {
            r.tool = if e.tool == "read" {
                Tool::Read
            } else {
                Tool::Edit
            };
            if !any {
                return path_rule(n, imp, e, r);
            }
        }
        "webfetch" => {
            r.tool = Tool::WebFetch;
            if !any {
                return webfetch_rule(n, imp, e, r);
            }
        }
        "websearch" => {
            r.tool = Tool::WebSearch;
            if !any {
                if !deny {
                    imp.dropped(n, e.start, e.end, format!("allow `{}` on websearch not imported: polc does not match search queries", e.pattern));
                    return;
                }
                imp.inexact(
                    n,
                    e.start,
                    e.end,
                    r,
                    format!(
                        "`{}`: polc does not match search queries; every search (stricter)",
                        e.pattern
                    ),
                );
                return;
            }
        }
        "external_directory" | "doom_loop" => {
            if deny {
                imp.needs_native = true;
            }
            imp.dropped(
                n,
                e.start,
                e.end,
                format!(
                    "`{}` has no polc equivalent: left to OpenCode's engine",
                    e.tool
                ),
            );
            return;
        }
        other => {
            r.tool = Tool::Named(other.to_string());
            if !any {
                if !deny {
                    imp.dropped(n, e.start, e.end, format!("allow `{}` on {other} not imported: polc cannot match that tool's input", e.pattern));
                    return;
                }
                imp.inexact(n, e.start, e.end, r, format!("`{}` on {other}: polc cannot match that tool's input; every call (stricter)", e.pattern));
                return;
            }
        }
    }
    imp.rules.push(r);
}

/// A bash pattern other than `*`: no wildcard → `exact`, else `glob` (a deny's `?` → `*`;
/// an allow's `?` stays a literal character, noted).
fn bash_pattern(e: &Entry, deny: bool, notes: &mut Vec<String>) -> Pattern {
    if !e.pattern.contains(['*', '?']) {
        pat(PatternKind::Exact, e.pattern.clone())
    } else if deny {
        pat(PatternKind::Glob, e.pattern.replace('?', "*"))
    } else {
        // polc's glob has no `?`: kept as a literal character, a narrower allow.
        if e.pattern.contains('?') {
            notes.push("`?` is kept as a literal character (stricter)".into());
        }
        pat(PatternKind::Glob, e.pattern.clone())
    }
}

/// A read/edit path pattern other than `*`, as a glob.
fn path_rule(n: &Native, imp: &mut Import, e: &Entry, mut r: Rule) {
    let deny = e.action != Verdict::Allow;
    let p = e.pattern.strip_prefix("./").unwrap_or(&e.pattern);
    if deny && p.contains('/') && p.contains(['*', '?']) {
        // OpenCode's `*` also crosses `/`: deny the folder above the first wildcard (polc
        // denies what is inside a denied folder).
        let segs: Vec<&str> = p.split('/').collect();
        let k = segs
            .iter()
            .position(|s| s.contains(['*', '?']))
            .unwrap_or(segs.len());
        if k == 0 {
            imp.inexact(
                n,
                e.start,
                e.end,
                r,
                format!(
                    "`{}`: OpenCode's `*` crosses folders; polc denies every path (stricter)",
                    e.pattern
                ),
            );
            return;
        }
        let folder = format!("./{}", segs[..k].join("/"));
        r.patterns.push(pat(PatternKind::Glob, folder.clone()));
        imp.inexact(
            n,
            e.start,
            e.end,
            r,
            format!(
                "`{}`: OpenCode's `*` crosses folders; polc denies all of `{folder}` (stricter)",
                e.pattern
            ),
        );
        return;
    }
    let g = if p.contains('/') && !p.starts_with(['/', '~']) {
        format!("./{p}")
    } else {
        p.to_string()
    };
    let g = if deny { g.replace('?', "*") } else { g };
    r.patterns.push(pat(PatternKind::Glob, g));
    imp.rules.push(r);
}

/// A webfetch URL pattern other than `*`: an allow is dropped, a deny denies the URL's
/// whole domain (or every fetch when the host has a wildcard).
fn webfetch_rule(n: &Native, imp: &mut Import, e: &Entry, mut r: Rule) {
    if e.action == Verdict::Allow {
        imp.dropped(n, e.start, e.end, format!("allow `{}` on webfetch not imported: a URL pattern is not a domain polc can allow exactly", e.pattern));
        return;
    }
    let host = url::Url::parse(&e.pattern.replace('*', "x"))
        .ok()
        .and_then(|u| u.host_str().map(str::to_string));
    let authority = e
        .pattern
        .split("://")
        .nth(1)
        .unwrap_or("")
        .split('/')
        .next()
        .unwrap_or("");
    match host {
        Some(h) if !authority.contains(['*', '?']) => {
            r.patterns
                .push(pat(PatternKind::Glob, format!("domain:{h}")));
            let msg = format!(
                "`{}`: denied for the whole domain {h} (stricter)",
                e.pattern
            );
            imp.inexact(n, e.start, e.end, r, msg);
        }
        _ => {
            let msg = format!(
                "`{}`: not a domain polc can name; every fetch denied (stricter)",
                e.pattern
            );
            imp.inexact(n, e.start, e.end, r, msg);
        }
    }
}
