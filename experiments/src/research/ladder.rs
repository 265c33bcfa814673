//! `boardlab balance --ladder A1,A2,...`: first-mover advantage as a curve
//! over agent strength. Per game, every rung plays itself (a `balance`
//! block: the first mover's wins, draws and losses with Wilson intervals),
//! and the rungs play a paired round robin whose Bradley–Terry fit gives
//! each rung's Elo (anchor: the first rung = 0). One row per game and rung
//! goes to `ladder.csv` beside the balance output; `report` plots the first
//! mover's win rate against Elo per game.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use crate::research::balance::{self, BalanceArgs, canonical_game, slug};
use crate::research::rate;
use crate::run::{self, OpeningsRequest, Schedule, TournamentArgs, read_rows, summarise};

/// A ladder request.
#[derive(Clone, Debug)]
pub struct LadderArgs {
    /// Game strings.
    pub games: Vec<String>,
    /// The rungs, weakest first (agent specs).
    pub rungs: Vec<String>,
    /// Self-play games per game and rung.
    pub games_per_rung: u32,
    /// Games per pairing of rungs in the rating round robin.
    pub rating_games: u32,
    /// Run seed.
    pub seed: u64,
    /// The balance CSV; `ladder.csv` and the games go beside it.
    pub out: PathBuf,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Progress bars.
    pub progress: bool,
    /// Replace outputs made with another configuration.
    pub overwrite: bool,
    /// Openings for every block and the rating games.
    pub openings: OpeningsRequest,
}

/// One rung of one game's ladder (a row of `ladder.csv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderRow {
    /// Canonical game string.
    pub game: String,
    /// Rung index, weakest first.
    pub rung: usize,
    /// Canonical agent spec.
    pub agent: String,
    /// The rating as the games show it: `+120 [80, 160]` where pairings
    /// both sides won games in link the rung to the first, `≥ +406` (or
    /// `≤`) where only sweeps do.
    #[serde(default)]
    pub rating: String,
    /// Whether the rung is linked to the first rung by pairings that are
    /// not sweeps (then `elo` is a fitted point, else a bound).
    #[serde(default)]
    pub linked: bool,
    /// Elo from the rating round robin (first rung = 0): the fitted point,
    /// or for a rung placed by sweeps alone its bound.
    #[serde(serialize_with = "crate::output::csvfmt::p1")]
    pub elo: f64,
    /// Its 95 % interval.
    #[serde(serialize_with = "crate::output::csvfmt::p1")]
    pub elo_lower: f64,
    /// Upper end.
    #[serde(serialize_with = "crate::output::csvfmt::p1")]
    pub elo_upper: f64,
    /// Self-play games of the rung.
    pub n: u64,
    /// The verdict of the rung's self-play (see `balance.csv`).
    #[serde(default)]
    pub verdict: String,
    /// The first mover's score in self-play (win 1, draw ½).
    #[serde(default, serialize_with = "crate::output::csvfmt::p4")]
    pub score: f64,
    /// Its anytime-valid interval (the balance row's level).
    #[serde(default, serialize_with = "crate::output::csvfmt::p4")]
    pub score_lower: f64,
    /// Upper end.
    #[serde(default, serialize_with = "crate::output::csvfmt::p4")]
    pub score_upper: f64,
    /// Distinct games among them.
    pub distinct: u64,
    /// The first mover's win rate.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub first_mover_win: f64,
    /// Its Wilson 95 % interval.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub first_mover_lower: f64,
    /// Upper end.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub first_mover_upper: f64,
    /// Draw rate.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub draw: f64,
    /// The first mover's loss rate.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub first_mover_loss: f64,
    /// Run seed.
    pub seed: u64,
    /// Rating games per pairing.
    pub rating_games: u32,
    /// The self-play games.
    pub games_csv: String,
    /// The rating games.
    pub ratings_csv: String,
}

/// Splits `A,B(x=1,y=2),C` at top-level commas; several values are joined.
pub fn split_rungs(values: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for v in values {
        let (mut depth, mut cur) = (0i32, String::new());
        for ch in v.chars() {
            match ch {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            if ch == ',' && depth == 0 {
                out.push(std::mem::take(&mut cur).trim().to_string());
            } else {
                cur.push(ch);
            }
        }
        out.push(cur.trim().to_string());
    }
    // An empty rung (`a,,b`, a trailing comma) stays, and is refused as an
    // agent: a typo, not something to skip silently.
    out
}

/// The path of `ladder.csv` beside a balance output.
pub fn ladder_path(balance_out: &Path) -> PathBuf {
    crate::output::table::beside(balance_out, "ladder.csv")
}

/// Reads `ladder.csv` (empty if absent).
///
/// # Errors
/// An unreadable or malformed file.
pub fn read_ladder(path: &Path) -> Result<Vec<LadderRow>> {
    crate::output::table::read_table(path)
}

/// Runs (or resumes) every game's ladder and returns its rows;
/// `ladder.csv` keeps the rows of other games.
///
/// # Errors
/// Fewer than two rungs, a bad game or agent, a game without two seats,
/// an output that cannot be written or holds another configuration.
pub fn run(args: &LadderArgs) -> Result<Vec<LadderRow>> {
    if args.rungs.len() < 2 {
        bail!("--ladder needs at least two agents, weakest first");
    }
    if args.rating_games == 0 || args.games_per_rung == 0 {
        bail!("--games and --rating-games must be at least 1");
    }
    // The rungs as each game reads them (its own search defaults).
    let rungs_in = |game: &str| {
        args.rungs
            .iter()
            .map(|a| {
                agents::AgentSpec::parse_in(a, game)
                    .map(|s| s.canonical())
                    .map_err(|e| anyhow!("--ladder {a:?}: {e}"))
            })
            .collect::<Result<Vec<_>>>()
    };
    let mut games = Vec::new();
    for g in &args.games {
        let (game, seats) = canonical_game(g)?;
        if seats != 2 {
            bail!(
                "--ladder: {game} has {seats} seats; the first-mover curve needs a two-seat game"
            );
        }
        games.push(game);
    }
    if games.is_empty() {
        bail!("give --game G (repeatable) or --all");
    }
    // Every rung in every game before anything is played.
    for game in &games {
        rungs_in(game)?;
    }
    let dir = crate::output::table::beside(&args.out, "ladder");
    let path = ladder_path(&args.out);
    let mut all = read_ladder(&path)?;
    let mut mine = Vec::new();
    for game in &games {
        let rungs = rungs_in(game)?;
        // Strength: the paired round robin of the rungs.
        let ratings_csv =
            crate::run::storage::games_file(&dir, &format!("{}__ratings", slug(game)));
        if args.progress {
            eprintln!("{game}: rating {} rungs", rungs.len());
        }
        let mut t = TournamentArgs::new(
            game,
            &rungs,
            args.rating_games,
            args.seed,
            ratings_csv.clone(),
        );
        t.paired = true;
        t.schedule = Schedule::RoundRobin;
        t.threads = args.threads;
        t.progress = args.progress;
        t.overwrite = args.overwrite;
        t.openings = args.openings.clone();
        let rated = run::run(&t)?;
        let fit = rate::linked(&rated.config, &rated.records, 0)?;
        let mut rows = Vec::new();
        for (i, agent) in rungs.iter().enumerate() {
            // First-mover advantage: the rung against itself.
            let b = balance::run(&BalanceArgs {
                games: vec![game.clone()],
                agent: agent.clone(),
                games_per_block: args.games_per_rung,
                seed: args.seed,
                out: args.out.clone(),
                threads: args.threads,
                progress: args.progress,
                baseline: false,
                overwrite: args.overwrite,
                openings: args.openings.clone(),
                until: None,
                family: games.len() * rungs.len(),
            })?;
            let r = b
                .into_iter()
                .find(|r| r.agent == *agent)
                .ok_or_else(|| anyhow!("no balance row for {agent}"))?;
            let (records, _) = read_rows(Path::new(&r.games_csv), false, None)?;
            let config = run::read_config(Path::new(&r.games_csv))?;
            let distinct = summarise(&config, &records).distinct as u64;
            let e = fit[i];
            let bound = if e.lower.is_finite() {
                e.lower
            } else {
                e.upper
            };
            rows.push(LadderRow {
                game: game.clone(),
                rung: i,
                agent: agent.clone(),
                rating: e.text(),
                linked: e.elo.is_some(),
                elo: e.elo.unwrap_or(bound),
                elo_lower: if e.lower.is_finite() { e.lower } else { bound },
                elo_upper: if e.upper.is_finite() { e.upper } else { bound },
                n: r.n,
                verdict: r.verdict.clone(),
                score: r.score,
                score_lower: r.score_lower,
                score_upper: r.score_upper,
                distinct,
                first_mover_win: r.first_mover_rate,
                first_mover_lower: r.first_mover_lower,
                first_mover_upper: r.first_mover_upper,
                draw: r.draw_rate,
                first_mover_loss: (1.0 - r.first_mover_rate - r.draw_rate).max(0.0),
                seed: args.seed,
                rating_games: args.rating_games,
                games_csv: r.games_csv.clone(),
                ratings_csv: ratings_csv.display().to_string(),
            });
        }
        all.retain(|x| x.game != *game);
        all.extend(rows.iter().cloned());
        all.sort_by(|a, b| (a.game.as_str(), a.rung).cmp(&(b.game.as_str(), b.rung)));
        crate::output::table::write_table(&path, &all)?;
        mine.extend(rows);
    }
    Ok(mine)
}

/// The printed table of ladder rows.
pub fn table(rows: &[LadderRow]) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<28} {:>4}  {:<34} {:>22}  {:>6}  {:>26}  {:>6}  {:>6}",
        "game",
        "rung",
        "agent",
        "Elo [95%]",
        "n",
        "first mover score [interval]",
        "draws",
        "losses"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<28} {:>4}  {:<34} {:>22}  {:>6}  {:>26}  {:>5.1}%  {:>5.1}%{}",
            crate::output::table::short(&r.game),
            r.rung,
            crate::output::table::short(&r.agent),
            r.rating,
            r.n,
            format!(
                "{:.3} [{:.3}, {:.3}]",
                r.score, r.score_lower, r.score_upper
            ),
            100.0 * r.draw,
            100.0 * r.first_mover_loss,
            if (r.distinct as f64) < crate::run::summary::DISTINCT_WARNING * r.n as f64 {
                format!("  ({} distinct games)", r.distinct)
            } else {
                String::new()
            }
        );
    }
    s
}
