//! `tune`: one agent parameter, given as a list of values, played against
//! a baseline on game pairs; a per-value CSV and an SVG plot.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use plotters::prelude::{
    BLACK, BLUE, ChartBuilder, Circle, Color, IntoDrawingArea, LineSeries, SVGBackend, WHITE,
};

use engine::spec::Spec;

use crate::research::strength::{pentanomial, two_seats, wdl};
use crate::run::{self, Schedule, TournamentArgs, TournamentConfig};
use crate::stats::{Proportion, wilson};

/// Expands an agent spec with one list-valued parameter,
/// `mcts(c=[0.5,1.0])`, into `(parameter, value, spec)` per value, each
/// spec as the game `game` reads it (its own search defaults).
///
/// # Errors
/// No list, more than one list, an empty list or a malformed spec.
pub fn expand_list(spec: &str, game: &str) -> Result<Vec<(String, String, String)>> {
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
            let canon = agents::AgentSpec::parse_in(&text, game)
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
    let values = expand_list(&args.agent, &args.run.game)?;
    two_seats(&args.run.game, "tune")?;
    agents::AgentSpec::parse_in(&args.baseline, &args.run.game)
        .map_err(|e| anyhow!("--baseline: {e}"))?;
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
    tune_plot(&args.plot, &res.config, &rows)?;
    let _ = write!(
        out,
        "wrote {} and {}",
        args.tune_out.display(),
        args.plot.display()
    );
    Ok(out)
}

/// Elo over the baseline for each tuned value, with 95 % interval
/// whiskers; values in the order given (as categories).
///
/// # Errors
/// An output that cannot be written.
pub fn tune_plot(path: &Path, config: &TournamentConfig, rows: &[TuneRow]) -> Result<()> {
    let err = |e: String| anyhow!("cannot draw {}: {e}", path.display());
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let lo = rows
        .iter()
        .map(|r| r.elo.1)
        .fold(0.0f64, f64::min)
        .max(-800.0)
        - 20.0;
    let hi = rows
        .iter()
        .map(|r| r.elo.2)
        .fold(0.0f64, f64::max)
        .min(800.0)
        + 20.0;
    let n = rows.len();
    let param = rows.first().map_or("value", |r| r.param.as_str());
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "{} vs {} ({} games per value)",
                param, config.agents[0], config.games
            ),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), lo..hi)
        .map_err(|e| err(e.to_string()))?;
    let labels: Vec<String> = rows.iter().map(|r| r.value.clone()).collect();
    chart
        .configure_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
                labels[i as usize].clone()
            } else {
                String::new()
            }
        })
        .x_desc(format!("{param} ({})", config.game))
        .y_desc("Elo over the baseline (95% interval)")
        .draw()
        .map_err(|e| err(e.to_string()))?;
    chart
        .draw_series(LineSeries::new(
            [(-0.5, 0.0), (n as f64 - 0.5, 0.0)],
            BLACK.mix(0.4),
        ))
        .map_err(|e| err(e.to_string()))?;
    for (i, r) in rows.iter().enumerate() {
        let x = i as f64;
        let (e, l, h) = (
            r.elo.0.clamp(lo, hi),
            r.elo.1.clamp(lo, hi),
            r.elo.2.clamp(lo, hi),
        );
        chart
            .draw_series(LineSeries::new([(x, l), (x, h)], BLUE.stroke_width(2)))
            .map_err(|e| err(e.to_string()))?;
        chart
            .draw_series(std::iter::once(Circle::new((x, e), 5, BLUE.filled())))
            .map_err(|e| err(e.to_string()))?;
    }
    root.present().map_err(|e| err(e.to_string()))?;
    Ok(())
}
