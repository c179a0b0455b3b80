//! The parts of the `multisha` command-line tool that are tested apart from it (the fuzz
//! targets): internals, no stability promise. The tool itself is the `multisha` binary.

pub mod check_line;
