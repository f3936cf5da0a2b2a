//! The compiled table on disk: a hand-written header, a metadata block (encoded by
//! `codec`, the one file that knows the serialization crate) and opaque, 64-byte-aligned sections read in place
//! from a memory map. See `src/table/README.md` for the byte layout and the checks.
//!
//! - [`encode`] + [`write_atomic`] on the build side (deterministic bytes, atomic rename);
//! - [`Table::open`] / [`Table::from_bytes`] on the hook side (every offset checked before
//!   use, a CRC-32C once per file version, cached by file identity);
//! - [`Table::check_fresh`] for staleness against the recorded sources.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::ir;

pub mod cache;
mod codec;
pub mod crc;
mod header;
mod lease;
mod load;
pub mod sections;
mod write;

pub use cache::cache_dir;
pub use load::{Integrity, Table};
pub use write::{encode, write_atomic};

/// The on-disk format version this polc writes and reads.
/// Version 2: the section format moved to `sections` (typed records, every section required;
/// version-1 tables had optional index sections read by linear fallbacks). Version 3: segment
/// groups have filters (sections 16, 17). Version 4: path index (sections 18–20) and WebFetch
/// domain rules filed under their host in the tool index.
pub const FORMAT_VERSION: u32 = 4;

/// Size cap for a table file (256 MiB). A larger file is refused before it is mapped
/// (`LoadError::TooLarge`): it bounds the address space and the one-time CRC an attacker-written
/// project table can cost the hook.
pub const MAX_TABLE_BYTES: u64 = 256 << 20;

/// Alignment of every section, counted from the start of the file. A page-aligned map (or
/// the 64-aligned owned buffer) therefore yields section slices aligned to 64 bytes.
pub const SECTION_ALIGN: u64 = 64;

/// Length of the fixed header.
pub const HEADER_LEN: usize = header::HEADER_LEN;

/// Upper bound on the encoded metadata block.
pub const MAX_META_BYTES: usize = codec::MAX_META_BYTES;

/// One opaque section: its kind (owned by the compiler), and where it lies in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionEntry {
    pub kind: u32,
    pub offset: u64,
    pub len: u64,
}

/// The metadata block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The polc that wrote the table (informational; compatibility is `FORMAT_VERSION`).
    pub polc_version: String,
    /// The sources the table was built from (for `check_fresh`).
    pub sources: Vec<ir::SourceStamp>,
    /// Sorted by kind, strictly increasing; offsets increasing and 64-aligned.
    pub sections: Vec<SectionEntry>,
    /// Free-form statistics passed by the compiler.
    pub counts: BTreeMap<String, u64>,
}

/// Why a table cannot be used. Every one of these fails closed in the hook (`deny`), except
/// that the caller decides what "missing" means (see [`LoadError::is_missing`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The path does not exist (or a parent is not a folder).
    Missing { path: PathBuf },
    /// A folder, FIFO, socket, device…: not a regular file.
    NotRegularFile { path: PathBuf },
    /// Bigger than [`MAX_TABLE_BYTES`].
    TooLarge { path: PathBuf, size: u64 },
    /// Shorter than the header, or than the length the header records.
    Truncated { len: u64, need: u64 },
    /// Does not start with `POLCTBL\0`: not a polc table.
    BadMagic,
    /// Written by a polc with another format version.
    UnsupportedVersion { found: u32, expected: u32 },
    /// Written on (or for) a big-endian machine.
    WrongEndianness,
    /// Anything else that does not add up: checksum, metadata, section directory, padding.
    Corrupt { what: String },
    /// A recorded source changed after the table was built.
    Stale { source: String },
    /// An I/O error other than "not found".
    Io { path: PathBuf, err: String },
}

impl LoadError {
    /// True only for a table path that does not exist.
    pub fn is_missing(&self) -> bool {
        matches!(self, LoadError::Missing { .. })
    }

    /// The same one-line message, naming the table file when the error itself does not.
    pub fn describe(&self, table: &std::path::Path) -> String {
        let t = table.display();
        match self {
            LoadError::Missing { .. }
            | LoadError::NotRegularFile { .. }
            | LoadError::TooLarge { .. }
            | LoadError::Io { .. } => self.to_string(),
            LoadError::Stale { source } => {
                format!("polc table {t} is older than its source {source}: run `polc build`")
            }
            other => format!("polc table {t}: {other}"),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Missing { path } => write!(
                f,
                "polc table {} does not exist: run `polc build` (or fix the configured path)",
                path.display()
            ),
            LoadError::NotRegularFile { path } => write!(
                f,
                "polc table {} is not a regular file: remove it and run `polc build`",
                path.display()
            ),
            LoadError::TooLarge { path, size } => write!(
                f,
                "polc table {} is {size} bytes, over the {} MiB cap: check the path, or split the policy and run `polc build`",
                path.display(),
                MAX_TABLE_BYTES >> 20
            ),
            LoadError::Truncated { len, need } => write!(
                f,
                "the polc table is truncated ({len} of {need} bytes): run `polc build`"
            ),
            LoadError::BadMagic => {
                write!(f, "the file is not a polc table (bad magic): run `polc build`")
            }
            LoadError::UnsupportedVersion { found, expected } => write!(
                f,
                "the polc table has format version {found}, this polc reads version {expected}: run `polc build`, then `polc trust`"
            ),
            LoadError::WrongEndianness => write!(
                f,
                "the polc table was written big-endian, which polc never writes: run `polc build`"
            ),
            LoadError::Corrupt { what } => {
                write!(f, "the polc table is corrupt ({what}): run `polc build`")
            }
            LoadError::Stale { source } => write!(
                f,
                "the polc table is older than its source {source}: run `polc build`"
            ),
            LoadError::Io { path, err } => write!(
                f,
                "polc cannot read {}: {err}: check the file and its permissions, then run `polc build`",
                path.display()
            ),
        }
    }
}

impl std::error::Error for LoadError {}

#[cfg(test)]
mod tests;

/// The listing of a source folder as a table records it ([`ir::DIR_STAMP`]): the names of
/// its entries `polc build` may read — files (or links) named `*.pol` or `*.json` (any case)
/// and subfolders (`name/`) — sorted, one a line, FNV-1a 64. Deterministic (names only);
/// each subfolder has a stamp of its own, so a new file anywhere below changes one listing.
pub fn dir_listing_hash(dir: &std::path::Path) -> std::io::Result<u64> {
    let mut names: Vec<Vec<u8>> = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name().as_encoded_bytes().to_vec();
        let ft = e.file_type()?;
        let is_dir = if ft.is_symlink() {
            std::fs::metadata(e.path()).is_ok_and(|m| m.is_dir())
        } else {
            ft.is_dir()
        };
        if is_dir {
            let mut n = name;
            n.push(b'/');
            names.push(n);
            continue;
        }
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(b".pol") || lower.ends_with(b".json") {
            names.push(name);
        }
    }
    names.sort();
    Ok(ir::fnv1a64(&names.join(&b'\n')))
}
