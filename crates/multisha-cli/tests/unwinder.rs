//! The binary starts without loading `libgcc_s.so.1` on Linux with glibc: the build script
//! links libgcc's unwinder statically (its docs say why: that library's constructor costs a
//! process that hashes a few small files a tenth of its wall time under a hypervisor).

#![cfg(all(target_os = "linux", target_env = "gnu"))]

const EXE: &str = env!("CARGO_BIN_EXE_multisha");

/// What the build script did: "static", or "dynamic: " and why.
const UNWINDER: &str = env!("MULTISHA_CLI_UNWINDER");

#[test]
fn binary_does_not_need_libgcc_s() {
    // gcc, which every Linux glibc Rust toolchain links with, ships the static unwinder.
    assert_eq!(
        UNWINDER, "static",
        "the build linked libgcc_s dynamically ({UNWINDER})"
    );
    // The dynamic section names each library the loader must map; its string table keeps the
    // names with a NUL after each.
    let binary = std::fs::read(EXE).expect("the binary is readable");
    let needed = b"libgcc_s.so.1\0";
    assert!(
        !binary.windows(needed.len()).any(|w| w == needed),
        "{EXE} still names libgcc_s.so.1"
    );
}
