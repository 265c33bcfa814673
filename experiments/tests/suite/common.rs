//! Running the `boardlab` binary from integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `boardlab` with `args`.
pub fn boardlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args)
        .output()
        .expect("boardlab runs")
}

/// Runs `boardlab` and returns its standard output; fails the test on an
/// error exit.
pub fn ok(args: &[&str]) -> String {
    let out = boardlab(args);
    assert!(
        out.status.success(),
        "boardlab {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Checks `boardlab` exits with status 2 and a message holding `needle`,
/// without a panic.
pub fn fails(args: &[&str], needle: &str) {
    let out = boardlab(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "boardlab {args:?}: {err}");
    assert!(
        !err.contains("panicked") && err.contains(needle),
        "boardlab {args:?}: {err:?} lacks {needle:?}"
    );
}

/// The prefix of a test run's scratch folder in the system's temporary
/// folder: `boardlab-tests-PID`.
const SCRATCH: &str = "boardlab-tests-";

/// This test process's scratch folder, `boardlab-tests-PID` in the
/// system's temporary folder. The first call removes the folders earlier
/// runs left whose process is gone (no `/proc/PID`), so that a developer's
/// temporary folder holds at most the last run's files, kept for a look
/// after a failure.
pub fn scratch_root() -> PathBuf {
    static ROOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let tmp = std::env::temp_dir();
        if let Ok(entries) = std::fs::read_dir(&tmp) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let gone = name
                    .strip_prefix(SCRATCH)
                    .and_then(|pid| pid.parse::<u32>().ok())
                    .is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists());
                if gone {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
        let root = tmp.join(format!("{SCRATCH}{}", std::process::id()));
        std::fs::create_dir_all(&root).unwrap();
        root
    })
    .clone()
}

/// A folder `name` of this process's scratch folder, made if missing;
/// its files are kept.
pub fn scratch(name: &str) -> PathBuf {
    let d = scratch_root().join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A fresh (emptied) folder for one test.
pub fn dir(name: &str) -> PathBuf {
    let d = scratch_root().join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `d/name` as a string argument.
pub fn p(d: &Path, name: &str) -> String {
    d.join(name).to_str().unwrap().to_string()
}

/// A games file's rows (plain or compressed) sorted by game index, without
/// the wall-clock column (the only one that differs between two runs of the
/// same games).
pub fn rows_without_timing(path: impl AsRef<Path>) -> Vec<Vec<String>> {
    let text = experiments::run::storage::read_to_string(path.as_ref()).unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let head = r.headers().unwrap().clone();
    let wall = head.iter().position(|h| h == "wall_ms").unwrap();
    let idx = head.iter().position(|h| h == "game_index").unwrap();
    let mut rows: Vec<Vec<String>> = r
        .records()
        .map(|rec| {
            rec.unwrap()
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != wall)
                .map(|(_, v)| v.to_string())
                .collect()
        })
        .collect();
    rows.sort_by_key(|row| row[idx].parse::<u64>().unwrap());
    rows
}
