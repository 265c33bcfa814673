//! What searches ask of a position beyond move generation: a heuristic
//! evaluation and its scale, which moves are tactical, and exact solutions
//! where a game has them.

use super::State;

/// One named weight of a game's evaluation, in its evaluation units: the
/// alpha-beta agent's parameter `w_<name>` (docs/cli.md), so that
/// `tune --spsa` can tune it. A game lists its weights in
/// [`SearchDefaults::eval_weights`] and reads them, in that order, in
/// [`Search::evaluate_weighted`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeight {
    /// The term's name (`material`, `range`, ...); the parameter is
    /// `w_` followed by it.
    pub name: &'static str,
    /// The weight [`Search::evaluate`] uses.
    pub default: i32,
    /// One line: what the term counts, per what.
    pub help: &'static str,
}

/// Declares a game's evaluation weights: a struct of `i32` fields, each
/// with its doc line (the [`EvalWeight::help`]) and its default, with
/// `DEFAULT` (the weights of [`Search::evaluate`]), `NAMED` (the list for
/// [`SearchDefaults::eval_weights`]) and `from_slice` (the weights of a
/// slice in `NAMED`'s order, for [`Search::evaluate_weighted`]).
macro_rules! eval_weights {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[doc = $doc:literal])* $field:ident : $default:expr, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub struct $name {
            $( $(#[doc = $doc])* pub $field: i32, )*
        }

        impl $name {
            /// The weights of [`crate::Search::evaluate`].
            pub const DEFAULT: $name = $name { $( $field: $default, )* };

            /// The weights by name, in field order: alpha-beta's `w_<name>`
            /// parameters ([`crate::SearchDefaults::eval_weights`]).
            pub const NAMED: &'static [$crate::api::EvalWeight] = &[
                $( $crate::api::EvalWeight {
                    name: stringify!($field),
                    default: $default,
                    help: concat!($($doc),*),
                }, )*
            ];

            /// [`Self::NAMED`] with the defaults `w`: for a variant of the
            /// game whose evaluation defaults differ (chess's, Royal
            /// Guard's).
            pub const fn named_with(
                w: &$name,
            ) -> [$crate::api::EvalWeight; [$(stringify!($field)),*].len()] {
                [
                    $( $crate::api::EvalWeight {
                        name: stringify!($field),
                        default: w.$field,
                        help: concat!($($doc),*),
                    }, )*
                ]
            }

            /// The weights of `w`, one per entry of [`Self::NAMED`] in its
            /// order.
            ///
            /// # Panics
            /// If `w` is shorter than [`Self::NAMED`].
            pub fn from_slice(w: &[i32]) -> $name {
                let mut it = w.iter().copied();
                $name { $( $field: it.next().expect("one value per named weight"), )* }
            }
        }
    };
}
pub(crate) use eval_weights;

/// A game's own defaults for the searches' switches: what a search uses
/// where its spec leaves the parameter out. Each departure from
/// [`SearchDefaults::default`] (the searches' generic choice) is one a game
/// earned in games at equal time (`boardlab sprt`), and its game's
/// [`Search::search_defaults`] names the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchDefaults {
    /// MCTS playout cut-off: random seat plies before the playout is scored
    /// by [`Search::evaluate`]; `None` plays every playout to the end (for
    /// a game whose evaluation misleads short playouts). Generic: `Some(4)`.
    pub playout_cutoff: Option<u32>,
    /// MCTS exploration constant. Generic: 0.7.
    pub mcts_c: f64,
    /// MCTS evaluation scale: a cut-off playout scores
    /// `1/(1+exp(−eval/scale))`; `None` is the game's [`Search::eval_scale`]
    /// (`scale=auto`). Generic: `None`.
    pub mcts_scale: Option<f64>,
    /// MCTS-Solver backups. Generic: on.
    pub mcts_solver: bool,
    /// Plies of MCTS's root win search (`minimax`; 0: none). Generic: 0.
    pub mcts_minimax: u32,
    /// Alpha-beta check extensions (a move that gives check is searched a
    /// ply deeper). Generic: off.
    pub check_extensions: bool,
    /// Alpha-beta move order: captures right after the table move, the
    /// most material ([`Search::capture_gain`]) first, in the main and the
    /// quiescence search. Generic: off (the table move, killers, history).
    pub capture_order: bool,
    /// Alpha-beta null-move reduction R (0: no null-move pruning).
    /// Generic: 0.
    pub null_move_reduction: u32,
    /// Alpha-beta late-move reductions: the move index from which quiet
    /// moves are reduced (0: none). Generic: 0.
    pub late_move_reductions: u32,
    /// Alpha-beta late-move reductions grow with the depth and the move's
    /// index (logarithmic) instead of one ply. Generic: off.
    pub log_reductions: bool,
    /// Alpha-beta futility margin per ply in evaluation units (0: no
    /// futility pruning). Generic: 0.
    pub futility_margin: u32,
    /// Alpha-beta static exchange pruning: captures that lose in the
    /// exchange ([`Search::exchange_value`] below 0) skipped in the
    /// quiescence search and ordered after the killers. Generic: off.
    pub exchange_pruning: bool,
    /// Alpha-beta late-move pruning: at a non-PV node of depth d ≤ 3 the
    /// quiet moves from index K + d² on are skipped (0: none). Generic: 0.
    pub late_move_pruning: u32,
    /// Alpha-beta check evasions in the quiescence search: in check there,
    /// every legal move instead of standing pat. Generic: off.
    pub quiescence_evasions: bool,
    /// Alpha-beta internal iterative reduction: a node of depth ≥ 4 with
    /// no table move searched a ply shallower. Generic: off.
    pub iterative_reduction: bool,
    /// Alpha-beta history maluses: at a cut by a quiet move, the quiet
    /// moves searched before it lose what it gains. Generic: off.
    pub history_malus: bool,
    /// Alpha-beta countermoves: the quiet move that last cut off after the
    /// opponent's previous move is ordered right after the killers.
    /// Generic: off.
    pub countermoves: bool,
    /// Alpha-beta reverse futility pruning's depth: with a futility
    /// margin M, a non-PV node of depth d ≤ this whose evaluation reaches
    /// beta + M·d returns it (0: 3, the futility pruning's own). Generic: 0.
    pub reverse_futility_depth: u32,
    /// Alpha-beta partial iterations: iterations go on to the end of the
    /// clock or node budget (without, none starts past half of it), and
    /// where the budget interrupts an iteration after a root move searched
    /// in full beat the previous iteration's move inside the window, that
    /// move is played. Generic: off.
    pub partial_iterations: bool,
    /// Alpha-beta two-fold repetition: a position below the root that
    /// occurred before in the game ([`Search::repeated`]) scores as a
    /// draw. Generic: off.
    pub twofold_repetition: bool,
    /// Alpha-beta quiescence table: the quiescence search reads the
    /// transposition table and stores its results at depth 0 where the
    /// slot holds nothing deeper. Generic: off.
    pub quiescence_table: bool,
    /// The named weights of the game's evaluation, in the order
    /// [`Search::evaluate_weighted`] reads them. Generic: none (the
    /// evaluation takes no weights).
    pub eval_weights: &'static [EvalWeight],
}

impl SearchDefaults {
    /// Plies of MCTS's root win search where a game turns it on: forced
    /// wins within 3 plies found, moves that allow one avoided (the search
    /// issue's tactics target; no cost measured at equal time,
    /// results/minimax-equal-time; docs/cli.md, per-game defaults).
    pub const ROOT_WIN_PLIES: u32 = 3;

    /// The generic defaults with MCTS's root win search on
    /// ([`SearchDefaults::ROOT_WIN_PLIES`]).
    pub fn root_win_search() -> SearchDefaults {
        SearchDefaults {
            mcts_minimax: SearchDefaults::ROOT_WIN_PLIES,
            ..SearchDefaults::default()
        }
    }
}

impl Default for SearchDefaults {
    fn default() -> Self {
        SearchDefaults {
            playout_cutoff: Some(4),
            mcts_c: 0.7,
            mcts_scale: None,
            mcts_solver: true,
            mcts_minimax: 0,
            check_extensions: false,
            capture_order: false,
            null_move_reduction: 0,
            late_move_reductions: 0,
            log_reductions: false,
            futility_margin: 0,
            exchange_pruning: false,
            late_move_pruning: 0,
            quiescence_evasions: false,
            iterative_reduction: false,
            history_malus: false,
            countermoves: false,
            reverse_futility_depth: 0,
            partial_iterations: false,
            twofold_repetition: false,
            quiescence_table: false,
            eval_weights: &[],
        }
    }
}

/// The search extension of [`State`]: what alpha-beta, MCTS and the solver
/// ask of a position. Nothing in it is needed to generate, apply or count
/// moves, so a move generator or a playout asks only for [`State`]. Every
/// method has a default, so a game declares only what it has (its
/// evaluation, usually, in the game's `eval.rs`).
pub trait Search: State {
    /// The exact game-theoretic value of this position where the game has a
    /// solution table (a retrograde analysis: Line Up) or an exact rule
    /// for it (Slingshot's Phase S race, D4): `(value, plies)` with value
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

    /// A heuristic value of a non-terminal position for the seat to move, in
    /// game-defined units (larger is better; a win is worth more than any
    /// heuristic value). Zero where a game has no heuristic.
    fn evaluate(&self) -> i32 {
        0
    }

    /// [`Search::evaluate`] with the weights `w`, one for each entry of
    /// the game's [`SearchDefaults::eval_weights`], in that order (callers
    /// pass exactly that many); with their defaults it equals `evaluate`.
    /// The default ignores `w`: a game whose evaluation has no named
    /// weights.
    fn evaluate_weighted(&self, w: &[i32]) -> i32 {
        let _ = w;
        self.evaluate()
    }

    /// Texel tuning (`tune --texel`): the names and hand-made start
    /// values of the parameters the evaluation is linear in (piece-square
    /// tables, say), in the order [`Search::linear_terms`] indexes them.
    /// The default: none (the game's evaluation cannot be tuned so).
    fn linear_params(&self) -> Vec<(String, i32)> {
        Vec::new()
    }

    /// Texel tuning: the evaluation of this position (for the seat to
    /// move) split into its linear part, `(index, coefficient)` pairs
    /// into `terms` (cleared first; indices into
    /// [`Search::linear_params`]), and the rest, returned, so that the
    /// evaluation with parameter values `p` is the rest plus the sum of
    /// coefficient × `p[index]`, up to rounding. The default: no terms,
    /// the whole [`Search::evaluate`] as the rest.
    fn linear_terms(&self, terms: &mut Vec<(u32, f32)>) -> i32 {
        terms.clear();
        self.evaluate()
    }

    /// The evaluation units of one logistic unit: searches map an
    /// evaluation `v` to the win probability `1 / (1 + exp(-v / scale))`
    /// (MCTS playout cut-offs, win probabilities in reports). The default,
    /// 100, suits evaluations in hundredths of a pawn-like piece.
    fn eval_scale(&self) -> f64 {
        100.0
    }

    /// The game's defaults for the searches' switches (see
    /// [`SearchDefaults`]); the generic ones unless the game says otherwise.
    fn search_defaults(&self) -> SearchDefaults {
        SearchDefaults::default()
    }

    /// Whether `mv` is a capture (or another tactical move a quiescence
    /// search should follow past the depth horizon). The default, false,
    /// turns quiescence off for the game.
    fn is_capture(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// The moves a quiescence search follows past the depth horizon, into
    /// `out` (cleared first). The default: the legal moves for which
    /// [`Search::is_capture`] holds. A game whose turns are compound
    /// (several steps chosen as one move) lists only its **single**
    /// captures, one step each, so that the search past the horizon does
    /// not walk every compound turn that holds a capture (Catapult's
    /// Dagger: ~600 double turns at the start).
    fn quiescence_moves(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out);
        out.retain(|&m| self.is_capture(m));
    }

    /// What the capture `mv` wins at most in material, in evaluation units
    /// (the value of the pieces it removes), for the quiescence search's
    /// delta pruning and its move order (most gained first). `None` (the
    /// default): unknown, never pruned, kept in the game's order.
    fn capture_gain(&self, mv: Self::Move) -> Option<i32> {
        let _ = mv;
        None
    }

    /// The **static exchange evaluation** of the capture `mv`: the material
    /// the side to move ends with, in evaluation units, when both sides
    /// go on capturing on its target square with their least valuable
    /// piece, each free to stop; below 0, the capture loses material. For
    /// alpha-beta's `see` switch (losing captures skipped in the
    /// quiescence search and ordered after the killers). `None` (the
    /// default) for a quiet move, and where a game has none.
    fn exchange_value(&self, mv: Self::Move) -> Option<i32> {
        let _ = mv;
        None
    }

    /// Passes the turn (a **null move**, for alpha-beta's null-move
    /// pruning): the opponent is to move in the same position, and the
    /// Zobrist key changes with the side to move (two null moves in a row
    /// give the key back). Returns whether it did so; `false` leaves the
    /// state unchanged. A game answers `false` where passing means nothing
    /// or would change more than the side to move: in check, at the end of
    /// the game, where the pass would end it (a stalemate, a ply cap), and
    /// in the middle of a turn ([`State::continues_turn`]). The pass is
    /// not a move of the game: no history of the game (repetition counts)
    /// runs through it. The default, `false`: the game has none.
    fn null_move(&mut self) -> bool {
        false
    }

    /// Whether the seat to move is in check (its king attacked), for check
    /// extensions and to keep null moves and reductions out of checks. The
    /// default, `false`: the game has no check.
    fn in_check(&self) -> bool {
        false
    }

    /// Whether playing `mv` leaves the opponent in check: the same as
    /// [`Search::in_check`] on the state after `mv`, for alpha-beta's
    /// pruning tests that would otherwise make every move they may skip.
    /// The default makes the move on a copy; a game with check answers
    /// without the end test of [`State::apply`].
    fn gives_check(&self, mv: Self::Move) -> bool {
        let mut child = self.clone();
        child.apply(mv);
        child.in_check()
    }

    /// Whether the position has occurred before in the game (the same
    /// Zobrist key since the last irreversible move), for alpha-beta's
    /// `twofold` switch: a repetition inside the search scores as a draw.
    /// The default, `false`: the game keeps no repetition history.
    fn repeated(&self) -> bool {
        false
    }
}

/// What a game's dedicated one-seat solver found ([`Search::solve_alone`]).
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
