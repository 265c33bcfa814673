//! SVG plots with the plotters crate.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Result, anyhow};
use engine::BoardShape;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::{
    BLACK, BLUE, Cartesian2d, ChartBuilder, ChartContext, Circle, Color, DrawingArea,
    DrawingBackend, IntoDrawingArea, IntoFont, LineSeries, PathElement, Polygon, RGBColor,
    Rectangle, SVGBackend, Text, TextStyle, WHITE,
};

/// The colour of a first-mover rate `q`: blue below 1/2 (the second mover
/// is favoured), white at 1/2, red above.
pub fn q_colour(q: f64) -> RGBColor {
    let t = ((q - 0.5) * 2.0).clamp(-1.0, 1.0);
    let fade = |x: f64| (255.0 * (1.0 - x.abs())) as u8;
    if t >= 0.0 {
        RGBColor(255, fade(t), fade(t))
    } else {
        RGBColor(fade(t), fade(t), 255)
    }
}

/// The corners of cell `(x, y)` of `shape` in plot coordinates (y up).
fn cell_polygon(shape: BoardShape, (x, y): (i32, i32)) -> Vec<(f64, f64)> {
    match shape {
        BoardShape::Square { .. } => {
            let (x, y) = (f64::from(x), f64::from(y));
            vec![(x, y), (x + 1.0, y), (x + 1.0, y + 1.0), (x, y + 1.0)]
        }
        BoardShape::Hex { .. } => {
            // Pointy-top hexagons of circumradius 1: axial (q, r) at
            // (√3 (q + r/2), −1.5 r), r growing downwards.
            let (cx, cy) = hex_centre(x, y);
            (0..6)
                .map(|k| {
                    let a = std::f64::consts::PI / 180.0 * (60.0 * f64::from(k) + 30.0);
                    (cx + 0.96 * a.cos(), cy + 0.96 * a.sin())
                })
                .collect()
        }
    }
}

fn hex_centre(q: i32, r: i32) -> (f64, f64) {
    (
        3f64.sqrt() * (f64::from(q) + f64::from(r) / 2.0),
        -1.5 * f64::from(r),
    )
}

/// Every cell of a board shape.
pub fn shape_cells(shape: BoardShape) -> Vec<(i32, i32)> {
    match shape {
        BoardShape::Square { width, height } => (0..height as i32)
            .flat_map(|y| (0..width as i32).map(move |x| (x, y)))
            .collect(),
        BoardShape::Hex { side } => {
            let r = side as i32 - 1;
            (-r..=r)
                .flat_map(|q| (-r..=r).map(move |s| (q, s)))
                .filter(|&(q, s)| (q + s).abs() <= r)
                .collect()
        }
    }
}

fn shape_bounds(shape: BoardShape) -> ((f64, f64), (f64, f64)) {
    match shape {
        BoardShape::Square { width, height } => (
            (-0.2, f64::from(width) + 0.2),
            (-0.2, f64::from(height) + 0.2),
        ),
        BoardShape::Hex { side } => {
            let r = f64::from(side);
            let w = 3f64.sqrt() * r;
            ((-w, w), (-1.5 * r, 1.5 * r))
        }
    }
}

/// One board of a heat map: its caption and a value per cell.
pub type Panel = (String, BTreeMap<(i32, i32), f64>);

/// Swap-map heat maps: one board per panel, each cell coloured by its `q`
/// (cells without a value grey) and labelled with it in percent.
///
/// # Errors
/// An output that cannot be written.
pub fn heatmap(path: &Path, title: &str, shape: BoardShape, panels: &[Panel]) -> Result<()> {
    let err = |e: String| anyhow!("cannot draw {}: {e}", path.display());
    let w = (420 * panels.len().max(1) as u32).max(640);
    let root = SVGBackend::new(path, (w, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let root = root
        .titled(title, ("sans-serif", 15))
        .map_err(|e| err(e.to_string()))?;
    let (legend, boards) = root.split_vertically(420);
    let areas = boards_split(&legend, panels.len());
    let ((x0, x1), (y0, y1)) = shape_bounds(shape);
    for (area, (name, values)) in areas.iter().zip(panels) {
        let mut chart = ChartBuilder::on(area)
            .caption(name, ("sans-serif", 13))
            .margin(8)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(|e| err(e.to_string()))?;
        for cell in shape_cells(shape) {
            let colour = values
                .get(&cell)
                .map_or(RGBColor(200, 200, 200), |&q| q_colour(q));
            let poly = cell_polygon(shape, cell);
            chart
                .draw_series(std::iter::once(Polygon::new(poly.clone(), colour.filled())))
                .map_err(|e| err(e.to_string()))?;
            let mut outline = poly.clone();
            outline.push(poly[0]);
            chart
                .draw_series(std::iter::once(PathElement::new(outline, BLACK.mix(0.3))))
                .map_err(|e| err(e.to_string()))?;
            if let Some(&q) = values.get(&cell) {
                let (cx, cy) = match shape {
                    BoardShape::Square { .. } => (f64::from(cell.0) + 0.5, f64::from(cell.1) + 0.5),
                    BoardShape::Hex { .. } => hex_centre(cell.0, cell.1),
                };
                let style = TextStyle::from(("sans-serif", 10).into_font()).pos(
                    plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Center,
                        plotters::style::text_anchor::VPos::Center,
                    ),
                );
                chart
                    .draw_series(std::iter::once(Text::new(
                        format!("{:.0}", 100.0 * q),
                        (cx, cy),
                        style,
                    )))
                    .map_err(|e| err(e.to_string()))?;
            }
        }
    }
    boards
        .draw(&Text::new(
            "cell: first mover's win rate q in % (draws half); red: first mover favoured, blue: second, white: 50%",
            (10, 8),
            ("sans-serif", 12),
        ))
        .map_err(|e| err(e.to_string()))?;
    // The colour scale: q from 0 to 100 % in 5 % steps, labelled every 25 %.
    for k in 0..=20 {
        let q = f64::from(k) / 20.0;
        let x = 10 + 14 * k;
        boards
            .draw(&Rectangle::new(
                [(x, 26), (x + 14, 40)],
                q_colour(q).filled(),
            ))
            .map_err(|e| err(e.to_string()))?;
        if k % 5 == 0 {
            boards
                .draw(&Text::new(
                    format!("{}%", 5 * k),
                    (x - 4, 44),
                    ("sans-serif", 10),
                ))
                .map_err(|e| err(e.to_string()))?;
        }
    }
    root.present().map_err(|e| err(e.to_string()))?;
    Ok(())
}

fn boards_split<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    n: usize,
) -> Vec<DrawingArea<DB, plotters::coord::Shift>> {
    area.split_evenly((1, n.max(1)))
}

/// One bar of [`wdl_bars`]: the first mover's games of one game and agent.
#[derive(Clone, Debug)]
pub struct WdlBar {
    /// The label beside the bar, in words.
    pub label: String,
    /// The bar's tooltip: the full game string and agent spec.
    pub tooltip: String,
    /// The first mover's win rate.
    pub win: f64,
    /// The draw rate.
    pub draw: f64,
    /// The win rate's 95 % interval.
    pub lower: f64,
    /// Its upper end.
    pub upper: f64,
    /// The fair share, 1/seats: where the win rate of a fair game without
    /// draws lies.
    pub fair: f64,
}

/// Pixels a character of a 12-pixel sans-serif label takes at most, on
/// average over a label (a generous estimate, so labels are never clipped).
const LABEL_CHAR_PX: u32 = 7;

/// One bar per label, the first mover's games split into wins, draws and
/// losses (stacked, in that order from the left), a whisker for the 95 %
/// interval of the win rate, and a tick at each bar's fair share (1/seats:
/// ½ for two seats, ⅓ for three). The label area is as wide as the longest
/// label; each label carries its bar's tooltip (the full specs).
///
/// # Errors
/// An output that cannot be written.
pub fn wdl_bars(path: &Path, title: &str, bars: &[WdlBar]) -> Result<()> {
    let err = |e: String| anyhow!("cannot draw {}: {e}", path.display());
    let h = 110 + 26 * bars.len().max(1) as u32;
    let longest = bars
        .iter()
        .map(|b| b.label.chars().count())
        .max()
        .unwrap_or(0) as u32;
    let label_px = 30 + LABEL_CHAR_PX * longest;
    let w = 560 + label_px;
    {
        let root = SVGBackend::new(path, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
        let (root, key) = root.split_vertically(h - 30);
        let n = bars.len();
        let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 15))
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(label_px)
            .build_cartesian_2d(0.0f64..1.0, -0.5f64..(n as f64 - 0.5))
            .map_err(|e| err(e.to_string()))?;
        chart
            .configure_mesh()
            .max_light_lines(0)
            .disable_y_mesh()
            .y_labels(n.max(1))
            .y_label_style(("sans-serif", 12))
            .y_label_formatter(&|y| {
                let i = y.round();
                if (y - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
                    labels[labels.len() - 1 - i as usize].clone()
                } else {
                    String::new()
                }
            })
            .x_desc("share of games: first mover wins | draws | losses (whisker: 95% Wilson interval of the win rate; tick: fair share 1/seats)")
            .draw()
            .map_err(|e| err(e.to_string()))?;
        let (win, draw, loss) = (WDL[0].1, WDL[1].1, WDL[2].1);
        for (i, b) in bars.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            let (w, d) = (b.win, b.draw);
            for (a, e, c) in [(0.0, w, win), (w, w + d, draw), (w + d, 1.0, loss)] {
                if e > a {
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [(a, y - 0.3), (e, y + 0.3)],
                            c.filled(),
                        )))
                        .map_err(|e| err(e.to_string()))?;
                }
            }
            chart
                .draw_series(LineSeries::new(
                    [(b.lower, y), (b.upper, y)],
                    BLACK.stroke_width(2),
                ))
                .map_err(|e| err(e.to_string()))?;
            chart
                .draw_series(LineSeries::new(
                    [(b.fair, y - 0.45), (b.fair, y + 0.45)],
                    BLACK.stroke_width(2),
                ))
                .map_err(|e| err(e.to_string()))?;
        }
        let mut x = label_px as i32 + 10;
        for (name, c) in WDL {
            key.draw(&Rectangle::new([(x, 8), (x + 16, 22)], c.filled()))
                .map_err(|e| err(e.to_string()))?;
            key.draw(&Text::new(name, (x + 22, 9), ("sans-serif", 12)))
                .map_err(|e| err(e.to_string()))?;
            x += 150;
        }
        root.present().map_err(|e| err(e.to_string()))?;
    }
    // Tooltips: each label's <text> gets a <title> with the full specs
    // (plotters writes a text element's content on a line of its own).
    let mut svg = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
    for b in bars {
        let shown = format!(">\n{}\n</text>", xml(&b.label));
        if let Some(at) = svg.find(&shown) {
            let with = format!(
                "><title>{}</title>\n{}\n</text>",
                xml(&b.tooltip),
                xml(&b.label)
            );
            svg.replace_range(at..at + shown.len(), &with);
        }
    }
    std::fs::write(path, svg).map_err(|e| err(e.to_string()))?;
    Ok(())
}

/// Text escaped for XML the way plotters' SVG backend escapes it.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// The legend of [`wdl_bars`]: the first mover's wins, draws, losses.
const WDL: [(&str, RGBColor); 3] = [
    ("first mover wins", RGBColor(214, 96, 77)),
    ("draws", RGBColor(190, 190, 190)),
    ("first mover loses", RGBColor(67, 147, 195)),
];

/// One point of a strength curve: `(Elo, Elo lower, Elo upper, win rate,
/// win lower, win upper, draw rate, label)`.
pub type CurvePoint = (f64, f64, f64, f64, f64, f64, f64, String);

/// The first mover's win rate (and draw rate) against agent strength in
/// Elo: a point per rung with whiskers both ways (95 % intervals), a line
/// through the win rates, the draw rates dashed, and a line at 1/2.
///
/// # Errors
/// An output that cannot be written.
pub fn strength_curve(path: &Path, title: &str, points: &[CurvePoint]) -> Result<()> {
    let err = |e: String| anyhow!("cannot draw {}: {e}", path.display());
    let root = SVGBackend::new(path, (720, 440)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let lo = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let hi = points.iter().map(|p| p.2).fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo))
    } else {
        (-100.0, 100.0)
    };
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(lo..hi, 0.0f64..1.0)
        .map_err(|e| err(e.to_string()))?;
    chart
        .configure_mesh()
        .max_light_lines(0)
        .x_desc("agent strength: Elo (first rung = 0), 95% interval")
        .y_desc("first mover's win rate (95% Wilson)")
        .draw()
        .map_err(|e| err(e.to_string()))?;
    chart
        .draw_series(LineSeries::new([(lo, 0.5), (hi, 0.5)], BLACK.mix(0.5)))
        .map_err(|e| err(e.to_string()))?;
    let win = WDL[0].1;
    chart
        .draw_series(LineSeries::new(points.iter().map(|p| (p.0, p.3)), win))
        .map_err(|e| err(e.to_string()))?
        .label("first mover wins")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], win));
    let draw = WDL[1].1;
    chart
        .draw_series(LineSeries::new(points.iter().map(|p| (p.0, p.6)), draw))
        .map_err(|e| err(e.to_string()))?
        .label("draws")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], draw));
    for p in points {
        chart
            .draw_series(LineSeries::new(
                [(p.0, p.4), (p.0, p.5)],
                BLACK.stroke_width(2),
            ))
            .map_err(|e| err(e.to_string()))?;
        chart
            .draw_series(LineSeries::new([(p.1, p.3), (p.2, p.3)], BLACK.mix(0.6)))
            .map_err(|e| err(e.to_string()))?;
        chart
            .draw_series(std::iter::once(Circle::new((p.0, p.3), 4, win.filled())))
            .map_err(|e| err(e.to_string()))?;
        chart
            .draw_series(std::iter::once(Text::new(
                p.7.clone(),
                (p.0, (p.3 + 0.04).min(0.97)),
                ("sans-serif", 10),
            )))
            .map_err(|e| err(e.to_string()))?;
    }
    legend_and_present(&mut chart, &root, path)
}

/// A histogram of game lengths in plies.
///
/// # Errors
/// An output that cannot be written.
pub fn length_histogram(path: &Path, title: &str, plies: &[u32]) -> Result<()> {
    let err = |e: String| anyhow!("cannot draw {}: {e}", path.display());
    let root = SVGBackend::new(path, (640, 360)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let max = plies.iter().copied().max().unwrap_or(1).max(1);
    let bins = 40u32;
    let width = max.div_ceil(bins).max(1);
    let mut counts = vec![0u32; (max / width + 1) as usize];
    for &p in plies {
        counts[(p / width) as usize] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(1);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 14))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(50)
        .build_cartesian_2d(
            0u32..(counts.len() as u32 * width),
            0u32..(top + top / 10 + 1),
        )
        .map_err(|e| err(e.to_string()))?;
    // At most one light line a division: with none, plotters 0.3.7's
    // key points on integer axes never end.
    chart
        .configure_mesh()
        .max_light_lines(1)
        .x_desc(format!("plies (bins of {width})"))
        .y_desc("games")
        .draw()
        .map_err(|e| err(e.to_string()))?;
    chart
        .draw_series(counts.iter().enumerate().map(|(i, &c)| {
            let x = i as u32 * width;
            Rectangle::new([(x, 0), (x + width, c)], BLUE.mix(0.6).filled())
        }))
        .map_err(|e| err(e.to_string()))?;
    root.present().map_err(|e| err(e.to_string()))?;
    Ok(())
}

/// Colours of the series of [`score_curves`], in order.
const SERIES: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

/// The first mover's score (win 1, draw ½) against agent strength, one
/// series per game: a point per budget with whiskers both ways (the score's
/// anytime-valid interval, the Elo's 95 % interval), a line through each
/// series, and a labelled horizontal line per `levels` entry (the fair
/// share, a solved game's true score). The score axis spans the whiskers
/// and the levels.
///
/// # Errors
/// An output that cannot be written.
pub fn score_curves(
    path: &Path,
    title: &str,
    series: &[(String, Vec<CurvePoint>)],
    levels: &[(f64, String)],
) -> Result<()> {
    let err = |e: String| anyhow!("cannot draw {}: {e}", path.display());
    let all = || series.iter().flat_map(|s| s.1.iter());
    let span = |lo: f64, hi: f64, pad: f64| {
        if lo.is_finite() && hi > lo {
            (lo - pad * (hi - lo), hi + pad * (hi - lo))
        } else {
            (lo - 100.0, lo + 100.0)
        }
    };
    let (x0, x1) = span(
        all().map(|p| p.1).fold(f64::INFINITY, f64::min),
        all().map(|p| p.2).fold(f64::NEG_INFINITY, f64::max),
        0.1,
    );
    let at = levels.iter().map(|l| l.0);
    let y0 = all()
        .map(|p| p.4)
        .chain(at.clone())
        .fold(f64::INFINITY, f64::min);
    let y1 = all()
        .map(|p| p.5)
        .chain(at)
        .fold(f64::NEG_INFINITY, f64::max);
    let (y0, y1) = ((y0 - 0.02).max(0.0), (y1 + 0.02).min(1.0));
    let root = SVGBackend::new(path, (720, 440)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| err(e.to_string()))?;
    chart
        .configure_mesh()
        .max_light_lines(0)
        .x_desc("agent strength: Elo on the game's scale (random = 0), 95% interval")
        .y_desc("first mover's score (anytime-valid interval)")
        .draw()
        .map_err(|e| err(e.to_string()))?;
    for (k, (y, name)) in levels.iter().enumerate() {
        // The first level in grey, the next ones in darker shades.
        let c = BLACK.mix(0.5 + 0.3 * k.min(1) as f64);
        chart
            .draw_series(LineSeries::new([(x0, *y), (x1, *y)], c))
            .map_err(|e| err(e.to_string()))?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c));
    }
    for (k, (name, points)) in series.iter().enumerate() {
        let c = SERIES[k % SERIES.len()];
        chart
            .draw_series(LineSeries::new(points.iter().map(|p| (p.0, p.3)), c))
            .map_err(|e| err(e.to_string()))?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c));
        for p in points {
            let whiskers = [[(p.0, p.4), (p.0, p.5)], [(p.1, p.3), (p.2, p.3)]];
            for w in whiskers {
                chart
                    .draw_series(LineSeries::new(w, c.stroke_width(2)))
                    .map_err(|e| err(e.to_string()))?;
            }
            chart
                .draw_series(std::iter::once(Circle::new((p.0, p.3), 4, c.filled())))
                .map_err(|e| err(e.to_string()))?;
        }
    }
    legend_and_present(&mut chart, &root, path)
}

/// The legend box of a line chart, then the file written.
fn legend_and_present<'a, 'b: 'a>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    root: &DrawingArea<SVGBackend<'b>, Shift>,
    path: &Path,
) -> Result<()> {
    let err = |e: String| anyhow!("cannot draw {}: {e}", path.display());
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK.mix(0.4))
        .draw()
        .map_err(|e| err(e.to_string()))?;
    root.present().map_err(|e| err(e.to_string()))?;
    Ok(())
}
