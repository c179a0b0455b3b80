//! The SHA-2 body with eight rounds written out and the roles of a..h rotating, K from the
//! table, the message LOAD and schedule BLEND loops unrolled 8x; written once for SHA-256 and
//! SHA-512 against [`Sha2`].

use multisha_contract::ops::{add_into, add8};
use multisha_contract::{Sha2, Word, WorkspaceBuffer, sha2_eight_rounds};

/// Compresses `blocks` into `state`, expanding each block's schedule into the workspace.
#[inline(always)]
pub(crate) fn compress<A: Sha2>(state: &mut A::State, blocks: &[A::Block], w: &mut A::Workspace) {
    let rounds = A::K.len();
    let w = &mut w.words_mut()[..rounds];
    for block in blocks {
        let words = block.as_ref().chunks_exact(A::Word::BYTES);
        // LOAD, eight words per iteration.
        for (t, bytes) in (0..16).zip(words) {
            w[t] = A::Word::from_be_slice(bytes);
        }
        // BLEND, eight words per iteration.
        for t in (16..rounds).step_by(8) {
            for i in t..t + 8 {
                A::expand(w, i);
            }
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        for (k, w) in A::K.chunks_exact(8).zip(w.chunks_exact(8)) {
            sha2_eight_rounds!(A; add8(k, w), a, b, c, d, e, f, g, h);
        }
        add_into(state, [a, b, c, d, e, f, g, h]);
    }
}
