//! The schedule workspace is wiped once per update call, after the last block, and holds only
//! zeros afterwards; kernels that keep their schedule in registers or on their own stack never
//! touch it (observed through the contract crate's test-only wipe log). Every hash function,
//! every variant this CPU runs.

use multisha::engine::{Function, Interface, PinnedMany, Schedule, Variant};
use multisha_contract::wipe_observer::{WipeRecord, take, take_padding};

/// The tests of this file one at a time: the dispatched batch test measures the kernels'
/// costs, and measured while the others hashed on the same two cores, two SHA-NI lanes were
/// priced over one by one for every shape it tries (under the mask without AVX-512, 2-5 of
/// 15-20 runs failed "no batch shape planned with lanes"; one at a time, 0-1 of 15-20).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Holds [`ONE_AT_A_TIME`] for the test that calls it (past another test's panic too).
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

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
    let _one_at_a_time = one_at_a_time();
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

            take_padding();
            let _ = hasher.finalize();
            check(&take(), 1, variant, "finalisation");
            // The padded tail (7 bytes, the 0x80 and the length: one block) is wiped too.
            let padding = take_padding();
            assert!(
                matches!(padding[..], [r] if r.bytes == block && r.had_data && r.zero_after),
                "{variant} finalisation: padded tail wipes {padding:?}"
            );
        }
    }
}

#[test]
fn one_shot_wipes_once() {
    let _one_at_a_time = one_at_a_time();
    for &function in Function::ALL {
        let variant = function.algorithm().active().variant;
        let block = function.algorithm().block_len();
        for len in [0, 55, 56, 64, 111, 112, 128, 1000, 64 * 17] {
            take();
            let mut out = vec![0u8; function.output_len()];
            function.digest_into(&vec![7u8; len], &mut out);
            // A message of one block goes to the kernel's entry for one-block messages, where
            // it has one: no padded tail, and (the only such entries keep their schedule in
            // registers) no workspace: nothing to wipe (the stack residue test checks that
            // nothing is left either).
            let expected = if len == block && variant.has_one_block_entry() {
                assert_eq!(variant.schedule(), Schedule::Registers, "{variant}");
                0
            } else {
                1
            };
            check(
                &take(),
                expected,
                variant,
                &format!("one-shot of {len} bytes"),
            );
        }
    }
}

/// A batch call wipes the lanes' states and tails once, and the kernels' transposed schedule
/// once (when a kernel used it), whatever the number of messages and kernel calls; the serial
/// variant wipes what the single-message kernel used once too. SHA-256 (64-byte
/// blocks) and SHA-512 (128-byte blocks), each with every many-message variant this CPU runs.
#[test]
fn batch_calls_wipe_once() {
    let _one_at_a_time = one_at_a_time();
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
            assert!(
                records.len() == 1 && records[0].zero_after,
                "{variant}: {records:?}"
            );
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

/// The dispatched batch functions on a batch the planner splits into a lane stage and a
/// one-by-one stage (`sha256_many` of 17 messages of 4 KiB: 16 on a 16-lane kernel, the last
/// one alone, on a CPU with AVX-512), or, where it never splits one, a batch all on the lanes:
/// each one-by-one stage wipes its one-shot workspace once, then the lane buffers and the lane
/// workspace are wiped once, at the end. Where the costs measured here put every shape one by
/// one (a busy machine can price the lanes so), that plan runs and its one wipe is checked:
/// the wipes of a split plan are checked apart from the measured costs, by the library's unit
/// test `a_plan_of_lanes_and_one_by_one_wipes_every_workspace`. Messages of equal length
/// differ, and every digest is RustCrypto's.
#[test]
fn dispatched_batches_of_lanes_and_one_by_one_wipe_all_workspaces() {
    let _one_at_a_time = one_at_a_time();
    use multisha::engine::{Algorithm, batch_plan};
    type Run = fn(&[&[u8]]) -> Vec<Vec<u8>>;
    let sha1: Run = |messages| {
        let mut digests = vec![[0u8; 20]; messages.len()];
        multisha::sha1_many(messages, &mut digests);
        digests.iter().map(|d| d.to_vec()).collect()
    };
    let sha256: Run = |messages| {
        let mut digests = vec![[0u8; 32]; messages.len()];
        multisha::sha256_many(messages, &mut digests);
        digests.iter().map(|d| d.to_vec()).collect()
    };
    let reference_sha1: fn(&[u8]) -> Vec<u8> = |m| <sha1::Sha1 as sha1::Digest>::digest(m).to_vec();
    let reference_sha256: fn(&[u8]) -> Vec<u8> =
        |m| <sha2::Sha256 as sha2::Digest>::digest(m).to_vec();
    let cases = [
        (Algorithm::Sha1, sha1, reference_sha1),
        (Algorithm::Sha256, sha256, reference_sha256),
    ];
    for (algorithm, run, reference) in cases {
        // A shape with both kinds of stage: one more message than some kernel has lanes.
        let shapes = [17, 9, 5, 3, 33, 18, 10, 6, 2, 4]
            .into_iter()
            .flat_map(|count| {
                [4096, 8192, 1024, 16384, 256, 64, 32, 512].map(|len| vec![len; count])
            });
        let has = |lengths: &[usize], lanes: bool| {
            batch_plan(algorithm, lengths)
                .stages()
                .any(|s| (s.lanes > 1) == lanes)
        };
        // Measured first, so that the batch run below cannot be the one that measures and
        // plans again: it runs the plan looked at here.
        multisha::engine::calibrate(algorithm);
        let mixed = shapes
            .clone()
            .find(|lengths| has(lengths, true) && has(lengths, false));
        // Where the planner never mixes (with two-lane kernels cheaper per block than one by
        // one, as under `MULTISHA_CPU=-avx512f` here, odd counts stay on the lanes), a batch
        // all on the lanes still runs through the dispatched path and its wipes are checked.
        // (A variant pinned through the environment, CI's runs per forced variant, runs every
        // batch alone: `batch_calls_wipe_once` checks each that way.)
        let lengths = mixed
            .or_else(|| {
                eprintln!("{algorithm}: no shape mixes lanes and one by one; lanes alone checked");
                shapes.clone().find(|lengths| has(lengths, true))
            })
            .unwrap_or_else(|| {
                eprintln!(
                    "{algorithm}: every shape planned one by one (a pinned variant, no lane \
                     kernel, or costs measured so); that path checked"
                );
                vec![4096; 17]
            });
        let data = multisha_contract::harness::TestRng::new(0x5eed_0023).bytes(17 * 16384);
        let messages: Vec<&[u8]> = lengths
            .iter()
            .enumerate()
            .map(|(i, &len)| &data[i * 997..][..len])
            .collect();
        let plan = batch_plan(algorithm, &lengths);
        let one_by_one = plan.stages().filter(|s| s.lanes == 1).count();
        let single = plan.stages().find(|s| s.lanes == 1).map(|s| s.variant);
        let lane_workspace = plan
            .stages()
            .any(|s| s.lanes > 1 && s.variant.schedule() == Schedule::LaneWorkspace);
        take();
        let digests = run(&messages);
        let records = take();
        for (i, (digest, message)) in digests.iter().zip(&messages).enumerate() {
            assert_eq!(
                digest,
                &reference(message),
                "{algorithm}: message {i} of {plan}"
            );
        }
        // The one-shot workspace of each one-by-one stage as it ends, then the lanes' at the
        // end (where the plan has lanes).
        let lanes = plan.stages().any(|s| s.lanes > 1);
        assert_eq!(
            records.len(),
            one_by_one + if lanes { 2 } else { 0 },
            "{plan}: {records:?}"
        );
        if let Some(single) = single {
            check(
                &records[..one_by_one],
                one_by_one,
                single,
                &format!("{plan}"),
            );
        }
        if !lanes {
            continue;
        }
        let (buffers, workspace) = (records[one_by_one], records[one_by_one + 1]);
        assert!(
            buffers.touched && buffers.had_data && buffers.zero_after,
            "lane buffers in {plan}: {buffers:?}"
        );
        assert!(workspace.zero_after, "{plan}: {workspace:?}");
        // A lane kernel with its schedule in the lane workspace filled it, and the wipe saw
        // that (others may keep states there: SHA-1 `shani-x2`).
        if lane_workspace {
            assert!(
                workspace.touched && workspace.had_data,
                "{plan}: {workspace:?}"
            );
        }
    }
}

/// Every buffer a PBKDF2 derivation fills with key material (the key block, its pad blocks,
/// the keyed states, the salt's tail, the inner state and digest block, `U`, `T`) is wiped at
/// its full size and holds only zeros after: dispatched and with each single-message variant
/// pinned, SHA-1, SHA-256 and SHA-512, passwords shorter and longer than a block, one output
/// block and four. The stack scan (`stack_residue.rs`) cannot see these wipes when a later
/// frame overwrites the same bytes; the named log can.
#[test]
fn pbkdf2_wipes_every_buffer_of_key_material() {
    let _one_at_a_time = one_at_a_time();
    pbkdf2_secret_wipes::<multisha::Sha1>(20);
    pbkdf2_secret_wipes::<multisha::Sha256>(32);
    pbkdf2_secret_wipes::<multisha::Sha512>(64);
}

fn pbkdf2_secret_wipes<H: multisha::HashFunction>(state_bytes: usize) {
    use multisha::engine::Pinned;
    use multisha_contract::wipe_observer::take_secrets;
    let block = H::algorithm().block_len();
    // Each name, its size, and whether every record of it must have held data (`U` and `T`
    // are wiped lane by lane, and lanes a derivation did not use held nothing).
    let expected: [(&str, usize, bool); 10] = [
        ("HMAC key block", block, true),
        ("HMAC pad block", block, true),
        ("HMAC inner keyed state", state_bytes, true),
        ("HMAC outer keyed state", state_bytes, true),
        ("salt tail and index", 256, true),
        ("inner digest block", block, true),
        ("inner state", state_bytes, true),
        ("U", state_bytes, false),
        ("T", state_bytes, false),
        ("T bytes", 64, true),
    ];
    let iterations = std::num::NonZeroU32::new(3).expect("positive");
    type Derive<'a> = Box<dyn Fn(&[u8], &mut [u8]) + 'a>;
    // Each path, and whether it surely runs the portable loop (`iterate_with`, whose own
    // block and inner state are named too): the portable variants, pinned.
    let mut paths: Vec<(String, Derive, bool)> = vec![(
        "dispatched".into(),
        Box::new(|password, out| {
            multisha::pbkdf2_hmac::<H>(password, b"salt", iterations, out).expect("valid")
        }),
        false,
    )];
    for variant in H::algorithm()
        .variants()
        .iter()
        .filter(|v| v.is_available() && v.interface() == Interface::Single)
    {
        let pin = Pinned::<H>::from_variant(variant).expect("available");
        paths.push((
            format!("{variant}"),
            Box::new(move |password, out| {
                pin.pbkdf2_hmac(password, b"salt", iterations, out)
                    .expect("valid")
            }),
            variant.requires().is_empty(),
        ));
    }
    let portable: [(&str, usize, bool); 2] = [
        ("iteration block", block, true),
        ("iteration inner state", state_bytes, true),
    ];
    for (path, derive, portable_loop) in &paths {
        for password_len in [10, 200] {
            for blocks in [1, 4] {
                let what = format!(
                    "{} {path}, {password_len} B password, {blocks} blocks",
                    H::id()
                );
                let mut out = vec![0u8; blocks * H::OUTPUT.len];
                // Once before: the first derivation of a process also times the lane chains
                // on keyed states of its own (zeros, no secret), and wipes those too.
                derive(b"warm-up", &mut out);
                take_secrets();
                derive(&vec![0xa5; password_len], &mut out);
                let records = take_secrets();
                for record in &records {
                    assert!(
                        record.zero_after,
                        "{what}: {record:?} not zero after its wipe"
                    );
                }
                let loop_buffers = if *portable_loop { &portable[..] } else { &[] };
                for &(name, bytes, always_data) in expected.iter().chain(loop_buffers) {
                    let named: Vec<_> = records.iter().filter(|r| r.what == name).collect();
                    assert!(
                        !named.is_empty(),
                        "{what}: no wipe of the {name} among {:?}",
                        records.iter().map(|r| r.what).collect::<Vec<_>>()
                    );
                    for record in &named {
                        assert_eq!(record.bytes, bytes, "{what}: {record:?}");
                        assert!(
                            record.had_data || !always_data,
                            "{what}: the {name} held nothing (wiped twice?): {record:?}"
                        );
                    }
                    assert!(
                        named.iter().any(|r| r.had_data),
                        "{what}: no {name} held data: {named:?}"
                    );
                }
                // Two pad blocks (ipad, opad) per password.
                let pads = records
                    .iter()
                    .filter(|r| r.what == "HMAC pad block")
                    .count();
                assert_eq!(pads, 2, "{what}: pad blocks wiped");
            }
        }
    }
}

/// The HMAC batch functions wipe the key's buffers and keyed states and every inner digest
/// (each held data, and holds only zeros after), for keys shorter and longer than a block and
/// batches of one message, of a lane-full and of more than a round (256 messages).
#[test]
fn hmac_batches_wipe_keys_and_inner_digests() {
    let _one_at_a_time = one_at_a_time();
    hmac_many_wipes::<multisha::Sha1>(20);
    hmac_many_wipes::<multisha::Sha256>(32);
    hmac_many_wipes::<multisha::Sha512>(64);
}

fn hmac_many_wipes<H: multisha::HashFunction>(state_bytes: usize) {
    use multisha_contract::wipe_observer::take_secrets;
    let block = H::algorithm().block_len();
    for key_len in [10, 200] {
        for count in [1, 16, 300] {
            let what = format!("{} HMAC batch, {key_len} B key, {count} messages", H::id());
            let messages: Vec<Vec<u8>> = (0..count).map(|i| vec![i as u8; i % 90]).collect();
            let mut tags = vec![H::ZERO; count];
            take_secrets();
            multisha::hmac_many::<H>(&vec![0xa5; key_len], &messages, &mut tags);
            let records = take_secrets();
            for record in &records {
                assert!(
                    record.zero_after,
                    "{what}: {record:?} not zero after its wipe"
                );
                assert!(
                    record.had_data,
                    "{what}: {record:?} held nothing (wiped twice?)"
                );
            }
            let count_of = |name: &str, bytes: usize| {
                records
                    .iter()
                    .filter(|r| r.what == name)
                    .inspect(|r| assert_eq!(r.bytes, bytes, "{what}: {r:?}"))
                    .count()
            };
            assert_eq!(count_of("HMAC key block", block), 1, "{what}");
            assert_eq!(count_of("HMAC pad block", block), 2, "{what}");
            assert_eq!(count_of("HMAC inner keyed state", state_bytes), 1, "{what}");
            assert_eq!(count_of("HMAC outer keyed state", state_bytes), 1, "{what}");
            assert_eq!(
                count_of("HMAC inner digest", H::OUTPUT.len),
                count.min(256),
                "{what}: one wipe per inner digest slot used"
            );
        }
    }
}
