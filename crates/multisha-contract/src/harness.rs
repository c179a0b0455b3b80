//! The one test harness every variant runs through (feature `harness`).
//!
//! * Kernel level ([`sha1_kernel_suite`], [`sha256_kernel_suite`]): every message length
//!   0..=1100 through [`oneshot`](crate::oneshot) against the RustCrypto `sha1`/`sha2` crates,
//!   one kernel call on 1..=17 blocks against block-by-block calls and the reference
//!   compression function, a dirty workspace, and the FIPS 180 examples including one million
//!   'a'.
//! * Hasher level ([`streaming_suite`]): any `digest::Digest` hasher against the reference on
//!   seeded random split points of `update`, mid-stream clones and `finalize_reset`.
//!
//! Every check panics with the variant's label and the failing input, so a test names the
//! culprit.

use crate::{Block, Family, SHA1_IV, SHA224_IV, SHA256_IV, Sha1Kernel, Sha256Kernel};
use sha2::Digest as _;
use std::vec::Vec;
use std::{format, vec};

/// Longest message the length sweep covers (every length from 0 up to this).
pub const MAX_SWEEP_LEN: usize = 1100;

/// Most blocks the multi-block check hands to one kernel call.
pub const MAX_MULTI_BLOCKS: usize = 17;

/// A small deterministic generator (xorshift64*) so failures reproduce from the seed.
#[derive(Debug, Clone)]
pub struct TestRng(u64);

impl TestRng {
    /// A generator from a non-zero seed (zero is mapped to a fixed constant).
    pub fn new(seed: u64) -> Self {
        Self(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A value in `0..bound` (`bound > 0`).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }

    /// `len` random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }
}

/// SHA-1 of `data` from the RustCrypto `sha1` crate.
pub fn reference_sha1(data: &[u8]) -> Vec<u8> {
    sha1::Sha1::digest(data).to_vec()
}

/// SHA-224 of `data` from the RustCrypto `sha2` crate.
pub fn reference_sha224(data: &[u8]) -> Vec<u8> {
    sha2::Sha224::digest(data).to_vec()
}

/// SHA-256 of `data` from the RustCrypto `sha2` crate.
pub fn reference_sha256(data: &[u8]) -> Vec<u8> {
    sha2::Sha256::digest(data).to_vec()
}

fn hex(bytes: &[u8]) -> std::string::String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// FIPS 180 examples: (message, SHA-1, SHA-224, SHA-256) as hex.
const FIPS_EXAMPLES: [(&[u8], &str, &str, &str); 3] = [
    (
        b"abc",
        "a9993e364706816aba3e25717850c26c9cd0d89d",
        "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    ),
    (
        b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
        "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ),
    (
        b"",
        "da39a3ee5e6b4b0d3255bfef95601890afd80709",
        "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    ),
];

/// One million 'a' (FIPS 180 long example): SHA-1, SHA-224, SHA-256.
const MILLION_A: (&str, &str, &str) = (
    "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
    "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67",
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
);

fn digest_of<F: Family>(kernel: F::Kernel, iv: F::State, out_len: usize, data: &[u8]) -> Vec<u8> {
    // SAFETY: every suite entry point requires the caller to guarantee the CPU runs `kernel`.
    let state = unsafe { crate::oneshot::<F>(kernel, iv, data) };
    let mut out = vec![0u8; out_len];
    crate::write_digest(state.as_ref(), &mut out);
    out
}

fn length_sweep<F: Family>(
    label: &str,
    kernel: F::Kernel,
    iv: F::State,
    out_len: usize,
    reference: fn(&[u8]) -> Vec<u8>,
) -> usize {
    let mut rng = TestRng::new(0x5eed_0001);
    let data = rng.bytes(MAX_SWEEP_LEN);
    for len in 0..=MAX_SWEEP_LEN {
        let got = digest_of::<F>(kernel, iv, out_len, &data[..len]);
        let want = reference(&data[..len]);
        assert_eq!(
            hex(&got),
            hex(&want),
            "{label}: one-shot digest of {len} bytes"
        );
    }
    MAX_SWEEP_LEN + 1
}

fn multi_block<F: Family>(
    label: &str,
    kernel: F::Kernel,
    iv: F::State,
    reference_compress: impl Fn(&mut F::State, &[Block]),
) -> usize {
    let mut rng = TestRng::new(0x5eed_0002);
    let mut checks = 0;
    for n in 1..=MAX_MULTI_BLOCKS {
        let bytes = rng.bytes(64 * n);
        let (blocks, _) = bytes.as_chunks::<64>();

        let mut whole = iv;
        let mut w = F::Workspace::default();
        // SAFETY: the caller guarantees the CPU runs `kernel`.
        unsafe { F::call(kernel, &mut whole, blocks, &mut w) };

        let mut one_by_one = iv;
        // One workspace for every call, full of garbage to start with: a kernel must write its
        // schedule before reading it and must not depend on what an earlier call left.
        let mut w = F::Workspace::default();
        w.as_mut().fill(0xdead_beef);
        for block in blocks {
            // SAFETY: as above.
            unsafe {
                F::call(
                    kernel,
                    &mut one_by_one,
                    core::slice::from_ref(block),
                    &mut w,
                )
            };
        }

        let mut reference = iv;
        reference_compress(&mut reference, blocks);

        assert_eq!(
            whole, one_by_one,
            "{label}: {n} blocks in one call vs block by block"
        );
        assert_eq!(
            whole, reference,
            "{label}: {n} blocks vs the reference compression"
        );
        checks += 1;
    }
    checks
}

fn fips_examples<F: Family>(
    label: &str,
    kernel: F::Kernel,
    ivs: &[(F::State, usize, usize)],
) -> usize {
    let mut checks = 0;
    let million = vec![b'a'; 1_000_000];
    let long = [MILLION_A.0, MILLION_A.1, MILLION_A.2];
    for &(iv, out_len, column) in ivs {
        for example in FIPS_EXAMPLES {
            let want = [example.1, example.2, example.3][column];
            let got = digest_of::<F>(kernel, iv, out_len, example.0);
            assert_eq!(hex(&got), want, "{label}: FIPS 180 example {:?}", example.0);
            checks += 1;
        }
        let got = digest_of::<F>(kernel, iv, out_len, &million);
        assert_eq!(hex(&got), long[column], "{label}: one million 'a'");
        checks += 1;
    }
    checks
}

/// Runs every kernel-level check on a SHA-1 kernel; returns how many checks passed.
///
/// # Safety
/// The CPU must support every feature `kernel` requires.
pub unsafe fn sha1_kernel_suite(label: &str, kernel: Sha1Kernel) -> usize {
    length_sweep::<crate::Sha1>(label, kernel, SHA1_IV, 20, reference_sha1)
        + multi_block::<crate::Sha1>(label, kernel, SHA1_IV, |s, b| {
            sha1::block_api::compress(s, b)
        })
        + fips_examples::<crate::Sha1>(label, kernel, &[(SHA1_IV, 20, 0)])
}

/// Runs every kernel-level check on a SHA-256 kernel, with both the SHA-256 and the SHA-224
/// initial values; returns how many checks passed.
///
/// # Safety
/// The CPU must support every feature `kernel` requires.
pub unsafe fn sha256_kernel_suite(label: &str, kernel: Sha256Kernel) -> usize {
    let reference = |s: &mut [u32; 8], b: &[Block]| sha2::block_api::compress256(s, b);
    length_sweep::<crate::Sha256>(label, kernel, SHA256_IV, 32, reference_sha256)
        + length_sweep::<crate::Sha256>(label, kernel, SHA224_IV, 28, reference_sha224)
        + multi_block::<crate::Sha256>(label, kernel, SHA256_IV, reference)
        + multi_block::<crate::Sha256>(label, kernel, SHA224_IV, reference)
        + fips_examples::<crate::Sha256>(label, kernel, &[(SHA224_IV, 28, 1), (SHA256_IV, 32, 2)])
}

/// Checks a streaming hasher against `reference` on seeded random split points of `update`,
/// on clones taken mid-stream and on `finalize_reset` reuse; returns how many checks passed.
pub fn streaming_suite<D>(
    label: &str,
    make: impl Fn() -> D,
    reference: fn(&[u8]) -> Vec<u8>,
) -> usize
where
    D: digest::Digest + digest::FixedOutputReset + Clone,
{
    let mut rng = TestRng::new(0x5eed_0003);
    let mut checks = 0;
    for round in 0..300 {
        let len = match round % 3 {
            0 => rng.below(130),
            1 => rng.below(MAX_SWEEP_LEN + 1),
            _ => rng.below(64 * MAX_MULTI_BLOCKS + 200),
        };
        let data = rng.bytes(len);
        let want = reference(&data);

        let mut hasher = make();
        let mut rest = &data[..];
        let mut clone_at = None;
        while !rest.is_empty() {
            // Mix tiny pieces, block-straddling pieces and multi-block pieces.
            let step = match rng.below(4) {
                0 => 1 + rng.below(8),
                1 => 1 + rng.below(64),
                2 => 64 + rng.below(64),
                _ => 1 + rng.below(rest.len()),
            }
            .min(rest.len());
            digest::Digest::update(&mut hasher, &rest[..step]);
            rest = &rest[step..];
            if clone_at.is_none() && rng.below(3) == 0 {
                clone_at = Some((hasher.clone(), data.len() - rest.len()));
            }
        }
        let got = hasher.finalize_reset();
        assert_eq!(
            hex(&got),
            hex(&want),
            "{label}: {len} bytes with random splits (round {round})"
        );

        // After finalize_reset the same hasher must start afresh.
        digest::Digest::update(&mut hasher, &data);
        assert_eq!(
            hex(&hasher.finalize()),
            hex(&want),
            "{label}: reuse after finalize_reset"
        );

        if let Some((mut clone, done)) = clone_at {
            digest::Digest::update(&mut clone, &data[done..]);
            assert_eq!(
                hex(&clone.finalize()),
                hex(&want),
                "{label}: clone taken after {done} bytes"
            );
        }
        checks += 1;
    }
    checks
}
