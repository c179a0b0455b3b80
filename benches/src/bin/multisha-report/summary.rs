//! The terminal summary: per algorithm, contenders ranked by one-shot MB/s at 64 B, 1 KiB and
//! 16 KiB (whichever of these were measured); the batch, short-path and PBKDF2 tables.

use crate::results::{Report, size_label};

const SIZES: [usize; 3] = [64, 1024, 16384];

pub(crate) fn render(report: &Report) -> String {
    let mut out = String::new();
    if let Some(mask) = &report.cpu_mask {
        out.push_str(&format!("\n{}\n", mask.line()));
    }
    for algo in &report.algos {
        let columns: Vec<_> = SIZES
            .iter()
            .filter_map(|&size| algo.sweep.iter().find(|(s, _)| *s == size))
            .collect();
        out.push_str(&format!(
            "\n{} (dispatched: {}), one-shot MB/s, ranked\n",
            algo.algorithm, algo.dispatched
        ));
        if columns.is_empty() {
            out.push_str("  (none of 64 B, 1 KiB, 16 KiB measured)\n");
            continue;
        }
        out.push_str("  #  ");
        for (size, _) in &columns {
            out.push_str(&format!("{:<24}", size_label(*size)));
        }
        out.push('\n');
        let ranked: Vec<Vec<(String, f64)>> = columns
            .iter()
            .map(|(size, stats)| {
                let mut row: Vec<(String, f64)> = algo
                    .entries
                    .iter()
                    .zip(stats)
                    .map(|(e, s)| (e.name.clone(), report.mbps(*size, s.median)))
                    .collect();
                row.sort_by(|a, b| b.1.total_cmp(&a.1));
                row
            })
            .collect();
        for rank in 0..algo.entries.len() {
            out.push_str(&format!("  {:<3}", rank + 1));
            for column in &ranked {
                let (name, mbps) = &column[rank];
                out.push_str(&format!("{:<14}{:>8.1}  ", name, mbps));
            }
            out.push('\n');
        }
    }
    for regret in &report.regret {
        if let Some((worst, one)) = regret.worst() {
            out.push_str(&format!(
                "\n{} batch planner ({} shapes): worst regret {:.3} ({}), worst against one by \
                 one {:.3} ({})\n",
                regret.algorithm,
                regret.rows.len(),
                worst.regret(),
                worst.label,
                one.against_one_by_one(),
                one.label
            ));
        }
    }
    if let Some(merkle) = &report.merkle {
        let (first, others) = merkle.entries.split_first().expect("a contender");
        for (k, (name, _)) in others.iter().enumerate() {
            let ratio = |stats: &[crate::measure::Stat]| stats[k + 1].median / stats[0].median;
            let cells: Vec<String> = merkle
                .rows
                .iter()
                .map(|(count, stats)| format!("{count}: {:.2}", ratio(stats)))
                .chain([format!("chain: {:.2}", ratio(&merkle.chain))])
                .collect();
            out.push_str(&format!(
                "\nSHA-256 Merkle nodes, {} / {name} speed by node count (> 1: multisha faster)\n  {}\n",
                first.0,
                cells.join(", ")
            ));
        }
    }
    for batch in &report.batches {
        let Some(dispatched) = batch.index("dispatched") else {
            continue;
        };
        out.push_str(&format!(
            "\n{} batches, aggregate MB/s (dispatched and peers; > 1 ratios: multisha faster)\n",
            batch.function
        ));
        for (label, bytes, _, stats) in &batch.rows {
            out.push_str(&format!(
                "  {:<20} dispatched {:>8.0}",
                label,
                report.mbps(*bytes, stats[dispatched].median)
            ));
            for (i, entry) in batch.entries.iter().enumerate() {
                if entry.1 == multisha_benches::Kind::Peer {
                    out.push_str(&format!(
                        "  {} {:.2}x",
                        entry.0,
                        stats[i].median / stats[dispatched].median
                    ));
                }
            }
            out.push('\n');
        }
    }
    if !report.short.is_empty() {
        out.push_str("\nshort messages, RustCrypto time / multisha time (> 1: multisha faster)\n");
        for row in &report.short {
            out.push_str(&format!(
                "  {:<34}",
                format!("{} {}", row.function, row.path)
            ));
            for (size, ratio) in &row.ratios {
                out.push_str(&format!("  {:>4} B {:.2}", size, ratio.median));
            }
            out.push('\n');
        }
    }
    if !report.pbkdf2.is_empty() {
        out.push_str(&format!(
            "\nPBKDF2, ms per derivation, median of {} rounds (ratios: median of the other's time \
             / multisha's per round, > 1: multisha faster)\n",
            report.pbkdf2_rounds
        ));
        out.push_str(&multisha_benches::pbkdf2_table(&report.pbkdf2, report.hz));
    }
    out
}
