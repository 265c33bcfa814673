//! `boardlab merge`: combine the CSVs of a sharded run into the file (and
//! summary) one unsharded run gives.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::tournament::{GameRecord, TournamentConfig, read_config, read_rows, write_rows};

/// Merges shard outputs into `out`; returns the merged configuration and rows.
///
/// # Errors
/// No inputs; an input without its configuration; configurations that differ
/// beyond their shard; the same shard or game twice; unreadable files.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<(TournamentConfig, Vec<GameRecord>)> {
    if inputs.is_empty() {
        bail!("merge needs at least one input CSV");
    }
    let mut base: Option<TournamentConfig> = None;
    let mut seats = 0;
    let mut shards = Vec::new();
    let mut rows = BTreeMap::new();
    for p in inputs {
        let mut c = read_config(p)?;
        shards.push(c.shard);
        c.shard = None;
        match &base {
            None => base = Some(c.clone()),
            Some(b) if *b != c => bail!(
                "{} comes from another run (its configuration differs from {}'s beyond --shard)",
                p.display(),
                inputs[0].display()
            ),
            _ => {}
        }
        let (records, n) = read_rows(p, false)?;
        seats = n;
        for r in records {
            if rows.insert(r.index, r).is_some() {
                bail!(
                    "{}: a game index appears in two inputs (the same shard given twice?)",
                    p.display()
                );
            }
        }
    }
    let mut seen = shards.clone();
    seen.sort();
    seen.dedup();
    if seen.len() != shards.len() {
        bail!("the same shard is given twice");
    }
    let config = base.expect("at least one input");
    let records: Vec<GameRecord> = rows.into_values().collect();
    write_rows(out, &config, seats, &records)?;
    Ok((config, records))
}
