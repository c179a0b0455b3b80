//! Everything the multisha benchmarks compare, behind one interface: every variant this CPU
//! runs (pinned, so the global choice stays untouched), the dispatched path, and the peers
//! (RustCrypto `sha1`/`sha2`, `ring`, and OpenSSL with the `openssl` feature). The criterion benches and the
//! `multisha-report` binary both iterate [`contenders`], so neither names a variant. PBKDF2 has
//! its own contenders ([`pbkdf2_contenders`]: RustCrypto `pbkdf2`, ring, OpenSSL, fastpbkdf2).

mod batch;
mod contenders;
pub mod counter;
mod kdf;
mod merkle;
pub mod pbkdf2_multisha;
pub mod processes;
mod regret;
mod short_paths;
pub mod timing;

pub use batch::{BatchContender, BatchShape, batch_contenders, batch_functions, batch_shapes};
pub use contenders::{Contender, Kind, Output, contenders, missing_peers};
pub use kdf::{
    DERIVATIONS, Derivation, PASSWORD, Pbkdf2Contender, Pbkdf2Hash, Pbkdf2Row, SALT, check_pbkdf2,
    measure_pbkdf2, pbkdf2_contenders, pbkdf2_table,
};
pub use merkle::{
    CHAIN_STEPS, NODE_COUNTS, NodeContender, node_contenders, nodes, reference_chain,
    reference_digests,
};
pub use regret::{RegretRow, RegretShape, measure_regret, regret_shapes};
pub use short_paths::{ShortPath, short_paths};

/// "16 KiB", "1 MiB", "64 B".
pub fn size_label(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} B"),
    }
}
