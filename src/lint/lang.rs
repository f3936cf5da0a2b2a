//! Exact reasoning on segment-pattern languages: inclusion, intersection, equality.
//!
//! A compiled [`SegPattern`] denotes a language over bytes: its body is literal bytes and
//! [`STAR`] markers (any run, spaces included), and a `tail` adds "followed by a space and
//! anything". So every pattern is a union of one or two *star patterns* (`body`, and
//! `body ␠ STAR` when it has a tail).
//!
//! A star pattern of length `m` is an NFA with states `0..=m`: at state `i`, a literal `c`
//! consumes `c` and moves to `i+1`; a STAR consumes any byte and stays at `i`, or is skipped
//! for free (ε). Only the bytes written in the patterns at hand are told apart: every other
//! byte behaves the same in all of them, so one representative ("other") stands for all.
//!
//! `L(A) ⊆ L(B₁) ∪ … ∪ L(Bₙ)` is decided by searching the product of A's NFA (one state at a
//! time) with the subset automaton of the B's (built lazily): a reachable pair where A
//! accepts and no B state accepts is a word of A that escapes every B — the search returns
//! it as a counterexample. Intersection is the same search over pairs of single states.
//! Both searches are breadth-first with a state budget; past it the answer is "unknown",
//! which every caller treats as "no finding" (lint never guesses).

use crate::pattern::{SegPattern, STAR};
use std::collections::{HashMap, VecDeque};

/// Past this many product states a question is left unanswered.
pub const STATE_BUDGET: usize = 200_000;

/// A union of star patterns (bytes with [`STAR`] markers).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lang {
    pub alts: Vec<Vec<u8>>,
}

impl Lang {
    /// The language of a compiled segment pattern (the runtime matcher's semantics).
    pub fn of(p: &SegPattern) -> Lang {
        let mut alts = vec![p.body.clone()];
        if p.tail {
            let mut t = p.body.clone();
            t.push(b' ');
            t.push(STAR);
            alts.push(t);
        }
        Lang { alts }
    }

    /// Every string.
    pub fn all() -> Lang {
        Lang {
            alts: vec![vec![STAR]],
        }
    }

    /// A raw byte-prefix language (`text` then anything): non-bash `prefix` patterns.
    pub fn byte_prefix(text: &[u8]) -> Lang {
        let mut b = text.to_vec();
        b.push(STAR);
        Lang { alts: vec![b] }
    }

    pub fn union(mut self, other: &Lang) -> Lang {
        self.alts.extend(other.alts.iter().cloned());
        self
    }

    /// Does the language hold this (marker-free) string? Used by tests and sanity checks.
    pub fn accepts(&self, s: &[u8]) -> bool {
        self.alts.iter().any(|a| {
            SegPattern {
                body: a.clone(),
                tail: false,
            }
            .matches(s)
            .is_some()
        })
    }
}

/// The answer to a language question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Yes (inclusion holds, or the intersection is empty).
    Yes,
    /// No, with a witness word (a word of A outside B, or a word in both).
    No(Vec<u8>),
    /// The state budget ran out.
    Unknown,
}

/// Symbols: the distinct literal bytes of the patterns, plus one byte that none of them
/// writes (standing for every such byte).
fn alphabet<'a>(pats: impl Iterator<Item = &'a Vec<u8>>) -> Vec<u8> {
    let mut seen = [false; 256];
    for p in pats {
        for &b in p {
            if b != STAR {
                seen[b as usize] = true;
            }
        }
    }
    let mut out: Vec<u8> = (0..=255u8).filter(|&b| seen[b as usize]).collect();
    // A representative of "any other byte": prefer a printable one for readable witnesses.
    let other = (b'a'..=b'z')
        .chain(b'0'..=b'9')
        .chain(0u8..=255)
        .find(|&b| b != STAR && b != crate::pattern::WILD && !seen[b as usize]);
    if let Some(o) = other {
        out.push(o);
    }
    out
}

/// ε-closure of one state of star pattern `p` (skip STARs), pushing into `out`.
fn close(p: &[u8], mut i: usize, mut push: impl FnMut(usize)) {
    push(i);
    while i < p.len() && p[i] == STAR {
        i += 1;
        push(i);
    }
}

/// Successors of state `i` of `p` on byte `c` (closed).
fn step(p: &[u8], i: usize, c: u8, mut push: impl FnMut(usize)) {
    if i < p.len() {
        if p[i] == STAR {
            close(p, i, &mut push);
        } else if p[i] == c {
            close(p, i + 1, &mut push);
        }
    }
}

/// A set of states of several star patterns: (pattern index, position), sorted, deduplicated.
type Set = Vec<(u32, u32)>;

fn set_start(bs: &[Vec<u8>]) -> Set {
    let mut s = Vec::new();
    for (k, p) in bs.iter().enumerate() {
        close(p, 0, |i| s.push((k as u32, i as u32)));
    }
    s.sort_unstable();
    s.dedup();
    s
}

fn set_step(bs: &[Vec<u8>], s: &Set, c: u8) -> Set {
    let mut out = Vec::new();
    for &(k, i) in s {
        step(&bs[k as usize], i as usize, c, |j| out.push((k, j as u32)));
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn set_accepts(bs: &[Vec<u8>], s: &Set) -> bool {
    s.iter().any(|&(k, i)| i as usize == bs[k as usize].len())
}

fn rebuild(parent: &[(usize, u8)], mut node: usize) -> Vec<u8> {
    let mut w = Vec::new();
    while node != usize::MAX {
        let (p, c) = parent[node];
        if p == usize::MAX {
            break;
        }
        w.push(c);
        node = p;
    }
    w.reverse();
    w
}

/// Is `L(a) ⊆ L(b)`? (`b` may be a union of many patterns' languages.)
pub fn includes(b: &Lang, a: &Lang) -> Answer {
    let sigma = alphabet(a.alts.iter().chain(b.alts.iter()));
    let bs = &b.alts;
    for ap in &a.alts {
        match included_one(ap, bs, &sigma) {
            Answer::Yes => {}
            other => return other,
        }
    }
    Answer::Yes
}

fn included_one(ap: &[u8], bs: &[Vec<u8>], sigma: &[u8]) -> Answer {
    // Nodes: (A state, B subset). parent[node] = (parent node, byte) for witnesses.
    let mut sets: HashMap<Set, u32> = HashMap::new();
    let mut set_list: Vec<Set> = Vec::new();
    let intern = |s: Set, sets: &mut HashMap<Set, u32>, list: &mut Vec<Set>| -> u32 {
        if let Some(&id) = sets.get(&s) {
            return id;
        }
        let id = list.len() as u32;
        list.push(s.clone());
        sets.insert(s, id);
        id
    };
    let mut seen: HashMap<(u32, u32), usize> = HashMap::new();
    let mut parent: Vec<(usize, u8)> = Vec::new();
    let mut queue: VecDeque<(u32, u32, usize)> = VecDeque::new();
    let s0 = intern(set_start(bs), &mut sets, &mut set_list);
    let mut starts = Vec::new();
    close(ap, 0, |i| starts.push(i as u32));
    for a in starts {
        if seen.contains_key(&(a, s0)) {
            continue;
        }
        let node = parent.len();
        parent.push((usize::MAX, 0));
        seen.insert((a, s0), node);
        queue.push_back((a, s0, node));
    }
    // Successor cache per (subset, byte).
    let mut trans: HashMap<(u32, u8), u32> = HashMap::new();
    while let Some((a, sid, node)) = queue.pop_front() {
        if a as usize == ap.len() && !set_accepts(bs, &set_list[sid as usize]) {
            return Answer::No(rebuild(&parent, node));
        }
        for &c in sigma {
            let mut next_a = Vec::new();
            step(ap, a as usize, c, |j| next_a.push(j as u32));
            if next_a.is_empty() {
                continue;
            }
            let nsid = match trans.get(&(sid, c)) {
                Some(&t) => t,
                None => {
                    let ns = set_step(bs, &set_list[sid as usize], c);
                    let t = intern(ns, &mut sets, &mut set_list);
                    trans.insert((sid, c), t);
                    t
                }
            };
            for na in next_a {
                if seen.contains_key(&(na, nsid)) {
                    continue;
                }
                if seen.len() >= STATE_BUDGET {
                    return Answer::Unknown;
                }
                let n = parent.len();
                parent.push((node, c));
                seen.insert((na, nsid), n);
                queue.push_back((na, nsid, n));
            }
        }
    }
    Answer::Yes
}

/// Is `L(a) ∩ L(b)` empty? `No(w)` gives a word in both.
pub fn disjoint(a: &Lang, b: &Lang) -> Answer {
    let sigma = alphabet(a.alts.iter().chain(b.alts.iter()));
    for ap in &a.alts {
        for bp in &b.alts {
            match disjoint_one(ap, bp, &sigma) {
                Answer::Yes => {}
                other => return other,
            }
        }
    }
    Answer::Yes
}

fn disjoint_one(ap: &[u8], bp: &[u8], sigma: &[u8]) -> Answer {
    let mut seen: HashMap<(u32, u32), usize> = HashMap::new();
    let mut parent: Vec<(usize, u8)> = Vec::new();
    let mut queue = VecDeque::new();
    let (mut sa, mut sb) = (Vec::new(), Vec::new());
    close(ap, 0, |i| sa.push(i as u32));
    close(bp, 0, |i| sb.push(i as u32));
    for &x in &sa {
        for &y in &sb {
            if let std::collections::hash_map::Entry::Vacant(e) = seen.entry((x, y)) {
                e.insert(parent.len());
                queue.push_back((x, y, parent.len()));
                parent.push((usize::MAX, 0));
            }
        }
    }
    while let Some((x, y, node)) = queue.pop_front() {
        if x as usize == ap.len() && y as usize == bp.len() {
            return Answer::No(rebuild(&parent, node));
        }
        for &c in sigma {
            let (mut na, mut nb) = (Vec::new(), Vec::new());
            step(ap, x as usize, c, |j| na.push(j as u32));
            step(bp, y as usize, c, |j| nb.push(j as u32));
            for &x2 in &na {
                for &y2 in &nb {
                    if seen.contains_key(&(x2, y2)) {
                        continue;
                    }
                    if seen.len() >= STATE_BUDGET {
                        return Answer::Unknown;
                    }
                    let n = parent.len();
                    parent.push((node, c));
                    seen.insert((x2, y2), n);
                    queue.push_back((x2, y2, n));
                }
            }
        }
    }
    Answer::Yes
}

/// Show a word with STAR-free bytes as text (witnesses never hold markers).
pub fn show(w: &[u8]) -> String {
    String::from_utf8_lossy(w).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::PatternKind;
    use proptest::prelude::*;

    fn g(kind: PatternKind, t: &str) -> Lang {
        Lang::of(&SegPattern::compile(kind, t, false).unwrap())
    }
    fn glob(t: &str) -> Lang {
        g(PatternKind::Glob, t)
    }
    fn prefix(t: &str) -> Lang {
        g(PatternKind::Prefix, t)
    }

    #[test]
    fn inclusion_basics() {
        assert_eq!(
            includes(&prefix("git push"), &prefix("git push --force")),
            Answer::Yes
        );
        assert!(matches!(
            includes(&prefix("git push --force"), &prefix("git push")),
            Answer::No(_)
        ));
        assert_eq!(includes(&glob("git *"), &prefix("git")), Answer::Yes);
        assert_eq!(includes(&prefix("git"), &glob("git:*")), Answer::Yes);
        assert_eq!(includes(&glob("*"), &glob("a*b*c")), Answer::Yes);
        assert_eq!(includes(&glob("*b*"), &glob("a*b*c")), Answer::Yes);
        assert_eq!(includes(&glob("a*c"), &glob("a*b*c")), Answer::Yes);
        // `git pushy` escapes the word-bounded prefix.
        let Answer::No(w) = includes(&prefix("git push"), &glob("git push*")) else {
            panic!()
        };
        assert!(glob("git push*").accepts(&w) && !prefix("git push").accepts(&w));
        // A union covers what no single member does.
        let u = glob("rm -r *").union(&glob("rm -f *"));
        assert_eq!(includes(&u, &glob("rm -r -f *")), Answer::Yes);
        assert_eq!(
            includes(&glob("x *").union(&glob("y")), &glob("x *")),
            Answer::Yes
        );
        // Star-in-the-middle cases that simple prefix thinking gets wrong.
        assert_eq!(includes(&glob("*a*"), &glob("*aa*")), Answer::Yes);
        assert!(matches!(
            includes(&glob("*aa*"), &glob("*a*")),
            Answer::No(_)
        ));
        assert_eq!(
            includes(&glob("* --force"), &glob("git push * --force")),
            Answer::Yes
        );
    }

    #[test]
    fn intersection_basics() {
        assert!(matches!(
            disjoint(&glob("git push *"), &glob("* --force")),
            Answer::No(_)
        ));
        assert_eq!(
            disjoint(&prefix("git push"), &prefix("git pull")),
            Answer::Yes
        );
        assert_eq!(disjoint(&prefix("ls"), &glob("lsof*")), Answer::Yes);
    }

    /// Small patterns over {a, b, ' ', STAR}.
    fn pat() -> impl Strategy<Value = (Vec<u8>, bool)> {
        (
            prop::collection::vec(
                prop_oneof![Just(b'a'), Just(b'b'), Just(b' '), Just(STAR)],
                0..5,
            ),
            any::<bool>(),
        )
    }

    fn words(max: usize) -> Vec<Vec<u8>> {
        let mut all = vec![Vec::new()];
        let mut frontier = vec![Vec::new()];
        for _ in 0..max {
            let mut next = Vec::new();
            for w in &frontier {
                for c in [b'a', b'b', b' ', b'c'] {
                    let mut w2: Vec<u8> = w.clone();
                    w2.push(c);
                    next.push(w2);
                }
            }
            all.extend(next.iter().cloned());
            frontier = next;
        }
        all
    }

    fn lang(p: &(Vec<u8>, bool)) -> Lang {
        Lang::of(&SegPattern {
            body: p.0.clone(),
            tail: p.1,
        })
    }

    /// The runtime matcher, the ground truth.
    fn rt(p: &(Vec<u8>, bool), w: &[u8]) -> bool {
        SegPattern {
            body: p.0.clone(),
            tail: p.1,
        }
        .matches(w)
        .is_some()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Against brute force over every word of length ≤ 7 on {a, b, ␠, c}: a "yes" has no
        /// counterexample there, a "no" comes with a witness the runtime matcher confirms.
        #[test]
        fn inclusion_agrees_with_brute_force(a in pat(), b1 in pat(), b2 in pat()) {
            let ws = words(7);
            let bl = lang(&b1).union(&lang(&b2));
            match includes(&bl, &lang(&a)) {
                Answer::Yes => {
                    for w in &ws {
                        if rt(&a, w) {
                            prop_assert!(rt(&b1, w) || rt(&b2, w), "escapes: {:?}", show(w));
                        }
                    }
                }
                Answer::No(w) => {
                    prop_assert!(rt(&a, &w), "witness {:?} not in A", show(&w));
                    prop_assert!(!rt(&b1, &w) && !rt(&b2, &w), "witness {:?} in B", show(&w));
                }
                Answer::Unknown => prop_assert!(false, "budget on a tiny pattern"),
            }
        }

        #[test]
        fn intersection_agrees_with_brute_force(a in pat(), b in pat()) {
            match disjoint(&lang(&a), &lang(&b)) {
                Answer::Yes => {
                    for w in &words(7) {
                        prop_assert!(!(rt(&a, w) && rt(&b, w)), "both match {:?}", show(w));
                    }
                }
                Answer::No(w) => prop_assert!(rt(&a, &w) && rt(&b, &w)),
                Answer::Unknown => prop_assert!(false),
            }
        }
    }
}
