//! Section 1, strings: every string and pattern body, concatenated; records refer to them by
//! [`Span`] (offset, length). No separators, no alignment.

use super::Bad;

/// A run of bytes in the strings section.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub off: u32,
    pub len: u32,
}

impl Span {
    pub fn new(off: u32, len: u32) -> Span {
        Span { off, len }
    }
}

/// The build side: appends strings and hands out their spans.
#[derive(Default)]
pub struct StringsWriter {
    pub bytes: Vec<u8>,
}

impl StringsWriter {
    pub fn add(&mut self, b: &[u8]) -> Span {
        let off = self.bytes.len() as u32;
        self.bytes.extend_from_slice(b);
        Span::new(off, b.len() as u32)
    }
}

/// The read side: a span's bytes, bounds-checked.
#[derive(Clone, Copy, Debug)]
pub struct Strings<'a>(&'a [u8]);

impl<'a> Strings<'a> {
    pub fn new(bytes: &'a [u8]) -> Strings<'a> {
        Strings(bytes)
    }

    pub fn bytes(&self, s: Span) -> Result<&'a [u8], Bad> {
        let (o, l) = (s.off as usize, s.len as usize);
        self.0.get(o..o.checked_add(l).ok_or(Bad)?).ok_or(Bad)
    }

    pub fn str(&self, s: Span) -> Result<&'a str, Bad> {
        std::str::from_utf8(self.bytes(s)?).map_err(|_| Bad)
    }
}
