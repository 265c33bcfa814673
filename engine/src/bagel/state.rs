//! The Bagel position: discs as bit sets, reserves, the pie stage, Zobrist keys, the State API and the research view (swap, hex cells, scores).

use std::fmt;
use std::sync::Arc;

use rand::Rng;

use super::movegen::Layout;
use super::{BagelMove, MAX_COLOURS, MAX_LINES, Rules, Side};
use crate::api::{BoardShape, Research, Returns, State, ToMove};
use crate::board::Bits;
use crate::board::hex::Hex;
use crate::error::GameError;

/// Where in the game's opening a state is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Stage {
    /// White's one-disc opening (B-1).
    Open = 0,
    /// Black's first turn: swap or play (B-2).
    Pie = 1,
    /// Everything after (B-6).
    Play = 2,
}

/// A Bagel position: two `u64` disc sets, reserves, scores, the per-line
/// counts of aligned same-colour empty pairs, and a pointer to the layout's
/// tables. Cheap to clone: the layout's tables are shared, a clone only
/// bumps their reference count.
#[derive(Clone)]
pub struct BagelState {
    pub(crate) layout: Arc<Layout>,
    pub(crate) rules: Rules,
    pub(crate) discs: [u64; 2],
    pub(crate) reserve: [u8; 2],
    pub(crate) score: [u16; 2],
    pub(crate) to_move: Side,
    pub(crate) stage: Stage,
    pub(crate) white_seat: u8,
    pub(crate) over: bool,
    /// Aligned same-colour pairs of empty tiles (B-4), in all.
    pub(crate) pairs: u16,
    /// The same per line.
    pub(crate) line_pairs: [u8; MAX_LINES],
    pub(crate) ply: u32,
    pub(crate) hash: u64,
}

impl State for BagelState {
    type Move = BagelMove;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        if self.over {
            ToMove::Terminal
        } else {
            ToMove::Seat(self.seat_of(self.to_move))
        }
    }

    /// Singles in cell order, then pairs (line by line, colour by colour,
    /// lexicographic), then `swap`.
    fn legal_moves(&self, out: &mut Vec<BagelMove>) {
        out.clear();
        if self.over {
            return;
        }
        let empty = self.empty();
        for x in empty.iter() {
            out.push(BagelMove::Single(x as u8));
        }
        if self.pairs_allowed() {
            for l in 0..self.geo().lines.len() {
                if self.line_pairs[l] == 0 {
                    continue;
                }
                for c in 0..self.layout.colours {
                    let e = self.layout.group[l * MAX_COLOURS + c] & empty;
                    let mut rest = e;
                    while !rest.is_zero() {
                        let a = rest.lowest();
                        rest = rest.clear_lowest();
                        for b in rest.iter() {
                            out.push(BagelMove::Pair(a as u8, b as u8));
                        }
                    }
                }
            }
        }
        if self.stage == Stage::Pie {
            out.push(BagelMove::Swap);
        }
    }

    /// Move-count formula of §1.4: singles + Σ C(k, 2) + swap.
    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.over {
            return 0;
        }
        let mut n = self.empty().count() as usize;
        if self.pairs_allowed() {
            n += self.pairs as usize;
        }
        n + (self.stage == Stage::Pie) as usize
    }

    /// Uniform over [`State::legal_moves`] without building it: an index
    /// into singles, pairs (unranked from the per-line counts), swap.
    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<BagelMove>,
    ) -> Option<BagelMove> {
        if self.over {
            return None;
        }
        let empty = self.empty();
        let singles = empty.count();
        let pairs = if self.pairs_allowed() {
            self.pairs as u32
        } else {
            0
        };
        let total = singles + pairs + (self.stage == Stage::Pie) as u32;
        let i = rng.random_range(0..total);
        Some(if i < singles {
            BagelMove::Single(empty.nth(i) as u8)
        } else if i < singles + pairs {
            self.nth_pair(i - singles)
        } else {
            BagelMove::Swap
        })
    }

    fn apply(&mut self, mv: BagelMove) {
        debug_assert!(
            self.why_illegal(mv).is_none(),
            "illegal move {mv:?}: {:?}",
            self.why_illegal(mv)
        );
        let geo = self.geo();
        let c = self.to_move.idx();
        self.hash ^= geo.z_stage[self.stage as usize];
        match mv {
            BagelMove::Swap => {
                // B-5: colours change hands, Black (now the first player)
                // is still to move.
                self.white_seat ^= 1;
                self.hash ^= geo.z_swapped;
                self.stage = Stage::Play;
            }
            BagelMove::Single(x) => {
                self.place(x as usize, c);
            }
            BagelMove::Pair(a, b) => {
                self.place(a as usize, c);
                self.place(b as usize, c);
            }
        }
        if mv != BagelMove::Swap {
            self.stage = match self.stage {
                Stage::Open => Stage::Pie,
                _ => Stage::Play,
            };
            self.to_move = self.to_move.other();
            self.hash ^= geo.z_black;
        }
        self.hash ^= geo.z_stage[self.stage as usize];
        self.ply += 1;
        self.update_over();
    }

    /// Win 1, loss −1 by B-11…B-13 (Bagel has no draws).
    fn returns(&self) -> Returns {
        let mut r = [0.0; crate::api::MAX_SEATS];
        if let Some(w) = self.winner() {
            r[self.seat_of(w)] = 1.0;
            r[self.seat_of(w.other())] = -1.0;
        }
        r
    }

    #[inline]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let geo = self.geo();
        let mut h = self.layout.zobrist ^ geo.z_stage[self.stage as usize];
        for c in 0..2 {
            for x in self.discs[c].iter() {
                h ^= geo.z_disc[x as usize * 2 + c];
            }
        }
        if self.to_move == Side::Black {
            h ^= geo.z_black;
        }
        if self.white_seat == 1 {
            h ^= geo.z_swapped;
        }
        h
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn to_text(&self) -> String {
        let geo = self.geo();
        let discs: String = geo
            .tile_cells()
            .map(|x| {
                if self.discs[0] >> x & 1 == 1 {
                    'w'
                } else if self.discs[1] >> x & 1 == 1 {
                    'b'
                } else {
                    '.'
                }
            })
            .collect();
        format!(
            "{} {discs} {} {} {} {} {} {}",
            self.layout.text,
            if self.to_move == Side::White {
                'w'
            } else {
                'b'
            },
            match self.stage {
                Stage::Open => "open",
                Stage::Pie => "pie",
                Stage::Play => "play",
            },
            self.reserve[0],
            self.reserve[1],
            self.white_seat,
            self.ply
        )
    }

    fn move_to_text(&self, mv: BagelMove) -> String {
        let geo = self.geo();
        match mv {
            BagelMove::Swap => "swap".into(),
            BagelMove::Single(x) => geo.name(x as usize),
            BagelMove::Pair(a, b) => format!("{}+{}", geo.name(a as usize), geo.name(b as usize)),
        }
    }

    /// Reads `swap`, `c4` or `c3+d3` (either order). Besides the syntax it
    /// rejects, with the rule named, what can never be legal here: the
    /// hole, an occupied tile, a pair of different colours or not aligned
    /// (B-4), a pair in the opening (B-1) or with one disc left (B-R3), a
    /// swap off Black's first turn (B-5). At a terminal state only the
    /// syntax is checked.
    fn parse_move(&self, text: &str) -> Result<BagelMove, GameError> {
        let mv = self.parse_text(text)?;
        if !self.over
            && let Some(why) = self.why_illegal(mv)
        {
            crate::bail!("illegal move {text:?}: {why}");
        }
        Ok(mv)
    }
}

impl BagelState {
    /// The move `text` names (`c4`, `c3+d3`, `swap`), its syntax and cells
    /// checked, its legality not.
    fn parse_text(&self, text: &str) -> Result<BagelMove, GameError> {
        let geo = self.geo();
        let t = text.trim();
        let cell = |s: &str| -> Result<u8, GameError> {
            geo.grid
                .parse_cell(s.trim(), &geo.notation)
                .map(|c| c as u8)
                .map_err(|e| GameError::new(format!("bad move {text:?}: {e}")))
        };
        let mv = if t.eq_ignore_ascii_case("swap") {
            BagelMove::Swap
        } else if let Some((a, b)) = t.split_once('+') {
            let (a, b) = (cell(a)?, cell(b)?);
            BagelMove::Pair(a.min(b), a.max(b))
        } else if t.is_empty() {
            crate::bail!("bad move {text:?}: expected a cell like c4, a pair like c3+d3, or swap");
        } else {
            BagelMove::Single(cell(t)?)
        };
        Ok(mv)
    }
}

impl Research for BagelState {
    /// The reason from the rules, [`BagelState::why_illegal`]: an occupied
    /// tile or the hole (B-3), a pair not of one colour or not on one line
    /// (B-4), a pair on the opening turn (B-1, B-R2) or with one disc left
    /// (B-R3), a swap after Black's first turn (B-5).
    fn illegal_reason(&self, text: &str) -> Option<String> {
        let mv = match self.parse_text(text) {
            Ok(mv) => mv,
            Err(e) => return Some(e.to_string()),
        };
        if self.over {
            return Some("the game is already over".into());
        }
        self.why_illegal(mv)
    }

    /// The board picture (see [`Research::board_picture`]).
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        use crate::api::{BoardPicture, CellKind, CellPicture, CellShape, PiecePicture};
        let geo = self.geo();
        let rr = geo.grid.radius();
        let mut cells = Vec::new();
        // Rows of constant s, row 1 at the bottom, cells a, b, ... left to
        // right (the notation of B-G3, as the terminal board).
        for n in (1..=2 * rr + 1).rev() {
            let mut k = 0u8;
            for c in 0..=2 * rr {
                let h = Hex::new(c - rr, n - 1 - c);
                let Some(x) = geo.grid.index(h) else {
                    continue;
                };
                let disc = (0..2).find(|&s| self.discs[s] >> x & 1 == 1);
                cells.push(CellPicture {
                    x: f64::from(h.q - h.r) / 2.0 + f64::from(rr) + 0.6,
                    y: f64::from(2 * rr + 1 - n) * 3f64.sqrt() / 2.0 + 0.6,
                    name: format!("{}{n}", (b'a' + k) as char),
                    kind: if x == geo.hole {
                        CellKind::Hole
                    } else {
                        CellKind::Tile(self.layout.colour[x])
                    },
                    circled: false,
                    piece: disc.map(|s| PiecePicture {
                        colour: Some(s),
                        label: String::new(),
                    }),
                });
                k += 1;
            }
        }
        Some(BoardPicture {
            cell_shape: CellShape::HexPointy,
            cells,
            links: Vec::new(),
        })
    }

    /// The game ends when a player cannot place (B-10); the reason names
    /// the rule that decided it: `score` (B-11), `run tie-break` (B-12) or
    /// `full tie` (B-13, Black wins).
    fn end_reason(&self) -> Option<&'static str> {
        if !self.over {
            return None;
        }
        if self.score[0] != self.score[1] {
            return Some("score");
        }
        let (mut rw, nw) = self.runs(Side::White);
        let (mut rb, nb) = self.runs(Side::Black);
        rw[..nw].sort_unstable();
        rb[..nb].sort_unstable();
        Some(if rw[..nw] == rb[..nb] {
            "full tie"
        } else {
            "run tie-break"
        })
    }

    fn seat_role(&self, seat: usize) -> crate::SeatRole {
        let role = if seat == 0 { "first" } else { "second" };
        let colour = match self.stage {
            Stage::Play if self.seat_of(Side::White) == seat => Side::White.name(),
            Stage::Play => Side::Black.name(),
            _ => "",
        };
        crate::SeatRole {
            role,
            colour: colour.to_string(),
            team: None,
        }
    }
    /// The seat holding White after any swap (decided after Black's first
    /// turn).
    fn first_mover_seat(&self) -> Option<usize> {
        (self.stage == Stage::Play).then(|| self.seat_of(Side::White))
    }
    /// Seat 0 places the opening disc.
    fn setter_seat(&self) -> Option<usize> {
        Some(0)
    }
    fn scores(&self) -> Option<Returns> {
        let mut r = [0.0; crate::api::MAX_SEATS];
        r[self.seat_of(Side::White)] = self.score[0] as f64;
        r[self.seat_of(Side::Black)] = self.score[1] as f64;
        Some(r)
    }
    /// The swap of B-5.
    fn is_swap(&self, mv: BagelMove) -> bool {
        mv == BagelMove::Swap
    }
    fn board_shape(&self) -> Option<BoardShape> {
        Some(BoardShape::Hex {
            side: self.geo().grid.side() as u32,
        })
    }
    /// Plot cells: axial `(q, s)` of the toolkit's `(q, r)`, so that rows
    /// run left to right and row 7 is at the top, as in B-G3's picture.
    fn move_cells(&self, mv: BagelMove) -> Vec<(i32, i32)> {
        let grid = &self.geo().grid;
        let cell = |i: u8| {
            let h = grid.hex(i as usize);
            (h.q, h.s())
        };
        match mv {
            BagelMove::Single(a) => vec![cell(a)],
            BagelMove::Pair(a, b) => vec![cell(a), cell(b)],
            BagelMove::Swap => Vec::new(),
        }
    }
}

impl fmt::Debug for BagelState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BagelState({})", self.to_text())
    }
}
