//! The Catapult position and its [`State`] implementation: apply, the end of
//! the game, the Zobrist key; the actions come from `movegen.rs`.

use crate::api::Research;
use rand::Rng;

use super::{CatapultBits, CatapultMove, Geometry, Rules, Side, Step};
use crate::api::{MAX_SEATS, Returns, State, ToMove};
use crate::error::GameError;

/// How the game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Outcome {
    Ongoing,
    Win(Side),
    /// The safety cap of ruling C-R2 (never reached by the rules).
    Capped,
}

/// A Catapult position: both sides' pieces, the kings (Royal), the side to
/// move, the dagger holder (Dagger), the ply count and the Zobrist key.
/// `Copy`-cheap: three bit sets and a few small fields.
#[derive(Clone, Copy)]
pub struct CatapultState<B: CatapultBits> {
    pub(super) geo: &'static Geometry<B>,
    pub(super) rules: Rules,
    /// All pieces of each side, kings included (index [`Side::index`]).
    pub(super) pieces: [B; 2],
    /// The kings of both sides (Royal only).
    pub(super) kings: B,
    pub(super) side: Side,
    /// The dagger holder (Dagger only).
    pub(super) dagger: Option<Side>,
    pub(super) outcome: Outcome,
    pub(super) ply: u32,
    pub(super) hash: u64,
}

impl<B: CatapultBits> PartialEq for CatapultState<B> {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.geo.n == o.geo.n
            && self.pieces == o.pieces
            && self.kings == o.kings
            && self.side == o.side
            && self.dagger == o.dagger
            && self.outcome == o.outcome
            && self.ply == o.ply
            && self.hash == o.hash
    }
}

impl<B: CatapultBits> std::fmt::Debug for CatapultState<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CatapultState({})", self.to_text())
    }
}

impl<B: CatapultBits> CatapultState<B> {
    /// The initial position (C-S1, C-S2; C-K1, C-K2; C-D1).
    pub(super) fn initial(rules: Rules, geo: &'static Geometry<B>) -> CatapultState<B> {
        let light = geo.light_start;
        let mut s = CatapultState::empty(rules, geo);
        s.pieces = [light, geo.reflect(light)];
        if rules.royal {
            // C-K1/C-K2: a king on each home corner (added on 8×8, replacing
            // the corner stone on 9×9).
            let a1 = B::bit(0);
            let corner = B::bit(geo.n * geo.n - 1);
            s.pieces[0] |= a1;
            s.pieces[1] |= corner;
            s.kings = a1 | corner;
        }
        s.hash = s.zobrist_from_scratch();
        s
    }

    /// An empty board, Light to move, Dark holding the dagger if there is
    /// one (C-T1, C-D1).
    pub(super) fn empty(rules: Rules, geo: &'static Geometry<B>) -> CatapultState<B> {
        CatapultState {
            geo,
            rules,
            pieces: [B::ZERO; 2],
            kings: B::ZERO,
            side: Side::Light,
            dagger: rules.dagger.then_some(Side::Dark),
            outcome: Outcome::Ongoing,
            ply: 0,
            hash: 0,
        }
    }

    /// The rules of this game.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Board size n.
    pub fn size(&self) -> u32 {
        self.geo.n
    }

    /// All pieces of `side`, its king included (bit `rank · n + file`).
    #[inline(always)]
    pub fn pieces(&self, side: Side) -> B {
        self.pieces[side.index()]
    }

    /// The kings of both sides (empty unless Royal).
    #[inline(always)]
    pub fn kings(&self) -> B {
        self.kings
    }

    /// The side to move (also when the game is over: the side that would
    /// move next).
    #[inline(always)]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The dagger holder, `None` unless playing with the Dagger (C-D1).
    #[inline(always)]
    pub fn dagger_holder(&self) -> Option<Side> {
        self.dagger
    }

    /// The winner, once the game is won.
    pub fn winner(&self) -> Option<Side> {
        match self.outcome {
            Outcome::Win(s) => Some(s),
            _ => None,
        }
    }

    /// Whether the game stopped at the safety cap (ruling C-R2): the rules
    /// guarantee this never happens (§1.10), so `true` means an engine bug.
    pub fn capped(&self) -> bool {
        self.outcome == Outcome::Capped
    }

    /// The range of the piece on `sq` (C-R-def): `2^b` with `b` the forward
    /// directions whose adjacent square is off the board or friendly; `None`
    /// for an empty square.
    pub fn range_at(&self, sq: u32) -> Option<u32> {
        let side = if self.pieces[0].has(sq) {
            Side::Light
        } else if self.pieces[1].has(sq) {
            Side::Dark
        } else {
            return None;
        };
        let classes = self.range_classes(side);
        (0..4).find(|&c| classes[c].has(sq)).map(|c| 1 << c)
    }

    /// `side`'s pieces by range: `[range 1, 2, 4, 8]` (C-R-def).
    pub fn range_classes(&self, side: Side) -> [B; 4] {
        let own = self.pieces(side);
        match side {
            Side::Light => super::movegen::range_classes::<B, 0>(self.geo, own),
            Side::Dark => super::movegen::range_classes::<B, 1>(self.geo, own),
        }
    }

    #[inline(always)]
    pub(super) fn ongoing(&self) -> bool {
        self.outcome == Outcome::Ongoing
    }

    #[inline(always)]
    pub(super) fn holds_dagger(&self) -> bool {
        self.dagger == Some(self.side)
    }

    /// Moves a piece of the side to move (C-M1, C-M2): every enemy piece on
    /// the path is removed, the landing square included. Keeps the key.
    /// Returns whether the move wins (C-E1, C-K4).
    #[inline(always)]
    pub(super) fn apply_step(&mut self, step: Step) -> bool {
        let me = self.side.index();
        let op = 1 - me;
        let (from, to) = (step.from(), step.to());
        let geo = self.geo;
        let mut won = false;
        if step.is_capture() {
            let path = geo.rays.ray(step.dir(), from) ^ geo.rays.ray(step.dir(), to);
            let taken = path & self.pieces[op];
            self.pieces[op] ^= taken;
            let kings_taken = taken & self.kings;
            for sq in taken.iter() {
                self.hash ^= geo.z(sq, op);
            }
            if !kings_taken.is_zero() {
                // The stone keys above were wrong for kings: swap them.
                for sq in kings_taken.iter() {
                    self.hash ^= geo.z(sq, op) ^ geo.z(sq, op + 2);
                }
                self.kings ^= kings_taken;
            }
            won = if self.rules.royal {
                !kings_taken.is_zero()
            } else {
                self.pieces[op].is_zero()
            };
        }
        let move_bits = B::bit(from) | B::bit(to);
        self.pieces[me] ^= move_bits;
        let kind = if self.kings.has(from) {
            self.kings ^= move_bits;
            me + 2
        } else {
            me
        };
        self.hash ^= geo.z(from, kind) ^ geo.z(to, kind);
        won
    }

    /// Hands the dagger to the opponent after a double turn (C-D2, C-D5).
    #[inline(always)]
    fn pass_dagger(&mut self) {
        self.dagger = Some(self.side.other());
        self.hash ^= self.geo.z_light_holds_dagger;
    }

    /// Sets the outcome of a finished or capped game from the position: the
    /// side to move without pieces (or without its king in Royal) has lost;
    /// an unfinished game at the cap is a draw (C-R2).
    pub(super) fn settle(&mut self) {
        let me = self.side.index();
        let lost = if self.rules.royal {
            (self.kings & self.pieces[me]).is_zero()
        } else {
            self.pieces[me].is_zero()
        };
        self.outcome = if lost {
            Outcome::Win(self.side.other())
        } else if self.ply >= self.rules.ply_cap {
            Outcome::Capped
        } else {
            Outcome::Ongoing
        };
    }

    /// Checks `mv` is legal here.
    ///
    /// # Errors
    /// A move at the end of the game or one not among the legal actions.
    pub fn check_legal(&self, mv: CatapultMove) -> Result<(), GameError> {
        if !self.ongoing() {
            crate::bail!("move {:?}: the game is already over", self.move_to_text(mv));
        }
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        if !v.contains(&mv) {
            crate::bail!(
                "move {:?} is not legal in this position",
                self.move_to_text(mv)
            );
        }
        Ok(())
    }
}

impl<B: CatapultBits> State for CatapultState<B> {
    type Move = CatapultMove;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline(always)]
    fn to_move(&self) -> ToMove {
        if self.ongoing() {
            ToMove::Seat(self.side.index())
        } else {
            ToMove::Terminal
        }
    }

    fn legal_moves(&self, out: &mut Vec<CatapultMove>) {
        out.clear();
        if !self.ongoing() {
            return;
        }
        match self.side {
            Side::Light => self.actions::<0>(out),
            Side::Dark => self.actions::<1>(out),
        }
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        if !self.ongoing() {
            return 0;
        }
        match self.side {
            Side::Light => self.count::<0>(),
            Side::Dark => self.count::<1>(),
        }
    }

    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<CatapultMove>,
    ) -> Option<CatapultMove> {
        if !self.ongoing() {
            return None;
        }
        Some(match self.side {
            Side::Light => self.sample::<0, R>(rng, buf),
            Side::Dark => self.sample::<1, R>(rng, buf),
        })
    }

    #[inline]
    fn apply(&mut self, mv: CatapultMove) {
        debug_assert!(
            self.check_legal(mv).is_ok(),
            "illegal move {mv:?} in {}",
            self.to_text()
        );
        let won = match mv {
            CatapultMove::Move(s) => self.apply_step(s),
            CatapultMove::Double(a, b) => {
                let first = self.apply_step(a);
                debug_assert!(!first, "C-D4: no double turn after a winning move");
                let won = self.apply_step(b);
                self.pass_dagger();
                won
            }
            CatapultMove::MoveThenPass(a) => {
                let won = self.apply_step(a);
                self.pass_dagger();
                won
            }
            CatapultMove::Pass => false,
        };
        let me = self.side;
        self.side = me.other();
        self.hash ^= self.geo.z_dark_to_move;
        self.ply += 1;
        if won {
            self.outcome = Outcome::Win(me);
        } else if self.ply >= self.rules.ply_cap {
            self.outcome = Outcome::Capped;
        }
    }

    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if let Outcome::Win(w) = self.outcome {
            r[w.index()] = 1.0;
            r[w.other().index()] = -1.0;
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
        for side in 0..2 {
            for sq in self.pieces[side].iter() {
                let king = self.kings.has(sq) as usize;
                h ^= g.z(sq, side + 2 * king);
            }
        }
        if self.side == Side::Dark {
            h ^= g.z_dark_to_move;
        }
        if self.dagger == Some(Side::Light) {
            h ^= g.z_light_holds_dagger;
        }
        h
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn to_text(&self) -> String {
        super::text::position_text(self)
    }

    fn move_to_text(&self, mv: CatapultMove) -> String {
        super::text::move_text(self.geo.n, mv)
    }

    fn push_move_text(&self, mv: CatapultMove, out: &mut String) {
        super::text::push_move_text(self.geo.n, mv, out);
    }

    fn parse_move(&self, text: &str) -> Result<CatapultMove, GameError> {
        super::text::parse_move(self.geo, text)
    }
}

impl<B: CatapultBits> Research for CatapultState<B> {
    /// The reason from the rules (`no piece on a1`, range C-R-def, forward
    /// only C-M1, the Dagger's C-D2...); see `text::illegal_reason`.
    fn illegal_reason(&self, text: &str) -> Option<String> {
        super::text::illegal_reason(self, text)
    }

    /// `regicide` (Royal: the king captured), `annihilation` (every piece
    /// captured), `ply cap` (ruling C-R2).
    fn end_reason(&self) -> Option<&'static str> {
        match self.outcome {
            Outcome::Ongoing => None,
            Outcome::Win(_) if self.rules.royal => Some("regicide"),
            Outcome::Win(_) => Some("annihilation"),
            Outcome::Capped => Some("ply cap"),
        }
    }

    /// The board picture (see [`Research::board_picture`]).
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        use crate::api::{board_field, chequered, piece, square_picture};
        let p = square_picture(
            board_field(&crate::api::State::to_text(self)),
            false,
            |t| match t {
                "L" => piece(Some(0), "L"),
                "D" => piece(Some(1), "D"),
                "K" => piece(Some(0), "K"),
                "k" => piece(Some(1), "K"),
                _ => None,
            },
            chequered,
        )?;
        Some(p)
    }

    fn seat_role(&self, seat: usize) -> crate::SeatRole {
        crate::SeatRole::colour(["light", "dark"].get(seat).copied().unwrap_or(""))
    }
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}
