//! Andalusia text: the move notation of §2.7, the position text (ours; the
//! dossier defines none) and the board for people.
//!
//! Moves: `from-to` (quiet), `fromxto` (capture), `=C` appended for a
//! promotion: `e2-e4`, `b1xa1`, `g7-f8=C`.
//!
//! Position text: `<rows> <to-move> [<quiet> [<ply>]]`
//! * rows from rank 9 down to rank 1, separated by `/`, nine points each; a
//!   digit is a run of empty points (`.` is one); `K C S` White King,
//!   Chariot, Soldier, `k c s` Black's (the dossier's diagrams);
//! * to-move `w` or `b`;
//! * quiet: plies since the last capture or Soldier move (default 0);
//! * ply: plies played (default 0).
//!
//! The start: `1ccckccc1/sssssssss/9/9/9/9/9/SSSSSSSSS/1CCCKCCC1 w 0 0`.
//! The repetition history is not part of the text (as in a chess FEN).

use crate::board::text::MAX_PLY;
use std::fmt;

use super::state::{AndalusiaState, Outcome};
use super::{AndalusiaMove, Geometry, Piece, Rules, Side};
use crate::api::State;
use crate::board::{parse_square, square_name};
use crate::error::GameError;

fn letter(s: &AndalusiaState, sq: u32) -> Option<char> {
    s.piece_at(sq).map(|(side, piece)| piece.letter(side))
}

/// The position text (see the module docs).
pub(super) fn position_text(s: &AndalusiaState) -> String {
    let rows = crate::board::text::write_rows(9, 9, |i, c| letter(s, (8 - i) * 9 + c));
    format!(
        "{} {} {} {}",
        rows,
        if s.side == Side::White { 'w' } else { 'b' },
        s.quiet,
        s.ply
    )
}

fn name(sq: u32) -> String {
    square_name(sq as usize, 9)
}

/// Parses the position text (see the module docs) and settles the ending
/// (no legal move, the quiet-plies rule, the ply cap).
///
/// # Errors
/// A wrong number of fields, ranks or points (a piece off the 9 × 9 point
/// set), unknown letters, not exactly one King per side, a Soldier on a
/// rank it can never stand on (White ranks 2–7, Black 3–8: Soldiers never
/// retreat and promote on arrival, A-M3, A-M5), more pieces than the set-up
/// allows (A-S1), Kings facing on an empty line (A-K1 c), the side not to
/// move in check.
pub(super) fn parse_position(
    rules: Rules,
    geo: &'static Geometry,
    text: &str,
) -> Result<AndalusiaState, GameError> {
    let bad = |what: String| GameError::new(format!("bad andalusia position {text:?}: {what}"));
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 2 || fields.len() > 4 {
        return Err(bad(
            "expected 2 to 4 fields: <rows 9..1 separated by /> <to-move w|b> [<quiet plies> [<ply>]]"
                .into(),
        ));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 9 {
        return Err(bad(format!("{} ranks, expected 9", rows.len())));
    }
    let mut s = AndalusiaState::empty(rules, geo);
    let mut kings: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    for (i, row) in rows.iter().enumerate() {
        let r = 8 - i as u32;
        let mut c = 0u32;
        for ch in row.chars() {
            if let Some(k) = ch.to_digit(10) {
                if k == 0 {
                    return Err(bad(format!("rank {}: a run of 0 empty points", r + 1)));
                }
                c += k;
                continue;
            }
            if c >= 9 {
                return Err(bad(format!(
                    "rank {} has a piece past file i: a rank has 9 points a-i",
                    r + 1
                )));
            }
            let sq = r * 9 + c;
            let b = 1u128 << sq;
            let side = if ch.is_ascii_uppercase() {
                Side::White
            } else {
                Side::Black
            };
            match ch.to_ascii_uppercase() {
                '.' => {}
                'K' => kings[side.index()].push(sq),
                'C' => s.chariots |= b,
                'S' => {
                    // White Soldiers stand on ranks 2-7, Black on 3-8.
                    let ok = match side {
                        Side::White => (1..=6).contains(&r),
                        Side::Black => (2..=7).contains(&r),
                    };
                    if !ok {
                        return Err(bad(format!(
                            "{} Soldier on {}: {} Soldiers stand on ranks {} only (they never retreat and promote on rank {}, A-M3, A-M5)",
                            side.name(),
                            name(sq),
                            side.name(),
                            if side == Side::White { "2-7" } else { "3-8" },
                            if side == Side::White { 8 } else { 2 },
                        )));
                    }
                    s.soldiers |= b
                }
                _ => {
                    return Err(bad(format!(
                        "unknown piece letter {ch:?} (expected K C S k c s, . or a digit 1-9)"
                    )));
                }
            }
            if ch != '.' {
                s.colour[side.index()] |= b;
            }
            c += 1;
        }
        if c != 9 {
            return Err(bad(format!(
                "rank {} has {c} points, expected 9 (a-i)",
                r + 1
            )));
        }
    }
    for side in [Side::White, Side::Black] {
        let k = &kings[side.index()];
        match k.len() {
            1 => s.kings[side.index()] = k[0] as u8,
            0 => return Err(bad(format!("no {} King: each side has one", side.name()))),
            n => {
                let names: Vec<String> = k.iter().map(|&q| name(q)).collect();
                return Err(bad(format!(
                    "{n} {} Kings ({}): each side has one",
                    side.name(),
                    names.join(", ")
                )));
            }
        }
        let soldiers = (s.soldiers & s.colour[side.index()]).count_ones();
        let chariots = (s.chariots & s.colour[side.index()]).count_ones();
        if soldiers > 9 || chariots + soldiers > 15 {
            return Err(bad(format!(
                "{} has {chariots} Chariots and {soldiers} Soldiers: at most 9 Soldiers, and 6 Chariots plus one per promoted Soldier (A-S1)",
                side.name()
            )));
        }
    }
    s.side = match fields[1] {
        "w" => Side::White,
        "b" => Side::Black,
        f => return Err(bad(format!("side to move {f:?}, expected w or b"))),
    };
    let number = |i: usize, what: &str| -> Result<u32, GameError> {
        match fields.get(i) {
            Some(p) => p
                .parse()
                .map_err(|_| bad(format!("{what} {p:?}, expected a whole number"))),
            None => Ok(0),
        }
    };
    s.quiet = number(2, "quiet plies")?;
    s.ply = number(3, "ply")?;
    if s.ply > MAX_PLY {
        return Err(bad(format!(
            "ply {}, expected a whole number up to {MAX_PLY}",
            s.ply
        )));
    }
    if s.kings_facing() {
        return Err(bad(format!(
            "the Kings face each other on {}-{} with nothing between (A-K1 c)",
            name(s.kings[0] as u32),
            name(s.kings[1] as u32)
        )));
    }
    let waiting = s.side.other();
    if s.attacked_king(waiting) {
        return Err(bad(format!(
            "{} (not to move) is in check: the last move was illegal (A-K1)",
            waiting.name()
        )));
    }
    s.hash = s.zobrist_from_scratch();
    s.settle();
    Ok(s)
}

/// A move in §2.7 notation.
pub(super) fn move_text(mv: AndalusiaMove) -> String {
    format!(
        "{}{}{}{}",
        name(mv.from()),
        if mv.is_capture() { 'x' } else { '-' },
        name(mv.to()),
        if mv.is_promotion() { "=C" } else { "" }
    )
}

const EXPECTED: &str = "expected from-to, fromxto, with =C for a promotion (e2-e4, b1xa1, g7-f8=C)";

/// Parses a move in §2.7 notation. Checks the syntax, the points (two
/// different points on one line of the board) and the promotion suffix
/// against the piece on `from` in `s`; legality is checked against the legal
/// moves, where the `-`/`x` must match the move.
///
/// # Errors
/// Malformed text; the message says what was expected.
pub(super) fn parse_move(s: &AndalusiaState, text: &str) -> Result<AndalusiaMove, GameError> {
    let t = text.trim();
    let bad = |what: String| GameError::new(format!("bad move {text:?}: {what}"));
    let (body, promo) = match t.split_once('=') {
        Some((b, "C")) => (b, true),
        Some((_, p)) => {
            return Err(bad(format!(
                "promotion {p:?}: a Soldier promotes to a Chariot only, written =C (A-M5)"
            )));
        }
        None => (t, false),
    };
    let Some((i, sep)) = body.char_indices().find(|&(_, c)| c == '-' || c == 'x') else {
        return Err(bad(EXPECTED.into()));
    };
    let (a, b) = (&body[..i], &body[i + sep.len_utf8()..]);
    let from = parse_square(a, 9, 9).map_err(|e| bad(e.0))? as u32;
    let to = parse_square(b, 9, 9).map_err(|e| bad(e.0))? as u32;
    if s.geo.graph.dir_between(from, to).is_none() {
        return Err(bad(format!(
            "{a} and {b} are not two points on one line of the board (§2.2)"
        )));
    }
    // The promotion suffix must match the move (A-M5): mandatory for a
    // Soldier of the side to move reaching its promotion rank, else absent.
    let me = s.side;
    let soldier = s.pieces_of(me, Piece::Soldier) >> from & 1 != 0;
    let must = soldier && s.geo.promo_rank[me.index()] >> to & 1 != 0;
    if must && !promo {
        return Err(bad(format!(
            "a Soldier reaching rank {} promotes: write {t}=C (A-M5)",
            to / 9 + 1
        )));
    }
    if promo && !must {
        return Err(bad(format!(
            "=C is only for a {} Soldier reaching rank {} (A-M5)",
            me.name(),
            if me == Side::White { 8 } else { 2 }
        )));
    }
    Ok(AndalusiaMove::new(from, to, sep == 'x', promo))
}

impl fmt::Display for AndalusiaState {
    /// The board for people as in the dossier's diagrams (rank 9 at the
    /// top; `K C S` White, `k c s` Black, `.` empty), then the status.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..9).rev() {
            write!(f, "{} ", r + 1)?;
            for c in 0..9 {
                write!(f, "{}", letter(self, r * 9 + c).unwrap_or('.'))?;
                if c < 8 {
                    write!(f, " ")?;
                }
            }
            writeln!(f)?;
        }
        writeln!(f, "  a b c d e f g h i")?;
        match (self.ending, self.winner()) {
            (Some(e), Some(w)) => write!(
                f,
                "{} (seat {}) wins by {}",
                w.name(),
                w.index(),
                match e {
                    Outcome::Checkmate => "checkmate",
                    _ => "stalemate (A-R2)",
                }
            ),
            (Some(e), None) => write!(
                f,
                "draw by {}",
                match e {
                    Outcome::Stalemate => "stalemate",
                    Outcome::Repetition => "repetition",
                    Outcome::QuietPlies => "the quiet-plies rule",
                    _ => "the ply cap",
                }
            ),
            _ => write!(
                f,
                "{} (seat {}) to move{}, ply {}",
                self.side.name(),
                self.side.index(),
                if self.in_check() { ", in check" } else { "" },
                self.ply
            ),
        }
    }
}

/// Why `text` is not a legal move in `s`, from the rules (see
/// [`crate::api::Research::illegal_reason`]): an empty or enemy point, a
/// capture of one's own piece, `-` and `x` (§2.7), the King's one step
/// (A-M1), a Chariot's blocked line (A-M2), a Soldier's steps (A-M3, A-M4)
/// and a King left attacked or facing the other (A-K1, A-K2). `None` where
/// the move is legal.
pub(super) fn illegal_reason(s: &AndalusiaState, text: &str) -> Option<String> {
    let (mv, _) = match crate::api::move_to_explain(s, text) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    move_reason(s, mv).or_else(|| crate::api::generic_illegal_reason(s, text))
}

/// Why `mv` breaks a rule of movement or King safety (`None` if none is
/// found broken).
fn move_reason(s: &AndalusiaState, mv: AndalusiaMove) -> Option<String> {
    use crate::board::Bits;
    let (me, op) = (s.side, s.side.other());
    let (from, to) = (mv.from(), mv.to());
    let (fname, tname) = (name(from), name(to));
    let (owner, piece) = match s.piece_at(from) {
        None => return Some(format!("no piece on {fname}")),
        Some(p) => p,
    };
    if owner != me {
        return Some(format!(
            "the piece on {fname} is {}'s, and {} is to move",
            op.name(),
            me.name()
        ));
    }
    if s.pieces(me) >> to & 1 == 1 {
        return Some(format!(
            "{tname} holds a {} piece, and a capture takes an enemy piece (§2.4)",
            me.name()
        ));
    }
    let enemy = s.pieces(op) >> to & 1 == 1;
    if enemy && !mv.is_capture() {
        return Some(format!(
            "{tname} holds a {} piece: a capture is written {fname}x{tname} (§2.7)",
            op.name()
        ));
    }
    if !enemy && mv.is_capture() {
        return Some(format!(
            "{tname} is empty: a move without capture is written {fname}-{tname} (§2.7)"
        ));
    }
    let graph = &s.geo.graph;
    let d = graph.dir_between(from, to)?;
    let occ = s.pieces(me) | s.pieces(op);
    let between = graph.between(from, to);
    let steps = between.count() + 1;
    let blocked = |rule: &str| {
        graph.nearest(d, from, occ).map(|b| {
            format!(
                "{fname}-{tname} is blocked by the piece on {}, and nothing jumps ({rule})",
                name(b)
            )
        })
    };
    match piece {
        Piece::King if steps > 1 => {
            return Some(format!(
                "a King moves one step along a link, and {tname} is {steps} away (A-M1)"
            ));
        }
        Piece::Chariot if between & occ != 0 => return blocked("A-M2"),
        Piece::Soldier => {
            let dirs = me.soldier_dirs();
            if !dirs.contains(&d) {
                return Some(format!(
                    "a {} Soldier steps {}, never backward (A-M3)",
                    me.name(),
                    if me == Side::White {
                        "N, NE, NW, E or W"
                    } else {
                        "S, SE, SW, E or W"
                    }
                ));
            }
            if steps > 2 || (steps == 2 && !dirs[..3].contains(&d)) {
                return Some(
                    "a Soldier steps one point, or two straight or diagonally forward from its \
                     start rank (A-M3, A-M4)"
                        .into(),
                );
            }
            if steps == 2 {
                if s.geo.start_rank[me.index()] >> from & 1 == 0 {
                    return Some(format!(
                        "a Soldier steps two points only from its start rank {}, and {fname} is \
                         not on it (A-M4)",
                        if me == Side::White { 2 } else { 8 }
                    ));
                }
                if between & occ != 0 {
                    return blocked("A-M4");
                }
                if enemy {
                    return Some("a Soldier's double step never captures (A-M4)".into());
                }
            }
        }
        _ => {}
    }
    // The movement fits: the move is illegal only for the King's safety.
    let mut after = s.clone();
    after.play(mv);
    if after.attacked_king(me) {
        return Some(if after.kings_facing() {
            "would leave the Kings facing each other along an empty line (A-K1, A-K2)".into()
        } else if piece == Piece::King {
            format!("{tname} is attacked, and the King may not move into check (A-K1)")
        } else {
            format!("would leave the {} King attacked (A-K1)", me.name())
        });
    }
    None
}
