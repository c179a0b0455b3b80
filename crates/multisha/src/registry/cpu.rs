//! The CPU as the engine sees it: the probe's answer ([`CpuFeatures::detect`]) minus the mask
//! in `MULTISHA_CPU` (with the `std` feature), read once per process. Every question of what
//! "this CPU" runs goes through [`cpu_features`]: the dispatcher, `force`, the pinned variants,
//! [`Variant::is_available`](crate::engine::Variant::is_available), and through them the CLI
//! and the report, so a masked run behaves end to end as a CPU without those features would.

use super::env::CPU_MASK_VAR;
use core::fmt;
use multisha_contract::{CpuFeatures, MaskError};

/// A CPU mask as read from [`CPU_MASK_VAR`]: its text and the features it removes, or why it
/// was refused.
///
/// Entries are comma-separated `-feature` names ([`Feature::name`](crate::engine::Feature));
/// the named features are removed, and every feature that implies one of them (`-avx2`
/// removes the AVX-512 features too: no CPU without AVX2 has them). The mask fails closed: a
/// mask with a bad entry (an unknown name such as `-avx512` for `-avx512f`, a feature of
/// another architecture, a `+feature`: a mask cannot add what the CPU lacks) cannot say what
/// it meant to remove, so it removes every feature (the portable variants run), and is
/// reported by [`active`](crate::engine::active), `multisha variants`, the report and, on
/// standard error, the CLI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuMask {
    #[cfg(feature = "std")]
    text: std::string::String,
    parsed: Result<CpuFeatures, MaskError>,
}

impl CpuMask {
    /// The mask written as `text` (what [`cpu_mask`] reads from the environment).
    #[cfg(feature = "std")]
    pub fn parse(text: &str) -> Self {
        let text = text.trim();
        Self {
            text: text.into(),
            parsed: multisha_contract::parse_mask(text),
        }
    }

    /// The mask as written (trimmed).
    pub fn text(&self) -> &str {
        #[cfg(feature = "std")]
        return &self.text;
        #[cfg(not(feature = "std"))]
        ""
    }

    /// The features it removes: every feature when it was refused.
    pub fn removed(&self) -> CpuFeatures {
        self.parsed.unwrap_or_else(|_| CpuFeatures::native())
    }

    /// Why it was refused, if it was.
    pub fn error(&self) -> Option<MaskError> {
        self.parsed.err()
    }

    /// `features` without the features the mask removes.
    pub fn apply(&self, features: CpuFeatures) -> CpuFeatures {
        self.removed().iter().fold(features, CpuFeatures::without)
    }
}

impl fmt::Display for CpuMask {
    /// `MULTISHA_CPU=-sha (removes sha)`, or `MULTISHA_CPU=+sha refused, every feature
    /// removed: ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{CPU_MASK_VAR}={}", self.text())?;
        match self.parsed {
            Ok(removed) => write!(f, " (removes {removed})"),
            Err(error) => write!(
                f,
                " refused, every feature removed (portable variants only): {error}"
            ),
        }
    }
}

/// What the probe found, read once.
#[cfg(feature = "std")]
struct Probe {
    features: CpuFeatures,
    mask: Option<CpuMask>,
}

#[cfg(feature = "std")]
fn probe() -> &'static Probe {
    static PROBE: std::sync::OnceLock<Probe> = std::sync::OnceLock::new();
    PROBE.get_or_init(|| {
        let mask = super::env::cpu_mask_text()
            .map(|text| CpuMask::parse(&text))
            .filter(|mask| !mask.text().is_empty());
        let detected = CpuFeatures::detect();
        let features = mask.as_ref().map_or(detected, |m| m.apply(detected));
        Probe { features, mask }
    })
}

/// The CPU features the engine works with: those of the CPU this process runs on, minus the
/// features the mask in `MULTISHA_CPU` removes (read once per process, with the `std`
/// feature). What the dispatcher chooses from, what `force` and the pinned variants check, and
/// what [`Variant::is_available`](crate::engine::Variant::is_available) asks.
/// [`CpuFeatures::detect`] still answers for the real CPU.
pub fn cpu_features() -> CpuFeatures {
    #[cfg(feature = "std")]
    return probe().features;
    #[cfg(not(feature = "std"))]
    CpuFeatures::detect()
}

/// The mask read from `MULTISHA_CPU`, if the variable is set and not empty (always `None`
/// without the `std` feature). A refused mask is returned too, with its error.
pub fn cpu_mask() -> Option<&'static CpuMask> {
    #[cfg(feature = "std")]
    return probe().mask.as_ref();
    #[cfg(not(feature = "std"))]
    None
}
