//! A large amount of distinct machine code, run to push the hash code out of the instruction
//! cache and the micro-op cache before a cold sample. 1024 instances of a const-generic
//! function with different constants: the compiler can neither merge nor skip them.

use std::hint::black_box;

type Junk = fn(u64) -> u64;

#[inline(never)]
fn junk<const A: u64, const B: u64>(x: u64) -> u64 {
    // Instance-specific 64-bit immediates make every copy different code of a few hundred bytes.
    let k = A.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ B.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    let mut v = x ^ k;
    v = v.wrapping_mul(k | 1).rotate_left(13) ^ (k >> 7);
    v = v
        .wrapping_add(k.rotate_left(17))
        .wrapping_mul(0xFF51_AFD7_ED55_8CCD ^ k)
        ^ (v >> 29);
    v = v.wrapping_mul(k.rotate_left(31) | 1).rotate_left(23) ^ k.wrapping_mul(3);
    v = v
        .wrapping_add(k.rotate_left(41))
        .wrapping_mul(0xC4CE_B9FE_1A85_EC53 ^ k)
        ^ (v >> 31);
    v = v.wrapping_mul(k.rotate_left(5) | 1).rotate_left(37) ^ k.wrapping_mul(5);
    v = v
        .wrapping_add(k.rotate_left(53))
        .wrapping_mul(0x2545_F491_4F6C_DD1D ^ k)
        ^ (v >> 17);
    v = v.wrapping_mul(k.rotate_left(11) | 1).rotate_left(7) ^ k.wrapping_mul(7);
    v = v
        .wrapping_add(k.rotate_left(59))
        .wrapping_mul(0x94D0_49BB_1331_11EB ^ k)
        ^ (v >> 27);
    v
}

macro_rules! row {
    ($a:literal; [$($b:literal)*]) => { [$(junk::<$a, $b> as Junk),*] };
}

macro_rules! table {
    ($bs:tt; $($a:literal)*) => { [$(row!($a; $bs)),*] };
}

static TABLE: [[Junk; 32]; 32] = table!(
    [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31];
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
);

/// Runs every function once.
pub(crate) fn flush() {
    let mut x = 1u64;
    for row in &TABLE {
        for f in row {
            x = black_box(*f)(x);
        }
    }
    black_box(x);
}

/// Runtime addresses of the functions, to measure how much code `flush` runs.
pub(crate) fn addresses() -> impl Iterator<Item = usize> {
    TABLE.iter().flatten().map(|f| *f as usize)
}
