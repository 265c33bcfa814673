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
