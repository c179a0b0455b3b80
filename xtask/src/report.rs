//! `cargo xtask report`: builds and runs `multisha-report` from the `multisha-benches` crate in
//! release mode. The measuring code lives there, next to the peers it compares against, so it
//! runs optimized while this xtask stays a light debug build; the arguments pass through
//! unchanged (`--quick`, `--algo`, `--variants`, `--sizes`, `--out`, `--help`).

use crate::system::{apt_install, say, workspace_root};
use std::error::Error;
use std::process::Command;

/// The OpenSSL peer builds `openssl-sys`, which needs the OpenSSL headers found by pkg-config.
fn ensure_openssl_headers() -> Result<(), Box<dyn Error>> {
    let found = Command::new("pkg-config")
        .args(["--exists", "openssl"])
        .status()
        .is_ok_and(|status| status.success());
    if !found {
        say("the OpenSSL peer needs libssl-dev and pkg-config; installing them");
        apt_install(&["libssl-dev", "pkg-config"])
            .map_err(|e| format!("{e}; install libssl-dev and pkg-config, then run again"))?;
    }
    Ok(())
}

/// Runs the report with `args`; a failing report exits with the report's own status (2 for
/// bad arguments, after it printed the usage text) since it already explained itself.
pub(crate) fn run(args: &[String]) -> Result<(), Box<dyn Error>> {
    ensure_openssl_headers()?;
    let root = workspace_root();
    // The cargo that runs this xtask, so toolchain overrides carry over.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(&cargo)
        .current_dir(&root)
        // Not `--quiet`: the first release build of the peers takes a while and should show.
        .args(["run", "--release", "--package", "multisha-benches"])
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
