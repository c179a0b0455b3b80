//! PBKDF2-HMAC on argument edges: every hash function on every single-message variant this CPU
//! runs (pinned) and dispatched, against RustCrypto's `pbkdf2`, with small iteration counts;
//! empty passwords, salts and outputs, passwords past a block, outputs across digest
//! multiples; the verification of the key and of a key with one byte flipped.
//!
//! Input: a byte choosing the hash function, a byte choosing the variant, a byte for the
//! iteration count (1 to 8), two for the output length (0 to 299), a byte splitting the rest
//! into password and salt.
#![no_main]

use core::num::NonZeroU32;
use libfuzzer_sys::fuzz_target;
use multisha::engine::{Interface, Pinned};
use multisha::{HashFunction, Pbkdf2Error};

/// Our derivation (pinned to the `variant`-th available variant, or dispatched past the
/// last) and its verification, against RustCrypto's derivation.
fn check<H: HashFunction>(
    variant: usize,
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    len: usize,
    dispatched: fn(&[u8], &[u8], NonZeroU32, &mut [u8]) -> Result<(), Pbkdf2Error>,
    verify: fn(&[u8], &[u8], NonZeroU32, &[u8]) -> Result<(), Pbkdf2Error>,
    reference: fn(&[u8], &[u8], u32, &mut [u8]),
) {
    let pins: Vec<Pinned<H>> = H::algorithm()
        .variants()
        .iter()
        .filter(|v| v.is_available() && v.interface() == Interface::Single)
        .map(|v| Pinned::from_variant(v).expect("available"))
        .collect();
    let mut ours = vec![0u8; len];
    let result = match pins.get(variant % (pins.len() + 1)) {
        Some(pin) => pin.pbkdf2_hmac(password, salt, iterations, &mut ours),
        None => dispatched(password, salt, iterations, &mut ours),
    };
    if len == 0 {
        assert_eq!(result, Err(Pbkdf2Error::EmptyOutput));
        assert_eq!(
            verify(password, salt, iterations, &[]),
            Err(Pbkdf2Error::EmptyOutput)
        );
        return;
    }
    result.expect("a valid length");
    let mut theirs = vec![0u8; len];
    reference(password, salt, iterations.get(), &mut theirs);
    assert_eq!(ours, theirs);
    assert_eq!(verify(password, salt, iterations, &theirs), Ok(()));
    theirs[variant % len] ^= 0x80;
    assert_eq!(
        verify(password, salt, iterations, &theirs),
        Err(Pbkdf2Error::Mismatch)
    );
}

fuzz_target!(|input: &[u8]| {
    let [f, v, c, l0, l1, split, rest @ ..] = input else {
        return;
    };
    let iterations = NonZeroU32::new(1 + u32::from(*c % 8)).expect("positive");
    let len = usize::from(u16::from_le_bytes([*l0, *l1]) % 300);
    let (password, salt) = rest.split_at(usize::from(*split).min(rest.len()));
    let variant = usize::from(*v);
    macro_rules! check {
        ($hasher:ty, $derive:ident, $verify:ident, $reference:ty) => {
            check::<$hasher>(
                variant,
                password,
                salt,
                iterations,
                len,
                multisha::$derive,
                multisha::$verify,
                pbkdf2::pbkdf2_hmac::<$reference>,
            )
        };
    }
    match f % 7 {
        0 => check!(
            multisha::Sha1,
            pbkdf2_hmac_sha1,
            pbkdf2_hmac_sha1_verify,
            sha1::Sha1
        ),
        1 => check!(
            multisha::Sha224,
            pbkdf2_hmac_sha224,
            pbkdf2_hmac_sha224_verify,
            sha2::Sha224
        ),
        2 => check!(
            multisha::Sha256,
            pbkdf2_hmac_sha256,
            pbkdf2_hmac_sha256_verify,
            sha2::Sha256
        ),
        3 => check!(
            multisha::Sha384,
            pbkdf2_hmac_sha384,
            pbkdf2_hmac_sha384_verify,
            sha2::Sha384
        ),
        4 => check!(
            multisha::Sha512,
            pbkdf2_hmac_sha512,
            pbkdf2_hmac_sha512_verify,
            sha2::Sha512
        ),
        5 => check!(
            multisha::Sha512_224,
            pbkdf2_hmac_sha512_224,
            pbkdf2_hmac_sha512_224_verify,
            sha2::Sha512_224
        ),
        _ => check!(
            multisha::Sha512_256,
            pbkdf2_hmac_sha512_256,
            pbkdf2_hmac_sha512_256_verify,
            sha2::Sha512_256
        ),
    }
});
