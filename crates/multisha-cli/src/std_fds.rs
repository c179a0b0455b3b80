//! Whether standard input and output were open when the process started, and standard input
//! as coreutils sees it.
//!
//! Rust's runtime reopens a closed fd 0, 1 or 2 on `/dev/null` before `main`, so
//! `sha256sum <&-` would hash an empty input and `sha256sum a >&-` would succeed. coreutils
//! fails both with `Bad file descriptor`. A function in `.init_array` runs before the runtime's
//! initialisation (glibc calls the ELF constructors before `main`, where Rust's `lang_start`
//! reopens the descriptors), so it sees the descriptors as the parent left them.

use std::io::{self, Read};
use std::sync::OnceLock;
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
    /// Waits until fd 0 has data (or its end) or standard input is abandoned
    /// ([`abandon_stdin`]), then reads it directly: no buffer of Rust's may hold data that
    /// the wait would not see.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.closed {
            return Err(ebadf());
        }
        if let Some([abandoned, _]) = abandon_pipe() {
            let mut fds = [0, abandoned].map(|fd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            });
            // SAFETY: `fds` is an array of two initialised `pollfd`s that poll may update.
            while unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) } < 0 {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
            if fds[1].revents != 0 {
                return Err(io::Error::other("standard input abandoned"));
            }
        }
        // SAFETY: `read` writes at most `buf.len()` bytes into `buf`, which is that long.
        let n = unsafe { libc::read(0, buf.as_mut_ptr().cast(), buf.len()) };
        // A negative count is an error (EINTR becomes `Interrupted`, which callers retry).
        usize::try_from(n).map_err(|_| io::Error::last_os_error())
    }
}

/// A pipe whose read end turns readable once standard input is abandoned (`None` if it could
/// not be made: then reads wait for input as before).
fn abandon_pipe() -> Option<[libc::c_int; 2]> {
    static PIPE: OnceLock<Option<[libc::c_int; 2]>> = OnceLock::new();
    *PIPE.get_or_init(|| {
        let mut fds = [-1; 2];
        // SAFETY: pipe2 stores two descriptors into `fds`, which has room for two.
        let made = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } == 0;
        made.then_some(fds)
    })
}

/// Makes every read of standard input, the one blocked now and every later one, fail at once:
/// called when the output broke, so that a thread waiting for input that can no longer be
/// reported (a terminal, a slow pipe) does not keep the process alive. GNU dies of SIGPIPE.
pub(crate) fn abandon_stdin() {
    static DONE: AtomicBool = AtomicBool::new(false);
    if DONE.swap(true, Ordering::Relaxed) {
        return;
    }
    if let Some([_, wake]) = abandon_pipe() {
        // The byte is never read, so the pipe stays readable for every later poll.
        // SAFETY: writes one byte from a live array to the pipe's write end, kept open.
        let _ = unsafe { libc::write(wake, [1u8].as_ptr().cast(), 1) };
    }
}
