//! Makes one introspection call of multisha, named by the only argument, as the process's
//! first call into the library, and prints the variant it names.
//!
//! In its own crate, optimised, because that is where the first call went wrong: generic code
//! of multisha instantiated here is a copy at another address than the library's, so an
//! answer that compared function addresses (the dispatcher's probe) failed only in a
//! downstream crate's release build (issue 21). The test `tests/first_call.rs` runs one
//! process per call; `multisha-first-call --list` prints the calls.

use multisha::block_api::HashCore;
use multisha::engine::{Algorithm, Variant, active, active_many};
use multisha::{Digest, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
use std::process::ExitCode;

/// The hashers' and their cores' `variant()` calls, by name.
macro_rules! hasher_calls {
    ($($hasher:ident),*) => {
        &[
            $(
                (concat!(stringify!($hasher), "::variant"), || $hasher::new().variant()),
                (
                    concat!("HashCore<", stringify!($hasher), ">::variant"),
                    || HashCore::<$hasher>::default().variant(),
                ),
            )*
        ]
    };
}

/// A call by name.
type Call = (&'static str, fn() -> &'static Variant);

/// Every call but the run-time API's, which take an algorithm.
const HASHER_CALLS: &[Call] =
    hasher_calls!(Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256);

/// Every call's name: the hashers' and cores', then `active` and `active_many` of each
/// algorithm (`active:sha256`).
fn names() -> Vec<String> {
    let mut names: Vec<String> = HASHER_CALLS.iter().map(|(n, _)| (*n).into()).collect();
    for api in ["active", "active_many"] {
        names.extend(Algorithm::ALL.iter().map(|a| format!("{api}:{}", a.id())));
    }
    names
}

/// Makes the call named `name`; `None` for an unknown name.
fn call(name: &str) -> Option<&'static Variant> {
    if let Some((_, f)) = HASHER_CALLS.iter().find(|(n, _)| *n == name) {
        return Some(f());
    }
    let (api, id) = name.split_once(':')?;
    let algorithm = *Algorithm::ALL.iter().find(|a| a.id() == id)?;
    match api {
        "active" => Some(active(algorithm).variant),
        "active_many" => Some(active_many(algorithm).variant),
        _ => None,
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag] if flag == "--list" => {
            for name in names() {
                println!("{name}");
            }
            ExitCode::SUCCESS
        }
        [name] => match call(name) {
            Some(variant) => {
                println!("{variant}");
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("unknown call {name:?}; --list prints them");
                ExitCode::from(2)
            }
        },
        _ => {
            eprintln!("usage: multisha-first-call CALL | --list");
            ExitCode::from(2)
        }
    }
}
