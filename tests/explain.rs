//! `polc explain` as a new user meets it: untrusted tables' matching allows are shown, a
//! folder with nothing to explain says how to start, and the JSON answer follows
//! docs/explain.schema.json (checked here by a small validator of the schema keywords that
//! file uses) with no sentinel numbers.

mod common;
use common::Project;
use serde_json::Value;

/// Validate `v` against `schema` (the subset of JSON Schema docs/explain.schema.json uses:
/// type, enum, required, properties, additionalProperties: false, items, $ref to #/$defs,
/// oneOf, minimum, maximum). Returns every violation with its JSON path.
fn validate(root: &Value, schema: &Value, v: &Value, at: &str, errs: &mut Vec<String>) {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("only local $defs refs");
        return validate(root, &root["$defs"][name], v, at, errs);
    }
    if let Some(alts) = schema.get("oneOf").and_then(Value::as_array) {
        let ok = alts
            .iter()
            .filter(|a| {
                let mut e = Vec::new();
                validate(root, a, v, at, &mut e);
                e.is_empty()
            })
            .count();
        if ok != 1 {
            errs.push(format!("{at}: matches {ok} of oneOf"));
        }
        return;
    }
    if let Some(t) = schema.get("type") {
        let types: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => panic!("bad type in schema"),
        };
        let is = |ty: &str| match ty {
            "null" => v.is_null(),
            "string" => v.is_string(),
            "boolean" => v.is_boolean(),
            "integer" => v.is_u64() || v.is_i64(),
            "number" => v.is_number(),
            "array" => v.is_array(),
            "object" => v.is_object(),
            _ => panic!("unknown type {ty}"),
        };
        if !types.iter().any(|t| is(t)) {
            errs.push(format!("{at}: {v} is not {types:?}"));
            return;
        }
    }
    if let Some(e) = schema.get("enum").and_then(Value::as_array) {
        if !e.contains(v) {
            errs.push(format!("{at}: {v} not in {e:?}"));
        }
    }
    if let Some(n) = v.as_f64() {
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64) {
            if n < min {
                errs.push(format!("{at}: {n} < {min}"));
            }
        }
        if let Some(max) = schema.get("maximum").and_then(Value::as_f64) {
            if n > max {
                errs.push(format!("{at}: {n} > {max}"));
            }
        }
    }
    if let Some(obj) = v.as_object() {
        for r in schema["required"].as_array().into_iter().flatten() {
            let r = r.as_str().unwrap();
            if !obj.contains_key(r) {
                errs.push(format!("{at}: missing `{r}`"));
            }
        }
        let props = schema.get("properties").and_then(Value::as_object);
        for (k, x) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(s) => validate(root, s, x, &format!("{at}.{k}"), errs),
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errs.push(format!("{at}: unexpected `{k}`"))
                }
                None => {}
            }
        }
    }
    if let (Some(a), Some(items)) = (v.as_array(), schema.get("items")) {
        for (i, x) in a.iter().enumerate() {
            validate(root, items, x, &format!("{at}[{i}]"), errs);
        }
    }
}

fn schema() -> Value {
    let text = std::fs::read_to_string(common::root().join("docs/explain.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn check(v: &Value) {
    let s = schema();
    let mut errs = Vec::new();
    validate(&s, &s, v, "$", &mut errs);
    assert!(errs.is_empty(), "{errs:#?}\n{v:#}");
    // No sentinel numbers anywhere (u32::MAX was the self-protection rule's number).
    let text = v.to_string();
    assert!(!text.contains("4294967295"), "{text}");
}

const POLICY: &str = "allow bash prefix \"git status\" {\n  id git-status\n}\nask bash prefix \"git push\"\ndeny bash prefix \"rm -rf\" {\n  id no-rm\n  reason \"no\"\n}\n";

#[test]
fn the_validator_rejects_what_the_schema_forbids() {
    let s = schema();
    let bad = [
        // the old shape: a rule number in the cause, and fields left out
        serde_json::json!({"decision": "ask", "host": "claude", "cause": {"kind": "rule", "rule": 4294967295u64}}),
        serde_json::json!({"decision": "maybe", "host": "claude", "cause": {"kind": "no_rule", "rule": null, "construct": null},
            "winner": null, "segments": [], "matched": [], "unattestable": [], "untrusted_tables": [], "would_allow_once_trusted": []}),
        serde_json::json!({"decision": "ask", "host": "claude", "cause": {"kind": "no_rule", "rule": null, "construct": null},
            "winner": {"id": "x"}, "segments": [], "matched": [], "unattestable": [], "untrusted_tables": [], "would_allow_once_trusted": []}),
    ];
    for b in bad {
        let mut errs = Vec::new();
        validate(&s, &s, &b, "$", &mut errs);
        assert!(!errs.is_empty(), "accepted {b}");
    }
}

#[test]
fn json_output_follows_the_schema() {
    let p = Project::new();
    p.write("policies/main.pol", POLICY);
    p.build_trusted();
    for (cmd, decision) in [
        ("git status", "allow"),
        ("git push origin", "ask"),
        ("rm -rf x", "deny"),
        ("ls", "default"),
        ("git status && ls", "default"),
        ("git status $(rm -rf x)", "deny"),
        ("eval \"$X\"", "ask"),
        ("polc trust", "deny"),
    ] {
        let r = p.run(&["explain", "--format", "json", "--", cmd]);
        let v = r.json();
        check(&v);
        assert_eq!(v["decision"], decision, "{cmd}: {v:#}");
    }
    // No rule won: winner and cause.rule are null, not a number.
    let v = p.run(&["explain", "--format", "json", "--", "ls"]).json();
    assert!(v["winner"].is_null(), "{v:#}");
    assert!(v["cause"]["rule"].is_null(), "{v:#}");
    assert_eq!(v["cause"]["kind"], "no_rule");
    // A rule won: named by id.
    let v = p
        .run(&["explain", "--format", "json", "--", "rm -rf x"])
        .json();
    assert_eq!(v["cause"]["rule"], "no-rm", "{v:#}");
    assert_eq!(v["winner"]["reason"], "no");
    let v = p
        .run(&["explain", "--format", "json", "--", "git push"])
        .json();
    assert!(v["winner"]["reason"].is_null(), "{v:#}");
    // The built-in self-protection rule is given by its id.
    let v = p
        .run(&["explain", "--format", "json", "--", "polc trust"])
        .json();
    assert_eq!(v["cause"]["rule"], "polc-self-protection", "{v:#}");
    assert_eq!(v["winner"]["id"], "polc-self-protection", "{v:#}");
    // --policy (compiled in memory) has the same shape.
    let v = p
        .run(&[
            "explain",
            "--format",
            "json",
            "--policy",
            "policies/main.pol",
            "--",
            "git status",
        ])
        .json();
    check(&v);
    assert_eq!(v["decision"], "allow");
}

#[test]
fn untrusted_table_shows_the_allow_that_would_apply() {
    let p = Project::new();
    p.write("policies/main.pol", POLICY);
    p.run(&["build"]).exits(0);
    // Not trusted: the allow is not granted...
    let r = p.run(&["explain", "--", "git status"]).exits(0);
    let out = r.stdout();
    assert!(!out.contains("decision: allow"), "{out}");
    // ...but the person sees that it matched, where it is, and how to trust it.
    assert!(
        out.contains("would allow once trusted: rule git-status (") && out.contains("main.pol:1)"),
        "{out}"
    );
    assert!(out.contains("polc trust"), "{out}");
    let v = p
        .run(&["explain", "--format", "json", "--", "git status"])
        .json();
    check(&v);
    assert_ne!(v["decision"], "allow");
    assert_eq!(
        v["would_allow_once_trusted"][0]["id"], "git-status",
        "{v:#}"
    );
    assert_eq!(v["untrusted_tables"].as_array().unwrap().len(), 1);
    // Denies still apply and nothing "would allow" a denied command.
    let v = p
        .run(&["explain", "--format", "json", "--", "rm -rf x"])
        .json();
    check(&v);
    assert_eq!(v["decision"], "deny");
    assert_eq!(v["would_allow_once_trusted"], serde_json::json!([]));
    // Once trusted the allow decides, and nothing is listed as pending.
    p.trust("compiled/policy.bin");
    let v = p
        .run(&["explain", "--format", "json", "--", "git status"])
        .json();
    assert_eq!(v["decision"], "allow");
    assert_eq!(v["would_allow_once_trusted"], serde_json::json!([]));
    let r = p.run(&["explain", "--", "git status"]).exits(0);
    assert!(!r.stdout().contains("would allow once trusted"));
}

#[test]
fn nothing_to_explain_says_how_to_start() {
    let p = Project::new();
    let r = p.run(&["explain", "--", "git status"]).exits(1);
    let err = r.stderr();
    assert!(!err.contains("E002"), "{err}");
    assert!(err.contains("compiled/policy.bin"), "{err}");
    assert!(err.contains("policies/"), "{err}");
    assert!(err.contains("polc init"), "{err}");
    assert!(err.contains("--policy FILE"), "{err}");
    // An explicit --policy that is missing is still a located read error.
    let r = p.run(&["explain", "--policy", "nope.pol", "--", "ls"]);
    assert_ne!(r.code(), 0);
}

/// Issue 12 item 6: many identical rules that all match. Under the bound on listed matches
/// explain names the first (ties go to source order) and lists every other with why it lost;
/// past it (300 rules × 40 segments), a deny in the last segment still wins and is named,
/// the bound is given as the unattestable construct, and the JSON keeps its schema.
#[test]
fn explain_with_many_identical_matching_rules() {
    let p = Project::new();
    let mut pol = String::new();
    for i in 0..300 {
        pol.push_str(&format!("ask bash glob \"echo *\" {{ id same-{i} }}\n"));
    }
    pol.push_str("deny bash prefix \"rm\" { id no-rm }\n");
    p.write("policies/main.pol", &pol);
    let explain = |cmd: &str| {
        p.run(&[
            "explain",
            "--format",
            "json",
            "--policy",
            "policies/main.pol",
            "--",
            cmd,
        ])
        .json()
    };
    let v = explain("echo a");
    check(&v);
    assert_eq!(v["decision"], "ask", "{v:#}");
    assert_eq!(v["winner"]["id"], "same-0");
    let lost = v["matched"].as_array().unwrap();
    // 299 on the segment and 299 on the whole command (the winner is not listed).
    assert_eq!(lost.len(), 299 + 299, "{}", lost.len());
    assert!(lost
        .iter()
        .all(|m| m["lost_because"] == "same score, later in source order"));
    let cmd = format!("{}; rm -rf x", vec!["echo a"; 40].join("; "));
    let v = explain(&cmd);
    check(&v);
    assert_eq!(v["decision"], "deny", "{v:#}");
    assert_eq!(v["winner"]["id"], "no-rm");
    let unatt = v["unattestable"].as_array().unwrap();
    assert!(
        unatt
            .iter()
            .any(|u| u == "more than 10,000 rule matches in one command"),
        "{unatt:?}"
    );
    assert!(v["matched"].as_array().unwrap().len() < 11_000);
}
