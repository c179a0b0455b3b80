//! Reading a checksum list line by line in bounded memory: a line longer than [`MAX_LINE`]
//! is skipped over without being stored (it cannot be a useful checksum line).

use std::io::{self, BufRead};

/// Longest line kept, newline excluded. A checksum line holds at most a digest, a few
/// marker bytes and a file name; a name that `open` accepts is under PATH_MAX (4096) bytes,
/// twice that when escaped, so 64 KiB is generous.
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// One line of the list.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line<'a> {
    /// The line, with its newline if it had one.
    Text(&'a [u8]),
    /// A line longer than [`MAX_LINE`]: only its first byte is kept.
    TooLong(u8),
}

/// Splits a byte stream into lines.
#[derive(Debug)]
pub(crate) struct LineReader<R> {
    inner: R,
    line: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub(crate) fn new(inner: R) -> Self {
        LineReader {
            inner,
            line: Vec::new(),
        }
    }

    /// The next line, or `None` at the end of the input.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.line.clear();
        // The newline may come right after MAX_LINE bytes, hence the + 1.
        let cap = MAX_LINE + 1;
        let mut too_long = false;
        let mut first = None;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            first.get_or_insert(chunk[0]);
            let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(p) => (p + 1, true),
                None => (chunk.len(), false),
            };
            if !too_long {
                let room = cap - self.line.len();
                if take <= room {
                    self.line.extend_from_slice(&chunk[..take]);
                } else {
                    too_long = true;
                    self.line.clear();
                }
            }
            self.inner.consume(take);
            if end {
                break;
            }
        }
        // Without a newline, MAX_LINE + 1 bytes are one too many.
        too_long |= self.line.len() > MAX_LINE && self.line.last() != Some(&b'\n');
        Ok(match first {
            None => None,
            Some(b) if too_long => Some(Line::TooLong(b)),
            Some(_) => Some(Line::Text(&self.line)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(data: &[u8], buf: usize) -> Vec<Result<Vec<u8>, u8>> {
        let mut r = LineReader::new(io::BufReader::with_capacity(buf, data));
        let mut v = Vec::new();
        while let Some(l) = r.next_line().expect("read") {
            v.push(match l {
                Line::Text(t) => Ok(t.to_vec()),
                Line::TooLong(b) => Err(b),
            });
        }
        v
    }

    #[test]
    fn splits_and_caps_lines() {
        for buf in [1, 7, 4096, 1 << 20] {
            assert_eq!(
                lines(b"a\n\nbc", buf),
                [Ok(b"a\n".to_vec()), Ok(b"\n".to_vec()), Ok(b"bc".to_vec())]
            );
            let mut data = vec![b'#'; MAX_LINE];
            data.push(b'\n');
            let mut long = vec![b'x'; MAX_LINE + 1];
            long.push(b'\n');
            data.extend_from_slice(&long);
            data.extend_from_slice(&long[..MAX_LINE + 1]);
            let got = lines(&data, buf);
            assert_eq!(got.len(), 3);
            assert_eq!(got[0].as_ref().map(Vec::len), Ok(MAX_LINE + 1));
            assert_eq!(got[1], Err(b'x'));
            assert_eq!(got[2], Err(b'x'));
        }
        assert!(lines(b"", 16).is_empty());
    }
}
