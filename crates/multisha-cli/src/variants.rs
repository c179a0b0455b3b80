//! `multisha variants`: the registry as a table, with what this CPU can run, which variant
//! the dispatcher picked and why, and the costs the batch planner chooses by. Under a CPU mask
//! (`MULTISHA_CPU=-sha`) "this CPU" is the masked one, and the mask is named at the top.

use std::ffi::OsString;

use multisha::engine::{
    Algorithm, CpuFeatures, Function, Interface, calibrate, cpu_features, cpu_mask, pbkdf2_chains,
};

use crate::diag::diag;
use crate::out::Out;

/// Prints every variant of every algorithm; returns the exit status (a failed write is
/// reported by the caller, when `out` is finished).
pub(crate) fn run(prog: &str, args: &[OsString], out: &mut Out) -> u8 {
    if let Some(arg) = args.first() {
        if arg == "--help" {
            out.write(
                format!(
                    "Usage: {prog} variants\n\
                     List the kernel variants, their required CPU features, availability, and \
                     the active choice with its reason.\n\
                     MULTISHA_CPU=-FEATURE,... (-sha,-avx512f) masks the features named: \
                     everything runs as on a CPU without them.\n"
                )
                .as_bytes(),
            );
            return 0;
        }
        diag!(
            "{prog}: variants: unexpected argument '{}'\nTry '{prog} --help' for more information.",
            arg.to_string_lossy()
        );
        return 1;
    }
    let mut text = String::new();
    text.push_str(&format!("CPU features: {}\n", CpuFeatures::detect()));
    if let Some(mask) = cpu_mask() {
        text.push_str(&format!("CPU mask: {mask}\n"));
        let masked = cpu_features();
        let masked = if masked.is_empty() {
            "none".to_string()
        } else {
            masked.to_string()
        };
        text.push_str(&format!("CPU features as masked: {masked}\n"));
    }
    // One set of column widths for every table, from the longest name and requirement list.
    let every = Algorithm::ALL.iter().flat_map(|a| a.variants());
    let widths = every.fold((7, 8), |(name, requires), v| {
        (name.max(v.name().len()), requires.max(requires_of(v).len()))
    });
    for &alg in Algorithm::ALL {
        let used_by: Vec<String> = Function::ALL
            .iter()
            .filter(|f| f.algorithm() == alg)
            .map(|f| format!("{}sum", f.id()))
            .collect();
        text.push_str(&format!("\n{alg} ({})\n", used_by.join(", ")));
        for interface in [Interface::Single, Interface::Many] {
            let selection = match interface {
                Interface::Single => alg.active(),
                Interface::Many => alg.active_many(),
            };
            let what = match interface {
                Interface::Single => "single messages (large files, standard input)",
                Interface::Many => "many messages at once (small files)",
            };
            text.push_str(&format!(
                "  {what}; override with {}=NAME or --variant NAME\n",
                alg.env_var_for(interface)
            ));
            let (name_w, requires_w) = widths;
            text.push_str(&format!(
                "    {:<name_w$} {:>5} {:<requires_w$} {:<9} {:<6} {}\n",
                "VARIANT", "LANES", "REQUIRES", "AVAILABLE", "ACTIVE", "DESCRIPTION"
            ));
            for v in alg.variants().iter().filter(|v| v.interface() == interface) {
                let active = std::ptr::eq(v, selection.variant);
                let row = format!(
                    "    {:<name_w$} {:>5} {:<requires_w$} {:<9} {:<6} ",
                    v.name(),
                    v.lanes(),
                    requires_of(v),
                    if v.is_available() { "yes" } else { "no" },
                    if active { "*" } else { "" },
                );
                let indent = row.len();
                text.push_str(&row);
                text.push_str(&wrapped(v.description(), indent));
            }
            text.push_str(&format!(
                "    active: {} (reason: {})\n",
                selection.variant.name(),
                selection.reason
            ));
            if interface == Interface::Many {
                // The costs the batch planner chooses by, measured here (a program measures
                // them once its batch work pays for it), or estimated with measuring off.
                for line in calibrate(alg).to_string().lines() {
                    text.push_str(&format!("    {line}\n"));
                }
                // Where a multi-block PBKDF2 derivation's output blocks run.
                text.push_str(&match pbkdf2_chains(alg) {
                    Some(v) => format!(
                        "    PBKDF2 output blocks: side by side on {} ({} lanes)\n",
                        v.name(),
                        v.lanes()
                    ),
                    None => "    PBKDF2 output blocks: one after the other\n".to_string(),
                });
            }
        }
    }
    out.write(text.as_bytes());
    0
}

/// A variant's required features, comma-separated (`-` for none).
fn requires_of(variant: &multisha::engine::Variant) -> String {
    let names: Vec<&str> = variant.requires().iter().map(|f| f.name()).collect();
    if names.is_empty() {
        "-".to_owned()
    } else {
        names.join(",")
    }
}

/// Lines of the tables end by this column; a description wraps at word boundaries to stay
/// within it, its lines after the first indented to its column.
const LINE_WIDTH: usize = 120;

/// `description` from column `indent` on, wrapped (each line ended by a newline).
fn wrapped(description: &str, indent: usize) -> String {
    let room = LINE_WIDTH.saturating_sub(indent).max(30);
    let mut out = String::new();
    let mut line_len = 0;
    for word in description.split_whitespace() {
        if line_len > 0 && line_len + 1 + word.len() > room {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out.push('\n');
    out
}
