//! The fixed 64-byte header, written and read by hand (little-endian, no serde).
//!
//! | offset | size | field                                                     |
//! |-------:|-----:|-----------------------------------------------------------|
//! |      0 |    8 | magic `b"POLCTBL\0"`                                      |
//! |      8 |    4 | format version (`FORMAT_VERSION`)                          |
//! |     12 |    4 | endianness mark `0x0102_0304` (bytes `04 03 02 01`)        |
//! |     16 |    4 | flags (none defined; must be 0)                           |
//! |     20 |    4 | header length (64)                                        |
//! |     24 |    8 | total file length                                         |
//! |     32 |    8 | metadata offset (64)                                      |
//! |     40 |    8 | metadata length                                           |
//! |     48 |    4 | CRC-32C of the whole file, this field taken as zero       |
//! |     52 |    4 | reserved, must be 0                                       |
//! |     56 |    8 | sources' stamp hash (fnv1a64 of the encoded stamps)       |

use super::LoadError;

pub const MAGIC: [u8; 8] = *b"POLCTBL\0";
pub const ENDIAN_MARK: u32 = 0x0102_0304;
pub const HEADER_LEN: usize = 64;
/// Where the checksum field sits (`CHECKSUM_AT .. CHECKSUM_AT + 4`).
pub const CHECKSUM_AT: usize = 48;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub version: u32,
    pub flags: u32,
    pub file_len: u64,
    pub meta_off: u64,
    pub meta_len: u64,
    pub checksum: u32,
    pub stamp_hash: u64,
}

impl Header {
    pub fn to_bytes(self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..12].copy_from_slice(&self.version.to_le_bytes());
        b[12..16].copy_from_slice(&ENDIAN_MARK.to_le_bytes());
        b[16..20].copy_from_slice(&self.flags.to_le_bytes());
        b[20..24].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
        b[24..32].copy_from_slice(&self.file_len.to_le_bytes());
        b[32..40].copy_from_slice(&self.meta_off.to_le_bytes());
        b[40..48].copy_from_slice(&self.meta_len.to_le_bytes());
        b[48..52].copy_from_slice(&self.checksum.to_le_bytes());
        // 52..56 reserved, zero.
        b[56..64].copy_from_slice(&self.stamp_hash.to_le_bytes());
        b
    }

    /// Parses and checks the fields that do not depend on the rest of the file: magic,
    /// version, endianness, flags, header length, reserved. `bytes` may be shorter than a
    /// header (then: `Truncated`).
    pub fn parse(bytes: &[u8]) -> Result<Header, LoadError> {
        let h: &[u8; HEADER_LEN] = match bytes.get(..HEADER_LEN).and_then(|s| s.try_into().ok()) {
            Some(h) => h,
            None => {
                // Report a wrong magic first when there is enough to see it.
                if bytes.len() >= 8 && bytes[..8] != MAGIC {
                    return Err(LoadError::BadMagic);
                }
                return Err(LoadError::Truncated {
                    len: bytes.len() as u64,
                    need: HEADER_LEN as u64,
                });
            }
        };
        if h[0..8] != MAGIC {
            return Err(LoadError::BadMagic);
        }
        let version = u32_at(h, 8);
        let mark = u32_at(h, 12);
        if mark != ENDIAN_MARK {
            if mark == ENDIAN_MARK.swap_bytes() {
                return Err(LoadError::WrongEndianness);
            }
            return Err(LoadError::Corrupt {
                what: format!("endianness mark is {mark:#010x}"),
            });
        }
        if version != super::FORMAT_VERSION {
            return Err(LoadError::UnsupportedVersion {
                found: version,
                expected: super::FORMAT_VERSION,
            });
        }
        let flags = u32_at(h, 16);
        if flags != 0 {
            return Err(LoadError::Corrupt {
                what: format!("unknown header flags {flags:#x}"),
            });
        }
        let hlen = u32_at(h, 20);
        if hlen as usize != HEADER_LEN {
            return Err(LoadError::Corrupt {
                what: format!("header length {hlen}, expected {HEADER_LEN}"),
            });
        }
        if u32_at(h, 52) != 0 {
            return Err(LoadError::Corrupt {
                what: "reserved header field is not zero".into(),
            });
        }
        Ok(Header {
            version,
            flags,
            file_len: u64_at(h, 24),
            meta_off: u64_at(h, 32),
            meta_len: u64_at(h, 40),
            checksum: u32_at(h, CHECKSUM_AT),
            stamp_hash: u64_at(h, 56),
        })
    }
}

fn u32_at(h: &[u8; HEADER_LEN], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&h[at..at + 4]);
    u32::from_le_bytes(w)
}

fn u64_at(h: &[u8; HEADER_LEN], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&h[at..at + 8]);
    u64::from_le_bytes(w)
}

/// CRC-32C of a whole table with the checksum field taken as zero.
pub fn file_checksum(bytes: &[u8]) -> u32 {
    use super::crc;
    let (head, rest) = bytes.split_at(CHECKSUM_AT.min(bytes.len()));
    let mut s = crc::update(!0, head);
    if rest.len() < 4 {
        return !crc::update(s, &[0u8; 4][..rest.len()]);
    }
    s = crc::update(s, &[0u8; 4]);
    !crc::update(s, &rest[4..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trip() {
        let h = Header {
            version: super::super::FORMAT_VERSION,
            flags: 0,
            file_len: 1234,
            meta_off: 64,
            meta_len: 99,
            checksum: 0xdead_beef,
            stamp_hash: 0x0123_4567_89ab_cdef,
        };
        let b = h.to_bytes();
        assert_eq!(&b[12..16], &[4, 3, 2, 1]);
        assert_eq!(Header::parse(&b).unwrap(), h);
    }

    #[test]
    fn checksum_ignores_its_own_field() {
        let mut a = vec![7u8; 200];
        let c = file_checksum(&a);
        a[CHECKSUM_AT..CHECKSUM_AT + 4].copy_from_slice(&c.to_le_bytes());
        assert_eq!(file_checksum(&a), c);
        a[100] ^= 1;
        assert_ne!(file_checksum(&a), c);
    }
}
