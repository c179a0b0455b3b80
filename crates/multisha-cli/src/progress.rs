//! The optional progress bar: on standard error, only when standard error is a terminal, not
//! disabled with `--no-progress`, and the data to hash adds up to at least [`PROGRESS_MIN`].

use std::io::{self, IsTerminal};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The bar appears only once this much data is known to be hashed: short runs stay quiet.
pub(crate) const PROGRESS_MIN: u64 = 256 << 20;

/// Progress reporting shared by all worker threads; a no-op unless enabled.
#[derive(Clone, Debug)]
pub(crate) struct Progress(Option<Bar>);

#[derive(Clone, Debug)]
struct Bar {
    bar: ProgressBar,
    /// Whether the bar was switched from hidden to drawn on standard error.
    shown: Arc<AtomicBool>,
}

impl Progress {
    /// A bar that may appear later, or none when `wanted` is false or standard error is not
    /// a terminal (then callers need not even look at file sizes).
    pub(crate) fn new(wanted: bool) -> Self {
        if !wanted || !io::stderr().is_terminal() {
            return Progress(None);
        }
        // Hidden until the total reaches PROGRESS_MIN.
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(
            "{bar:40} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}",
        ) {
            bar.set_style(style);
        }
        Progress(Some(Bar {
            bar,
            shown: Arc::new(AtomicBool::new(false)),
        }))
    }

    /// Whether sizes passed to [`Progress::add_total`] are used at all.
    pub(crate) fn enabled(&self) -> bool {
        self.0.is_some()
    }

    /// Adds `n` bytes to the expected total; shows the bar once the total is large.
    pub(crate) fn add_total(&self, n: u64) {
        let Some(b) = &self.0 else { return };
        b.bar.inc_length(n);
        if b.bar.length().unwrap_or(0) >= PROGRESS_MIN && !b.shown.swap(true, Ordering::Relaxed) {
            b.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Counts `n` bytes as hashed.
    pub(crate) fn inc(&self, n: usize) {
        if let Some(b) = &self.0 {
            b.bar.inc(n as u64);
        }
    }

    /// Removes the bar from the terminal.
    pub(crate) fn finish(&self) {
        if let Some(b) = &self.0 {
            b.bar.finish_and_clear();
        }
    }
}
