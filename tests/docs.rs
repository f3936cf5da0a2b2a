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
