//! Streaming and robustness of the CLI: output appears while input is still being read,
//! memory stays bounded, and a file that shrinks while it is hashed does not kill the
//! process (it used to be memory-mapped: SIGBUS).

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

const EXE: &str = env!("CARGO_BIN_EXE_multisha");
const EMPTY: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
/// Generous for a slow debug build on a loaded machine; only reached when a test fails.
const PATIENCE: Duration = Duration::from_secs(60);

/// Starts `sha256sum args...` (ours, multi-call) with all three streams piped.
fn spawn(args: &[&str], dir: &Path) -> Child {
    Command::new(EXE)
        .arg0("sha256sum")
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", "C")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn")
}

/// Lines of a child's stream, as they come.
fn lines_of<R: Read + Send + 'static>(r: R) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(r).lines() {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

fn stdout_lines(child: &mut Child) -> Receiver<String> {
    let out: ChildStdout = child.stdout.take().expect("stdout");
    lines_of(out)
}

fn stderr_lines(child: &mut Child) -> Receiver<String> {
    let err: ChildStderr = child.stderr.take().expect("stderr");
    lines_of(err)
}

fn next(rx: &Receiver<String>, what: &str) -> String {
    rx.recv_timeout(PATIENCE)
        .unwrap_or_else(|_| panic!("no {what} while the input is still open"))
}

/// Reaps `child` (whose piped streams the caller has read or dropped) and returns its exit
/// status and its peak resident set in KiB as the kernel counted it (`wait4`'s `ru_maxrss`):
/// no sampling that a short peak slips between, no `/proc` to be unreadable.
fn wait_with_peak_rss(child: Child) -> (ExitStatus, u64) {
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    let mut status = 0;
    // SAFETY: `rusage` is plain data, valid all zero.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our unreaped child (`Child` reaps only when waited for, which it is not:
    // it is dropped below); `status` and `usage` are valid for writes.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4: {}", std::io::Error::last_os_error());
    drop(child);
    let kib = u64::try_from(usage.ru_maxrss).expect("a size");
    (ExitStatus::from_raw(status), kib)
}

#[test]
fn hashing_prints_each_line_once_it_and_earlier_ones_are_ready() {
    let dir = tempfile::tempdir().expect("tempdir");
    fs::write(dir.path().join("abc"), b"abc").expect("write");
    let mut child = spawn(&["abc", "-", "abc"], dir.path());
    let out = stdout_lines(&mut child);
    // "abc" is ready long before standard input ends: it must not wait for it.
    assert_eq!(next(&out, "first line"), format!("{ABC}  abc"));
    drop(child.stdin.take());
    assert_eq!(next(&out, "second line"), format!("{EMPTY}  -"));
    assert_eq!(next(&out, "third line"), format!("{ABC}  abc"));
    assert!(child.wait().expect("wait").success());
}

#[test]
fn check_reports_while_the_list_is_still_being_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    fs::write(dir.path().join("abc"), b"abc").expect("write");
    let mut child = spawn(&["-c", "-w"], dir.path());
    let out = stdout_lines(&mut child);
    let err = stderr_lines(&mut child);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(format!("{ABC}  abc\nnot a checksum line\n").as_bytes())
        .expect("write");
    stdin.flush().expect("flush");
    assert_eq!(next(&out, "result"), "abc: OK");
    assert_eq!(
        next(&err, "warning"),
        "sha256sum: 'standard input': 2: improperly formatted SHA256 checksum line"
    );
    drop(stdin);
    assert_eq!(child.wait().expect("wait").code(), Some(0));
    assert_eq!(
        next(&err, "summary"),
        "sha256sum: WARNING: 1 line is improperly formatted"
    );
}

#[test]
fn check_warnings_stream_in_bounded_memory() {
    const LINES: usize = 300_000;
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = spawn(&["-c", "-w"], dir.path());
    let err = stderr_lines(&mut child);
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = thread::spawn(move || {
        let chunk = "x\n".repeat(1000);
        for _ in 0..LINES / 1000 {
            stdin.write_all(chunk.as_bytes()).expect("write");
        }
        stdin
    });
    // Every warning arrives while the list is still open (the writer keeps it open).
    for n in 1..=LINES {
        let want =
            format!("sha256sum: 'standard input': {n}: improperly formatted SHA256 checksum line");
        assert_eq!(next(&err, "warning"), want);
    }
    let stdin = writer.join().expect("writer");
    drop(stdin);
    let (status, kib) = wait_with_peak_rss(child);
    assert_eq!(status.code(), Some(1));
    assert_eq!(
        next(&err, "summary"),
        "sha256sum: 'standard input': no properly formatted checksum lines found"
    );
    assert!(kib < 32 * 1024, "peak RSS {kib} KiB");
}

#[test]
fn a_big_file_is_hashed_in_bounded_memory() {
    const SIZE: u64 = 32 << 20;
    let dir = tempfile::tempdir().expect("tempdir");
    let big = dir.path().join("big");
    // Sparse: reading it allocates page cache, which a memory map would count as ours.
    fs::File::create(&big)
        .and_then(|f| f.set_len(SIZE))
        .expect("create");
    let mut child = Command::new(EXE)
        .args(["sha256sum", "big"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("read");
    let (status, peak) = wait_with_peak_rss(child);
    assert!(status.success());
    assert_eq!(
        stdout,
        "83ee47245398adee79bd9c0a8bc57b821e92aba10f5f9ade8a5d1fae4d8c4302  big\n"
    );
    assert!(
        peak < 16 * 1024,
        "peak RSS {peak} KiB for a {SIZE}-byte file"
    );
}

/// Where process `pid` reads `path`: the descriptor it has open on it and that descriptor's
/// file position (`pos:` in `/proc/<pid>/fdinfo/<fd>`), or `None` while it has none.
#[cfg(target_os = "linux")]
fn read_position(pid: u32, path: &Path) -> Option<(String, u64)> {
    let fds = fs::read_dir(format!("/proc/{pid}/fd")).ok()?;
    fds.flatten().find_map(|fd| {
        if fs::read_link(fd.path()).ok()? != path {
            return None;
        }
        let fd = fd.file_name().into_string().ok()?;
        let info = fs::read_to_string(format!("/proc/{pid}/fdinfo/{fd}")).ok()?;
        let pos = info.lines().find_map(|l| l.strip_prefix("pos:"))?;
        Some((fd, pos.trim().parse().ok()?))
    })
}

/// Whether every thread of process `pid` is stopped (state `T` in `/proc/<pid>/task/*/stat`):
/// then none is inside a `read`, and file positions stay put.
#[cfg(target_os = "linux")]
fn all_threads_stopped(pid: u32) -> bool {
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().all(|task| {
        fs::read_to_string(task.path().join("stat")).is_ok_and(|stat| {
            // The state follows the command name, which is in parentheses.
            stat.rsplit_once(") ")
                .is_some_and(|(_, rest)| rest.starts_with('T'))
        })
    })
}

/// A child that is killed and reaped if the test fails while it is stopped (or running).
#[cfg(target_os = "linux")]
struct Reaped(Option<Child>);

#[cfg(target_os = "linux")]
impl Drop for Reaped {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[cfg(target_os = "linux")]
fn signal(child: &Child, sig: libc::c_int) {
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: `kill` only sends a signal; `pid` is our child, not yet reaped (so not reused).
    let rc = unsafe { libc::kill(pid, sig) };
    assert_eq!(rc, 0, "kill: {}", std::io::Error::last_os_error());
}

/// A file that shrinks to nothing while it is being read ends where it was cut, as in
/// coreutils: its digest is that of the bytes read before the cut, the other files' lines are
/// all there, nothing is killed (a memory map used to die of SIGBUS) and the exit status is 0.
/// The cut is made while the tool is provably mid-read: the test stops the whole process once
/// its descriptor on the file is strictly inside it, truncates, and lets it go on; so the
/// expected digest is exact. A tool that reads the whole file at once, or a run that is never
/// seen mid-read, fails.
#[cfg(target_os = "linux")]
#[test]
fn a_file_truncated_while_hashed_does_not_kill_the_run() {
    use sha2::Digest as _;
    // Sparse, so free to create; far more than the tool can read while the test goes from
    // seeing it mid-read to stopping it, even on a loaded machine.
    const SIZE: u64 = 1 << 30;
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    fs::write(d.join("small1"), b"abc").expect("write");
    fs::write(d.join("small2"), b"").expect("write");
    let big = d.join("big");
    fs::File::create(&big)
        .and_then(|f| f.set_len(SIZE))
        .expect("create");
    let big_path = fs::canonicalize(&big).expect("canonicalize");
    let mut child = Reaped(Some(
        Command::new(EXE)
            .args(["sha256sum", "small1", "big", "small2"])
            .current_dir(d)
            .env("LC_ALL", "C")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn"),
    ));
    let running = child.0.as_mut().expect("the child");
    let pid = running.id();
    // Watch the descriptor until it has read some of the file but not all of it.
    let start = Instant::now();
    loop {
        if let Some((_, pos)) = read_position(pid, &big_path)
            && pos > 0
        {
            assert!(pos < SIZE, "read the whole file at once ({pos} bytes)");
            break;
        }
        if let Some(status) = running.try_wait().expect("try_wait") {
            panic!("ended ({status:?}) before it was seen reading the file");
        }
        assert!(
            start.elapsed() < PATIENCE,
            "not seen reading the file within {PATIENCE:?}"
        );
        // No sleep: the sooner the test looks again, the less the tool reads meanwhile.
        thread::yield_now();
    }
    signal(running, libc::SIGSTOP);
    while !all_threads_stopped(pid) {
        assert!(
            start.elapsed() < PATIENCE,
            "not stopped within {PATIENCE:?}"
        );
        thread::sleep(Duration::from_millis(1));
    }
    // Stopped: the position no longer moves; the file must still be open and not read through.
    let (fd, pos) = read_position(pid, &big_path).expect("the file still open once stopped");
    assert!(
        0 < pos && pos < SIZE,
        "fd {fd} at {pos} of {SIZE} bytes once stopped: not mid-read"
    );
    fs::OpenOptions::new()
        .write(true)
        .open(&big)
        .and_then(|f| f.set_len(0))
        .expect("truncate");
    signal(running, libc::SIGCONT);
    let out = child
        .0
        .take()
        .expect("the child")
        .wait_with_output()
        .expect("wait");
    assert_eq!(
        out.status.signal(),
        None,
        "killed by a signal: {:?}",
        out.status
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "stderr: {stderr}");
    assert_eq!(out.status.code(), Some(0), "{:?}", out.status);
    // The bytes read before the cut are zeros (a hole): hash as many with RustCrypto.
    let mut reference = sha2::Sha256::new();
    let zeros = vec![0u8; 1 << 20];
    let mut left = pos;
    while left > 0 {
        let n = left.min(zeros.len() as u64);
        reference.update(&zeros[..n as usize]);
        left -= n;
    }
    let hex: String = reference
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            format!("{ABC}  small1"),
            format!("{hex}  big"),
            format!("{EMPTY}  small2"),
        ],
        "the cut came after {pos} bytes"
    );
}

/// `sha256sum -c - | head -1` with a list that is still being written: once a result finds the
/// output gone, the run ends at once, as GNU's does (SIGPIPE), instead of waiting for the next
/// line or the end of standard input. Exit status 1 and no "write error" message, as for any
/// broken pipe.
#[test]
fn check_stops_when_its_output_breaks_while_standard_input_stays_open() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Over 64 KiB: a small file's line would wait for the next (to be batched with it).
    let data = vec![0x5au8; 100_000];
    fs::write(dir.path().join("big"), &data).expect("write");
    let hex: String = multisha::sha256(&data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let mut child = spawn(&["-c", "-"], dir.path());
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let err = stderr_lines(&mut child);
    writeln!(stdin, "{hex}  big").expect("write the list");
    // The first line, then the reader goes away (closing the pipe), as `head -1` does.
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut out = BufReader::new(stdout);
        let mut first = String::new();
        let _ = out.read_line(&mut first);
        let _ = tx.send(first);
    });
    let first = rx.recv_timeout(PATIENCE);
    if first.is_err() {
        child.kill().expect("kill");
    }
    assert_eq!(first.expect("the first line"), "big: OK\n");
    // The next result is written into the closed pipe; standard input stays open.
    writeln!(stdin, "{hex}  big").expect("write the list");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break Some(status);
        }
        if start.elapsed() > Duration::from_secs(10) {
            break None;
        }
        thread::sleep(Duration::from_millis(10));
    };
    let Some(status) = status else {
        child.kill().expect("kill");
        child.wait().expect("wait");
        panic!("still running 10 s after its output broke, waiting for standard input");
    };
    drop(stdin);
    assert_eq!(status.code(), Some(1), "{status:?}");
    let messages: Vec<String> = err.try_iter().collect();
    assert!(messages.is_empty(), "{messages:?}");
}
