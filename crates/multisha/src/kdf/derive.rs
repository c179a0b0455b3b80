//! The derivation, written once over a variant's two entries: the keyed states once per
//! password, then per output block the first `U` from the salt with the compression entry and
//! the remaining iterations in the kernel's loop ([`IterateFn`](multisha_contract::IterateFn)),
//! or for several output blocks at once in a lane kernel's
//! ([`LanesIterateFn`]).

use super::Pbkdf2Error;
use crate::hash_function::HashFunction;
use core::num::NonZeroU32;
use multisha_contract::{
    BlockBytes, Compression, HmacKeys, KernelFn, LanesIterateFn, MAX_LANES, SingleKernel, State,
    WorkspaceBuffer, hmac_block, oneshot, pad_into, wipe_blocks, wipe_secret, write_digest,
};

type Algo<H> = <H as HashFunction>::Compression;

/// A lane kernel's PBKDF2 entry and its lane count: that many output blocks' chains side by
/// side.
pub(crate) type Chains<A> = (usize, LanesIterateFn<A>);

/// How many digests make an output of `len` bytes: at least one, at most 2^32 - 1.
pub(crate) fn block_count(len: usize, digest_len: usize) -> Result<u32, Pbkdf2Error> {
    if len == 0 {
        return Err(Pbkdf2Error::EmptyOutput);
    }
    u32::try_from(len.div_ceil(digest_len))
        .map_err(|_| Pbkdf2Error::OutputTooLong { len, digest_len })
}

/// PBKDF2-HMAC with hash function `H` into `out`: output blocks `chains` at a time on the
/// lane kernel's entry while that many are left, the others one by one on `kernel`.
///
/// # Safety
/// The CPU must support every feature `kernel`'s and `chains`' variants require.
pub(crate) unsafe fn derive<H: HashFunction>(
    kernel: SingleKernel<Algo<H>>,
    chains: Option<Chains<Algo<H>>>,
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    out: &mut [u8],
) -> Result<(), Pbkdf2Error> {
    let len = out.len();
    let emit = |offset: usize, block: &[u8]| {
        out[offset..offset + block.len()].copy_from_slice(block);
    };
    // SAFETY: forwarded from the caller.
    scrubbed(|| unsafe {
        for_each_block::<H>(kernel, chains, password, salt, iterations, len, emit)
    })
}

/// Whether PBKDF2-HMAC with hash function `H` gives `expected`, compared in constant time (the
/// time depends on the lengths only, never on where the keys differ).
///
/// # Safety
/// As [`derive()`].
pub(crate) unsafe fn verify<H: HashFunction>(
    kernel: SingleKernel<Algo<H>>,
    chains: Option<Chains<Algo<H>>>,
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    expected: &[u8],
) -> Result<(), Pbkdf2Error> {
    let mut difference = 0u8;
    let len = expected.len();
    let emit = |offset: usize, block: &[u8]| {
        for (a, b) in block.iter().zip(&expected[offset..]) {
            difference |= a ^ b;
        }
    };
    // SAFETY: forwarded from the caller.
    scrubbed(|| unsafe {
        for_each_block::<H>(kernel, chains, password, salt, iterations, len, emit)
    })?;
    // Keeps the optimiser from turning the accumulation into an early exit.
    if core::hint::black_box(difference) == 0 {
        Ok(())
    } else {
        Err(Pbkdf2Error::Mismatch)
    }
}

/// Bytes of dead stack a derivation's scrub overwrites: [`for_each_block`]'s frame (its `U` and
/// `T` of up to 32 chains: 4 KiB for SHA-512) and the deepest kernel's below it.
const SCRUB_BYTES: usize = 12 * 1024;

/// `derivation`'s result, after which the dead stack below is scrubbed: the frames of
/// [`for_each_block`] and of every kernel it called, what the kernels' loops spilled of `U`,
/// `T`, the keyed states and the schedules (which no wipe of a kernel's own reaches) and the
/// copies the optimiser made in `for_each_block`'s own frame of values whose named variables
/// it wipes (a release build left 60 bytes of the keyed states there while the scrub ran
/// inside it). Once per derivation, for every variant's loop and every lane kernel's chains.
#[inline(always)]
fn scrubbed<T>(derivation: impl FnOnce() -> T) -> T {
    let result = derivation();
    multisha_contract::scrub_stack::<SCRUB_BYTES>();
    result
}

/// Derives the output block by block (each `T_i`, cut to what is left of `len`), handing each
/// to `emit` with its offset, and wipes every key, state and block it made. Out of line, so
/// that its whole frame is dead, and scrubbed ([`scrubbed`]), once it returns.
///
/// # Safety
/// As [`derive()`].
#[inline(never)]
unsafe fn for_each_block<H: HashFunction>(
    kernel: SingleKernel<Algo<H>>,
    chains: Option<Chains<Algo<H>>>,
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    len: usize,
    mut emit: impl FnMut(usize, &[u8]),
) -> Result<(), Pbkdf2Error> {
    let digest_len = H::OUTPUT.len;
    let blocks = u64::from(block_count(len, digest_len)?);
    // SAFETY: forwarded from the caller.
    let keys = unsafe { hmac_keys::<Algo<H>>(kernel.compress, *H::IV, password, digest_len) };
    let mut u = [State::<Algo<H>>::default(); MAX_LANES];
    let mut t = u;
    let mut digest = [0u8; 64];
    let mut index = 1u64;
    while index <= blocks {
        let left = blocks - index + 1;
        let together = chains.filter(|&(lanes, _)| left >= lanes as u64);
        let lanes = together.map_or(1, |(lanes, _)| lanes);
        for lane in 0..lanes {
            // The index fits: it is at most `blocks`, at most 2^32 - 1.
            let block = (index + lane as u64) as u32;
            // SAFETY: forwarded from the caller.
            unsafe {
                first_u(
                    kernel.compress,
                    &keys,
                    salt,
                    block,
                    digest_len,
                    &mut u[lane],
                )
            };
            t[lane] = u[lane];
        }
        let rest = iterations.get() - 1;
        match together {
            // SAFETY: forwarded from the caller; `u` and `t` have the kernel's lane count.
            Some((_, iterate)) => unsafe {
                iterate(&keys, &mut u[..lanes], &mut t[..lanes], digest_len, rest)
            },
            // SAFETY: forwarded from the caller.
            None => unsafe { (kernel.iterate)(&keys, &mut u[0], &mut t[0], digest_len, rest) },
        }
        for (lane, t) in t[..lanes].iter().enumerate() {
            write_digest(t.as_ref(), &mut digest[..digest_len]);
            // The offset fits: it is less than `len`.
            let offset = ((index - 1 + lane as u64) * digest_len as u64) as usize;
            emit(offset, &digest[..digest_len.min(len - offset)]);
        }
        index += lanes as u64;
    }
    for state in &mut u {
        wipe_secret("U", state.as_mut());
    }
    for state in &mut t {
        wipe_secret("T", state.as_mut());
    }
    wipe_secret("T bytes", &mut digest);
    Ok(())
}

/// The HMAC keyed states of `password` (hashed first when longer than a block). Out of line:
/// the copies the optimiser makes of the key block and the states stay in this frame, dead
/// once it returns and below the caller's, where the caller's scrub of the stack reaches
/// them (inlined, a release build left them in its callers' frames, out of reach).
///
/// # Safety
/// The CPU must support every feature `compress` requires.
#[inline(never)]
pub(crate) unsafe fn hmac_keys<A: Compression>(
    compress: KernelFn<A>,
    iv: State<A>,
    password: &[u8],
    digest_len: usize,
) -> HmacKeys<A> {
    let mut key = A::Block::ZERO;
    if password.len() > A::Block::LEN {
        // SAFETY: forwarded from the caller.
        unsafe { oneshot::<A>(compress, iv, password, &mut key.as_mut()[..digest_len]) };
    } else {
        key.as_mut()[..password.len()].copy_from_slice(password);
    }
    let mut w = A::Workspace::default();
    let mut keyed = |pad: u8| {
        let mut block = key;
        for byte in block.as_mut() {
            *byte ^= pad;
        }
        let mut state = iv;
        // SAFETY: forwarded from the caller.
        unsafe { compress(&mut state, core::slice::from_ref(&block), &mut w) };
        wipe_secret("HMAC pad block", block.as_mut());
        state
    };
    let keys = HmacKeys {
        inner: keyed(0x36),
        outer: keyed(0x5c),
    };
    w.wipe();
    wipe_secret("HMAC key block", key.as_mut());
    keys
}

/// `U_1 = HMAC(password, salt || INT(index))`, as state words, into `u`: computed in place
/// (not returned, which left a copy of `U_1` in this function's dead frame).
///
/// # Safety
/// As [`hmac_keys`].
unsafe fn first_u<A: Compression>(
    compress: KernelFn<A>,
    keys: &HmacKeys<A>,
    salt: &[u8],
    index: u32,
    digest_len: usize,
    u: &mut State<A>,
) {
    let mut w = A::Workspace::default();
    let mut inner = keys.inner;
    let (blocks, rest) = A::Block::split(salt);
    if !blocks.is_empty() {
        // SAFETY: forwarded from the caller.
        unsafe { compress(&mut inner, blocks, &mut w) };
    }
    // The rest of the salt and the index: less than a block and four bytes.
    let mut joined = [0u8; 256];
    let joined_len = rest.len() + 4;
    joined[..rest.len()].copy_from_slice(rest);
    joined[rest.len()..joined_len].copy_from_slice(&index.to_be_bytes());
    let (more, tail) = A::Block::split(&joined[..joined_len]);
    if !more.is_empty() {
        // SAFETY: as above.
        unsafe { compress(&mut inner, more, &mut w) };
    }
    let mut padded = [A::Block::ZERO; 2];
    let bits = (A::Block::LEN as u128 + salt.len() as u128 + 4) * 8;
    let used = pad_into::<A>(&mut padded, tail, bits);
    // SAFETY: as above.
    unsafe { compress(&mut inner, &padded[..used], &mut w) };

    let mut block = hmac_block::<A>(digest_len);
    write_digest(inner.as_ref(), &mut block.as_mut()[..digest_len]);
    *u = keys.outer;
    // SAFETY: as above.
    unsafe { compress(u, core::slice::from_ref(&block), &mut w) };

    w.wipe();
    wipe_blocks(&mut padded);
    wipe_secret("salt tail and index", &mut joined);
    wipe_secret("inner digest block", block.as_mut());
    wipe_secret("inner state", inner.as_mut());
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::cell::Cell;

    std::thread_local! {
        /// Chains the counting lane entry below ran (per thread: tests run side by side).
        static CHAINS_RUN: Cell<usize> = const { Cell::new(0) };
    }

    /// A two-lane PBKDF2 entry that counts its chains and runs each on the dispatched
    /// single-message kernel's loop.
    unsafe fn counting_lanes<A: crate::hash_function::Registered>(
        keys: &HmacKeys<A>,
        u: &mut [State<A>],
        t: &mut [State<A>],
        digest_len: usize,
        count: u32,
    ) {
        let kernel = crate::dispatch::single_entries::<A>();
        for (u, t) in u.iter_mut().zip(t) {
            CHAINS_RUN.with(|run| run.set(run.get() + 1));
            // SAFETY: the dispatcher only ever chooses variants the CPU runs.
            unsafe { (kernel.iterate)(keys, u, t, digest_len, count) };
        }
    }

    /// Derives `len` bytes with SHA-1 through the counting two-lane entry; returns the output
    /// and how many chains ran on the lanes.
    fn derive_counting(len: usize, iterations: u32) -> (std::vec::Vec<u8>, usize) {
        type A = Algo<crate::Sha1>;
        let kernel = crate::dispatch::single_entries::<A>();
        let chains: Chains<A> = (2, counting_lanes::<A>);
        let mut out = std::vec![0u8; len];
        CHAINS_RUN.with(|run| run.set(0));
        let iterations = NonZeroU32::new(iterations).expect("nonzero");
        // SAFETY: the dispatcher only ever chooses variants the CPU runs.
        unsafe {
            derive::<crate::Sha1>(
                kernel,
                Some(chains),
                b"password",
                b"salt",
                iterations,
                &mut out,
            )
        }
        .expect("a valid length");
        (out, CHAINS_RUN.with(Cell::get))
    }

    #[test]
    fn exactly_a_lane_count_of_blocks_runs_on_the_lanes() {
        // WPA2's shape: 32 bytes of SHA-1, two blocks, on a two-lane kernel.
        let (lanes, run) = derive_counting(32, 4096);
        assert_eq!(run, 2, "both blocks on the lanes");
        // RFC 6070's 4096-iteration vector: its first 20 bytes, here the first block.
        assert_eq!(
            lanes[..20],
            [
                0x4b, 0x00, 0x79, 0x01, 0xb7, 0x65, 0x48, 0x9a, 0xbe, 0xad, 0x49, 0xd9, 0x26, 0xf7,
                0x21, 0xd0, 0x65, 0xa4, 0x29, 0xc1
            ]
        );
        // One block fewer than the lanes: one by one; one more: two on the lanes, one alone.
        assert_eq!(derive_counting(20, 2).1, 0);
        assert_eq!(derive_counting(41, 2).1, 2);
        assert_eq!(derive_counting(80, 2).1, 4);
    }

    #[test]
    fn output_lengths_are_one_to_2_pow_32_minus_1_digests() {
        assert_eq!(block_count(0, 32), Err(Pbkdf2Error::EmptyOutput));
        assert_eq!(block_count(1, 32), Ok(1));
        assert_eq!(block_count(33, 32), Ok(2));
        assert_eq!(block_count(64, 32), Ok(2));
        #[cfg(target_pointer_width = "64")]
        {
            let max = u32::MAX as usize * 20;
            assert_eq!(block_count(max, 20), Ok(u32::MAX));
            assert_eq!(
                block_count(max + 1, 20),
                Err(Pbkdf2Error::OutputTooLong {
                    len: max + 1,
                    digest_len: 20
                })
            );
        }
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let long = Pbkdf2Error::OutputTooLong {
            len: 85_899_345_901,
            digest_len: 20,
        };
        assert_eq!(
            std::format!("{long}"),
            "PBKDF2 output of 85899345901 bytes is too long: at most (2^32 - 1) blocks of 20 \
             bytes (85899345900 bytes)"
        );
        assert!(std::format!("{}", Pbkdf2Error::EmptyOutput).contains("0 bytes"));
        assert!(std::format!("{}", Pbkdf2Error::Mismatch).contains("does not match"));
    }
}
