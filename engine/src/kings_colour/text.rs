//! King's Colour text: the board diagram.

use std::fmt;

use super::{CELLS, CaptureRule, KingsColourMove, KingsColourState, Piece};

impl fmt::Display for KingsColourState {
    /// The board in boardspace's internal orientation (§2.3's map): each
    /// cell's label then its piece, `#` for an empty wall cell, `.` for
    /// another empty cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lines = vec![vec![b' '; 13 * 5 + 1]; 25];
        for c in 0..CELLS {
            let h = self.geo.grid.hex(c);
            let y = (2 * (6 - h.r) - h.q) as usize;
            let x = ((h.q + 6) * 5) as usize;
            let name = self.geo.name(c);
            let wall = (self.geo.wall[0] | self.geo.wall[1]) >> c & 1 == 1;
            let empty = if wall { '#' } else { '.' };
            let cell = format!("{name}{}", self.letter(c).unwrap_or(empty));
            for (i, b) in cell.bytes().enumerate() {
                if x + i < lines[y].len() {
                    lines[y][x + i] = b;
                }
            }
        }
        let text: Vec<String> = lines
            .iter()
            .map(|l| String::from_utf8_lossy(l).trim_end().to_string())
            .collect();
        write!(f, "{}", text.join("\n"))
    }
}

/// A side's name in reasons.
fn side_name(s: usize) -> &'static str {
    ["White", "Black"][s]
}

/// Why `text` is not a legal move in `s`, from the rules (see
/// [`crate::api::Research::illegal_reason`]): an empty or enemy cell, a
/// capture of one's own piece, the King's castle and steps (KC-3, KC-R3),
/// a man's type and movement (KC-4 to KC-6, KC-12), a blocked slide
/// (KC-7), the capture scope (KC-8, KC-R2), the Kings never captured and
/// a King left in check (KC-11). `None` where the move is legal.
pub(super) fn illegal_reason(s: &KingsColourState, text: &str) -> Option<String> {
    let (mv, _) = match crate::api::move_to_explain(s, text) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    move_reason(s, mv).or_else(|| crate::api::generic_illegal_reason(s, text))
}

/// Why `mv` breaks a rule of movement, capture or King safety (`None` if
/// none is found broken).
fn move_reason(s: &KingsColourState, mv: KingsColourMove) -> Option<String> {
    let g = s.geo;
    let (me, op) = (s.side as usize, 1 - s.side as usize);
    let (from, to) = (mv.from as usize, mv.to as usize);
    let (fname, tname) = (g.name(from), g.name(to));
    let (owner, piece) = match s.piece_at(from) {
        None => return Some(format!("no piece on {fname}")),
        Some(p) => p,
    };
    if owner.index() != me {
        return Some(format!(
            "the piece on {fname} is {}'s, and {} is to move",
            side_name(op),
            side_name(me)
        ));
    }
    if s.occ[me] >> to & 1 == 1 {
        return Some(format!(
            "{tname} holds a {} piece, and only an enemy piece is captured (KC-8)",
            side_name(me)
        ));
    }
    let occ = s.occ[0] | s.occ[1];
    let enemy = s.occ[op] >> to & 1 == 1;
    let (eo, ed) = s.attackers(op);
    if piece == Piece::King {
        if g.castle[me] >> to & 1 == 0 {
            return Some(format!(
                "the King never leaves its castle, and {tname} is outside it (KC-3)"
            ));
        }
        if g.king_steps[me][from] >> to & 1 == 0 {
            return Some(
                "the King steps one cell orthogonally or diagonally, or leaps a knight's move \
                 from a sharp corner of its castle to an opposite side (KC-3)"
                    .into(),
            );
        }
        if enemy && !s.rules.king_captures {
            return Some("the King does not capture (king_captures=false, KC-R3)".into());
        }
        if !s.king_move_legal(me, to, occ, eo, ed) {
            return Some(format!(
                "{tname} is attacked, and the King may not move into check (KC-11)"
            ));
        }
        return None;
    }
    // The line from `from` to `to` of the man's movement (KC-4 to KC-6).
    let lines: &[_] = match piece {
        Piece::Rook => &[&g.ortho],
        Piece::Bishop => &[&g.diag],
        _ => &[&g.ortho, &g.diag],
    };
    let Some((rays, k)) = lines
        .iter()
        .flat_map(|r| (0..6).map(move |k| (*r, k)))
        .find(|&(r, k)| r.ray(from, k) >> to & 1 == 1)
    else {
        return Some(match piece {
            Piece::Rook => format!(
                "the man on {fname} stands on its King's colour, so it is a Rook (KC-12), and a \
                 Rook slides orthogonally (KC-4)"
            ),
            Piece::Bishop => format!(
                "the man on {fname} stands off its King's colour, so it is a Bishop (KC-12), \
                 and a Bishop slides diagonally (KC-5)"
            ),
            _ => format!(
                "a Queen slides orthogonally or diagonally, and {tname} is on no line from {fname} (KC-6)"
            ),
        });
    };
    if let Some(b) = rays.first_blocker(from, k, occ)
        && b != to
        && rays.ray(b, k) >> to & 1 == 1
    {
        return Some(format!(
            "{fname}-{tname} is blocked by the piece on {} (KC-7)",
            g.name(b)
        ));
    }
    if enemy {
        if to == s.kings[op] as usize {
            return Some("Kings are never captured (KC-11)".into());
        }
        if !s.capture_ok(me, from, to) {
            return Some(match s.rules.capture {
                CaptureRule::Literal => format!(
                    "{fname} cannot take on {tname}: a man captures only from the enemy wall into \
                     the enemy castle, or from its own castle onto its own wall (KC-8)"
                ),
                CaptureRule::Wide => format!(
                    "{fname} cannot take on {tname}: a capture goes only between a wall cell and \
                     a cell of the same castle (capture=wide, KC-8, KC-R2)"
                ),
            });
        }
    }
    if !s.man_move_legal(me, from, to, occ, eo, ed) {
        return Some(format!(
            "would leave the {} King in check (KC-11)",
            side_name(me)
        ));
    }
    None
}
