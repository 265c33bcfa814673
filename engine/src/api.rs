//! The Game/State API every engine implements (after OpenSpiel's `State`).
//!
//! Conventions, shared by all games:
//! * **Seats** are numbered `0..num_seats()` (1 to [`MAX_SEATS`]). A seat is
//!   where an agent sits; a game may map seats to colours later (the pie rule
//!   does), and reports the mapping with [`Research::seat_role`] (its `colour`).
//! * **Returns** at the end: a win is `1.0`, a loss `-1.0`, a draw `0.0`
//!   (shared team results count for both partners). A one-seat game returns
//!   its score. Entries past `num_seats()` are `0.0`.
//! * **Chance** nodes list their outcomes with probabilities that sum to 1;
//!   an outcome is applied with [`State::apply`] like any move.
//! * **Moves, plies and turns.** A *move* is one decision of a seat (or one
//!   chance outcome); a *ply* is one applied move; a *turn* is a seat's whole
//!   go, one or more plies. The convention for compound turns:
//!   - parts a seat chooses together, with no new information and no forced
//!     step in between, are **one move** (Catapult's dagger `m1;m2`, Bagel's
//!     pair of discs, Slingshot's set-up): perft then counts whole turns, as
//!     the dossiers do;
//!   - parts that are forced or that follow a chance outcome are **a
//!     sequence of moves by the same seat** (Sniggle's compulsory
//!     continuation steps, the spinner's placements after the spin): the
//!     state knows it is mid-turn, shows it in its text and hashes it.
//!
//!   [`State::continues_turn`] tells which: a turn ends at every ply after
//!   which it is false. So a record has both `plies` and `turns`, and
//!   [`perft`] counts plies (chance outcomes included) while
//!   [`perft_turns`] counts whole turns. Alpha-beta's depth unit is the ply.

use std::fmt::{Debug, Display};
use std::hash::Hash;

use rand::Rng;

use crate::error::GameError;

use std::any::{Any, TypeId};
use std::cell::RefCell;

thread_local! {
    /// Scratch lists per element type, reused so that lists a method needs
    /// but cannot take from its caller (a default `count_legal_moves`, the
    /// pie wrappers' lists of the inner game's moves) allocate only on a
    /// thread's first calls. A few types per thread, so a list searched by
    /// `TypeId` (no hashing) is fastest.
    static SCRATCH: RefCell<Vec<(TypeId, Box<dyn Any>)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with a cleared scratch `Vec<T>` of this thread, reused across
/// calls (no allocation once it has grown). Re-entrant: a nested call gets a
/// list of its own.
pub fn with_scratch<T: 'static, R>(f: impl FnOnce(&mut Vec<T>) -> R) -> R {
    let id = TypeId::of::<Vec<T>>();
    let slot = |m: &mut Vec<(TypeId, Box<dyn Any>)>| -> Option<usize> {
        m.iter().position(|(t, _)| *t == id)
    };
    let mut v: Vec<T> = SCRATCH
        .with(|m| {
            let mut m = m.borrow_mut();
            let i = slot(&mut m)?;
            m[i].1.downcast_mut::<Vec<T>>().map(std::mem::take)
        })
        .unwrap_or_default();
    v.clear();
    let r = f(&mut v);
    SCRATCH.with(|m| {
        let mut m = m.borrow_mut();
        match slot(&mut m) {
            Some(i) => {
                if let Some(s) = m[i].1.downcast_mut::<Vec<T>>()
                    && s.capacity() < v.capacity()
                {
                    *s = v;
                }
            }
            None => m.push((id, Box::new(v))),
        }
    });
    r
}

/// The largest number of seats any game has.
pub const MAX_SEATS: usize = 4;

/// Returns per seat; entries past the game's seat count are 0.
pub type Returns = [f64; MAX_SEATS];

/// Who acts in a state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ToMove {
    /// The seat (`0..num_seats`) that chooses the next move.
    Seat(usize),
    /// A chance node: the next move is drawn from [`State::chance_outcomes`].
    Chance,
    /// The game is over; see [`State::returns`].
    Terminal,
}

/// A game with its parameters fixed: builds initial states and parses
/// positions. Cheap to clone and shareable across threads.
pub trait Game: Clone + Send + Sync + 'static {
    /// The state type of this game.
    type State: Research;

    /// The canonical game string with every parameter spelled out, e.g.
    /// `slingshot(size=9,supply=45,corners=ordinary,stuck=pass)`.
    fn game_string(&self) -> String;

    /// Number of seats (1 to [`MAX_SEATS`]).
    fn num_seats(&self) -> usize;

    /// The initial state. Games with a random set-up draw it from `seed`
    /// (the same seed gives the same set-up); others ignore it.
    fn initial_state(&self, seed: u64) -> Self::State;

    /// The same game with every automatic draw by rule turned off
    /// (repetition, quiet-move counters, dead positions, ply caps), for
    /// perft: perft counts the move-generation tree, so only the game's real
    /// ends (mate, connection, annihilation, ...) end a branch. The default
    /// is the game itself, for games without such draws.
    fn perft_game(&self) -> Self {
        self.clone()
    }

    /// Parses the game's position text (the inverse of [`State::to_text`]).
    ///
    /// # Errors
    /// Malformed text, or a position that breaks the game's invariants; the
    /// message names the field and what was expected.
    fn parse_position(&self, text: &str) -> Result<Self::State, GameError>;
}

/// A game position with everything needed to continue the game.
///
/// Cloning is cheap (bitboards and a few counters, no heap).
pub trait State: Clone + Send + Sync + Display + Debug {
    /// A move (or chance outcome). Small and `Copy`.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// Number of seats.
    fn num_seats(&self) -> usize;

    /// Who acts next.
    fn to_move(&self) -> ToMove;

    /// Whether the game is over.
    #[inline]
    fn is_terminal(&self) -> bool {
        self.to_move() == ToMove::Terminal
    }

    /// Clears `out` and writes the legal moves of the seat to move, in the
    /// game's fixed order. Empty at chance and terminal nodes. Does not
    /// allocate once `out` has grown to the game's largest move list.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// The number of legal moves (perft's bulk count at the last ply).
    /// Games override it with a count that builds no list.
    fn count_legal_moves(&self) -> usize {
        with_scratch(|v: &mut Vec<Self::Move>| {
            self.legal_moves(v);
            v.len()
        })
    }

    /// A legal move drawn uniformly at random, or `None` at chance and
    /// terminal nodes. `buf` is scratch space. Games may override it with a
    /// draw that builds no list; it must stay uniform over
    /// [`State::legal_moves`].
    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<Self::Move>,
    ) -> Option<Self::Move> {
        self.legal_moves(buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.random_range(0..buf.len())])
        }
    }

    /// Clears `out` and writes each chance outcome with its probability
    /// (they sum to 1). Empty unless [`State::to_move`] is `Chance`.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Move, f64)>) {
        out.clear();
    }

    /// The leaf count of [`perft`] one ply below this state after `mv` (a
    /// legal move of the seat to move): 0 if the game is over after `mv`,
    /// the number of chance outcomes at a chance node, else the number of
    /// legal moves. The default applies `mv` to a clone; a game may
    /// override it with a cheaper make-and-count (no repetition history
    /// cloned, say) that must give the same number.
    fn perft_after(&self, mv: Self::Move) -> u64 {
        let mut child = self.clone();
        child.apply(mv);
        perft_leaves(&child)
    }

    /// Draws a chance outcome by its probability. `None` unless at a chance
    /// node.
    fn sample_chance<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<(Self::Move, f64)>,
    ) -> Option<Self::Move> {
        self.chance_outcomes(buf);
        let mut x: f64 = rng.random();
        for &(m, p) in buf.iter() {
            if x < p {
                return Some(m);
            }
            x -= p;
        }
        buf.last().map(|&(m, _)| m)
    }

    /// Applies a legal move or chance outcome. The move must come from
    /// [`State::legal_moves`] or [`State::chance_outcomes`] of this state
    /// (checked in debug builds only; use [`parse_legal_move`] for input).
    fn apply(&mut self, mv: Self::Move);

    /// Returns per seat (see the module docs); all 0 before the end.
    fn returns(&self) -> Returns;

    /// The Zobrist key, kept incrementally by [`State::apply`]; equal to
    /// [`State::zobrist_from_scratch`].
    fn zobrist(&self) -> u64;

    /// The Zobrist key recomputed from the position (for tests).
    fn zobrist_from_scratch(&self) -> u64;

    /// Plies played since the game's initial state.
    fn ply(&self) -> u32;

    /// The position text; [`Game::parse_position`] reads it back to an equal
    /// state.
    fn to_text(&self) -> String;

    /// A move in the game's dossier notation.
    fn move_to_text(&self, mv: Self::Move) -> String;

    /// Parses a move in the game's notation. Checks the syntax and the
    /// squares only; [`parse_legal_move`] also checks legality.
    ///
    /// # Errors
    /// Malformed text; the message says what was expected.
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError>;

    /// The exact game-theoretic value of this position where the game has a
    /// solution table (a retrograde analysis): `(value, plies)` with value
    /// `1` a win, `0` a draw, `-1` a loss for the seat to move, and `plies`
    /// the distance to the end under perfect play (the winner hurrying, the
    /// loser delaying). `None` (the default) where no table covers the
    /// position; the `solver` agent then searches.
    fn solved(&self) -> Option<(i8, u32)> {
        None
    }

    /// One-seat games with a dedicated exact solver: the best return
    /// reachable from this position and a line to the end reaching it,
    /// searched with a table of at most `mb` MiB and at most `nodes`
    /// positions (0 = no limit); with `fewest`, the line is also a shortest
    /// one. `None` (the default) where the game has none; the `solver`
    /// agent then runs its generic branch and bound.
    fn solve_alone(&self, mb: u32, nodes: u64, fewest: bool) -> Option<AloneSolution<Self::Move>> {
        let _ = (mb, nodes, fewest);
        None
    }

    /// One-seat games: an upper bound on the return of any end of the game
    /// reached from this position within `within` more plies (`u32::MAX`:
    /// any number; the exact return at a terminal state), for the `solver`
    /// agent's pruning. `None` (the default) where the game gives none; the
    /// solver then prunes only on proven values.
    fn return_bound(&self, within: u32) -> Option<f64> {
        let _ = within;
        None
    }

    /// Whether the next move continues the turn of the seat that made the
    /// last move (a compulsory continuation step, placements after a spin),
    /// so that no turn ends here. False at the start and wherever a turn has
    /// just ended. See the module docs on turns.
    fn continues_turn(&self) -> bool {
        false
    }

    /// A heuristic value of a non-terminal position for the seat to move, in
    /// game-defined units (larger is better; a win is worth more than any
    /// heuristic value). Zero where a game has no heuristic.
    fn evaluate(&self) -> i32 {
        0
    }

    /// The evaluation units of one logistic unit: searches map an
    /// evaluation `v` to the win probability `1 / (1 + exp(-v / scale))`
    /// (MCTS playout cut-offs, win probabilities in reports). The default,
    /// 100, suits evaluations in hundredths of a pawn-like piece.
    fn eval_scale(&self) -> f64 {
        100.0
    }

    /// Whether `mv` is a capture (or another tactical move a quiescence
    /// search should follow past the depth horizon). The default, false,
    /// turns quiescence off for the game.
    fn is_capture(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }
}

/// What a position means for research, beyond move generation: seat roles
/// and colours, the first mover and the pie-rule setter, swap moves, board
/// symmetries, a cell map for plots, scores and why a game ended.
///
/// Nothing in it is needed to generate, apply or count moves, so it is a
/// trait of its own: the core [`State`] stays the few methods a move
/// generator and a search need (agents ask for nothing more), while every
/// game's state implements both ([`Game::State`] requires it) and the
/// harness's records, swap maps and reports read this one. Every method but
/// [`Research::first_mover_seat`] has a default, so a game declares only what
/// it has.
pub trait Research: State {
    /// Who `seat` is, for records: its role under a pie rule or set-up, the
    /// colour or side it plays and its team ([`SeatRole`]). The default has
    /// none of them.
    fn seat_role(&self, seat: usize) -> SeatRole {
        let _ = seat;
        SeatRole::default()
    }

    /// The seat that plays the colour that moves first in the main game
    /// (after any set-up), once that is decided.
    fn first_mover_seat(&self) -> Option<usize>;

    /// The seat that made a pie-rule set-up, in games that have one.
    fn setter_seat(&self) -> Option<usize> {
        None
    }

    /// Score per seat where the game keeps one beyond win/loss (e.g. Bagel's
    /// 3-in-a-rows); `None` otherwise.
    fn scores(&self) -> Option<Returns> {
        None
    }

    /// Whether `mv` is a swap under a pie rule: the mover takes over the
    /// other seat's colour or opening (Bagel's `swap`, Slingshot's
    /// `chooser=B`, the swap of [`crate::pie::Pie`]). Swap maps play openings
    /// out with these moves removed ([`crate::pie::NoSwap`]).
    fn is_swap(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// The number of board symmetries (the identity included) that keep both
    /// seats' goals and this position, used to reduce openings to one
    /// representative each. 1 where a game declares none.
    fn symmetry_count(&self) -> usize {
        1
    }

    /// `mv` mapped by symmetry `sym` (`0..symmetry_count()`; 0 is the
    /// identity). The result is a legal move wherever `mv` is, written in the
    /// game's canonical form (e.g. an unordered pair in a fixed order).
    fn transform_move(&self, mv: Self::Move, sym: usize) -> Self::Move {
        let _ = sym;
        mv
    }

    /// The board's shape, for plots; `None` where a game has no cell map.
    fn board_shape(&self) -> Option<BoardShape> {
        None
    }

    /// The cells a move puts a piece on, in [`Research::board_shape`]
    /// coordinates, for plots (a Slingshot set-up gives two, a Bagel disc
    /// one). Empty for moves that place nothing.
    fn move_cells(&self, mv: Self::Move) -> Vec<(i32, i32)> {
        let _ = mv;
        Vec::new()
    }

    /// Why a terminal state ended, in the game's own terms (`connection`,
    /// `checkmate`, `ply cap`, ...); `None` before the end, or where a game
    /// does not say.
    fn end_reason(&self) -> Option<&'static str> {
        None
    }

    /// The position as a picture: every cell of the board with its place,
    /// name, kind and piece, and the lines joining points where the board
    /// has them (for `boardlab show`'s SVG). `None` (the default) where a
    /// game draws none.
    fn board_picture(&self) -> Option<BoardPicture> {
        None
    }
}

/// What a game's dedicated one-seat solver found ([`State::solve_alone`]).
#[derive(Clone, Debug, PartialEq)]
pub struct AloneSolution<M> {
    /// The best return found (the least pieces left, as a return).
    pub value: f64,
    /// A line from the position to the end of the game reaching `value`.
    pub line: Vec<M>,
    /// No node budget ran out: `value` is the best reachable and, when the
    /// fewest plies were asked for, `line` is a shortest such line.
    pub proven: bool,
    /// Positions searched.
    pub nodes: u64,
}

/// Who a seat is ([`Research::seat_role`]), one kind of value per field, so
/// that the tournament CSV gives each its own column (`role_s`, `colour_s`,
/// `team_s`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatRole {
    /// The seat's role under a pie rule or set-up, fixed from the start:
    /// `setter`/`chooser` (Slingshot), `first`/`second` (Bagel, Line Up:
    /// who places first), `opener`/`chooser` (`pie(G)`); empty where the
    /// game has none.
    pub role: &'static str,
    /// The colour or side the seat plays (`white`, `light`, `teal`,
    /// `north`, `X`, `TL`, `P2`, ...), after any swap; empty until it is
    /// decided (a pie set-up not yet chosen).
    pub colour: String,
    /// The seat's team in team games: 0 for seats 0 and 2, 1 for seats 1
    /// and 3; `None` where every seat plays for itself.
    pub team: Option<usize>,
}

impl SeatRole {
    /// A seat with a colour only.
    pub fn colour(colour: impl Into<String>) -> SeatRole {
        SeatRole {
            colour: colour.into(),
            ..SeatRole::default()
        }
    }

    /// Whether the seat has no role, colour or team.
    pub fn is_empty(&self) -> bool {
        self.role.is_empty() && self.colour.is_empty() && self.team.is_none()
    }
}

/// The fields joined by `/`, empty ones left out (e.g. `setter/teal`,
/// `TL/team 0`), for display.
impl std::fmt::Display for SeatRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let team = self.team.map(|t| format!("team {t}"));
        let parts = [Some(self.role.to_string()), Some(self.colour.clone()), team];
        let parts: Vec<String> = parts
            .into_iter()
            .flatten()
            .filter(|x| !x.is_empty())
            .collect();
        f.write_str(&parts.join("/"))
    }
}

/// A board position as a picture ([`Research::board_picture`]), in cell
/// units: a square cell is 1 wide, a hex cell's centres are 1 apart.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardPicture {
    /// How each cell is drawn.
    pub cell_shape: CellShape,
    /// Every cell of the board.
    pub cells: Vec<CellPicture>,
    /// Lines to draw between cells (indices into `cells`): Andalusia's
    /// Alquerque lines.
    pub links: Vec<(usize, usize)>,
}

/// The outline of a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CellShape {
    /// A unit square.
    Square,
    /// A hexagon with flat top and bottom.
    HexFlat,
    /// A hexagon with a point at top and bottom.
    HexPointy,
    /// A point where lines meet (no outline; see [`BoardPicture::links`]).
    Point,
}

/// One cell of a [`BoardPicture`].
#[derive(Clone, Debug, PartialEq)]
pub struct CellPicture {
    /// Centre, x to the right, in cell units.
    pub x: f64,
    /// Centre, y downwards, in cell units.
    pub y: f64,
    /// The cell's name in the game's notation (`e4`, `D4`).
    pub name: String,
    /// What the cell is.
    pub kind: CellKind,
    /// A circle on the cell: the Sly board's field centres.
    pub circled: bool,
    /// What stands on it.
    pub piece: Option<PiecePicture>,
}

/// What a cell is, for its fill.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// An ordinary light cell.
    Light,
    /// An ordinary dark cell (chequered boards, alternate Sly fields).
    Dark,
    /// A coloured tile (Bagel), by colour index.
    Tile(u8),
    /// A castle cell of a seat's colour (King's Colour).
    Castle(usize),
    /// A wall cell of a seat's colour (King's Colour).
    Wall(usize),
    /// No tile: a hole in the board (Bagel's centre).
    Hole,
}

/// A piece (or a stack) on a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PiecePicture {
    /// The colour index (0, 1, ...: the game's colours, first mover's
    /// first), `None` for a neutral piece.
    pub colour: Option<usize>,
    /// The letter(s) drawn on it: its kind, or a stack's height.
    pub label: String,
}

/// A square board's picture from its run-length rows (the first field of
/// the position text, top rank first; see [`crate::board::text`]): cell
/// `(file, rank)` is named `a1` at the bottom left. `piece` reads one
/// piece's text (`two_char`: a letter and a digit, as `A1` on the Sly war
/// games; else one character; `.` is an empty cell in both). `None` where
/// the rows are not all of one width.
pub fn square_picture(
    rows: &str,
    two_char: bool,
    piece: impl Fn(&str) -> Option<PiecePicture>,
    kind: impl Fn(u32, u32) -> CellKind,
) -> Option<BoardPicture> {
    // Each row as its cells' occupants, left to right.
    let mut grid: Vec<Vec<Option<PiecePicture>>> = Vec::new();
    for line in rows.split('/') {
        let chars: Vec<char> = line.chars().collect();
        let mut row = Vec::new();
        let mut k = 0;
        while k < chars.len() {
            let ch = chars[k];
            if ch.is_ascii_digit() {
                let mut run = 0usize;
                while k < chars.len() && chars[k].is_ascii_digit() {
                    run = run
                        .saturating_mul(10)
                        .saturating_add(chars[k] as usize - '0' as usize);
                    k += 1;
                }
                if run > 64 {
                    return None;
                }
                row.extend(std::iter::repeat_n(None, run));
            } else if ch == '.' {
                row.push(None);
                k += 1;
            } else {
                let len = if two_char && chars.get(k + 1).is_some_and(|c| c.is_ascii_digit()) {
                    2
                } else {
                    1
                };
                let text: String = chars[k..k + len].iter().collect();
                row.push(piece(&text));
                k += len;
            }
        }
        grid.push(row);
    }
    let height = grid.len();
    let width = grid[0].len();
    if width == 0 || width > 26 || grid.iter().any(|r| r.len() != width) {
        return None;
    }
    let mut cells = Vec::new();
    for (i, row) in grid.into_iter().enumerate() {
        let rank = (height - 1 - i) as u32;
        for (file, occupant) in row.into_iter().enumerate() {
            cells.push(CellPicture {
                x: file as f64 + 0.5,
                y: i as f64 + 0.5,
                name: format!("{}{}", (b'a' + file as u8) as char, rank + 1),
                kind: kind(file as u32, rank),
                circled: false,
                piece: occupant,
            });
        }
    }
    Some(BoardPicture {
        cell_shape: CellShape::Square,
        cells,
        links: Vec::new(),
    })
}

/// Renames a 12 × 12 Sly board picture's cells in the Sly notation: row
/// number from the top, then column letter (`5E`; docs/rules/sly-board.md §2.1).
fn sly_names(p: &mut BoardPicture) {
    for c in &mut p.cells {
        let (col, row) = ((c.x - 0.5) as u8, (c.y - 0.5) as u32);
        c.name = format!("{}{}", row + 1, (b'A' + col) as char);
    }
}

/// The links of a `size` × `size` Alquerque board with every other
/// horizontal and vertical line removed (Andalusia, docs/rules/andalusia.md
/// A-B1): horizontal links on odd ranks, vertical links on odd files
/// (1-based), diagonals through every point with `file + rank` even, as
/// indices into a [`square_picture`]'s cells (top rank first).
pub fn alquerque_links(size: u32) -> Vec<(usize, usize)> {
    let at = |file: u32, rank: u32| ((size - 1 - rank) * size + file) as usize;
    let mut links = Vec::new();
    for rank in 0..size {
        for file in 0..size {
            if rank % 2 == 0 && file + 1 < size {
                links.push((at(file, rank), at(file + 1, rank)));
            }
            if file % 2 == 0 && rank + 1 < size {
                links.push((at(file, rank), at(file, rank + 1)));
            }
            if (file + rank) % 2 == 0 && rank + 1 < size {
                if file + 1 < size {
                    links.push((at(file, rank), at(file + 1, rank + 1)));
                }
                if file > 0 {
                    links.push((at(file, rank), at(file - 1, rank + 1)));
                }
            }
        }
    }
    links
}

/// The first field of a position text: its board rows.
pub fn board_field(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

/// A piece of colour `colour` labelled `label`.
pub fn piece(colour: Option<usize>, label: &str) -> Option<PiecePicture> {
    Some(PiecePicture {
        colour,
        label: label.to_string(),
    })
}

/// A chess-like piece letter: upper case colour 0, lower case colour 1.
pub fn cased_piece(text: &str) -> Option<PiecePicture> {
    let ch = text.chars().next()?;
    let colour = if ch.is_ascii_uppercase() {
        Some(0)
    } else if ch.is_ascii_lowercase() {
        Some(1)
    } else {
        None
    };
    Some(PiecePicture {
        colour,
        label: ch.to_ascii_uppercase().to_string(),
    })
}

/// The chequered colouring of square boards (a1 dark).
pub fn chequered(file: u32, rank: u32) -> CellKind {
    if (file + rank).is_multiple_of(2) {
        CellKind::Dark
    } else {
        CellKind::Light
    }
}

/// The Sly board's colouring: its 3 × 3 fields alternate (docs/rules/sly-board.md
/// §2.2).
fn sly_fields(file: u32, rank: u32) -> CellKind {
    if (file / 3 + rank / 3).is_multiple_of(2) {
        CellKind::Light
    } else {
        CellKind::Dark
    }
}

/// A 12 × 12 Sly board's picture from a position text: the cells of
/// [`square_picture`] (`two_char` and `piece` as there) in the Sly field
/// colouring, the 16 field centres circled and the cells named in the Sly
/// notation (docs/rules/sly-board.md §2). The picture of every Sly game.
pub fn sly_picture(
    text: &str,
    two_char: bool,
    piece: impl Fn(&str) -> Option<PiecePicture>,
) -> Option<BoardPicture> {
    let mut p = square_picture(board_field(text), two_char, piece, sly_fields)?;
    circle_sly_centres(&mut p);
    sly_names(&mut p);
    Some(p)
}

/// A Sly war-game piece written as its kind letter then its colour number
/// from 1 (`A2`: colour index 1), as Empire and Gateway write them.
pub fn numbered_piece(text: &str) -> Option<PiecePicture> {
    let colour = text.get(1..)?.parse::<usize>().ok()?.checked_sub(1)?;
    piece(Some(colour), &text[..1])
}

/// Circles the 16 field centres of a 12 × 12 Sly board picture (0-based
/// row and column `3k + 1`, docs/rules/sly-board.md §2.2).
fn circle_sly_centres(p: &mut BoardPicture) {
    for c in &mut p.cells {
        let (col, row) = ((c.x - 0.5) as u32, (c.y - 0.5) as u32);
        c.circled = col % 3 == 1 && row % 3 == 1;
    }
}

/// A board's cell layout, for plots.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BoardShape {
    /// `width` × `height` squares; a cell is `(file, rank)`, `(0, 0)` at the
    /// bottom left (a1).
    Square {
        /// Files.
        width: u32,
        /// Ranks.
        height: u32,
    },
    /// A hex-hex board with `side` cells a side; a cell is axial `(q, r)`
    /// with `max(|q|, |r|, |q + r|) < side`, centre `(0, 0)`, `q` growing to
    /// the right and `r` growing down-right at 60°.
    Hex {
        /// Cells per side.
        side: u32,
    },
}

/// Parses `text` as a move and checks it is legal in `state`.
///
/// # Errors
/// Malformed text, a move at a terminal state, or a move that is not legal
/// here (the message names it).
pub fn parse_legal_move<S: State>(state: &S, text: &str) -> Result<S::Move, GameError> {
    let mv = state.parse_move(text)?;
    match state.to_move() {
        ToMove::Terminal => crate::bail!("move {text:?}: the game is already over"),
        ToMove::Chance => {
            let mut outs = Vec::new();
            state.chance_outcomes(&mut outs);
            if !outs.iter().any(|&(m, _)| m == mv) {
                crate::bail!("move {text:?}: not a chance outcome of this position");
            }
        }
        ToMove::Seat(_) => {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            if !moves.contains(&mv) {
                crate::bail!("move {text:?} is not legal in this position");
            }
        }
    }
    Ok(mv)
}

/// Applies a whitespace-separated move record to `state`, checking each move.
///
/// # Errors
/// The first malformed or illegal move, named with its ply number.
pub fn apply_moves<S: State>(state: &mut S, record: &str) -> Result<(), GameError> {
    for (i, text) in record.split_whitespace().enumerate() {
        let mv = parse_legal_move(state, text)
            .map_err(|e| GameError::new(format!("move {} of the record: {e}", i + 1)))?;
        state.apply(mv);
    }
    Ok(())
}

/// Counts the leaf nodes of the game tree `depth` plies below `state`
/// (perft). A terminal state above the horizon counts 0; chance outcomes
/// count as moves. At depth 1 the count uses [`State::count_legal_moves`]
/// (bulk counting) or the number of chance outcomes; the move lists are one
/// per ply, allocated once per call.
pub fn perft<S: State>(state: &S, depth: u32) -> u64 {
    let mut bufs: Vec<PlyBuffers<S>> = (0..depth).map(|_| PlyBuffers::default()).collect();
    perft_rec(state, depth, &mut bufs)
}

/// The reused lists of one ply of [`perft`].
struct PlyBuffers<S: State> {
    moves: Vec<S::Move>,
    outcomes: Vec<(S::Move, f64)>,
}

impl<S: State> Default for PlyBuffers<S> {
    fn default() -> Self {
        PlyBuffers {
            moves: Vec::new(),
            outcomes: Vec::new(),
        }
    }
}

fn perft_rec<S: State>(state: &S, depth: u32, bufs: &mut [PlyBuffers<S>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    match state.to_move() {
        ToMove::Terminal => 0,
        ToMove::Chance => {
            let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
            state.chance_outcomes(&mut buf.outcomes);
            if depth == 1 {
                return buf.outcomes.len() as u64;
            }
            let mut total = 0;
            for &(m, _) in buf.outcomes.iter() {
                let mut child = state.clone();
                child.apply(m);
                total += perft_rec(&child, depth - 1, rest);
            }
            total
        }
        ToMove::Seat(_) => {
            if depth == 1 {
                return state.count_legal_moves() as u64;
            }
            let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
            state.legal_moves(&mut buf.moves);
            if depth == 2 {
                return buf.moves.iter().map(|&m| state.perft_after(m)).sum();
            }
            let mut total = 0;
            for &m in buf.moves.iter() {
                let mut child = state.clone();
                child.apply(m);
                total += perft_rec(&child, depth - 1, rest);
            }
            total
        }
    }
}

/// [`perft`] at depth 1: 0 at a terminal state, the number of chance
/// outcomes at a chance node, else [`State::count_legal_moves`].
pub fn perft_leaves<S: State>(state: &S) -> u64 {
    match state.to_move() {
        ToMove::Terminal => 0,
        ToMove::Chance => with_scratch(|outs: &mut Vec<(S::Move, f64)>| {
            state.chance_outcomes(outs);
            outs.len() as u64
        }),
        ToMove::Seat(_) => state.count_legal_moves() as u64,
    }
}

/// Counts the leaf nodes of the game tree `depth` whole **turns** below
/// `state` (see the module docs on turns): plies that continue a turn
/// ([`State::continues_turn`]) do not use up depth. Equal to [`perft`] in a
/// game whose every turn is one move. A terminal state above the horizon
/// counts 0.
pub fn perft_turns<S: State>(state: &S, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    match state.to_move() {
        ToMove::Terminal => 0,
        ToMove::Chance => {
            let mut outs = Vec::new();
            state.chance_outcomes(&mut outs);
            moves.extend(outs.iter().map(|&(m, _)| m));
            perft_turns_children(state, depth, &moves)
        }
        ToMove::Seat(_) => {
            state.legal_moves(&mut moves);
            perft_turns_children(state, depth, &moves)
        }
    }
}

fn perft_turns_children<S: State>(state: &S, depth: u32, moves: &[S::Move]) -> u64 {
    moves
        .iter()
        .map(|&m| {
            let mut child = state.clone();
            child.apply(m);
            let left = if child.continues_turn() {
                depth
            } else {
                depth - 1
            };
            perft_turns(&child, left)
        })
        .sum()
}
