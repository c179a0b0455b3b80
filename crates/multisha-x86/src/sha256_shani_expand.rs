//! The SHA-NI schedule expansion of the many-stream SHA-256 kernels written in `asm!`
//! (`shani-x4`, the Merkle-node pipeline): one template for both. A `macro_rules!` in textual
//! scope (this module comes first, with `#[macro_use]`): `asm!`'s `concat!` expands it eagerly,
//! which a macro imported by path cannot be.

/// `w[4g+16..4g+20]` of stream `$s` of `$n` whose schedules lie side by side in `{ws}`
/// (`w[4g..4g+4]` of stream `s` in slot `n g + s`), into slot `n (g + 4) + s` and `$last`:
/// `sha256msg2(sha256msg1(w[4g..], w[4g+4..]) + alignr(w[4g+12..], w[4g+8..]), w[4g+12..])`,
/// the older vectors read from the buffer, the newest (`$last`) from its register.
/// Temporaries xmm1-2.
#[rustfmt::skip]
macro_rules! expand_words {
    ($n:literal, $g:literal, $s:literal, $last:literal) => {
        concat!(
            "movdqa xmm1, xmmword ptr [{ws} + 16*(", $n, "*", $g, "+", $s, ")]\n",
            "sha256msg1 xmm1, xmmword ptr [{ws} + 16*(", $n, "*(", $g, "+1)+", $s, ")]\n",
            "movdqa xmm2, ", $last, "\n",
            "palignr xmm2, xmmword ptr [{ws} + 16*(", $n, "*(", $g, "+2)+", $s, ")], 4\n",
            "paddd xmm1, xmm2\n",
            "sha256msg2 xmm1, ", $last, "\n",
            "movdqa ", $last, ", xmm1\n",
            "movdqa xmmword ptr [{ws} + 16*(", $n, "*(", $g, "+4)+", $s, ")], xmm1\n",
        )
    };
}
