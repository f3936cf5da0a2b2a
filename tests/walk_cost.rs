//! The per-segment cost of a decision stays bounded and linear (issue 12 item 6), measured
//! in allocations: they do not depend on the machine, its load or the build profile, and
//! they were a quarter of the instructions of the worst-case rows (`benches/worstcase.py`).
//!
//! - a walk of `ls x0; ls x1; …` (no two segments alike) makes at most a fixed number of
//!   allocations a segment, and twice the segments cost twice, not more (no work that grows
//!   with the segments before);
//! - equal segments share their analysis: 2,000 copies of `ls x` cost a fraction of 2,000
//!   distinct segments;
//! - the same holds for the whole decision on a glob table (the walk, the table's matching,
//!   the whole-command texts, self-protection).
//!
//! One test in this file: the counter is per thread, and the harness runs tests on threads.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // (`try_with`: not during the thread's own teardown.)
    let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: every call is passed on to the system allocator unchanged; the counter is a
// const-initialised thread-local without a destructor (it never allocates).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's layout.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: a block of the system allocator with its layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as given.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static A: Counting = Counting;

/// Allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    let before = ALLOCS.with(Cell::get);
    f();
    ALLOCS.with(Cell::get) - before
}

fn distinct(n: usize) -> String {
    (0..n)
        .map(|i| format!("ls x{i}"))
        .collect::<Vec<_>>()
        .join(";")
}

fn equal(n: usize) -> String {
    vec!["ls x"; n].join(";")
}

/// Per segment, measured 2026-12-02: the walk of `ls xN` 33 allocations, the whole
/// decision 44. The bounds leave room for the catalogue to grow, not for a second walk.
const WALK_PER_SEGMENT: u64 = 60;
#[cfg(feature = "compiler")]
const DECISION_PER_SEGMENT: u64 = 90;

#[test]
fn per_segment_cost_is_bounded_linear_and_shared_between_equal_segments() {
    // The walk alone.
    let walk = |cmd: String| allocations(|| drop(polc::shell::walk(&cmd)));
    let d1 = walk(distinct(1_000));
    let d2 = walk(distinct(2_000));
    let e2 = walk(equal(2_000));
    eprintln!("walk allocations: 1,000 distinct {d1}, 2,000 distinct {d2}, 2,000 equal {e2}");
    assert!(d2 <= 2_000 * WALK_PER_SEGMENT, "{d2} for 2,000 segments");
    // Linear: the second thousand costs what the first did (10% slack).
    assert!(d2 - d1 <= d1 + d1 / 10, "1,000 → {d1}, 2,000 → {d2}");
    // Shared: an equal segment is not analysed again (it is still lexed, and its readings
    // copied: ≈ half the cost of a distinct one, measured 2026-12-02).
    assert!(e2 * 10 <= d2 * 6, "2,000 equal {e2} vs 2,000 distinct {d2}");

    // The whole decision on a glob table (as benches/worstcase.py's, smaller).
    #[cfg(feature = "compiler")]
    whole_decision();
}

/// (Needs the compiler to build the table.)
#[cfg(feature = "compiler")]
fn whole_decision() {
    use polc::ir::Tier;
    use polc::runtime::table_rules::TableRules;
    use polc::runtime::{decide_in, Context, Request};
    let mut pol = String::new();
    for i in 0..500 {
        pol.push_str(&format!("deny bash glob \"* *a{i}*b*c*d*e*f* *\"\n"));
    }
    for i in 0..100 {
        pol.push_str(&format!("deny bash contains \"needle{i}x\"\n"));
    }
    pol.push_str("allow bash prefix \"ls\"\n");
    let (policy, _) = polc::lower::load_str("p.pol", &pol, Tier::Project).expect("loads");
    let compiled = polc::compile::compile(&policy).expect("compiles");
    let rules = TableRules::new(|k| compiled.section(k)).unwrap();
    let ctx = Context::from_env();
    let decide = |cmd: String| {
        let mut verdict = None;
        let n = allocations(|| {
            let out = decide_in(&rules, "claude", &Request::Bash { command: cmd }, &ctx)
                .expect("decides");
            verdict = Some(out.decision);
        });
        (n, verdict.unwrap())
    };
    let (d1, v1) = decide(distinct(1_000));
    let (d2, v2) = decide(distinct(2_000));
    let (e2, v3) = decide(equal(2_000));
    eprintln!("decision allocations: 1,000 distinct {d1}, 2,000 distinct {d2}, 2,000 equal {e2}");
    // Every `ls` is allowed, so is the whole command: every segment was read and judged.
    for v in [v1, v2, v3] {
        assert_eq!(v, polc::ir::Decision::Allow);
    }
    assert!(
        d2 <= 2_000 * DECISION_PER_SEGMENT,
        "{d2} for 2,000 segments"
    );
    assert!(d2 - d1 <= d1 + d1 / 10, "1,000 → {d1}, 2,000 → {d2}");
    // (61% measured: the table's matching is per segment, as it must be.)
    assert!(e2 * 4 <= d2 * 3, "2,000 equal {e2} vs 2,000 distinct {d2}");
}
