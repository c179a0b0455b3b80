//! Command-line options. Bad arguments are values (`Usage`), turned into the usage text and
//! exit status 2 by `main`.

use multisha::engine::Algorithm;
use std::path::PathBuf;

pub(crate) const USAGE: &str = "\
usage: cargo xtask report [--quick] [--algo ID] [--variants a,b] [--sizes 64,1024] [--out DIR]

Checks that every available multisha variant and every peer (RustCrypto, ring, OpenSSL) agree,
then measures them (hashes, batches, short paths, PBKDF2 against RustCrypto pbkdf2, ring,
OpenSSL and fastpbkdf2) and writes report.md, report.json and SVG plots.

  --quick          fewer rounds and shorter samples (under a minute)
  --algo ID        only this algorithm (sha1, sha256, ...)
  --variants LIST  only these multisha variants (comma-separated); the dispatched path and the
                   peers are always measured
  --sizes LIST     only these message sizes in bytes (tcrypt rows, size sweep, cold-cache sizes)
  --out DIR        where to write (default: target/multisha-report in the workspace)
  -h, --help       this text";

/// What to measure and where to write.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub(crate) quick: bool,
    pub(crate) algorithms: Vec<Algorithm>,
    pub(crate) variants: Option<Vec<String>>,
    pub(crate) sizes: Option<Vec<usize>>,
    pub(crate) out: PathBuf,
}

/// Why the arguments were not understood, or a request for help.
#[derive(Debug)]
pub(crate) enum CliError {
    Help,
    Usage(String),
}

fn list(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

pub(crate) fn parse(args: &[String]) -> Result<Options, CliError> {
    let mut options = Options {
        quick: false,
        algorithms: Algorithm::ALL.to_vec(),
        variants: None,
        sizes: None,
        // The binary lives in `benches/`; the report goes under the workspace's `target/`.
        out: PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../target/multisha-report"
        )),
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        // Accept both `--flag value` and `--flag=value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next().cloned())
                .ok_or_else(|| CliError::Usage(format!("{flag} needs a value")))
        };
        match flag {
            "-h" | "--help" => return Err(CliError::Help),
            "--quick" => options.quick = true,
            "--algo" => {
                let name = value()?;
                let algorithm = Algorithm::ALL
                    .iter()
                    .copied()
                    .find(|a| {
                        a.id().eq_ignore_ascii_case(&name)
                            || a.to_string().eq_ignore_ascii_case(&name)
                    })
                    .ok_or_else(|| {
                        let ids: Vec<&str> = Algorithm::ALL.iter().map(|a| a.id()).collect();
                        CliError::Usage(format!("unknown algorithm `{name}` ({})", ids.join(", ")))
                    })?;
                options.algorithms = vec![algorithm];
            }
            "--variants" => {
                let names = list(&value()?);
                if names.is_empty() {
                    return Err(CliError::Usage("--variants needs at least one name".into()));
                }
                options.variants = Some(names);
            }
            "--sizes" => {
                let sizes = list(&value()?)
                    .iter()
                    .map(|s| match s.parse::<usize>() {
                        Ok(n) if (1..=1 << 26).contains(&n) => Ok(n),
                        _ => Err(CliError::Usage(format!(
                            "bad size `{s}` (bytes, 1 to 64 MiB)"
                        ))),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                if sizes.is_empty() {
                    return Err(CliError::Usage("--sizes needs at least one size".into()));
                }
                options.sizes = Some(sizes);
            }
            "--out" => options.out = PathBuf::from(value()?),
            other => return Err(CliError::Usage(format!("unknown argument `{other}`"))),
        }
    }
    // A variant name must exist for one of the chosen algorithms (typos fail loudly).
    if let Some(names) = &options.variants {
        for name in names {
            let known = options
                .algorithms
                .iter()
                .any(|&a| a.variant(name).is_some());
            if !known {
                let all: Vec<String> = options
                    .algorithms
                    .iter()
                    .flat_map(|&a| a.variants().iter().map(|v| v.to_string()))
                    .collect();
                return Err(CliError::Usage(format!(
                    "unknown variant `{name}` (known: {})",
                    all.join(", ")
                )));
            }
        }
    }
    Ok(options)
}
