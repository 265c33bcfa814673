//! Line Up position and move text.
//!
//! * Move: a placement is the centre's name (`5E`, §2.1), a step is
//!   `from-to` (`5E-8H`). Only the 16 centres are squares of the game
//!   (U-SET-1).
//! * Position: the four grid rows top first (board rows 2, 5, 8, 11),
//!   separated by `/`, one character a cell: `S T C` the first player's
//!   square, triangle, cylinder, `s t c` the second player's, `.` empty;
//!   then the plies played (the global turn is that number + 1):
//!   `S.c./..../..../.... 3`. The repetition window is not part of the text
//!   (a parsed position starts with none).

use crate::board::text::{MAX_PLY, parse_ply};
use std::fmt;

use super::state::LineUpState;
use super::{CELLS, LineUpMove, Rules, STOCK, cell_square, keys, square_cell};
use crate::api::State;
use crate::board::sly;
use crate::error::GameError;

const LETTERS: [[char; 3]; 2] = [['S', 'T', 'C'], ['s', 't', 'c']];

/// The character of cell `c`, `.` if empty.
pub(super) fn cell_char(s: &LineUpState, c: usize) -> char {
    for (p, letters) in LETTERS.iter().enumerate() {
        for (t, &l) in letters.iter().enumerate() {
            if s.pieces(p)[t] >> c & 1 == 1 {
                return l;
            }
        }
    }
    '.'
}

pub(super) fn position_text(s: &LineUpState) -> String {
    let rows: Vec<String> = (0..4)
        .map(|i| (0..4).map(|j| cell_char(s, 4 * i + j)).collect())
        .collect();
    format!("{} {}", rows.join("/"), s.ply())
}

pub(super) fn move_text(mv: LineUpMove) -> String {
    let to = sly::square_name(cell_square(mv.to as usize));
    if mv.is_place() {
        to
    } else {
        format!("{}-{to}", sly::square_name(cell_square(mv.from as usize)))
    }
}

fn parse_cell(text: &str, whole: &str) -> Result<usize, GameError> {
    let sq = sly::parse_square(text.trim())
        .map_err(|e| GameError::new(format!("bad move {whole:?}: {e}")))?;
    square_cell(sq).ok_or_else(|| {
        GameError::new(format!(
            "bad move {whole:?}: {} is not a centre space; Line Up uses only the 16 centres 2B 2E 2H 2K 5B ... 11K (U-SET-1)",
            text.trim()
        ))
    })
}

pub(super) fn parse_move(text: &str) -> Result<LineUpMove, GameError> {
    let t = text.trim();
    match t.split_once('-') {
        None => Ok(LineUpMove::place(parse_cell(t, text)?)),
        Some((a, b)) => {
            let (from, to) = (parse_cell(a, text)?, parse_cell(b, text)?);
            if super::KING[from] >> to & 1 == 0 {
                crate::bail!("bad move {text:?}: a piece steps to a neighbouring centre (U-3)");
            }
            Ok(LineUpMove::step(from, to))
        }
    }
}

/// The pieces of each player and type on the board after `ply` plies under
/// the schedule U-1/U-2 (a placement whenever one of the type is left).
pub fn placed_after(ply: u32) -> [[u32; 3]; 2] {
    let mut placed = [[0u32; 3]; 2];
    for k in 0..ply.min(12) {
        let (p, t) = ((k & 1) as usize, (k % 3) as usize);
        if placed[p][t] < STOCK[t] {
            placed[p][t] += 1;
        }
    }
    placed
}

/// Parses [`position_text`], checking that the piece counts are those of
/// the schedule at that turn (U-1, U-2) and that the player to move has no
/// line (only the mover can complete one, U-4). The ending follows from the
/// position (U-4, U-5, U-6).
#[allow(clippy::needless_range_loop)] // counts by (player, type)
pub(super) fn parse_position(rules: Rules, text: &str) -> Result<LineUpState, GameError> {
    let bad = |what: String| GameError::new(format!("bad line_up position {text:?}: {what}"));
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 2 {
        return Err(bad(
            "expected 2 fields: <4 rows of 4 cells separated by /> <plies played>".into(),
        ));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 4 || rows.iter().any(|r| r.chars().count() != 4) {
        return Err(bad("expected 4 rows of 4 cells separated by /".into()));
    }
    let mut s = LineUpState::new(rules);
    for (i, row) in rows.iter().enumerate() {
        for (j, ch) in row.chars().enumerate() {
            if ch == '.' {
                continue;
            }
            let Some((p, t)) = LETTERS
                .iter()
                .enumerate()
                .find_map(|(p, l)| l.iter().position(|&x| x == ch).map(|t| (p, t)))
            else {
                return Err(bad(format!("unknown cell {ch:?} (expected . S T C s t c)")));
            };
            s.pieces[p][t] |= 1 << (4 * i + j);
        }
    }
    let ply: u32 = parse_ply(fields[1]).ok_or_else(|| {
        bad(format!(
            "plies {:?}, expected a whole number up to {MAX_PLY}",
            fields[1]
        ))
    })?;
    if ply > rules.ply_cap {
        return Err(bad(format!(
            "{ply} plies is past the ply cap {}",
            rules.ply_cap
        )));
    }
    let want = placed_after(ply);
    for p in 0..2 {
        for t in 0..3 {
            let have = s.pieces[p][t].count_ones();
            if have != want[p][t] {
                return Err(bad(format!(
                    "the {} player has {have} {}(s) on the board; after {ply} plies the schedule (U-1, U-2) gives {}",
                    if p == 0 { "first" } else { "second" },
                    super::TYPE_NAMES[t],
                    want[p][t]
                )));
            }
        }
    }
    s.ply = ply;
    if s.has_line(s.player()) {
        return Err(bad(
            "the player to move has four in a line, which only the last mover can make (U-4)"
                .into(),
        ));
    }
    let k = keys();
    s.hash = k.phase[(ply % 6) as usize];
    for p in 0..2 {
        for t in 0..3 {
            for c in 0..CELLS {
                if s.pieces[p][t] >> c & 1 == 1 {
                    s.hash ^= k.piece[p][t][c];
                }
            }
        }
    }
    s.settle();
    Ok(s)
}

impl fmt::Display for LineUpState {
    /// The grid with board names, then the status.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "      B  E  H  K")?;
        for i in 0..4 {
            write!(f, "{:>3}  ", 3 * i + 2)?;
            for j in 0..4 {
                write!(f, " {} ", cell_char(self, 4 * i + j))?;
            }
            writeln!(f)?;
        }
        let who = |p: usize| if p == 0 { "first" } else { "second" };
        match self.ending() {
            Some((e, Some(w))) => write!(f, "{} player won ({})", who(w as usize), e.name()),
            Some((e, None)) => write!(f, "draw ({})", e.name()),
            None => write!(
                f,
                "turn {}: the {} player (seat {}) must {} a {}",
                self.ply() + 1,
                who(self.player()),
                self.seat_of(self.player()),
                if self.must_place() { "place" } else { "move" },
                super::TYPE_NAMES[self.piece_type()]
            ),
        }
    }
}

/// Why `text` is not a legal move in `s`, from the rules (see
/// [`crate::api::Research::illegal_reason`]): a placement or a step out of
/// the turn schedule (U-1, U-2), a taken centre (U-2, U-3), a step of no
/// piece, of the opponent's piece or of the wrong type (U-1), a diagonal
/// step by a square or triangle (U-3). `None` where the move is legal.
pub(super) fn illegal_reason(s: &LineUpState, text: &str) -> Option<String> {
    let (mv, _) = match crate::api::move_to_explain(s, text) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let who = |p: usize| if p == 0 { "first" } else { "second" };
    let (p, t) = (s.player(), s.piece_type());
    let (turn, kind) = (s.ply() + 1, super::TYPE_NAMES[t]);
    let name = |c: u8| sly::square_name(cell_square(c as usize));
    let to = name(mv.to);
    let taken = s.empty() >> mv.to & 1 == 0;
    Some(match (s.must_place(), mv.is_place()) {
        (true, false) => format!(
            "turn {turn} is the {} player's {kind} turn, and it still has a {kind} to place on an empty centre (U-1, U-2)",
            who(p)
        ),
        (true, true) if taken => format!("the centre {to} is taken (U-2)"),
        (false, true) => format!(
            "turn {turn} is the {} player's {kind} turn, and with no {kind} left to place it steps one on the board (U-1, U-2)",
            who(p)
        ),
        (false, false) => {
            let from = name(mv.from);
            let owner = (0..2).find(|&q| s.all(q) >> mv.from & 1 == 1);
            let from_type = (0..3).find(|&k| s.pieces(p)[k] >> mv.from & 1 == 1);
            match (owner, from_type) {
                (None, _) => format!("no piece on {from}"),
                (Some(q), _) if q != p => format!(
                    "the piece on {from} is the {} player's, and the {} player is to move",
                    who(q),
                    who(p)
                ),
                (_, Some(k)) if k != t => format!(
                    "turn {turn} is the {} player's {kind} turn (U-1), and the piece on {from} is a {}",
                    who(p),
                    super::TYPE_NAMES[k]
                ),
                _ if taken => format!("{to} is taken, and a piece steps to an empty centre (U-3)"),
                _ if super::ORTH[mv.from as usize] >> mv.to & 1 == 0 => format!(
                    "a {kind} steps orthogonally only, and {from}-{to} is diagonal; only the cylinder steps diagonally (U-3)"
                ),
                _ => "not one of the legal moves".into(),
            }
        }
        _ => "not one of the legal moves".into(),
    })
}
