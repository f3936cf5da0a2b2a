//! CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as used by iSCSI, ext4 and SCTP.
//!
//! Two implementations with identical results:
//! - x86_64 with SSE4.2: the `crc32` instruction, 8 bytes at a time (chosen at run time);
//! - everywhere else: slicing-by-8 over eight 256-entry tables built at compile time.
//!
//! The streaming form is `update(state, bytes)` starting from `!0` and finished with `!state`;
//! [`crc32c`] does both for a single buffer.

/// Reflected Castagnoli polynomial.
const POLY: u32 = 0x82F6_3B78;

/// Eight lookup tables for slicing-by-8: `TABLES[0]` is the classic byte table, `TABLES[k][b]`
/// is the CRC of byte `b` followed by `k` zero bytes.
static TABLES: [[u32; 256]; 8] = build_tables();

const fn build_tables() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { (c >> 1) ^ POLY } else { c >> 1 };
            k += 1;
        }
        t[0][i] = c;
        i += 1;
    }
    let mut s = 1;
    while s < 8 {
        let mut i = 0;
        while i < 256 {
            let prev = t[s - 1][i];
            t[s][i] = (prev >> 8) ^ t[0][(prev & 0xff) as usize];
            i += 1;
        }
        s += 1;
    }
    t
}

/// CRC-32C of `bytes`.
pub fn crc32c(bytes: &[u8]) -> u32 {
    !update(!0, bytes)
}

/// Feeds `bytes` into a running (pre-inverted) CRC state.
pub fn update(state: u32, bytes: &[u8]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("sse4.2") {
            // SAFETY: the CPU supports SSE4.2, checked just above.
            return unsafe { update_sse42(state, bytes) };
        }
    }
    update_portable(state, bytes)
}

/// Slicing-by-8: eight bytes per step, no data-dependent branches.
pub fn update_portable(mut crc: u32, bytes: &[u8]) -> u32 {
    let t = &TABLES;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let lo = crc ^ u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        crc = t[7][(lo & 0xff) as usize]
            ^ t[6][((lo >> 8) & 0xff) as usize]
            ^ t[5][((lo >> 16) & 0xff) as usize]
            ^ t[4][(lo >> 24) as usize]
            ^ t[3][c[4] as usize]
            ^ t[2][c[5] as usize]
            ^ t[1][c[6] as usize]
            ^ t[0][c[7] as usize];
    }
    for &b in chunks.remainder() {
        crc = (crc >> 8) ^ t[0][((crc ^ b as u32) & 0xff) as usize];
    }
    crc
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.2")]
fn update_sse42(crc: u32, bytes: &[u8]) -> u32 {
    use std::arch::x86_64::{_mm_crc32_u64, _mm_crc32_u8};
    let mut c = crc as u64;
    let mut chunks = bytes.chunks_exact(8);
    for ch in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(ch);
        c = _mm_crc32_u64(c, u64::from_le_bytes(w));
    }
    let mut c = c as u32;
    for &b in chunks.remainder() {
        c = _mm_crc32_u8(c, b);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny bitwise reference, independent of the tables.
    fn bitwise(bytes: &[u8]) -> u32 {
        let mut c = !0u32;
        for &b in bytes {
            c ^= b as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 { (c >> 1) ^ POLY } else { c >> 1 };
            }
        }
        !c
    }

    #[test]
    fn known_vectors() {
        // The standard check value for CRC-32C.
        assert_eq!(crc32c(b"123456789"), 0xE306_9283);
        assert_eq!(crc32c(b""), 0);
        assert_eq!(crc32c(&[0u8; 32]), 0x8A91_36AA);
        assert_eq!(crc32c(&[0xffu8; 32]), 0x62A8_AB43);
    }

    #[test]
    fn implementations_agree() {
        let data: Vec<u8> = (0..4099u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for len in [0, 1, 7, 8, 9, 15, 16, 63, 64, 65, 1000, 4099] {
            let d = &data[..len];
            let want = bitwise(d);
            assert_eq!(!update_portable(!0, d), want, "portable, len {len}");
            assert_eq!(crc32c(d), want, "dispatch, len {len}");
            // Streaming in two pieces gives the same answer.
            let (a, b) = d.split_at(len / 3);
            assert_eq!(!update(update(!0, a), b), want, "streamed, len {len}");
        }
    }

    /// Throughput figure: `cargo test --release --lib crc::tests::throughput -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn throughput() {
        let data = vec![0x5au8; 64 << 20];
        for (name, f) in [
            ("dispatch", crc32c as fn(&[u8]) -> u32),
            ("portable", |d: &[u8]| !update_portable(!0, d)),
        ] {
            let t = std::time::Instant::now();
            let mut x = 0u32;
            for _ in 0..4 {
                x ^= f(std::hint::black_box(&data));
            }
            let secs = t.elapsed().as_secs_f64();
            let mbps = (4.0 * data.len() as f64) / secs / 1e6;
            println!("crc32c {name}: {mbps:.0} MB/s (x={x:08x})");
        }
    }
}
