//! What keeps a long run from losing or corrupting data: an exclusive lock
//! on every file a run appends to, output checks before the first game, a
//! bound on worker threads, and the provenance written into every
//! configuration file.
//!
//! * **Locks.** `FILE.lock` beside an output is locked exclusively
//!   (`flock`, through `std::fs::File::try_lock`) for as long as the run
//!   appends to `FILE`; the holder writes its pid and command line into it,
//!   so a second run on the same output is refused at once with a message
//!   naming the first. The lock file is left in place (deleting it would let
//!   two later runs lock two different files); the lock dies with its
//!   process, so a killed run never leaves a stale lock.
//! * **Outputs.** Each output's folder is created and the file opened for
//!   appending before any game is played; a file that did not exist is
//!   removed again, so the check leaves nothing behind.
//! * **Threads.** More worker threads than 4 × the cores, or than the games
//!   left to play, are capped, with a note on standard error.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

/// The path of the lock file beside `out`: `FILE.lock` (for a compressed
/// `FILE.gz`, too).
pub fn lock_path(out: &Path) -> PathBuf {
    let mut p = super::storage::base_name(out).as_os_str().to_owned();
    p.push(".lock");
    PathBuf::from(p)
}

/// An exclusive lock on an output, held until dropped.
#[derive(Debug)]
pub struct OutputLock {
    file: File,
}

impl Drop for OutputLock {
    /// Unlocks explicitly rather than by closing: a child process forked by
    /// another thread (before its exec closes the descriptor) shares the
    /// lock's open file, and closing our descriptor alone would leave the
    /// lock held until that child execs.
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Locks `out` for this process: creates its folder, then locks
/// `FILE.lock` and writes this process's pid and command line into it.
///
/// # Errors
/// Another process holds the lock (the message names it), or the lock file
/// cannot be created.
pub fn lock_output(out: &Path) -> Result<OutputLock> {
    ensure_parent(out)?;
    let path = lock_path(out);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .with_context(|| format!("cannot create the lock file {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim().replace('\n', " ");
            let holder = if holder.is_empty() {
                "another process".to_string()
            } else {
                holder
            };
            bail!(
                "{} is being written by another run ({holder}); wait for it to finish or choose another output",
                out.display()
            );
        }
        Err(TryLockError::Error(e)) => {
            return Err(e).with_context(|| format!("cannot lock {}", path.display()));
        }
    }
    let me = format!("pid {}: {}\n", std::process::id(), command_line());
    file.set_len(0)
        .and_then(|()| file.seek(SeekFrom::Start(0)).map(drop))
        .and_then(|()| file.write_all(me.as_bytes()))
        .with_context(|| format!("cannot write the lock file {}", path.display()))?;
    Ok(OutputLock { file })
}

fn ensure_parent(path: &Path) -> Result<()> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create output folder {}", dir.display()))?;
    }
    Ok(())
}

/// Creates (or truncates) `path` for writing.
///
/// # Errors
/// A file that cannot be created, named.
pub fn create(path: &Path) -> Result<std::fs::File> {
    std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))
}

/// Checks that `path` can be written: creates its folder and opens it for
/// appending (without changing it); a file this check created is removed
/// again.
///
/// # Errors
/// A folder that cannot be created or a file that cannot be opened for
/// writing, named.
pub fn check_writable(path: &Path) -> Result<()> {
    if path.is_dir() {
        bail!("cannot write {}: it is a folder", path.display());
    }
    ensure_parent(path)?;
    let existed = path.exists();
    OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// The most worker threads a run starts: 4 × the cores.
pub fn max_threads() -> usize {
    4 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The worker threads to start for `requested` (0: one per core) and
/// `games` games left, with a note when the request was capped: never more
/// than [`max_threads`], nor more than the games.
pub fn cap_threads(requested: usize, games: usize) -> (usize, Option<String>) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let want = if requested == 0 { cores } else { requested };
    let cap = max_threads().min(games.max(1));
    if want <= cap {
        return (want, None);
    }
    let note = (requested != 0).then(|| {
        format!(
            "note: --threads {requested} capped at {cap} (at most 4 × {cores} cores and one per game left)"
        )
    });
    (cap, note)
}

/// Where a configuration file came from: the program version, the git
/// commit it was built from and the command line that wrote the file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// The boardlab version (`Cargo.toml`).
    pub version: String,
    /// `git rev-parse HEAD` at build time, or "unknown".
    pub commit: String,
    /// The command line, arguments quoted where needed.
    pub command: String,
}

impl Provenance {
    /// This process's provenance.
    pub fn current() -> Provenance {
        Provenance {
            version: env!("CARGO_PKG_VERSION").to_string(),
            commit: env!("BOARDLAB_GIT_COMMIT").to_string(),
            command: command_line(),
        }
    }

    /// One line: `boardlab VERSION (commit C): COMMAND`.
    pub fn line(&self) -> String {
        format!(
            "boardlab {} (commit {}): {}",
            self.version, self.commit, self.command
        )
    }
}

/// This process's command line, each argument quoted when it holds
/// anything but plain characters.
pub fn command_line() -> String {
    let mut args = std::env::args();
    let prog = args
        .next()
        .map(|p| {
            Path::new(&p)
                .file_name()
                .map_or(p.clone(), |f| f.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "boardlab".into());
    std::iter::once(prog)
        .chain(args.map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_=./,:+@%".contains(c));
            if plain {
                a
            } else {
                format!("'{}'", a.replace('\'', r"'\''"))
            }
        }))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The instruction-set extensions this binary was compiled to use (with
/// `-C target-cpu=native`, `.cargo/config.toml`, every extension of the
/// build host) that the CPU running it lacks; empty where it has them all,
/// and off x86-64. A binary built on one machine and run on an older one
/// would otherwise die of an illegal instruction mid-run.
pub fn missing_cpu_features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut missing = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! check {
            ($($f:tt),*) => {$(
                if cfg!(target_feature = $f) && !std::arch::is_x86_feature_detected!($f) {
                    missing.push($f);
                }
            )*};
        }
        check!(
            "popcnt", "sse3", "ssse3", "sse4.1", "sse4.2", "lzcnt", "bmi1", "bmi2", "avx", "avx2",
            "fma", "f16c", "movbe", "adx", "avx512f", "avx512bw", "avx512cd", "avx512dq",
            "avx512vl"
        );
    }
    missing
}

/// The one-line error for a CPU that lacks `missing` extensions, with the
/// two ways out (docs/cluster.md, "Portable binaries").
pub fn cpu_error(missing: &[&str]) -> String {
    format!(
        "this boardlab was built for a CPU with {} (target-cpu=native on the build machine) and this CPU lacks {}; build it on this machine, or a portable one with RUSTFLAGS=\"-C target-cpu=x86-64-v2\" cargo build --profile dist",
        missing.join(", "),
        if missing.len() == 1 { "it" } else { "them" }
    )
}
