//! One Elo scale per game: every agent used as a balance rung is rated in
//! the same pool as the game's ladder rungs (`balance --rate`).
//!
//! A game's pool is its ladder (the rungs of `ladder.csv` beside the
//! balance output, rated by their paired round robin, the first rung, in
//! practice `random`, at 0) plus every agent placed in it since: a placed
//! agent plays a paired gauntlet of `--rating-games` games against each
//! rung, and the pool is then fitted as a whole ([`linked_ratings`]: points
//! with 95 % intervals where results that are not sweeps link an agent to
//! the anchor, one-sided bounds where only sweeps do) over every rating game
//! of the game: the ladder's round robin and every gauntlet. `pool.csv`
//! beside the balance output holds one row per game and agent of that fit,
//! rungs included, so the Elo of each balance row is read from one scale.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use crate::output::table::{read_table, write_table};
use crate::research::balance::slug;
use crate::research::ladder::{LadderRow, ladder_path, read_ladder};
use crate::research::strength::points_of;
use crate::run::{self, OpeningsRequest, Schedule, TournamentArgs};
use crate::stats::elo::{LinkedRating, linked_ratings};

/// One agent of one game's pool: a row of `pool.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolRow {
    /// Canonical game string.
    pub game: String,
    /// Canonical agent spec.
    pub agent: String,
    /// `rung` (an agent of the game's ladder) or `placed` (rated by a
    /// gauntlet against the rungs).
    pub source: String,
    /// The rating as the games show it: `+120 [+80, +160]`, or `≥ +406`
    /// where only sweeps link the agent to the anchor.
    pub rating: String,
    /// Whether results that are not sweeps link the agent to the anchor.
    pub linked: bool,
    /// The fitted Elo (anchor 0), or the bound where not linked.
    #[serde(serialize_with = "crate::output::csvfmt::p1")]
    pub elo: f64,
    /// Rating games the agent played in the pool.
    pub games: u64,
    /// The agent's rating games: the ladder's round robin for a rung, its
    /// gauntlet for a placed agent.
    pub games_csv: String,
}

/// The path of `pool.csv` beside a balance output.
pub fn pool_path(balance_out: &Path) -> PathBuf {
    crate::output::table::beside(balance_out, "pool.csv")
}

/// Reads `pool.csv` (empty if absent).
///
/// # Errors
/// An unreadable or malformed file.
pub fn read_pool(path: &Path) -> Result<Vec<PoolRow>> {
    read_table(path)
}

/// A request to place agents in a game's pool.
#[derive(Clone, Debug)]
pub struct PlaceArgs {
    /// Canonical game string.
    pub game: String,
    /// Canonical agent specs to place.
    pub agents: Vec<String>,
    /// The balance output; `ladder.csv` and `pool.csv` are beside it.
    pub out: PathBuf,
    /// Games against each rung (paired: both seatings of each seed).
    pub rating_games: u32,
    /// Run seed.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Progress bars.
    pub progress: bool,
    /// Replace gauntlets made with another configuration.
    pub overwrite: bool,
    /// Openings of the gauntlet games.
    pub openings: OpeningsRequest,
}

/// Wins and draws between named agents, over rating games of many files.
#[derive(Default)]
pub struct Tally {
    names: Vec<String>,
    wins: BTreeMap<(usize, usize), u64>,
    draws: BTreeMap<(usize, usize), u64>,
    /// Rating games each agent (by index) played.
    pub played: BTreeMap<usize, u64>,
}

impl Tally {
    /// The index of the agent `name`, added if new.
    pub fn index(&mut self, name: &str) -> usize {
        self.names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| {
                self.names.push(name.to_string());
                self.names.len() - 1
            })
    }

    /// Adds every two-seat game of a tournament CSV (paths relative to
    /// `base`).
    fn add_file(&mut self, games_csv: &str, base: &Path) -> Result<()> {
        let path = base.join(games_csv);
        let config = run::read_config(&path)?;
        let (records, _) = run::read_rows(&path, false, Some(&config))?;
        let ids: Vec<usize> = config.agents.iter().map(|a| self.index(a)).collect();
        for r in &records {
            if r.seats.len() != 2 || r.seats[0] == r.seats[1] {
                continue;
            }
            let (a, b) = (r.seats[0], r.seats[1]);
            self.add(ids[a], ids[b], points_of(r, a));
        }
        Ok(())
    }

    /// One game of `x` against `y` in which `x` scored `points`.
    pub fn add(&mut self, x: usize, y: usize, points: f64) {
        *self.played.entry(x).or_default() += 1;
        *self.played.entry(y).or_default() += 1;
        match points {
            p if p > 0.75 => *self.wins.entry((x, y)).or_default() += 1,
            p if p < 0.25 => *self.wins.entry((y, x)).or_default() += 1,
            _ => {
                *self.draws.entry((x, y)).or_default() += 1;
                *self.draws.entry((y, x)).or_default() += 1;
            }
        }
    }

    /// Each agent's rating linked to `anchor` (points or bounds).
    pub fn fit(&self, anchor: usize) -> Result<Vec<LinkedRating>> {
        let k = self.names.len();
        let mut wins = vec![vec![0u64; k]; k];
        let mut draws = vec![vec![0u64; k]; k];
        for (&(i, j), &w) in &self.wins {
            wins[i][j] = w;
        }
        for (&(i, j), &d) in &self.draws {
            draws[i][j] = d;
        }
        linked_ratings(&wins, &draws, anchor).map_err(|e| anyhow!("cannot rate the pool: {e}"))
    }
}

/// The rungs of `game` in `ladder.csv`, first rung first.
fn rungs(ladder: &[LadderRow], game: &str) -> Vec<LadderRow> {
    let mut r: Vec<LadderRow> = ladder.iter().filter(|l| l.game == game).cloned().collect();
    r.sort_by_key(|l| l.rung);
    r
}

/// Places `args.agents` in the game's pool (each agent that is neither a
/// rung nor placed already plays its gauntlet, resumed where it stopped),
/// refits the pool and rewrites the game's rows of `pool.csv`. Returns the
/// game's rows.
///
/// # Errors
/// No ladder for the game beside the output, a bad agent, an output that
/// cannot be written or that holds another configuration.
pub fn place(args: &PlaceArgs) -> Result<Vec<PoolRow>> {
    let lpath = ladder_path(&args.out);
    let ladder = rungs(&read_ladder(&lpath)?, &args.game);
    if ladder.is_empty() {
        bail!(
            "--rate: no ladder for {} in {}: rate the game's rungs first (balance --ladder)",
            args.game,
            lpath.display()
        );
    }
    if args.rating_games == 0 {
        bail!("--rating-games must be at least 1");
    }
    let ppath = pool_path(&args.out);
    let mut all = read_pool(&ppath)?;
    let placed: Vec<PoolRow> = all
        .iter()
        .filter(|p| p.game == args.game && p.source == "placed")
        .cloned()
        .collect();
    let dir = crate::output::table::beside(&args.out, "ladder");
    let rung_specs: Vec<String> = ladder.iter().map(|l| l.agent.clone()).collect();
    let mut gauntlets: Vec<(String, String)> = placed
        .iter()
        .map(|p| (p.agent.clone(), p.games_csv.clone()))
        .collect();
    for agent in &args.agents {
        if rung_specs.contains(agent) {
            continue;
        }
        let csv = crate::run::storage::games_file(
            &dir,
            &format!("{}__{}__gauntlet", slug(&args.game), slug(agent)),
        );
        let mut specs = vec![agent.clone()];
        specs.extend(rung_specs.iter().cloned());
        if args.progress {
            eprintln!(
                "{}: placing {agent} against {} rungs",
                args.game,
                rung_specs.len()
            );
        }
        let mut t = TournamentArgs::new(
            &args.game,
            &specs,
            args.rating_games,
            args.seed,
            csv.clone(),
        );
        t.paired = true;
        t.schedule = Schedule::Gauntlet;
        t.threads = args.threads;
        t.progress = args.progress;
        t.overwrite = args.overwrite;
        t.openings = args.openings.clone();
        run::run(&t)?;
        let csv = csv.display().to_string();
        gauntlets.retain(|(a, _)| a != agent);
        gauntlets.push((agent.clone(), csv));
    }
    let rows = fit_game(&args.game, &ladder, &gauntlets, Path::new("."))?;
    all.retain(|p| p.game != args.game);
    all.extend(rows.iter().cloned());
    all.sort_by(|a, b| a.game.cmp(&b.game).then(a.elo.total_cmp(&b.elo)));
    write_table(&ppath, &all)?;
    Ok(rows)
}

/// The pool of one game fitted over its ladder's round robin and the
/// gauntlets `(agent, games CSV)`, paths relative to `base`.
///
/// # Errors
/// A games file that cannot be read, an agent without games.
pub fn fit_game(
    game: &str,
    ladder: &[LadderRow],
    gauntlets: &[(String, String)],
    base: &Path,
) -> Result<Vec<PoolRow>> {
    let mut tally = Tally::default();
    for l in ladder {
        tally.index(&l.agent);
    }
    let mut files: Vec<&str> = ladder.iter().map(|l| l.ratings_csv.as_str()).collect();
    files.dedup();
    for f in &files {
        tally.add_file(f, base)?;
    }
    for (_, csv) in gauntlets {
        tally.add_file(csv, base)?;
    }
    let fit = tally.fit(0)?;
    let mut rows = Vec::new();
    for (i, name) in tally.names.iter().enumerate() {
        let rung = ladder.iter().find(|l| l.agent == *name);
        let gauntlet = gauntlets.iter().find(|(a, _)| a == name);
        let games_csv = match (rung, gauntlet) {
            (Some(l), _) => l.ratings_csv.clone(),
            (None, Some((_, csv))) => csv.clone(),
            // An agent of a rating file that is neither a rung nor placed.
            (None, None) => continue,
        };
        let e = fit[i];
        let bound = if e.lower.is_finite() {
            e.lower
        } else {
            e.upper
        };
        rows.push(PoolRow {
            game: game.to_string(),
            agent: name.clone(),
            source: if rung.is_some() { "rung" } else { "placed" }.to_string(),
            rating: e.text(),
            linked: e.elo.is_some(),
            elo: e.elo.unwrap_or(bound),
            games: tally.played.get(&i).copied().unwrap_or(0),
            games_csv,
        });
    }
    rows.sort_by(|a, b| a.elo.total_cmp(&b.elo));
    Ok(rows)
}

/// The Elo of `agent` on `game`'s scale from `pool.csv` rows, else from
/// `ladder.csv` rows: `(elo, rating text)`.
pub fn elo_of(
    pool: &[PoolRow],
    ladder: &[LadderRow],
    game: &str,
    agent: &str,
) -> Option<(f64, String)> {
    pool.iter()
        .find(|p| p.game == game && p.agent == agent)
        .map(|p| (p.elo, p.rating.clone()))
        .or_else(|| {
            ladder
                .iter()
                .find(|l| l.game == game && l.agent == agent)
                .map(|l| (l.elo, l.rating.clone()))
        })
}
