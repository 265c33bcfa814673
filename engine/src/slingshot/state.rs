//! The Slingshot position: stones, stacks and hands as bit sets, the set-up and pie stages, Zobrist keys, the State API and the research view (symmetries, swap, plot cells).

use std::fmt;

use rand::Rng;

use super::movegen::Geometry;
use super::{Rules, Side, SlingshotMove};
use crate::api::{BoardShape, Research, Returns, State, ToMove};
use crate::board::{Bits, push_square_name};
use crate::error::GameError;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Stage {
    Setup,
    Choose,
    Play,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Outcome {
    Ongoing,
    Win(Side),
    Draw,
}

/// A Slingshot position. `Copy`-cheap: four `u128` sets and a few counters.
#[derive(Clone, Copy)]
pub struct SlingshotState {
    pub(crate) geo: &'static Geometry,
    pub(crate) rules: Rules,
    pub(crate) black: u128,
    pub(crate) teal: u128,
    pub(crate) stacks: u128,
    pub(crate) neutral: u128,
    pub(crate) stage: Stage,
    pub(crate) phase_s: bool,
    pub(crate) to_move: Side,
    /// Seat playing Black (valid in `Stage::Play`): 1 if the chooser took Black.
    pub(crate) black_seat: u8,
    pub(crate) passes: u8,
    pub(crate) outcome: Outcome,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    /// Per direction, the midpoints whose custodial pair is empty (A.4.1):
    /// a function of the empty squares, kept by `settle` (empties never
    /// change in Phase S, so it stays valid there).
    pub(crate) open: [u128; 4],
}

impl PartialEq for SlingshotState {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.black == o.black
            && self.teal == o.teal
            && self.stacks == o.stacks
            && self.neutral == o.neutral
            && self.stage == o.stage
            && self.phase_s == o.phase_s
            && (self.stage != Stage::Play
                || (self.to_move == o.to_move && self.black_seat == o.black_seat))
            && self.passes == o.passes
            && self.outcome == o.outcome
            && self.ply == o.ply
            && self.hash == o.hash
    }
}

impl fmt::Debug for SlingshotState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SlingshotState({})", self.to_text())
    }
}

impl State for SlingshotState {
    type Move = SlingshotMove;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        if self.outcome != Outcome::Ongoing {
            return ToMove::Terminal;
        }
        match self.stage {
            Stage::Setup => ToMove::Seat(0),
            Stage::Choose => ToMove::Seat(1),
            Stage::Play => ToMove::Seat(match self.to_move {
                Side::Black => self.black_seat as usize,
                Side::Teal => 1 - self.black_seat as usize,
            }),
        }
    }

    fn legal_moves(&self, out: &mut Vec<SlingshotMove>) {
        out.clear();
        if self.outcome != Outcome::Ongoing {
            return;
        }
        match self.stage {
            Stage::Setup => {
                let empty = !self.occupied() & self.geo.grid.full;
                for a in empty.iter() {
                    for b in (empty >> (a + 1) << (a + 1)).iter() {
                        out.push(SlingshotMove::Setup(a as u8, b as u8));
                    }
                }
            }
            Stage::Choose => {
                out.push(SlingshotMove::Choose(Side::Black));
                out.push(SlingshotMove::Choose(Side::Teal));
            }
            Stage::Play if !self.phase_s => {
                self.for_each_custodial_line(self.to_move, |dir, mids, tg| {
                    for m in mids.iter() {
                        for t in tg.iter() {
                            out.push(self.custodial_move(dir, m, t));
                        }
                    }
                    true
                });
            }
            Stage::Play => {
                let t = self.stack_targets(self.to_move);
                if t == 0 {
                    out.push(SlingshotMove::Pass);
                } else {
                    out.extend(t.iter().map(|s| SlingshotMove::Stack(s as u8)));
                }
            }
        }
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.outcome != Outcome::Ongoing {
            return 0;
        }
        match self.stage {
            Stage::Setup => {
                let k = (!self.occupied() & self.geo.grid.full).count() as usize;
                k * (k - 1) / 2
            }
            Stage::Choose => 2,
            Stage::Play if !self.phase_s => self.custodial_count(self.to_move),
            Stage::Play => (self.stack_targets(self.to_move).count() as usize).max(1),
        }
    }

    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<SlingshotMove>,
    ) -> Option<SlingshotMove> {
        if self.outcome != Outcome::Ongoing {
            return None;
        }
        match self.stage {
            Stage::Play if !self.phase_s => self.sample_custodial(self.to_move, rng),
            Stage::Play => {
                let t = self.stack_targets(self.to_move);
                if t == 0 {
                    Some(SlingshotMove::Pass)
                } else {
                    Some(SlingshotMove::Stack(
                        t.nth(rng.random_range(0..t.count())) as u8
                    ))
                }
            }
            Stage::Setup => {
                // A uniform ordered pair of distinct empty squares, sorted, is
                // a uniform unordered pair.
                let _ = buf;
                let empty = !self.occupied() & self.geo.grid.full;
                let k = empty.count();
                let i = rng.random_range(0..k);
                let mut j = rng.random_range(0..k - 1);
                if j >= i {
                    j += 1;
                }
                let (a, b) = (empty.nth(i.min(j)), empty.nth(i.max(j)));
                Some(SlingshotMove::Setup(a as u8, b as u8))
            }
            Stage::Choose => Some(SlingshotMove::Choose(if rng.random::<bool>() {
                Side::Black
            } else {
                Side::Teal
            })),
        }
    }

    fn apply(&mut self, mv: SlingshotMove) {
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
        match mv {
            SlingshotMove::Setup(a, b) => {
                self.toggle(a as u32, 1);
                self.toggle(b as u32, 1);
                self.stage = Stage::Choose;
                self.hash ^= self.geo.z_stage_setup ^ self.geo.z_stage_choose;
            }
            SlingshotMove::Choose(c) => {
                // S7: Black moves first, whoever plays it.
                self.black_seat = if c == Side::Black { 1 } else { 0 };
                if self.black_seat == 1 {
                    self.hash ^= self.geo.z_black_seat_1;
                }
                self.stage = Stage::Play;
                self.hash ^= self.geo.z_stage_choose;
                self.to_move = Side::Black;
                self.hash ^= self.geo.z_black_to_move;
                self.settle();
            }
            SlingshotMove::Custodial { a, b, t } => {
                // S10: two stones on the pair, the target returns to its
                // owner's hand and the mover's third stone takes its place.
                let me = Self::kind(self.to_move);
                self.toggle(a as u32, me);
                self.toggle(b as u32, me);
                self.toggle(t as u32, 1 - me);
                self.toggle(t as u32, me);
                self.end_turn();
            }
            SlingshotMove::Stack(t) => {
                // S15: the opponent singleton becomes a neutral stack.
                let opp = 1 - Self::kind(self.to_move);
                self.toggle(t as u32, opp);
                self.toggle(t as u32, 2);
                self.set_passes(0);
                self.end_turn();
            }
            SlingshotMove::Pass => {
                self.set_passes(self.passes + 1);
                self.end_turn();
            }
        }
    }

    fn returns(&self) -> Returns {
        let mut r = [0.0; crate::api::MAX_SEATS];
        if let Outcome::Win(c) = self.outcome {
            let w = self.seat_of(c).expect("a win happens in play");
            r[w] = 1.0;
            r[1 - w] = -1.0;
        }
        r
    }

    #[inline(always)]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let g = self.geo;
        let mut h = 0;
        for (kind, set) in [self.black, self.teal, self.stacks].into_iter().enumerate() {
            for sq in set.iter() {
                h ^= g.zsq(sq, kind);
            }
        }
        match self.stage {
            Stage::Setup => h ^= g.z_stage_setup,
            Stage::Choose => h ^= g.z_stage_choose,
            Stage::Play => {
                if self.to_move == Side::Black {
                    h ^= g.z_black_to_move;
                }
                if self.black_seat == 1 {
                    h ^= g.z_black_seat_1;
                }
            }
        }
        if self.phase_s {
            h ^= g.z_phase_s;
        }
        if self.passes > 0 {
            h ^= g.z_passes[self.passes as usize];
        }
        h
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn to_text(&self) -> String {
        let n = self.geo.n;
        let rows = crate::board::text::write_rows(n, n, |i, c| {
            let bit = 1u128 << ((n - 1 - i) * n + c);
            if self.black & bit != 0 {
                Some('B')
            } else if self.teal & bit != 0 {
                Some('T')
            } else if self.stacks & bit != 0 {
                Some('X')
            } else if self.neutral & bit != 0 {
                Some('#')
            } else {
                None
            }
        });
        let stage = match self.stage {
            Stage::Setup => "setup".to_string(),
            Stage::Choose => "choose".to_string(),
            Stage::Play => self.to_move.letter().to_string(),
        };
        let seat = if self.stage == Stage::Play {
            self.black_seat.to_string()
        } else {
            "-".into()
        };
        format!(
            "{} {stage} {} {} {seat} {}",
            rows,
            if self.phase_s { 'S' } else { 'C' },
            self.passes,
            self.ply
        )
    }

    fn move_to_text(&self, mv: SlingshotMove) -> String {
        match mv {
            SlingshotMove::Setup(a, b) => {
                format!("{},{}", self.square_text(a), self.square_text(b))
            }
            SlingshotMove::Choose(c) => format!("chooser={}", c.letter()),
            SlingshotMove::Custodial { a, b, t } => format!(
                "{}+{}x{}",
                self.square_text(a),
                self.square_text(b),
                self.square_text(t)
            ),
            SlingshotMove::Stack(t) => format!("*{}", self.square_text(t)),
            SlingshotMove::Pass => "pass".to_string(),
        }
    }

    fn push_move_text(&self, mv: SlingshotMove, out: &mut String) {
        let n = self.geo.n as usize;
        let sq = |s: u8, out: &mut String| push_square_name(s as usize, n, out);
        match mv {
            SlingshotMove::Custodial { a, b, t } => {
                sq(a, out);
                out.push('+');
                sq(b, out);
                out.push('x');
                sq(t, out);
            }
            SlingshotMove::Stack(t) => {
                out.push('*');
                sq(t, out);
            }
            SlingshotMove::Pass => out.push_str("pass"),
            // Once a game at most.
            SlingshotMove::Setup(..) | SlingshotMove::Choose(_) => {
                out.push_str(&self.move_to_text(mv));
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<SlingshotMove, GameError> {
        let t = text.trim();
        let expected = "expected a set-up `e5,a1`, `chooser=B|T`, a custodial move `e4+e6xe5`, a stack `*e1` or `pass`";
        let wrap = |e: GameError| GameError::new(format!("bad move {text:?}: {e}"));
        if t == "pass" {
            return Ok(SlingshotMove::Pass);
        }
        if let Some(c) = t.strip_prefix("chooser=") {
            return match c {
                "B" | "b" => Ok(SlingshotMove::Choose(Side::Black)),
                "T" | "t" => Ok(SlingshotMove::Choose(Side::Teal)),
                _ => crate::bail!("bad move {text:?}: {expected}"),
            };
        }
        if let Some(sq) = t.strip_prefix('*') {
            return Ok(SlingshotMove::Stack(self.parse_sq(sq).map_err(wrap)?));
        }
        if let Some((a, b)) = t.split_once(',') {
            let (a, b) = (
                self.parse_sq(a).map_err(wrap)?,
                self.parse_sq(b).map_err(wrap)?,
            );
            if a == b {
                crate::bail!("bad move {text:?}: the two set-up stones need two different squares");
            }
            return Ok(SlingshotMove::Setup(a.min(b), a.max(b)));
        }
        let (pair, target) = t
            .split_once('x')
            .or_else(|| t.split_once('×'))
            .ok_or_else(|| GameError::new(format!("bad move {text:?}: {expected}")))?;
        let (a, b) = pair
            .split_once('+')
            .ok_or_else(|| GameError::new(format!("bad move {text:?}: {expected}")))?;
        let (a, b, tg) = (
            self.parse_sq(a).map_err(wrap)?,
            self.parse_sq(b).map_err(wrap)?,
            self.parse_sq(target).map_err(wrap)?,
        );
        if a == b || tg == a || tg == b {
            crate::bail!("bad move {text:?}: the custodial squares and the target must differ");
        }
        Ok(SlingshotMove::Custodial {
            a: a.min(b),
            b: a.max(b),
            t: tg,
        })
    }
}

impl Research for SlingshotState {
    /// The reason from the rules (a custodial move must be made S8, the
    /// target an opponent singleton S9, both pair squares empty Q11,
    /// stacking compulsory S18...); see `text::illegal_reason`.
    fn illegal_reason(&self, text: &str) -> Option<String> {
        super::text::illegal_reason(self, text)
    }

    /// `connection` (S-win), `stuck` (`stuck_loses`: no stack move left), `two passes` (draw).
    fn end_reason(&self) -> Option<&'static str> {
        match self.outcome {
            Outcome::Ongoing => None,
            Outcome::Win(c) if self.has_path(c) => Some("connection"),
            Outcome::Win(_) => Some("stuck"),
            Outcome::Draw => Some("two passes"),
        }
    }

    /// The board picture (see [`Research::board_picture`]).
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        use crate::api::{CellKind, board_field, piece, square_picture};
        let p = square_picture(
            board_field(&crate::api::State::to_text(self)),
            false,
            |t| match t {
                "B" => piece(Some(0), "B"),
                "T" => piece(Some(1), "T"),
                "X" => piece(None, "S"),
                "#" => piece(None, "N"),
                _ => None,
            },
            |_, _| CellKind::Light,
        )?;
        Some(p)
    }

    fn seat_role(&self, seat: usize) -> crate::SeatRole {
        let role = if seat == 0 { "setter" } else { "chooser" };
        let colour = match self.stage {
            Stage::Play if seat == self.black_seat as usize => "black",
            Stage::Play => "teal",
            _ => "",
        };
        crate::SeatRole {
            role,
            colour: colour.to_string(),
            team: None,
        }
    }
    fn first_mover_seat(&self) -> Option<usize> {
        self.seat_of(Side::Black)
    }
    fn setter_seat(&self) -> Option<usize> {
        Some(0)
    }
    /// `chooser=B` is the swap: the chooser takes the first move against the
    /// set-up (S5, S7); `chooser=T` leaves it with the setter.
    fn is_swap(&self, mv: SlingshotMove) -> bool {
        mv == SlingshotMove::Choose(Side::Black)
    }
    /// On the empty board, the four symmetries that keep both goals (S1:
    /// Black joins ranks 1 and n, Teal files a and the last): the identity,
    /// the mirror across the middle file, the mirror across the middle rank
    /// and the half turn. The diagonal mirrors swap the goals and are left
    /// out. Elsewhere only the identity.
    fn symmetry_count(&self) -> usize {
        if self.stage == Stage::Setup && self.occupied() == 0 {
            4
        } else {
            1
        }
    }
    fn transform_move(&self, mv: SlingshotMove, sym: usize) -> SlingshotMove {
        let n = self.geo.n;
        let map = |sq: u8| -> u8 {
            let (r, c) = (sq as u32 / n, sq as u32 % n);
            let (r, c) = match sym {
                0 => (r, c),
                1 => (r, n - 1 - c),
                2 => (n - 1 - r, c),
                _ => (n - 1 - r, n - 1 - c),
            };
            (r * n + c) as u8
        };
        match mv {
            SlingshotMove::Setup(a, b) => {
                let (a, b) = (map(a), map(b));
                SlingshotMove::Setup(a.min(b), a.max(b))
            }
            SlingshotMove::Custodial { a, b, t } => {
                let (a, b) = (map(a), map(b));
                SlingshotMove::Custodial {
                    a: a.min(b),
                    b: a.max(b),
                    t: map(t),
                }
            }
            SlingshotMove::Stack(t) => SlingshotMove::Stack(map(t)),
            other => other,
        }
    }
    fn board_shape(&self) -> Option<BoardShape> {
        Some(BoardShape::Square {
            width: self.geo.n,
            height: self.geo.n,
        })
    }
    fn move_cells(&self, mv: SlingshotMove) -> Vec<(i32, i32)> {
        let n = self.geo.n;
        let cell = |sq: u8| ((sq as u32 % n) as i32, (sq as u32 / n) as i32);
        match mv {
            SlingshotMove::Setup(a, b) => vec![cell(a), cell(b)],
            SlingshotMove::Custodial { a, b, t } => vec![cell(a), cell(b), cell(t)],
            SlingshotMove::Stack(t) => vec![cell(t)],
            _ => Vec::new(),
        }
    }
}
