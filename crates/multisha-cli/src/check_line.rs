//! The `--check` line parser: GNU (`hex  name`, `hex *name`, `\`-escaped) and BSD
//! (`TAG (name) = hex`) checksum lines, as coreutils 9.1's md5sum.c reads them.
//!
//! Public (in the CLI's library target) for the fuzz target; no stability promise.

/// coreutils' ISWHITE.
fn is_white(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Undoes `\\`, `\n` and `\r`; any other escape (or a trailing `\`, or a NUL) is invalid,
/// as in md5sum.c's `filename_unescape`.
fn unescape(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut it = s.iter();
    while let Some(&b) = it.next() {
        match b {
            b'\\' => match it.next() {
                Some(b'n') => out.push(b'\n'),
                Some(b'r') => out.push(b'\r'),
                Some(b'\\') => out.push(b'\\'),
                _ => return None,
            },
            0 => return None,
            _ => out.push(b),
        }
    }
    Some(out)
}

/// The name as coreutils uses it: md5sum.c keeps the whole line but treats the name as a C
/// string, so an unescaped name ends at its first NUL byte.
fn c_string(name: &[u8]) -> Vec<u8> {
    let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    name[..end].to_vec()
}

/// md5sum.c's `hex_digits`: `hex_len` hex digits, then the end of the C string.
fn is_hex_digest(s: &[u8], hex_len: usize) -> bool {
    s.len() >= hex_len
        && s[..hex_len].iter().all(u8::is_ascii_hexdigit)
        && s.get(hex_len).is_none_or(|&b| b == 0)
}

/// Line-format state kept across one checksum file (md5sum.c's `bsd_reversed`): once a
/// line used the `hex  name` form, the single-space `hex name` form is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reversed {
    /// No line has decided yet.
    Unknown,
    /// A line used the two-column form.
    No,
    /// A line used the single-blank form.
    Yes,
}

/// Splits a line into (hex digest, file name), or `None` when it is improperly formatted,
/// for the tool whose BSD tag is `tag` (`b"SHA256"`) and whose digests have `hex_len` hex
/// digits.
pub fn split_line<'a>(
    tag: &[u8],
    hex_len: usize,
    s: &'a [u8],
    rev: &mut Reversed,
) -> Option<(&'a [u8], Vec<u8>)> {
    let mut i = 0;
    while i < s.len() && is_white(s[i]) {
        i += 1;
    }
    let mut escaped = false;
    if s.get(i) == Some(&b'\\') {
        i += 1;
        escaped = true;
    }
    if s[i..].starts_with(tag) {
        // BSD style: TAG (name) = hex, the name ending at the last ')'.
        i += tag.len();
        if s.get(i) == Some(&b' ') {
            i += 1;
        }
        if s.get(i) != Some(&b'(') {
            return None;
        }
        let rest = &s[i + 1..];
        let close = rest.iter().rposition(|&b| b == b')')?;
        let name = &rest[..close];
        let name = if escaped {
            unescape(name)?
        } else {
            c_string(name)
        };
        let mut j = close + 1;
        while j < rest.len() && is_white(rest[j]) {
            j += 1;
        }
        if rest.get(j) != Some(&b'=') {
            return None;
        }
        j += 1;
        while j < rest.len() && is_white(rest[j]) {
            j += 1;
        }
        let hex = &rest[j..];
        // `then`, not `then_some`: the slice is only valid once the length is checked.
        return is_hex_digest(hex, hex_len).then(|| (&hex[..hex_len], name));
    }
    // GNU style: at least the digest, one blank and one name byte.
    let min = hex_len + 2 + usize::from(s.get(i) == Some(&b'\\'));
    if s.len() - i < min {
        return None;
    }
    let hex = &s[i..i + hex_len];
    i += hex_len;
    if !is_white(s[i]) {
        return None;
    }
    i += 1;
    if !hex.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    if s.len() - i == 1 || (s[i] != b' ' && s[i] != b'*') {
        // "hex name" with a single blank: only when no line used the two-column form.
        if *rev == Reversed::No {
            return None;
        }
        *rev = Reversed::Yes;
    } else if *rev != Reversed::Yes {
        *rev = Reversed::No;
        i += 1;
    }
    let name = &s[i..];
    let name = if escaped {
        unescape(name)?
    } else {
        c_string(name)
    };
    Some((hex, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_both_formats() {
        let h = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        let mut rev = Reversed::Unknown;
        let line = format!("{h}  a b");
        let (hex, name) = split_line(b"SHA256", 64, line.as_bytes(), &mut rev).unwrap();
        assert_eq!((hex, name.as_slice()), (h.as_bytes(), &b"a b"[..]));
        let line = format!("\\SHA256 (a\\nb) = {h}");
        let (_, name) = split_line(b"SHA256", 64, line.as_bytes(), &mut rev).unwrap();
        assert_eq!(name, b"a\nb");
        let line = format!("{h} single");
        assert!(split_line(b"SHA256", 64, line.as_bytes(), &mut rev).is_none());
        let line = format!("\\{h}  bad\\x");
        assert!(split_line(b"SHA256", 64, line.as_bytes(), &mut rev).is_none());
    }

    #[test]
    fn names_end_at_nul_unless_escaped() {
        let h = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        let mut rev = Reversed::Unknown;
        let split = |line: String, rev: &mut Reversed| {
            split_line(b"SHA256", 64, line.as_bytes(), rev).map(|(_, name)| name)
        };
        assert_eq!(split(format!("{h}  a\0b"), &mut rev), Some(b"a".to_vec()));
        assert_eq!(
            split(format!("SHA256 (a\0b) = {h}"), &mut rev),
            Some(b"a".to_vec())
        );
        assert_eq!(
            split(format!("SHA256 (a) = {h}\0x"), &mut rev),
            Some(b"a".to_vec())
        );
        assert_eq!(split(format!("SHA256 (a) = {h}0\0"), &mut rev), None);
        assert_eq!(split(format!("\\{h}  a\0b"), &mut rev), None);
        assert_eq!(split(format!("\\SHA256 (a\0b) = {h}"), &mut rev), None);
    }

    /// Found by the `check_line` fuzz target: a BSD line whose digest is shorter than the
    /// tool's panicked while slicing instead of being reported as improperly formatted.
    #[test]
    fn short_bsd_digest_is_misformatted() {
        let mut rev = Reversed::Unknown;
        for line in [&b"SHA1 (a) = "[..], b"SHA1(a)=abc", b"\\SHA1 (a) =\t\t"] {
            assert_eq!(split_line(b"SHA1", 40, line, &mut rev), None);
        }
    }
}
