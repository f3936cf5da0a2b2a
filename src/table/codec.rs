//! The metadata codec. This is the only file in the crate that names `bincode`
//! (pinned to `=2.0.1`: the crate is unmaintained and 3.0.0 is empty).
//!
//! Encoding: `bincode::config::standard()` (little-endian, variable-length integers), which is
//! deterministic for our types (`Vec`, `String`, `BTreeMap`, integers). Decoding additionally
//! carries a byte limit, so a hostile length prefix cannot make the decoder allocate more than
//! [`MAX_META_BYTES`].

use super::{LoadError, Meta};
use crate::ir::SourceStamp;

/// Upper bound on the encoded metadata block (and on what decoding it may allocate).
pub const MAX_META_BYTES: usize = 1 << 20;

fn config() -> bincode::config::Configuration<
    bincode::config::LittleEndian,
    bincode::config::Varint,
    bincode::config::Limit<MAX_META_BYTES>,
> {
    bincode::config::standard().with_limit::<MAX_META_BYTES>()
}

/// Encodes the metadata block. Fails only if it would exceed [`MAX_META_BYTES`].
pub fn encode_meta(meta: &Meta) -> Result<Vec<u8>, String> {
    bincode::serde::encode_to_vec(meta, config()).map_err(|e| e.to_string())
}

/// Decodes a metadata block that must span exactly `bytes`.
pub fn decode_meta(bytes: &[u8]) -> Result<Meta, LoadError> {
    let (meta, used): (Meta, usize) =
        bincode::serde::decode_from_slice(bytes, config()).map_err(|e| LoadError::Corrupt {
            what: format!("metadata does not decode ({e})"),
        })?;
    if used != bytes.len() {
        return Err(LoadError::Corrupt {
            what: format!(
                "metadata is {used} bytes but the header says {}",
                bytes.len()
            ),
        });
    }
    Ok(meta)
}

/// The canonical encoding of the sources' stamps, which the header's stamp hash covers.
pub fn encode_sources(sources: &[SourceStamp]) -> Vec<u8> {
    // A slice of stamps always encodes (no limit on the encoding side that matters here:
    // the stamps are also inside the metadata, which is limited).
    bincode::serde::encode_to_vec(sources, bincode::config::standard()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::SectionEntry;

    #[test]
    fn meta_round_trip_and_exact_length() {
        let mut counts = std::collections::BTreeMap::new();
        counts.insert("rules".to_string(), 12);
        let m = Meta {
            polc_version: "0.1.0".into(),
            sources: vec![SourceStamp {
                path: "policies/a.pol".into(),
                size: 10,
                hash: 99,
            }],
            sections: vec![SectionEntry {
                kind: 1,
                offset: 128,
                len: 5,
            }],
            counts,
        };
        let b = encode_meta(&m).unwrap();
        assert_eq!(decode_meta(&b).unwrap(), m);
        let mut longer = b.clone();
        longer.push(0);
        assert!(decode_meta(&longer).is_err());
        assert!(decode_meta(&b[..b.len() - 1]).is_err());
    }

    #[test]
    fn hostile_length_prefix_is_refused() {
        // polc_version claims a huge length: must error, not allocate or panic.
        let b = [0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f];
        assert!(decode_meta(&b).is_err());
    }
}
