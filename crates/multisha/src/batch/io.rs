//! Where a batch's messages come from and its digests go: by index, whatever the container.

/// The messages of a batch, by index (a slice of slices, or of fixed-size nodes).
pub(crate) trait Messages {
    /// How many.
    fn count(&self) -> usize;
    /// The `i`-th.
    fn get(&self, i: usize) -> &[u8];
    /// The length of every message, if there is at least one and all have the same.
    fn equal_len(&self) -> Option<usize>;
}

/// Any slice of byte containers: `&[u8]`, `Vec<u8>`, `[u8; N]` (64-byte Merkle nodes),
/// `String`, `&str`, ...
impl<M: AsRef<[u8]>> Messages for [M] {
    #[inline]
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn get(&self, i: usize) -> &[u8] {
        self[i].as_ref()
    }
    #[inline]
    fn equal_len(&self) -> Option<usize> {
        // This runs on every batch: no branch a message (a compare and branch each took 40 ns
        // of 64 x 32 B, 2% of hashing them), the differences or-ed four at a time. For arrays
        // (`[u8; N]`) every length is the constant `N` and the loop folds away.
        let first = self.first()?.as_ref().len();
        let (fours, rest) = self.as_chunks::<4>();
        let mut differ = 0;
        for [a, b, c, d] in fours {
            let len = |m: &M| m.as_ref().len() ^ first;
            differ |= len(a) | len(b) | len(c) | len(d);
        }
        for m in rest {
            differ |= m.as_ref().len() ^ first;
        }
        (differ == 0).then_some(first)
    }
}

/// Where the digests of a batch go, by index.
pub(crate) trait Digests {
    /// How many.
    fn count(&self) -> usize;
    /// The `i`-th digest's bytes.
    fn slot(&mut self, i: usize) -> &mut [u8];
}

impl<D: AsMut<[u8]>> Digests for [D] {
    fn count(&self) -> usize {
        self.len()
    }
    fn slot(&mut self, i: usize) -> &mut [u8] {
        self[i].as_mut()
    }
}

/// Digests laid end to end in one buffer.
pub(crate) struct Flat<'a> {
    pub(crate) bytes: &'a mut [u8],
    pub(crate) len: usize,
}

impl Digests for Flat<'_> {
    fn count(&self) -> usize {
        self.bytes.len() / self.len
    }
    fn slot(&mut self, i: usize) -> &mut [u8] {
        &mut self.bytes[i * self.len..(i + 1) * self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_different_length_anywhere_makes_a_batch_unequal() {
        let bytes = [0u8; 8];
        for count in 1..=9 {
            let mut messages = std::vec![&bytes[..3]; count];
            assert_eq!(messages[..].equal_len(), Some(3), "{count} equal");
            // (One message alone is equal to itself, whatever its length.)
            for at in (0..count).filter(|_| count > 1) {
                for other in [0, 2, 4, 7] {
                    messages[at] = &bytes[..other];
                    assert_eq!(messages[..].equal_len(), None, "{count}: {other} at {at}");
                }
                messages[at] = &bytes[..3];
            }
        }
        let none: [&[u8]; 0] = [];
        assert_eq!(none[..].equal_len(), None);
    }
}
