//! Records the git commit the binary is built from (`BOARDLAB_GIT_COMMIT`)
//! for the provenance written into every run's configuration: the commit,
//! with `-dirty` appended when the sources the binary is compiled from
//! ([`SOURCES`]) differ from it, so that a run played by uncommitted code
//! does not name a commit that cannot replay it; "unknown" outside a git
//! checkout or without git, never a build failure.

use std::path::Path;
use std::process::Command;

/// The binary's sources, relative to the workspace root: the three
/// crates' code and manifests and the workspace's manifest and lock file.
const SOURCES: [&str; 8] = [
    "engine/src",
    "engine/Cargo.toml",
    "agents/src",
    "agents/Cargo.toml",
    "experiments/src",
    "experiments/Cargo.toml",
    "Cargo.toml",
    "Cargo.lock",
];

/// `git ARGS` run in `dir`: its standard output, trimmed, when it succeeds.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    Command::new("git")
        .current_dir(dir)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
}

fn main() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = here.parent().unwrap_or(here);
    let commit = git(root, &["rev-parse", "HEAD"])
        .filter(|s| !s.is_empty())
        .map(|c| {
            let mut args = vec!["status", "--porcelain", "--untracked-files=no", "--"];
            args.extend(SOURCES);
            match git(root, &args) {
                Some(changes) if changes.is_empty() => c,
                _ => format!("{c}-dirty"),
            }
        })
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=BOARDLAB_GIT_COMMIT={commit}");
    // The list, for the test that asks git the same question.
    println!("cargo:rustc-env=BOARDLAB_SOURCES={}", SOURCES.join(" "));
    // Rebuild when HEAD moves (HEAD itself, the branch it names, packed
    // refs), when the index changes (a commit, `git add`) and when a
    // source changes (a directory is scanned for any modified file).
    let branch = git(root, &["symbolic-ref", "-q", "HEAD"]);
    let git_paths = [
        "HEAD".to_string(),
        "packed-refs".to_string(),
        "index".to_string(),
    ]
    .into_iter()
    .chain(branch)
    .filter_map(|p| {
        git(
            root,
            &["rev-parse", "--path-format=absolute", "--git-path", &p],
        )
    });
    let sources = SOURCES
        .iter()
        .map(|s| root.join(s).to_string_lossy().into_owned());
    for path in git_paths.chain(sources) {
        if Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
