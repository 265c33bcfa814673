//! SVG plots with the plotters crate.

use std::path::Path;

use anyhow::{Result, anyhow};
use plotters::prelude::*;

use crate::strength::TuneRow;
use crate::tournament::TournamentConfig;

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
