//! Output formatting byte-compatible with GNU coreutils 9.x: checksum lines (GNU and BSD
//! `--tag` styles, with the leading-backslash escaping of names), the names in `--check`
//! reports, the shell quoting of names in diagnostics (gnulib `quotef`), and `strerror`.

use std::io;

use crate::kind::Kind;

/// Appends the lowercase hex of `digest`.
pub(crate) fn push_hex(out: &mut Vec<u8>, digest: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for &b in digest {
        out.push(HEX[usize::from(b >> 4)]);
        out.push(HEX[usize::from(b & 15)]);
    }
}

/// Appends `name` with `\`, newline and carriage return escaped (the caller adds the leading `\`).
fn push_escaped(out: &mut Vec<u8>, name: &[u8]) {
    for &b in name {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => out.push(b),
        }
    }
}

/// One output line of hashing mode, including its terminator.
pub(crate) fn sum_line(
    out: &mut Vec<u8>,
    kind: Kind,
    digest: &[u8],
    name: &[u8],
    tag: bool,
    binary: bool,
    zero: bool,
) {
    // -z output is meant for machines, so coreutils disables escaping there.
    let escape = !zero && name.iter().any(|&b| matches!(b, b'\\' | b'\n' | b'\r'));
    if escape {
        out.push(b'\\');
    }
    let push_name = |out: &mut Vec<u8>| {
        if escape {
            push_escaped(out, name);
        } else {
            out.extend_from_slice(name);
        }
    };
    if tag {
        out.extend_from_slice(kind.tag().as_bytes());
        out.extend_from_slice(b" (");
        push_name(out);
        out.extend_from_slice(b") = ");
        push_hex(out, digest);
    } else {
        push_hex(out, digest);
        out.push(b' ');
        out.push(if binary { b'*' } else { b' ' });
        push_name(out);
    }
    out.push(if zero { 0 } else { b'\n' });
}

/// The name as `--check` prints it: coreutils 9.1 escapes only names with a newline.
pub(crate) fn check_name(out: &mut Vec<u8>, name: &[u8]) {
    if name.contains(&b'\n') {
        out.push(b'\\');
        push_escaped(out, name);
    } else {
        out.extend_from_slice(name);
    }
}

/// The OS error text without Rust's " (os error N)" suffix, as `strerror` gives it.
pub(crate) fn strerror(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error ") {
        Some(p) => s[..p].to_owned(),
        None => s,
    }
}

/// Whether the locale decodes UTF-8 (then printable non-ASCII characters stay unquoted).
fn utf8_locale() -> bool {
    for var in ["LC_ALL", "LC_CTYPE", "LANG"] {
        if let Some(v) = std::env::var_os(var) {
            if v.is_empty() {
                continue;
            }
            let v = v.to_string_lossy().to_ascii_lowercase();
            return v.contains("utf-8") || v.contains("utf8");
        }
    }
    false
}

/// One unit of a name for quoting: a printable character (possibly multibyte) or a byte
/// that must be written as an escape.
enum Unit<'a> {
    Text(&'a [u8]),
    Escape(u8),
}

fn units(name: &[u8], utf8: bool) -> Vec<Unit<'_>> {
    let mut v = Vec::new();
    let mut i = 0;
    while i < name.len() {
        let b = name[i];
        if (0x20..0x7f).contains(&b) {
            v.push(Unit::Text(&name[i..i + 1]));
            i += 1;
            continue;
        }
        if utf8 && b >= 0x80 {
            let len = match b {
                0xc2..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf4 => 4,
                _ => 0,
            };
            if len > 0
                && i + len <= name.len()
                && let Ok(s) = std::str::from_utf8(&name[i..i + len])
                && s.chars().all(|c| !c.is_control())
            {
                v.push(Unit::Text(&name[i..i + len]));
                i += len;
                continue;
            }
        }
        v.push(Unit::Escape(b));
        i += 1;
    }
    v
}

/// gnulib's `quotef` (shell-escape style, with `:` quoted): how coreutils shows a file name
/// in a diagnostic.
pub(crate) fn quotef(name: &[u8]) -> String {
    quote_with(name, utf8_locale())
}

fn quote_with(name: &[u8], utf8: bool) -> String {
    if name.is_empty() {
        return "''".to_owned();
    }
    let units = units(name, utf8);
    let mut needs_quotes = false;
    let mut needs_escape = false;
    for (i, u) in units.iter().enumerate() {
        match u {
            Unit::Escape(_) => needs_escape = true,
            Unit::Text(t) if t.len() > 1 => {}
            Unit::Text(t) => {
                let c = t[0];
                let safe = c.is_ascii_alphanumeric()
                    || b"%+,-./@]_".contains(&c)
                    || (i != 0 && (c == b'#' || c == b'~'))
                    || (name.len() != 1 && (c == b'{' || c == b'}'));
                if !safe {
                    needs_quotes = true;
                }
            }
        }
    }
    if !needs_quotes && !needs_escape {
        return String::from_utf8_lossy(name).into_owned();
    }
    let has_single = name.contains(&b'\'');
    if !needs_escape && has_single && !name.iter().any(|b| b"\"$`\\!".contains(b)) {
        return format!("\"{}\"", String::from_utf8_lossy(name));
    }
    let mut out = Vec::new();
    if needs_escape && has_single {
        // gnulib restarts in "always quote" mode here, which leaves an empty '' in front.
        out.extend_from_slice(b"''");
    }
    out.push(b'\'');
    let mut in_dollar = false;
    for u in &units {
        match u {
            Unit::Escape(b) => {
                if !in_dollar {
                    out.extend_from_slice(b"'$'");
                    in_dollar = true;
                }
                match b {
                    7 => out.extend_from_slice(b"\\a"),
                    8 => out.extend_from_slice(b"\\b"),
                    9 => out.extend_from_slice(b"\\t"),
                    10 => out.extend_from_slice(b"\\n"),
                    11 => out.extend_from_slice(b"\\v"),
                    12 => out.extend_from_slice(b"\\f"),
                    13 => out.extend_from_slice(b"\\r"),
                    _ => out.extend_from_slice(format!("\\{b:03o}").as_bytes()),
                }
            }
            Unit::Text(t) => {
                if in_dollar {
                    out.extend_from_slice(b"''");
                    in_dollar = false;
                }
                if t == b"'" {
                    out.extend_from_slice(b"'\\''");
                } else {
                    out.extend_from_slice(t);
                }
            }
        }
    }
    out.push(b'\'');
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::quote_with;

    #[test]
    fn quoting_matches_coreutils_9_1() {
        let cases: &[(&[u8], &str)] = &[
            (b"nope", "nope"),
            (b"sp ace x", "'sp ace x'"),
            (b"it's x", "\"it's x\""),
            (b"a\nb", "'a'$'\\n''b'"),
            (b"\xc3\xa9x", "''$'\\303\\251''x'"),
            (b"a\"b", "'a\"b'"),
            (b"~x", "'~x'"),
            (b"x~", "x~"),
            (b"#a", "'#a'"),
            (b"a=b", "'a=b'"),
            (b"a@b", "a@b"),
            (b"{", "'{'"),
            (b"a{", "a{"),
            (b"a:b", "'a:b'"),
            (b"a'b$c", "'a'\\''b$c'"),
            (b"a'b\n", "'''a'\\''b'$'\\n'"),
            (b"a'\t", "'''a'\\'''$'\\t'"),
            (b"\x7f", "''$'\\177'"),
            (b"a]b", "a]b"),
        ];
        for (name, want) in cases {
            assert_eq!(
                quote_with(name, false),
                *want,
                "{:?}",
                String::from_utf8_lossy(name)
            );
        }
        assert_eq!(quote_with(b"\xc3\xa9x", true), "\u{e9}x");
    }
}
