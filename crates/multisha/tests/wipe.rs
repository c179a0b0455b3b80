//! The schedule workspace is wiped once per update call, after the last block, and holds only
//! zeros afterwards; kernels that keep their schedule in registers or on their own stack never
//! touch it (observed through the contract crate's test-only wipe log). Every hash function,
//! every variant this CPU runs.

use multisha::engine::{Function, Interface, PinnedMany, Schedule, Variant};
use multisha_contract::wipe_observer::{WipeRecord, take};

fn check(records: &[WipeRecord], expected: usize, variant: &Variant, what: &str) {
    assert_eq!(records.len(), expected, "{variant} {what}: {records:?}");
    for record in records {
        assert!(
            record.zero_after,
            "{variant} {what}: workspace not zero after the wipe"
        );
        match variant.schedule() {
            Schedule::Workspace => assert!(
                record.touched && record.had_data,
                "{variant} {what}: the kernel left nothing to wipe (wrong workspace?)"
            ),
            Schedule::Registers | Schedule::KernelStack => assert!(
                !record.touched,
                "{variant} {what}: the kernel touched a workspace it does not use"
            ),
            Schedule::LaneWorkspace | Schedule::Delegated => {
                unreachable!("only many-message variants use the lane workspace or delegate")
            }
        }
    }
}

#[test]
fn streaming_updates_wipe_once_per_call() {
    for &function in Function::ALL {
        let block = function.algorithm().block_len();
        for variant in function
            .algorithm()
            .variants()
            .iter()
            .filter(|v| v.is_available() && v.interface() == Interface::Single)
        {
            let mut hasher = function
                .hasher_with_variant(variant.name())
                .expect("available");
            take();

            hasher.update(&vec![1u8; block * 5]);
            check(&take(), 1, variant, "5 blocks in one update");

            hasher.update(&[2u8; 10]);
            check(&take(), 0, variant, "buffered bytes only");

            // Completes the buffered block (one kernel call), then three more blocks (another).
            hasher.update(&vec![3u8; block - 10 + block * 3 + 7]);
            check(&take(), 2, variant, "buffered block, then the rest");

            let _ = hasher.finalize();
            check(&take(), 1, variant, "finalisation");
        }
    }
}

#[test]
fn one_shot_wipes_once() {
    for &function in Function::ALL {
        let variant = function.algorithm().active().variant;
        for len in [0, 55, 56, 64, 111, 112, 128, 1000, 64 * 17] {
            take();
            let mut out = vec![0u8; function.output_len()];
            function.digest_into(&vec![7u8; len], &mut out);
            check(&take(), 1, variant, &format!("one-shot of {len} bytes"));
        }
    }
}

/// A batch call wipes the lanes' states and tails once, and the kernels' transposed schedule
/// once (when a kernel used it), whatever the number of messages and kernel calls; the serial
/// variant wipes what the single-message kernel used, once per message. SHA-256 (64-byte
/// blocks) and SHA-512 (128-byte blocks), each with every many-message variant this CPU runs.
#[test]
fn batch_calls_wipe_once() {
    batch_wipes::<multisha::Sha256>();
    batch_wipes::<multisha::Sha512>();
}

fn batch_wipes<H: multisha::HashFunction>() {
    let data = vec![9u8; 5000];
    let messages: Vec<&[u8]> = (0..37).map(|i| &data[..i * 131]).collect();
    for variant in H::algorithm()
        .variants()
        .iter()
        .filter(|v| v.is_available() && v.interface() == Interface::Many)
    {
        let pinned = PinnedMany::<H>::new(variant.name()).expect("available");
        let mut digests = vec![H::ZERO; messages.len()];
        take();
        pinned.hash_many(&messages, &mut digests);
        let records = take();
        if variant.lanes() == 1 {
            assert_eq!(records.len(), messages.len(), "{variant}: {records:?}");
            continue;
        }
        // The lane buffers, then the lane workspace.
        assert_eq!(records.len(), 2, "{variant}: {records:?}");
        let (buffers, workspace) = (records[0], records[1]);
        assert!(
            buffers.touched && buffers.had_data && buffers.zero_after,
            "{variant}: {buffers:?}"
        );
        assert!(workspace.zero_after, "{variant}: {workspace:?}");
        assert_eq!(
            workspace.touched,
            variant.schedule() == Schedule::LaneWorkspace,
            "{variant}: {workspace:?}"
        );
    }
}
