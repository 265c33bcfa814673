//! The Solitaire Sly position, the [`State`] and [`Research`] impls.

use std::fmt;

use super::Geometry;
use crate::api::{BoardShape, MAX_SEATS, Research, Returns, State, ToMove};
use crate::board::sly;
use crate::error::GameError;

/// A jump (S-1, S-2): the piece on `from` lands on `to` (square indices
/// `r * 12 + c`, [`sly::square`]), removing the run between them (S-4).
/// Text `7F-3F`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SlySolitaireMove {
    /// The square the jumper leaves.
    pub from: u8,
    /// The square it lands on, in the same row or column.
    pub to: u8,
}

/// The rule book's result by pieces left (S-6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Grade {
    /// One piece left.
    Win,
    /// Two pieces left.
    Good,
    /// Three pieces left.
    Fair,
    /// Four or more.
    Bad,
}

impl Grade {
    /// The grade of a game ending with `pieces` pieces (S-6).
    pub fn of(pieces: u32) -> Grade {
        match pieces {
            0 | 1 => Grade::Win,
            2 => Grade::Good,
            3 => Grade::Fair,
            _ => Grade::Bad,
        }
    }

    /// The rule book's word: `win`, `good`, `fair`, `bad`.
    pub fn name(self) -> &'static str {
        match self {
            Grade::Win => "win",
            Grade::Good => "good",
            Grade::Fair => "fair",
            Grade::Bad => "bad",
        }
    }
}

/// A Solitaire Sly position: each colour as twelve row lines and twelve
/// column lines of 12 bits, their unions, the piece count, the ply and the
/// Zobrist key. `Copy`, no heap.
#[derive(Clone, Copy)]
pub struct SlySolitaireState {
    pub(crate) geo: &'static Geometry,
    /// `rows[k][r]`: colour `k`'s pieces in row `r` (bit c = column c).
    pub(crate) rows: [[u16; 12]; 4],
    /// `cols[k][c]`: colour `k`'s pieces in column `c` (bit r = row r).
    pub(crate) cols: [[u16; 12]; 4],
    /// The union of `rows` over the colours.
    pub(crate) occ_rows: [u16; 12],
    /// The union of `cols` over the colours.
    pub(crate) occ_cols: [u16; 12],
    pub(crate) count: u8,
    /// No jump exists (S-6): the game is over.
    pub(crate) over: bool,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    /// The pieces that have a jump, by direction (up, down, left, right),
    /// as row lines: bit `c` of `jumps[d][r]` = the piece on `(r, c)` jumps
    /// towards `d` (S-1…S-3). Kept by `apply` and `finish_setup` for the
    /// next move list or random move; [`Self::jump`] leaves it (and
    /// `over`) to its caller.
    pub(crate) jumps: [[u16; 12]; 4],
}

impl PartialEq for SlySolitaireState {
    fn eq(&self, o: &Self) -> bool {
        self.geo.area == o.geo.area && self.rows == o.rows && self.ply == o.ply
    }
}

impl fmt::Debug for SlySolitaireState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SlySolitaireState({})", self.to_text())
    }
}

impl SlySolitaireState {
    /// An empty board (set-up and parsing fill it).
    pub(crate) fn empty(geo: &'static Geometry) -> SlySolitaireState {
        SlySolitaireState {
            geo,
            rows: [[0; 12]; 4],
            cols: [[0; 12]; 4],
            occ_rows: [0; 12],
            occ_cols: [0; 12],
            count: 0,
            over: false,
            ply: 0,
            hash: 0,
            jumps: [[0; 12]; 4],
        }
    }

    /// Toggles a piece of colour `k` on `sq` in every view and the key.
    #[inline(always)]
    pub(crate) fn toggle(&mut self, k: usize, sq: u32) {
        let (r, c) = (sly::row_of(sq) as usize, sly::col_of(sq) as usize);
        self.rows[k][r] ^= 1 << c;
        self.cols[k][c] ^= 1 << r;
        self.occ_rows[r] ^= 1 << c;
        self.occ_cols[c] ^= 1 << r;
        self.hash ^= self.geo.keys[k][sq as usize];
    }

    /// Puts a piece of colour `k` on the empty `sq` (set-up, parsing).
    pub(crate) fn put(&mut self, k: usize, sq: u32) {
        self.toggle(k, sq);
        self.count += 1;
    }

    /// Finishes a set-up or a parsed position: ply, key, end flag.
    pub(crate) fn finish_setup(&mut self, ply: u32) {
        self.ply = ply;
        self.hash = self.zobrist_from_scratch();
        self.refresh_jumps();
    }

    /// The colour (0..4, [`super::COLOUR_LETTERS`]) of the piece on `sq`.
    pub fn colour_at(&self, sq: u32) -> Option<usize> {
        let (r, c) = (sly::row_of(sq) as usize, sly::col_of(sq));
        (0..4).find(|&k| self.rows[k][r] >> c & 1 == 1)
    }

    /// Pieces on the board.
    pub fn pieces_left(&self) -> u32 {
        self.count as u32
    }

    /// The rule book's grade once the game is over (S-6).
    pub fn grade(&self) -> Option<Grade> {
        self.over.then(|| Grade::of(self.count as u32))
    }

    /// The number of colours still on the board.
    pub fn colours_left(&self) -> u32 {
        (0..4)
            .filter(|&k| self.rows[k].iter().any(|&x| x != 0))
            .count() as u32
    }

    /// The squares of every piece, in index order.
    pub fn squares(&self) -> Vec<u32> {
        (0..sly::SQUARES)
            .filter(|&sq| self.occ_rows[sly::row_of(sq) as usize] >> sly::col_of(sq) & 1 == 1)
            .collect()
    }

    /// S-2…S-4 on the bits alone: the piece on `from` lands on `to` and the
    /// run between is removed (the ply, the end flag and the kept jumpers
    /// are the caller's). The run leaves its own line in one step per
    /// colour; each removed piece leaves its crossing line and the key.
    #[inline]
    pub(crate) fn jump(&mut self, from: u32, to: u32) {
        let k = self.colour_at(from).expect("a piece on the from square");
        let (r0, c0) = (sly::row_of(from), sly::col_of(from));
        let (r1, c1) = (sly::row_of(to), sly::col_of(to));
        let geo = self.geo;
        let keys = &geo.keys;
        if r0 == r1 {
            let (a, b) = (c0.min(c1), c0.max(c1));
            let run = (((1u32 << (b - a - 1)) - 1) << (a + 1)) as u16;
            let r = r0 as usize;
            self.occ_rows[r] &= !run;
            for (j, key_j) in keys.iter().enumerate() {
                let mut rem = run & self.rows[j][r];
                self.rows[j][r] ^= rem;
                self.count -= rem.count_ones() as u8;
                while rem != 0 {
                    let i = rem.trailing_zeros();
                    rem &= rem - 1;
                    self.cols[j][i as usize] ^= 1 << r0;
                    self.occ_cols[i as usize] ^= 1 << r0;
                    self.hash ^= key_j[sly::square(r0, i) as usize];
                }
            }
        } else {
            let (a, b) = (r0.min(r1), r0.max(r1));
            let run = (((1u32 << (b - a - 1)) - 1) << (a + 1)) as u16;
            let c = c0 as usize;
            self.occ_cols[c] &= !run;
            for (j, key_j) in keys.iter().enumerate() {
                let mut rem = run & self.cols[j][c];
                self.cols[j][c] ^= rem;
                self.count -= rem.count_ones() as u8;
                while rem != 0 {
                    let i = rem.trailing_zeros();
                    rem &= rem - 1;
                    self.rows[j][i as usize] ^= 1 << c0;
                    self.occ_rows[i as usize] ^= 1 << c0;
                    self.hash ^= key_j[sly::square(i, c0) as usize];
                }
            }
        }
        self.toggle(k, from);
        self.toggle(k, to);
    }
}

impl State for SlySolitaireState {
    type Move = SlySolitaireMove;

    fn num_seats(&self) -> usize {
        1
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        if self.over {
            ToMove::Terminal
        } else {
            ToMove::Seat(0)
        }
    }

    fn legal_moves(&self, out: &mut Vec<SlySolitaireMove>) {
        self.write_jumps(out);
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        self.count_jumps()
    }

    /// The default's draw (`random_range(0..count)`, then that index of
    /// [`State::legal_moves`]) without writing the list; `buf` is unused.
    #[inline]
    fn sample_legal_move<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<SlySolitaireMove>,
    ) -> Option<SlySolitaireMove> {
        self.sample_jump(rng)
    }

    /// S-2…S-4: the jumper moves from `from` to `to`; the run between is
    /// removed, whatever its colours.
    fn apply(&mut self, mv: SlySolitaireMove) {
        debug_assert!(
            {
                let mut v = Vec::new();
                self.legal_moves(&mut v);
                v.contains(&mv)
            },
            "illegal move {mv:?} in {}",
            self.to_text()
        );
        self.jump(mv.from as u32, mv.to as u32);
        self.ply += 1;
        self.refresh_jumps();
    }

    /// S-6: the score, minus the pieces left, once the game is over.
    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if self.over {
            r[0] = -(self.count as f64);
        }
        r
    }

    #[inline]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let mut h = 0;
        for k in 0..4 {
            for r in 0..12u32 {
                let mut b = self.rows[k][r as usize];
                while b != 0 {
                    let c = b.trailing_zeros();
                    b &= b - 1;
                    h ^= self.geo.keys[k][sly::square(r, c) as usize];
                }
            }
        }
        h
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn to_text(&self) -> String {
        super::text::position_text(self)
    }

    fn move_to_text(&self, mv: SlySolitaireMove) -> String {
        format!(
            "{}-{}",
            sly::square_name(mv.from as u32),
            sly::square_name(mv.to as u32)
        )
    }

    fn parse_move(&self, text: &str) -> Result<SlySolitaireMove, GameError> {
        super::text::parse_move(text)
    }
}

impl Research for SlySolitaireState {
    /// The board picture (see [`Research::board_picture`]).
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        crate::api::sly_picture(&crate::api::State::to_text(self), false, |t: &str| {
            let colour = "BLDO".find(t)?;
            crate::api::piece(Some(colour), t)
        })
    }

    /// The single seat moves first.
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }

    /// S-6: the score is minus the pieces left.
    fn scores(&self) -> Option<Returns> {
        let mut r = [0.0; MAX_SEATS];
        r[0] = -(self.count as f64);
        Some(r)
    }

    fn board_shape(&self) -> Option<BoardShape> {
        Some(BoardShape::Square {
            width: 12,
            height: 12,
        })
    }

    /// The reason from the rules (no piece S-1, the run S-2, the jumper's
    /// colour S-3, the window S-5); see `text::illegal_reason`.
    fn illegal_reason(&self, text: &str) -> Option<String> {
        super::text::illegal_reason(self, text)
    }

    /// S-6: no jump is left; the grade names the rule book's result.
    fn end_reason(&self) -> Option<&'static str> {
        self.grade().map(|g| match g {
            Grade::Win => "no move (win)",
            Grade::Good => "no move (good)",
            Grade::Fair => "no move (fair)",
            Grade::Bad => "no move (bad)",
        })
    }
}

impl fmt::Display for SlySolitaireState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = sly::diagram(|sq| self.colour_at(sq).map(|k| super::COLOUR_LETTERS[k]));
        writeln!(f, "{d}")?;
        write!(f, "ply {}, {} pieces left", self.ply, self.count)?;
        if let Some(g) = self.grade() {
            write!(f, ", game over: {}", g.name())?;
        }
        Ok(())
    }
}
