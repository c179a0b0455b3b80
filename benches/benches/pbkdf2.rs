//! Criterion benchmarks of PBKDF2-HMAC: the derivations of issue 20 through multisha and every
//! PBKDF2 peer (RustCrypto `pbkdf2` over its own hashers and over multisha's, ring, and with
//! the `openssl` feature OpenSSL and fastpbkdf2). `cargo bench -p multisha-benches --bench
//! pbkdf2`; `cargo xtask report` and the `pbkdf2_peers` example print the comparison table.

// `criterion_group!` defines an undocumented `pub fn`; nothing here is API.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use multisha_benches::{DERIVATIONS, PASSWORD, SALT, check_pbkdf2, pbkdf2_contenders};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    for derivation in &DERIVATIONS {
        let contenders = pbkdf2_contenders(derivation.hash);
        // No numbers for a contender that derives another key.
        if let Err(message) = check_pbkdf2(
            &contenders,
            PASSWORD,
            SALT,
            derivation.iterations,
            derivation.out_len,
        ) {
            panic!("{}: {message}", derivation.label());
        }
        let mut group = c.benchmark_group(format!("pbkdf2/{}", derivation.id()));
        // Milliseconds per derivation: criterion's default 100 samples would take minutes.
        group.sample_size(10);
        let mut out = vec![0u8; derivation.out_len];
        for contender in &contenders {
            group.bench_function(contender.name(), |b| {
                b.iter(|| {
                    contender.derive(
                        black_box(PASSWORD),
                        black_box(SALT),
                        derivation.iterations,
                        &mut out,
                    );
                    black_box(&out);
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
