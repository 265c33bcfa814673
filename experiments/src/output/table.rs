//! Small shared pieces of every run: whole-file CSV tables read and written
//! with serde, the progress bar and the thread pool.

use std::path::Path;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Reads every row of a headed CSV table; an absent file is an empty table.
///
/// # Errors
/// An unreadable file, or a row that does not parse (named by its line).
pub fn read_table<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut rd =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (i, row) in rd.deserialize().enumerate() {
        out.push(row.with_context(|| format!("{}: malformed row {}", path.display(), i + 2))?);
    }
    Ok(out)
}

/// Replaces `path` with `rows` under a header, through a temporary file
/// renamed into place (an interrupted write leaves the old table).
///
/// # Errors
/// An output that cannot be written.
pub fn write_table<T: Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    let tmp = path.with_extension("csv.tmp");
    {
        let mut w = csv::Writer::from_path(&tmp)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        for r in rows {
            w.serialize(r)?;
        }
        w.flush()?;
    }
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

/// A progress bar over `len` games, or a hidden one.
pub fn games_bar(len: usize, visible: bool) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new(len as u64);
    b.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {elapsed} elapsed, eta {eta}  {msg}",
        )
        .expect("valid template"),
    );
    b
}

/// A rayon pool of `threads` workers (0: one per core).
///
/// # Errors
/// The pool cannot start.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the thread pool")
}
