//! The README's variant table is the registry, written out: same variants, same order (the
//! default priority within each interface, and the CPUs a variant is ranked first on), same
//! interfaces, lanes, requirements, schedules and descriptions. Rows of another architecture's variants are checked by name, interface and
//! target here, and in full when the tests run on that architecture (the AArch64 cross-test).

use multisha::engine::Algorithm;

const BEGIN: &str = "<!-- variants:begin -->";
const END: &str = "<!-- variants:end -->";

/// Columns of the table.
const COLUMNS: usize = 8;

/// The table row of every variant, in registry order; `None` cells are not checked (another
/// architecture's variant).
fn expected_rows() -> Vec<[Option<String>; COLUMNS]> {
    let mut rows = Vec::new();
    for &algorithm in Algorithm::ALL {
        for listing in algorithm.listing() {
            let details = algorithm.variant(listing.name).map(|v| {
                let requires = if v.requires().is_empty() {
                    "—".to_string()
                } else {
                    v.requires().to_string()
                };
                [
                    v.lanes().to_string(),
                    requires,
                    v.schedule().describe().to_string(),
                    v.description().to_string(),
                ]
                .map(Some)
            });
            let [lanes, requires, schedule, how] = details.unwrap_or_default();
            rows.push([
                Some(algorithm.name().to_string()),
                Some(listing.name.to_string()),
                Some(listing.interface.label().to_string()),
                lanes,
                Some(listing.arch.unwrap_or("all").to_string()),
                requires,
                schedule,
                how,
            ]);
        }
    }
    rows
}

fn render(row: &[Option<String>; COLUMNS]) -> String {
    let cells: Vec<&str> = row.iter().map(|c| c.as_deref().unwrap_or("?")).collect();
    format!("| {} |", cells.join(" | "))
}

#[test]
fn readme_variant_table_matches_the_registry() {
    let readme = include_str!("../../../README.md");
    let start = readme
        .find(BEGIN)
        .expect("README has the variants:begin marker")
        + BEGIN.len();
    let end = readme
        .find(END)
        .expect("README has the variants:end marker");
    let table: Vec<&str> = readme[start..end]
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('|'))
        .skip(2) // header and separator
        .collect();
    let expected = expected_rows();
    let want: Vec<String> = expected.iter().map(render).collect();
    let message = format!(
        "README variant table differs from the registry; rows for this build ('?' = another \
         architecture's, not checked here):\n{}",
        want.join("\n")
    );
    assert_eq!(table.len(), expected.len(), "{message}");
    for (line, row) in table.iter().zip(&expected) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        assert_eq!(cells.len(), COLUMNS, "{line}\n{message}");
        for (cell, want) in cells.iter().zip(row) {
            if let Some(want) = want {
                assert_eq!(cell, want, "{line}\n{message}");
            }
        }
    }
}
