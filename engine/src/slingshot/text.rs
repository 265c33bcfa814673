//! Slingshot text: the board diagram and the position text (read and written).

use std::fmt;

use super::state::{Outcome, Stage};
use super::{Side, SlingshotGame, SlingshotMove, SlingshotState};
use crate::api::State;
use crate::board::Bits;
use crate::board::text::{MAX_PLY, parse_ply};
use crate::error::GameError;

impl fmt::Display for SlingshotState {
    /// The board for people, rank n at the top, as in the dossier's diagrams:
    /// `B` Black, `T` Teal, `X` stack, `#` neutral corner, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.geo.n;
        for r in (0..n).rev() {
            write!(f, "{:>2} ", r + 1)?;
            for c in 0..n {
                let bit = 1u128 << (r * n + c);
                let ch = if self.black & bit != 0 {
                    'B'
                } else if self.teal & bit != 0 {
                    'T'
                } else if self.stacks & bit != 0 {
                    'X'
                } else if self.neutral & bit != 0 {
                    '#'
                } else {
                    '.'
                };
                write!(f, " {ch}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for c in 0..n {
            write!(f, " {}", (b'a' + c as u8) as char)?;
        }
        writeln!(f)?;
        let status = match (self.outcome, self.stage) {
            (Outcome::Win(c), _) => format!("{c:?} wins"),
            (Outcome::Draw, _) => "draw".to_string(),
            (_, Stage::Setup) => "setter (seat 0) places two Teal stones".to_string(),
            (_, Stage::Choose) => "chooser (seat 1) picks a colour".to_string(),
            (_, Stage::Play) => format!(
                "{:?} (seat {}) to move, phase {}, hands B {} T {}",
                self.to_move,
                self.seat_of(self.to_move).unwrap_or(0),
                if self.phase_s { "S" } else { "C" },
                fmt_hand(self.hand(Side::Black)),
                fmt_hand(self.hand(Side::Teal)),
            ),
        };
        write!(f, "{status}")
    }
}

pub(crate) fn fmt_hand(h: u32) -> String {
    if h == u32::MAX {
        "∞".into()
    } else {
        h.to_string()
    }
}

/// Parses the position text `<rows> <stage> <phase> <passes> <black-seat> [<ply>]`:
/// rows from rank n down to rank 1 separated by `/`, digits for runs of
/// empty squares, `B` Black, `T` Teal, `X` stack, `#` neutral corner; stage
/// `setup`, `choose`, `B` or `T` (colour to move); phase `C` or `S`; passes
/// 0–2; the seat playing Black (`0`, `1`, or `-` before the choice).
///
/// A Phase C position whose side to move has no custodial move is moved to
/// Phase S, as after a move (S13).
pub(crate) fn parse_position(
    game: &SlingshotGame,
    text: &str,
) -> Result<SlingshotState, GameError> {
    let n = game.rules.size;
    let fields: Vec<&str> = text.split_whitespace().collect();
    let bad = |what: String| GameError::new(format!("bad slingshot position {text:?}: {what}"));
    if fields.len() < 5 || fields.len() > 6 {
        return Err(bad(
            "expected 5 or 6 fields: <rows> <setup|choose|B|T> <C|S> <passes> <black-seat 0|1|-> [<ply>]"
                .into(),
        ));
    }
    let mut s = game.empty_state();
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != n as usize {
        return Err(bad(format!(
            "{} rows, expected {n} for size {n}",
            rows.len()
        )));
    }
    let (mut black, mut teal, mut stacks, mut neutral) = (0u128, 0u128, 0u128, 0u128);
    for (i, row) in rows.iter().enumerate() {
        let r = n - 1 - i as u32;
        let mut c = 0u32;
        let mut digits = String::new();
        let flush = |digits: &mut String, c: &mut u32| -> Result<(), GameError> {
            if !digits.is_empty() {
                let k: u32 = digits
                    .parse()
                    .map_err(|_| bad(format!("bad run {digits:?}")))?;
                // Saturating: a huge run is then caught as an over-long row.
                *c = c.saturating_add(k);
                digits.clear();
            }
            Ok(())
        };
        for ch in row.chars() {
            if ch.is_ascii_digit() {
                digits.push(ch);
                continue;
            }
            flush(&mut digits, &mut c)?;
            if c >= n {
                return Err(bad(format!(
                    "row {} (rank {}) is longer than {n}",
                    i + 1,
                    r + 1
                )));
            }
            let bit = 1u128 << (r * n + c);
            match ch {
                'B' => black |= bit,
                'T' => teal |= bit,
                'X' => stacks |= bit,
                '#' => neutral |= bit,
                '.' => {}
                _ => {
                    return Err(bad(format!(
                        "unknown square letter {ch:?} (expected B, T, X, #, . or a digit)"
                    )));
                }
            }
            c += 1;
        }
        flush(&mut digits, &mut c)?;
        if c != n {
            return Err(bad(format!("rank {} has {c} squares, expected {n}", r + 1)));
        }
    }
    if neutral != s.neutral {
        return Err(bad(if game.rules.neutral_corners {
            "corners=neutral needs `#` on exactly the four corners".into()
        } else {
            "`#` (neutral corner) needs the game option corners=neutral".into()
        }));
    }
    s.black = black;
    s.teal = teal;
    s.stacks = stacks;
    let phase = match fields[2] {
        "C" => false,
        "S" => true,
        f => return Err(bad(format!("phase {f:?}, expected C or S"))),
    };
    let passes: u8 = match fields[3] {
        "0" => 0,
        "1" => 1,
        "2" => 2,
        f => return Err(bad(format!("passes {f:?}, expected 0, 1 or 2"))),
    };
    let seat = fields[4];
    s.ply = match fields.get(5) {
        Some(p) => parse_ply(p).ok_or_else(|| {
            bad(format!(
                "ply {p:?}, expected a whole number up to {MAX_PLY}"
            ))
        })?,
        None => 0,
    };
    if stacks != 0 && !phase {
        return Err(bad("stacks (X) exist only in phase S".into()));
    }
    if passes > 0 && !phase {
        return Err(bad("passes happen only in phase S".into()));
    }
    for c in [Side::Black, Side::Teal] {
        let used = s.singletons(c).count() + stacks.count();
        if game.rules.supply != u32::MAX && used > game.rules.supply {
            return Err(bad(format!(
                "{c:?} uses {used} pieces, more than the supply {}",
                game.rules.supply
            )));
        }
    }
    match fields[1] {
        "setup" | "choose" => {
            let setup = fields[1] == "setup";
            let want_teal = if setup { 0 } else { 2 };
            if black != 0 || stacks != 0 || teal.count() != want_teal || phase || seat != "-" {
                return Err(bad(if setup {
                    "stage setup needs an empty board, phase C, 0 passes and black-seat -".into()
                } else {
                    "stage choose needs exactly two Teal stones, phase C, 0 passes and black-seat -"
                        .into()
                }));
            }
            s.stage = if setup { Stage::Setup } else { Stage::Choose };
        }
        "B" | "T" => {
            s.stage = Stage::Play;
            s.to_move = if fields[1] == "B" {
                Side::Black
            } else {
                Side::Teal
            };
            s.black_seat = match seat {
                "0" => 0,
                "1" => 1,
                _ => {
                    return Err(bad(format!(
                        "black-seat {seat:?}, expected 0 or 1 once play has begun"
                    )));
                }
            };
            s.phase_s = phase;
            s.passes = passes;
            if s.has_path(s.to_move) {
                return Err(bad(format!(
                    "{:?} is to move but already has a winning path",
                    s.to_move
                )));
            }
        }
        f => return Err(bad(format!("stage {f:?}, expected setup, choose, B or T"))),
    }
    s.hash = s.zobrist_from_scratch();
    s.open = s.geo.open_midpoints(!s.occupied() & s.geo.grid.full);
    if s.stage == Stage::Play {
        s.settle();
    }
    Ok(s)
}

/// Why `text` is not a legal move in `s`, from the rules (see
/// [`crate::api::Research::illegal_reason`]): a move of the wrong stage
/// (S5, S7), a pass or a stack while a custodial move exists (S8, S13), a
/// custodial move after Phase C (S13), a target that is not an opponent
/// singleton (S9, Q2), a pair that is not two squares around a midpoint
/// (S9), a pair square that is not empty (Q11), a target off the pair's
/// line (S9), the supply (S21), a stack on anything but an opponent
/// singleton (S15) and a pass with a stack on (S18, S19). `None` where the
/// move is legal.
pub(super) fn illegal_reason(s: &SlingshotState, text: &str) -> Option<String> {
    let (mv, _) = match crate::api::move_to_explain(s, text) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let why = match (s.stage, mv) {
        (Stage::Setup, SlingshotMove::Setup(a, b)) => [a, b]
            .into_iter()
            .find(|&x| s.neutral >> x & 1 == 1)
            .map(|x| {
                format!(
                    "{} is a neutral corner, where no stone goes (corners=neutral, S4)",
                    s.square_text(x)
                )
            }),
        (Stage::Setup, _) => {
            Some("the setter (seat 0) first places two Teal stones, e.g. e5,a1 (S5)".into())
        }
        (Stage::Choose, _) => {
            Some("the chooser (seat 1) now picks a colour: chooser=B or chooser=T (S5)".into())
        }
        (Stage::Play, SlingshotMove::Setup(..) | SlingshotMove::Choose(_)) => {
            Some("the set-up and the choice are made; Black and Teal now alternate (S5, S7)".into())
        }
        (Stage::Play, _) if !s.phase_s => phase_c_reason(s, mv),
        (Stage::Play, _) => phase_s_reason(s, mv),
    };
    why.or_else(|| crate::api::generic_illegal_reason(s, text))
}

/// What the piece on `x` is to the side to move, when it is not an
/// opponent singleton: `None` for an opponent singleton.
fn not_opponent_singleton(s: &SlingshotState, x: u8, what: &str) -> Option<String> {
    let me = s.to_move;
    let bit = 1u128 << x;
    let name = s.square_text(x);
    if s.singletons(me) & bit != 0 {
        Some(format!("the piece on {name} is {me:?}'s own, and {what}"))
    } else if s.stacks & bit != 0 {
        Some(format!("{name} is a stack, and {what}"))
    } else if s.neutral & bit != 0 {
        Some(format!("{name} is a neutral corner, and {what}"))
    } else if s.singletons(me.other()) & bit == 0 {
        Some(format!("no piece on {name}, and {what}"))
    } else {
        None
    }
}

/// Why `mv` is illegal in Phase C (`None` if no rule is found broken).
fn phase_c_reason(s: &SlingshotState, mv: SlingshotMove) -> Option<String> {
    let me = s.to_move;
    match mv {
        SlingshotMove::Pass | SlingshotMove::Stack(_) => Some(format!(
            "{me:?} has a custodial move, and one must be made (S8); stacking begins only \
             when the player to move has none (S13)"
        )),
        SlingshotMove::Custodial { a, b, t } => {
            if s.hand(me) < 3 {
                return Some(format!(
                    "{me:?} has {} pieces in hand, and a custodial move places 3 (S21)",
                    s.hand(me)
                ));
            }
            if let Some(why) =
                not_opponent_singleton(s, t, "the target is an opponent singleton (S9, Q2)")
            {
                return Some(why);
            }
            let n = s.geo.n as i32;
            let (ra, ca, rb, cb) = (a as i32 / n, a as i32 % n, b as i32 / n, b as i32 % n);
            let (an, bn) = (s.square_text(a), s.square_text(b));
            // S9: the pair is M - p and M + p, p one of the four steps.
            let (dr, dc) = (rb - ra, cb - ca);
            if !matches!((dr, dc), (0, 2) | (2, 0) | (2, 2) | (2, -2)) {
                return Some(format!(
                    "{an} and {bn} are not two squares with exactly one between them on a row, \
                     column or diagonal (S9)"
                ));
            }
            if let Some(x) = [a, b].into_iter().find(|&x| s.occupied() >> x & 1 == 1) {
                return Some(format!(
                    "{} is not empty, and both custodial squares must be (S9, Q11)",
                    s.square_text(x)
                ));
            }
            let (rm, cm) = ((ra + rb) / 2, (ca + cb) / 2);
            let (rt, ct) = (t as i32 / n, t as i32 % n);
            // The target line runs through M perpendicular to the pair.
            let on_line = match (dr, dc) {
                (0, _) => ct == cm,
                (_, 0) => rt == rm,
                (_, 2) => rt - rm == cm - ct,
                _ => rt - rm == ct - cm,
            };
            if !on_line {
                return Some(format!(
                    "{} is not on the line through {} perpendicular to {an}-{bn} (S9)",
                    s.square_text(t),
                    s.square_text((rm * n + cm) as u8)
                ));
            }
            None
        }
        _ => None,
    }
}

/// Why `mv` is illegal in Phase S (`None` if no rule is found broken).
fn phase_s_reason(s: &SlingshotState, mv: SlingshotMove) -> Option<String> {
    let me = s.to_move;
    match mv {
        SlingshotMove::Custodial { .. } => Some(
            "custodial play has ended for both players (S13): stack on an opponent singleton, \
             e.g. *e1 (S15)"
                .into(),
        ),
        SlingshotMove::Pass => Some(format!(
            "{me:?} can stack, and stacking is compulsory: a pass only without a stacking move \
             (S18, S19)"
        )),
        SlingshotMove::Stack(t) => {
            if let Some(why) =
                not_opponent_singleton(s, t, "a stack goes on an opponent singleton (S15)")
            {
                return Some(why);
            }
            (s.hand(me) == 0).then(|| format!("{me:?} has no piece in hand (S21)"))
        }
        _ => None,
    }
}
