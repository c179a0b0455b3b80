//! The PBKDF2-HMAC inner loop as a kernel entry (RFC 8018 §5.2, HMAC of RFC 2104).
//!
//! Each PBKDF2 iteration is `U_j = HMAC(P, U_{j-1})` and `T ^= U_j`: two compressions, each of
//! one block that holds the previous digest followed by fixed padding, from one of two fixed
//! keyed states. Every single-message variant has an [`IterateFn`] that runs that loop with
//! the state in the kernel's own layout across iterations; [`iterate_with`] is the portable
//! one, built from the variant's [`KernelFn`], which `declare_variant!` installs for kernels
//! that do not define their own.

use crate::{BlockBytes, Compression, KernelFn, State, Word, WorkspaceBuffer, write_digest};

/// The HMAC keyed states of one password: the compression state after the key XOR `ipad`
/// block (`inner`) and after the key XOR `opad` block (`outer`). Wiped on drop.
pub struct HmacKeys<A: Compression> {
    /// The state after compressing `key ^ 0x36..`.
    pub inner: State<A>,
    /// The state after compressing `key ^ 0x5c..`.
    pub outer: State<A>,
}

impl<A: Compression> HmacKeys<A> {
    /// Overwrites both states with zeros in a way the optimiser cannot drop (as dropping does).
    pub fn wipe(&mut self) {
        crate::wipe_secret("HMAC inner keyed state", self.inner.as_mut());
        crate::wipe_secret("HMAC outer keyed state", self.outer.as_mut());
    }
}

impl<A: Compression> Drop for HmacKeys<A> {
    fn drop(&mut self) {
        self.wipe();
    }
}

impl<A: Compression> core::fmt::Debug for HmacKeys<A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never print key-derived data.
        f.write_str("HmacKeys { .. }")
    }
}

/// Signature of every single-message variant's PBKDF2 entry: given `U_1` in `u` and `T` in
/// `t`, computes `U_2 .. U_{count+1}` into `u`, XORing each into `t`.
///
/// `u` and `t` hold digests as state words (the digest read as big-endian words);
/// `digest_len` is the digest length in bytes, one of the algorithm's output lengths
/// ([`Compression::OUTPUTS`]). Only the first `digest_len` bytes of the words count: the
/// words beyond them are ignored on entry and unspecified on return. `count` may be zero (then
/// nothing changes). A kernel keeps no key- or digest-derived data in memory it does not wipe
/// before returning (registers and its own stack frame aside).
///
/// # Safety
/// The CPU must support every feature the variant requires.
pub type IterateFn<A> = unsafe fn(&HmacKeys<A>, &mut State<A>, &mut State<A>, usize, u32);

/// Signature of a multi-lane kernel's PBKDF2 entry: the loop of [`IterateFn`] for several
/// independent chains at once (the output blocks of one derivation), chain `i` in `u[i]`
/// and `t[i]`. `u` and `t` have exactly the kernel's lane count.
///
/// # Safety
/// As [`IterateFn`].
pub type LanesIterateFn<A> = unsafe fn(&HmacKeys<A>, &mut [State<A>], &mut [State<A>], usize, u32);

/// The block an HMAC iteration compresses, with its digest bytes zero: `digest_len` bytes of
/// digest, `0x80`, zeros, and the length of key block plus digest in bits (the inner and the
/// outer block of PBKDF2 have this same shape).
///
/// # Panics
/// If the digest and its padding do not fit one block (never for the algorithm's outputs).
pub fn hmac_block<A: Compression>(digest_len: usize) -> A::Block {
    let len = A::Block::LEN;
    assert!(
        digest_len < len - A::LENGTH_BYTES,
        "an HMAC digest of {digest_len} bytes and its padding fit no {len}-byte block"
    );
    let mut block = A::Block::ZERO;
    let bytes = block.as_mut();
    bytes[digest_len] = 0x80;
    let bits = ((len + digest_len) as u128 * 8).to_be_bytes();
    bytes[len - A::LENGTH_BYTES..].copy_from_slice(&bits[16 - A::LENGTH_BYTES..]);
    block
}

/// The sixteen message words of an HMAC iteration block as `(digest & mask) | pad`, word by
/// word: what a kernel that builds the block from state words in registers needs.
/// SHA-512/224's digest ends in the middle of word 3, whose mask keeps its upper half.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HmacTemplate<W> {
    /// All ones over the digest's bits, zero elsewhere.
    pub mask: [W; 16],
    /// The padding: `0x80` after the digest and the length field, zero elsewhere.
    pub pad: [W; 16],
}

/// The [`HmacTemplate`] of digests of `digest_len` bytes.
///
/// # Panics
/// As [`hmac_block`].
pub fn hmac_template<A: Compression>(digest_len: usize) -> HmacTemplate<A::Word> {
    let block = hmac_block::<A>(digest_len);
    let mut ones = A::Block::ZERO;
    ones.as_mut()[..digest_len].fill(0xff);
    let words = |b: &A::Block| {
        let mut out = [A::Word::default(); 16];
        for (word, bytes) in out.iter_mut().zip(b.as_ref().chunks_exact(A::Word::BYTES)) {
            *word = A::Word::from_be_slice(bytes);
        }
        out
    };
    HmacTemplate {
        mask: words(&ones),
        pad: words(&block),
    }
}

/// The portable [`IterateFn`]: the loop written once over a variant's compression function,
/// the digest written big-endian into a block padded once.
///
/// # Safety
/// The CPU must support every feature `kernel` requires.
#[inline(always)]
pub unsafe fn iterate_with<A: Compression>(
    kernel: KernelFn<A>,
    keys: &HmacKeys<A>,
    u: &mut State<A>,
    t: &mut State<A>,
    digest_len: usize,
    count: u32,
) {
    if count == 0 {
        return;
    }
    let mut block = hmac_block::<A>(digest_len);
    let mut w = A::Workspace::default();
    let mut inner = keys.inner;
    for _ in 0..count {
        write_digest(u.as_ref(), &mut block.as_mut()[..digest_len]);
        inner = keys.inner;
        // SAFETY: the caller guarantees the CPU runs `kernel`.
        unsafe { kernel(&mut inner, core::slice::from_ref(&block), &mut w) };
        write_digest(inner.as_ref(), &mut block.as_mut()[..digest_len]);
        *u = keys.outer;
        // SAFETY: as above.
        unsafe { kernel(u, core::slice::from_ref(&block), &mut w) };
        for (t, &u) in t.as_mut().iter_mut().zip(u.as_ref()) {
            *t = *t ^ u;
        }
    }
    w.wipe();
    crate::wipe_secret("iteration block", block.as_mut());
    crate::wipe_secret("iteration inner state", inner.as_mut());
}

/// Overwrites `BYTES` of stack below the caller's frame with zeros: the frames of the
/// functions it called, where a kernel that keeps `U`, `T` and the keyed states in registers
/// leaves whatever the compiler spilled of them (no wipe of the kernel's own can reach its
/// frame), and the copies the optimiser made of wiped values in its callees' own frames.
/// `BYTES` must reach past the deepest of those frames: the engine's callers say how deep
/// theirs go (the stack scan of `tests/stack_residue.rs` checks, in debug and release builds).
#[inline(never)]
pub fn scrub_stack<const BYTES: usize>() {
    let mut zeros = [0u8; BYTES];
    // The optimiser must assume the zeros are read, so it writes them.
    core::hint::black_box(&mut zeros);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Sha1Compression, Sha256Compression, Sha512Compression};

    #[test]
    fn blocks_hold_the_padding_of_key_block_plus_digest() {
        let sha1 = hmac_block::<Sha1Compression>(20);
        assert_eq!(sha1[20], 0x80);
        assert_eq!(u64::from_be_bytes(sha1[56..].try_into().unwrap()), 84 * 8);
        assert!(sha1[..20].iter().chain(&sha1[21..56]).all(|&b| b == 0));
        let sha512_224 = hmac_block::<Sha512Compression>(28);
        assert_eq!(sha512_224[28], 0x80);
        assert_eq!(
            u128::from_be_bytes(sha512_224[112..].try_into().unwrap()),
            156 * 8
        );
    }

    #[test]
    fn templates_mask_the_digest_and_carry_the_padding() {
        let t = hmac_template::<Sha256Compression>(28);
        assert_eq!(t.mask[..7], [u32::MAX; 7]);
        assert_eq!(t.mask[7..], [0; 9]);
        assert_eq!(t.pad[7], 0x8000_0000);
        assert_eq!(t.pad[15], (64 + 28) * 8);
        let t = hmac_template::<Sha512Compression>(28);
        assert_eq!(t.mask[3], 0xffff_ffff_0000_0000);
        assert_eq!(t.pad[3], 0x8000_0000);
        assert_eq!(t.pad[15], (128 + 28) * 8);
    }

    #[test]
    fn keys_wipe_to_zero() {
        let mut keys = HmacKeys::<Sha256Compression> {
            inner: [1; 8],
            outer: [2; 8],
        };
        keys.wipe();
        assert_eq!((keys.inner, keys.outer), ([0; 8], [0; 8]));
    }

    #[test]
    #[should_panic(expected = "fit no 64-byte block")]
    fn a_digest_without_room_for_its_padding_is_refused() {
        hmac_block::<Sha1Compression>(56);
    }
}
