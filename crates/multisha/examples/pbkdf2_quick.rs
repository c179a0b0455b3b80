//! PBKDF2-HMAC in one process: the dispatched `multisha` functions, each single-message
//! variant pinned, and RustCrypto's `pbkdf2` over `sha1`/`sha2`; the fastest of 15 runs (on
//! a shared, loaded machine the least disturbed one; the median is printed too), ms per
//! derivation and ns per compression (two per iteration and output block).
//!
//! `cargo run --release -p multisha --example pbkdf2_quick [-- --variants]`

use core::num::NonZeroU32;
use multisha::HashFunction;
use multisha::engine::{Interface, Pinned, PinnedMany};
use std::time::Instant;

/// A `multisha::pbkdf2_hmac_*` function.
type Derive = fn(&[u8], &[u8], NonZeroU32, &mut [u8]) -> Result<(), multisha::Pbkdf2Error>;

/// The fastest and the median of 15 timed runs of `f`, in milliseconds (after one warm-up
/// run).
fn time_ms(mut f: impl FnMut()) -> (f64, f64) {
    f();
    let mut times: Vec<f64> = (0..15)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[0], times[7])
}

/// One derivation: ours (dispatched and, with `--variants`, each variant) against RustCrypto.
fn row<H: HashFunction>(
    label: &str,
    iterations: u32,
    len: usize,
    ours: Derive,
    rustcrypto: fn(&[u8], &[u8], u32, &mut [u8]),
    variants: bool,
) {
    let c = NonZeroU32::new(iterations).expect("positive");
    let blocks = len.div_ceil(H::OUTPUT.len) as f64;
    let ns = |ms: f64| ms * 1e6 / (2.0 * f64::from(iterations) * blocks);
    let mut out = vec![0u8; len];
    let mut want = vec![0u8; len];
    let (theirs, theirs_median) =
        time_ms(|| rustcrypto(b"password", b"salt", iterations, &mut want));
    let (mine, mine_median) = time_ms(|| ours(b"password", b"salt", c, &mut out).expect("valid"));
    assert_eq!(out, want, "{label}");
    // The kernel's time per block on a long message, measured alongside: the bound.
    let long = vec![0x5a_u8; 1 << 18];
    let block_len = H::algorithm().block_len() as f64;
    let (bulk, _) = time_ms(|| {
        std::hint::black_box(H::oneshot(std::hint::black_box(&long)));
    });
    let per_block = bulk * 1e6 / (long.len() as f64 / block_len);
    println!(
        "{label:<30} multisha {mine:6.3} ms ({:5.1} ns/compr., median {mine_median:6.3})   \
         RustCrypto {theirs:6.3} ms ({:5.1} ns, median {theirs_median:6.3})   x{:.2}   [{}; \
         {per_block:.1} ns/block on a long message]",
        ns(mine),
        ns(theirs),
        theirs / mine,
        H::algorithm().active().variant
    );
    if variants {
        for v in H::algorithm().variants() {
            if !v.is_available() {
                continue;
            }
            if v.interface() == Interface::Many {
                let pin = PinnedMany::<H>::new(v.name()).expect("available");
                if !pin.has_pbkdf2_chains() || blocks < 2.0 {
                    continue;
                }
                let (ms, _) = time_ms(|| {
                    pin.pbkdf2_hmac(b"password", b"salt", c, &mut out)
                        .expect("ok")
                });
                assert_eq!(out, want, "{label} on {v}");
                println!(
                    "    {:<30} {ms:7.3} ms ({:5.1} ns/compression), chains side by side",
                    v.to_string(),
                    ns(ms)
                );
                continue;
            }
            let pin = Pinned::<H>::from_variant(v).expect("available");
            let (ms, _) = time_ms(|| {
                pin.pbkdf2_hmac(b"password", b"salt", c, &mut out)
                    .expect("ok")
            });
            assert_eq!(out, want, "{label} on {v}");
            println!(
                "    {:<30} {ms:7.3} ms ({:5.1} ns/compression)",
                v.to_string(),
                ns(ms)
            );
        }
    }
}

fn main() {
    let variants = std::env::args().any(|a| a == "--variants");
    row::<multisha::Sha256>(
        "SHA-256, 20,000 it, 32 B",
        20_000,
        32,
        multisha::pbkdf2_hmac_sha256,
        pbkdf2::pbkdf2_hmac::<sha2::Sha256>,
        variants,
    );
    row::<multisha::Sha1>(
        "SHA-1, 20,000 it, 20 B",
        20_000,
        20,
        multisha::pbkdf2_hmac_sha1,
        pbkdf2::pbkdf2_hmac::<sha1::Sha1>,
        variants,
    );
    row::<multisha::Sha1>(
        "SHA-1, 4096 it, 32 B (WPA2)",
        4096,
        32,
        multisha::pbkdf2_hmac_sha1,
        pbkdf2::pbkdf2_hmac::<sha1::Sha1>,
        variants,
    );
    row::<multisha::Sha256>(
        "SHA-256, 20,000 it, 64 B",
        20_000,
        64,
        multisha::pbkdf2_hmac_sha256,
        pbkdf2::pbkdf2_hmac::<sha2::Sha256>,
        variants,
    );
    row::<multisha::Sha512>(
        "SHA-512, 10,000 it, 64 B",
        10_000,
        64,
        multisha::pbkdf2_hmac_sha512,
        pbkdf2::pbkdf2_hmac::<sha2::Sha512>,
        variants,
    );
}
