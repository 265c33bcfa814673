//! Position text (read and written) for Gateway.
//!
//! `<board> <seat to move> <ply>`:
//! * board: rows 1 to 12 (top first) separated by `/`, each space `.` or a
//!   shape letter (`C` cylinder, `T` triangle, `S` square) followed by the
//!   owning seat, 1-based (§8.1 draws `C1`, `S3`);
//! * seat to move, 1-based (at the end: the last mover);
//! * the ply count (may be left out: 0).
//!
//! The reserves follow from the board (3 triangles and 5 squares minus
//! those entered), and so does a win (G-5); the ply cap gives a draw.

use super::state::{GatewayState, Outcome};
use super::{GatewayGame, OWNED, SHAPE_LETTERS};
use crate::api::{MAX_SEATS, State};
use crate::board::sly;
use crate::board::text::{MAX_PLY, parse_ply};
use crate::error::GameError;

/// The position text of `s`.
pub(crate) fn to_text(s: &GatewayState) -> String {
    format!(
        "{} {} {}",
        sly::write_cells(|sq| s.cell(sq)),
        s.to_move + 1,
        s.ply
    )
}

/// Parses the text of [`to_text`], checking each seat's pieces: exactly one
/// cylinder, one to four triangles and one to six squares (G-SET-1: one of
/// each on the board at the start, pieces never leave it), no cylinder on a
/// gateway (only entered pieces stand there, G-1, G-4), at most one side
/// finished (G-5).
pub(crate) fn parse_position(game: &GatewayGame, text: &str) -> Result<GatewayState, GameError> {
    let rules = game.rules();
    let n = rules.players as usize;
    let bad = |what: String| GameError::new(format!("bad gateway position {text:?}: {what}"));
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(2..=3).contains(&fields.len()) {
        return Err(bad(
            "expected 2 or 3 fields: <12 rows separated by /> <seat to move 1-n> [<ply>]".into(),
        ));
    }
    let cells = sly::parse_cells(fields[0], SHAPE_LETTERS, n).map_err(|e| bad(e.0))?;
    let mut s = GatewayState::empty(rules);
    let mut counts = [[0u32; 3]; MAX_SEATS];
    for (sq, cell) in cells.iter().enumerate() {
        if let Some((shape, seat)) = *cell {
            if shape == 0 && sly::is_centre(sq as u32) {
                return Err(bad(format!(
                    "seat {}'s cylinder stands on the gateway {}: only entered triangles and squares stand on gateways (G-1, G-4)",
                    seat + 1,
                    sly::square_name(sq as u32)
                )));
            }
            counts[seat as usize][shape as usize] += 1;
        }
    }
    for (seat, c) in counts.iter().enumerate().take(n) {
        if c[0] != 1 || !(1..=OWNED[1]).contains(&c[1]) || !(1..=OWNED[2]).contains(&c[2]) {
            return Err(bad(format!(
                "seat {} has {} cylinders, {} triangles, {} squares on the board; expected 1, 1-4, 1-6 (G-SET-1)",
                seat + 1,
                c[0],
                c[1],
                c[2]
            )));
        }
    }
    let mut on_gates = [0u32; MAX_SEATS];
    for (sq, cell) in cells.iter().enumerate() {
        if let Some((shape, seat)) = *cell {
            s.put(sq as u32, seat as usize, shape);
            on_gates[seat as usize] += sly::is_centre(sq as u32) as u32;
        }
    }
    for (seat, c) in counts.iter().enumerate().take(n) {
        if on_gates[seat] > c[1] + c[2] - 2 {
            return Err(bad(format!(
                "seat {} has {} pieces on gateways but entered only {}: only entered pieces stand on gateways (G-1, G-4)",
                seat + 1,
                on_gates[seat],
                c[1] + c[2] - 2
            )));
        }
    }
    let seat_text = fields[1];
    let to_move = seat_text
        .parse::<usize>()
        .ok()
        .filter(|k| (1..=n).contains(k))
        .ok_or_else(|| bad(format!("seat to move {seat_text:?}, expected 1-{n}")))?
        - 1;
    s.to_move = to_move as u8;
    s.ply = match fields.get(2) {
        Some(p) => parse_ply(p).ok_or_else(|| {
            bad(format!(
                "ply {p:?}, expected a whole number up to {MAX_PLY}"
            ))
        })?,
        None => 0,
    };
    s.outcome = s.outcome_from_pieces().map_err(bad)?;
    if let Outcome::Win(m) = s.outcome
        && m & s.side_mask(to_move) == 0
    {
        return Err(bad(format!(
            "seat {} is the last mover but another side has won",
            to_move + 1
        )));
    }
    s.hash = s.zobrist_from_scratch();
    Ok(s)
}

/// A seat as players read it: `seat 1 (P1)`, 1-based as in the position
/// text, with its set-up position (G-SET-2).
fn seat_name(s: &GatewayState, seat: usize) -> String {
    format!("seat {} (P{})", seat + 1, s.rules.colours[seat] + 1)
}

/// The shape names of [`SHAPE_LETTERS`].
const SHAPE_NAMES: [&str; 3] = ["cylinder", "triangle", "square"];

/// Why `text` is not a legal move in `s`, from the rules (see
/// [`crate::api::Research::illegal_reason`]): no piece or another seat's
/// piece on the from space, a taken destination (G-1), a piece held back
/// by a forced leave (G-2), an entry not earned (G-3), on a taken gateway
/// or from an empty reserve (G-4), an earned entry left out (G-4, ruling
/// QG4), a pass with a move on or a move with none (G-6, ruling QG5).
/// `None` where the move is legal.
pub(crate) fn illegal_reason(s: &GatewayState, text: &str) -> Option<String> {
    use super::state::GatewayMove;
    use crate::board::Bits;
    let (mv, legal) = match crate::api::move_to_explain(s, text) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let seat = s.to_move as usize;
    let me = seat_name(s, seat);
    let name = sly::square_name;
    let GatewayMove::Move { from, to, entry } = mv else {
        return Some(format!(
            "{me} has a move, and a pass is allowed only with none (G-6)"
        ));
    };
    if legal == [GatewayMove::Pass] {
        // `movers` is empty only when forced pieces cannot move under
        // `stuck=pass` (every seat keeps its three starting pieces).
        return Some(if s.movers().is_zero() {
            format!(
                "{me}'s pieces on gateways must leave and none of them can move, so {me} passes (G-2, stuck=pass, QG5)"
            )
        } else {
            format!("{me} has no legal move and must pass (G-6)")
        });
    }
    let (from, to) = (from as u32, to as u32);
    let Some((owner, shape)) = s.piece(from) else {
        return Some(format!("no piece on {}", name(from)));
    };
    if owner != seat {
        return Some(format!(
            "the piece on {} is {}'s, and {me} is to move",
            name(from),
            seat_name(s, owner)
        ));
    }
    if s.piece(to).is_some() {
        return Some(format!(
            "{} is taken, and a piece moves to an empty space (G-1)",
            name(to)
        ));
    }
    let movers = s.movers();
    if !movers.has(from) {
        let list: Vec<String> = movers.iter().map(name).collect();
        return Some(format!(
            "{me}'s piece(s) on {} stand on a gateway whose field holds two or more enemy pieces, and must leave first (G-2)",
            list.join(" ")
        ));
    }
    // The step itself is legal; the entry is wrong.
    let options: Vec<u8> = (0..3)
        .filter(|&e| {
            legal.contains(&GatewayMove::Move {
                from: from as u8,
                to: to as u8,
                entry: e,
            })
        })
        .collect();
    let step = format!("{}-{}", name(from), name(to));
    let gate = sly::centre_of_field(sly::field_of(to));
    Some(if entry == 0 {
        let with: Vec<String> = options
            .iter()
            .map(|&e| format!("{step}+{}", SHAPE_LETTERS.as_bytes()[e as usize] as char))
            .collect();
        format!(
            "{step} earns an entry on {}, which must be made: write {} (G-4, QG4)",
            name(gate),
            with.join(" or ")
        )
    } else if s.reserve[seat][entry as usize - 1] == 0 {
        format!(
            "{me} has no {} left in reserve (G-4)",
            SHAPE_NAMES[entry as usize]
        )
    } else if gate != from && s.board[gate as usize] != 0 {
        format!(
            "the gateway {} of {}'s field is taken, so there is no entry (G-4)",
            name(gate),
            name(to)
        )
    } else {
        let (a, b) = (
            SHAPE_NAMES[(shape as usize + 1) % 3],
            SHAPE_NAMES[(shape as usize + 2) % 3],
        );
        let how = if s.rules.blocked {
            format!(
                " as the first pieces seen from {} (G-3, line=blocked)",
                name(to)
            )
        } else {
            " (G-3)".to_string()
        };
        format!(
            "{step} earns no entry: no enemy colour has a {a} and a {b}, one in row {} and the other in column {}{how}",
            sly::row_of(to) + 1,
            (b'A' + sly::col_of(to) as u8) as char,
        )
    })
}
