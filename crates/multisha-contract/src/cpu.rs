//! The one place that knows the CPU: the features some variant needs, sets of them, and the
//! probe of the running CPU.
//!
//! A kernel names its features once, as Rust `target_feature` names, in its declaration
//! ([`crate::declare_variant!`]); the same names become its `#[target_feature]` attributes and,
//! through [`CpuFeatures::from_names`] at compile time, its declared requirements.
//! [`CpuFeatures::detect`] probes the running CPU (x86-64: one pass of `cpuid`; AArch64:
//! through `cpufeatures`); tests and auditors build other sets with [`CpuFeatures::with`] and
//! [`CpuFeatures::without`] to ask what the dispatcher would do on another CPU.
//! [`parse_mask`] reads a mask that removes features from the probe's answer (the `multisha`
//! crate applies `MULTISHA_CPU` with it, to run as a smaller CPU); `detect` itself always
//! answers for the real CPU.

use core::fmt;

/// Declares [`Feature`] and its tables from one list: variant, `target_feature` name,
/// architecture.
macro_rules! features {
    ($($(#[$doc:meta])* $variant:ident = $name:literal on $arch:literal,)*) => {
        /// A CPU feature some variant needs, named as Rust's `target_feature` names it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum Feature {
            $($(#[$doc])* $variant,)*
        }

        impl Feature {
            /// Every feature, in display order.
            pub const ALL: &'static [Feature] = &[$(Feature::$variant,)*];

            /// The name Rust's `target_feature` uses for it (`"sha"`, `"avx2"`, `"sha3"`).
            pub const fn name(self) -> &'static str {
                match self {
                    $(Feature::$variant => $name,)*
                }
            }

            /// The architecture the feature belongs to (`"x86_64"` or `"aarch64"`).
            pub const fn arch(self) -> &'static str {
                match self {
                    $(Feature::$variant => $arch,)*
                }
            }

            /// The feature called `name`, if there is one.
            pub const fn from_name(name: &str) -> Option<Feature> {
                $(if str_eq(name, $name) {
                    return Some(Feature::$variant);
                })*
                None
            }
        }
    };
}

features! {
    /// x86 SSE2.
    Sse2 = "sse2" on "x86_64",
    /// x86 SSSE3 (`pshufb`, the byte swap of SHA-NI loads).
    Ssse3 = "ssse3" on "x86_64",
    /// x86 SSE4.1.
    Sse41 = "sse4.1" on "x86_64",
    /// x86 SHA extensions (SHA-NI: SHA-1 and SHA-256 instructions).
    Sha = "sha" on "x86_64",
    /// x86 AVX2.
    Avx2 = "avx2" on "x86_64",
    /// x86 BMI1 (`andn`).
    Bmi1 = "bmi1" on "x86_64",
    /// x86 BMI2 (`rorx`).
    Bmi2 = "bmi2" on "x86_64",
    /// x86 AVX-512 Foundation (512-bit vectors, rotates, ternary logic).
    Avx512f = "avx512f" on "x86_64",
    /// x86 AVX-512 Byte and Word (512-bit byte shuffles).
    Avx512bw = "avx512bw" on "x86_64",
    /// x86 AVX-512 Vector Length (the AVX-512 instructions on 128/256-bit vectors).
    Avx512vl = "avx512vl" on "x86_64",
    /// AArch64 SHA-1 and SHA-256 instructions (FEAT_SHA1, FEAT_SHA256).
    Sha2 = "sha2" on "aarch64",
    /// AArch64 SHA-512 and SHA-3 instructions (FEAT_SHA512, FEAT_SHA3).
    Sha3 = "sha3" on "aarch64",
}

/// `a == b` in a `const fn` (feature names here, variant names in the registry's checks).
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl Feature {
    /// Whether the feature exists on the architecture this crate was built for.
    pub fn is_native_arch(self) -> bool {
        str_eq(self.arch(), TARGET_ARCH)
    }

    const fn bit(self) -> u32 {
        1 << self as u8
    }

    /// The feature every CPU with this one also has, if any: a CPU without it has none of
    /// the features that imply it (AVX-512 implies AVX2, AVX2 SSE4.1, ...). Not an
    /// architectural rule for SHA (it is how every CPU with SHA extensions is built, and what
    /// the kernels that use them require).
    const fn implies(self) -> Option<Feature> {
        match self {
            Feature::Ssse3 => Some(Feature::Sse2),
            Feature::Sse41 => Some(Feature::Ssse3),
            Feature::Sha | Feature::Avx2 => Some(Feature::Sse41),
            Feature::Avx512f => Some(Feature::Avx2),
            Feature::Avx512bw | Feature::Avx512vl => Some(Feature::Avx512f),
            Feature::Sha3 => Some(Feature::Sha2),
            _ => None,
        }
    }
}

/// The architecture this crate was built for, in the words of [`Feature::arch`].
const TARGET_ARCH: &str = if cfg!(target_arch = "x86_64") {
    "x86_64"
} else if cfg!(target_arch = "aarch64") {
    "aarch64"
} else {
    "other"
};

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of CPU features.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CpuFeatures(u32);

// AArch64: one cached probe per feature (cpufeatures reads the OS's hardware capabilities,
// one `getauxval` call, and keeps each answer in an atomic).
#[cfg(target_arch = "aarch64")]
cpufeatures::new!(probe_sha2, "sha2");
#[cfg(target_arch = "aarch64")]
cpufeatures::new!(probe_sha3, "sha3");

/// x86-64: every feature from one pass of `cpuid` (leaves 1 and 7) and one `xgetbv`.
/// Under a hypervisor each `cpuid` traps (4-7 us on the AMD EPYC virtual machine measured);
/// `cpufeatures` asks three leaves per feature, so probing the ten features one by one cost
/// 27 of them, 118-127 us of a process's first hash. Leaf 0 (the highest leaf) is not asked:
/// a CPU with XSAVE has leaf 13 (XSAVE's own), so leaf 7 exists wherever XSAVE is reported.
#[cfg(target_arch = "x86_64")]
mod x86_probe {
    use super::{CpuFeatures, Feature};
    use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};

    /// A feature's bit in leaf 1's ECX or EDX, or leaf 7's EBX, and the register state the OS
    /// must save for it (XCR0's bits: none, the YMM or the ZMM state), as `cpufeatures` checks.
    enum Bit {
        Leaf1Ecx(u32),
        Leaf1Edx(u32),
        Leaf7Ebx(u32, u64),
    }

    /// XCR0: SSE and AVX state.
    const YMM: u64 = 0b110;
    /// XCR0: SSE, AVX, opmask and the upper ZMM registers.
    const ZMM: u64 = 0b1110_0110;

    const BITS: [(Feature, Bit); 10] = [
        (Feature::Sse2, Bit::Leaf1Edx(26)),
        (Feature::Ssse3, Bit::Leaf1Ecx(9)),
        (Feature::Sse41, Bit::Leaf1Ecx(19)),
        (Feature::Sha, Bit::Leaf7Ebx(29, 0)),
        (Feature::Avx2, Bit::Leaf7Ebx(5, YMM)),
        (Feature::Bmi1, Bit::Leaf7Ebx(3, 0)),
        (Feature::Bmi2, Bit::Leaf7Ebx(8, 0)),
        (Feature::Avx512f, Bit::Leaf7Ebx(16, ZMM)),
        (Feature::Avx512bw, Bit::Leaf7Ebx(30, ZMM)),
        (Feature::Avx512vl, Bit::Leaf7Ebx(31, ZMM)),
    ];

    /// The features `cpuid` reports and the OS has enabled.
    pub(super) fn detect() -> CpuFeatures {
        let leaf1 = __cpuid(1);
        // Leaf 7 only where the CPU surely has it (past the highest leaf, Intel CPUs answer
        // with the highest leaf's data): XSAVE (leaf 1, ECX bit 26) is enumerated by leaf 13,
        // so the highest leaf is 13 or more. Every CPU with AVX has XSAVE; one that hid XSAVE
        // and had SHA would lose SHA here, never gain a feature it lacks.
        let leaf7_ebx = if leaf1.ecx & (1 << 26) != 0 {
            __cpuid_count(7, 0).ebx
        } else {
            0
        };
        // OSXSAVE: the OS manages the extended state, and `xgetbv` may be executed.
        let xcr0 = if leaf1.ecx & (1 << 27) != 0 {
            // SAFETY: `xgetbv` with ECX = 0 is defined wherever CPUID.1:ECX.OSXSAVE is set,
            // checked just above.
            unsafe { _xgetbv(0) }
        } else {
            0
        };
        BITS.iter()
            .filter(|(_, bit)| match *bit {
                Bit::Leaf1Ecx(n) => leaf1.ecx & (1 << n) != 0,
                Bit::Leaf1Edx(n) => leaf1.edx & (1 << n) != 0,
                Bit::Leaf7Ebx(n, state) => leaf7_ebx & (1 << n) != 0 && xcr0 & state == state,
            })
            .fold(CpuFeatures::none(), |set, &(feature, _)| set.with(feature))
    }
}

impl CpuFeatures {
    /// The empty set: a CPU with none of the features (only portable variants run).
    pub const fn none() -> Self {
        Self(0)
    }

    /// The set of the features called `names` (Rust `target_feature` names).
    ///
    /// # Panics
    /// On a name that is not a [`Feature`]; in a `const` or `static` (where declarations use
    /// it) that is a compile error, so a kernel cannot declare a feature the engine does not
    /// know.
    pub const fn from_names(names: &[&str]) -> Self {
        let mut set = Self::none();
        let mut i = 0;
        while i < names.len() {
            match Feature::from_name(names[i]) {
                Some(feature) => set = set.with(feature),
                None => panic!("unknown CPU feature name in a variant declaration"),
            }
            i += 1;
        }
        set
    }

    /// The features of the CPU this process runs on (each call probes anew: the engine
    /// reads it once per process).
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        return x86_probe::detect();
        #[cfg(target_arch = "aarch64")]
        {
            let mut set = Self::none();
            if probe_sha2::get() {
                set = set.with(Feature::Sha2);
            }
            if probe_sha3::get() {
                set = set.with(Feature::Sha3);
            }
            set
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        Self::none()
    }

    /// Every feature of this build's architecture.
    pub fn native() -> Self {
        Feature::ALL
            .iter()
            .filter(|f| f.is_native_arch())
            .fold(Self::none(), |set, &f| set.with(f))
    }

    /// This set plus every feature that implies one of its features
    /// ([`Feature`]'s implications, followed to the end): what a CPU without this set's
    /// features also lacks.
    #[must_use]
    pub const fn with_dependents(self) -> Self {
        let mut set = self;
        loop {
            let mut grown = set;
            let mut i = 0;
            while i < Feature::ALL.len() {
                let feature = Feature::ALL[i];
                if let Some(implied) = feature.implies()
                    && set.has(implied)
                {
                    grown = grown.with(feature);
                }
                i += 1;
            }
            if grown.0 == set.0 {
                return set;
            }
            set = grown;
        }
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

    /// Whether every feature of `other` is in this set.
    pub const fn contains(self, other: CpuFeatures) -> bool {
        self.0 & other.0 == other.0
    }

    /// The features of `other` missing from this set.
    #[must_use]
    pub const fn missing(self, other: CpuFeatures) -> CpuFeatures {
        Self(other.0 & !self.0)
    }

    /// The features in the set, in [`Feature::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Feature> {
        Feature::ALL.iter().copied().filter(move |&f| self.has(f))
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every feature in the set belongs to the architecture this crate was built for
    /// (a variant of another architecture has at least one that does not).
    pub fn is_native_arch(self) -> bool {
        self.iter().all(Feature::is_native_arch)
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

impl fmt::Debug for CpuFeatures {
    /// `CpuFeatures(sse2 sha)`: the names, never the bit pattern.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CpuFeatures({self})")
    }
}

/// Reads a CPU mask: comma-separated `-feature` entries (`-sha,-avx512f`), each naming a
/// [`Feature`] of this build's architecture; spaces around entries and empty entries are
/// allowed. Returns the features to remove from the probe's answer: those named and every
/// feature that implies one of them ([`CpuFeatures::with_dependents`]: `-avx2` removes the
/// AVX-512 features too, as no CPU without AVX2 has them), so that no masked run executes an
/// instruction of a feature it removed.
///
/// A mask can only remove: `+feature` is an error, as is an unknown name or a feature of
/// another architecture (most likely a typo: `-sha2` on x86-64 for `-sha`), so a mistyped
/// mask is reported rather than run as the full CPU unnoticed.
///
/// # Errors
/// The first bad entry, with what is wrong with it.
pub fn parse_mask(text: &str) -> Result<CpuFeatures, MaskError> {
    let mut removed = CpuFeatures::none();
    for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let problem = if let Some(name) = entry.strip_prefix('-') {
            match Feature::from_name(name.trim()) {
                Some(feature) if feature.is_native_arch() => {
                    removed = removed.with(feature);
                    continue;
                }
                Some(feature) => MaskProblem::OtherArch(feature.arch()),
                None => MaskProblem::Unknown,
            }
        } else if entry.starts_with('+') {
            MaskProblem::Adds
        } else {
            MaskProblem::NoSign
        };
        return Err(MaskError::new(problem, entry));
    }
    Ok(removed.with_dependents())
}

/// What is wrong with an entry of a CPU mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MaskProblem {
    /// `-name` where `name` is no [`Feature`].
    Unknown,
    /// `-name` where `name` is a feature of another architecture.
    OtherArch(&'static str),
    /// `+name`: a mask cannot add what the CPU lacks.
    Adds,
    /// `name` without a sign.
    NoSign,
}

/// Longest entry a [`MaskError`] quotes whole.
const ENTRY_CAPACITY: usize = 24;

/// A bad entry of a CPU mask ([`parse_mask`]), quoted (cut to 24 bytes) with what is wrong.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MaskError {
    problem: MaskProblem,
    entry: [u8; ENTRY_CAPACITY],
    len: u8,
    truncated: bool,
}

impl MaskError {
    fn new(problem: MaskProblem, entry: &str) -> Self {
        let mut end = entry.len().min(ENTRY_CAPACITY);
        while !entry.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0; ENTRY_CAPACITY];
        bytes[..end].copy_from_slice(&entry.as_bytes()[..end]);
        Self {
            problem,
            entry: bytes,
            len: end as u8,
            truncated: end < entry.len(),
        }
    }

    /// The bad entry as written (cut to 24 bytes at a character boundary).
    pub fn entry(&self) -> &str {
        // The bytes are a prefix of a `str` cut at a character boundary.
        core::str::from_utf8(&self.entry[..usize::from(self.len)]).unwrap_or("")
    }

    /// Whether the entry tried to add a feature (`+name`).
    pub fn is_addition(&self) -> bool {
        self.problem == MaskProblem::Adds
    }

    /// Whether the entry names no feature known to this build (`-name` with an unknown
    /// name, or a feature of another architecture).
    pub fn is_unknown_feature(&self) -> bool {
        matches!(
            self.problem,
            MaskProblem::Unknown | MaskProblem::OtherArch(_)
        )
    }
}

impl fmt::Display for MaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entry = self.entry();
        let dots = if self.truncated { "…" } else { "" };
        let name = entry.trim_start_matches(['-', '+']).trim();
        match self.problem {
            MaskProblem::Unknown => {
                write!(f, "unknown CPU feature \"{name}{dots}\" (known here:")?;
                for feature in Feature::ALL.iter().filter(|f| f.is_native_arch()) {
                    write!(f, " {feature}")?;
                }
                f.write_str(")")
            }
            MaskProblem::OtherArch(arch) => write!(
                f,
                "CPU feature \"{name}\" is an {arch} feature, not one of this {TARGET_ARCH} build"
            ),
            MaskProblem::Adds => write!(
                f,
                "\"{entry}{dots}\": a mask can only remove features (-{name}{dots})"
            ),
            MaskProblem::NoSign => write!(
                f,
                "\"{entry}{dots}\": each entry is -FEATURE (a mask only removes features)"
            ),
        }
    }
}

impl fmt::Debug for MaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MaskError({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;
    use std::string::ToString;

    /// The one-pass probe answers as std's detection does, feature by feature (std asks
    /// `cpuid` and `xgetbv` on its own; valgrind's and a VM's CPUs lack some features, which
    /// both must then leave out alike).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_probe_agrees_with_std_on_every_feature() {
        let detected = CpuFeatures::detect();
        for (feature, std_says) in [
            (Feature::Sse2, std::is_x86_feature_detected!("sse2")),
            (Feature::Ssse3, std::is_x86_feature_detected!("ssse3")),
            (Feature::Sse41, std::is_x86_feature_detected!("sse4.1")),
            (Feature::Sha, std::is_x86_feature_detected!("sha")),
            (Feature::Avx2, std::is_x86_feature_detected!("avx2")),
            (Feature::Bmi1, std::is_x86_feature_detected!("bmi1")),
            (Feature::Bmi2, std::is_x86_feature_detected!("bmi2")),
            (Feature::Avx512f, std::is_x86_feature_detected!("avx512f")),
            (Feature::Avx512bw, std::is_x86_feature_detected!("avx512bw")),
            (Feature::Avx512vl, std::is_x86_feature_detected!("avx512vl")),
        ] {
            assert_eq!(detected.has(feature), std_says, "{feature}");
        }
        let x86: usize = Feature::ALL.iter().filter(|f| f.is_native_arch()).count();
        assert_eq!(
            x86, 10,
            "a new x86 feature needs its bit in the probe and here"
        );
    }

    #[test]
    fn names_round_trip() {
        for &feature in Feature::ALL {
            assert_eq!(Feature::from_name(feature.name()), Some(feature));
        }
        assert_eq!(Feature::from_name("sse4"), None);
    }

    #[test]
    fn sets_compose_and_print_names() {
        let set = CpuFeatures::from_names(&["sha", "sse2"]);
        assert!(set.has(Feature::Sha) && set.has(Feature::Sse2) && !set.has(Feature::Avx2));
        assert_eq!(set.to_string(), "sse2 sha");
        assert_eq!(format!("{set:?}"), "CpuFeatures(sse2 sha)");
        assert_eq!(set.without(Feature::Sha).to_string(), "sse2");
        assert_eq!(CpuFeatures::none().to_string(), "(none)");
        assert_eq!(
            CpuFeatures::none().with(Feature::Sse2).missing(set),
            CpuFeatures::none().with(Feature::Sha)
        );
        assert!(set.contains(CpuFeatures::none().with(Feature::Sha)));
    }

    #[test]
    fn masks_remove_the_named_features_and_those_that_imply_them() {
        let native: std::vec::Vec<Feature> = Feature::ALL
            .iter()
            .copied()
            .filter(|f| f.is_native_arch())
            .collect();
        assert_eq!(parse_mask(""), Ok(CpuFeatures::none()));
        assert_eq!(parse_mask(" , "), Ok(CpuFeatures::none()));
        let mut all = CpuFeatures::none();
        let mut text = std::string::String::new();
        for &feature in &native {
            let one = parse_mask(&format!("-{feature}")).expect("a native feature");
            assert!(one.has(feature), "{feature}");
            // Besides the named feature, only features that imply it.
            for other in one.without(feature).iter() {
                assert!(
                    CpuFeatures::none()
                        .with(feature)
                        .with_dependents()
                        .has(other),
                    "{feature} took {other}"
                );
            }
            all = all.with(feature);
            text.push_str(&format!(" -{feature} ,"));
        }
        assert_eq!(parse_mask(&text), Ok(all), "{text}");
        #[cfg(target_arch = "x86_64")]
        {
            let set = parse_mask("-sha,-avx512f").expect("valid");
            assert_eq!(set.to_string(), "sha avx512f avx512bw avx512vl");
            // Every feature that implies a removed one goes too: no AVX-512 without AVX2.
            assert_eq!(
                parse_mask("-avx2"),
                Ok(CpuFeatures::from_names(&[
                    "avx2", "avx512f", "avx512bw", "avx512vl"
                ]))
            );
            assert_eq!(
                parse_mask("-sse2"),
                Ok(CpuFeatures::native()
                    .without(Feature::Bmi1)
                    .without(Feature::Bmi2))
            );
            assert_eq!(parse_mask("-bmi2"), Ok(CpuFeatures::from_names(&["bmi2"])));
        }
        #[cfg(target_arch = "aarch64")]
        assert_eq!(
            parse_mask("-sha2"),
            Ok(CpuFeatures::from_names(&["sha2", "sha3"]))
        );
    }

    #[test]
    fn bad_mask_entries_are_errors_that_quote_them() {
        // A valid entry of this architecture first, then the bad one.
        let native = if cfg!(target_arch = "aarch64") {
            "-sha2"
        } else {
            "-sha"
        };
        let error = parse_mask(&format!("{native},-avx51f")).expect_err("unknown");
        assert!(error.is_unknown_feature() && !error.is_addition());
        assert_eq!(error.entry(), "-avx51f");
        let text = error.to_string();
        assert!(
            text.starts_with("unknown CPU feature \"avx51f\" (known here: "),
            "{text}"
        );
        let error = parse_mask("+sse2").expect_err("adds");
        assert!(error.is_addition());
        assert_eq!(
            error.to_string(),
            "\"+sse2\": a mask can only remove features (-sse2)"
        );
        let error = parse_mask("sha").expect_err("no sign");
        assert!(!error.is_addition() && !error.is_unknown_feature());
        assert!(error.to_string().contains("each entry is -FEATURE"));
        let foreign = if cfg!(target_arch = "aarch64") {
            "sha"
        } else {
            "sha2"
        };
        let error = parse_mask(&format!("-{foreign}")).expect_err("other architecture");
        assert!(error.is_unknown_feature());
        assert!(
            error.to_string().contains(" feature, not one of this "),
            "{error}"
        );
        let long = parse_mask("-a-very-long-name-that-is-no-feature").expect_err("unknown");
        assert_eq!(long.entry().len(), ENTRY_CAPACITY);
        assert!(long.to_string().contains("…\""), "{long}");
    }
}
