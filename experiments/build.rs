//! Records the git commit the binary is built from (`BOARDLAB_GIT_COMMIT`)
//! for the provenance written into every run's configuration; "unknown"
//! outside a git checkout or without git, never a build failure.

use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=BOARDLAB_GIT_COMMIT={commit}");
    // Rebuild when HEAD moves: HEAD itself, the branch it names, packed refs.
    let git_path = |p: &str| {
        Command::new("git")
            .args(["rev-parse", "--git-path", p])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let branch = Command::new("git")
        .args(["symbolic-ref", "-q", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    for p in ["HEAD".to_string(), "packed-refs".to_string()]
        .into_iter()
        .chain(branch)
    {
        if let Some(path) = git_path(&p).filter(|p| std::path::Path::new(p).exists()) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
