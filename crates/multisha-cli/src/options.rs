//! The options of one `*sum` run, as parsed ([`crate::args`]) and as the hashing and checking
//! modes read them: apart from both, so neither mode depends on the parser.

use std::ffi::OsString;

use crate::kind::Kind;

/// Options of one `*sum` run, after parsing.
#[derive(Debug)]
pub(crate) struct Options {
    pub(crate) kind: Kind,
    /// Name used as the prefix of diagnostics (argv[0] as given, like coreutils).
    pub(crate) prog: String,
    /// `Some(true)` for `-b`, `Some(false)` for `-t`, `None` when neither was given.
    pub(crate) binary: Option<bool>,
    pub(crate) check: bool,
    pub(crate) tag: bool,
    pub(crate) zero: bool,
    pub(crate) quiet: bool,
    pub(crate) status: bool,
    pub(crate) strict: bool,
    pub(crate) warn: bool,
    pub(crate) ignore_missing: bool,
    /// Whether the progress bar may appear (`--no-progress` turns it off).
    pub(crate) progress: bool,
    pub(crate) variant: Option<String>,
    pub(crate) files: Vec<OsString>,
}
