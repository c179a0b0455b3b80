//! `cargo xtask cross-test`: builds the library crates' tests for `aarch64-unknown-linux-gnu`
//! and runs them under `qemu-aarch64`, once with the default dispatch and once per forced
//! portable variant.
//!
//! The cross toolchain is Debian's: `qemu-user`, `gcc-aarch64-linux-gnu` (the linker),
//! `libc6-dev-arm64-cross`, and `rustc-web` with `libstd-rust-web-dev:arm64` (a `rustc` at
//! `/usr/bin/rustc` that has the aarch64 standard library; it pulls in `libc6:arm64`, the
//! multiarch C library the test binaries run on). What is missing is installed with `apt-get`
//! unless `--no-install` is given. Cargo itself is whichever runs this command.

use std::collections::BTreeSet;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::system::{SystemError, apt_install, capture, is_root, run_setup, say, workspace_root};
use crate::watchdog::{self, Followed};
use multisha::engine::{Algorithm, Interface};

const TARGET: &str = "aarch64-unknown-linux-gnu";
const LINKER: &str = "aarch64-linux-gnu-gcc";
const QEMU: &str = "qemu-aarch64";
/// The aarch64 sysroot `libc6-dev-arm64-cross` installs; the linker takes the C runtime from
/// here.
const CROSS_SYSROOT: &str = "/usr/aarch64-linux-gnu";
/// The runner. The test binaries run on the multiarch `libc6:arm64` (`/lib/aarch64-linux-gnu`),
/// dynamic linker included, so qemu is told to look up guest paths in `/` as they are. With
/// `-L /usr/aarch64-linux-gnu` qemu would take the dynamic linker from the cross sysroot but
/// `libc.so.6` from `/lib/aarch64-linux-gnu` (the only place the loader looks), two different
/// glibc builds: `pthread_create` then loops forever in the loader's stack cache, so every
/// libtest binary hangs after "running N tests".
const RUNNER: &str = "qemu-aarch64 -L /";
/// The aarch64 dynamic linker `libc6:arm64` installs, which the runner uses.
const AARCH64_LOADER: &str = "/lib/ld-linux-aarch64.so.1";
/// Debian's compiler, which (unlike a rustup toolchain without the target added) ships the
/// aarch64 standard library as `libstd-rust-web-dev:arm64`.
const DEBIAN_RUSTC: &str = "/usr/bin/rustc";
/// Debian's rustdoc, used for the doctests when present (it must match `DEBIAN_RUSTC`).
const DEBIAN_RUSTDOC: &str = "/usr/bin/rustdoc";

/// How long a test run may print nothing before it counts as hung and is killed, with every
/// process it started. qemu-user can deadlock when a multi-threaded guest forks (a test that
/// re-runs its own binary in a child process: once in CI the forked child sat in a futex
/// before its exec, using no CPU, and nothing else would have ended the run). libtest says
/// when a test has run for 60 s; the longest quiet stretch of the test runs of a cross-test
/// that passed was 14 s (AMD Zen 4, 2 vCPUs). A hang costs CI this and the run again.
const SILENT_AT_MOST: Duration = Duration::from_secs(180);

/// How many times a run that hung is started again before it counts as failed (a deadlock of
/// the emulator, not of the tests, is rare: once in a few dozen CI runs).
const RERUNS_AFTER_A_HANG: usize = 1;

/// Library crates tested in the default run. The harness feature of the contract crate is
/// switched on so its own tests of the harness build too.
const LIBRARY_PACKAGES: &[&str] = &[
    "multisha-contract",
    "multisha-rolled",
    "multisha-unrolled",
    "multisha-full-unroll",
    "multisha-armv8",
];
const FEATURES: &str = "multisha-contract/harness";

/// The dispatcher crate: tested in the default run and in every forced run.
const DISPATCHER: &str = "multisha";

/// What the dispatcher must pick on an aarch64 CPU with the SHA instructions.
const DEFAULT_CHOICE: &str = "armv8";

/// The override points: every algorithm's single- and many-message interfaces, each with its
/// environment variable and its portable variants (registry order).
fn points() -> Vec<(&'static str, Vec<&'static str>)> {
    Algorithm::ALL
        .iter()
        .flat_map(|&algorithm| {
            [Interface::Single, Interface::Many].map(|interface| {
                let portable = algorithm
                    .listing()
                    .iter()
                    .filter(|l| l.arch.is_none() && l.interface == interface)
                    .map(|l| l.name)
                    .collect();
                (algorithm.env_var_for(interface), portable)
            })
        })
        .collect()
}

/// Forced runs of the dispatcher, from the registry: run `i` forces the `i`-th portable variant
/// of every override point that has one (`MULTISHA_SHA256=unroll8`,
/// `MULTISHA_SHA256_MANY=serial`, ...) and leaves the others to the default dispatch, so every
/// portable variant is forced in exactly one run. Each entry is (environment variable,
/// `Some(variant)` or `None` for the default dispatch).
fn forced_runs() -> Vec<Vec<(&'static str, Option<&'static str>)>> {
    let points = points();
    let runs = points.iter().map(|(_, p)| p.len()).max().unwrap_or(0);
    (0..runs)
        .map(|i| {
            points
                .iter()
                .map(|(var, portable)| (*var, portable.get(i).copied()))
                .collect()
        })
        .collect()
}

/// The environment variable that states which variant the dispatcher must pick for the
/// algorithm overridden by `env_var` (`MULTISHA_SHA256` -> `MULTISHA_EXPECT_SHA256`).
fn expect_var(env_var: &str) -> String {
    format!(
        "MULTISHA_EXPECT_{}",
        env_var.strip_prefix("MULTISHA_").unwrap_or(env_var)
    )
}

const HELP: &str = "\
usage: cargo xtask cross-test [--no-install]

Builds the tests of multisha-contract, multisha-rolled, multisha-unrolled,
multisha-full-unroll, multisha-armv8 and multisha for aarch64-unknown-linux-gnu with
Debian's /usr/bin/rustc, runs them under qemu-aarch64 with the default dispatch, then runs
the multisha tests once per forced portable variant (MULTISHA_SHA256=unroll8, ...).

Installs what is missing (qemu-user, gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, libc6:arm64,
rustc-web, libstd-rust-web-dev:arm64) with apt-get, as root or through sudo.

Build output goes to $CARGO_TARGET_DIR/aarch64, or target/aarch64 in the workspace.

options:
  --no-install   fail instead of running apt-get when something is missing
  -h, --help     print this text";

/// Why `cross-test` failed.
#[derive(Debug)]
pub(crate) enum Error {
    /// An argument this command does not know.
    Usage(String),
    /// A tool is missing and `--no-install` forbids installing it.
    Missing { packages: Vec<&'static str> },
    /// After installing, a tool is still missing.
    StillMissing { what: String },
    /// A program could not be started or its output read.
    Io { context: String, source: io::Error },
    /// A setup or build command exited with an error.
    Failed { context: String, status: ExitStatus },
    /// Some test runs failed (the summary above says which).
    TestsFailed { failed: usize, runs: usize },
    /// The dispatcher crate did not build; the other crates were tested.
    DispatcherBroken { failed_runs: usize },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usage(arg) => write!(f, "unknown argument `{arg}`\n\n{HELP}"),
            Self::Missing { packages } => write!(
                f,
                "the cross toolchain is incomplete and --no-install was given; install it with\n  \
                 dpkg --add-architecture arm64 && apt-get update && \
                 apt-get install -y --no-install-recommends {}",
                packages.join(" ")
            ),
            Self::StillMissing { what } => {
                write!(f, "{what} is still missing after apt-get install")
            }
            Self::Io { context, source } => write!(f, "{context}: {source}"),
            Self::Failed { context, status } => write!(f, "{context} failed ({status})"),
            Self::TestsFailed { failed, runs } => write!(f, "{failed} of {runs} test runs failed"),
            Self::DispatcherBroken { failed_runs } => write!(
                f,
                "{DISPATCHER} did not build for {TARGET}; the other crates were tested \
                 ({failed_runs} run(s) failed)"
            ),
        }
    }
}

impl From<SystemError> for Error {
    fn from(error: SystemError) -> Self {
        match error {
            SystemError::Io { context, source } => Self::Io { context, source },
            SystemError::Failed { context, status } => Self::Failed { context, status },
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Command-line options of `cross-test`.
#[derive(Debug, Default)]
struct Options {
    no_install: bool,
}

fn parse_args(args: &[String]) -> Result<Option<Options>, Error> {
    let mut options = Options::default();
    for arg in args {
        match arg.as_str() {
            "--no-install" => options.no_install = true,
            "-h" | "--help" => return Ok(None),
            other => return Err(Error::Usage(other.to_owned())),
        }
    }
    Ok(Some(options))
}

/// Entry point: `cargo xtask cross-test [args]`.
pub(crate) fn run(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let Some(options) = parse_args(args)? else {
        println!("{HELP}");
        return Ok(());
    };
    cross_test(&options).map_err(Into::into)
}

fn cross_test(options: &Options) -> Result<(), Error> {
    let started = Instant::now();
    let root = workspace_root();

    let step = Instant::now();
    ensure_toolchain(options)?;
    let setup_time = step.elapsed();

    let cargo = Cargo::new(&root);
    say(&format!("build output: {}", cargo.target_dir.display()));
    if !cargo.doctests {
        say(&format!("{DEBIAN_RUSTDOC} not found: doctests are skipped"));
    }

    // Build every test binary first, so a compile error stops here and not half-way through
    // the runs. When the build with the dispatcher fails, the library crates are built alone:
    // if they build, the dispatcher is the culprit, and the others are still tested (the
    // dispatcher counts as a failure); if they do not, there is nothing to test.
    let step = Instant::now();
    let mut packages: Vec<&str> = LIBRARY_PACKAGES.to_vec();
    let has_dispatcher = root
        .join("crates")
        .join(DISPATCHER)
        .join("Cargo.toml")
        .is_file();
    if has_dispatcher {
        packages.push(DISPATCHER);
    }
    say(&format!(
        "building tests of {} for {TARGET}",
        packages.join(", ")
    ));
    let mut status = cargo.build_tests(&packages)?;
    let dispatcher_builds = has_dispatcher && status.success();
    if has_dispatcher && !status.success() {
        packages.pop();
        say(&format!(
            "the build failed; building without {DISPATCHER} to see whether it is the culprit"
        ));
        status = cargo.build_tests(&packages)?;
    }
    if !status.success() {
        return Err(Error::Failed {
            context: format!("building the tests of {}", packages.join(", ")),
            status,
        });
    }
    let build_time = step.elapsed();

    let mut runs = Vec::new();
    // Every algorithm's override removed: the default dispatch, which must pick `armv8`.
    let mut env: Vec<(String, Option<String>)> = vec![
        ("MULTISHA_EXPECT_NATIVE".into(), Some("1".into())),
        ("MULTISHA_EXPECT_ALL".into(), Some(DEFAULT_CHOICE.into())),
    ];
    for (var, _) in points() {
        env.push((var.into(), None));
    }
    runs.push(cargo.test_run("default dispatch", &packages, &env, &[])?);
    if dispatcher_builds {
        for run in forced_runs() {
            let label = run
                .iter()
                .map(|(var, name)| format!("{var}={}", name.unwrap_or("default")))
                .collect::<Vec<_>>()
                .join(" ");
            let mut env: Vec<(String, Option<String>)> =
                vec![("MULTISHA_EXPECT_NATIVE".into(), Some("1".into()))];
            for (var, name) in run {
                env.push((var.into(), name.map(Into::into)));
                // The single-message default on AArch64 is `armv8`; a many-message default is
                // not asserted (the dispatch tests check it is an available variant).
                let expected = name.or((!var.ends_with("_MANY")).then_some(DEFAULT_CHOICE));
                env.push((expect_var(var), expected.map(Into::into)));
            }
            // The tests that run every variant by name, and every plan shape, ran in the
            // default run: a forced variant changes nothing they do.
            let skip = ["every_", "batch::executor::tests"];
            runs.push(cargo.test_run(&format!("forced {label}"), &[DISPATCHER], &env, &skip)?);
        }
    }

    print_summary(&runs, has_dispatcher && !dispatcher_builds);
    println!(
        "time: {} total ({} toolchain check/install, {} build, {} test runs)",
        secs(started.elapsed()),
        secs(setup_time),
        secs(build_time),
        secs(runs.iter().map(|r| r.time).sum()),
    );

    let failed = runs.iter().filter(|r| !r.passed()).count();
    if has_dispatcher && !dispatcher_builds {
        return Err(Error::DispatcherBroken {
            failed_runs: failed,
        });
    }
    if failed > 0 {
        return Err(Error::TestsFailed {
            failed,
            runs: runs.len(),
        });
    }
    Ok(())
}

fn secs(time: Duration) -> String {
    format!("{:.1}s", time.as_secs_f64())
}

// ---------------------------------------------------------------------------------------------
// Toolchain
// ---------------------------------------------------------------------------------------------

/// One piece of the cross toolchain: how to tell it is there and which packages provide it.
struct Requirement {
    what: &'static str,
    present: fn() -> bool,
    packages: &'static [&'static str],
}

const REQUIREMENTS: &[Requirement] = &[
    Requirement {
        what: QEMU,
        present: || find_in_path(QEMU).is_some(),
        packages: &["qemu-user"],
    },
    Requirement {
        what: LINKER,
        present: || find_in_path(LINKER).is_some(),
        packages: &["gcc-aarch64-linux-gnu"],
    },
    Requirement {
        what: "the aarch64 C library to link with (/usr/aarch64-linux-gnu)",
        present: || {
            Path::new(CROSS_SYSROOT)
                .join("lib")
                .join("crt1.o")
                .is_file()
        },
        packages: &["libc6-dev-arm64-cross"],
    },
    Requirement {
        what: "the aarch64 runtime C library (/lib/ld-linux-aarch64.so.1)",
        present: || Path::new(AARCH64_LOADER).is_file(),
        packages: &["libc6:arm64"],
    },
    Requirement {
        what: "/usr/bin/rustc with the aarch64 standard library",
        present: debian_rustc_has_target,
        packages: &["rustc-web", "libstd-rust-web-dev:arm64"],
    },
];

fn find_in_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// Whether `/usr/bin/rustc` exists and its sysroot holds the aarch64 standard library.
fn debian_rustc_has_target() -> bool {
    let Ok(output) = Command::new(DEBIAN_RUSTC)
        .args(["--print", "sysroot"])
        .output()
    else {
        return false;
    };
    let sysroot = String::from_utf8_lossy(&output.stdout);
    output.status.success()
        && Path::new(sysroot.trim())
            .join("lib")
            .join("rustlib")
            .join(TARGET)
            .join("lib")
            .is_dir()
}

/// Checks every requirement and installs the missing ones with apt-get.
fn ensure_toolchain(options: &Options) -> Result<(), Error> {
    let missing: Vec<&Requirement> = REQUIREMENTS.iter().filter(|r| !(r.present)()).collect();
    if missing.is_empty() {
        say(&format!(
            "cross toolchain present ({QEMU}, {LINKER}, {CROSS_SYSROOT}, {AARCH64_LOADER}, {DEBIAN_RUSTC}); skipping apt-get"
        ));
        return Ok(());
    }
    let packages: Vec<&'static str> = missing
        .iter()
        .flat_map(|r| r.packages.iter().copied())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    for requirement in &missing {
        say(&format!("missing: {}", requirement.what));
    }
    if options.no_install {
        return Err(Error::Missing { packages });
    }

    let sudo = !is_root();
    let foreign = capture("dpkg", &["--print-foreign-architectures"])?;
    if !foreign.split_whitespace().any(|arch| arch == "arm64") {
        run_setup(sudo, "dpkg", &["--add-architecture", "arm64"])?;
    }
    apt_install(&packages)?;

    if let Some(requirement) = REQUIREMENTS.iter().find(|r| !(r.present)()) {
        return Err(Error::StillMissing {
            what: requirement.what.to_owned(),
        });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Cargo
// ---------------------------------------------------------------------------------------------

/// Cargo set up for aarch64: Debian's rustc, the cross linker, qemu as the runner.
struct Cargo {
    program: PathBuf,
    root: PathBuf,
    target_dir: PathBuf,
    /// Whether Debian's rustdoc is there to build the aarch64 doctests.
    doctests: bool,
}

impl Cargo {
    fn new(root: &Path) -> Self {
        // `cargo xtask` runs us through cargo, which says where it is in $CARGO.
        let program =
            std::env::var_os("CARGO").map_or_else(|| PathBuf::from("cargo"), PathBuf::from);
        let base = match std::env::var_os("CARGO_TARGET_DIR") {
            Some(dir) if Path::new(&dir).is_absolute() => PathBuf::from(dir),
            Some(dir) => std::env::current_dir()
                .unwrap_or_else(|_| root.to_path_buf())
                .join(dir),
            None => root.join("target"),
        };
        Self {
            program,
            root: root.to_path_buf(),
            target_dir: base.join("aarch64"),
            doctests: Path::new(DEBIAN_RUSTDOC).is_file(),
        }
    }

    /// `cargo test --target aarch64-unknown-linux-gnu -p ...` with the cross environment.
    fn command(&self, packages: &[&str], extra: &[&str]) -> Command {
        let mut command = Command::new(&self.program);
        command
            .current_dir(&self.root)
            .args(["test", "--target", TARGET, "--features", FEATURES]);
        for package in packages {
            command.args(["--package", package]);
        }
        if !self.doctests {
            // Lib, bin and integration tests; doctests would need an aarch64-capable rustdoc.
            command.arg("--tests");
        }
        command.args(extra);
        command
            .env("RUSTC", DEBIAN_RUSTC)
            .env("CARGO_TARGET_DIR", &self.target_dir)
            .env("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER", LINKER)
            .env("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER", RUNNER)
            // Tests that re-run their own binary in a child process must go through qemu too
            // (the host cannot exec an aarch64 binary): they prefix it with this command.
            .env("MULTISHA_TEST_RUNNER", RUNNER);
        if self.doctests {
            command.env("RUSTDOC", DEBIAN_RUSTDOC);
        }
        command
    }

    /// Builds the test binaries without running them.
    fn build_tests(&self, packages: &[&str]) -> Result<ExitStatus, Error> {
        self.command(packages, &["--no-run"])
            .status()
            .map_err(|source| Error::Io {
                context: format!("running {}", self.program.display()),
                source,
            })
    }

    /// Runs the tests of `packages` under qemu with `env` set (`None` removes a variable),
    /// echoing their output and counting the results.
    fn test_run(
        &self,
        label: &str,
        packages: &[&str],
        env: &[(String, Option<String>)],
        skip: &[&str],
    ) -> Result<TestRun, Error> {
        let settings: Vec<String> = env
            .iter()
            .filter_map(|(key, value)| value.as_ref().map(|value| format!("{key}={value}")))
            .collect();
        say(&format!(
            "test run `{label}`: {} with {}",
            packages.join(", "),
            settings.join(" ")
        ));
        let started = Instant::now();
        let mut extra = vec!["--no-fail-fast"];
        if !skip.is_empty() {
            extra.push("--");
            for name in skip {
                extra.extend(["--skip", name]);
            }
        }
        let mut command = self.command(packages, &extra);
        for (key, value) in env {
            match value {
                Some(value) => command.env(key, value),
                None => command.env_remove(key),
            };
        }
        let context = || format!("running the tests ({label})");
        let mut hangs = 0;
        loop {
            let mut child = command
                .stdout(Stdio::piped())
                .spawn()
                .map_err(|source| Error::Io {
                    context: context(),
                    source,
                })?;
            let mut counts = Counts::default();
            let followed = watchdog::follow(&mut child, SILENT_AT_MOST, |line| {
                println!("{line}");
                counts.add_result_line(line);
            })
            .map_err(|source| Error::Io {
                context: context(),
                source,
            })?;
            let status = child.wait().map_err(|source| Error::Io {
                context: context(),
                source,
            })?;
            if followed == Followed::Silent {
                hangs += 1;
                let again = hangs <= RERUNS_AFTER_A_HANG;
                say(&format!(
                    "test run `{label}` printed nothing for {}: killed it and what it started{}",
                    secs(SILENT_AT_MOST),
                    if again { "; running it again" } else { "" }
                ));
                if again {
                    continue;
                }
            }
            return Ok(TestRun {
                label: label.to_owned(),
                packages: packages.join(","),
                env: settings.join(" "),
                counts,
                status,
                time: started.elapsed(),
                hangs,
                hung: followed == Followed::Silent,
            });
        }
    }
}

/// Totals of the `test result:` lines of one run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Counts {
    binaries: usize,
    passed: usize,
    failed: usize,
    ignored: usize,
}

impl Counts {
    /// Adds `test result: ok. 3 passed; 0 failed; 1 ignored; ...` to the totals; other lines
    /// are ignored.
    fn add_result_line(&mut self, line: &str) {
        let Some(rest) = line.trim_start().strip_prefix("test result: ") else {
            return;
        };
        self.binaries += 1;
        for part in rest.split(';') {
            let mut words = part.split_whitespace().rev();
            let (Some(kind), Some(number)) = (words.next(), words.next()) else {
                continue;
            };
            let Ok(number) = number.parse::<usize>() else {
                continue;
            };
            match kind {
                "passed" => self.passed += number,
                "failed" => self.failed += number,
                "ignored" => self.ignored += number,
                _ => {}
            }
        }
    }
}

/// The outcome of one `cargo test` run.
#[derive(Debug)]
struct TestRun {
    label: String,
    packages: String,
    env: String,
    counts: Counts,
    status: ExitStatus,
    /// Every attempt's time, reruns included.
    time: Duration,
    /// How many attempts printed nothing for [`SILENT_AT_MOST`] and were killed.
    hangs: usize,
    /// Whether the last attempt was one of them (the run failed).
    hung: bool,
}

impl TestRun {
    fn passed(&self) -> bool {
        !self.hung && self.status.success() && self.counts.failed == 0
    }
}

fn print_summary(runs: &[TestRun], dispatcher_broken: bool) {
    println!();
    println!("cross-test summary ({TARGET} under {QEMU})");
    for run in runs {
        let verdict = if run.passed() { "ok" } else { "FAILED" };
        println!(
            "  {verdict:6} {:34} {:4} passed, {} failed, {} ignored in {} test binaries, {}",
            run.label,
            run.counts.passed,
            run.counts.failed,
            run.counts.ignored,
            run.counts.binaries,
            secs(run.time),
        );
        println!("         packages: {}", run.packages);
        println!("         env: {}", run.env);
        if run.hangs > 0 {
            println!(
                "         {} of its attempts printed nothing for {} and were killed{}",
                run.hangs,
                secs(SILENT_AT_MOST),
                if run.hung { "" } else { "; the rerun passed" }
            );
        } else if !run.status.success() && run.counts.failed == 0 {
            println!(
                "         cargo exited with {} (see its output above)",
                run.status
            );
        }
    }
    if dispatcher_broken {
        println!(
            "  FAILED {DISPATCHER} did not build for {TARGET}: its default and forced runs did not happen"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_result_lines() {
        let mut counts = Counts::default();
        counts.add_result_line("test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s");
        counts.add_result_line("running 3 tests");
        counts.add_result_line(
            "test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out",
        );
        assert_eq!(
            counts,
            Counts {
                binaries: 2,
                passed: 5,
                failed: 1,
                ignored: 1
            }
        );
    }

    #[test]
    fn forced_runs_cover_every_portable_variant_once() {
        for &algorithm in Algorithm::ALL {
            for interface in [Interface::Single, Interface::Many] {
                let var = algorithm.env_var_for(interface);
                let mut forced: Vec<&str> = forced_runs()
                    .iter()
                    .flatten()
                    .filter(|(v, _)| *v == var)
                    .filter_map(|(_, name)| *name)
                    .collect();
                forced.sort_unstable();
                let mut portable: Vec<&str> = algorithm
                    .listing()
                    .iter()
                    .filter(|l| l.arch.is_none() && l.interface == interface)
                    .map(|l| l.name)
                    .collect();
                portable.sort_unstable();
                assert!(!portable.is_empty(), "{var}");
                assert_eq!(forced, portable, "{var}");
            }
        }
        assert_eq!(expect_var("MULTISHA_SHA256"), "MULTISHA_EXPECT_SHA256");
    }

    #[test]
    fn parses_arguments() {
        assert!(parse_args(&[]).is_ok_and(|o| o.is_some_and(|o| !o.no_install)));
        assert!(
            parse_args(&["--no-install".into()]).is_ok_and(|o| o.is_some_and(|o| o.no_install))
        );
        assert!(parse_args(&["--help".into()]).is_ok_and(|o| o.is_none()));
        assert!(
            matches!(parse_args(&["--bogus".into()]), Err(Error::Usage(arg)) if arg == "--bogus")
        );
    }
}
