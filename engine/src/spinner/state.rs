//! The spinner position: bit sets per player, the turn phase (spin, placements, switch), Zobrist keys, the State API (K1-K12, B.5) and the research view.

use std::fmt;

use rand::Rng;

use super::movegen::Geometry;
use super::{NONE, Rules, SEAT_LETTERS, SpinnerMove};
use crate::api::{MAX_SEATS, Research, Returns, State, ToMove};
use crate::board::Bits;
use crate::error::GameError;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Phase {
    /// The spin: a chance node.
    Spin,
    /// A placement turn: `left` placements due, the last one on `last`
    /// (`NONE` before the first).
    Place { left: u8, last: u8 },
    /// A switch turn.
    Switch,
    /// The game is over.
    Over,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Outcome {
    Ongoing,
    Win(u8),
    Draw,
}

/// A spinner-game position. `Copy`-cheap: three `u128` sets and a few
/// counters.
#[derive(Clone, Copy)]
pub struct SpinnerState {
    pub(crate) geo: &'static Geometry,
    pub(crate) rules: Rules,
    pub(crate) pieces: [u128; 2],
    /// The player whose turn it is (at the end: the last mover).
    pub(crate) to_move: u8,
    pub(crate) phase: Phase,
    pub(crate) outcome: Outcome,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
}

impl PartialEq for SpinnerState {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.pieces == o.pieces
            && self.to_move == o.to_move
            && self.phase == o.phase
            && self.outcome == o.outcome
            && self.ply == o.ply
            && self.hash == o.hash
    }
}

impl fmt::Debug for SpinnerState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SpinnerState({})", self.to_text())
    }
}

impl State for SpinnerState {
    type Move = SpinnerMove;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        match self.phase {
            Phase::Over => ToMove::Terminal,
            Phase::Spin => ToMove::Chance,
            _ => ToMove::Seat(self.to_move as usize),
        }
    }

    fn legal_moves(&self, out: &mut Vec<SpinnerMove>) {
        out.clear();
        match self.phase {
            Phase::Place { .. } => out.extend(
                self.placements()
                    .iter()
                    .map(|sq| SpinnerMove::Place(sq as u8)),
            ),
            Phase::Switch => {
                let p = self.to_move as usize;
                for own in self.pieces[p].iter() {
                    for other in self.pieces[1 - p].iter() {
                        out.push(SpinnerMove::Switch {
                            own: own as u8,
                            other: other as u8,
                        });
                    }
                }
            }
            Phase::Spin | Phase::Over => {}
        }
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        match self.phase {
            Phase::Place { .. } => self.placements().count() as usize,
            Phase::Switch => {
                let p = self.to_move as usize;
                (self.pieces[p].count() * self.pieces[1 - p].count()) as usize
            }
            Phase::Spin | Phase::Over => 0,
        }
    }

    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<SpinnerMove>,
    ) -> Option<SpinnerMove> {
        match self.phase {
            Phase::Place { .. } => {
                let c = self.placements();
                let k = c.count();
                (k > 0).then(|| SpinnerMove::Place(c.nth(rng.random_range(0..k)) as u8))
            }
            Phase::Switch => {
                let p = self.to_move as usize;
                let (a, b) = (self.pieces[p], self.pieces[1 - p]);
                let (ka, kb) = (a.count(), b.count());
                (ka > 0 && kb > 0).then(|| SpinnerMove::Switch {
                    own: a.nth(rng.random_range(0..ka)) as u8,
                    other: b.nth(rng.random_range(0..kb)) as u8,
                })
            }
            Phase::Spin | Phase::Over => None,
        }
    }

    /// K5: 1, 2, 3, S with 1/4 each; K6: 1, 2, 3 with 1/3 each when S
    /// cannot be played.
    fn chance_outcomes(&self, out: &mut Vec<(SpinnerMove, f64)>) {
        out.clear();
        if self.phase != Phase::Spin {
            return;
        }
        if self.switch_possible() {
            out.extend((1..=3).map(|k| (SpinnerMove::Spin(k), 0.25)));
            out.push((SpinnerMove::SpinS, 0.25));
        } else {
            out.extend((1..=3).map(|k| (SpinnerMove::Spin(k), 1.0 / 3.0)));
        }
    }

    /// A spin drawn by the K5/K6 probabilities without building a list.
    #[inline]
    fn sample_chance<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<(SpinnerMove, f64)>,
    ) -> Option<SpinnerMove> {
        if self.phase != Phase::Spin {
            return None;
        }
        let k = rng.random_range(0..if self.switch_possible() { 4 } else { 3 });
        Some(if k == 3 {
            SpinnerMove::SpinS
        } else {
            SpinnerMove::Spin(k as u8 + 1)
        })
    }

    fn apply(&mut self, mv: SpinnerMove) {
        debug_assert!(
            {
                let mut v = Vec::new();
                self.legal_moves(&mut v);
                let mut c = Vec::new();
                self.chance_outcomes(&mut c);
                v.contains(&mv) || c.iter().any(|&(m, _)| m == mv)
            },
            "illegal move {mv:?} in {}",
            self.to_text()
        );
        self.ply += 1;
        let p = self.to_move as usize;
        match mv {
            SpinnerMove::Spin(k) => {
                // K7: as many as fit.
                let left = (k as u32).min(self.empty().count()) as u8;
                self.set_phase(Phase::Place { left, last: NONE });
            }
            SpinnerMove::SpinS => self.set_phase(Phase::Switch),
            SpinnerMove::Place(sq) => {
                let Phase::Place { left, .. } = self.phase else {
                    unreachable!("a placement outside a placement turn")
                };
                self.toggle(p, sq);
                if self.has_path(p) {
                    // K9: the first completing placement ends the game.
                    self.finish(Outcome::Win(p as u8));
                } else if left == 1 {
                    self.end_turn();
                } else {
                    self.set_phase(Phase::Place {
                        left: left - 1,
                        last: sq,
                    });
                }
            }
            SpinnerMove::Switch { own, other } => {
                self.toggle(p, own);
                self.toggle(1 - p, own);
                self.toggle(1 - p, other);
                self.toggle(p, other);
                // K9: the mover first, then the opponent.
                if self.has_path(p) {
                    self.finish(Outcome::Win(p as u8));
                } else if self.has_path(1 - p) {
                    self.finish(Outcome::Win(1 - p as u8));
                } else {
                    self.end_turn();
                }
            }
        }
    }

    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if let Outcome::Win(w) = self.outcome {
            r[w as usize] = 1.0;
            r[1 - w as usize] = -1.0;
        }
        r
    }

    #[inline(always)]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let g = self.geo;
        let n2 = (g.n * g.n) as usize;
        let mut h = self.phase_key(self.phase);
        if self.to_move == 1 {
            h ^= g.second_to_move;
        }
        for p in 0..2 {
            for sq in self.pieces[p].iter() {
                h ^= g.piece[p * n2 + sq as usize];
            }
        }
        h
    }

    /// After the spin the same seat places or switches (B.5): the turn goes
    /// on until the spin of the next turn is due (or the game ends).
    fn continues_turn(&self) -> bool {
        matches!(self.phase, Phase::Place { .. } | Phase::Switch)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// `<rows> <player> <phase> <ply>`: ranks n down to 1 separated by `/`,
    /// digits for runs of empty squares, `X` player 1, `O` player 2, `*` a
    /// star; the player to move (at the end: the last mover); the phase
    /// `spin`, `place<k>` (k placements due), `place<k>><sq>` (after
    /// placing on sq this turn), `switch` or `over`.
    fn to_text(&self) -> String {
        let n = self.geo.n;
        let rows = crate::board::text::write_rows(n, n, |i, c| self.cell((n - 1 - i) * n + c));
        let phase = match self.phase {
            Phase::Spin => "spin".to_string(),
            Phase::Switch => "switch".to_string(),
            Phase::Over => "over".to_string(),
            Phase::Place { left, last } if last == NONE => format!("place{left}"),
            Phase::Place { left, last } => format!("place{left}>{}", self.sq_name(last)),
        };
        format!(
            "{} {} {phase} {}",
            rows, SEAT_LETTERS[self.to_move as usize], self.ply
        )
    }

    fn move_to_text(&self, mv: SpinnerMove) -> String {
        match mv {
            SpinnerMove::Spin(k) => format!("spin={k}"),
            SpinnerMove::SpinS => "spin=S".to_string(),
            SpinnerMove::Place(sq) => self.sq_name(sq),
            SpinnerMove::Switch { own, other } => {
                format!("{}<>{}", self.sq_name(own), self.sq_name(other))
            }
        }
    }

    /// Parses `spin=1|2|3|S`, a square `d4`, or a switch `e5<>h8` (also
    /// `e5↔h8`); a switch written opponent's piece first is put in order.
    fn parse_move(&self, text: &str) -> Result<SpinnerMove, GameError> {
        let t = text.trim();
        let wrap = |e: GameError| GameError::new(format!("bad move {text:?}: {e}"));
        if let Some(k) = t.strip_prefix("spin=") {
            return match k {
                "1" | "2" | "3" => Ok(SpinnerMove::Spin(k.as_bytes()[0] - b'0')),
                "S" | "s" => Ok(SpinnerMove::SpinS),
                _ => crate::bail!("bad move {text:?}: a spin is spin=1, spin=2, spin=3 or spin=S"),
            };
        }
        if let Some((a, b)) = t.split_once("<>").or_else(|| t.split_once('↔')) {
            let (mut own, mut other) = (
                self.parse_sq(a).map_err(wrap)?,
                self.parse_sq(b).map_err(wrap)?,
            );
            if own == other {
                crate::bail!("bad move {text:?}: a switch needs two different squares");
            }
            let mine = self.pieces[self.to_move as usize];
            if mine >> own & 1 == 0 && mine >> other & 1 == 1 {
                std::mem::swap(&mut own, &mut other);
            }
            return Ok(SpinnerMove::Switch { own, other });
        }
        if t.is_empty() || !t.as_bytes()[0].is_ascii_lowercase() {
            crate::bail!(
                "bad move {text:?}: expected a placement like d4, a switch like e5<>h8, or spin=1|2|3|S"
            );
        }
        Ok(SpinnerMove::Place(self.parse_sq(t).map_err(wrap)?))
    }
}

impl Research for SpinnerState {
    /// `connection` (K9) or `board full` (the draw of K10).
    fn end_reason(&self) -> Option<&'static str> {
        match self.outcome {
            Outcome::Ongoing => None,
            Outcome::Win(_) => Some("connection"),
            Outcome::Draw => Some("board full"),
        }
    }

    /// The board picture (see [`Research::board_picture`]).
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        use crate::api::{CellKind, board_field, piece, square_picture};
        let p = square_picture(
            board_field(&crate::api::State::to_text(self)),
            false,
            |t| match t {
                "X" => piece(Some(0), "X"),
                "O" => piece(Some(1), "O"),
                "*" => piece(None, "*"),
                _ => None,
            },
            |_, _| CellKind::Light,
        )?;
        Some(p)
    }

    /// Seat 0 plays X (P1), seat 1 plays O (P2); which edges each joins is
    /// the game's `goals` parameter.
    fn seat_role(&self, seat: usize) -> crate::SeatRole {
        crate::SeatRole::colour(if seat == 0 { "X" } else { "O" })
    }
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }

    /// The reason from the rules (a star K2, a taken square K7, the turn's
    /// square order B.5, the switch K8, the re-spin K6); see
    /// `text::illegal_reason`.
    fn illegal_reason(&self, text: &str) -> Option<String> {
        super::text::illegal_reason(self, text)
    }
}
