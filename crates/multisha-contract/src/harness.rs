//! The one test harness every variant runs through (feature `harness`).
//!
//! * Kernel level ([`kernel_suite`], [`declaration_suite`]), for every output of the
//!   algorithm (SHA-224 and SHA-256 for a SHA-256 kernel): every message length 0..=1100
//!   (0..=2200 for 128-byte blocks) through [`oneshot`](crate::oneshot) against the
//!   RustCrypto `sha1`/`sha2` crates, one kernel call on 1..=17 blocks against block-by-block
//!   calls through a dirty workspace and the reference compression function, and the FIPS 180
//!   examples including one million 'a'.
//! * Hasher level ([`streaming_suite`]): any `digest::Digest` hasher against the reference on
//!   seeded random split points of `update`, mid-stream clones and `finalize_reset`.
//!
//! Every check panics with the variant's label and the failing input, so a test names the
//! culprit.

use crate::{
    BlockBytes, Compression, CpuFeatures, Declaration, HmacKeys, Kernel, KernelFn, LaneKernel,
    OneBlockFn, OutputSpec, Sha1Compression, Sha256Compression, Sha512Compression, SingleKernel,
    Word, WorkspaceBuffer, hmac_block, write_digest,
};
use sha2::Digest as _;
use std::vec::Vec;
use std::{format, vec};

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

/// The RustCrypto implementation of a compression function, the reference every variant is
/// checked against.
pub trait Reference: Compression {
    /// The reference compression of `blocks` into `state`.
    fn compress(state: &mut Self::State, blocks: &[Self::Block]);
    /// The digest of `data` for the output called `id` (one of [`Compression::OUTPUTS`]).
    fn digest(id: &str, data: &[u8]) -> Vec<u8>;
    /// The expanded message schedule `w[0..rounds]` of `block` (FIPS 180-4 §6.1.2, §6.2.2),
    /// what a [`ConstantFn`] takes (written here independently of
    /// [`Compression::schedule`], which the suites check against it).
    fn reference_schedule(block: &Self::Block) -> Vec<Self::Word>;
}

/// The 16 big-endian words of a block.
fn block_words<A: Compression>(block: &A::Block) -> Vec<A::Word> {
    block
        .as_ref()
        .chunks_exact(A::Word::BYTES)
        .map(A::Word::from_be_slice)
        .collect()
}

/// The SHA-2 schedule of a block: `K.len()` words.
fn sha2_schedule<A: crate::Sha2>(block: &A::Block) -> Vec<A::Word> {
    let mut w = block_words::<A>(block);
    w.resize(A::K.len(), A::Word::default());
    for t in 16..A::K.len() {
        A::expand(&mut w, t);
    }
    w
}

impl Reference for Sha1Compression {
    fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        sha1::block_api::compress(state, blocks);
    }
    fn reference_schedule(block: &[u8; 64]) -> Vec<u32> {
        let mut w = block_words::<Self>(block);
        for t in 16..80 {
            w.push((w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1));
        }
        w
    }
    fn digest(id: &str, data: &[u8]) -> Vec<u8> {
        assert_eq!(id, "sha1");
        sha1::Sha1::digest(data).to_vec()
    }
}

impl Reference for Sha256Compression {
    fn compress(state: &mut [u32; 8], blocks: &[[u8; 64]]) {
        sha2::block_api::compress256(state, blocks);
    }
    fn reference_schedule(block: &[u8; 64]) -> Vec<u32> {
        sha2_schedule::<Self>(block)
    }
    fn digest(id: &str, data: &[u8]) -> Vec<u8> {
        match id {
            "sha224" => sha2::Sha224::digest(data).to_vec(),
            "sha256" => sha2::Sha256::digest(data).to_vec(),
            _ => panic!("no SHA-256 output called {id}"),
        }
    }
}

impl Reference for Sha512Compression {
    fn compress(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
        sha2::block_api::compress512(state, blocks);
    }
    fn reference_schedule(block: &[u8; 128]) -> Vec<u64> {
        sha2_schedule::<Self>(block)
    }
    fn digest(id: &str, data: &[u8]) -> Vec<u8> {
        match id {
            "sha384" => sha2::Sha384::digest(data).to_vec(),
            "sha512" => sha2::Sha512::digest(data).to_vec(),
            "sha512_224" => sha2::Sha512_224::digest(data).to_vec(),
            "sha512_256" => sha2::Sha512_256::digest(data).to_vec(),
            _ => panic!("no SHA-512 output called {id}"),
        }
    }
}

/// SHA-1 of `data` from the RustCrypto `sha1` crate.
pub fn reference_sha1(data: &[u8]) -> Vec<u8> {
    Sha1Compression::digest("sha1", data)
}

/// SHA-224 of `data` from the RustCrypto `sha2` crate.
pub fn reference_sha224(data: &[u8]) -> Vec<u8> {
    Sha256Compression::digest("sha224", data)
}

/// SHA-256 of `data` from the RustCrypto `sha2` crate.
pub fn reference_sha256(data: &[u8]) -> Vec<u8> {
    Sha256Compression::digest("sha256", data)
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> std::string::String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// FIPS 180 examples: (output id, message, digest as hex).
const FIPS_EXAMPLES: &[(&str, &[u8], &str)] = &[
    ("sha1", b"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    (
        "sha1",
        b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
    ),
    ("sha1", b"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
    (
        "sha224",
        b"abc",
        "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
    ),
    (
        "sha224",
        b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
    ),
    (
        "sha224",
        b"",
        "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f",
    ),
    (
        "sha256",
        b"abc",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    ),
    (
        "sha256",
        b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ),
    (
        "sha256",
        b"",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    ),
    (
        "sha384",
        b"abc",
        "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
    ),
    (
        "sha384",
        TWO_BLOCKS_512,
        "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039",
    ),
    (
        "sha384",
        b"",
        "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b",
    ),
    (
        "sha512",
        b"abc",
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    ),
    (
        "sha512",
        TWO_BLOCKS_512,
        "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
    ),
    (
        "sha512",
        b"",
        "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
    ),
    (
        "sha512_224",
        b"abc",
        "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa",
    ),
    (
        "sha512_224",
        TWO_BLOCKS_512,
        "23fec5bb94d60b23308192640b0c453335d664734fe40e7268674af9",
    ),
    (
        "sha512_224",
        b"",
        "6ed0dd02806fa89e25de060c19d3ac86cabb87d6a0ddd05c333b84f4",
    ),
    (
        "sha512_256",
        b"abc",
        "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
    ),
    (
        "sha512_256",
        TWO_BLOCKS_512,
        "3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a",
    ),
    (
        "sha512_256",
        b"",
        "c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a",
    ),
];

/// The two-block example of FIPS 180 for the SHA-512 family (112 bytes).
const TWO_BLOCKS_512: &[u8] = b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

/// One million 'a' (FIPS 180 long example): (output id, digest as hex).
const MILLION_A: &[(&str, &str)] = &[
    ("sha1", "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
    (
        "sha224",
        "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67",
    ),
    (
        "sha256",
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    ),
    (
        "sha384",
        "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985",
    ),
    (
        "sha512",
        "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b",
    ),
    (
        "sha512_224",
        "37ab331d76f0d36de422bd0edeb22a28accd487b7a8453ae965dd287",
    ),
    (
        "sha512_256",
        "9a59a052930187a97038cae692f30708aa6491923ef5194394dc68d56c74fb21",
    ),
];

/// Longest message the length sweep covers for `A` (every length from 0 up to it): 1100
/// bytes for 64-byte blocks, 2200 for 128-byte blocks, so each sweep crosses 17 blocks and
/// every padding boundary.
pub fn max_sweep_len<A: Compression>() -> usize {
    1100 * A::Block::LEN / 64
}

fn digest_of<A: Compression>(
    kernel: KernelFn<A>,
    output: &OutputSpec<A::State>,
    data: &[u8],
) -> Vec<u8> {
    let mut out = vec![0u8; output.len];
    // SAFETY: every suite entry point requires the caller to guarantee the CPU runs `kernel`.
    unsafe { crate::oneshot::<A>(kernel, output.iv, data, &mut out) };
    out
}

fn length_sweep<A: Reference>(label: &str, kernel: KernelFn<A>) -> usize {
    let mut rng = TestRng::new(0x5eed_0001);
    let max = max_sweep_len::<A>();
    let data = rng.bytes(max);
    let mut checks = 0;
    for output in A::OUTPUTS {
        for len in 0..=max {
            let got = digest_of::<A>(kernel, output, &data[..len]);
            let want = A::digest(output.id, &data[..len]);
            assert_eq!(
                hex(&got),
                hex(&want),
                "{label}: one-shot {} of {len} bytes",
                output.name
            );
            checks += 1;
        }
    }
    checks
}

fn multi_block<A: Reference>(label: &str, kernel: KernelFn<A>) -> usize {
    let mut rng = TestRng::new(0x5eed_0002);
    let mut checks = 0;
    for output in A::OUTPUTS {
        for n in 1..=MAX_MULTI_BLOCKS {
            let bytes = rng.bytes(A::Block::LEN * n);
            let (blocks, _) = A::Block::split(&bytes);

            let mut whole = output.iv;
            let mut w = A::Workspace::default();
            // SAFETY: the caller guarantees the CPU runs `kernel`.
            unsafe { kernel(&mut whole, blocks, &mut w) };

            let mut one_by_one = output.iv;
            // One workspace for every call, full of garbage to start with: a kernel must write
            // its schedule before reading it and must not depend on what an earlier call left.
            let mut w = A::Workspace::default();
            for word in w.words_mut() {
                *word = garbage::<A::Word>();
            }
            for block in blocks {
                // SAFETY: as above.
                unsafe { kernel(&mut one_by_one, core::slice::from_ref(block), &mut w) };
            }

            let mut reference = output.iv;
            A::compress(&mut reference, blocks);

            assert_eq!(
                whole, one_by_one,
                "{label}: {n} blocks in one call vs block by block ({} IV)",
                output.name
            );
            assert_eq!(
                whole, reference,
                "{label}: {n} blocks vs the reference compression ({} IV)",
                output.name
            );
            checks += 1;
        }
    }
    checks
}

/// A word with every byte 0xde: garbage a kernel must overwrite before use.
fn garbage<W: Word>() -> W {
    W::from_le_slice(&[0xde; 16][..W::BYTES])
}

fn fips_examples<A: Compression>(label: &str, kernel: KernelFn<A>) -> usize {
    let mut checks = 0;
    let million = vec![b'a'; 1_000_000];
    for output in A::OUTPUTS {
        for &(_, message, want) in FIPS_EXAMPLES.iter().filter(|e| e.0 == output.id) {
            let got = digest_of::<A>(kernel, output, message);
            assert_eq!(
                hex(&got),
                want,
                "{label}: FIPS 180 {} example {:?}",
                output.name,
                std::string::String::from_utf8_lossy(message)
            );
            checks += 1;
        }
        let &(_, want) = MILLION_A
            .iter()
            .find(|e| e.0 == output.id)
            .unwrap_or_else(|| panic!("no one-million-'a' answer for {}", output.id));
        let got = digest_of::<A>(kernel, output, &million);
        assert_eq!(
            hex(&got),
            want,
            "{label}: {} of one million 'a'",
            output.name
        );
        checks += 1;
    }
    assert!(
        checks >= 4 * A::OUTPUTS.len(),
        "{label}: FIPS examples missing"
    );
    checks
}

/// Runs every kernel-level check on a kernel of `A`, with the initial value of each of its
/// outputs; returns how many checks passed.
///
/// # Safety
/// The CPU must support every feature `kernel` requires.
pub unsafe fn kernel_suite<A: Reference>(label: &str, kernel: KernelFn<A>) -> usize {
    length_sweep::<A>(label, kernel)
        // SAFETY: the caller guarantees the CPU runs `kernel`.
        + unsafe { reused_buffers::<A>(label, kernel, None) }
        + multi_block::<A>(label, kernel)
        + fips_examples::<A>(label, kernel)
}

/// Checks a single-message kernel's entry for one-block messages: batches of 0 to 9 random
/// blocks (so every way of pairing them, and an odd one last), each batch from a random state
/// (the first from the IV) and with the digest length of each of `A`'s outputs in turn,
/// against the reference compression of the block and then of the padding block (whose
/// reference schedule must be `ONE_BLOCK_PADDING`), written as a digest; bytes past each
/// digest must stay as they were. Then every length of the sweep through reused
/// [`OneShot`](crate::OneShot) buffers with it, which send it one-block messages, against the
/// reference digest. Returns how many checks passed.
///
/// # Safety
/// The CPU must support every feature `kernel` and `one_block` require.
pub unsafe fn one_block_suite<A: Reference>(
    label: &str,
    kernel: KernelFn<A>,
    one_block: OneBlockFn<A>,
) -> usize {
    let mut rng = TestRng::new(0x5eed_000c);
    let mut checks = 0;
    let len = <A::Block as BlockBytes>::LEN;
    // The padding block of a one-block message: its tail is empty.
    let mut padded = [<A::Block as BlockBytes>::ZERO; 2];
    crate::pad_into::<A>(&mut padded, &[], len as u128 * 8);
    assert_eq!(
        A::reference_schedule(&padded[0])[..],
        A::ONE_BLOCK_PADDING[..],
        "{label}: the one-block padding schedule"
    );
    for round in 0..40 {
        let count = round % 10;
        // Every count with every output in turn (with `round % len`, SHA-256's two outputs
        // went with even and odd counts only: no odd count was ever checked at 28 bytes).
        let output = &A::OUTPUTS[(round / 10) % A::OUTPUTS.len()];
        let mut iv = output.iv;
        if round > 0 {
            A::compress(&mut iv, A::Block::split(&rng.bytes(len)).0);
        }
        let bytes = rng.bytes(count * len);
        let (blocks, _) = A::Block::split(&bytes);
        let refs: Vec<&A::Block> = blocks.iter().collect();
        // Each digest in a buffer one byte longer, whose last byte must stay put.
        let mut buffers = vec![vec![0xa5u8; output.len + 1]; count];
        let mut digests: Vec<&mut [u8]> =
            buffers.iter_mut().map(|b| &mut b[..output.len]).collect();
        // SAFETY: the caller guarantees the CPU runs `one_block`.
        unsafe { one_block(&iv, &refs, &mut digests) };
        for (i, block) in blocks.iter().enumerate() {
            let mut state = iv;
            A::compress(&mut state, core::slice::from_ref(block));
            A::compress(&mut state, &padded[..1]);
            let mut want = vec![0u8; output.len];
            write_digest(state.as_ref(), &mut want);
            assert_eq!(
                hex(&buffers[i][..output.len]),
                hex(&want),
                "{label}: the one-block entry differs from the reference (round {round}, \
                 message {i} of {count}, {} bytes)",
                output.len
            );
            assert_eq!(
                buffers[i][output.len], 0xa5,
                "{label}: the one-block entry wrote past a {}-byte digest",
                output.len
            );
            checks += 1;
        }
    }
    // SAFETY: the caller guarantees the CPU runs both entries.
    checks + unsafe { reused_buffers::<A>(label, kernel, Some(one_block)) }
}

/// One [`OneShot`](crate::OneShot) for message after message, the way a batch runs one by
/// one: every length of the sweep, longest first, so tails of two padding blocks come before
/// tails of one and a second block left dirty would show; with `one_block`, the kernel's entry
/// for one-block messages takes the one-block message.
///
/// # Safety
/// The CPU must support every feature `kernel` and `one_block` require.
unsafe fn reused_buffers<A: Reference>(
    label: &str,
    kernel: KernelFn<A>,
    one_block: Option<OneBlockFn<A>>,
) -> usize {
    let mut rng = TestRng::new(0x5eed_0005);
    let max = max_sweep_len::<A>();
    let data = rng.bytes(max);
    let output = &A::OUTPUTS[0];
    let mut buffers = crate::OneShot::<A>::new();
    let mut checks = 0;
    for len in (0..=max).rev() {
        let mut got = vec![0u8; output.len];
        // The way the library runs one message: the entry for one-block messages where it
        // takes the message, else the reused buffers.
        // SAFETY: the caller guarantees the CPU runs both entries.
        if !unsafe { crate::hash_one_block::<A>(one_block, &output.iv, &data[..len], &mut got) } {
            // SAFETY: as above.
            unsafe { buffers.hash(kernel, &output.iv, &data[..len], &mut got) };
        }
        let want = A::digest(output.id, &data[..len]);
        assert_eq!(
            hex(&got),
            hex(&want),
            "{label}: {len} bytes through reused one-shot buffers{}",
            if one_block.is_some() {
                " with the one-block entry"
            } else {
                ""
            }
        );
        checks += 1;
    }
    checks
}

/// The PBKDF2 loop of [`IterateFn`](crate::IterateFn) over the reference compression: `U` and
/// `T` after `count` iterations from `u` and `t`.
fn reference_iterate<A: Reference>(
    keys: &HmacKeys<A>,
    mut u: A::State,
    mut t: A::State,
    len: usize,
    count: u32,
) -> (A::State, A::State) {
    let mut block = hmac_block::<A>(len);
    for _ in 0..count {
        write_digest(u.as_ref(), &mut block.as_mut()[..len]);
        let mut inner = keys.inner;
        A::compress(&mut inner, core::slice::from_ref(&block));
        write_digest(inner.as_ref(), &mut block.as_mut()[..len]);
        u = keys.outer;
        A::compress(&mut u, core::slice::from_ref(&block));
        for (t, &u) in t.as_mut().iter_mut().zip(u.as_ref()) {
            *t = *t ^ u;
        }
    }
    (u, t)
}

/// The first `len` bytes of a state's words, in hex.
fn digest_hex<A: Compression>(state: &A::State, len: usize) -> std::string::String {
    let mut out = vec![0; len];
    write_digest(state.as_ref(), &mut out);
    hex(&out)
}

/// Checks a lane kernel's PBKDF2 entry against the loop over the reference compression
/// function, every lane its own chain from random `U` and `T`, for every output length and
/// iteration counts from 0 to 200; returns how many checks passed.
///
/// # Safety
/// The CPU must support every feature the kernel requires.
pub unsafe fn lanes_iterate_suite<A: Reference>(
    label: &str,
    lanes: usize,
    iterate: crate::LanesIterateFn<A>,
) -> usize {
    let mut rng = TestRng::new(0x5eed_0006);
    let mut checks = 0;
    for output in A::OUTPUTS {
        let len = output.len;
        for count in [0u32, 1, 2, 3, 16, 200] {
            let keys = HmacKeys::<A> {
                inner: random_state::<A>(&mut rng),
                outer: random_state::<A>(&mut rng),
            };
            let u0: Vec<A::State> = (0..lanes).map(|_| random_state::<A>(&mut rng)).collect();
            let t0: Vec<A::State> = (0..lanes).map(|_| random_state::<A>(&mut rng)).collect();
            let (mut u, mut t) = (u0.clone(), t0.clone());
            // SAFETY: forwarded from the caller.
            unsafe { iterate(&keys, &mut u, &mut t, len, count) };
            for lane in 0..lanes {
                let (want_u, want_t) =
                    reference_iterate::<A>(&keys, u0[lane], t0[lane], len, count);
                assert_eq!(
                    (
                        digest_hex::<A>(&u[lane], len),
                        digest_hex::<A>(&t[lane], len)
                    ),
                    (digest_hex::<A>(&want_u, len), digest_hex::<A>(&want_t, len)),
                    "{label}: PBKDF2 entry, lane {lane} of {lanes}, U and T after {count} \
                     iterations of {}",
                    output.id
                );
                checks += 1;
            }
        }
    }
    checks
}

/// Checks a variant's PBKDF2 entry ([`IterateFn`](crate::IterateFn)) against the loop written
/// over the reference compression function, for every output length of the algorithm, from
/// random keyed states, `U` and `T` (random words beyond the digest too, which the entry must
/// ignore), on iteration counts from 0 to 200; returns how many checks passed.
///
/// # Safety
/// The CPU must support every feature the kernel requires.
pub unsafe fn iterate_suite<A: Reference>(label: &str, kernel: SingleKernel<A>) -> usize {
    let mut rng = TestRng::new(0x5eed_0005);
    let mut checks = 0;
    for output in A::OUTPUTS {
        let len = output.len;
        for count in [0u32, 1, 2, 3, 4, 7, 16, 33, 200] {
            let keys = HmacKeys::<A> {
                inner: random_state::<A>(&mut rng),
                outer: random_state::<A>(&mut rng),
            };
            let (u0, t0) = (random_state::<A>(&mut rng), random_state::<A>(&mut rng));
            let (mut u, mut t) = (u0, t0);
            // SAFETY: forwarded from the caller.
            unsafe { (kernel.iterate)(&keys, &mut u, &mut t, len, count) };

            let (want_u, want_t) = reference_iterate::<A>(&keys, u0, t0, len, count);
            let digest = |state: &A::State| digest_hex::<A>(state, len);
            assert_eq!(
                digest(&u),
                digest(&want_u),
                "{label}: PBKDF2 entry, U after {count} iterations of {}",
                output.id
            );
            assert_eq!(
                digest(&t),
                digest(&want_t),
                "{label}: PBKDF2 entry, T after {count} iterations of {}",
                output.id
            );
            checks += 1;
        }
    }
    checks
}

/// A random word.
fn random_word<W: Word>(rng: &mut TestRng) -> W {
    W::from_le_slice(&rng.next_u64().to_le_bytes().repeat(2)[..W::BYTES])
}

/// A random chaining state (the lane kernels must work from any state, not only IVs).
fn random_state<A: Compression>(rng: &mut TestRng) -> A::State {
    let mut state = A::State::default();
    for word in state.as_mut() {
        *word = random_word(rng);
    }
    state
}

/// Blocks per lane of the lane kernels' calls: every count to 17, then 32 and 33. Each kernel
/// loops block by block today (the SHA-NI x4 ones in an assembly loop on a count register);
/// the counts past 16 and 32 would catch one that came to handle blocks in pairs or groups
/// (as the single-message `avx2` kernels expand two at a time) or a count that wraps.
const LANE_BLOCK_COUNTS: [usize; 19] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 32, 33,
];

/// The lane workspace a kernel is called with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LaneWorkspaceShape {
    /// All of it made (the full size) and filled with garbage, shared by every call: no kernel
    /// may read a word before writing it.
    DirtyFull,
    /// Made as a batch call makes it: untouched, so the kernel's first call creates only the
    /// part it asks for (the tiny or small part where it fits one, not the full size), then
    /// shared by later calls, which find the earlier calls' words in it; renewed every fourth
    /// call.
    AsBatch,
}

/// Every check of a multi-lane kernel, against the reference compression lane by lane, once
/// per [`LaneWorkspaceShape`]: zero blocks (the states unchanged), one call on each of
/// [`LANE_BLOCK_COUNTS`] blocks per lane from random states (lanes with different data; every
/// fifth call every lane with the same data), and the constant entry on random blocks and on a
/// padding block. Returns how many lane results agreed.
///
/// # Safety
/// The CPU must support every feature `kernel` requires.
pub unsafe fn lanes_suite<A: Reference>(label: &str, kernel: LaneKernel<A>) -> usize {
    let lanes = kernel.lanes;
    assert!(
        lanes >= 2,
        "{label}: a lane kernel has 2 lanes or more, not {lanes}"
    );
    [LaneWorkspaceShape::DirtyFull, LaneWorkspaceShape::AsBatch]
        .into_iter()
        .map(|shape| {
            let label = format!("{label} ({shape:?} lane workspace)");
            // SAFETY: as this function's.
            unsafe { lanes_checks::<A>(&label, kernel, shape) }
        })
        .sum()
}

/// [`lanes_suite`] with one shape of workspace.
///
/// # Safety
/// The CPU must support every feature `kernel` requires.
unsafe fn lanes_checks<A: Reference>(
    label: &str,
    kernel: LaneKernel<A>,
    shape: LaneWorkspaceShape,
) -> usize {
    let lanes = kernel.lanes;
    let mut rng = TestRng::new(0x5eed_0004);
    let mut checks = 0;
    let new_workspace = || {
        let mut w = A::LaneWorkspace::default();
        if shape == LaneWorkspaceShape::DirtyFull {
            for word in w.words_mut() {
                *word = garbage::<A::Word>();
            }
        }
        w
    };
    let mut w = new_workspace();
    let mut calls = 0;
    let mut workspace_for_call = |w: &mut A::LaneWorkspace| {
        if shape == LaneWorkspaceShape::AsBatch && calls % 4 == 0 {
            *w = new_workspace();
        }
        calls += 1;
    };
    // Zero blocks on every lane: nothing to compress, the states stay as they are.
    let start: Vec<A::State> = (0..lanes).map(|_| random_state::<A>(&mut rng)).collect();
    let mut states = start.clone();
    let empty: Vec<&[A::Block]> = vec![&[]; lanes];
    workspace_for_call(&mut w);
    // SAFETY: as below; zero blocks on every lane is within the contract.
    unsafe { (kernel.compress)(&mut states, &empty, &mut w) };
    assert_eq!(states, start, "{label}: zero blocks changed the states");
    checks += lanes;
    for (round, n) in LANE_BLOCK_COUNTS.into_iter().enumerate() {
        let same = round % 5 == 4;
        let data: Vec<Vec<u8>> = (0..lanes)
            .map(|lane| {
                let mut lane_rng = TestRng::new(if same { 77 } else { 1000 + lane as u64 });
                lane_rng.bytes(A::Block::LEN * n)
            })
            .map(|mut bytes| {
                bytes[0] ^= rng.next_u64() as u8;
                bytes
            })
            .collect();
        let data: Vec<Vec<u8>> = if same {
            vec![data[0].clone(); lanes]
        } else {
            data
        };
        let inputs: Vec<&[A::Block]> = data.iter().map(|d| A::Block::split(d).0).collect();
        let start: Vec<A::State> = (0..lanes).map(|_| random_state::<A>(&mut rng)).collect();
        let mut states = start.clone();
        workspace_for_call(&mut w);
        // SAFETY: the caller guarantees the CPU runs `kernel`; lanes and lengths as the
        // contract wants.
        unsafe { (kernel.compress)(&mut states, &inputs, &mut w) };
        for lane in 0..lanes {
            let mut want = start[lane];
            A::compress(&mut want, inputs[lane]);
            assert_eq!(
                states[lane], want,
                "{label}: lane {lane} of {lanes}, {n} blocks (round {round})"
            );
            checks += 1;
        }
    }
    let padding = {
        let mut blocks = [A::Block::ZERO; 2];
        crate::pad_into::<A>(&mut blocks, &[], 8 * A::Block::LEN as u128);
        blocks[0]
    };
    for round in 0..10 {
        let block = if round == 0 {
            padding
        } else {
            let bytes = rng.bytes(A::Block::LEN);
            A::Block::split(&bytes).0[0]
        };
        let schedule = A::reference_schedule(&block);
        let mut ours = vec![A::Word::default(); A::ROUNDS];
        A::schedule(&block, &mut ours);
        assert_eq!(
            ours, schedule,
            "{label}: Compression::schedule (round {round})"
        );
        let start: Vec<A::State> = (0..lanes).map(|_| random_state::<A>(&mut rng)).collect();
        let mut states = start.clone();
        workspace_for_call(&mut w);
        // SAFETY: as above.
        unsafe { (kernel.constant)(&mut states, &schedule, &mut w) };
        for lane in 0..lanes {
            let mut want = start[lane];
            A::compress(&mut want, core::slice::from_ref(&block));
            assert_eq!(
                states[lane], want,
                "{label}: constant entry, lane {lane} of {lanes} (round {round})"
            );
            checks += 1;
        }
    }
    checks
}

/// Runs the suite of a declared variant ([`kernel_suite`] or [`lanes_suite`]) if this CPU
/// runs it; returns the number of checks, or `None` (with a note on stderr) when the CPU lacks
/// a required feature or the variant has no kernel of its own (`Serial`, which the engine's
/// tests cover).
pub fn declaration_suite<A: Reference>(declaration: &Declaration<A>) -> Option<usize> {
    let label = format!("{}/{}", A::ID, declaration.name);
    let cpu = CpuFeatures::detect();
    if !cpu.contains(declaration.requires) {
        std::eprintln!(
            "{label}: skipped, this CPU lacks {}",
            cpu.missing(declaration.requires)
        );
        return None;
    }
    let checks = match declaration.kernel {
        // SAFETY: the CPU has every feature the declaration requires, and the declaration
        // macro gave the kernel exactly those `#[target_feature]`s.
        Kernel::Single(kernel) => unsafe {
            kernel_suite::<A>(&label, kernel.compress)
                + iterate_suite::<A>(&label, kernel)
                + kernel.one_block.map_or(0, |one_block| {
                    one_block_suite::<A>(&label, kernel.compress, one_block)
                })
                + kernel.one_block_alternative.map_or(0, |alternative| {
                    let label = format!("{label} (one-block alternative)");
                    one_block_suite::<A>(&label, kernel.compress, alternative)
                })
        },
        // SAFETY: as above.
        Kernel::Lanes(kernel) => unsafe {
            lanes_suite::<A>(&label, kernel)
                + kernel.iterate.map_or(0, |iterate| {
                    lanes_iterate_suite::<A>(&label, kernel.lanes, iterate)
                })
        },
        Kernel::Serial => return None,
    };
    std::eprintln!("{label}: {checks} checks passed");
    Some(checks)
}

/// Checks a streaming hasher against `reference` on seeded random split points of `update`,
/// on clones taken mid-stream and on `finalize_reset` reuse; returns how many checks passed.
pub fn streaming_suite<D>(
    label: &str,
    make: impl Fn() -> D,
    reference: impl Fn(&[u8]) -> Vec<u8>,
) -> usize
where
    D: digest::Digest + digest::FixedOutputReset + Clone,
{
    let mut rng = TestRng::new(0x5eed_0003);
    let mut checks = 0;
    for round in 0..300 {
        let len = match round % 3 {
            0 => rng.below(130),
            1 => rng.below(1101),
            _ => rng.below(128 * MAX_MULTI_BLOCKS + 200),
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
                2 => 64 + rng.below(128),
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

/// The features CI says this machine has, whose kernels must therefore run, not be skipped:
/// `MULTISHA_EXPECT_FEATURES` (Rust `target_feature` names, separated by spaces or commas;
/// `.ci/run` reads them from `/proc/cpuinfo`, and names fewer under valgrind, whose CPU lacks
/// some), or every feature of this architecture with `MULTISHA_EXPECT_NATIVE=1` (the AArch64
/// cross-test under qemu, which implements every feature the ARMv8 kernels need). `None`:
/// nothing is expected (a developer's machine), a skip is only noted.
///
/// # Panics
/// On a name that is not a [`Feature`](crate::Feature) of this architecture: a typo must not
/// expect less.
pub fn expected_features() -> Option<CpuFeatures> {
    let mut expected = None;
    if std::env::var_os("MULTISHA_EXPECT_NATIVE").is_some_and(|v| v == "1") {
        let native = crate::Feature::ALL.iter().filter(|f| f.is_native_arch());
        expected = Some(native.fold(CpuFeatures::none(), |set, &f| set.with(f)));
    }
    if let Ok(names) = std::env::var("MULTISHA_EXPECT_FEATURES") {
        let mut set = expected.unwrap_or(CpuFeatures::none());
        for name in names.split([' ', ',']).filter(|n| !n.is_empty()) {
            match crate::Feature::from_name(name) {
                Some(feature) if feature.is_native_arch() => set = set.with(feature),
                _ => panic!("MULTISHA_EXPECT_FEATURES: {name:?} is no feature of this CPU"),
            }
        }
        expected = Some(set);
    }
    expected
}

/// Fails if the test of a kernel requiring `requires` was skipped although
/// [`expected_features`] says this machine has every one of them (the CPU probe or the
/// harness would otherwise turn a kernel test into one that checks nothing).
pub fn assert_skip_expected(label: &str, requires: CpuFeatures) {
    if let Some(expected) = expected_features() {
        assert!(
            !(requires.is_native_arch() && expected.contains(requires)),
            "{label} was skipped, but this machine has {requires} (MULTISHA_EXPECT_FEATURES: \
             {expected}; detected: {})",
            CpuFeatures::detect()
        );
    }
}

/// One `#[test]` per listed kernel module of a kernel crate, running its `VARIANT` through
/// [`declaration_suite`]: `multisha_contract::harness_tests!(sha1_rolled, sha256_rolled);`
/// inside the crate's test module; a module deeper in the crate as
/// `harness_tests!(named sha256_shani_vex => sha256_shani::vex)` (the test's name, the path).
// `crate::` is meant: the modules are the calling kernel crate's.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! harness_tests {
    (named $test:ident => $($module:ident)::+) => {
        #[test]
        fn $test() {
            let declaration = &crate::$($module)::+::VARIANT;
            match $crate::harness::declaration_suite(declaration) {
                Some(checks) => assert!(checks >= 80, "only {checks} checks ran"),
                None => $crate::harness::assert_skip_expected(
                    declaration.name,
                    declaration.requires,
                ),
            }
        }
    };
    ($($module:ident),* $(,)?) => {$(
        $crate::harness_tests!(named $module => $module);
    )*};
}
