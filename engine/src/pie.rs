//! The pie rule for any two-seat game, and the no-swap view of a game.
//!
//! **`pie(G)`** ([`Pie`]): seat 0 (the *opener*) plays G's first turn as G's
//! seat 0. On the second player's first turn (the first time G's seat 1 is to
//! move) seat 1 (the *chooser*) may answer `swap`: it takes over G's seat 0
//! with everything played so far, and seat 0 continues as G's seat 1, who is
//! to move. Colours swap, as in Bagel's B-5 (docs/rules/bagel.md §1.5); nothing on
//! the board changes. Otherwise the chooser plays one of G's moves and the
//! game is G from then on. Returns, roles and scores follow the seats.
//!
//! **[`NoSwap`]** removes every move that [`Research::is_swap`] marks, so that a
//! swap map can play each opening out "with no swap" (`boardlab pie`): in
//! `pie(G)` and Bagel the swap, in Slingshot the choice `chooser=B`.
//!
//! Position text: G's text, a newline, then `pie=open|offer|kept|swapped`.
//! Move text: G's, plus `swap`.

use crate::api::Research;
use std::fmt;

use rand::Rng;

use crate::api::{BoardShape, Game, Returns, Search, State, ToMove};
use crate::error::GameError;

use crate::api::with_scratch;

/// `pie(G)`: G with a swap offered on the second player's first turn.
#[derive(Clone, Debug)]
pub struct Pie<G: Game> {
    inner: G,
}

impl<G: Game> Pie<G> {
    /// Wraps a two-seat game.
    ///
    /// # Errors
    /// A game whose seat count is not 2 (the pie rule needs a first and a
    /// second player).
    pub fn new(inner: G) -> Result<Self, GameError> {
        let n = inner.num_seats();
        if n != 2 {
            crate::bail!(
                "pie({}) is not possible: the pie rule needs a two-seat game, this one has {n} seat{}",
                inner.game_string(),
                if n == 1 { "" } else { "s" }
            );
        }
        Ok(Pie { inner })
    }

    /// The wrapped game.
    pub fn inner(&self) -> &G {
        &self.inner
    }
}

/// Where a [`PieState`] stands with its swap.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PieStage {
    /// The opener's first turn (the swap is not offered yet).
    Open,
    /// The chooser's first turn: G's moves or `swap`.
    Offer,
    /// The chooser played on without swapping.
    Kept,
    /// The chooser swapped: seat 0 plays G's seat 1 and seat 1 G's seat 0.
    Swapped,
}

impl PieStage {
    const ALL: [PieStage; 4] = [
        PieStage::Open,
        PieStage::Offer,
        PieStage::Kept,
        PieStage::Swapped,
    ];

    fn name(self) -> &'static str {
        match self {
            PieStage::Open => "open",
            PieStage::Offer => "offer",
            PieStage::Kept => "kept",
            PieStage::Swapped => "swapped",
        }
    }

    /// Zobrist key of the stage (fixed constants; `Open` and `Kept` share
    /// none with the others).
    fn key(self) -> u64 {
        match self {
            PieStage::Open => 0,
            PieStage::Offer => 0x9E37_79B9_7F4A_7C15,
            PieStage::Kept => 0xBF58_476D_1CE4_E5B9,
            PieStage::Swapped => 0x94D0_49BB_1331_11EB,
        }
    }
}

/// A move of `pie(G)`: one of G's, or the swap.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PieMove<M> {
    /// A move (or chance outcome) of the wrapped game.
    Inner(M),
    /// The chooser takes over the opener's colour (text `swap`).
    Swap,
}

/// A position of `pie(G)`.
#[derive(Clone, Debug)]
pub struct PieState<S: State> {
    inner: S,
    stage: PieStage,
}

impl<S: State> PieState<S> {
    fn new(inner: S) -> Self {
        let mut s = PieState {
            inner,
            stage: PieStage::Open,
        };
        s.update_stage();
        s
    }

    fn update_stage(&mut self) {
        if self.stage == PieStage::Open && self.inner.to_move() == ToMove::Seat(1) {
            self.stage = PieStage::Offer;
        }
    }

    /// The wrapped game's position.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// Where the swap stands.
    pub fn stage(&self) -> PieStage {
        self.stage
    }

    /// The seat of `pie(G)` that plays G's seat `s` (and back: the map is its
    /// own inverse).
    #[inline]
    fn seat(&self, s: usize) -> usize {
        if self.stage == PieStage::Swapped {
            1 - s
        } else {
            s
        }
    }

    fn permute(&self, r: Returns) -> Returns {
        let mut out = r;
        if self.stage == PieStage::Swapped {
            out.swap(0, 1);
        }
        out
    }
}

impl<S: State> fmt::Display for PieState<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.inner)?;
        write!(f, "\npie: {}", self.stage.name())
    }
}

impl<G: Game> Game for Pie<G> {
    type State = PieState<G::State>;

    fn perft_game(&self) -> Self {
        Pie {
            inner: self.inner.perft_game(),
        }
    }

    fn game_string(&self) -> String {
        format!("pie({})", self.inner.game_string())
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn initial_state(&self, seed: u64) -> Self::State {
        PieState::new(self.inner.initial_state(seed))
    }

    fn parse_position(&self, text: &str) -> Result<Self::State, GameError> {
        let Some((inner, stage)) = text.trim_end().rsplit_once("\npie=") else {
            crate::bail!(
                "bad pie position: expected the game's position, a newline, then pie=open|offer|kept|swapped"
            );
        };
        let Some(stage) = PieStage::ALL.into_iter().find(|s| s.name() == stage.trim()) else {
            crate::bail!("bad pie position: pie={stage:?}, expected open|offer|kept|swapped");
        };
        let inner = self.inner.parse_position(inner)?;
        let chooser_first_turn = inner.to_move() == ToMove::Seat(1);
        if stage == PieStage::Offer && !chooser_first_turn {
            crate::bail!("bad pie position: pie=offer but the second player is not to move");
        }
        if stage == PieStage::Open && chooser_first_turn {
            crate::bail!(
                "bad pie position: pie=open but the second player is to move (write pie=offer)"
            );
        }
        Ok(PieState { inner, stage })
    }
}

impl<S: State> State for PieState<S> {
    type Move = PieMove<S::Move>;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        match self.inner.to_move() {
            ToMove::Seat(s) => ToMove::Seat(self.seat(s)),
            other => other,
        }
    }

    fn legal_moves(&self, out: &mut Vec<Self::Move>) {
        // The wrapper's move type differs from G's, so G's list goes through
        // a reused scratch list (no allocation once grown).
        out.clear();
        with_scratch(|inner: &mut Vec<S::Move>| {
            self.inner.legal_moves(inner);
            out.extend(inner.iter().map(|&m| PieMove::Inner(m)));
        });
        if self.stage == PieStage::Offer {
            out.push(PieMove::Swap);
        }
    }

    fn count_legal_moves(&self) -> usize {
        self.inner.count_legal_moves() + usize::from(self.stage == PieStage::Offer)
    }

    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<Self::Move>,
    ) -> Option<Self::Move> {
        if self.stage == PieStage::Offer {
            // Uniform over G's n moves and the swap.
            let n = self.inner.count_legal_moves();
            if rng.random_range(0..=n) == n {
                return Some(PieMove::Swap);
            }
        }
        with_scratch(|buf: &mut Vec<S::Move>| {
            self.inner.sample_legal_move(rng, buf).map(PieMove::Inner)
        })
    }

    fn chance_outcomes(&self, out: &mut Vec<(Self::Move, f64)>) {
        out.clear();
        with_scratch(|inner: &mut Vec<(S::Move, f64)>| {
            self.inner.chance_outcomes(inner);
            out.extend(inner.iter().map(|&(m, p)| (PieMove::Inner(m), p)));
        });
    }

    fn sample_chance<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<(Self::Move, f64)>,
    ) -> Option<Self::Move> {
        with_scratch(|buf: &mut Vec<(S::Move, f64)>| {
            self.inner.sample_chance(rng, buf).map(PieMove::Inner)
        })
    }

    fn apply(&mut self, mv: Self::Move) {
        match mv {
            PieMove::Swap => {
                debug_assert_eq!(self.stage, PieStage::Offer, "swap only when offered");
                self.stage = PieStage::Swapped;
            }
            PieMove::Inner(m) => {
                if self.stage == PieStage::Offer {
                    self.stage = PieStage::Kept;
                }
                self.inner.apply(m);
                self.update_stage();
            }
        }
    }

    fn returns(&self) -> Returns {
        self.permute(self.inner.returns())
    }

    fn zobrist(&self) -> u64 {
        self.inner.zobrist() ^ self.stage.key()
    }

    fn zobrist_from_scratch(&self) -> u64 {
        self.inner.zobrist_from_scratch() ^ self.stage.key()
    }

    fn ply(&self) -> u32 {
        self.inner.ply() + u32::from(self.stage == PieStage::Swapped)
    }

    fn to_text(&self) -> String {
        format!("{}\npie={}", self.inner.to_text(), self.stage.name())
    }

    fn move_to_text(&self, mv: Self::Move) -> String {
        match mv {
            PieMove::Swap => "swap".to_string(),
            PieMove::Inner(m) => self.inner.move_to_text(m),
        }
    }

    fn push_move_text(&self, mv: Self::Move, out: &mut String) {
        match mv {
            PieMove::Swap => out.push_str("swap"),
            PieMove::Inner(m) => self.inner.push_move_text(m, out),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError> {
        if text.trim() == "swap" {
            Ok(PieMove::Swap)
        } else {
            self.inner.parse_move(text).map(PieMove::Inner)
        }
    }
}

/// G's evaluation and tactical moves; no exact solutions (G's tables and
/// solvers know no pie rule).
impl<S: Search> Search for PieState<S> {
    fn evaluate(&self) -> i32 {
        // G's evaluation is from the view of the seat to move, which is the
        // same player whichever pie seat holds it.
        self.inner.evaluate()
    }

    fn evaluate_weighted(&self, w: &[i32]) -> i32 {
        self.inner.evaluate_weighted(w)
    }

    fn eval_scale(&self) -> f64 {
        self.inner.eval_scale()
    }

    fn search_defaults(&self) -> crate::api::SearchDefaults {
        self.inner.search_defaults()
    }

    fn is_capture(&self, mv: Self::Move) -> bool {
        match mv {
            PieMove::Swap => false,
            PieMove::Inner(m) => self.inner.is_capture(m),
        }
    }

    /// G's quiescence moves (the swap is never one).
    fn quiescence_moves(&self, out: &mut Vec<Self::Move>) {
        out.clear();
        with_scratch(|inner: &mut Vec<S::Move>| {
            self.inner.quiescence_moves(inner);
            out.extend(inner.iter().map(|&m| PieMove::Inner(m)));
        });
    }

    fn capture_gain(&self, mv: Self::Move) -> Option<i32> {
        match mv {
            PieMove::Swap => None,
            PieMove::Inner(m) => self.inner.capture_gain(m),
        }
    }

    /// G's null move once the swap is decided (before, a pass would move
    /// the offer).
    fn null_move(&mut self) -> bool {
        matches!(self.stage, PieStage::Kept | PieStage::Swapped) && self.inner.null_move()
    }

    fn in_check(&self) -> bool {
        self.inner.in_check()
    }
}

impl<S: Research> Research for PieState<S> {
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        self.inner.board_picture()
    }

    /// The seat's pie role (`opener`, `chooser`) with the colour and team
    /// it plays after any swap.
    fn seat_role(&self, seat: usize) -> crate::SeatRole {
        crate::SeatRole {
            role: if seat == 0 { "opener" } else { "chooser" },
            ..self.inner.seat_role(self.seat(seat))
        }
    }
    fn first_mover_seat(&self) -> Option<usize> {
        self.inner.first_mover_seat().map(|s| self.seat(s))
    }
    fn setter_seat(&self) -> Option<usize> {
        Some(0)
    }
    fn scores(&self) -> Option<Returns> {
        self.inner.scores().map(|r| self.permute(r))
    }
    fn is_swap(&self, mv: Self::Move) -> bool {
        match mv {
            PieMove::Swap => true,
            PieMove::Inner(m) => self.inner.is_swap(m),
        }
    }
    fn offers_swap(&self) -> bool {
        self.stage == PieStage::Offer || self.inner.offers_swap()
    }
    fn symmetry_count(&self) -> usize {
        self.inner.symmetry_count()
    }
    fn transform_move(&self, mv: Self::Move, sym: usize) -> Self::Move {
        match mv {
            PieMove::Swap => PieMove::Swap,
            PieMove::Inner(m) => PieMove::Inner(self.inner.transform_move(m, sym)),
        }
    }
    fn board_shape(&self) -> Option<BoardShape> {
        self.inner.board_shape()
    }
    fn end_reason(&self) -> Option<&'static str> {
        self.inner.end_reason()
    }
    fn move_cells(&self, mv: Self::Move) -> Vec<(i32, i32)> {
        match mv {
            PieMove::Swap => Vec::new(),
            PieMove::Inner(m) => self.inner.move_cells(m),
        }
    }
}

/// A game with its swap moves removed: openings are played out "with no
/// swap" (the swap maps of `boardlab pie`). Same moves, texts and positions as G
/// otherwise; the game string is G's with a `noswap:` prefix, for records.
#[derive(Clone, Debug)]
pub struct NoSwap<G: Game>(pub G);

/// A position of [`NoSwap`]: G's position.
#[derive(Clone, Debug)]
pub struct NoSwapState<S: State>(pub S);

impl<S: State> fmt::Display for NoSwapState<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl<G: Game> Game for NoSwap<G> {
    type State = NoSwapState<G::State>;

    fn perft_game(&self) -> Self {
        NoSwap(self.0.perft_game())
    }

    fn game_string(&self) -> String {
        format!("noswap:{}", self.0.game_string())
    }

    fn num_seats(&self) -> usize {
        self.0.num_seats()
    }

    fn initial_state(&self, seed: u64) -> Self::State {
        NoSwapState(self.0.initial_state(seed))
    }

    fn parse_position(&self, text: &str) -> Result<Self::State, GameError> {
        self.0.parse_position(text).map(NoSwapState)
    }
}

impl<S: Research> State for NoSwapState<S> {
    type Move = S::Move;

    fn num_seats(&self) -> usize {
        self.0.num_seats()
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        self.0.to_move()
    }

    fn legal_moves(&self, out: &mut Vec<Self::Move>) {
        self.0.legal_moves(out);
        out.retain(|&m| !self.0.is_swap(m));
    }

    fn count_legal_moves(&self) -> usize {
        with_scratch(|buf: &mut Vec<S::Move>| {
            self.0.legal_moves(buf);
            buf.iter().filter(|&&m| !self.0.is_swap(m)).count()
        })
    }

    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<Self::Move>,
    ) -> Option<Self::Move> {
        // Rejection keeps G's fast sampler and stays uniform over the rest;
        // the list is the fallback where swaps are most of the moves.
        for _ in 0..8 {
            let m = self.0.sample_legal_move(rng, buf)?;
            if !self.0.is_swap(m) {
                return Some(m);
            }
        }
        self.legal_moves(buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.random_range(0..buf.len())])
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Self::Move, f64)>) {
        self.0.chance_outcomes(out);
    }

    fn sample_chance<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<(Self::Move, f64)>,
    ) -> Option<Self::Move> {
        self.0.sample_chance(rng, buf)
    }

    fn apply(&mut self, mv: Self::Move) {
        self.0.apply(mv);
    }

    fn returns(&self) -> Returns {
        self.0.returns()
    }

    fn zobrist(&self) -> u64 {
        self.0.zobrist()
    }

    fn zobrist_from_scratch(&self) -> u64 {
        self.0.zobrist_from_scratch()
    }

    fn ply(&self) -> u32 {
        self.0.ply()
    }

    fn to_text(&self) -> String {
        self.0.to_text()
    }

    fn move_to_text(&self, mv: Self::Move) -> String {
        self.0.move_to_text(mv)
    }

    fn push_move_text(&self, mv: Self::Move, out: &mut String) {
        self.0.push_move_text(mv, out);
    }

    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError> {
        self.0.parse_move(text)
    }
}

impl<S: Research + Search> Search for NoSwapState<S> {
    fn evaluate(&self) -> i32 {
        self.0.evaluate()
    }

    fn evaluate_weighted(&self, w: &[i32]) -> i32 {
        self.0.evaluate_weighted(w)
    }

    fn eval_scale(&self) -> f64 {
        self.0.eval_scale()
    }

    fn search_defaults(&self) -> crate::api::SearchDefaults {
        self.0.search_defaults()
    }

    fn is_capture(&self, mv: Self::Move) -> bool {
        self.0.is_capture(mv)
    }

    fn quiescence_moves(&self, out: &mut Vec<Self::Move>) {
        self.0.quiescence_moves(out);
        out.retain(|&m| !self.0.is_swap(m));
    }

    fn capture_gain(&self, mv: Self::Move) -> Option<i32> {
        self.0.capture_gain(mv)
    }

    fn null_move(&mut self) -> bool {
        self.0.null_move()
    }

    fn in_check(&self) -> bool {
        self.0.in_check()
    }
}

impl<S: Research> Research for NoSwapState<S> {
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        self.0.board_picture()
    }

    fn seat_role(&self, seat: usize) -> crate::SeatRole {
        self.0.seat_role(seat)
    }
    fn first_mover_seat(&self) -> Option<usize> {
        self.0.first_mover_seat()
    }
    fn setter_seat(&self) -> Option<usize> {
        self.0.setter_seat()
    }
    fn scores(&self) -> Option<Returns> {
        self.0.scores()
    }
    /// Never: every swap is removed.
    fn offers_swap(&self) -> bool {
        false
    }
    fn symmetry_count(&self) -> usize {
        self.0.symmetry_count()
    }
    fn transform_move(&self, mv: Self::Move, sym: usize) -> Self::Move {
        self.0.transform_move(mv, sym)
    }
    fn board_shape(&self) -> Option<BoardShape> {
        self.0.board_shape()
    }
    fn end_reason(&self) -> Option<&'static str> {
        self.0.end_reason()
    }
    fn move_cells(&self, mv: Self::Move) -> Vec<(i32, i32)> {
        self.0.move_cells(mv)
    }
}

/// One class of openings under the board symmetries of
/// [`Research::symmetry_count`]: a representative and its orbit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningClass<M> {
    /// The representative: the first member of the orbit in the order of
    /// [`State::legal_moves`].
    pub representative: M,
    /// Every opening the symmetries map the representative to (the
    /// representative first; no repeats).
    pub orbit: Vec<M>,
}

/// The legal moves of `state` grouped into classes under its symmetries,
/// in the order of their representatives in [`State::legal_moves`]. Every
/// legal move lies in exactly one orbit.
pub fn opening_classes<S: Research>(state: &S) -> Vec<OpeningClass<S::Move>> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for &m in &moves {
        if seen.contains(&m) {
            continue;
        }
        let mut orbit = vec![m];
        for sym in 1..state.symmetry_count() {
            let t = state.transform_move(m, sym);
            if !orbit.contains(&t) {
                orbit.push(t);
            }
        }
        seen.extend(orbit.iter().copied());
        out.push(OpeningClass {
            representative: m,
            orbit,
        });
    }
    out
}

/// `pie(G)`'s actions are G's, then `swap` as id `G's count`; its
/// observation is G's with one more constant plane, 1 while the swap may
/// be played.
impl<S: crate::api::Learning + Research> crate::api::Learning for PieState<S> {
    fn num_actions(&self) -> usize {
        self.inner.num_actions() + 1
    }

    fn move_actions(&self, mv: PieMove<S::Move>) -> crate::api::ActionSeq {
        match mv {
            PieMove::Inner(m) => self.inner.move_actions(m),
            PieMove::Swap => crate::api::ActionSeq::one(self.inner.num_actions() as u32),
        }
    }

    fn observation_shape(&self) -> [usize; 3] {
        let [p, h, w] = self.inner.observation_shape();
        [p + 1, h, w]
    }

    fn observe(&self, pending: &[u32], out: &mut [f32]) {
        let [p, h, w] = self.inner.observation_shape();
        let (board, offer) = out.split_at_mut(p * h * w);
        self.inner.observe(pending, board);
        offer.fill(f32::from(u8::from(self.stage == PieStage::Offer)));
    }
}

/// G's actions and observation.
impl<S: crate::api::Learning + Research> crate::api::Learning for NoSwapState<S> {
    fn num_actions(&self) -> usize {
        self.0.num_actions()
    }

    fn move_actions(&self, mv: S::Move) -> crate::api::ActionSeq {
        self.0.move_actions(mv)
    }

    fn observation_shape(&self) -> [usize; 3] {
        self.0.observation_shape()
    }

    fn observe(&self, pending: &[u32], out: &mut [f32]) {
        self.0.observe(pending, out)
    }
}
