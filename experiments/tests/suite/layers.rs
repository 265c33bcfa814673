//! The layers of the experiments crate run one way: commands → research
//! and report → run → stats and output. This test reads the sources and
//! fails when a module names a layer above its own (`crate::x` in code,
//! `use crate::{x, ...}` included; comments are not read).

use std::path::Path;

/// Each layer (a folder of `src/`) and the modules it must not name.
const RULES: [(&str, &[&str]); 6] = [
    ("output", &["run", "research", "report", "commands"]),
    ("stats", &["run", "research", "report", "commands"]),
    ("run", &["research", "report", "commands"]),
    ("research", &["report", "commands"]),
    ("report", &["commands"]),
    ("serve", &["commands"]),
];

/// The top-level modules a source names through `crate::`.
fn crate_modules(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // `crate::{a, b::c}`: the group's first segments (on this line).
                let inner = group.split('}').next().unwrap_or("");
                for item in inner.split(',') {
                    let name: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    found.push(name);
                }
            } else {
                found.push(
                    rest.chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect(),
                );
            }
        }
    }
    found
}

/// Every `.rs` file under `dir`, recursively.
fn sources(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The imports that run up a layer, as `file names crate::x` lines.
fn upward_imports(src: &Path) -> Vec<String> {
    let mut bad = Vec::new();
    for (layer, forbidden) in RULES {
        let mut files = Vec::new();
        sources(&src.join(layer), &mut files);
        assert!(!files.is_empty(), "no sources in src/{layer}");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for module in crate_modules(&text) {
                if forbidden.contains(&module.as_str()) {
                    bad.push(format!("{} names crate::{module}", file.display()));
                }
            }
        }
    }
    bad
}

#[test]
fn no_module_imports_a_layer_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = upward_imports(&src);
    assert!(
        bad.is_empty(),
        "imports that run upward:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_scan_finds_plain_grouped_and_inline_paths() {
    let text = "use crate::run::play;\nuse crate::{stats, research::x};\n\
                // crate::commands in a comment\nlet r = crate::report::short(s);\n";
    assert_eq!(
        crate_modules(text),
        ["run", "stats", "research", "report"].map(String::from)
    );
}
