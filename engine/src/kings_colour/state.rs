//! The King's Colour position: men as bit sets, the repetition ring, Zobrist keys, the State API and the research view.

use std::fmt;

use rand::Rng;

use super::movegen::MAX_PIECES;
use super::{CELLS, End, EndReason, Geometry, KingsColourMove, REPETITION_WINDOW, Rules};
use crate::api::{Research, Returns, State, ToMove};
use crate::board::Bits;
use crate::error::GameError;

/// A King's Colour position (flat, no heap; ~350 bytes).
#[derive(Clone)]
pub struct KingsColourState {
    pub(crate) geo: &'static Geometry,
    pub(crate) rules: Rules,
    /// Occupancy per side (Kings included).
    pub(crate) occ: [u128; 2],
    /// Promoted men of either side.
    pub(crate) queens: u128,
    pub(crate) kings: [u8; 2],
    pub(crate) side: u8,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    pub(crate) end: Option<End>,
    pub(crate) since_irreversible: u32,
    pub(crate) history: [u64; REPETITION_WINDOW],
}

impl State for KingsColourState {
    type Move = KingsColourMove;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        if self.end.is_some() {
            ToMove::Terminal
        } else {
            ToMove::Seat(self.side as usize)
        }
    }

    fn legal_moves(&self, out: &mut Vec<KingsColourMove>) {
        out.clear();
        if self.end.is_some() {
            return;
        }
        self.for_each_legal(|m| {
            out.push(m);
            true
        });
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.end.is_some() { 0 } else { self.count() }
    }

    /// The default's draw (one `random_range` over the number of legal
    /// moves, the move at that index of [`State::legal_moves`]), read off
    /// each piece's destination set instead of a built list.
    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<KingsColourMove>,
    ) -> Option<KingsColourMove> {
        if self.end.is_some() {
            return None;
        }
        let mut per_piece = [(0u8, 0u128); MAX_PIECES];
        let (len, n) = self.legal_targets(&mut per_piece);
        if n == 0 {
            return None;
        }
        let mut k = rng.random_range(0..n);
        for &(from, t) in &per_piece[..len] {
            let c = t.count() as usize;
            if k < c {
                return Some(KingsColourMove {
                    from,
                    to: t.nth(k as u32) as u8,
                });
            }
            k -= c;
        }
        unreachable!("the index is below the move count")
    }

    fn apply(&mut self, mv: KingsColourMove) {
        debug_assert!(self.end.is_none(), "apply at a terminal state");
        let irreversible = self.make(mv);
        self.settle(irreversible);
    }

    fn returns(&self) -> Returns {
        let mut r = [0.0; crate::api::MAX_SEATS];
        if let Some(End {
            winner: Some(w), ..
        }) = self.end
        {
            r[w.index()] = 1.0;
            r[w.opp().index()] = -1.0;
        }
        r
    }

    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn to_text(&self) -> String {
        let mut cols = Vec::with_capacity(13);
        for col in 0..13 {
            let mut t = String::new();
            let mut run = 0;
            for c in self.column(col) {
                match self.letter(c) {
                    Some(l) => {
                        if run > 0 {
                            t += &run.to_string();
                            run = 0;
                        }
                        t.push(l);
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                t += &run.to_string();
            }
            cols.push(t);
        }
        format!(
            "{} {} {}",
            cols.join("/"),
            if self.side == 0 { 'w' } else { 'b' },
            self.ply
        )
    }

    fn move_to_text(&self, mv: KingsColourMove) -> String {
        let g = self.geo;
        let sep = if self.is_capture(mv) { 'x' } else { '-' };
        let promo = if self.is_promotion(mv) { "=Q" } else { "" };
        let mut c = self.clone_board();
        c.make(mv);
        let suffix = if c.in_check(c.side_to_move()) {
            if c.has_legal_move() { "+" } else { "#" }
        } else {
            ""
        };
        format!(
            "{}{sep}{}{promo}{suffix}",
            g.name(mv.from as usize),
            g.name(mv.to as usize)
        )
    }

    fn parse_move(&self, text: &str) -> Result<KingsColourMove, GameError> {
        let g = self.geo;
        let t = text.trim();
        let bad = || {
            GameError::new(format!(
                "bad move {text:?}: expected <cell>-<cell> or <cell>x<cell>, optionally =Q and +/#, e.g. D4-C3, D5xF6, H8-I7=Q+"
            ))
        };
        let t = t.trim_end_matches(['+', '#']);
        let (t, promo) = match t.strip_suffix("=Q").or_else(|| t.strip_suffix("=q")) {
            Some(x) => (x, true),
            None => (t, false),
        };
        let i = t.find(['-', 'x', 'X']).ok_or_else(bad)?;
        let sep = t.as_bytes()[i];
        let from = g
            .parse_cell(&t[..i])
            .map_err(|e| GameError::new(format!("bad move {text:?}: {e}")))?;
        let to = g
            .parse_cell(&t[i + 1..])
            .map_err(|e| GameError::new(format!("bad move {text:?}: {e}")))?;
        let mv = KingsColourMove {
            from: from as u8,
            to: to as u8,
        };
        if from == to {
            crate::bail!("bad move {text:?}: start and end cell are the same");
        }
        let capture = self.is_capture(mv);
        if sep == b'-' && capture {
            crate::bail!(
                "bad move {text:?}: {} holds an enemy piece, write x",
                g.name(to)
            );
        }
        if sep != b'-' && !capture {
            crate::bail!(
                "bad move {text:?}: 'x' but {} holds no enemy piece",
                g.name(to)
            );
        }
        if promo && !self.is_promotion(mv) {
            crate::bail!("bad move {text:?}: '=Q' but the move does not promote");
        }
        Ok(mv)
    }
}

impl Research for KingsColourState {
    /// The reason from the rules (the King's castle KC-3, the switcheroo
    /// KC-12, the capture scope KC-8, a King left in check KC-11...); see
    /// `text::illegal_reason`.
    fn illegal_reason(&self, text: &str) -> Option<String> {
        super::text::illegal_reason(self, text)
    }

    /// The board picture (see [`Research::board_picture`]).
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        use crate::api::{BoardPicture, CellKind, CellPicture, CellShape, cased_piece};
        let g = self.geo;
        let cells = (0..CELLS)
            .map(|c| {
                let h = g.grid.hex(c);
                let side = (0..2).find(|&s| (g.castle[s] | g.wall[s]) >> c & 1 == 1);
                let kind = match side {
                    Some(s) if g.castle[s] >> c & 1 == 1 => CellKind::Castle(s),
                    Some(s) => CellKind::Wall(s),
                    None => CellKind::Light,
                };
                // Columns of constant q, rank r upwards (as the terminal board).
                CellPicture {
                    x: f64::from(h.q + 6) * 3f64.sqrt() / 2.0 + 0.6,
                    y: f64::from(6 - h.r) - f64::from(h.q) / 2.0 + 0.6,
                    name: g.name(c),
                    kind,
                    circled: false,
                    piece: self.letter(c).and_then(|ch| cased_piece(&ch.to_string())),
                }
            })
            .collect();
        Some(BoardPicture {
            cell_shape: CellShape::HexFlat,
            cells,
            links: Vec::new(),
        })
    }

    /// `checkmate` (KC-11), `stalemate` (KC-13), `repetition`, `ply cap` (KC-14).
    fn end_reason(&self) -> Option<&'static str> {
        Some(match self.end?.reason {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "repetition",
            EndReason::PlyCap => "ply cap",
        })
    }

    fn seat_role(&self, seat: usize) -> crate::SeatRole {
        crate::SeatRole::colour(if seat == 0 { "white" } else { "black" })
    }
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}

impl fmt::Debug for KingsColourState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KcState({})", self.to_text())
    }
}
