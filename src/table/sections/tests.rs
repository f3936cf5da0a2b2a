//! Each section writes, reads and checks itself: round trips, and the check at open names
//! the section and what is wrong.

use super::groups::{build_segments, build_tools};
use super::keys::{index_key, tool_lookup_keys};
use super::*;
use crate::ir::{PatternKind, Tier, Verdict};
use crate::pattern::SegPattern;

fn rule(i: u32) -> RuleRecord {
    RuleRecord {
        verdict: [Verdict::Allow, Verdict::Ask, Verdict::Deny][i as usize % 3],
        tier: [Tier::Project, Tier::User, Tier::Managed][i as usize % 3],
        bash: i.is_multiple_of(2),
        priority: -(i as i32),
        literal: i + 1,
        wildcards: i + 2,
        hosts: 1 << (i % 5),
        tool: Span::new(i, 3),
        id: Span::new(i + 1, 4),
        text: Span::new(i + 2, 5),
        reason: (i % 2 == 1).then(|| Span::new(i + 3, 6)),
        file: Span::new(i + 4, 7),
        line: i + 10,
        column: i + 20,
    }
}

#[test]
fn rule_records_round_trip() {
    let mut b = Vec::new();
    for i in 0..7 {
        rule(i).write(&mut b);
    }
    let rules = Rules::new(&b).unwrap();
    assert_eq!(rules.count(), 7);
    for i in 0..7 {
        assert_eq!(rules.get(i).unwrap().record().unwrap(), rule(i));
    }
    assert_eq!(rules.get(7).unwrap_err(), Bad);
    let e = Rules::new(&b[..b.len() - 4]).unwrap_err();
    assert_eq!(e.kind, Kind::Rules);
    assert!(e.to_string().contains("section 2 (rules)"), "{e}");
}

fn seg(kind: PatternKind, text: &str, r: u32) -> (Option<Vec<u8>>, u32, Vec<u8>) {
    let p = SegPattern::compile(kind, text, false).unwrap();
    (index_key(&p.body).map(|k| k.to_vec()), r, p.to_bytes())
}

#[test]
fn segment_index_round_trips_and_finds_groups() {
    let mut s = StringsWriter::default();
    let [pats, idx, hash, filters] = build_segments(
        &mut s,
        vec![
            seg(PatternKind::Prefix, "git status", 0),
            seg(PatternKind::Glob, "*.sh --help", 1),
            seg(PatternKind::Prefix, "git", 2),
            seg(PatternKind::Glob, "git push *", 3),
            seg(PatternKind::Prefix, "git status", 4),
        ],
    );
    let kinds = Kind::DENY_ASK;
    let g = GroupIndex::segments(kinds, [&pats, &idx, &hash, &filters]).unwrap();
    let strings = Strings::new(&s.bytes);
    assert_eq!(g.entries(&g.wild()).unwrap(), 0..1);
    assert_eq!(g.seg_entry(0).unwrap().rule, 1);
    let st = g.find(&strings, b"git status").unwrap().unwrap();
    let rules: Vec<u32> = g
        .entries(&st)
        .unwrap()
        .map(|e| g.seg_entry(e).unwrap().rule)
        .collect();
    assert_eq!(rules, [0, 4], "rule order inside a group");
    assert!(g.find(&strings, b"git stat").unwrap().is_none());
    assert_eq!(g.group_count(), 3);
    assert_eq!(g.first_at_least(&strings, b"git p").unwrap(), 1);
    assert!(g.range(0, 6).is_err());
    // The check at open: group count against length, the wild group against the entries.
    let mut short = idx.clone();
    short.truncate(idx.len() - 4);
    let e = GroupIndex::segments(kinds, [&pats, &short, &hash, &filters]).unwrap_err();
    assert_eq!(e.kind, Kind::DenyAskIndex);
    let mut wild = idx.clone();
    wild[8..12].copy_from_slice(&9u32.to_le_bytes());
    let e = GroupIndex::segments(kinds, [&pats, &wild, &hash, &filters]).unwrap_err();
    assert!(e.what.contains("wild group"), "{e}");
    let e =
        GroupIndex::segments(kinds, [&pats, &idx, &hash[..hash.len() - 4], &filters]).unwrap_err();
    assert_eq!(e.kind, Kind::DenyAskHash);
    let e = GroupIndex::segments(kinds, [&pats[..7], &idx, &hash, &filters]).unwrap_err();
    assert_eq!(e.kind, Kind::DenyAskPatterns);
}

#[test]
fn tool_index_keys_agree_with_lookups() {
    let mut s = StringsWriter::default();
    let text = s.add(b"x");
    let entry = |rule| ToolEntry {
        rule,
        kind: PatternKind::Glob as u32,
        text,
    };
    let (pats, idx) = build_tools(
        &mut s,
        vec![
            (keys::tool_key("mcp__srv"), entry(0)),
            (keys::tool_key("mcp__*"), entry(1)),
            (keys::tool_key("webfetch"), entry(2)),
        ],
    );
    let g = GroupIndex::tools(&pats, &idx).unwrap();
    let strings = Strings::new(&s.bytes);
    assert_eq!(g.tool_entry(g.wild().start).unwrap().rule, 1);
    let found: Vec<u32> = tool_lookup_keys("mcp__srv__tool")
        .iter()
        .filter_map(|k| g.find(&strings, k).unwrap())
        .map(|grp| g.tool_entry(grp.start).unwrap().rule)
        .collect();
    assert_eq!(found, [0]);
}

#[test]
fn content_index_round_trips_and_checks_its_length() {
    let mut s = StringsWriter::default();
    let idx = ContentIndex::build(
        &[
            (0, Some(vec![b"AKIA".to_vec()])),
            (1, None),
            (2, Some(vec![b"ab".to_vec(), b"password=".to_vec()])),
        ],
        |b| s.add(b),
    );
    let mut ents = Vec::new();
    for r in 0..3 {
        ContentEntry {
            rule: r,
            kind: PatternKind::Contains as u32,
            data: Span::new(0, 1),
        }
        .write(&mut ents);
    }
    let c = Contents::new(&ents, &idx).unwrap();
    let strings = Strings::new(&s.bytes);
    assert_eq!(c.candidates(&strings, &[b"x AKIA1"]).unwrap(), [0, 1]);
    assert_eq!(c.candidates(&strings, &[b"password=1"]).unwrap(), [1, 2]);
    assert_eq!(c.candidates(&strings, &[b"zz"]).unwrap(), [1]);
    assert_eq!(c.get(2).unwrap().rule, 2);
    assert!(c.get(3).is_err());
    let e = Contents::new(&ents, &idx[..idx.len() - 4]).unwrap_err();
    assert_eq!(e.kind, Kind::ContentIndex);
    // An empty index (no content rules) still has its one bucket start.
    let empty = ContentIndex::build(&[], |b| s.add(b));
    assert!(Contents::new(&[], &empty).is_ok());
}

#[test]
fn path_entries_round_trip() {
    let e = PathEntry {
        rule: 3,
        anchor: 1,
        exact: Span::new(8, 100),
        folded: Span::new(112, 90),
        glob: Span::new(5, 6),
    };
    let mut b = Vec::new();
    e.write(&mut b);
    let p = Paths::new(&b).unwrap();
    assert_eq!(p.get(0).unwrap(), e);
    assert!(p.get(1).is_err());
    assert_eq!(Paths::new(&b[..31]).unwrap_err().kind, Kind::Paths);
}

#[test]
fn a_missing_section_is_named() {
    let e = Sections::new(|_| None).unwrap_err();
    assert_eq!(e.kind, Kind::Strings);
    assert!(e.to_string().contains("missing"), "{e}");
}

#[test]
fn words_never_panic() {
    let w = Words::new(&[1, 0, 0, 0, 2]);
    assert_eq!(w.len(), 1);
    assert_eq!(w.get(0), Ok(1));
    assert_eq!(w.get(1), Err(Bad));
    assert_eq!(w.get(usize::MAX), Err(Bad));
    assert!(w.record::<2>(0).is_err());
    assert!(w.sub(usize::MAX, 2).is_err());
}

#[test]
fn index_keys() {
    let key = |kind, t: &str| {
        let p = SegPattern::compile(kind, t, false).unwrap();
        index_key(&p.body).map(|k| String::from_utf8_lossy(k).into_owned())
    };
    assert_eq!(
        key(PatternKind::Prefix, "git status --short -v").as_deref(),
        Some("git status --short")
    );
    assert_eq!(key(PatternKind::Prefix, "git").as_deref(), Some("git"));
    assert_eq!(
        key(PatternKind::Glob, "git push *").as_deref(),
        Some("git push")
    );
    assert_eq!(key(PatternKind::Glob, "git pu*").as_deref(), Some("git"));
    assert_eq!(key(PatternKind::Glob, "*.sh --help"), None);
}

/// Compile `globs` into one group (key `git`) and match `reading` through the group's filter.
fn filtered(globs: &[Vec<u8>], reading: &[u8]) -> (Vec<u32>, Vec<u32>) {
    let mut s = StringsWriter::default();
    let entries: Vec<_> = globs
        .iter()
        .enumerate()
        .map(|(i, body)| {
            let p = SegPattern {
                body: body.clone(),
                tail: i % 2 == 0,
            };
            (Some(b"git".to_vec()), i as u32, p.to_bytes())
        })
        .collect();
    let [pats, idx, hash, filters] = build_segments(&mut s, entries);
    let g = GroupIndex::segments(Kind::ALLOW, [&pats, &idx, &hash, &filters]).unwrap();
    let strings = Strings::new(&s.bytes);
    let grp = g.find(&strings, b"git").unwrap().unwrap();
    let matches = |e: u32| {
        let p = strings.bytes(g.seg_entry(e).unwrap().pattern).unwrap();
        crate::pattern::match_bytes(p, reading).is_some()
    };
    let all: Vec<u32> = g.entries(&grp).unwrap().filter(|&e| matches(e)).collect();
    let cands = g.candidates(&grp, &strings, reading).unwrap();
    let via: Vec<u32> = match cands {
        Some(c) => c.into_iter().filter(|&e| matches(e)).collect(),
        None => all.clone(),
    };
    (via, all)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1500))]
    /// A group's filter never drops an entry that matches: the entries matched through the
    /// candidates are exactly those matched by trying every entry (`pattern::glob_tail`).
    #[test]
    fn group_filters_keep_every_match(
        tails in proptest::collection::vec(
            proptest::collection::vec(proptest::sample::select(vec![b'a', b'b', b'z', b'1', b' ', crate::pattern::STAR]), 0..8),
            8..24),
        rest in proptest::collection::vec(proptest::sample::select(vec![b'a', b'b', b'z', b'1', b' ']), 0..16),
    ) {
        let globs: Vec<Vec<u8>> = tails.iter().map(|t| [b"git ".to_vec(), t.clone()].concat()).collect();
        let reading = [b"git ".to_vec(), rest].concat();
        let (via, all) = filtered(&globs, &reading);
        proptest::prop_assert_eq!(via, all);
    }
}

#[test]
fn a_filter_skips_globs_whose_literal_is_absent() {
    let globs: Vec<Vec<u8>> = (0..100)
        .map(|i| {
            let mut b = b"git ".to_vec();
            b.push(crate::pattern::STAR);
            b.extend_from_slice(format!(" z{i}").as_bytes());
            b
        })
        .collect();
    let (via, all) = filtered(&globs, b"git push z42");
    assert_eq!(via, all);
    assert_eq!(all, [42]);
    // The filter proposed only the entries whose literal occurs (` z42`, ` z4`).
    let mut s = StringsWriter::default();
    let entries: Vec<_> = globs
        .iter()
        .enumerate()
        .map(|(i, b)| {
            (
                Some(b"git".to_vec()),
                i as u32,
                SegPattern {
                    body: b.clone(),
                    tail: true,
                }
                .to_bytes(),
            )
        })
        .collect();
    let [pats, idx, hash, filters] = build_segments(&mut s, entries);
    let g = GroupIndex::segments(Kind::ALLOW, [&pats, &idx, &hash, &filters]).unwrap();
    let strings = Strings::new(&s.bytes);
    let grp = g.find(&strings, b"git").unwrap().unwrap();
    let c = g
        .candidates(&grp, &strings, b"git push z42")
        .unwrap()
        .unwrap();
    assert_eq!(c, [4, 42]);
}
