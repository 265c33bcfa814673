//! Bagel text: the board diagram, tile names and the position text (read and written).

use std::fmt;

use super::movegen::Geometry;
use super::state::Stage;
use super::{BagelGame, BagelState, Side, TILE_LETTERS};
use crate::board::Bits;
use crate::board::hex::Hex;
use crate::board::text::{MAX_PLY, parse_ply};
use crate::error::GameError;

impl fmt::Display for BagelState {
    /// The board as in B-G3 (top row first): each cell is its tile letter
    /// and `.`, `w` or `b`; the hole is `--`. Row numbers stand at the left;
    /// each column's letter stands below-right of its lowest cell (columns
    /// run up-left), so a cell reads as in the move notation, e.g. `a1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let geo = self.geo();
        let rr = geo.grid.radius();
        // Column c's letter goes where its cell in the row below its lowest
        // would be: row 0 for c <= rr, row c - rr beyond; cell (c, n) is at
        // x = 4c + 2(rr + 1 - n) after the row number.
        let label = |n: i32, line: &mut String| {
            for c in 0..=2 * rr {
                if (c <= rr && n == 0) || (c > rr && n == c - rr) {
                    let x = (4 * c + 2 * (rr + 1 - n)) as usize;
                    while line.len() < x {
                        line.push(' ');
                    }
                    line.push((b'a' + c as u8) as char);
                }
            }
        };
        // Row n = const s; print rows from the top (largest n).
        for n in (1..=2 * rr + 1).rev() {
            let mut line = String::new();
            line += &" ".repeat(((n - 1 - rr).abs() * 2) as usize);
            for c in 0..=2 * rr {
                let h = Hex::new(c - rr, n - 1 - c);
                let Some(x) = geo.grid.index(h) else {
                    continue;
                };
                if x == geo.hole {
                    line += "--  ";
                    continue;
                }
                let t = TILE_LETTERS[self.layout.colour[x] as usize] as char;
                let d = if self.discs[0] >> x & 1 == 1 {
                    'w'
                } else if self.discs[1] >> x & 1 == 1 {
                    'b'
                } else {
                    '.'
                };
                line.push(t);
                line.push(d);
                line += "  ";
            }
            let mut line = line.trim_end().to_string();
            label(n, &mut line);
            writeln!(f, "{:>2} {}", n, line)?;
        }
        let mut line = String::new();
        label(0, &mut line);
        writeln!(f, "   {line}")?;
        write!(
            f,
            "{} to move; score W {} B {}; reserve W {} B {}",
            self.to_move.name(),
            self.score[0],
            self.score[1],
            self.reserve[0],
            self.reserve[1]
        )
    }
}

pub(crate) fn parse_position(game: &BagelGame, text: &str) -> Result<BagelState, GameError> {
    let f: Vec<&str> = text.split_whitespace().collect();
    let form = "expected <layout> <discs> <w|b> <open|pie|play> <white reserve> <black reserve> <white seat 0|1> <ply>";
    if f.len() != 8 {
        crate::bail!("bad position {text:?}: {} fields, {form}", f.len());
    }
    let bad = |what: String| GameError::new(format!("bad position {text:?}: {what}"));
    let mut s = game
        .initial_state_on(f[0])
        .map_err(|e| bad(e.to_string()))?;
    if let Some(l) = &game.layout
        && !f[0].eq_ignore_ascii_case(l)
    {
        return Err(bad(format!(
            "layout {} differs from the game's layout={l}",
            f[0]
        )));
    }
    let geo = s.geo();
    if f[1].len() != geo.ntiles {
        return Err(bad(format!(
            "discs field has {} characters, expected {} (one per tile: . w b)",
            f[1].len(),
            geo.ntiles
        )));
    }
    for (x, ch) in geo.tile_cells().zip(f[1].bytes()) {
        match ch {
            b'.' => {}
            b'w' | b'W' => s.discs[0] |= 1 << x,
            b'b' | b'B' => s.discs[1] |= 1 << x,
            _ => {
                return Err(bad(format!(
                    "disc {:?} at {} (expected . w b)",
                    ch as char,
                    geo.name(x)
                )));
            }
        }
    }
    s.to_move = match f[2] {
        "w" | "W" => Side::White,
        "b" | "B" => Side::Black,
        o => return Err(bad(format!("colour to move {o:?} (expected w or b)"))),
    };
    s.stage = match f[3] {
        "open" => Stage::Open,
        "pie" => Stage::Pie,
        "play" => Stage::Play,
        o => return Err(bad(format!("stage {o:?} (expected open, pie or play)"))),
    };
    let r = game.rules.reserve;
    for (i, c) in [Side::White, Side::Black].into_iter().enumerate() {
        let v: u32 = f[4 + i].parse().map_err(|_| {
            bad(format!(
                "{} reserve {:?} (expected 0..={r})",
                c.name(),
                f[4 + i]
            ))
        })?;
        let on = s.discs[i].count();
        // Checked: a huge reserve must not overflow the sum.
        if v.checked_add(on) != Some(r) {
            return Err(bad(format!(
                "{} has {on} discs on the board and {v} in reserve; expected {r} in all",
                c.name()
            )));
        }
        s.reserve[i] = v as u8;
    }
    s.white_seat = match f[6] {
        "0" => 0,
        "1" => 1,
        o => return Err(bad(format!("white seat {o:?} (expected 0 or 1)"))),
    };
    s.ply = parse_ply(f[7]).ok_or_else(|| {
        bad(format!(
            "ply {:?} (expected a number up to {MAX_PLY})",
            f[7]
        ))
    })?;
    let (nw, nb) = (s.discs[0].count(), s.discs[1].count());
    match s.stage {
        Stage::Open if nw + nb != 0 || s.to_move != Side::White || s.white_seat != 0 => {
            return Err(bad(
                "stage open needs an empty board, White to move, white seat 0 (B-1)".into(),
            ));
        }
        Stage::Pie if nw != 1 || nb != 0 || s.to_move != Side::Black || s.white_seat != 0 => {
            return Err(bad(
                "stage pie needs exactly one White disc, no Black disc, Black to move, white seat 0 (B-2)".into(),
            ));
        }
        Stage::Play if nw == 0 => {
            return Err(bad(
                "stage play needs White's opening disc on the board".into()
            ));
        }
        _ => {}
    }
    s.recompute();
    Ok(s)
}

/// The B-G6 index of every tile, for tests: cell names in layout order.
pub fn tile_names(base: u32) -> Vec<String> {
    let geo = Geometry::get(if base == 5 { 5 } else { 4 });
    geo.tile_cells().map(|x| geo.name(x)).collect()
}
