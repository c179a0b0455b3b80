//! The compression functions the engine carries variants of.

use core::fmt;

/// A compression function. SHA-224 is computed by the [`Algorithm::Sha256`] variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// SHA-1 (FIPS 180-4).
    Sha1,
    /// SHA-256, and SHA-224 from the same compression function (FIPS 180-4).
    Sha256,
}

impl Algorithm {
    /// Both algorithms, in a fixed order.
    pub const ALL: [Algorithm; 2] = [Algorithm::Sha1, Algorithm::Sha256];

    /// The environment variable that overrides this algorithm's variant at probe time.
    pub const fn env_var(self) -> &'static str {
        match self {
            Algorithm::Sha1 => "MULTISHA_SHA1",
            Algorithm::Sha256 => "MULTISHA_SHA256",
        }
    }

    /// The lower-case name used in tables and on the command line (`sha1`, `sha256`).
    pub const fn id(self) -> &'static str {
        match self {
            Algorithm::Sha1 => "sha1",
            Algorithm::Sha256 => "sha256",
        }
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Algorithm::Sha1 => "SHA-1",
            Algorithm::Sha256 => "SHA-256",
        })
    }
}
