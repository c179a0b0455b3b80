//! The `*sum` tools, one per hash function of the engine (`sha256sum` for SHA-256, ...): their
//! names, BSD tags and digest sizes come from `multisha::engine::Function`, so a hash function
//! added to the engine is a tool here without an edit.

use std::sync::LazyLock;

use multisha::engine::{Algorithm, Function};

/// Which `*sum` tool is being emulated.
pub(crate) type Kind = &'static Tool;

/// One tool.
#[derive(Debug)]
pub(crate) struct Tool {
    function: Function,
    /// `sha256sum`.
    command: String,
    /// `SHA256`: the BSD tag (`SHA256 (name) = ...`), also used in coreutils' messages.
    tag: String,
}

/// Every tool, in the engine's order.
static TOOLS: LazyLock<Vec<Tool>> = LazyLock::new(|| {
    Function::ALL
        .iter()
        .map(|&function| Tool {
            function,
            command: format!("{}sum", function.id()),
            tag: function.id().to_ascii_uppercase(),
        })
        .collect()
});

/// Every tool.
pub(crate) fn all() -> &'static [Tool] {
    &TOOLS
}

impl Tool {
    /// The tool called `name` (`sha256sum`).
    pub(crate) fn from_command(name: &[u8]) -> Option<Kind> {
        all().iter().find(|t| t.command.as_bytes() == name)
    }

    /// The tool of `id` (`sha256`).
    #[cfg(test)]
    pub(crate) fn of(id: &str) -> Kind {
        all()
            .iter()
            .find(|t| t.function.id() == id)
            .unwrap_or_else(|| panic!("no tool for {id}"))
    }

    /// The command name, as in `--help` and `--version`.
    pub(crate) fn command(&self) -> &str {
        &self.command
    }

    /// The BSD tag.
    pub(crate) fn tag(&self) -> &str {
        &self.tag
    }

    /// Length of the digest in hex digits.
    pub(crate) fn hex_len(&self) -> usize {
        2 * self.function.output_len()
    }

    /// Length of the digest in bits.
    pub(crate) fn bits(&self) -> usize {
        8 * self.function.output_len()
    }

    /// The hash function.
    pub(crate) fn function(&self) -> Function {
        self.function
    }

    /// The dispatched family whose variants this tool runs (SHA-224 shares SHA-256's).
    pub(crate) fn algorithm(&self) -> Algorithm {
        self.function.algorithm()
    }
}
