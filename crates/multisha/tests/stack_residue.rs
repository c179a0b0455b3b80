//! The one-shot functions leave no message bytes and no untruncated state on the stack: the
//! padded tail is built in place and wiped, and so is the chaining state (for SHA-224 its last
//! word is not part of the digest). Checked by copying the stack below the caller's frame right
//! after a call and searching it.
// x86-64 only: the stack scan is x86-64 assembly.
#![cfg(target_arch = "x86_64")]

use std::cell::RefCell;
use std::collections::HashSet;

/// A 40-byte message tail, unlike anything else the test puts on the stack.
fn marker() -> Vec<u8> {
    (0..40u32)
        .map(|i| (i.wrapping_mul(0x9E37_79B9) >> 13) as u8 ^ 0xA5)
        .collect()
}

/// Calls `hash` at a fixed depth (so its frames lie below this one's caller), then copies the
/// 64 KiB below the stack pointer of a sibling frame into `into`.
#[inline(never)]
fn residue(hash: &dyn Fn(), into: &mut [u8]) {
    hash();
    copy_below_stack_pointer(into);
}

/// Copies `into.len()` bytes from just below the stack pointer (what callees of the caller
/// left there) into `into`, without writing the stack.
#[inline(never)]
fn copy_below_stack_pointer(into: &mut [u8]) {
    // SAFETY: reads `into.len()` bytes (64 KiB) below the stack pointer: stack memory of this
    // thread (the test thread has far more than that below the current frame), mapped and
    // readable; writes only `into`, which is that long. `rep movsb` clobbers rsi, rdi, rcx.
    unsafe {
        core::arch::asm!(
            "mov rsi, rsp",
            "sub rsi, rcx",
            "rep movsb",
            inout("rcx") into.len() => _,
            inout("rdi") into.as_mut_ptr() => _,
            out("rsi") _,
            options(nostack),
        );
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn one_shot_functions_leave_no_tail_and_no_state_on_the_stack() {
    let tail = marker();
    let mut below = vec![0u8; 64 * 1024];

    // The control: the scan finds a copy the caller itself leaves on the stack.
    residue(
        &|| {
            let copy: [u8; 40] = tail.as_slice().try_into().expect("40 bytes");
            std::hint::black_box(&copy);
        },
        &mut below,
    );
    assert!(contains(&below, &tail), "the scan sees the stack");

    let calls: [(&str, &dyn Fn()); 4] = [
        ("sha1", &|| {
            std::hint::black_box(multisha::sha1(std::hint::black_box(&tail)));
        }),
        ("sha224", &|| {
            std::hint::black_box(multisha::sha224(std::hint::black_box(&tail)));
        }),
        ("sha256", &|| {
            std::hint::black_box(multisha::sha256(std::hint::black_box(&tail)));
        }),
        ("sha512", &|| {
            std::hint::black_box(multisha::sha512(std::hint::black_box(&tail)));
        }),
    ];
    for (name, hash) in &calls {
        below.fill(0);
        residue(*hash, &mut below);
        assert!(
            !contains(&below, &tail),
            "{name}: the message tail is left on the stack"
        );
    }

    // SHA-224's whole state as the one-shot function holds it (`[u32; 8]` in memory) before
    // cutting it to 28 bytes, from the reference compression of the padded message.
    let mut blocks = [[0u8; 64]; 2];
    let used = multisha_contract::pad_into::<multisha_contract::Sha256Compression>(
        &mut blocks,
        &tail,
        tail.len() as u128 * 8,
    );
    let mut state = multisha_contract::SHA224_IV;
    sha2::block_api::compress256(&mut state, &blocks[..used]);
    let words: Vec<u8> = state.iter().flat_map(|w| w.to_ne_bytes()).collect();
    below.fill(0);
    residue(
        &|| {
            std::hint::black_box(multisha::sha224(std::hint::black_box(&tail)));
        },
        &mut below,
    );
    assert!(
        !contains(&below, &words),
        "sha224: the untruncated state is left on the stack"
    );
}

/// Copies the stack below `hash`'s caller after `hash` ran, having zeroed it first, so that
/// what the scan finds was left by `hash` (not by the test's own reference computations).
fn residue_of(hash: &dyn Fn(), below: &mut [u8]) {
    scrub_stack();
    residue(hash, below);
}

/// Overwrites 64 KiB of the stack below the caller with zeros.
#[inline(never)]
fn scrub_stack() {
    let mut zeros = [0u8; 64 * 1024];
    std::hint::black_box(&mut zeros);
}

/// Whether `word` could tell of the data: not a small number or a mask (padding, lengths,
/// counters, whose schedule words are in every reference set), which random words almost
/// never are.
fn telling(word: u64, bits: u32) -> bool {
    let complement = !word & (u64::MAX >> (64 - bits));
    (4..=bits - 4).contains(&word.count_ones()) && word >= 1 << 16 && complement >= 1 << 16
}

/// Whether `slot` (8 bytes, native order) looks like a user-space address: either half of it
/// matches some reference value by chance (2^-15 for a batch's reference set).
fn pointer_like(slot: u64) -> bool {
    slot >> 47 == 0 && slot >> 40 != 0
}

/// The 4-byte-aligned words of `below` that are in `forbidden` (as `u32`, native order),
/// less those that tell nothing or are half of an address.
fn words_found(below: &[u8], forbidden: &HashSet<u32>) -> Vec<(usize, u32)> {
    below
        .chunks_exact(8)
        .enumerate()
        .filter(|(_, slot)| !pointer_like(u64::from_ne_bytes((*slot).try_into().expect("8"))))
        .flat_map(|(i, slot)| {
            slot.chunks_exact(4).enumerate().map(move |(j, w)| {
                (
                    below.len() - 8 * i - 4 * j,
                    u32::from_ne_bytes(w.try_into().expect("4")),
                )
            })
        })
        .filter(|&(_, w)| telling(w.into(), 32) && forbidden.contains(&w))
        .collect()
}

/// The 8-byte-aligned words of `below` that are in `forbidden` (as `u64`, native order),
/// less those that tell nothing.
fn words64_found(below: &[u8], forbidden: &HashSet<u64>) -> Vec<(usize, u64)> {
    below
        .chunks_exact(8)
        .enumerate()
        .map(|(i, w)| {
            (
                below.len() - 8 * i,
                u64::from_ne_bytes(w.try_into().expect("8")),
            )
        })
        .filter(|&(_, w)| telling(w, 64) && forbidden.contains(&w))
        .collect()
}

/// FIPS 180-4's amounts of one SHA-2 compression for [`sha2_values`]: the rotations of Σ0 and
/// Σ1, the rotations and shift of σ0 and σ1, the round constants (one per round).
struct Sha2Amounts<W: 'static> {
    big_sigma0: [u32; 3],
    big_sigma1: [u32; 3],
    small_sigma0: [u32; 3],
    small_sigma1: [u32; 3],
    k: &'static [W],
}

const SHA256: Sha2Amounts<u32> = Sha2Amounts {
    big_sigma0: [2, 13, 22],
    big_sigma1: [6, 11, 25],
    small_sigma0: [7, 18, 3],
    small_sigma1: [17, 19, 10],
    k: &multisha_contract::SHA256_K,
};

const SHA512: Sha2Amounts<u64> = Sha2Amounts {
    big_sigma0: [28, 34, 39],
    big_sigma1: [14, 18, 41],
    small_sigma0: [1, 8, 7],
    small_sigma1: [19, 61, 6],
    k: &multisha_contract::SHA512_K,
};

/// Every value a SHA-2 compression (SHA-256 or SHA-512, by `amounts`) of `block` from `state`
/// computes that a kernel might hold in a register: the schedule words and `w + k`, the
/// working variables of every round and the round's `ch`, `maj`, `t1`, `t2` and `a ^ b` (which
/// `avx2-x8` carries to the next round's majority), the first two rounds' parts without the
/// message word (which a PBKDF2 loop can precompute), the new state. Returns the new state.
/// Written from FIPS 180-4, not with the kernels' helpers.
fn sha2_values<W: multisha_contract::Word + std::hash::Hash>(
    amounts: &Sha2Amounts<W>,
    state: &[W; 8],
    block: &[u8],
    into: &mut HashSet<W>,
) -> [W; 8] {
    assert_eq!(block.len(), 16 * W::BYTES, "one block");
    let rotations =
        |x: W, [p, q, r]: [u32; 3]| x.rotate_right(p) ^ x.rotate_right(q) ^ x.rotate_right(r);
    let sigma = |x: W, [p, q, s]: [u32; 3]| x.rotate_right(p) ^ x.rotate_right(q) ^ (x >> s);
    let rounds = amounts.k.len();
    let mut w = vec![W::default(); rounds];
    for t in 0..rounds {
        w[t] = if t < 16 {
            W::from_be_slice(&block[W::BYTES * t..W::BYTES * (t + 1)])
        } else {
            w[t - 16]
                .wrapping_add(sigma(w[t - 15], amounts.small_sigma0))
                .wrapping_add(w[t - 7])
                .wrapping_add(sigma(w[t - 2], amounts.small_sigma1))
        };
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    into.extend(state);
    for t in 0..rounds {
        let wk = w[t].wrapping_add(amounts.k[t]);
        let ch = (e & f) ^ (!e & g);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        let s1 = rotations(e, amounts.big_sigma1);
        let s0 = rotations(a, amounts.big_sigma0);
        let t1 = h.wrapping_add(s1).wrapping_add(ch).wrapping_add(wk);
        let t2 = s0.wrapping_add(maj);
        into.extend([w[t], ch, maj, t1, t2, a ^ b]);
        // A keyed state's first rounds before the message word: what the SHA-512 PBKDF2
        // loop precomputes once (`T1` without `w`, the new `e` and `a` without it, the
        // second round's `h + k`).
        match t {
            0 => {
                let before_w = h
                    .wrapping_add(s1)
                    .wrapping_add(ch)
                    .wrapping_add(amounts.k[t]);
                into.extend([
                    before_w,
                    d.wrapping_add(before_w),
                    before_w.wrapping_add(t2),
                ]);
            }
            1 => {
                into.insert(h.wrapping_add(amounts.k[t]));
            }
            _ => {}
        }
        // `w + k` of a zero word is the round constant, public.
        if w[t] != W::default() {
            into.insert(wk);
        }
        (h, g, f, e, d, c, b, a) = (g, f, e, d.wrapping_add(t1), c, b, a, t1.wrapping_add(t2));
        into.extend([a, e]);
    }
    let out: [W; 8] = core::array::from_fn(|i| state[i].wrapping_add([a, b, c, d, e, f, g, h][i]));
    into.extend(out);
    out
}

/// As [`sha2_values`] for SHA-1: the schedule words and `w + k`, `a` and `e` of every round,
/// the round function `f`, the new state.
fn sha1_values(state: &[u32; 5], block: &[u8; 64], into: &mut HashSet<u32>) -> [u32; 5] {
    let mut w = [0u32; 80];
    for t in 0..80 {
        w[t] = if t < 16 {
            u32::from_be_bytes(block[4 * t..4 * t + 4].try_into().expect("4"))
        } else {
            (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1)
        };
    }
    let [mut a, mut b, mut c, mut d, mut e] = *state;
    into.extend(state);
    for t in 0..80 {
        let (f, k) = match t / 20 {
            0 => ((b & c) | (!b & d), multisha_contract::SHA1_K[0]),
            1 => (b ^ c ^ d, multisha_contract::SHA1_K[1]),
            2 => ((b & c) | (b & d) | (c & d), multisha_contract::SHA1_K[2]),
            _ => (b ^ c ^ d, multisha_contract::SHA1_K[3]),
        };
        let wk = w[t].wrapping_add(k);
        let temp = a
            .rotate_left(5)
            .wrapping_add(f)
            .wrapping_add(e)
            .wrapping_add(wk);
        into.extend([w[t], f, temp]);
        // `w + k` of a zero word is the round constant, public.
        if w[t] != 0 {
            into.insert(wk);
        }
        (e, d, c, b, a) = (d, c, b.rotate_left(30), a, temp);
        into.extend([b, c]);
    }
    let out: [u32; 5] = core::array::from_fn(|i| state[i].wrapping_add([a, b, c, d, e][i]));
    into.extend(out);
    out
}

/// What the direct kernel calls need of an algorithm: the reference values of a compression,
/// and the scan of a stack area for them (32- or 64-bit words).
trait Lanes: multisha_contract::Compression {
    fn values(
        state: &Self::State,
        block: &Self::Block,
        into: &mut HashSet<Self::Word>,
    ) -> Self::State;
    fn scan(below: &[u8], forbidden: &HashSet<Self::Word>) -> Vec<(usize, Self::Word)>;
}

impl Lanes for multisha_contract::Sha1Compression {
    fn values(state: &[u32; 5], block: &[u8; 64], into: &mut HashSet<u32>) -> [u32; 5] {
        sha1_values(state, block, into)
    }
    fn scan(below: &[u8], forbidden: &HashSet<u32>) -> Vec<(usize, u32)> {
        words_found(below, forbidden)
    }
}

impl Lanes for multisha_contract::Sha256Compression {
    fn values(state: &[u32; 8], block: &[u8; 64], into: &mut HashSet<u32>) -> [u32; 8] {
        sha2_values(&SHA256, state, block, into)
    }
    fn scan(below: &[u8], forbidden: &HashSet<u32>) -> Vec<(usize, u32)> {
        words_found(below, forbidden)
    }
}

impl Lanes for multisha_contract::Sha512Compression {
    fn values(state: &[u64; 8], block: &[u8; 128], into: &mut HashSet<u64>) -> [u64; 8] {
        sha2_values(&SHA512, state, block, into)
    }
    fn scan(below: &[u8], forbidden: &HashSet<u64>) -> Vec<(usize, u64)> {
        words64_found(below, forbidden)
    }
}

/// Calls both entries of `kernel` directly (two blocks per lane, then the constant entry) and
/// returns a description of every value of the computation found below the stack pointer.
fn lane_kernel_residue<A: Lanes>(
    label: &str,
    kernel: multisha_contract::LaneKernel<A>,
    below: &mut [u8],
) -> Vec<String>
where
    A::Word: std::hash::Hash + Eq + std::fmt::LowerHex + TryFrom<u64>,
{
    use multisha_contract::BlockBytes;
    let word = |x: u64| A::Word::try_from(x & (u64::MAX >> (64 - 8 * size_of::<A::Word>())));
    let word = move |x: u64| word(x).unwrap_or_else(|_| unreachable!("masked to the word"));
    let lanes = kernel.lanes;
    let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ label.len() as u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut random_block = || {
        let mut block = A::Block::ZERO;
        for byte in block.as_mut() {
            *byte = next() as u8;
        }
        block
    };
    let blocks: Vec<Vec<A::Block>> = (0..lanes)
        .map(|_| (0..2).map(|_| random_block()).collect())
        .collect();
    let constant_block = random_block();
    let start: Vec<A::State> = (0..lanes)
        .map(|_| {
            let mut s = A::State::default();
            for w in s.as_mut() {
                *w = word(next());
            }
            s
        })
        .collect();
    let mut forbidden = HashSet::new();
    for (lane, lane_blocks) in blocks.iter().enumerate() {
        let mut state = start[lane];
        for block in lane_blocks {
            state = A::values(&state, block, &mut forbidden);
        }
    }
    let mut schedule = vec![A::Word::default(); A::ROUNDS];
    A::schedule(&constant_block, &mut schedule);
    for state in &start {
        A::values(state, &constant_block, &mut forbidden);
    }
    forbidden.remove(&word(0));
    forbidden.remove(&word(u64::MAX));

    let mut found = Vec::new();
    // On the heap or in this frame, above the scanned stack.
    let states = RefCell::new(start.clone());
    let w = RefCell::new(Box::new(A::LaneWorkspace::default()));
    let inputs: Vec<&[A::Block]> = blocks.iter().map(Vec::as_slice).collect();
    residue_of(
        &|| {
            let (mut states, mut w) = (states.borrow_mut(), w.borrow_mut());
            // SAFETY: the caller checked that the CPU runs the kernel; `kernel.lanes` states
            // and lanes of two blocks each, as the contract wants.
            unsafe { (kernel.compress)(&mut states, &inputs, &mut w) };
        },
        below,
    );
    for (depth, value) in A::scan(below, &forbidden) {
        found.push(format!(
            "{label} compress: {value:#010x} at {depth} bytes below"
        ));
    }
    states.borrow_mut().clone_from(&start);
    residue_of(
        &|| {
            let (mut states, mut w) = (states.borrow_mut(), w.borrow_mut());
            // SAFETY: as above, for the constant entry with a full schedule.
            unsafe { (kernel.constant)(&mut states, &schedule, &mut w) };
        },
        below,
    );
    for (depth, value) in A::scan(below, &forbidden) {
        found.push(format!(
            "{label} constant: {value:#010x} at {depth} bytes below"
        ));
    }
    found
}

/// Every lane kernel of this architecture, by its declaration.
#[allow(clippy::type_complexity)]
fn lane_declarations() -> (
    Vec<&'static multisha_contract::Declaration<multisha_contract::Sha1Compression>>,
    Vec<&'static multisha_contract::Declaration<multisha_contract::Sha256Compression>>,
    Vec<&'static multisha_contract::Declaration<multisha_contract::Sha512Compression>>,
) {
    use multisha_x86::*;
    (
        vec![
            &sha1_shani_x2::VARIANT,
            &sha1_shani_x4::VARIANT,
            &sha1_avx2_x8::VARIANT,
            &sha1_avx512_x16::VARIANT,
            &sha1_avx512_x32::VARIANT,
        ],
        vec![
            &sha256_shani_x2::VARIANT,
            &sha256_shani_x4::VARIANT,
            &sha256_avx2_x8::VARIANT,
            &sha256_avx512_x16::VARIANT,
            &sha256_avx512_x32::VARIANT,
        ],
        vec![
            &sha512_avx2_x4::VARIANT,
            &sha512_avx512_x8::VARIANT,
            &sha512_avx512_x16::VARIANT,
        ],
    )
}

/// Each lane kernel, called directly, leaves no chaining value, schedule word or round value
/// of its lanes in its dead stack frame: its states and schedules live in registers or in the
/// lane workspace, which the batch functions wipe.
#[test]
fn lane_kernels_leave_no_state_or_schedule_on_the_stack() {
    use multisha::engine::{Algorithm, Interface};
    use multisha_contract::{CpuFeatures, Kernel};
    let (sha1, sha256, sha512) = lane_declarations();
    // The list is complete: every lane kernel of the registry is in it.
    let listed: HashSet<usize> = sha1
        .iter()
        .map(|d| d.kernel.address())
        .chain(sha256.iter().map(|d| d.kernel.address()))
        .chain(sha512.iter().map(|d| d.kernel.address()))
        .collect();
    for &algorithm in Algorithm::ALL {
        for variant in algorithm.variants() {
            if variant.interface() == Interface::Many && variant.lanes() > 1 {
                assert!(
                    listed.contains(&variant.kernel_address()),
                    "{variant} is not in the test's list"
                );
            }
        }
    }
    let cpu = CpuFeatures::detect();
    let mut below = vec![0u8; 16 * 1024];
    let mut found = Vec::new();
    let mut ran = 0;
    macro_rules! check {
        ($declarations:expr) => {
            for declaration in $declarations {
                let label = declaration.name;
                let Kernel::Lanes(kernel) = declaration.kernel else {
                    panic!("{label} is a lane kernel");
                };
                if !cpu.contains(declaration.requires) {
                    // Fails where CI names the features (MULTISHA_EXPECT_FEATURES): a kernel
                    // the machine runs must be scanned, not skipped.
                    multisha_contract::harness::assert_skip_expected(label, declaration.requires);
                    eprintln!(
                        "{label}: skipped, this CPU lacks {}",
                        cpu.missing(declaration.requires)
                    );
                    continue;
                }
                found.extend(lane_kernel_residue(label, kernel, &mut below));
                ran += 1;
            }
        };
    }
    check!(sha1);
    check!(sha256);
    check!(sha512);
    assert!(ran > 0, "no lane kernel runs on this CPU");
    assert!(found.is_empty(), "left on the stack:\n{}", found.join("\n"));
}

/// Each shape of each single-message SHA-256 kernel's entry for one-block messages, called
/// directly on 1-9 nodes as SHA-224 (whose eighth state word is never published), leaves no
/// unpublished state word, schedule word or round value in its dead stack frame: whichever
/// shape the calibration installs on the running CPU, not only the one the batch functions
/// reach here.
#[test]
fn one_block_entries_leave_no_unpublished_state_or_schedule_on_the_stack() {
    use multisha_contract::{CpuFeatures, Kernel, SHA224_IV};
    let cpu = CpuFeatures::detect();
    let nodes: Vec<[u8; 64]> = (0..9u8)
        .map(|i| core::array::from_fn(|j| (j as u8).wrapping_mul(37) ^ i.wrapping_mul(101)))
        .collect();
    let mut below = vec![0u8; 16 * 1024];
    let (mut found, mut ran) = (Vec::new(), 0);
    for declaration in [
        &multisha_x86::sha256_shani::VARIANT,
        &multisha_x86::sha256_shani::vex::VARIANT,
        &multisha_x86::sha256_avx2::VARIANT,
    ] {
        let Kernel::Single(kernel) = declaration.kernel else {
            panic!("{} is a single-message kernel", declaration.name);
        };
        let shapes = [
            ("one_block", kernel.one_block),
            ("one_block_alternative", kernel.one_block_alternative),
        ];
        for (shape, entry) in shapes {
            let Some(entry) = entry else { continue };
            if !cpu.contains(declaration.requires) {
                multisha_contract::harness::assert_skip_expected(
                    declaration.name,
                    declaration.requires,
                );
                continue;
            }
            for count in 1..=nodes.len() {
                let mut forbidden = HashSet::new();
                for node in &nodes[..count] {
                    message_values(node, 64, (SHA224_IV, 7), sha256_slice, &mut forbidden);
                }
                for word in SHA224_IV {
                    forbidden.remove(&word);
                }
                forbidden.remove(&0);
                let digests = RefCell::new(vec![[0u8; 28]; count]);
                residue_of(
                    &|| {
                        let blocks: Vec<&[u8; 64]> = nodes[..count].iter().collect();
                        let mut digests = digests.borrow_mut();
                        let mut outs: Vec<&mut [u8]> =
                            digests.iter_mut().map(|d| d.as_mut_slice()).collect();
                        // SAFETY: the CPU has every feature the declaration requires.
                        unsafe { entry(&SHA224_IV, &blocks, &mut outs) };
                    },
                    &mut below,
                );
                for (depth, word) in words_found(&below, &forbidden) {
                    found.push(format!(
                        "{} {shape}, {count} nodes: {word:#x} at {depth} bytes below",
                        declaration.name
                    ));
                }
                ran += 1;
            }
        }
    }
    assert!(
        ran > 0 || !cpu.contains(multisha_x86::sha256_shani::VARIANT.requires),
        "no one-block entry ran"
    );
    assert!(found.is_empty(), "left on the stack:\n{}", found.join("\n"));
}

/// Messages of many lengths (0 to 600 bytes, some equal), so that a batch runs its lane kernels
/// of every width, the constant entry on the shared padding block, and the single-message
/// kernel.
fn batch_messages(seed: u64) -> Vec<Vec<u8>> {
    let mut x = seed;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut lengths: Vec<usize> = (0..45).map(|_| (next() % 601) as usize).collect();
    lengths.extend([64; 19]);
    lengths
        .into_iter()
        .map(|len| (0..len).map(|_| next() as u8).collect())
        .collect()
}

/// The reference values of hashing `message` in blocks of `len` bytes from `iv` (`values` per
/// block), less the words the digest publishes (the first `published` of the final state).
fn message_values<W: Copy + Eq + core::hash::Hash, const N: usize>(
    message: &[u8],
    len: usize,
    (iv, published): ([W; N], usize),
    values: impl Fn(&[W; N], &[u8], &mut HashSet<W>) -> [W; N],
    into: &mut HashSet<W>,
) {
    // The length field is an eighth of the block: 8 bytes for SHA-1/SHA-256, 16 for SHA-512.
    let length_bytes = len / 8;
    let (whole, tail) = message.split_at(message.len() / len * len);
    let mut padded = tail.to_vec();
    padded.push(0x80);
    while padded.len() % len != len - length_bytes {
        padded.push(0);
    }
    padded.extend(&(message.len() as u128 * 8).to_be_bytes()[16 - length_bytes..]);
    let mut mine = HashSet::new();
    let mut state = iv;
    for block in whole.chunks_exact(len) {
        state = values(&state, block, &mut mine);
    }
    for (i, block) in padded.chunks_exact(len).enumerate() {
        state = values(&state, block, &mut mine);
        if i > 0 || tail.is_empty() {
            // A block of padding alone: its schedule (the same for every message of a length,
            // precomputed by the batches) is public. The values common to two other states
            // are that schedule.
            let (mut one, mut other) = (HashSet::new(), HashSet::new());
            values(&[iv[0]; N], block, &mut one);
            values(&[iv[1]; N], block, &mut other);
            for word in one.intersection(&other) {
                mine.remove(word);
            }
        }
    }
    for word in &state[..published] {
        mine.remove(word);
    }
    into.extend(mine);
}

/// [`sha1_values`] and [`sha2_values`] on a block given as a slice.
fn sha1_slice(state: &[u32; 5], block: &[u8], into: &mut HashSet<u32>) -> [u32; 5] {
    sha1_values(state, block.try_into().expect("64 bytes"), into)
}
fn sha256_slice(state: &[u32; 8], block: &[u8], into: &mut HashSet<u32>) -> [u32; 8] {
    sha2_values(&SHA256, state, block, into)
}
fn sha512_slice(state: &[u64; 8], block: &[u8], into: &mut HashSet<u64>) -> [u64; 8] {
    sha2_values(&SHA512, state, block, into)
}

/// The batch functions, called through the public API, leave no schedule word, round value or
/// unpublished state word of any message below the stack pointer: the lane kernels, the
/// scheduler and the single-message kernel it hands the last message to.
#[test]
fn batch_functions_leave_no_state_or_schedule_on_the_stack() {
    let mut found = Vec::new();
    // A mixed batch runs every path; in it, later calls overwrite what an earlier kernel
    // left. Two long messages of a length end on `shani-x2`.
    scan_batches("mixed", &batch_messages(0x5EED_1234_ABCD_0001), &mut found);
    let two: Vec<Vec<u8>> = batch_messages(0x5EED_1234_ABCD_0002)
        .into_iter()
        .filter(|m| m.len() >= 100)
        .take(2)
        .map(|m| m[..100].repeat(10))
        .collect();
    scan_batches("two", &two, &mut found);
    // Three messages of one block: one by one, through the single-message kernel's entry for
    // such messages (where it has one; on SHA-NI three steps of two streams).
    let nodes: Vec<Vec<u8>> = batch_messages(0x5EED_1234_ABCD_0003)
        .into_iter()
        .filter(|m| m.len() == 64)
        .take(3)
        .collect();
    assert_eq!(nodes.len(), 3, "three 64-byte messages");
    scan_batches("nodes", &nodes, &mut found);
    // Forty: in groups on a lane kernel where the costs say so (measured first), without the
    // executor's lane buffers.
    multisha::engine::calibrate(multisha::engine::Algorithm::Sha256);
    let forty: Vec<Vec<u8>> = (0..40u8)
        .map(|i| nodes[usize::from(i) % 3].iter().map(|b| b ^ i).collect())
        .collect();
    scan_batches("forty nodes", &forty, &mut found);
    assert!(found.is_empty(), "left on the stack:\n{}", found.join("\n"));
}

/// Calls every batch function on `messages` and reports in `found` what each left below the
/// stack pointer (`set` names the messages).
fn scan_batches(set: &str, messages: &[Vec<u8>], found: &mut Vec<String>) {
    use multisha_contract::{
        SHA1_IV, SHA224_IV, SHA256_IV, SHA384_IV, SHA512_224_IV, SHA512_256_IV, SHA512_IV,
    };
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let mut below = vec![0u8; 48 * 1024];

    /// Runs `$call` at a fixed depth and reports the words of `$forbidden` found below.
    macro_rules! scan {
        ($label:expr, $call:expr, $forbidden:expr, $find:ident) => {{
            let mut forbidden = $forbidden;
            forbidden.remove(&0);
            residue_of(
                &|| {
                    $call;
                },
                &mut below,
            );
            for (depth, word) in $find(&below, &forbidden) {
                found.push(format!(
                    "{set} {}: {word:#x} at {depth} bytes below",
                    $label
                ));
            }
        }};
    }
    /// The values of every message with `$values` in `$len`-byte blocks from `$iv`, the first
    /// `$published` state words published; less the IV's words, a public constant (the
    /// one-block entry's copy of it, in its kernel's word order, may stay below).
    macro_rules! reference {
        ($values:expr, $len:expr, $iv:expr, $published:expr) => {{
            let mut set = HashSet::new();
            for m in messages {
                message_values(m, $len, ($iv, $published), $values, &mut set);
            }
            for word in $iv {
                set.remove(&word);
            }
            set
        }};
    }

    let d20 = RefCell::new(vec![[0u8; 20]; refs.len()]);
    let d28 = RefCell::new(vec![[0u8; 28]; refs.len()]);
    let d32 = RefCell::new(vec![[0u8; 32]; refs.len()]);
    let d48 = RefCell::new(vec![[0u8; 48]; refs.len()]);
    let d64 = RefCell::new(vec![[0u8; 64]; refs.len()]);
    scan!(
        "sha1_many",
        multisha::sha1_many(&refs, &mut d20.borrow_mut()),
        reference!(sha1_slice, 64, SHA1_IV, 5),
        words_found
    );
    scan!(
        "sha224_many",
        multisha::sha224_many(&refs, &mut d28.borrow_mut()),
        reference!(sha256_slice, 64, SHA224_IV, 7),
        words_found
    );
    scan!(
        "sha256_many",
        multisha::sha256_many(&refs, &mut d32.borrow_mut()),
        reference!(sha256_slice, 64, SHA256_IV, 8),
        words_found
    );
    let nodes: Vec<[u8; 64]> = messages
        .iter()
        .map(|m| core::array::from_fn(|i| m.get(i).copied().unwrap_or(i as u8)))
        .collect();
    let node_refs: Vec<&[u8]> = nodes.iter().map(|n| n.as_slice()).collect();
    let mut pairs = HashSet::new();
    for node in &node_refs {
        message_values(node, 64, (SHA256_IV, 8), sha256_slice, &mut pairs);
    }
    for word in SHA256_IV {
        pairs.remove(&word);
    }
    // One node has a path of its own (straight to the kernel's one-block entry), and three go
    // one by one through the entry, which on SHA-NI runs them in three steps of two streams,
    // two middle states kept in memory of its own meanwhile.
    scan!(
        "sha256_pairs of one node",
        multisha::sha256_pairs(&nodes[..1], &mut d32.borrow_mut()[..1]),
        pairs.clone(),
        words_found
    );
    if nodes.len() >= 3 {
        scan!(
            "sha256_pairs of three nodes",
            multisha::sha256_pairs(&nodes[..3], &mut d32.borrow_mut()[..3]),
            pairs.clone(),
            words_found
        );
    }
    scan!(
        "sha256_pairs",
        multisha::sha256_pairs(&nodes, &mut d32.borrow_mut()),
        pairs,
        words_found
    );
    scan!(
        "sha384_many",
        multisha::sha384_many(&refs, &mut d48.borrow_mut()),
        reference!(sha512_slice, 128, SHA384_IV, 6),
        words64_found
    );
    scan!(
        "sha512_many",
        multisha::sha512_many(&refs, &mut d64.borrow_mut()),
        reference!(sha512_slice, 128, SHA512_IV, 8),
        words64_found
    );
    scan!(
        "sha512_224_many",
        multisha::sha512_224_many(&refs, &mut d28.borrow_mut()),
        reference!(sha512_slice, 128, SHA512_224_IV, 3),
        words64_found
    );
    scan!(
        "sha512_256_many",
        multisha::sha512_256_many(&refs, &mut d32.borrow_mut()),
        reference!(sha512_slice, 128, SHA512_256_IV, 4),
        words64_found
    );
    // The digests are right, so the scans saw real work.
    assert_eq!(d32.borrow()[0], multisha::sha512_256(&messages[0]));
    assert_eq!(d20.borrow()[1], multisha::sha1(&messages[1]));
}

/// What [`pbkdf2_secrets`] returns: key blocks, values, compressions.
type Pbkdf2Secrets = ([Vec<u8>; 3], Vec<Vec<u8>>, Vec<(usize, Vec<u8>)>);

/// A public PBKDF2 function of the library (`multisha::pbkdf2_hmac_sha256`, ...).
type Pbkdf2Fn =
    fn(&[u8], &[u8], std::num::NonZeroU32, &mut [u8]) -> Result<(), multisha::Pbkdf2Error>;

/// A 40-byte password unlike anything else the tests put on the stack: its key block (and the
/// block's ipad and opad forms) are what the PBKDF2 scan looks for byte-wise.
fn pbkdf2_password() -> Vec<u8> {
    (0..40u32)
        .map(|i| (i.wrapping_mul(0x85EB_CA6B) >> 11) as u8 ^ 0x3C)
        .collect()
}

/// What PBKDF2-HMAC with digest `D` (block `block_len` bytes) of `password` and `salt` makes
/// that must not outlive the call, for `blocks` output blocks and `iterations` iterations:
/// the key block and its ipad and opad forms (bytes), and every `U_j`, every inner digest
/// `H(K ^ ipad || U_j)` and each `T_i` (big-endian words' bytes, as the states hold them);
/// and the compressions of the iterations' one-block messages: which keyed state (1: ipad,
/// 2: opad) and the digest the block holds.
fn pbkdf2_secrets<D: sha2::Digest>(
    block_len: usize,
    password: &[u8],
    salt: &[u8],
    iterations: u32,
    blocks: u32,
) -> Pbkdf2Secrets {
    let mut key = password.to_vec();
    key.resize(block_len, 0);
    let pad = |byte: u8| key.iter().map(|k| k ^ byte).collect::<Vec<u8>>();
    let (ipad, opad) = (pad(0x36), pad(0x5c));
    let hmac = |message: &[u8]| {
        let inner = D::new()
            .chain_update(&ipad)
            .chain_update(message)
            .finalize();
        let outer = D::new().chain_update(&opad).chain_update(&inner).finalize();
        (inner.to_vec(), outer.to_vec())
    };
    let mut values = Vec::new();
    let mut compressions = Vec::new();
    for index in 1..=blocks {
        let mut message = salt.to_vec();
        message.extend(index.to_be_bytes());
        let (inner, mut u) = hmac(&message);
        compressions.push((2, inner.clone()));
        values.push(inner);
        values.push(u.clone());
        let mut t = u.clone();
        for _ in 1..iterations {
            let (inner, next) = hmac(&u);
            compressions.push((1, u.clone()));
            compressions.push((2, inner.clone()));
            values.push(inner);
            u = next;
            for (t, u) in t.iter_mut().zip(&u) {
                *t ^= u;
            }
            values.push(u.clone());
        }
        values.push(u);
        values.push(t);
    }
    ([key, ipad, opad], values, compressions)
}

/// The HMAC keyed states (ipad, opad) of the key blocks `keys` (as `pbkdf2_secrets` gives
/// them), from the reference compression from `iv`; their words are added to `forbidden`.
fn keyed_states<A: Lanes>(
    iv: &A::State,
    keys: &[Vec<u8>; 3],
    forbidden: &mut HashSet<A::Word>,
) -> Vec<A::State>
where
    A::Word: std::hash::Hash + Eq,
{
    use multisha_contract::BlockBytes;
    keys[1..]
        .iter()
        .map(|pad| {
            let mut block = A::Block::ZERO;
            block.as_mut().copy_from_slice(pad);
            let state = A::values(iv, &block, &mut HashSet::new());
            forbidden.extend(state.as_ref().iter().copied());
            state
        })
        .collect()
}

/// The key blocks' 16-byte windows within the password's bytes (the zero or pad bytes past
/// it are public), at any offset of `below`.
fn key_windows_found(below: &[u8], keys: &[Vec<u8>; 3], password_len: usize) -> usize {
    let windows: HashSet<&[u8]> = keys
        .iter()
        .flat_map(|k| k[..password_len].windows(16))
        .collect();
    below.windows(16).filter(|w| windows.contains(w)).count()
}

/// One PBKDF2 derivation to scan: its label, its output blocks, the call.
type Pbkdf2Path<'a> = (String, u32, Box<dyn Fn(&mut [u8]) + 'a>);

/// Every PBKDF2 path of `H` this CPU runs, scanned (reference values from RustCrypto's `D`):
/// the dispatched function (one output block, and four: chains where the dispatcher runs
/// them), each single-message variant's own loop (pinned, two blocks one after the other),
/// each lane kernel's chains (pinned, one block per lane). Returns what was found and how
/// many paths ran.
fn pbkdf2_residue<H: multisha::HashFunction, D: sha2::Digest>(
    derive: Pbkdf2Fn,
    below: &mut [u8],
) -> (Vec<String>, usize)
where
    H::Compression: Lanes,
    <H::Compression as multisha_contract::Compression>::Word:
        std::hash::Hash + Eq + std::fmt::LowerHex,
{
    use multisha::engine::{Interface, Pinned, PinnedMany};
    use multisha_contract::{BlockBytes, Compression, Word};
    type A<H> = <H as multisha::HashFunction>::Compression;
    const ITERATIONS: u32 = 5;
    let iterations = std::num::NonZeroU32::new(ITERATIONS).expect("positive");
    let password = pbkdf2_password();
    let salt = b"residue scan salt".to_vec();
    let digest_len = H::OUTPUT.len;
    let mut paths: Vec<Pbkdf2Path> = Vec::new();
    for blocks in [1, 4] {
        paths.push((
            format!("{} dispatched, {blocks} blocks", H::id()),
            blocks,
            Box::new(|out: &mut [u8]| {
                derive(&password, &salt, iterations, out).expect("a valid length")
            }),
        ));
    }
    for variant in H::algorithm().variants() {
        if !variant.is_available() {
            eprintln!(
                "{variant}: skipped, this CPU (or its mask) lacks some of {}",
                variant.requires()
            );
            multisha_contract::harness::assert_skip_expected(variant.name(), variant.requires());
            continue;
        }
        let (password, salt) = (&password, &salt);
        match variant.interface() {
            Interface::Single => {
                let pin = Pinned::<H>::from_variant(variant).expect("available");
                paths.push((
                    format!("{variant} loop"),
                    2,
                    Box::new(move |out: &mut [u8]| {
                        pin.pbkdf2_hmac(password, salt, iterations, out)
                            .expect("a valid length")
                    }),
                ));
            }
            _ => {
                let pin = PinnedMany::<H>::new(variant.name()).expect("available");
                if pin.has_pbkdf2_chains() {
                    paths.push((
                        format!("{variant} chains"),
                        variant.lanes() as u32,
                        Box::new(move |out: &mut [u8]| {
                            pin.pbkdf2_hmac(password, salt, iterations, out)
                                .expect("a valid length")
                        }),
                    ));
                }
            }
        }
    }
    let block_len = <A<H> as Compression>::Block::LEN;
    let word_len = size_of::<<A<H> as Compression>::Word>();
    let mut found = Vec::new();
    for (label, blocks, derive) in &paths {
        let (keys, values, compressions) =
            pbkdf2_secrets::<D>(block_len, &password, &salt, ITERATIONS, *blocks);
        let mut forbidden = HashSet::new();
        let keyed = keyed_states::<A<H>>(&H::OUTPUT.iv, &keys, &mut forbidden);
        // Every schedule word and round value of the iterations' compressions: the digest,
        // the padding and the length of key block plus digest (in the last eighth).
        for (key, digest) in &compressions {
            let mut block = <A<H> as Compression>::Block::ZERO;
            let bytes = block.as_mut();
            bytes[..digest_len].copy_from_slice(digest);
            bytes[digest_len] = 0x80;
            let bits = ((block_len + digest_len) as u128 * 8).to_be_bytes();
            bytes[block_len - block_len / 8..].copy_from_slice(&bits[16 - block_len / 8..]);
            A::<H>::values(&keyed[key - 1], &block, &mut forbidden);
        }
        for value in &values {
            forbidden.extend(
                value
                    .chunks(word_len)
                    .map(<A<H> as Compression>::Word::from_be_slice),
            );
        }
        // The output is the caller's (on the heap); `T` is only forbidden below the stack
        // pointer.
        let out = RefCell::new(vec![0u8; *blocks as usize * digest_len]);
        let call = || derive(&mut out.borrow_mut());
        found.extend(key_residue::<A<H>>(
            label,
            &call,
            below,
            &keys,
            password.len(),
            &forbidden,
        ));
    }
    (found, paths.len())
}

/// What `call` (labelled `label`) left below the stack: 16-byte windows of the key blocks
/// `keys` (the key's `key_len` bytes of each) and the words of `forbidden`.
fn key_residue<A: Lanes>(
    label: &str,
    call: &dyn Fn(),
    below: &mut [u8],
    keys: &[Vec<u8>; 3],
    key_len: usize,
    forbidden: &HashSet<A::Word>,
) -> Vec<String>
where
    A::Word: std::fmt::LowerHex,
{
    below.fill(0);
    residue_of(call, below);
    let mut found = Vec::new();
    let windows = key_windows_found(below, keys, key_len);
    if windows > 0 {
        found.push(format!(
            "{label}: {windows} 16-byte windows of the key block"
        ));
    }
    for (depth, word) in A::scan(below, forbidden) {
        found.push(format!("{label}: {word:x} at rsp - {depth}"));
    }
    found
}

/// Every PBKDF2 path this CPU runs, for SHA-1, SHA-256 and SHA-512, leaves no key block, keyed
/// HMAC state, `U`, inner digest or `T` below the stack pointer. A variant this CPU lacks is
/// named on standard error, and fails the test where `MULTISHA_EXPECT_FEATURES` says the CPU
/// has what it requires.
#[test]
fn every_pbkdf2_path_leaves_no_key_state_u_or_t_on_the_stack() {
    let mut below = vec![0u8; 32 * 1024];
    // The control: the scan finds a keyed state the test leaves on the stack itself.
    let password = pbkdf2_password();
    let (keys, _, _) = pbkdf2_secrets::<sha2::Sha256>(64, &password, b"", 1, 1);
    let state = sha2_values(
        &SHA256,
        &multisha_contract::SHA256_IV,
        &keys[1],
        &mut HashSet::new(),
    );
    residue_of(
        &|| {
            let copy = state;
            std::hint::black_box(&copy);
            let key: [u8; 64] = keys[0].as_slice().try_into().expect("64 bytes");
            std::hint::black_box(&key);
        },
        &mut below,
    );
    assert!(
        !words_found(&below, &state.into_iter().collect()).is_empty()
            && key_windows_found(&below, &keys, password.len()) > 0,
        "the scan sees the stack"
    );

    let mut found = Vec::new();
    let mut ran = 0;
    for (f, n) in [
        pbkdf2_residue::<multisha::Sha1, sha1::Sha1>(multisha::pbkdf2_hmac_sha1, &mut below),
        pbkdf2_residue::<multisha::Sha256, sha2::Sha256>(multisha::pbkdf2_hmac_sha256, &mut below),
        pbkdf2_residue::<multisha::Sha512, sha2::Sha512>(multisha::pbkdf2_hmac_sha512, &mut below),
    ] {
        found.extend(f);
        ran += n;
    }
    eprintln!("{ran} PBKDF2 paths scanned");
    assert!(found.is_empty(), "left on the stack:\n{}", found.join("\n"));
}

/// The HMAC batch of `H` (reference `D`) under a 40-byte key, dispatched and with each
/// many-message variant pinned, over messages of one and of several blocks: whatever it found
/// below the stack of the key block (byte windows), the keyed states, and the inner digests
/// (which, with the keyed outer state, would give the tags of any message).
fn hmac_batch_residue<H: multisha::HashFunction, D: sha2::Digest>(
    below: &mut [u8],
) -> (Vec<String>, usize)
where
    H::Compression: Lanes,
    <H::Compression as multisha_contract::Compression>::Word:
        std::hash::Hash + Eq + std::fmt::LowerHex,
{
    use multisha::engine::{Interface, PinnedMany};
    use multisha_contract::{BlockBytes, Compression, Word};
    type A<H> = <H as multisha::HashFunction>::Compression;
    let key = pbkdf2_password();
    let block_len = <A<H> as Compression>::Block::LEN;
    let word_len = size_of::<<A<H> as Compression>::Word>();
    let messages: Vec<Vec<u8>> = (0..40)
        .map(|i| vec![i as u8 ^ 0x5a; (i * 13) % 300])
        .collect();
    let (keys, _, _) = pbkdf2_secrets::<D>(block_len, &key, b"", 1, 1);
    let mut forbidden = HashSet::new();
    keyed_states::<A<H>>(&H::OUTPUT.iv, &keys, &mut forbidden);
    for message in &messages {
        let inner = D::new()
            .chain_update(&keys[1])
            .chain_update(message)
            .finalize();
        forbidden.extend(
            inner
                .chunks(word_len)
                .map(<A<H> as Compression>::Word::from_be_slice),
        );
    }
    type Batch<'a, H> = (
        String,
        Box<dyn Fn(&mut [<H as multisha::HashFunction>::Digest]) + 'a>,
    );
    let mut paths: Vec<Batch<H>> = vec![(
        format!("{} hmac_many dispatched", H::id()),
        Box::new(|tags| multisha::hmac_many::<H>(&key, &messages, tags)),
    )];
    for variant in H::algorithm()
        .variants()
        .iter()
        .filter(|v| v.is_available() && v.interface() == Interface::Many)
    {
        let pin = PinnedMany::<H>::new(variant.name()).expect("available");
        let (key, messages) = (&key, &messages);
        paths.push((
            format!("{variant} pinned"),
            Box::new(move |tags| pin.hmac_many(key, messages, tags)),
        ));
    }
    let mut found = Vec::new();
    for (label, hash) in &paths {
        let tags = RefCell::new(vec![H::ZERO; messages.len()]);
        let call = || hash(&mut tags.borrow_mut());
        found.extend(key_residue::<A<H>>(
            label,
            &call,
            below,
            &keys,
            key.len(),
            &forbidden,
        ));
    }
    (found, paths.len())
}

/// The HMAC batch functions leave no key block, keyed state or inner digest below the stack
/// pointer, dispatched and on every many-message variant, SHA-1, SHA-256 and SHA-512.
#[test]
fn hmac_batches_leave_no_key_keyed_state_or_inner_digest_on_the_stack() {
    let mut below = vec![0u8; 64 * 1024];
    let mut found = Vec::new();
    let mut ran = 0;
    for (f, n) in [
        hmac_batch_residue::<multisha::Sha1, sha1::Sha1>(&mut below),
        hmac_batch_residue::<multisha::Sha256, sha2::Sha256>(&mut below),
        hmac_batch_residue::<multisha::Sha512, sha2::Sha512>(&mut below),
    ] {
        found.extend(f);
        ran += n;
    }
    eprintln!("{ran} HMAC batch paths scanned");
    assert!(found.is_empty(), "left on the stack:\n{}", found.join("\n"));
}
