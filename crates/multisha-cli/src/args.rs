//! Command-line parsing with GNU getopt_long semantics (permuted operands, bundled short
//! options, unambiguous long-option prefixes, `--`), the multi-call entry point, and the
//! option checks coreutils' md5sum.c performs after parsing.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::diag::diag;
use crate::kind::{Kind, Tool};
use crate::options::Options;
use crate::out::Out;
use crate::{check, hash, kind, std_fds, variants};

/// A command-line problem; shown as `PROG: MESSAGE` plus the `Try ...` hint, exit 1.
#[derive(Debug)]
pub(crate) enum UsageError {
    Unrecognized(String),
    Ambiguous(String, Vec<&'static str>),
    InvalidShort(char),
    NoArgAllowed(&'static str),
    ArgRequired(String),
    Conflict(&'static str),
    UnknownCommand(String),
    MissingCommand,
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsageError::Unrecognized(o) => write!(f, "unrecognized option '{o}'"),
            UsageError::Ambiguous(o, all) => {
                write!(f, "option '{o}' is ambiguous; possibilities:")?;
                for name in all {
                    write!(f, " '--{name}'")?;
                }
                Ok(())
            }
            UsageError::InvalidShort(c) => write!(f, "invalid option -- '{c}'"),
            UsageError::NoArgAllowed(o) => write!(f, "option '--{o}' doesn't allow an argument"),
            UsageError::ArgRequired(o) => write!(f, "option '{o}' requires an argument"),
            UsageError::Conflict(msg) => f.write_str(msg),
            UsageError::UnknownCommand(c) => write!(f, "unknown command '{c}'"),
            UsageError::MissingCommand => f.write_str("missing command"),
        }
    }
}

/// What the command line asks for.
#[derive(Debug)]
enum Action {
    Sum(Options),
    Help(Kind),
    Version(Kind),
}

const LONG: &[(&str, bool)] = &[
    ("binary", false),
    ("check", false),
    ("help", false),
    ("ignore-missing", false),
    ("no-progress", false),
    ("quiet", false),
    ("status", false),
    ("strict", false),
    ("tag", false),
    ("text", false),
    ("variant", true),
    ("version", false),
    ("warn", false),
    ("zero", false),
];

/// Resolves a (possibly abbreviated) long option name the way getopt_long does.
fn lookup_long(name: &str, shown: &str) -> Result<(&'static str, bool), UsageError> {
    if let Some(&(n, a)) = LONG.iter().find(|(n, _)| *n == name) {
        return Ok((n, a));
    }
    let hits: Vec<&(&str, bool)> = LONG.iter().filter(|(n, _)| n.starts_with(name)).collect();
    match hits.as_slice() {
        [] => Err(UsageError::Unrecognized(shown.to_owned())),
        [(n, a)] => Ok((n, *a)),
        _ => Err(UsageError::Ambiguous(
            shown.to_owned(),
            hits.iter().map(|(n, _)| *n).collect(),
        )),
    }
}

fn parse(kind: Kind, prog: &Prog, args: &[OsString]) -> Result<Action, UsageError> {
    let mut o = Options {
        kind,
        prog: prog.name.clone(),
        binary: None,
        check: false,
        tag: false,
        zero: false,
        quiet: false,
        status: false,
        strict: false,
        warn: false,
        ignore_missing: false,
        progress: true,
        variant: None,
        files: Vec::new(),
    };
    let mut i = 0;
    let mut only_operands = false;
    while i < args.len() {
        let arg = args[i].as_bytes();
        i += 1;
        if only_operands || arg == b"-" || !arg.starts_with(b"-") {
            o.files.push(args[i - 1].clone());
            continue;
        }
        if arg == b"--" {
            only_operands = true;
            continue;
        }
        if let Some(long) = arg.strip_prefix(b"--") {
            let shown = String::from_utf8_lossy(arg).into_owned();
            let (name, value) = match long.iter().position(|&b| b == b'=') {
                Some(p) => (&long[..p], Some(&long[p + 1..])),
                None => (long, None),
            };
            let shown_name = format!("--{}", String::from_utf8_lossy(name));
            let (name, takes_arg) = lookup_long(&String::from_utf8_lossy(name), &shown_name)
                .map_err(|e| match e {
                    UsageError::Unrecognized(_) => UsageError::Unrecognized(shown.clone()),
                    other => other,
                })?;
            let value = match (takes_arg, value) {
                (false, Some(_)) => return Err(UsageError::NoArgAllowed(name)),
                (false, None) => None,
                (true, Some(v)) => Some(v.to_vec()),
                (true, None) => match args.get(i) {
                    Some(v) => {
                        i += 1;
                        Some(v.as_bytes().to_vec())
                    }
                    None => return Err(UsageError::ArgRequired(format!("--{name}"))),
                },
            };
            match name {
                "help" => return Ok(Action::Help(kind)),
                "version" => return Ok(Action::Version(kind)),
                "variant" => {
                    o.variant = value.map(|v| String::from_utf8_lossy(&v).into_owned());
                }
                other => apply(&mut o, other),
            }
            continue;
        }
        // Bundled short options: -bc, -cw ...
        for &b in &arg[1..] {
            let name = match b {
                b'b' => "binary",
                b'c' => "check",
                b't' => "text",
                b'w' => "warn",
                b'z' => "zero",
                _ => {
                    let c = char::from_u32(u32::from(b)).unwrap_or('?');
                    return Err(UsageError::InvalidShort(c));
                }
            };
            apply(&mut o, name);
        }
    }
    validate(&o)?;
    Ok(Action::Sum(o))
}

/// Applies a flag; later flags override earlier ones as in md5sum.c.
fn apply(o: &mut Options, name: &str) {
    match name {
        "binary" => o.binary = Some(true),
        "text" => o.binary = Some(false),
        "check" => o.check = true,
        "tag" => o.tag = true,
        "zero" => o.zero = true,
        "ignore-missing" => o.ignore_missing = true,
        "no-progress" => o.progress = false,
        "strict" => o.strict = true,
        "status" => (o.status, o.warn, o.quiet) = (true, false, false),
        "quiet" => (o.status, o.warn, o.quiet) = (false, false, true),
        "warn" => (o.status, o.warn, o.quiet) = (false, true, false),
        _ => {}
    }
}

/// The post-parse checks of md5sum.c, in its order (so the same message wins).
fn validate(o: &Options) -> Result<(), UsageError> {
    let err = |m| Err(UsageError::Conflict(m));
    if o.tag && o.binary == Some(false) {
        return err("--tag does not support --text mode");
    }
    if o.zero && o.check {
        return err("the --zero option is not supported when verifying checksums");
    }
    if o.tag && o.check {
        return err("the --tag option is meaningless when verifying checksums");
    }
    if o.binary.is_some() && o.check {
        return err("the --binary and --text options are meaningless when verifying checksums");
    }
    if o.ignore_missing && !o.check {
        return err("the --ignore-missing option is meaningful only when verifying checksums");
    }
    if o.status && !o.check {
        return err("the --status option is meaningful only when verifying checksums");
    }
    if o.warn && !o.check {
        return err("the --warn option is meaningful only when verifying checksums");
    }
    if o.quiet && !o.check {
        return err("the --quiet option is meaningful only when verifying checksums");
    }
    if o.strict && !o.check {
        return err("the --strict option is meaningful only when verifying checksums");
    }
    Ok(())
}

fn usage_error(prog: &str, help_cmd: &str, e: &UsageError) -> u8 {
    diag!("{prog}: {e}\nTry '{help_cmd} --help' for more information.");
    1
}

/// How the program refers to itself in diagnostics.
#[derive(Debug)]
struct Prog {
    name: String,
    /// What `Try '... --help'` names: argv[0], plus the subcommand when not multi-call.
    help_cmd: String,
}

fn basename(arg0: &OsStr) -> &[u8] {
    Path::new(arg0)
        .file_name()
        .map_or(arg0.as_bytes(), OsStrExt::as_bytes)
}

/// Entry point: dispatches on argv[0] (multi-call) or on the first argument; returns the
/// exit status.
pub(crate) fn run(argv: Vec<OsString>) -> u8 {
    let arg0 = argv
        .first()
        .cloned()
        .unwrap_or_else(|| OsString::from("multisha"));
    let prog = arg0.to_string_lossy().into_owned();
    let mut out = Out::new();
    // A refused setting changes no result (measuring stays on), but must not go unnoticed.
    if let Some(error) = multisha::engine::calibrate_var_error() {
        diag!("{prog}: warning: {error}");
    }
    warn_of_refused_settings(&prog);
    let status = dispatch(&argv, &prog, &mut out);
    // coreutils' exit path: a failed `fclose (stdin)` first, then close_stdout's check.
    let status = if std_fds::stdin_close_fails() {
        diag!("{prog}: standard input: Bad file descriptor");
        1
    } else {
        status
    };
    if out.finish(&prog) { status } else { 1 }
}

/// Says on standard error what the library refused in the environment: a CPU mask it could
/// not read (it then removes every feature: portable kernels run), an override naming a
/// variant it cannot run (the default choice runs). Both change what runs without changing a
/// digest, so neither may go unnoticed. Overrides are asked about only where set (a first
/// choice for every algorithm would cost every run microseconds).
fn warn_of_refused_settings(prog: &str) {
    use multisha::engine::{Algorithm, Interface, Reason, cpu_mask};
    if let Some(mask) = cpu_mask()
        && mask.error().is_some()
    {
        diag!("{prog}: warning: {mask}");
    }
    for &algorithm in Algorithm::ALL {
        for interface in [Interface::Single, Interface::Many] {
            if std::env::var_os(algorithm.env_var_for(interface)).is_none() {
                continue;
            }
            let selection = match interface {
                Interface::Single => algorithm.active(),
                Interface::Many => algorithm.active_many(),
            };
            if let Reason::EnvRejected(error) = selection.reason {
                diag!(
                    "{prog}: warning: {}: {error}; {} runs",
                    algorithm.env_var_for(interface),
                    selection.variant.name()
                );
            }
        }
    }
}

fn dispatch(argv: &[OsString], prog: &str, out: &mut Out) -> u8 {
    let arg0 = argv
        .first()
        .map_or(OsStr::new("multisha"), OsString::as_os_str);
    if let Some(kind) = Tool::from_command(basename(arg0)) {
        let p = Prog {
            name: prog.to_owned(),
            help_cmd: prog.to_owned(),
        };
        return run_sum(kind, &p, &argv[1..], out);
    }
    let Some(cmd) = argv.get(1) else {
        return usage_error(prog, prog, &UsageError::MissingCommand);
    };
    if let Some(kind) = Tool::from_command(cmd.as_bytes()) {
        let p = Prog {
            name: prog.to_owned(),
            help_cmd: format!("{prog} {}", kind.command()),
        };
        return run_sum(kind, &p, &argv[2..], out);
    }
    match cmd.as_bytes() {
        b"variants" => variants::run(prog, &argv[2..], out),
        b"--help" | b"-h" | b"help" => {
            print_top_help(prog, out);
            0
        }
        b"--version" | b"-V" => {
            out.write(version_text("multisha").as_bytes());
            0
        }
        other => usage_error(
            prog,
            prog,
            &UsageError::UnknownCommand(String::from_utf8_lossy(other).into_owned()),
        ),
    }
}

/// `--version`'s text for `program` (`multisha`, or `sha256sum (multisha)` as coreutils
/// writes `sha256sum (GNU coreutils)`): one format for every command.
fn version_text(program: &str) -> String {
    format!(
        "{program} {}\nSHA-1 and SHA-2 with runtime-dispatched kernels.\n",
        env!("CARGO_PKG_VERSION")
    )
}

fn run_sum(kind: Kind, prog: &Prog, args: &[OsString], out: &mut Out) -> u8 {
    let action = match parse(kind, prog, args) {
        Ok(a) => a,
        Err(e) => return usage_error(&prog.name, &prog.help_cmd, &e),
    };
    match action {
        Action::Help(kind) => {
            print_sum_help(&prog.help_cmd, kind, out);
            0
        }
        Action::Version(kind) => {
            out.write(version_text(&format!("{} (multisha)", kind.command())).as_bytes());
            0
        }
        Action::Sum(mut o) => {
            if let Some(name) = o.variant.take()
                && let Err(e) = multisha::engine::force(kind.algorithm(), &name)
            {
                diag!("{}: --variant: {e}", prog.name);
                return 1;
            }
            if o.files.is_empty() {
                o.files.push(OsString::from("-"));
            }
            let ok = if o.check {
                check::run(&o, out)
            } else {
                hash::run_sum(&o, out)
            };
            u8::from(!ok)
        }
    }
}

/// The progress bar, as both help texts describe it.
const PROGRESS_HELP: &str = "\
A progress bar appears on standard error when it is a terminal and the files to\n\
hash add up to at least 256 MiB (with --check, counting the files listed so\n\
far); --no-progress turns it off.\n";

fn print_top_help(prog: &str, out: &mut Out) {
    let tools: Vec<&str> = kind::all().iter().map(|t| t.command()).collect();
    let tools = tools.join(", ");
    let text = format!(
        "Usage: {prog} COMMAND [OPTION]... [FILE]...\n\
         SHA-1 and SHA-2 checksums with CPU-dispatched kernels.\n\n\
         Commands:\n  \
         {tools}\n      \
         behave like the GNU coreutils tools of these names (sha512_224sum and\n      \
         sha512_256sum follow the same conventions; coreutils has no such tools)\n  \
         variants\n      \
         list the kernel variants and the active choice\n\n\
         Invoked through a symlink named like one of the tools, it behaves as that\n\
         command. Run '{prog} sha256sum --help' for the options.\n\n\
         {PROGRESS_HELP}"
    );
    out.write(text.as_bytes());
}

fn print_sum_help(prog: &str, kind: Kind, out: &mut Out) {
    let bits = format!("{} ({}-bit)", kind.tag(), kind.bits());
    let text = format!(
        "Usage: {prog} [OPTION]... [FILE]...\n\
Print or check {bits} checksums.\n\n\
With no FILE, or when FILE is -, read standard input.\n\n  \
  -b, --binary          read in binary mode\n  \
  -c, --check           read checksums from the FILEs and check them\n      \
      --tag             create a BSD-style checksum\n  \
  -t, --text            read in text mode (default)\n  \
  -z, --zero            end each output line with NUL, not newline,\n                          \
                          and disable file name escaping\n      \
      --variant=NAME    use kernel variant NAME for this run (see 'multisha variants')\n      \
      --no-progress     never show the progress bar\n\n\
The following five options are useful only when verifying checksums:\n      \
      --ignore-missing  don't fail or report status for missing files\n      \
      --quiet           don't print OK for each successfully verified file\n      \
      --status          don't output anything, status code shows success\n      \
      --strict          exit non-zero for improperly formatted checksum lines\n  \
  -w, --warn            warn about improperly formatted checksum lines\n\n      \
      --help     display this help and exit\n      \
      --version  output version information and exit\n\n\
Files are hashed in parallel; output stays in argument order.\n\
{PROGRESS_HELP}"
    );
    out.write(text.as_bytes());
}
