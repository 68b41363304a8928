//! The crate's module graph, read from its source: every `crate::`,
//! `super::` and `self::` path in production code (use trees included),
//! resolved to the deepest module file that holds it, and the circles
//! among sibling modules (`a::x` names `a::y` and `a::y` names `a::x`,
//! directly or around a longer loop). A module and its own submodules
//! may name each other; siblings may not both ways.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module's path below the crate root (`["core", "game"]`); the root is empty.
pub type Module = Vec<String>;

/// Every module file under `src` (unit-test files aside, and modules
/// declared under `#[cfg(test)]`: test fixtures) and its production code;
/// `main.rs` and `lib.rs` are both the root.
pub fn modules(src: &Path) -> BTreeMap<Module, String> {
    let mut files = Vec::new();
    super::rust_files(src, &mut files);
    let mut out: BTreeMap<Module, String> = BTreeMap::new();
    let mut test_only: Vec<Module> = Vec::new();
    for file in files.iter().filter(|f| !f.ends_with("tests.rs")) {
        let relative = file.strip_prefix(src).expect("under src").with_extension("");
        let mut module: Module = relative.iter().map(|c| c.to_string_lossy().into_owned()).collect();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        if module == ["lib"] || module == ["main"] {
            module.clear();
        }
        let text = std::fs::read_to_string(file).expect("readable");
        test_only.extend(test_modules(&text).into_iter().map(|name| [module.clone(), vec![name]].concat()));
        out.entry(module).or_default().push_str(&production_code(&text));
    }
    out.retain(|module, _| !test_only.iter().any(|t| module.starts_with(t)));
    out
}

/// The modules a file declares under `#[cfg(test)]` (`#[cfg(test)]
/// pub(crate) mod fixtures;`): test code, like a `tests.rs`.
fn test_modules(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|pair| pair[0].starts_with("#[cfg(test)]"))
        .filter_map(|pair| {
            let declared =
                pair[1].strip_prefix("pub(crate) ").or_else(|| pair[1].strip_prefix("pub ")).unwrap_or(pair[1]);
            declared.strip_prefix("mod ")?.strip_suffix(';').map(str::to_string)
        })
        .collect()
}

/// A file without its comment lines, its `#[cfg(test)] mod x;`
/// declarations and, from an inline `#[cfg(test)]` item on, the rest.
fn production_code(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        if line.starts_with("#[cfg(test)]") {
            if lines.get(i + 1).is_some_and(|next| next.trim_end().ends_with(';')) {
                i += 2;
                continue;
            }
            break;
        }
        if !line.starts_with("//") {
            out.push_str(lines[i]);
            out.push('\n');
        }
        i += 1;
    }
    out
}

/// The circles among sibling modules, each as `parent: a, b, c`
/// (`<crate>` for the root), sorted.
pub fn circles(modules: &BTreeMap<Module, String>) -> Vec<String> {
    // parent → sibling → siblings it names
    let mut graphs: BTreeMap<Module, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, code) in modules {
        for to in references(from, code, modules) {
            let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if shared == from.len() || shared == to.len() {
                continue; // a module and its own submodule
            }
            let siblings = graphs.entry(from[..shared].to_vec()).or_default();
            siblings.entry(from[shared].clone()).or_default().insert(to[shared].clone());
        }
    }
    let mut out = Vec::new();
    for (parent, graph) in &graphs {
        let name = if parent.is_empty() { "<crate>".to_string() } else { parent.join("/") };
        for circle in strongly_connected(graph) {
            out.push(format!("{name}: {}", circle.join(", ")));
        }
    }
    out.sort();
    out
}

/// The modules `code` (in module `from`) names by path.
pub fn references(from: &Module, code: &str, modules: &BTreeMap<Module, String>) -> BTreeSet<Module> {
    let bytes = code.as_bytes();
    let mut out = BTreeSet::new();
    for keyword in ["crate::", "super::", "self::"] {
        let mut at = 0;
        while let Some(found) = code[at..].find(keyword) {
            let start = at + found;
            at = start + keyword.len();
            let before = start.checked_sub(1).map(|i| bytes[i]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$') {
                continue;
            }
            let base: Module = match keyword {
                "crate::" => Vec::new(),
                "self::" => from.clone(),
                _ if from.is_empty() => continue,
                _ => from[..from.len() - 1].to_vec(),
            };
            let mut paths = Vec::new();
            use_tree(bytes, at, &[], &mut paths);
            for path in paths {
                let mut module = base.clone();
                let mut rest = path.as_slice();
                while let [first, tail @ ..] = rest
                    && first == "super"
                {
                    module.pop();
                    rest = tail;
                }
                module.extend(rest.iter().cloned());
                while !module.is_empty() && !modules.contains_key(&module) {
                    module.pop();
                }
                if !module.is_empty() && module != *from {
                    out.insert(module);
                }
            }
        }
    }
    out
}

/// The paths a use tree (or a plain path) starting at `i` spells, each
/// after `prefix`; returns where it ends.
fn use_tree(b: &[u8], mut i: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let mut segments = prefix.to_vec();
    loop {
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        if b.get(i) == Some(&b'{') {
            i += 1;
            loop {
                while b.get(i).is_some_and(|c| c.is_ascii_whitespace() || *c == b',') {
                    i += 1;
                }
                match b.get(i) {
                    None => return i,
                    Some(b'}') => return i + 1,
                    Some(_) => {
                        let before = i;
                        i = use_tree(b, i, &segments, out);
                        if i == before {
                            i += 1; // `*` or a character no path has
                        }
                    }
                }
            }
        }
        let start = i;
        while b.get(i).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
            i += 1;
        }
        if i == start {
            out.push(segments);
            return i;
        }
        segments.push(String::from_utf8_lossy(&b[start..i]).into_owned());
        let mut j = i;
        while b.get(j).is_some_and(u8::is_ascii_whitespace) {
            j += 1;
        }
        if b[j..].starts_with(b"::") {
            i = j + 2;
            continue;
        }
        out.push(segments);
        // `x as y`: the name it is known by here is no path.
        if b[j..].starts_with(b"as") && b.get(j + 2).is_some_and(u8::is_ascii_whitespace) {
            j += 2;
            while b.get(j).is_some_and(u8::is_ascii_whitespace) {
                j += 1;
            }
            while b.get(j).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
                j += 1;
            }
            return j;
        }
        return i;
    }
}

/// The groups of two or more nodes that all reach each other, each sorted.
fn strongly_connected(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reach = |from: &String| {
        let mut seen: BTreeSet<&String> = BTreeSet::new();
        let mut todo = vec![from];
        while let Some(node) = todo.pop() {
            for next in graph.get(node).into_iter().flatten() {
                if seen.insert(next) {
                    todo.push(next);
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<&String>> = graph.keys().map(|n| (n, reach(n))).collect();
    let mut placed: BTreeSet<&String> = BTreeSet::new();
    let mut out = Vec::new();
    for (node, reaches) in &reached {
        if placed.contains(node) || !reaches.contains(node) {
            continue;
        }
        let group: Vec<&String> = reaches
            .iter()
            .copied()
            .filter(|other| reached.get(*other).is_some_and(|back| back.contains(node)))
            .collect();
        placed.extend(group.iter().copied());
        let group: Vec<String> = group.into_iter().cloned().collect();
        if group.len() > 1 {
            out.push(group);
        }
    }
    out
}

#[test]
fn a_circle_is_found_through_use_trees_paths_and_super() {
    let module = |path: &[&str], code: &str| (path.iter().map(|s| s.to_string()).collect(), code.to_string());
    let tree: BTreeMap<Module, String> = [
        module(&[], "mod a; mod b; mod c;"),
        module(&["a"], "use crate::{b::{self, X}, c as see};"),
        module(&["a", "inner"], "fn f() { super::super::c::g() }"),
        module(&["b"], "fn f() { super::a::inner::h() }"),
        module(&["c"], "use super::b;\n#[cfg(test)]\nmod tests;\nuse crate::a::Y;"),
        module(&["d"], "use crate::a; use super::d::E;"),
    ]
    .into_iter()
    .collect();
    let from_a = references(&["a".to_string()].to_vec(), &tree[&vec!["a".to_string()]], &tree);
    assert_eq!(from_a, [vec!["b".to_string()], vec!["c".to_string()]].into_iter().collect());
    assert_eq!(circles(&tree), ["<crate>: a, b, c"]);
    let without_c_to_a = {
        let mut t = tree.clone();
        t.insert(vec!["c".to_string()], "fn nothing() {}".to_string());
        t.insert(vec!["a".to_string(), "inner".to_string()], String::new());
        t
    };
    assert_eq!(circles(&without_c_to_a), ["<crate>: a, b"], "a names b, b names a::inner");
}
