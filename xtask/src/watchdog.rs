//! A child process's output followed line by line, with the child and every process it
//! started killed once it prints nothing for too long: a run that hangs ends, and says so,
//! instead of holding CI until its own time limit.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// How following a child's output ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Followed {
    /// Its standard output closed: it ended (or closed the pipe; wait for it).
    Ended,
    /// It printed nothing for the given time: it and its descendants were killed.
    Silent,
}

/// Passes every line `child` prints on its piped standard output to `on_line`, until the
/// output closes or nothing comes for `silence`; then kills `child` and every process below
/// it. The caller waits for `child` either way. Errors: the output could not be read (a line
/// that is not UTF-8 is passed on lossily, not an error).
pub(crate) fn follow(
    child: &mut Child,
    silence: Duration,
    mut on_line: impl FnMut(&str),
) -> io::Result<Followed> {
    let Some(stdout) = child.stdout.take() else {
        return Ok(Followed::Ended);
    };
    let (lines, received) = mpsc::channel();
    // Reading blocks, so on a thread of its own; it ends when the pipe closes (every process
    // that holds it exited or was killed) or the receiver is gone.
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut line = Vec::new();
        loop {
            line.clear();
            let read = reader.read_until(b'\n', &mut line).map(|n| {
                (n > 0).then(|| {
                    String::from_utf8_lossy(line.strip_suffix(b"\n").unwrap_or(&line)).into_owned()
                })
            });
            let end = !matches!(read, Ok(Some(_)));
            if lines.send(read).is_err() || end {
                return;
            }
        }
    });
    loop {
        match received.recv_timeout(silence) {
            Ok(Ok(Some(line))) => on_line(&line),
            Ok(Ok(None)) | Err(RecvTimeoutError::Disconnected) => return Ok(Followed::Ended),
            Ok(Err(error)) => return Err(error),
            Err(RecvTimeoutError::Timeout) => {
                kill_tree(child);
                return Ok(Followed::Silent);
            }
        }
    }
}

/// Kills `child` and the processes below it (found in /proc before: children, their children,
/// ...); each gets SIGKILL, which no process can wait out.
fn kill_tree(child: &mut Child) {
    let below = descendants(child.id());
    // The child first: killed after its children, a shell waiting on them could see them end
    // and exit on its own, with success. An error here: it exited already.
    let _ = child.kill();
    if !below.is_empty() {
        let pids: Vec<String> = below.iter().map(u32::to_string).collect();
        // std kills only its own children; `kill` (procps) the rest. A process that exited
        // meanwhile makes it fail for that one only.
        let killed = Command::new("kill")
            .args(["-s", "KILL", "--"])
            .args(&pids)
            .stderr(Stdio::null())
            .status();
        if killed.is_err() {
            crate::system::say(&format!(
                "could not run `kill` for the hung processes {}: kill them by hand",
                pids.join(" ")
            ));
        }
    }
}

/// The processes below `root`, read from /proc (a process's parent is the fourth field of
/// its `stat`, after its name in parentheses, which may hold anything).
fn descendants(root: u32) -> Vec<u32> {
    let mut children: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            let parent = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|p| p.parse::<u32>().ok());
            if let Some(parent) = parent {
                children.entry(parent).or_default().push(pid);
            }
        }
    }
    let mut found = Vec::new();
    let mut next = vec![root];
    while let Some(pid) = next.pop() {
        for &child in children.get(&pid).into_iter().flatten() {
            found.push(child);
            next.push(child);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn shell(script: &str) -> Child {
        Command::new("sh")
            .args(["-c", script])
            .stdout(Stdio::piped())
            .spawn()
            .expect("sh runs")
    }

    #[test]
    fn follows_a_run_to_its_end() {
        let mut child = shell("echo one; echo two; printf three");
        let mut lines = Vec::new();
        let followed = follow(&mut child, Duration::from_secs(60), |l| {
            lines.push(l.to_owned());
        });
        assert_eq!(followed.ok(), Some(Followed::Ended));
        assert_eq!(lines, ["one", "two", "three"]);
        assert!(child.wait().is_ok_and(|s| s.success()));
    }

    /// Whether `pid` runs (a zombie, killed and not yet reaped, does not).
    fn running(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            s.rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().next())
                .is_some_and(|state| state != "Z")
        })
    }

    /// Whether `pid` stops running within a few seconds (a kill takes a moment to land).
    fn ends_soon(pid: u32) -> bool {
        let started = Instant::now();
        while running(pid) {
            if started.elapsed() > Duration::from_secs(5) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        true
    }

    #[test]
    fn kills_a_silent_run_and_what_it_started() {
        // A grandchild that holds the pipe and sleeps, as a test binary hung under qemu does.
        let mut child = shell("sleep 60 & echo started; wait");
        let child_id = child.id();
        let started = Instant::now();
        let mut lines = Vec::new();
        let mut below = Vec::new();
        let followed = follow(&mut child, Duration::from_millis(500), |l| {
            lines.push(l.to_owned());
            below = descendants(child_id);
        });
        assert_eq!(followed.ok(), Some(Followed::Silent));
        assert_eq!(lines, ["started"]);
        assert_eq!(below.len(), 1, "{below:?}");
        assert!(!child.wait().expect("wait").success());
        assert!(ends_soon(below[0]));
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn finds_the_processes_below_one() {
        let mut child = shell("sleep 60 & sleep 60 & echo started; wait");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("a line");
        let below = descendants(child.id());
        assert_eq!(below.len(), 2, "{below:?}");
        assert!(below.iter().all(|&pid| running(pid)));
        kill_tree(&mut child);
        assert!(!child.wait().expect("wait").success());
        assert!(below.iter().all(|&pid| ends_soon(pid)));
    }
}
