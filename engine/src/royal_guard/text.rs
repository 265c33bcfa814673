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
