//! `--check`: parses GNU (`hex  name`, `hex *name`, `\`-escaped) and BSD (`TAG (name) = hex`)
//! checksum lines the way coreutils 9.1's md5sum.c does, hashes the listed files in parallel
//! while the list is still being read, and reports in line order, as soon as each result and
//! every earlier one are ready, with the same messages and exit status.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::ops::ControlFlow;
use std::os::unix::ffi::OsStrExt;

use crate::diag::diag;
use crate::hash;
use crate::kind::Kind;
use crate::lines::{Line, LineReader};
use crate::options::Options;
use crate::ordered::{self, Event, Place};
use crate::out::Out;
use crate::output::{self, quotef, strerror};
use crate::progress::Progress;
use crate::std_fds;
use multisha_cli::check_line::{Reversed, split_line};

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A parsed line to verify.
#[derive(Debug)]
struct Job {
    expected: Vec<u8>,
    name: Vec<u8>,
}

/// What one line produced, in order.
#[derive(Debug)]
enum Entry {
    Job(Job),
    Misformatted(usize),
}

/// The lines of one checksum list as entries to process; stops at a read error, which it
/// keeps for the caller.
struct Entries<'a, R> {
    lines: LineReader<R>,
    kind: Kind,
    is_stdin: bool,
    rev: Reversed,
    line_no: usize,
    progress: &'a Progress,
    error: Option<io::Error>,
}

impl<R: io::BufRead> Iterator for Entries<'_, R> {
    type Item = (Entry, Place);

    fn next(&mut self) -> Option<(Entry, Place)> {
        loop {
            let line = match self.lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => return None,
                Err(e) => {
                    self.error = Some(e);
                    return None;
                }
            };
            self.line_no += 1;
            let misformatted = (Entry::Misformatted(self.line_no), Place::Nothing);
            let mut s = match line {
                Line::TooLong(b'#') => continue,
                // Not kept, to bound memory. coreutils reads it whole: misformatted there
                // too, unless it is a proper line, whose name is then too long to open
                // (or, in the pathological case, cut short by a NUL byte).
                Line::TooLong(_) => return Some(misformatted),
                Line::Text(s) => s,
            };
            if s[0] == b'#' {
                continue;
            }
            if s.last() == Some(&b'\n') {
                s = &s[..s.len() - 1];
            }
            if s.last() == Some(&b'\r') {
                s = &s[..s.len() - 1];
            }
            if s.is_empty() {
                continue;
            }
            return Some(
                match split_line(
                    self.kind.tag().as_bytes(),
                    self.kind.hex_len(),
                    s,
                    &mut self.rev,
                ) {
                    Some((hex, name)) if !(self.is_stdin && name == b"-") => {
                        hash::count_sizes(self.progress, std::iter::once(name.as_slice()));
                        let place = hash::place_of(&name);
                        let expected = hex.to_ascii_lowercase();
                        (Entry::Job(Job { expected, name }), place)
                    }
                    _ => misformatted,
                },
            );
        }
    }
}

/// A unit of parallel work: one entry, or the jobs of consecutive lines naming small files,
/// hashed as one batch.
enum Unit {
    One(Entry),
    Small(Vec<Job>),
}

/// Names per unit at most, in bytes: with [`ordered::WINDOW`] units in flight, memory stays
/// near what single entries took.
const GROUP_NAME_BYTES: usize = 4096;

/// Groups consecutive entries that name small regular files (up to `hash::GROUP` of them and
/// [`GROUP_NAME_BYTES`] of names), so they go through the batch path together; every other
/// entry stands alone.
fn units<I: Iterator<Item = (Entry, Place)> + Send>(
    entries: I,
) -> impl Iterator<Item = (Unit, Place)> + Send {
    let small = |entry: &(Entry, Place)| matches!(entry, (Entry::Job(job), Place::Pool) if hash::is_small_file(&job.name));
    let mut entries = entries.peekable();
    std::iter::from_fn(move || {
        let first = entries.next()?;
        if !small(&first) {
            return Some((Unit::One(first.0), first.1));
        }
        let Entry::Job(job) = first.0 else {
            unreachable!("small entries are jobs")
        };
        let mut bytes = job.name.len();
        let mut jobs = vec![job];
        while jobs.len() < hash::GROUP
            && bytes < GROUP_NAME_BYTES
            && entries.peek().is_some_and(small)
        {
            if let Some((Entry::Job(job), _)) = entries.next() {
                bytes += job.name.len();
                jobs.push(job);
            }
        }
        Some((Unit::Small(jobs), Place::Pool))
    })
}

/// Per-list counts, as md5sum.c keeps them.
#[derive(Debug, Default)]
struct Tally {
    misformatted: usize,
    unreadable: usize,
    mismatched: usize,
    properly_formatted: bool,
    verified: bool,
}

/// Reports one entry (in line order); returns `Break` once output is pointless.
fn report(
    o: &Options,
    display: &str,
    entry: Entry,
    result: Option<io::Result<Vec<u8>>>,
    tally: &mut Tally,
    out: &mut Out,
) -> ControlFlow<()> {
    let (job, result) = match (entry, result) {
        (Entry::Job(job), Some(result)) => (job, result),
        (Entry::Misformatted(n), _) => {
            tally.misformatted += 1;
            if o.warn {
                out.flush();
                diag!(
                    "{}: {display}: {n}: improperly formatted {} checksum line",
                    o.prog,
                    o.kind.tag()
                );
            }
            return out.keep_going();
        }
        // A job always has a result; this arm only keeps the match total.
        (Entry::Job(_), None) => return ControlFlow::Continue(()),
    };
    tally.properly_formatted = true;
    let mut buf = Vec::new();
    match result {
        Err(e) => {
            if o.ignore_missing && e.kind() == io::ErrorKind::NotFound {
                return ControlFlow::Continue(());
            }
            tally.unreadable += 1;
            out.flush();
            diag!("{}: {}: {}", o.prog, quotef(&job.name), strerror(&e));
            if !o.status {
                output::check_name(&mut buf, &job.name);
                buf.extend_from_slice(b": FAILED open or read\n");
            }
        }
        Ok(digest) => {
            tally.verified = true;
            let mut hex = Vec::with_capacity(digest.len() * 2);
            output::push_hex(&mut hex, &digest);
            let matched = hex == job.expected;
            if !matched {
                tally.mismatched += 1;
            }
            if !o.status && (!matched || !o.quiet) {
                output::check_name(&mut buf, &job.name);
                buf.extend_from_slice(if matched { b": OK\n" } else { b": FAILED\n" });
            }
        }
    }
    out.write(&buf);
    out.keep_going()
}

/// The warnings after a list; returns whether the list verified.
fn summarize(o: &Options, display: &str, t: &Tally) -> bool {
    if !t.properly_formatted {
        diag!(
            "{}: {display}: no properly formatted checksum lines found",
            o.prog
        );
        return false;
    }
    if !o.status {
        if t.misformatted > 0 {
            let what = plural(t.misformatted, "line is", "lines are");
            diag!("{}: WARNING: {what} improperly formatted", o.prog);
        }
        if t.unreadable > 0 {
            let what = plural(t.unreadable, "listed file", "listed files");
            diag!("{}: WARNING: {what} could not be read", o.prog);
        }
        if t.mismatched > 0 {
            let what = plural(t.mismatched, "computed checksum", "computed checksums");
            diag!("{}: WARNING: {what} did NOT match", o.prog);
        }
        if o.ignore_missing && !t.verified {
            diag!("{}: {display}: no file was verified", o.prog);
        }
    }
    t.mismatched == 0
        && t.unreadable == 0
        && (!o.strict || t.misformatted == 0)
        && (!o.ignore_missing || t.verified)
}

/// Checks one checksum file; returns whether everything in it verified.
fn check_file(o: &Options, list: &[u8], out: &mut Out) -> bool {
    let is_stdin = list == b"-";
    let display = if is_stdin {
        quotef(b"standard input")
    } else {
        quotef(list)
    };
    let reader: Box<dyn Read + Send> = if is_stdin {
        Box::new(std_fds::stdin())
    } else {
        match File::open(OsStr::from_bytes(list)) {
            Ok(f) => Box::new(f),
            Err(e) => {
                out.flush();
                diag!("{}: {display}: {}", o.prog, strerror(&e));
                return false;
            }
        }
    };
    let progress = Progress::new(o.progress);
    let mut entries = Entries {
        lines: LineReader::new(BufReader::with_capacity(64 * 1024, reader)),
        kind: o.kind,
        is_stdin,
        rev: Reversed::Unknown,
        line_no: 0,
        progress: &progress,
        error: None,
    };
    let mut tally = Tally::default();
    ordered::run(
        units(&mut entries),
        |unit| match unit {
            Unit::One(Entry::Job(job)) => vec![hash::hash_file(o.kind, &job.name, &progress)],
            Unit::One(Entry::Misformatted(_)) => Vec::new(),
            Unit::Small(jobs) => {
                let names: Vec<&[u8]> = jobs.iter().map(|j| j.name.as_slice()).collect();
                hash::hash_group(o.kind, &names, &progress)
            }
        },
        |event| match event {
            Event::Waiting => {
                // The write may be the one that finds the output gone.
                out.flush();
                out.keep_going()
            }
            Event::Ready(Unit::One(entry), results) => {
                let result = results.and_then(|r| r.into_iter().next());
                report(o, &display, entry, result, &mut tally, out)
            }
            Event::Ready(Unit::Small(jobs), results) => {
                for (job, result) in jobs.into_iter().zip(results.unwrap_or_default()) {
                    report(o, &display, Entry::Job(job), Some(result), &mut tally, out)?;
                }
                ControlFlow::Continue(())
            }
        },
    );
    progress.finish();
    out.flush();
    if out.broken_pipe() {
        return false;
    }
    if entries.error.is_some() {
        diag!("{}: {display}: read error", o.prog);
        return false;
    }
    summarize(o, &display, &tally)
}

/// `--check` over every listed checksum file; returns overall success.
pub(crate) fn run(o: &Options, out: &mut Out) -> bool {
    let mut ok = true;
    for f in &o.files {
        ok &= check_file(o, f.as_bytes(), out);
        if out.broken_pipe() {
            return false;
        }
    }
    ok
}
