//! Decide one command N times on a table (for `perf stat -e instructions:u`, which counts
//! work regardless of how busy the machine is):
//!
//!     perf stat -e instructions:u target/release/examples/decide_loop TABLE N 'git status'

use polc::runtime::table_rules::TableRules;
use polc::runtime::{decide, Request};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let t = polc::table::Table::open_with_cache(std::path::Path::new(&a[1]), None).expect("table");
    let rules = TableRules::new(|k| t.section(k)).expect("sections");
    let n: usize = a[2].parse().expect("N");
    let req = Request::Bash {
        command: a[3].clone(),
    };
    let mut allow = 0;
    for _ in 0..n {
        let out = decide(&rules, "claude", &req).expect("decide");
        allow += (out.decision == polc::ir::Decision::Allow) as usize;
    }
    println!("{allow}");
}
