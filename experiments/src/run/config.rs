//! The configuration file beside a run's CSV (`FILE.config.json`): the
//! run's [`TournamentConfig`] and its provenance, one entry per invocation
//! that wrote to the CSV (version, git commit, command line). Files written
//! before provenance was recorded load with an empty list.

use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::TournamentConfig;
use super::jobs::blocks;
use super::rows::config_path;
use super::safety::Provenance;

/// The contents of `FILE.config.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigFile {
    /// What determines the games.
    #[serde(flatten)]
    pub config: TournamentConfig,
    /// Who wrote the file, oldest first (one entry per invocation).
    #[serde(default)]
    pub provenance: Vec<Provenance>,
}

/// Reads the configuration file beside `csv_path`: `None` if there is none.
///
/// # Errors
/// A file that exists but cannot be read or is not a configuration (the
/// message names the file and the parse error).
pub fn read_config_file(csv_path: &Path) -> Result<Option<ConfigFile>> {
    let p = config_path(csv_path);
    let text = match std::fs::read_to_string(&p) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", p.display())),
    };
    let file = serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is corrupt (not a tournament configuration); repair it, or pass --overwrite to discard the run",
            p.display()
        )
    })?;
    Ok(Some(file))
}

/// Writes `FILE.config.json` beside `csv_path`: `config`, with this
/// process's provenance appended to `history`.
///
/// # Errors
/// An unwritable file.
pub fn write_config_file(
    csv_path: &Path,
    config: &TournamentConfig,
    mut history: Vec<Provenance>,
) -> Result<()> {
    history.push(Provenance::current());
    let file = ConfigFile {
        config: config.clone(),
        provenance: history,
    };
    let p = config_path(csv_path);
    std::fs::write(&p, serde_json::to_string_pretty(&file)? + "\n")
        .with_context(|| format!("cannot write {}", p.display()))
}

/// Whether two lists of canonical agent specs name the same agents, perhaps
/// spelled differently (see [`config_diff`]): a switch written off (`mcts`'s
/// `minimax=0` on a game whose default is on) and left out (in a spec made
/// before the game's default changed) are the same agent
/// ([`agents::same_agent`]).
pub fn same_agents(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| agents::same_agent(x, y))
}

/// The fields in which `new` differs from `old`, as `field: old -> new`,
/// ignoring a larger `games` where the finished games keep their indices
/// and seeds (the run is extended: see [`blocks`]).
pub fn config_diff(
    old: &TournamentConfig,
    new: &TournamentConfig,
    num_seats: usize,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = |name: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{name}: {a} -> {b}"));
        }
    };
    field("game", old.game.clone(), new.game.clone());
    if !same_agents(&old.agents, &new.agents) {
        // Compared by their keys, shown as written.
        field("agents", old.agents.join(" "), new.agents.join(" "));
    }
    field("seed", old.seed.to_string(), new.seed.to_string());
    field(
        "schedule",
        format!("{:?}", old.schedule),
        format!("{:?}", new.schedule),
    );
    field("paired", old.paired.to_string(), new.paired.to_string());
    let shard = |s: Option<(u32, u32)>| s.map_or("none".into(), |(k, n)| format!("{k}/{n}"));
    field("shard", shard(old.shard), shard(new.shard));
    field(
        "agent_seeds",
        old.agent_seeds.to_string(),
        new.agent_seeds.to_string(),
    );
    let openings = |o: &Option<super::OpeningsConfig>| {
        o.as_ref().map_or("none".into(), |o| {
            serde_json::to_string(o).unwrap_or_default()
        })
    };
    field("openings", openings(&old.openings), openings(&new.openings));
    field(
        "interleaved",
        old.interleaved.to_string(),
        new.interleaved.to_string(),
    );
    if old.games != new.games {
        let extendable = new.games > old.games && (old.interleaved || blocks(old, num_seats) == 1);
        if !extendable {
            let why = if new.games < old.games {
                "fewer games than the file was made for"
            } else {
                "games can be added only to a run of one pairing when it was made before job indices interleaved the pairings: its game indices (and seeds) depend on the games per pairing"
            };
            out.push(format!("games: {} -> {} ({why})", old.games, new.games));
        }
    }
    out
}
