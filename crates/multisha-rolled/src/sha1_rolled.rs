//! SHA-1, one round per iteration; f and K chosen per 20-round group.

use multisha_contract::ops::{add_into, load_be, maj, sha1_ch, sha1_parity, sha1_schedule};
use multisha_contract::{SHA1_K, Sha1Compression, Sha1Workspace};

multisha_contract::declare_variant! {
    /// The `rolled` SHA-1 variant.
    pub static VARIANT: Sha1Compression = {
        name: "rolled",
        description: "one round per loop iteration, f and K chosen per 20-round group (smallest code)",
        schedule: Workspace,
        requires: [],
        cost: { call: 2.0, step: 100.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state`. The schedule is a 16-word circular window of `w`,
    /// computed on the fly.
    #[inline(never)]
    pub fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]], w: &mut Sha1Workspace) {
        let w = w.words();
        for block in blocks {
            load_be(block, w);
            let [mut a, mut b, mut c, mut d, mut e] = *state;
            for group in 0..4 {
                let k = SHA1_K[group];
                for t in 20 * group..20 * group + 20 {
                    let wt = if t < 16 { w[t] } else { sha1_schedule(w, t) };
                    let f = match group {
                        0 => sha1_ch(b, c, d),
                        2 => maj(b, c, d),
                        _ => sha1_parity(b, c, d),
                    };
                    let tmp = a
                        .rotate_left(5)
                        .wrapping_add(f)
                        .wrapping_add(e)
                        .wrapping_add(k)
                        .wrapping_add(wt);
                    e = d;
                    d = c;
                    c = b.rotate_left(30);
                    b = a;
                    a = tmp;
                }
            }
            add_into(state, [a, b, c, d, e]);
        }
    }
}
