//! A kernel declares its variant where it is defined: name, required CPU features,
//! description, where its schedule lives, and the function. [`declare_variant!`] takes the
//! features once and emits both the `#[target_feature]` attributes of the function and the
//! declared requirements, so the two cannot disagree.
//!
//! [`declare_variant!`]: crate::declare_variant

use crate::{
    Compression, ConstantFn, Cost, CpuFeatures, IterateFn, KernelFn, LanesFn, LanesIterateFn,
    OneBlockFn,
};
use core::fmt;

/// Where a variant keeps its message schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schedule {
    /// In the caller's workspace, wiped once per update call.
    Workspace,
    /// In the lane workspace of a batch (a many-message kernel), wiped once per batch call.
    LaneWorkspace,
    /// In vector registers only; the workspace is untouched.
    Registers,
    /// In a buffer on the kernel's own stack, which the kernel wipes once per call.
    KernelStack,
    /// Wherever the single-message variant it runs keeps it (the serial many-message
    /// variant).
    Delegated,
}

impl Schedule {
    /// A few words for tables.
    pub const fn describe(self) -> &'static str {
        match self {
            Schedule::Workspace => "caller's workspace",
            Schedule::LaneWorkspace => "lane workspace",
            Schedule::Registers => "registers",
            Schedule::KernelStack => "kernel's stack",
            Schedule::Delegated => "single-message variant's",
        }
    }
}

/// The function of a variant.
pub enum Kernel<A: Compression> {
    /// Compresses one message's blocks at a time, and runs the PBKDF2 loop.
    Single(SingleKernel<A>),
    /// Compresses several messages at once, one per lane.
    Lanes(LaneKernel<A>),
    /// Hashes many messages one after the other with the dispatched single-message kernel:
    /// the portable variant of the many-message interface.
    Serial,
}

/// A single-message kernel's two entries.
pub struct SingleKernel<A: Compression> {
    /// Compresses blocks into a state.
    pub compress: KernelFn<A>,
    /// The PBKDF2-HMAC inner loop: the kernel's own, or the portable one over `compress`
    /// ([`iterate_with`](crate::iterate_with)).
    pub iterate: IterateFn<A>,
    /// Whole messages of exactly one block, if the kernel has an entry for them
    /// ([`OneBlockFn`]).
    pub one_block: Option<OneBlockFn<A>>,
    /// Another shape of the `one_block` entry (the same function, its work laid out another
    /// way) for CPUs where that one is faster: the batch calibration times both on the running
    /// CPU and installs the faster; `one_block` until then.
    pub one_block_alternative: Option<OneBlockFn<A>>,
}

impl<A: Compression> Clone for SingleKernel<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: Compression> Copy for SingleKernel<A> {}

impl<A: Compression> fmt::Debug for SingleKernel<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SingleKernel({:#x}, iterate at {:#x})",
            self.compress as usize, self.iterate as usize
        )
    }
}

/// A multi-lane kernel: its width and its two entries.
pub struct LaneKernel<A: Compression> {
    /// How many messages it compresses at once.
    pub lanes: usize,
    /// Compresses message blocks, the same number on every lane.
    pub compress: LanesFn<A>,
    /// Compresses one block of a given schedule on every lane.
    pub constant: ConstantFn<A>,
    /// The PBKDF2 loop for one chain per lane, if the kernel has one.
    pub iterate: Option<LanesIterateFn<A>>,
}

impl<A: Compression> Clone for LaneKernel<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: Compression> Copy for LaneKernel<A> {}

impl<A: Compression> fmt::Debug for LaneKernel<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LaneKernel({} lanes at {:#x})",
            self.lanes, self.compress as usize
        )
    }
}

impl<A: Compression> Clone for Kernel<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: Compression> Copy for Kernel<A> {}

impl<A: Compression> fmt::Debug for Kernel<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kernel::Single(_) => write!(f, "Single({:#x})", self.address()),
            Kernel::Lanes(k) => write!(f, "Lanes({} at {:#x})", k.lanes, self.address()),
            Kernel::Serial => f.write_str("Serial"),
        }
    }
}

impl<A: Compression> Kernel<A> {
    /// The address of the (main) function, to find the kernel in a symbol table; 0 for
    /// [`Kernel::Serial`], which has none of its own.
    pub fn address(&self) -> usize {
        match *self {
            Kernel::Single(k) => k.compress as usize,
            Kernel::Lanes(k) => k.compress as usize,
            Kernel::Serial => 0,
        }
    }

    /// How many messages it hashes at once (1 for single-message kernels and `Serial`).
    pub fn lanes(&self) -> usize {
        match self {
            Kernel::Lanes(k) => k.lanes,
            Kernel::Single(_) | Kernel::Serial => 1,
        }
    }

    /// Whether it serves the many-message interface (`Lanes` or `Serial`).
    pub fn is_many(&self) -> bool {
        !matches!(self, Kernel::Single(_))
    }
}

/// One variant of compression function `A`, as its kernel crate declares it.
pub struct Declaration<A: Compression> {
    /// The public name (`"shani"`), unique among the variants of `A`.
    pub name: &'static str,
    /// The CPU features the kernel needs (empty for portable kernels).
    pub requires: CpuFeatures,
    /// One line on how it works.
    pub description: &'static str,
    /// Where it keeps the message schedule.
    pub schedule: Schedule,
    /// The estimated cost of its calls in nanoseconds, which the batch planner uses until it
    /// has measured the kernel on the running CPU (and always without the `std` feature or with
    /// `MULTISHA_CALIBRATE=0`): for x86-64 kernels the calibration's fit on the machine they
    /// were tuned on, an Intel Sapphire Rapids VM; zero for `serial`, which runs the
    /// single-message kernel's calls.
    pub cost: Cost,
    /// The function.
    pub kernel: Kernel<A>,
}

impl<A: Compression> fmt::Debug for Declaration<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Declaration")
            .field("algorithm", &A::ID)
            .field("name", &self.name)
            .field("requires", &self.requires)
            .field("schedule", &self.schedule)
            .finish_non_exhaustive()
    }
}

/// Declares a variant and defines its kernel from one list of CPU features.
///
/// A portable kernel (no feature) in full, and how the engine calls it:
///
/// ```
/// use multisha_contract::ops::{add_into, load_be};
/// use multisha_contract::{SHA256_IV, Sha2, Sha256Compression, Sha256Workspace, WorkspaceBuffer};
/// use multisha_contract::oneshot;
///
/// multisha_contract::declare_variant! {
///     /// SHA-256, one round per loop iteration.
///     pub static VARIANT: Sha256Compression = {
///         name: "example",
///         description: "one round per loop iteration over a 64-word schedule",
///         schedule: Workspace,
///         requires: [],
///         cost: { call: 2.0, step: 183.0, message: 12.0 },
///     };
///     /// Compresses `blocks` into `state`, expanding each block's schedule into `w[..64]`.
///     #[inline(never)]
///     pub fn compress(state: &mut [u32; 8], blocks: &[[u8; 64]], w: &mut Sha256Workspace) {
///         type A = Sha256Compression;
///         let w = &mut w.words_mut()[..64];
///         for block in blocks {
///             load_be(block, &mut w[..16]);
///             for t in 16..64 {
///                 A::expand(w, t);
///             }
///             let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
///             for t in 0..64 {
///                 let t1 = h
///                     .wrapping_add(A::big_sigma1(e))
///                     .wrapping_add(A::ch(e, f, g))
///                     .wrapping_add(A::K[t])
///                     .wrapping_add(w[t]);
///                 let t2 = A::big_sigma0(a).wrapping_add(A::maj(a, b, c));
///                 (h, g, f, e) = (g, f, e, d.wrapping_add(t1));
///                 (d, c, b, a) = (c, b, a, t1.wrapping_add(t2));
///             }
///             add_into(state, [a, b, c, d, e, f, g, h]);
///         }
///     }
/// }
///
/// assert!(VARIANT.requires.is_empty());
/// assert_eq!(VARIANT.kernel.address(), compress as usize);
/// let mut digest = [0u8; 32];
/// // SAFETY: a portable kernel runs on every CPU.
/// unsafe { oneshot::<Sha256Compression>(compress, SHA256_IV, b"abc", &mut digest) };
/// let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
/// // FIPS 180-4's example.
/// assert_eq!(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
/// ```
///
/// A SIMD kernel lists its features instead (`requires: ["sha", "sse2", "ssse3", "sse4.1"]`)
/// and is called only where [`CpuFeatures::detect`] contains its [`Declaration::requires`].
///
/// The function is emitted as an `unsafe fn` with one `#[target_feature(enable = ...)]` per
/// listed feature and a `# Safety` section naming them; the static records the same names as
/// [`CpuFeatures`] (an unknown name is a compile error). A portable kernel lists no feature.
///
/// `cost` is the kernel's estimated [`Cost`](crate::Cost), the planner's prior until it
/// measures the kernel on the running CPU: nanoseconds per call, per step and per message
/// (setting up its state, padding its tail, writing its digest),
/// `cost: { call: C, step: P, message: M }` (a kernel with an entry for one-block messages
/// adds its nanoseconds per such message, `one_block: B`); a multi-lane kernel also declares
/// its set-up per use in a batch and its part per message both in a full group and in a slot
/// of its own, `cost: { setup: S, call: C, step: P, message: M, ragged: R }`.
///
/// A multi-lane kernel adds `lanes: N,` after `requires` (before `cost`) and defines two
/// functions, the [`LanesFn`] and then the [`ConstantFn`]; both get the attributes. It may
/// define a third, its [`LanesIterateFn`] (the PBKDF2 loop of one chain per lane).
///
/// A single-message kernel may define an entry for messages of one block (a [`OneBlockFn`]),
/// as the last field of the declaration (`one_block: fn name(...) {...}`), optionally
/// followed by another shape of it (`one_block_alternative: fn name(...) {...}`, see
/// [`SingleKernel::one_block_alternative`]), and, after its
/// kernel, its own [`IterateFn`] (the PBKDF2 loop); both get the attributes. Without the
/// latter the declaration gets the portable loop over the kernel
/// ([`iterate_with`](crate::iterate_with)).
#[macro_export]
macro_rules! declare_variant {
    (
        $(#[$static_meta:meta])*
        $static_vis:vis static $static:ident: $alg:ty = {
            name: $name:literal,
            description: $description:expr,
            schedule: $schedule:ident,
            requires: [$($feature:literal),* $(,)?],
            lanes: $lanes:literal,
            cost: {
                setup: $setup:literal, call: $call:literal, step: $step:literal,
                message: $message:literal, ragged: $ragged:literal $(,)?
            } $(,)?
        };
        $(#[$fn_meta:meta])*
        $fn_vis:vis fn $kernel:ident($($args:tt)*) $body:block
        $(#[$const_meta:meta])*
        $const_vis:vis fn $constant:ident($($const_args:tt)*) $const_body:block
        $(
            $(#[$iter_meta:meta])*
            $iter_vis:vis fn $iterate:ident($($iter_args:tt)*) $iter_body:block
        )?
    ) => {
        $(#[$static_meta])*
        $static_vis static $static: $crate::Declaration<$alg> = $crate::Declaration {
            name: $name,
            requires: $crate::CpuFeatures::from_names(&[$($feature),*]),
            description: $description,
            schedule: $crate::Schedule::$schedule,
            cost: $crate::Cost::new($setup, $call, $step)
                .per_message($message)
                .per_ragged_message($ragged),
            kernel: $crate::Kernel::Lanes($crate::LaneKernel {
                lanes: {
                    const {
                        assert!(
                            $lanes <= <$alg as $crate::Compression>::WIDEST_LANES
                                && <$alg as $crate::Compression>::WIDEST_LANES
                                    <= $crate::MAX_LANES,
                            "a lane kernel wider than its compression function's WIDEST_LANES"
                        )
                    };
                    $lanes
                },
                compress: $kernel,
                constant: $constant,
                iterate: $crate::__optional_entry!($($iterate)?),
            }),
        };

        $crate::__kernel_fn! {
            [$($feature),*] $(#[$fn_meta])* $fn_vis fn $kernel($($args)*) $body
        }
        $crate::__kernel_fn! {
            [$($feature),*]
            $(#[$const_meta])* $const_vis fn $constant($($const_args)*) $const_body
        }
        $crate::__kernel_fn! {
            [$($feature),*]
            $($(#[$iter_meta])* $iter_vis fn $iterate($($iter_args)*) $iter_body)?
        }
    };
    (
        $(#[$static_meta:meta])*
        $static_vis:vis static $static:ident: $alg:ty = {
            name: $name:literal,
            description: $description:expr,
            schedule: $schedule:ident,
            requires: [$($feature:literal),* $(,)?],
            cost: {
                call: $call:literal, step: $step:literal, message: $message:literal
                $(, one_block: $one_block_cost:literal)? $(,)?
            } $(,)?
            $(
                one_block:
                $(#[$one_meta:meta])*
                $one_vis:vis fn $one_block:ident($($one_args:tt)*) $one_body:block $(,)?
                $(
                    one_block_alternative:
                    $(#[$alt_meta:meta])*
                    $alt_vis:vis fn $alt:ident($($alt_args:tt)*) $alt_body:block $(,)?
                )?
            )?
        };
        $(#[$fn_meta:meta])*
        $fn_vis:vis fn $kernel:ident($($args:tt)*) $body:block
        $(
            $(#[$iter_meta:meta])*
            $iter_vis:vis fn $iterate:ident($($iter_args:tt)*) $iter_body:block
        )?
    ) => {
        $(#[$static_meta])*
        $static_vis static $static: $crate::Declaration<$alg> = $crate::Declaration {
            name: $name,
            requires: $crate::CpuFeatures::from_names(&[$($feature),*]),
            description: $description,
            schedule: $crate::Schedule::$schedule,
            cost: $crate::Cost::new(0.0, $call, $step)
                .per_message($message)
                $(.per_one_block_message($one_block_cost))?,
            kernel: $crate::Kernel::Single($crate::SingleKernel {
                compress: $kernel,
                iterate: $crate::__single_iterate!([$($feature),*] $alg, $kernel $(, $iterate)?),
                one_block: $crate::__optional_entry!($($one_block)?),
                one_block_alternative: $crate::__optional_entry!($($($alt)?)?),
            }),
        };

        $crate::__kernel_fn! {
            [$($feature),*] $(#[$fn_meta])* $fn_vis fn $kernel($($args)*) $body
        }
        $crate::__kernel_fn! {
            [$($feature),*]
            $($(#[$one_meta])* $one_vis fn $one_block($($one_args)*) $one_body)?
        }
        $crate::__kernel_fn! {
            [$($feature),*]
            $($($(#[$alt_meta])* $alt_vis fn $alt($($alt_args)*) $alt_body)?)?
        }
        $crate::__kernel_fn! {
            [$($feature),*]
            $($(#[$iter_meta])* $iter_vis fn $iterate($($iter_args)*) $iter_body)?
        }
    };
}

/// One function of a declared kernel (or none): `unsafe`, with one `#[target_feature]` per
/// feature and a `# Safety` section naming them.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_fn {
    ([$($feature:literal),*]) => {};
    (
        [$($feature:literal),*]
        $(#[$meta:meta])* $vis:vis fn $name:ident($($args:tt)*) $body:block
    ) => {
        $(#[$meta])*
        ///
        /// # Safety
        #[doc = $crate::__safety_doc!($($feature),*)]
        $(#[target_feature(enable = $feature)])*
        $vis unsafe fn $name($($args)*) $body
    };
}

/// An optional entry of a kernel (a lane kernel's PBKDF2 loop, a single-message kernel's
/// entry for one-block messages): the one it defines, or none.
#[doc(hidden)]
#[macro_export]
macro_rules! __optional_entry {
    () => {
        None
    };
    ($iterate:ident) => {
        Some($iterate)
    };
}

/// A single-message kernel's PBKDF2 entry: the one it defines, or the portable loop over it.
#[doc(hidden)]
#[macro_export]
macro_rules! __single_iterate {
    ([$($feature:literal),*] $alg:ty, $kernel:ident, $iterate:ident) => {
        $iterate
    };
    ([$($feature:literal),*] $alg:ty, $kernel:ident) => {{
        // The portable loop over this kernel, with the kernel's features so the kernel may
        // be inlined into it.
        $(#[target_feature(enable = $feature)])*
        unsafe fn iterate(
            keys: &$crate::HmacKeys<$alg>,
            u: &mut $crate::State<$alg>,
            t: &mut $crate::State<$alg>,
            digest_len: usize,
            count: u32,
        ) {
            // SAFETY: this function has the kernel's features, so its caller made sure the
            // CPU runs the kernel.
            unsafe { $crate::iterate_with::<$alg>($kernel, keys, u, t, digest_len, count) }
        }
        iterate
    }};
}

/// The `# Safety` text of a declared kernel.
#[doc(hidden)]
#[macro_export]
macro_rules! __safety_doc {
    () => {
        "Portable: runs on every CPU (`unsafe` only to share the kernel signature)."
    };
    ($($feature:literal),+) => {
        concat!(
            "The CPU must support",
            $(" `", $feature, "`",)+
            " (the dispatcher checks the declared requirements before installing it)."
        )
    };
}
