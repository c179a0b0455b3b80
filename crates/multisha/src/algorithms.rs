//! The algorithms the engine carries, each in one entry of the `algorithms!` invocation at
//! the end of this file: its descriptor, its variants in priority order, and its hash
//! functions (hasher, one-shot function, OID). Everything else in the crate is generic over
//! the descriptor; adding an algorithm or a variant is an edit here.
//!
//! The order of each variant list *is* the default priority: the dispatcher installs the first
//! variant whose required features the CPU has. Portable variants come last and require
//! nothing, so every CPU gets one. A variant marked `ahead on "<trait>"` goes first on CPUs with
//! that trait (a vendor whose measured or published ranking differs). `cargo xtask report`
//! measures the order on any machine.

use crate::dispatch::{Keyed, Slot};
use crate::engine::dispatcher::Dispatch;
use crate::engine::{Function, FunctionInfo};
use crate::hash_function::Registered;
use crate::hash_function::{HashFunction, Sealed};
use crate::registry::{Algorithm, AlgorithmInfo, Error, Interface, Listing, Variant};
use multisha_contract::{
    BlockBytes, Compression, Cost, CpuFeatures, Declaration, Kernel, OutputSpec, Schedule, State,
};

/// Generates, per algorithm: its [`Algorithm`] constant, its registry (variants in priority
/// order, variants of other architectures by name), its dispatcher slot, and per hash
/// function the `digest` hasher, its [`HashFunction`] impl and the one-shot function.
macro_rules! algorithms {
    (@arch $arch:literal) => { Some($arch) };
    (@arch) => { None };
    (@first $first:ident $(, $rest:ident)*) => { $first };
    ($(
        $(#[$alg_doc:meta])*
        $alg:ident in $module:ident: $compression:ty, block $block_size:ident, variants [
            $($variant:literal $(on $arch:literal)? => $declaration:path,)*
        ], many [
            $($many_variant:literal $(on $many_arch:literal)? => $many_declaration:path,)*
        ], functions [$(
            $(#[$fn_doc:meta])*
            $hasher:ident, $oneshot:ident, $many:ident: output $output:literal ($len:literal bytes, $out_size:ident),
                state $state_size:ident, oid $oid:literal, algorithm name $alg_name:literal;
        )*];
    )*) => {
        #[allow(non_upper_case_globals)]
        impl Algorithm {
            $(
                $(#[$alg_doc])*
                pub const $alg: Algorithm = Algorithm(&$module::INFO);
            )*
            /// Every algorithm, in a fixed order.
            pub const ALL: &'static [Algorithm] = &[$(Algorithm(&$module::INFO)),*];
        }

        impl Function {
            /// Every hash function, in a fixed order.
            pub const ALL: &'static [Function] = &[$($(
                Function(&<$hasher as FunctionStatic>::INFO),
            )*)*];
        }

        /// The typed dispatcher of `algorithm` (its slot), behind the run-time API's
        /// interface.
        pub(crate) fn dispatcher(algorithm: Algorithm) -> &'static dyn Dispatch {
            $(
                if algorithm == Algorithm::$alg {
                    return &$module::SLOT;
                }
            )*
            unreachable!("every Algorithm is one of the registry's")
        }

        /// Calls the visitor once per algorithm and once per hash function (tests).
        #[cfg(test)]
        pub(crate) fn visit<V: crate::tests::Visitor>(visitor: &mut V) {
            $(
                visitor.algorithm::<$compression>();
                $(visitor.function::<$hasher>();)*
            )*
        }

        $(
            mod $module {
                use super::*;

                pub(crate) static SLOT: Slot<$compression> = Slot::new();

                /// The portable many-message variant: each message through the dispatched
                /// single-message variant.
                static SERIAL: Declaration<$compression> = Declaration {
                    name: "serial",
                    requires: CpuFeatures::none(),
                    description: "each message through the dispatched single-message variant (portable)",
                    schedule: Schedule::Delegated,
                    cost: Cost::new(0.0, 0.0, 0.0),
                    kernel: Kernel::Serial,
                };

                static VARIANTS: &[Variant] = &[
                    $(
                        $(#[cfg(target_arch = $arch)])?
                        Variant::new(Algorithm(&INFO), &$declaration),
                    )*
                    $(
                        $(#[cfg(target_arch = $many_arch)])?
                        Variant::new(Algorithm(&INFO), &$many_declaration),
                    )*
                    Variant::new(Algorithm(&INFO), &SERIAL),
                ];

                pub(crate) static INFO: AlgorithmInfo = AlgorithmInfo {
                    id: <$compression as Compression>::ID,
                    name: <$compression as Compression>::NAME,
                    env_var: <$compression as Compression>::ENV_VAR,
                    env_var_many: <$compression as Compression>::ENV_VAR_MANY,
                    block_len: <<$compression as Compression>::Block as BlockBytes>::LEN,
                    variants: &VARIANTS,
                    names: &[
                        $(Listing {
                            name: $variant,
                            arch: algorithms!(@arch $($arch)?),
                            interface: Interface::Single,
                        },)*
                        $(Listing {
                            name: $many_variant,
                            arch: algorithms!(@arch $($many_arch)?),
                            interface: Interface::Many,
                        },)*
                        Listing {
                            name: "serial",
                            arch: None,
                            interface: Interface::Many,
                        },
                    ],
                };

                // The names written here for other architectures' sake are the declared ones.
                $(
                    $(#[cfg(target_arch = $arch)])?
                    const _: () = assert!(
                        multisha_contract::str_eq($variant, $declaration.name),
                        "the registry names a variant unlike its declaration"
                    );
                )*
                $(
                    $(#[cfg(target_arch = $many_arch)])?
                    const _: () = assert!(
                        multisha_contract::str_eq($many_variant, $many_declaration.name),
                        "the registry names a variant unlike its declaration"
                    );
                )*
            }

            impl Registered for $compression {
                type Main = algorithms!(@first $($hasher),*);
            }

            impl Keyed for $compression {
                type BlockSize = digest::consts::$block_size;
                const ALGORITHM: Algorithm = Algorithm(&$module::INFO);
                fn slot() -> &'static Slot<Self> {
                    &$module::SLOT
                }
                fn core_blocks(
                    blocks: &[digest::array::Array<u8, Self::BlockSize>],
                ) -> &[Self::Block] {
                    digest::array::Array::cast_slice_to_core(blocks)
                }
            }

            $(
                crate::streaming::hasher!(
                    $(#[$fn_doc])*
                    ///
                    /// It runs the dispatched variant of its algorithm (see
                    /// [`engine`](crate::engine)), or the one named to `with_variant`, which
                    /// stays pinned across `reset`. A hasher restored with
                    /// `SerializableState::deserialize` runs the dispatched variant: a
                    /// serialized state carries no variant.
                    $hasher, oid $oid
                );

                impl Sealed for $hasher {}

                impl FunctionStatic for $hasher {
                    const INFO: FunctionInfo = FunctionInfo::of::<$hasher>();
                }

                impl HashFunction for $hasher {
                    type Digest = [u8; $len];
                    type OutputSize = digest::consts::$out_size;
                    type SerializedStateSize = digest::consts::$state_size;
                    type Compression = $compression;
                    const ZERO: [u8; $len] = [0; $len];
                    const OUTPUT: OutputSpec<State<$compression>> =
                        <$compression as Compression>::OUTPUTS[$output];
                    const IV: &'static State<$compression> =
                        &<$compression as Compression>::OUTPUTS[$output].iv;
                    const ALGORITHM_NAME: &'static str = $alg_name;
                    fn with_variant(name: &str) -> Result<Self, Error> {
                        $hasher::with_variant(name)
                    }
                    #[inline]
                    fn oneshot(data: &[u8]) -> [u8; $len] {
                        crate::oneshot::dispatched::<$hasher>(data)
                    }
                    fn oneshot_many<M: AsRef<[u8]>>(messages: &[M], digests: &mut [[u8; $len]]) {
                        crate::batch::hash_many::<$hasher, _, _>(messages, digests);
                    }
                    #[inline(always)]
                    fn digest_in(slot: &mut [u8]) -> Option<&mut [u8; $len]> {
                        slot.try_into().ok()
                    }
                }

                const _: () = assert!(
                    <$hasher as HashFunction>::OUTPUT.len == $len,
                    "the registry's digest length differs from the descriptor's"
                );

                impl $hasher {
                    /// A hasher that runs the named variant instead of the dispatched one,
                    /// leaving the global choice alone. It stays pinned across `reset`.
                    ///
                    /// # Errors
                    /// An unknown name or a variant this CPU cannot run; the message lists
                    /// the available variants.
                    pub fn with_variant(name: &str) -> Result<Self, Error> {
                        let core = crate::block_api::HashCore::with_variant(name)?;
                        Ok(<Self as digest::block_api::CoreProxy>::compose(
                            core,
                            Default::default(),
                        ))
                    }

                    /// The variant this hasher runs.
                    pub fn variant(&self) -> &'static Variant {
                        self.0.core().variant()
                    }
                }

                #[doc = concat!("The ", stringify!($hasher), " digest of `data` with the dispatched variant.")]
                #[inline]
                pub fn $oneshot(data: &[u8]) -> [u8; $len] {
                    <$hasher as HashFunction>::oneshot(data)
                }

                #[doc = concat!("The ", stringify!($hasher), " digest of every message of `messages` into the")]
                #[doc = concat!("digest at the same index of `digests`, the same as [`", stringify!($oneshot), "`] of each, with the")]
                /// dispatched many-message variant: several messages at once on the CPU's
                /// multi-lane kernels where it has them. Any number of messages, any lengths;
                /// messages may alias each other. The messages are any byte containers:
                /// `&[&[u8]]`, `&Vec<Vec<u8>>`, arrays of arrays, `&[String]`, ... (a literal
                /// list of byte strings of different lengths needs its type written:
                /// `let m: [&[u8]; 2] = [b"a", b"bc"];`).
                ///
                /// # Panics
                /// If `messages` and `digests` differ in length (as `copy_from_slice` does).
                pub fn $many<M: AsRef<[u8]>>(messages: &[M], digests: &mut [[u8; $len]]) {
                    crate::batch::hash_many::<$hasher, _, _>(messages, digests);
                }
            )*
        )*
    };
}

/// The run-time description of a hasher's hash function.
trait FunctionStatic {
    const INFO: FunctionInfo;
}

algorithms! {
    /// SHA-1 (FIPS 180-4).
    Sha1 in sha1_registry: multisha_contract::Sha1Compression, block U64, variants [
        "shani" on "x86_64" => multisha_x86::sha1_shani::VARIANT,
        "armv8" on "aarch64" => multisha_armv8::sha1_armv8::VARIANT,
        "asm" on "x86_64" => multisha_x86::sha1_asm::VARIANT,
        "unroll5" => multisha_unrolled::sha1_unroll5::VARIANT,
        "rolled" => multisha_rolled::sha1_rolled::VARIANT,
    ], many [
        "avx512-x16" on "x86_64" => multisha_x86::sha1_avx512_x16::VARIANT,
        "avx512-x32" on "x86_64" => multisha_x86::sha1_avx512_x32::VARIANT,
        "shani-x4" on "x86_64" => multisha_x86::sha1_shani_x4::VARIANT,
        "avx2-x8" on "x86_64" => multisha_x86::sha1_avx2_x8::VARIANT,
        "shani-x2" on "x86_64" => multisha_x86::sha1_shani_x2::VARIANT,
        "armv8-x2" on "aarch64" => multisha_armv8::sha1_armv8_x2::VARIANT,
    ], functions [
        /// SHA-1 hasher, a drop-in for `sha1::Sha1` 0.11.
        Sha1, sha1, sha1_many: output 0 (20 bytes, U20), state U28, oid "1.3.14.3.2.26",
            algorithm name "Sha1";
    ];

    /// SHA-256, and SHA-224 from the same compression function (FIPS 180-4).
    Sha256 in sha256_registry: multisha_contract::Sha256Compression, block U64, variants [
        "shani-vex" on "x86_64" => multisha_x86::sha256_shani::vex::VARIANT,
        "shani" on "x86_64" => multisha_x86::sha256_shani::VARIANT,
        "armv8" on "aarch64" => multisha_armv8::sha256_armv8::VARIANT,
        "avx2" on "x86_64" => multisha_x86::sha256_avx2::VARIANT,
        "unroll8" => multisha_unrolled::sha256_unroll8::VARIANT,
        "unroll64" => multisha_full_unroll::sha256_unroll64::VARIANT,
        "rolled" => multisha_rolled::sha256_rolled::VARIANT,
    ], many [
        "avx512-x16" on "x86_64" => multisha_x86::sha256_avx512_x16::VARIANT,
        "avx512-x32" on "x86_64" => multisha_x86::sha256_avx512_x32::VARIANT,
        "shani-x4" on "x86_64" => multisha_x86::sha256_shani_x4::VARIANT,
        "shani-x2" on "x86_64" => multisha_x86::sha256_shani_x2::VARIANT,
        "avx2-x8" on "x86_64" => multisha_x86::sha256_avx2_x8::VARIANT,
        "armv8-x2" on "aarch64" => multisha_armv8::sha256_armv8_x2::VARIANT,
    ], functions [
        /// SHA-224 hasher, a drop-in for `sha2::Sha224` 0.11.
        Sha224, sha224, sha224_many: output 0 (28 bytes, U28), state U40, oid "2.16.840.1.101.3.4.2.4",
            algorithm name "Sha256_28";
        /// SHA-256 hasher, a drop-in for `sha2::Sha256` 0.11.
        Sha256, sha256, sha256_many: output 1 (32 bytes, U32), state U40, oid "2.16.840.1.101.3.4.2.1",
            algorithm name "Sha256_32";
    ];

    /// SHA-512, and SHA-384, SHA-512/224, SHA-512/256 from the same compression function
    /// (FIPS 180-4).
    Sha512 in sha512_registry: multisha_contract::Sha512Compression, block U128, variants [
        "armv8" on "aarch64" => multisha_armv8::sha512_armv8::VARIANT,
        "avx512" on "x86_64" => multisha_x86::sha512_avx512::VARIANT,
        "avx2" on "x86_64" => multisha_x86::sha512_avx2::VARIANT,
        "unroll8" => multisha_unrolled::sha512_unroll8::VARIANT,
        "rolled" => multisha_rolled::sha512_rolled::VARIANT,
    ], many [
        "avx512-x8" on "x86_64" => multisha_x86::sha512_avx512_x8::VARIANT,
        "avx512-x16" on "x86_64" => multisha_x86::sha512_avx512_x16::VARIANT,
        "avx2-x4" on "x86_64" => multisha_x86::sha512_avx2_x4::VARIANT,
        "armv8-x2" on "aarch64" => multisha_armv8::sha512_armv8_x2::VARIANT,
    ], functions [
        /// SHA-384 hasher, a drop-in for `sha2::Sha384` 0.11.
        Sha384, sha384, sha384_many: output 0 (48 bytes, U48), state U80, oid "2.16.840.1.101.3.4.2.2",
            algorithm name "Sha512_48";
        /// SHA-512 hasher, a drop-in for `sha2::Sha512` 0.11.
        Sha512, sha512, sha512_many: output 1 (64 bytes, U64), state U80, oid "2.16.840.1.101.3.4.2.3",
            algorithm name "Sha512_64";
        /// SHA-512/224 hasher, a drop-in for `sha2::Sha512_224` 0.11.
        Sha512_224, sha512_224, sha512_224_many: output 2 (28 bytes, U28), state U80, oid "2.16.840.1.101.3.4.2.5",
            algorithm name "Sha512_28";
        /// SHA-512/256 hasher, a drop-in for `sha2::Sha512_256` 0.11.
        Sha512_256, sha512_256, sha512_256_many: output 3 (32 bytes, U32), state U80, oid "2.16.840.1.101.3.4.2.6",
            algorithm name "Sha512_32";
    ];
}

/// SHA-256 of each 64-byte input into the digest at the same index (Merkle-tree interior
/// nodes: the two child digests side by side), the same as [`sha256`] of each: the batch path
/// for that shape, where every message is one block and its padding block is the same constant
/// whose schedule is expanded once per batch. One node (a step of a Merkle proof) goes straight
/// to the single-message kernel's entry for one-block messages, its digest written in place,
/// where the kernel has one and no many-message variant is pinned.
///
/// # Panics
/// If `nodes` and `digests` differ in length (as `copy_from_slice` does).
pub fn sha256_pairs(nodes: &[[u8; 64]], digests: &mut [[u8; 32]]) {
    if let ([node], [digest]) = (nodes, &mut *digests)
        && crate::batch::one_block_alone::<Sha256>(node, digest)
    {
        return;
    }
    crate::batch::hash_nodes::<Sha256, _, _>(nodes, digests);
}
