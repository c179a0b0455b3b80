//! Everything the multisha benchmarks compare, behind one interface: every variant this CPU
//! runs (pinned, so the global choice stays untouched), the dispatched path, and the peers
//! (RustCrypto `sha1`/`sha2`, `ring`, and OpenSSL with the `openssl` feature). The criterion benches and the
//! `multisha-report` binary both iterate [`contenders`], so neither names a variant.

mod contenders;
mod short_paths;

pub use contenders::{Contender, Kind, Output, contenders, missing_peers};
pub use short_paths::{ShortPath, short_paths};
