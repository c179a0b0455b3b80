//! A plan: which kernel runs which of a batch's messages, in stages, with its predicted time.

use core::fmt;

/// What runs a stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runner {
    /// The single-message kernel, one message after the other.
    OneByOne,
    /// Lane kernel `k` of the [`Costs`](crate::Costs).
    Lanes(usize),
}

/// One stage of a plan: `count` messages (the next ones in start order) on `runner`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stage {
    /// What runs the stage's messages.
    pub runner: Runner,
    /// How many messages.
    pub count: usize,
}

/// At most this many stages: the bulk, the last messages, and a last few one by one.
pub const MAX_STAGES: usize = 3;

/// A plan: its stages in order and its predicted time in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plan {
    stages: [Stage; MAX_STAGES],
    len: usize,
    /// Predicted nanoseconds.
    pub predicted: f32,
}

impl Plan {
    /// A stage of no message: what fills the unused places of a plan.
    pub const EMPTY_STAGE: Stage = Stage {
        runner: Runner::OneByOne,
        count: 0,
    };

    /// Whether every stage runs one by one (no lane kernel).
    #[inline]
    pub fn is_one_by_one(&self) -> bool {
        self.stages().all(|stage| stage.runner == Runner::OneByOne)
    }

    /// One stage: all `count` messages on `runner`.
    #[inline]
    pub const fn all_on(runner: Runner, count: usize, predicted: f32) -> Self {
        let mut stages = [Self::EMPTY_STAGE; MAX_STAGES];
        stages[0] = Stage { runner, count };
        Self {
            stages,
            len: 1,
            predicted,
        }
    }

    /// A plan of `stages[..len]`.
    pub const fn of_stages(stages: [Stage; MAX_STAGES], len: usize, predicted: f32) -> Self {
        Self {
            stages,
            len,
            predicted,
        }
    }

    /// The stages, in order (those of no message left out).
    #[inline]
    pub fn stages(&self) -> impl Iterator<Item = Stage> + '_ {
        self.stages[..self.len]
            .iter()
            .copied()
            .filter(|s| s.count > 0)
    }

    /// This plan with `stage` appended.
    pub fn then(mut self, stage: Stage, predicted: f32) -> Self {
        self.stages[self.len] = stage;
        self.len += 1;
        self.predicted += predicted;
        self
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, stage) in self.stages().enumerate() {
            if i > 0 {
                f.write_str(", then ")?;
            }
            match stage.runner {
                Runner::OneByOne => write!(f, "{} one by one", stage.count)?,
                Runner::Lanes(k) => write!(f, "{} on lane kernel {k}", stage.count)?,
            }
        }
        write!(f, " (predicted {:.0} ns)", self.predicted)
    }
}
