//! `cargo xtask report`: builds and runs `multisha-report` from the `multisha-benches` crate in
//! release mode. The measuring code lives there, next to the peers it compares against, so it
//! runs optimized while this xtask stays a light debug build; the arguments pass through
//! unchanged (`--quick`, `--algo`, `--variants`, `--sizes`, `--out`, `--help`).

use std::error::Error;
use std::path::Path;
use std::process::Command;

/// Runs the report with `args`; a failing report exits with the report's own status (2 for
/// bad arguments, after it printed the usage text) since it already explained itself.
pub(crate) fn run(args: &[String]) -> Result<(), Box<dyn Error>> {
    // The workspace root is the parent of this crate's manifest directory.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("the xtask crate has no parent directory")?;
    // The cargo that runs this xtask, so toolchain overrides carry over.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(&cargo)
        .current_dir(root)
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
