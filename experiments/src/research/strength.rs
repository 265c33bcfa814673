//! Strength research on game pairs: `rate` (a Bradley–Terry ladder),
//! `sprt` (sequential test of an Elo hypothesis) and `tune` (a parameter
//! against a baseline). All three play through the tournament machinery
//! with paired games (same seed and opening, seats swapped), so they
//! resume, shard and merge like any tournament.

use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressStyle};

use engine::spec::Spec;

use crate::run::{self, GameRecord, Schedule, TournamentArgs, TournamentConfig};
use crate::stats::elo::{Pentanomial, Ratings, bradley_terry, sprt_bounds};
use crate::stats::{Proportion, wilson};

/// Game pairs of a paired run: `(agent in seat 0 of the first game, the
/// other agent, points of the first agent over both games)`.
pub fn pairs(records: &[GameRecord]) -> Vec<(usize, usize, f64)> {
    let mut by_pair = std::collections::BTreeMap::<u64, Vec<&GameRecord>>::new();
    for r in records {
        by_pair.entry(r.index / 2).or_default().push(r);
    }
    by_pair
        .values()
        .filter(|g| g.len() == 2)
        .map(|g| {
            let a = g[0].seats[0];
            let b = g[0].seats[1];
            let points: f64 = g.iter().map(|r| points_of(r, a)).sum();
            (a, b, points)
        })
        .collect()
}

/// What agent `a` scored in one game: 1 win, ½ draw, 0 loss.
fn points_of(r: &GameRecord, a: usize) -> f64 {
    if r.winners.is_empty() {
        0.5
    } else if r.winners.iter().any(|&s| r.seats[s] == a) {
        1.0
    } else {
        0.0
    }
}

/// Pentanomial counts of `a` against `b` over complete pairs.
pub fn pentanomial(records: &[GameRecord], a: usize, b: usize) -> Pentanomial {
    let mut p = Pentanomial::default();
    for (x, y, pts) in pairs(records) {
        if (x, y) == (a, b) {
            p.add(pts);
        } else if (x, y) == (b, a) {
            p.add(2.0 - pts);
        }
    }
    p
}

/// Wins, draws, losses of `a` against `b` over single games.
pub fn wdl(records: &[GameRecord], a: usize, b: usize) -> (u64, u64, u64) {
    let (mut w, mut d, mut l) = (0, 0, 0);
    for r in records {
        if r.seats.contains(&a) && r.seats.contains(&b) {
            let x = points_of(r, a);
            if x == 1.0 {
                w += 1;
            } else if x == 0.5 {
                d += 1;
            } else {
                l += 1;
            }
        }
    }
    (w, d, l)
}

/// A cutechess-style block for `a` against `b`: score line, Elo difference
/// with its 95 % interval (from the pair variance), LOS and draw ratio.
pub fn cutechess_lines(records: &[GameRecord], names: &[String], a: usize, b: usize) -> String {
    let (w, d, l) = wdl(records, a, b);
    let n = w + d + l;
    let p = pentanomial(records, a, b);
    let (elo, lo, hi) = p.elo_interval();
    format!(
        "Score of {} vs {}: {w} - {l} - {d}  [{:.3}] {n}\nElo difference: {elo:.1} +/- {:.1}, LOS: {:.1} %, DrawRatio: {:.1} %, pairs {:?}",
        names[a],
        names[b],
        (w as f64 + 0.5 * d as f64) / n.max(1) as f64,
        (hi - lo) / 2.0,
        100.0 * p.los(),
        100.0 * d as f64 / n.max(1) as f64,
        p.0
    )
}

/// A request for `boardlab rate`.
#[derive(Clone, Debug)]
pub struct RateArgs {
    /// The paired round robin (its `out` is the games CSV).
    pub run: TournamentArgs,
    /// The anchor agent's spec or index; default the first agent.
    pub anchor: Option<String>,
    /// Where the ratings go.
    pub ratings_out: PathBuf,
}

/// Fits ratings to the games of a paired round robin.
///
/// # Errors
/// Too few games to connect the agents.
pub fn fit(config: &TournamentConfig, records: &[GameRecord], anchor: usize) -> Result<Ratings> {
    let k = config.agents.len();
    let mut score = vec![vec![0.0; k]; k];
    let mut games = vec![vec![0.0; k]; k];
    for r in records {
        if r.seats.len() != 2 {
            continue;
        }
        let (a, b) = (r.seats[0], r.seats[1]);
        let pa = points_of(r, a);
        score[a][b] += pa;
        score[b][a] += 1.0 - pa;
        games[a][b] += 1.0;
        games[b][a] += 1.0;
    }
    bradley_terry(&score, &games, anchor).map_err(|e| anyhow!("cannot fit ratings: {e}"))
}

fn anchor_index(agent_specs: &[String], anchor: Option<&str>) -> Result<usize> {
    let Some(a) = anchor else { return Ok(0) };
    let canonical: Vec<String> = agent_specs
        .iter()
        .map(|s| {
            agents::AgentSpec::parse(s)
                .map(|x| x.canonical())
                .map_err(|e| anyhow!("{e}"))
        })
        .collect::<Result<_>>()?;
    if let Ok(i) = a.parse::<usize>() {
        if i < canonical.len() {
            return Ok(i);
        }
        bail!(
            "--anchor {i} is not an agent index (0..{})",
            canonical.len() - 1
        );
    }
    let canon = agents::AgentSpec::parse(a)
        .map_err(|e| anyhow!("--anchor: {e}"))?
        .canonical();
    canonical
        .iter()
        .position(|s| *s == canon)
        .ok_or_else(|| anyhow!("--anchor {a:?} is not one of the agents (give its spec or index)"))
}

/// Runs (or resumes) the round robin, fits ratings, writes the ratings CSV
/// and returns the printed report.
///
/// # Errors
/// Bad game, agents or anchor; unwritable outputs; a configuration clash.
pub fn rate(args: &RateArgs) -> Result<String> {
    if args.run.agents.len() < 2 {
        bail!("rate needs at least two agents");
    }
    two_seats(&args.run.game, "rate")?;
    let anchor = anchor_index(&args.run.agents, args.anchor.as_deref())?;
    let mut run = args.run.clone();
    run.paired = true;
    run.schedule = Schedule::RoundRobin;
    run.also_writes.push(args.ratings_out.clone());
    let res = run::run(&run)?;
    if let Some((k, n)) = run.shard {
        return Ok(format!(
            "shard {k}/{n}: {} games in {}; merge all shards with `boardlab merge`, then fit with `boardlab rate ... --out MERGED.csv` (it resumes the finished games)",
            res.records.len(),
            run.out.display()
        ));
    }
    let names: Vec<String> = res.config.agents.clone();
    let r = fit(&res.config, &res.records, anchor)?;
    let k = names.len();
    let mut out = String::new();
    for a in 0..k {
        for b in a + 1..k {
            let _ = writeln!(out, "{}", cutechess_lines(&res.records, &names, a, b));
        }
    }
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| r.ratings[b].elo.total_cmp(&r.ratings[a].elo));
    let _ = writeln!(
        out,
        "\nRank  Elo      95% interval       LOS-next  Games  Agent   (Bradley-Terry, anchor {} = 0, {})",
        names[anchor], res.config.game
    );
    let mut w = csv::Writer::from_path(&args.ratings_out)
        .with_context(|| format!("cannot write {}", args.ratings_out.display()))?;
    w.write_record([
        "game",
        "rank",
        "agent",
        "spec",
        "elo",
        "se",
        "lower",
        "upper",
        "los_next",
        "games",
        "score",
        "anchor",
        "seed",
        "games_csv",
    ])?;
    for (rank, &i) in order.iter().enumerate() {
        let e = r.ratings[i];
        let (lo, hi) = (
            e.elo - crate::stats::Z95 * e.se,
            e.elo + crate::stats::Z95 * e.se,
        );
        let los_next = order.get(rank + 1).map(|&j| r.los(i, j));
        let (mut games, mut pts) = (0u64, 0.0);
        for rec in &res.records {
            if rec.seats.contains(&i) {
                games += 1;
                pts += points_of(rec, i);
            }
        }
        let _ = writeln!(
            out,
            "{:>4}  {:>7.1}  [{:>7.1}, {:>7.1}]  {:>8}  {:>5}  A{i} {}",
            rank + 1,
            e.elo,
            lo,
            hi,
            los_next.map_or("-".to_string(), |l| format!("{:.1}%", 100.0 * l)),
            games,
            names[i]
        );
        w.write_record([
            res.config.game.clone(),
            (rank + 1).to_string(),
            i.to_string(),
            names[i].clone(),
            format!("{:.2}", e.elo),
            format!("{:.2}", e.se),
            format!("{lo:.2}"),
            format!("{hi:.2}"),
            los_next.map_or(String::new(), |l| format!("{l:.4}")),
            games.to_string(),
            format!("{:.4}", pts / games.max(1) as f64),
            names[anchor].clone(),
            res.config.seed.to_string(),
            run.out.display().to_string(),
        ])?;
    }
    w.flush()?;
    Ok(out)
}

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
    let bar = if show {
        ProgressBar::new_spinner()
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("valid template"),
    );
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

/// Expands an agent spec with one list-valued parameter,
/// `mcts(c=[0.5,1.0])`, into `(parameter, value, spec)` per value.
///
/// # Errors
/// No list, more than one list, an empty list or a malformed spec.
pub fn expand_list(spec: &str) -> Result<Vec<(String, String, String)>> {
    let s = Spec::parse(spec).map_err(|e| anyhow!("--agent: {e}"))?;
    let lists: Vec<usize> = s
        .args
        .iter()
        .enumerate()
        .filter(|(_, (_, v))| v.starts_with('[') && v.ends_with(']'))
        .map(|(i, _)| i)
        .collect();
    if lists.len() != 1 {
        bail!("--agent {spec:?}: give exactly one parameter as a list, e.g. mcts(c=[0.5,1.0,1.4])");
    }
    let i = lists[0];
    let (key, list) = s.args[i].clone();
    let values: Vec<String> = list[1..list.len() - 1]
        .split(',')
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect();
    if values.is_empty() {
        bail!("--agent {spec:?}: the list for {key} is empty");
    }
    values
        .into_iter()
        .map(|v| {
            let args: Vec<String> = s
                .args
                .iter()
                .enumerate()
                .map(|(j, (k, x))| {
                    if j == i {
                        format!("{k}={v}")
                    } else {
                        format!("{k}={x}")
                    }
                })
                .collect();
            let text = format!("{}({})", s.name, args.join(","));
            let canon = agents::AgentSpec::parse(&text)
                .map_err(|e| anyhow!("--agent {text:?}: {e}"))?
                .canonical();
            Ok((key.clone(), v, canon))
        })
        .collect()
}

/// One row of a tune.
#[derive(Clone, Debug)]
pub struct TuneRow {
    /// The tuned parameter.
    pub param: String,
    /// Its value.
    pub value: String,
    /// The agent's canonical spec.
    pub spec: String,
    /// Wins, draws, losses against the baseline.
    pub wdl: (u64, u64, u64),
    /// Score with its Wilson interval.
    pub score: Proportion,
    /// Elo over the baseline with its 95 % interval (pair variance).
    pub elo: (f64, f64, f64),
    /// Likelihood of superiority over the baseline.
    pub los: f64,
}

/// A request for `boardlab tune`.
#[derive(Clone, Debug)]
pub struct TuneArgs {
    /// The gauntlet (`agents` is filled from `agent` and `baseline`).
    pub run: TournamentArgs,
    /// The spec with one list-valued parameter.
    pub agent: String,
    /// The baseline spec.
    pub baseline: String,
    /// Where the per-value rows go.
    pub tune_out: PathBuf,
    /// Where the SVG plot goes.
    pub plot: PathBuf,
}

/// Plays every value against the baseline in pairs; writes the CSV and the
/// plot and returns the report.
///
/// # Errors
/// Bad specs, game or outputs; a configuration clash.
pub fn tune(args: &TuneArgs) -> Result<String> {
    let values = expand_list(&args.agent)?;
    two_seats(&args.run.game, "tune")?;
    agents::AgentSpec::parse(&args.baseline).map_err(|e| anyhow!("--baseline: {e}"))?;
    let mut run = args.run.clone();
    run.agents = std::iter::once(args.baseline.clone())
        .chain(values.iter().map(|v| v.2.clone()))
        .collect();
    run.paired = true;
    run.schedule = Schedule::Gauntlet;
    run.also_writes
        .extend([args.tune_out.clone(), args.plot.clone()]);
    let res = run::run(&run)?;
    if let Some((k, n)) = run.shard {
        return Ok(format!(
            "shard {k}/{n}: {} games in {}; merge all shards with `boardlab merge`, then run this tune again with --out MERGED.csv to write the table and plot",
            res.records.len(),
            run.out.display()
        ));
    }
    let mut rows = Vec::new();
    for (i, (param, value, spec)) in values.iter().enumerate() {
        let a = i + 1;
        let (w, d, l) = wdl(&res.records, a, 0);
        let p = pentanomial(&res.records, a, 0);
        rows.push(TuneRow {
            param: param.clone(),
            value: value.clone(),
            spec: spec.clone(),
            wdl: (w, d, l),
            score: wilson(w as f64 + 0.5 * d as f64, w + d + l),
            elo: p.elo_interval(),
            los: p.los(),
        });
    }
    let mut wtr = csv::Writer::from_path(&args.tune_out)
        .with_context(|| format!("cannot write {}", args.tune_out.display()))?;
    wtr.write_record([
        "game",
        "param",
        "value",
        "spec",
        "baseline",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "score_lower",
        "score_upper",
        "elo",
        "elo_lower",
        "elo_upper",
        "los",
        "seed",
        "games_csv",
    ])?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "tune {} against {} on {}",
        args.agent, res.config.agents[0], res.config.game
    );
    for r in &rows {
        let (w, d, l) = r.wdl;
        wtr.write_record([
            res.config.game.clone(),
            r.param.clone(),
            r.value.clone(),
            r.spec.clone(),
            res.config.agents[0].clone(),
            (w + d + l).to_string(),
            w.to_string(),
            d.to_string(),
            l.to_string(),
            format!("{:.4}", r.score.rate),
            format!("{:.4}", r.score.lower),
            format!("{:.4}", r.score.upper),
            format!("{:.2}", r.elo.0),
            format!("{:.2}", r.elo.1),
            format!("{:.2}", r.elo.2),
            format!("{:.4}", r.los),
            res.config.seed.to_string(),
            run.out.display().to_string(),
        ])?;
        let _ = writeln!(
            out,
            "{}={:<6} score {}  Elo {:+.1} [{:+.1}, {:+.1}]  LOS {:.1}%",
            r.param,
            r.value,
            r.score,
            r.elo.0,
            r.elo.1,
            r.elo.2,
            100.0 * r.los
        );
    }
    wtr.flush()?;
    crate::output::plot::tune_plot(&args.plot, &res.config, &rows)?;
    let _ = write!(
        out,
        "wrote {} and {}",
        args.tune_out.display(),
        args.plot.display()
    );
    Ok(out)
}

/// Strength runs play two-seat games in pairs.
fn two_seats(game: &str, what: &str) -> Result<()> {
    let n = run::num_seats(game)?;
    if n != 2 {
        bail!("{what} plays two-seat games in pairs; {game} has {n} seats (use tournament for it)");
    }
    Ok(())
}

/// The default games CSV for a derived output: `results/ratings.csv` →
/// `results/ratings-games.csv`.
pub fn games_csv_for(out: &Path) -> PathBuf {
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    out.with_file_name(format!("{stem}-games.csv"))
}
