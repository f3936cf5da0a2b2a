//! The table format through the public API only (the detailed tests sit beside the code in
//! `src/table/tests.rs`). One test function: it sets `POLC_CACHE_DIR`, which is process-wide.

use std::collections::BTreeMap;

use polc::ir::{fnv1a64, SourceStamp};
use polc::table::{self, LoadError, Table};

#[test]
fn public_api_end_to_end() {
    let d = tempfile::tempdir().unwrap();
    let cache = d.path().join("cache");
    std::env::set_var("POLC_CACHE_DIR", &cache);
    assert_eq!(table::cache_dir(), Some(cache.clone()));

    let src = d.path().join("policy.pol");
    std::fs::write(&src, b"deny rm\n").unwrap();
    let stamps = [SourceStamp {
        path: "policy.pol".into(),
        size: 8,
        hash: fnv1a64(b"deny rm\n"),
    }];
    let mut counts = BTreeMap::new();
    counts.insert("rules".to_string(), 1);
    let dfa = vec![0xAAu8; 1000];
    let bytes = table::encode(&stamps, &counts, &[(2, b"strings"), (1, &dfa)]);
    assert_eq!(
        bytes,
        table::encode(&stamps, &counts, &[(1, &dfa), (2, b"strings")])
    );
    assert!(bytes.len() as u64 <= table::MAX_TABLE_BYTES);

    let path = d.path().join("policy.bin");
    let e = Table::open(&path).unwrap_err();
    assert!(e.is_missing());
    table::write_atomic(&path, &bytes).unwrap();

    let t = Table::open(&path).unwrap();
    assert_eq!(t.section(1), Some(&dfa[..]));
    assert_eq!(t.section(2), Some(&b"strings"[..]));
    assert_eq!(t.section(1).unwrap().as_ptr() as usize % 64, 0);
    assert_eq!(t.meta().counts, counts);
    assert_eq!(t.bytes(), &bytes[..]);
    t.check_fresh().unwrap();

    std::fs::write(&src, b"allow rm\n").unwrap();
    let e = t.check_fresh().unwrap_err();
    assert!(matches!(e, LoadError::Stale { .. }));
    assert_eq!(
        e.describe(&path).lines().count(),
        1,
        "one line: {}",
        e.describe(&path)
    );

    let again = Table::from_bytes(bytes.clone()).unwrap();
    assert_eq!(again.meta(), t.meta());
    std::env::remove_var("POLC_CACHE_DIR");
}
