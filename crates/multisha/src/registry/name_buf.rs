//! A short, inline copy of a user-supplied name, so errors can quote it without allocating.

use core::fmt;

const CAPACITY: usize = 32;

/// Up to 32 bytes of a name; longer names are cut at a character boundary and shown with `…`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct NameBuf {
    bytes: [u8; CAPACITY],
    len: u8,
    truncated: bool,
}

impl NameBuf {
    pub(crate) fn new(name: &str) -> Self {
        let mut end = name.len().min(CAPACITY);
        while !name.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0; CAPACITY];
        bytes[..end].copy_from_slice(&name.as_bytes()[..end]);
        Self {
            bytes,
            len: end as u8,
            truncated: end < name.len(),
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        // The bytes are a prefix of a `str` cut at a char boundary.
        core::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }
}

impl fmt::Display for NameBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())?;
        if self.truncated {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl fmt::Debug for NameBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

#[cfg(test)]
mod tests {
    use super::NameBuf;

    #[test]
    fn keeps_short_names() {
        assert_eq!(NameBuf::new("unroll8").as_str(), "unroll8");
    }

    #[test]
    fn cuts_long_names_at_a_char_boundary() {
        let long = "é".repeat(40);
        let name = NameBuf::new(&long);
        assert_eq!(name.as_str(), "é".repeat(16));
        assert!(std::format!("{name}").ends_with('…'));
    }
}
