//! `boardlab balance`: first-mover advantage, or a strength ladder.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use super::options::{OpeningOpts, RunOpts, UntilOpts};
use crate::research::balance::{self, BalanceArgs};
use crate::research::compare;
use crate::research::ladder::{self, LadderArgs};
use crate::research::pool::{self, PlaceArgs};
use crate::stats::sequential::Until;

/// First-mover advantage: each game's agent plays itself (seats
/// alternated) beside a random-against-random baseline; writes one
/// summary row per game and agent.
#[derive(ClapArgs)]
pub struct Args {
    /// Game string (repeatable), e.g. --game catapult --game "pie(catapult)".
    #[arg(long)]
    game: Vec<String>,
    /// Every registered game at its defaults.
    #[arg(long, conflicts_with = "game")]
    all: bool,
    /// The agent that plays itself.
    #[arg(long, default_value = "mcts(iterations=1000)")]
    agent: String,
    /// Games per game and agent.
    #[arg(long)]
    games: Option<u32>,
    /// Summary CSV; the games go to balance/ beside it.
    #[arg(long, default_value = "runs/balance.csv")]
    out: PathBuf,
    /// Skip the random-against-random baseline.
    #[arg(long)]
    no_baseline: bool,
    /// A strength ladder, weakest first (`A1,A2,...` or several values;
    /// commas inside an agent's parentheses stay): every rung plays
    /// itself (--games each) and the rungs play a paired round robin
    /// (--rating-games per pairing) that rates them in Elo, first rung
    /// 0. Rows go to balance.csv and ladder.csv beside --out. Replaces
    /// --agent.
    #[arg(long, num_args = 1.., value_name = "A")]
    ladder: Vec<String>,
    /// Games per pairing of rungs in the ladder's rating round robin, and
    /// per rung in a --rate gauntlet.
    #[arg(long, default_value_t = 40)]
    rating_games: u32,
    /// Re-summarise every row of --out from its games, playing nothing:
    /// scores, intervals (level 0.05/m over the file's m rows), p-values,
    /// verdicts and Elo from ladder.csv beside it. Relative games paths are
    /// read from the current folder.
    #[arg(long, conflicts_with_all = ["game", "all", "ladder"])]
    refresh: bool,
    /// Compare each --game with this reference game at the same --agent
    /// (the Dagger against plain Catapult: --compare catapult --game
    /// "catapult(dagger=true)"): the difference of the first mover's
    /// scores with its anytime-valid interval and Holm-adjusted p-value,
    /// written to compare.csv beside --out. The reference block is played
    /// too, where it is missing.
    #[arg(long, value_name = "GAME", conflicts_with_all = ["ladder", "all"])]
    compare: Option<String>,
    /// Rate every block's agent on its game's Elo scale: an agent that is
    /// not a rung of the game's ladder (ladder.csv beside --out) plays a
    /// paired gauntlet of --rating-games games against each rung, and the
    /// game's pool (rungs and placed agents) is refitted as a whole into
    /// pool.csv; each balance row then carries its agent's Elo. Two-seat
    /// games only.
    /// With --refresh, every two-seat row of --out is placed (games
    /// without a ladder are named and skipped).
    #[arg(long, conflicts_with = "ladder")]
    rate: bool,
    #[command(flatten)]
    until: UntilOpts,
    #[command(flatten)]
    run: RunOpts,
    #[command(flatten)]
    open: OpeningOpts,
}

/// Games per game and agent when neither --games nor --until is given.
const DEFAULT_GAMES: u32 = 400;

/// Play every block (or the ladder) and print the table.
///
/// # Errors
/// A bad game or agent spec, bad options, an I/O error.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let Args {
        game,
        all,
        agent,
        games,
        out: csv,
        no_baseline,
        ladder,
        rating_games,
        refresh,
        compare,
        rate,
        until,
        run,
        open,
    } = args;
    if refresh {
        let base = std::path::Path::new(".");
        if rate {
            let openings = open.request();
            let place = Placing::new(&csv, rating_games, &run, &openings);
            place.rate(&balance::read_balance(&csv)?, true, out)?;
        }
        let rows = balance::refresh(&csv, base)?;
        write!(out, "{}", balance::table(&rows))?;
        writeln!(out, "rows refreshed in {}", csv.display())?;
        let path = compare::compare_path(&csv);
        let old: Vec<compare::CompareRow> = crate::output::table::read_table(&path)?;
        if !old.is_empty() {
            let rows = compare::merge(&old, &[], base, Until::margin(None))?;
            crate::output::table::write_table(&path, &rows)?;
            write!(out, "{}", compare::table(&rows))?;
            writeln!(out, "comparisons refreshed in {}", path.display())?;
        }
        return Ok(());
    }
    let (until, games) = until.resolve(games.unwrap_or(DEFAULT_GAMES), games.is_some())?;
    let mut list = game;
    if let Some(reference) = &compare {
        if list.is_empty() {
            anyhow::bail!("--compare {reference:?}: give the games to compare with it (--game G)");
        }
        list.insert(0, reference.clone());
    }
    if all {
        list.extend(balance::all_games());
    }
    if !ladder.is_empty() {
        if until.is_some() {
            anyhow::bail!("--until is not available with --ladder: its rungs play a fixed --games");
        }
        let args = LadderArgs {
            games: list,
            rungs: ladder::split_rungs(&ladder),
            games_per_rung: games,
            rating_games,
            seed: run.seed,
            out: csv.clone(),
            threads: run.threads,
            progress: !run.quiet,
            overwrite: run.overwrite,
            openings: open.request(),
        };
        let rows = ladder::run(&args)?;
        write!(out, "{}", ladder::table(&rows))?;
        writeln!(
            out,
            "rows written to {} and {}",
            csv.display(),
            ladder::ladder_path(&csv).display()
        )?;
        return Ok(());
    }
    let openings = open.request();
    let args = BalanceArgs {
        games: list,
        agent,
        games_per_block: games,
        seed: run.seed,
        out: csv.clone(),
        threads: run.threads,
        progress: !run.quiet,
        baseline: !no_baseline,
        overwrite: run.overwrite,
        openings: openings.clone(),
        until,
        family: 0,
    };
    let mut rows = balance::run(&args)?;
    if rate {
        let place = Placing::new(&csv, rating_games, &run, &openings);
        place.rate(&rows, false, out)?;
        let all = balance::set_elo(&csv)?;
        for r in &mut rows {
            if let Some(x) = all.iter().find(|x| x.game == r.game && x.agent == r.agent) {
                r.elo = x.elo;
                r.elo_rating = x.elo_rating.clone();
            }
        }
    }
    write!(out, "{}", balance::table(&rows))?;
    writeln!(out, "rows written to {}", csv.display())?;
    if compare.is_some() {
        // The request's first game is the reference; its blocks are the
        // first rows of each agent.
        let agent = &rows[0].agent;
        let mine: Vec<_> = rows.iter().filter(|r| r.agent == *agent).collect();
        let reference = compare::Block::from(mine[0]);
        let new: Vec<_> = mine[1..]
            .iter()
            .filter(|r| r.game != reference.game)
            .map(|r| (reference.clone(), compare::Block::from(*r)))
            .collect();
        if new.is_empty() {
            anyhow::bail!(
                "--compare: every --game is the reference game {}",
                reference.game
            );
        }
        let path = compare::compare_path(&csv);
        let old: Vec<compare::CompareRow> = crate::output::table::read_table(&path)?;
        let all = compare::merge(&old, &new, std::path::Path::new("."), Until::margin(until))?;
        crate::output::table::write_table(&path, &all)?;
        let shown: Vec<_> = all
            .into_iter()
            .filter(|c| {
                new.iter()
                    .any(|(a, b)| a.game == c.reference && b.game == c.game && b.agent == c.agent)
            })
            .collect();
        write!(out, "{}", compare::table(&shown))?;
        writeln!(out, "comparisons written to {}", path.display())?;
    }
    Ok(())
}

/// How `--rate` places agents in their games' pools.
struct Placing<'a> {
    out: &'a std::path::Path,
    rating_games: u32,
    seed: u64,
    threads: usize,
    progress: bool,
    overwrite: bool,
    openings: &'a crate::run::OpeningsRequest,
}

impl<'a> Placing<'a> {
    fn new(
        out: &'a std::path::Path,
        rating_games: u32,
        run: &RunOpts,
        openings: &'a crate::run::OpeningsRequest,
    ) -> Self {
        Placing {
            out,
            rating_games,
            seed: run.seed,
            threads: run.threads,
            progress: !run.quiet,
            overwrite: run.overwrite,
            openings,
        }
    }

    /// Places the agents of `rows`' two-seat games in each game's pool;
    /// a game without a ladder is an error, or, with `skip`, named and
    /// left unrated.
    fn rate(&self, rows: &[balance::BalanceRow], skip: bool, out: &mut dyn Write) -> Result<()> {
        let mut games: Vec<&str> = Vec::new();
        for r in rows.iter().filter(|r| r.seats == 2) {
            if !games.contains(&r.game.as_str()) {
                games.push(&r.game);
            }
        }
        let ladder =
            crate::research::ladder::read_ladder(&crate::research::ladder::ladder_path(self.out))?;
        for game in games {
            if skip && !ladder.iter().any(|l| l.game == game) {
                writeln!(out, "no ladder for {game}: its rows carry no Elo")?;
                continue;
            }
            pool::place(&PlaceArgs {
                game: game.to_string(),
                agents: rows
                    .iter()
                    .filter(|r| r.game == game)
                    .map(|r| r.agent.clone())
                    .collect(),
                out: self.out.to_path_buf(),
                rating_games: self.rating_games,
                seed: self.seed,
                threads: self.threads,
                progress: self.progress,
                overwrite: self.overwrite,
                openings: self.openings.clone(),
            })?;
        }
        writeln!(
            out,
            "Elo on each game's scale (random = 0) in {}",
            pool::pool_path(self.out).display()
        )?;
        Ok(())
    }
}
