//! The batch section: aggregate throughput of every way to hash many messages at once, on
//! equal-length batches (32 B to 16 KiB), mixed lengths and small batches; the contenders
//! calibrated to a sample length, then sampled in interleaved rounds (the order rotating each
//! round), the median kept, as for the other tables.

use crate::measure::{Plan, Stat, interleaved};
use crate::progress::Progress;
use multisha::engine::{Algorithm, Function};
use multisha_benches::{BatchContender, BatchShape, Kind, Output};
use std::cell::RefCell;

/// Everything measured for one hash function's batches.
#[derive(Debug)]
pub(crate) struct BatchReport {
    pub(crate) algorithm: Algorithm,
    /// The hash function measured (SHA-512 and SHA-384 share an algorithm).
    pub(crate) function: Function,
    /// (name, kind, description) per contender.
    pub(crate) entries: Vec<(String, Kind, String)>,
    /// Per shape: label, total bytes, the equal message length if any, and counter ticks per
    /// batch call per contender.
    pub(crate) rows: Vec<(String, usize, Option<usize>, Vec<Stat>)>,
}

impl BatchReport {
    pub(crate) fn index(&self, name: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.0 == name)
    }
}

/// Checks every contender against the first peer's digests on every shape (a fast wrong
/// answer is worthless), then measures.
pub(crate) fn measure(
    function: Function,
    contenders: &[BatchContender],
    shapes: &[BatchShape],
    plan: Plan,
    progress: &mut Progress,
) -> Result<BatchReport, String> {
    let algorithm = function.algorithm();
    let reference = contenders
        .iter()
        .find(|c| c.kind() == Kind::Peer)
        .ok_or("no peer to check the batch contenders against")?;
    let mut rows = Vec::new();
    for shape in shapes {
        progress.step(&format!("{} batches of {}", function.id(), shape.label));
        let messages = shape.slices();
        let mut want = vec![0u8; messages.len() * reference.digest_len()];
        reference.run(&messages, &mut want);
        for contender in contenders {
            let mut got = vec![0u8; messages.len() * contender.digest_len()];
            contender.run(&messages, &mut got);
            if got != want {
                return Err(format!(
                    "{function} batch contender `{}` disagrees with `{}` on {}",
                    contender.name(),
                    reference.name(),
                    shape.label
                ));
            }
        }
        // The timing closures reuse one output buffer per contender.
        let outputs: Vec<RefCell<Vec<u8>>> = contenders
            .iter()
            .map(|c| RefCell::new(vec![0u8; messages.len() * c.digest_len()]))
            .collect();
        let (messages, outputs) = (&messages, &outputs);
        let run = |i: usize| {
            move |_: &[u8]| -> Output {
                contenders[i].run(messages, &mut outputs[i].borrow_mut());
                [0; 64]
            }
        };
        let stats = interleaved(contenders.len(), plan, run);
        rows.push((shape.label.clone(), shape.bytes(), shape.equal_len, stats));
    }
    Ok(BatchReport {
        algorithm,
        function,
        entries: contenders
            .iter()
            .map(|c| (c.name().to_string(), c.kind(), c.description().to_string()))
            .collect(),
        rows,
    })
}
