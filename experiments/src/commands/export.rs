//! `boardlab export`: a games file in another view (PGN, JSON Lines, plain
//! CSV).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args as ClapArgs;

use crate::run::{records, storage};

/// Write the games of a games file (a run's `FILE.csv` or `FILE.csv.gz`)
/// or a records file in another view: PGN for rating tools (Ordo,
/// BayesElo; two-seat games), one JSON record per line, or the plain CSV
/// table. Each output is compressed if its name ends in `.gz`.
#[derive(ClapArgs)]
pub struct Args {
    /// A games file (`FILE.csv`, `FILE.csv.gz`) or a records file (JSON
    /// Lines, `.jsonl` or `.jsonl.gz`).
    file: PathBuf,
    /// PGN output: tags and result, the moves in a comment (SAN for
    /// chess).
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// JSON Lines output: one record per game (start position, agents,
    /// moves, returns, end; docs/results-format.md).
    #[arg(long)]
    jsonl: Option<PathBuf>,
    /// The games file's table, decompressed (or compressed, if the name
    /// ends in `.gz`); games files only.
    #[arg(long)]
    csv: Option<PathBuf>,
}

/// Writes `bytes` to `path`, compressed if its name ends in `.gz`.
fn write_view(path: &Path, bytes: &[u8]) -> Result<()> {
    crate::run::safety::check_writable(path)?;
    let mut sink = storage::Sink::create(path, storage::is_compressed(path))?;
    sink.write_all(bytes)
        .with_context(|| format!("cannot write {}", path.display()))?;
    sink.finish()
}

/// Write the views asked for.
///
/// # Errors
/// No view asked for; a missing, empty or malformed input; `--csv` of a
/// records file; an output that cannot be written.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    if args.pgn.is_none() && args.jsonl.is_none() && args.csv.is_none() {
        bail!("say what to write: --pgn FILE, --jsonl FILE or --csv FILE");
    }
    if let Some(path) = &args.pgn {
        let mut text = Vec::new();
        let n = records::pgn(&args.file, &mut text)?;
        write_view(path, &text)?;
        writeln!(out, "wrote {n} games to {}", path.display())?;
    }
    if let Some(path) = &args.jsonl {
        let recs = records::read_records(&args.file)?;
        let mut text = String::new();
        for (_, r) in &recs {
            text.push_str(&serde_json::to_string(r)?);
            text.push('\n');
        }
        write_view(path, text.as_bytes())?;
        writeln!(out, "wrote {} games to {}", recs.len(), path.display())?;
    }
    if let Some(path) = &args.csv {
        if !records::is_games_table(&args.file) {
            bail!(
                "{} is a records file; --csv writes a games file's table (FILE.csv or FILE.csv.gz)",
                args.file.display()
            );
        }
        let text = storage::read_to_string(&args.file)?;
        write_view(path, text.as_bytes())?;
        writeln!(
            out,
            "wrote {} rows to {}",
            text.lines().count().saturating_sub(1),
            path.display()
        )?;
    }
    Ok(())
}
