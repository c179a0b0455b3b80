//! `cargo xtask <command>`: developer tasks for the multisha workspace.
//!
//! Each command lives in its own module and is listed once in [`COMMANDS`]; adding a command
//! is a new module plus one entry there. A command gets the arguments after its name and
//! returns an error value (never panics on user input); `main` prints the error and exits 1.

mod cross_test;
mod layers;
mod report;
mod system;
mod watchdog;

use std::error::Error;
use std::process::ExitCode;

/// What every command returns.
type CommandResult = Result<(), Box<dyn Error>>;

/// One `cargo xtask` command.
struct Command {
    /// The name typed after `cargo xtask`.
    name: &'static str,
    /// One line for the usage text.
    about: &'static str,
    /// Runs the command with the arguments after its name.
    run: fn(&[String]) -> CommandResult,
}

/// Every command, in the order the usage text lists them.
const COMMANDS: &[Command] = &[
    Command {
        name: "cross-test",
        about: "build the library crates for aarch64 and run their tests under qemu-aarch64",
        run: cross_test::run,
    },
    Command {
        name: "layers",
        about: "check that the engine crate's files import one way: no circle, no upward import",
        run: layers::run,
    },
    Command {
        name: "report",
        about: "cross-check every variant and peer, measure them, write target/multisha-report/",
        run: report::run,
    },
];

fn usage() -> String {
    let mut text = String::from("usage: cargo xtask <command> [options]\n\ncommands:\n");
    let width = COMMANDS.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for command in COMMANDS {
        text.push_str(&format!("  {:width$}  {}\n", command.name, command.about));
    }
    text.push_str(&format!("  {:width$}  {}\n", "help", "print this text"));
    text.push_str("\n`cargo xtask <command> --help` describes a command's options.");
    text
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((name, rest)) = args.split_first() else {
        eprintln!("{}", usage());
        return ExitCode::FAILURE;
    };
    if matches!(name.as_str(), "help" | "-h" | "--help") {
        println!("{}", usage());
        return ExitCode::SUCCESS;
    }
    let Some(command) = COMMANDS.iter().find(|c| c.name == name) else {
        eprintln!("xtask: unknown command `{name}`\n\n{}", usage());
        return ExitCode::FAILURE;
    };
    match (command.run)(rest) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("xtask {}: error: {error}", command.name);
            ExitCode::FAILURE
        }
    }
}
