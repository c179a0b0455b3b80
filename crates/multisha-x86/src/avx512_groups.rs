//! What the two-group AVX-512 kernels (`sha1_avx512_x32`, `sha256_avx512_x32`,
//! `sha512_avx512_x16`) share: two groups of lanes (sixteen of 32-bit words, eight of 64-bit
//! words), whose working states fill half the `zmm` registers, so each group's ring of sixteen
//! schedule words lives in the lane workspace (2 KiB, 64-byte aligned, wiped once per batch),
//! read and written with volatile accesses: with plain ones the compiler keeps ring words in
//! registers it does not have and spills them to the stack.

use core::arch::x86_64::__m512i;
use multisha_contract::{Word, WorkspaceBuffer, aligned_words};

/// Lanes of a group of 32-bit words.
pub(crate) const GROUP: usize = 16;

/// Lanes of a two-group kernel of 32-bit words.
pub(crate) const LANES: usize = 2 * GROUP;

/// The two groups' schedule rings: sixteen registers each.
pub(crate) type Rings = [[__m512i; 16]; 2];

/// Words of type `W` of [`Rings`] in a lane workspace.
pub(crate) const fn ring_words<W: Word>() -> usize {
    size_of::<Rings>() / W::BYTES
}

/// 32-bit words of [`Rings`] in a lane workspace.
pub(crate) const RING_WORDS: usize = ring_words::<u32>();

/// The rings in a lane workspace, from its first 64-byte boundary.
///
/// # Panics
/// If the workspace has fewer than [`ring_words`] words from there (each kernel checks its
/// workspace's size at compile time).
#[inline]
pub(crate) fn rings<W: Word>(ws: &mut impl WorkspaceBuffer<W>) -> &mut Rings {
    let region = aligned_words(ws.words_mut(), 64, ring_words::<W>());
    assert!(region.as_ptr().addr().is_multiple_of(64));
    // SAFETY: `region` is initialized words of the size of `Rings`, 64-byte aligned
    // (asserted), and every bit pattern is a valid `__m512i`; the result borrows `ws` as
    // `region` did.
    unsafe { &mut *region.as_mut_ptr().cast::<Rings>() }
}

/// A ring word, read from memory where it is used.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn get(v: &__m512i) -> __m512i {
    // SAFETY: `v` is a reference: valid and aligned for a read.
    unsafe { core::ptr::read_volatile(v) }
}

/// Writes a ring word to memory.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn put(v: &mut __m512i, x: __m512i) {
    // SAFETY: `v` is a mutable reference: valid and aligned for a write.
    unsafe { core::ptr::write_volatile(v, x) }
}

/// Defines, in the calling module, the SHA-2 schedule step of one group (with the word
/// width's `add`, `small_sigma0` and `small_sigma1` in scope):
/// `fn next_word(ring: &mut [__m512i; 16], i: usize, two_back: __m512i) -> __m512i`, which
/// puts `w[t]` in place of `w[t - 16]` in the ring (`i = t mod 16`) and returns it. `two_back`
/// is `w[t - 2]`, from a register: read back from the ring two rounds after its store, it
/// waited for the store.
macro_rules! sha2_next_word {
    () => {
        #[inline]
        #[target_feature(enable = "avx512f")]
        fn next_word(
            ring: &mut [core::arch::x86_64::__m512i; 16],
            i: usize,
            two_back: core::arch::x86_64::__m512i,
        ) -> core::arch::x86_64::__m512i {
            use $crate::avx512_groups::{get, put};
            let w = add(
                add(get(&ring[i]), small_sigma0(get(&ring[(i + 1) & 15]))),
                add(get(&ring[(i + 9) & 15]), small_sigma1(two_back)),
            );
            put(&mut ring[i], w);
            w
        }
    };
}
pub(crate) use sha2_next_word;

/// Sixteen SHA-2 rounds of both groups (with `round!` in scope), each round of the first group
/// followed by the same round of the second; `$kw!(g, i)` gives group `g`'s `w[t] + K[t]` for
/// round `t = 16k + i` of the sixteen.
macro_rules! rounds16x2 {
    ($kw:ident, [$($x:ident),*], [$($y:ident),*]) => {
        $crate::avx512_groups::rounds16x2!(@8 $kw, 0, [$($x),*], [$($y),*]);
        $crate::avx512_groups::rounds16x2!(@8 $kw, 8, [$($x),*], [$($y),*]);
    };
    (@8 $kw:ident, $o:literal,
     [$a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident],
     [$p:ident, $q:ident, $r:ident, $s:ident, $t:ident, $u:ident, $v:ident, $w:ident]) => {
        round!($a, $b, $c, $d, $e, $f, $g, $h, $kw!(0, $o));
        round!($p, $q, $r, $s, $t, $u, $v, $w, $kw!(1, $o));
        round!($h, $a, $b, $c, $d, $e, $f, $g, $kw!(0, $o + 1));
        round!($w, $p, $q, $r, $s, $t, $u, $v, $kw!(1, $o + 1));
        round!($g, $h, $a, $b, $c, $d, $e, $f, $kw!(0, $o + 2));
        round!($v, $w, $p, $q, $r, $s, $t, $u, $kw!(1, $o + 2));
        round!($f, $g, $h, $a, $b, $c, $d, $e, $kw!(0, $o + 3));
        round!($u, $v, $w, $p, $q, $r, $s, $t, $kw!(1, $o + 3));
        round!($e, $f, $g, $h, $a, $b, $c, $d, $kw!(0, $o + 4));
        round!($t, $u, $v, $w, $p, $q, $r, $s, $kw!(1, $o + 4));
        round!($d, $e, $f, $g, $h, $a, $b, $c, $kw!(0, $o + 5));
        round!($s, $t, $u, $v, $w, $p, $q, $r, $kw!(1, $o + 5));
        round!($c, $d, $e, $f, $g, $h, $a, $b, $kw!(0, $o + 6));
        round!($r, $s, $t, $u, $v, $w, $p, $q, $kw!(1, $o + 6));
        round!($b, $c, $d, $e, $f, $g, $h, $a, $kw!(0, $o + 7));
        round!($q, $r, $s, $t, $u, $v, $w, $p, $kw!(1, $o + 7));
    };
}
pub(crate) use rounds16x2;
