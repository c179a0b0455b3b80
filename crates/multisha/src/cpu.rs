//! The one place that knows the CPU: which SHA-relevant features it has.
//!
//! [`CpuFeatures::detect`] probes the running CPU (through `cpufeatures`, which caches its
//! answer); tests and auditors build other sets with [`CpuFeatures::with`] and
//! [`CpuFeatures::without`] to ask what the dispatcher would do on another CPU.

use core::fmt;

/// A CPU feature some variant needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Feature {
    /// x86 SSE2.
    Sse2,
    /// x86 SSSE3 (`pshufb`, used for the byte swap of SHA-NI loads).
    Ssse3,
    /// x86 SSE4.1.
    Sse41,
    /// x86 SHA extensions (SHA-NI).
    Sha,
    /// x86 AVX2.
    Avx2,
    /// x86 BMI2 (`rorx`).
    Bmi2,
    /// AArch64 crypto extensions for SHA-1 and SHA-256 (`sha2` hwcap).
    Sha2,
}

impl Feature {
    /// Every feature, in display order.
    pub const ALL: [Feature; 7] = [
        Feature::Sse2,
        Feature::Ssse3,
        Feature::Sse41,
        Feature::Sha,
        Feature::Avx2,
        Feature::Bmi2,
        Feature::Sha2,
    ];

    /// The name Rust's `target_feature` uses for it.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::Sse2 => "sse2",
            Feature::Ssse3 => "ssse3",
            Feature::Sse41 => "sse4.1",
            Feature::Sha => "sha",
            Feature::Avx2 => "avx2",
            Feature::Bmi2 => "bmi2",
            Feature::Sha2 => "sha2",
        }
    }

    /// Whether the feature exists on the architecture this crate was built for.
    pub const fn is_native_arch(self) -> bool {
        const ARM: bool = cfg!(target_arch = "aarch64");
        const X86: bool = cfg!(any(target_arch = "x86_64", target_arch = "x86"));
        if let Feature::Sha2 = self { ARM } else { X86 }
    }

    const fn bit(self) -> u32 {
        1 << self as u8
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of CPU features.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CpuFeatures(u32);

// One cached probe per feature (cpufeatures keeps each answer in an atomic).
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
cpufeatures::new!(probe_sse2, "sse2");
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
cpufeatures::new!(probe_ssse3, "ssse3");
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
cpufeatures::new!(probe_sse41, "sse4.1");
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
cpufeatures::new!(probe_sha, "sha");
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
cpufeatures::new!(probe_avx2, "avx2");
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
cpufeatures::new!(probe_bmi2, "bmi2");
#[cfg(target_arch = "aarch64")]
cpufeatures::new!(probe_sha2, "sha2");

impl CpuFeatures {
    /// The empty set: a CPU with none of the features (only portable variants run).
    pub const fn none() -> Self {
        Self(0)
    }

    /// The features of the CPU this process runs on.
    pub fn detect() -> Self {
        #[allow(unused_mut)]
        let mut set = Self::none();
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        {
            let probes = [
                (Feature::Sse2, probe_sse2::get()),
                (Feature::Ssse3, probe_ssse3::get()),
                (Feature::Sse41, probe_sse41::get()),
                (Feature::Sha, probe_sha::get()),
                (Feature::Avx2, probe_avx2::get()),
                (Feature::Bmi2, probe_bmi2::get()),
            ];
            for (feature, present) in probes {
                if present {
                    set = set.with(feature);
                }
            }
        }
        #[cfg(target_arch = "aarch64")]
        if probe_sha2::get() {
            set = set.with(Feature::Sha2);
        }
        set
    }

    /// This set plus `feature`.
    #[must_use]
    pub const fn with(self, feature: Feature) -> Self {
        Self(self.0 | feature.bit())
    }

    /// This set minus `feature`.
    #[must_use]
    pub const fn without(self, feature: Feature) -> Self {
        Self(self.0 & !feature.bit())
    }

    /// Whether `feature` is in the set.
    pub const fn has(self, feature: Feature) -> bool {
        self.0 & feature.bit() != 0
    }

    /// Whether every one of `features` is in the set.
    pub fn has_all(self, features: &[Feature]) -> bool {
        features.iter().all(|&f| self.has(f))
    }

    /// The features of `features` missing from this set.
    pub fn missing(self, features: &[Feature]) -> CpuFeatures {
        features
            .iter()
            .filter(|&&f| !self.has(f))
            .fold(Self::none(), |s, &f| s.with(f))
    }

    /// The features in the set, in [`Feature::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Feature> {
        Feature::ALL.into_iter().filter(move |&f| self.has(f))
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for CpuFeatures {
    /// Space-separated feature names, or `(none)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("(none)");
        }
        for (i, feature) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(feature.name())?;
        }
        Ok(())
    }
}
