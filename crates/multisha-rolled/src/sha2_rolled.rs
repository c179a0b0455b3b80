//! The rolled SHA-2 body, one round per iteration over a fully expanded schedule, written once
//! for SHA-256 and SHA-512 against [`Sha2`].

use multisha_contract::ops::{add_into, load_be};
use multisha_contract::{Sha2, Word, WorkspaceBuffer};

/// Compresses `blocks` into `state`, expanding each block's schedule into the workspace.
#[inline(always)]
pub(crate) fn compress<A: Sha2>(state: &mut A::State, blocks: &[A::Block], w: &mut A::Workspace) {
    let rounds = A::K.len();
    let w = &mut w.words_mut()[..rounds];
    for block in blocks {
        load_be(block.as_ref(), &mut w[..16]);
        for t in 16..rounds {
            A::expand(w, t);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        for t in 0..rounds {
            let t1 = h
                .wrapping_add(A::big_sigma1(e))
                .wrapping_add(A::ch(e, f, g))
                .wrapping_add(A::K[t])
                .wrapping_add(w[t]);
            let t2 = A::big_sigma0(a).wrapping_add(A::maj(a, b, c));
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
