//! `boardlab pie`: swap maps. For each opening (the first decision of the
//! game: Slingshot's set-up pair, Bagel's first disc, the first move of
//! `pie(G)` or of any two-seat G), play N games from it with the agent in
//! both seats and every swap removed ([`engine::pie::NoSwap`]), and estimate
//! `q = P(first mover wins | opening)`, draws counting a half, with a Wilson
//! interval. The first mover is the seat of the colour that moves first in
//! the main game; with no swap that is the opener's colour (Slingshot's
//! setter plays Black, as `chooser=T` leaves it).
//!
//! Openings are reduced by the symmetries the game declares
//! ([`engine::State::symmetry_count`]: those that keep both seats' goals,
//! e.g. Slingshot's two mirrors and half turn); each class is played once and
//! its `q` stands for every member. Under the pie rule a chooser swaps when
//! `q > 1/2`, so the opener's best is the pie-rule value
//! `min over openings of max(q, 1 − q)`, estimated by a split sample
//! ([`HonestPie`]): the plug-in minimum over noisy estimates is pulled to ½.
//!
//! The games of a map are kept once, row by row, in the games file
//! `<dir>/swapmap/<game>__<agent>.csv.gz` (the rows of every other run's
//! games file, with the configuration beside it), so an interrupted map
//! resumes and `replay` and `export` read its games; the summary rows go to
//! `swapmap.csv`, one per opening. A map made before 6 December kept its
//! games in `<game>__<agent>.csv` without their moves: it still summarises,
//! and cannot grow.
//!
//! **Adaptive maps** (`--until`): instead of N games per opening, rounds of
//! games go only to the openings that can still be the fairest
//! ([`crate::stats::race`]: successive elimination with anytime-valid
//! intervals at level α/K), until the pie value's interval meets the rule
//! or `--max-games` is reached. A game's seed is the same as in a uniform
//! map (run seed, start seed, opening class, game number), and the race
//! depends only on the scores in game-number order, so a resumed run
//! replays its eliminations from the stored games and goes on where it
//! stopped (with the same or another rule).

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use rayon::iter::{IntoParallelRefIterator, ParallelIterator};
use serde::{Deserialize, Serialize};

use agents::AgentSpec;
use engine::Research;
use engine::pie::{NoSwap, opening_classes};
use engine::{BoardShape, Game, GameVisitor, Search, State, ToMove, visit_game};

use crate::output::table::{games_bar, pool, read_table, write_table};
use crate::research::balance::slug;
use crate::run::play::ended;
use crate::run::rows::RowWriter;
use crate::run::{GameRecord, TournamentConfig, mix, play_out};
use crate::stats::race::{Allocation, Race, RaceConfig, Stop, fold};
use crate::stats::sequential::{ALPHA, Interval, Until};
use crate::stats::wilson;

/// Which openings to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Openings {
    /// Every class.
    All,
    /// `K` classes drawn without replacement by the run seed.
    Sample(usize),
}

impl Openings {
    /// Parses `all` or a positive integer.
    ///
    /// # Errors
    /// Anything else.
    pub fn parse(text: &str) -> Result<Openings> {
        match text.trim() {
            "all" => Ok(Openings::All),
            t => match t.parse::<usize>() {
                Ok(k) if k > 0 => Ok(Openings::Sample(k)),
                _ => bail!("--openings {t:?}: expected all or a number of openings >= 1"),
            },
        }
    }
}

/// A `pie` request; it is also the configuration saved beside the games CSV.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieConfig {
    /// Canonical game string.
    pub game: String,
    /// Canonical agent spec (both seats).
    pub agent: String,
    /// Games per opening class.
    pub games_per_opening: u32,
    /// Openings to play.
    pub openings: Openings,
    /// Seeds given to the game's initial state (Bagel draws its tile layout
    /// from it; games without a random set-up ignore it): one map each.
    pub start_seeds: Vec<u64>,
    /// Run seed (agents and chance).
    pub seed: u64,
    /// An adaptive map (`--until`): `games_per_opening` is its first
    /// round. Absent (false) in the configuration of a uniform map; the
    /// rule and the cap are not part of it, so a map may be extended.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub adaptive: bool,
}

/// How to run a `pie` request.
#[derive(Clone, Debug)]
pub struct PieArgs {
    /// Game string as given.
    pub game: String,
    /// Agent spec as given.
    pub agent: String,
    /// Games per opening class.
    pub games_per_opening: u32,
    /// Openings to play.
    pub openings: Openings,
    /// Initial-state seeds.
    pub start_seeds: Vec<u64>,
    /// Run seed.
    pub seed: u64,
    /// Summary CSV (`swapmap.csv`).
    pub out: PathBuf,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Progress bar.
    pub progress: bool,
    /// Replace a games CSV made with another configuration.
    pub overwrite: bool,
    /// Adaptive maps: the stopping rule on the pie value's interval, and
    /// the cap on a map's games.
    pub until: Option<(Until, u64)>,
}

/// How an adaptive map ended ([`crate::stats::race`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RaceReport {
    /// The initial-state seed of the map.
    pub start_seed: u64,
    /// The pie value's anytime-valid interval (95 % over the map).
    pub interval: Interval,
    /// Games played.
    pub games: u64,
    /// Games a uniform map to the same depth (every opening as many games
    /// as the most played) would have played.
    pub uniform_games: u64,
    /// Rounds played.
    pub rounds: u32,
    /// Openings raced.
    pub openings: usize,
    /// The openings still in the race: text, games, score `q` and its
    /// interval (at level α/K).
    pub active: Vec<(String, u64, f64, Interval)>,
    /// The rule, and whether it was met or the cap stopped the map.
    pub until: Until,
    /// Why it stopped.
    pub stop: Stop,
}

/// What a `pie` request gives: the summary rows, and for adaptive maps how
/// each race ended.
#[derive(Clone, Debug, PartialEq)]
pub struct PieOutcome {
    /// One row per opening played (written to `swapmap.csv`).
    pub rows: Vec<SwapRow>,
    /// One per map of an adaptive request; empty otherwise.
    pub races: Vec<RaceReport>,
}

/// One row of `swapmap.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SwapRow {
    /// Canonical game string.
    pub game: String,
    /// The initial-state seed (the tile layout in Bagel).
    pub start_seed: u64,
    /// The representative opening, in the game's move notation.
    pub opening: String,
    /// Openings the symmetries map it to (itself included).
    pub orbit_size: usize,
    /// Games played from it.
    pub n: u64,
    /// First-mover wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// `(wins + draws / 2) / n`.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub q: f64,
    /// Wilson 95 % lower bound of `q`.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub lower: f64,
    /// Wilson 95 % upper bound of `q`.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub upper: f64,
    /// The agent in both seats: its strength.
    pub agent: String,
    /// Run seed.
    pub seed: u64,
    /// The games CSV the row summarises.
    pub games_csv: String,
    /// Games with an even game number (the first half of the split-sample
    /// estimate); absent from rows summarised before it existed.
    #[serde(default)]
    pub n_even: Option<u64>,
    /// The first mover's score (wins + draws / 2) over those games.
    #[serde(default)]
    #[serde(serialize_with = "crate::output::csvfmt::count_opt")]
    pub score_even: Option<f64>,
}

/// One played game of a map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SwapGame {
    /// Initial-state seed.
    pub start_seed: u64,
    /// Index of the opening class (in [`opening_classes`] order).
    pub class: usize,
    /// Representative opening text.
    pub opening: String,
    /// Game number within the class.
    pub game: u32,
    /// Seed of the agents and chance.
    #[serde(with = "crate::output::csvfmt::seed")]
    pub seed: u64,
    /// The first mover's result: 1 win, 0.5 draw, 0 loss.
    pub first_mover_score: f64,
    /// Plies played (the opening included).
    pub plies: u32,
}

struct Job {
    start_seed: u64,
    class: usize,
    opening: String,
    game: u32,
    seed: u64,
}

struct PieVisitor<'a> {
    args: &'a PieArgs,
    spec: AgentSpec,
}

impl GameVisitor for PieVisitor<'_> {
    type Output = Result<PieOutcome>;

    fn visit<G: Game>(self, game: G) -> Self::Output {
        let args = self.args;
        if game.num_seats() != 2 {
            bail!(
                "{} has {} seat{}: swap maps need a two-seat game (the pie rule has a first and a second player)",
                game.game_string(),
                game.num_seats(),
                if game.num_seats() == 1 { "" } else { "s" }
            );
        }
        self.spec.check_game(2).map_err(|e| anyhow!("{e}"))?;
        let game = NoSwap(game);
        let config = PieConfig {
            game: game.0.game_string(),
            agent: self.spec.canonical(),
            games_per_opening: args.games_per_opening,
            openings: args.openings,
            start_seeds: args.start_seeds.clone(),
            seed: args.seed,
            adaptive: args.until.is_some(),
        };
        if config.start_seeds.len() > 1 << 16 {
            bail!("--start-seeds: at most 65,536 seeds a map");
        }
        // The job list: openings per start seed, classes in legal-move order.
        let mut jobs = Vec::new();
        let mut orbit = BTreeMap::new();
        // Per start seed, the openings played: (class, text).
        let mut arms: BTreeMap<u64, Vec<(usize, String)>> = BTreeMap::new();
        for &ss in &config.start_seeds {
            let s0 = game.initial_state(ss);
            if !matches!(s0.to_move(), ToMove::Seat(_)) {
                bail!(
                    "{} starts with a chance node or is over: a swap map needs a first move to choose",
                    config.game
                );
            }
            let classes = opening_classes(&s0);
            // A game's index holds its class in 16 bits (`Job::index`).
            if classes.len() > 1 << 16 {
                bail!(
                    "{} has {} opening classes: a swap map takes at most 65,536",
                    config.game,
                    classes.len()
                );
            }
            let mut picked: Vec<usize> = (0..classes.len()).collect();
            if let Openings::Sample(k) = config.openings {
                let mut rng = ChaCha8Rng::seed_from_u64(mix(config.seed, ss));
                let mut p: Vec<usize> = picked.choose_multiple(&mut rng, k).copied().collect();
                p.sort_unstable();
                picked = p;
            }
            for c in picked {
                let text = s0.move_to_text(classes[c].representative);
                orbit.insert((ss, text.clone()), classes[c].orbit.len());
                arms.entry(ss).or_default().push((c, text.clone()));
                if config.adaptive {
                    continue;
                }
                for g in 0..config.games_per_opening {
                    jobs.push(Job::new(&config, ss, c, &text, g));
                }
            }
        }
        // An adaptive map's settings are checked before any file is touched.
        let race_config = args.until.map(|(until, max_games)| RaceConfig {
            alpha: ALPHA,
            until,
            max_games,
            first_round: config.games_per_opening,
            allocation: Allocation::Adaptive,
        });
        if let Some(rc) = race_config {
            for openings in arms.values() {
                Race::new(openings.len(), rc)?;
            }
        }
        let dir = crate::output::table::beside(&args.out, "swapmap");
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let stem = format!("{}__{}", slug(&config.game), slug(&config.agent));
        let games_csv = dir.join(format!("{stem}.csv.gz"));
        // A map made before its games kept their moves: `X.csv`, rows of
        // `SwapGame` alone. It shares the configuration file.
        let legacy = dir.join(format!("{stem}.csv"));
        // `X.csv.config.json`, as beside every other run's CSV; maps made
        // before per-agent seeding (commit 7307969) named it `X.config.json` and are moved to it.
        let cfg_path = crate::run::rows::config_path(&games_csv);
        let old_cfg = legacy.with_extension("config.json");
        if old_cfg.exists() && !cfg_path.exists() {
            std::fs::rename(&old_cfg, &cfg_path)
                .with_context(|| format!("cannot rename {}", old_cfg.display()))?;
        }
        // One run appends to a map's games at a time; outputs checked first.
        let _lock = crate::run::safety::lock_output(&games_csv)?;
        crate::run::safety::check_writable(&args.out)?;
        let old_map = legacy.exists() && !games_csv.exists();
        if old_map && args.overwrite {
            std::fs::remove_file(&legacy)
                .with_context(|| format!("cannot remove {}", legacy.display()))?;
            let _ = std::fs::remove_file(crate::run::records::records_path(&legacy));
        }
        let read_only = old_map && !args.overwrite;
        let games_path = if read_only { &legacy } else { &games_csv };
        let mut done: Vec<SwapGame> = Vec::new();
        let mut columns = None;
        if games_path.exists() && !args.overwrite {
            let old: Option<PieConfig> = std::fs::read_to_string(&cfg_path)
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok());
            if old.as_ref() != Some(&config) {
                bail!(
                    "{} holds a map made with another configuration ({}); pass --overwrite to replace it",
                    games_path.display(),
                    cfg_path.display()
                );
            }
            if read_only {
                done = read_games(&legacy)?;
            } else {
                let (_, head) =
                    crate::run::rows::for_each_game_row(&games_csv, true, |row, n, shape| {
                        done.push(swap_game(&row.to_record(n, shape, None)?, &config)?);
                        Ok(())
                    })?;
                columns = Some(head);
            }
        }
        std::fs::write(&cfg_path, serde_json::to_string_pretty(&config)? + "\n")
            .with_context(|| format!("cannot write {}", cfg_path.display()))?;
        let writer = match (read_only, columns) {
            (true, _) => None,
            (false, Some(head)) if !done.is_empty() => Some(RowWriter::append(&games_csv, head)?),
            (false, _) => Some(RowWriter::create(&games_csv, 2)?),
        };
        let mut sink = Sink {
            writer,
            path: games_path.clone(),
            rows: TournamentConfig {
                game: config.game.clone(),
                agents: vec![config.agent.clone()],
                ..TournamentConfig::default()
            },
            pool: pool(args.threads)?,
            starts: config
                .start_seeds
                .iter()
                .map(|&ss| (ss, game.initial_state(ss)))
                .collect(),
            spec: &self.spec,
            config: &config,
        };
        let games_csv_text = games_path.display().to_string();
        let Some(race_config) = race_config else {
            let have: HashSet<(u64, usize, u32)> = done
                .iter()
                .map(|g| (g.start_seed, g.class, g.game))
                .collect();
            let todo: Vec<&Job> = jobs
                .iter()
                .filter(|j| !have.contains(&(j.start_seed, j.class, j.game)))
                .collect();
            let bar = games_bar(todo.len(), args.progress);
            let got = sink
                .play(&todo, &bar)
                .with_context(|| format!("writing {}", games_path.display()))?;
            done.extend(got);
            bar.finish_and_clear();
            sink.finish()?;
            return Ok(PieOutcome {
                rows: summarise(&config, &games_csv_text, &orbit, &done),
                races: Vec::new(),
            });
        };
        // Adaptive maps: one race per start seed, fed from the stored games
        // where it can be and from new games where not.
        let mut stored: BTreeMap<(u64, usize, u32), SwapGame> = done
            .into_iter()
            .map(|g| ((g.start_seed, g.class, g.game), g))
            .collect();
        let bar = games_bar(
            (race_config.max_games * config.start_seeds.len() as u64) as usize,
            args.progress,
        );
        let mut used = Vec::new();
        let mut races = Vec::new();
        let cfg = &config;
        for (&ss, openings) in &arms {
            let mut race = Race::new(openings.len(), race_config)?;
            let stop = race
                .run(|round| {
                    let jobs: Vec<Job> = round
                        .iter()
                        .flat_map(|(arm, games)| {
                            let (class, text) = &openings[*arm];
                            games
                                .clone()
                                .map(move |g| Job::new(cfg, ss, *class, text, g))
                        })
                        .filter(|j| !stored.contains_key(&(ss, j.class, j.game)))
                        .collect();
                    bar.inc(
                        round.iter().map(|(_, g)| g.len() as u64).sum::<u64>() - jobs.len() as u64,
                    );
                    let todo: Vec<&Job> = jobs.iter().collect();
                    for g in sink.play(&todo, &bar)? {
                        stored.insert((g.start_seed, g.class, g.game), g);
                    }
                    Ok(round
                        .iter()
                        .map(|(arm, games)| {
                            let class = openings[*arm].0;
                            games
                                .clone()
                                .map(|g| {
                                    let game = &stored[&(ss, class, g)];
                                    used.push(game.clone());
                                    game.first_mover_score
                                })
                                .collect()
                        })
                        .collect())
                })
                .with_context(|| format!("writing {}", games_path.display()))?;
            races.push(race_report(ss, openings, &race, race_config.until, stop));
        }
        bar.finish_and_clear();
        sink.finish()?;
        Ok(PieOutcome {
            rows: summarise(&config, &games_csv_text, &orbit, &used),
            races,
        })
    }
}

/// How an adaptive map ended, from its race.
fn race_report(
    start_seed: u64,
    openings: &[(usize, String)],
    race: &Race,
    until: Until,
    stop: Stop,
) -> RaceReport {
    let deepest = race.arms.iter().map(|a| a.n()).max().unwrap_or(0);
    RaceReport {
        start_seed,
        interval: race.pie_interval(),
        games: race.games(),
        uniform_games: deepest * openings.len() as u64,
        rounds: race.rounds,
        openings: openings.len(),
        active: race
            .active()
            .into_iter()
            .map(|i| {
                let a = &race.arms[i];
                let q = if a.n() == 0 {
                    0.5
                } else {
                    a.score / a.n() as f64
                };
                (openings[i].1.clone(), a.n(), q, a.interval())
            })
            .collect(),
        until,
        stop,
    }
}

impl Job {
    /// The `game`-th game of opening class `class` (text `opening`) from
    /// start seed `ss`; its seed depends on nothing else, so uniform and
    /// adaptive maps play the same game for the same numbers.
    fn new(config: &PieConfig, ss: u64, class: usize, opening: &str, game: u32) -> Job {
        Job {
            start_seed: ss,
            class,
            opening: opening.to_string(),
            game,
            seed: mix(mix(mix(config.seed, ss), class as u64), u64::from(game)),
        }
    }

    /// The game's index in the map's games file: its start seed's place in
    /// the map's list, its class and its number, in bits 48 and up, 32 to
    /// 47 and 0 to 31 ([`swap_game`] reads them back).
    fn index(&self, config: &PieConfig) -> u64 {
        let place = config
            .start_seeds
            .iter()
            .position(|&s| s == self.start_seed)
            .unwrap_or(0) as u64;
        (place << 48) | ((self.class as u64) << 32) | u64::from(self.game)
    }
}

/// The map game a row of its games file holds: the start seed, class and
/// game number from its index ([`Job::index`]), the opening from its first
/// move, the first mover's score from the returns. Freshly played games go
/// through it too, so a resumed map sums the same games the same way.
///
/// # Errors
/// A row of another seat count, an index naming no start seed of the map,
/// a row without moves or without a first mover among its two seats.
fn swap_game(r: &GameRecord, config: &PieConfig) -> Result<SwapGame> {
    let place = (r.index >> 48) as usize;
    let start_seed = *config
        .start_seeds
        .get(place)
        .ok_or_else(|| anyhow!("game {}: the map has no start seed {place}", r.index))?;
    let opening = r
        .moves
        .split(' ')
        .next()
        .filter(|m| !m.is_empty())
        .ok_or_else(|| anyhow!("game {}: no moves", r.index))?;
    let fm = r.first_mover.unwrap_or(0);
    if r.returns.len() != 2 || fm > 1 {
        bail!("game {}: not a game of two seats", r.index);
    }
    let (mine, theirs) = (r.returns[fm], r.returns[1 - fm]);
    Ok(SwapGame {
        start_seed,
        class: ((r.index >> 32) & 0xffff) as usize,
        opening: opening.to_string(),
        game: r.index as u32,
        seed: r.seed,
        first_mover_score: if mine > theirs {
            1.0
        } else if mine == theirs {
            0.5
        } else {
            0.0
        },
        plies: r.plies,
    })
}

/// Where a map's games go: played on the pool, written row by row to the
/// map's games file as they finish.
struct Sink<'a, S> {
    /// The games file's writer; `None` for a map made before games kept
    /// their moves, which cannot grow.
    writer: Option<RowWriter>,
    /// The games file.
    path: PathBuf,
    /// What the rows name: the game, and the agent (agent 0) in both seats.
    rows: TournamentConfig,
    pool: rayon::ThreadPool,
    starts: BTreeMap<u64, S>,
    spec: &'a AgentSpec,
    config: &'a PieConfig,
}

impl<S: Research + Search + 'static> Sink<'_, S> {
    /// Plays `todo` in parallel, writing each game as it ends (made durable
    /// whenever no finished game waits); returns them in the order they
    /// ended.
    ///
    /// # Errors
    /// An I/O error, or games to play in a map that cannot grow.
    fn play(&mut self, todo: &[&Job], bar: &indicatif::ProgressBar) -> Result<Vec<SwapGame>> {
        if todo.is_empty() {
            return Ok(Vec::new());
        }
        let Some(writer) = self.writer.as_mut() else {
            bail!(
                "{} is a map made before a map's games kept their moves and cannot grow ({} game{} to play): pass --overwrite to play it again into {}.gz",
                self.path.display(),
                todo.len(),
                if todo.len() == 1 { "" } else { "s" },
                self.path.display()
            );
        };
        let (tx, rx) = mpsc::channel::<Result<(SwapGame, GameRecord)>>();
        let rows = &self.rows;
        let (pool, starts, spec, config) = (&self.pool, &self.starts, self.spec, self.config);
        std::thread::scope(|scope| -> Result<Vec<SwapGame>> {
            let w = scope.spawn(move || -> Result<Vec<SwapGame>> {
                let mut got = Vec::new();
                while let Ok(first) = rx.recv() {
                    let mut next = Some(first);
                    while let Some(done) = next {
                        let (g, rec) = done?;
                        writer.write(rows, &rec)?;
                        bar.inc(1);
                        got.push(g);
                        next = rx.try_recv().ok();
                    }
                    writer.sync()?;
                }
                Ok(got)
            });
            pool.install(|| {
                todo.par_iter().for_each_with(tx, |tx, job| {
                    let rec = play(&starts[&job.start_seed], spec, job, config);
                    let _ = tx.send(swap_game(&rec, config).map(|g| (g, rec)));
                });
            });
            w.join()
                .map_err(|_| anyhow!("the CSV writer thread panicked"))?
        })
    }

    /// Ends the games file (a compressed file's trailer).
    ///
    /// # Errors
    /// An I/O error.
    fn finish(&mut self) -> Result<()> {
        match self.writer.take() {
            Some(w) => w.finish(),
            None => Ok(()),
        }
    }
}

/// Plays one game of a map: its opening, then the agent in both seats with
/// no swap offered, so its moves replay in the game itself (`replay
/// --verify`).
fn play<S: Research + Search + 'static>(
    start: &S,
    spec: &AgentSpec,
    job: &Job,
    config: &PieConfig,
) -> GameRecord {
    let clock = Instant::now();
    let mut state = start.clone();
    let opening = state
        .parse_move(&job.opening)
        .expect("the opening text came from this state");
    state.apply(opening);
    let opening_turns = u32::from(!state.continues_turn());
    let mut players: Vec<_> = (0..2)
        .map(|seat| spec.build::<S>(mix(job.seed, seat as u64 + 1)))
        .collect();
    let mut moves = job.opening.clone();
    let turns = play_out(&mut state, &mut players, mix(job.seed, 0), Some(&mut moves));
    let r = state.returns()[..2].to_vec();
    GameRecord {
        index: job.index(config),
        seed: job.seed,
        seats: vec![0, 0],
        turns: Some(opening_turns + turns),
        wall_ms: clock.elapsed().as_millis() as u64,
        moves,
        end: state.end_reason().map(str::to_string),
        opening: None,
        opening_moves: None,
        start: Some(start.to_text()),
        ..ended(&state, r)
    }
}

fn read_games(path: &Path) -> Result<Vec<SwapGame>> {
    let mut rd =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    let rows: Vec<_> = rd.deserialize::<SwapGame>().collect();
    let last = rows.len();
    for (i, row) in rows.into_iter().enumerate() {
        match row {
            Ok(g) => out.push(g),
            // A half-written last row from an interrupted run is dropped.
            Err(_) if i + 1 == last => {
                eprintln!(
                    "warning: {}: dropping a half-written last row",
                    path.display()
                );
            }
            Err(e) => bail!("{}: malformed row {}: {e}", path.display(), i + 2),
        }
    }
    // Rewrite without the dropped row so that appends stay aligned.
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("cannot write {}", path.display()))?;
    for g in &out {
        w.serialize(g)?;
    }
    w.flush()?;
    Ok(out)
}

fn summarise(
    config: &PieConfig,
    games_csv: &str,
    orbit: &BTreeMap<(u64, String), usize>,
    games: &[SwapGame],
) -> Vec<SwapRow> {
    type Counts = (u64, u64, u64, u64, f64);
    let mut acc: BTreeMap<(u64, usize, String), Counts> = BTreeMap::new();
    for g in games {
        let e = acc
            .entry((g.start_seed, g.class, g.opening.clone()))
            .or_default();
        e.0 += 1;
        if g.first_mover_score == 1.0 {
            e.1 += 1;
        } else if g.first_mover_score == 0.5 {
            e.2 += 1;
        }
        if g.game % 2 == 0 {
            e.3 += 1;
            e.4 += g.first_mover_score;
        }
    }
    acc.into_iter()
        .map(|((ss, _, opening), (n, wins, draws, n_even, score_even))| {
            let w = wilson(wins as f64 + 0.5 * draws as f64, n);
            SwapRow {
                game: config.game.clone(),
                start_seed: ss,
                orbit_size: orbit.get(&(ss, opening.clone())).copied().unwrap_or(1),
                opening,
                n,
                wins,
                draws,
                q: w.rate,
                lower: w.lower,
                upper: w.upper,
                agent: config.agent.clone(),
                seed: config.seed,
                games_csv: games_csv.to_string(),
                n_even: Some(n_even),
                score_even: Some(score_even),
            }
        })
        .collect()
}

/// Reads `swapmap.csv` (empty if absent).
///
/// # Errors
/// An unreadable or malformed file.
pub fn read_swapmap(path: &Path) -> Result<Vec<SwapRow>> {
    read_table(path)
}

/// Runs (or resumes) a swap map; `swapmap.csv` keeps the rows of other
/// games, agents and start seeds.
///
/// # Errors
/// An unknown game or agent, a game with other than two seats or starting at
/// chance, an output holding another configuration, an adaptive map whose
/// first round alone passes its cap.
pub fn run(args: &PieArgs) -> Result<PieOutcome> {
    if args.games_per_opening == 0 {
        bail!("--games-per-opening must be at least 1");
    }
    if args.start_seeds.is_empty() {
        bail!("--start-seeds needs at least one seed");
    }
    let spec = AgentSpec::parse_in(&args.agent, &args.game).map_err(|e| anyhow!("--agent: {e}"))?;
    let outcome = visit_game(&args.game, PieVisitor { args, spec })
        .map_err(|e| anyhow!("--game {:?}: {e}", args.game))??;
    let mut all = read_swapmap(&args.out)?;
    if let Some(first) = outcome.rows.first() {
        all.retain(|r| !(r.game == first.game && r.agent == first.agent));
    }
    all.extend(outcome.rows.iter().cloned());
    write_table(&args.out, &all)?;
    Ok(outcome)
}

/// The printed lines of adaptive maps: the pie value's interval, the games
/// it took against a uniform map to the same depth, and the openings still
/// in the race.
pub fn race_text(races: &[RaceReport]) -> String {
    let mut s = String::new();
    for r in races {
        let (lo, hi) = r.interval;
        let _ = writeln!(
            s,
            "adaptive map, start seed {}: pie-rule value in [{lo:.3}, {hi:.3}] (anytime-valid 95 %, each opening at level {}/{}), {} games in {} rounds (a uniform map to the same depth: {}); {}",
            r.start_seed,
            ALPHA,
            r.openings,
            r.games,
            r.rounds,
            r.uniform_games,
            match r.stop {
                Stop::Met => format!("--until {} met", r.until),
                Stop::Cap => format!(
                    "--until {} not met: the next round would pass --max-games",
                    r.until
                ),
            }
        );
        let mut active = r.active.clone();
        active.sort_by(|a, b| {
            let fa = fold(a.3.0, a.3.1).0;
            let fb = fold(b.3.0, b.3.1).0;
            fa.total_cmp(&fb).then(a.0.cmp(&b.0))
        });
        let list: Vec<String> = active
            .iter()
            .take(8)
            .map(|(o, n, q, (l, u))| format!("{o} q {q:.3} [{l:.3}, {u:.3}] n {n}"))
            .collect();
        let _ = writeln!(
            s,
            "  still in the race: {} of {} openings{}{}",
            r.active.len(),
            r.openings,
            if list.is_empty() { "" } else { ": " },
            list.join("; ")
        );
    }
    s
}

/// The split-sample pie-rule value of a map: select the fairest opening on
/// one half of each opening's games, estimate `max(q, 1 − q)` of that
/// opening on the other half, and average the two ways round (cross-fitting).
///
/// The plug-in `min over openings of max(q̂, 1 − q̂)` picks the luckiest
/// estimate: with many openings of a few games it lands near ½ whatever the
/// game. Estimating on games the selection never saw removes that pull. The
/// split estimate is not biased toward ½; what bias it keeps points away
/// from ½ (noise can only raise `max(q̂, 1 − q̂)`, and a half may select an
/// opening less fair than the fairest), so it never flatters the pie rule,
/// and it shrinks as games per opening grow.
#[derive(Clone, Debug, PartialEq)]
pub struct HonestPie {
    /// The estimate (½ … 1): the better side's win rate at the fairest
    /// opening under the pie rule.
    pub value: f64,
    /// 95 % interval: the mean of the two held-out halves' Wilson intervals
    /// of `q`, mapped through `max(q, 1 − q)`.
    pub lower: f64,
    /// Upper end of that interval.
    pub upper: f64,
    /// The openings selected by the even and the odd half.
    pub selected: (String, String),
    /// Held-out games behind the estimate (both halves).
    pub n: u64,
}

/// An opening's games in halves: (opening, n even, score even, n odd,
/// score odd).
type Halves<'a> = (&'a str, u64, f64, u64, f64);

/// The split-sample value of one map's rows; `None` when a row lacks the
/// half counts (summarised before they existed) or a half is empty.
pub fn honest_pie(rows: &[&SwapRow]) -> Option<HonestPie> {
    let halves: Vec<Halves> = rows
        .iter()
        .map(|r| {
            let (ne, se) = (r.n_even?, r.score_even?);
            let total = r.wins as f64 + 0.5 * r.draws as f64;
            Some((r.opening.as_str(), ne, se, r.n - ne, total - se))
        })
        .collect::<Option<_>>()?;
    if halves.iter().any(|h| h.1 == 0 || h.3 == 0) {
        return None;
    }
    let better = |s: f64, n: u64| {
        let q = s / n as f64;
        q.max(1.0 - q)
    };
    // Select on one half (fairest estimate, ties by opening text), estimate
    // on the other.
    let pick = |sel: &dyn Fn(&Halves) -> f64| {
        halves
            .iter()
            .min_by(|a, b| sel(a).total_cmp(&sel(b)).then(a.0.cmp(b.0)))
            .copied()
            .expect("a map has openings")
    };
    let a = pick(&|h| better(h.2, h.1));
    let b = pick(&|h| better(h.4, h.3));
    let wa = crate::stats::wilson(a.4, a.3);
    let wb = crate::stats::wilson(b.2, b.1);
    let (la, ua) = fold(wa.lower, wa.upper);
    let (lb, ub) = fold(wb.lower, wb.upper);
    Some(HonestPie {
        value: 0.5 * (better(a.4, a.3) + better(b.2, b.1)),
        lower: 0.5 * (la + lb),
        upper: 0.5 * (ua + ub),
        selected: (a.0.to_string(), b.0.to_string()),
        n: a.3 + b.1,
    })
}

/// At or above this share of openings whose interval holds ½, a map does
/// not tell openings apart: the agent is too weak (or the games too few)
/// for its pie-rule value to mean anything.
pub const WEAK_MAP_FAIR_SHARE: f64 = 0.9;

/// The pie-rule reading of one map (one game, agent and start seed).
#[derive(Clone, Debug, PartialEq)]
pub struct PieValue {
    /// The plug-in `min over openings of max(q, 1 − q)`: biased toward ½
    /// (it keeps the luckiest of many noisy estimates); kept for comparison.
    pub value: f64,
    /// The split-sample estimate, not biased toward ½ (see [`HonestPie`]);
    /// `None` for rows summarised before the halves were recorded.
    pub honest: Option<HonestPie>,
    /// Whether the map fails to tell openings apart (at least
    /// [`WEAK_MAP_FAIR_SHARE`] of them have intervals holding ½).
    pub weak: bool,
    /// The opening that attains it.
    pub opening: String,
    /// Its row.
    pub row: SwapRow,
    /// Openings whose interval contains 1/2.
    pub fair: Vec<String>,
    /// Openings played.
    pub openings: usize,
    /// Games per opening (smallest).
    pub min_n: u64,
}

/// The pie-rule value of each map in `rows`, keyed by (game, agent, start
/// seed).
pub fn pie_values(rows: &[SwapRow]) -> BTreeMap<(String, String, u64), PieValue> {
    let mut maps: BTreeMap<(String, String, u64), Vec<&SwapRow>> = BTreeMap::new();
    for r in rows {
        maps.entry((r.game.clone(), r.agent.clone(), r.start_seed))
            .or_default()
            .push(r);
    }
    maps.into_iter()
        .filter_map(|(k, v)| {
            let best = v.iter().copied().min_by(|a, b| {
                let fa = a.q.max(1.0 - a.q);
                let fb = b.q.max(1.0 - b.q);
                fa.total_cmp(&fb).then(a.opening.cmp(&b.opening))
            })?;
            let fair = v
                .iter()
                .filter(|r| r.lower <= 0.5 && 0.5 <= r.upper)
                .count();
            Some((
                k,
                PieValue {
                    honest: honest_pie(&v),
                    weak: fair as f64 >= WEAK_MAP_FAIR_SHARE * v.len() as f64,
                    value: best.q.max(1.0 - best.q),
                    opening: best.opening.clone(),
                    row: best.clone(),
                    fair: v
                        .iter()
                        .filter(|r| r.lower <= 0.5 && 0.5 <= r.upper)
                        .map(|r| r.opening.clone())
                        .collect(),
                    openings: v.len(),
                    min_n: v.iter().map(|r| r.n).min().unwrap_or(0),
                },
            ))
        })
        .collect()
}

/// The printed summary of a map's rows.
pub fn summary_text(rows: &[SwapRow]) -> String {
    let mut s = String::new();
    for ((game, agent, ss), v) in pie_values(rows) {
        let _ = writeln!(
            s,
            "{game}, start seed {ss}, agent {agent}: {} opening classes, {} games each",
            v.openings, v.min_n
        );
        match &v.honest {
            Some(h) => {
                let _ = writeln!(
                    s,
                    "  pie-rule value (split sample) = {:.3} [{:.3}, {:.3}] over {} held-out games (fairest: {} / {})",
                    h.value, h.lower, h.upper, h.n, h.selected.0, h.selected.1
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "  pie-rule value (split sample): not available (rows summarised before game halves were recorded; run the map again to resummarise)"
                );
            }
        }
        let _ = writeln!(
            s,
            "  plug-in min max(q, 1-q) = {:.3} at {} (q = {:.3} [{:.3}, {:.3}], n = {}; biased toward 0.5)",
            v.value, v.opening, v.row.q, v.row.lower, v.row.upper, v.row.n
        );
        if v.weak {
            let _ = writeln!(
                s,
                "  warning: {} of {} openings are indistinguishable from 0.5: this agent or this many games cannot tell openings apart, so the value means little",
                v.fair.len(),
                v.openings
            );
        }
        let _ = writeln!(
            s,
            "  fair openings (interval contains 0.5): {} of {}",
            v.fair.len(),
            v.openings
        );
        let mut most: Vec<&SwapRow> = rows
            .iter()
            .filter(|r| r.game == game && r.agent == agent && r.start_seed == ss)
            .collect();
        most.sort_by(|a, b| {
            (a.q - 0.5)
                .abs()
                .total_cmp(&(b.q - 0.5).abs())
                .then(a.opening.cmp(&b.opening))
        });
        let list: Vec<String> = most
            .iter()
            .take(8)
            .map(|r| format!("{} {:.2}", r.opening, r.q))
            .collect();
        let _ = writeln!(s, "  most balanced: {}", list.join(", "));
    }
    s
}

/// A cell map of a swap map's openings: the board shape and, for each
/// row, the cells of every opening in its orbit.
pub struct CellMap {
    /// Board shape.
    pub shape: BoardShape,
    /// Per row (same order as given): the cells of each orbit member.
    pub cells: Vec<Vec<Vec<(i32, i32)>>>,
}

struct Cells<'a> {
    start_seed: u64,
    openings: &'a [String],
}

impl GameVisitor for Cells<'_> {
    type Output = Result<Option<CellMap>>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        let s = game.initial_state(self.start_seed);
        let Some(shape) = s.board_shape() else {
            return Ok(None);
        };
        let classes = opening_classes(&s);
        let mut cells = Vec::new();
        for text in self.openings {
            let mv = s
                .parse_move(text)
                .map_err(|e| anyhow!("opening {text:?}: {e}"))?;
            let class = classes
                .iter()
                .find(|c| c.orbit.contains(&mv))
                .ok_or_else(|| anyhow!("opening {text:?} is not a first move of this game"))?;
            cells.push(class.orbit.iter().map(|&m| s.move_cells(m)).collect());
        }
        Ok(Some(CellMap { shape, cells }))
    }
}

/// The cells of each opening (and its symmetric images) of a map, for
/// plotting; `None` for games without a cell map.
///
/// # Errors
/// An unknown game, or an opening that is not a first move of it.
pub fn cell_map(game: &str, start_seed: u64, openings: &[String]) -> Result<Option<CellMap>> {
    visit_game(
        game,
        Cells {
            start_seed,
            openings,
        },
    )
    .map_err(|e| anyhow!("{e}"))?
}
