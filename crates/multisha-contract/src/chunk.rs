//! Sixteen bytes written by one store. What the engine writes and reads back 16 bytes at a time
//! right after (a padding block a kernel loads, a streaming hasher moved into `finalize`,
//! whose move copies it in 16-byte pieces) is written so: a load that needs bytes of several
//! pending stores, or more bytes than a pending store wrote, waits for them to reach the cache
//! (a store-forwarding stall), and the core runs nothing after it until they do.

/// A 16-byte array written whole by [`Chunk::store`]: one 16-byte store where the target has
/// one (x86-64 SSE2, little-endian AArch64 NEON), two 8-byte stores elsewhere.
pub trait Chunk: Copy + sealed::Sealed {
    /// Writes `lo` and `hi` as the chunk's two little-endian halves (the first eight bytes in
    /// memory order hold `lo`).
    fn store(&mut self, lo: u64, hi: u64);
    /// The chunk's two little-endian halves, as [`Chunk::store`] writes them.
    fn halves(&self) -> (u64, u64);
    /// Adds `n` to the chunk's low half (wrapping), the chunk read and rewritten whole: one
    /// 16-byte load, add and store where the target has them. A count kept so and bumped
    /// call after call (a streaming hasher's partial-block length) waits on nothing narrower
    /// than its chunk, and its chain from one call to the next is a forwarded load and an add
    /// (not a read into a general-purpose register, an add and a move back to a vector).
    fn add_low(&mut self, n: u64);
    /// Zeroes the chunk by one 16-byte store where the target has one, in a way the
    /// optimiser keeps (a store written as assembly; elsewhere `zeroize`). `zeroize` writes
    /// element by element: a streaming SHA-256 hasher's drop left 24 stores in flight where 8
    /// do, and the next message's loads waited behind them.
    fn wipe(&mut self);
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for [u8; 16] {}
    impl Sealed for [u32; 4] {}
    impl Sealed for [u64; 2] {}
}

/// Writes `lo` then `hi` (little-endian) at `dst` with one 16-byte store where [`VECTOR`]
/// (elsewhere nothing: not called).
///
/// # Safety
/// `dst` is valid for 16 bytes of writes (no alignment needed).
#[inline(always)]
unsafe fn store16(dst: *mut u8, lo: u64, hi: u64) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use core::arch::x86_64::{_mm_set_epi64x, _mm_storeu_si128};
        // SAFETY: the build enables SSE2.
        let mut v = unsafe { _mm_set_epi64x(hi as i64, lo as i64) };
        // LLVM stores a vector it sees built from two general-purpose registers as two 8-byte
        // stores, which a 16-byte load of the chunk waits on: hide where the vector came from.
        // SAFETY: an empty assembly block that leaves the register as it is.
        unsafe {
            core::arch::asm!("/* {v} */", v = inout(xmm_reg) v, options(pure, nomem, nostack, preserves_flags))
        };
        // SAFETY: the build enables SSE2; the caller gives 16 writable bytes, and the store
        // is unaligned.
        unsafe { _mm_storeu_si128(dst.cast(), v) };
    }
    #[cfg(all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    ))]
    {
        use core::arch::aarch64::{vcombine_u64, vcreate_u64, vreinterpretq_u8_u64, vst1q_u8};
        // SAFETY: the build enables NEON; the caller gives 16 writable bytes.
        unsafe {
            vst1q_u8(
                dst,
                vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(lo), vcreate_u64(hi))),
            )
        };
    }
    let _ = (dst, lo, hi);
}

/// Adds `n` to the little-endian low half of the 16 bytes at `dst` with one 16-byte load and
/// store where [`VECTOR`] (elsewhere nothing: not called).
///
/// # Safety
/// `dst` is valid for 16 bytes of reads and writes (no alignment needed).
#[inline(always)]
unsafe fn add_low16(dst: *mut u8, n: u64) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use core::arch::x86_64::{
            _mm_add_epi64, _mm_cvtsi64_si128, _mm_loadu_si128, _mm_storeu_si128,
        };
        // SAFETY: the build enables SSE2; the caller gives 16 readable bytes (unaligned load).
        let mut v =
            unsafe { _mm_add_epi64(_mm_loadu_si128(dst.cast()), _mm_cvtsi64_si128(n as i64)) };
        // As in `store16`: LLVM could narrow the add to the low eight bytes (an 8-byte store,
        // which a 16-byte load of the chunk waits on).
        // SAFETY: an empty assembly block that leaves the register as it is.
        unsafe {
            core::arch::asm!("/* {v} */", v = inout(xmm_reg) v, options(pure, nomem, nostack, preserves_flags))
        };
        // SAFETY: the build enables SSE2; the caller gives 16 writable bytes (unaligned store).
        unsafe { _mm_storeu_si128(dst.cast(), v) };
    }
    #[cfg(all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    ))]
    {
        use core::arch::aarch64::{
            vaddq_u64, vcombine_u64, vcreate_u64, vld1q_u8, vreinterpretq_u8_u64,
            vreinterpretq_u64_u8, vst1q_u8,
        };
        // SAFETY: the build enables NEON; the caller gives 16 readable and writable bytes.
        unsafe {
            let v = vreinterpretq_u64_u8(vld1q_u8(dst));
            let v = vaddq_u64(v, vcombine_u64(vcreate_u64(n), vcreate_u64(0)));
            vst1q_u8(dst, vreinterpretq_u8_u64(v));
        }
    }
    let _ = (dst, n);
}

/// Zeroes the 16 bytes at `dst` by one 16-byte store where [`VECTOR`] (elsewhere nothing:
/// not called), written as assembly so that the optimiser keeps it.
///
/// # Safety
/// `dst` is valid for 16 bytes of writes (no alignment needed).
#[inline(always)]
unsafe fn wipe16(dst: *mut u8) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use core::arch::x86_64::_mm_setzero_si128;
        // SAFETY: the build enables SSE2.
        let zero = unsafe { _mm_setzero_si128() };
        // SAFETY: the caller gives 16 writable bytes; `movups` takes any alignment.
        unsafe {
            core::arch::asm!(
                "movups xmmword ptr [{dst}], {zero}",
                dst = in(reg) dst,
                zero = in(xmm_reg) zero,
                options(nostack, preserves_flags)
            )
        };
    }
    #[cfg(all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    ))]
    {
        // SAFETY: the caller gives 16 writable bytes; `stp` of two 8-byte registers takes any
        // alignment (on memory that allows unaligned accesses, as all normal memory does).
        unsafe {
            core::arch::asm!(
                "stp xzr, xzr, [{dst}]",
                dst = in(reg) dst,
                options(nostack, preserves_flags)
            )
        };
    }
    let _ = dst;
}

/// Whether [`store16`] exists on this target (else the chunks take two 8-byte stores).
const VECTOR: bool = cfg!(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    )
));

/// Implements [`Chunk`] for a 16-byte array from its portable form (`$portable`: the halves
/// written element by element) and, where the target has one, a 16-byte vector store.
macro_rules! chunk {
    ($t:ty, |$s:ident, $lo:ident, $hi:ident| $portable:block, |$r:ident| $halves:expr) => {
        impl Chunk for $t {
            #[inline(always)]
            fn store(&mut self, lo: u64, hi: u64) {
                if VECTOR {
                    // SAFETY: `self` is 16 writable bytes; on a little-endian target the
                    // vector's bytes are the portable form's.
                    unsafe { store16(self.as_mut_ptr().cast(), lo, hi) };
                } else {
                    self.store_portable(lo, hi);
                }
            }
            #[inline(always)]
            fn halves(&self) -> (u64, u64) {
                let $r = self;
                $halves
            }
            #[inline(always)]
            fn add_low(&mut self, n: u64) {
                if VECTOR {
                    // SAFETY: `self` is 16 readable and writable bytes; on a little-endian
                    // target the vector's low lane is the portable form's low half.
                    unsafe { add_low16(self.as_mut_ptr().cast(), n) };
                } else {
                    let (lo, hi) = self.halves();
                    self.store_portable(lo.wrapping_add(n), hi);
                }
            }
            #[inline(always)]
            fn wipe(&mut self) {
                if VECTOR {
                    // SAFETY: `self` is 16 writable bytes.
                    unsafe { wipe16(self.as_mut_ptr().cast()) };
                } else {
                    zeroize::Zeroize::zeroize(self);
                }
            }
        }

        impl Portable for $t {
            #[inline(always)]
            fn store_portable(&mut self, $lo: u64, $hi: u64) {
                let $s = self;
                $portable
            }
        }
    };
}

/// The element-by-element form of [`Chunk::store`] (the fallback, tested against the vector
/// store on every target).
trait Portable {
    fn store_portable(&mut self, lo: u64, hi: u64);
}

chunk!(
    [u8; 16],
    |s, lo, hi| {
        s[..8].copy_from_slice(&lo.to_le_bytes());
        s[8..].copy_from_slice(&hi.to_le_bytes());
    },
    |c| (
        u64::from_le_bytes(c[..8].try_into().expect("8 bytes")),
        u64::from_le_bytes(c[8..].try_into().expect("8 bytes")),
    )
);

chunk!(
    [u32; 4],
    |s, lo, hi| {
        *s = [lo as u32, (lo >> 32) as u32, hi as u32, (hi >> 32) as u32];
    },
    |c| (
        u64::from(c[0]) | u64::from(c[1]) << 32,
        u64::from(c[2]) | u64::from(c[3]) << 32,
    )
);

chunk!(
    [u64; 2],
    |s, lo, hi| {
        *s = [lo, hi];
    },
    |c| (c[0], c[1])
);

/// The bytes of `chunks`, in memory order (a streaming hasher's partial block, kept as
/// 8-byte words so that its wipe takes two stores a chunk, not sixteen).
#[inline(always)]
pub fn chunk_bytes(chunks: &[[u64; 2]]) -> &[u8] {
    // SAFETY: `[u64; 2]` has no padding and every byte of it is initialised; a `u8` has no
    // alignment, and the length is the chunks' size in bytes.
    unsafe { core::slice::from_raw_parts(chunks.as_ptr().cast::<u8>(), size_of_val(chunks)) }
}

/// The bytes of `bytes` (at most 16) as two little-endian words, zero-extended, read with a
/// few overlapping loads (no copy into a buffer, whose narrow stores a wide load would wait on).
#[inline(always)]
pub fn le_halves(bytes: &[u8]) -> (u64, u64) {
    match bytes.split_at_checked(8) {
        Some((lo, hi)) => (
            u64::from_le_bytes(lo.try_into().expect("8 bytes")),
            le_word(hi),
        ),
        None => (le_word(bytes), 0),
    }
}

/// The bytes of `bytes` (at most 8) as one little-endian word, zero-extended.
#[inline(always)]
fn le_word(bytes: &[u8]) -> u64 {
    let k = bytes.len();
    let u32_at = |at: usize| {
        u64::from(u32::from_le_bytes(
            bytes[at..at + 4].try_into().expect("4 bytes"),
        ))
    };
    match k {
        8.. => u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")),
        4.. => u32_at(0) | u32_at(k - 4) << (8 * (k - 4)),
        1.. => {
            u64::from(bytes[0])
                | u64::from(bytes[k / 2]) << (8 * (k / 2))
                | u64::from(bytes[k - 1]) << (8 * (k - 1))
        }
        0 => 0,
    }
}

/// Writes `data` into the bytes of `chunks` from byte `at` on. From a chunk's start (a message
/// fed in one piece, or in pieces of sixteen bytes), sixteen bytes at a time, each by one store
/// ([`Chunk::store`]) that may run up to fifteen bytes past the data (zeros there) but not past
/// the chunks: whole chunks, which a 16-byte load of them forwards from. From inside a chunk,
/// a plain copy: a whole-chunk store there would have to merge the chunk's earlier bytes,
/// which made each short write wait for the last one (a message fed 7 bytes at a time took 1.3
/// times as long).
///
/// # Panics
/// If `at + data.len()` runs past the chunks (a caller bug, never user input).
#[inline(always)]
pub fn write_chunks(chunks: &mut [[u64; 2]], mut at: usize, mut data: &[u8]) {
    let bytes = chunk_bytes_mut(chunks);
    if !at.is_multiple_of(16) {
        copy_short(&mut bytes[at..at + data.len()], data);
        return;
    }
    // (From a chunk's start, a chunk's 16 bytes are there whenever one of them is written.)
    while !data.is_empty() {
        let n = data.len().min(16);
        let (lo, hi) = le_halves(&data[..n]);
        let window: &mut [u8; 16] = (&mut bytes[at..at + 16]).try_into().expect("16 bytes");
        window.store(lo, hi);
        at += n;
        data = &data[n..];
    }
}

/// `dst.copy_from_slice(src)`, inline for up to 32 bytes: two overlapping loads and stores of
/// the widest size that fits (with a call of the C library's `memcpy` for each short write,
/// a message fed a byte a call took 1.2 times as long as with RustCrypto's SHA-1).
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) {
    macro_rules! two {
        ($t:ty) => {{
            const W: usize = size_of::<$t>();
            let n = src.len();
            let (head, tail) = (
                <$t>::from_ne_bytes(src[..W].try_into().expect("W bytes")),
                <$t>::from_ne_bytes(src[n - W..].try_into().expect("W bytes")),
            );
            dst[..W].copy_from_slice(&head.to_ne_bytes());
            dst[n - W..].copy_from_slice(&tail.to_ne_bytes());
        }};
    }
    match src.len() {
        0 => {}
        1 => dst[0] = src[0],
        2..4 => two!(u16),
        4..8 => two!(u32),
        8..=16 => two!(u64),
        17..=32 => two!(u128),
        _ => dst.copy_from_slice(src),
    }
}

/// [`chunk_bytes`], writable.
#[inline(always)]
fn chunk_bytes_mut(chunks: &mut [[u64; 2]]) -> &mut [u8] {
    let len = size_of_val(chunks);
    // SAFETY: as `chunk_bytes`; every byte pattern is a valid `u64`, so any write is too.
    unsafe { core::slice::from_raw_parts_mut(chunks.as_mut_ptr().cast::<u8>(), len) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_and_portable_chunk_stores_agree() {
        for (lo, hi) in [
            (0, 0),
            (0x0102_0304_0506_0708, 0x1112_1314_1516_1718),
            (u64::MAX, 1),
        ] {
            let (mut vector, mut portable) = ([0u8; 16], [0u8; 16]);
            vector.store(lo, hi);
            portable.store_portable(lo, hi);
            assert_eq!(vector, portable);
            assert_eq!(vector[..8], lo.to_le_bytes());
            assert_eq!(vector.halves(), (lo, hi));
            let (mut vector, mut portable) = ([0u32; 4], [0u32; 4]);
            vector.store(lo, hi);
            portable.store_portable(lo, hi);
            assert_eq!(vector, portable);
            assert_eq!(vector.halves(), (lo, hi));
            let (mut vector, mut portable) = ([0u64; 2], [0u64; 2]);
            vector.store(lo, hi);
            portable.store_portable(lo, hi);
            assert_eq!(vector, portable);
            assert_eq!(vector.halves(), (lo, hi));
        }
    }

    /// The add changes the low half alone, wrapping, in every chunk type.
    #[test]
    fn add_low_adds_to_the_low_half_only() {
        for (lo, hi, n) in [
            (0, 0, 7),
            (0x0102_0304_0506_0708, 0x1112_1314_1516_1718, 63),
            (u64::MAX, 5, 2),
            (0xffff_ffff, u64::MAX, 1),
        ] {
            let want = (lo.wrapping_add(n), hi);
            let mut bytes = [0u8; 16];
            bytes.store(lo, hi);
            bytes.add_low(n);
            assert_eq!(bytes.halves(), want);
            let mut words = [0u32; 4];
            words.store(lo, hi);
            words.add_low(n);
            assert_eq!(words.halves(), want);
            let mut wide = [0u64; 2];
            wide.store(lo, hi);
            wide.add_low(n);
            assert_eq!(wide.halves(), want);
        }
    }

    #[test]
    fn le_halves_reads_every_length() {
        let bytes: [u8; 16] = core::array::from_fn(|i| i as u8 + 1);
        for n in 0..=16 {
            let mut want = [0u8; 16];
            want[..n].copy_from_slice(&bytes[..n]);
            assert_eq!(le_halves(&bytes[..n]), want.halves(), "{n} bytes");
        }
    }

    /// A chunk's wipe zeroes its sixteen bytes and nothing around them, at any alignment.
    #[test]
    fn wipe_zeroes_a_chunk_and_nothing_else() {
        for offset in 0..16 {
            let mut bytes = [0x5au8; 48];
            let chunk: &mut [u8; 16] = (&mut bytes[offset..offset + 16]).try_into().unwrap();
            chunk.wipe();
            for (i, &b) in bytes.iter().enumerate() {
                let inside = (offset..offset + 16).contains(&i);
                assert_eq!(b == 0, inside, "byte {i}, chunk at {offset}");
            }
        }
        let mut words = [[0x5a5a_5a5au32; 4]; 3];
        words[1].wipe();
        assert_eq!(words, [[0x5a5a_5a5a; 4], [0; 4], [0x5a5a_5a5a; 4]]);
        let mut words = [[0x5a5a_5a5a_5a5a_5a5au64; 2]; 3];
        words[2].wipe();
        assert_eq!(words[..2], [[0x5a5a_5a5a_5a5a_5a5a; 2]; 2]);
        assert_eq!(words[2], [0; 2]);
    }

    #[test]
    fn write_chunks_matches_a_plain_copy() {
        let data: [u8; 64] = core::array::from_fn(|i| (i * 37 + 7) as u8);
        for at in 0..64 {
            for n in 0..=64 - at {
                let mut chunks = [[0xeeee_eeee_eeee_eeeeu64; 2]; 4];
                write_chunks(&mut chunks, at, &data[..n]);
                let mut want = [0xeeu8; 64];
                want[at..at + n].copy_from_slice(&data[..n]);
                // Up to fifteen bytes after the data may be anything: compare the rest.
                let end = if n == 0 { at } else { (at + n + 15).min(64) };
                let got = chunk_bytes(&chunks);
                assert_eq!(got[..at + n], want[..at + n], "at {at}, {n} bytes");
                assert_eq!(got[end..], want[end..], "at {at}, {n} bytes: after");
            }
        }
    }
}
