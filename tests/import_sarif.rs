//! `--format sarif` of `polc test`, `polc lint` and `polc build`: a SARIF 2.1.0 log on
//! stdout, checked against the shape SARIF requires (a hand-written validator of the
//! required properties, with a negative test so it can fail).

mod common;
use common::Project;
use serde_json::Value;

/// The required shape of a SARIF 2.1.0 log as polc writes it: `version`, `runs[]` with
/// `tool.driver.name`; each result a `message.text`, a known `level`, a `ruleId` whose
/// `ruleIndex` names it in the driver's `rules`, and locations with a relative `uri` and a
/// 1-based region.
fn validate(doc: &Value) -> Result<usize, String> {
    if doc["version"] != "2.1.0" {
        return Err("version must be \"2.1.0\"".into());
    }
    let runs = doc["runs"].as_array().ok_or("runs must be an array")?;
    if runs.is_empty() {
        return Err("runs is empty".into());
    }
    let mut n = 0;
    for run in runs {
        let driver = &run["tool"]["driver"];
        driver["name"]
            .as_str()
            .ok_or("tool.driver.name must be a string")?;
        let rules = driver["rules"]
            .as_array()
            .ok_or("driver.rules must be an array")?;
        for r in rules {
            r["id"].as_str().ok_or("each rule needs an id")?;
        }
        for res in run["results"]
            .as_array()
            .ok_or("results must be an array")?
        {
            n += 1;
            res["message"]["text"]
                .as_str()
                .ok_or("result.message.text must be a string")?;
            let level = res["level"].as_str().ok_or("level must be a string")?;
            if !["none", "note", "warning", "error"].contains(&level) {
                return Err(format!("bad level {level}"));
            }
            let id = res["ruleId"].as_str().ok_or("ruleId must be a string")?;
            let idx = res["ruleIndex"]
                .as_u64()
                .ok_or("ruleIndex must be an integer")? as usize;
            if rules.get(idx).and_then(|r| r["id"].as_str()) != Some(id) {
                return Err(format!("ruleIndex {idx} does not name {id}"));
            }
            if let Some(locs) = res.get("locations") {
                for l in locs.as_array().ok_or("locations must be an array")? {
                    let pl = &l["physicalLocation"];
                    let uri = pl["artifactLocation"]["uri"]
                        .as_str()
                        .ok_or("uri must be a string")?;
                    if uri.is_empty() || uri.contains('\\') || uri.contains(' ') {
                        return Err(format!("bad uri {uri:?}"));
                    }
                    if let Some(region) = pl.get("region") {
                        let line = region["startLine"]
                            .as_u64()
                            .ok_or("startLine must be an integer")?;
                        if line < 1 {
                            return Err("startLine must be >= 1".into());
                        }
                        if let Some(c) = region.get("startColumn") {
                            if c.as_u64().is_none_or(|c| c < 1) {
                                return Err("startColumn must be >= 1".into());
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(n)
}

#[test]
fn the_validator_rejects_broken_logs() {
    let good: Value = serde_json::json!({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "polc", "rules": [{"id": "E021"}]}}, "results": [{"ruleId": "E021", "ruleIndex": 0, "level": "error", "message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.pol"}, "region": {"startLine": 1}}}]}]}]});
    assert_eq!(validate(&good), Ok(1));
    for (path, bad) in [
        ("/version", serde_json::json!("2.0.0")),
        ("/runs/0/results/0/level", serde_json::json!("fatal")),
        ("/runs/0/results/0/ruleIndex", serde_json::json!(3)),
        ("/runs/0/results/0/message", serde_json::json!("m")),
        (
            "/runs/0/results/0/locations/0/physicalLocation/region/startLine",
            serde_json::json!(0),
        ),
        (
            "/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri",
            serde_json::json!("a b.pol"),
        ),
    ] {
        let mut d = good.clone();
        *d.pointer_mut(path).unwrap() = bad;
        assert!(validate(&d).is_err(), "{path}");
    }
}

fn sarif(p: &Project, args: &[&str], code: i32) -> Value {
    let r = p.run(args).exits(code);
    let doc: Value = serde_json::from_str(&r.stdout())
        .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}):\n{}", r.stdout()));
    validate(&doc).unwrap_or_else(|e| panic!("{e}:\n{doc:#}"));
    doc
}

#[test]
fn test_lint_and_build_print_sarif() {
    let p = Project::new();
    p.write(
        "policies/main.pol",
        "allow bash prefix \"git status\"\ndeny bash prefix \"rm\" {\n  example \"rm -rf x\" => allow\n}\nallow bash prefix \"git status\"\n",
    );
    let t = sarif(&p, &["test", "--format", "sarif"], 1);
    let res = &t["runs"][0]["results"];
    assert_eq!(res.as_array().unwrap().len(), 1, "{t:#}");
    assert_eq!(res[0]["ruleId"], "E021");
    assert_eq!(res[0]["level"], "error");
    let loc = &res[0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "policies/main.pol");
    assert_eq!(loc["region"]["startLine"], 3);
    assert!(res[0]["message"]["text"]
        .as_str()
        .unwrap()
        .contains("expected allow, got deny"));

    let l = sarif(&p, &["lint", "--format", "sarif"], 0);
    assert!(
        !l["runs"][0]["results"].as_array().unwrap().is_empty(),
        "the duplicate allow: {l:#}"
    );

    let b = sarif(&p, &["build", "--format", "sarif"], 1);
    assert!(b["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["ruleId"] == "E021"));
    // A clean build: an empty log, still valid.
    p.write(
        "policies/main.pol",
        "deny bash prefix \"rm\" {\n  example \"rm -rf x\" => deny\n}\n",
    );
    let b = sarif(&p, &["build", "--format", "sarif"], 0);
    assert_eq!(b["runs"][0]["results"].as_array().unwrap().len(), 0);
    // `--check` on a stale table: a finding on the table file.
    p.write("policies/main.pol", "deny bash prefix \"rm -f\"\n");
    let c = sarif(&p, &["build", "--check", "--format", "sarif"], 1);
    assert_eq!(c["runs"][0]["results"][0]["ruleId"], "--check");
    // A syntax error: located.
    p.write("policies/main.pol", "deny bsah prefix \"x\"\n");
    let e = sarif(&p, &["build", "--format", "sarif"], 1);
    assert_eq!(e["runs"][0]["results"][0]["ruleId"], "E003");
    assert_eq!(
        e["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startColumn"],
        6
    );
}
