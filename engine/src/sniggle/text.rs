//! Sniggle text: the board diagram and the position text (read and written).

use std::fmt;

use super::movegen::gap_free;
use super::state::Outcome;
use super::{NO_SQ, SEAT_LETTERS, SniggleGame, SniggleState};
use crate::api::{MAX_SEATS, State};
use crate::board::text::{MAX_PLY, parse_ply};
use crate::board::{B192, Bits, sly};
use crate::error::GameError;

impl fmt::Display for SniggleState {
    /// The board as the dossier draws it (§2.1, §4.1): a seat's letter for
    /// its squares, lowercase for triangles; then the status.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", sly::diagram(|sq| self.letter(sq)))?;
        let s = self.to_move as usize;
        match self.outcome {
            Outcome::Win(m) => {
                let w: String = (0..MAX_SEATS)
                    .filter(|&k| m >> k & 1 == 1)
                    .map(|k| SEAT_LETTERS[k])
                    .collect();
                write!(f, "{w} won")
            }
            Outcome::Draw => write!(f, "draw: no piece can move and nobody has won"),
            Outcome::Ongoing if self.chain != NO_SQ => write!(
                f,
                "{} (seat {s}) must step again with {} (N-3)",
                SEAT_LETTERS[s],
                sly::square_name(self.chain as u32)
            ),
            Outcome::Ongoing => write!(f, "{} (seat {s}) to move", SEAT_LETTERS[s]),
        }
    }
}

/// Parses the position text of [`State::to_text`] (the ply may be left
/// out), checking that it is a position of this variant: each seat has 9
/// pieces, three in each track of its band with one triangle per track,
/// and no empty field between its pieces (N-4); a continuing piece (N-3)
/// belongs to the seat to move, stands in a column with an odd count of
/// opponents' pieces and can step. The outcome follows from the pieces:
/// a seat (or team) that has finished has won (N-5, N-7, N-8).
pub(crate) fn parse_position(game: &SniggleGame, text: &str) -> Result<SniggleState, GameError> {
    let rules = game.rules;
    let n = rules.players as usize;
    let bad = |what: String| GameError::new(format!("bad sniggle position {text:?}: {what}"));
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 3 || fields.len() > 4 {
        return Err(bad(
            "expected 3 or 4 fields: <12 rows separated by /> <seat letter to move> <continuing square or -> [<ply>]"
                .into(),
        ));
    }
    let mut s = game.start();
    s.pieces = [B192::ZERO; MAX_SEATS];
    s.triangles = B192::ZERO;
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 12 {
        return Err(bad(format!("{} rows, expected 12", rows.len())));
    }
    for (r, row) in rows.iter().enumerate() {
        let r = r as u32;
        crate::board::text::read_row(row, 12, "spaces", |c, ch| {
            let upper = ch.to_ascii_uppercase();
            let Some(seat) = SEAT_LETTERS[..n].iter().position(|&l| l == upper) else {
                return Err(format!(
                    "has an unknown piece letter {ch:?} (expected {} or a digit for empty spaces)",
                    SEAT_LETTERS[..n]
                        .iter()
                        .flat_map(|l| [*l, l.to_ascii_lowercase()])
                        .map(String::from)
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            };
            let sq = sly::square(r, c);
            s.pieces[seat] |= B192::bit(sq);
            if ch.is_ascii_lowercase() {
                s.triangles |= B192::bit(sq);
            }
            Ok(())
        })
        .map_err(|e| bad(format!("row {} {e}", r + 1)))?;
    }
    for (seat, &letter) in SEAT_LETTERS.iter().enumerate().take(n) {
        let r0 = s.first_row(seat);
        let outside = s.pieces[seat] & !sly::BANDS[rules.bands[seat] as usize];
        if !outside.is_zero() {
            return Err(bad(format!(
                "{letter} has a piece on {}, outside its tracks (rows {}-{}, N-SET-2)",
                sly::square_name(outside.lowest()),
                r0 + 1,
                r0 + 3
            )));
        }
        for t in 0..3 {
            let row = sly::ROWS[(r0 + t) as usize];
            let k = (s.pieces[seat] & row).count();
            let tri = (s.pieces[seat] & row & s.triangles).count();
            if k != 3 || tri != 1 {
                return Err(bad(format!(
                    "{letter}'s track in row {} has {k} pieces and {tri} triangles, expected 3 and 1 (N-SET-1, N-SET-4)",
                    r0 + t + 1
                )));
            }
        }
        let t = s.tracks(seat);
        if !gap_free(t[0] | t[1] | t[2]) {
            return Err(bad(format!(
                "{letter} leaves an empty field between its pieces (N-4)"
            )));
        }
    }
    let seat_text = fields[1];
    let to_move = SEAT_LETTERS[..n]
        .iter()
        .position(|l| seat_text.len() == 1 && seat_text.starts_with(*l))
        .ok_or_else(|| {
            bad(format!(
                "seat to move {seat_text:?}, expected one of {}",
                SEAT_LETTERS[..n].iter().collect::<String>()
            ))
        })?;
    s.to_move = to_move as u8;
    s.chain = NO_SQ;
    if fields[2] != "-" {
        let sq = sly::parse_square(fields[2]).map_err(|e| bad(e.to_string()))?;
        if !s.pieces[to_move].has(sq) {
            return Err(bad(format!(
                "the continuing piece on {} is not {}'s",
                fields[2], SEAT_LETTERS[to_move]
            )));
        }
        if s.opponents_in_column(to_move, sly::col_of(sq))
            .is_multiple_of(2)
        {
            return Err(bad(format!(
                "the piece on {} cannot be continuing: its column holds an even number of opponents' pieces (N-3)",
                fields[2]
            )));
        }
        if s.continuation(to_move, sq).is_none() {
            return Err(bad(format!(
                "the piece on {} cannot step again (N-2, N-4), so the turn would have ended",
                fields[2]
            )));
        }
        s.chain = sq as u8;
    }
    s.ply = match fields.get(3) {
        Some(p) => parse_ply(p).ok_or_else(|| {
            bad(format!(
                "ply {p:?}, expected a whole number up to {MAX_PLY}"
            ))
        })?,
        None => 0,
    };
    // The outcome (N-5, N-7, N-8, our draw ruling under N-9).
    let winners: Vec<u8> = if rules.teams {
        [0usize, 1]
            .into_iter()
            .filter(|&k| s.finished(k) && s.finished(k + 2))
            .map(|k| s.side_mask(k))
            .collect()
    } else {
        (0..n)
            .filter(|&k| s.finished(k))
            .map(|k| 1u8 << k)
            .collect()
    };
    if winners.len() > 1 {
        return Err(bad("more than one side has finished".into()));
    }
    if let Some(&w) = winners.first() {
        s.outcome = Outcome::Win(w);
    } else if (0..n).all(|k| s.in_goal(k)) {
        s.outcome = Outcome::Draw;
    }
    if s.outcome != Outcome::Ongoing && s.chain != NO_SQ {
        return Err(bad("the game is over, so no piece can be continuing".into()));
    }
    s.hash = s.zobrist_from_scratch();
    Ok(s)
}

/// Why `text` is not a legal move in `s`, from the rules (see
/// [`crate::api::Research::illegal_reason`]): a piece that must step again
/// (N-3), a pass with a step on (N-9), an empty square or another seat's
/// piece (N-1), a step that does not land where N-2 puts it or a piece
/// that cannot step (N-2), and the gap rule (N-4). `None` where the move is
/// legal.
pub(super) fn illegal_reason(s: &SniggleState, text: &str) -> Option<String> {
    use super::SniggleMove;
    use super::movegen::landing;
    let (mv, _) = match crate::api::move_to_explain(s, text) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let seat = s.to_move as usize;
    let me = format!("{} (seat {seat})", SEAT_LETTERS[seat]);
    let why = if let Some(c) = s.continuing() {
        let to = s
            .continuation(seat, c)
            .map(sly::square_name)
            .unwrap_or_default();
        Some(format!(
            "the piece on {c} must step again, as column {col} holds an odd number of \
             opponents' pieces (N-3): its step is {c}-{to}",
            c = sly::square_name(c),
            col = (b'A' + sly::col_of(c) as u8) as char,
        ))
    } else {
        match mv {
            SniggleMove::Pass => Some(format!(
                "{me} has a step, and a pass is only for a player with none (N-9)"
            )),
            SniggleMove::Step { from, to } => {
                let (from, to) = (from as u32, to as u32);
                let fname = sly::square_name(from);
                let owner = (0..s.rules.players as usize).find(|&k| s.pieces[k].has(from));
                match owner {
                    None => Some(format!("no piece on {fname}")),
                    Some(k) if k != seat => Some(format!(
                        "the piece on {fname} is {} (seat {k})'s, and {me} is to move",
                        SEAT_LETTERS[k]
                    )),
                    Some(_) => {
                        let i = (sly::row_of(from) - s.first_row(seat)) as usize;
                        let t = s.tracks(seat);
                        match landing(t[i], sly::col_of(from)) {
                            None => Some(format!(
                                "the piece on {fname} cannot step: the run of pieces right of \
                                 it reaches column L (N-2)"
                            )),
                            Some(l) if l != sly::col_of(to) => Some(format!(
                                "a step from {fname} lands on {}: the next space if empty, \
                                 else the first empty space past the run of pieces (N-2)",
                                sly::square_name(sly::square(sly::row_of(from), l))
                            )),
                            Some(_) => Some(format!(
                                "would leave an empty field between two fields holding the \
                                 pieces of {me} (N-4)"
                            )),
                        }
                    }
                }
            }
        }
    };
    why.or_else(|| crate::api::generic_illegal_reason(s, text))
}
