//! The Merkle-node contenders: 64-byte nodes (two 32-byte children) to their SHA-256
//! digests, as a Merkle tree is hashed level by level. multisha's `sha256_pairs` against
//! hashtree (`hashtree-rs`, the SSZ Merkle library of Ethereum consensus clients: Intel's
//! multi-buffer SHA-256 with the padding block's schedule as a constant), built the way a user
//! gets it from crates.io.

use sha2::Digest as _;
use std::sync::Once;

/// Hashes nodes into digests, one digest per node.
type Run = fn(&[[u8; 64]], &mut [[u8; 32]]);

/// One way to hash Merkle nodes.
#[derive(Debug)]
pub struct NodeContender {
    /// `sha256_pairs` or the peer's name.
    pub name: &'static str,
    /// What it is.
    pub description: &'static str,
    run: Run,
}

impl NodeContender {
    /// The digests of `nodes` into `digests` (of the same length).
    pub fn run(&self, nodes: &[[u8; 64]], digests: &mut [[u8; 32]]) {
        (self.run)(nodes, digests);
    }

    /// A dependent chain of `steps` single nodes from `node`, as a Merkle proof is checked:
    /// each node holds the last digest beside a sibling, so no call overlaps the next. The
    /// last digest.
    pub fn chain(&self, node: &[u8; 64], steps: usize) -> [u8; 32] {
        let mut node = *node;
        let mut digest = [[0u8; 32]];
        for _ in 0..steps {
            self.run(std::slice::from_ref(&node), &mut digest);
            node[..32].copy_from_slice(&digest[0]);
        }
        digest[0]
    }
}

/// The contenders: `sha256_pairs` first, then hashtree.
pub fn node_contenders() -> Vec<NodeContender> {
    vec![
        NodeContender {
            name: "sha256_pairs",
            description: "multisha::sha256_pairs (dispatched, planned per batch)",
            run: multisha::sha256_pairs,
        },
        NodeContender {
            name: "hashtree",
            description: "hashtree-rs 0.2 hash (its best implementation for this CPU, chosen by its init)",
            run: hashtree,
        },
    ]
}

fn hashtree(nodes: &[[u8; 64]], digests: &mut [[u8; 32]]) {
    static INIT: Once = Once::new();
    // Its `init` chooses the implementation for this CPU; until then it runs a generic one.
    INIT.call_once(|| {
        hashtree_rs::init();
    });
    assert_eq!(nodes.len(), digests.len(), "a digest per node");
    hashtree_rs::hash(
        digests.as_flattened_mut(),
        nodes.as_flattened(),
        nodes.len(),
    );
}

/// Steps of the dependent chain the report and the `merkle_nodes` example time.
pub const CHAIN_STEPS: usize = 64;

/// RustCrypto's digests of `nodes`: what every contender must give.
pub fn reference_digests(nodes: &[[u8; 64]]) -> Vec<[u8; 32]> {
    nodes
        .iter()
        .map(|n| sha2::Sha256::digest(n).into())
        .collect()
}

/// RustCrypto's last digest of a chain of `steps` nodes from `node`, as
/// [`NodeContender::chain`] runs it.
pub fn reference_chain(node: &[u8; 64], steps: usize) -> [u8; 32] {
    let mut node = *node;
    let mut digest = [0u8; 32];
    for _ in 0..steps {
        digest = sha2::Sha256::digest(node).into();
        node[..32].copy_from_slice(&digest);
    }
    digest
}

/// The node counts measured: a node alone up to a tree level of 65,536 nodes (4 MiB), with
/// every count to 5 and the odd ones to 9 (the single-message kernel's shapes of few nodes:
/// pairs, three in three steps, one alone) and counts between 8 and 16 (past the one-block
/// entry's calls of 8, short of the lanes).
pub const NODE_COUNTS: [usize; 15] = [1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 32, 64, 256, 4096, 65536];

/// Deterministic nodes (xorshift64).
pub fn nodes(count: usize, seed: u64) -> Vec<[u8; 64]> {
    let mut state = seed | 1;
    (0..count)
        .map(|_| {
            core::array::from_fn(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every contender gives RustCrypto's digests, at every count and on a chain.
    #[test]
    fn node_contenders_agree_with_rustcrypto() {
        for count in NODE_COUNTS
            .into_iter()
            .filter(|&c| c <= 4096)
            .chain([6, 17, 33])
        {
            let nodes = nodes(count, count as u64);
            let want = reference_digests(&nodes);
            for contender in node_contenders() {
                let mut got = vec![[0u8; 32]; count];
                contender.run(&nodes, &mut got);
                assert!(got == want, "{} on {count} nodes", contender.name);
            }
        }
        let start = nodes(1, 7)[0];
        for contender in node_contenders() {
            assert_eq!(
                contender.chain(&start, 5),
                reference_chain(&start, 5),
                "{}",
                contender.name
            );
        }
    }
}
