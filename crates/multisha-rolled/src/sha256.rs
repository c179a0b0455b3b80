//! SHA-256, one round per iteration over a fully expanded 64-word schedule.

use multisha_contract::ops::{
    add_into, big_sigma0, big_sigma1, load_be, maj, sha256_ch, sha256_expand,
};
use multisha_contract::{Block, SHA256_K, Sha256State, Sha256Workspace};

/// Compresses `blocks` into `state`, expanding each block's schedule into `w[..64]`.
#[inline(never)]
pub fn compress(state: &mut Sha256State, blocks: &[Block], w: &mut Sha256Workspace) {
    let w = &mut w.words;
    for block in blocks {
        load_be(block, w);
        for t in 16..64 {
            sha256_expand(w, t);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        for t in 0..64 {
            let t1 = h
                .wrapping_add(big_sigma1(e))
                .wrapping_add(sha256_ch(e, f, g))
                .wrapping_add(SHA256_K[t])
                .wrapping_add(w[t]);
            let t2 = big_sigma0(a).wrapping_add(maj(a, b, c));
            h = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        add_into(state, [a, b, c, d, e, f, g, h]);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn harness() {
        // SAFETY: a portable kernel runs on every CPU.
        let checks = unsafe {
            multisha_contract::harness::sha256_kernel_suite("sha256/rolled", super::compress)
        };
        assert!(checks > 2200);
    }
}
