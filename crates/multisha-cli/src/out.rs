//! Standard output with coreutils' `close_stdout` semantics: output is buffered, the first
//! write error is remembered (later output is dropped, the run goes on, as with stdio), and
//! at the end a failed write becomes `PROG: write error` and exit status 1.

use std::io::{self, Write};
use std::ops::ControlFlow;

use crate::diag::diag;
use crate::std_fds;

/// Bytes collected before they are written out.
const CAPACITY: usize = 64 * 1024;

/// The buffered standard output of one run.
#[derive(Debug)]
pub(crate) struct Out {
    buf: Vec<u8>,
    /// fd 1 was closed at exec: every write fails with `EBADF`, as it would in C.
    closed: bool,
    error: Option<io::Error>,
}

impl Out {
    pub(crate) fn new() -> Self {
        Out {
            buf: Vec::with_capacity(CAPACITY),
            closed: std_fds::stdout_was_closed(),
            error: None,
        }
    }

    /// Queues `data`, writing out the buffer when it is full.
    pub(crate) fn write(&mut self, data: &[u8]) {
        if self.error.is_some() {
            return;
        }
        self.buf.extend_from_slice(data);
        if self.buf.len() >= CAPACITY {
            self.flush();
        }
    }

    /// Writes out everything queued (before a diagnostic, or while waiting for work).
    pub(crate) fn flush(&mut self) {
        if self.buf.is_empty() || self.error.is_some() {
            self.buf.clear();
            return;
        }
        let result = if self.closed {
            Err(io::Error::from_raw_os_error(libc::EBADF))
        } else {
            let mut stdout = io::stdout().lock();
            stdout.write_all(&self.buf).and_then(|()| stdout.flush())
        };
        self.buf.clear();
        if let Err(e) = result {
            self.error = Some(e);
        }
    }

    /// Whether the reader of standard output or standard error went away: coreutils would
    /// have died of SIGPIPE, so there is no point in going on (and nothing to report).
    pub(crate) fn broken_pipe(&self) -> bool {
        self.error
            .as_ref()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            || crate::diag::broken_pipe()
    }

    /// `Break` once nobody reads the output any more, after abandoning standard input
    /// ([`std_fds::abandon_stdin`]): a feeder thread blocked reading it would otherwise keep
    /// the run waiting for input whose results cannot be shown.
    pub(crate) fn keep_going(&self) -> ControlFlow<()> {
        if self.broken_pipe() {
            std_fds::abandon_stdin();
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Flushes and reports a failed write like gnulib's `close_stdout`; returns whether all
    /// output was written.
    pub(crate) fn finish(mut self, prog: &str) -> bool {
        self.flush();
        let Some(e) = self.error.take() else {
            return true;
        };
        if e.kind() == io::ErrorKind::BrokenPipe {
            return false;
        }
        // close_stdout shows errno only when fclose itself failed, which for a failed write
        // means a closed descriptor (EBADF); a full disk or an I/O error leaves errno at 0
        // there, so coreutils prints the bare "write error".
        if e.raw_os_error() == Some(libc::EBADF) {
            diag!("{prog}: write error: {}", crate::output::strerror(&e));
        } else {
            diag!("{prog}: write error");
        }
        false
    }
}
