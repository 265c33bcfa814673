//! Blockade position and move text (see the module docs for the format).

use crate::board::text::{MAX_PLY, parse_ply};
use std::fmt;

use super::state::BlockadeState;
use super::{BlockadeMove, GUARDS, Rules, Side};
use crate::api::State;
use crate::board::sly;
use crate::board::{B192, Bits};
use crate::error::GameError;

/// The letter on `sq`: `K`/`G` South's king and guards, `k`/`g` North's.
pub(super) fn letter(s: &BlockadeState, sq: u32) -> Option<char> {
    let k = s.kings();
    if sq == k[Side::South.index()] {
        Some('K')
    } else if sq == k[Side::North.index()] {
        Some('k')
    } else if s.guards(Side::South).has(sq) {
        Some('G')
    } else if s.guards(Side::North).has(sq) {
        Some('g')
    } else {
        None
    }
}

pub(super) fn position_text(s: &BlockadeState) -> String {
    let side = if s.side() == Side::South { 'S' } else { 'N' };
    format!("{} {side} {}", sly::rows_text(|sq| letter(s, sq)), s.ply())
}

pub(super) fn move_text(mv: BlockadeMove) -> String {
    match mv {
        BlockadeMove::Place(sq) => sly::square_name(sq as u32),
        BlockadeMove::Slide { from, to } => format!(
            "{}-{}",
            sly::square_name(from as u32),
            sly::square_name(to as u32)
        ),
        BlockadeMove::Pass => "pass".into(),
    }
}

pub(super) fn parse_move(text: &str) -> Result<BlockadeMove, GameError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Ok(BlockadeMove::Pass);
    }
    let wrap = |e: GameError| GameError::new(format!("bad move {text:?}: {e}"));
    match t.split_once('-') {
        None => Ok(BlockadeMove::Place(
            sly::parse_square(t).map_err(wrap)? as u8
        )),
        Some((a, b)) => {
            let from = sly::parse_square(a.trim()).map_err(wrap)?;
            let to = sly::parse_square(b.trim()).map_err(wrap)?;
            let same_line =
                sly::row_of(from) == sly::row_of(to) || sly::col_of(from) == sly::col_of(to);
            if from == to || !same_line {
                crate::bail!(
                    "bad move {text:?}: a guard slides along its row or column to another space (B-4), e.g. 4E-4H"
                );
            }
            Ok(BlockadeMove::Slide {
                from: from as u8,
                to: to as u8,
            })
        }
    }
}

/// Parses [`position_text`], checking: 12 rows of 12 spaces; both kings on
/// their squares of the rules (B-SET-2); at most 6 guards a side, none in a
/// king's field (B-3, B-4); the guard counts of strict alternation from the
/// first side (B-1, B-3: seat 0's side has placed `⌈p/2⌉` and the other
/// `⌊p/2⌋` of the first 12 plies `p`); the side to move that of the ply's
/// parity; the ply not past the cap. The ending follows from the position
/// (B-2, B-7).
pub(super) fn parse_position(rules: Rules, text: &str) -> Result<BlockadeState, GameError> {
    let bad = |what: String| GameError::new(format!("bad blockade position {text:?}: {what}"));
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 3 {
        return Err(bad(
            "expected 3 fields: <12 rows separated by /> <side to move S or N> <plies played>"
                .into(),
        ));
    }
    let mut guards = [B192::ZERO; 2];
    let mut kings: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    sly::parse_rows(fields[0], |sq, ch| {
        match ch {
            'K' => kings[Side::South.index()].push(sq),
            'k' => kings[Side::North.index()].push(sq),
            'G' => guards[Side::South.index()] |= B192::bit(sq),
            'g' => guards[Side::North.index()] |= B192::bit(sq),
            _ => {
                return Err(format!(
                    "unknown piece {ch:?} (expected K G for South, k g for North, or a digit for empty spaces)"
                ));
            }
        }
        Ok(())
    })
    .map_err(bad)?;
    for side in [Side::North, Side::South] {
        let want = rules.kings[side.index()];
        let have = &kings[side.index()];
        if have.len() != 1 || have[0] != want {
            let found: Vec<String> = have.iter().map(|&q| sly::square_name(q)).collect();
            return Err(bad(format!(
                "the {} king must stand on {} alone (B-SET-2; kings move only to escape); found {}",
                side.name(),
                sly::square_name(want),
                if found.is_empty() {
                    "none".into()
                } else {
                    found.join(", ")
                }
            )));
        }
    }
    let ply: u32 = parse_ply(fields[2]).ok_or_else(|| {
        bad(format!(
            "plies {:?}, expected a whole number up to {MAX_PLY}",
            fields[2]
        ))
    })?;
    if ply > rules.ply_cap {
        return Err(bad(format!(
            "{ply} plies is past the ply cap {}",
            rules.ply_cap
        )));
    }
    let side = match fields[1] {
        "S" => Side::South,
        "N" => Side::North,
        other => return Err(bad(format!("side to move {other:?}, expected S or N"))),
    };
    let want_side = if ply.is_multiple_of(2) {
        rules.first
    } else {
        rules.first.other()
    };
    if side != want_side {
        return Err(bad(format!(
            "after {ply} plies it is {}'s turn, not {}'s (B-1: {} moves first)",
            want_side.name(),
            side.name(),
            rules.first.name()
        )));
    }
    let fields_mask = rules.king_fields();
    let p = ply.min(2 * GUARDS);
    for s in [Side::North, Side::South] {
        let g = guards[s.index()];
        let inside = g & fields_mask;
        if !inside.is_zero() {
            return Err(bad(format!(
                "a guard on {} stands in a king's field (B-3, B-4)",
                sly::square_name(inside.lowest())
            )));
        }
        let want = if s == rules.first {
            p.div_ceil(2)
        } else {
            p / 2
        };
        if g.count() != want {
            return Err(bad(format!(
                "{} has {} guards on the board; after {ply} plies it has placed {want} (B-1, B-3: one a turn, 6 in all)",
                s.name(),
                g.count()
            )));
        }
    }
    let mut st = super::state::BlockadeState::new(rules);
    st.guards = guards;
    st.side = side;
    st.ply = ply;
    st.hash = st.zobrist_from_scratch();
    st.settle();
    Ok(st)
}

impl fmt::Display for BlockadeState {
    /// The board as the dossier draws it (§2.1), then the status.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", sly::diagram(|sq| letter(self, sq)))?;
        match self.ending() {
            Some((e, Some(w))) => write!(f, "{} won ({})", w.name(), e.name()),
            Some((e, None)) => write!(f, "draw ({})", e.name()),
            None => write!(
                f,
                "{} (seat {}) to {}",
                self.side().name(),
                self.rules().seat_of(self.side()),
                if self.placing() {
                    "place a guard"
                } else {
                    "slide a guard"
                }
            ),
        }
    }
}

/// `North` or `South`.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::North => "North",
        Side::South => "South",
    }
}

/// What stands on `sq` (`North's king`, `South's guard`), if anything.
fn occupant(s: &BlockadeState, sq: u32) -> Option<String> {
    let (side, what) = match letter(s, sq)? {
        'K' => (Side::South, "king"),
        'k' => (Side::North, "king"),
        'G' => (Side::South, "guard"),
        _ => (Side::North, "guard"),
    };
    Some(format!("{}'s {what}", side_name(side)))
}

/// The king whose field holds `sq`, if any (B-3, B-4).
fn king_field_of(s: &BlockadeState, sq: u32) -> Option<Side> {
    [Side::North, Side::South]
        .into_iter()
        .find(|&k| sly::field_of(s.kings()[k.index()]) == sly::field_of(sq))
}

/// Why `text` is not a legal move in `s`, from the rules (see
/// [`crate::api::Research::illegal_reason`]): a placement in the movement
/// phase or a slide in the placement phase (B-3, B-4); a placement on a
/// taken space, in a king's field or, for the first guard, on a centre
/// (B-3); a slide of no guard, a king or the opponent's guard, through or
/// onto a piece, or ending in a king's field (B-4); a pass with a move on,
/// or a move with none (B-6). `None` where the move is legal.
pub(super) fn illegal_reason(s: &BlockadeState, text: &str) -> Option<String> {
    let (mv, legal) = match crate::api::move_to_explain(s, text) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let side = s.side();
    let me = side_name(side);
    let name = sly::square_name;
    let in_hand = GUARDS - s.guards(side).count();
    let field = |sq: u32, k: Side| {
        format!(
            "{} lies in {}'s king's field (the field of {})",
            name(sq),
            side_name(k),
            name(s.kings()[k.index()])
        )
    };
    Some(match mv {
        BlockadeMove::Pass => {
            format!("{me} has a move, and a pass is allowed only with none (B-6)")
        }
        _ if legal == [BlockadeMove::Pass] => {
            format!("{me} has no legal move and must pass (B-6)")
        }
        BlockadeMove::Place(_) if !s.placing() => {
            format!("{me} has all {GUARDS} guards on the board, so a turn slides one (B-4)")
        }
        BlockadeMove::Slide { .. } if s.placing() => {
            format!("{me} has {in_hand} guard(s) in hand, so a turn places one (B-3)")
        }
        BlockadeMove::Place(sq) => {
            let sq = sq as u32;
            if let Some(who) = occupant(s, sq) {
                format!("{} is taken by {who} (B-3)", name(sq))
            } else if let Some(k) = king_field_of(s, sq) {
                format!("{}, where no guard is placed (B-3)", field(sq, k))
            } else if in_hand == GUARDS && sly::is_centre(sq) {
                format!(
                    "{} is a centre, and {me}'s first guard may not stand on one (B-3)",
                    name(sq)
                )
            } else {
                "not one of the legal moves".into()
            }
        }
        BlockadeMove::Slide { from, to } => {
            let (from, to) = (from as u32, to as u32);
            match letter(s, from) {
                None => return Some(format!("no piece on {}", name(from))),
                Some('K' | 'k') => {
                    return Some(format!(
                        "the king on {} never moves; a turn slides a guard (B-4)",
                        name(from)
                    ));
                }
                Some(_) if !s.guards(side).has(from) => {
                    return Some(format!(
                        "the guard on {} is {}'s, and {me} is to move",
                        name(from),
                        side_name(side.other())
                    ));
                }
                Some(_) => {}
            }
            // The parser keeps `from` and `to` in one row or column.
            let (r0, c0) = (sly::row_of(from) as i32, sly::col_of(from) as i32);
            let (r1, c1) = (sly::row_of(to) as i32, sly::col_of(to) as i32);
            let (dr, dc) = ((r1 - r0).signum(), (c1 - c0).signum());
            let steps = (r1 - r0).abs().max((c1 - c0).abs());
            let block = (1..=steps)
                .map(|i| sly::square((r0 + i * dr) as u32, (c0 + i * dc) as u32))
                .find(|&q| letter(s, q).is_some());
            match block {
                Some(q) if q == to => format!(
                    "{} is taken by {}, and a guard slides over empty spaces (B-4)",
                    name(q),
                    occupant(s, q).expect("a piece")
                ),
                Some(q) => format!(
                    "the slide from {} to {} would pass {} on {}, and a guard passes no piece (B-4)",
                    name(from),
                    name(to),
                    occupant(s, q).expect("a piece"),
                    name(q)
                ),
                None => match king_field_of(s, to) {
                    Some(k) => format!(
                        "{}, and a slide may pass over a king's field but not end there (B-4)",
                        field(to, k)
                    ),
                    None => "not one of the legal moves".into(),
                },
            }
        }
    })
}
