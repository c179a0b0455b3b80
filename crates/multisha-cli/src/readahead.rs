//! Reading a long input on a helper thread, one buffer ahead of its consumer, so that the
//! copy out of the page cache overlaps the hashing instead of adding to it (a copy costs
//! about a sixth of a SHA-256 pass; with a memory map there was no copy, but a file that
//! shrank while mapped killed the process with SIGBUS).

use std::io::{self, Read};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread;

/// Size of each of the two buffers: large enough that handing buffers between the threads
/// costs nothing next to hashing them, small enough to stay in the shared cache.
pub(crate) const BUF_SIZE: usize = 1 << 20;

/// A filled buffer and how many of its bytes are valid (0 at the end of the input).
type Filled = io::Result<(Vec<u8>, usize)>;

/// Reads until `buf` is full or the input ends; returns the bytes read.
pub(crate) fn fill(r: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Calls `consume` with everything `r` yields from here on, in order, while a helper thread
/// reads the next buffer. Stops at the first read error.
pub(crate) fn for_each_chunk(
    r: &mut (dyn Read + Send),
    mut consume: impl FnMut(&[u8]),
) -> io::Result<()> {
    let (filled_tx, filled_rx) = mpsc::sync_channel::<Filled>(1);
    let (empty_tx, empty_rx) = mpsc::sync_channel::<Vec<u8>>(2);
    for _ in 0..2 {
        // Cannot fail: the receiver is alive and there is room for both.
        let _ = empty_tx.send(vec![0; BUF_SIZE]);
    }
    thread::scope(|s| {
        s.spawn(move || read_ahead(r, &empty_rx, &filled_tx));
        // consume_all drops its channel ends when it returns, so the reader cannot stay
        // blocked on them: the scope's join returns once its current read does.
        consume_all(filled_rx, empty_tx, &mut consume)
    })
}

/// The helper thread: fills each buffer it gets back until the input ends or fails.
fn read_ahead(r: &mut (dyn Read + Send), empty: &Receiver<Vec<u8>>, filled: &SyncSender<Filled>) {
    while let Ok(mut buf) = empty.recv() {
        let result = fill(r, &mut buf);
        let last = !matches!(result, Ok(n) if n > 0);
        if filled.send(result.map(|n| (buf, n))).is_err() || last {
            return;
        }
    }
}

fn consume_all(
    filled: Receiver<Filled>,
    empty: SyncSender<Vec<u8>>,
    consume: &mut impl FnMut(&[u8]),
) -> io::Result<()> {
    loop {
        match filled.recv() {
            Ok(Ok((_, 0))) | Err(_) => return Ok(()),
            Ok(Ok((buf, n))) => {
                consume(&buf[..n]);
                // The reader may have finished; then the buffer is simply dropped.
                let _ = empty.send(buf);
            }
            Ok(Err(e)) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Yields `data` in odd-sized pieces, then fails if `fail` is set.
    struct Pieces<'a> {
        data: &'a [u8],
        fail: bool,
    }

    impl Read for Pieces<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.data.is_empty() && self.fail {
                return Err(io::Error::other("boom"));
            }
            let n = buf.len().min(self.data.len()).min(77_777);
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn passes_everything_in_order_and_reports_errors() {
        let data: Vec<u8> = (0..5 * BUF_SIZE + 123).map(|i| (i % 251) as u8).collect();
        for len in [0, 1, BUF_SIZE, data.len()] {
            let mut got = Vec::new();
            let mut r = Pieces {
                data: &data[..len],
                fail: false,
            };
            for_each_chunk(&mut r, |c| got.extend_from_slice(c)).expect("no error");
            assert!(got == data[..len], "length {len}");
        }
        let mut r = Pieces {
            data: &data,
            fail: true,
        };
        let err = for_each_chunk(&mut r, |_| {}).expect_err("the error");
        assert_eq!(err.to_string(), "boom");
    }
}
