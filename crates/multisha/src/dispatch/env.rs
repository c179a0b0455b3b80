//! The environment variables the dispatcher reads: the variant overrides
//! (`MULTISHA_SHA256=...`, `MULTISHA_SHA256_MANY=...`).

/// The value of the override variable `var`, trimmed, if it is set and not blank.
#[cfg(feature = "std")]
pub(crate) fn variant_override(var: &str) -> Option<std::string::String> {
    let value = std::env::var_os(var)?;
    let value = value.to_string_lossy();
    let value = value.trim();
    (!value.is_empty()).then(|| value.into())
}
