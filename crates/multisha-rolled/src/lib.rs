//! Rolled kernels: one round per loop iteration.
//!
//! The smallest code of all variants (a few hundred bytes each), which matters when the
//! instruction cache is cold and messages are short.
#![no_std]

pub mod sha1;
pub mod sha256;
