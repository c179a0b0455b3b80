//! Merkle–Damgård padding shared by the streaming hashers and the one-shot functions.

use crate::{Block, Family};
use zeroize::Zeroize;

/// Pads the last partial block of a message.
///
/// `tail` is the unprocessed end of the message (fewer than 64 bytes) and `message_len` the
/// length of the whole message in bytes. Returns the one or two padded blocks and how many of
/// them are used: a tail of 56 bytes or more leaves no room for the 8-byte length.
///
/// # Panics
/// If `tail` is 64 bytes or longer (a caller bug, never user input).
#[inline(always)]
pub fn pad_tail(tail: &[u8], message_len: u64) -> ([Block; 2], usize) {
    assert!(tail.len() < 64, "pad_tail takes less than one block");
    let mut blocks = [[0u8; 64]; 2];
    blocks[0][..tail.len()].copy_from_slice(tail);
    blocks[0][tail.len()] = 0x80;
    let used = if tail.len() < 56 { 1 } else { 2 };
    // The length field is the message length in bits, modulo 2^64 (FIPS 180-4 §5.1.1).
    let bits = message_len.wrapping_mul(8).to_be_bytes();
    blocks[used - 1][56..].copy_from_slice(&bits);
    (blocks, used)
}

/// Hashes a whole message without a streaming buffer: whole blocks straight from the input,
/// then the padded tail from one stack buffer, one workspace wiped once at the end.
///
/// # Safety
/// The CPU must support every feature `kernel` requires.
#[inline(always)]
pub unsafe fn oneshot<F: Family>(kernel: F::Kernel, iv: F::State, data: &[u8]) -> F::State {
    let (blocks, tail) = data.as_chunks::<64>();
    let mut state = iv;
    let mut w = F::Workspace::default();
    if !blocks.is_empty() {
        // SAFETY: the caller guarantees the CPU runs `kernel`.
        unsafe { F::call(kernel, &mut state, blocks, &mut w) };
    }
    let (mut padded, used) = pad_tail(tail, data.len() as u64);
    // SAFETY: as above.
    unsafe { F::call(kernel, &mut state, &padded[..used], &mut w) };
    F::wipe(&mut w);
    padded.as_mut_slice().as_flattened_mut().zeroize();
    state
}

/// Writes the state as big-endian words into `out`, truncated to `out.len()` bytes
/// (SHA-224 keeps 28 of SHA-256's 32).
#[inline(always)]
pub fn write_digest(state: &[u32], out: &mut [u8]) {
    for (chunk, word) in out.chunks_mut(4).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes()[..chunk.len()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_tail_fits_one_block() {
        let (blocks, used) = pad_tail(b"abc", 3);
        assert_eq!(used, 1);
        assert_eq!(&blocks[0][..4], b"abc\x80");
        assert_eq!(blocks[0][63], 24);
    }

    #[test]
    fn long_tail_needs_two_blocks() {
        let tail = [7u8; 56];
        let (blocks, used) = pad_tail(&tail, 120);
        assert_eq!(used, 2);
        assert_eq!(blocks[0][56], 0x80);
        assert!(blocks[0][57..].iter().all(|&b| b == 0));
        assert_eq!(u64::from_be_bytes(blocks[1][56..].try_into().unwrap()), 960);
    }

    #[test]
    fn truncated_digest() {
        let mut out = [0u8; 6];
        write_digest(&[0x0102_0304, 0x0506_0708], &mut out);
        assert_eq!(out, [1, 2, 3, 4, 5, 6]);
    }
}
