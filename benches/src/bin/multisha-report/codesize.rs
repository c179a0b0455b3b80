//! Machine-code size of each kernel, read from this executable's symbol table: the symbol
//! that contains the kernel's runtime address, after removing the load bias of a PIE binary
//! (found from an anchor function whose symbol name is known).

use object::{Object, ObjectSymbol, SymbolKind};

/// The anchor: its runtime address minus its symbol address is the load bias.
// An unmangled name is the one symbol name we can know in advance.
#[unsafe(no_mangle)]
#[inline(never)]
extern "C" fn multisha_report_anchor() -> u32 {
    0x5ca1_ab1e
}

/// The text symbols of the executable, sorted by address, and the load bias.
#[derive(Debug)]
pub(crate) struct Symbols {
    /// (address, size, name); a size of 0 is replaced by the distance to the next symbol.
    symbols: Vec<(u64, u64, String)>,
    bias: u64,
}

impl Symbols {
    pub(crate) fn load() -> Result<Symbols, String> {
        let exe = std::env::current_exe().map_err(|e| format!("finding the executable: {e}"))?;
        let bytes = std::fs::read(&exe).map_err(|e| format!("reading {}: {e}", exe.display()))?;
        let file =
            object::File::parse(&*bytes).map_err(|e| format!("parsing {}: {e}", exe.display()))?;
        let mut symbols: Vec<(u64, u64, String)> = file
            .symbols()
            .filter(|s| s.kind() == SymbolKind::Text && s.address() != 0)
            .map(|s| (s.address(), s.size(), s.name().unwrap_or("?").to_string()))
            .collect();
        if symbols.is_empty() {
            return Err(format!("{} has no symbol table (stripped?)", exe.display()));
        }
        symbols.sort_by_key(|s| s.0);
        for i in 0..symbols.len() - 1 {
            if symbols[i].1 == 0 {
                symbols[i].1 = symbols[i + 1].0 - symbols[i].0;
            }
        }
        let anchor = symbols
            .iter()
            .find(|s| s.2 == "multisha_report_anchor")
            .ok_or("the anchor symbol is missing from the symbol table")?
            .0;
        let runtime = multisha_report_anchor as extern "C" fn() -> u32 as usize as u64;
        std::hint::black_box(multisha_report_anchor());
        Ok(Symbols {
            symbols,
            bias: runtime.wrapping_sub(anchor),
        })
    }

    /// The symbol containing the runtime address `address`: (size in bytes, name).
    pub(crate) fn containing(&self, address: usize) -> Option<(u64, &str)> {
        let address = (address as u64).wrapping_sub(self.bias);
        let i = self
            .symbols
            .partition_point(|s| s.0 <= address)
            .checked_sub(1)?;
        let (start, size, name) = &self.symbols[i];
        (address < start + size).then_some((*size, name.as_str()))
    }

    /// Bytes of code between the lowest and the highest of `addresses` plus the last symbol.
    pub(crate) fn span(&self, addresses: impl Iterator<Item = usize>) -> Option<u64> {
        let (mut low, mut high) = (u64::MAX, 0);
        for address in addresses {
            let (size, _) = self.containing(address)?;
            low = low.min(address as u64);
            high = high.max(address as u64 + size);
        }
        high.checked_sub(low)
    }
}
