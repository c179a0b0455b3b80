//! The optional progress bar: on standard error, only when standard error is a terminal, not
//! disabled with `--no-progress`, and the data to hash adds up to at least [`PROGRESS_MIN`].
//!
//! Drawn here rather than by a progress-bar crate: the one used before (`indicatif`) was the
//! only user of `libm` in the binary (its rate's exponential average), and loading `libm` was
//! about 7% of the wall time of `multisha sha256sum` on one small file. Integer arithmetic
//! only, so that nothing here links it back.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write as _};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The bar appears only once this much data is known to be hashed: short runs stay quiet.
pub(crate) const PROGRESS_MIN: u64 = 256 << 20;

/// The bar is redrawn at most this often, in milliseconds.
const REDRAW_MS: u64 = 100;

/// Width of the bar itself, in characters.
const WIDTH: u64 = 40;

/// Progress reporting shared by all worker threads; a no-op unless enabled.
#[derive(Clone, Debug)]
pub(crate) struct Progress(Option<Arc<Bar>>);

#[derive(Debug)]
struct Bar {
    start: Instant,
    /// Bytes expected in all.
    total: AtomicU64,
    /// Bytes hashed so far.
    done: AtomicU64,
    /// Whether the total reached [`PROGRESS_MIN`], so that the bar is drawn.
    shown: AtomicBool,
    /// Milliseconds after `start` of the last draw, claimed by the thread that draws.
    drawn_at: AtomicU64,
}

impl Progress {
    /// A bar that may appear later, or none when `wanted` is false or standard error is not
    /// a terminal (then callers need not even look at file sizes).
    pub(crate) fn new(wanted: bool) -> Self {
        if !wanted || !io::stderr().is_terminal() {
            return Progress(None);
        }
        Progress(Some(Arc::new(Bar {
            start: Instant::now(),
            total: AtomicU64::new(0),
            done: AtomicU64::new(0),
            shown: AtomicBool::new(false),
            drawn_at: AtomicU64::new(0),
        })))
    }

    /// Whether sizes passed to [`Progress::add_total`] are used at all.
    pub(crate) fn enabled(&self) -> bool {
        self.0.is_some()
    }

    /// Adds `n` bytes to the expected total; shows the bar once the total is large.
    pub(crate) fn add_total(&self, n: u64) {
        let Some(b) = &self.0 else { return };
        let total = b.total.fetch_add(n, Ordering::Relaxed).saturating_add(n);
        if total >= PROGRESS_MIN {
            b.shown.store(true, Ordering::Relaxed);
        }
    }

    /// Counts `n` bytes as hashed; redraws the bar if it is shown and was last drawn more than
    /// [`REDRAW_MS`] ago (one thread draws, the others go on).
    pub(crate) fn inc(&self, n: usize) {
        let Some(b) = &self.0 else { return };
        let done = b.done.fetch_add(n as u64, Ordering::Relaxed) + n as u64;
        if !b.shown.load(Ordering::Relaxed) {
            return;
        }
        let now = b.start.elapsed().as_millis() as u64;
        let last = b.drawn_at.load(Ordering::Relaxed);
        if now < last + REDRAW_MS
            || b.drawn_at
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        let line = line(done, b.total.load(Ordering::Relaxed), now);
        // A progress bar that cannot be drawn is not worth an error.
        let _ = write!(io::stderr().lock(), "\r{line}\x1b[K");
    }

    /// Removes the bar from the terminal.
    pub(crate) fn finish(&self) {
        if let Some(b) = &self.0
            && b.shown.load(Ordering::Relaxed)
        {
            let _ = write!(io::stderr().lock(), "\r\x1b[2K");
        }
    }
}

/// The bar's line: `done` of `total` bytes after `elapsed_ms` milliseconds, with the rate so
/// far and the time left at that rate.
fn line(done: u64, total: u64, elapsed_ms: u64) -> String {
    let total = total.max(done);
    let filled = (u128::from(done) * u128::from(WIDTH))
        .checked_div(u128::from(total))
        .unwrap_or(0) as u64;
    let mut out = String::new();
    out.extend((0..WIDTH).map(|i| if i < filled { '#' } else { '-' }));
    let _ = write!(out, " {}/{}", bytes(done), bytes(total));
    if elapsed_ms > 0 && done > 0 {
        let per_sec = (u128::from(done) * 1000 / u128::from(elapsed_ms)) as u64;
        let left_ms = u128::from(total - done) * u128::from(elapsed_ms) / u128::from(done);
        let _ = write!(
            out,
            " {}/s eta {}",
            bytes(per_sec),
            duration(left_ms as u64 / 1000)
        );
    }
    out
}

/// `n` bytes in binary units with one decimal (`512 B`, `1.5 KiB`, `3.0 GiB`).
fn bytes(n: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let (mut unit, mut scale) = (0, 1024u128);
    while unit + 1 < UNITS.len() && u128::from(n) >= scale * 1024 {
        unit += 1;
        scale *= 1024;
    }
    let tenths = u128::from(n) * 10 / scale;
    format!("{}.{} {}", tenths / 10, tenths % 10, UNITS[unit])
}

/// `secs` seconds as `45s`, `2m 05s` or `1h 02m`.
fn duration(secs: u64) -> String {
    if secs < 60 {
        format!("{secs}s")
    } else if secs < 3600 {
        format!("{}m {:02}s", secs / 60, secs % 60)
    } else {
        format!("{}h {:02}m", secs / 3600, secs / 60 % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(1023), "1023 B");
        assert_eq!(bytes(1024), "1.0 KiB");
        assert_eq!(bytes(1536), "1.5 KiB");
        assert_eq!(bytes(256 << 20), "256.0 MiB");
        assert_eq!(bytes(3 << 30), "3.0 GiB");
        assert_eq!(bytes(u64::MAX), "15.9 EiB");
    }

    #[test]
    fn times_left_read_in_the_largest_units() {
        assert_eq!(duration(0), "0s");
        assert_eq!(duration(59), "59s");
        assert_eq!(duration(125), "2m 05s");
        assert_eq!(duration(3600 + 120), "1h 02m");
    }

    #[test]
    fn the_line_shows_the_share_done_the_rate_and_the_time_left() {
        // A quarter of 1 GiB in 2 s: 128 MiB/s, 6 s left.
        assert_eq!(
            line(256 << 20, 1 << 30, 2000),
            format!(
                "{}{} 256.0 MiB/1.0 GiB 128.0 MiB/s eta 6s",
                "#".repeat(10),
                "-".repeat(30)
            )
        );
        // Nothing done yet, or no time passed: no rate, no division by zero.
        assert_eq!(
            line(0, 1 << 30, 0),
            format!("{} 0 B/1.0 GiB", "-".repeat(40))
        );
        assert_eq!(line(5, 0, 0), format!("{} 5 B/5 B", "#".repeat(40)));
        // Past the total (a file grew while it was read): full, never over.
        assert!(line(2 << 30, 1 << 30, 1000).starts_with(&"#".repeat(40)));
        assert!(line(u64::MAX, u64::MAX, u64::MAX).starts_with(&"#".repeat(40)));
    }
}
