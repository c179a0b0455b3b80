//! A one-line progress indicator on stderr (`\r`-rewritten on a terminal, silent otherwise so
//! logs stay clean).

use std::io::{IsTerminal, Write};

#[derive(Debug)]
pub(crate) struct Progress {
    total: usize,
    done: usize,
    tty: bool,
}

impl Progress {
    pub(crate) fn new(total: usize) -> Self {
        Progress {
            total: total.max(1),
            done: 0,
            tty: std::io::stderr().is_terminal(),
        }
    }

    /// One step finished; `what` says what comes next.
    pub(crate) fn step(&mut self, what: &str) {
        self.done = (self.done + 1).min(self.total);
        if self.tty {
            let width = 30;
            let filled = width * self.done / self.total;
            eprint!(
                "\r[{}{}] {:>3}% {:<50.50}",
                "#".repeat(filled),
                " ".repeat(width - filled),
                100 * self.done / self.total,
                what
            );
            let _ = std::io::stderr().flush();
        }
    }

    pub(crate) fn finish(&self) {
        if self.tty {
            eprint!("\r{:<90}\r", "");
        }
    }
}
