//! `boardlab balance`: how much the first mover is favoured, per game.
//!
//! For each game the agent plays itself with seats alternated, and a
//! random-against-random baseline runs beside it. Each game × agent block is
//! an ordinary resumable tournament CSV under `results/balance/`; the
//! summary `balance.csv` has one row per block and is rewritten from those
//! CSVs after each block, so an interrupted run keeps every finished game and
//! the same command resumes it.
//!
//! The measures (defined once more in `docs/results-format.md`):
//! * `first_mover_*`: the first mover's wins over all games, with the Wilson
//!   95 % interval. The first mover is the seat that plays the colour moving
//!   first in the main game, after any pie choice.
//! * `setter_*`: in pie games, the wins of the seat that made the set-up or
//!   opening; `chooser_took_first`: how often the chooser ended up with the
//!   first-moving colour (Bagel's `swap`, Slingshot's `chooser=B`,
//!   `pie(G)`'s `swap`).
//! * The Ludii names (Browne et al., Ludii's `metrics` package):
//!   `AdvantageP1` = the first mover's mean score (win 1, draw 1/n, loss 0);
//!   `Balance` = 1 − (max − min) of the mean scores of the seats by turn
//!   order; `Drawishness` = the share of draws; `DurationTurns` = the mean
//!   number of turns per game (a seat's whole go: Sniggle's continuation
//!   steps and the spinner's spin and placements are one turn; see "Moves,
//!   plies and turns" in `engine::api`); `BranchingFactorAverage` = the mean over games of each game's mean
//!   number of legal moves at its decisions. `branching_mean` pools every
//!   decision of every game instead.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use engine::registry::GAMES;
use engine::{Game, GameVisitor, State, ToMove, visit_game};

use crate::run::summary::{ScoreEstimate, Share, share_of};
use crate::run::{self, GameRecord, TournamentArgs};
use crate::stats::sequential::{ALPHA, Until, holm};
use crate::stats::{Proportion, mean_sd, wilson};

/// A `balance` request.
#[derive(Clone, Debug)]
pub struct BalanceArgs {
    /// Game strings (after `--all` expansion).
    pub games: Vec<String>,
    /// The agent that plays itself.
    pub agent: String,
    /// Games per game × agent block.
    pub games_per_block: u32,
    /// Run seed.
    pub seed: u64,
    /// Summary CSV; block CSVs go to `<dir>/balance/`.
    pub out: PathBuf,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Progress bars.
    pub progress: bool,
    /// Also run the random-against-random baseline.
    pub baseline: bool,
    /// Replace block CSVs made with another configuration.
    pub overwrite: bool,
    /// Openings every block's games start from.
    pub openings: crate::run::OpeningsRequest,
    /// `--until`: each block plays until its interval meets the rule,
    /// `games_per_block` being the cap.
    pub until: Option<Until>,
    /// The number of cells of the claim this request is part of (a
    /// ladder's games × rungs); 0 for this request's own blocks.
    pub family: usize,
}

/// Every registered game at its default parameters (`--all`).
pub fn all_games() -> Vec<String> {
    GAMES.iter().map(|g| g.name.to_string()).collect()
}

/// A file-name-safe form of a game string or agent spec:
/// `catapult(size=9)` → `catapult-size-9`.
pub fn slug(text: &str) -> String {
    let mut s = String::new();
    for ch in text.chars() {
        if ch.is_ascii_alphanumeric() || ch == '.' {
            s.push(ch.to_ascii_lowercase());
        } else if !s.ends_with('-') {
            s.push('-');
        }
    }
    s.trim_matches('-').to_string()
}

/// One row of `balance.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BalanceRow {
    /// Canonical game string.
    pub game: String,
    /// Agent spec (both seats).
    pub agent: String,
    /// Seats.
    pub seats: usize,
    /// Games played.
    pub n: u64,
    /// What the interval says: `first mover favoured`, `second mover
    /// favoured` (`first mover disfavoured` with three or four seats),
    /// `balanced within ±D`, `undecided`.
    #[serde(default)]
    pub verdict: String,
    /// The first mover's score: win 1, draw ½, loss 0 (k seats: its share
    /// of the points, a draw 1/k), the mean over the games.
    #[serde(default, serialize_with = "crate::output::csvfmt::p4")]
    pub score: f64,
    /// Lower end of the score's anytime-valid interval at level `alpha`.
    #[serde(default, serialize_with = "crate::output::csvfmt::p4")]
    pub score_lower: f64,
    /// Upper end.
    #[serde(default, serialize_with = "crate::output::csvfmt::p4")]
    pub score_upper: f64,
    /// The fair score: 1/seats.
    #[serde(default, serialize_with = "crate::output::csvfmt::p4")]
    pub fair: f64,
    /// The anytime-valid p-value against the fair score.
    #[serde(default, serialize_with = "crate::output::csvfmt::p4")]
    pub p_value: f64,
    /// `p_value` adjusted by Holm's method over every row of the file.
    #[serde(default, serialize_with = "crate::output::csvfmt::p4")]
    pub p_holm: f64,
    /// The interval's level: 0.05/m for a request of m blocks.
    #[serde(default, serialize_with = "crate::output::csvfmt::p6")]
    pub alpha: f64,
    /// The rung's Elo on the game's scale (random = 0), when the agent is
    /// rated in the game's pool; empty otherwise.
    #[serde(default, serialize_with = "crate::output::csvfmt::p1_opt")]
    pub elo: Option<f64>,
    /// The Elo as the ladder states it: `+234 [+117, +351]`, or `≥ +406`
    /// where only sweeps link the rung (then `elo` is that bound).
    #[serde(default)]
    pub elo_rating: String,
    /// Run seed.
    pub seed: u64,
    /// The block's game CSV (with its exact configuration beside it).
    pub games_csv: String,
    /// First-mover wins.
    #[serde(serialize_with = "crate::output::csvfmt::count")]
    pub first_mover_wins: f64,
    /// Drawn games.
    #[serde(default)]
    pub first_mover_draws: u64,
    /// First-mover losses.
    #[serde(default)]
    pub first_mover_losses: u64,
    /// First-mover win rate.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub first_mover_rate: f64,
    /// Wilson 95 % lower bound.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub first_mover_lower: f64,
    /// Wilson 95 % upper bound.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub first_mover_upper: f64,
    /// Setter (first placer) win rate in pie games; empty otherwise.
    #[serde(serialize_with = "crate::output::csvfmt::p4_opt")]
    pub setter_rate: Option<f64>,
    /// Its Wilson lower bound.
    #[serde(serialize_with = "crate::output::csvfmt::p4_opt")]
    pub setter_lower: Option<f64>,
    /// Its Wilson upper bound.
    #[serde(serialize_with = "crate::output::csvfmt::p4_opt")]
    pub setter_upper: Option<f64>,
    /// Share of games where the chooser took the first-moving colour.
    #[serde(serialize_with = "crate::output::csvfmt::p4_opt")]
    pub chooser_took_first: Option<f64>,
    /// Draw rate.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub draw_rate: f64,
    /// Wilson lower bound of the draw rate.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub draw_lower: f64,
    /// Wilson upper bound of the draw rate.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub draw_upper: f64,
    /// Mean plies (the engine's ply count, chance outcomes included where a
    /// game counts them).
    #[serde(serialize_with = "crate::output::csvfmt::p2")]
    pub plies_mean: f64,
    /// Sample standard deviation of plies.
    #[serde(serialize_with = "crate::output::csvfmt::p2")]
    pub plies_sd: f64,
    /// Mean legal moves over every decision of every game.
    #[serde(serialize_with = "crate::output::csvfmt::p2")]
    pub branching_mean: f64,
    /// Ludii AdvantageP1.
    #[serde(rename = "AdvantageP1")]
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub advantage_p1: f64,
    /// Ludii Balance.
    #[serde(rename = "Balance")]
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub balance: f64,
    /// Ludii Drawishness.
    #[serde(rename = "Drawishness")]
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub drawishness: f64,
    /// Ludii DurationTurns.
    #[serde(rename = "DurationTurns")]
    #[serde(serialize_with = "crate::output::csvfmt::p2")]
    pub duration_turns: f64,
    /// Ludii BranchingFactorAverage.
    #[serde(rename = "BranchingFactorAverage")]
    #[serde(serialize_with = "crate::output::csvfmt::p2")]
    pub branching_factor_average: f64,
}

impl BalanceRow {
    /// The first mover's rate as a [`Proportion`].
    pub fn first_mover(&self) -> Proportion {
        wilson(self.first_mover_wins, self.n)
    }

    /// Takes the score, its interval, p-value and verdict from `e`, with a
    /// `balanced` margin.
    pub fn set_estimate(&mut self, e: &ScoreEstimate, margin: f64) {
        self.score = e.score;
        self.score_lower = e.lower;
        self.score_upper = e.upper;
        self.fair = e.fair;
        self.p_value = e.p_value;
        self.alpha = e.alpha;
        self.first_mover_draws = e.draws;
        self.first_mover_losses = e.losses;
        self.verdict = e.verdict(margin, self.seats).to_string();
    }
}

/// Recomputes every row's Holm-adjusted p-value over the rows (the family
/// of one summary file).
pub fn adjust(rows: &mut [BalanceRow]) {
    let adjusted = holm(&rows.iter().map(|r| r.p_value).collect::<Vec<_>>());
    for (r, p) in rows.iter_mut().zip(adjusted) {
        r.p_holm = p;
    }
}

/// Decisions and legal-move counts of one replayed game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Replay {
    /// Moves made by seats.
    pub decisions: u64,
    /// Turns: plies after which no turn continues.
    pub turns: u64,
    /// Sum of the legal-move counts at those decisions.
    pub legal_sum: u64,
}

struct ReplayVisitor<'a> {
    records: &'a [GameRecord],
    run_seed: u64,
}

impl GameVisitor for ReplayVisitor<'_> {
    type Output = Result<Vec<Replay>>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        self.records
            .iter()
            .map(|r| {
                // A game from an opening starts where the opening left it
                // (moves from the run's start, or a position text).
                let mut s = match &r.opening_moves {
                    None => game.initial_state(r.seed),
                    Some(o) => {
                        let mut s = game.initial_state(self.run_seed);
                        match engine::apply_moves(&mut s, o) {
                            Ok(()) => s,
                            Err(e) => game
                                .parse_position(o)
                                .map_err(|_| anyhow!("game {}: opening {o:?}: {e}", r.index))?,
                        }
                    }
                };
                let mut out = Replay::default();
                for (i, text) in r.moves.split_whitespace().enumerate() {
                    if let ToMove::Seat(_) = s.to_move() {
                        out.decisions += 1;
                        out.legal_sum += s.count_legal_moves() as u64;
                    }
                    let mv = engine::parse_legal_move(&s, text)
                        .map_err(|e| anyhow!("game {} move {}: {e}", r.index, i + 1))?;
                    s.apply(mv);
                    out.turns += u64::from(!s.continues_turn());
                }
                Ok(out)
            })
            .collect()
    }
}

/// Replays each record's moves from its seed, counting decisions and the
/// legal moves at each.
///
/// # Errors
/// A record whose moves do not replay (a different engine version).
pub fn replay(game: &str, records: &[GameRecord]) -> Result<Vec<Replay>> {
    replay_run(game, 0, records)
}

/// [`replay`] for the games of a run with seed `run_seed`, whose openings
/// start from `initial_state(run_seed)`.
///
/// # Errors
/// A record whose opening or moves do not replay.
pub fn replay_run(game: &str, run_seed: u64, records: &[GameRecord]) -> Result<Vec<Replay>> {
    visit_game(game, ReplayVisitor { records, run_seed }).map_err(|e| anyhow!("{e}"))?
}

/// The summary row of one block from its records and their replays (one
/// per record, from [`replay`]).
///
/// # Errors
/// No records, or a replay count that does not match.
pub fn summarise_block(
    game: &str,
    agent: &str,
    seats: usize,
    seed: u64,
    games_csv: &str,
    records: &[GameRecord],
    replays: &[Replay],
) -> Result<BalanceRow> {
    if replays.len() != records.len() {
        bail!(
            "{games_csv}: {} replays for {} games",
            replays.len(),
            records.len()
        );
    }
    let n = records.len() as u64;
    if n == 0 {
        bail!("{games_csv}: no finished games to summarise");
    }
    let draw_share = 1.0 / seats as f64;
    // Score of a seat in a game: 1 win (shared by partners), 1/n draw, 0.
    let score = |r: &GameRecord, seat: usize| -> f64 {
        if r.winners.is_empty() {
            draw_share
        } else if r.winners.contains(&seat) {
            1.0
        } else {
            0.0
        }
    };
    let mut fm_wins = 0.0;
    let mut fm_score = 0.0;
    let mut draws = 0.0;
    let mut by_order = vec![0.0; seats];
    let mut setter_games = 0u64;
    let mut setter_wins = 0.0;
    let mut took_first = 0u64;
    for r in records {
        let fm = r.first_mover.unwrap_or(0);
        if r.winners.is_empty() {
            draws += 1.0;
        } else if r.winners.contains(&fm) {
            fm_wins += 1.0;
        }
        fm_score += score(r, fm);
        for (k, acc) in by_order.iter_mut().enumerate() {
            *acc += score(r, (fm + k) % seats);
        }
        if let Some(s) = r.setter {
            setter_games += 1;
            if !r.winners.is_empty() && r.winners.contains(&s) {
                setter_wins += 1.0;
            }
            if r.first_mover.is_some_and(|f| f != s) {
                took_first += 1;
            }
        }
    }
    let nf = n as f64;
    let mut shares: Vec<Share> = records
        .iter()
        .map(|r| {
            let f = r.first_mover.unwrap_or(0);
            Share {
                index: r.index,
                share: share_of(r, f),
                outcome: if r.winners.is_empty() {
                    1
                } else if r.winners.contains(&f) {
                    2
                } else {
                    0
                },
                line: crate::run::summary::line_key(r),
            }
        })
        .collect();
    shares.sort_by_key(|x| x.index);
    let estimate = ScoreEstimate::of(&shares, 1, ALPHA, seats, None);
    let fm = wilson(fm_wins, n);
    let dr = wilson(draws, n);
    let setter = (setter_games > 0).then(|| wilson(setter_wins, setter_games));
    let plies: Vec<f64> = records.iter().map(|r| f64::from(r.plies)).collect();
    let (plies_mean, plies_sd) = mean_sd(&plies);
    let decisions: u64 = replays.iter().map(|r| r.decisions).sum();
    let legal: u64 = replays.iter().map(|r| r.legal_sum).sum();
    let per_game: Vec<f64> = replays
        .iter()
        .filter(|r| r.decisions > 0)
        .map(|r| r.legal_sum as f64 / r.decisions as f64)
        .collect();
    let means: Vec<f64> = by_order.iter().map(|s| s / nf).collect();
    let max = means.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let min = means.iter().cloned().fold(f64::INFINITY, f64::min);
    let mut row = BalanceRow {
        game: game.to_string(),
        agent: agent.to_string(),
        seats,
        n,
        verdict: String::new(),
        score: 0.0,
        score_lower: 0.0,
        score_upper: 1.0,
        fair: 0.5,
        p_value: 1.0,
        p_holm: 1.0,
        alpha: ALPHA,
        elo: None,
        elo_rating: String::new(),
        first_mover_draws: 0,
        first_mover_losses: 0,
        seed,
        games_csv: games_csv.to_string(),
        first_mover_wins: fm_wins,
        first_mover_rate: fm.rate,
        first_mover_lower: fm.lower,
        first_mover_upper: fm.upper,
        setter_rate: setter.map(|p| p.rate),
        setter_lower: setter.map(|p| p.lower),
        setter_upper: setter.map(|p| p.upper),
        chooser_took_first: (setter_games > 0).then(|| took_first as f64 / setter_games as f64),
        draw_rate: dr.rate,
        draw_lower: dr.lower,
        draw_upper: dr.upper,
        plies_mean,
        plies_sd,
        branching_mean: if decisions == 0 {
            0.0
        } else {
            legal as f64 / decisions as f64
        },
        advantage_p1: fm_score / nf,
        balance: if seats > 1 { 1.0 - (max - min) } else { 1.0 },
        drawishness: draws / nf,
        duration_turns: replays.iter().map(|r| r.turns).sum::<u64>() as f64 / nf,
        branching_factor_average: mean_sd(&per_game).0,
    };
    row.set_estimate(&estimate, Until::margin(None));
    Ok(row)
}

/// Sets each row's Elo from the game's pool (`pool.csv` beside `out`, else
/// `ladder.csv`), rewriting the summary file; returns its rows.
///
/// # Errors
/// An unreadable or unwritable file.
pub fn set_elo(out: &Path) -> Result<Vec<BalanceRow>> {
    let mut rows = read_balance(out)?;
    let ladder = crate::research::ladder::read_ladder(&crate::research::ladder::ladder_path(out))?;
    let pool = crate::research::pool::read_pool(&crate::research::pool::pool_path(out))?;
    for r in &mut rows {
        if let Some((elo, text)) = crate::research::pool::elo_of(&pool, &ladder, &r.game, &r.agent)
        {
            r.elo = Some(elo);
            r.elo_rating = text;
        }
    }
    write_balance(out, &rows)?;
    Ok(rows)
}

/// Reads `balance.csv` (empty if absent).
///
/// # Errors
/// An unreadable or malformed file (the message names the row).
pub fn read_balance(path: &Path) -> Result<Vec<BalanceRow>> {
    crate::output::table::read_table(path)
}

/// Writes `rows` to `path` (replacing it).
///
/// # Errors
/// An output that cannot be written.
pub fn write_balance(path: &Path, rows: &[BalanceRow]) -> Result<()> {
    crate::output::table::write_table(path, rows)
}

/// Puts `row` into `rows`, replacing the row of the same game and agent.
pub fn upsert(rows: &mut Vec<BalanceRow>, row: BalanceRow) {
    rows.retain(|r| !(r.game == row.game && r.agent == row.agent));
    rows.push(row);
    rows.sort_by(|a, b| {
        (a.game.as_str(), a.agent.as_str()).cmp(&(b.game.as_str(), b.agent.as_str()))
    });
}

struct Canonical;
impl GameVisitor for Canonical {
    type Output = (String, usize);
    fn visit<G: Game>(self, game: G) -> (String, usize) {
        (game.game_string(), game.num_seats())
    }
}

/// The canonical string and seat count of a game string.
///
/// # Errors
/// An unknown game or bad parameters.
pub fn canonical_game(game: &str) -> Result<(String, usize)> {
    canonical(game).map_err(|e| anyhow!("--game {game:?}: {e}"))
}

/// [`canonical_game`] with the registry's error as it is (unknown game or
/// parameter, listing the valid ones), for callers that name the input
/// themselves.
///
/// # Errors
/// An unknown game or bad parameters.
pub fn canonical(game: &str) -> Result<(String, usize)> {
    visit_game(game, Canonical).map_err(|e| anyhow!("{e}"))
}

/// The tournament of one block: `agent` in every seat of `game` (`seats`
/// seats, seats alternating between games), `args`' games, seed, threads,
/// openings and stopping rule, its games in `games_csv`, its interval at
/// level `alpha`.
pub fn block_tournament(
    args: &BalanceArgs,
    game: &str,
    seats: usize,
    agent: &str,
    games_csv: PathBuf,
    alpha: f64,
) -> TournamentArgs {
    let agents = vec![agent.to_string(); seats];
    let mut t = TournamentArgs::new(game, &agents, args.games_per_block, args.seed, games_csv);
    t.threads = args.threads;
    t.progress = args.progress;
    t.overwrite = args.overwrite;
    t.overwrite_changed_only = true;
    t.also_writes.push(args.out.clone());
    t.openings = args.openings.clone();
    t.until = args.until;
    t.alpha = alpha;
    t
}

/// The summary row of a block's finished run (from [`block_tournament`]):
/// its games replayed for the Ludii measures, the score's interval at the
/// run's level with `args`' `balanced` margin; `games_csv` is the path the
/// row names.
///
/// # Errors
/// No games, or games that do not replay.
pub fn block_row(
    args: &BalanceArgs,
    result: &run::TournamentResult,
    agent: &str,
    games_csv: &str,
) -> Result<BalanceRow> {
    let replays = replay_run(&result.config.game, result.config.seed, &result.records)?;
    let mut row = summarise_block(
        &result.config.game,
        agent,
        result.num_seats,
        args.seed,
        games_csv,
        &result.records,
        &replays,
    )?;
    if let Some(e) = &result.summary.first_mover_score {
        row.set_estimate(e, Until::margin(args.until));
    }
    Ok(row)
}

/// Runs (or resumes) every block and returns the rows of this request;
/// `balance.csv` keeps rows of other games and agents from earlier runs.
///
/// # Errors
/// An unknown game or agent, an agent that cannot play a game, an output
/// that cannot be written or that holds another configuration.
pub fn run(args: &BalanceArgs) -> Result<Vec<BalanceRow>> {
    if args.games.is_empty() {
        bail!("give --game G (repeatable) or --all");
    }
    if args.games_per_block == 0 {
        bail!("--games must be at least 1");
    }
    // Check every game string, and the agent in each game (its search
    // defaults and evaluation weights), before playing anything.
    let games = args
        .games
        .iter()
        .map(|g| canonical_game(g))
        .collect::<Result<Vec<_>>>()?;
    let mut agent = String::new();
    for (game, seats) in &games {
        let spec =
            agents::AgentSpec::parse_in(&args.agent, game).map_err(|e| anyhow!("--agent: {e}"))?;
        agent = spec.canonical();
        spec.check_game(*seats)
            .map_err(|e| anyhow!("--agent {agent} cannot play {game}: {e}"))?;
    }
    // The agent as each game reads it (its own search defaults).
    let agents_in = |game: &str| -> Result<Vec<String>> {
        let agent = agents::AgentSpec::parse_in(&args.agent, game)
            .map_err(|e| anyhow!("--agent: {e}"))?
            .canonical();
        let mut list = vec![agent.clone()];
        if args.baseline && agent != "random" {
            list.push("random".to_string());
        }
        Ok(list)
    };
    let per_game = if args.baseline && agent != "random" {
        2
    } else {
        1
    };
    let dir = crate::output::table::beside(&args.out, "balance");
    let mut rows = read_balance(&args.out)?;
    let mut mine = Vec::new();
    // m cells, one claim: each block's interval at level 0.05/m, so that a
    // block that stops is still decided after the correction.
    let cells = if args.family > 0 {
        args.family
    } else {
        games.len() * per_game
    };
    let alpha = ALPHA / cells as f64;
    for (game, seats) in &games {
        for a in &agents_in(game)? {
            let games_csv =
                crate::run::storage::games_file(&dir, &format!("{}__{}", slug(game), slug(a)));
            if args.progress {
                eprintln!("{game}  {a}  ({} games)", args.games_per_block);
            }
            let t = block_tournament(args, game, *seats, a, games_csv.clone(), alpha);
            let result = run::run(&t)?;
            if let Some(w) = result.summary.line_note() {
                eprintln!("{game}  {a}: {w}");
            }
            let mut row = block_row(args, &result, a, &games_csv.display().to_string())?;
            if let Some(old) = rows
                .iter()
                .find(|r| r.game == row.game && r.agent == row.agent)
            {
                row.elo = old.elo;
                row.elo_rating = old.elo_rating.clone();
            }
            upsert(&mut rows, row.clone());
            adjust(&mut rows);
            write_balance(&args.out, &rows)?;
            mine.push(row);
        }
    }
    for r in &mut mine {
        if let Some(x) = rows.iter().find(|x| x.game == r.game && x.agent == r.agent) {
            r.p_holm = x.p_holm;
        }
    }
    Ok(mine)
}

/// Re-summarises every row of a balance summary from its games, playing
/// nothing: the scores, intervals (level 0.05/m for the file's m rows),
/// p-values and verdicts are computed anew from each row's `games_csv`
/// (resolved against `base` when relative), the Holm adjustment over the
/// file, and each row's Elo on the game's scale: from `pool.csv` beside it
/// (`balance --rate`), else from `ladder.csv` where the agent is a rung.
/// Returns the rows written.
///
/// # Errors
/// A row whose games file is missing or does not replay.
pub fn refresh(out: &Path, base: &Path) -> Result<Vec<BalanceRow>> {
    let mut rows = read_balance(out)?;
    if rows.is_empty() {
        bail!("{}: no rows to refresh", out.display());
    }
    let alpha = ALPHA / rows.len() as f64;
    let ladder = crate::research::ladder::read_ladder(&crate::research::ladder::ladder_path(out))?;
    let pool = crate::research::pool::read_pool(&crate::research::pool::pool_path(out))?;
    for row in &mut rows {
        let path = base.join(&row.games_csv);
        let mut fresh = row_from_games(
            &path,
            (&row.game, &row.agent, row.seats),
            row.seed,
            &row.games_csv,
            alpha,
            Until::margin(None),
        )?;
        if let Some((elo, text)) =
            crate::research::pool::elo_of(&pool, &ladder, &row.game, &row.agent)
        {
            fresh.elo = Some(elo);
            fresh.elo_rating = text;
        }
        *row = fresh;
    }
    adjust(&mut rows);
    write_balance(out, &rows)?;
    Ok(rows)
}

/// A block's summary row from its games file `path` as it stands (finished
/// or not): the score's anytime-valid interval at level `alpha` and the
/// verdict with a `balanced` margin of `margin`; `cell` is the block's
/// (game, agent, seats) and `games_csv` the path the row names. No Elo.
///
/// # Errors
/// A games file that is missing, holds no game, or does not replay.
pub fn row_from_games(
    path: &Path,
    (game, agent, seats): (&str, &str, usize),
    seed: u64,
    games_csv: &str,
    alpha: f64,
    margin: f64,
) -> Result<BalanceRow> {
    let config = run::read_config(path)?;
    let (records, _) = run::read_rows(path, false, Some(&config))?;
    let mut b = run::SummaryBuilder::new();
    for r in &records {
        b.add(r);
    }
    let mut summary = b.finish(&config);
    summary.set_level(alpha, None, None);
    let replays = replay_run(&config.game, config.seed, &records)?;
    let mut row = summarise_block(game, agent, seats, seed, games_csv, &records, &replays)?;
    if let Some(e) = &summary.first_mover_score {
        row.set_estimate(e, margin);
    }
    Ok(row)
}

/// The printed verdict table of `rows`: per game and agent the verdict,
/// the first mover's wins, draws and losses, its score with the
/// anytime-valid interval (at the row's level), the Holm-adjusted p-value
/// over the summary file, the agent's Elo where rated, draws and plies.
pub fn table(rows: &[BalanceRow]) -> String {
    use crate::output::table::short;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<30} {:<26} {:<24} {:>15}  {:<22} {:>7} {:>8} {:>6} {:>7}",
        "game",
        "agent",
        "verdict",
        "+W =D -L",
        "score [interval]",
        "p Holm",
        "Elo",
        "draws",
        "plies"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<30} {:<26} {:<24} {:>15}  {:<22} {:>7.4} {:>8} {:>5.1}% {:>7.1}",
            short(&r.game),
            short(&r.agent),
            r.verdict,
            format!(
                "+{} ={} -{}",
                r.first_mover_wins, r.first_mover_draws, r.first_mover_losses
            ),
            format!(
                "{:.3} [{:.3}, {:.3}]",
                r.score, r.score_lower, r.score_upper
            ),
            r.p_holm,
            if r.elo_rating.is_empty() {
                "-".to_string()
            } else {
                r.elo_rating.split(" [").next().unwrap_or("-").to_string()
            },
            100.0 * r.draw_rate,
            r.plies_mean,
        );
    }
    if !rows.is_empty() {
        let _ = writeln!(
            s,
            "score: win 1, draw ½ (k seats: the first mover's share, fair 1/k); intervals anytime-valid, each at level 0.05/m for the m blocks of its request; p Holm-adjusted over the summary file's rows"
        );
    }
    s
}

/// Groups rows by game, for the report.
pub fn by_game(rows: &[BalanceRow]) -> BTreeMap<String, Vec<&BalanceRow>> {
    let mut m: BTreeMap<String, Vec<&BalanceRow>> = BTreeMap::new();
    for r in rows {
        m.entry(r.game.clone()).or_default().push(r);
    }
    m
}
