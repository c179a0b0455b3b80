//! The measured results, shared by the Markdown, JSON, SVG and terminal outputs.

use crate::measure::{Cell, Stat};
use multisha::engine::Algorithm;
use multisha_benches::Kind;

/// One contender as the report lists it.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) kind: Kind,
    pub(crate) requires: String,
    pub(crate) description: String,
    /// Kernel machine code: (bytes, symbol), for multisha contenders found in the binary.
    pub(crate) code: Option<(u64, String)>,
}

/// Everything measured for one algorithm; every `Vec<Stat>` is indexed like `entries`.
#[derive(Debug)]
pub(crate) struct AlgoReport {
    pub(crate) algorithm: Algorithm,
    pub(crate) dispatched: String,
    pub(crate) reason: String,
    pub(crate) checked: usize,
    pub(crate) entries: Vec<Entry>,
    pub(crate) tcrypt: Vec<(Cell, Vec<Stat>)>,
    /// One-shot hashing per message size.
    pub(crate) sweep: Vec<(usize, Vec<Stat>)>,
    /// Per size: (cold, hot) ticks of one one-shot call.
    pub(crate) cold: Vec<(usize, Vec<(Stat, Stat)>)>,
}

impl AlgoReport {
    pub(crate) fn index(&self, name: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.name == name)
    }
}

/// A CPU mask as the report shows it.
#[derive(Debug)]
pub(crate) struct MaskNote {
    /// `MULTISHA_CPU=-sha (removes sha)`, or why it was ignored.
    pub(crate) shown: String,
    /// The mask as written.
    pub(crate) text: String,
    /// The error, when the mask was refused (then nothing was masked).
    pub(crate) error: Option<String>,
    /// The features multisha's dispatch and variants used.
    pub(crate) features: String,
}

impl MaskNote {
    /// The mask in force in this process, if one is set.
    pub(crate) fn current() -> Option<Self> {
        let mask = multisha::engine::cpu_mask()?;
        Some(Self {
            shown: mask.to_string(),
            text: mask.text().to_string(),
            error: mask.error().map(|e| e.to_string()),
            features: multisha::engine::cpu_features().to_string(),
        })
    }

    /// One line for the top of the report and the summary.
    pub(crate) fn line(&self) -> String {
        match self.error {
            None => format!(
                "Run under a CPU mask: {}. multisha's variants and dispatch saw the features {}; \
                 the peers (RustCrypto, ring, OpenSSL) still use the whole CPU.",
                self.shown, self.features
            ),
            Some(_) => format!("CPU mask refused: {}; the whole CPU was used.", self.shown),
        }
    }
}

/// The whole report.
#[derive(Debug)]
pub(crate) struct Report {
    pub(crate) cpu: String,
    pub(crate) features: String,
    /// The CPU mask (`MULTISHA_CPU`) the run was made under, if one was set.
    pub(crate) cpu_mask: Option<MaskNote>,
    pub(crate) counter: &'static str,
    pub(crate) unit: &'static str,
    /// Counter ticks per second, measured against `Instant`.
    pub(crate) hz: f64,
    pub(crate) quick: bool,
    pub(crate) rounds: usize,
    pub(crate) sample_ms: f64,
    pub(crate) cold_samples: usize,
    pub(crate) evict_bytes: usize,
    pub(crate) icache_bytes: Option<u64>,
    /// Peers not built into this binary, with why.
    pub(crate) missing_peers: Vec<(&'static str, &'static str)>,
    pub(crate) algos: Vec<AlgoReport>,
    /// Short messages through the `digest` API and HMAC vs RustCrypto.
    pub(crate) short: Vec<crate::short::ShortRow>,
    /// Many messages at once, per algorithm.
    pub(crate) batches: Vec<crate::batch::BatchReport>,
    /// SHA-256 Merkle nodes against hashtree (with SHA-256 only).
    pub(crate) merkle: Option<crate::merkle::MerkleReport>,
    /// The batch planner per algorithm: its costs, and its regret on a grid of shapes.
    pub(crate) regret: Vec<RegretReport>,
    /// PBKDF2 derivations against the PBKDF2 peers.
    pub(crate) pbkdf2: Vec<multisha_benches::Pbkdf2Row>,
    /// Interleaved rounds of the PBKDF2 section.
    pub(crate) pbkdf2_rounds: usize,
}

/// The batch planner of one algorithm: the costs it used and its regret table.
#[derive(Debug)]
pub(crate) struct RegretReport {
    pub(crate) algorithm: Algorithm,
    /// `engine::batch_costs`, as printed.
    pub(crate) costs: String,
    pub(crate) rows: Vec<multisha_benches::RegretRow>,
}

impl RegretReport {
    /// The row of the largest regret, and that of the largest time against one by one.
    pub(crate) fn worst(
        &self,
    ) -> Option<(&multisha_benches::RegretRow, &multisha_benches::RegretRow)> {
        let regret = self
            .rows
            .iter()
            .max_by(|a, b| a.regret().total_cmp(&b.regret()))?;
        let one = self
            .rows
            .iter()
            .max_by(|a, b| a.against_one_by_one().total_cmp(&b.against_one_by_one()))?;
        Some((regret, one))
    }
}

impl Report {
    /// MB/s (10^6 bytes per second) for `bytes` hashed in `ticks`.
    pub(crate) fn mbps(&self, bytes: usize, ticks: f64) -> f64 {
        bytes as f64 * self.hz / ticks / 1e6
    }
}

pub(crate) use multisha_benches::size_label;
