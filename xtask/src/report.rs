//! `cargo xtask report`: builds and runs `multisha-report` from the `multisha-benches` crate in
//! release mode. The measuring code lives there, next to the peers it compares against, so it
//! runs optimized while this xtask stays a light debug build; the arguments pass through
//! unchanged (`--quick`, `--algo`, `--variants`, `--sizes`, `--out`, `--help`).
//!
//! The OpenSSL peer is built only where its headers are installed (libssl-dev, found by
//! pkg-config): a fresh machine runs the report without it, and the report says so.

use crate::system::{say, workspace_root};
use std::error::Error;
use std::process::Command;

/// Whether `openssl-sys` can build here: pkg-config finds the OpenSSL headers.
fn openssl_headers_found() -> bool {
    Command::new("pkg-config")
        .args(["--exists", "openssl"])
        .status()
        .is_ok_and(|status| status.success())
}

/// Runs the report with `args`; a failing report exits with the report's own status (2 for
/// bad arguments, after it printed the usage text) since it already explained itself.
pub(crate) fn run(args: &[String]) -> Result<(), Box<dyn Error>> {
    let features: &[&str] = if openssl_headers_found() {
        &["--features", "openssl"]
    } else {
        say("OpenSSL headers not found (libssl-dev, pkg-config): the OpenSSL peer is left out");
        &[]
    };
    let root = workspace_root();
    // The cargo that runs this xtask, so toolchain overrides carry over.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(&cargo)
        .current_dir(&root)
        // Not `--quiet`: the first release build of the peers takes a while and should show.
        .args(["run", "--release", "--package", "multisha-benches"])
        .args(features)
        .args(["--bin", "multisha-report", "--"])
        .args(args)
        .status()
        .map_err(|e| format!("running {}: {e}", cargo.to_string_lossy()))?;
    match status.code() {
        Some(0) => Ok(()),
        Some(code) => std::process::exit(code),
        None => Err(format!("multisha-report was killed ({status})").into()),
    }
}
