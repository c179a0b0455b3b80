//! Measuring in fresh processes: an example that reports the median over processes runs
//! itself as children (`--child`), each printing rows of space-separated numbers. Where the
//! loader places the code sets some small timings (one node through `sha256_pairs`: 62 or
//! 90 ns by process on a Zen 4), so one process shows one draw of that.

use std::process::Command;

/// The value of `--processes N` in `args`, else `default`.
///
/// # Panics
/// If the value is missing or not a number.
pub fn processes_arg(args: &[String], default: usize) -> usize {
    args.iter()
        .position(|a| a == "--processes")
        .map_or(default, |i| {
            args.get(i + 1)
                .and_then(|n| n.parse().ok())
                .expect("--processes takes a number")
        })
}

/// Runs this program `processes` times with `--child`; per process, its output's rows, each
/// a list of numbers.
///
/// # Panics
/// If a child cannot be run or prints something other than numbers.
pub fn child_rows(processes: usize) -> Vec<Vec<Vec<f64>>> {
    let exe = std::env::current_exe().expect("this program's path");
    (0..processes)
        .map(|_| {
            let output = Command::new(&exe)
                .arg("--child")
                .output()
                .expect("a child process");
            String::from_utf8_lossy(&output.stdout)
                .lines()
                .map(|line| {
                    line.split(' ')
                        .map(|n| n.parse::<f64>().expect("a number"))
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// The median of `values` (the upper middle one of an even count).
///
/// # Panics
/// If `values` is empty.
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_process_count_and_the_median() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(processes_arg(&args(&["--quick"]), 9), 9);
        assert_eq!(processes_arg(&args(&["--processes", "3"]), 9), 3);
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 3.0);
    }
}
