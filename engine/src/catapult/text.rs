//! Catapult text: the position text (ours; the dossier defines none), the
//! move notation of §1.13, and the board for people.
//!
//! Position text: `<rows> <to-move> <dagger> [<ply>]`
//! * rows from rank n down to rank 1, separated by `/`; a digit is a run of
//!   empty squares (`.` is one empty square); `L` Light stone, `D` Dark
//!   stone, `K` Light king, `k` Dark king (Royal only);
//! * to-move `L` or `D`;
//! * dagger: the holder `L` or `D` with the Dagger, `-` without it;
//! * ply: plies played (default 0).
//!
//! The 8×8 start: `2D1D1D1/3D1D1D/L3D1D1/1L3D1D/L1L3D1/1L1L3D/L1L1L3/1L1L1L2 L - 0`.

use crate::board::text::{MAX_PLY, parse_ply};
use std::fmt;

use super::state::{CatapultState, Outcome};
use super::{CatapultBits, CatapultMove, Geometry, Rules, Side, Step};
use crate::api::State;
use crate::board::{parse_square, push_square_name, square_name};
use crate::error::GameError;

/// The letter of the piece on `sq`, if any.
fn piece_letter<B: CatapultBits>(s: &CatapultState<B>, sq: u32) -> Option<char> {
    let king = s.kings.has(sq);
    if s.pieces[0].has(sq) {
        Some(if king { 'K' } else { 'L' })
    } else if s.pieces[1].has(sq) {
        Some(if king { 'k' } else { 'D' })
    } else {
        None
    }
}

/// The position text (see the module docs).
pub(super) fn position_text<B: CatapultBits>(s: &CatapultState<B>) -> String {
    let n = s.geo.n;
    let rows = crate::board::text::write_rows(n, n, |i, c| piece_letter(s, (n - 1 - i) * n + c));
    format!(
        "{} {} {} {}",
        rows,
        s.side.letter(),
        s.dagger.map_or('-', Side::letter),
        s.ply
    )
}

/// Parses the position text (see the module docs). A position whose side
/// to move has lost (no piece, or no king in Royal) is the finished game;
/// one at or past the ply cap is capped (C-R2).
///
/// # Errors
/// A wrong number of fields, rows or squares for the board size, unknown
/// piece letters, kings without `royal=true` or two kings of one side, a
/// dagger holder without `dagger=true` (or none with it), and positions the
/// game cannot reach: the side not to move without pieces (or king).
pub(super) fn parse_position<B: CatapultBits>(
    rules: Rules,
    geo: &'static Geometry<B>,
    text: &str,
) -> Result<CatapultState<B>, GameError> {
    let n = geo.n;
    let bad = |what: String| GameError::new(format!("bad catapult position {text:?}: {what}"));
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 3 || fields.len() > 4 {
        return Err(bad(
            "expected 3 or 4 fields: <rows> <to-move L|D> <dagger -|L|D> [<ply>]".into(),
        ));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != n as usize {
        return Err(bad(format!(
            "{} rows, expected {n} for size={n}",
            rows.len()
        )));
    }
    let mut s = CatapultState::empty(rules, geo);
    for (i, row) in rows.iter().enumerate() {
        let r = n - 1 - i as u32;
        let mut c = 0u32;
        let mut chars = row.chars().peekable();
        while let Some(ch) = chars.next() {
            if ch.is_ascii_digit() {
                let mut digits = String::from(ch);
                while let Some(&d) = chars.peek().filter(|c| c.is_ascii_digit()) {
                    digits.push(d);
                    chars.next();
                }
                let run: u32 = match digits.parse() {
                    Ok(k) if k >= 1 && !digits.starts_with('0') => k,
                    _ => {
                        return Err(bad(format!(
                            "rank {}: bad run {digits:?} of empty squares (expected 1-{n})",
                            r + 1
                        )));
                    }
                };
                c = c.saturating_add(run);
                continue;
            }
            if c >= n {
                return Err(bad(format!(
                    "rank {} has more than {n} squares, expected {n} for size={n}",
                    r + 1
                )));
            }
            let bit = B::bit(r * n + c);
            match ch {
                'L' => s.pieces[0] |= bit,
                'D' => s.pieces[1] |= bit,
                'K' | 'k' => {
                    if !rules.royal {
                        return Err(bad(format!(
                            "king {ch:?} on {}: kings need royal=true",
                            square_name((r * n + c) as usize, n as usize)
                        )));
                    }
                    s.pieces[(ch == 'k') as usize] |= bit;
                    s.kings |= bit;
                }
                '.' => {}
                _ => {
                    return Err(bad(format!(
                        "unknown piece letter {ch:?} (expected L, D, K, k, . or a digit)"
                    )));
                }
            }
            c += 1;
        }
        if c != n {
            return Err(bad(format!(
                "rank {} has {c} squares, expected {n} for size={n}",
                r + 1
            )));
        }
    }
    if rules.royal {
        for side in [Side::Light, Side::Dark] {
            if (s.kings & s.pieces[side.index()]).count() > 1 {
                return Err(bad(format!(
                    "two {} kings: Royal has one king per side",
                    side.name()
                )));
            }
        }
    }
    s.side = match fields[1] {
        "L" => Side::Light,
        "D" => Side::Dark,
        f => return Err(bad(format!("side to move {f:?}, expected L or D"))),
    };
    s.dagger = match (fields[2], rules.dagger) {
        ("-", false) => None,
        ("L", true) => Some(Side::Light),
        ("D", true) => Some(Side::Dark),
        ("L" | "D", false) => {
            return Err(bad(format!(
                "dagger holder {:?} in a game without the dagger (expected -; the Dagger needs dagger=true)",
                fields[2]
            )));
        }
        ("-", true) => {
            return Err(bad("no dagger holder, but dagger=true needs L or D".into()));
        }
        (f, _) => {
            return Err(bad(format!(
                "dagger field {f:?}, expected {}",
                if rules.dagger { "L or D" } else { "-" }
            )));
        }
    };
    s.ply = match fields.get(3) {
        Some(p) => parse_ply(p).ok_or_else(|| {
            bad(format!(
                "ply {p:?}, expected a whole number up to {MAX_PLY}"
            ))
        })?,
        None => 0,
    };
    // The side that just moved must still be in the game (C-E1, C-K4).
    let waiting = s.side.other();
    let alive = |side: Side| {
        let own = s.pieces[side.index()];
        if rules.royal {
            !(own & s.kings).is_zero()
        } else {
            !own.is_zero()
        }
    };
    if !alive(waiting) {
        return Err(bad(format!(
            "{} (not to move) has no {}: the game ended before its last move",
            waiting.name(),
            if rules.royal { "king" } else { "pieces" }
        )));
    }
    s.hash = s.zobrist_from_scratch();
    s.settle();
    Ok(s)
}

fn push_step(n: u32, s: Step, out: &mut String) {
    push_square_name(s.from() as usize, n as usize, out);
    out.push(if s.is_capture() { 'x' } else { '-' });
    push_square_name(s.to() as usize, n as usize, out);
}

/// A move in §1.13 notation.
pub(super) fn move_text(n: u32, mv: CatapultMove) -> String {
    let mut s = String::with_capacity(12);
    push_move_text(n, mv, &mut s);
    s
}

/// [`move_text`], appended to `out`.
pub(super) fn push_move_text(n: u32, mv: CatapultMove, out: &mut String) {
    match mv {
        CatapultMove::Move(s) => push_step(n, s, out),
        CatapultMove::Double(a, b) => {
            push_step(n, a, out);
            out.push(';');
            push_step(n, b, out);
        }
        CatapultMove::MoveThenPass(a) => {
            push_step(n, a, out);
            out.push_str(";pass");
        }
        CatapultMove::Pass => out.push_str("pass"),
    }
}

const EXPECTED: &str = "expected `c3-d4`, `c3xf6`, `pass`, or a dagger turn `m1;m2` or `m1;pass`";

fn parse_step<B: CatapultBits>(
    geo: &Geometry<B>,
    whole: &str,
    text: &str,
) -> Result<Step, GameError> {
    let t = text.trim();
    let bad = |what: String| GameError::new(format!("bad move {whole:?}: {what}"));
    let Some((i, sep)) = t
        .char_indices()
        .find(|&(_, c)| c == '-' || c == 'x' || c == '×')
    else {
        return Err(bad(EXPECTED.into()));
    };
    let (a, b) = (&t[..i], &t[i + sep.len_utf8()..]);
    let n = geo.n as usize;
    let from = parse_square(a, n, n).map_err(|e| bad(e.0))?;
    let to = parse_square(b, n, n).map_err(|e| bad(e.0))?;
    let Some((dir, _)) = geo.rays.path(from as u32, to as u32) else {
        return Err(bad(format!(
            "{a} and {b} are not two squares on one rank, file or diagonal"
        )));
    };
    Ok(Step::new(from as u32, to as u32, dir.index(), sep != '-'))
}

/// Parses a move in §1.13 notation. Checks the syntax and the squares (two
/// different squares on one line); legality is checked against the legal
/// moves, where the `-`/`x` must match the move.
///
/// # Errors
/// Malformed text; the message says what was expected.
pub(super) fn parse_move<B: CatapultBits>(
    geo: &Geometry<B>,
    text: &str,
) -> Result<CatapultMove, GameError> {
    let t = text.trim();
    if t == "pass" {
        return Ok(CatapultMove::Pass);
    }
    match t.split_once(';') {
        None => Ok(CatapultMove::Move(parse_step(geo, text, t)?)),
        Some((a, b)) => {
            if a.trim() == "pass" {
                crate::bail!(
                    "bad move {text:?}: a pass ends the turn; a dagger turn is `m1;m2` or `m1;pass`"
                );
            }
            if b.contains(';') {
                crate::bail!("bad move {text:?}: a dagger turn has at most two parts");
            }
            let m1 = parse_step(geo, text, a)?;
            if b.trim() == "pass" {
                Ok(CatapultMove::MoveThenPass(m1))
            } else {
                Ok(CatapultMove::Double(m1, parse_step(geo, text, b)?))
            }
        }
    }
}

impl<B: CatapultBits> fmt::Display for CatapultState<B> {
    /// The board for people, rank n at the top as in the dossier's diagrams:
    /// `L`/`D` stones, `K`/`k` kings, `.` empty; then the status.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.geo.n;
        for r in (0..n).rev() {
            write!(f, "{:>2} ", r + 1)?;
            for c in 0..n {
                write!(f, " {}", piece_letter(self, r * n + c).unwrap_or('.'))?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for c in 0..n {
            write!(f, " {}", (b'a' + c as u8) as char)?;
        }
        writeln!(f)?;
        let dagger = match self.dagger {
            Some(h) => format!(", dagger held by {}", h.name()),
            None => String::new(),
        };
        match self.outcome {
            Outcome::Win(w) => write!(f, "{} (seat {}) wins", w.name(), w.index()),
            Outcome::Capped => write!(f, "draw at the safety cap of {} plies", self.rules.ply_cap),
            Outcome::Ongoing => write!(
                f,
                "{} (seat {}) to move{dagger}, ply {}",
                self.side.name(),
                self.side.index(),
                self.ply
            ),
        }
    }
}

/// Why `text` is not a legal move in `s`, from the rules (see
/// [`crate::api::Research::illegal_reason`]): an empty or enemy square
/// (C-T2), a plain move that is not forward (C-M1), beyond the piece's
/// range (C-R-def), through a friend (C-M3), a plain move onto or through
/// an enemy or a capture with no enemy on its path (C-M2), a pass with a
/// move on (C-P1), and the Dagger's rules (C-D2, C-D4, C-D5, C-D6). `None`
/// where the move is legal.
pub(super) fn illegal_reason<B: CatapultBits>(s: &CatapultState<B>, text: &str) -> Option<String> {
    let (mv, legal) = match crate::api::move_to_explain(s, text) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let side = s.side;
    let no_move = legal == [CatapultMove::Pass];
    match mv {
        CatapultMove::Pass => Some(format!(
            "{} has a move, and a pass is allowed only with none (C-P1)",
            side.name()
        )),
        _ if no_move => Some(format!(
            "{} has no legal move and must pass (C-P1, C-D6)",
            side.name()
        )),
        CatapultMove::Move(a) => step_reason(s, a),
        CatapultMove::Double(a, _) | CatapultMove::MoveThenPass(a) => {
            if !s.rules.dagger {
                return Some("a double turn needs the Dagger (`dagger=true`, C-D2)".into());
            }
            if s.dagger != Some(side) {
                return Some(format!(
                    "only the Dagger's holder plays a double turn, and {} holds it (C-D2)",
                    side.other().name()
                ));
            }
            if let Some(why) = step_reason(s, a) {
                return Some(format!("first move: {why}"));
            }
            let mut after = *s;
            if after.apply_step(a) {
                return Some(format!(
                    "{} wins at once, so there is no second move (C-D4)",
                    move_text(s.geo.n, CatapultMove::Move(a))
                ));
            }
            let CatapultMove::Double(_, b) = mv else {
                return Some(if s.rules.dagger_move_then_pass {
                    "`m1;pass` is only for a first move that leaves no second (C-D5)".into()
                } else {
                    "`m1;pass` is not allowed (`dagger_move_then_pass=false`, C-D5)".into()
                });
            };
            // The second move is by the same side, legality recomputed (C-D2).
            step_reason(&after, b).map(|why| format!("second move: {why}"))
        }
    }
    .or_else(|| Some("not one of the legal moves".into()))
}

/// Why the single move `a` of the side to move in `s` is illegal, or `None`
/// if it is a legal move of one piece.
fn step_reason<B: CatapultBits>(s: &CatapultState<B>, a: Step) -> Option<String> {
    let n = s.geo.n as usize;
    let (from, to) = (a.from(), a.to());
    let (fname, tname) = (square_name(from as usize, n), square_name(to as usize, n));
    let side = s.side;
    let (own, enemy) = (s.pieces[side.index()], s.pieces[side.other().index()]);
    if enemy.has(from) {
        return Some(format!(
            "the piece on {fname} is {}'s, and {} is to move",
            side.other().name(),
            side.name()
        ));
    }
    if !own.has(from) {
        return Some(format!("no piece on {fname}"));
    }
    let (dir, path) = s.geo.rays.path(from, to)?;
    let dist = path.count();
    let range = s.range_at(from).unwrap_or(1);
    if dist > range {
        return Some(format!(
            "the piece on {fname} has range {range} (2 to the number of its forward \
             neighbours that are friends or off the board, C-R-def), and {tname} is {dist} away"
        ));
    }
    if let Some(friend) = s.geo.rays.nearest(dir, from, own & path) {
        return Some(format!(
            "{} is blocked by its own piece on {} (C-M3)",
            fname,
            square_name(friend as usize, n)
        ));
    }
    let hits = enemy & path;
    if a.is_capture() && hits.is_zero() {
        return Some(format!(
            "a capture needs an enemy on its path, and there is none from {fname} to {tname} \
             (C-M2): write {fname}-{tname} for a plain move"
        ));
    }
    if !a.is_capture() {
        if !side.forward().contains(&dir) {
            let f = side.forward().map(|d| format!("{d:?}")).join(", ");
            return Some(format!(
                "a move without capture goes forward only, {f} for {} (C-M1)",
                side.name()
            ));
        }
        if !hits.is_zero() {
            return Some(format!(
                "an enemy is on the path, so this is a capture (C-M2): write {fname}x{tname}"
            ));
        }
    }
    None
}
