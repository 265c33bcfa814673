//! Small shared pieces of every run: whole-file CSV tables read and written
//! with serde, the progress bar, the thread pool, and short labels of game
//! and agent specs.

use std::path::Path;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use serde::de::DeserializeOwned;

use engine::registry::GAMES;
use engine::spec::Spec;

/// A whole number with thousands separators (`1000` → `1,000`); other
/// text unchanged.
pub fn thousands(n: &str) -> String {
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return n.to_string();
    }
    let mut out = String::new();
    for (i, c) in n.chars().enumerate() {
        if i > 0 && (n.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The path `name` beside an output file: in its folder, or the current
/// folder for a bare file name (`runs/balance.csv` → `runs/ladder.csv`).
pub fn beside(out: &Path, name: &str) -> std::path::PathBuf {
    out.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| std::path::PathBuf::from(name), |d| d.join(name))
}

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

/// A spinner with a message (a sequential run's state), or a hidden one.
pub fn spinner(visible: bool) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new_spinner();
    b.set_style(ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("valid template"));
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

/// A game string or agent spec with the parameters at their defaults left
/// out, for labels: `catapult(size=8,royal=false,...)` → `catapult`,
/// `mcts(iterations=50,c=1.4,ms=0)` → `mcts(iterations=50)`. An agent's
/// switch written off where its game's default is on stays
/// (`alphabeta(depth=64,nodes=80000,mvv=false)` on plain Catapult 8×8;
/// [`agents::written_when_off`]): without it the label would read as the
/// game's default, the switch on.
pub fn short(text: &str) -> String {
    let Ok(spec) = Spec::parse(text) else {
        return text.to_string();
    };
    if spec.name == "pie" {
        if let [(_, inner)] = spec.args.as_slice() {
            return format!("pie({})", short(inner));
        }
        return text.to_string();
    }
    let game = GAMES.iter().find(|g| g.name == spec.name);
    let params = game
        .map(|g| g.params)
        .or_else(|| {
            agents::AGENTS
                .iter()
                .find(|(n, _)| *n == spec.name)
                .map(|(_, p)| *p)
        })
        .unwrap_or(&[]);
    let kept: Vec<String> = spec
        .args
        .iter()
        .filter(|(k, v)| {
            !params.iter().any(|p| p.name == k && p.default == v)
                || (game.is_none() && agents::written_when_off(k, v))
        })
        .map(|(k, v)| {
            if k.is_empty() {
                v.clone()
            } else {
                format!("{k}={v}")
            }
        })
        .collect();
    if kept.is_empty() {
        spec.name
    } else {
        format!("{}({})", spec.name, kept.join(","))
    }
}
