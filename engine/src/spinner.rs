//! # The spinner connection game (rule set SPINPATH-8)
//!
//! An unnamed children's connection game with a spinner: each turn a
//! player spins 1, 2, 3 or S, then places that many pieces or switches one
//! own piece with one of the opponent's. Rules: `shared/rules/spinner.md`
//! Part B; the seed's rules are B.2, our default rule set SPINPATH-8 is
//! K1–K12 (B.3), its open questions K-Q1…K-Q10 (B.4). Rule numbers are cited
//! next to the code that implements them.
//!
//! ## Rules (defaults first; parameters in brackets)
//! * K1 `size=8`: an n × n board, files a…, ranks 1…n (`a1` bottom-left).
//! * K2 `stars`: squares nobody may place on, usable by both players for
//!   paths. Default (K-Q3): `c3,f3,c6,f6` on 8×8, `c3,e3,c5,e5` on 7×7,
//!   `c3,g3,c7,g7` on 9×9; in general files c and n−2, ranks 3 and n−2.
//! * K3 `goals=same`: both players connect rank 1 to rank n; `goals=crossed`
//!   (K-Q4's alternative): player 1 ranks, player 2 files a to the last.
//! * K4: player 1 (seat 0, letter `X`) spins first; player 2 is seat 1
//!   (letter `O`).
//! * K5: the spinner shows 1, 2, 3 or S with probability 1/4 each.
//! * K6: if S cannot be played (a player has no piece on the board) the
//!   player spins again: the outcome is then 1, 2 or 3 with 1/3 each.
//! * K7: on k, place `min(k, E)` pieces on distinct empty non-star squares
//!   (E of them).
//! * K8: on S, exchange one own piece with one of the opponent's
//!   (compulsory).
//! * K9: after the action, if the mover has a path the mover wins; else if
//!   the opponent has one (possible only after a switch) the opponent wins.
//!   A placement turn ends at the first placement that completes a path.
//! * K10: no winner and no empty non-star square at the end of a turn: a
//!   draw.
//! * K11: supply unlimited. K12: a path is an orthogonally connected chain
//!   of own pieces and stars touching both goal edges.
//!
//! ## Turns as moves (B.5)
//! * The spin is a **chance node** ([`ToMove::Chance`]) whose outcomes are
//!   moves `spin=1`, `spin=2`, `spin=3`, `spin=S` with the K5/K6
//!   probabilities.
//! * A k-placement turn is **k single placements by the same player**
//!   (`d4`), in increasing square index (bit `rank * n + file`): the
//!   canonical order that lists each set of squares once. A placement that
//!   would leave fewer empty squares above it than placements still due is
//!   not offered, so the placement sequences of a turn are exactly the
//!   `min(k, E)`-subsets of the empty squares (B.5: 60, 1,770 and 34,220 at
//!   the opening). The state records the placements left and the last
//!   square placed, shows them in the position text (`place2>c3`) and
//!   hashes them.
//! * A switch is one move `X<>Y` (own piece first): a·b options (K8).
//!
//! ## Bits
//! Each player's pieces and the stars are `u128` sets over the n × n
//! squares (n ≤ 11); paths are flood fills of the shared [`SquareGrid`].

use crate::api::Research;
use std::fmt;
use std::sync::OnceLock;

use rand::Rng;

use crate::api::{Game, MAX_SEATS, Returns, State, ToMove};
use crate::board::{Bits, SquareGrid, parse_square, square_name, zobrist};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

/// The parameters of `spinner(...)`, with the dossier's defaults first.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "size",
        default: "8",
        values: "integer 5..=11",
        help: "board size n (K1, K-Q2)",
    },
    ParamInfo {
        name: "stars",
        default: "auto",
        values: "auto|none|[sq,sq,...] (or \"sq,sq,...\"), e.g. [c3,f3,c6,f6]",
        help: "wild-card squares usable by both; auto = files c and n-2, ranks 3 and n-2 (K2, K-Q3; needs size >= 7)",
    },
    ParamInfo {
        name: "goals",
        default: "same",
        values: "same|crossed",
        help: "both connect rank 1 to rank n (K3) or player 2 connects the files (K-Q4 alternative)",
    },
];

/// Piece letters of seats 0 and 1 in position texts and diagrams; `*` is a
/// star.
pub const SEAT_LETTERS: [char; 2] = ['X', 'O'];

/// No square.
const NONE: u8 = u8::MAX;

/// The rule parameters of one variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Board size n, 5..=11 (K1).
    pub size: u32,
    /// The star squares, bit `rank * n + file` (K2).
    pub stars: u128,
    /// Player 2 connects files instead of ranks (K-Q4 alternative to K3).
    pub crossed: bool,
}

impl Rules {
    /// The K-Q3 star layout for size `n` (7 or more): files c and n−2,
    /// ranks 3 and n−2 (0-based 2 and n−3).
    ///
    /// # Errors
    /// A size below 7, where these four squares would touch or coincide.
    pub fn auto_stars(n: u32) -> Result<u128, GameError> {
        if !(7..=11).contains(&n) {
            crate::bail!(
                "game spinner: stars=auto needs size 7..=11 (files c and n-2, ranks 3 and n-2, K-Q3); give the stars for size={n}"
            );
        }
        let (lo, hi) = (2, n - 3);
        Ok([(lo, lo), (lo, hi), (hi, lo), (hi, hi)]
            .iter()
            .fold(0u128, |acc, &(r, c)| acc | 1u128 << (r * n + c)))
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            size: 8,
            stars: Rules::auto_stars(8).expect("size 8 has auto stars"),
            crossed: false,
        }
    }
}

/// The spinner game with its parameters fixed: `spinner(size=8)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spinner {
    rules: Rules,
}

impl Spinner {
    /// The variant with these rules.
    ///
    /// # Errors
    /// A size outside 5..=11, stars off the board, or no square left to
    /// place on.
    pub fn new(rules: Rules) -> Result<Spinner, GameError> {
        let n = rules.size;
        if !(5..=11).contains(&n) {
            crate::bail!("game spinner: size={n} is not valid (expected 5..=11)");
        }
        let full = SquareGrid::<u128>::new(n, n).full;
        if rules.stars & !full != 0 {
            crate::bail!("game spinner: a star lies off the {n}x{n} board");
        }
        if rules.stars == full {
            crate::bail!(
                "game spinner: stars cover the whole board, leaving no square to place on"
            );
        }
        Ok(Spinner { rules })
    }

    /// Builds the game from a parsed game string. The star list is written
    /// `stars=[c3,f3,c6,f6]`; the quoted form `stars="c3,f3,c6,f6"` is
    /// accepted too (the spec parser splits it at its commas; they are
    /// joined back here).
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones), a
    /// star that is not a square of the board or is given twice, and the
    /// errors of [`Spinner::new`].
    pub fn from_spec(spec: &Spec) -> Result<Spinner, GameError> {
        let spec = join_quoted_stars(spec)?;
        let p = Params::new("game spinner", &spec, PARAMS)?;
        let size: u32 = p.parse("size")?;
        if !(5..=11).contains(&size) {
            crate::bail!("game spinner: size={size} is not valid (expected 5..=11)");
        }
        let crossed = p.choice("goals", &[("same", false), ("crossed", true)])?;
        let text = p.text("stars");
        let stars = if text.eq_ignore_ascii_case("auto") {
            Rules::auto_stars(size)?
        } else {
            parse_stars(text, size)?
        };
        Spinner::new(Rules {
            size,
            stars,
            crossed,
        })
    }

    /// The rules of this variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    fn start(&self) -> SpinnerState {
        let mut s = SpinnerState {
            geo: Geometry::get(self.rules.size),
            rules: self.rules,
            pieces: [0; 2],
            to_move: 0,
            phase: Phase::Spin,
            outcome: Outcome::Ongoing,
            ply: 0,
            hash: 0,
        };
        s.hash = s.zobrist_from_scratch();
        s
    }
}

/// Joins `stars="c3`, `f3`, …, `f6"` (a quoted list split by the spec
/// parser) back into one argument `stars=[c3,f3,…,f6]`.
fn join_quoted_stars(spec: &Spec) -> Result<Spec, GameError> {
    let mut args: Vec<(String, String)> = Vec::new();
    let mut open = false;
    for (k, v) in &spec.args {
        if open {
            if !k.is_empty() {
                crate::bail!("game spinner: stars=\"...\" has no closing quote");
            }
            let last = &mut args.last_mut().expect("an open stars argument").1;
            last.push(',');
            last.push_str(v.trim_end_matches('"'));
            if v.ends_with('"') {
                last.push(']');
                open = false;
            }
            continue;
        }
        if k == "stars" && v.starts_with('"') {
            let inner = &v[1..];
            if inner.ends_with('"') {
                args.push((k.clone(), format!("[{}]", inner.trim_end_matches('"'))));
            } else {
                args.push((k.clone(), format!("[{inner}")));
                open = true;
            }
            continue;
        }
        args.push((k.clone(), v.clone()));
    }
    if open {
        crate::bail!("game spinner: stars=\"...\" has no closing quote");
    }
    Ok(Spec {
        name: spec.name.clone(),
        args,
    })
}

/// Parses `none`, `[]`, `c3`, or `[c3,f3,...]` on an n × n board.
fn parse_stars(text: &str, n: u32) -> Result<u128, GameError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("none") {
        return Ok(0);
    }
    let inner = t
        .strip_prefix('[')
        .and_then(|x| x.strip_suffix(']'))
        .unwrap_or(t);
    let mut stars = 0u128;
    for part in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let sq = parse_square(part, n as usize, n as usize).map_err(|e| {
            GameError::new(format!(
                "game spinner: stars={text:?}: star {part:?} is not on the {n}x{n} board ({e})"
            ))
        })?;
        if stars >> sq & 1 == 1 {
            crate::bail!("game spinner: stars={text:?}: star {part} is given twice");
        }
        stars |= 1u128 << sq;
    }
    Ok(stars)
}

fn stars_text(stars: u128, n: u32) -> String {
    let names: Vec<String> = stars
        .iter()
        .map(|sq| square_name(sq as usize, n as usize))
        .collect();
    format!("[{}]", names.join(","))
}

impl Game for Spinner {
    type State = SpinnerState;

    fn game_string(&self) -> String {
        let r = &self.rules;
        format!(
            "spinner(size={},stars={},goals={})",
            r.size,
            stars_text(r.stars, r.size),
            if r.crossed { "crossed" } else { "same" }
        )
    }

    fn num_seats(&self) -> usize {
        2
    }

    /// The empty board, player 1's spin (a chance node). The seed is unused.
    fn initial_state(&self, _seed: u64) -> SpinnerState {
        self.start()
    }

    fn parse_position(&self, text: &str) -> Result<SpinnerState, GameError> {
        parse_position(self, text)
    }
}

/// Per board size: the grid and the Zobrist keys.
#[derive(Debug)]
struct Geometry {
    n: u32,
    grid: SquareGrid<u128>,
    /// `piece[player * n² + sq]`.
    piece: Vec<u64>,
    /// `last[sq]`: the last square placed this turn.
    last: Vec<u64>,
    second_to_move: u64,
    spin: u64,
    switch: u64,
    /// Placements left, 1..=3.
    left: [u64; 4],
}

impl Geometry {
    fn build(n: u32) -> Geometry {
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

    fn get(n: u32) -> &'static Geometry {
        static GEOS: [OnceLock<Geometry>; 12] = [const { OnceLock::new() }; 12];
        GEOS[n as usize].get_or_init(|| Geometry::build(n))
    }
}

/// A move or chance outcome. Squares are bit indices `rank * n + file`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpinnerMove {
    /// Chance outcome: the spinner shows 1, 2 or 3 (K5, K6); text `spin=2`.
    Spin(u8),
    /// Chance outcome: the spinner shows S (K5, K8); text `spin=S`.
    SpinS,
    /// Place one piece (K7); text `d4`.
    Place(u8),
    /// Exchange the mover's piece on `own` with the opponent's on `other`
    /// (K8); text `e5<>h8`.
    Switch {
        /// The mover's piece.
        own: u8,
        /// The opponent's piece.
        other: u8,
    },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Phase {
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
enum Outcome {
    Ongoing,
    Win(u8),
    Draw,
}

/// A spinner-game position. `Copy`-cheap: three `u128` sets and a few
/// counters.
#[derive(Clone, Copy)]
pub struct SpinnerState {
    geo: &'static Geometry,
    rules: Rules,
    pieces: [u128; 2],
    /// The player whose turn it is (at the end: the last mover).
    to_move: u8,
    phase: Phase,
    outcome: Outcome,
    ply: u32,
    hash: u64,
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
    fn edges(&self, player: usize) -> (u128, u128) {
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
    fn switch_possible(&self) -> bool {
        self.pieces[0] != 0 && self.pieces[1] != 0
    }

    /// The squares the next placement may go on (K7, B.5): empty squares
    /// above the last one placed this turn, leaving room above for the
    /// placements still due after it.
    #[inline]
    fn placements(&self) -> u128 {
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
    fn phase_key(&self, p: Phase) -> u64 {
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
    fn set_phase(&mut self, p: Phase) {
        self.hash ^= self.phase_key(self.phase) ^ self.phase_key(p);
        self.phase = p;
    }

    #[inline(always)]
    fn toggle(&mut self, player: usize, sq: u8) {
        self.pieces[player] ^= 1u128 << sq;
        let n2 = (self.geo.n * self.geo.n) as usize;
        self.hash ^= self.geo.piece[player * n2 + sq as usize];
    }

    fn finish(&mut self, outcome: Outcome) {
        self.outcome = outcome;
        self.set_phase(Phase::Over);
    }

    /// The end of a turn without a winner: the draw K10, else the other
    /// player's spin.
    fn end_turn(&mut self) {
        if self.empty() == 0 {
            self.finish(Outcome::Draw);
        } else {
            self.to_move ^= 1;
            self.hash ^= self.geo.second_to_move;
            self.set_phase(Phase::Spin);
        }
    }

    fn cell(&self, sq: u32) -> Option<char> {
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

    fn sq_name(&self, sq: u8) -> String {
        square_name(sq as usize, self.geo.n as usize)
    }

    fn parse_sq(&self, text: &str) -> Result<u8, GameError> {
        let n = self.geo.n as usize;
        Ok(parse_square(text.trim(), n, n)? as u8)
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
        let mut rows = Vec::with_capacity(n as usize);
        for r in (0..n).rev() {
            let mut row = String::new();
            let mut run = 0;
            for c in 0..n {
                match self.cell(r * n + c) {
                    Some(ch) => {
                        if run > 0 {
                            row.push_str(&run.to_string());
                            run = 0;
                        }
                        row.push(ch);
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                row.push_str(&run.to_string());
            }
            rows.push(row);
        }
        let phase = match self.phase {
            Phase::Spin => "spin".to_string(),
            Phase::Switch => "switch".to_string(),
            Phase::Over => "over".to_string(),
            Phase::Place { left, last } if last == NONE => format!("place{left}"),
            Phase::Place { left, last } => format!("place{left}>{}", self.sq_name(last)),
        };
        format!(
            "{} {} {phase} {}",
            rows.join("/"),
            SEAT_LETTERS[self.to_move as usize],
            self.ply
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

    /// Connection distance (B.5 engine notes): 10 per square of the
    /// opponent's distance minus the mover's (at a spin: the player about
    /// to spin); a blocked player counts as 4n² squares away.
    fn evaluate(&self) -> i32 {
        let p = self.to_move as usize;
        let big = 4 * (self.geo.n * self.geo.n) as i32;
        let me = self.connection_distance(p).map_or(big, |d| d as i32);
        let them = self.connection_distance(1 - p).map_or(big, |d| d as i32);
        10 * (them - me)
    }

    /// 30: three squares of connection distance (10 each) make one logistic
    /// unit (a 73 % win probability).
    fn eval_scale(&self) -> f64 {
        30.0
    }
}

impl Research for SpinnerState {
    fn seat_role(&self, seat: usize) -> String {
        match (seat, self.rules.crossed) {
            (0, _) => "P1/X/ranks".to_string(),
            (_, false) => "P2/O/ranks".to_string(),
            (_, true) => "P2/O/files".to_string(),
        }
    }
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}

impl fmt::Display for SpinnerState {
    /// The board for people, rank n at the top: `X` player 1, `O` player 2,
    /// `*` star, `.` empty; then the status.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.geo.n;
        for r in (0..n).rev() {
            write!(f, "{:>2} ", r + 1)?;
            for c in 0..n {
                write!(f, " {}", self.cell(r * n + c).unwrap_or('.'))?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for c in 0..n {
            write!(f, " {}", (b'a' + c as u8) as char)?;
        }
        writeln!(f)?;
        let me = SEAT_LETTERS[self.to_move as usize];
        match (self.outcome, self.phase) {
            (Outcome::Win(w), _) => write!(f, "{} wins", SEAT_LETTERS[w as usize]),
            (Outcome::Draw, _) => write!(f, "draw: the board is full (K10)"),
            (_, Phase::Spin) => write!(f, "{me} to spin"),
            (_, Phase::Switch) => write!(f, "{me} must switch"),
            (_, Phase::Place { left, .. }) => write!(f, "{me} to place {left}"),
            (_, Phase::Over) => Ok(()),
        }
    }
}

/// Parses the position text of [`State::to_text`] (the ply may be left
/// out). The stars must be the game's; a placement phase must have room
/// for the placements due above its last square (B.5); a switch needs a
/// piece of each player (K6); before the end nobody may have a path, and
/// `over` needs a winner (K9) or a full board (K10).
fn parse_position(game: &Spinner, text: &str) -> Result<SpinnerState, GameError> {
    let n = game.rules.size;
    let bad = |what: String| GameError::new(format!("bad spinner position {text:?}: {what}"));
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 3 || fields.len() > 4 {
        return Err(bad(
            "expected 3 or 4 fields: <rows> <X|O to move> <spin|place<k>[><sq>]|switch|over> [<ply>]"
                .into(),
        ));
    }
    let mut s = game.start();
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != n as usize {
        return Err(bad(format!("{} rows, expected {n}", rows.len())));
    }
    let mut stars = 0u128;
    for (i, row) in rows.iter().enumerate() {
        let r = n - 1 - i as u32;
        let mut c = 0u32;
        let mut run = 0u32;
        let bytes = row.as_bytes();
        for (j, &ch) in bytes.iter().enumerate() {
            if ch.is_ascii_digit() {
                run = run.saturating_mul(10).saturating_add((ch - b'0') as u32);
                if j + 1 < bytes.len() && bytes[j + 1].is_ascii_digit() {
                    continue;
                }
                if run == 0 {
                    return Err(bad(format!("rank {}: an empty run of 0", r + 1)));
                }
                c = c.saturating_add(run);
                run = 0;
                continue;
            }
            if c >= n {
                return Err(bad(format!("rank {} is longer than {n} squares", r + 1)));
            }
            let bit = 1u128 << (r * n + c);
            match ch {
                b'X' => s.pieces[0] |= bit,
                b'O' => s.pieces[1] |= bit,
                b'*' => stars |= bit,
                _ => {
                    return Err(bad(format!(
                        "unknown square letter {:?} (expected X, O, * or a digit)",
                        ch as char
                    )));
                }
            }
            c += 1;
        }
        if c != n {
            return Err(bad(format!("rank {} has {c} squares, expected {n}", r + 1)));
        }
    }
    if stars != game.rules.stars {
        return Err(bad(format!(
            "stars on {} but the game has stars={}",
            stars_text(stars, n),
            stars_text(game.rules.stars, n)
        )));
    }
    s.to_move = match fields[1] {
        "X" => 0,
        "O" => 1,
        f => return Err(bad(format!("player to move {f:?}, expected X or O"))),
    };
    s.ply = match fields.get(3) {
        Some(p) => p
            .parse()
            .map_err(|_| bad(format!("ply {p:?}, expected a whole number")))?,
        None => 0,
    };
    let p = s.to_move as usize;
    let phase_text = fields[2];
    s.phase = match phase_text {
        "spin" => Phase::Spin,
        "switch" => Phase::Switch,
        "over" => Phase::Over,
        f if f.starts_with("place") => {
            let rest = &f[5..];
            let (k, last) = match rest.split_once('>') {
                Some((k, sq)) => (k, Some(sq)),
                None => (rest, None),
            };
            let left: u8 = match k {
                "1" => 1,
                "2" => 2,
                "3" => 3,
                _ => {
                    return Err(bad(format!(
                        "phase {f:?}: placements due must be 1, 2 or 3"
                    )));
                }
            };
            let last = match last {
                None => NONE,
                Some(sq) => {
                    let sq = s.parse_sq(sq).map_err(|e| bad(e.to_string()))?;
                    if s.pieces[p] >> sq & 1 == 0 {
                        return Err(bad(format!(
                            "phase {f:?}: the last placement is not a piece of the player to move"
                        )));
                    }
                    sq
                }
            };
            Phase::Place { left, last }
        }
        f => {
            return Err(bad(format!(
                "phase {f:?}, expected spin, place<k>, place<k>><square>, switch or over"
            )));
        }
    };
    let paths = [s.has_path(0), s.has_path(1)];
    match s.phase {
        Phase::Over => {
            s.outcome = if paths[p] {
                Outcome::Win(p as u8)
            } else if paths[1 - p] {
                Outcome::Win(1 - p as u8)
            } else if s.empty() == 0 {
                Outcome::Draw
            } else {
                return Err(bad(
                    "phase over, but nobody has a path and the board is not full (K9, K10)".into(),
                ));
            };
        }
        _ if paths[0] || paths[1] => {
            return Err(bad(format!(
                "{} has a path, so the game is over (phase over)",
                SEAT_LETTERS[if paths[0] { 0 } else { 1 }]
            )));
        }
        _ if s.empty() == 0 => {
            return Err(bad("the board is full, so the game is over (K10)".into()));
        }
        Phase::Switch if !s.switch_possible() => {
            return Err(bad(
                "phase switch needs a piece of each player on the board (K6)".into(),
            ));
        }
        Phase::Place { left, last } => {
            // Room above the last placement for every placement due (B.5).
            let mut above = s.empty();
            if last != NONE {
                above &= !((2u128 << last) - 1);
            }
            if above.count() < left as u32 {
                return Err(bad(format!(
                    "phase {phase_text}: fewer empty squares above the last placement than placements due (B.5)"
                )));
            }
        }
        _ => {}
    }
    s.hash = s.zobrist_from_scratch();
    Ok(s)
}
