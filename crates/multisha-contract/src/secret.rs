//! Wiping buffers that held key material (PBKDF2's key block, its pad blocks, `U`, `T`).
//!
//! A stack scan after the call cannot see these wipes when a later frame overwrites the same
//! bytes, so with the `wipe-observer` feature each wipe records what it saw under a name
//! ([`wipe_observer::take_secrets`](crate::wipe_observer::take_secrets)): a test can then
//! prove that every named buffer held data and was zero after, at its full size.

use zeroize::{DefaultIsZeroes, Zeroize};

/// Overwrites `values` with zeros in a way the optimiser cannot drop. With the
/// `wipe-observer` feature, records the wipe as `what`; without it, `what` costs nothing.
#[inline(always)]
pub fn wipe_secret<Z: DefaultIsZeroes + PartialEq>(what: &'static str, values: &mut [Z]) {
    #[cfg(feature = "wipe-observer")]
    let had_data = crate::wipe_observer::any_set(values);
    values.zeroize();
    #[cfg(feature = "wipe-observer")]
    crate::wipe_observer::record_secret(
        what,
        size_of_val(values),
        had_data,
        !crate::wipe_observer::any_set(values),
    );
    #[cfg(not(feature = "wipe-observer"))]
    let _ = what;
}
