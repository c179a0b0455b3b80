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

impl Messages for [&[u8]] {
    fn count(&self) -> usize {
        self.len()
    }
    fn get(&self, i: usize) -> &[u8] {
        self[i]
    }
    #[inline]
    fn equal_len(&self) -> Option<usize> {
        // One compare a message, no bounds checks: this runs on every batch.
        let first = self.first()?.len();
        self.iter().all(|m| m.len() == first).then_some(first)
    }
}

impl<const N: usize> Messages for [[u8; N]] {
    fn count(&self) -> usize {
        self.len()
    }
    fn get(&self, i: usize) -> &[u8] {
        &self[i]
    }
    #[inline]
    fn equal_len(&self) -> Option<usize> {
        (!self.is_empty()).then_some(N)
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
