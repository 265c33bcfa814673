//! Board pictures as SVG, drawn from a game's [`Research::board_picture`]:
//! one outline per cell (squares, hexagons, or points joined by lines),
//! its fill (light, dark, Bagel's tiles, King's Colour's castles and walls),
//! a circle on the Sly board's field centres, each cell's name in the
//! game's notation (the coordinates), and the pieces as labelled discs.
//!
//! The SVG is written as text: a handful of elements with no layout, so no
//! drawing crate is needed (plotters, already a dependency, draws charts
//! and has no hexagons or cell names).
//!
//! Every cell is an element of class `cell` and its kind (`cell light`,
//! `cell castle`, ...), every piece one of class `piece`, every line one of
//! class `link`, every field centre's circle one of class `centre`, so
//! tests and other tools can count them.

use std::fmt::Write as _;

use engine::{BoardPicture, CellKind, CellShape, Research, ToMove};

/// Pixels per cell unit.
const UNIT: f64 = 44.0;
/// Margin around the board, in pixels.
const MARGIN: f64 = 12.0;

/// Piece colours by colour index (then neutral grey).
const PIECE_FILL: [&str; 4] = ["#f5f5f0", "#262626", "#c8372d", "#2f5fb3"];
/// Bagel's tile colours, in its tile letter order `ROGBYP`.
const TILE_FILL: [&str; 6] = [
    "#e06666", "#f6a04d", "#7bc07b", "#6fa8dc", "#ffd966", "#a98fd1",
];

/// The SVG picture of `state`, or `None` where its game draws none.
pub fn svg_of<S: Research>(state: &S) -> Option<String> {
    state.board_picture().map(|p| svg_of_picture(&p))
}

/// What is written above a board ([`svg_of_position`]).
#[derive(Clone, Debug, Default)]
pub struct Caption {
    /// The SVG's `<title>`: the canonical game string.
    pub title: String,
    /// The first line(s): the game string with its defaults left out,
    /// wrapped after commas to the board's width.
    pub heading: String,
    /// The second line: who is to move (or how the game ended) and the
    /// last move.
    pub status: String,
    /// Cells to outline (indices into the picture's cells): the last
    /// move's.
    pub marked: Vec<usize>,
}

/// Who is to move in `state`, for people: `seat 0 (light) to move`,
/// `chance to move`, or at the end `seat 1 (dark) wins (annihilation)`,
/// `a draw`.
pub fn side_to_move<S: Research>(state: &S) -> String {
    let seat = |s: usize| {
        let role = state.seat_role(s);
        if role.is_empty() {
            format!("seat {s}")
        } else {
            format!("seat {s} ({role})")
        }
    };
    match state.to_move() {
        ToMove::Seat(s) => format!("{} to move", seat(s)),
        ToMove::Chance => "chance to move".into(),
        ToMove::Terminal => {
            let r = state.returns();
            let n = state.num_seats();
            let best = r[..n].iter().copied().fold(f64::MIN, f64::max);
            let winners: Vec<usize> = (0..n).filter(|&i| r[i] == best).collect();
            let how = state
                .end_reason()
                .map(|e| format!(" ({e})"))
                .unwrap_or_default();
            if n > 1 && winners.len() == n {
                format!("game over: a draw{how}")
            } else {
                let w: Vec<String> = winners.iter().map(|&i| seat(i)).collect();
                format!("game over: {} wins{how}", w.join(" and "))
            }
        }
    }
}

/// The SVG picture of `state` with its caption: `game` (the game string)
/// as title, the side to move and `last_move` written above the board,
/// the last move's cells outlined. `None` where the game draws none.
pub fn svg_of_position<S: Research>(
    state: &S,
    game: &str,
    last_move: Option<&str>,
) -> Option<String> {
    let p = state.board_picture()?;
    let status = format!(
        "{}; last move: {}",
        side_to_move(state),
        last_move.unwrap_or("none")
    );
    let marked = last_move.map(|m| p.cells_in(m)).unwrap_or_default();
    let caption = Caption {
        title: game.to_string(),
        heading: super::table::short(game),
        status,
        marked,
    };
    Some(svg_of_picture_captioned(&p, Some(&caption)))
}

fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The class of a cell's element: `cell` and its kind.
fn cell_class(kind: CellKind) -> &'static str {
    match kind {
        CellKind::Light => "cell light",
        CellKind::Dark => "cell dark",
        CellKind::Tile(_) => "cell tile",
        CellKind::Castle(_) => "cell castle",
        CellKind::Wall(_) => "cell wall",
        CellKind::Hole => "cell hole",
    }
}

fn cell_fill(kind: CellKind) -> &'static str {
    match kind {
        CellKind::Light => "#f0d9b5",
        CellKind::Dark => "#c9a27a",
        CellKind::Tile(t) => TILE_FILL[t as usize % TILE_FILL.len()],
        CellKind::Castle(0) => "#fbe3a1",
        CellKind::Castle(_) => "#9e8bb8",
        CellKind::Wall(0) => "#d9b86a",
        CellKind::Wall(_) => "#6e5a8e",
        CellKind::Hole => "#ffffff",
    }
}

/// The corners of a hexagon of centre distance 1 around `(x, y)`.
fn hexagon(x: f64, y: f64, flat: bool) -> String {
    // Circumradius of a hexagon whose centres are 1 apart.
    let r = 1.0 / 3f64.sqrt();
    (0..6)
        .map(|i| {
            let a = std::f64::consts::PI / 3.0 * f64::from(i)
                + if flat {
                    0.0
                } else {
                    std::f64::consts::PI / 6.0
                };
            format!(
                "{:.1},{:.1}",
                MARGIN + (x + r * a.cos()) * UNIT,
                MARGIN + (y + r * a.sin()) * UNIT
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` in lines of at most about `width` characters, broken after
/// `sep` (a part longer than `width` stays whole).
fn wrap_at(text: &str, sep: char, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for part in text.split_inclusive(sep) {
        let last = lines.last_mut().expect("one line");
        if !last.is_empty() && last.len() + part.len() > width.max(8) {
            lines.push(part.to_string());
        } else {
            last.push_str(part);
        }
    }
    lines
}

/// The SVG text of a board picture.
pub fn svg_of_picture(p: &BoardPicture) -> String {
    svg_of_picture_captioned(p, None)
}

/// Height of the caption band above the board, in pixels.
const CAPTION: f64 = 40.0;

/// The SVG text of a board picture, with a caption band above it (its
/// title also the SVG's `<title>`; elements of class `title` and
/// `status`) and the caption's marked cells outlined (class `marked`).
pub fn svg_of_picture_captioned(p: &BoardPicture, caption: Option<&Caption>) -> String {
    let (mut w, mut h) = (0.0f64, 0.0f64);
    for c in &p.cells {
        w = w.max(c.x + 0.6);
        h = h.max(c.y + 0.6);
    }
    let pw = w * UNIT + 2.0 * MARGIN;
    let heading = caption.map(|c| wrap_at(&c.heading, ',', ((pw - 2.0 * MARGIN) / 8.0) as usize));
    let status = caption.map(|c| wrap_at(&c.status, ';', ((pw - 2.0 * MARGIN) / 6.8) as usize));
    let top = match (&heading, &status) {
        (Some(h), Some(st)) => CAPTION + 17.0 * (h.len() + st.len()) as f64 - 34.0,
        _ => 0.0,
    };
    let ph = h * UNIT + 2.0 * MARGIN + top;
    let px = |v: f64| MARGIN + v * UNIT;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{pw:.0}" height="{ph:.0}" viewBox="0 {:.0} {pw:.0} {ph:.0}" font-family="sans-serif">"#,
        0.0 - top
    );
    let _ = writeln!(
        s,
        r##"<rect x="0" y="{:.0}" width="{pw:.0}" height="{ph:.0}" fill="#fafafa"/>"##,
        0.0 - top
    );
    if let (Some(c), Some(lines), Some(status)) = (caption, &heading, &status) {
        let _ = writeln!(s, "<title>{}</title>", esc(&c.title));
        for (i, l) in lines.iter().enumerate() {
            let _ = writeln!(
                s,
                r##"<text class="title" x="{MARGIN}" y="{:.0}" font-size="14" font-weight="bold" fill="#222">{}</text>"##,
                -top + 17.0 * (i as f64 + 1.0),
                esc(l)
            );
        }
        // One element for the status, a <tspan> per wrapped line.
        let _ = write!(s, r##"<text class="status" font-size="12" fill="#333">"##);
        for (i, l) in status.iter().enumerate() {
            let _ = write!(
                s,
                r#"<tspan x="{MARGIN}" y="{:.0}">{}</tspan>"#,
                -top + 17.0 * (lines.len() + i) as f64 + 16.0,
                esc(l.trim_start())
            );
        }
        let _ = writeln!(s, "</text>");
    }
    for &(a, b) in &p.links {
        let (Some(a), Some(b)) = (p.cells.get(a), p.cells.get(b)) else {
            continue;
        };
        let _ = writeln!(
            s,
            r##"<line class="link" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#6b4f2a" stroke-width="2"/>"##,
            px(a.x),
            px(a.y),
            px(b.x),
            px(b.y)
        );
    }
    for c in &p.cells {
        let fill = cell_fill(c.kind);
        let class = cell_class(c.kind);
        let name = esc(&c.name);
        match p.cell_shape {
            CellShape::Square => {
                let _ = writeln!(
                    s,
                    r##"<rect class="{class}" x="{:.1}" y="{:.1}" width="{UNIT}" height="{UNIT}" fill="{fill}" stroke="#7a6040" stroke-width="1"><title>{name}</title></rect>"##,
                    px(c.x - 0.5),
                    px(c.y - 0.5)
                );
            }
            CellShape::HexFlat | CellShape::HexPointy => {
                let _ = writeln!(
                    s,
                    r##"<polygon class="{class}" points="{}" fill="{fill}" stroke="#7a6040" stroke-width="1"><title>{name}</title></polygon>"##,
                    hexagon(c.x, c.y, p.cell_shape == CellShape::HexFlat)
                );
            }
            CellShape::Point => {
                let _ = writeln!(
                    s,
                    r##"<circle class="{class}" cx="{:.1}" cy="{:.1}" r="4" fill="#6b4f2a"><title>{name}</title></circle>"##,
                    px(c.x),
                    px(c.y)
                );
            }
        }
        if c.circled {
            let _ = writeln!(
                s,
                r##"<circle class="centre" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="#7a6040" stroke-width="1.5"/>"##,
                px(c.x),
                px(c.y),
                0.42 * UNIT
            );
        }
        // The cell's name, small, at its top left (the coordinates).
        let (nx, ny) = match p.cell_shape {
            CellShape::Square => (px(c.x - 0.46), px(c.y - 0.3)),
            _ => (px(c.x - 0.22), px(c.y - 0.26)),
        };
        let _ = writeln!(
            s,
            r##"<text class="name" x="{nx:.1}" y="{ny:.1}" font-size="9" fill="#4a3a28">{name}</text>"##
        );
    }
    for &k in caption.map(|c| c.marked.as_slice()).unwrap_or_default() {
        let Some(c) = p.cells.get(k) else { continue };
        let _ = writeln!(
            s,
            r##"<circle class="marked" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="#1f6fd1" stroke-width="4" opacity="0.8"/>"##,
            px(c.x),
            px(c.y),
            0.44 * UNIT
        );
    }
    for c in &p.cells {
        let Some(piece) = &c.piece else { continue };
        let (fill, ink) = match piece.colour {
            Some(i) => (
                PIECE_FILL[i % PIECE_FILL.len()],
                if i % PIECE_FILL.len() == 0 {
                    "#111"
                } else {
                    "#fff"
                },
            ),
            None => ("#9a9a9a", "#111"),
        };
        let _ = writeln!(
            s,
            r##"<circle class="piece" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{fill}" stroke="#111" stroke-width="1.5"/>"##,
            px(c.x),
            px(c.y + 0.06),
            0.3 * UNIT
        );
        if !piece.label.is_empty() {
            let _ = writeln!(
                s,
                r#"<text class="label" x="{:.1}" y="{:.1}" font-size="15" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"#,
                px(c.x),
                px(c.y + 0.2),
                esc(&piece.label)
            );
        }
    }
    s.push_str("</svg>\n");
    s
}
