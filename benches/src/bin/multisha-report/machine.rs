//! What the report says about the machine: the CPU model and the size of the last-level
//! cache (which sets how much memory the cold-cache eviction walks).

use std::fs;

/// The CPU model from /proc/cpuinfo (x86 `model name`; on AArch64 the implementer and part
/// numbers, since Linux gives no name), or "unknown".
pub(crate) fn cpu_model() -> String {
    let Ok(info) = fs::read_to_string("/proc/cpuinfo") else {
        return "unknown (no /proc/cpuinfo)".into();
    };
    let field = |key: &str| {
        info.lines().find_map(|line| {
            let (k, v) = line.split_once(':')?;
            (k.trim() == key).then(|| v.trim().to_string())
        })
    };
    if let Some(name) = field("model name") {
        return name;
    }
    match (field("CPU implementer"), field("CPU part")) {
        (Some(implementer), Some(part)) => format!("implementer {implementer}, part {part}"),
        _ => "unknown".into(),
    }
}

/// The largest data or unified cache of CPU 0 in bytes, from sysfs; 32 MiB if unknown.
pub(crate) fn last_level_cache() -> usize {
    let parse = |text: &str| {
        let text = text.trim();
        let (digits, scale) = match text.strip_suffix('K') {
            Some(d) => (d, 1 << 10),
            None => match text.strip_suffix('M') {
                Some(d) => (d, 1 << 20),
                None => (text, 1),
            },
        };
        digits.parse::<usize>().ok().map(|n| n * scale)
    };
    (0..8)
        .filter_map(|i| {
            let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{i}");
            let kind = fs::read_to_string(format!("{dir}/type")).ok()?;
            if kind.trim() == "Instruction" {
                return None;
            }
            parse(&fs::read_to_string(format!("{dir}/size")).ok()?)
        })
        .max()
        .unwrap_or(32 << 20)
}
