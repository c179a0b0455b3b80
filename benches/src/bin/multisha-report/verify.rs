//! The cross-check before any timing: every contender, one-shot and streamed in several
//! chunkings, must give the dispatched path's digest on every input. A fast wrong answer is
//! worthless, so a mismatch stops the report.

use multisha_benches::Contender;

/// Lengths around the padding boundaries of 64-byte blocks (55/56, 64, 119/120) and of
/// 128-byte blocks (111/112, 128, 239/240), plus multi-block messages.
const LENGTHS: [usize; 20] = [
    0, 1, 3, 55, 56, 63, 64, 65, 111, 112, 119, 120, 127, 128, 239, 240, 1000, 4096, 16385, 100_000,
];
/// Update sizes for the streamed hashes: byte by byte, odd, block-sized, larger than a block.
const CHUNKS: [usize; 4] = [1, 7, 64, 1000];

pub(crate) fn message(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 + 7) as u8).collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The number of digests compared, or a message naming the first mismatch.
pub(crate) fn cross_check(contenders: &[Contender]) -> Result<usize, String> {
    let Some(reference) = contenders.iter().find(|c| c.name() == "dispatched") else {
        return Err("no dispatched contender to compare against".into());
    };
    let digest_len = reference.digest_len();
    let mut compared = 0;
    for len in LENGTHS {
        let data = message(len);
        let expected = reference.oneshot(&data);
        for contender in contenders {
            let mut check = |how: String, got: multisha_benches::Output| {
                compared += 1;
                if got == expected {
                    Ok(())
                } else {
                    Err(format!(
                        "digest mismatch: {} `{}` ({how}) on a {len}-byte message gives {}, the dispatched path (`{}`) gives {}",
                        contender.algorithm(),
                        contender.name(),
                        hex(&got[..digest_len]),
                        reference.variant().map_or("?", |v| v.name()),
                        hex(&expected[..digest_len]),
                    ))
                }
            };
            check("one-shot".into(), contender.oneshot(&data))?;
            for chunk in CHUNKS {
                check(
                    format!("streamed in {chunk}-byte updates"),
                    contender.stream(&data, chunk),
                )?;
            }
        }
    }
    Ok(compared)
}
