//! `sprt`: a sequential probability ratio test of agent A against agent B
//! on game pairs, played in batches until the log-likelihood ratio crosses
//! a bound.

use std::fs::OpenOptions;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use crate::research::strength::{cutechess_lines, pairs, two_seats};
use crate::run::{self, GameRecord, Schedule, TournamentArgs};
use crate::stats::elo::{Pentanomial, sprt_bounds};

/// A request for `boardlab sprt`.
#[derive(Clone, Debug)]
pub struct SprtArgs {
    /// The paired match (`agents` = [A, B]; `games` = the most games to play).
    pub run: TournamentArgs,
    /// Elo of A over B under H0.
    pub elo0: f64,
    /// Elo of A over B under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// The CSV the result row is appended to.
    pub sprt_out: PathBuf,
}

/// Pairs played per batch: fixed, so the stopping point does not depend on
/// the thread count.
pub const SPRT_BATCH_PAIRS: u64 = 16;

/// The outcome of an SPRT.
#[derive(Clone, Debug)]
pub struct SprtOutcome {
    /// `H1` (A is stronger by elo1), `H0`, or `inconclusive` at the game cap.
    pub verdict: &'static str,
    /// Log-likelihood ratio at the stop.
    pub llr: f64,
    /// Lower and upper bounds.
    pub bounds: (f64, f64),
    /// Pentanomial counts of the pairs counted.
    pub penta: Pentanomial,
}

/// Reads the pairs in index order and checks the LLR after every batch of
/// [`SPRT_BATCH_PAIRS`] pairs (as fishtest updates in batches: a variance
/// from a handful of pairs is no basis for a decision), stopping at the
/// first batch that crosses a bound.
pub fn sprt_verdict(
    records: &[GameRecord],
    elo0: f64,
    elo1: f64,
    bounds: (f64, f64),
) -> SprtOutcome {
    let mut penta = Pentanomial::default();
    let mut llr = 0.0;
    for (a, _, pts) in pairs(records) {
        penta.add(if a == 0 { pts } else { 2.0 - pts });
        if penta.pairs() % SPRT_BATCH_PAIRS != 0 {
            continue;
        }
        llr = penta.llr(elo0, elo1);
        if llr >= bounds.1 {
            return SprtOutcome {
                verdict: "H1",
                llr,
                bounds,
                penta,
            };
        }
        if llr <= bounds.0 {
            return SprtOutcome {
                verdict: "H0",
                llr,
                bounds,
                penta,
            };
        }
    }
    if penta.pairs() > 0 {
        llr = penta.llr(elo0, elo1);
    }
    SprtOutcome {
        verdict: "inconclusive",
        llr,
        bounds,
        penta,
    }
}

/// Plays pairs in batches until the SPRT crosses a bound (or the game cap),
/// appends the result row, and returns the report.
///
/// # Errors
/// `elo0 >= elo1`, α or β outside (0, ½), not exactly two agents, bad game
/// or agents, unwritable outputs, a configuration clash.
pub fn sprt(args: &SprtArgs) -> Result<String> {
    if !(args.elo0.is_finite() && args.elo1.is_finite()) {
        bail!("--elo0 and --elo1 must be finite numbers");
    }
    if args.run.shard.is_some() {
        bail!(
            "sprt is sequential and cannot be sharded; run it whole (it resumes after an interruption)"
        );
    }
    if args.elo0 >= args.elo1 {
        bail!("--elo0 {} must be below --elo1 {}", args.elo0, args.elo1);
    }
    if args.run.games == 0 || args.run.games % 2 == 1 {
        bail!(
            "--max-games {} must be a positive even number (games come in pairs)",
            args.run.games
        );
    }
    for (name, v) in [("alpha", args.alpha), ("beta", args.beta)] {
        if !(v > 0.0 && v < 0.5) {
            bail!("--{name} {v} must be between 0 and 0.5");
        }
    }
    if args.run.agents.len() != 2 {
        bail!("sprt compares exactly two agents: --agents A B");
    }
    two_seats(&args.run.game, "sprt")?;
    let bounds = sprt_bounds(args.alpha, args.beta);
    // One test appends to --sprt at a time; it is checked before any game.
    let _lock = run::safety::lock_output(&args.sprt_out)?;
    let mut run = args.run.clone();
    run.paired = true;
    run.schedule = Schedule::RoundRobin;
    run.also_writes.push(args.sprt_out.clone());
    let show = run.progress;
    run.progress = false;
    let bar = crate::output::table::spinner(show);
    let cap = run.games as u64;
    let mut limit = 0;
    let (res, outcome) = loop {
        limit = (limit + 2 * SPRT_BATCH_PAIRS).min(cap);
        run.limit = Some(limit);
        let res = run::run(&run)?;
        // The next batch extends this file (even after --overwrite).
        run.overwrite = false;
        run.continues = true;
        let done: Vec<GameRecord> = res
            .records
            .iter()
            .filter(|r| r.index < limit)
            .cloned()
            .collect();
        let o = sprt_verdict(&done, args.elo0, args.elo1, bounds);
        bar.set_message(format!(
            "pairs {}  LLR {:.2} [{:.2}, {:.2}]",
            o.penta.pairs(),
            o.llr,
            bounds.0,
            bounds.1
        ));
        bar.tick();
        if o.verdict != "inconclusive" || limit >= cap {
            break (res, o);
        }
    };
    bar.finish_and_clear();
    let (elo, lo, hi) = outcome.penta.elo_interval();
    let c = &res.config;
    let p = outcome.penta.0;
    let row = [
        c.game.clone(),
        c.agents[0].clone(),
        c.agents[1].clone(),
        args.elo0.to_string(),
        args.elo1.to_string(),
        args.alpha.to_string(),
        args.beta.to_string(),
        c.seed.to_string(),
        outcome.penta.pairs().to_string(),
        p[0].to_string(),
        p[1].to_string(),
        p[2].to_string(),
        p[3].to_string(),
        p[4].to_string(),
        format!("{:.4}", outcome.llr),
        format!("{:.4}", bounds.0),
        format!("{:.4}", bounds.1),
        outcome.verdict.to_string(),
        format!("{elo:.2}"),
        format!("{lo:.2}"),
        format!("{hi:.2}"),
        run.out.display().to_string(),
    ];
    // A finished test run again resumes the same games and gives the same
    // row: it is not appended twice.
    let recorded = args.sprt_out.exists() && {
        let mut r = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(true)
            .from_path(&args.sprt_out)
            .with_context(|| format!("cannot read {}", args.sprt_out.display()))?;
        r.records()
            .any(|x| x.is_ok_and(|x| x.iter().eq(row.iter().map(String::as_str))))
    };
    if !recorded {
        let new = !args.sprt_out.exists();
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&args.sprt_out)
            .with_context(|| format!("cannot write {}", args.sprt_out.display()))?;
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        if new {
            w.write_record([
                "game",
                "agent_a",
                "agent_b",
                "elo0",
                "elo1",
                "alpha",
                "beta",
                "seed",
                "pairs",
                "penta_0",
                "penta_1",
                "penta_2",
                "penta_3",
                "penta_4",
                "llr",
                "lower_bound",
                "upper_bound",
                "verdict",
                "elo",
                "elo_lower",
                "elo_upper",
                "games_csv",
            ])?;
        }
        w.write_record(&row)?;
        w.flush()?;
    }
    Ok(format!(
        "SPRT {} vs {} on {}: elo0={} elo1={} alpha={} beta={}\n{}\nLLR {:.3} [{:.3}, {:.3}] after {} pairs: {}\nElo {:.1} [{:.1}, {:.1}]",
        c.agents[0],
        c.agents[1],
        c.game,
        args.elo0,
        args.elo1,
        args.alpha,
        args.beta,
        cutechess_lines(
            &res.records
                .iter()
                .filter(|r| r.index < 2 * outcome.penta.pairs())
                .cloned()
                .collect::<Vec<_>>(),
            &c.agents,
            0,
            1
        ),
        outcome.llr,
        bounds.0,
        bounds.1,
        outcome.penta.pairs(),
        match outcome.verdict {
            "H1" => "H1 accepted",
            "H0" => "H0 accepted",
            _ => "inconclusive at the game cap",
        },
        elo,
        lo,
        hi
    ))
}
