//! The Line Up position and its [`State`] implementation: the turn schedule
//! (U-1, U-2), apply, the endings (U-4, U-5, U-6) and the Zobrist key.

use rand::Rng;

use super::solve::Table;
use super::{CELLS, KING, LINES, LineUpMove, ORTH, Rules, STOCK, SYMMETRIES, keys};
use crate::api::{BoardShape, MAX_SEATS, Research, Returns, State, ToMove};
use crate::board::KeyHistory;
use crate::error::GameError;

/// Why a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The mover made four in a line (U-4).
    Line,
    /// The player to move could not move the required type (U-5).
    Immobile,
    /// The ply cap (ruling U-6): draw.
    PlyCap,
    /// A repeated position (option of U-6): draw.
    Repetition,
}

impl Outcome {
    /// The end reason's name in records.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Line => "line",
            Outcome::Immobile => "immobile",
            Outcome::PlyCap => "ply cap",
            Outcome::Repetition => "repetition",
        }
    }
}

/// A Line Up position: each player's pieces by type, the plies played (the
/// global turn is `ply + 1`, U-1), the ending, the key and the repetition
/// window. Cheap to clone: six `u16` masks and a few counters (the history
/// is empty unless `repetitions` is on).
#[derive(Clone)]
pub struct LineUpState {
    pub(super) rules: Rules,
    /// `pieces[player][type]`: player 0 is the first player; types in U-1
    /// order (square, triangle, cylinder).
    pub(super) pieces: [[u16; 3]; 2],
    pub(super) ply: u32,
    /// The ending, with the winning player (0 first, 1 second) if any.
    pub(super) end: Option<(Outcome, Option<u8>)>,
    pub(super) hash: u64,
    pub(super) history: KeyHistory,
    /// The movement-phase solution table [`crate::Search::solved`] reads: the
    /// game's `table` parameter, shared by every state of the game.
    pub(super) table: Option<&'static Table>,
}

impl std::fmt::Debug for LineUpState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LineUpState({})", self.to_text())
    }
}

impl LineUpState {
    /// The empty board at turn 1.
    pub(super) fn new(rules: Rules) -> LineUpState {
        let mut s = LineUpState {
            rules,
            pieces: [[0; 3]; 2],
            ply: 0,
            end: None,
            hash: 0,
            history: KeyHistory::default(),
            table: None,
        };
        s.hash = s.zobrist_from_scratch();
        s
    }

    /// The player to move (0 = first player): the first player moves on odd
    /// global turns (U-1).
    #[inline(always)]
    pub fn player(&self) -> usize {
        (self.ply & 1) as usize
    }

    /// The piece type the player to move must use (U-1): 0 square, 1
    /// triangle, 2 cylinder.
    #[inline(always)]
    pub fn piece_type(&self) -> usize {
        (self.ply % 3) as usize
    }

    /// The seat of player `p` (0 first, 1 second).
    #[inline(always)]
    pub fn seat_of(&self, p: usize) -> usize {
        (p + self.rules.first_seat as usize) & 1
    }

    /// `pieces(player)[type]`: the cells of that player's pieces of that
    /// type.
    #[inline(always)]
    pub fn pieces(&self, player: usize) -> [u16; 3] {
        self.pieces[player]
    }

    /// All pieces of `player`.
    #[inline(always)]
    pub fn all(&self, player: usize) -> u16 {
        let p = self.pieces[player];
        p[0] | p[1] | p[2]
    }

    /// The empty cells.
    #[inline(always)]
    pub fn empty(&self) -> u16 {
        !(self.all(0) | self.all(1))
    }

    /// The ending, if the game is over: why, and the winning player (0
    /// first, 1 second; `None` for a draw).
    pub fn ending(&self) -> Option<(Outcome, Option<u8>)> {
        self.end
    }

    /// The rules of the game.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Whether the player to move must place (U-2): he still has an
    /// unplaced piece of the required type.
    #[inline(always)]
    pub fn must_place(&self) -> bool {
        let t = self.piece_type();
        self.pieces[self.player()][t].count_ones() < STOCK[t]
    }

    /// The neighbourhood table of piece type `t` (U-3).
    #[inline(always)]
    pub(super) fn steps(t: usize) -> &'static [u16; CELLS] {
        if t == 2 { &KING } else { &ORTH }
    }

    /// Whether `player` has four in a line (U-4).
    #[inline(always)]
    pub fn has_line(&self, player: usize) -> bool {
        let a = self.all(player);
        LINES.iter().any(|&l| l & !a == 0)
    }

    /// Whether the player to move has a legal move: a placement, or a piece
    /// of the required type with an empty neighbour (U-5).
    #[inline(always)]
    fn can_act(&self) -> bool {
        if self.must_place() {
            return true;
        }
        let t = self.piece_type();
        let empty = self.empty();
        let nb = Self::steps(t);
        let mut p = self.pieces[self.player()][t];
        while p != 0 {
            let c = p.trailing_zeros() as usize;
            if nb[c] & empty != 0 {
                return true;
            }
            p &= p - 1;
        }
        false
    }

    /// Sets the ending of a position reached after `ply` plies, the mover
    /// of the last ply being the other player: his line (U-4), then the
    /// player to move's immobility (U-5), then repetition and the ply cap
    /// (U-6).
    pub(super) fn settle(&mut self) {
        let last = 1 - self.player();
        self.end = if self.ply > 0 && self.has_line(last) {
            Some((Outcome::Line, Some(last as u8)))
        } else if !self.can_act() {
            Some((Outcome::Immobile, Some(last as u8)))
        } else if self.rules.repetitions >= 2
            && self.history.count(self.hash) + 1 >= self.rules.repetitions
        {
            Some((Outcome::Repetition, None))
        } else if self.ply >= self.rules.ply_cap {
            Some((Outcome::PlyCap, None))
        } else {
            None
        };
    }

    /// Whether grid symmetry `k` ([`SYMMETRIES`]) maps every piece onto a
    /// piece of the same player and type.
    fn keeps(&self, k: usize) -> bool {
        let map = |m: u16| {
            (0..CELLS)
                .filter(|&c| m >> c & 1 == 1)
                .fold(0u16, |a, c| a | 1 << SYMMETRIES[k][c])
        };
        self.pieces.iter().flatten().all(|&m| map(m) == m)
    }

    /// Checks `mv` is legal here.
    ///
    /// # Errors
    /// A move at the end of the game or one not among the legal moves.
    pub fn check_legal(&self, mv: LineUpMove) -> Result<(), GameError> {
        if self.end.is_some() {
            crate::bail!("move {:?}: the game is already over", self.move_to_text(mv));
        }
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        if !v.contains(&mv) {
            crate::bail!(
                "move {:?} is not legal in this position (the {} player must {} a {})",
                self.move_to_text(mv),
                if self.player() == 0 {
                    "first"
                } else {
                    "second"
                },
                if self.must_place() { "place" } else { "move" },
                super::TYPE_NAMES[self.piece_type()]
            );
        }
        Ok(())
    }
}

impl State for LineUpState {
    type Move = LineUpMove;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline(always)]
    fn to_move(&self) -> ToMove {
        if self.end.is_some() {
            ToMove::Terminal
        } else {
            ToMove::Seat(self.seat_of(self.player()))
        }
    }

    fn legal_moves(&self, out: &mut Vec<LineUpMove>) {
        out.clear();
        if self.end.is_none() {
            super::movegen::generate(self, |m| out.push(m));
        }
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.end.is_some() {
            0
        } else {
            super::movegen::count(self) as usize
        }
    }

    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<LineUpMove>,
    ) -> Option<LineUpMove> {
        if self.end.is_some() {
            return None;
        }
        let n = super::movegen::count(self);
        Some(super::movegen::nth(self, rng.random_range(0..n)))
    }

    #[inline]
    fn apply(&mut self, mv: LineUpMove) {
        debug_assert!(
            self.check_legal(mv).is_ok(),
            "illegal move {mv:?} in {}",
            self.to_text()
        );
        let k = keys();
        let (p, t) = (self.player(), self.piece_type());
        let before = self.hash;
        let to = mv.to as usize;
        if mv.is_place() {
            self.pieces[p][t] |= 1 << to;
            self.hash ^= k.piece[p][t][to];
            if self.rules.repetitions >= 2 {
                self.history.clear(); // a placement cannot be undone
            }
        } else {
            let from = mv.from as usize;
            self.pieces[p][t] ^= (1 << from) | (1 << to);
            self.hash ^= k.piece[p][t][from] ^ k.piece[p][t][to];
            if self.rules.repetitions >= 2 {
                self.history.push(before);
            }
        }
        let phase = (self.ply % 6) as usize;
        self.ply += 1;
        self.hash ^= k.phase[phase] ^ k.phase[(phase + 1) % 6];
        self.settle();
    }

    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if let Some((_, Some(w))) = self.end {
            let w = w as usize;
            r[self.seat_of(w)] = 1.0;
            r[self.seat_of(1 - w)] = -1.0;
        }
        r
    }

    #[inline(always)]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let k = keys();
        let mut h = k.phase[(self.ply % 6) as usize];
        for p in 0..2 {
            for t in 0..3 {
                for c in 0..CELLS {
                    if self.pieces[p][t] >> c & 1 == 1 {
                        h ^= k.piece[p][t][c];
                    }
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

    fn move_to_text(&self, mv: LineUpMove) -> String {
        super::text::move_text(mv)
    }

    fn parse_move(&self, text: &str) -> Result<LineUpMove, GameError> {
        super::text::parse_move(text)
    }
}

impl Research for LineUpState {
    /// The board picture (see [`Research::board_picture`]).
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        use crate::api::{CellKind, board_field, cased_piece, square_picture};
        let mut p = square_picture(
            board_field(&crate::api::State::to_text(self)),
            false,
            cased_piece,
            |_, _| CellKind::Light,
        )?;
        // The 16 field centres of the Sly board (docs/rules/line_up.md U-SET-1).
        for c in &mut p.cells {
            let (i, j) = ((c.y - 0.5) as usize, (c.x - 0.5) as usize);
            c.circled = true;
            c.name = format!("{}{}", 3 * i + 2, ['B', 'E', 'H', 'K'][j]);
        }
        Some(p)
    }

    /// Line Up's two sides are named by who places first.
    fn seat_role(&self, seat: usize) -> crate::SeatRole {
        crate::SeatRole::colour(if seat == self.seat_of(0) {
            "first"
        } else {
            "second"
        })
    }

    fn first_mover_seat(&self) -> Option<usize> {
        Some(self.rules.first_seat as usize)
    }

    /// The symmetries of the 4 × 4 grid (they keep lines and neighbours)
    /// that also keep this position: all 8 on the empty board.
    fn symmetry_count(&self) -> usize {
        (0..8).filter(|&k| self.keeps(k)).count()
    }

    /// `mv` under the `sym`-th symmetry that keeps this position.
    fn transform_move(&self, mv: LineUpMove, sym: usize) -> LineUpMove {
        let k = (0..8)
            .filter(|&k| self.keeps(k))
            .nth(sym)
            .expect("sym < symmetry_count");
        let s = &SYMMETRIES[k];
        LineUpMove {
            from: if mv.is_place() {
                mv.from
            } else {
                s[mv.from as usize]
            },
            to: s[mv.to as usize],
        }
    }

    fn board_shape(&self) -> Option<BoardShape> {
        Some(BoardShape::Square {
            width: 4,
            height: 4,
        })
    }

    /// The cell reached, as `(column, rank)` with rank 0 at the bottom (grid
    /// row 3).
    fn move_cells(&self, mv: LineUpMove) -> Vec<(i32, i32)> {
        let c = mv.to as i32;
        vec![(c % 4, 3 - c / 4)]
    }

    fn end_reason(&self) -> Option<&'static str> {
        self.end.map(|(e, _)| e.name())
    }

    /// The reason from the rules (the turn schedule U-1, U-2, a taken
    /// centre, steps U-3); see `text::illegal_reason`.
    fn illegal_reason(&self, text: &str) -> Option<String> {
        super::text::illegal_reason(self, text)
    }
}
