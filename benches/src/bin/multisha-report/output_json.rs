//! report.json: the same numbers as report.md, for scripts (ticks are the raw counter unit).

use crate::measure::Stat;
use crate::results::Report;
use multisha_benches::CHAIN_STEPS;
use serde_json::{Value, json};

fn stat(report: &Report, bytes: usize, s: &Stat) -> Value {
    json!({
        "ticks_median": s.median,
        "ticks_min": s.min,
        "ticks_max": s.max,
        "ticks_per_byte": s.median / bytes as f64,
        "mb_per_s": report.mbps(bytes, s.median),
    })
}

pub(crate) fn render(report: &Report) -> Result<String, String> {
    let algorithms: Vec<Value> = report
        .algos
        .iter()
        .map(|algo| {
            let per = |bytes: usize, stats: &[Stat]| -> Value {
                algo.entries.iter().zip(stats).map(|(e, s)| (e.name.clone(), stat(report, bytes, s))).collect::<serde_json::Map<_, _>>().into()
            };
            json!({
                "algorithm": algo.algorithm.id(),
                "dispatched": { "variant": algo.dispatched, "reason": algo.reason },
                "digests_cross_checked": algo.checked,
                "contenders": algo.entries.iter().map(|e| json!({
                    "name": e.name,
                    "kind": e.kind.label(),
                    "requires": e.requires,
                    "description": e.description,
                    "kernel_code_bytes": e.code.as_ref().map(|c| c.0),
                    "kernel_symbol": e.code.as_ref().map(|c| c.1.clone()),
                })).collect::<Vec<_>>(),
                "tcrypt": algo.tcrypt.iter().map(|(cell, stats)| json!({
                    "bytes_per_message": cell.len,
                    "bytes_per_update": cell.chunk,
                    "results": per(cell.len, stats),
                })).collect::<Vec<_>>(),
                "oneshot_sweep": algo.sweep.iter().map(|(size, stats)| json!({
                    "bytes": size,
                    "results": per(*size, stats),
                })).collect::<Vec<_>>(),
                "cold_cache": algo.cold.iter().map(|(size, stats)| json!({
                    "bytes": size,
                    "results": algo.entries.iter().zip(stats).map(|(e, (cold, hot))| (e.name.clone(), json!({
                        "cold": stat(report, *size, cold),
                        "hot": stat(report, *size, hot),
                    }))).collect::<serde_json::Map<_, _>>(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let value = json!({
        "cpu": report.cpu,
        "features": report.features,
        "cpu_mask": report.cpu_mask.as_ref().map(|m| json!({
            "mask": m.text,
            "error": m.error,
            "features": m.features,
        })),
        "counter": { "source": report.counter, "unit": report.unit, "hz": report.hz },
        "mode": if report.quick { "quick" } else { "full" },
        "rounds": report.rounds,
        "sample_ms": report.sample_ms,
        "cold_samples": report.cold_samples,
        "evict_bytes": report.evict_bytes,
        "icache_flush_code_bytes": report.icache_bytes,
        "missing_peers": report.missing_peers.iter().map(|(peer, why)| json!({ "peer": peer, "why": why })).collect::<Vec<_>>(),
        "algorithms": algorithms,
        "batches": report.batches.iter().map(|batch| json!({
            "algorithm": batch.algorithm.id(),
            "function": batch.function.id(),
            "contenders": batch.entries.iter().map(|(name, kind, description)| json!({
                "name": name, "kind": kind.label(), "description": description,
            })).collect::<Vec<_>>(),
            "rows": batch.rows.iter().map(|(label, bytes, len, stats)| json!({
                "batch": label,
                "bytes": bytes,
                "message_len": len,
                "results": batch.entries.iter().zip(stats).map(|(e, s)| (e.0.clone(), stat(report, *bytes, s))).collect::<serde_json::Map<_, _>>(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "merkle": report.merkle.as_ref().map(|merkle| {
            let ns = |ticks: f64, nodes: usize| ticks / report.hz * 1e9 / nodes as f64;
            let by_name = |stats: &[Stat], nodes: usize| merkle.entries.iter().zip(stats)
                .map(|(e, s)| (e.0.to_string(), json!(ns(s.median, nodes))))
                .collect::<serde_json::Map<_, _>>();
            json!({
                "contenders": merkle.entries.iter().map(|(name, description)| json!({
                    "name": name, "description": description,
                })).collect::<Vec<_>>(),
                "ns_per_node": merkle.rows.iter().map(|(count, stats)| json!({
                    "nodes": count,
                    "results": by_name(stats, *count),
                })).collect::<Vec<_>>(),
                "chain": { "steps": CHAIN_STEPS, "ns_per_node": by_name(&merkle.chain, CHAIN_STEPS) },
            })
        }),
        "batch_planner": report.regret.iter().map(|regret| json!({
            "algorithm": regret.algorithm.id(),
            "costs": regret.costs,
            "rows": regret.rows.iter().map(|row| json!({
                "batch": row.label,
                "messages": row.count,
                "bytes": row.bytes,
                "dispatched_ns": row.dispatched,
                "best": row.best.0,
                "best_ns": row.best.1,
                "one_by_one_ns": row.one_by_one,
                "regret": row.regret(),
                "plan": row.plan,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "pbkdf2_rounds": report.pbkdf2_rounds,
        "pbkdf2": report.pbkdf2.iter().map(|row| json!({
            "derivation": row.derivation.label(),
            "id": row.derivation.id(),
            "hash": row.derivation.hash.label(),
            "iterations": row.derivation.iterations.get(),
            "output_bytes": row.derivation.out_len,
            "chains": row.derivation.chains(),
            "results": row.entries.iter().zip(&row.ticks).map(|(e, s)| (e.0.to_string(), json!({
                "kind": e.1.label(),
                "description": e.2,
                "ticks_median": s.median,
                "ticks_min": s.min,
                "ticks_max": s.max,
                "ms": s.median / report.hz * 1e3,
                "ns_per_iteration": row.ns_per_iteration(s.median, report.hz),
            }))).collect::<serde_json::Map<_, _>>(),
            "best_peer": row.best_peer().map(|b| b.0),
            "best_peer_over_multisha": row.over_best_peer(),
            "rustcrypto_over_multisha": row.over_rustcrypto(),
            "block_ticks_median": row.block.median,
            "two_blocks_ns": row.two_blocks_ns(report.hz),
        })).collect::<Vec<_>>(),
        "short_paths": report.short.iter().map(|row| json!({
            "function": row.function,
            "path": row.path,
            "rustcrypto_over_multisha": row.ratios.iter().map(|(size, r)| json!({
                "bytes": size, "median": r.median, "min": r.min, "max": r.max,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&value).map_err(|e| format!("encoding report.json: {e}"))
}
