//! Every single-message variant of every hash function, through its streaming hasher with
//! arbitrary update splits, clones and resets in the middle, against the RustCrypto hasher.
//!
//! Input: a byte choosing the hash function, a byte choosing the variant (among those this CPU
//! runs), then a program: each step's first byte picks the operation (update with the next
//! bytes, clone, reset, finalize-and-reset), its second byte a length.
#![no_main]

use digest::DynDigest;
use libfuzzer_sys::fuzz_target;
use multisha::engine::{Function, Interface};

/// The RustCrypto hasher of `function`.
fn reference(function: Function) -> Box<dyn DynDigest> {
    match function.id() {
        "sha1" => Box::new(<sha1::Sha1 as digest::Digest>::new()),
        "sha224" => Box::new(<sha2::Sha224 as digest::Digest>::new()),
        "sha256" => Box::new(<sha2::Sha256 as digest::Digest>::new()),
        "sha384" => Box::new(<sha2::Sha384 as digest::Digest>::new()),
        "sha512" => Box::new(<sha2::Sha512 as digest::Digest>::new()),
        "sha512_224" => Box::new(<sha2::Sha512_224 as digest::Digest>::new()),
        "sha512_256" => Box::new(<sha2::Sha512_256 as digest::Digest>::new()),
        other => panic!("no reference for {other}"),
    }
}

fuzz_target!(|input: &[u8]| {
    let [f, v, program @ ..] = input else { return };
    let function = Function::ALL[usize::from(*f) % Function::ALL.len()];
    let variants: Vec<_> = function
        .algorithm()
        .variants()
        .iter()
        .filter(|v| v.is_available() && v.interface() == Interface::Single)
        .collect();
    let variant = variants[usize::from(*v) % variants.len()];
    let mut ours = function
        .hasher_with_variant(variant.name())
        .expect("available");
    let mut theirs = reference(function);
    // Clones taken along the way, with the reference's clone at the same point.
    let mut clones: Vec<(Box<dyn DynDigest>, Box<dyn DynDigest>)> = Vec::new();
    let mut rest = program;
    while let [op, len, tail @ ..] = rest {
        rest = tail;
        match op % 8 {
            0..=4 => {
                let n = (usize::from(*len) * (1 + usize::from(op % 5))).min(rest.len());
                ours.update(&rest[..n]);
                theirs.update(&rest[..n]);
                rest = &rest[n..];
            }
            5 if clones.len() < 8 => clones.push((ours.box_clone(), theirs.box_clone())),
            6 => {
                ours.reset();
                theirs.reset();
            }
            _ => assert_eq!(
                ours.finalize_reset(),
                theirs.finalize_reset(),
                "{function} on {variant}: finalize_reset"
            ),
        }
    }
    ours.update(rest);
    theirs.update(rest);
    assert_eq!(
        ours.finalize(),
        theirs.finalize(),
        "{function} on {variant}"
    );
    for (mut ours, mut theirs) in clones {
        ours.update(b"clone");
        theirs.update(b"clone");
        assert_eq!(
            ours.finalize(),
            theirs.finalize(),
            "{function} on {variant}: a clone"
        );
    }
});
