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
            text.push_str(&format!(
                "    {:<12} {:>5} {:<24} {:<9} {:<6} {}\n",
                "VARIANT", "LANES", "REQUIRES", "AVAILABLE", "ACTIVE", "DESCRIPTION"
            ));
            for v in alg.variants().iter().filter(|v| v.interface() == interface) {
                let requires: Vec<&str> = v.requires().iter().map(|f| f.name()).collect();
                let requires = if requires.is_empty() {
                    "-".to_owned()
                } else {
                    requires.join(",")
                };
                let active = std::ptr::eq(v, selection.variant);
                text.push_str(&format!(
                    "    {:<12} {:>5} {:<24} {:<9} {:<6} {}\n",
                    v.name(),
                    v.lanes(),
                    requires,
                    if v.is_available() { "yes" } else { "no" },
                    if active { "*" } else { "" },
                    v.description()
                ));
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
