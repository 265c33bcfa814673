//! Position text (read and written) for Empire.
//!
//! `<board> <seat to move> <status> <ply>`:
//! * board: rows 1 to 12 (top first) separated by `/`, each space `.` or a
//!   kind letter (`C` commander, `H` horseman, `A` archer) followed by the
//!   owning seat, 1-based (the dossier's `C1`, `A2`; §7.1);
//! * seat to move, 1-based (at the end: the last mover);
//! * status: `-` while the game goes on, `draw` at the ply cap, or the
//!   winning seats joined by `+` and the reason: `1:regicide`,
//!   `2+4:thrones`, `3:coronation`;
//! * the ply count (may be left out: 0).
//!
//! A seat that has no commander is eliminated (E-4) and must have no
//! pieces; every other seat has exactly one commander, its own.

use super::state::{EmpireState, Outcome, Reason};
use super::{EmpireGame, KIND_LETTERS};
use crate::api::{MAX_SEATS, State};
use crate::board::sly;
use crate::board::sly::seats;
use crate::board::text::{MAX_PLY, parse_ply};
use crate::error::GameError;

/// The position text of `s`.
pub(crate) fn to_text(s: &EmpireState) -> String {
    let status = match s.outcome {
        Outcome::Ongoing => "-".to_string(),
        Outcome::Draw => "draw".to_string(),
        Outcome::Win(m, r) => {
            format!("{}:{}", seats::mask_text(m), r.word())
        }
    };
    format!(
        "{} {} {status} {}",
        sly::write_cells(|sq| s.cell(sq)),
        s.to_move + 1,
        s.ply
    )
}

/// Parses the text of [`to_text`], checking the armies: per seat at most
/// one commander (its own), and at most 4 horsemen and 6 archers per army
/// it holds (its own plus one per eliminated seat it may have absorbed,
/// E-4); a seat without a commander holds nothing; a live seat to move; a
/// status that fits the pieces.
pub(crate) fn parse_position(game: &EmpireGame, text: &str) -> Result<EmpireState, GameError> {
    let rules = game.rules();
    let n = rules.players as usize;
    let bad = |what: String| GameError::new(format!("bad empire position {text:?}: {what}"));
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(3..=4).contains(&fields.len()) {
        return Err(bad(
            "expected 3 or 4 fields: <12 rows separated by /> <seat to move 1-n> <status: - or draw or winners:reason> [<ply>]"
                .into(),
        ));
    }
    let cells = sly::parse_cells(fields[0], KIND_LETTERS, n).map_err(|e| bad(e.0))?;
    let mut s = EmpireState::empty(rules);
    let mut counts = [[0u32; 3]; MAX_SEATS];
    for (sq, cell) in cells.iter().enumerate() {
        if let Some((kind, seat)) = *cell {
            s.put(sq as u32, seat as usize, kind);
            counts[seat as usize][kind as usize] += 1;
        }
    }
    // After a final regicide the losers keep their pieces (E-3(c), E-4(c),
    // E-5(c)); only a seat eliminated mid-game (E-4) holds none.
    let regicide = fields[2].ends_with(":regicide");
    let mut alive = 0u8;
    for (seat, c) in counts.iter().enumerate().take(n) {
        if c[0] > 1 {
            return Err(bad(format!(
                "seat {} has {} commanders, expected at most 1 (E-SET-1)",
                seat + 1,
                c[0]
            )));
        }
        if c[0] == 1 {
            alive |= 1 << seat;
        } else if c[1] + c[2] > 0 && !regicide {
            return Err(bad(format!(
                "seat {} has no commander but {} pieces: an eliminated seat holds none (E-4)",
                seat + 1,
                c[1] + c[2]
            )));
        }
    }
    let eliminated = n as u32 - alive.count_ones();
    let absorbing = rules.players > 2 && !rules.teams;
    let armies = |seat: usize| {
        if absorbing && (alive >> seat & 1 == 1 || regicide) {
            1 + eliminated
        } else {
            1
        }
    };
    for (seat, c) in counts.iter().enumerate().take(n) {
        if c[1] > 4 * armies(seat) || c[2] > 6 * armies(seat) {
            return Err(bad(format!(
                "seat {} has {} horsemen and {} archers, more than {} armies of 4 and 6 (E-SET-1, E-4)",
                seat + 1,
                c[1],
                c[2],
                armies(seat)
            )));
        }
    }
    let total: [u32; 3] = [0, 1, 2].map(|k| counts.iter().map(|c| c[k]).sum());
    if total[1] > 4 * n as u32 || total[2] > 6 * n as u32 {
        return Err(bad(format!(
            "{} horsemen and {} archers on the board, more than {n} armies hold (E-SET-1)",
            total[1], total[2]
        )));
    }
    s.alive = alive;
    let seat_text = fields[1];
    let to_move = seat_text
        .parse::<usize>()
        .ok()
        .filter(|k| (1..=n).contains(k))
        .ok_or_else(|| bad(format!("seat to move {seat_text:?}, expected 1-{n}")))?
        - 1;
    s.to_move = to_move as u8;
    s.ply = match fields.get(3) {
        Some(p) => parse_ply(p).ok_or_else(|| {
            bad(format!(
                "ply {p:?}, expected a whole number up to {MAX_PLY}"
            ))
        })?,
        None => 0,
    };
    s.outcome = match fields[2] {
        "-" => Outcome::Ongoing,
        "draw" => Outcome::Draw,
        w => {
            let (seats, reason) = w.split_once(':').ok_or_else(|| {
                bad(format!(
                    "status {w:?}, expected - or draw or winners:reason (e.g. 1:regicide)"
                ))
            })?;
            let reason = match reason {
                "thrones" => Reason::Thrones,
                "coronation" => Reason::Coronation,
                "regicide" => Reason::Regicide,
                r => {
                    return Err(bad(format!(
                        "reason {r:?}, expected thrones, coronation or regicide"
                    )));
                }
            };
            let mut mask = 0u8;
            for d in seats.split('+') {
                let k = d
                    .parse::<usize>()
                    .ok()
                    .filter(|k| (1..=n).contains(k))
                    .ok_or_else(|| bad(format!("winning seat {d:?}, expected 1-{n}")))?;
                mask |= 1 << (k - 1);
            }
            if mask != s.side_mask(mask.trailing_zeros() as usize) {
                return Err(bad(format!(
                    "winners {seats:?} are not one seat or one team"
                )));
            }
            Outcome::Win(mask, reason)
        }
    };
    match s.outcome {
        Outcome::Ongoing => {
            if alive >> to_move & 1 == 0 {
                return Err(bad(format!(
                    "seat {} is to move but has been eliminated",
                    to_move + 1
                )));
            }
            let all = (1u8 << n) - 1;
            if (!absorbing && alive != all) || alive.count_ones() < 2 {
                return Err(bad(
                    "a commander is missing, so the game would be over (E-3(c), E-4(c), E-5(c))"
                        .into(),
                ));
            }
            if s.thrones_held(s.side_mask(to_move)) >= s.thrones_needed()
                || (0..n)
                    .any(|k| k != to_move && s.thrones_held(s.side_mask(k)) >= s.thrones_needed())
            {
                // A side already holding its thrones would have won.
                return Err(bad(
                    "a side holds the thrones it needs, so the game would be over (E-3(a))".into(),
                ));
            }
            if s.ply >= rules.ply_cap {
                return Err(bad(format!(
                    "ply {} is at the ply cap {}, so the game would be over (E-6)",
                    s.ply, rules.ply_cap
                )));
            }
        }
        Outcome::Win(mask, Reason::Regicide)
            if (0..n).all(|k| mask >> k & 1 == 1 || alive >> k & 1 == 1) =>
        {
            return Err(bad("regicide, but no losing commander is missing".into()));
        }
        _ => {}
    }
    s.hash = s.zobrist_from_scratch();
    Ok(s)
}

/// A seat as players read it: `seat 1 (TL)`, 1-based as in the position
/// text, with its corner (E-SET-4).
fn seat_name(s: &EmpireState, seat: usize) -> String {
    format!(
        "seat {} ({})",
        seat + 1,
        sly::CORNER_NAMES[s.rules.corners[seat] as usize]
    )
}

/// Why `text` is not a legal move in `s`, from the rules (see
/// [`crate::api::Research::illegal_reason`]): no piece or another seat's
/// piece on the from space, a capture of a friendly piece or a partner's
/// (E-2, ruling QE5), a capture at the wrong distance for the piece (E-2),
/// a pass with a move on or a move with none (E-6). `None` where the move
/// is legal.
pub(crate) fn illegal_reason(s: &EmpireState, text: &str) -> Option<String> {
    use super::Kind;
    use super::state::EmpireMove;
    let (mv, legal) = match crate::api::move_to_explain(s, text) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let seat = s.to_move as usize;
    let me = seat_name(s, seat);
    let kind_name = |k: Kind| match k {
        Kind::Commander => "commander",
        Kind::Horseman => "horseman",
        Kind::Archer => "archer",
    };
    let name = sly::square_name;
    let EmpireMove::Move { from, to } = mv else {
        return Some(format!(
            "{me} has a move, and a pass is allowed only with none (E-6)"
        ));
    };
    if legal == [EmpireMove::Pass] {
        return Some(format!("{me} has no legal move and must pass (E-6)"));
    }
    let (from, to) = (from as u32, to as u32);
    let Some((owner, kind)) = s.piece(from) else {
        return Some(format!("no piece on {}", name(from)));
    };
    if owner != seat {
        return Some(format!(
            "the piece on {} is {}'s, and {me} is to move",
            name(from),
            seat_name(s, owner)
        ));
    }
    // A move onto an empty space of the row or column is always legal
    // (E-1), so `to` holds a piece (the parser wants `x` for it).
    let Some((victim, vkind)) = s.piece(to) else {
        return Some("not one of the legal moves".into());
    };
    let target = format!("the {} on {}", kind_name(vkind), name(to));
    Some(if victim == seat {
        format!("{target} is {me}'s own, and no piece lands on a friendly piece (E-2)")
    } else if !s.can_capture(seat, s.board[to as usize]) {
        if s.rules.partner_capture && vkind == Kind::Commander {
            format!(
                "{target} is {}'s, {me}'s partner, and a partner's commander is never captured (QE5)",
                seat_name(s, victim)
            )
        } else {
            format!(
                "{target} is {}'s, {me}'s partner, and partners do not capture each other (E-2, QE5)",
                seat_name(s, victim)
            )
        }
    } else {
        let d = sly::row_of(from).abs_diff(sly::row_of(to))
            + sly::col_of(from).abs_diff(sly::col_of(to));
        let at = match kind {
            Kind::Commander => "exactly 2 or 5 spaces",
            Kind::Horseman => "exactly 3 spaces",
            Kind::Archer => "exactly 4 spaces",
        };
        format!(
            "{} {} captures at {at}, and {target} is {d} away (E-2)",
            if kind == Kind::Archer { "an" } else { "a" },
            kind_name(kind)
        )
    })
}
