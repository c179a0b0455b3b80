//! Merkle–Damgård padding shared by the streaming hashers, the one-shot functions and the
//! batch paths.

use crate::chunk::{Chunk, le_halves};
use crate::{BlockBytes, Compression, KernelFn, OneBlockFn, Word, WorkspaceBuffer};
use zeroize::Zeroize;

/// Pads the last partial block of a message into `padded`, and returns how many of its two
/// blocks are used: a tail too long to leave room for the length field needs two. The caller
/// has zeroed the blocks used (an unused second block may hold anything).
///
/// `tail` is the unprocessed end of the message (shorter than a block) and `bit_len` the
/// length of the whole message in bits; the length field keeps its low
/// [`Compression::LENGTH_BYTES`] bytes (modulo 2^64 for SHA-1/SHA-256, FIPS 180-4 §5.1).
///
/// Every 16-byte chunk the tail, the `0x80` byte or the length touches is written by one
/// 16-byte store, the last to reach it: the kernels load the blocks 16 bytes at a time right
/// after, and a load that needs bytes of several pending stores waits for them to reach the
/// cache (a store-forwarding stall: without them one-shot SHA-256 of 16 bytes runs 1.5 times
/// as fast). No `memcpy` or `memset` calls either. The caller wipes `padded` after use.
///
/// # Panics
/// If `tail` is a whole block or longer (a caller bug, never user input).
#[inline(always)]
pub fn pad_into<A: Compression>(padded: &mut [A::Block; 2], tail: &[u8], bit_len: u128) -> usize {
    let block = A::Block::LEN;
    assert!(tail.len() < block, "pad_into takes less than one block");
    let used = if tail.len() < block - A::LENGTH_BYTES {
        1
    } else {
        2
    };
    debug_assert!(
        padded[..used]
            .iter()
            .all(|b| b.as_ref().iter().all(|&x| x == 0)),
        "pad_into wants zeroed blocks"
    );
    // The length field as the two little-endian words of the block's last 16 bytes.
    let length = bit_len.to_be_bytes();
    let length_hi = u64::from_le_bytes(length[8..].try_into().expect("8 bytes"));
    let length_lo = match A::LENGTH_BYTES {
        16 => u64::from_le_bytes(length[..8].try_into().expect("8 bytes")),
        _ => 0,
    };
    let (whole, rest) = tail.as_chunks::<16>();
    let (first, _) = padded[0].as_mut().as_chunks_mut::<16>();
    copy_chunks(&mut first[..whole.len()], whole);
    // The chunk with the end of the tail and the `0x80` byte.
    let (mut lo, mut hi) = le_halves(rest);
    match rest.len() {
        k @ 0..8 => lo |= 0x80 << (8 * k),
        k => hi |= 0x80 << (8 * (k - 8)),
    }
    let boundary = whole.len();
    let (last, _) = padded[used - 1].as_mut().as_chunks_mut::<16>();
    let last_index = last.len() - 1;
    if used == 1 && boundary == last_index {
        // Tail and length share the chunk (only with an 8-byte length field).
        last[last_index].store(lo, hi | length_hi);
    } else {
        last[last_index].store(length_lo, length_hi);
        let (first, _) = padded[0].as_mut().as_chunks_mut::<16>();
        first[boundary].store(lo, hi);
    }
    used
}

/// [`pad_into`] of the partial block `tail[..len]` held in whole chunks (a streaming hasher's
/// buffer; the bytes past `len` may hold anything), with every chunk of both blocks written by
/// one store at a fixed place: what varies with `len` is the data stored, never where. A
/// streaming hasher keeps `len` in memory, and a store whose address waits on it holds back
/// every later load that might alias it (the kernel's loads of the blocks): SHA-256 of an
/// empty message through `new`/`update`/`finalize` took 73 ns with [`pad_into`] and 55 with
/// this on an AMD Zen 4.
/// Returns the blocks used, as [`pad_into`]; the caller need not zero `padded` first.
///
/// # Panics
/// If `len` is a whole block or more, or `tail` is not one block of chunks (caller bugs).
#[inline(always)]
pub fn pad_chunks_into<A: Compression>(
    padded: &mut [A::Block; 2],
    tail: &[[u64; 2]],
    len: usize,
    bit_len: u128,
) -> usize {
    let block = A::Block::LEN;
    assert!(
        len < block && tail.len() * 16 == block,
        "pad_chunks_into takes one block of chunks and less than a block of data"
    );
    let two = len >= block - A::LENGTH_BYTES;
    let length = bit_len.to_be_bytes();
    let length_hi = u64::from_le_bytes(length[8..].try_into().expect("8 bytes"));
    let length_lo = match A::LENGTH_BYTES {
        16 => u64::from_le_bytes(length[..8].try_into().expect("8 bytes")),
        _ => 0,
    };
    // The half of the message's bytes `at..at + 8`: those below `len` kept, the `0x80` byte
    // where `len` falls in it.
    let half = |word: u64, at: usize| {
        let k = len.wrapping_sub(at) as isize;
        let keep = match k {
            ..=0 => 0,
            1..8 => (1u64 << (8 * k)) - 1,
            _ => u64::MAX,
        };
        let marker = match k {
            0..8 => 0x80u64 << (8 * k),
            _ => 0,
        };
        word & keep | marker
    };
    let last = tail.len() - 1;
    let (first, _) = padded[0].as_mut().as_chunks_mut::<16>();
    for (i, (chunk, &[lo, hi])) in first.iter_mut().zip(tail).enumerate() {
        let (mut lo, mut hi) = (half(lo, 16 * i), half(hi, 16 * i + 8));
        if i == last && !two {
            (lo, hi) = (lo | length_lo, hi | length_hi);
        }
        chunk.store(lo, hi);
    }
    let (second, _) = padded[1].as_mut().as_chunks_mut::<16>();
    for (i, chunk) in second.iter_mut().enumerate() {
        let (lo, hi) = match i == last && two {
            true => (length_lo, length_hi),
            false => (0, 0),
        };
        chunk.store(lo, hi);
    }
    1 + usize::from(two)
}

/// `dst.copy_from_slice(src)` for at most 8 chunks as two overlapping fixed-size copies, so
/// every chunk is still written by 16-byte stores (a loop or a variable-size copy here became a
/// `memcpy` call: 3-6% of a 16-byte HMAC-SHA256).
#[inline(always)]
fn copy_chunks(dst: &mut [[u8; 16]], src: &[[u8; 16]]) {
    let n = src.len();
    assert!(
        n == dst.len() && n <= 8,
        "copy_chunks copies up to 8 chunks"
    );
    macro_rules! two {
        ($width:literal) => {{
            dst[..$width].copy_from_slice(&src[..$width]);
            dst[n - $width..].copy_from_slice(&src[n - $width..]);
        }};
    }
    match n {
        4.. => two!(4),
        2.. => two!(2),
        1 => dst[0] = src[0],
        0 => {}
    }
}

/// Overwrites both padding blocks with zeros in a way the optimiser cannot drop. With the
/// `wipe-observer` feature, records the wipe in the padding log
/// (`wipe_observer::take_padding`).
#[inline(always)]
pub fn wipe_blocks<B: BlockBytes>(blocks: &mut [B]) {
    #[cfg(feature = "wipe-observer")]
    let had_data = crate::wipe_observer::any_nonzero(blocks);
    for block in blocks.iter_mut() {
        block.as_mut().zeroize();
    }
    #[cfg(feature = "wipe-observer")]
    crate::wipe_observer::record_padding(
        blocks.len() * B::LEN,
        had_data,
        !crate::wipe_observer::any_nonzero(blocks),
    );
}

/// Hashes a whole message without a streaming buffer: whole blocks straight from the input,
/// the padded tail built in place in one stack buffer, one workspace; writes the digest
/// (`out.len()` bytes of the state) and wipes the workspace, the padded tail and the state.
///
/// # Safety
/// The CPU must support every feature `kernel` requires.
#[inline(always)]
pub unsafe fn oneshot<A: Compression>(
    kernel: KernelFn<A>,
    iv: A::State,
    data: &[u8],
    out: &mut [u8],
) {
    // SAFETY: forwarded from the caller.
    unsafe { OneShot::<A>::new().hash(kernel, &iv, data, out) };
}

/// The buffers of [`oneshot`], kept for message after message (one by one in a batch): the
/// padded tail is zeroed once, not per message (each message's is wiped after use, which
/// leaves it zeroed for the next), and the workspace is wiped once, when this is dropped
/// (with the padded tail, if a kernel unwound before its wipe).
pub struct OneShot<A: Compression> {
    workspace: A::Workspace,
    padded: [A::Block; 2],
    /// Whether `padded` holds a tail not wiped yet (only after an unwinding kernel).
    dirty: bool,
}

impl<A: Compression> OneShot<A> {
    /// Zeroed buffers.
    #[inline(always)]
    pub fn new() -> Self {
        Self {
            workspace: A::Workspace::default(),
            padded: [A::Block::ZERO; 2],
            dirty: false,
        }
    }

    /// Hashes `data` from `iv` with `kernel` into `out` (`out.len()` bytes of the state), as
    /// [`oneshot`] does; wipes the padded tail and the state, and leaves the workspace to the
    /// drop. After a kernel unwound, drop this rather than use it again.
    ///
    /// # Safety
    /// The CPU must support every feature `kernel` requires.
    #[inline(always)]
    pub unsafe fn hash(&mut self, kernel: KernelFn<A>, iv: &A::State, data: &[u8], out: &mut [u8]) {
        // SAFETY: forwarded from the caller.
        unsafe { self.hash_from(kernel, iv, 0, data, out) }
    }

    /// [`Self::hash`] of `data` as the end of a longer message: from `state`, the state after
    /// the message's first `prefix_bits` bits (whole blocks, such as HMAC's keyed block), which
    /// the length field counts.
    ///
    /// # Safety
    /// As [`Self::hash`].
    #[inline(always)]
    pub unsafe fn hash_from(
        &mut self,
        kernel: KernelFn<A>,
        state: &A::State,
        prefix_bits: u128,
        data: &[u8],
        out: &mut [u8],
    ) {
        let (blocks, tail) = A::Block::split(data);
        let mut state = *state;
        if !blocks.is_empty() {
            // SAFETY: the caller guarantees the CPU runs `kernel`.
            unsafe { kernel(&mut state, blocks, &mut self.workspace) };
        }
        let used = pad_into::<A>(&mut self.padded, tail, prefix_bits + data.len() as u128 * 8);
        self.dirty = true;
        // SAFETY: as above.
        unsafe { kernel(&mut state, &self.padded[..used], &mut self.workspace) };
        wipe_blocks(&mut self.padded[..used]);
        self.dirty = false;
        write_digest_after_kernel(state.as_ref(), out);
        state.as_mut().zeroize();
    }
}

/// Hashes `data` from `iv` through a kernel's entry for one-block messages, `one_block`, into
/// `out` (`out.len()` bytes of the state) if the kernel has the entry and `data` is exactly
/// one block long (64-byte Merkle nodes): no padding block is built or wiped. Returns whether
/// it did; otherwise `out` is untouched, and the message is for [`OneShot::hash`]. The length
/// is compared first: one compare with a constant on every other message.
///
/// `out` should be a digest of its own, not the one the caller's other path writes: the entry
/// is called through a pointer, so `out` lives in memory, and a caller whose every path
/// wrote into it paid that on every message (4 ns a message of 5 x 32 B SHA-256 batches).
///
/// # Safety
/// The CPU must support every feature `one_block` requires.
#[inline(always)]
pub unsafe fn hash_one_block<A: Compression>(
    one_block: Option<OneBlockFn<A>>,
    iv: &A::State,
    data: &[u8],
    out: &mut [u8],
) -> bool {
    if let (true, Some(one_block)) = (data.len() == <A::Block as BlockBytes>::LEN, one_block) {
        // SAFETY: the caller guarantees the CPU runs the entry.
        unsafe { one_block(iv, &[&A::Block::split(data).0[0]], &mut [out]) };
        return true;
    }
    false
}

impl<A: Compression> core::fmt::Debug for OneShot<A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never print message-derived data.
        f.write_str("OneShot { .. }")
    }
}

impl<A: Compression> Default for OneShot<A> {
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

impl<A: Compression> Drop for OneShot<A> {
    #[inline(always)]
    fn drop(&mut self) {
        self.workspace.wipe();
        if self.dirty {
            wipe_blocks(&mut self.padded);
        }
    }
}

/// Writes the state as big-endian words into `out`, truncated to `out.len()` bytes
/// (SHA-224 keeps 28 of SHA-256's 32 bytes, SHA-512/224 28 of SHA-512's 64).
#[inline(always)]
pub fn write_digest<W: Word>(state: &[W], out: &mut [u8]) {
    write_words::<W, false>(state, out);
}

/// [`write_digest`] of the state a single-message kernel just left, on the path of one message
/// after another (one-shot functions, batches one by one): on x86-64, word by word, each its
/// own byte swap and store. The compiler otherwise vectorises the words' byte swaps, and
/// without SSSE3's `pshufb` (not in the baseline) that is seven shuffles a 16 bytes, which
/// wait for the whole state and take the shuffle ports the next message's kernel wants: 2-8 x
/// 32 B SHA-256 one by one took 1.03-1.05 times a loop of one-shot calls, 1.01-1.02 word by
/// word (Intel Xeon with AMX). After lane kernels, many digests at once, the vectorised form is
/// the faster (fewer instructions: 100 messages of 0-200 B 4% slower word by word).
#[inline(always)]
pub(crate) fn write_digest_after_kernel<W: Word>(state: &[W], out: &mut [u8]) {
    write_words::<W, { cfg!(target_arch = "x86_64") }>(state, out);
}

/// [`write_digest`], word by word where `WORD_BY_WORD` ([`write_digest_after_kernel`]).
#[inline(always)]
fn write_words<W: Word, const WORD_BY_WORD: bool>(state: &[W], out: &mut [u8]) {
    // Whole words as fixed-size moves (`chunks_mut` hid the size: a `memcpy` call per word
    // when `out`'s length is not known at compile time), then SHA-512/224's half word.
    let full = out.len() / W::BYTES;
    let mut whole = out.chunks_exact_mut(W::BYTES);
    for (chunk, word) in (&mut whole).zip(state) {
        word.write_be(chunk);
        if WORD_BY_WORD {
            // Emits nothing; the compiler does not merge stores across it.
            core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
        }
    }
    let rest = whole.into_remainder();
    if let (false, Some(&word)) = (rest.is_empty(), state.get(full)) {
        word.write_be(rest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sha256Compression;
    use std::vec::Vec;

    /// Each algorithm's constant `ONE_BLOCK_PADDING` is the expanded schedule of the padding
    /// block `pad_into` makes for a message exactly one block long.
    #[test]
    fn the_one_block_padding_schedules_are_those_of_the_padding_blocks() {
        fn check<A: Compression>() {
            let mut padded = [A::Block::ZERO; 2];
            let used = pad_into::<A>(&mut padded, &[], (A::Block::LEN * 8) as u128);
            assert_eq!(used, 1, "{}", A::NAME);
            let mut w = [A::Word::default(); 80];
            A::schedule(&padded[0], &mut w[..A::ROUNDS]);
            assert_eq!(&w[..A::ROUNDS], A::ONE_BLOCK_PADDING, "{}", A::NAME);
        }
        check::<crate::Sha1Compression>();
        check::<Sha256Compression>();
        check::<crate::Sha512Compression>();
    }

    /// [`pad_chunks_into`] makes [`pad_into`]'s blocks at every tail length, whatever the
    /// chunks hold past the tail and the blocks held before, with lengths that fill every byte
    /// of the length field.
    #[test]
    fn padding_from_chunks_matches_padding_from_bytes() {
        fn check<A: Compression>() {
            let block = A::Block::LEN;
            let bytes: Vec<u8> = (0..block).map(|i| (i * 37 + 11) as u8 | 1).collect();
            let mut tail = [[0u64; 2]; 8];
            let tail = &mut tail[..block / 16];
            for (chunk, b) in tail.iter_mut().zip(bytes.chunks_exact(16)) {
                *chunk = [
                    u64::from_le_bytes(b[..8].try_into().unwrap()),
                    u64::from_le_bytes(b[8..].try_into().unwrap()),
                ];
            }
            for len in 0..block {
                for bit_len in [8 * len as u128, u128::MAX - 0x1234, 0x0102_0304_0506_0708] {
                    let mut want = [A::Block::ZERO; 2];
                    let want_used = pad_into::<A>(&mut want, &bytes[..len], bit_len);
                    let mut got = [A::Block::ZERO; 2];
                    for b in &mut got {
                        b.as_mut().fill(0xa5);
                    }
                    let used = pad_chunks_into::<A>(&mut got, tail, len, bit_len);
                    assert_eq!(used, want_used, "{} {len}", A::NAME);
                    for i in 0..used {
                        assert_eq!(
                            got[i].as_ref(),
                            want[i].as_ref(),
                            "{} {len} bytes, block {i}",
                            A::NAME
                        );
                    }
                }
            }
        }
        check::<crate::Sha1Compression>();
        check::<Sha256Compression>();
        check::<crate::Sha512Compression>();
    }

    #[test]
    fn short_tail_fits_one_block() {
        let mut blocks = [[0; 64]; 2];
        let used = pad_into::<Sha256Compression>(&mut blocks, b"abc", 24);
        assert_eq!(used, 1);
        assert_eq!(&blocks[0][..4], b"abc\x80");
        assert!(blocks[0][4..63].iter().all(|&b| b == 0));
        assert_eq!(blocks[0][63], 24);
    }

    #[test]
    fn long_tail_needs_two_blocks() {
        let tail = [7u8; 56];
        let mut blocks = [[0; 64]; 2];
        let used = pad_into::<Sha256Compression>(&mut blocks, &tail, 960);
        assert_eq!(used, 2);
        assert_eq!(blocks[0][56], 0x80);
        assert!(blocks[0][57..].iter().all(|&b| b == 0));
        assert!(blocks[1][..56].iter().all(|&b| b == 0));
        assert_eq!(u64::from_be_bytes(blocks[1][56..].try_into().unwrap()), 960);
    }

    #[test]
    fn length_field_is_modulo_two_to_the_64() {
        let mut blocks = [[0; 64]; 2];
        pad_into::<Sha256Compression>(&mut blocks, b"", (1u128 << 64) + 8);
        assert_eq!(u64::from_be_bytes(blocks[0][56..].try_into().unwrap()), 8);
    }

    /// The padding FIPS 180-4 §5.1 describes, byte by byte.
    fn reference_padding(tail: &[u8], bit_len: u128, block: usize, length_bytes: usize) -> Vec<u8> {
        let mut out = tail.to_vec();
        out.push(0x80);
        while out.len() % block != block - length_bytes {
            out.push(0);
        }
        out.extend_from_slice(&bit_len.to_be_bytes()[16 - length_bytes..]);
        out
    }

    fn every_tail_length<A: Compression>() {
        let block = A::Block::LEN;
        let message: Vec<u8> = (1..=block as u8).collect();
        for n in 0..block {
            for bit_len in [8 * n as u128, (1 << 64) + 8 * n as u128, u128::MAX - 7] {
                let mut padded = [A::Block::ZERO; 2];
                let used = pad_into::<A>(&mut padded, &message[..n], bit_len);
                let got: Vec<u8> = padded[..used]
                    .iter()
                    .flat_map(|b| b.as_ref().to_vec())
                    .collect();
                assert_eq!(
                    got,
                    reference_padding(&message[..n], bit_len, block, A::LENGTH_BYTES),
                    "{n}-byte tail, bit length {bit_len:#x}"
                );
            }
        }
    }

    #[test]
    fn every_tail_length_pads_as_fips_180_4_says() {
        every_tail_length::<Sha256Compression>();
        every_tail_length::<crate::Sha1Compression>();
        every_tail_length::<crate::Sha512Compression>();
    }

    #[test]
    fn truncated_digest() {
        // Both forms: vectorised and word by word.
        for write in [write_digest::<u32>, write_digest_after_kernel::<u32>] {
            let mut out = [0u8; 6];
            write(&[0x0102_0304u32, 0x0506_0708], &mut out);
            assert_eq!(out, [1, 2, 3, 4, 5, 6]);
            let mut out = [0u8; 32];
            write(
                &core::array::from_fn::<u32, 8, _>(|i| 0x0403_0201 * (i as u32 + 1)),
                &mut out,
            );
            assert_eq!(out[28..], [0x20, 0x18, 0x10, 0x08]);
        }
        for write in [write_digest::<u64>, write_digest_after_kernel::<u64>] {
            let mut out = [0u8; 12];
            write(&[0x0102_0304_0506_0708u64, 0x090a_0b0c_0d0e_0f10], &mut out);
            assert_eq!(out, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        }
    }
}
