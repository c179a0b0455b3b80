//! A batch's message lengths as the planner needs them, read in one pass: the totals, and the
//! last messages in the order the executor starts them.

/// The executor's rotation of a stage's last messages (all started at once, the lanes
/// rotating among them longest remaining first, so that they end together) pays for its
/// bookkeeping from messages of this many blocks up, padding included (SHA-256: 2,040 bytes;
/// SHA-512: 4,080). Measured on an AMD EPYC Zen 4, loop time / lanes time (above 1: the lanes
/// are faster) with rotation and without: SHA-256 6 x 256 B 1.01 and 1.22, 6 x 512 B 1.36 and
/// 1.51, 7 x 1 KiB 1.62 and 1.75, 6 x 2 KiB 1.95 and 1.92, 5 x 2 KiB 1.85 and 1.63; SHA-1
/// 6 x 256 B 0.86 and 1.03, 6 x 2 KiB 2.12 and 1.96.
pub const ROTATION_BLOCKS: usize = 33;

/// Whether a message of `blocks` blocks (padding included: [`message_blocks`]) is long enough
/// for the executor to rotate the lanes among it and the other last messages of a stage: the
/// one rule, in one unit, that the executor runs and the planner predicts.
#[inline(always)]
pub const fn rotates(blocks: usize) -> bool {
    blocks >= ROTATION_BLOCKS
}

/// The most messages a stage's rotation shares the lanes among, those on the lanes and those
/// parked beyond them together: the slots the rotation was measured with (sixteen, the widest
/// kernel then). A 32-lane kernel's last messages do not rotate; the planner hands them to a
/// narrower kernel instead. One rule for the executor and the planner.
pub const ROTATION_SLOTS: usize = 16;

/// The executor takes messages longest first within windows of this many. The windows end
/// at the batch's end (the first window is the short one), so the last messages to start are
/// the shortest of the last full window, which the planner sees.
pub const WINDOW: usize = 64;

/// Where the window holding message `index` of `count` starts, and where it ends.
pub fn window_of(index: usize, count: usize) -> (usize, usize) {
    let first = match count % WINDOW {
        0 => WINDOW.min(count),
        short => short,
    };
    if index < first {
        (0, first)
    } else {
        let start = first + (index - first) / WINDOW * WINDOW;
        (start, start + WINDOW)
    }
}

/// Blocks (padding included) and segments of one message of `len` bytes, for blocks of
/// `block_len` bytes (a power of two) whose padding ends in a length field of `length_bytes`:
/// the whole blocks, the tail and the length field, rounded down, plus one; two segments
/// (whole blocks, then the padded tail) from one block up.
#[inline(always)]
pub fn message_blocks(len: usize, block_len: usize, length_bytes: usize) -> (usize, usize) {
    let (blocks, segments) = beyond_the_first(len, block_len, length_bytes);
    (blocks + 1, segments + 1)
}

/// [`message_blocks`] less the block and the segment every message has: what a pass over many
/// messages sums, adding those once at the end.
#[inline(always)]
fn beyond_the_first(len: usize, block_len: usize, length_bytes: usize) -> (usize, usize) {
    // Saturating: lengths no slice can have (`engine::batch_plan` takes any `usize`) plan
    // without an overflow.
    (
        len.saturating_add(length_bytes) >> block_len.trailing_zeros(),
        usize::from(len >= block_len),
    )
}

/// The batch as the planner counts it (blocks include the padding).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// How many messages.
    pub count: usize,
    /// Blocks of all of them.
    pub blocks: usize,
    /// Segments of all of them: a message of a block or more has two (its whole blocks, then
    /// its padded tail), a shorter one one; a kernel call ends when a lane's segment does.
    pub segments: usize,
    /// The most blocks of one message.
    pub longest: usize,
    /// The fewest blocks of one message (0 for no message).
    pub shortest: usize,
    /// Whether every message has the same length.
    pub equal: bool,
    /// How many of the last messages (start order) the planner can split off.
    tail_len: usize,
    /// Blocks and segments of each message of an equal batch.
    each: (usize, usize),
    /// Whether the messages of an equal batch are a whole number of blocks long: their padding
    /// block is the same for all, run through the lane kernels' constant entry.
    pub shared_padding: bool,
}

/// The blocks of fewer than this many messages sum without overflow, whatever their lengths:
/// a message has at most `usize::MAX / 64 + 1` blocks of 64 bytes or more ([`message_blocks`]:
/// the length field added, saturating, shifted, plus one).
pub const PLAIN_SUM: usize = 32;

/// Blocks (summed with `add`), segments, longest and shortest length, and whether all are of
/// one length, of `count` messages of lengths `lens`: [`Shape::new`]'s pass past the bound of
/// its wrapping one, and the batch route's over a few messages (fewer than [`PLAIN_SUM`],
/// summed with plain adds). Inlined, so that what a caller does not use is not computed and
/// the block size is a constant.
#[inline(always)]
pub fn totals(
    count: usize,
    lens: impl Fn(usize) -> usize,
    block_len: usize,
    length_bytes: usize,
    add: impl Fn(usize, usize) -> usize,
) -> (usize, usize, usize, usize, bool) {
    let (mut blocks, mut long) = (0usize, 0usize);
    let (mut longest, mut shortest) = (0, usize::MAX);
    for i in 0..count {
        let len = lens(i);
        let (b, s) = beyond_the_first(len, block_len, length_bytes);
        blocks = add(blocks, b);
        long += s;
        longest = longest.max(len);
        shortest = shortest.min(len);
    }
    // Every message's first block and segment added once, and all of one length where the
    // longest is the shortest: 16 instructions a message became about 10, and 9 SHA-1
    // messages of 0-200 bytes, whose pass had been 2% of the batch's time, went from 1.026 to
    // 1.004 times their plan pinned (one by one; Intel Xeon).
    (
        add(blocks, count),
        long + count,
        longest,
        shortest,
        longest == shortest,
    )
}

/// Blocks, segments, longest and shortest length of `count` messages of lengths `lens`
/// (as [`totals`] counts them), summed with wrapping adds: exact where the longest times
/// `count` is at most `usize::MAX / 4` ([`Shape::new`] checks, with a multiply rather than a
/// division). The one block and segment every message has are added once, at the end.
#[inline(always)]
fn wrapping_totals(
    count: usize,
    lens: impl Fn(usize) -> usize,
    block_len: usize,
    length_bytes: usize,
) -> (usize, usize, usize, usize) {
    let shift = block_len.trailing_zeros();
    let (mut blocks, mut long, mut longest, mut shortest) = (0usize, 0usize, 0, usize::MAX);
    for i in 0..count {
        let len = lens(i);
        blocks = blocks.wrapping_add(len.wrapping_add(length_bytes) >> shift);
        long += usize::from(len >= block_len);
        longest = longest.max(len);
        shortest = shortest.min(len);
    }
    (blocks.wrapping_add(count), long + count, longest, shortest)
}

/// The last messages of a ragged batch in start order (the shortest of the last window,
/// longest first), as sums from the start of the tail: `blocks[i]` and `segments[i]` count
/// messages `0..i`. Read only when the planner needs them ([`Shape::with_tail`]); the entries
/// past the tail's messages hold no count.
#[derive(Debug, Clone)]
pub struct Tail {
    blocks: [u32; Shape::TAIL + 1],
    segments: [u32; Shape::TAIL + 1],
    /// Each message's length in bytes.
    lens: [u32; Shape::TAIL],
    /// Bit `i`: whether message `i` is long enough for the executor's rotation of a stage's
    /// last messages ([`rotates`]).
    rotates: u64,
}

// One bit a tail message.
const _: () = assert!(Shape::TAIL <= u64::BITS as usize);

impl Tail {
    /// The tail of an equal batch, which the planner computes from the totals.
    pub const EQUAL: Tail = Tail {
        blocks: [0; Shape::TAIL + 1],
        segments: [0; Shape::TAIL + 1],
        lens: [0; Shape::TAIL],
        rotates: 0,
    };

    /// Blocks of tail message `i` (start order), padding included.
    #[inline(always)]
    pub fn blocks(&self, i: usize) -> usize {
        (self.blocks[i + 1] - self.blocks[i]) as usize
    }

    /// Whether tail message `i` is long enough to share the lanes by rotation.
    #[inline(always)]
    pub fn rotates(&self, i: usize) -> bool {
        debug_assert!(i < Shape::TAIL);
        self.rotates >> i & 1 == 1
    }
}

impl Shape {
    /// How many of the last messages the planner sees one by one: twice the widest kernel's
    /// lanes, enough for every hand-over it considers.
    pub const TAIL: usize = 2 * multisha_contract::MAX_LANES;

    /// The totals of messages of `lens` bytes, for blocks of `block_len` bytes (a power of
    /// two) whose padding ends in a length field of `length_bytes`: one pass of adds and
    /// shifts. The last messages are read by [`Shape::with_tail`], only when the planner needs
    /// them.
    #[inline]
    pub fn new(
        count: usize,
        lens: impl Fn(usize) -> usize,
        block_len: usize,
        length_bytes: usize,
    ) -> Self {
        if count == 0 {
            return Shape {
                count,
                blocks: 0,
                segments: 0,
                longest: 0,
                shortest: 0,
                equal: true,
                tail_len: 0,
                each: (0, 0),
                shared_padding: false,
            };
        }
        // Wrapping adds, one pass: exact wherever the longest message times the count is at
        // most `usize::MAX / 4` (then neither a length plus its length field nor the sum of
        // blocks can overflow), which every batch of real messages is; else, once more,
        // saturating (aliased messages of gigabytes can sum past a 32-bit `usize`, and
        // `engine::batch_plan` takes any lengths). A saturating add per message (a compare
        // and a move), with the equality check the saturating pass then made per message, was
        // half of the pass's instructions: 145 ns of 100 messages of 0-200 bytes, 3% of
        // hashing them on lanes.
        let (blocks, segments, longest, shortest) =
            wrapping_totals(count, &lens, block_len, length_bytes);
        let (blocks, segments, longest, shortest, equal) = if longest
            .checked_mul(count)
            .is_some_and(|all| all <= usize::MAX / 4)
        {
            (blocks, segments, longest, shortest, longest == shortest)
        } else {
            totals(count, &lens, block_len, length_bytes, usize::saturating_add)
        };
        Self::from_totals(
            count,
            (blocks, segments, longest, shortest, equal),
            block_len,
            length_bytes,
        )
    }

    /// The shape of `count` messages (at least one) from their totals as [`totals`] gives
    /// them (blocks, segments, the longest and the shortest length in bytes, whether all are
    /// of one length), summed already: a few messages' by the batch route, which read them
    /// to settle whether they go one by one (no second pass).
    #[inline]
    pub fn from_totals(
        count: usize,
        (blocks, segments, longest, shortest, equal): (usize, usize, usize, usize, bool),
        block_len: usize,
        length_bytes: usize,
    ) -> Self {
        Shape {
            count,
            blocks,
            segments,
            longest: message_blocks(longest, block_len, length_bytes).0,
            shortest: message_blocks(shortest, block_len, length_bytes).0,
            equal,
            tail_len: count.min(Shape::TAIL),
            // One message's, without dividing (a division costs as much as the whole pass
            // over a small batch); all of length `longest` where equal.
            each: if equal {
                message_blocks(longest, block_len, length_bytes)
            } else {
                (0, 0)
            },
            shared_padding: equal && longest.is_multiple_of(block_len),
        }
    }

    /// The totals of `count` (at least one) messages of `len` bytes each, as [`Shape::new`]
    /// counts them, without a pass over the messages.
    #[inline]
    pub fn equal(count: usize, len: usize, block_len: usize, length_bytes: usize) -> Self {
        let each = message_blocks(len, block_len, length_bytes);
        Shape {
            count,
            blocks: count.saturating_mul(each.0),
            segments: count.saturating_mul(each.1),
            longest: each.0,
            shortest: each.0,
            equal: true,
            tail_len: count.min(Shape::TAIL),
            each,
            shared_padding: len.is_multiple_of(block_len),
        }
    }

    /// Reads the last messages of a ragged batch (the shortest of the last window, in start
    /// order) and hands them to `then` ([`Tail::EQUAL`] for an equal batch). Lent, not
    /// returned: returned, the tail was copied out through the C library's `memcpy`.
    pub fn with_tail<R>(
        &self,
        lens: impl Fn(usize) -> usize,
        block_len: usize,
        length_bytes: usize,
        then: impl FnOnce(&Tail) -> R,
    ) -> R {
        if self.equal || self.count == 0 {
            return then(&Tail::EQUAL);
        }
        let (start, end) = window_of(self.count - 1, self.count);
        let mut window = [0u32; WINDOW];
        let window = &mut window[..end - start];
        for (slot, i) in window.iter_mut().zip(start..end) {
            // Saturated, so messages of 4 GiB and more keep the executor's order.
            *slot = lens(i).min(u32::MAX as usize) as u32;
        }
        window.sort_unstable_by(|a, b| b.cmp(a));
        let last = &window[window.len() - self.tail_len..];
        // The arrays start out holding the tail's length, not zeros: nothing past the tail is
        // read, and zeroing the tail (840 bytes then) was a call to the C library's `memset`
        // (glibc's AVX-512 one on an Intel Xeon), after which, in a core that had just run the
        // 512-bit lane kernels, the SHA-NI batch that followed ran slower: 7 SHA-1 messages of
        // 0-8 KiB planned one by one took 1.06-1.12 times the same batch pinned after
        // `avx512-x16` and `avx512-x32` batches, 1.01 without the `memset` (a `memset` of 840
        // bytes put before the pinned batch slowed it as much).
        let filler = self.tail_len as u32;
        let mut tail = Tail {
            blocks: [filler; Shape::TAIL + 1],
            segments: [filler; Shape::TAIL + 1],
            lens: [filler; Shape::TAIL],
            rotates: 0,
        };
        tail.blocks[0] = 0;
        tail.segments[0] = 0;
        for (i, &len) in last.iter().enumerate() {
            let len = len as usize;
            tail.lens[i] = len as u32;
            let (blocks, segments) = message_blocks(len, block_len, length_bytes);
            tail.rotates |= u64::from(rotates(blocks)) << i;
            // Saturating: 64 messages of 4 GiB or more (lengths saturate at 4 GiB; 64-byte
            // blocks).
            tail.blocks[i + 1] = tail.blocks[i].saturating_add(blocks as u32);
            tail.segments[i + 1] = tail.segments[i] + segments as u32;
        }
        then(&tail)
    }

    /// Blocks and segments of each message, if every message has the same length.
    #[inline]
    pub fn each(&self) -> Option<(usize, usize)> {
        (self.equal && self.count > 0).then_some(self.each)
    }

    /// Whether every message is exactly one block long (64-byte Merkle nodes): one by one,
    /// they run through the single-message kernel's entry for such messages where it has one
    /// ([`Cost::one_block`](multisha_contract::Cost::one_block)).
    #[inline]
    pub fn one_block_each(&self) -> bool {
        self.equal && self.count > 0 && self.shared_padding && self.each.0 == 2
    }

    /// How many of the last messages the planner can split off.
    #[inline]
    pub fn tail_len(&self) -> usize {
        self.tail_len
    }

    /// Blocks, segments, the longest's and the last one's blocks, and whether they are of one
    /// length, of tail messages `from..to` (start order).
    #[inline]
    pub fn tail_part(
        &self,
        tail: &Tail,
        from: usize,
        to: usize,
    ) -> (usize, usize, usize, usize, bool) {
        if self.equal {
            let (blocks, segments) = self.each;
            let n = to - from;
            return (n * blocks, n * segments, blocks, blocks, true);
        }
        if to == from {
            return (0, 0, 0, 0, true);
        }
        let blocks = (tail.blocks[to] - tail.blocks[from]) as usize;
        let segments = (tail.segments[to] - tail.segments[from]) as usize;
        let equal = tail.lens[from] == tail.lens[to - 1];
        (
            blocks,
            segments,
            tail.blocks(from),
            tail.blocks(to - 1),
            equal,
        )
    }

    /// Blocks of the last message to start (0 for no message).
    pub fn last_blocks(&self, tail: &Tail) -> usize {
        match self.tail_len {
            0 => 0,
            n => self.tail_part(tail, n - 1, n).3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{PLAIN_SUM, Shape, totals};

    /// A xorshift64 generator from `seed`.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// The longest lengths sum exactly below [`PLAIN_SUM`] messages (plain adds, which a debug
    /// build checks for overflow) and saturate past it, for 64- and 128-byte blocks.
    #[test]
    fn blocks_of_the_longest_lengths_sum_without_overflow() {
        for (block_len, length_bytes, each) in [(64, 8, 1usize << 58), (128, 16, 1usize << 57)] {
            let few = Shape::new(PLAIN_SUM - 1, |_| usize::MAX, block_len, length_bytes);
            assert_eq!(few.blocks, (PLAIN_SUM - 1) * each);
            assert_eq!(few.segments, 2 * (PLAIN_SUM - 1));
            let many = Shape::new(1 << 8, |i| usize::MAX - i, block_len, length_bytes);
            assert_eq!(many.blocks, usize::MAX, "saturated");
            assert_eq!(many.longest, each);
        }
    }

    /// The one pass of wrapping adds counts as exact arithmetic does, saturated at
    /// `usize::MAX`, on random batches whose lengths range from empty to `usize::MAX`: below
    /// the bound where it is taken and past it (where the saturating pass is), for 64- and
    /// 128-byte blocks.
    #[test]
    fn totals_are_exact_sums_saturated() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let (mut wrapping, mut saturating) = (0, 0);
        for case in 0..4000 {
            let count = 1 + (next() % 300) as usize;
            // Lengths of up to 2^bits bytes: short messages, huge ones, any between.
            let bits = (next() % 65) as u32;
            let lens: std::vec::Vec<usize> = (0..count)
                .map(|_| match bits {
                    64 => next() as usize,
                    _ => (next() & ((1u64 << bits) - 1)) as usize,
                })
                .map(|len| if case % 7 == 0 { 100 } else { len })
                .collect();
            for (block_len, length_bytes) in [(64, 8), (128, 16)] {
                let shape = Shape::new(count, |i| lens[i], block_len, length_bytes);
                let blocks =
                    |len: usize| (len as u128 + length_bytes as u128) / block_len as u128 + 1;
                let sum: u128 = lens.iter().map(|&len| blocks(len)).sum();
                let segments: usize = lens
                    .iter()
                    .map(|&len| 1 + usize::from(len >= block_len))
                    .sum();
                let (longest, shortest) = (lens.iter().max().unwrap(), lens.iter().min().unwrap());
                assert_eq!(
                    shape.blocks as u128,
                    sum.min(usize::MAX as u128),
                    "{lens:?}"
                );
                assert_eq!(shape.segments, segments);
                assert_eq!(shape.longest as u128, blocks(*longest));
                assert_eq!(shape.shortest as u128, blocks(*shortest));
                assert_eq!(shape.equal, longest == shortest);
                if longest
                    .checked_mul(count)
                    .is_some_and(|all| all <= usize::MAX / 4)
                {
                    wrapping += 1;
                } else {
                    saturating += 1;
                }
            }
        }
        assert!(
            wrapping > 1000 && saturating > 500,
            "{wrapping} {saturating}"
        );
    }

    #[test]
    fn a_few_messages_sums_make_the_shape_of_their_pass() {
        // The batch route's sums of a few messages (plain adds, fewer than `PLAIN_SUM`
        // messages of any length), made a shape: the same as `Shape::new`'s, and as
        // `Shape::equal`'s where all are of one length.
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut equal = 0;
        for case in 0..3000 {
            let count = 1 + (next() % (PLAIN_SUM as u64 - 1)) as usize;
            let bits = (next() % 65) as u32;
            let lens: std::vec::Vec<usize> = (0..count)
                .map(|_| match bits {
                    64 => next() as usize,
                    _ => (next() & ((1u64 << bits) - 1)) as usize,
                })
                .map(|len| if case % 5 == 0 { 64 * (case % 3) } else { len })
                .collect();
            for (block_len, length_bytes) in [(64, 8), (128, 16)] {
                // What each field must be, from exact sums.
                let blocks = |len: usize| {
                    ((len as u128 + length_bytes as u128) / block_len as u128 + 1) as usize
                };
                let (longest, shortest) =
                    (*lens.iter().max().unwrap(), *lens.iter().min().unwrap());
                let all_equal = longest == shortest;
                let want = Shape {
                    count,
                    blocks: lens.iter().map(|&len| blocks(len) as u128).sum::<u128>() as usize,
                    segments: lens
                        .iter()
                        .map(|&len| 1 + usize::from(len >= block_len))
                        .sum(),
                    longest: blocks(longest),
                    shortest: blocks(shortest),
                    equal: all_equal,
                    tail_len: count.min(Shape::TAIL),
                    each: if all_equal {
                        (blocks(longest), 1 + usize::from(longest >= block_len))
                    } else {
                        (0, 0)
                    },
                    shared_padding: all_equal && longest % block_len == 0,
                };
                let lens = |i: usize| lens[i];
                let sums = totals(count, lens, block_len, length_bytes, |a, b| a + b);
                let shape = Shape::from_totals(count, sums, block_len, length_bytes);
                assert_eq!(shape, want);
                assert_eq!(Shape::new(count, lens, block_len, length_bytes), want);
                if shape.equal {
                    equal += 1;
                    assert_eq!(shape, Shape::equal(count, lens(0), block_len, length_bytes));
                }
            }
        }
        assert!(equal > 1000, "{equal}");
    }
}
