//! Small files read whole in as few system calls as possible: the hook reads a dozen state,
//! cache and record files on every call, and `read_to_end` on a `Take` (which hides the
//! file's size) starts at 32 bytes and doubles, one `read` each time (the session's state
//! file of 2.3 KB took nine). Reading into a buffer sized from `fstat` takes one `read` and
//! one more that returns 0.

use std::io::Read;

/// Up to `cap` bytes of `f` from its current offset; `size` is what `fstat` reported (a
/// file that grew meanwhile is read on, up to `cap`).
pub fn read_upto(mut f: &std::fs::File, size: u64, cap: u64) -> std::io::Result<Vec<u8>> {
    if cap == 0 {
        return Ok(Vec::new());
    }
    let want = size.min(cap) as usize;
    // One byte more than the size: the read that finds the end needs no new allocation.
    let mut buf = vec![0u8; (want + 1).min(cap as usize)];
    let mut n = 0;
    loop {
        if n == buf.len() {
            if n as u64 >= cap {
                break;
            }
            let more = (buf.len() * 2).min(cap as usize);
            buf.resize(more, 0);
        }
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(n);
    Ok(buf)
}

/// [`read_upto`] as UTF-8 text (an error when it is not).
pub fn read_text_upto(f: &std::fs::File, size: u64, cap: u64) -> std::io::Result<String> {
    String::from_utf8(read_upto(f, size, cap)?)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn reads_whole_capped_and_grown_files() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("f");
        let data: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&p, &data).unwrap();
        let f = std::fs::File::open(&p).unwrap();
        assert_eq!(read_upto(&f, 10_000, 1 << 20).unwrap(), data);
        let f = std::fs::File::open(&p).unwrap();
        assert_eq!(read_upto(&f, 10_000, 100).unwrap(), data[..100]);
        // Grown since `fstat`: read on up to the cap.
        let f = std::fs::File::open(&p).unwrap();
        assert_eq!(read_upto(&f, 10, 1 << 20).unwrap(), data);
        let f = std::fs::File::open(&p).unwrap();
        assert_eq!(read_upto(&f, 0, 0).unwrap(), Vec::<u8>::new());
        std::fs::OpenOptions::new()
            .append(true)
            .open(&p)
            .unwrap()
            .write_all(&[0xff, 0xfe])
            .unwrap();
        let f = std::fs::File::open(&p).unwrap();
        assert!(read_text_upto(&f, 10_002, 1 << 20).is_err());
    }
}
