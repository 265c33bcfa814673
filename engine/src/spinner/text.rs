//! Spinner text: star lists in game strings, the board diagram and the position text.

use std::fmt;

use super::state::{Outcome, Phase};
use super::{NONE, SEAT_LETTERS, SpinnerGame, SpinnerState};
use crate::api::State;
use crate::board::text::{MAX_PLY, parse_ply};
use crate::board::{Bits, parse_square, square_name};
use crate::error::GameError;
use crate::spec::Spec;

/// Joins `stars="c3`, `f3`, …, `f6"` (a quoted list split by the spec
/// parser) back into one argument `stars=[c3,f3,…,f6]`.
pub(crate) fn join_quoted_stars(spec: &Spec) -> Result<Spec, GameError> {
    let mut args: Vec<(String, String)> = Vec::new();
    let mut open = false;
    for (k, v) in &spec.args {
        if open {
            if !k.is_empty() {
                crate::bail!("game spinner: stars=\"...\" has no closing quote");
            }
            let last = &mut args.last_mut().expect("an open stars argument").1;
            last.push(',');
            last.push_str(v.trim_end_matches('"'));
            if v.ends_with('"') {
                last.push(']');
                open = false;
            }
            continue;
        }
        if k == "stars" && v.starts_with('"') {
            let inner = &v[1..];
            if inner.ends_with('"') {
                args.push((k.clone(), format!("[{}]", inner.trim_end_matches('"'))));
            } else {
                args.push((k.clone(), format!("[{inner}")));
                open = true;
            }
            continue;
        }
        args.push((k.clone(), v.clone()));
    }
    if open {
        crate::bail!("game spinner: stars=\"...\" has no closing quote");
    }
    Ok(Spec {
        name: spec.name.clone(),
        args,
    })
}

/// Parses `none`, `[]`, `c3`, or `[c3,f3,...]` on an n × n board.
pub(crate) fn parse_stars(text: &str, n: u32) -> Result<u128, GameError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("none") {
        return Ok(0);
    }
    let inner = t
        .strip_prefix('[')
        .and_then(|x| x.strip_suffix(']'))
        .unwrap_or(t);
    let mut stars = 0u128;
    for part in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let sq = parse_square(part, n as usize, n as usize).map_err(|e| {
            GameError::new(format!(
                "game spinner: stars={text:?}: star {part:?} is not on the {n}x{n} board ({e})"
            ))
        })?;
        if stars >> sq & 1 == 1 {
            crate::bail!("game spinner: stars={text:?}: star {part} is given twice");
        }
        stars |= 1u128 << sq;
    }
    Ok(stars)
}

pub(crate) fn stars_text(stars: u128, n: u32) -> String {
    let names: Vec<String> = stars
        .iter()
        .map(|sq| square_name(sq as usize, n as usize))
        .collect();
    format!("[{}]", names.join(","))
}

impl fmt::Display for SpinnerState {
    /// The board for people, rank n at the top: `X` player 1, `O` player 2,
    /// `*` star, `.` empty; then the status.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.geo.n;
        for r in (0..n).rev() {
            write!(f, "{:>2} ", r + 1)?;
            for c in 0..n {
                write!(f, " {}", self.cell(r * n + c).unwrap_or('.'))?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for c in 0..n {
            write!(f, " {}", (b'a' + c as u8) as char)?;
        }
        writeln!(f)?;
        let me = SEAT_LETTERS[self.to_move as usize];
        match (self.outcome, self.phase) {
            (Outcome::Win(w), _) => write!(f, "{} wins", SEAT_LETTERS[w as usize]),
            (Outcome::Draw, _) => write!(f, "draw: the board is full (K10)"),
            (_, Phase::Spin) => write!(f, "{me} to spin"),
            (_, Phase::Switch) => write!(f, "{me} must switch"),
            (_, Phase::Place { left, .. }) => write!(f, "{me} to place {left}"),
            (_, Phase::Over) => Ok(()),
        }
    }
}

/// Parses the position text of [`State::to_text`] (the ply may be left
/// out). The stars must be the game's; a placement phase must have room
/// for the placements due above its last square (B.5); a switch needs a
/// piece of each player (K6); before the end nobody may have a path, and
/// `over` needs a winner (K9) or a full board (K10).
pub(crate) fn parse_position(game: &SpinnerGame, text: &str) -> Result<SpinnerState, GameError> {
    let n = game.rules.size;
    let bad = |what: String| GameError::new(format!("bad spinner position {text:?}: {what}"));
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 3 || fields.len() > 4 {
        return Err(bad(
            "expected 3 or 4 fields: <rows> <X|O to move> <spin|place<k>[><sq>]|switch|over> [<ply>]"
                .into(),
        ));
    }
    let mut s = game.start();
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != n as usize {
        return Err(bad(format!("{} rows, expected {n}", rows.len())));
    }
    let mut stars = 0u128;
    for (i, row) in rows.iter().enumerate() {
        let r = n - 1 - i as u32;
        let mut c = 0u32;
        let mut run = 0u32;
        let bytes = row.as_bytes();
        for (j, &ch) in bytes.iter().enumerate() {
            if ch.is_ascii_digit() {
                run = run.saturating_mul(10).saturating_add((ch - b'0') as u32);
                if j + 1 < bytes.len() && bytes[j + 1].is_ascii_digit() {
                    continue;
                }
                if run == 0 {
                    return Err(bad(format!("rank {}: an empty run of 0", r + 1)));
                }
                c = c.saturating_add(run);
                run = 0;
                continue;
            }
            if c >= n {
                return Err(bad(format!("rank {} is longer than {n} squares", r + 1)));
            }
            let bit = 1u128 << (r * n + c);
            match ch {
                b'X' => s.pieces[0] |= bit,
                b'O' => s.pieces[1] |= bit,
                b'*' => stars |= bit,
                _ => {
                    return Err(bad(format!(
                        "unknown square letter {:?} (expected X, O, * or a digit)",
                        ch as char
                    )));
                }
            }
            c += 1;
        }
        if c != n {
            return Err(bad(format!("rank {} has {c} squares, expected {n}", r + 1)));
        }
    }
    if stars != game.rules.stars {
        return Err(bad(format!(
            "stars on {} but the game has stars={}",
            stars_text(stars, n),
            stars_text(game.rules.stars, n)
        )));
    }
    s.to_move = match fields[1] {
        "X" => 0,
        "O" => 1,
        f => return Err(bad(format!("player to move {f:?}, expected X or O"))),
    };
    s.ply = match fields.get(3) {
        Some(p) => parse_ply(p).ok_or_else(|| {
            bad(format!(
                "ply {p:?}, expected a whole number up to {MAX_PLY}"
            ))
        })?,
        None => 0,
    };
    let p = s.to_move as usize;
    let phase_text = fields[2];
    s.phase = match phase_text {
        "spin" => Phase::Spin,
        "switch" => Phase::Switch,
        "over" => Phase::Over,
        f if f.starts_with("place") => {
            let rest = &f[5..];
            let (k, last) = match rest.split_once('>') {
                Some((k, sq)) => (k, Some(sq)),
                None => (rest, None),
            };
            let left: u8 = match k {
                "1" => 1,
                "2" => 2,
                "3" => 3,
                _ => {
                    return Err(bad(format!(
                        "phase {f:?}: placements due must be 1, 2 or 3"
                    )));
                }
            };
            let last = match last {
                None => NONE,
                Some(sq) => {
                    let sq = s.parse_sq(sq).map_err(|e| bad(e.to_string()))?;
                    if s.pieces[p] >> sq & 1 == 0 {
                        return Err(bad(format!(
                            "phase {f:?}: the last placement is not a piece of the player to move"
                        )));
                    }
                    sq
                }
            };
            Phase::Place { left, last }
        }
        f => {
            return Err(bad(format!(
                "phase {f:?}, expected spin, place<k>, place<k>><square>, switch or over"
            )));
        }
    };
    let paths = [s.has_path(0), s.has_path(1)];
    match s.phase {
        Phase::Over => {
            s.outcome = if paths[p] {
                Outcome::Win(p as u8)
            } else if paths[1 - p] {
                Outcome::Win(1 - p as u8)
            } else if s.empty() == 0 {
                Outcome::Draw
            } else {
                return Err(bad(
                    "phase over, but nobody has a path and the board is not full (K9, K10)".into(),
                ));
            };
        }
        _ if paths[0] || paths[1] => {
            return Err(bad(format!(
                "{} has a path, so the game is over (phase over)",
                SEAT_LETTERS[if paths[0] { 0 } else { 1 }]
            )));
        }
        _ if s.empty() == 0 => {
            return Err(bad("the board is full, so the game is over (K10)".into()));
        }
        Phase::Switch if !s.switch_possible() => {
            return Err(bad(
                "phase switch needs a piece of each player on the board (K6)".into(),
            ));
        }
        Phase::Place { left, last } => {
            // Room above the last placement for every placement due (B.5).
            let mut above = s.empty();
            if last != NONE {
                above &= !((2u128 << last) - 1);
            }
            if above.count() < left as u32 {
                return Err(bad(format!(
                    "phase {phase_text}: fewer empty squares above the last placement than placements due (B.5)"
                )));
            }
        }
        _ => {}
    }
    s.hash = s.zobrist_from_scratch();
    Ok(s)
}

/// Why `text` is not a legal move in `s`, from the rules (see
/// [`crate::api::Research::illegal_reason`]): S spun while a player has no
/// piece (K6); a placement on a star (K2) or a taken square (K7), out of
/// the turn's square order or leaving no room for the placements still due
/// (B.5); the wrong action for the spin (K7, K8); a switch not of one own
/// piece and one of the opponent's, or touching a star (K8). Other spins
/// get [`crate::api::generic_illegal_reason`]'s list of outcomes. `None`
/// where the move is legal.
pub(super) fn illegal_reason(s: &SpinnerState, text: &str) -> Option<String> {
    use super::SpinnerMove::{Place, Spin, SpinS, Switch};
    let mv = match s.parse_move(text) {
        Ok(mv) => mv,
        Err(e) => return Some(e.to_string()),
    };
    match s.phase {
        Phase::Over => return Some("the game is already over".into()),
        Phase::Spin if mv == SpinS && !s.switch_possible() => {
            return Some(
                "S is spun again while a player has no piece on the board, so the spin is 1, 2 or 3 (K6)"
                    .into(),
            );
        }
        Phase::Spin => return crate::api::generic_illegal_reason(s, text),
        _ => {}
    }
    let mut legal = Vec::new();
    s.legal_moves(&mut legal);
    if legal.contains(&mv) {
        return None;
    }
    let me = SEAT_LETTERS[s.to_move as usize];
    let you = SEAT_LETTERS[1 - s.to_move as usize];
    let stars = s.rules.stars;
    Some(match (s.phase, mv) {
        (Phase::Place { left, .. }, Spin(_) | SpinS) => {
            format!("{me} has spun, and places {left} more piece(s) this turn (K7)")
        }
        (Phase::Place { .. }, Switch { .. }) => {
            format!("{me} spun a number and places pieces; only S switches (K7, K8)")
        }
        (Phase::Switch, Spin(_) | SpinS) => format!("{me} has spun S, and switches now (K8)"),
        (Phase::Switch, Place(_)) => format!(
            "{me} spun S, so {me} switches one own piece with one of {you}'s, e.g. e5<>h8 (K8)"
        ),
        (Phase::Place { left, last }, Place(sq)) => {
            let name = s.sq_name(sq);
            match s.cell(sq as u32) {
                Some('*') => format!("{name} is a star, where nobody places (K2)"),
                Some(c) => {
                    format!("{name} is taken by {c}, and a piece goes on an empty square (K7)")
                }
                // Empty, so before the last placement or too near the end.
                None if last != NONE && sq < last => format!(
                    "the placements of a turn go in increasing square order (a1, b1, ..., a2, ...; B.5), and {} was placed before {name}",
                    s.sq_name(last)
                ),
                None => format!(
                    "with {left} placements due, {name} leaves {} empty square(s) after it for the {} still to come (placements go in increasing square order, B.5)",
                    (s.empty() >> sq >> 1).count(),
                    left - 1
                ),
            }
        }
        (Phase::Switch, Switch { own, other }) => {
            // The parser puts a mover's piece first when there is one.
            if let Some(q) = [own, other].into_iter().find(|&q| stars >> q & 1 == 1) {
                format!(
                    "{} is a star, and stars are never switched (K8)",
                    s.sq_name(q)
                )
            } else if let Some(q) = [own, other]
                .into_iter()
                .find(|&q| s.cell(q as u32).is_none())
            {
                format!("no piece on {}", s.sq_name(q))
            } else {
                let who = if s.pieces[s.to_move as usize] >> own & 1 == 1 {
                    me
                } else {
                    you
                };
                format!(
                    "{} and {} are both {who}'s, and a switch takes one piece of each player (K8)",
                    s.sq_name(own),
                    s.sq_name(other)
                )
            }
        }
        _ => "not one of the legal moves".into(),
    })
}
