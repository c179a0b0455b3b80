//! Whether standard input and output were open when the process started, and standard input
//! as coreutils sees it.
//!
//! Rust's runtime reopens a closed fd 0, 1 or 2 on `/dev/null` before `main`, so
//! `sha256sum <&-` would hash an empty input and `sha256sum a >&-` would succeed. coreutils
//! fails both with `Bad file descriptor`. A function in `.init_array` runs before the runtime's
//! initialisation (glibc calls the ELF constructors before `main`, where Rust's `lang_start`
//! reopens the descriptors), so it sees the descriptors as the parent left them.

use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the constructor when fd 0 was closed at exec time.
static STDIN_CLOSED: AtomicBool = AtomicBool::new(false);
/// Set by the constructor when fd 1 was closed at exec time.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
/// Whether anything tried to read standard input (coreutils' `have_read_stdin`).
static STDIN_USED: AtomicBool = AtomicBool::new(false);

// glibc, musl and bionic run `.init_array` entries before `main`; elsewhere the flags stay
// false and closed descriptors go unnoticed, as before.
#[cfg(any(target_os = "linux", target_os = "android"))]
mod probe {
    use std::sync::atomic::Ordering;

    /// Records which of fds 0 and 1 are closed. glibc passes `(argc, argv, envp)`, musl
    /// nothing; like C constructors, this takes no parameters, which suits both ABIs.
    extern "C" fn record() {
        let closed = |fd| {
            // SAFETY: F_GETFD only queries the descriptor's flags; it touches no memory and
            // is async-signal-safe, so it is fine before the runtime is initialised.
            unsafe { libc::fcntl(fd, libc::F_GETFD) == -1 }
        };
        super::STDIN_CLOSED.store(closed(0), Ordering::Relaxed);
        super::STDOUT_CLOSED.store(closed(1), Ordering::Relaxed);
    }

    // SAFETY: `.init_array` holds pointers to constructor functions, which is exactly what this
    // static is; `record` needs nothing initialised (atomics and a system call).
    #[used]
    #[unsafe(link_section = ".init_array")]
    static RECORD: extern "C" fn() = record;
}

/// Whether fd 1 was closed when the process started.
pub(crate) fn stdout_was_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// Whether standard input was read (or tried) and was closed, so coreutils' final
/// `fclose (stdin)` would fail with `Bad file descriptor`.
pub(crate) fn stdin_close_fails() -> bool {
    STDIN_USED.load(Ordering::Relaxed) && STDIN_CLOSED.load(Ordering::Relaxed)
}

fn ebadf() -> io::Error {
    io::Error::from_raw_os_error(libc::EBADF)
}

/// Standard input as a reader; every read fails with `EBADF` when fd 0 was closed.
#[derive(Debug)]
pub(crate) struct Stdin {
    closed: bool,
}

/// Opens standard input (and notes that it was used).
pub(crate) fn stdin() -> Stdin {
    STDIN_USED.store(true, Ordering::Relaxed);
    Stdin {
        closed: STDIN_CLOSED.load(Ordering::Relaxed),
    }
}

impl Read for Stdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.closed {
            return Err(ebadf());
        }
        io::stdin().lock().read(buf)
    }
}
