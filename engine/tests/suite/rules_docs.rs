//! The rules documentation stays complete and self-contained:
//!
//! * every rule identifier cited in the engine's sources (`C-P1`, `KC-12`,
//!   `B-SET-2`, Slingshot's `S13`, …) is defined, as a bold `**ID**` entry,
//!   in the game's own `docs/rules/<game>.md` or in a rules file it links to
//!   (the Sly games link `sly-board.md`);
//! * no file of the repository points at the rules research outside it.
//!
//! Game code is found by name, not by a list: a source file belongs to the
//! game whose `docs/rules/<name>.md` matches the nearest directory (or the
//! file itself) on its path, so games may move between folders. Code outside
//! any game (the Sly board, the API, the toolkit) is checked against the rules
//! files whose first word names one of its path components (`board/sly/geometry.rs` →
//! `sly-board.md` and the files linking to it), or else against all of them.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every file under `dir`, recursively, skipping build output and hidden
/// directories.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            if name != "target" && !name.starts_with('.') {
                walk(&p, out);
            }
        } else {
            out.push(p);
        }
    }
}

/// Maximal runs of ASCII letters, digits and inner hyphens.
fn tokens(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .map(|t| t.trim_matches('-'))
        .filter(|t| !t.is_empty())
}

fn upper(s: &str, max: usize) -> bool {
    !s.is_empty() && s.len() <= max && s.bytes().all(|b| b.is_ascii_uppercase())
}

/// `[A-Z]{0,4}[0-9]+[a-z]?`: the numbered tail of an identifier.
fn numbered(s: &str) -> bool {
    let letters = s.bytes().take_while(u8::is_ascii_uppercase).count();
    let rest = &s[letters..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let tail = &rest[digits..];
    letters <= 4
        && digits >= 1
        && (tail.is_empty() || (tail.len() == 1 && tail.bytes().all(|b| b.is_ascii_lowercase())))
}

/// A hyphenated rule identifier (`C-P1`, `B-SET-2`, `B-R5b`, `C-R-def`):
/// returns its first segment (the family, `C`, `B`, `KC`, …).
fn hyphenated(t: &str) -> Option<&str> {
    let segs: Vec<&str> = t.split('-').collect();
    let (last, head) = segs.split_last()?;
    if head.is_empty() || !head.iter().all(|s| upper(s, 4)) {
        return None;
    }
    let lower_tail = head.len() >= 2 && last.bytes().all(|b| b.is_ascii_lowercase());
    (numbered(last) || lower_tail).then_some(head[0])
}

/// A bare identifier (`S13`, `QB3`, `K10`, `D4`): returns its letters.
fn bare(t: &str) -> Option<&str> {
    let letters = t.bytes().take_while(u8::is_ascii_uppercase).count();
    let digits = &t[letters..];
    ((1..=2).contains(&letters)
        && (1..=2).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit()))
    .then_some(&t[..letters])
}

/// One rules file: the identifiers it defines (bold entries) and the rules
/// files it links to.
#[derive(Default)]
struct Doc {
    defined: BTreeSet<String>,
    links: BTreeSet<String>,
}

fn read_docs(dir: &Path) -> BTreeMap<String, Doc> {
    let mut docs = BTreeMap::new();
    let mut files = Vec::new();
    walk(dir, &mut files);
    for f in files {
        if f.extension().and_then(|e| e.to_str()) != Some("md") {
            continue;
        }
        let stem = f.file_stem().unwrap().to_str().unwrap().to_string();
        if stem == "README" {
            continue;
        }
        let text = fs::read_to_string(&f).unwrap();
        let mut doc = Doc::default();
        for (i, part) in text.split("**").enumerate() {
            if i % 2 == 1 && (hyphenated(part).is_some() || bare(part).is_some()) {
                doc.defined.insert(part.to_string());
            }
        }
        for part in text.split("](").skip(1) {
            let target = part.split(')').next().unwrap_or("");
            if let Some(linked) = target.strip_suffix(".md")
                && !linked.contains('/')
            {
                doc.links.insert(linked.to_string());
            }
        }
        docs.insert(stem, doc);
    }
    docs
}

/// The first word of a rules file's name (`sly-board` → `sly`).
fn first_word(stem: &str) -> &str {
    stem.split(['-', '_']).next().unwrap_or(stem)
}

/// The rules files a source file is checked against, and whether it is a
/// specific set (a game, or named by the path) rather than all of them.
fn docs_for(rel: &Path, docs: &BTreeMap<String, Doc>) -> (BTreeSet<String>, bool) {
    let parts: Vec<String> = rel
        .iter()
        .map(|c| {
            let c = Path::new(c);
            c.file_stem()
                .unwrap_or(c.as_os_str())
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    // With the links of `names` and the files linking to them.
    let close = |names: BTreeSet<String>, back: bool| {
        let mut set = names.clone();
        for n in &names {
            if let Some(d) = docs.get(n) {
                set.extend(d.links.iter().filter(|l| docs.contains_key(*l)).cloned());
            }
            if back {
                set.extend(
                    docs.iter()
                        .filter(|(_, d)| d.links.contains(n))
                        .map(|(k, _)| k.clone()),
                );
            }
        }
        set
    };
    if let Some(game) = parts.iter().rev().find(|p| docs.contains_key(*p)) {
        return (close(BTreeSet::from([game.clone()]), false), true);
    }
    let named: BTreeSet<String> = docs
        .keys()
        .filter(|k| parts.iter().any(|p| p == first_word(k)))
        .cloned()
        .collect();
    if named.is_empty() {
        (docs.keys().cloned().collect(), false)
    } else {
        (close(named, true), true)
    }
}

/// Rule identifiers cited under `engine/src` that the rules files do not
/// define, as `path:line: ID (files checked)`.
fn undefined_citations(root: &Path) -> Vec<String> {
    let docs = read_docs(&root.join("docs/rules"));
    assert!(
        docs.len() >= 14,
        "docs/rules should hold the 13 games and the Sly board"
    );
    let families: BTreeSet<&str> = docs
        .values()
        .flat_map(|d| d.defined.iter())
        .filter_map(|id| hyphenated(id))
        .collect();
    let src = root.join("engine/src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let mut missing = Vec::new();
    let mut cited = 0;
    for f in files
        .iter()
        .filter(|f| f.extension().and_then(|e| e.to_str()) == Some("rs"))
    {
        let rel = f.strip_prefix(&src).unwrap();
        let (set, specific) = docs_for(rel, &docs);
        let defined: BTreeSet<&str> = set
            .iter()
            .flat_map(|n| docs[n].defined.iter().map(String::as_str))
            .collect();
        // Bare identifiers (`S13`, `D4`) are checked for the letter prefixes
        // these files use bare; outside a specific set only two-letter ones
        // (`QB3`), since one letter and a digit is also a coordinate.
        let bare_prefixes: BTreeSet<&str> = defined
            .iter()
            .filter_map(|id| bare(id))
            .filter(|p| specific || p.len() == 2)
            .collect();
        let text = fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            for t in tokens(line) {
                let cites = match (hyphenated(t), bare(t)) {
                    (Some(family), _) => families.contains(family),
                    (None, Some(prefix)) => bare_prefixes.contains(prefix),
                    _ => false,
                };
                if !cites {
                    continue;
                }
                cited += 1;
                if !defined.contains(t) {
                    let set: Vec<_> = set.iter().map(|s| format!("{s}.md")).collect();
                    missing.push(format!(
                        "engine/src/{}:{}: {t} (not in docs/rules/{{{}}})",
                        rel.display(),
                        n + 1,
                        set.join(",")
                    ));
                }
            }
        }
    }
    assert!(
        cited > 500,
        "only {cited} rule citations found under engine/src: is the scanner broken?"
    );
    missing
}

#[test]
fn every_cited_rule_is_documented() {
    let missing = undefined_citations(&repo());
    assert!(
        missing.is_empty(),
        "rule identifiers cited in the engine but not defined (as **ID**) in its rules file:\n{}",
        missing.join("\n")
    );
}

#[test]
fn nothing_points_outside_the_repository() {
    let root = repo();
    // Built at run time so that this file does not match itself.
    let needles = [["shared", "rules"].join("/"), ["shared", "seeds"].join("/")];
    let mut files = vec![root.join("README.md"), root.join("results/README.md")];
    for dir in ["engine", "agents", "experiments", "bench", "docs"] {
        walk(&root.join(dir), &mut files);
    }
    let mut hits = Vec::new();
    for f in &files {
        let Ok(text) = fs::read_to_string(f) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            if needles.iter().any(|s| line.contains(s.as_str())) {
                hits.push(format!(
                    "{}:{}: {}",
                    f.strip_prefix(&root).unwrap_or(f).display(),
                    n + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(files.len() > 100, "only {} files walked", files.len());
    assert!(
        hits.is_empty(),
        "references outside the repository (use docs/rules/<game>.md):\n{}",
        hits.join("\n")
    );
}

#[test]
fn scanner_reads_identifiers() {
    assert_eq!(hyphenated("C-P1"), Some("C"));
    assert_eq!(hyphenated("B-SET-2"), Some("B"));
    assert_eq!(hyphenated("B-R5b"), Some("B"));
    assert_eq!(hyphenated("C-R-def"), Some("C"));
    assert_eq!(hyphenated("KC-12"), Some("KC"));
    assert_eq!(hyphenated("D4-C3"), None);
    assert_eq!(hyphenated("x-y"), None);
    assert_eq!(hyphenated("BAGEL-L1"), None);
    assert_eq!(bare("QB3"), Some("QB"));
    assert_eq!(bare("S13"), Some("S"));
    assert_eq!(bare("u128"), None);
    assert_eq!(bare("5E"), None);
    let toks: Vec<_> = tokens("(C-B1–C-B3, B-1…B-13; `e4+e6xe5`)").collect();
    assert_eq!(toks, ["C-B1", "C-B3", "B-1", "B-13", "e4", "e6xe5"]);
}
