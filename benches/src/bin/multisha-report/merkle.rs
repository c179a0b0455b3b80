//! The Merkle-node section: SHA-256 of 64-byte nodes, `sha256_pairs` against hashtree, from
//! one node to a level of 65,536, and a dependent chain of single nodes (a proof check); the
//! contenders checked against RustCrypto, then sampled in interleaved rounds as elsewhere.

use crate::measure::{Plan, Stat, interleaved};
use crate::progress::Progress;
use multisha_benches::{
    CHAIN_STEPS, NODE_COUNTS, NodeContender, node_contenders, nodes, reference_chain,
    reference_digests,
};
use std::cell::RefCell;

/// The section's measurements.
#[derive(Debug)]
pub(crate) struct MerkleReport {
    /// (name, description) per contender, `sha256_pairs` first.
    pub(crate) entries: Vec<(&'static str, &'static str)>,
    /// Per node count: counter ticks per call, per contender.
    pub(crate) rows: Vec<(usize, Vec<Stat>)>,
    /// Counter ticks per chain of [`CHAIN_STEPS`] nodes, per contender.
    pub(crate) chain: Vec<Stat>,
}

/// Checks every contender against RustCrypto on every count and on the chain, then measures.
pub(crate) fn measure(plan: Plan, progress: &mut Progress) -> Result<MerkleReport, String> {
    let contenders = node_contenders();
    let mut rows = Vec::new();
    for count in NODE_COUNTS {
        progress.step(&format!("sha256 Merkle nodes, {count}"));
        let nodes = nodes(count, count as u64);
        let want = reference_digests(&nodes);
        for contender in &contenders {
            let mut got = vec![[0u8; 32]; count];
            contender.run(&nodes, &mut got);
            if got != want {
                return Err(format!(
                    "Merkle contender `{}` disagrees with RustCrypto on {count} nodes",
                    contender.name
                ));
            }
        }
        let outputs: Vec<RefCell<Vec<[u8; 32]>>> = contenders
            .iter()
            .map(|_| RefCell::new(vec![[0u8; 32]; count]))
            .collect();
        let (nodes, outputs) = (&nodes, &outputs);
        rows.push((
            count,
            sample(&contenders, plan, |i, c| {
                c.run(nodes, &mut outputs[i].borrow_mut());
            }),
        ));
    }
    progress.step("sha256 Merkle nodes, a dependent chain");
    let start = nodes(1, 99)[0];
    let want = reference_chain(&start, CHAIN_STEPS);
    for contender in &contenders {
        if contender.chain(&start, CHAIN_STEPS) != want {
            return Err(format!(
                "Merkle contender `{}` disagrees with RustCrypto on a chain",
                contender.name
            ));
        }
    }
    let chain = sample(&contenders, plan, |_, c| {
        std::hint::black_box(c.chain(&start, CHAIN_STEPS));
    });
    Ok(MerkleReport {
        entries: contenders.iter().map(|c| (c.name, c.description)).collect(),
        rows,
        chain,
    })
}

/// One `Stat` per contender: `run(i, contender)` timed in interleaved rounds.
fn sample(
    contenders: &[NodeContender],
    plan: Plan,
    run: impl Fn(usize, &NodeContender),
) -> Vec<Stat> {
    let run = &run;
    interleaved(contenders.len(), plan, |i| {
        move |_: &[u8]| -> multisha_benches::Output {
            run(i, &contenders[i]);
            [0; 64]
        }
    })
}
