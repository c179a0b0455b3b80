//! What a kernel declares about its speed: a static estimate of its cost, which the batch
//! planner uses until (or instead of, where measuring is off) costs measured on the running CPU.

/// The cost of running a kernel, in nanoseconds: a fixed set-up each time a batch starts using
/// it (a lane kernel's buffers, their wipe; nothing for a single-message kernel), a part per
/// call (loading, transposing and storing the states), a part per step, and a part per
/// message a lane kernel takes (filling its lane, padding its tail, writing its digest; for a
/// single-message kernel its calls cover that, so zero). A step advances every lane of the
/// kernel by one block, occupied or not; for a single-message kernel it is one block.
///
/// The part per message is what makes a wide kernel with few lanes filled cheaper than with
/// all of them: a model without it, fitted with the lanes full, overcharges such a batch.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Cost {
    /// Nanoseconds per use in a batch.
    pub setup: f32,
    /// Nanoseconds per call.
    pub call: f32,
    /// Nanoseconds per step.
    pub step: f32,
    /// Nanoseconds per message (lane kernels).
    pub message: f32,
}

impl Cost {
    /// A cost of `setup` nanoseconds per use, `call` per call and `step` per step, nothing per
    /// message.
    pub const fn new(setup: f32, call: f32, step: f32) -> Self {
        Self {
            setup,
            call,
            step,
            message: 0.0,
        }
    }

    /// This cost with `message` nanoseconds per message.
    pub const fn per_message(self, message: f32) -> Self {
        Self { message, ..self }
    }

    /// The predicted time of one use of `calls` calls that run `steps` steps in all for
    /// `messages` messages.
    #[inline]
    pub fn time(self, calls: usize, steps: usize, messages: usize) -> f32 {
        self.setup
            + self.call * calls as f32
            + self.step * steps as f32
            + self.message * messages as f32
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
        )?;
        if self.message != 0.0 {
            write!(f, " + {:.0} ns/message", self.message)?;
        }
        Ok(())
    }
}
