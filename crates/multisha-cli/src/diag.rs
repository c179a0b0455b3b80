//! Diagnostics on standard error. Unlike `eprintln!`, a failed write (a closed or full
//! stderr) is ignored, as C's `error()` does, instead of panicking; only a reader that went
//! away is remembered, since coreutils would have died of SIGPIPE there.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set when writing to standard error failed with `EPIPE`.
static BROKEN_PIPE: AtomicBool = AtomicBool::new(false);

/// Writes one formatted line to standard error, in a single write where possible.
macro_rules! diag {
    ($($arg:tt)*) => {
        $crate::diag::line(format_args!($($arg)*))
    };
}
pub(crate) use diag;

/// Writes `args` and a newline to standard error, ignoring errors.
pub(crate) fn line(args: fmt::Arguments<'_>) {
    let mut text = args.to_string();
    text.push('\n');
    if let Err(e) = io::stderr().lock().write_all(text.as_bytes())
        && e.kind() == io::ErrorKind::BrokenPipe
    {
        BROKEN_PIPE.store(true, Ordering::Relaxed);
    }
}

/// Whether the reader of standard error went away.
pub(crate) fn broken_pipe() -> bool {
    BROKEN_PIPE.load(Ordering::Relaxed)
}
