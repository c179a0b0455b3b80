//! PBKDF2-HMAC (RFC 8018): the derivations of issue 20 and every implementation the benchmarks
//! time against multisha's, behind one shape (password, salt, iterations, output), so the
//! report, the criterion bench and the `pbkdf2_peers` example iterate the same list. Every
//! measurement first checks that all contenders derive the same key.

use crate::Kind;
use crate::Output;
use crate::pbkdf2_multisha;
use crate::timing::{Stat, calibrate, time};
use multisha::HashFunction;
use multisha::digest::block_api::EagerHash;
use multisha::engine::Algorithm;
use std::cell::RefCell;
use std::fmt::{self, Write};
use std::num::NonZeroU32;

/// The hash functions every PBKDF2 peer offers (fastpbkdf2 has no others).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pbkdf2Hash {
    /// PBKDF2-HMAC-SHA1.
    Sha1,
    /// PBKDF2-HMAC-SHA256.
    Sha256,
    /// PBKDF2-HMAC-SHA512.
    Sha512,
}

impl Pbkdf2Hash {
    /// `SHA-256`.
    pub fn label(self) -> &'static str {
        match self {
            Pbkdf2Hash::Sha1 => "SHA-1",
            Pbkdf2Hash::Sha256 => "SHA-256",
            Pbkdf2Hash::Sha512 => "SHA-512",
        }
    }

    /// The compression function under it (what `--algo` selects).
    pub fn algorithm(self) -> Algorithm {
        match self {
            Pbkdf2Hash::Sha1 => Algorithm::Sha1,
            Pbkdf2Hash::Sha256 => Algorithm::Sha256,
            Pbkdf2Hash::Sha512 => Algorithm::Sha512,
        }
    }

    /// Bytes of one HMAC output, so of one PBKDF2 output block.
    pub fn digest_len(self) -> usize {
        match self {
            Pbkdf2Hash::Sha1 => 20,
            Pbkdf2Hash::Sha256 => 32,
            Pbkdf2Hash::Sha512 => 64,
        }
    }

    /// Bytes of one compression block.
    pub fn block_len(self) -> usize {
        match self {
            Pbkdf2Hash::Sha512 => 128,
            _ => 64,
        }
    }

    /// Compression blocks in a padded message of `len` bytes (0x80, then the length field of
    /// 8 or 16 bytes).
    pub fn blocks(self, len: usize) -> usize {
        let field = if self == Pbkdf2Hash::Sha512 { 16 } else { 8 };
        (len + 1 + field).div_ceil(self.block_len())
    }

    /// The digest of `data` through multisha's dispatched one-shot function.
    fn oneshot(self, data: &[u8]) -> Output {
        match self {
            Pbkdf2Hash::Sha1 => crate::contenders::pad(&multisha::Sha1::oneshot(data)),
            Pbkdf2Hash::Sha256 => crate::contenders::pad(&multisha::Sha256::oneshot(data)),
            Pbkdf2Hash::Sha512 => crate::contenders::pad(&multisha::Sha512::oneshot(data)),
        }
    }
}

/// One derivation the benchmarks time: the hash function, the iteration count and the output
/// length (outputs longer than a digest are several independent chains).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Derivation {
    /// The hash function under HMAC.
    pub hash: Pbkdf2Hash,
    /// The iteration count `c`.
    pub iterations: NonZeroU32,
    /// Bytes of derived key.
    pub out_len: usize,
    /// Where it is used, if the table should say (`WPA2`).
    pub usage: Option<&'static str>,
}

impl Derivation {
    const fn new(
        hash: Pbkdf2Hash,
        iterations: u32,
        out_len: usize,
        usage: Option<&'static str>,
    ) -> Self {
        let Some(iterations) = NonZeroU32::new(iterations) else {
            panic!("PBKDF2 needs at least one iteration");
        };
        Derivation {
            hash,
            iterations,
            out_len,
            usage,
        }
    }

    /// Independent HMAC chains (output blocks) the derivation runs.
    pub fn chains(&self) -> usize {
        self.out_len.div_ceil(self.hash.digest_len())
    }

    /// `SHA-256, 20,000 it, 32 B`.
    pub fn label(&self) -> String {
        let it = self.iterations.get();
        // Thousands separated from five digits on, as the issue writes them (4096, 20,000).
        let it = if it >= 10_000 {
            format!("{},{:03}", it / 1000, it % 1000)
        } else {
            it.to_string()
        };
        let usage = self.usage.map_or(String::new(), |u| format!(" ({u})"));
        format!("{}, {it} it, {} B{usage}", self.hash.label(), self.out_len)
    }

    /// `sha256-20000it-32B`: for criterion's benchmark names and JSON.
    pub fn id(&self) -> String {
        format!(
            "{}-{}it-{}B",
            self.hash.label().to_lowercase().replace('-', ""),
            self.iterations,
            self.out_len
        )
    }
}

/// The derivations of issue 20: server logins (PBKDF2-HMAC-SHA256), SHA-1 at the same count,
/// WPA2 (4096 iterations of SHA-1, 32 bytes: two chains), SHA-256 with two chains, SHA-512.
pub const DERIVATIONS: [Derivation; 5] = [
    Derivation::new(Pbkdf2Hash::Sha256, 20_000, 32, None),
    Derivation::new(Pbkdf2Hash::Sha1, 20_000, 20, None),
    Derivation::new(Pbkdf2Hash::Sha1, 4096, 32, Some("WPA2")),
    Derivation::new(Pbkdf2Hash::Sha256, 20_000, 64, None),
    Derivation::new(Pbkdf2Hash::Sha512, 10_000, 64, None),
];

/// The password every timed derivation uses (a typical length: one block either way).
pub const PASSWORD: &[u8] = b"correct horse battery staple";
/// The salt every timed derivation uses (16 bytes, as RFC 8018 recommends at least).
pub const SALT: &[u8] = b"NaCl and pepper!";

type Derive = Box<dyn Fn(&[u8], &[u8], NonZeroU32, &mut [u8])>;

/// One PBKDF2 implementation of one hash function.
pub struct Pbkdf2Contender {
    name: &'static str,
    kind: Kind,
    description: String,
    derive: Derive,
}

impl fmt::Debug for Pbkdf2Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pbkdf2Contender({})", self.name)
    }
}

impl Pbkdf2Contender {
    /// `multisha`, `rustcrypto`, `rustcrypto+multisha`, `ring`, `openssl`, `fastpbkdf2`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// [`Kind::Dispatched`] for multisha's own PBKDF2, [`Kind::Peer`] for the others.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// One line on what it is.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Fills `out` with PBKDF2 of `password` and `salt` at `iterations`.
    #[inline]
    pub fn derive(&self, password: &[u8], salt: &[u8], iterations: NonZeroU32, out: &mut [u8]) {
        (self.derive)(password, salt, iterations, out)
    }
}

fn contender(
    name: &'static str,
    kind: Kind,
    description: String,
    derive: Derive,
) -> Pbkdf2Contender {
    Pbkdf2Contender {
        name,
        kind,
        description,
        derive,
    }
}

/// RustCrypto `pbkdf2` over the hasher `D`.
fn rustcrypto<D: EagerHash + 'static>() -> Derive {
    Box::new(|password, salt, iterations, out| {
        pbkdf2::pbkdf2_hmac::<D>(password, salt, iterations.get(), out)
    })
}

/// The PBKDF2 contenders of `hash`: multisha first, then RustCrypto `pbkdf2` over its own
/// hashers and over multisha's, ring, and (with the `openssl` feature) OpenSSL and fastpbkdf2.
pub fn pbkdf2_contenders(hash: Pbkdf2Hash) -> Vec<Pbkdf2Contender> {
    let (ours, theirs, over_ours): (Derive, Derive, Derive) = match hash {
        Pbkdf2Hash::Sha1 => (
            Box::new(pbkdf2_multisha::multisha_pbkdf2_sha1),
            rustcrypto::<sha1::Sha1>(),
            rustcrypto::<multisha::Sha1>(),
        ),
        Pbkdf2Hash::Sha256 => (
            Box::new(pbkdf2_multisha::multisha_pbkdf2_sha256),
            rustcrypto::<sha2::Sha256>(),
            rustcrypto::<multisha::Sha256>(),
        ),
        Pbkdf2Hash::Sha512 => (
            Box::new(pbkdf2_multisha::multisha_pbkdf2_sha512),
            rustcrypto::<sha2::Sha512>(),
            rustcrypto::<multisha::Sha512>(),
        ),
    };
    let ring_algorithm = match hash {
        Pbkdf2Hash::Sha1 => ring::pbkdf2::PBKDF2_HMAC_SHA1,
        Pbkdf2Hash::Sha256 => ring::pbkdf2::PBKDF2_HMAC_SHA256,
        Pbkdf2Hash::Sha512 => ring::pbkdf2::PBKDF2_HMAC_SHA512,
    };
    let mut all = vec![
        contender(
            "multisha",
            Kind::Dispatched,
            pbkdf2_multisha::DESCRIPTION.to_string(),
            ours,
        ),
        contender(
            "rustcrypto",
            Kind::Peer,
            "RustCrypto pbkdf2 0.13 + sha1/sha2 0.11 (their own CPU dispatch, SHA-NI when present)"
                .to_string(),
            theirs,
        ),
        contender(
            "rustcrypto+multisha",
            Kind::Peer,
            "RustCrypto pbkdf2 0.13 over multisha's hashers".to_string(),
            over_ours,
        ),
        contender(
            "ring",
            Kind::Peer,
            "ring 0.17 pbkdf2::derive".to_string(),
            Box::new(move |password, salt, iterations, out| {
                ring::pbkdf2::derive(ring_algorithm, iterations, salt, password, out)
            }),
        ),
    ];
    all.extend(openssl_peers(hash));
    all
}

/// OpenSSL's PBKDF2 and fastpbkdf2 (which links OpenSSL's libcrypto).
#[cfg(feature = "openssl")]
fn openssl_peers(hash: Pbkdf2Hash) -> Vec<Pbkdf2Contender> {
    type Fast = fn(&[u8], &[u8], u32, &mut [u8]);
    let (digest, fast): (_, Fast) = match hash {
        Pbkdf2Hash::Sha1 => (
            openssl::hash::MessageDigest::sha1(),
            fastpbkdf2::pbkdf2_hmac_sha1,
        ),
        Pbkdf2Hash::Sha256 => (
            openssl::hash::MessageDigest::sha256(),
            fastpbkdf2::pbkdf2_hmac_sha256,
        ),
        Pbkdf2Hash::Sha512 => (
            openssl::hash::MessageDigest::sha512(),
            fastpbkdf2::pbkdf2_hmac_sha512,
        ),
    };
    vec![
        contender(
            "openssl",
            Kind::Peer,
            "system OpenSSL PKCS5_PBKDF2_HMAC through the openssl crate".to_string(),
            Box::new(move |password, salt, iterations, out| {
                openssl::pkcs5::pbkdf2_hmac(password, salt, iterations.get() as usize, digest, out)
                    .expect("OpenSSL PBKDF2 failed")
            }),
        ),
        contender(
            "fastpbkdf2",
            Kind::Peer,
            "fastpbkdf2 0.1 (C, keyed states and padding precomputed, OpenSSL's block \
             functions)"
                .to_string(),
            Box::new(move |password, salt, iterations, out| {
                fast(password, salt, iterations.get(), out)
            }),
        ),
    ]
}

/// Without the `openssl` feature: neither OpenSSL nor fastpbkdf2 (`missing_peers` says so).
#[cfg(not(feature = "openssl"))]
fn openssl_peers(_: Pbkdf2Hash) -> Vec<Pbkdf2Contender> {
    Vec::new()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Derives `password`/`salt` through every contender and compares with the first; the key,
/// or a message naming the first contender that disagrees.
pub fn check_pbkdf2(
    contenders: &[Pbkdf2Contender],
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    out_len: usize,
) -> Result<Vec<u8>, String> {
    let mut want = vec![0u8; out_len];
    let first = contenders.first().ok_or("no PBKDF2 contenders")?;
    first.derive(password, salt, iterations, &mut want);
    for contender in &contenders[1..] {
        let mut got = vec![0u8; out_len];
        contender.derive(password, salt, iterations, &mut got);
        if got != want {
            return Err(format!(
                "PBKDF2 mismatch at {iterations} iterations, {out_len} B: `{}` gives {}, `{}` \
                 gives {}",
                contender.name(),
                hex(&got),
                first.name(),
                hex(&want)
            ));
        }
    }
    Ok(want)
}

/// One derivation measured: counter ticks per derivation of every contender (medians over
/// interleaved rounds), and the time of one block through multisha's dispatched kernel.
#[derive(Debug, Clone)]
pub struct Pbkdf2Row {
    /// What was derived.
    pub derivation: Derivation,
    /// (name, kind, description) per contender, indexed like `ticks`.
    pub entries: Vec<(&'static str, Kind, String)>,
    /// Counter ticks per derivation.
    pub ticks: Vec<Stat>,
    /// Counter ticks per derivation in each round, indexed like `ticks`, then by round.
    pub samples: Vec<Vec<f64>>,
    /// Counter ticks per compression block of a 16 KiB message through multisha's dispatched
    /// one-shot function: its blocks depend on each other, so this is about one block's
    /// latency, the unit of PBKDF2's floor (two blocks per iteration and chain).
    pub block: Stat,
}

impl Pbkdf2Row {
    /// The position of contender `name`.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.0 == name)
    }

    /// The median over the rounds of `name`'s time / multisha's in the same round: a
    /// neighbour's burst slows both sides of a round alike, so the ratio holds steadier than
    /// the ratio of the medians.
    pub fn over_multisha(&self, name: &str) -> Option<f64> {
        let theirs = &self.samples[self.index(name)?];
        let ours = &self.samples[self.index("multisha")?];
        let ratios = theirs.iter().zip(ours).map(|(t, o)| t / o).collect();
        Some(Stat::of(ratios).median)
    }

    /// The fastest contender other than multisha: its name and median ticks.
    pub fn best_peer(&self) -> Option<(&'static str, f64)> {
        self.entries
            .iter()
            .zip(&self.ticks)
            .filter(|(e, _)| e.1 == Kind::Peer)
            .map(|(e, s)| (e.0, s.median))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The best peer's time / multisha's (> 1: multisha faster), per round.
    pub fn over_best_peer(&self) -> Option<f64> {
        self.over_multisha(self.best_peer()?.0)
    }

    /// RustCrypto `pbkdf2` + RustCrypto hasher's time / multisha's (> 1: multisha faster), per
    /// round.
    pub fn over_rustcrypto(&self) -> Option<f64> {
        self.over_multisha("rustcrypto")
    }

    /// Nanoseconds per iteration (all chains) of `ticks` at counter rate `hz`.
    pub fn ns_per_iteration(&self, ticks: f64, hz: f64) -> f64 {
        ticks / hz * 1e9 / f64::from(self.derivation.iterations.get())
    }

    /// Nanoseconds of two blocks through the dispatched kernel (the floor of one iteration of
    /// one chain run alone).
    pub fn two_blocks_ns(&self, hz: f64) -> f64 {
        2.0 * self.block.median / hz * 1e9
    }
}

/// Bytes of the message whose per-block time is the block reference.
const BLOCK_MESSAGE: usize = 16 << 10;

/// Checks, then measures every derivation of `derivations`: all contenders and the block
/// reference calibrated to samples of `sample_ticks` counter ticks, then `rounds` rounds with
/// the order rotating each round, medians kept. `step` hears what is measured next.
pub fn measure_pbkdf2(
    derivations: &[Derivation],
    rounds: usize,
    sample_ticks: u64,
    step: &mut dyn FnMut(&str),
) -> Result<Vec<Pbkdf2Row>, String> {
    let mut rows = Vec::new();
    for derivation in derivations {
        step(&format!("PBKDF2 {}", derivation.label()));
        let hash = derivation.hash;
        let contenders = pbkdf2_contenders(hash);
        // A fast wrong key is worthless: the timed derivation itself must agree everywhere.
        check_pbkdf2(
            &contenders,
            PASSWORD,
            SALT,
            derivation.iterations,
            derivation.out_len,
        )
        .map_err(|e| format!("{}: {e}", derivation.label()))?;
        let outputs: Vec<RefCell<Vec<u8>>> = contenders
            .iter()
            .map(|_| RefCell::new(vec![0u8; derivation.out_len]))
            .collect();
        let (contenders, outputs) = (&contenders, &outputs);
        // The timing closures return the key's first bytes, so no derivation is optimised out.
        let run = |i: usize| {
            move |_: &[u8]| -> Output {
                let mut out = outputs[i].borrow_mut();
                contenders[i].derive(PASSWORD, SALT, derivation.iterations, &mut out);
                crate::contenders::pad(&out[..out.len().min(64)])
            }
        };
        let block_data = vec![0x5au8; BLOCK_MESSAGE];
        let n = contenders.len();
        // Index n is the block reference, interleaved with the contenders like one of them.
        let sample = |i: usize, iterations: u64| -> u64 {
            if i == n {
                time(&|d| hash.oneshot(d), &block_data, iterations)
            } else {
                time(&run(i), &[], iterations)
            }
        };
        let iterations: Vec<u64> = (0..=n)
            .map(|i| {
                if i == n {
                    calibrate(&|d| hash.oneshot(d), &block_data, sample_ticks)
                } else {
                    calibrate(&run(i), &[], sample_ticks)
                }
            })
            .collect();
        let mut samples = vec![Vec::with_capacity(rounds); n + 1];
        for round in 0..rounds {
            for k in 0..=n {
                let i = (k + round) % (n + 1);
                samples[i].push(sample(i, iterations[i]) as f64 / iterations[i] as f64);
            }
        }
        let blocks = hash.blocks(BLOCK_MESSAGE) as f64;
        let block = samples.pop().expect("the block reference").into_iter();
        rows.push(Pbkdf2Row {
            derivation: *derivation,
            entries: contenders
                .iter()
                .map(|c| (c.name(), c.kind(), c.description().to_string()))
                .collect(),
            ticks: samples.iter().cloned().map(Stat::of).collect(),
            samples,
            block: Stat::of(block.map(|t| t / blocks).collect()),
        });
    }
    Ok(rows)
}

/// The PBKDF2 table in Markdown: ms per derivation per contender, multisha against the best
/// peer and against RustCrypto, and multisha's nanoseconds per iteration next to two blocks
/// of its kernel. `hz` is the counter's rate.
pub fn pbkdf2_table(rows: &[Pbkdf2Row], hz: f64) -> String {
    let mut out = String::new();
    let Some(first) = rows.first() else {
        return out;
    };
    let names: Vec<&str> = first.entries.iter().map(|e| e.0).collect();
    let _ = writeln!(
        out,
        "| derivation | {} | best peer | multisha / best peer | multisha / rustcrypto | \
         multisha ns/it | ns/it per chain | 2 blocks (ns) |",
        names.join(" | ")
    );
    let _ = writeln!(out, "|---|{}", "---:|".repeat(names.len() + 6));
    let ms = |ticks: f64| ticks / hz * 1e3;
    for row in rows {
        let mut cells: Vec<String> = names
            .iter()
            .map(|name| {
                row.index(name)
                    .map_or("-".into(), |i| format!("{:.2}", ms(row.ticks[i].median)))
            })
            .collect();
        cells.push(row.best_peer().map_or("-".into(), |b| b.0.to_string()));
        // Shown as speed-ups (> 1: multisha faster), as the targets are written.
        let ratio = |r: Option<f64>| r.map_or("-".into(), |r| format!("{r:.2}x"));
        cells.push(ratio(row.over_best_peer()));
        cells.push(ratio(row.over_rustcrypto()));
        let ns = row
            .index("multisha")
            .map(|i| row.ns_per_iteration(row.ticks[i].median, hz));
        cells.push(ns.map_or("-".into(), |ns| format!("{ns:.1}")));
        cells.push(ns.map_or("-".into(), |ns| {
            format!("{:.1}", ns / row.derivation.chains() as f64)
        }));
        cells.push(format!("{:.1}", row.two_blocks_ns(hz)));
        let _ = writeln!(
            out,
            "| {} | {} |",
            row.derivation.label(),
            cells.join(" | ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unhex(text: &str) -> Vec<u8> {
        (0..text.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
            .collect()
    }

    fn it(n: u32) -> NonZeroU32 {
        NonZeroU32::new(n).unwrap()
    }

    /// Every contender derives the very key the benchmarks time, for every derivation, so no
    /// table can time a wrong function (the report checks again before measuring).
    #[test]
    fn every_pbkdf2_contender_derives_the_same_key() {
        for derivation in &DERIVATIONS {
            let contenders = pbkdf2_contenders(derivation.hash);
            assert_eq!(contenders[0].kind(), Kind::Dispatched);
            assert!(contenders.len() >= 4, "{derivation:?}");
            let key = check_pbkdf2(
                &contenders,
                PASSWORD,
                SALT,
                derivation.iterations,
                derivation.out_len,
            )
            .unwrap();
            assert_eq!(key.len(), derivation.out_len);
        }
    }

    /// Known answers, so the agreement above is not agreement on a wrong key: RFC 6070
    /// (SHA-1), RFC 7914 section 11 (SHA-256), and the widely published SHA-512 vector of
    /// the same inputs as RFC 6070's first.
    #[test]
    fn every_pbkdf2_contender_gives_the_known_answers() {
        let cases = [
            (
                Pbkdf2Hash::Sha1,
                &b"password"[..],
                &b"salt"[..],
                4096,
                "4b007901b765489abead49d926f721d065a429c1",
            ),
            (
                Pbkdf2Hash::Sha1,
                b"passwordPASSWORDpassword",
                b"saltSALTsaltSALTsaltSALTsaltSALTsalt",
                4096,
                "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038",
            ),
            (
                Pbkdf2Hash::Sha256,
                b"passwd",
                b"salt",
                1,
                "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc\
                 49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783",
            ),
            (
                Pbkdf2Hash::Sha512,
                b"password",
                b"salt",
                1,
                "867f70cf1ade02cff3752599a3a53dc4af34c7a669815ae5d513554e1c8cf252\
                 c02d470a285a0501bad999bfe943c08f050235d7d68b1da55e63f73b60a57fce",
            ),
        ];
        for (hash, password, salt, iterations, expected) in cases {
            let expected = unhex(expected);
            let contenders = pbkdf2_contenders(hash);
            let key =
                check_pbkdf2(&contenders, password, salt, it(iterations), expected.len()).unwrap();
            assert_eq!(key, expected, "{hash:?}");
        }
    }

    #[test]
    fn derivation_labels_and_chains() {
        assert_eq!(DERIVATIONS[0].label(), "SHA-256, 20,000 it, 32 B");
        assert_eq!(DERIVATIONS[2].label(), "SHA-1, 4096 it, 32 B (WPA2)");
        assert_eq!(DERIVATIONS[2].id(), "sha1-4096it-32B");
        assert_eq!(DERIVATIONS[2].chains(), 2);
        assert_eq!(DERIVATIONS[3].chains(), 2);
        assert_eq!(DERIVATIONS[4].chains(), 1);
        assert_eq!(Pbkdf2Hash::Sha256.blocks(16 << 10), 257);
        assert_eq!(Pbkdf2Hash::Sha512.blocks(111), 1);
        assert_eq!(Pbkdf2Hash::Sha512.blocks(112), 2);
    }
}
