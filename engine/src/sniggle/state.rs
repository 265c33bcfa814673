//! The Sniggle position: pieces as bit sets, Zobrist keys, the State API (N-1...N-9 applied move by move) and the research view.

use std::fmt;
use std::sync::OnceLock;

use rand::Rng;

use super::{NO_SQ, Rules, SEAT_LETTERS, SniggleMove};
use crate::api::{MAX_SEATS, Research, Returns, State, ToMove};
use crate::board::{B192, Bits, sly, zobrist};
use crate::error::GameError;

/// Zobrist keys: a piece of each seat on each square, a triangle on each
/// square, the seat to move, the square of a continuing piece.
pub(crate) struct Keys {
    pub(crate) piece: [[u64; 144]; MAX_SEATS],
    pub(crate) triangle: [u64; 144],
    pub(crate) seat: [u64; MAX_SEATS],
    pub(crate) chain: [u64; 144],
}

pub(crate) fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let k = zobrist::keys(0x5A16_61E0_0000_0001, 4 * 144 + 144 + 4 + 144);
        let mut it = k.into_iter();
        let mut take = || it.next().expect("enough keys");
        let mut keys = Keys {
            piece: [[0; 144]; MAX_SEATS],
            triangle: [0; 144],
            seat: [0; MAX_SEATS],
            chain: [0; 144],
        };
        for seat in keys.piece.iter_mut() {
            seat.iter_mut().for_each(|x| *x = take());
        }
        keys.triangle.iter_mut().for_each(|x| *x = take());
        keys.seat.iter_mut().for_each(|x| *x = take());
        keys.chain.iter_mut().for_each(|x| *x = take());
        keys
    })
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Outcome {
    Ongoing,
    /// The winning seats, as a bit mask (one seat, or a team).
    Win(u8),
    Draw,
}

/// A Sniggle position. `Copy`-cheap: five 192-bit sets and a few counters.
#[derive(Clone, Copy)]
pub struct SniggleState {
    pub(crate) keys: &'static Keys,
    pub(crate) rules: Rules,
    pub(crate) pieces: [B192; MAX_SEATS],
    pub(crate) triangles: B192,
    pub(crate) to_move: u8,
    /// The square of the piece that must step again (N-3), or `NO_SQ`.
    pub(crate) chain: u8,
    pub(crate) outcome: Outcome,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
}

impl PartialEq for SniggleState {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.pieces == o.pieces
            && self.triangles == o.triangles
            && self.to_move == o.to_move
            && self.chain == o.chain
            && self.outcome == o.outcome
            && self.ply == o.ply
            && self.hash == o.hash
    }
}

impl fmt::Debug for SniggleState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SniggleState({})", self.to_text())
    }
}

impl State for SniggleState {
    type Move = SniggleMove;

    fn num_seats(&self) -> usize {
        self.rules.players as usize
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        if self.outcome == Outcome::Ongoing {
            ToMove::Seat(self.to_move as usize)
        } else {
            ToMove::Terminal
        }
    }

    fn legal_moves(&self, out: &mut Vec<SniggleMove>) {
        out.clear();
        if self.outcome != Outcome::Ongoing {
            return;
        }
        let s = self.to_move as usize;
        if self.chain != NO_SQ {
            let to = self
                .continuation(s, self.chain as u32)
                .expect("a continuing piece can step");
            out.push(SniggleMove::Step {
                from: self.chain,
                to: to as u8,
            });
            return;
        }
        self.for_each_step(s, |from, to| out.push(SniggleMove::Step { from, to }));
        if out.is_empty() {
            out.push(SniggleMove::Pass);
        }
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.outcome != Outcome::Ongoing {
            return 0;
        }
        if self.chain != NO_SQ {
            return 1;
        }
        let mut n = 0;
        self.for_each_step(self.to_move as usize, |_, _| n += 1);
        n.max(1)
    }

    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<SniggleMove>,
    ) -> Option<SniggleMove> {
        if self.outcome != Outcome::Ongoing {
            return None;
        }
        let s = self.to_move as usize;
        if self.chain != NO_SQ {
            let to = self.continuation(s, self.chain as u32)?;
            return Some(SniggleMove::Step {
                from: self.chain,
                to: to as u8,
            });
        }
        // At most 9 steps: one per piece.
        let mut moves = [(0u8, 0u8); 9];
        let mut n = 0;
        self.for_each_step(s, |from, to| {
            moves[n] = (from, to);
            n += 1;
        });
        if n == 0 {
            return Some(SniggleMove::Pass);
        }
        let (from, to) = moves[rng.random_range(0..n)];
        Some(SniggleMove::Step { from, to })
    }

    fn apply(&mut self, mv: SniggleMove) {
        debug_assert!(
            {
                let mut v = Vec::new();
                self.legal_moves(&mut v);
                v.contains(&mv)
            },
            "illegal move {mv:?} in {}",
            self.to_text()
        );
        self.ply += 1;
        let s = self.to_move as usize;
        match mv {
            SniggleMove::Step { from, to } => {
                let (from, to) = (from as u32, to as u32);
                self.toggle_piece(s, from);
                self.toggle_piece(s, to);
                if self.triangles.has(from) {
                    self.triangles ^= B192::bit(from) | B192::bit(to);
                    self.hash ^=
                        self.keys.triangle[from as usize] ^ self.keys.triangle[to as usize];
                }
                // N-3: an odd count of opponents' pieces in the landing
                // column makes the piece step again, unless it cannot (QN4)
                // or the step would leave an empty field (N-4).
                let again = !self
                    .opponents_in_column(s, sly::col_of(to))
                    .is_multiple_of(2)
                    && self.continuation(s, to).is_some();
                self.set_chain(if again { to as u8 } else { NO_SQ });
                if !again {
                    self.end_turn();
                }
            }
            SniggleMove::Pass => self.end_turn(),
        }
    }

    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if let Outcome::Win(m) = self.outcome {
            for (k, x) in r.iter_mut().enumerate().take(self.rules.players as usize) {
                *x = if m >> k & 1 == 1 { 1.0 } else { -1.0 };
            }
        }
        r
    }

    #[inline(always)]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let k = self.keys;
        let mut h = k.seat[self.to_move as usize];
        for (seat, p) in self.pieces.iter().enumerate() {
            for sq in p.iter() {
                h ^= k.piece[seat][sq as usize];
            }
        }
        for sq in self.triangles.iter() {
            h ^= k.triangle[sq as usize];
        }
        if self.chain != NO_SQ {
            h ^= k.chain[self.chain as usize];
        }
        h
    }

    /// A compulsory continuation step (N-3) is due: the turn goes on.
    fn continues_turn(&self) -> bool {
        self.continuing().is_some()
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// `<rows> <seat> <continuing> <ply>`: rows 1 to 12 (top first)
    /// separated by `/`, digits for runs of empty spaces, a seat's letter
    /// ([`SEAT_LETTERS`]) for its squares and the lowercase letter for its
    /// triangles; the letter of the seat to move (at the end: the last
    /// mover); the square of the piece that must step again, or `-`.
    fn to_text(&self) -> String {
        let rows = crate::board::text::write_rows(12, 12, |r, c| self.letter(sly::square(r, c)));
        let chain = if self.chain == NO_SQ {
            "-".to_string()
        } else {
            sly::square_name(self.chain as u32)
        };
        format!(
            "{} {} {chain} {}",
            rows, SEAT_LETTERS[self.to_move as usize], self.ply
        )
    }

    fn move_to_text(&self, mv: SniggleMove) -> String {
        match mv {
            SniggleMove::Step { from, to } => format!(
                "{}-{}",
                sly::square_name(from as u32),
                sly::square_name(to as u32)
            ),
            SniggleMove::Pass => "pass".to_string(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<SniggleMove, GameError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(SniggleMove::Pass);
        }
        let Some((a, b)) = t.split_once('-') else {
            crate::bail!(
                "bad move {text:?}: expected a step from-to along a row, e.g. 4C-4D, or pass"
            );
        };
        let wrap = |e: GameError| GameError::new(format!("bad move {text:?}: {e}"));
        let from = sly::parse_square(a.trim()).map_err(wrap)?;
        let to = sly::parse_square(b.trim()).map_err(wrap)?;
        if sly::row_of(from) != sly::row_of(to) || sly::col_of(to) <= sly::col_of(from) {
            crate::bail!(
                "bad move {text:?}: a step moves right along its own row (N-1), e.g. 4C-4D"
            );
        }
        Ok(SniggleMove::Step {
            from: from as u8,
            to: to as u8,
        })
    }
}

impl Research for SniggleState {
    /// The reason from the rules (a piece that must step again N-3, where a
    /// step lands N-2, the gap rule N-4...); see `text::illegal_reason`.
    fn illegal_reason(&self, text: &str) -> Option<String> {
        super::text::illegal_reason(self, text)
    }

    /// `all home` (N-5, N-7: a seat, or both partners, finished) or
    /// `blocked` (no seat can ever move: our ruling under N-9, a draw).
    fn end_reason(&self) -> Option<&'static str> {
        match self.outcome {
            Outcome::Ongoing => None,
            Outcome::Win(_) => Some("all home"),
            Outcome::Draw => Some("blocked"),
        }
    }

    /// The board picture (see [`Research::board_picture`]).
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        crate::api::sly_picture(&crate::api::State::to_text(self), false, |t: &str| {
            let ch = t.chars().next()?;
            let colour = "XYZW".find(ch.to_ascii_uppercase())?;
            crate::api::piece(Some(colour), t)
        })
    }

    fn seat_role(&self, seat: usize) -> crate::SeatRole {
        crate::SeatRole {
            colour: SEAT_LETTERS[seat].to_string(),
            team: self.rules.teams.then_some(seat & 1),
            ..Default::default()
        }
    }
    fn first_mover_seat(&self) -> Option<usize> {
        Some(self.rules.first_seat as usize)
    }
}
