//! Reading and hashing inputs (standard input or files, always with `read` into a fixed
//! buffer per thread, never mapped), and hashing mode: many files in parallel, each line
//! printed as soon as it and every earlier one are ready.

use std::cell::RefCell;
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::os::unix::ffi::OsStrExt;

use crate::diag::diag;
use crate::kind::Kind;
use crate::options::Options;
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
/// The first read of an input: most small files fit, and a whole chunk's buffer is zeroed
/// first (its 64 pages faulted in: a tenth of the life of a process that hashes one small
/// file).
const FIRST_READ: usize = 16 * 1024;
/// Past this many bytes an input is read on a helper thread while it is hashed (starting
/// that thread costs far less than hashing this much).
const READAHEAD_AFTER: usize = 4 << 20;

/// Inputs of at most this many bytes are hashed together with other small files of the same
/// work item, through the batch path (several messages at once on the CPU's multi-lane
/// kernels); larger ones one by one.
const SMALL: usize = 64 * 1024;
/// Files per parallel work item, so that small files meet in one batch.
pub(crate) const GROUP: usize = 32;

/// The digest of `data` through the one-shot path.
fn oneshot(kind: Kind, data: &[u8]) -> Vec<u8> {
    let mut digest = vec![0; kind.function().output_len()];
    kind.function().digest_into(data, &mut digest);
    digest
}

/// What reading an input gave: a small input's bytes (to hash in a batch), or a digest.
enum Read1 {
    Small(Vec<u8>),
    Digest(Vec<u8>),
}

thread_local! {
    /// Each thread's read buffer, reused for every input it hashes.
    static BUF: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Reads `r`: an input of at most [`SMALL`] bytes is returned whole; a larger one is hashed
/// (in one call from this thread's buffer if it fits, else streamed through the incremental
/// hasher).
fn read_or_hash(kind: Kind, r: &mut (dyn Read + Send), progress: &Progress) -> io::Result<Read1> {
    BUF.with_borrow_mut(|buf| {
        // The buffer grows to a whole chunk only for an input that fills the first read.
        if buf.len() < FIRST_READ {
            buf.resize(FIRST_READ, 0);
        }
        let mut n = fill(r, &mut buf[..FIRST_READ])?;
        if n == FIRST_READ {
            buf.resize(CHUNK, 0);
            n += fill(r, &mut buf[FIRST_READ..])?;
        }
        progress.inc(n);
        if n <= SMALL && n < buf.len() {
            return Ok(Read1::Small(buf[..n].to_vec()));
        }
        if n < buf.len() {
            return Ok(Read1::Digest(oneshot(kind, &buf[..n])));
        }
        let mut hasher = kind.function().hasher();
        hasher.update(buf);
        let mut total = n;
        while total < READAHEAD_AFTER {
            let n = fill(r, buf)?;
            if n == 0 {
                return Ok(Read1::Digest(hasher.finalize().to_vec()));
            }
            hasher.update(&buf[..n]);
            progress.inc(n);
            total += n;
        }
        readahead::for_each_chunk(r, |chunk| {
            hasher.update(chunk);
            progress.inc(chunk.len());
        })?;
        Ok(Read1::Digest(hasher.finalize().to_vec()))
    })
}

/// Hashes everything `r` yields.
fn hash_reader(kind: Kind, r: &mut (dyn Read + Send), progress: &Progress) -> io::Result<Vec<u8>> {
    Ok(match read_or_hash(kind, r, progress)? {
        Read1::Small(data) => oneshot(kind, &data),
        Read1::Digest(digest) => digest,
    })
}

/// Hashes the files called `names` (none of them `-`): the small ones together through the
/// batch path, the others one by one; results in the order of `names`.
pub(crate) fn hash_group(
    kind: Kind,
    names: &[&[u8]],
    progress: &Progress,
) -> Vec<io::Result<Vec<u8>>> {
    let mut results = Vec::with_capacity(names.len());
    // Small files: (index in `names`, contents).
    let mut small: Vec<(usize, Vec<u8>)> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let read = File::open(OsStr::from_bytes(name))
            .and_then(|mut file| read_or_hash(kind, &mut file, progress));
        results.push(match read {
            Ok(Read1::Small(data)) => {
                small.push((i, data));
                Ok(Vec::new())
            }
            Ok(Read1::Digest(digest)) => Ok(digest),
            Err(e) => Err(e),
        });
    }
    let function = kind.function();
    let len = function.output_len();
    let messages: Vec<&[u8]> = small.iter().map(|(_, data)| data.as_slice()).collect();
    let mut digests = vec![0u8; messages.len() * len];
    function.digest_many_into(&messages, &mut digests);
    for ((i, _), digest) in small.iter().zip(digests.chunks_exact(len)) {
        results[*i] = Ok(digest.to_vec());
    }
    results
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

/// A unit of parallel work: one input, or several small files hashed as one batch.
pub(crate) enum Work<'a> {
    One(&'a [u8]),
    Small(Vec<&'a [u8]>),
}

impl<'a> Work<'a> {
    /// The names, in order.
    pub(crate) fn names(&self) -> &[&'a [u8]] {
        match self {
            Work::One(name) => core::slice::from_ref(name),
            Work::Small(names) => names,
        }
    }
}

/// Hashes one unit of work; one result per name, in order.
pub(crate) fn hash_work(
    kind: Kind,
    work: &Work<'_>,
    progress: &Progress,
) -> Vec<io::Result<Vec<u8>>> {
    match work {
        Work::One(name) => vec![hash_file(kind, name, progress)],
        Work::Small(names) => hash_group(kind, names, progress),
    }
}

/// Whether `name` is a regular file small enough for the batch path (a stat; the read decides
/// for good, so a file that grew in between is still hashed right).
pub(crate) fn is_small_file(name: &[u8]) -> bool {
    name != b"-"
        && std::fs::metadata(OsStr::from_bytes(name))
            .is_ok_and(|m| m.is_file() && m.len() <= SMALL as u64)
}

/// Groups `names` into units of work: consecutive small files into batches of up to
/// [`GROUP`], every other input alone (standard input on the feeder thread, in order).
pub(crate) fn group<'a>(
    names: impl Iterator<Item = &'a [u8]> + Send + 'a,
) -> impl Iterator<Item = (Work<'a>, Place)> + Send + 'a {
    let mut names = names.peekable();
    std::iter::from_fn(move || {
        let first = names.next()?;
        if !is_small_file(first) {
            return Some((Work::One(first), place_of(first)));
        }
        let mut batch = vec![first];
        while batch.len() < GROUP {
            match names.peek() {
                Some(next) if is_small_file(next) => batch.push(names.next()?),
                _ => break,
            }
        }
        Some((Work::Small(batch), Place::Pool))
    })
}

/// At most this many inputs, of at most [`HERE_BYTES`] in all, are hashed on the calling
/// thread ([`threads_pay`]).
const HERE_INPUTS: usize = 64;
/// See [`HERE_INPUTS`]: about half a millisecond of hashing on one core, what starting the
/// feeder and the pool costs a process (measured: `multisha sha256sum` on one small file took
/// 1.6 ms of wall time with them, GNU `sha256sum` 0.9 ms).
const HERE_BYTES: u64 = 1 << 20;

/// Whether hashing `names` on threads (the feeder and the pool) pays: two inputs or more
/// (one input is hashed on one thread either way), and more than [`HERE_INPUTS`] of them or
/// more than [`HERE_BYTES`] in all, from their sizes (a stat each; an input of unknown size,
/// standard input or a pipe, counts as large; a missing file as empty, its error is cheap).
pub(crate) fn threads_pay(names: &[&[u8]]) -> bool {
    if names.len() < 2 {
        return false;
    }
    if names.len() > HERE_INPUTS {
        return true;
    }
    let mut total = 0u64;
    for name in names {
        let size = if *name == b"-" {
            None
        } else {
            match std::fs::metadata(OsStr::from_bytes(name)) {
                Ok(meta) => meta.is_file().then_some(meta.len()),
                Err(_) => Some(0),
            }
        };
        total += size.unwrap_or(HERE_BYTES + 1);
        if total > HERE_BYTES {
            return true;
        }
    }
    false
}

/// Hashing mode: prints one line per file; returns whether all files could be read.
pub(crate) fn run_sum(o: &Options, out: &mut Out) -> bool {
    let progress = Progress::new(o.progress);
    let names: Vec<&[u8]> = o.files.iter().map(|f| f.as_bytes()).collect();
    count_sizes(&progress, names.iter().copied());
    let mut ok = true;
    let mut line = Vec::with_capacity(256);
    let items = group(names.iter().copied());
    let work = |work: &Work<'_>| hash_work(o.kind, work, &progress);
    let consume = |event: Event<Work<'_>, Vec<io::Result<Vec<u8>>>>| {
        let (work, results) = match event {
            Event::Waiting => {
                // Nothing to print for a while: let what is ready be seen (or find that
                // nobody reads it any more).
                out.flush();
                return out.keep_going();
            }
            Event::Ready(work, results) => (work, results.unwrap_or_default()),
        };
        for (name, result) in work.names().iter().zip(results) {
            match result {
                Ok(digest) => {
                    line.clear();
                    let binary = o.binary == Some(true);
                    output::sum_line(&mut line, o.kind, &digest, name, o.tag, binary, o.zero);
                    out.write(&line);
                }
                Err(e) => {
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
            }
            out.keep_going()?;
        }
        ControlFlow::Continue(())
    };
    if threads_pay(&names) {
        ordered::run(items, work, consume);
    } else {
        ordered::run_here(items, work, consume);
    }
    progress.finish();
    ok && !out.broken_pipe()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::Tool;

    /// Threads only where they can pay: two inputs or more, and many of them or many bytes
    /// (an input of unknown size counting as many).
    #[test]
    fn threads_only_for_many_inputs_or_many_bytes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let small = dir.path().join("small").into_os_string();
        let large = dir.path().join("large").into_os_string();
        std::fs::write(&small, [1u8; 100]).expect("write");
        std::fs::write(&large, vec![2u8; HERE_BYTES as usize]).expect("write");
        let missing = dir.path().join("missing").into_os_string();
        let (small, large, missing) = (small.as_bytes(), large.as_bytes(), missing.as_bytes());
        assert!(!threads_pay(&[]));
        assert!(!threads_pay(&[large]));
        assert!(!threads_pay(&[b"-"]));
        assert!(!threads_pay(&[small; 5]));
        assert!(!threads_pay(&[small, missing, small]));
        assert!(!threads_pay(&[small; HERE_INPUTS]));
        assert!(threads_pay(&[small; HERE_INPUTS + 1]));
        assert!(threads_pay(&[large, small]));
        assert!(threads_pay(&[small, b"-"]));
    }

    /// Small regular files are grouped (up to `GROUP` in a row), anything else stands alone:
    /// a large file, a missing file, standard input.
    #[test]
    fn small_files_are_grouped_for_the_batch_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = |name: &str| dir.path().join(name).into_os_string();
        let mut names = Vec::new();
        for i in 0..GROUP + 10 {
            let p = path(&format!("small{i}"));
            std::fs::write(&p, vec![i as u8; i * 100]).expect("write");
            names.push(p);
        }
        let big = path("big");
        std::fs::write(&big, vec![7u8; SMALL + 1]).expect("write");
        names.insert(5, big);
        names.insert(7, path("missing"));
        names.insert(9, "-".into());
        let bytes: Vec<&[u8]> = names.iter().map(|n| n.as_bytes()).collect();
        let shapes: Vec<(usize, Place)> = group(bytes.iter().copied())
            .map(|(work, place)| (work.names().len(), place))
            .collect();
        assert_eq!(
            shapes,
            [
                (5, Place::Pool),
                (1, Place::Pool),
                (1, Place::Pool),
                (1, Place::Pool),
                (1, Place::Pool),
                (1, Place::Feeder),
                (GROUP, Place::Pool),
                (3, Place::Pool),
            ]
        );
        // Every file's digest is that of the one-shot function, whichever path it took.
        let sha256 = Tool::of("sha256");
        let progress = Progress::new(false);
        for (work, _) in group(bytes.iter().copied().filter(|n| *n != b"-")) {
            for (name, result) in work.names().iter().zip(hash_work(sha256, &work, &progress)) {
                match std::fs::read(OsStr::from_bytes(name)) {
                    Ok(data) => assert_eq!(result.expect("read"), multisha::sha256(&data)),
                    Err(_) => assert!(result.is_err()),
                }
            }
        }
    }
}
