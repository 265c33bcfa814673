//! Royal Guard text, as every game keeps it in `text.rs`: FEN positions,
//! UCI move text and the board diagram.
//!
//! FEN fields: placement, side to move, castling rights, en-passant
//! square, half-move clock, full-move number. Four fields are accepted (the
//! clocks default to `0 1`). Positions that break chess's invariants are
//! refused with a one-line message: not exactly one king per side, pawns on
//! the first or last rank, castling rights without the king and rook on
//! their squares, an en-passant square without the pawn that just
//! double-stepped, or the side *not* to move in check (its king could be
//! taken). The en-passant square is kept only when a pawn can take there
//! (so positions equal under FIDE 9.2 print and hash the same).

use super::position::{BK, BQ, Board, NO_EP, WK, WQ};
use std::fmt;

use super::state::RoyalGuardState;
use super::{MoveKind, Piece, RoyalGuardMove, Side, square_name};
use crate::board::parse_square;
use crate::error::GameError;

fn piece_of(ch: char) -> Option<(Side, Piece)> {
    let c = if ch.is_ascii_uppercase() {
        Side::White
    } else {
        Side::Black
    };
    let p = match ch.to_ascii_lowercase() {
        'p' => Piece::Pawn,
        'n' => Piece::Knight,
        'b' => Piece::Bishop,
        'r' => Piece::Rook,
        'q' => Piece::Queen,
        'k' => Piece::King,
        _ => return None,
    };
    Some((c, p))
}

/// Parses a FEN into a board with royal powers `royal`.
pub(super) fn parse_fen(text: &str, royal: bool) -> Result<Board, GameError> {
    let f: Vec<&str> = text.split_whitespace().collect();
    if f.len() != 6 && f.len() != 4 {
        crate::bail!(
            "bad FEN {text:?}: expected 6 fields (placement, side, castling, en passant, half-move clock, full-move number) or the first 4, got {}",
            f.len()
        );
    }
    let mut b = Board::empty(royal);
    let ranks: Vec<&str> = f[0].split('/').collect();
    if ranks.len() != 8 {
        crate::bail!(
            "bad FEN placement {:?}: expected 8 ranks separated by '/', got {}",
            f[0],
            ranks.len()
        );
    }
    for (i, row) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0usize;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 || d > 8 {
                    crate::bail!("bad FEN rank {} {row:?}: digit {d} is not 1-8", rank + 1);
                }
                file += d as usize;
            } else if let Some((c, p)) = piece_of(ch) {
                if file >= 8 {
                    crate::bail!("bad FEN rank {} {row:?}: more than 8 squares", rank + 1);
                }
                b.put(c, p, rank * 8 + file);
                file += 1;
            } else {
                crate::bail!(
                    "bad FEN rank {} {row:?}: {ch:?} is not a piece letter (PNBRQK, pnbrqk) or digit",
                    rank + 1
                );
            }
            if file > 8 {
                crate::bail!("bad FEN rank {} {row:?}: more than 8 squares", rank + 1);
            }
        }
        if file != 8 {
            crate::bail!(
                "bad FEN rank {} {row:?}: {file} squares, expected 8",
                rank + 1
            );
        }
    }
    for (c, name) in [(Side::White, "white"), (Side::Black, "black")] {
        let k = b.pieces(c, Piece::King).count_ones();
        if k != 1 {
            crate::bail!("bad FEN {:?}: {k} {name} kings, expected exactly 1", f[0]);
        }
    }
    if b.by_piece[Piece::Pawn as usize] & 0xFF00_0000_0000_00FF != 0 {
        crate::bail!("bad FEN {:?}: a pawn on rank 1 or 8", f[0]);
    }
    b.side = match f[1] {
        "w" => Side::White,
        "b" => Side::Black,
        s => crate::bail!("bad FEN side to move {s:?}: expected w or b"),
    };
    if f[2] != "-" {
        for ch in f[2].chars() {
            let (bit, king, rook, name) = match ch {
                'K' => (
                    WK,
                    4,
                    7,
                    "K needs the white king on e1 and a white rook on h1",
                ),
                'Q' => (
                    WQ,
                    4,
                    0,
                    "Q needs the white king on e1 and a white rook on a1",
                ),
                'k' => (
                    BK,
                    60,
                    63,
                    "k needs the black king on e8 and a black rook on h8",
                ),
                'q' => (
                    BQ,
                    60,
                    56,
                    "q needs the black king on e8 and a black rook on a8",
                ),
                _ => crate::bail!(
                    "bad FEN castling field {:?}: expected '-' or letters from KQkq",
                    f[2]
                ),
            };
            if b.castling & bit != 0 {
                crate::bail!("bad FEN castling field {:?}: {ch} given twice", f[2]);
            }
            let c = if ch.is_ascii_uppercase() {
                Side::White
            } else {
                Side::Black
            };
            if b.pieces(c, Piece::King) & (1 << king) == 0
                || b.pieces(c, Piece::Rook) & (1 << rook) == 0
            {
                crate::bail!("bad FEN castling field {:?}: {name}", f[2]);
            }
            b.castling |= bit;
        }
    }
    if f[3] != "-" {
        let ep = parse_square(f[3], 8, 8)
            .map_err(|e| GameError::new(format!("bad FEN en-passant field: {e}")))?;
        let (want_rank, pawn_sq, behind, mover) = match b.side {
            Side::White => (5, ep.wrapping_sub(8), ep + 8, Side::Black),
            Side::Black => (2, ep + 8, ep.wrapping_sub(8), Side::White),
        };
        if ep / 8 != want_rank {
            crate::bail!(
                "bad FEN en-passant square {}: expected rank {} with {} to move",
                f[3],
                want_rank + 1,
                f[1]
            );
        }
        let occ = b.occupied();
        if b.pieces(mover, Piece::Pawn) & (1 << pawn_sq) == 0
            || occ & (1 << ep) != 0
            || occ & (1 << behind) != 0
        {
            crate::bail!(
                "bad FEN en-passant square {}: no pawn can just have double-stepped past it",
                f[3]
            );
        }
        if b.ep_capturable(ep) {
            b.ep = ep as u8;
        }
    }
    if f.len() == 6 {
        b.halfmove = f[4].parse().map_err(|_| {
            GameError::new(format!(
                "bad FEN half-move clock {:?}: expected an integer 0-65535",
                f[4]
            ))
        })?;
        b.fullmove = match f[5].parse::<u16>() {
            Ok(n) if n >= 1 => n,
            _ => crate::bail!(
                "bad FEN full-move number {:?}: expected an integer 1-65535",
                f[5]
            ),
        };
    }
    let not_to_move = b.side.other();
    if b.is_attacked(b.king_sq(not_to_move), b.side) {
        crate::bail!(
            "bad FEN {text:?}: the side not to move ({}) is in check",
            if not_to_move == Side::White {
                "white"
            } else {
                "black"
            }
        );
    }
    b.hash = b.hash_from_scratch();
    Ok(b)
}

/// The FEN of a board (six fields).
pub(super) fn to_fen(b: &Board) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut run = 0;
        for file in 0..8 {
            match b.piece_at(rank * 8 + file) {
                Some((c, p)) => {
                    if run > 0 {
                        s.push(char::from(b'0' + run));
                        run = 0;
                    }
                    let l = p.letter();
                    s.push(if c == Side::White {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    });
                }
                None => run += 1,
            }
        }
        if run > 0 {
            s.push(char::from(b'0' + run));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push_str(if b.side == Side::White { " w " } else { " b " });
    if b.castling == 0 {
        s.push('-');
    } else {
        for (bit, ch) in [(WK, 'K'), (WQ, 'Q'), (BK, 'k'), (BQ, 'q')] {
            if b.castling & bit != 0 {
                s.push(ch);
            }
        }
    }
    s.push(' ');
    if b.ep == NO_EP {
        s.push('-');
    } else {
        s += &square_name(b.ep as usize);
    }
    s += &format!(" {} {}", b.halfmove, b.fullmove);
    s
}

/// Parses UCI text (`e2e4`, `e7e8q`) against `b`: the syntax and squares
/// are checked; the kind (double step, castling, en passant) is read from
/// the board. Legality is not checked here.
pub(super) fn parse_uci(b: &Board, text: &str) -> Result<RoyalGuardMove, GameError> {
    let t = text.trim();
    let bad = || {
        GameError::new(format!(
            "bad move {text:?}: expected UCI long algebraic like e2e4 or e7e8q"
        ))
    };
    if !(t.len() == 4 || t.len() == 5) || !t.is_ascii() {
        return Err(bad());
    }
    let from = parse_square(&t[0..2], 8, 8).map_err(|_| bad())?;
    let to = parse_square(&t[2..4], 8, 8).map_err(|_| bad())?;
    let piece = b.piece_at(from).map(|(_, p)| p);
    let kind = if t.len() == 5 {
        match &t[4..] {
            "n" => MoveKind::PromoKnight,
            "b" => MoveKind::PromoBishop,
            "r" => MoveKind::PromoRook,
            "q" => MoveKind::PromoQueen,
            _ => {
                return Err(GameError::new(format!(
                    "bad move {text:?}: the promotion letter must be one of n, b, r, q"
                )));
            }
        }
    } else if piece == Some(Piece::Pawn) && from.abs_diff(to) == 16 {
        MoveKind::DoublePush
    } else if piece == Some(Piece::Pawn) && b.ep as usize == to && from % 8 != to % 8 {
        MoveKind::EnPassant
    } else if piece == Some(Piece::King) && from.abs_diff(to) == 2 && from / 8 == to / 8 {
        MoveKind::Castle
    } else {
        MoveKind::Normal
    };
    Ok(RoyalGuardMove::new(from, to, kind))
}

impl fmt::Display for RoyalGuardState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..8 {
                let ch = match self.board().piece_at(rank * 8 + file) {
                    Some((Side::White, p)) => p.letter(),
                    Some((Side::Black, p)) => p.letter().to_ascii_lowercase(),
                    None => '.',
                };
                write!(f, "{ch} ")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "  a b c d e f g h")?;
        write!(f, "{}", self.fen())
    }
}

impl fmt::Debug for RoyalGuardState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RoyalGuardState({})", self.fen())
    }
}

/// A piece kind's name in reasons (`Knight`).
fn piece_name(p: Piece) -> &'static str {
    ["Pawn", "Knight", "Bishop", "Rook", "Queen", "King"][p as usize]
}

/// Why `text` is not a legal move in `s`, from the rules (see
/// [`crate::api::Research::illegal_reason`]): an empty or enemy square, a
/// capture of one's own piece, a piece's movement (RG-1) and the royal
/// powers it has or lacks (RG-2, RG-3, RG-4), a blocked path, promotion
/// (RG-7), castling (RG-6, RG-R3) and a King left in check, royal attacks
/// included (RG-5). `None` where the move is legal.
pub(super) fn illegal_reason(s: &RoyalGuardState, text: &str) -> Option<String> {
    let b = s.board();
    let (mv, _) = match crate::api::move_to_explain(s, text) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    move_reason(b, mv).or_else(|| crate::api::generic_illegal_reason(s, text))
}

/// Why the move `mv` of the side to move on `b` is illegal (`None` if no
/// rule is found broken).
fn move_reason(b: &Board, mv: RoyalGuardMove) -> Option<String> {
    use super::attacks::{BETWEEN, KING, KNIGHT};
    let (from, to) = (mv.from(), mv.to());
    let (us, them) = (b.side, b.side.other());
    let (fname, tname) = (square_name(from), square_name(to));
    let Some((owner, piece)) = b.piece_at(from) else {
        return Some(format!("no piece on {fname}"));
    };
    if owner != us {
        return Some(format!(
            "the piece on {fname} is {them:?}'s, and {us:?} is to move"
        ));
    }
    if from == to {
        return Some(format!("the {} on {fname} must move", piece_name(piece)));
    }
    // Castling first: its King lands where the Rook's path is (RG-6).
    if piece == Piece::King && mv.kind() == MoveKind::Castle {
        return castle_reason(b, mv);
    }
    if b.color(us) >> to & 1 == 1 {
        return Some(format!(
            "{tname} holds a {us:?} piece, and no piece captures its own (RG-1)"
        ));
    }
    let name = piece_name(piece);
    let occ = b.occupied();
    let royal_powers = b.royal_powers();
    let royal = b.royal_set(us) >> from & 1 == 1;
    let king_step = KING[from] >> to & 1 == 1;
    // A King step a non-royal R/B/N lacks (RG-2, RG-3).
    let not_royal = || {
        format!(
            "the {name} on {fname} is not on its King's sub-grid, so not royal (RG-2), and only \
             a royal {name} also steps like a King (RG-3)"
        )
    };
    let blocked = |path: u64| {
        let near = if to > from {
            path.trailing_zeros()
        } else {
            63 - path.leading_zeros()
        };
        format!(
            "{fname}-{tname} is blocked by the piece on {} (RG-1)",
            square_name(near as usize)
        )
    };
    let (df, dr) = (
        (to % 8) as i32 - (from % 8) as i32,
        (to / 8) as i32 - (from / 8) as i32,
    );
    match piece {
        Piece::King if !king_step => {
            return Some(format!(
                "a King moves one square, and {tname} is not next to {fname} (RG-1)"
            ));
        }
        Piece::Knight if KNIGHT[from] >> to & 1 == 0 && !(king_step && royal) => {
            if king_step && royal_powers {
                return Some(not_royal());
            }
            return Some(format!(
                "a Knight leaps two squares one way and one the other (RG-1){}",
                if royal {
                    ", or as royal one King step (RG-3)"
                } else {
                    ""
                }
            ));
        }
        Piece::Bishop | Piece::Rook | Piece::Queen => {
            let diag = df.abs() == dr.abs();
            let orth = df == 0 || dr == 0;
            let fits = match piece {
                Piece::Bishop => diag,
                Piece::Rook => orth,
                _ => diag || orth,
            };
            if fits {
                let path = BETWEEN[from][to] & occ;
                if path != 0 {
                    return Some(blocked(path));
                }
            } else if king_step && royal_powers {
                if !royal {
                    return Some(not_royal());
                }
            } else {
                let way = if piece == Piece::Bishop {
                    "along diagonals"
                } else {
                    "along ranks and files"
                };
                return Some(format!(
                    "a {name} moves {way} (RG-1){}",
                    if royal {
                        ", or as royal one King step (RG-3)"
                    } else {
                        ""
                    }
                ));
            }
        }
        Piece::Pawn => {
            if let Some(why) = pawn_reason(b, mv, royal, df, dr) {
                return Some(why);
            }
        }
        _ => {}
    }
    let last = to / 8 == if us == Side::White { 7 } else { 0 };
    match (piece == Piece::Pawn && last, mv.kind().promotion()) {
        (true, None) => {
            return Some(format!(
                "a Pawn reaching the last rank promotes: add q, r, b or n, e.g. {}q (RG-7)",
                mv.uci()
            ));
        }
        (false, Some(_)) => {
            return Some("only a Pawn reaching the last rank promotes (RG-7)".into());
        }
        _ => {}
    }
    // The movement fits: the move is illegal only for the King's safety.
    let mut after = *b;
    after.make(mv);
    if after.is_attacked(after.king_sq(us), them) {
        return Some(if piece == Piece::King {
            format!("{tname} is attacked, and the King may not move into check (RG-5)")
        } else {
            format!("would leave the {us:?} King in check (RG-5)")
        });
    }
    None
}

/// Why the Pawn move `mv` breaks the Pawn's movement (`None` if it fits):
/// one square forward, two from its first rank, diagonal captures and en
/// passant (RG-1, RG-6), the royal Pawn's capture straight ahead (RG-4).
fn pawn_reason(b: &Board, mv: RoyalGuardMove, royal: bool, df: i32, dr: i32) -> Option<String> {
    let (from, to) = (mv.from(), mv.to());
    let us = b.side;
    let ahead = if us == Side::White { dr } else { -dr };
    let enemy = b.color(us.other()) >> to & 1 == 1;
    let step = "a Pawn moves one square forward, two from its first rank, and captures one \
                square diagonally forward (RG-1)";
    match (df.abs(), ahead) {
        (0, 1) if enemy && !royal => Some(if b.royal_powers() {
            "a Pawn captures diagonally; only a royal Pawn, on its King's sub-grid, also \
             captures straight ahead (RG-2, RG-4)"
                .into()
        } else {
            "a Pawn captures diagonally, not straight ahead (RG-1)".into()
        }),
        (0, 1) => None,
        (0, 2) => {
            let first = from / 8 == if us == Side::White { 1 } else { 6 };
            let mid = (from + to) / 2;
            if !first {
                Some(format!(
                    "a Pawn steps two squares only from its first rank, and {} is not on it (RG-1)",
                    square_name(from)
                ))
            } else if b.occupied() >> mid & 1 == 1 {
                Some(format!(
                    "{}-{} is blocked by the piece on {} (RG-1)",
                    square_name(from),
                    square_name(to),
                    square_name(mid)
                ))
            } else if enemy {
                Some(
                    "a Pawn's two-square step never captures, not even a royal Pawn's (RG-1, RG-4)"
                        .into(),
                )
            } else {
                None
            }
        }
        (1, 1) if !enemy && mv.kind() != MoveKind::EnPassant => Some(format!(
            "a Pawn moves diagonally only to capture, and {} holds no enemy piece nor is the \
             en-passant square (RG-1, RG-6)",
            square_name(to)
        )),
        (1, 1) => None,
        _ => Some(step.into()),
    }
}

/// Why the castling `mv` is illegal (RG-6 with RG-5's attacks, RG-R3), or
/// `None` if it is not found to be.
fn castle_reason(b: &Board, mv: RoyalGuardMove) -> Option<String> {
    let us = b.side;
    let them = us.other();
    let king_side = mv.to() > mv.from();
    let base = if us == Side::White { 0 } else { 56 };
    let right = match (us, king_side) {
        (Side::White, true) => WK,
        (Side::White, false) => WQ,
        (Side::Black, true) => BK,
        (Side::Black, false) => BQ,
    };
    let wing = if king_side { "king side" } else { "queen side" };
    if b.castling & right == 0 {
        return Some(format!(
            "{us:?} has lost the right to castle {wing} (its King or that Rook has moved, RG-6)"
        ));
    }
    let between: &[usize] = if king_side { &[5, 6] } else { &[1, 2, 3] };
    if let Some(&sq) = between
        .iter()
        .find(|&&f| b.occupied() >> (base + f) & 1 == 1)
    {
        return Some(format!(
            "castling needs the squares between King and Rook empty, and {} is not (RG-6)",
            square_name(base + sq)
        ));
    }
    if b.checkers() != 0 {
        return Some("the King may not castle out of check (RG-6, RG-R3)".into());
    }
    let cross = base + if king_side { 5 } else { 3 };
    if b.is_attacked(cross, them) {
        return Some(format!(
            "the King may not cross {}, which {them:?} attacks (RG-6, RG-R3)",
            square_name(cross)
        ));
    }
    if b.is_attacked(mv.to(), them) {
        return Some(format!(
            "{} is attacked, and the King may not castle into check (RG-5, RG-6)",
            square_name(mv.to())
        ));
    }
    None
}
