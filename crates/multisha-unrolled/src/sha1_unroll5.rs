//! SHA-1 with five rounds written out, the roles of a..e rotating, looped 4x per group.

use multisha_contract::ops::{add_into, load_be, sha1_ch, sha1_parity, sha1_schedule};
use multisha_contract::{SHA1_K, Sha1Compression, Sha1Workspace};

/// One round: `e += rotl5(a) + f(b, c, d) + k + w`, `b = rotl30(b)`; no variable moves.
macro_rules! round {
    (ch, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $k:expr, $w:expr) => {
        $e = $e
            .wrapping_add($a.rotate_left(5))
            .wrapping_add($w)
            .wrapping_add($k);
        $e = $e.wrapping_add(sha1_ch($b, $c, $d));
        $b = $b.rotate_left(30);
    };
    (parity, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $k:expr, $w:expr) => {
        $e = $e
            .wrapping_add($a.rotate_left(5))
            .wrapping_add($w)
            .wrapping_add($k);
        $e = $e.wrapping_add(sha1_parity($b, $c, $d));
        $b = $b.rotate_left(30);
    };
    // Majority as two adds straight into e: (c & d) + (b & (c ^ d)).
    (maj, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $k:expr, $w:expr) => {
        $e = $e
            .wrapping_add($a.rotate_left(5))
            .wrapping_add($w)
            .wrapping_add($k);
        $e = $e.wrapping_add($c & $d);
        $e = $e.wrapping_add($b & ($c ^ $d));
        $b = $b.rotate_left(30);
    };
}

/// Twenty rounds of one group: five rounds written out, looped four times. `$w` maps a round
/// number to its schedule word.
macro_rules! group {
    ($f:ident, $group:expr, $w:ident, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        let k = SHA1_K[$group];
        for i in 0..4 {
            let t = 20 * $group + 5 * i;
            round!($f, $a, $b, $c, $d, $e, k, $w(t));
            round!($f, $e, $a, $b, $c, $d, k, $w(t + 1));
            round!($f, $d, $e, $a, $b, $c, k, $w(t + 2));
            round!($f, $c, $d, $e, $a, $b, k, $w(t + 3));
            round!($f, $b, $c, $d, $e, $a, k, $w(t + 4));
        }
    };
}

multisha_contract::declare_variant! {
    /// The `unroll5` SHA-1 variant.
    pub static VARIANT: Sha1Compression = {
        name: "unroll5",
        description: "five rounds written out with rotating roles, majority as two adds, 16-word circular schedule",
        schedule: Workspace,
        requires: [],
        cost: { call: 2.0, step: 66.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state` with a 16-word circular schedule in `w`, computed on
    /// the fly.
    #[inline(never)]
    pub fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]], w: &mut Sha1Workspace) {
        let w = w.words();
        for block in blocks {
            load_be(block, w);
            let [mut a, mut b, mut c, mut d, mut e] = *state;
            // Rounds 0..16 read the loaded words; from 16 on each word is computed in place.
            let mut first = |t: usize| if t < 16 { w[t] } else { sha1_schedule(w, t) };
            group!(ch, 0, first, a, b, c, d, e);
            let mut next = |t: usize| sha1_schedule(w, t);
            group!(parity, 1, next, a, b, c, d, e);
            group!(maj, 2, next, a, b, c, d, e);
            group!(parity, 3, next, a, b, c, d, e);
            add_into(state, [a, b, c, d, e]);
        }
    }
}
