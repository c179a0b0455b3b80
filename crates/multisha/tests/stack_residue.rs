//! The one-shot functions leave no message bytes and no untruncated state on the stack: the
//! padded tail is built in place and wiped, and so is the chaining state (for SHA-224 its last
//! word is not part of the digest). Checked by copying the stack below the caller's frame right
//! after a call and searching it.
// x86-64 only: the stack scan is x86-64 assembly.
#![cfg(target_arch = "x86_64")]

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
