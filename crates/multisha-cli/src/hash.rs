//! Reading and hashing inputs (standard input or files, always with `read` into a fixed
//! buffer per thread, never mapped), and hashing mode: many files in parallel, each line
//! printed as soon as it and every earlier one are ready.

use std::cell::RefCell;
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::os::unix::ffi::OsStrExt;

use multisha::Digest;

use crate::args::{Kind, Options};
use crate::diag::diag;
use crate::ordered::{self, Event, Place};
use crate::out::Out;
use crate::output;
use crate::progress::Progress;
use crate::readahead::{self, fill};
use crate::std_fds;

/// Read size: inputs that fit are hashed with one one-shot call, larger ones are streamed
/// through the incremental hasher, so memory stays at a few buffers per thread. Small enough
/// to stay in L2 cache between the copy out of the page cache and the hashing. (Memory
/// mapping would save the copy, but a file truncated while mapped kills the process with
/// SIGBUS.)
const CHUNK: usize = 256 * 1024;
/// Past this many bytes an input is read on a helper thread while it is hashed (starting
/// that thread costs far less than hashing this much).
const READAHEAD_AFTER: usize = 4 << 20;

/// An incremental hasher for the chosen tool.
enum Hasher {
    Sha1(multisha::Sha1),
    Sha224(multisha::Sha224),
    Sha256(multisha::Sha256),
}

impl Hasher {
    fn new(kind: Kind) -> Self {
        match kind {
            Kind::Sha1 => Hasher::Sha1(multisha::Sha1::new()),
            Kind::Sha224 => Hasher::Sha224(multisha::Sha224::new()),
            Kind::Sha256 => Hasher::Sha256(multisha::Sha256::new()),
        }
    }

    fn update(&mut self, data: &[u8]) {
        match self {
            Hasher::Sha1(h) => h.update(data),
            Hasher::Sha224(h) => h.update(data),
            Hasher::Sha256(h) => h.update(data),
        }
    }

    fn finish(self) -> Vec<u8> {
        match self {
            Hasher::Sha1(h) => h.finalize().to_vec(),
            Hasher::Sha224(h) => h.finalize().to_vec(),
            Hasher::Sha256(h) => h.finalize().to_vec(),
        }
    }
}

/// Hashes a whole buffer with the one-shot functions (fastest for small inputs).
fn oneshot(kind: Kind, data: &[u8]) -> Vec<u8> {
    match kind {
        Kind::Sha1 => multisha::sha1(data).to_vec(),
        Kind::Sha224 => multisha::sha224(data).to_vec(),
        Kind::Sha256 => multisha::sha256(data).to_vec(),
    }
}

thread_local! {
    /// Each thread's read buffer, reused for every input it hashes.
    static BUF: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Hashes everything `r` yields: small inputs in one call from this thread's buffer,
/// long ones streamed through the incremental hasher.
fn hash_reader(kind: Kind, r: &mut (dyn Read + Send), progress: &Progress) -> io::Result<Vec<u8>> {
    BUF.with_borrow_mut(|buf| {
        buf.resize(CHUNK, 0);
        let n = fill(r, buf)?;
        progress.inc(n);
        if n < buf.len() {
            return Ok(oneshot(kind, &buf[..n]));
        }
        let mut hasher = Hasher::new(kind);
        hasher.update(buf);
        let mut total = n;
        while total < READAHEAD_AFTER {
            let n = fill(r, buf)?;
            if n == 0 {
                return Ok(hasher.finish());
            }
            hasher.update(&buf[..n]);
            progress.inc(n);
            total += n;
        }
        readahead::for_each_chunk(r, |chunk| {
            hasher.update(chunk);
            progress.inc(chunk.len());
        })?;
        Ok(hasher.finish())
    })
}

/// Hashes the file called `name` (`-` is standard input).
pub(crate) fn hash_file(kind: Kind, name: &[u8], progress: &Progress) -> io::Result<Vec<u8>> {
    if name == b"-" {
        return hash_reader(kind, &mut std_fds::stdin(), progress);
    }
    let mut file = File::open(OsStr::from_bytes(name))?;
    hash_reader(kind, &mut file, progress)
}

/// Where to hash `name`: standard input is read on the feeder thread, so that several `-`
/// read it one after another in argument order, as coreutils does.
pub(crate) fn place_of(name: &[u8]) -> Place {
    if name == b"-" {
        Place::Feeder
    } else {
        Place::Pool
    }
}

/// Adds the sizes of the regular files among `names` to the progress total.
pub(crate) fn count_sizes<'a>(progress: &Progress, names: impl Iterator<Item = &'a [u8]>) {
    if !progress.enabled() {
        return;
    }
    for name in names.filter(|n| *n != b"-") {
        if let Ok(meta) = std::fs::metadata(OsStr::from_bytes(name))
            && meta.is_file()
        {
            progress.add_total(meta.len());
        }
    }
}

/// Hashing mode: prints one line per file; returns whether all files could be read.
pub(crate) fn run_sum(o: &Options, out: &mut Out) -> bool {
    let progress = Progress::new(o.progress);
    count_sizes(&progress, o.files.iter().map(|f| f.as_bytes()));
    let mut ok = true;
    let mut line = Vec::with_capacity(256);
    let items = o
        .files
        .iter()
        .map(|f| (f.as_bytes(), place_of(f.as_bytes())));
    ordered::run(
        items,
        |name| hash_file(o.kind, name, &progress),
        |event| {
            let (name, result) = match event {
                Event::Waiting => {
                    // Nothing to print for a while: let what is ready be seen.
                    out.flush();
                    return ControlFlow::Continue(());
                }
                Event::Ready(name, result) => (name, result),
            };
            match result {
                Some(Ok(digest)) => {
                    line.clear();
                    let binary = o.binary == Some(true);
                    output::sum_line(&mut line, o.kind, &digest, name, o.tag, binary, o.zero);
                    out.write(&line);
                }
                Some(Err(e)) => {
                    ok = false;
                    // Keep stdout and stderr in order when both go to the same place.
                    out.flush();
                    diag!(
                        "{}: {}: {}",
                        o.prog,
                        output::quotef(name),
                        output::strerror(&e)
                    );
                }
                None => {}
            }
            if out.broken_pipe() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    );
    progress.finish();
    ok && !out.broken_pipe()
}
