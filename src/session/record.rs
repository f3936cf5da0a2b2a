//! The records of a session's state file and how they fold into the counters.
//!
//! One line per record, tab-separated and sealed (`runtime::state::seal`), at most
//! [`MAX_LINE`] bytes so one `write` on an `O_APPEND` descriptor adds it whole:
//!
//! | kind | fields | written by |
//! |---|---|---|
//! | `c` call | time (ms), host, event (`p` pre-tool, `r` permission request), answer, flags, tool_use_id, turn, sequences, summary | every decided call |
//! | `r` reset | time, by (`terminal`, `post-tool`), tool_use_id | `polc session reset`, a post-tool event for a call polc asked about |
//! | `S` snapshot | time, consecutive, total, last turn, interrupted, sequences, asked ids | the trim at the size cap |
//!
//! Flags of a call: `D` a polc deny (counts toward both limits), `Z` polc allowed under the
//! limits (the consecutive count restarts), `T` a new user turn under the limits (the
//! consecutive count restarts first), `Q` polc answered ask (its tool_use_id can reset the
//! counters once), `I` the limit interrupt was sent. Sequences: `id=k,…`, steps done.

use std::collections::BTreeMap;

/// The version tag every record starts with; another tag is "another version".
pub const TAG: &str = "s1";
/// Below `PIPE_BUF` (4096 on Linux): one `write` of this size is one record.
pub const MAX_LINE: usize = 1024;
/// Asked tool_use_ids kept (the oldest drop first).
pub const MAX_ASKED: usize = 64;
/// Calls kept for `polc explain --session` when a snapshot is written.
pub const KEEP_HISTORY: usize = 32;

/// One decided call, as the history shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Call {
    pub time_ms: u64,
    pub host: String,
    pub answer: String,
    pub flags: String,
    pub tool_use_id: String,
    pub turn: String,
    pub seqs: Vec<(String, u8)>,
    pub summary: String,
}

/// The folded state of a session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    pub consecutive: u32,
    pub total: u32,
    pub last_turn: String,
    /// The limit interrupt was sent since the last reset.
    pub interrupted: bool,
    /// Steps done per sequence rule id (armed when ≥ 1).
    pub seqs: BTreeMap<String, u8>,
    /// tool_use_ids polc answered ask, not yet used for a reset.
    pub asked: Vec<String>,
    /// The most recent calls (raw history; trimmed at the cap).
    pub history: Vec<Call>,
    /// Records folded (raw lines since the last snapshot included).
    pub records: usize,
    /// Folding for the hook: no history built.
    pub skip_history: bool,
}

/// `runtime::state::unseal` with one allocation: the same check (FNV-1a 64 of the body,
/// as 16 lowercase hex digits after the last tab), a few hundred instructions a record.
pub fn unseal_fast(text: &str) -> Option<Vec<&str>> {
    let body = text.strip_suffix('\n')?;
    let (body, h) = body.rsplit_once('\t')?;
    if body.contains('\n')
        || !crate::runtime::state::sealed_hex(h, crate::ir::fnv1a64(body.as_bytes()))
    {
        return None;
    }
    // Records have at most 11 fields: one allocation, no growth.
    let mut v = Vec::with_capacity(12);
    let mut start = 0;
    for i in memchr::memchr_iter(b'\t', body.as_bytes()) {
        v.push(&body[start..i]);
        start = i + 1;
    }
    v.push(&body[start..]);
    Some(v)
}

/// Where the last snapshot record starts (0 without one): the hook folds from there.
/// Walks back line by line (a snapshot is at most [`KEEP_HISTORY`] lines from the end after a
/// trim, or a short tail later).
pub fn tail_start(text: &str) -> usize {
    let b = text.as_bytes();
    let snap = |at: usize| {
        b[at..].starts_with(TAG.as_bytes()) && b[at + TAG.len()..].starts_with(b"\tS\t")
    };
    for nl in memchr::memrchr_iter(b'\n', b) {
        if nl + 1 < b.len() && snap(nl + 1) {
            return nl + 1;
        }
    }
    0
}

/// A field as it may appear in a record: no tab, newline or control, at most `max` bytes.
pub fn field(s: &str, max: usize) -> String {
    let mut out: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if out.len() > max {
        let mut cut = max;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
    }
    out
}

fn seqs_text(seqs: &[(String, u8)]) -> String {
    seqs.iter()
        .map(|(id, k)| format!("{id}={k}"))
        .collect::<Vec<_>>()
        .join(",")
}

fn parse_seqs(s: &str) -> Option<Vec<(String, u8)>> {
    if s.is_empty() {
        return Some(Vec::new());
    }
    s.split(',')
        .map(|p| {
            let (id, k) = p.rsplit_once('=')?;
            Some((id.to_string(), k.parse().ok()?))
        })
        .collect()
}

/// A sequence id that can be written in a record (ids are identifiers or `file:line`).
pub fn id_ok(id: &str) -> bool {
    !id.is_empty() && id.len() <= 128 && !id.contains([',', '=', '\t', '\n'])
}

impl Call {
    pub fn line(&self, event: char) -> String {
        let t = self.time_ms.to_string();
        let seqs = seqs_text(&self.seqs);
        let ev = event.to_string();
        let mut summary = field(&self.summary, 400);
        loop {
            let l = crate::runtime::state::seal(&[
                TAG,
                "c",
                &t,
                &field(&self.host, 16),
                &ev,
                &field(&self.answer, 16),
                &self.flags,
                &field(&self.tool_use_id, 128),
                &field(&self.turn, 128),
                &seqs,
                &summary,
            ]);
            if l.len() <= MAX_LINE || summary.is_empty() {
                return l;
            }
            summary = field(&summary, summary.len() / 2);
        }
    }
}

pub fn reset_line(time_ms: u64, by: &str, tool_use_id: &str) -> String {
    crate::runtime::state::seal(&[TAG, "r", &time_ms.to_string(), by, &field(tool_use_id, 128)])
}

impl State {
    /// Is a limit passed?
    pub fn past(&self, l: &crate::ir::session::Limits) -> bool {
        self.consecutive >= l.consecutive || self.total >= l.total
    }

    /// The snapshot record that stands for everything folded so far.
    pub fn snapshot_line(&self, time_ms: u64) -> String {
        let seqs: Vec<(String, u8)> = self.seqs.iter().map(|(k, v)| (k.clone(), *v)).collect();
        let mut asked = self.asked.clone();
        loop {
            let l = crate::runtime::state::seal(&[
                TAG,
                "S",
                &time_ms.to_string(),
                &self.consecutive.to_string(),
                &self.total.to_string(),
                &field(&self.last_turn, 128),
                if self.interrupted { "1" } else { "0" },
                &seqs_text(&seqs),
                &asked.join(","),
            ]);
            if l.len() <= MAX_LINE || asked.is_empty() {
                return l;
            }
            // Keep the newest asked ids that fit.
            asked.remove(0);
        }
    }

    /// The hook's fold: from the last snapshot record on (a snapshot holds everything
    /// before it, `store::Open::trim` writes it after the calls it keeps), without history.
    /// Damage before the last snapshot goes unseen: those records no longer count.
    pub fn fold_tail(text: &str) -> Result<State, RecordError> {
        State::fold_with(&text[tail_start(text)..], false)
    }

    /// Folds the file's text, with the raw history. `Err` (the reason) for a damaged record or
    /// another version.
    pub fn fold(text: &str) -> Result<State, RecordError> {
        State::fold_with(text, true)
    }

    /// The hook's fold: counters, sequences and asked ids only (no history to build).
    pub fn fold_with(text: &str, history: bool) -> Result<State, RecordError> {
        let mut s = State {
            skip_history: !history,
            ..State::default()
        };
        let mut start = 0;
        let b = text.as_bytes();
        let mut n = 0;
        while start < b.len() {
            let end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |i| start + i + 1);
            n += 1;
            s.apply(&text[start..end])
                .map_err(|fault| RecordError { record: n, fault })?;
            start = end;
        }
        s.skip_history = false;
        Ok(s)
    }

    pub fn apply(&mut self, line: &str) -> Result<(), Fault> {
        let f = unseal_fast(line).ok_or(Fault::Damaged)?;
        if f.first() != Some(&TAG) {
            return Err(Fault::OtherVersion(
                f.first().copied().unwrap_or("").to_string(),
            ));
        }
        self.records += 1;
        match (f.get(1).copied(), f.len()) {
            (Some("c"), 11) => {
                let seqs = parse_seqs(f[9]).ok_or(Fault::BadSequences)?;
                let flags = f[6];
                if flags.contains('T') {
                    self.consecutive = 0;
                }
                if flags.contains('D') {
                    self.consecutive = self.consecutive.saturating_add(1);
                    self.total = self.total.saturating_add(1);
                }
                if flags.contains('Z') {
                    self.consecutive = 0;
                }
                if flags.contains('Q') && !f[7].is_empty() {
                    self.asked.push(f[7].to_string());
                    if self.asked.len() > MAX_ASKED {
                        self.asked.remove(0);
                    }
                }
                if flags.contains('I') {
                    self.interrupted = true;
                }
                if !f[8].is_empty() {
                    self.last_turn = f[8].to_string();
                }
                for (id, k) in &seqs {
                    let e = self.seqs.entry(id.clone()).or_insert(0);
                    *e = (*e).max(*k);
                }
                if self.skip_history {
                    return Ok(());
                }
                self.history.push(Call {
                    time_ms: f[2].parse().unwrap_or(0),
                    host: f[3].to_string(),
                    answer: f[5].to_string(),
                    flags: flags.to_string(),
                    tool_use_id: f[7].to_string(),
                    turn: f[8].to_string(),
                    seqs,
                    summary: f[10].to_string(),
                });
                if self.history.len() > 4 * KEEP_HISTORY {
                    self.history.drain(..self.history.len() - KEEP_HISTORY);
                }
            }
            (Some("r"), 5) => {
                let by = f[3];
                let id = f[4];
                if by == "post-tool" {
                    // Once per asked call; a forged id is no reset.
                    let Some(i) = self.asked.iter().position(|a| a == id) else {
                        return Ok(());
                    };
                    self.asked.remove(i);
                } else {
                    // A person at the terminal: sequences are disarmed too.
                    self.seqs.clear();
                    self.asked.clear();
                }
                self.consecutive = 0;
                self.total = 0;
                self.interrupted = false;
            }
            (Some("S"), 9) => {
                self.consecutive = f[3].parse().map_err(|_| Fault::BadCount)?;
                self.total = f[4].parse().map_err(|_| Fault::BadCount)?;
                self.last_turn = f[5].to_string();
                self.interrupted = f[6] == "1";
                self.seqs = parse_seqs(f[7])
                    .ok_or(Fault::BadSequences)?
                    .into_iter()
                    .collect();
                self.asked = if f[8].is_empty() {
                    Vec::new()
                } else {
                    f[8].split(',').map(str::to_string).collect()
                };
            }
            _ => return Err(Fault::UnknownShape),
        }
        Ok(())
    }
}

/// A state file record that does not read: which record (1-based, counted from where the
/// fold started) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub record: usize,
    pub fault: Fault,
}

/// What is wrong with one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The seal does not check (a cut or altered line).
    Damaged,
    /// Another record version (its tag).
    OtherVersion(String),
    BadSequences,
    BadCount,
    UnknownShape,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Damaged => f.write_str("is damaged or cut"),
            Fault::OtherVersion(tag) => write!(f, "is of another version ({tag:?})"),
            Fault::BadSequences => f.write_str("has bad sequences"),
            Fault::BadCount => f.write_str("has a bad count"),
            Fault::UnknownShape => f.write_str("has an unknown shape"),
        }
    }
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "record {} {}", self.record, self.fault)
    }
}

impl std::error::Error for Fault {}
impl std::error::Error for RecordError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hooks_fold_from_the_last_snapshot_agrees_with_the_full_fold() {
        // Kept calls, then a snapshot of everything (what a trim writes), then new calls.
        let kept = [call("D", "a", &[("x", 1)]), call("DQ", "b", &[])].concat();
        let full = State::fold(&kept).unwrap();
        let mut text = kept.clone();
        text.push_str(&full.snapshot_line(5));
        text.push_str(&call("D", "c", &[("x", 2)]));
        let a = State::fold(&text).unwrap();
        let b = State::fold_tail(&text).unwrap();
        assert_eq!((a.consecutive, a.total), (3, 3));
        assert_eq!((b.consecutive, b.total), (a.consecutive, a.total));
        assert_eq!(a.seqs, b.seqs);
        assert_eq!(a.asked, b.asked);
        // Damage after the snapshot is seen; before it, those records no longer count.
        let cut = text.len() - 3;
        assert!(State::fold_tail(&text[..cut]).is_err());
        let damaged = format!("garbage\n{}", &text[kept.len()..]);
        assert!(State::fold_tail(&damaged).is_ok());
        // No snapshot: the whole text.
        assert_eq!(State::fold_tail(&kept).unwrap().total, 2);
    }

    fn call(flags: &str, tuid: &str, seqs: &[(&str, u8)]) -> String {
        Call {
            time_ms: 1,
            host: "claude".into(),
            answer: "deny".into(),
            flags: flags.into(),
            tool_use_id: tuid.into(),
            turn: String::new(),
            seqs: seqs.iter().map(|(a, b)| (a.to_string(), *b)).collect(),
            summary: "cat .env\tx\ny".into(),
        }
        .line('p')
    }

    #[test]
    fn fold_counts_resets_and_snapshots() {
        let mut t = String::new();
        t += &call("D", "", &[]);
        t += &call("D", "", &[("exfil", 1)]);
        t += &call("Z", "", &[]);
        t += &call("D", "", &[]);
        t += &call("Q", "tu1", &[]);
        let s = State::fold(&t).unwrap();
        assert_eq!((s.consecutive, s.total), (1, 3));
        assert_eq!(s.seqs.get("exfil"), Some(&1));
        assert_eq!(s.asked, vec!["tu1".to_string()]);
        // A forged post-tool id changes nothing; the asked one resets once, never a sequence.
        let forged = t.clone() + &reset_line(2, "post-tool", "tu9");
        assert_eq!(State::fold(&forged).unwrap().total, 3);
        let reset = t.clone() + &reset_line(2, "post-tool", "tu1");
        let r = State::fold(&reset).unwrap();
        assert_eq!((r.consecutive, r.total), (0, 0));
        assert_eq!(r.seqs.get("exfil"), Some(&1));
        let again = reset + &call("D", "", &[]) + &reset_line(3, "post-tool", "tu1");
        assert_eq!(State::fold(&again).unwrap().total, 1);
        // A snapshot stands for what it folded.
        let snap = s.snapshot_line(5);
        let s2 = State::fold(&snap).unwrap();
        assert_eq!(
            (s2.consecutive, s2.total, &s2.seqs, &s2.asked),
            (1, 3, &s.seqs, &s.asked)
        );
        // The terminal reset disarms sequences.
        let t2 = snap + &reset_line(6, "terminal", "");
        assert!(State::fold(&t2).unwrap().seqs.is_empty());
    }

    #[test]
    fn fast_unseal_agrees_with_unseal() {
        let l = call("DQ", "tu", &[("a", 1)]);
        assert_eq!(unseal_fast(&l), crate::runtime::state::unseal(&l));
        for cut in 0..l.len() {
            assert_eq!(unseal_fast(&l[..cut]), None, "{cut}");
        }
        assert_eq!(unseal_fast(&l.to_uppercase()), None);
        assert_eq!(unseal_fast(&l.replace("claude", "claudf")), None);
    }

    #[test]
    fn damaged_and_other_versions_are_errors() {
        let l = call("D", "", &[]);
        assert!(State::fold(&l[..l.len() - 2]).is_err());
        assert!(State::fold(&l.replace("cat", "dog")).is_err());
        let other = crate::runtime::state::seal(&["s2", "c"]);
        assert_eq!(
            State::fold(&other).unwrap_err().fault,
            Fault::OtherVersion("s2".into())
        );
        assert!(State::fold(&other)
            .unwrap_err()
            .to_string()
            .contains("another version"));
        assert!(l.len() <= MAX_LINE);
        let long = Call {
            summary: "x".repeat(5000),
            tool_use_id: "y".repeat(500),
            ..Default::default()
        }
        .line('p');
        assert!(long.len() <= MAX_LINE);
        State::fold(&long).unwrap();
    }
}
