//! NEON loads shared by the 32-bit-word kernels (SHA-1 and SHA-256, one and two streams).

use core::arch::aarch64::{uint32x4_t, vld1q_u8, vld1q_u32, vreinterpretq_u32_u8, vrev32q_u8};
use multisha_contract::Block64 as Block;

/// Loads the `i`-th group of four message words of `block` as big-endian words.
///
/// SHA-1 and SHA-256 read the block as big-endian 32-bit words, while an AArch64 vector load
/// puts the bytes into lanes little-endian (byte 0 of each four becomes the lowest byte of its
/// lane). `vrev32q_u8` reverses the bytes within each 32-bit lane, so every lane then holds
/// the big-endian word, in message order.
#[inline(always)]
pub(crate) fn load_words(block: &Block, i: usize) -> uint32x4_t {
    let bytes: &[u8; 16] = block[16 * i..16 * i + 16].try_into().expect("16 bytes");
    // SAFETY: `bytes` is 16 readable bytes, exactly what `vld1q_u8` reads (no alignment
    // needed); NEON, which these three intrinsics require, is part of the aarch64 baseline.
    unsafe { vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(bytes.as_ptr()))) }
}

/// Loads four consecutive `u32`s into one vector, lane 0 first.
#[inline(always)]
pub(crate) fn load_u32x4(words: &[u32]) -> uint32x4_t {
    let words: &[u32; 4] = words.try_into().expect("4 words");
    // SAFETY: `words` is four readable `u32`s, exactly what `vld1q_u32` reads; NEON, which it
    // requires, is part of the aarch64 baseline.
    unsafe { vld1q_u32(words.as_ptr()) }
}
