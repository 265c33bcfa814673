//! The Catapult position and its [`State`] implementation: actions, apply,
//! the end of the game, the Zobrist key.

use crate::api::Research;
use rand::Rng;

use super::movegen::{
    LANES, count_singles, count_singles_batch, draw_weights, drawn_move, gen_singles, lemire,
    lines_onto, masked_weight_bound_after, range_classes, sample_single, square_ranges,
    weight_bound_after,
};
use super::{CatapultBits, CatapultMove, Geometry, Rules, Side, Step};
use crate::api::{MAX_SEATS, Returns, State, ToMove};
use crate::board::Dir;
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

/// A position after one move of the side to move, for look-ahead inside a
/// dagger turn: the mover's and the opponent's pieces, and whether the move
/// won (C-E1, C-K4).
#[derive(Copy, Clone)]
struct After<B> {
    own: B,
    opp: B,
    won: bool,
}

/// Bounds for the dagger holder's sampler ([`CatapultState::sample`]),
/// over every first move: `w_fwd` (piece, steps) pairs for a forward second
/// move, and `nf_max[j]` pairs of pieces in `onto[j]` (on a line onto an
/// enemy) for a second move in the j-th non-forward direction.
struct SecondSlots<B> {
    w_fwd: u32,
    onto: [B; 5],
    nf_max: [u32; 5],
}

/// The j-th (0..5) direction that is not forward for side `S` (C-F1).
#[inline(always)]
fn non_forward<const S: usize>(j: usize) -> Dir {
    Dir::from_index((j + 3) ^ (S * 4))
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
    fn ongoing(&self) -> bool {
        self.outcome == Outcome::Ongoing
    }

    #[inline(always)]
    fn holds_dagger(&self) -> bool {
        self.dagger == Some(self.side)
    }

    /// The boards after `step` by the side `S` to move, and whether it won:
    /// the opponent has no piece left (C-E1), or in Royal its king was
    /// captured (C-K4).
    #[inline(always)]
    fn after<const S: usize>(&self, step: Step) -> After<B> {
        let (own, opp) = (self.pieces[S], self.pieces[1 - S]);
        let moved = own ^ B::bit(step.from()) ^ B::bit(step.to());
        if !step.is_capture() {
            return After {
                own: moved,
                opp,
                won: false,
            };
        }
        let path =
            self.geo.rays.ray(step.dir(), step.from()) ^ self.geo.rays.ray(step.dir(), step.to());
        let opp = opp & !path;
        let won = if self.rules.royal {
            !(path & self.kings & self.pieces[1 - S]).is_zero()
        } else {
            opp.is_zero()
        };
        After {
            own: moved,
            opp,
            won,
        }
    }

    /// Moves a piece of the side to move (C-M1, C-M2): every enemy piece on
    /// the path is removed, the landing square included. Keeps the key.
    /// Returns whether the move wins (C-E1, C-K4).
    #[inline(always)]
    fn apply_step(&mut self, step: Step) -> bool {
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

    /// Writes the actions of side `S` (to move) into `out` (C-M1, C-M2,
    /// C-P1; with the dagger C-D2–C-D6).
    fn actions<const S: usize>(&self, out: &mut Vec<CatapultMove>) {
        let geo = self.geo;
        let (own, opp) = (self.pieces[S], self.pieces[1 - S]);
        gen_singles::<B, S>(geo, own, opp, &mut |s| out.push(CatapultMove::Move(s)));
        if out.is_empty() {
            // C-P1 (and C-D6: a stuck holder cannot use the dagger).
            out.push(CatapultMove::Pass);
            return;
        }
        if !self.holds_dagger() {
            return;
        }
        let singles = out.len();
        for i in 0..singles {
            let CatapultMove::Move(m1) = out[i] else {
                unreachable!("singles come first")
            };
            let a = self.after::<S>(m1);
            if a.won {
                continue; // C-D4: the game ends after m1.
            }
            let before = out.len();
            gen_singles::<B, S>(geo, a.own, a.opp, &mut |m2| {
                out.push(CatapultMove::Double(m1, m2))
            });
            if out.len() == before && self.rules.dagger_move_then_pass {
                out.push(CatapultMove::MoveThenPass(m1)); // C-D5
            }
        }
    }

    /// The dagger actions that start with each of up to [`LANES`] first
    /// moves `m1s[..len]` (the rest of the result is 0): 0 if the move wins
    /// (C-D4), else the double turns, or 1 for `m1;pass` when there is no
    /// second move (C-D5).
    #[inline(always)]
    fn dagger_followers_batch<const S: usize>(
        &self,
        m1s: &[Step; LANES],
        len: usize,
    ) -> [u32; LANES] {
        let mut own = [B::ZERO; LANES];
        let mut opp = [B::ZERO; LANES];
        let mut won = [true; LANES];
        for l in 0..len {
            let a = self.after::<S>(m1s[l]);
            (own[l], opp[l], won[l]) = (a.own, a.opp, a.won);
        }
        let counts = count_singles_batch::<B, S>(self.geo, &own, &opp);
        let pass = self.rules.dagger_move_then_pass as u32;
        std::array::from_fn(|l| match (won[l], counts[l]) {
            (true, _) => 0,
            (false, 0) => pass,
            (false, c) => c,
        })
    }

    /// Calls `f(m1, followers)` for every single move `m1` of the dagger
    /// holder `S`, in [`gen_singles`] order, counting the followers eight
    /// first moves at a time ([`Self::dagger_followers_batch`]); returns the
    /// number of singles.
    #[inline(always)]
    fn for_each_dagger_weight<const S: usize>(&self, mut f: impl FnMut(Step, u32)) -> usize {
        let (own, opp) = (self.pieces[S], self.pieces[1 - S]);
        let mut chunk = [Step::new(0, 0, 0, false); LANES];
        let (mut k, mut singles) = (0, 0);
        gen_singles::<B, S>(self.geo, own, opp, &mut |m1| {
            chunk[k] = m1;
            k += 1;
            singles += 1;
            if k == LANES {
                let w = self.dagger_followers_batch::<S>(&chunk, LANES);
                for l in 0..LANES {
                    f(chunk[l], w[l]);
                }
                k = 0;
            }
        });
        if k > 0 {
            let w = self.dagger_followers_batch::<S>(&chunk, k);
            for l in 0..k {
                f(chunk[l], w[l]);
            }
        }
        singles
    }

    fn count<const S: usize>(&self) -> usize {
        let geo = self.geo;
        let (own, opp) = (self.pieces[S], self.pieces[1 - S]);
        if !self.holds_dagger() {
            return match count_singles::<B, S>(geo, own, opp) {
                0 => 1, // the forced pass
                n => n as usize,
            };
        }
        let mut followers = 0usize;
        let singles = self.for_each_dagger_weight::<S>(|_, w| followers += w as usize);
        if singles == 0 {
            return 1; // the forced pass
        }
        singles + followers
    }

    /// The second-move slots of the holder `S`'s sampler (see
    /// [`Self::sample`]), for first moves landing in `landings`.
    #[inline(always)]
    fn second_slots<const S: usize>(&self, landings: B) -> SecondSlots<B> {
        let geo = self.geo;
        let (own, opp) = (self.pieces[S], self.pieces[1 - S]);
        let classes = range_classes::<B, S>(geo, own);
        let ranges = square_ranges::<B, S>(geo, own);
        let onto: [B; 5] = std::array::from_fn(|j| lines_onto(geo, opp, non_forward::<S>(j)));
        SecondSlots {
            w_fwd: weight_bound_after::<B, S>(geo, &classes, &ranges, landings) - 1,
            onto,
            nf_max: std::array::from_fn(|j| {
                masked_weight_bound_after::<B, S>(geo, &classes, &ranges, landings, onto[j])
            }),
        }
    }

    fn sample<const S: usize, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<CatapultMove>,
    ) -> CatapultMove {
        let geo = self.geo;
        let (own, opp) = (self.pieces[S], self.pieces[1 - S]);
        if !self.holds_dagger() {
            return match sample_single::<B, S, R>(geo, own, opp, rng) {
                Some(s) => CatapultMove::Move(s),
                None => CatapultMove::Pass,
            };
        }
        // The holder: an exact rejection sampler over the actions, which
        // never counts them (there are hundreds). Every single m1 owns the
        // same number of slots:
        // - one for m1 alone, one for `m1;pass` (C-D5, if on);
        // - 3 · w_fwd for a second move forward: slot (x, d) is the move
        //   `drawn_move` names in the position after m1, if legal, where x
        //   counts (piece, steps) pairs; w_fwd bounds their number after any
        //   m1 (`weight_bound_after`);
        // - nf_max[j] for a second move in the j-th other direction, which
        //   must capture (C-M2): x counts only the pairs of pieces on a line
        //   onto an enemy (`lines_onto`; m1 only removes enemies, so the set
        //   before m1 holds every such piece after it).
        // Each action is exactly one slot and the slot is drawn uniformly,
        // so an accepted draw is uniform over the actions (C-D2–C-D5).
        //
        // The singles go to the stack; past FIRST_CAP of them (never seen in
        // play) they are listed again in `buf`.
        const FIRST_CAP: usize = 128;
        let mut firsts = [Step::new(0, 0, 0, false); FIRST_CAP];
        let (mut n1, mut landings) = (0usize, B::ZERO);
        gen_singles::<B, S>(geo, own, opp, &mut |s| {
            landings |= B::bit(s.to());
            if n1 < FIRST_CAP {
                firsts[n1] = s;
            }
            n1 += 1;
        });
        if n1 == 0 {
            return CatapultMove::Pass;
        }
        if n1 > FIRST_CAP {
            buf.clear();
            gen_singles::<B, S>(geo, own, opp, &mut |s| buf.push(CatapultMove::Move(s)));
        }
        let first = |i: usize| {
            if n1 <= FIRST_CAP {
                return firsts[i];
            }
            match buf[i] {
                CatapultMove::Move(s) => s,
                _ => unreachable!("singles only"),
            }
        };
        let SecondSlots {
            w_fwd,
            onto,
            nf_max,
        } = self.second_slots::<S>(landings);
        let full = geo.grid.full;
        let pass = self.rules.dagger_move_then_pass as u32;
        let slots = 1 + pass + 3 * w_fwd + nf_max.iter().sum::<u32>();
        loop {
            let r = rng.next_u64();
            let (Some(i), Some(y)) = (lemire(r as u32, n1 as u32), lemire((r >> 32) as u32, slots))
            else {
                continue;
            };
            let m1 = first(i as usize);
            if y == 0 {
                return CatapultMove::Move(m1);
            }
            let a = self.after::<S>(m1);
            if a.won {
                continue; // C-D4: m1 wins, nothing follows it.
            }
            if y <= pass {
                if count_singles::<B, S>(geo, a.own, a.opp) == 0 {
                    return CatapultMove::MoveThenPass(m1);
                }
                continue;
            }
            let mut t = y - 1 - pass;
            let (pieces, bound, x, d) = if t < 3 * w_fwd {
                let d = Dir::from_index((t % 3) as usize ^ (S * 4));
                (full, w_fwd, t / 3, d)
            } else {
                t -= 3 * w_fwd;
                let mut j = 0;
                while t >= nf_max[j] {
                    t -= nf_max[j];
                    j += 1;
                }
                (onto[j], nf_max[j], t, non_forward::<S>(j))
            };
            let all = range_classes::<B, S>(geo, a.own);
            let classes: [B; 4] = std::array::from_fn(|k| all[k] & pieces);
            let weights = draw_weights(&classes);
            let w = weights.iter().sum::<u32>();
            debug_assert!(w <= bound, "weight {w} after {m1:?} over its bound {bound}");
            if x >= w {
                continue;
            }
            let drawn = drawn_move::<B, S>(geo, a.own, a.opp, &classes, &weights, x, d.index());
            if let Some(m2) = drawn {
                return CatapultMove::Double(m1, m2);
            }
        }
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

    fn parse_move(&self, text: &str) -> Result<CatapultMove, GameError> {
        super::text::parse_move(self.geo, text)
    }
}

impl<B: CatapultBits> Research for CatapultState<B> {
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

#[cfg(test)]
mod tests {
    use super::super::{CatapultGame, Rules};
    use super::*;
    use crate::api::Game;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The holder sampler's bounds hold for every first move of every
    /// holder position of seeded random games: the (piece, steps) pairs
    /// after the move, all of them and those on a line onto an enemy in each
    /// non-forward direction, never exceed `second_slots`; and each bound is
    /// met or nearly met somewhere (so they are not vacuous).
    fn bounds_hold<B: CatapultBits>(rules: Rules, seed: u64) {
        let g = CatapultGame::<B>::new(rules).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut buf, mut firsts) = (Vec::new(), Vec::new());
        let (mut positions, mut slack_fwd) = (0, u32::MAX);
        for _ in 0..40 {
            let mut s = g.initial_state(0);
            while s.ongoing() {
                if s.holds_dagger() {
                    match s.side {
                        Side::Light => check::<B, 0>(&s, &mut firsts, &mut slack_fwd),
                        Side::Dark => check::<B, 1>(&s, &mut firsts, &mut slack_fwd),
                    }
                    positions += 1;
                }
                let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
                s.apply(m);
            }
        }
        assert!(positions > 500, "{positions} holder positions");
        assert!(slack_fwd <= 1, "the forward bound is never within 1");
    }

    fn check<B: CatapultBits, const S: usize>(
        s: &CatapultState<B>,
        firsts: &mut Vec<Step>,
        slack_fwd: &mut u32,
    ) {
        let (own, opp) = (s.pieces[S], s.pieces[1 - S]);
        firsts.clear();
        gen_singles::<B, S>(s.geo, own, opp, &mut |m| firsts.push(m));
        let landings = firsts.iter().fold(B::ZERO, |l, m| l | B::bit(m.to()));
        let slots = s.second_slots::<S>(landings);
        let mut widest = 0;
        for &m1 in firsts.iter() {
            let a = s.after::<S>(m1);
            let classes = range_classes::<B, S>(s.geo, a.own);
            let w = draw_weights(&classes).iter().sum::<u32>();
            assert!(
                w <= slots.w_fwd,
                "{w} > {} after {m1:?} at {s:?}",
                slots.w_fwd
            );
            widest = widest.max(w);
            for j in 0..5 {
                let within = classes.map(|c| c & slots.onto[j]);
                let w = draw_weights(&within).iter().sum::<u32>();
                assert!(w <= slots.nf_max[j], "direction {j} after {m1:?} at {s:?}");
                // Every capture in that direction starts inside onto[j].
                let d = non_forward::<S>(j);
                gen_singles::<B, S>(s.geo, a.own, a.opp, &mut |m2| {
                    if m2.dir() == d {
                        assert!(slots.onto[j].has(m2.from()), "{m2:?} after {m1:?} at {s:?}");
                    }
                });
            }
        }
        if !firsts.is_empty() {
            *slack_fwd = (*slack_fwd).min(slots.w_fwd - widest);
        }
    }

    #[test]
    fn holder_sampler_bounds_hold() {
        let dagger = |size, royal| Rules {
            size,
            royal,
            dagger: true,
            ..Rules::default()
        };
        bounds_hold::<u64>(dagger(8, false), 1);
        bounds_hold::<u128>(dagger(9, false), 2);
        bounds_hold::<u64>(dagger(8, true), 3);
    }
}
