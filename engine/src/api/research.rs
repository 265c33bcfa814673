//! What research reads of a position: seat roles, symmetries, swap moves,
//! board shapes and pictures, scores and why a game ended.

use super::Returns;
use super::State;
use super::ToMove;
use super::picture::BoardPicture;

/// What a position means for research, beyond move generation: seat roles
/// and colours, the first mover and the pie-rule setter, swap moves, board
/// symmetries, a cell map for plots, scores and why a game ended.
///
/// Nothing in it is needed to generate, apply or count moves, so it is a
/// trait of its own: the core [`State`] stays the few methods a move
/// generator needs (searches add [`crate::api::Search`]; agents ask this
/// trait one thing only, [`Research::offers_swap`]), while every game's state implements all three
/// ([`crate::api::Game::State`] requires it) and the
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

    /// Whether the seat to move is at a pie choice: at least one of its
    /// legal moves is a swap ([`Research::is_swap`]), so that its decision is
    /// "swap or keep" (the second player's first turn of `pie(G)` and Bagel,
    /// Slingshot's choice of colour). Searching agents spend a full search
    /// on each option there (`agents::PieChooser`). The default lists the
    /// legal moves; a game whose stage says it cheaply may override it.
    fn offers_swap(&self) -> bool {
        super::with_scratch(|moves: &mut Vec<Self::Move>| {
            self.legal_moves(moves);
            moves.iter().any(|&m| self.is_swap(m))
        })
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

    /// Why `text` is not a legal move here, in a short sentence a player
    /// reads (`no piece on a1`, `the piece on c3 has range 2 (C-R-def)`);
    /// `None` where `text` is legal. Games override it with reasons from
    /// their rules; the default, [`generic_illegal_reason`], needs no game
    /// knowledge: the parse error, the game's end, or what the legal moves
    /// from the move's first cell are.
    fn illegal_reason(&self, text: &str) -> Option<String> {
        generic_illegal_reason(self, text)
    }
}

/// What [`move_to_explain`] gives: the illegal move with the legal moves,
/// or the whole answer.
pub type ToExplain<M> = Result<(M, Vec<M>), Option<String>>;

/// The start every game's [`Research::illegal_reason`] shares: `Ok` with
/// the move and the legal moves when `text` parses at a seat's turn and is
/// not legal (the game then says which rule it breaks); otherwise `Err`
/// with the answer itself: the parse error, `the game is already over`,
/// `None` for a legal move, and at a chance node
/// [`generic_illegal_reason`]'s.
///
/// # Errors
/// As above: `Err` is the whole answer, not a failure.
pub fn move_to_explain<S: Research>(state: &S, text: &str) -> ToExplain<S::Move> {
    let mv = state.parse_move(text).map_err(|e| Some(e.to_string()))?;
    match state.to_move() {
        ToMove::Terminal => Err(Some("the game is already over".into())),
        ToMove::Chance => Err(generic_illegal_reason(state, text)),
        ToMove::Seat(_) => {
            let mut legal = Vec::new();
            state.legal_moves(&mut legal);
            if legal.contains(&mv) {
                Err(None)
            } else {
                Ok((mv, legal))
            }
        }
    }
}

/// The reason [`Research::illegal_reason`] gives by default: a malformed
/// move's parse error; `the game is over`; at a chance node, the outcomes;
/// else, reading the cells named in the move ([`BoardPicture::cells_in`]),
/// `no legal move starts at a1` or the legal moves from that cell, and for
/// a move naming no cell, how many moves are legal. `None` where `text` is
/// a legal move or chance outcome.
pub fn generic_illegal_reason<S: Research>(state: &S, text: &str) -> Option<String> {
    let mv = match state.parse_move(text) {
        Ok(mv) => mv,
        Err(e) => return Some(e.to_string()),
    };
    let texts: Vec<String> = match state.to_move() {
        ToMove::Terminal => return Some("the game is already over".into()),
        ToMove::Chance => {
            let mut outs = Vec::new();
            state.chance_outcomes(&mut outs);
            if outs.iter().any(|&(m, _)| m == mv) {
                return None;
            }
            let t: Vec<String> = outs.iter().map(|&(m, _)| state.move_to_text(m)).collect();
            return Some(format!(
                "chance plays here, and its outcomes are {}",
                t.join(" ")
            ));
        }
        ToMove::Seat(_) => {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            if moves.contains(&mv) {
                return None;
            }
            moves.iter().map(|&m| state.move_to_text(m)).collect()
        }
    };
    let Some(pic) = state.board_picture() else {
        return Some(format!("not one of the {} legal moves", texts.len()));
    };
    let first = |t: &str| pic.cells_in(t).first().copied();
    let Some(from) = first(text) else {
        return Some(format!("not one of the {} legal moves", texts.len()));
    };
    let name = &pic.cells[from].name;
    let from_here: Vec<&String> = texts.iter().filter(|t| first(t) == Some(from)).collect();
    if from_here.is_empty() {
        return Some(format!("no legal move starts at {name}"));
    }
    const SHOWN: usize = 8;
    let mut list: Vec<&str> = from_here.iter().take(SHOWN).map(|t| t.as_str()).collect();
    if from_here.len() > SHOWN {
        list.push("...");
    }
    Some(format!(
        "not one of the {} legal moves from {name}: {}",
        from_here.len(),
        list.join(" ")
    ))
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
