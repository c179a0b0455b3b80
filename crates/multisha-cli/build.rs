//! Links libgcc's unwinder into the `multisha` binary (what gcc's `-static-libgcc` does) on
//! Linux with glibc, so that starting it does not load `libgcc_s.so.1`.
//!
//! Why: the library's constructor (`__cpu_indicator_init`) runs some twenty `cpuid`, each a
//! trap under a hypervisor. `multisha sha256sum` on one small file took 0.89-0.91 times the
//! speed of GNU `sha256sum` with it and 0.97-1.03 times without it (process wall time, median
//! of 300 runs, Intel Xeon VM); a process that hashes a few small files is mostly its start.
//!
//! How: Rust's standard library asks the linker for `-lgcc_s`; a linker script of that name,
//! first on the search path, names libgcc's static unwinder (`libgcc_eh.a`, which gcc ships)
//! in its place. Where that archive cannot be found (another C toolchain, a cross linker not
//! configured), nothing changes: the binary links `libgcc_s` as before. The CLI's tests check
//! which of the two the build did.

use std::env;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");
    let unwinder = static_unwinder();
    // What the tests check the binary against.
    println!(
        "cargo:rustc-env=MULTISHA_CLI_UNWINDER={}",
        match &unwinder {
            Ok(_) => "static".to_string(),
            Err(why) => format!("dynamic: {why}"),
        }
    );
    let Ok(archive) = unwinder else { return };
    let dir = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("unwinder");
    fs::create_dir_all(&dir).expect("the build script's output folder is writable");
    fs::write(
        dir.join("libgcc_s.so"),
        format!("INPUT(\"{}\")\n", archive.display()),
    )
    .expect("the build script's output folder is writable");
    println!("cargo:rustc-link-search=native={}", dir.display());
}

/// libgcc's static unwinder for the target, or why it is not used.
fn static_unwinder() -> Result<PathBuf, String> {
    let target_is = |key: &str, value: &str| env::var(key).is_ok_and(|v| v == value);
    if !(target_is("CARGO_CFG_TARGET_OS", "linux") && target_is("CARGO_CFG_TARGET_ENV", "gnu")) {
        return Err("not a Linux glibc target".into());
    }
    // The linker cargo was told to use for the target; `cc` only when building for this
    // machine (for another target, the host's archive would be the wrong one).
    let linker = match env::var("RUSTC_LINKER") {
        Ok(linker) => linker,
        Err(_) if env::var("TARGET").ok() == env::var("HOST").ok() => "cc".into(),
        Err(_) => return Err("a cross build with no linker configured".into()),
    };
    let output = Command::new(&linker)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
        .map_err(|e| format!("`{linker} -print-file-name=libgcc_eh.a` did not run: {e}"))?;
    let path = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
    // gcc prints the bare name back when it has no such file; clang may print a path that is
    // not there.
    if output.status.success() && path.is_absolute() && path.is_file() {
        Ok(path)
    } else {
        Err(format!("`{linker}` has no libgcc_eh.a"))
    }
}
