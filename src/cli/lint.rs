//! `polc lint`: load the sources, print every finding, exit 1 if any is an error.

use super::{default_sources, Report};
use crate::lint::{self, Options};
use std::path::PathBuf;

pub fn lint(sources: &[PathBuf], host: Option<String>, format: Report) -> i32 {
    if let Some(h) = &host {
        if !crate::hosts::is_known_host(h) {
            eprintln!(
                "error: unknown host `{h}` (known: {})",
                crate::hosts::known_hosts_list()
            );
            return 2;
        }
    }
    let sources = default_sources(sources);
    let (diags, loaded) = match lint::lint_paths(&sources, &Options { host }) {
        Ok(d) => (d, true),
        Err(d) => (d, false),
    };
    match format {
        Report::Json => println!("{}", diags.to_json()),
        Report::Github | Report::Sarif => {
            if let Some(sink) = super::annotate::Sink::new("lint", format) {
                sink.diags(&diags);
            }
            if !loaded {
                eprintln!("error: the policy does not load; fix these errors first");
            }
        }
        Report::Text => {
            if diags.is_empty() {
                println!("no findings");
            } else {
                print!("{}", diags.render_all());
            }
            if !loaded {
                eprintln!("error: the policy does not load; fix these errors first");
            }
        }
    }
    // A table built with `--from HOST` holds a snapshot of the agent's rules: say when
    // they have changed since (a note; not a finding of the sources).
    let table = std::path::Path::new("compiled/policy.bin");
    if let Ok(t) = crate::table::Table::open(table) {
        for m in super::import::drift(&t.meta().sources) {
            eprintln!("note: {}: {m}", table.display());
        }
    }
    i32::from(!loaded || diags.has_errors())
}
