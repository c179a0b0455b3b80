//! `cargo xtask layers`: reads the engine crate's imports file by file and checks that they
//! run one way: no circle of files, and no file importing from a higher layer than its own.
//!
//! Every `crate::`, `super::` and `self::` path in a file's code (its `use` items, grouped
//! ones expanded, and paths written inline) names the module file it resolves to (the deepest
//! module the path reaches; an item re-exported by a module counts as that module's). Test
//! code (`src/tests.rs` and each file's `#[cfg(test)] mod tests` at its end) is left out: tests
//! may reach anywhere. Each file's layer comes from [`LAYERS`]; a file no entry names is an
//! error, so a new file is placed on purpose.

use crate::CommandResult;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The engine crate's layers, lowest first: each file may import from its own layer and the
/// ones below. `(layer, what it holds, the files: a path under src/, or a folder ending in /)`.
const LAYERS: &[(&str, &str, &[&str])] = &[
    (
        "registry",
        "CPU features and masks, variants, algorithms, selection rules, errors, report values",
        &["registry/"],
    ),
    (
        "dispatch",
        "the per-algorithm slot and its key traits, the lane kernels' list, the published cell, \
         the cores' chunked storage",
        &["dispatch/", "hash_function.rs", "core_storage.rs"],
    ),
    (
        "execution",
        "the batch executor and calibration, one-shot hashing, the hashers and their core, PBKDF2",
        &[
            "batch/",
            "kdf/",
            "oneshot.rs",
            "block_api.rs",
            "streaming.rs",
        ],
    ),
    (
        "engine",
        "the public API: re-exports, reports, choices, pinned handles, the registry's entries",
        &["engine/", "algorithms.rs", "hmac.rs", "pbkdf2.rs", "lib.rs"],
    ),
];

/// The options, for `--help`.
const HELP: &str = "usage: cargo xtask layers [--graph] [--src DIR]

Reads the imports of crates/multisha/src file by file and checks that no files import each
other in a circle and that no file imports from a layer above its own (the layers are listed
in xtask/src/layers.rs). Prints a summary; exits 1 on a circle or an upward import.

  --graph     also print every file's imports
  --src DIR   read another checkout's engine sources (default: crates/multisha/src here)";

pub(crate) fn run(args: &[String]) -> CommandResult {
    let mut graph_wanted = false;
    let mut src = workspace_root().join("crates/multisha/src");
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--graph" => graph_wanted = true,
            "--src" => {
                src = args
                    .next()
                    .ok_or_else(|| format!("--src takes a folder\n\n{HELP}"))?
                    .into();
            }
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(());
            }
            other => return Err(format!("unknown option `{other}`\n\n{HELP}").into()),
        }
    }
    let files = module_files(&src)?;
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut read = BTreeMap::new();
    for (module, path) in &files {
        let text =
            fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
        let code = without_tests(&strip_comments_and_strings(&text));
        read.insert(module.clone(), references(&code));
    }
    let bindings: BTreeMap<String, BTreeMap<String, Vec<String>>> = read
        .iter()
        .map(|(module, paths)| {
            let names = paths
                .uses
                .iter()
                .filter_map(|p| Some((p.last()?.clone(), p.clone())))
                .collect();
            (module.clone(), names)
        })
        .collect();
    let modules = Modules {
        files: &files,
        bindings: &bindings,
    };
    for (module, paths) in &read {
        let mut imports = BTreeSet::new();
        for reference in &paths.internal {
            if let Some(target) = modules.resolve(module, reference, 0)
                && &target != module
            {
                imports.insert(target);
            }
        }
        graph.insert(module.clone(), imports);
    }
    let layer_of = |module: &str| -> Result<usize, String> {
        let file = files[module]
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        LAYERS
            .iter()
            .position(|(_, _, paths)| {
                paths.iter().any(|p| match p.strip_suffix('/') {
                    Some(folder) => file.starts_with(&format!("{folder}/")),
                    None => file == *p,
                })
            })
            .ok_or_else(|| {
                format!("src/{file} is in no layer: add it to LAYERS in xtask/src/layers.rs")
            })
    };
    let mut layers = BTreeMap::new();
    for module in graph.keys() {
        layers.insert(module.clone(), layer_of(module)?);
    }
    if graph_wanted {
        for (module, imports) in &graph {
            let names: Vec<&str> = imports.iter().map(String::as_str).collect();
            println!(
                "{module} [{}] -> {}",
                LAYERS[layers[module]].0,
                names.join(", ")
            );
        }
        println!();
    }
    let circles = circles(&graph);
    let mut upward = Vec::new();
    for (module, imports) in &graph {
        for target in imports {
            if layers[target] > layers[module] {
                upward.push(format!(
                    "{module} ({}) imports {target} ({})",
                    LAYERS[layers[module]].0, LAYERS[layers[target]].0
                ));
            }
        }
    }
    let edges: usize = graph.values().map(BTreeSet::len).sum();
    println!(
        "crates/multisha/src: {} files, {edges} imports between files, {} layers ({})",
        graph.len(),
        LAYERS.len(),
        LAYERS.iter().map(|l| l.0).collect::<Vec<_>>().join(" < ")
    );
    for (name, about, _) in LAYERS {
        let members: Vec<&str> = graph
            .keys()
            .filter(|m| LAYERS[layers[*m]].0 == *name)
            .map(String::as_str)
            .collect();
        println!("  {name} ({about}): {}", members.join(", "));
    }
    println!("circles of files: {}", circles.len());
    for circle in &circles {
        println!("  {}", circle.join(", "));
    }
    println!("imports from a higher layer: {}", upward.len());
    for line in &upward {
        println!("  {line}");
    }
    if circles.is_empty() && upward.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} circle(s) of files and {} upward import(s)",
            circles.len(),
            upward.len()
        )
        .into())
    }
}

/// The workspace's root: the folder above xtask's.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

/// Every module file under `src` by its module path (`batch::executor`; `crate` for lib.rs),
/// leaving out the crate's test module (`src/tests.rs`).
fn module_files(src: &Path) -> Result<BTreeMap<String, PathBuf>, String> {
    let mut files = BTreeMap::new();
    let mut folders = vec![src.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries =
            fs::read_dir(&folder).map_err(|e| format!("reading {}: {e}", folder.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path
                .strip_prefix(src)
                .expect("under src")
                .with_extension("");
            let mut parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
                parts.pop();
            }
            if parts == ["tests"] {
                continue;
            }
            let module = if parts.is_empty() {
                "crate".to_string()
            } else {
                parts.join("::")
            };
            files.insert(module, path);
        }
    }
    Ok(files)
}

/// `text` with comments, string and character literals blanked (their line breaks kept):
/// a path in a doc comment or a message is not an import.
fn strip_comments_and_strings(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if c == '"' || (c == 'r' && matches!(next, Some('"') | Some('#'))) {
            i = skip_string(&chars, i, &mut out);
        } else if c == '\'' {
            // A character literal ('a', '\n', '\''), or a lifetime ('a): only the former closes
            // within a few characters.
            let close = (i + 2..(i + 12).min(chars.len())).find(|&j| chars[j] == '\'');
            match close {
                Some(j) if chars[i + 1] == '\\' || j == i + 2 => {
                    out.push(' ');
                    i = j + 1;
                }
                _ => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Skips the string literal starting at `chars[start]` (plain or raw), keeping its line
/// breaks in `out`; returns the index after it.
fn skip_string(chars: &[char], start: usize, out: &mut String) -> usize {
    let mut i = start;
    let mut hashes = 0;
    let raw = chars[i] == 'r';
    if raw {
        i += 1;
        while chars.get(i) == Some(&'#') {
            hashes += 1;
            i += 1;
        }
        if chars.get(i) != Some(&'"') {
            // `r#ident`, not a string.
            out.extend(&chars[start..i]);
            return i;
        }
    }
    i += 1;
    while i < chars.len() {
        match chars[i] {
            '\\' if !raw => i += 2,
            '"' if (1..=hashes).all(|h| chars.get(i + h) == Some(&'#')) => {
                out.push_str("\"\"");
                return i + 1 + hashes;
            }
            '\n' => {
                out.push('\n');
                i += 1;
            }
            _ => i += 1,
        }
    }
    i
}

/// `code` without its test module: from a `#[cfg(test)]` line followed by `mod tests` on.
fn without_tests(code: &str) -> String {
    let lines: Vec<&str> = code.lines().collect();
    let end = (0..lines.len())
        .find(|&i| {
            lines[i].trim() == "#[cfg(test)]"
                && lines
                    .get(i + 1)
                    .is_some_and(|l| l.trim_start().starts_with("mod tests"))
        })
        .unwrap_or(lines.len());
    lines[..end].join("\n")
}

/// The paths a file's code names.
struct Paths {
    /// Each `use` item's paths and each path written inline that start with `crate`, `super`,
    /// `self` or a child module the file declares (`mod calibrate;` then `calibrate::costs`,
    /// read as `self::calibrate::costs`).
    internal: Vec<Vec<String>>,
    /// Every `use` item's paths (groups expanded, external crates' too): the names the file
    /// binds, each the last segment, which its child modules may reach through `super::`.
    uses: Vec<Vec<String>>,
}

/// The paths `code` names ([`Paths`]).
fn references(code: &str) -> Paths {
    let tokens = tokens(code);
    let children: Vec<&String> = (0..tokens.len().saturating_sub(2))
        .filter(|&i| tokens[i] == "mod" && tokens[i + 2] == ";")
        .map(|i| &tokens[i + 1])
        .collect();
    let starts_path =
        |t: &String| matches!(t.as_str(), "crate" | "super" | "self") || children.contains(&t);
    let (mut found, mut uses) = (Vec::new(), Vec::new());
    // Inline modules (`mod measure { .. }`) open at these brace depths: a `super` inside one
    // names the module around it, in this same file.
    let (mut depth, mut inline) = (0usize, Vec::new());
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i].as_str() {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last() == Some(&depth) {
                    inline.pop();
                }
            }
            "mod" if tokens.get(i + 2).is_some_and(|t| t == "{") => inline.push(depth),
            _ => {}
        }
        // The `super`s that stay within this file, dropped from a path that starts with them.
        let within = |path: &mut Vec<String>| {
            let supers = path.iter().take_while(|p| *p == "super").count();
            let dropped = supers.min(inline.len());
            path.drain(..dropped);
            if dropped > 0 && dropped == supers {
                path.insert(0, "self".to_string());
            }
        };
        if tokens[i] == "use" && (i == 0 || tokens[i - 1] != "::") {
            let end = (i..tokens.len())
                .find(|&j| tokens[j] == ";")
                .unwrap_or(tokens.len());
            let mut paths = Vec::new();
            expand_use(&tokens[i + 1..end], &[], &mut paths);
            paths.iter_mut().for_each(within);
            found.extend(
                paths
                    .iter()
                    .filter(|p| p.first().is_some_and(starts_path))
                    .cloned(),
            );
            uses.extend(paths);
            i = end;
            continue;
        }
        if starts_path(&tokens[i])
            && tokens.get(i + 1).is_some_and(|t| t == "::")
            && (i == 0 || tokens[i - 1] != "::")
        {
            let mut path = vec![tokens[i].clone()];
            let mut j = i + 1;
            while tokens.get(j).is_some_and(|t| t == "::")
                && tokens.get(j + 1).is_some_and(|t| is_ident(t))
            {
                path.push(tokens[j + 1].clone());
                j += 2;
            }
            within(&mut path);
            found.push(path);
            i = j;
            continue;
        }
        i += 1;
    }
    // A child module's path is relative to this one.
    for path in found.iter_mut().chain(&mut uses) {
        if children.contains(&&path[0]) {
            path.insert(0, "self".to_string());
        }
    }
    Paths {
        internal: found,
        uses,
    }
}

/// Appends the paths of one `use` tree (`tokens`, after `prefix`) to `found`.
fn expand_use(tokens: &[String], prefix: &[String], found: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if t == "{" {
            // Split the group at its top-level commas.
            let mut depth = 0;
            let mut start = i + 1;
            for j in i..tokens.len() {
                match tokens[j].as_str() {
                    "{" => depth += 1,
                    "}" => {
                        depth -= 1;
                        if depth == 0 {
                            expand_use(&tokens[start..j], &path, found);
                            return;
                        }
                    }
                    "," if depth == 1 => {
                        expand_use(&tokens[start..j], &path, found);
                        start = j + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        if t == "as" || t == "*" {
            break;
        }
        if is_ident(t) {
            path.push(t.clone());
        }
        i += 1;
    }
    if !path.is_empty() {
        found.push(path);
    }
}

/// Identifiers, `::`, and single punctuation characters of `code`.
fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            tokens.push("::".to_string());
            i += 2;
        } else {
            if !c.is_whitespace() {
                tokens.push(c.to_string());
            }
            i += 1;
        }
    }
    tokens
}

fn is_ident(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The module files and the names each binds with `use`.
struct Modules<'a> {
    files: &'a BTreeMap<String, PathBuf>,
    bindings: &'a BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

impl Modules<'_> {
    /// The module file `path` (named in module `from`) resolves to: the deepest module its
    /// segments reach; where the next segment is a name that module binds with `use` (a
    /// re-export, `pub use variant::Variant`, or an import its children reach through
    /// `super::`), the file that name comes from (`None` for another crate's). `depth` bounds
    /// the chain of such names.
    fn resolve(&self, from: &str, path: &[String], depth: usize) -> Option<String> {
        let mut base: Vec<String> = if from == "crate" {
            Vec::new()
        } else {
            from.split("::").map(str::to_string).collect()
        };
        let rest = match path.first()?.as_str() {
            "crate" => {
                base.clear();
                &path[1..]
            }
            "self" => &path[1..],
            "super" => {
                // One module up per `super` (from `batch/mod.rs`, module `batch`: the crate).
                let mut k = 0;
                while path.get(k).is_some_and(|s| s == "super") {
                    base.pop()?;
                    k += 1;
                }
                &path[k..]
            }
            _ => return None,
        };
        let mut module = base;
        let mut best = if module.is_empty() {
            "crate".to_string()
        } else {
            module.join("::")
        };
        let mut next = None;
        for segment in rest {
            module.push(segment.clone());
            let name = module.join("::");
            if self.files.contains_key(&name) {
                best = name;
            } else {
                next = Some(segment);
                break;
            }
        }
        if let Some(bound) = next.and_then(|n| self.bindings.get(&best)?.get(n))
            && depth < 8
        {
            return self.resolve(&best, bound, depth + 1);
        }
        self.files.contains_key(&best).then_some(best)
    }
}

/// The circles of `graph` (strongly connected groups of two files or more), each sorted.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Tarjan's algorithm, iteratively: the graph is small, but recursion depth should not
    // depend on input.
    let names: Vec<&String> = graph.keys().collect();
    let index_of: BTreeMap<&String, usize> =
        names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let edges: Vec<Vec<usize>> = names
        .iter()
        .map(|n| {
            graph[*n]
                .iter()
                .filter_map(|t| index_of.get(t).copied())
                .collect()
        })
        .collect();
    let n = names.len();
    let (mut index, mut low, mut on_stack) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut next, mut found) = (Vec::new(), 0, Vec::new());
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0)];
        while let Some(&mut (v, ref mut child)) = work.last_mut() {
            if *child == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(*child) {
                *child += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut group = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    group.push(names[w].clone());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    found.push(group);
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(names: &[&str]) -> BTreeMap<String, PathBuf> {
        names
            .iter()
            .map(|n| (n.to_string(), PathBuf::from(n)))
            .collect()
    }

    #[test]
    fn use_groups_and_inline_paths_are_read_and_comments_and_strings_are_not() {
        let code = strip_comments_and_strings(
            "mod child;\nuse super::{a, b::{c, d as e}};\n// use crate::x;\nlet s = \"crate::y::z\";\n\
             /* crate::w */ f(crate::batch::executor::run(), 'c');\nuse crate::m::*;\n\
             use core::fmt;\nchild::go(); use child::Thing;\n\
             mod inner { use super::*; fn f() { super::super::up(); } }\nsuper::after();",
        );
        let found: Vec<String> = references(&code)
            .internal
            .iter()
            .map(|p| p.join("::"))
            .collect();
        assert_eq!(
            found,
            [
                "super::a",
                "super::b::c",
                "super::b::d",
                "crate::batch::executor::run",
                "crate::m",
                "self::child::go",
                "self::child::Thing",
                "self",
                "super::up",
                "super::after"
            ]
        );
    }

    #[test]
    fn paths_resolve_to_the_deepest_module_file_and_names_to_where_they_come_from() {
        let files = files(&[
            "crate",
            "batch",
            "batch::executor",
            "engine",
            "engine::dispatch",
            "engine::variant",
        ]);
        let path = |p: &str| p.split("::").map(str::to_string).collect::<Vec<_>>();
        // `engine` re-exports `variant::Variant` and `core::fmt::Write`.
        let mut bindings = BTreeMap::new();
        bindings.insert(
            "engine".to_string(),
            BTreeMap::from([
                ("Variant".to_string(), path("self::variant::Variant")),
                ("Write".to_string(), path("core::fmt::Write")),
            ]),
        );
        let modules = Modules {
            files: &files,
            bindings: &bindings,
        };
        let at = |from: &str, p: &str| modules.resolve(from, &path(p), 0);
        assert_eq!(
            at("engine::dispatch", "super::Variant").as_deref(),
            Some("engine::variant")
        );
        assert_eq!(at("engine::dispatch", "super::Write"), None);
        assert_eq!(
            at("engine::dispatch", "super::Algorithm").as_deref(),
            Some("engine")
        );
        assert_eq!(
            at("batch", "crate::batch::executor::run").as_deref(),
            Some("batch::executor")
        );
        assert_eq!(at("batch", "crate::Sha256").as_deref(), Some("crate"));
        assert_eq!(
            at("batch", "self::executor").as_deref(),
            Some("batch::executor")
        );
    }

    #[test]
    fn a_circle_is_found_and_a_chain_is_not() {
        let graph = |edges: &[(&str, &str)]| {
            let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            for (a, b) in edges {
                g.entry(a.to_string()).or_default().insert(b.to_string());
                g.entry(b.to_string()).or_default();
            }
            g
        };
        assert!(circles(&graph(&[("a", "b"), ("b", "c")])).is_empty());
        assert_eq!(
            circles(&graph(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])),
            [["a", "b", "c"]]
        );
    }
}
