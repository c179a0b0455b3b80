//! Compatibility with GNU coreutils' sha1sum / sha224sum / sha256sum on this machine: same
//! stdout, stderr (modulo program name) and exit status. Our binary is run with argv[0] set
//! to the tool name (multi-call), so even the program-name prefix matches byte for byte.

use std::fs;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const EXE: &str = env!("CARGO_BIN_EXE_multisha");
/// Every tool coreutils has a counterpart of (sha512_224sum and sha512_256sum have none).
const TOOLS: [&str; 5] = [
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
];

/// Whether the GNU coreutils tool (or bash) exists; prints a note when it does not. Where
/// coreutils is expected (`MULTISHA_EXPECT_COREUTILS=1`: CI installs it), a missing tool fails
/// the test instead: the comparisons would otherwise pass having compared nothing.
fn have(tool: &str) -> bool {
    let output = Command::new(tool)
        .arg("--version")
        .stderr(Stdio::null())
        .output();
    // busybox answers `--version` with an error; a non-GNU tool that answers is no peer.
    let ok = output.is_ok_and(|o| {
        o.status.success() && (tool == "bash" || String::from_utf8_lossy(&o.stdout).contains("GNU"))
    });
    if !ok {
        assert!(
            std::env::var_os("MULTISHA_EXPECT_COREUTILS").is_none_or(|v| v != "1"),
            "MULTISHA_EXPECT_COREUTILS=1 but GNU {tool} is missing"
        );
        eprintln!("note: GNU {tool} not found, skipping its comparison");
    }
    ok
}

/// The digests of "abc" (FIPS 180-4's examples; SHA-512/t from its test vectors), which every
/// tool must print with no other tool to compare with.
const ABC: [(&str, &str); 7] = [
    ("sha1sum", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    (
        "sha224sum",
        "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
    ),
    (
        "sha256sum",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    ),
    (
        "sha384sum",
        "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded163\
         1a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
    ),
    (
        "sha512sum",
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
         2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    ),
    (
        "sha512_224sum",
        "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa",
    ),
    (
        "sha512_256sum",
        "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
    ),
];

#[test]
fn known_answers_need_no_other_tool() {
    let dir = tempfile::tempdir().expect("tempdir");
    fs::write(dir.path().join("abc"), b"abc").expect("write");
    for (tool, digest) in ABC {
        let out = ours(tool, &[b"abc", b"-"], dir.path(), Some(b"abc"));
        assert!(out.status.success(), "{tool}: {out:?}");
        let want = format!("{digest}  abc\n{digest}  -\n");
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{tool}");
        let list = format!("{digest}  abc\n");
        fs::write(dir.path().join("list"), &list).expect("write");
        let out = ours(tool, &[b"-c", b"list"], dir.path(), None);
        assert!(out.status.success(), "{tool} -c: {out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "abc: OK\n",
            "{tool} -c"
        );
    }
}

fn run(mut cmd: Command, dir: &Path, stdin: Option<&[u8]>) -> Output {
    cmd.current_dir(dir).env("LC_ALL", "C");
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    if let Some(data) = stdin {
        // A run that hashes named files never reads its stdin and may exit first.
        match child.stdin.take().expect("stdin").write_all(data) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("write stdin: {e}"),
            _ => {}
        }
    }
    child.wait_with_output().expect("wait")
}

fn ours(tool: &str, args: &[&[u8]], dir: &Path, stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(EXE);
    cmd.arg0(tool);
    cmd.args(args.iter().map(|a| std::ffi::OsStr::from_bytes(a)));
    run(cmd, dir, stdin)
}

fn theirs(tool: &str, args: &[&[u8]], dir: &Path, stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(tool);
    cmd.args(args.iter().map(|a| std::ffi::OsStr::from_bytes(a)));
    run(cmd, dir, stdin)
}

fn show(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Asserts that our run `a` and coreutils' run `b` of `tool args` (`context`: what else was
/// applied) printed the same stdout and stderr and exited alike; returns ours.
fn assert_alike(a: Output, b: Output, tool: &str, args: &[&[u8]], context: &str) -> Output {
    let shown: Vec<String> = args.iter().map(|a| show(a)).collect();
    for (what, ours, theirs) in [
        ("stdout", &a.stdout, &b.stdout),
        ("stderr", &a.stderr, &b.stderr),
    ] {
        assert_eq!(
            show(ours),
            show(theirs),
            "{what} of {tool} {shown:?} {context}"
        );
    }
    assert_eq!(
        a.status.code(),
        b.status.code(),
        "status of {tool} {shown:?} {context}"
    );
    a
}

/// Runs both and asserts identical stdout, stderr and status.
fn same(tool: &str, args: &[&[u8]], dir: &Path, stdin: Option<&[u8]>) -> Output {
    let a = ours(tool, args, dir, stdin);
    let b = theirs(tool, args, dir, stdin);
    assert_alike(a, b, tool, args, "")
}

/// Names that exercise the escaping rules, and contents that exercise the padding.
fn fixture(dir: &Path) -> Vec<Vec<u8>> {
    let mut names: Vec<Vec<u8>> = Vec::new();
    let mut add = |name: &[u8], data: &[u8]| {
        fs::write(dir.join(std::ffi::OsStr::from_bytes(name)), data).expect("write fixture");
        names.push(name.to_vec());
    };
    add(b"empty", b"");
    add(b"abc", b"abc");
    let binary: Vec<u8> = (0..=255u8).cycle().take(300_000).collect();
    add(b"binary.bin", &binary);
    add(b"block55", &[0x61; 55]);
    add(b"block64", &[0x62; 64]);
    add(b"with space", b"space\n");
    add(b"back\\slash", b"bs");
    add(b"new\nline", b"nl");
    add(b"car\rreturn", b"cr");
    add(b"both\\and\nnew", b"both");
    add(b"star*name", b"star");
    add(b"it's", b"quote");
    add(b"invalid\xff\xfeutf8", b"bytes");
    names
}

#[test]
fn hash_output_is_identical() {
    let dir = tempfile::tempdir().expect("tempdir");
    let names = fixture(dir.path());
    let option_sets: [&[&[u8]]; 7] = [
        &[],
        &[b"-b"],
        &[b"-t"],
        &[b"--tag"],
        &[b"-z"],
        &[b"--tag", b"-z"],
        &[b"-b", b"--tag"],
    ];
    for tool in TOOLS {
        if !have(tool) {
            continue;
        }
        for opts in option_sets {
            let mut args: Vec<&[u8]> = opts.to_vec();
            args.extend(names.iter().map(Vec::as_slice));
            same(tool, &args, dir.path(), None);
        }
        // Standard input: implicit, explicit, and mixed with files.
        same(tool, &[], dir.path(), Some(b"from stdin\n"));
        same(tool, &[b"-"], dir.path(), Some(b""));
        same(tool, &[b"abc", b"-", b"empty"], dir.path(), Some(b"x"));
        same(tool, &[b"--tag", b"-"], dir.path(), Some(b"tagged"));
    }
}

#[test]
fn check_accepts_each_others_output() {
    let dir = tempfile::tempdir().expect("tempdir");
    let names = fixture(dir.path());
    for tool in TOOLS {
        if !have(tool) {
            continue;
        }
        for opts in [&[][..], &[&b"--tag"[..]][..], &[&b"-b"[..]][..]] {
            let mut args: Vec<&[u8]> = opts.to_vec();
            args.extend(names.iter().map(Vec::as_slice));
            let mine = ours(tool, &args, dir.path(), None);
            let gnu = theirs(tool, &args, dir.path(), None);
            fs::write(dir.path().join("mine.sums"), &mine.stdout).expect("write");
            fs::write(dir.path().join("gnu.sums"), &gnu.stdout).expect("write");
            for list in [&b"mine.sums"[..], b"gnu.sums"] {
                let out = same(tool, &[b"-c", list], dir.path(), None);
                assert_eq!(out.status.code(), Some(0), "{tool} -c {}", show(list));
                same(tool, &[b"--check", b"--quiet", list], dir.path(), None);
                same(tool, &[b"-c", b"-"], dir.path(), Some(&mine.stdout));
            }
        }
    }
}

#[test]
fn error_cases_match() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    fixture(d);
    fs::create_dir(d.join("adir")).expect("mkdir");
    let h = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    let mut list = String::new();
    list.push_str(&format!("{h}  empty\n"));
    list.push_str("garbage line\n");
    list.push_str(&format!("{h}  missing file\n"));
    list.push_str(&format!("{}  abc\n", h.replace('e', "0")));
    list.push_str(&format!("{h}  adir\n"));
    list.push_str(&format!("SHA256 (empty) = {}\n", h.to_uppercase()));
    list.push_str("# a comment\n\n");
    list.push_str(&format!("{h} *empty\r\n"));
    list.push_str(&format!("\\{h}  bad\\escape\n"));
    list.push_str(&format!("{h}  empty"));
    fs::write(d.join("mixed.sums"), &list).expect("write");
    fs::write(d.join("junk.sums"), "nothing here\n").expect("write");
    fs::write(d.join("only-missing.sums"), format!("{h}  gone\n")).expect("write");
    fs::write(
        d.join("reversed.sums"),
        format!("{h} empty\n{h} with space\n"),
    )
    .expect("write");

    let tool = "sha256sum";
    if !have(tool) {
        return;
    }
    let cases: &[&[&[u8]]] = &[
        &[
            b"missing",
            b"empty",
            b"adir",
            b"'odd name'",
            b"a:b",
            b"new\nmissing",
        ],
        &[b"-c", b"mixed.sums"],
        &[b"-c", b"-w", b"mixed.sums"],
        &[b"-c", b"--quiet", b"mixed.sums"],
        &[b"-c", b"--status", b"mixed.sums"],
        &[b"-c", b"--strict", b"mixed.sums"],
        &[b"-c", b"--ignore-missing", b"mixed.sums"],
        &[b"-c", b"junk.sums"],
        &[b"-c", b"--status", b"junk.sums"],
        &[b"-c", b"--ignore-missing", b"only-missing.sums"],
        &[
            b"-c",
            b"--ignore-missing",
            b"--status",
            b"only-missing.sums",
        ],
        &[
            b"-c",
            b"--ignore-missing",
            b"only-missing.sums",
            b"mixed.sums",
        ],
        &[b"-c", b"no-such.sums", b"adir", b"junk.sums"],
        &[b"-c", b"reversed.sums"],
        &[b"--status", b"empty"],
        &[b"--quiet", b"empty"],
        &[b"--strict", b"empty"],
        &[b"--ignore-missing", b"empty"],
        &[b"-w", b"empty"],
        &[b"-c", b"--tag", b"mixed.sums"],
        &[b"-c", b"-b", b"mixed.sums"],
        &[b"-c", b"-z", b"mixed.sums"],
        &[b"--tag", b"-t", b"empty"],
        &[b"--bogus"],
        &[b"--s"],
        &[b"--sta", b"-c", b"mixed.sums"],
        &[b"--tag=1", b"empty"],
        &[b"-q"],
        &[b"--", b"-c"],
    ];
    for args in cases {
        same(tool, args, d, None);
    }
    same(tool, &[b"-c"], d, Some(list.as_bytes()));
    same(tool, &[b"-c"], d, Some(format!("{h}  -\n").as_bytes()));
}

/// Runs `prog args...` as user nobody (root can read anything, so a permission error needs
/// an unprivileged user); `None` when setpriv is unavailable.
fn as_nobody(prog: &str, arg0: &str, args: &[&str], dir: &Path) -> Option<Output> {
    let mut cmd = Command::new("setpriv");
    cmd.args([
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        "bash",
        "-c",
    ])
    .arg("p=$1; a=$2; shift 2; exec -a \"$a\" \"$p\" \"$@\"")
    .args(["bash", prog, arg0])
    .args(args);
    let out = run(cmd, dir, None);
    // setpriv or bash missing, or the user switch failing: nothing ran.
    let ran =
        !matches!(out.status.code(), Some(126 | 127)) && !show(&out.stderr).starts_with("setpriv:");
    ran.then_some(out)
}

#[test]
fn permission_denied_matches() {
    use std::os::unix::fs::PermissionsExt;
    if !have("sha256sum") {
        return;
    }
    // In /tmp rather than $TMPDIR, which may be private to this user.
    let dir = tempfile::tempdir_in("/tmp").expect("tempdir");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).expect("chmod dir");
    let p = dir.path().join("secret");
    fs::write(&p, b"x").expect("write");
    fs::write(dir.path().join("open"), b"y").expect("write");
    fs::set_permissions(&p, fs::Permissions::from_mode(0o000)).expect("chmod");
    let args = ["secret", "open"];
    let (a, b) = if fs::read(&p).is_ok() {
        // Root: run both tools as nobody.
        let Some(a) = as_nobody(EXE, "sha256sum", &args, dir.path()) else {
            eprintln!("note: running as root without setpriv/bash, permission test skipped");
            return;
        };
        let b = as_nobody(
            "/usr/bin/env",
            "env",
            &["sha256sum", "secret", "open"],
            dir.path(),
        )
        .expect("setpriv worked once");
        (a, b)
    } else {
        let args: Vec<&[u8]> = args.iter().map(|a| a.as_bytes()).collect();
        (
            ours("sha256sum", &args, dir.path(), None),
            theirs("sha256sum", &args, dir.path(), None),
        )
    };
    assert_eq!(show(&a.stdout), show(&b.stdout));
    assert_eq!(show(&a.stderr), show(&b.stderr));
    assert!(
        show(&a.stderr).contains("Permission denied"),
        "{}",
        show(&a.stderr)
    );
    assert_eq!(a.status.code(), Some(1));
    assert_eq!(b.status.code(), Some(1));
}

#[test]
fn check_finds_exactly_the_corrupted_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let mut names = Vec::new();
    for i in 0..1000 {
        let name = format!("f{i:04}");
        fs::write(
            d.join(&name),
            format!("content of file {i}\n").repeat(i % 7 + 1),
        )
        .expect("write");
        names.push(name);
    }
    let mut cmd = Command::new(EXE);
    cmd.arg("sha256sum").args(&names);
    let sums = run(cmd, d, None);
    assert!(sums.status.success());
    fs::write(d.join("all.sums"), &sums.stdout).expect("write");
    let corrupted = [3usize, 250, 511, 999];
    for &i in &corrupted {
        fs::write(d.join(&names[i]), b"tampered").expect("write");
    }
    let mut cmd = Command::new(EXE);
    cmd.args(["sha256sum", "--check", "--quiet", "all.sums"]);
    let out = run(cmd, d, None);
    assert_eq!(out.status.code(), Some(1));
    let expected: String = corrupted
        .iter()
        .map(|&i| format!("{}: FAILED\n", names[i]))
        .collect();
    assert_eq!(show(&out.stdout), expected);
    assert!(show(&out.stderr).ends_with("WARNING: 4 computed checksums did NOT match\n"));
    if have("sha256sum") {
        same("sha256sum", &[b"-c", b"all.sums"], d, None);
    }
}

#[test]
fn multi_call_through_symlink() {
    let dir = tempfile::tempdir().expect("tempdir");
    let link = dir.path().join("sha256sum");
    std::os::unix::fs::symlink(EXE, &link).expect("symlink");
    fs::write(dir.path().join("abc"), b"abc").expect("write");
    let out = run(Command::new(&link), dir.path(), Some(b"abc"));
    assert_eq!(
        show(&out.stdout),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -\n"
    );
    let mut cmd = Command::new(&link);
    cmd.arg("nope");
    let out = run(cmd, dir.path(), None);
    assert_eq!(out.status.code(), Some(1));
    let prefix = format!("{}: nope: No such file or directory\n", link.display());
    assert_eq!(show(&out.stderr), prefix);
    // The subcommand form gives the same digests.
    let mut cmd = Command::new(EXE);
    cmd.args(["sha1sum", "abc"]);
    let out = run(cmd, dir.path(), None);
    assert_eq!(
        show(&out.stdout),
        "a9993e364706816aba3e25717850c26c9cd0d89d  abc\n"
    );
}

#[test]
fn variants_lists_everything_and_forcing_works() {
    let mut cmd = Command::new(EXE);
    cmd.arg("variants");
    let out = run(cmd, Path::new("/"), None);
    assert!(out.status.success());
    let text = show(&out.stdout);
    for &alg in multisha::engine::Algorithm::ALL {
        for v in alg.variants() {
            assert!(
                text.lines()
                    .any(|l| l.split_whitespace().next() == Some(v.name())),
                "{} missing from:\n{text}",
                v.name()
            );
        }
        assert!(text.contains(&alg.to_string()));
    }
    assert!(text.contains("active:"));

    let dir = tempfile::tempdir().expect("tempdir");
    let mut cmd = Command::new(EXE);
    cmd.args(["sha256sum", "--variant", "bogus", "-"]);
    let out = run(cmd, dir.path(), Some(b""));
    assert_eq!(out.status.code(), Some(1));
    assert!(show(&out.stderr).contains("bogus"));
    assert!(out.stdout.is_empty());

    // A SHA-256 name is not a SHA-1 variant: checked against the right algorithm.
    let mut cmd = Command::new(EXE);
    cmd.args(["sha1sum", "--variant=unroll64", "-"]);
    assert_eq!(run(cmd, dir.path(), Some(b"")).status.code(), Some(1));

    // Every variant this CPU runs gives the same digests.
    for (tool, alg, want) in [
        (
            "sha1sum",
            multisha::engine::Algorithm::Sha1,
            "a9993e364706816aba3e25717850c26c9cd0d89d",
        ),
        (
            "sha224sum",
            multisha::engine::Algorithm::Sha256,
            "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
        ),
        (
            "sha256sum",
            multisha::engine::Algorithm::Sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        ),
    ] {
        for v in alg.variants() {
            let mut cmd = Command::new(EXE);
            cmd.args([tool, "--variant", v.name()]);
            let out = run(cmd, dir.path(), Some(b"abc"));
            if v.is_available() {
                assert_eq!(
                    show(&out.stdout),
                    format!("{want}  -\n"),
                    "{tool} {}",
                    v.name()
                );
            } else {
                assert_eq!(out.status.code(), Some(1), "{tool} {}", v.name());
            }
        }
    }
}

/// `multisha variants` is a table a terminal shows whole: in every table each row's
/// availability sits under its header whatever the width of the requirement lists (SHA-512's
/// AVX-512 list is the widest), and descriptions wrap rather than run past 120 columns.
#[test]
fn variants_rows_line_up_and_fit_the_width() {
    let mut cmd = Command::new(EXE);
    cmd.arg("variants");
    let out = run(cmd, Path::new("/"), None);
    assert!(out.status.success());
    let text = show(&out.stdout);
    let names: Vec<&str> = multisha::engine::Algorithm::ALL
        .iter()
        .flat_map(|a| a.variants())
        .map(|v| v.name())
        .collect();
    // The column of AVAILABLE while in a table (from its header to its "active:" line).
    let mut column = None;
    let mut rows = 0;
    for line in text.lines() {
        if line.trim_start().starts_with("VARIANT") {
            column = line.find("AVAILABLE");
            continue;
        }
        if line.trim_start().starts_with("active:") {
            column = None;
        }
        let Some(at) = column else { continue };
        assert!(line.len() <= 120, "over 120 columns: {line}");
        let first = line.split_whitespace().next();
        if first.is_some_and(|name| names.contains(&name)) {
            let cell = &line[at..];
            assert!(
                cell.starts_with("yes ") || cell.starts_with("no "),
                "AVAILABLE not under its header:\n{line}"
            );
            rows += 1;
        }
    }
    assert!(rows >= names.len() / 2, "too few rows found:\n{text}");
}

/// `--version` has one format for `multisha` and for each tool (`sha256sum (multisha) 0.1.0`,
/// as coreutils writes `sha256sum (GNU coreutils) 9.1`).
#[test]
fn every_command_answers_version_alike() {
    let version = |args: &[&str]| {
        let mut cmd = Command::new(EXE);
        cmd.args(args);
        let out = run(cmd, Path::new("/"), None);
        assert!(out.status.success(), "{args:?}");
        show(&out.stdout)
    };
    let top = version(&["--version"]);
    let tool = version(&["sha256sum", "--version"]);
    let (top_first, top_rest) = top.split_once('\n').expect("two lines");
    let (tool_first, tool_rest) = tool.split_once('\n').expect("two lines");
    let number = env!("CARGO_PKG_VERSION");
    assert_eq!(top_first, format!("multisha {number}"));
    assert_eq!(tool_first, format!("sha256sum (multisha) {number}"));
    assert_eq!(top_rest, tool_rest);
}

/// `MULTISHA_CPU` masks features (and those that imply them): `variants` names the mask and
/// lists the masked variants as unavailable, `--variant` refuses them as on a CPU without the
/// feature, and a bad mask fails closed (every feature removed), reported by `variants` and
/// on standard error by the hashing tools, whose digests stay right.
#[cfg(target_arch = "x86_64")]
#[test]
fn a_cpu_mask_is_named_and_its_variants_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut cmd = Command::new(EXE);
    cmd.arg("variants").env("MULTISHA_CPU", "-sha,-avx512f");
    let out = run(cmd, dir.path(), None);
    assert!(out.status.success());
    let text = show(&out.stdout);
    assert!(
        text.contains(
            "CPU mask: MULTISHA_CPU=-sha,-avx512f (removes sha avx512f avx512bw avx512vl)\n"
        ),
        "{text}"
    );
    assert!(text.contains("CPU features as masked: "), "{text}");
    let masked = text
        .lines()
        .find(|l| l.trim_start().starts_with("CPU features as masked: "))
        .expect("the masked line");
    assert!(
        !masked.contains(" sha") && !masked.contains("avx512f"),
        "{masked}"
    );
    let mut rows = 0;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        // A row: name, lanes, requirements, availability, ...
        if words.len() > 3 && words[2].split(',').any(|f| f == "sha" || f == "avx512f") {
            assert_eq!(words[3], "no", "{line}");
            rows += 1;
        }
    }
    assert!(rows >= 4, "the SHA-NI and AVX-512 rows:\n{text}");
    let mut cmd = Command::new(EXE);
    cmd.args(["sha256sum", "--variant", "shani", "-"])
        .env("MULTISHA_CPU", "-sha");
    let out = run(cmd, dir.path(), Some(b"abc"));
    assert_eq!(out.status.code(), Some(1));
    let err = show(&out.stderr);
    assert!(
        err.contains("SHA-256 variant \"shani\" cannot run on this CPU (missing: sha)"),
        "{err}"
    );
    let mut cmd = Command::new(EXE);
    cmd.args(["sha256sum", "-"]).env("MULTISHA_CPU", "-sha");
    let out = run(cmd, dir.path(), Some(b"abc"));
    assert_eq!(
        show(&out.stdout),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -\n"
    );

    let mut cmd = Command::new(EXE);
    cmd.arg("variants").env("MULTISHA_CPU", "-sha,+avx2");
    let text = show(&run(cmd, dir.path(), None).stdout);
    assert!(
        text.contains(
            "CPU mask: MULTISHA_CPU=-sha,+avx2 refused, every feature removed (portable \
             variants only): \"+avx2\": a mask can only"
        ),
        "{text}"
    );
    assert!(text.contains("CPU features as masked: none\n"), "{text}");
    // A typo (`-avx512` for `-avx512f`) runs nothing the mask might have meant to remove, and
    // says so on standard error; a refused override too.
    let mut cmd = Command::new(EXE);
    cmd.args(["sha256sum", "-"])
        .env("MULTISHA_CPU", "-sha,-avx512")
        .env("MULTISHA_SHA1", "no-such-variant");
    let out = run(cmd, dir.path(), Some(b"abc"));
    assert!(out.status.success());
    assert_eq!(
        show(&out.stdout),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -\n"
    );
    let err = show(&out.stderr);
    assert!(
        err.contains("warning: MULTISHA_CPU=-sha,-avx512 refused, every feature removed"),
        "{err}"
    );
    assert!(err.contains("warning: MULTISHA_SHA1: "), "{err}");
}

#[test]
fn help_version_and_usage_errors() {
    for args in [
        &["sha256sum", "--help"][..],
        &["sha256sum", "--version"],
        &["--help"],
    ] {
        let mut cmd = Command::new(EXE);
        cmd.args(args);
        let out = run(cmd, Path::new("/"), None);
        assert!(out.status.success(), "{args:?}");
        assert!(!out.stdout.is_empty());
    }
    for args in [&["sha256sum", "--nope"][..], &[], &["frobnicate"]] {
        let mut cmd = Command::new(EXE);
        cmd.args(args);
        let out = run(cmd, Path::new("/"), None);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(show(&out.stderr).contains("--help"));
    }
}

/// Runs `tool args...` through bash with the redirections `redir` (such as `<&-` or
/// `>/dev/full`) applied to the exec: ours when `mine`, else coreutils'.
fn redirected(mine: bool, tool: &str, args: &[&[u8]], redir: &str, dir: &Path) -> Output {
    let mut cmd = Command::new("bash");
    let script = format!("p=$1; a=$2; shift 2; exec -a \"$a\" \"$p\" \"$@\" {redir}");
    cmd.arg("-c").arg(script).arg("bash");
    cmd.arg(if mine { EXE } else { tool }).arg(tool);
    cmd.args(args.iter().map(|a| std::ffi::OsStr::from_bytes(a)));
    run(cmd, dir, None)
}

/// Like `same`, with redirections applied to both runs.
fn same_redirected(tool: &str, args: &[&[u8]], redir: &str, dir: &Path) -> Output {
    let a = redirected(true, tool, args, redir, dir);
    let b = redirected(false, tool, args, redir, dir);
    assert_alike(a, b, tool, args, redir)
}

/// Files and checksum lists shared by the redirection tests; returns the file names.
fn std_streams_fixture(d: &Path) -> Vec<Vec<u8>> {
    let names = fixture(d);
    let h = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    let list = format!("{h}  empty\ngarbage\n{h}  missing\n{h}  abc\n");
    fs::write(d.join("mixed.sums"), list).expect("write");
    fs::write(d.join("dash.sums"), format!("{h}  -\n{h}  empty\n")).expect("write");
    // More output than any stdio or BufWriter buffer, so a write fails mid-run.
    let many: String = (0..3000).map(|_| format!("{h}  empty\n")).collect();
    fs::write(d.join("many.sums"), many).expect("write");
    names
}

#[test]
fn closed_standard_input_matches() {
    if !have("sha256sum") || !have("bash") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std_streams_fixture(d);
    let cases: &[&[&[u8]]] = &[
        &[],
        &[b"-"],
        &[b"abc", b"-", b"empty"],
        &[b"-", b"-"],
        &[b"--tag", b"-"],
        &[b"abc"],
        &[b"-c"],
        &[b"-c", b"-"],
        &[b"-c", b"mixed.sums", b"-"],
        &[b"-c", b"dash.sums"],
        &[b"-c", b"--status", b"dash.sums"],
    ];
    for args in cases {
        same_redirected("sha256sum", args, "<&-", d);
        same_redirected("sha256sum", args, "<&- >&-", d);
    }
}

#[test]
fn closed_standard_output_matches() {
    if !have("sha256sum") || !have("bash") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std_streams_fixture(d);
    let cases: &[&[&[u8]]] = &[
        &[b"abc"],
        &[b"--help"],
        &[b"--version"],
        &[b"missing"],
        &[b"abc", b"missing", b"empty"],
        &[b"--bogus"],
        &[b"-c", b"mixed.sums"],
        &[b"-c", b"--status", b"mixed.sums"],
        &[b"-c", b"many.sums"],
        &[b"-c", b"/dev/null"],
    ];
    for args in cases {
        same_redirected("sha256sum", args, ">&-", d);
        // A closed standard error must not change anything else.
        let out = same_redirected("sha256sum", args, ">&- 2>&-", d);
        assert!(out.stderr.is_empty());
    }
    let out = same_redirected("sha256sum", &[b"abc", b"missing"], "2>&-", d);
    assert!(!out.stdout.is_empty());
}

#[test]
fn full_standard_output_matches() {
    if !have("sha256sum") || !have("bash") || !Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let names = std_streams_fixture(d);
    let mut all: Vec<&[u8]> = Vec::new();
    for _ in 0..300 {
        all.extend(names.iter().map(Vec::as_slice));
    }
    all.push(b"missing");
    all.push(b"abc");
    let cases: &[&[&[u8]]] = &[
        &[b"abc"],
        &[b"--help"],
        &[b"--version"],
        &[b"missing", b"abc"],
        &[b"abc", b"missing"],
        &all,
        &[b"-c", b"mixed.sums"],
        &[b"-c", b"-w", b"many.sums", b"mixed.sums"],
    ];
    for args in cases {
        let out = same_redirected("sha256sum", args, ">/dev/full", d);
        assert_eq!(out.status.code(), Some(1));
    }
    // A full standard error: no panic, the same status.
    same_redirected("sha256sum", &[b"missing", b"abc"], "2>/dev/full", d);
    same_redirected(
        "sha256sum",
        &[b"-c", b"-w", b"mixed.sums"],
        "2>/dev/full",
        d,
    );
}

/// `multisha` itself (no coreutils counterpart): every way of writing to standard output
/// fails cleanly with coreutils' message.
#[test]
fn multisha_commands_report_write_errors() {
    if !have("bash") || !Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let cases: &[&[&[u8]]] = &[
        &[b"--help"],
        &[b"--version"],
        &[b"variants"],
        &[b"variants", b"--help"],
        &[b"sha256sum", b"--help"],
        &[b"sha1sum", b"--version"],
    ];
    for args in cases {
        for (redir, msg) in [
            (">/dev/full", "multisha: write error\n"),
            (">&-", "multisha: write error: Bad file descriptor\n"),
        ] {
            let out = redirected(true, "multisha", args, redir, dir.path());
            let shown: Vec<String> = args.iter().map(|a| show(a)).collect();
            assert_eq!(out.status.code(), Some(1), "{shown:?} {redir}");
            assert_eq!(show(&out.stderr), msg, "{shown:?} {redir}");
        }
    }
}

/// Checks `list` both as a file and on standard input, with several option sets.
fn same_check_list(list: &[u8], d: &Path) {
    fs::write(d.join("list"), list).expect("write");
    for opts in [
        &[][..],
        &[&b"-w"[..]][..],
        &[b"--strict", b"-w"],
        &[b"--quiet"],
    ] {
        let mut args: Vec<&[u8]> = vec![b"-c"];
        args.extend_from_slice(opts);
        same("sha256sum", &args, d, Some(list));
        args.push(b"list");
        same("sha256sum", &args, d, None);
    }
}

#[test]
fn long_check_lines_match() {
    if !have("sha256sum") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    fs::write(d.join("a"), b"hi\n").expect("write");
    let h = "98ea6e4f216f2fb4b69fff9b3a44842c38686ca685f3f55dc48c5d3fb1107be4";
    let ok = format!("{h}  a\n");
    let mut list = Vec::new();
    // Lines far longer than any useful one (comments among them), then no final newline.
    for (first, len) in [
        (b'x', 100_000),
        (b'#', 70_000),
        (b'#', 200_000),
        (b'y', 65_600),
    ] {
        list.push(first);
        list.resize(list.len() + len, b'x');
        list.push(b'\n');
        list.extend_from_slice(ok.as_bytes());
    }
    // Just under the cap: a proper line whose name is too long to open.
    list.extend_from_slice(format!("{h}  ").as_bytes());
    list.resize(list.len() + 60_000, b'n');
    list.push(b'\n');
    list.resize(list.len() + 300_000, b'z');
    same_check_list(&list, d);
}

#[test]
fn nul_in_check_lines_matches() {
    if !have("sha256sum") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    fs::write(d.join("a"), b"hi\n").expect("write");
    fs::write(d.join("a\\b"), b"hi\n").expect("write");
    let h = "98ea6e4f216f2fb4b69fff9b3a44842c38686ca685f3f55dc48c5d3fb1107be4";
    // coreutils keeps the whole line but uses the name as a C string: an unescaped name
    // ends at its NUL; an escaped one with a NUL is misformatted; in the BSD form the
    // digest may be followed by a NUL and anything.
    let lines = [
        format!("{h}  a\0b\n"),
        format!("{h}  a\0\n"),
        format!("{h}  a\0\r\n"),
        format!("{h} *a\0b\n{h} a\n"),
        format!("{h} a\0b\n{h}  a\n"),
        format!("{h}  \0b\n"),
        format!("{h} \0b\n"),
        format!("{h}  -\0x\n"),
        format!("\0{h}  a\n"),
        format!("{h}\0 a\n"),
        format!("{}\0  a\n", &h[1..]),
        format!("\\{h}  a\0b\n"),
        format!("\\{h}  a\\\\\0b\n"),
        format!("SHA256 (a\0b) = {h}\n"),
        format!("SHA256 (a) = {h}\0xx\n"),
        format!("SHA256 (a\0)) = {h}\0)\n"),
        format!("SHA256 (a) = {h}0\0\n"),
        format!("SHA256 (a) = {}\0\n", &h[1..]),
        format!("SHA256 (\0a) = {h}\n"),
        format!("SHA256\0 (a) = {h}\n"),
        "SHA256 (a\0\n".to_owned(),
        format!("\\SHA256 (a\0b) = {h}\n"),
        format!("\\SHA256 (a\\\\b) = {h}\0\n"),
        format!("{h}  a\n\0\n#\0\n"),
    ];
    for list in &lines {
        same_check_list(list.as_bytes(), d);
    }
}

/// BSD lines whose digest is short, missing or surrounded by extra blanks (a short one
/// once panicked the parser; the `check_line` fuzz target found it).
#[test]
fn short_bsd_digests_match() {
    if !have("sha256sum") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    fs::write(d.join("a"), b"hi\n").expect("write");
    let h = "98ea6e4f216f2fb4b69fff9b3a44842c38686ca685f3f55dc48c5d3fb1107be4";
    let lines = [
        "SHA256 (a) = \n".to_owned(),
        "SHA256 (a) =\n".to_owned(),
        "SHA256 (a)\n".to_owned(),
        "SHA256 (a) = abc\n".to_owned(),
        format!("SHA256 (a) = {}\n", &h[..63]),
        format!("SHA256(a)=\t {h}\n"),
        format!("SHA256 (a)  =  {h}\n"),
    ];
    for list in &lines {
        same_check_list(list.as_bytes(), d);
    }
}

#[test]
fn no_progress_is_accepted_and_documented() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let names = fixture(d);
    let sums = ours("sha256sum", &[b"abc", b"empty"], d, None);
    fs::write(d.join("ok.sums"), &sums.stdout).expect("write");
    let cases: &[&[&[u8]]] = &[
        &[b"abc", b"empty"],
        &[b"--tag", b"abc"],
        &[b"-c", b"ok.sums"],
        &[b"-c", b"--quiet", b"ok.sums"],
        &[],
    ];
    // Any unambiguous prefix, anywhere: the output is that of the run without it.
    for flag in [&b"--no-progress"[..], b"--no", b"--n"] {
        for args in cases {
            let plain = ours("sha256sum", args, d, Some(b"in"));
            let mut with: Vec<&[u8]> = vec![flag];
            with.extend_from_slice(args);
            let a = ours("sha256sum", &with, d, Some(b"in"));
            assert_eq!(show(&a.stdout), show(&plain.stdout), "{with:?}");
            assert_eq!(show(&a.stderr), show(&plain.stderr));
            assert_eq!(a.status.code(), plain.status.code());
        }
    }
    let mut all: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    all.push(b"--no-progress");
    let a = ours("sha256sum", &all, d, None);
    all.pop();
    if have("sha256sum") {
        let b = theirs("sha256sum", &all, d, None);
        assert_eq!(show(&a.stdout), show(&b.stdout));
    }
    let out = ours("sha256sum", &[b"--no-progress=1"], d, None);
    assert_eq!(
        show(&out.stderr),
        "sha256sum: option '--no-progress' doesn't allow an argument\n\
         Try 'sha256sum --help' for more information.\n"
    );

    for args in [&["sha256sum", "--help"][..], &["--help"]] {
        let mut cmd = Command::new(EXE);
        cmd.args(args);
        let text = show(&run(cmd, d, None).stdout);
        for needle in ["--no-progress", "256 MiB", "standard error", "terminal"] {
            assert!(
                text.contains(needle),
                "{args:?} help lacks {needle:?}:\n{text}"
            );
        }
    }
}
