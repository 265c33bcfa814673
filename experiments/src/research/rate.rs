//! `rate`: Elo ratings of several agents from a paired round robin, or a
//! paired gauntlet of the first agent against the others (a Bradley–Terry
//! fit, relative to an anchor or on a fixed outside scale), written to a
//! ratings CSV.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};

use crate::research::strength::{cutechess_lines, points_of, two_seats};
use crate::run::{self, GameRecord, Schedule, TournamentArgs, TournamentConfig};
use crate::stats::elo::{LinkedRating, Ratings, anchored_ratings, bradley_terry, linked_ratings};

/// A request for `boardlab rate`.
#[derive(Clone, Debug)]
pub struct RateArgs {
    /// The paired round robin (its `out` is the games CSV).
    pub run: TournamentArgs,
    /// The anchor agent's spec or index; default the first agent.
    pub anchor: Option<String>,
    /// Agents (spec or index) held at a stated Elo, e.g. Stockfish's
    /// `UCI_Elo` levels; the others are fitted on that scale. Replaces the
    /// anchor.
    pub fixed: Vec<(String, f64)>,
    /// Play only the first agent's pairings (a gauntlet), not every pair.
    pub gauntlet: bool,
    /// Where the ratings go.
    pub ratings_out: PathBuf,
}

/// Parses a `--fixed` value `AGENT=ELO` (the agent a spec or an index; the
/// Elo after the last `=`).
///
/// # Errors
/// No `=`, or an Elo that is not a finite number.
pub fn parse_fixed(text: &str) -> Result<(String, f64)> {
    let (agent, elo) = text
        .rsplit_once('=')
        .ok_or_else(|| anyhow!("--fixed {text:?}: expected AGENT=ELO, e.g. 1=1350"))?;
    let elo: f64 = elo
        .trim()
        .parse()
        .ok()
        .filter(|e: &f64| e.is_finite())
        .ok_or_else(|| anyhow!("--fixed {text:?}: the Elo after '=' must be a number"))?;
    Ok((agent.trim().to_string(), elo))
}

/// What each agent scored against each other and the games between them.
fn score_matrix(k: usize, records: &[GameRecord]) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
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
    (score, games)
}

/// Fits ratings to the games of a paired round robin.
///
/// # Errors
/// Too few games to connect the agents.
pub fn fit(config: &TournamentConfig, records: &[GameRecord], anchor: usize) -> Result<Ratings> {
    let (score, games) = score_matrix(config.agents.len(), records);
    bradley_terry(&score, &games, anchor).map_err(|e| anyhow!("cannot fit ratings: {e}"))
}

/// Fits ratings on a fixed scale: `fixed[i]` the stated Elo of agent `i`,
/// if it has one ([`anchored_ratings`]).
///
/// # Errors
/// No fixed agent, or an agent not connected to a fixed one by games.
pub fn fit_fixed(
    config: &TournamentConfig,
    records: &[GameRecord],
    fixed: &[Option<f64>],
) -> Result<Ratings> {
    let (score, games) = score_matrix(config.agents.len(), records);
    anchored_ratings(&score, &games, fixed).map_err(|e| anyhow!("cannot fit ratings: {e}"))
}

/// Ratings that keep sweeps out of the fit ([`linked_ratings`]): points
/// where the games link a player to the anchor, bounds where only sweeps do.
///
/// # Errors
/// An agent with no games.
pub fn linked(
    config: &TournamentConfig,
    records: &[GameRecord],
    anchor: usize,
) -> Result<Vec<LinkedRating>> {
    let k = config.agents.len();
    let mut wins = vec![vec![0u64; k]; k];
    let mut draws = vec![vec![0u64; k]; k];
    for r in records {
        if r.seats.len() != 2 {
            continue;
        }
        let (a, b) = (r.seats[0], r.seats[1]);
        match points_of(r, a) {
            p if p > 0.75 => wins[a][b] += 1,
            p if p < 0.25 => wins[b][a] += 1,
            _ => {
                draws[a][b] += 1;
                draws[b][a] += 1;
            }
        }
    }
    linked_ratings(&wins, &draws, anchor).map_err(|e| anyhow!("cannot rate: {e}"))
}

fn anchor_index(game: &str, agent_specs: &[String], anchor: Option<&str>) -> Result<usize> {
    let Some(a) = anchor else { return Ok(0) };
    let canonical: Vec<String> = agent_specs
        .iter()
        .map(|s| {
            agents::AgentSpec::parse_in(s, game)
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
    let canon = agents::AgentSpec::parse_in(a, game)
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
    if args.anchor.is_some() && !args.fixed.is_empty() {
        bail!("give --anchor or --fixed, not both: fixed Elos replace the anchor");
    }
    let anchor = anchor_index(&args.run.game, &args.run.agents, args.anchor.as_deref())?;
    let mut fixed: Vec<Option<f64>> = vec![None; args.run.agents.len()];
    for (agent, elo) in &args.fixed {
        let i = anchor_index(&args.run.game, &args.run.agents, Some(agent))?;
        if fixed[i].replace(*elo).is_some() {
            bail!("--fixed: agent {i} is given twice");
        }
    }
    let mut run = args.run.clone();
    run.paired = true;
    run.schedule = if args.gauntlet {
        Schedule::Gauntlet
    } else {
        Schedule::RoundRobin
    };
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
    let on_scale = fixed.iter().any(Option::is_some);
    let r = if on_scale {
        fit_fixed(&res.config, &res.records, &fixed)?
    } else {
        fit(&res.config, &res.records, anchor)?
    };
    let k = names.len();
    let mut out = String::new();
    for a in 0..k {
        for b in a + 1..k {
            if args.gauntlet && a != 0 {
                continue;
            }
            let _ = writeln!(out, "{}", cutechess_lines(&res.records, &names, a, b));
        }
    }
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| r.ratings[b].elo.total_cmp(&r.ratings[a].elo));
    let scale = if on_scale {
        let held: Vec<String> = (0..k)
            .filter_map(|i| fixed[i].map(|e| format!("A{i} = {e}")))
            .collect();
        format!("fixed {}", held.join(", "))
    } else {
        format!("anchor {} = 0", names[anchor])
    };
    let _ = writeln!(
        out,
        "\nRank  Elo      95% interval       LOS-next  Games  Agent   (Bradley-Terry, {scale}, {})",
        res.config.game
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
        // Two agents held at stated Elos: no likelihood to report.
        let los_next = order
            .get(rank + 1)
            .filter(|&&j| fixed[i].is_none() || fixed[j].is_none())
            .map(|&j| r.los(i, j));
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
            if on_scale {
                scale.clone()
            } else {
                names[anchor].clone()
            },
            res.config.seed.to_string(),
            run.out.display().to_string(),
        ])?;
    }
    w.flush()?;
    Ok(out)
}
