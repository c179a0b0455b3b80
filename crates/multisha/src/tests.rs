//! Every variant of the registry that this CPU runs goes through the shared harness, at the
//! kernel level and through every hasher of its algorithm pinned to it; the dispatched
//! hashers through the streaming suite, the dispatched batch functions against RustCrypto.
//! Generic over the registry: an algorithm added there is tested here without an edit.

use crate::hash_function::HashFunction;
use crate::hash_function::Registered;
use multisha_contract::Kernel;
use multisha_contract::harness::{self, Reference};
use std::format;
use std::sync::Mutex;

/// Held by the unit tests that change or assert the process-wide choice.
pub(crate) static SERIAL: Mutex<()> = Mutex::new(());

/// Set in the child process that [`in_child`] starts.
const CHILD: &str = "MULTISHA_TEST_CHILD";

/// For a test that changes the process-wide choice (`force`): CI runs this binary once per
/// variant forced through the environment, and the other tests must run that variant. Returns
/// true in the child process this binary starts for the test `module::name` alone (the test
/// then runs there); in the parent, runs that child (through `MULTISHA_TEST_RUNNER`, the
/// emulator of a cross-test, if one is set), asserts that exactly that test ran and passed,
/// and returns false.
pub(crate) fn in_child(module: &str, name: &str) -> bool {
    let test = format!(
        "{}::{name}",
        module.strip_prefix("multisha::").unwrap_or(module)
    );
    if std::env::var(CHILD).is_ok_and(|v| v == test) {
        return true;
    }
    let exe = std::env::current_exe().expect("test binary path");
    let mut command = match std::env::var("MULTISHA_TEST_RUNNER") {
        Ok(runner) if !runner.trim().is_empty() => {
            let mut words = runner.split_whitespace();
            let mut command = std::process::Command::new(words.next().expect("a program"));
            command.args(words).arg(exe);
            command
        }
        _ => std::process::Command::new(exe),
    };
    let output = command
        .args(["--exact", &test, "--test-threads=1"])
        .env(CHILD, &test)
        .output()
        .expect("re-run the test binary");
    let stdout = std::string::String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("test result: ok. 1 passed"),
        "{test} in a child process: {stdout}{}",
        std::string::String::from_utf8_lossy(&output.stderr)
    );
    false
}

/// Asserts that the dispatcher runs what the environment says it must
/// (`MULTISHA_EXPECT_<ID>`, `MULTISHA_EXPECT_<ID>_MANY`, `MULTISHA_EXPECT_ALL` for every
/// single-message choice without its own: CI's runs per forced variant and the AArch64
/// cross-test set them), and that each single-message slot holds the kernel of the variant
/// the selection names. With `MULTISHA_REPORT_ACTIVE=PATH`, writes the choices there
/// (`sha256 single shani environment`), which CI prints per run.
fn assert_expected_choices() {
    use crate::engine::{Algorithm, active, active_many};
    use std::string::String;
    let mut report = String::new();
    for &algorithm in Algorithm::ALL {
        let id = algorithm.id();
        let var = format!("MULTISHA_EXPECT_{}", id.to_uppercase());
        let (single, many) = (active(algorithm), active_many(algorithm));
        let expected = std::env::var(&var).or_else(|_| std::env::var("MULTISHA_EXPECT_ALL"));
        if let Ok(expected) = expected {
            assert_eq!(single.variant.name(), expected, "{var}: {single}");
        }
        if let Ok(expected) = std::env::var(format!("{var}_MANY")) {
            assert_eq!(many.variant.name(), expected, "{var}_MANY: {many}");
        }
        report += &format!("{id} single {} {}\n", single.variant.name(), single.reason);
        report += &format!("{id} many {} {}\n", many.variant.name(), many.reason);
    }
    struct Slots;
    impl Visitor for Slots {
        fn algorithm<A: Registered + Reference>(&mut self) {
            let named = A::ALGORITHM.active().variant;
            let running = crate::dispatch::installed::<A>() as usize;
            assert_eq!(
                named.kernel_address(),
                running,
                "{named} named, another runs"
            );
        }
        fn function<H>(&mut self)
        where
            H: HashFunction + digest::Digest + digest::FixedOutputReset + Clone,
            H::Compression: Reference,
        {
        }
    }
    crate::algorithms::visit(&mut Slots);
    if let Ok(path) = std::env::var("MULTISHA_REPORT_ACTIVE") {
        std::fs::write(&path, report).expect("write MULTISHA_REPORT_ACTIVE");
    }
}

/// What a test does per algorithm and per hash function of the registry.
pub(crate) trait Visitor {
    fn algorithm<A: Registered + Reference>(&mut self);
    fn function<H>(&mut self)
    where
        H: HashFunction + digest::Digest + digest::FixedOutputReset + Clone,
        H::Compression: Reference;
}

/// Counts what ran and what this CPU could not run.
#[derive(Default)]
struct Harness {
    ran: usize,
    skipped: usize,
    algorithms: usize,
}

impl Visitor for Harness {
    fn algorithm<A: Registered + Reference>(&mut self) {
        self.algorithms += 1;
        let variants = A::ALGORITHM.variants();
        assert!(
            variants.iter().any(|v| v.requires().is_empty()),
            "{}: a portable variant",
            A::NAME
        );
        // The harness runs each kernel the real CPU runs, masked or not (a mask in
        // MULTISHA_CPU narrows what the engine dispatches to, not what the kernels' own tests
        // may run).
        let cpu = multisha_contract::CpuFeatures::detect();
        for variant in variants {
            let declaration = variant.declaration::<A>().expect("a variant of A");
            match harness::declaration_suite(declaration) {
                Some(checks) => {
                    assert!(checks > 50, "{variant}: only {checks} checks");
                    assert!(variant.is_available_on(cpu));
                    self.ran += 1;
                }
                // The serial many-message variant has no kernel of its own (the batch tests
                // cover it).
                None if matches!(declaration.kernel, Kernel::Serial) => self.ran += 1,
                None => {
                    assert!(
                        !variant.is_available_on(cpu),
                        "{variant} runs here but was skipped"
                    );
                    harness::assert_skip_expected(variant.name(), variant.requires());
                    self.skipped += 1;
                }
            }
        }
    }

    fn function<H>(&mut self)
    where
        H: HashFunction + digest::Digest + digest::FixedOutputReset + Clone,
        H::Compression: Reference,
    {
        let reference = |data: &[u8]| H::Compression::digest(H::OUTPUT.id, data);
        for variant in H::algorithm()
            .variants()
            .iter()
            .filter(|v| v.is_available() && v.interface() == crate::engine::Interface::Single)
        {
            let label = format!("{} pinned to {variant}", H::OUTPUT.name);
            let checks = harness::streaming_suite(
                &label,
                || H::with_variant(variant.name()).expect("available"),
                reference,
            );
            assert!(checks > 0);
        }
    }
}

/// The dispatched paths of every hash function, whichever variant the dispatcher installed
/// (CI runs this once per variant forced through the environment): the streaming hashers
/// through the harness, the batch functions against the one-shot functions.
#[derive(Default)]
struct Dispatched {
    functions: usize,
}

impl Visitor for Dispatched {
    fn algorithm<A: Registered + Reference>(&mut self) {}

    fn function<H>(&mut self)
    where
        H: HashFunction + digest::Digest + digest::FixedOutputReset + Clone,
        H::Compression: Reference,
    {
        self.functions += 1;
        let reference = |data: &[u8]| H::Compression::digest(H::OUTPUT.id, data);
        let label = format!("dispatched {}", H::OUTPUT.name);
        assert!(harness::streaming_suite(&label, H::new, reference) > 0);
        let data = harness::TestRng::new(0x5eed_0006).bytes(1 << 14);
        for count in 0..=40 {
            for first in (0..=300).step_by(7) {
                let messages = cut(&data, count, first);
                let mut digests = std::vec![H::ZERO; messages.len()];
                H::oneshot_many(&messages, &mut digests);
                let want = reference_digests::<H>(&messages);
                check_digests::<H>(&label, &messages, &want, &digests);
            }
        }
        for count in [2, 3, 9, 16, 17, 33] {
            for len in [64, 200, 1000, 4096] {
                let messages = equal_lengths(&data, count, len);
                let mut digests = std::vec![H::ZERO; messages.len()];
                H::oneshot_many(&messages, &mut digests);
                let want = reference_digests::<H>(&messages);
                check_digests::<H>(
                    &format!("{label}, {count} x {len} bytes"),
                    &messages,
                    &want,
                    &digests,
                );
            }
        }
    }
}

#[test]
fn dispatched_hashers_and_batch_functions_pass() {
    // Before and after: what ran is what the run was asked to test, all along.
    assert_expected_choices();
    let mut run = Dispatched::default();
    crate::algorithms::visit(&mut run);
    assert_eq!(run.functions, crate::engine::Function::ALL.len());
    assert_expected_choices();
}

#[test]
fn every_variant_and_hasher_passes_the_harness() {
    let mut run = Harness::default();
    crate::algorithms::visit(&mut run);
    assert_eq!(run.algorithms, crate::engine::Algorithm::ALL.len());
    let total: usize = crate::engine::Algorithm::ALL
        .iter()
        .map(|a| a.variants().len())
        .sum();
    assert_eq!(run.ran + run.skipped, total);
    std::eprintln!(
        "{} variants ran, {} skipped on this CPU",
        run.ran,
        run.skipped
    );
}

/// Every many-message variant this CPU runs alone (as `PinnedMany` and a forced variant run
/// it) and every plan shape the planner can choose (`batch::for_every_plan`), against the
/// RustCrypto: counts 0..=40 with lengths 0..=300 (every length in every batch size from 7
/// up), equal lengths with different contents, random mixes of messages up to 8 KiB, empty
/// messages, the same message in every slot.
#[derive(Default)]
struct Batches {
    functions: usize,
}

/// `count` messages cut from `data`, the `i`-th `(first + 37 i) mod 301` bytes long, each from
/// its own offset (not prefixes of one buffer: a digest landing in another message's slot
/// shows even where two lengths meet).
fn cut(data: &[u8], count: usize, first: usize) -> std::vec::Vec<&[u8]> {
    (0..count)
        .map(|i| &data[1 + 257 * i..][..(first + 37 * i) % 301])
        .collect()
}

/// `count` messages of `len` bytes each, each from its own offset in `data`: equal lengths run
/// side by side on lanes, and different contents make digests swapped between them show.
fn equal_lengths(data: &[u8], count: usize, len: usize) -> std::vec::Vec<&[u8]> {
    (0..count).map(|i| &data[1 + 97 * i..][..len]).collect()
}

/// RustCrypto's digests of `messages` (not the crate's one-shot functions, which share the
/// kernels and, for the serial variant, the very code under test).
fn reference_digests<H: HashFunction>(messages: &[&[u8]]) -> std::vec::Vec<std::vec::Vec<u8>>
where
    H::Compression: Reference,
{
    messages
        .iter()
        .map(|message| H::Compression::digest(H::OUTPUT.id, message).to_vec())
        .collect()
}

/// `digests` of `messages` are `want`, RustCrypto's.
fn check_digests<H: HashFunction>(
    label: &str,
    messages: &[&[u8]],
    want: &[std::vec::Vec<u8>],
    digests: &[H::Digest],
) {
    for (i, ((message, digest), want)) in messages.iter().zip(digests).zip(want).enumerate() {
        assert_eq!(
            digest.as_ref(),
            want.as_slice(),
            "{} {label}: message {i} of {} ({} bytes)",
            H::OUTPUT.name,
            messages.len(),
            message.len()
        );
    }
}

/// Every variant alone on `messages`, and every plan shape when `plans`, against RustCrypto's
/// digests (computed once).
fn check_batch<H: HashFunction>(label: &str, messages: &[&[u8]], plans: bool)
where
    H::Compression: Reference,
{
    let want = reference_digests::<H>(messages);
    let check = |how: &str, digests: &[H::Digest]| {
        check_digests::<H>(&format!("{how}, {label}"), messages, &want, digests);
    };
    crate::batch::for_every_variant::<H>(messages, check);
    if plans {
        crate::batch::for_every_plan::<H>(messages, check);
    }
}

impl Visitor for Batches {
    fn algorithm<A: Registered + Reference>(&mut self) {}

    fn function<H>(&mut self)
    where
        H: HashFunction + digest::Digest + digest::FixedOutputReset + Clone,
        H::Compression: Reference,
    {
        self.functions += 1;
        let mut rng = harness::TestRng::new(0x5eed_0005);
        let data = rng.bytes(1 << 16);
        for count in 0..=40 {
            // Every 7th first length (every 21st with every plan shape): with the step of 37
            // between messages, every count from 7 up still meets every length 0..=300, at a
            // seventh of the batches (this test runs under valgrind in CI).
            for first in (0..=300).step_by(7) {
                let plans = first % 21 == 0;
                let label = format!("{count} from {first}");
                check_batch::<H>(&label, &cut(&data, count, first), plans);
            }
        }
        for round in 0..20 {
            let count = 1 + rng.below(70);
            let messages: std::vec::Vec<&[u8]> = (0..count)
                .map(|_| {
                    let start = rng.below(data.len());
                    // Up to 8 KiB: ragged enough for every hand-over, cheap enough for
                    // valgrind.
                    let len = rng.below((data.len() - start).min(8 << 10) + 1);
                    &data[start..start + len]
                })
                .collect();
            check_batch::<H>(&format!("random mix {round}"), &messages, true);
        }
        for count in [2, 5, 9, 17, 33] {
            for len in [1, 64, 119, 1000, 4096] {
                let label = format!("{count} x {len} bytes");
                check_batch::<H>(&label, &equal_lengths(&data, count, len), true);
            }
        }
        let empty: std::vec::Vec<&[u8]> = std::vec![&[]; 33];
        check_batch::<H>("empty", &empty, true);
        let same: std::vec::Vec<&[u8]> = std::vec![&data[..1000]; 35];
        check_batch::<H>("one message everywhere", &same, true);
    }
}

#[test]
fn every_many_variant_agrees_with_rustcrypto() {
    let mut run = Batches::default();
    crate::algorithms::visit(&mut run);
    assert_eq!(run.functions, crate::engine::Function::ALL.len());
}

/// Lengths no slice can have plan without an overflow, in every build (`batch_plan` takes any
/// `usize`; block sums saturate): with one another, with empty messages, in equal and ragged
/// batches of every size the planner treats differently (a window, twice the widest lanes),
/// and 64 of them in the planner's tail (65 messages, the first short).
#[test]
fn plans_of_lengths_no_slice_can_have_do_not_overflow() {
    use crate::engine::{Algorithm, batch_plan};
    let huge = [usize::MAX, usize::MAX - 1, usize::MAX / 2, 1 << 62];
    for &algorithm in Algorithm::ALL {
        for count in [1, 2, 3, 9, 16, 17, 33, 65, 200] {
            for (i, &big) in huge.iter().enumerate() {
                let ragged: std::vec::Vec<usize> = (0..count)
                    .map(|j| if j % 2 == i % 2 { big } else { j })
                    .collect();
                let equal = std::vec![big; count];
                // Ragged in the first window only: the last window (the planner's tail) all huge.
                let mut first_short = equal.clone();
                first_short[0] = 0;
                for lengths in [ragged, equal, first_short] {
                    let plan = batch_plan(algorithm, &lengths);
                    let planned: usize = plan.stages().map(|s| s.count).sum();
                    assert_eq!(planned, count, "{plan}");
                }
            }
        }
    }
}

/// The auditor's plan is the batch functions' own decision, without its effects: in a fresh
/// process a small batch is described as it runs (one by one, before the estimates are worked
/// out, or on the variant pinned by name), and asking any number of times counts no work
/// towards working the estimates out or measuring. (A separate planning path described such
/// a batch from the estimates, which a first batch never uses.)
#[test]
fn batch_plan_describes_a_first_small_batch_as_it_runs_and_acts_on_nothing() {
    let name = "batch_plan_describes_a_first_small_batch_as_it_runs_and_acts_on_nothing";
    if !in_child(module_path!(), name) {
        return;
    }
    type A = multisha_contract::Sha256Compression;
    let lengths = [40, 60, 80, 100, 120];
    for _ in 0..10_000 {
        let plan = crate::engine::batch_plan(crate::engine::Algorithm::Sha256, &lengths);
        assert!(
            plan.pinned || (plan.stages().all(|s| s.lanes == 1) && !plan.measured),
            "{plan}"
        );
    }
    let work = crate::dispatch::batch_work::<A>().load(core::sync::atomic::Ordering::Relaxed);
    assert_eq!(work, 0, "asking counted work");
    assert!(
        crate::dispatch::estimates::<A>().get_ref().is_none()
            && crate::dispatch::costs::<A>().get_ref().is_none(),
        "asking worked the costs out"
    );
    // The batch itself counts.
    let data = [0u8; 120];
    let messages: std::vec::Vec<&[u8]> = lengths.iter().map(|&len| &data[..len]).collect();
    let mut digests = [[0u8; 32]; 5];
    crate::sha256_many(&messages, &mut digests);
    let work = crate::dispatch::batch_work::<A>().load(core::sync::atomic::Ordering::Relaxed);
    let pinned = crate::engine::batch_plan(crate::engine::Algorithm::Sha256, &lengths).pinned;
    assert!(pinned || work > 0, "the batch counted no work");
}

/// A process's first batches go one by one through the one-shot functions (from the IV) or
/// the executor's loop (HMAC, from a keyed state) until the estimates are worked out: their
/// digests are RustCrypto's of each message, for SHA-1, SHA-256 and SHA-512, equal and ragged
/// lengths, one message and none; and they count their work, so that the estimates are
/// worked out once it pays.
#[test]
fn first_batches_before_the_estimates_hash_every_message() {
    let name = "first_batches_before_the_estimates_hash_every_message";
    if !in_child(module_path!(), name) {
        return;
    }
    fn check<H: HashFunction>(data: &[u8], reference: fn(&[u8]) -> std::vec::Vec<u8>) {
        let shapes: [&[usize]; 5] = [
            &[],
            &[100],
            &[40, 50, 60, 70, 80],
            &[64; 8],
            &[0, 1, 55, 56, 63, 64, 65, 127, 128, 129],
        ];
        for lengths in shapes {
            let messages: std::vec::Vec<&[u8]> = lengths
                .iter()
                .enumerate()
                .map(|(i, &len)| &data[i..i + len])
                .collect();
            let mut digests = std::vec![H::ZERO; messages.len()];
            crate::batch::hash_many::<H, _, _>(&messages[..], &mut digests[..]);
            for (message, digest) in messages.iter().zip(&digests) {
                assert_eq!(
                    digest.as_ref(),
                    reference(message),
                    "{} {lengths:?}",
                    H::OUTPUT.name
                );
            }
        }
        assert!(
            crate::dispatch::estimates::<H::Compression>()
                .get_ref()
                .is_none()
                && crate::dispatch::costs::<H::Compression>()
                    .get_ref()
                    .is_none(),
            "{}: the first small batches worked the costs out",
            H::OUTPUT.name
        );
        let work = crate::dispatch::batch_work::<H::Compression>()
            .load(core::sync::atomic::Ordering::Relaxed);
        let pinned = crate::engine::batch_plan(H::algorithm(), &[40, 50]).pinned;
        assert!(pinned || work > 0, "{}: no work counted", H::OUTPUT.name);
    }
    let data: std::vec::Vec<u8> = (0..400u32).map(|i| (i * 7 + 3) as u8).collect();
    // RustCrypto's digests: the one-shot functions the batches now run are not their own
    // reference.
    use sha2::Digest as _;
    check::<crate::Sha1>(&data, |m| sha1::Sha1::digest(m).to_vec());
    check::<crate::Sha256>(&data, |m| sha2::Sha256::digest(m).to_vec());
    check::<crate::Sha512>(&data, |m| sha2::Sha512::digest(m).to_vec());
    // From a keyed state (HMAC): the executor's loop; RustCrypto's tags.
    let messages: [&[u8]; 3] = [b"", b"first", &data[..130]];
    let mut tags = [[0u8; 32]; 3];
    crate::hmac_sha256_many(b"a key", &messages, &mut tags);
    for (message, tag) in messages.iter().zip(&tags) {
        use digest::KeyInit as _;
        use hmac::Mac as _;
        let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(b"a key").expect("any key");
        mac.update(message);
        assert_eq!(tag[..], mac.finalize().into_bytes()[..]);
    }
    // Enough batches: the estimates are worked out (unless a variant is pinned by name).
    let long = std::vec![1u8; 4096];
    let messages: [&[u8]; 4] = [&long; 4];
    let mut digests = [[0u8; 32]; 4];
    for _ in 0..200 {
        crate::sha256_many(&messages, &mut digests);
    }
    let pinned = crate::engine::batch_plan(crate::engine::Algorithm::Sha256, &[40, 50]).pinned;
    assert!(
        pinned
            || crate::dispatch::estimates::<multisha_contract::Sha256Compression>()
                .get_ref()
                .is_some()
            || crate::dispatch::costs::<multisha_contract::Sha256Compression>()
                .get_ref()
                .is_some(),
        "200 batches of 16 KiB worked nothing out"
    );
    assert_eq!(digests[3], crate::sha256(&long));
}

/// Where the plan the auditor is shown ([`engine::batch_plan`](crate::engine::batch_plan))
/// has a lane stage, the dispatched batch function runs one, and where it has none, none
/// runs: a path that sent every batch one by one (or lanes the planner rejected) would pass
/// every digest test. Batches large enough that the estimates are worked out at once, on
/// costs measured (or, with measuring off, estimated) before.
#[test]
fn dispatched_batches_reach_the_lanes_where_the_plan_has_them() {
    fn case<H: HashFunction>(len: usize) -> bool {
        // Costs settled first: measuring, were it due in the middle, would re-plan the batch.
        crate::engine::calibrate(H::algorithm());
        let data = std::vec![0x5au8; len];
        let messages: std::vec::Vec<&[u8]> = (0..64).map(|i| &data[i..]).collect();
        let lengths: std::vec::Vec<usize> = messages.iter().map(|m| m.len()).collect();
        let plan = crate::engine::batch_plan(H::algorithm(), &lengths);
        let planned = plan.stages().any(|stage| stage.lanes > 1);
        let mut digests = std::vec![H::ZERO; messages.len()];
        let before = crate::batch::executor::LANE_STAGES.with(core::cell::Cell::get);
        crate::batch::hash_many::<H, _, _>(&messages[..], &mut digests[..]);
        let ran = crate::batch::executor::LANE_STAGES.with(core::cell::Cell::get) > before;
        assert_eq!(ran, planned, "{}: {plan}", H::OUTPUT.name);
        ran
    }
    let lanes = [
        case::<crate::Sha1>(4096),
        case::<crate::Sha256>(4096),
        case::<crate::Sha512>(4096),
        case::<crate::Sha384>(8192),
    ];
    // Where the CPU runs lane kernels, long batches plan on them: then the check above saw a
    // lane stage run, for one function at least. (Not for each: the costs are measured once
    // per process while the other tests of this binary use every core, and one disturbed
    // measurement can put a function's long batches one by one; seen once in CI, SHA-256
    // 64 x 4 KiB on a Zen 4.)
    let algorithms = [
        crate::engine::Algorithm::Sha1,
        crate::engine::Algorithm::Sha256,
        crate::engine::Algorithm::Sha512,
    ];
    let with_lanes: std::vec::Vec<_> = algorithms
        .iter()
        .map(|&algorithm| crate::engine::active_many(algorithm))
        .filter(|many| many.variant.lanes() > 1)
        .collect();
    if !with_lanes.is_empty() {
        assert!(
            lanes.iter().any(|&ran| ran),
            "lane kernels {with_lanes:?}, yet no lane stage ran for any function"
        );
    }
}

/// [`engine::batch_plan`](crate::engine::batch_plan) of an equal-length shape that the batch
/// functions ran, and remembered, shows the plan it showed before with its predicted time (the
/// memo keeps no prediction; the audit showed `predicted NaN ns`).
#[test]
fn a_remembered_shape_is_described_with_its_prediction() {
    let algorithm = crate::engine::Algorithm::Sha256;
    crate::engine::calibrate(algorithm);
    let data = std::vec![0x3cu8; 64 * 4096];
    for (count, len) in [(13, 32), (17, 4096), (64, 64), (2, 64), (33, 100)] {
        let messages = equal_lengths(&data, count, len);
        let lengths = std::vec![len; count];
        let before = crate::engine::batch_plan(algorithm, &lengths);
        let mut digests = std::vec![[0u8; 32]; count];
        crate::sha256_many(&messages, &mut digests);
        let after = crate::engine::batch_plan(algorithm, &lengths);
        assert!(after.predicted_ns.is_finite(), "{after}");
        assert_eq!(
            std::format!("{after}"),
            std::format!("{before}"),
            "{count} x {len} B"
        );
    }
}

/// Runs `plan` for `messages` through the executor on the dispatcher's lane kernels and
/// single-message kernel, and checks every digest against RustCrypto's (`what` names the case).
fn execute_and_check<H: HashFunction>(plan: &multisha_plan::Plan, messages: &[&[u8]], what: &str)
where
    H::Compression: Reference,
{
    let ladder = crate::dispatch::ladder::<H::Compression>();
    let single = crate::batch::OneByOneKernel::<H::Compression>::installed();
    let mut digests = std::vec![H::ZERO; messages.len()];
    // SAFETY: the ladder's kernels and the single-message kernel come from the dispatcher,
    // which checked that the CPU runs them.
    unsafe {
        crate::batch::executor::execute::<H, _, _>(
            plan,
            &ladder,
            single,
            messages,
            &mut digests[..],
        )
    };
    for (i, (message, digest)) in messages.iter().zip(&digests).enumerate() {
        assert_eq!(
            digest.as_ref(),
            H::Compression::digest(H::OUTPUT.id, message).as_slice(),
            "{what}: message {i}"
        );
    }
}

/// The planner's plans for random cost tables, run through the executor on the CPU's real
/// kernels, give RustCrypto's digests: plans no measured table happens to produce (odd stage
/// splits, lanes the costs favour wildly or shun) run right too, not only the planner's
/// model checked against itself. SHA-1, SHA-256 and SHA-512, equal and ragged lengths, 1-300
/// messages.
#[test]
fn plans_of_random_cost_tables_give_rustcrypto_digests() {
    use multisha_contract::{BlockBytes, Compression, Cost};
    use multisha_plan::shape::Shape;
    use multisha_plan::{Costs, Runner};

    fn cases<H: HashFunction>(seed: u64)
    where
        H::Compression: Reference,
    {
        let block_len = <multisha_contract::Block<H::Compression> as BlockBytes>::LEN;
        let length_bytes = <H::Compression as Compression>::LENGTH_BYTES;
        let data: std::vec::Vec<u8> = (0..20_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
            .collect();
        let mut rng = harness::TestRng::new(seed);
        let ladder = crate::dispatch::ladder::<H::Compression>();
        let cost = |rng: &mut harness::TestRng, setup: usize| {
            Cost::new(
                rng.below(setup + 1) as f32,
                rng.below(60) as f32,
                1.0 + rng.below(600) as f32,
            )
            .per_message(rng.below(30) as f32)
            .per_ragged_message(rng.below(40) as f32)
        };
        let (mut on_lanes, mut one_by_one) = (0, 0);
        for round in 0..150 {
            let mut costs = Costs::single_only(cost(&mut rng, 0));
            for k in 0..ladder.len() {
                costs.push(ladder.kernel(k).lanes, cost(&mut rng, 400));
            }
            let count = 1 + rng.below([8, 40, 300][round % 3]);
            let most = [200, 1100, 9000][rng.below(3)];
            let first = rng.below(most + 1);
            let lens: std::vec::Vec<usize> = (0..count)
                .map(|_| match round % 4 {
                    0 => first,
                    _ => rng.below(most + 1),
                })
                .collect();
            let messages: std::vec::Vec<&[u8]> = lens
                .iter()
                .enumerate()
                .map(|(i, &len)| &data[i % 97..][..len])
                .collect();
            let shape = Shape::new(count, |i| lens[i], block_len, length_bytes);
            let plan =
                multisha_plan::plan_ragged(&costs, &shape, |i| lens[i], block_len, length_bytes);
            if plan.stages().any(|s| matches!(s.runner, Runner::Lanes(_))) {
                on_lanes += 1;
            } else {
                one_by_one += 1;
            }
            execute_and_check::<H>(
                &plan,
                &messages,
                &format!("{}: plan {plan} of {costs:?}, {lens:?}", H::OUTPUT.name),
            );
        }
        assert!(
            one_by_one > 0,
            "{}: no table planned one by one",
            H::OUTPUT.name
        );
        if ladder.len() > 0 {
            assert!(on_lanes > 0, "{}: no table planned lanes", H::OUTPUT.name);
        }
    }
    cases::<crate::Sha1>(0xc0575);
    cases::<crate::Sha256>(0xc0576);
    cases::<crate::Sha512>(0xc0577);
}

/// A plan that runs most of a batch on a lane kernel and the rest one by one, run through the
/// executor on the CPU's real kernels, wipes every workspace it used: each one-by-one stage's
/// one-shot workspace once as the stage ends, then the lane buffers (which held data) and the
/// lane workspace (filled by a kernel that keeps its schedule there), all zero after.
/// The plan comes from a cost table that makes it (each lane kernel in turn cheap, one
/// message more than it has lanes, the last run alone at less than a group of one costs),
/// not from the costs measured here: on a busy machine those may put every shape one by one,
/// and the dispatched test (`tests/wipe.rs`) then sees only that path. SHA-1, SHA-256 and
/// SHA-512, every lane kernel the CPU runs; digests against RustCrypto.
#[test]
fn a_plan_of_lanes_and_one_by_one_wipes_every_workspace() {
    use crate::registry::Schedule;
    use multisha_contract::wipe_observer::take;
    use multisha_contract::{BlockBytes, Compression, Cost};
    use multisha_plan::shape::Shape;
    use multisha_plan::{Costs, Runner};

    fn cases<H: HashFunction>()
    where
        H::Compression: Reference,
    {
        let block_len = <multisha_contract::Block<H::Compression> as BlockBytes>::LEN;
        let length_bytes = <H::Compression as Compression>::LENGTH_BYTES;
        let ladder = crate::dispatch::ladder::<H::Compression>();
        let single_variant = crate::dispatch::single_variant::<H::Compression>();
        let data = harness::TestRng::new(0x5eed_0024).bytes(33 * 61 + 20 * 128);
        for k in 0..ladder.len() {
            let lanes = ladder.kernel(k).lanes;
            // A block on kernel `k` takes one and a half single blocks for all its lanes; the
            // others cost far more. A full group pays, a group of one does not.
            let mut costs = Costs::single_only(Cost::new(0.0, 0.0, 100.0));
            for j in 0..ladder.len() {
                let step = if j == k { 150.0 } else { 1.0e6 };
                costs.push(ladder.kernel(j).lanes, Cost::new(0.0, 0.0, step));
            }
            // Too short for the lanes to rotate among the last messages (`rotates`).
            let count = lanes + 1;
            let len = 19 * block_len + 7;
            let messages: std::vec::Vec<&[u8]> =
                (0..count).map(|i| &data[i * 61..][..len]).collect();
            let shape = Shape::new(count, |_| len, block_len, length_bytes);
            let plan = multisha_plan::plan_ragged(&costs, &shape, |_| len, block_len, length_bytes);
            let variant = ladder.variant(k);
            let what = format!("{} on {variant}: {plan}", H::OUTPUT.name);
            let one_by_one = plan
                .stages()
                .filter(|s| s.runner == Runner::OneByOne)
                .count();
            assert!(
                one_by_one > 0 && plan.stages().any(|s| s.runner == Runner::Lanes(k)),
                "{what}: not a plan of lanes and one by one"
            );
            take();
            execute_and_check::<H>(&plan, &messages, &what);
            let records = take();
            assert_eq!(records.len(), one_by_one + 2, "{what}: {records:?}");
            for record in &records[..one_by_one] {
                assert!(record.zero_after, "{what}: one-shot workspace {record:?}");
                let used = single_variant.schedule() == Schedule::Workspace;
                assert_eq!(
                    (record.touched, record.had_data),
                    (used, used),
                    "{what}: one-shot workspace of {single_variant}: {record:?}"
                );
            }
            let (buffers, workspace) = (records[one_by_one], records[one_by_one + 1]);
            assert!(
                buffers.touched && buffers.had_data && buffers.zero_after,
                "{what}: lane buffers {buffers:?}"
            );
            // A kernel with its schedule there filled it; others may keep states there
            // (SHA-1 `shani-x2`), and the wipe covers those too.
            assert!(workspace.zero_after, "{what}: lane workspace {workspace:?}");
            if variant.schedule() == Schedule::LaneWorkspace {
                assert!(
                    workspace.touched && workspace.had_data,
                    "{what}: lane workspace {workspace:?}"
                );
            }
        }
    }
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    cases::<crate::Sha1>();
    cases::<crate::Sha256>();
    cases::<crate::Sha512>();
}
