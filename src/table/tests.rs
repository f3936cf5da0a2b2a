//! Tests of the table format: round trip, determinism, every single-byte flip and every
//! truncation caught (in memory and through a cached file rewritten in place), hostile
//! headers and directories, special files, the size cap, staleness, and a proptest.

use std::collections::BTreeMap;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::time::Duration;

use super::cache::{self, FileKey};
use super::header::{Header, CHECKSUM_AT, HEADER_LEN};
use super::*;
use crate::ir::{fnv1a64, SourceStamp};

fn stamp(path: &str, content: &[u8]) -> SourceStamp {
    SourceStamp {
        path: path.into(),
        size: content.len() as u64,
        hash: fnv1a64(content),
    }
}

fn counts() -> BTreeMap<String, u64> {
    let mut c = BTreeMap::new();
    c.insert("rules".to_string(), 3);
    c.insert("patterns".to_string(), 7);
    c
}

/// A small table (a few hundred bytes) with three sections, one empty.
fn small() -> Vec<u8> {
    let s1: &[u8] = b"first section";
    let s2: &[u8] = &[1, 2, 3, 4, 5, 6, 7, 8, 9];
    encode(
        &[stamp("policies/default.pol", b"allow x\n")],
        &counts(),
        &[(7, s2), (1, s1), (3, &[])],
    )
}

/// Recomputes the checksum after a deliberate edit, so the structural checks are reached.
fn reseal(b: &mut [u8]) {
    if b.len() >= CHECKSUM_AT + 4 {
        let c = header::file_checksum(b);
        b[CHECKSUM_AT..CHECKSUM_AT + 4].copy_from_slice(&c.to_le_bytes());
    }
}

/// A file of `file_len` bytes: header, `meta` at 64, zeros after, checksum sealed.
fn raw(meta: &Meta, file_len: u64) -> Vec<u8> {
    let m = codec::encode_meta(meta).unwrap();
    let mut out = vec![0u8; (file_len as usize).max(HEADER_LEN + m.len())];
    let h = Header {
        version: FORMAT_VERSION,
        flags: 0,
        file_len: out.len() as u64,
        meta_off: HEADER_LEN as u64,
        meta_len: m.len() as u64,
        checksum: 0,
        stamp_hash: fnv1a64(&codec::encode_sources(&meta.sources)),
    };
    out[..HEADER_LEN].copy_from_slice(&h.to_bytes());
    out[HEADER_LEN..HEADER_LEN + m.len()].copy_from_slice(&m);
    reseal(&mut out);
    out
}

fn meta_with(sections: Vec<SectionEntry>) -> Meta {
    Meta {
        polc_version: "t".into(),
        sources: vec![],
        sections,
        counts: BTreeMap::new(),
    }
}

#[test]
fn round_trip() {
    let b = small();
    let t = Table::from_bytes(b.clone()).unwrap();
    assert_eq!(t.bytes(), &b[..]);
    assert_eq!(t.section(1), Some(&b"first section"[..]));
    assert_eq!(t.section(7), Some(&[1u8, 2, 3, 4, 5, 6, 7, 8, 9][..]));
    assert_eq!(t.section(3), Some(&[][..]));
    assert_eq!(t.section(2), None);
    assert_eq!(t.meta().counts, counts());
    assert_eq!(t.meta().polc_version, env!("CARGO_PKG_VERSION"));
    assert_eq!(
        t.meta().sources,
        vec![stamp("policies/default.pol", b"allow x\n")]
    );
    let kinds: Vec<u32> = t.meta().sections.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, vec![1, 3, 7]);
    for e in &t.meta().sections {
        assert_eq!(e.offset % SECTION_ALIGN, 0);
        let s = t.section(e.kind).unwrap();
        if !s.is_empty() {
            assert_eq!(s.as_ptr() as usize % 64, 0, "kind {}", e.kind);
        }
    }
    assert_eq!(t.integrity(), Integrity::Checked);
}

#[test]
fn empty_table_round_trips() {
    let b = encode(&[], &BTreeMap::new(), &[]);
    let t = Table::from_bytes(b).unwrap();
    assert!(t.meta().sections.is_empty());
    assert_eq!(t.section(0), None);
    t.check_fresh().unwrap();
}

#[test]
#[should_panic(expected = "duplicate section kind")]
fn encode_refuses_duplicate_kinds() {
    encode(&[], &BTreeMap::new(), &[(1, b"a"), (1, b"b")]);
}

#[test]
fn deterministic_bytes() {
    assert_eq!(small(), small());
    // Section order in the call does not matter.
    let a = encode(&[], &counts(), &[(1, b"x"), (2, b"yy")]);
    let b = encode(&[], &counts(), &[(2, b"yy"), (1, b"x")]);
    assert_eq!(a, b);
    // Large offsets (multi-byte varints) still reach the fixed point.
    let big = vec![9u8; 300_000];
    let c = encode(&[], &counts(), &[(1, &big), (2, &big), (300, b"z")]);
    assert_eq!(
        c,
        encode(&[], &counts(), &[(300, b"z"), (2, &big), (1, &big)])
    );
    let t = Table::from_bytes(c).unwrap();
    assert_eq!(t.section(300), Some(&b"z"[..]));
}

#[test]
fn every_single_byte_change_of_a_small_table_is_caught() {
    let b = small();
    assert!(b.len() < 1024, "{}", b.len());
    for i in 0..b.len() {
        for x in 1..=255u8 {
            let mut c = b.clone();
            c[i] ^= x;
            assert!(
                Table::from_bytes(c).is_err(),
                "byte {i} ^ {x:#04x} accepted"
            );
        }
    }
}

#[test]
fn sampled_byte_changes_of_a_larger_table_are_caught() {
    let s1: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
    let s2 = vec![0u8; 50_000];
    let b = encode(
        &[stamp("a.pol", b"a"), stamp("/abs/b.pol", b"bb")],
        &counts(),
        &[(1, &s1), (2, &s2)],
    );
    Table::from_bytes(b.clone()).unwrap();
    let mut i = 0;
    while i < b.len() {
        for x in [0x01u8, 0x80, 0xff] {
            let mut c = b.clone();
            c[i] ^= x;
            assert!(
                Table::from_bytes(c).is_err(),
                "byte {i} ^ {x:#04x} accepted"
            );
        }
        i += if i < 512 { 1 } else { 997 };
    }
}

#[test]
fn every_truncation_of_a_small_table_is_caught() {
    let b = small();
    for n in 0..b.len() {
        assert!(Table::from_bytes(b[..n].to_vec()).is_err(), "length {n}");
    }
    assert!(matches!(
        Table::from_bytes(b[..10].to_vec()),
        Err(LoadError::Truncated { len: 10, need: 64 })
    ));
    let mut longer = b.clone();
    longer.push(0);
    assert!(Table::from_bytes(longer).is_err());
}

#[test]
fn wrong_magic_version_endianness() {
    let b = small();
    let mut m = b.clone();
    m[0] = b'X';
    reseal(&mut m);
    assert_eq!(Table::from_bytes(m).unwrap_err(), LoadError::BadMagic);

    let mut v = b.clone();
    // A version-1 table (before the section format moved to `sections`) is refused, and
    // the message says what to run.
    v[8..12].copy_from_slice(&1u32.to_le_bytes());
    reseal(&mut v);
    let err = Table::from_bytes(v).unwrap_err();
    assert_eq!(
        err,
        LoadError::UnsupportedVersion {
            found: 1,
            expected: FORMAT_VERSION
        }
    );
    assert!(
        err.to_string()
            .contains("run `polc build`, then `polc trust`"),
        "{err}"
    );

    let mut e = b.clone();
    e[12..16].copy_from_slice(&0x0102_0304u32.to_be_bytes());
    e[8..12].copy_from_slice(&FORMAT_VERSION.to_be_bytes());
    reseal(&mut e);
    assert_eq!(
        Table::from_bytes(e).unwrap_err(),
        LoadError::WrongEndianness
    );

    assert_eq!(
        Table::from_bytes(b"#!/bin/sh\necho not a table\n".repeat(5)).unwrap_err(),
        LoadError::BadMagic
    );
}

#[test]
fn hostile_section_directories_are_refused() {
    let e = |kind, offset, len| SectionEntry { kind, offset, len };
    // Find where the first section would go for a one-entry directory.
    let probe = raw(&meta_with(vec![e(1, 0, 0)]), 0);
    let first = write::align_up(probe.len() as u64).unwrap();
    let cases: Vec<(&str, Vec<SectionEntry>, u64)> = vec![
        ("past the end", vec![e(1, first, 1000)], first + 10),
        ("overflowing", vec![e(1, first, u64::MAX - 3)], first + 10),
        ("misaligned", vec![e(1, first + 4, 4)], first + 8),
        ("inside the metadata", vec![e(1, 0, 8)], first + 8),
        (
            "duplicate kinds",
            vec![e(1, first, 0), e(1, first, 0)],
            first,
        ),
        (
            "unsorted kinds",
            vec![e(2, first, 0), e(1, first, 0)],
            first,
        ),
        (
            "overlapping",
            vec![e(1, first, 128), e(2, first + 64, 8)],
            first + 192,
        ),
        ("gap after", vec![e(1, first, 8)], first + 200),
    ];
    for (what, secs, len) in cases {
        let b = raw(&meta_with(secs), len);
        assert!(
            matches!(Table::from_bytes(b), Err(LoadError::Corrupt { .. })),
            "{what}"
        );
    }
    // The well-formed version of the same thing loads.
    let mut ok = raw(&meta_with(vec![e(1, first, 8)]), first + 8);
    ok[first as usize] = 42;
    reseal(&mut ok);
    assert_eq!(Table::from_bytes(ok).unwrap().section(1).unwrap()[0], 42);
    // Non-zero padding between metadata and section.
    let mut pad = raw(&meta_with(vec![e(1, first, 8)]), first + 8);
    pad[first as usize - 1] = 1;
    reseal(&mut pad);
    assert!(Table::from_bytes(pad).is_err());
    // A metadata length over the limit.
    let mut big = small();
    big[40..48].copy_from_slice(&(u64::MAX - 10).to_le_bytes());
    reseal(&mut big);
    assert!(matches!(
        Table::from_bytes(big),
        Err(LoadError::Corrupt { .. })
    ));
}

// ---- Files ---------------------------------------------------------------------------

fn settle_then<T>(f: impl FnOnce() -> T) -> T {
    std::thread::sleep(cache::SETTLE + Duration::from_millis(100));
    f()
}

/// A table over `PRIVATE_COPY_MAX`: mapped under a read lease when the kernel grants one;
/// opening it for writing afterwards marks it changed (a decision from it is denied).
#[test]
fn large_table_is_leased_and_a_writer_marks_it_changed() {
    use std::io::Write;
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("policy.bin");
    let big = vec![7u8; (super::load::PRIVATE_COPY_MAX + 4096) as usize];
    let bytes = encode(&[], &counts(), &[(1, &big[..])]);
    write_atomic(&p, &bytes).unwrap();
    let t = Table::open_with_cache(&p, None).unwrap();
    assert_eq!(t.bytes(), &bytes[..]);
    if !t.is_mapped() {
        // No lease here (file system or privileges): a private copy, never changed.
        assert!(!t.changed());
        return;
    }
    assert!(!t.changed());
    assert!(t.identity().is_some());
    // A writer opening it (even to write nothing) breaks the lease before its open returns.
    let w = std::thread::spawn({
        let p = p.clone();
        move || {
            let mut f = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
            f.write_all(b"").unwrap();
        }
    });
    let t0 = std::time::Instant::now();
    while !t.changed() && t0.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(1));
    }
    w.join().unwrap();
    assert!(t.changed());
    // While any writer holds the file open, no lease is granted: a private copy.
    let _w = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
    let u = Table::open_with_cache(&p, None).unwrap();
    assert!(!u.is_mapped());
    assert!(!u.changed());
}

#[test]
fn open_maps_and_aligns_sections() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("policy.bin");
    write_atomic(&p, &small()).unwrap();
    let t = Table::open_with_cache(&p, None).unwrap();
    assert_eq!(t.bytes(), &small()[..]);
    // A small table is a private copy (issue 12): nothing a writer does reaches it.
    assert!(!t.is_mapped());
    assert_eq!(t.bytes().as_ptr() as usize % 64, 0);
    assert_eq!(t.section(7).unwrap().as_ptr() as usize % 64, 0);
    assert_eq!(t.path(), Some(p.as_path()));
    let u = Table::open_unmapped(&p, None).unwrap();
    assert_eq!(u.bytes(), &small()[..]);
    assert_eq!(u.section(7).unwrap().as_ptr() as usize % 64, 0);
    assert_eq!(u.meta(), t.meta());
    // The unmapped copy is a snapshot: truncating the file afterwards does not affect it.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&p)
        .unwrap()
        .set_len(0)
        .unwrap();
    assert_eq!(u.section(1), Some(&b"first section"[..]));
    assert!(Table::open_unmapped(&p, None).is_err());
}

#[test]
fn cached_verification_and_in_place_rewrites() {
    let d = tempfile::tempdir().unwrap();
    let cache_dir = d.path().join("cache");
    let p = d.path().join("policy.bin");
    let b = small();
    write_atomic(&p, &b).unwrap();

    // A fresh file is verified but not cached yet (its ctime is too recent).
    let t = Table::open_with_cache(&p, Some(&cache_dir)).unwrap();
    assert_eq!(t.integrity(), Integrity::Checked);
    assert!(!cache_dir.join(cache::VERIFIED).exists());

    // Once settled: verified and recorded; the next open skips the CRC.
    settle_then(|| {
        let t = Table::open_with_cache(&p, Some(&cache_dir)).unwrap();
        assert_eq!(t.integrity(), Integrity::Checked);
    });
    let t = Table::open_with_cache(&p, Some(&cache_dir)).unwrap();
    assert_eq!(t.integrity(), Integrity::Cached);
    assert_eq!(t.bytes(), &b[..]);
    drop(t);

    // Every single-byte change written in place (same inode) is caught.
    let f = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
    for i in 0..b.len() {
        f.write_at(&[b[i] ^ 0x01], i as u64).unwrap();
        let r = Table::open_with_cache(&p, Some(&cache_dir));
        assert!(r.is_err(), "in-place change at byte {i} accepted");
        f.write_at(&b[i..i + 1], i as u64).unwrap();
    }
    // Every truncation in place, too.
    for n in 0..b.len() as u64 {
        f.set_len(n).unwrap();
        assert!(
            Table::open_with_cache(&p, Some(&cache_dir)).is_err(),
            "truncated to {n}"
        );
        f.set_len(b.len() as u64).unwrap();
        f.write_at(&b, 0).unwrap();
    }
    // Restored content: a new key, so a full check, which passes.
    let t = Table::open_with_cache(&p, Some(&cache_dir)).unwrap();
    assert_eq!(t.integrity(), Integrity::Checked);
}

#[test]
fn settled_key_is_recorded_and_reused_with_zero_settle() {
    // The internal entry point with no settle delay, to exercise the cache quickly.
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("t.bin");
    write_atomic(&p, &small()).unwrap();
    let t = Table::open_inner(&p, Some(d.path()), Duration::ZERO, true).unwrap();
    assert_eq!(t.integrity(), Integrity::Checked);
    let key = FileKey::of(&std::fs::metadata(&p).unwrap());
    let h = Header::parse(&small()).unwrap();
    assert!(cache::contains(
        d.path(),
        cache::VERIFIED,
        &cache::verified_line(&key, h.checksum)
    ));
    let t = Table::open_inner(&p, Some(d.path()), Duration::ZERO, true).unwrap();
    assert_eq!(t.integrity(), Integrity::Cached);
    // A replaced file (rename: new inode) is checked again.
    let mut c = small();
    c[HEADER_LEN + 3] ^= 0x10;
    write_atomic(&p, &c).unwrap();
    assert!(Table::open_inner(&p, Some(d.path()), Duration::ZERO, true).is_err());
    // A corrupted cache only means a full check.
    std::fs::write(d.path().join(cache::VERIFIED), b"\xff\xfe garbage\n\n").unwrap();
    write_atomic(&p, &small()).unwrap();
    let t = Table::open_inner(&p, Some(d.path()), Duration::ZERO, true).unwrap();
    assert_eq!(t.integrity(), Integrity::Checked);
}

#[test]
fn special_files_fail_fast() {
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("fifo.bin");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo has no other preconditions.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let t0 = std::time::Instant::now();
    assert!(matches!(
        Table::open_with_cache(&fifo, None),
        Err(LoadError::NotRegularFile { .. })
    ));
    assert!(t0.elapsed() < Duration::from_secs(2));
    assert!(matches!(
        Table::open_with_cache(d.path(), None),
        Err(LoadError::NotRegularFile { .. })
    ));
    assert!(matches!(
        Table::open_with_cache(Path::new("/dev/null"), None),
        Err(LoadError::NotRegularFile { .. })
    ));
}

#[test]
fn over_the_cap_is_refused_without_reading() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("huge.bin");
    let f = std::fs::File::create(&p).unwrap();
    f.write_at(&small(), 0).unwrap();
    f.set_len(MAX_TABLE_BYTES + 1).unwrap(); // sparse
    match Table::open_with_cache(&p, None) {
        Err(LoadError::TooLarge { size, .. }) => assert_eq!(size, MAX_TABLE_BYTES + 1),
        other => panic!("{other:?}"),
    }
    // At the cap exactly: opened, but the header's length does not match.
    f.set_len(MAX_TABLE_BYTES).unwrap();
    assert!(matches!(
        Table::open_with_cache(&p, None),
        Err(LoadError::Corrupt { .. })
    ));
}

#[test]
fn missing_tables() {
    let d = tempfile::tempdir().unwrap();
    let e = Table::open_with_cache(&d.path().join("nope.bin"), None).unwrap_err();
    assert!(e.is_missing(), "{e}");
    let e = Table::open_with_cache(&d.path().join("no/such/dir/t.bin"), None).unwrap_err();
    assert!(e.is_missing(), "{e}");
    // A parent that is a regular file.
    let f = d.path().join("file");
    std::fs::write(&f, b"x").unwrap();
    assert!(Table::open_with_cache(&f.join("t.bin"), None)
        .unwrap_err()
        .is_missing());
    // Too short to be a table: truncated (or bad magic if it visibly is not one).
    std::fs::write(&f, b"POLC").unwrap();
    assert!(matches!(
        Table::open_with_cache(&f, None),
        Err(LoadError::Truncated { len: 4, need: 64 })
    ));
    std::fs::write(&f, b"{\"not\": \"a table\"}").unwrap();
    assert_eq!(
        Table::open_with_cache(&f, None).unwrap_err(),
        LoadError::BadMagic
    );
    assert!(!LoadError::BadMagic.is_missing());
}

#[test]
fn write_atomic_replaces_and_leaves_no_temp() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("policy.bin");
    write_atomic(&p, b"one").unwrap();
    write_atomic(&p, b"two, longer").unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"two, longer");
    let names: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("policy.bin")]);
    assert!(write_atomic(&d.path().join("missing/x.bin"), b"x").is_err());
    // A relative path in the current folder has a parent of "": handled as ".".
    assert!(write_atomic(Path::new(""), b"x").is_err());
}

// ---- Staleness ------------------------------------------------------------------------

struct Project {
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
    table: std::path::PathBuf,
}

/// root/policies/default.pol, root/abs.pol (recorded by absolute path) and the table at
/// root/compiled/policy.bin, with sources relative to the table's folder.
fn project() -> Project {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    std::fs::create_dir_all(root.join("policies")).unwrap();
    std::fs::create_dir_all(root.join("compiled")).unwrap();
    let a = b"allow git status\n";
    let b = b"deny rm -rf /\n";
    std::fs::write(root.join("policies/default.pol"), a).unwrap();
    std::fs::write(root.join("abs.pol"), b).unwrap();
    let abs = root.join("abs.pol").to_string_lossy().into_owned();
    let bytes = encode(
        &[stamp("../policies/default.pol", a), stamp(&abs, b)],
        &BTreeMap::new(),
        &[(1, b"x")],
    );
    let table = root.join("compiled/policy.bin");
    write_atomic(&table, &bytes).unwrap();
    Project {
        _dir: dir,
        root,
        table,
    }
}

#[test]
fn fresh_then_stale_on_change() {
    let p = project();
    let cache_dir = p.root.join("cache");
    let t = Table::open_with_cache(&p.table, None).unwrap();
    t.check_fresh_with_cache(Some(&cache_dir)).unwrap();
    t.check_fresh_with_cache(None).unwrap();

    // Same size, different content.
    let src = p.root.join("policies/default.pol");
    std::fs::write(&src, b"allow git statuS\n").unwrap();
    let e = t.check_fresh_with_cache(Some(&cache_dir)).unwrap_err();
    assert_eq!(
        e,
        LoadError::Stale {
            source: "../policies/default.pol".into()
        }
    );
    assert!(e.to_string().contains("run `polc build`"));
    // Different size.
    std::fs::write(&src, b"allow git status --short\n").unwrap();
    assert!(matches!(
        t.check_fresh_with_cache(None),
        Err(LoadError::Stale { .. })
    ));
    // Restored: fresh again.
    std::fs::write(&src, b"allow git status\n").unwrap();
    t.check_fresh_with_cache(Some(&cache_dir)).unwrap();

    // The absolute source.
    std::fs::write(p.root.join("abs.pol"), b"deny rm -rf ~\n").unwrap();
    match t.check_fresh_with_cache(None) {
        Err(LoadError::Stale { source }) => assert!(source.ends_with("abs.pol")),
        other => panic!("{other:?}"),
    }
    std::fs::write(p.root.join("abs.pol"), b"deny rm -rf /\n").unwrap();
    t.check_fresh_with_cache(None).unwrap();

    // A folder where the source was: stale.
    std::fs::remove_file(&src).unwrap();
    std::fs::create_dir(&src).unwrap();
    assert!(matches!(
        t.check_fresh_with_cache(None),
        Err(LoadError::Stale { .. })
    ));
    // A source that no longer exists: not stale (tables may ship without sources).
    std::fs::remove_dir(&src).unwrap();
    t.check_fresh_with_cache(None).unwrap();
}

#[test]
fn touch_without_change_is_fresh_and_cached() {
    let p = project();
    let cache_dir = p.root.join("cache");
    let src = p.root.join("policies/default.pol");
    let t = Table::open_with_cache(&p.table, None).unwrap();
    // Touch: new mtime and ctime, same content.
    let f = std::fs::File::options().write(true).open(&src).unwrap();
    f.set_modified(std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000))
        .unwrap();
    drop(f);
    t.check_fresh_inner(Some(&cache_dir), Duration::ZERO)
        .unwrap();
    // Recorded for this key and stamp, so the next call does not hash.
    let key = FileKey::of(&std::fs::metadata(&src).unwrap());
    let s = &t.meta().sources[0];
    assert!(cache::contains(
        &cache_dir,
        cache::FRESH,
        &cache::fresh_line(&key, s.size, s.hash)
    ));
    t.check_fresh_inner(Some(&cache_dir), Duration::ZERO)
        .unwrap();
}

#[test]
fn from_bytes_tables_skip_relative_sources() {
    let t = Table::from_bytes(small()).unwrap();
    assert_eq!(t.path(), None);
    t.check_fresh_with_cache(None).unwrap();
}

// ---- Messages --------------------------------------------------------------------------

#[test]
fn messages_are_one_line_and_say_what_to_run() {
    let p = std::path::PathBuf::from("compiled/policy.bin");
    let all = vec![
        LoadError::Missing { path: p.clone() },
        LoadError::NotRegularFile { path: p.clone() },
        LoadError::TooLarge {
            path: p.clone(),
            size: 1 << 30,
        },
        LoadError::Truncated { len: 3, need: 64 },
        LoadError::BadMagic,
        LoadError::UnsupportedVersion {
            found: 9,
            expected: 1,
        },
        LoadError::WrongEndianness,
        LoadError::Corrupt {
            what: "checksum mismatch".into(),
        },
        LoadError::Stale {
            source: "policies/default.pol".into(),
        },
        LoadError::Io {
            path: p.clone(),
            err: "Permission denied".into(),
        },
    ];
    for e in all {
        for m in [e.to_string(), e.describe(&p)] {
            assert!(!m.contains('\n'), "{m}");
            assert!(m.contains("polc build"), "{m}");
        }
        assert!(e.describe(&p).contains("compiled/policy.bin"), "{e:?}");
    }
    assert_eq!(
        LoadError::Stale {
            source: "policies/default.pol".into()
        }
        .describe(&p),
        "polc table compiled/policy.bin is older than its source policies/default.pol: run `polc build`"
    );
}

// ---- Figures (release, ignored) ---------------------------------------------------------

/// `cargo test --release --lib table::tests::open_timings -- --ignored --nocapture`
#[test]
#[ignore]
fn open_timings() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("big.bin");
    let sec: Vec<u8> = (0..(64u32 << 20)).map(|i| (i >> 3) as u8).collect();
    write_atomic(&p, &encode(&[], &counts(), &[(1, &sec)])).unwrap();
    drop(sec);
    let t0 = std::time::Instant::now();
    let t = Table::open_inner(&p, Some(d.path()), Duration::ZERO, true).unwrap();
    let cold = t0.elapsed();
    assert_eq!(t.integrity(), Integrity::Checked);
    drop(t);
    let t0 = std::time::Instant::now();
    let n = 100;
    for _ in 0..n {
        let t = Table::open_inner(&p, Some(d.path()), Duration::ZERO, true).unwrap();
        assert_eq!(t.integrity(), Integrity::Cached);
    }
    let warm = t0.elapsed() / n;
    println!("64 MiB table: cold open (full CRC) {cold:?}, warm open (cached) {warm:?}");
}

// ---- Property: no input panics ----------------------------------------------------------

mod prop {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let _ = Table::from_bytes(bytes);
        }

        #[test]
        fn random_bytes_after_a_valid_header_never_panic(
            tail in proptest::collection::vec(any::<u8>(), 0..400),
            meta_len in 0u64..600,
            file_len in 0u64..700,
        ) {
            let h = Header {
                version: FORMAT_VERSION, flags: 0, file_len, meta_off: 64, meta_len,
                checksum: 0, stamp_hash: 0,
            };
            let mut b = h.to_bytes().to_vec();
            b.extend_from_slice(&tail);
            reseal(&mut b);
            let _ = Table::from_bytes(b);
        }

        /// Edits that pass the CRC (resealed) reach the structural checks: no panic, and
        /// anything accepted hands out in-bounds, aligned sections.
        #[test]
        fn resealed_edits_never_panic(
            edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6),
            cut in proptest::option::of(any::<usize>()),
        ) {
            let mut b = small();
            for (at, v) in edits {
                let n = b.len();
                b[at % n] = v;
            }
            if let Some(c) = cut {
                let n = b.len();
                b.truncate(c % (n + 1));
            }
            reseal(&mut b);
            if let Ok(t) = Table::from_bytes(b) {
                for e in &t.meta().sections {
                    let s = t.section(e.kind).unwrap();
                    prop_assert_eq!(s.len() as u64, e.len);
                    prop_assert!(s.is_empty() || (s.as_ptr() as usize).is_multiple_of(64));
                }
            }
        }
    }
}
