//! The `--check` line parser never panics, and agrees with a simple model of md5sum.c's rules
//! on the lines the model covers: `[blanks][\]HEX<blank><blank|*>NAME` (the two-column form)
//! and `[\]TAG (NAME) = HEX`. On every line it accepts, the digest is `hex_len` hex digits of
//! the line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use multisha_cli::check_line::{Reversed, split_line};

const TAGS: [(&[u8], usize); 3] = [(b"SHA1", 40), (b"SHA256", 64), (b"SHA512", 128)];

/// md5sum.c's unescaping (`\\`, `\n`, `\r`; anything else or a NUL is misformatted), or the
/// name cut at its first NUL when not escaped.
fn name_of(raw: &[u8], escaped: bool) -> Option<Vec<u8>> {
    if !escaped {
        return Some(raw.split(|&b| b == 0).next().unwrap_or_default().to_vec());
    }
    let mut out = Vec::new();
    let mut bytes = raw.iter();
    while let Some(&b) = bytes.next() {
        out.push(match b {
            0 => return None,
            b'\\' => match bytes.next()? {
                b'n' => b'\n',
                b'r' => b'\r',
                b'\\' => b'\\',
                _ => return None,
            },
            b => b,
        });
    }
    Some(out)
}

/// The model: `None` when the line is outside what it covers, `Some(result)` otherwise.
fn model(tag: &[u8], hex_len: usize, line: &[u8]) -> Option<Option<(Vec<u8>, Vec<u8>)>> {
    let start = line.iter().position(|&b| b != b' ' && b != b'\t')?;
    let (escaped, body) = match line[start..].strip_prefix(b"\\") {
        Some(body) => (true, body),
        None => (false, &line[start..]),
    };
    if let Some(after) = body.strip_prefix(tag)
        && let Some(after) = after.strip_prefix(b" (")
    {
        // Covered: `NAME) = HEX` with exactly that spacing and no other ')'.
        let close = after.iter().position(|&b| b == b')')?;
        let (raw, rest) = (&after[..close], &after[close..]);
        let hex = rest.strip_prefix(b") = ")?;
        // md5sum.c skips any blanks around '='; the model covers exactly one on each side.
        if after[close + 1..].contains(&b')')
            || hex.contains(&0)
            || hex.first().is_some_and(|&b| b == b' ' || b == b'\t')
        {
            return None;
        }
        let ok = hex.len() == hex_len && hex.iter().all(u8::is_ascii_hexdigit);
        return Some(
            ok.then(|| name_of(raw, escaped).map(|n| (hex.to_vec(), n)))
                .flatten(),
        );
    }
    // Covered: the two-column form with at least one name byte.
    if body.len() < hex_len + 3 || !body[..hex_len].iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let (sep1, sep2) = (body[hex_len], body[hex_len + 1]);
    if sep1 != b' ' || (sep2 != b' ' && sep2 != b'*') {
        return None;
    }
    let raw = &body[hex_len + 2..];
    Some(name_of(raw, escaped).map(|n| (body[..hex_len].to_vec(), n)))
}

fuzz_target!(|input: &[u8]| {
    let [which, line @ ..] = input else { return };
    let (tag, hex_len) = TAGS[usize::from(*which) % TAGS.len()];
    // A fresh list (no earlier line decided the format) sees what the model sees.
    let got = split_line(tag, hex_len, line, &mut Reversed::Unknown);
    if let Some((hex, _)) = &got {
        assert_eq!(hex.len(), hex_len);
        assert!(hex.iter().all(u8::is_ascii_hexdigit));
        assert!(line.windows(hex_len).any(|w| w == *hex));
    }
    if let Some(want) = model(tag, hex_len, line) {
        let got = got.map(|(hex, name)| (hex.to_vec(), name));
        assert_eq!(got, want, "line {:?}", String::from_utf8_lossy(line));
    }
    // The parser's state across lines never makes it panic either.
    for rev in [Reversed::No, Reversed::Yes] {
        let _ = split_line(tag, hex_len, line, &mut { rev });
    }
});
