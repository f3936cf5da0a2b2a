//! The repository's own documents are complete: every `docs/contract.md#anchor` cited in the
//! code, tests and docs names an anchor that exists, the contract's internal links resolve,
//! and nothing cites the design spec that is not part of the repository.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every text file of the repository that can cite the contract (sources, tests, docs).
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        // This file names the markers it looks for.
        if name.starts_with('.') || name == "target" || name == "compiled" || name == "docs.rs" {
            continue;
        }
        if p.is_dir() {
            files(&p, out);
        } else if matches!(
            p.extension().and_then(|x| x.to_str()),
            Some("rs" | "md" | "toml" | "pest" | "pol" | "json" | "sh")
        ) || name == "run"
        {
            out.push(p);
        }
    }
}

fn anchors() -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join("docs/contract.md")).expect("docs/contract.md");
    let mut set = BTreeSet::new();
    for piece in text.split("<a id=\"").skip(1) {
        let id = piece.split('"').next().unwrap();
        assert!(set.insert(id.to_string()), "anchor {id} defined twice");
    }
    set
}

/// The anchor names after each occurrence of `marker` in `text`.
fn cited<'a>(text: &'a str, marker: &str) -> Vec<&'a str> {
    text.match_indices(marker)
        .map(|(i, _)| {
            let rest = &text[i + marker.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

#[test]
fn every_cited_contract_anchor_exists() {
    let anchors = anchors();
    assert!(anchors.len() > 20, "the contract defines its anchors");
    let mut all = Vec::new();
    files(&root(), &mut all);
    let mut missing = Vec::new();
    let mut count = 0;
    for f in &all {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        for id in cited(&text, "docs/contract.md#") {
            count += 1;
            if !anchors.contains(id) {
                missing.push(format!("{}: #{id}", f.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "cited anchors missing from docs/contract.md: {missing:#?}"
    );
    assert!(
        count >= 40,
        "the code cites the contract ({count} citations found)"
    );
}

#[test]
fn contract_internal_links_resolve() {
    let anchors = anchors();
    let text = std::fs::read_to_string(root().join("docs/contract.md")).unwrap();
    for id in cited(&text, "](#") {
        assert!(
            anchors.contains(id),
            "docs/contract.md links to #{id}, which is not defined"
        );
    }
}

#[test]
fn nothing_cites_the_external_spec() {
    let needle = "SPEC §";
    let mut all = Vec::new();
    files(&root(), &mut all);
    let hits: Vec<String> = all
        .iter()
        .filter(|f| {
            std::fs::read_to_string(f)
                .map(|t| t.contains(needle) || t.contains("SPEC Appendix") || t.contains("SPEC.md"))
                .unwrap_or(false)
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        hits.is_empty(),
        "files citing a spec outside the repository: {hits:?}"
    );
}

#[test]
fn citation_scanner_reads_anchor_names() {
    // The scanner must stop at the anchor's end, or a wrong anchor could pass as a prefix.
    assert_eq!(
        cited(
            "see docs/contract.md#c-paths). and docs/contract.md#c-x,",
            "docs/contract.md#"
        ),
        vec!["c-paths", "c-x"]
    );
}

/// The codes in the first column of `| CODE | …` table rows of a README.
fn documented_codes(readme: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join(readme)).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split(" |").next())
        .filter(|c| is_code(c))
        .map(str::to_string)
        .collect()
}

fn is_code(c: &str) -> bool {
    c.len() == 4
        && matches!(c.as_bytes()[0], b'E' | b'W' | b'N' | b'L')
        && c[1..].bytes().all(|b| b.is_ascii_digit())
}

#[test]
fn diagnostic_codes_table_and_source_agree() {
    let listed: BTreeSet<String> = polc::syntax::codes::ALL
        .iter()
        .map(|c| c.to_string())
        .collect();
    let syntax = documented_codes("src/syntax/README.md");
    let lint = documented_codes("src/lint/README.md");
    assert!(
        syntax.iter().all(|c| !c.starts_with('L')),
        "lint codes belong in src/lint/README.md"
    );
    assert!(
        lint.iter().all(|c| c.starts_with('L')),
        "only lint codes in src/lint/README.md"
    );
    let documented: BTreeSet<String> = syntax.union(&lint).cloned().collect();
    assert_eq!(
        listed, documented,
        "src/syntax/codes.rs and the READMEs' code tables differ"
    );

    // Every listed code is used by the source through its constant, and no source file
    // spells a code as a string literal (which would bypass the table).
    let mut sources = Vec::new();
    files(&root().join("src"), &mut sources);
    let mut used = BTreeSet::new();
    let mut literals = Vec::new();
    for f in sources
        .iter()
        .filter(|f| f.extension().is_some_and(|x| x == "rs"))
    {
        if f.ends_with("syntax/codes.rs") {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        // `codes::Code` is the enum itself; its variants are the codes.
        for c in cited(&text, "codes::").into_iter().filter(|c| *c != "Code") {
            used.insert(c.to_string());
        }
        for (i, _) in text.match_indices('"') {
            let lit = text.get(i + 1..i + 6).unwrap_or("");
            if lit.len() == 5 && lit.ends_with('"') && is_code(&lit[..4]) {
                literals.push(format!("{}: {}", f.display(), &lit[..4]));
            }
        }
    }
    assert!(
        literals.is_empty(),
        "codes spelled as literals instead of `codes::X`: {literals:?}"
    );
    let unused: Vec<_> = listed.difference(&used).collect();
    assert!(
        unused.is_empty(),
        "documented codes the source never uses: {unused:?}"
    );
    let unknown: Vec<_> = used.difference(&listed).collect();
    assert!(unknown.is_empty(), "codes used but not listed: {unknown:?}");
}
