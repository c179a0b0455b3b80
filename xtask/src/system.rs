//! What every task needs from the system: the workspace root, progress lines, running a
//! program for its output, and setup steps (apt-get) as root or through sudo.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

/// A program that could not be started, or that failed.
#[derive(Debug)]
pub(crate) enum SystemError {
    /// The program could not be started or its output read.
    Io { context: String, source: io::Error },
    /// The program exited with an error.
    Failed { context: String, status: ExitStatus },
}

impl fmt::Display for SystemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { context, source } => write!(f, "{context}: {source}"),
            Self::Failed { context, status } => write!(f, "{context} failed ({status})"),
        }
    }
}

impl std::error::Error for SystemError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            Self::Failed { .. } => None,
        }
    }
}

/// The workspace root: the parent of this crate's directory.
pub(crate) fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

/// A progress line on stderr.
pub(crate) fn say(message: &str) {
    eprintln!("xtask: {message}");
}

pub(crate) fn is_root() -> bool {
    capture("id", &["-u"]).is_ok_and(|uid| uid.trim() == "0")
}

/// Runs a command and returns its standard output.
pub(crate) fn capture(program: &str, args: &[&str]) -> Result<String, SystemError> {
    let output = Command::new(program)
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|source| SystemError::Io {
            context: format!("running `{program}`"),
            source,
        })?;
    if !output.status.success() {
        return Err(SystemError::Failed {
            context: format!("`{program} {}`", args.join(" ")),
            status: output.status,
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Runs one setup command (through sudo when not root), printing it first.
pub(crate) fn run_setup(sudo: bool, program: &str, args: &[&str]) -> Result<(), SystemError> {
    let line = format!(
        "{}{program} {}",
        if sudo { "sudo " } else { "" },
        args.join(" ")
    );
    say(&format!("running: {line}"));
    let mut command = if sudo {
        let mut command = Command::new("sudo");
        command.arg(program);
        command
    } else {
        Command::new(program)
    };
    let status = command
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .map_err(|source| SystemError::Io {
            context: format!("running `{line}`"),
            source,
        })?;
    if !status.success() {
        return Err(SystemError::Failed {
            context: format!("`{line}`"),
            status,
        });
    }
    Ok(())
}

/// Installs Debian `packages` with apt-get (as root or through sudo).
pub(crate) fn apt_install(packages: &[&str]) -> Result<(), SystemError> {
    let sudo = !is_root();
    run_setup(sudo, "apt-get", &["update"])?;
    let mut install = vec!["install", "-y", "--no-install-recommends"];
    install.extend(packages);
    run_setup(sudo, "apt-get", &install)
}
