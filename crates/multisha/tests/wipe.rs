//! The schedule workspace is wiped once per update call, after the last block, and holds only
//! zeros afterwards (observed through the contract crate's test-only wipe log).

use multisha::engine::{Algorithm, Schedule};
use multisha::{Digest, Sha256};
use multisha_contract::wipe_observer::{WipeRecord, take};

fn check(records: &[WipeRecord], expected: usize, schedule: Schedule, what: &str) {
    assert_eq!(records.len(), expected, "{what}: {records:?}");
    for record in records {
        assert!(
            record.zero_after,
            "{what}: workspace not zero after the wipe"
        );
        if schedule == Schedule::Workspace {
            assert!(
                record.had_data,
                "{what}: the kernel left nothing to wipe (wrong workspace?)"
            );
        }
    }
}

#[test]
fn streaming_updates_wipe_once_per_call() {
    for variant in Algorithm::Sha256
        .variants()
        .iter()
        .filter(|v| v.is_available())
    {
        let schedule = variant.schedule();
        let mut hasher = Sha256::with_variant(variant.name()).expect("available");
        take();

        hasher.update([1u8; 64 * 5]);
        check(
            &take(),
            1,
            schedule,
            &format!("{variant}: 5 blocks in one update"),
        );

        hasher.update([2u8; 10]);
        check(
            &take(),
            0,
            schedule,
            &format!("{variant}: buffered bytes only"),
        );

        // Completes the buffered block (one kernel call), then three more blocks (another).
        hasher.update([3u8; 54 + 64 * 3 + 7]);
        check(
            &take(),
            2,
            schedule,
            &format!("{variant}: buffered block, then the rest"),
        );

        let _ = hasher.finalize();
        check(&take(), 1, schedule, &format!("{variant}: finalisation"));
    }
}

#[test]
fn one_shot_wipes_once() {
    for len in [0, 55, 56, 64, 1000, 64 * 17] {
        take();
        let _ = multisha::sha1(&vec![7u8; len]);
        let records = take();
        assert_eq!(records.len(), 1, "sha1 of {len} bytes: {records:?}");
        assert!(records[0].zero_after);
        let _ = multisha::sha256(&vec![7u8; len]);
        let records = take();
        assert_eq!(records.len(), 1, "sha256 of {len} bytes: {records:?}");
        assert!(records[0].zero_after);
    }
}
