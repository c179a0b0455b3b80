//! Reading and hashing inputs: standard input, mmap for large regular files (buffered reads
//! otherwise or when mapping fails), many files in parallel with results in argument order,
//! and an optional progress bar.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use multisha::Digest;
use rayon::prelude::*;

use crate::args::{Kind, Options};
use crate::diag::diag;
use crate::out::Out;
use crate::output;
use crate::std_fds;

/// Regular files at least this large are mapped instead of read (below it, `read` into one
/// buffer is as fast and avoids the page-table setup).
const MMAP_MIN: u64 = 256 * 1024;
/// Streaming read size, and the step at which mapped data advances the progress bar.
const CHUNK: usize = 1 << 20;
/// The progress bar appears only when this much data is to be hashed.
const PROGRESS_MIN: u64 = 256 << 20;
/// Files hashed per parallel batch: results are printed batch by batch, so output starts
/// early and memory stays bounded for huge argument lists.
const BATCH: usize = 4096;

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

/// Progress reporting shared by all worker threads; a no-op unless enabled.
#[derive(Clone)]
pub(crate) struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar on stderr when stderr is a terminal and `total` bytes is a lot.
    pub(crate) fn for_total(total: u64) -> Self {
        use std::io::IsTerminal;
        if total < PROGRESS_MIN || !io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(
            "{bar:40} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}",
        ) {
            bar.set_style(style);
        }
        Progress(Some(bar))
    }

    /// Total size of the regular files among `names` (for deciding on a bar).
    pub(crate) fn for_files<'a>(names: impl Iterator<Item = &'a [u8]>) -> Self {
        let total = names
            .filter(|n| *n != b"-")
            .filter_map(|n| std::fs::metadata(OsStr::from_bytes(n)).ok())
            .filter(std::fs::Metadata::is_file)
            .map(|m| m.len())
            .sum();
        Self::for_total(total)
    }

    fn inc(&self, n: usize) {
        if let Some(bar) = &self.0 {
            bar.inc(n as u64);
        }
    }

    fn enabled(&self) -> bool {
        self.0.is_some()
    }

    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

fn hash_reader(kind: Kind, r: &mut dyn Read, progress: &Progress) -> io::Result<Vec<u8>> {
    let mut hasher = Hasher::new(kind);
    let mut buf = vec![0u8; CHUNK];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return Ok(hasher.finish()),
            Ok(n) => {
                hasher.update(&buf[..n]);
                progress.inc(n);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

fn hash_bytes(kind: Kind, data: &[u8], progress: &Progress) -> Vec<u8> {
    if !progress.enabled() {
        return oneshot(kind, data);
    }
    let mut hasher = Hasher::new(kind);
    for chunk in data.chunks(CHUNK) {
        hasher.update(chunk);
        progress.inc(chunk.len());
    }
    hasher.finish()
}

/// Hashes the file called `name` (`-` is standard input).
pub(crate) fn hash_file(kind: Kind, name: &[u8], progress: &Progress) -> io::Result<Vec<u8>> {
    if name == b"-" {
        return hash_reader(kind, &mut std_fds::stdin(), progress);
    }
    let mut file = File::open(OsStr::from_bytes(name))?;
    let meta = file.metadata()?;
    if meta.is_file() && meta.len() >= MMAP_MIN {
        // `Mmap::map` is unsafe because the mapping aliases the file: if another process
        // truncates or rewrites it while we hash, we may read changed bytes or get SIGBUS.
        // Like ripgrep, we accept that risk for regular files only (never for pipes, devices
        // or procfs-like files), since a concurrent writer makes any checksum meaningless.
        // SAFETY: a regular file, mapped read-only, the map dropped before returning.
        if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
            return Ok(hash_bytes(kind, &map, progress));
        }
        // Mapping can fail (e.g. some network file systems): fall back to reading.
    }
    if meta.is_file() && meta.len() < MMAP_MIN {
        let mut data = Vec::with_capacity(meta.len() as usize + 1);
        file.read_to_end(&mut data)?;
        progress.inc(data.len());
        return Ok(oneshot(kind, &data));
    }
    hash_reader(kind, &mut file, progress)
}

/// Hashes `names` in parallel, calling `emit` for each result in argument order.
pub(crate) fn hash_many<'a, F>(kind: Kind, names: &[&'a [u8]], progress: &Progress, mut emit: F)
where
    F: FnMut(&'a [u8], io::Result<Vec<u8>>),
{
    // Standard input can be read only once at a time: more than one `-` means sequential
    // reads in argument order, as coreutils does.
    let stdin_count = names.iter().filter(|n| **n == b"-").count();
    if stdin_count > 1 || names.len() == 1 {
        for &n in names {
            emit(n, hash_file(kind, n, progress));
        }
        return;
    }
    for batch in names.chunks(BATCH) {
        let results: Vec<io::Result<Vec<u8>>> = batch
            .par_iter()
            .map(|n| hash_file(kind, n, progress))
            .collect();
        for (&n, r) in batch.iter().zip(results) {
            emit(n, r);
        }
    }
}

/// Hashing mode: prints one line per file; returns whether all files could be read.
pub(crate) fn run_sum(o: &Options, out: &mut Out) -> bool {
    let names: Vec<&[u8]> = o.files.iter().map(|f| f.as_bytes()).collect();
    let progress = Progress::for_files(names.iter().copied());
    let mut ok = true;
    let mut line = Vec::with_capacity(256);
    hash_many(o.kind, &names, &progress, |name, result| {
        if out.broken_pipe() {
            return;
        }
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
    });
    progress.finish();
    ok && !out.broken_pipe()
}
