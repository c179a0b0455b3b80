//! report.md: machine, dispatch decisions, code sizes, throughput tables, cold cache, ratios.

use crate::batch::BatchReport;
use crate::measure::{Cell, Stat};
use crate::merkle::MerkleReport;
use crate::results::{AlgoReport, RegretReport, Report, size_label};
use multisha_benches::CHAIN_STEPS;
use multisha_benches::Kind;
use std::fmt::Write;

fn table_header(out: &mut String, first: &str, names: &[&str]) {
    let _ = writeln!(out, "| {first} | {} |", names.join(" | "));
    let _ = writeln!(out, "|---|{}", "---:|".repeat(names.len()));
}

/// One table row: a label, then one cell per contender.
fn table_row(out: &mut String, label: &str, cells: impl Iterator<Item = String>) {
    let cells: Vec<String> = cells.collect();
    let _ = writeln!(out, "| {label} | {} |", cells.join(" | "));
}

/// The row label of a tcrypt cell: bytes per message / bytes per update.
fn cell_label(cell: &Cell) -> String {
    format!("{} / {}", cell.len, cell.chunk.unwrap_or(cell.len))
}

pub(crate) fn render(report: &Report, plots: &[String], batch_plots: &[String]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# multisha report\n");
    if let Some(mask) = &report.cpu_mask {
        let _ = writeln!(out, "**{}**\n", mask.line());
    }
    let _ = writeln!(out, "- CPU: {}", report.cpu);
    let _ = writeln!(out, "- SHA-relevant features: {}", report.features);
    let _ = writeln!(
        out,
        "- Counter: {}; rate measured against `Instant`: {:.1} MHz. \"{}/byte\" below are these {}.",
        report.counter,
        report.hz / 1e6,
        report.unit,
        report.unit
    );
    let _ = writeln!(
        out,
        "- Mode: {}; median of {} interleaved rounds of ~{:.1} ms samples; cold cache: median of {} samples, \
         each after running {} of other code and reading {} of memory.",
        if report.quick { "quick" } else { "full" },
        report.rounds,
        report.sample_ms,
        report.cold_samples,
        report
            .icache_bytes
            .map_or("?".into(), |b| size_label(b as usize)),
        size_label(report.evict_bytes)
    );
    let _ = writeln!(
        out,
        "- MB/s are 10^6 bytes per second. Peers: RustCrypto `sha1`/`sha2` 0.11, `ring` 0.17, OpenSSL (`openssl` crate, low-level SHA API)."
    );
    for (peer, why) in &report.missing_peers {
        let _ = writeln!(out, "- Not measured: `{peer}`, {why}.");
    }
    for (algo, plot) in report.algos.iter().zip(plots) {
        render_algo(&mut out, report, algo, plot);
    }
    for (batch, plot) in report.batches.iter().zip(batch_plots) {
        render_batch(&mut out, report, batch, plot);
    }
    if let Some(merkle) = &report.merkle {
        render_merkle(&mut out, report, merkle);
    }
    for regret in &report.regret {
        render_regret(&mut out, regret);
    }
    render_short(&mut out, report);
    render_pbkdf2(&mut out, report);
    out
}

/// The PBKDF2 section: ms per derivation of every PBKDF2 implementation, and multisha's ratios.
fn render_pbkdf2(out: &mut String, report: &Report) {
    let Some(first) = report.pbkdf2.first() else {
        return;
    };
    let _ = writeln!(
        out,
        "\n## PBKDF2-HMAC\n\n\
         Milliseconds per derivation (a {}-byte password, a {}-byte salt), median of {} \
         interleaved rounds, every implementation in this process; ratios are the median over \
         the rounds of the other's time / multisha's in the same round (> 1: multisha \
         faster). ns/it: multisha's time per iteration (all chains; per chain: divided by the \
         output blocks); 2 blocks: two blocks of a 16 KiB message through the dispatched \
         one-shot function (dependent blocks, so about two block latencies: one iteration's \
         floor for one chain).\n",
        multisha_benches::PASSWORD.len(),
        multisha_benches::SALT.len(),
        report.pbkdf2_rounds
    );
    let _ = writeln!(out, "| name | what |\n|---|---|");
    for (name, _, description) in &first.entries {
        let _ = writeln!(out, "| {name} | {description} |");
    }
    let _ = writeln!(
        out,
        "\n{}",
        multisha_benches::pbkdf2_table(&report.pbkdf2, report.hz)
    );
}

/// One algorithm's batch planner: its costs, then the regret table (dispatched time / the
/// best single choice, and / one by one) with the worst cells.
fn render_regret(out: &mut String, regret: &RegretReport) {
    let _ = writeln!(
        out,
        "\n## {} batch planner: costs and regret\n",
        regret.algorithm
    );
    let _ = writeln!(out, "```text\n{}\n```\n", regret.costs);
    let _ = writeln!(
        out,
        "Nanoseconds per batch call (the median of interleaved rounds). Regret: dispatched / the \
         fastest single choice (each many-message variant pinned alone, one by one), the median \
         of the rounds' ratios; 1.00 is as good as knowing the answer, below 1 the plan beats \
         every single choice.\n"
    );
    let _ = writeln!(
        out,
        "| batch | dispatched | best single choice | regret | vs one by one | plan |"
    );
    let _ = writeln!(out, "|---|---:|---|---:|---:|---|");
    for row in &regret.rows {
        let _ = writeln!(
            out,
            "| {} | {:.0} | {} {:.0} | {:.3} | {:.3} | {} |",
            row.label,
            row.dispatched,
            row.best.0,
            row.best.1,
            row.regret(),
            row.against_one_by_one(),
            row.plan
        );
    }
    if let Some((worst, one)) = regret.worst() {
        let _ = writeln!(
            out,
            "\nWorst regret: {:.3} ({}); worst against one by one: {:.3} ({}).",
            worst.regret(),
            worst.label,
            one.against_one_by_one(),
            one.label
        );
    }
}

/// One hash function's batch tables: aggregate MB/s, then ratios of the dispatched path.
fn render_batch(out: &mut String, report: &Report, batch: &BatchReport, plot: &str) {
    let _ = writeln!(
        out,
        "\n## {} batches: many messages per call\n",
        batch.function
    );
    let _ = writeln!(out, "| name | kind | what |\n|---|---|---|");
    for (name, kind, description) in &batch.entries {
        let _ = writeln!(out, "| {name} | {} | {description} |", kind.label());
    }
    let names: Vec<&str> = batch.entries.iter().map(|e| e.0.as_str()).collect();
    let _ = writeln!(
        out,
        "\n### Aggregate throughput (MB/s, all messages of a batch call)\n\n\
         ![{} batch throughput]({plot})\n",
        batch.function
    );
    table_header(out, "batch", &names);
    for (label, bytes, _, stats) in &batch.rows {
        let cells = stats
            .iter()
            .map(|s| format!("{:.0}", report.mbps(*bytes, s.median)));
        table_row(out, label, cells);
    }
    let Some(dispatched) = batch.index("dispatched") else {
        return;
    };
    let peers: Vec<(usize, &str)> = batch
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.1 == Kind::Peer)
        .map(|(i, e)| (i, e.0.as_str()))
        .collect();
    let labels: Vec<String> = peers
        .iter()
        .map(|(_, name)| format!("dispatched / {name}"))
        .collect();
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    let _ = writeln!(
        out,
        "\n### Ratios of the dispatched batch path (> 1: multisha faster)\n"
    );
    table_header(out, "batch", &labels);
    for (label, _, _, stats) in &batch.rows {
        let cells = peers
            .iter()
            .map(|(i, _)| format!("{:.2}", stats[*i].median / stats[dispatched].median));
        table_row(out, label, cells);
    }
}

/// The Merkle-node section: nanoseconds per node of each contender, and `sha256_pairs`'
/// speed against each other one, per node count and on a dependent chain.
fn render_merkle(out: &mut String, report: &Report, merkle: &MerkleReport) {
    let _ = writeln!(
        out,
        "\n## SHA-256 Merkle nodes: `sha256_pairs` against hashtree\n\n\
         64-byte nodes (two 32-byte children) to their digests, a tree level at a time; the \
         chain hashes one node at a time, each holding the last digest (a proof check).\n"
    );
    let _ = writeln!(out, "| name | what |\n|---|---|");
    for (name, description) in &merkle.entries {
        let _ = writeln!(out, "| {name} | {description} |");
    }
    let mut columns: Vec<String> = merkle
        .entries
        .iter()
        .map(|(name, _)| format!("{name} (ns/node)"))
        .collect();
    let (first, others) = merkle.entries.split_first().expect("a contender");
    columns.extend(
        others
            .iter()
            .map(|(name, _)| format!("{} / {name} (> 1: multisha faster)", first.0)),
    );
    let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
    let _ = writeln!(out);
    table_header(out, "nodes", &columns);
    let ns = |ticks: f64, nodes: usize| ticks / report.hz * 1e9 / nodes as f64;
    let row = |out: &mut String, label: &str, stats: &[Stat], nodes: usize| {
        let cells = stats
            .iter()
            .map(|s| format!("{:.1}", ns(s.median, nodes)))
            .chain(
                stats[1..]
                    .iter()
                    .map(|s| format!("{:.2}", s.median / stats[0].median)),
            );
        table_row(out, label, cells);
    };
    for (count, stats) in &merkle.rows {
        row(out, &count.to_string(), stats, *count);
    }
    row(
        out,
        &format!("chain of {CHAIN_STEPS}"),
        &merkle.chain,
        CHAIN_STEPS,
    );
}

/// The short-path section: RustCrypto time / multisha time, median over interleaved rounds.
fn render_short(out: &mut String, report: &Report) {
    let Some(first) = report.short.first() else {
        return;
    };
    let _ = writeln!(
        out,
        "\n## Short messages through `digest` and HMAC vs RustCrypto\n\n\
         RustCrypto time / multisha time for the same operation (new, one update, finalize; \
         HMAC: new with a 32-byte key, one update, finalize), median of {} interleaved rounds \
         (min-max in brackets); > 1 means multisha is faster.\n",
        report.rounds
    );
    let sizes: Vec<String> = first.ratios.iter().map(|(s, _)| size_label(*s)).collect();
    let sizes: Vec<&str> = sizes.iter().map(String::as_str).collect();
    table_header(out, "hash function / path", &sizes);
    for row in &report.short {
        let cells = row
            .ratios
            .iter()
            .map(|(_, r)| format!("{:.2} ({:.2}-{:.2})", r.median, r.min, r.max));
        table_row(out, &format!("{} {}", row.function, row.path), cells);
    }
}

fn render_algo(out: &mut String, report: &Report, algo: &AlgoReport, plot: &str) {
    let names: Vec<&str> = algo.entries.iter().map(|e| e.name.as_str()).collect();
    let _ = writeln!(out, "\n## {}\n", algo.algorithm);
    let _ = writeln!(
        out,
        "Dispatched variant: **{}** ({}).\n",
        algo.dispatched, algo.reason
    );
    let _ = writeln!(
        out,
        "Cross-check: {} digests (one-shot and streamed, 20 lengths) agree across all contenders.\n",
        algo.checked
    );

    let _ = writeln!(out, "### Contenders\n");
    let _ = writeln!(
        out,
        "| name | kind | requires | kernel code (bytes, from the binary) | description |"
    );
    let _ = writeln!(out, "|---|---|---|---:|---|");
    for e in &algo.entries {
        let code = e.code.as_ref().map_or("-".into(), |c| c.0.to_string());
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            e.name,
            e.kind.label(),
            e.requires,
            code,
            e.description
        );
    }

    let _ = writeln!(
        out,
        "\n### One-shot throughput (MB/s)\n\n![{} throughput]({plot})\n",
        algo.algorithm
    );
    table_header(out, "bytes", &names);
    for (size, stats) in &algo.sweep {
        let cells = stats
            .iter()
            .map(|s| format!("{:.1}", report.mbps(*size, s.median)));
        table_row(out, &size_label(*size), cells);
    }

    let _ = writeln!(
        out,
        "\n### tcrypt matrix: {}/byte (streaming: new, update per piece, finalize)\n",
        report.unit
    );
    table_header(out, "message / update", &names);
    for (cell, stats) in &algo.tcrypt {
        let cells = stats
            .iter()
            .map(|s| format!("{:.2}", s.median / cell.len as f64));
        table_row(out, &cell_label(cell), cells);
    }
    let _ = writeln!(out, "\n### tcrypt matrix: MB/s\n");
    table_header(out, "message / update", &names);
    for (cell, stats) in &algo.tcrypt {
        let cells = stats
            .iter()
            .map(|s| format!("{:.1}", report.mbps(cell.len, s.median)));
        table_row(out, &cell_label(cell), cells);
    }

    if !algo.cold.is_empty() {
        let _ = writeln!(
            out,
            "\n### Cold vs hot cache: {} per one-shot call (median)\n",
            report.unit
        );
        table_header(out, "bytes", &names);
        for (size, stats) in &algo.cold {
            let cells = stats.iter().map(|(cold, hot)| {
                let ratio = cold.median / hot.median;
                format!(
                    "{:.0} cold / {:.0} hot ({ratio:.1}x)",
                    cold.median, hot.median
                )
            });
            table_row(out, &size_label(*size), cells);
        }
    }

    let Some(dispatched) = algo.index("dispatched") else {
        return;
    };
    let _ = writeln!(
        out,
        "\n### Ratios (one-shot throughput; >1 means the first is faster)\n"
    );
    let pairs: Vec<(String, usize, usize)> = algo
        .entries
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e.kind {
            Kind::Variant => Some((format!("{} / dispatched", e.name), i, dispatched)),
            Kind::Peer => Some((format!("dispatched / {}", e.name), dispatched, i)),
            Kind::Dispatched => None,
        })
        .collect();
    let labels: Vec<&str> = pairs.iter().map(|p| p.0.as_str()).collect();
    table_header(out, "bytes", &labels);
    for (size, stats) in &algo.sweep {
        // Throughput ratio a/b is the inverse of the time ratio.
        let cells = pairs
            .iter()
            .map(|(_, a, b)| format!("{:.2}", stats[*b].median / stats[*a].median));
        table_row(out, &size_label(*size), cells);
    }
}
