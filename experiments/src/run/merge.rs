//! `boardlab merge`: combine the CSVs of a sharded run into the file (and
//! summary) one unsharded run gives.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::run::{
    GameRecord, TournamentConfig, check_rows, jobs, read_config, read_rows, write_rows,
};

/// Merges the complete set of shard outputs `1/n … n/n` of one run into
/// `out`; returns the merged configuration and rows.
///
/// # Errors
/// No inputs; an input without its configuration or not a shard; shards of
/// different runs, a shard given twice or missing, an unfinished shard; a
/// row that does not belong to its shard; `out` among the inputs, or
/// existing without `overwrite`; unreadable or unwritable files.
pub fn merge(
    inputs: &[PathBuf],
    out: &Path,
    overwrite: bool,
) -> Result<(TournamentConfig, Vec<GameRecord>)> {
    if inputs.is_empty() {
        bail!("merge needs the shard CSVs of one run");
    }
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    };
    if inputs.iter().any(|p| same(p, out)) {
        bail!(
            "--out {} is one of the inputs; give a new file",
            out.display()
        );
    }
    if out.exists() && !overwrite {
        bail!(
            "{} exists; choose another --out or pass --overwrite",
            out.display()
        );
    }
    let mut base: Option<TournamentConfig> = None;
    let mut seen_k = Vec::new();
    let mut count = None;
    let mut rows = BTreeMap::new();
    for p in inputs {
        let shard_config = read_config(p)?;
        let Some((k, n)) = shard_config.shard else {
            bail!("{} is not a shard (its run had no --shard)", p.display());
        };
        if count.is_some_and(|c| c != n) {
            bail!(
                "{} is shard {k}/{n}, but the other inputs are slices of {}",
                p.display(),
                count.unwrap_or(0)
            );
        }
        count = Some(n);
        if seen_k.contains(&k) {
            bail!("shard {k}/{n} is given twice");
        }
        seen_k.push(k);
        let mut c = shard_config.clone();
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
        let (records, seats) = read_rows(p, false, Some(&shard_config))?;
        check_rows(&shard_config, seats, &records).with_context(|| format!("{}", p.display()))?;
        let want = jobs(&shard_config, seats)?.len();
        if records.len() != want {
            bail!(
                "{} is unfinished ({} of {want} games); run its command again to finish it, then merge",
                p.display(),
                records.len()
            );
        }
        for r in records {
            rows.insert(r.index, (r, seats));
        }
    }
    let n = count.unwrap_or(0);
    if seen_k.len() as u32 != n {
        let missing: Vec<String> = (1..=n)
            .filter(|k| !seen_k.contains(k))
            .map(|k| format!("{k}/{n}"))
            .collect();
        bail!("shards {} are missing", missing.join(", "));
    }
    let config = base.expect("at least one input");
    let seats = rows.values().next().map_or(2, |v| v.1);
    let records: Vec<GameRecord> = rows.into_values().map(|v| v.0).collect();
    write_rows(out, &config, seats, &records)?;
    Ok((config, records))
}
