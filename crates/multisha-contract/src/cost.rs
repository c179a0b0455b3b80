//! What a kernel declares about its speed: a static estimate of its cost, which the batch
//! planner uses until (or instead of, where measuring is off) costs measured on the running CPU.

/// The cost of running a kernel, in nanoseconds: a fixed set-up each time a batch starts using
/// it (a lane kernel's buffers, their wipe; nothing for a single-message kernel), a part per
/// call (loading, transposing and storing the states, padding the tails, writing the
/// digests), and a part per step. A step advances every lane of the kernel by one block,
/// occupied or not; for a single-message kernel it is one block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// Nanoseconds per use in a batch.
    pub setup: f32,
    /// Nanoseconds per call.
    pub call: f32,
    /// Nanoseconds per step.
    pub step: f32,
}

impl Cost {
    /// A cost of `setup` nanoseconds per use, `call` per call and `step` per step.
    pub const fn new(setup: f32, call: f32, step: f32) -> Self {
        Self { setup, call, step }
    }

    /// The predicted time of one use of `calls` calls that run `steps` steps in all.
    #[inline]
    pub fn time(self, calls: usize, steps: usize) -> f32 {
        self.setup + self.call * calls as f32 + self.step * steps as f32
    }

    /// Nanoseconds per block with every lane of a `lanes`-lane kernel occupied (calls not
    /// counted): how fast the kernel is on long messages.
    pub fn per_block(self, lanes: usize) -> f32 {
        self.step / lanes as f32
    }
}

impl core::fmt::Display for Cost {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{:.0} ns/use + {:.0} ns/call + {:.1} ns/step",
            self.setup, self.call, self.step
        )
    }
}
