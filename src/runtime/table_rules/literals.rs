//! Which of a set of literals occur in a text, in one pass: an Aho-Corasick automaton over a
//! trie with failure links, sized for a group's guards (10,000 literals of a few bytes).
//!
//! The `aho-corasick` crate's builder shuffles match states with a remapping that follows
//! each permutation cycle from every state: 10,000 guards `a0 … a9999` (every trie state but
//! one a match) made one cycle of 10,000 and cost 800 million instructions to build, more
//! than the whole decision it was meant to speed up. This one is built in time linear in
//! the literals' bytes (plus a sort), and reports each literal found once.
//!
//! States are numbered in the order of the sorted literals, so each state's edges come out
//! sorted by byte. The root's edges are a 256-entry table (most bytes of a command start no
//! literal); other states keep a sorted edge list (most have one edge).

const NONE: u32 = u32::MAX;

pub(super) struct Literals {
    root: Box<[u32; 256]>,
    /// State `s`'s edges are `edges[first[s]..first[s + 1]]`, sorted by byte.
    first: Vec<u32>,
    edges: Vec<(u8, u32)>,
    fail: Vec<u32>,
    /// The literal that ends at the state, or NONE.
    out: Vec<u32>,
    /// The nearest state on the failure chain (itself excluded) that ends a literal.
    dict: Vec<u32>,
    /// `seen[s] == stamp`: state `s`'s literal (and its dictionary chain) already reported.
    seen: Vec<u32>,
    stamp: u32,
}

impl Literals {
    /// The automaton over `lits` (literal `k` is reported as `k`). Empty literals are never
    /// reported; a repeated literal is reported under one of its numbers.
    pub(super) fn new(lits: &[&[u8]]) -> Literals {
        let mut order: Vec<u32> = (0..lits.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| lits[a as usize].cmp(lits[b as usize]));
        // The trie: each literal shares with the one before it (sorted) exactly their
        // common prefix, so the previous literal's path is all the lookup insertion needs.
        let (mut parent, mut byte, mut depth, mut out) =
            (vec![0u32], vec![0u8], vec![0u32], vec![NONE]);
        let mut path: Vec<u32> = vec![0];
        let mut prev: &[u8] = &[];
        for k in order {
            let lit = lits[k as usize];
            if lit.is_empty() {
                continue;
            }
            let lcp = prev.iter().zip(lit).take_while(|(a, b)| a == b).count();
            path.truncate(lcp + 1);
            for &b in &lit[lcp..] {
                let s = parent.len() as u32;
                parent.push(*path.last().unwrap_or(&0));
                byte.push(b);
                depth.push(path.len() as u32);
                out.push(NONE);
                path.push(s);
            }
            out[*path.last().unwrap_or(&0) as usize] = k;
            prev = lit;
        }
        let n = parent.len();
        // Edges grouped by parent; within a parent, creation order is byte order.
        let mut first = vec![0u32; n + 1];
        for &p in &parent[1..] {
            first[p as usize + 1] += 1;
        }
        for i in 0..n {
            first[i + 1] += first[i];
        }
        let mut fill = first.clone();
        let mut edges = vec![(0u8, 0u32); n - 1];
        let mut root = Box::new([NONE; 256]);
        for s in 1..n {
            let p = parent[s] as usize;
            edges[fill[p] as usize] = (byte[s], s as u32);
            fill[p] += 1;
            if p == 0 {
                root[byte[s] as usize] = s as u32;
            }
        }
        let mut a = Literals {
            root,
            first,
            edges,
            fail: vec![0; n],
            out,
            dict: vec![NONE; n],
            seen: vec![0; n],
            stamp: 0,
        };
        // Failure links breadth-first (a state's link is shallower than the state).
        // (States by depth: a counting sort, depths are at most the longest literal.)
        let deepest = depth.iter().copied().max().unwrap_or(0) as usize;
        let mut at = vec![0u32; deepest + 2];
        for &d in &depth[1..] {
            at[d as usize + 1] += 1;
        }
        for d in 0..=deepest {
            at[d + 1] += at[d];
        }
        let mut bfs = vec![0u32; n - 1];
        for (s, &d) in depth.iter().enumerate().skip(1) {
            bfs[at[d as usize] as usize] = s as u32;
            at[d as usize] += 1;
        }
        for t in bfs {
            let (t, p) = (t as usize, parent[t as usize]);
            let f = if p == 0 {
                0
            } else {
                let mut f = a.fail[p as usize];
                loop {
                    if let Some(x) = a.goto(f, byte[t]) {
                        break x;
                    }
                    if f == 0 {
                        break 0;
                    }
                    f = a.fail[f as usize];
                }
            };
            a.fail[t] = f;
            a.dict[t] = if a.out[f as usize] != NONE {
                f
            } else {
                a.dict[f as usize]
            };
        }
        a
    }

    fn goto(&self, s: u32, b: u8) -> Option<u32> {
        let next = if s == 0 {
            self.root[b as usize]
        } else {
            let e =
                &self.edges[self.first[s as usize] as usize..self.first[s as usize + 1] as usize];
            if e.len() <= 8 {
                e.iter().find(|x| x.0 == b).map_or(NONE, |x| x.1)
            } else {
                e.binary_search_by_key(&b, |x| x.0).map_or(NONE, |i| e[i].1)
            }
        };
        (next != NONE).then_some(next)
    }

    /// Push the number of every literal occurring in `text` onto `found`, each once (in no
    /// particular order).
    pub(super) fn find_all(&mut self, text: &[u8], found: &mut Vec<u32>) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|x| *x = 0);
            self.stamp = 1;
        }
        let (mut s, mut i) = (0u32, 0usize);
        while i < text.len() {
            if s == 0 {
                // At the root, skip the bytes that start no literal (most of a command).
                while i < text.len() && self.root[text[i] as usize] == NONE {
                    i += 1;
                }
                let Some(&b) = text.get(i) else {
                    break;
                };
                s = self.root[b as usize];
            } else {
                let b = text[i];
                s = loop {
                    if let Some(x) = self.goto(s, b) {
                        break x;
                    }
                    if s == 0 {
                        break 0;
                    }
                    s = self.fail[s as usize];
                };
            }
            i += 1;
            let mut m = if self.out[s as usize] != NONE {
                s
            } else {
                self.dict[s as usize]
            };
            // A state already seen had its whole chain reported then.
            while m != NONE && self.seen[m as usize] != self.stamp {
                self.seen[m as usize] = self.stamp;
                found.push(self.out[m as usize]);
                m = self.dict[m as usize];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive(lits: &[&[u8]], text: &[u8]) -> Vec<u32> {
        let mut v: Vec<u32> = (0..lits.len() as u32)
            .filter(|&k| {
                let l = lits[k as usize];
                !l.is_empty() && text.windows(l.len()).any(|w| w == l)
            })
            .collect();
        v.sort_unstable();
        v
    }

    fn found(a: &mut Literals, text: &[u8]) -> Vec<u32> {
        let mut f = Vec::new();
        a.find_all(text, &mut f);
        let n = f.len();
        f.sort_unstable();
        f.dedup();
        assert_eq!(n, f.len(), "a literal reported twice");
        f
    }

    #[test]
    fn overlapping_nested_and_repeated_literals() {
        let lits: Vec<&[u8]> = vec![b"he", b"she", b"his", b"hers", b"e", b"", b"s", b"hershe"];
        let mut a = Literals::new(&lits);
        for t in [
            &b"ushers"[..],
            b"hershey",
            b"",
            b"xyz",
            b"hhhe",
            b"sssss",
            b"his hers",
        ] {
            assert_eq!(
                found(&mut a, t),
                naive(&lits, t),
                "{:?}",
                String::from_utf8_lossy(t)
            );
        }
    }

    #[test]
    fn many_guards_of_one_shape() {
        let owned: Vec<Vec<u8>> = (0..10_000).map(|i| format!("a{i}").into_bytes()).collect();
        let lits: Vec<&[u8]> = owned.iter().map(|v| v.as_slice()).collect();
        let mut a = Literals::new(&lits);
        for t in [&b"ls x0"[..], b"echo a1 b c", b"a9999 a12", b"aaaa"] {
            assert_eq!(found(&mut a, t), naive(&lits, t));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        #[test]
        fn finds_what_a_substring_search_finds(
            lits in proptest::collection::vec(proptest::collection::vec(0u8..4, 0..5), 0..24),
            texts in proptest::collection::vec(proptest::collection::vec(0u8..4, 0..40), 1..4),
        ) {
            let l: Vec<&[u8]> = lits.iter().map(|v| v.as_slice()).collect();
            let mut a = Literals::new(&l);
            for t in &texts {
                // A repeated literal is reported under one of its numbers: compare sets of
                // literal bytes.
                let mut got: Vec<&[u8]> = found(&mut a, t).iter().map(|&k| l[k as usize]).collect();
                let mut want: Vec<&[u8]> = naive(&l, t).iter().map(|&k| l[k as usize]).collect();
                got.sort();
                want.sort();
                want.dedup();
                prop_assert_eq!(got, want);
            }
        }
    }
}
