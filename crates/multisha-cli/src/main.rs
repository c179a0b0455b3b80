//! `multisha`: a drop-in `sha1sum` / `sha224sum` / `sha256sum` built on the dispatched
//! multisha kernels, usable as `multisha sha256sum ...` or through a symlink named
//! `sha256sum` (busybox-style multi-call).

mod args;
mod check;
mod diag;
mod hash;
mod kind;
mod lines;
mod options;
mod ordered;
mod out;
mod output;
mod progress;
mod readahead;
mod std_fds;
mod variants;

use std::ffi::OsString;
use std::process::ExitCode;

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    ExitCode::from(args::run(argv))
}
