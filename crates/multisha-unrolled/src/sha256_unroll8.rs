//! SHA-256 with eight rounds written out and the roles of a..h rotating; K from the table;
//! the message LOAD and schedule BLEND loops unrolled 8x.

use multisha_contract::ops::{add_into, add8, sha256_expand};
use multisha_contract::{Block, SHA256_K, Sha256State, Sha256Workspace, sha256_eight_rounds};

/// Compresses `blocks` into `state`, expanding each block's schedule into `w[..64]`.
#[inline(never)]
pub fn compress(state: &mut Sha256State, blocks: &[Block], w: &mut Sha256Workspace) {
    let w = &mut w.words;
    for block in blocks {
        let (words, _) = block.as_chunks::<4>();
        // LOAD, eight words per iteration.
        for t in (0..16).step_by(8) {
            for i in t..t + 8 {
                w[i] = u32::from_be_bytes(words[i]);
            }
        }
        // BLEND, eight words per iteration.
        for t in (16..64).step_by(8) {
            for i in t..t + 8 {
                sha256_expand(w, i);
            }
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        let (k8, _) = SHA256_K.as_chunks::<8>();
        let (w8, _) = w.as_chunks::<8>();
        for (k, w) in k8.iter().zip(w8) {
            sha256_eight_rounds!(add8(k, w), a, b, c, d, e, f, g, h);
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
            multisha_contract::harness::sha256_kernel_suite("sha256/unroll8", super::compress)
        };
        assert!(checks > 2200);
    }
}
