//! What several test binaries share: running one of their own ignored tests in a child
//! process (the dispatcher probes once per process, so a test of what it does at start-up
//! needs a process of its own).

use std::process::Command;

/// A command that runs the ignored test `name` of this test binary alone, through the
/// emulator the cross-test names in `MULTISHA_TEST_RUNNER` (the host cannot exec an aarch64
/// binary), printing its output.
pub(crate) fn rerun_self(name: &str) -> Command {
    let exe = std::env::current_exe().expect("test binary path");
    let mut command = match std::env::var("MULTISHA_TEST_RUNNER") {
        Ok(runner) if !runner.trim().is_empty() => {
            let mut words = runner.split_whitespace();
            let mut command = Command::new(words.next().expect("a runner program"));
            command.args(words).arg(exe);
            command
        }
        _ => Command::new(exe),
    };
    command.args([
        "--exact",
        name,
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ]);
    command
}
