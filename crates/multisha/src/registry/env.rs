//! Every environment variable the engine reads, read here and nowhere else (with the `std`
//! feature): the CPU mask ([`CPU_MASK_VAR`], `MULTISHA_CPU`), the variant
//! overrides (each algorithm's [`env_var`](super::Algorithm::env_var) and
//! [`env_var_many`](super::Algorithm::env_var_many), `MULTISHA_SHA256=...`), and whether the
//! batch costs are measured ([`CALIBRATE_VAR`], `MULTISHA_CALIBRATE`). Each is read once per
//! process by its reader's cache (the probe, the slot, the setting below).

/// The environment variable that masks CPU features at probe time (`-sha,-avx512f`).
pub const CPU_MASK_VAR: &str = "MULTISHA_CPU";

/// The mask in [`CPU_MASK_VAR`], as written, if the variable is set.
#[cfg(feature = "std")]
pub(crate) fn cpu_mask_text() -> Option<std::string::String> {
    std::env::var_os(CPU_MASK_VAR).map(|value| value.to_string_lossy().into_owned())
}

/// The value of the override variable `var`, trimmed, if it is set and not blank.
#[cfg(feature = "std")]
pub(crate) fn variant_override(var: &str) -> Option<std::string::String> {
    let value = std::env::var_os(var)?;
    let value = value.to_string_lossy();
    let value = value.trim();
    (!value.is_empty()).then(|| value.into())
}

/// The environment variable that turns measuring off (`0`, `off`, `false`, `no`) or leaves it
/// on (`1`, `on`, `true`, `yes`; unset). Any other value is refused: measuring stays on, and
/// [`calibrate_setting`] says why.
#[cfg(feature = "std")]
pub(crate) const CALIBRATE_VAR: &str = "MULTISHA_CALIBRATE";

/// `MULTISHA_CALIBRATE` as read once: whether measuring is on, or the value refused (then it
/// stays on).
#[cfg(feature = "std")]
pub(crate) fn calibrate_setting() -> Result<bool, &'static str> {
    static SETTING: std::sync::OnceLock<Result<bool, std::string::String>> =
        std::sync::OnceLock::new();
    let read = SETTING.get_or_init(|| match std::env::var_os(CALIBRATE_VAR) {
        None => Ok(true),
        Some(value) => parse_calibrate(&value.to_string_lossy()).ok_or_else(|| {
            std::format!(
                "{CALIBRATE_VAR}={:?} is not one of 0, off, false, no (measuring off) or 1, on, \
                 true, yes (on): ignored, measuring stays on",
                value.to_string_lossy()
            )
        }),
    });
    read.as_ref().map(|&on| on).map_err(|e| e.as_str())
}

/// `value` as a setting of measuring: `Some(false)` for off, `Some(true)` for on (empty: on).
#[cfg(feature = "std")]
fn parse_calibrate(value: &str) -> Option<bool> {
    let value = value.trim();
    if value.is_empty() {
        return Some(true);
    }
    let is = |words: &[&str]| words.iter().any(|w| value.eq_ignore_ascii_case(w));
    if is(&["0", "off", "false", "no"]) {
        Some(false)
    } else if is(&["1", "on", "true", "yes"]) {
        Some(true)
    } else {
        None
    }
}
