//! What a kernel declares about its speed: a static estimate of its cost, which the batch
//! planner uses until (or instead of, where measuring is off) costs measured on the running CPU.

/// The cost of running a kernel, in nanoseconds: a fixed set-up each time a batch starts using
/// it (a lane kernel's buffers, their wipe; nothing for a single-message kernel), a part per
/// group of messages a lane kernel runs side by side from start to end (its lanes' states set
/// up, its first call's start), a part per call (loading, transposing and storing the
/// states), a part per step, and a part per message (filling its lane, padding its tail,
/// writing its digest). A step advances every lane of the kernel by one block, occupied or
/// not; for a single-message kernel it is one block.
///
/// The part per message is what makes a wide kernel with few lanes filled cheaper than with
/// all of them: a model without it, fitted with the lanes full, overcharges such a batch. It
/// comes in two sizes, because the executor runs messages two ways: a full group of equal
/// lengths (or of one block shape, the lanes full or the stage's last ones partly filled)
/// side by side from start to end (`message`), or each message in a slot of its own, its
/// blocks and tail tracked call by call (`ragged`: lengths whose blocks differ), which costs
/// more, up to about twice as much.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Cost {
    /// Nanoseconds per use in a batch.
    pub setup: f32,
    /// Nanoseconds per group of messages run side by side from start to end, full or partly
    /// filled, beyond its calls, steps and messages (lane kernels; 0 unless measured). Fitted
    /// as part of the call, it was charged twice to every group of messages with a tail
    /// (whole blocks, then the tail: two calls): on an AMD Zen 4 the first call of a
    /// `shani-x4` group took about 30 ns more than the second.
    pub group: f32,
    /// Nanoseconds per call.
    pub call: f32,
    /// Nanoseconds per step.
    pub step: f32,
    /// Nanoseconds per message (on a lane kernel, of a full group of equal lengths; on a
    /// single-message kernel below zero where one message's rounds overlap the next one's, so
    /// that a one-block message takes less than a block of a long one).
    pub message: f32,
    /// Nanoseconds per message run in a slot of its own (lane kernels; the same as `message`
    /// for a single-message kernel).
    pub ragged: f32,
    /// Nanoseconds more per message of a batch of differing lengths, whose lanes are refilled
    /// as messages end (what the executor does as a lane changes message, beyond `ragged`):
    /// lane kernels; 0 unless measured.
    pub refill: f32,
    /// Nanoseconds per step of a padding block that every message of a group shares (messages
    /// a whole number of blocks long, 64-byte Merkle nodes say): the lane kernel's constant
    /// entry runs its rounds from a schedule expanded once per batch. `step` unless measured.
    pub padding: f32,
    /// Nanoseconds per message exactly one block long (64-byte Merkle nodes): one by one
    /// through a single-message kernel's entry for such messages (two side by side where two
    /// come in a row), or on a lane kernel in full groups beyond its set-up (their padding
    /// block through its constant entry). 0 where the kernel has no such entry or it is not
    /// measured: such messages then cost what the other parts say.
    pub one_block: f32,
    /// Nanoseconds per use in a batch of messages exactly one block long, which a lane kernel
    /// runs in groups of its own (no lane tails to set up): its set-up there. 0 on a
    /// single-message kernel.
    pub one_block_setup: f32,
}

impl Cost {
    /// A cost of `setup` nanoseconds per use, `call` per call and `step` per step, nothing per
    /// message.
    pub const fn new(setup: f32, call: f32, step: f32) -> Self {
        Self {
            setup,
            group: 0.0,
            call,
            step,
            message: 0.0,
            ragged: 0.0,
            refill: 0.0,
            padding: step,
            one_block: 0.0,
            one_block_setup: 0.0,
        }
    }

    /// This cost with `message` nanoseconds per message, run either way (a part for slots of
    /// their own set after this, [`Cost::per_ragged_message`], replaces it for those).
    pub const fn per_message(self, message: f32) -> Self {
        Self {
            message,
            ragged: message,
            ..self
        }
    }

    /// This cost with `group` nanoseconds per group of messages run side by side.
    pub const fn per_group(self, group: f32) -> Self {
        Self { group, ..self }
    }

    /// This cost with `ragged` nanoseconds per message run in a slot of its own.
    pub const fn per_ragged_message(self, ragged: f32) -> Self {
        Self { ragged, ..self }
    }

    /// This cost with `refill` nanoseconds more per message of a batch of differing lengths.
    pub const fn per_refill(self, refill: f32) -> Self {
        Self { refill, ..self }
    }

    /// This cost with `padding` nanoseconds per step of a shared padding block.
    pub const fn per_padding_step(self, padding: f32) -> Self {
        Self { padding, ..self }
    }

    /// This cost with `one_block` nanoseconds per message exactly one block long.
    pub const fn per_one_block_message(self, one_block: f32) -> Self {
        Self { one_block, ..self }
    }

    /// This cost with `one_block_setup` nanoseconds per use in a batch of one-block messages.
    pub const fn with_one_block_setup(self, one_block_setup: f32) -> Self {
        Self {
            one_block_setup,
            ..self
        }
    }

    /// The predicted time of `count` messages exactly one block long on a lane kernel of
    /// `lanes` lanes of this cost (groups of its own, the last one filled up), if it was
    /// measured.
    #[inline]
    pub fn one_block_lanes_time(self, lanes: usize, count: usize) -> Option<f32> {
        (self.one_block > 0.0).then(|| {
            let groups = count.div_ceil(lanes);
            self.one_block_setup + self.one_block * (groups * lanes) as f32
        })
    }

    /// The predicted time of `count` messages one by one on a single-message kernel, `calls`
    /// calls running `steps` steps in all; with `one_block_each` (every message exactly one
    /// block long), at the rate of the kernel's entry for such messages where it has one.
    #[inline]
    pub fn one_by_one_time(
        self,
        calls: usize,
        steps: usize,
        count: usize,
        one_block_each: bool,
    ) -> f32 {
        if one_block_each && self.one_block > 0.0 {
            self.setup + self.one_block * count as f32
        } else {
            self.time(calls, steps, count, 0)
        }
    }

    /// The predicted time of one use of `calls` calls that run `steps` steps in all for
    /// `grouped` messages in full groups of equal lengths and `ragged` in slots of their own.
    #[inline]
    pub fn time(self, calls: usize, steps: usize, grouped: usize, ragged: usize) -> f32 {
        self.setup
            + self.call * calls as f32
            + self.step * steps as f32
            + self.message * grouped as f32
            + self.ragged * ragged as f32
    }

    /// The predicted time of one use of `groups` groups, `calls` calls that run `steps` steps
    /// in all for `grouped` messages in groups and `ragged` in slots of their own.
    #[inline]
    pub fn grouped_time(
        self,
        groups: usize,
        calls: usize,
        steps: usize,
        grouped: usize,
        ragged: usize,
    ) -> f32 {
        self.time(calls, steps, grouped, ragged) + self.group * groups as f32
    }

    /// The predicted time of one use of `calls` calls that run `steps` steps in all for
    /// `count` messages of differing lengths, each in a slot of its own, refilling the lanes.
    #[inline]
    pub fn refilled_time(self, calls: usize, steps: usize, count: usize) -> f32 {
        self.time(calls, steps, 0, count) + self.refill * count as f32
    }

    /// Nanoseconds per block with every lane of a `lanes`-lane kernel occupied (calls not
    /// counted): how fast the kernel is on long messages.
    pub fn per_block(self, lanes: usize) -> f32 {
        self.step / lanes as f32
    }
}

impl core::fmt::Display for Cost {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:.0} ns/use + ", self.setup)?;
        if self.group != 0.0 {
            write!(f, "{:.0} ns/group + ", self.group)?;
        }
        write!(f, "{:.0} ns/call + {:.1} ns/step", self.call, self.step)?;
        if self.message == self.ragged && self.message != 0.0 {
            // (A single-message kernel's part is below zero where messages overlap.)
            let sign = if self.message < 0.0 { '-' } else { '+' };
            write!(f, " {sign} {:.0} ns/message", self.message.abs())?;
        } else if self.message != 0.0 || self.ragged != 0.0 {
            write!(
                f,
                " + {:.0} ns/message ({:.0} alone in a slot)",
                self.message, self.ragged
            )?;
        }
        if self.refill != 0.0 {
            write!(f, " (+{:.0} ns a message refilling the lanes)", self.refill)?;
        }
        if self.padding != self.step {
            write!(f, " (a shared padding block {:.1} ns/step)", self.padding)?;
        }
        if self.one_block != 0.0 && self.one_block_setup != 0.0 {
            write!(
                f,
                " (one-block messages: {:.0} ns/use + {:.1} ns each)",
                self.one_block_setup, self.one_block
            )?;
        } else if self.one_block != 0.0 {
            write!(f, " (a one-block message {:.0} ns)", self.one_block)?;
        }
        Ok(())
    }
}
