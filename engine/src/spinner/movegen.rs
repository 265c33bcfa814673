//! Spinner move generation: the board geometry, placements in canonical order, switches, paths by flood fill (K7-K12).

use std::sync::OnceLock;

use super::state::{Outcome, Phase};
use super::{NONE, SEAT_LETTERS, SpinnerState};
use crate::board::{Bits, SquareGrid, parse_square, square_name, zobrist};
use crate::error::GameError;

/// Per board size: the grid and the Zobrist keys.
#[derive(Debug)]
pub(crate) struct Geometry {
    pub(crate) n: u32,
    pub(crate) grid: SquareGrid<u128>,
    /// `piece[player * n² + sq]`.
    pub(crate) piece: Vec<u64>,
    /// `last[sq]`: the last square placed this turn.
    pub(crate) last: Vec<u64>,
    pub(crate) second_to_move: u64,
    pub(crate) spin: u64,
    pub(crate) switch: u64,
    /// Placements left, 1..=3.
    pub(crate) left: [u64; 4],
}

impl Geometry {
    pub(crate) fn build(n: u32) -> Geometry {
        let sq = (n * n) as usize;
        let k = zobrist::keys(0x5917_E2AA_0000_0000 ^ n as u64, 3 * sq + 7);
        Geometry {
            n,
            grid: SquareGrid::new(n, n),
            piece: k[..2 * sq].to_vec(),
            last: k[2 * sq..3 * sq].to_vec(),
            second_to_move: k[3 * sq],
            spin: k[3 * sq + 1],
            switch: k[3 * sq + 2],
            left: [0, k[3 * sq + 3], k[3 * sq + 4], k[3 * sq + 5]],
        }
    }

    pub(crate) fn get(n: u32) -> &'static Geometry {
        static GEOS: [OnceLock<Geometry>; 12] = [const { OnceLock::new() }; 12];
        GEOS[n as usize].get_or_init(|| Geometry::build(n))
    }
}

impl SpinnerState {
    /// Board size n.
    pub fn size(&self) -> u32 {
        self.geo.n
    }

    /// The pieces of `player` (0 or 1), bit `rank * n + file`.
    pub fn pieces(&self, player: usize) -> u128 {
        self.pieces[player]
    }

    /// The star squares (K2).
    pub fn stars(&self) -> u128 {
        self.rules.stars
    }

    /// Placements still due this turn, during a placement turn (B.5).
    pub fn placements_left(&self) -> Option<u32> {
        match self.phase {
            Phase::Place { left, .. } => Some(left as u32),
            _ => None,
        }
    }

    /// Whether the player to move must switch (K8).
    pub fn is_switching(&self) -> bool {
        self.phase == Phase::Switch
    }

    /// The empty squares a piece may go on (K7: not a star, not occupied).
    #[inline(always)]
    pub fn empty(&self) -> u128 {
        !(self.pieces[0] | self.pieces[1] | self.rules.stars) & self.geo.grid.full
    }

    /// The goal edges of `player` (K3, K-Q4).
    #[inline(always)]
    pub(crate) fn edges(&self, player: usize) -> (u128, u128) {
        let g = &self.geo.grid;
        if player == 1 && self.rules.crossed {
            (g.first_file, g.last_file)
        } else {
            (g.first_rank, g.last_rank)
        }
    }

    /// Whether `player` has a path (K12): own pieces and stars,
    /// orthogonally connected, touching both goal edges.
    #[inline]
    pub fn has_path(&self, player: usize) -> bool {
        let g = &self.geo.grid;
        let usable = self.pieces[player] | self.rules.stars;
        let spans = if player == 1 && self.rules.crossed {
            g.spans_files(usable)
        } else {
            g.spans_ranks(usable)
        };
        let (from, to) = self.edges(player);
        spans && g.connects4(usable, from, to)
    }

    /// The fewest empty squares `player` must fill to complete a path
    /// (own pieces and stars cost 0), `None` if the opponent blocks every
    /// path.
    pub fn connection_distance(&self, player: usize) -> Option<u32> {
        let (from, to) = self.edges(player);
        self.geo.grid.zero_one_distance(
            self.pieces[player] | self.rules.stars,
            self.empty(),
            from,
            to,
        )
    }

    /// Whether S can be played: both players have a piece (K6).
    #[inline(always)]
    pub(crate) fn switch_possible(&self) -> bool {
        self.pieces[0] != 0 && self.pieces[1] != 0
    }

    /// The squares the next placement may go on (K7, B.5): empty squares
    /// above the last one placed this turn, leaving room above for the
    /// placements still due after it.
    #[inline]
    pub(crate) fn placements(&self) -> u128 {
        let Phase::Place { left, last } = self.phase else {
            return 0;
        };
        let mut c = self.empty();
        if last != NONE {
            c &= !((2u128 << last) - 1);
        }
        for _ in 1..left {
            if c == 0 {
                break;
            }
            c &= !(1u128 << c.highest());
        }
        c
    }

    #[inline(always)]
    pub(crate) fn phase_key(&self, p: Phase) -> u64 {
        let g = self.geo;
        match p {
            Phase::Spin => g.spin,
            Phase::Switch => g.switch,
            Phase::Place { left, last } => {
                g.left[left as usize]
                    ^ if last == NONE {
                        0
                    } else {
                        g.last[last as usize]
                    }
            }
            Phase::Over => 0,
        }
    }

    #[inline(always)]
    pub(crate) fn set_phase(&mut self, p: Phase) {
        self.hash ^= self.phase_key(self.phase) ^ self.phase_key(p);
        self.phase = p;
    }

    #[inline(always)]
    pub(crate) fn toggle(&mut self, player: usize, sq: u8) {
        self.pieces[player] ^= 1u128 << sq;
        let n2 = (self.geo.n * self.geo.n) as usize;
        self.hash ^= self.geo.piece[player * n2 + sq as usize];
    }

    pub(crate) fn finish(&mut self, outcome: Outcome) {
        self.outcome = outcome;
        self.set_phase(Phase::Over);
    }

    /// The end of a turn without a winner: the draw K10, else the other
    /// player's spin.
    pub(crate) fn end_turn(&mut self) {
        if self.empty() == 0 {
            self.finish(Outcome::Draw);
        } else {
            self.to_move ^= 1;
            self.hash ^= self.geo.second_to_move;
            self.set_phase(Phase::Spin);
        }
    }

    pub(crate) fn cell(&self, sq: u32) -> Option<char> {
        let b = 1u128 << sq;
        if self.pieces[0] & b != 0 {
            Some(SEAT_LETTERS[0])
        } else if self.pieces[1] & b != 0 {
            Some(SEAT_LETTERS[1])
        } else if self.rules.stars & b != 0 {
            Some('*')
        } else {
            None
        }
    }

    pub(crate) fn sq_name(&self, sq: u8) -> String {
        square_name(sq as usize, self.geo.n as usize)
    }

    pub(crate) fn parse_sq(&self, text: &str) -> Result<u8, GameError> {
        let n = self.geo.n as usize;
        Ok(parse_square(text.trim(), n, n)? as u8)
    }
}
