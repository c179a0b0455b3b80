//! Merkle–Damgård padding shared by the streaming hashers, the one-shot functions and the
//! batch paths.

use crate::{BlockBytes, Compression, KernelFn, Word, WorkspaceBuffer};
use zeroize::Zeroize;

/// Pads the last partial block of a message into `padded`, and returns how many of its two
/// blocks are used: a tail too long to leave room for the length field needs two. The caller
/// has zeroed the blocks used (an unused second block may hold anything).
///
/// `tail` is the unprocessed end of the message (shorter than a block) and `bit_len` the
/// length of the whole message in bits; the length field keeps its low
/// [`Compression::LENGTH_BYTES`] bytes (modulo 2^64 for SHA-1/SHA-256, FIPS 180-4 §5.1).
/// Only the tail, the `0x80` byte and the length are written (the zeros are the caller's),
/// with fixed-size moves rather than calls to `memcpy`/`memset`: the one-shot functions on
/// short messages spend a good part of their time here. The caller wipes `padded` after use.
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
    let first = padded[0].as_mut();
    copy_short(&mut first[..tail.len()], tail);
    first[tail.len()] = 0x80;
    let last = padded[used - 1].as_mut();
    last[block - A::LENGTH_BYTES..].copy_from_slice(&bit_len.to_be_bytes()[16 - A::LENGTH_BYTES..]);
    used
}

/// `dst.copy_from_slice(src)` for fewer than 128 bytes, as two overlapping fixed-size copies
/// per size class (what `memcpy` does for small sizes, without the call).
#[inline(always)]
pub fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    assert!(
        n == dst.len() && n < 128,
        "copy_short copies under 128 bytes"
    );
    macro_rules! two {
        ($width:literal) => {{
            dst[..$width].copy_from_slice(&src[..$width]);
            dst[n - $width..].copy_from_slice(&src[n - $width..]);
        }};
    }
    match n {
        64.. => two!(64),
        32.. => two!(32),
        16.. => two!(16),
        8.. => two!(8),
        4.. => two!(4),
        1.. => {
            dst[0] = src[0];
            dst[n / 2] = src[n / 2];
            dst[n - 1] = src[n - 1];
        }
        0 => {}
    }
}

/// Overwrites both padding blocks with zeros in a way the optimiser cannot drop.
#[inline(always)]
pub fn wipe_blocks<B: BlockBytes>(blocks: &mut [B]) {
    for block in blocks {
        block.as_mut().zeroize();
    }
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
    let (blocks, tail) = A::Block::split(data);
    let mut state = iv;
    let mut w = A::Workspace::default();
    if !blocks.is_empty() {
        // SAFETY: the caller guarantees the CPU runs `kernel`.
        unsafe { kernel(&mut state, blocks, &mut w) };
    }
    let mut padded = [A::Block::ZERO; 2];
    let used = pad_into::<A>(&mut padded, tail, data.len() as u128 * 8);
    // SAFETY: as above.
    unsafe { kernel(&mut state, &padded[..used], &mut w) };
    w.wipe();
    wipe_blocks(&mut padded[..used]);
    write_digest(state.as_ref(), out);
    state.as_mut().zeroize();
}

/// Writes the state as big-endian words into `out`, truncated to `out.len()` bytes
/// (SHA-224 keeps 28 of SHA-256's 32 bytes, SHA-512/224 28 of SHA-512's 64).
#[inline(always)]
pub fn write_digest<W: Word>(state: &[W], out: &mut [u8]) {
    // Whole words as fixed-size moves (`chunks_mut` hid the size: a `memcpy` call per word
    // when `out`'s length is not known at compile time), then SHA-512/224's half word.
    let full = out.len() / W::BYTES;
    let mut whole = out.chunks_exact_mut(W::BYTES);
    for (chunk, word) in (&mut whole).zip(state) {
        word.write_be(chunk);
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

    #[test]
    fn short_copies_cover_every_length() {
        let src: std::vec::Vec<u8> = (1..=127).collect();
        for n in 0..128 {
            let mut dst = [0u8; 127];
            copy_short(&mut dst[..n], &src[..n]);
            assert_eq!(dst[..n], src[..n], "{n} bytes");
            assert!(
                dst[n..].iter().all(|&b| b == 0),
                "{n} bytes: nothing past the end"
            );
        }
    }

    #[test]
    fn truncated_digest() {
        let mut out = [0u8; 6];
        write_digest(&[0x0102_0304u32, 0x0506_0708], &mut out);
        assert_eq!(out, [1, 2, 3, 4, 5, 6]);
        let mut out = [0u8; 12];
        write_digest(&[0x0102_0304_0506_0708u64, 0x090a_0b0c_0d0e_0f10], &mut out);
        assert_eq!(out, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    }
}
