//! Negamax alpha-beta search for two-seat games.
//!
//! * **Iterative deepening** from depth 1 to the configured depth (or until
//!   the millisecond budget runs out: the last completed depth's move is
//!   played).
//! * A **transposition table** indexed by the state's Zobrist key (one entry
//!   per slot, replaced when the new search is at least as deep), storing
//!   value, depth, bound type and best move.
//! * **Move ordering**: the table's move first, then two killer moves per
//!   ply, then the history heuristic.
//! * **Principal variation search**: the first move of a node with the
//!   full window, the others with a null window, re-searched when they
//!   beat it (`pvs=true`); **aspiration windows** of ±`aspiration` around
//!   the previous iteration's value at the root, widened to the full
//!   window on a fail (`aspiration=0`: off).
//! * **Quiescence search** at the horizon: the side to move may stand pat
//!   on [`Search::evaluate`] or continue with captures
//!   ([`Search::quiescence_moves`]: the moves for which
//!   [`Search::is_capture`] holds, or in a game of compound turns its
//!   single captures only) for up to `qdepth` plies; in games whose
//!   `is_capture` is always false it is the plain evaluation. Bounded two
//!   more ways where asked: at most `qmoves` captures per node, the most
//!   material ([`Search::capture_gain`]) first, and **delta pruning**
//!   (`qdelta`): a capture whose material and the margin `qdelta` cannot
//!   lift stand-pat to alpha is skipped, with every smaller one after it.
//! * Three switches, off by default (so the canonical strings of earlier
//!   runs are unchanged): **null-move pruning** (`null=R`): at a non-PV
//!   node of depth > R at a turn boundary, not in check and not right
//!   after another null move, whose evaluation reaches beta, the side to
//!   move passes ([`Search::null_move`]; games without one never prune
//!   this way) and a null-window search R plies shallower than the moves'
//!   that still reaches beta cuts the node off; **late-move reductions**
//!   (`lmr=N`): at depth ≥ 3, not in check, the moves from index N on that
//!   are no capture, table move, killer or check are searched a ply
//!   shallower with a null window first and again in full when they beat
//!   alpha; **check extensions** (`check_ext=true`): a node in check
//!   ([`Search::in_check`]) is searched a ply deeper, up to twice the
//!   iteration's depth in plies from the root; **capture order**
//!   (`mvv=true`): captures right after the table move, the most material
//!   ([`Search::capture_gain`]) first, before the killers, and the same
//!   order in the quiescence search; **logarithmic reductions**
//!   (`lmr_log=true`, with `lmr`): a late move is reduced 1 + ln(d) ln(i) / 2
//!   plies (rounded down) at depth d and index i, leaving at least one.
//!   **Static exchange pruning** (`see=true`): a capture whose exchange on
//!   its square loses material ([`Search::exchange_value`] below 0) is
//!   skipped in the quiescence search and, with `mvv`, ordered after the
//!   killers. **Late-move pruning** (`lmp=K`): at a non-PV node of depth
//!   d ≤ 3, not in check, the quiet moves after the first K + d² quiet
//!   ones in the search order (not the table move, a killer or a check)
//!   are not searched (until 7 December: the quiet moves from index
//!   K + d² of all the moves on). **Quiescence
//!   evasions** (`qcheck=true`): a side in check in the quiescence search
//!   does not stand pat but searches every legal move. **Internal
//!   iterative reduction** (`iir=true`): a node of depth ≥ 4 with no move
//!   in the table is searched a ply shallower. **History maluses**
//!   (`malus=true`): at a cut by a quiet move, the quiet moves searched
//!   before it at that node lose the history it gains (depth²), so that
//!   the history orders by how often a move cut rather than how often it
//!   was tried. **Countermoves** (`countermove=true`): the quiet move that
//!   last cut off right after the opponent's previous move is searched
//!   after the killers. **Reverse futility depth** (`rfp=D`, with
//!   `futility`): the evaluation-above-beta cut of futility pruning
//!   reaches D plies from the horizon instead of 3. **Partial iterations**
//!   (`partial=true`): iterations go on to the end of the clock or node
//!   budget (without it, none starts past half the budget), and where the
//!   budget interrupts an iteration after a root move searched in full
//!   beat the previous iteration's move (searched first) inside the
//!   window, that move is played instead of the last completed
//!   iteration's. **Two-fold repetition** (`twofold=true`): a position
//!   below the root that occurred before in the game
//!   ([`Search::repeated`]: since the last irreversible move, the
//!   search's own path included) scores as a draw, so that the search
//!   sees a repetition it can force or must avoid at the first recurrence
//!   rather than the third. **Quiescence table** (`qtt=true`): the
//!   quiescence search reads the transposition table (an entry of any
//!   depth whose bound settles the window returns at once) and stores its
//!   own results at depth 0 where the slot holds nothing deeper, so a
//!   capture sequence reached again by another order is not searched
//!   twice.
//!   **futility pruning** (`futility=M`): at a non-PV node of depth
//!   d ≤ 3, not in check, an evaluation ≥ beta + M·d stands, and one
//!   ≤ alpha − M·d skips the quiet moves after the first.
//!   A game may turn any of these on by default ([`SearchDefaults`]); its
//!   specs then spell the switch out.
//! * **Evaluation weights** (`w_<name>=N`): where a game names the weights
//!   of its evaluation ([`SearchDefaults::eval_weights`]: Catapult,
//!   Andalusia, King's Colour, Royal Guard and chess), each may be set, in
//!   the evaluation's units, and the search evaluates with
//!   [`Search::evaluate_weighted`]; `tune --spsa` tunes them like any
//!   numeric parameter. A spec names only the weights that differ from the
//!   game's.
//! * Terminal states score ±(`WIN` − plies from the root), so faster wins
//!   are preferred. In the table a win or loss score is stored relative to
//!   the node (`WIN` − plies from the node) and restored relative to the
//!   root when read, so a distance to the end read back from the table at
//!   another ply, or in a later search, is still right.
//! * The same seat may move twice in a row (compound turns, the pie
//!   choice): the sign flips only when the seat to move changes.
//! * Chance nodes are averaged over their outcomes (expectimax, no pruning
//!   there).
//! * Root moves are shuffled with the agent's seed before the search, so
//!   equally valued moves are chosen at random and self-play games differ.
//! * **Time management** for `ms`: the search stops when the budget is
//!   spent (the last completed depth's move is played) and starts no new
//!   depth after half of it, which the next depth would not finish. A node
//!   budget, `nodes`, works the same way in nodes searched, so that a
//!   budget can double and the same seed still gives the same game.
//!
//! `pvs=false,aspiration=0,qdepth=0` is the search before these additions
//! (bar the mate-distance fix of the table).

use std::hash::{Hash, Hasher};
use std::time::Instant;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use engine::spec::{ParamInfo, Params, Spec};
use engine::{EvalWeight, GameError, Search, SearchDefaults, State, ToMove};

use crate::{Agent, SearchInfo};

/// The parameters of `alphabeta(...)`.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "depth",
        default: "3",
        values: "integer 1..=64",
        help: "search depth in plies",
    },
    ParamInfo {
        name: "ms",
        default: "0",
        values: "integer >= 0 (0 = no time limit)",
        help: "wall-clock budget per move in milliseconds (not reproducible)",
    },
    ParamInfo {
        name: "nodes",
        default: "0",
        values: "integer >= 0 (0 = no node limit)",
        help: "node budget per move (quiescence nodes included): reproducible, unlike ms; the last completed depth's move is played",
    },
    ParamInfo {
        name: "tt_mb",
        default: "16",
        values: "integer 0..=4096 (0 = no table)",
        help: "transposition table size in MiB",
    },
    ParamInfo {
        name: "qdepth",
        default: "8",
        values: "integer 0..=64 (0 = no quiescence search)",
        help: "capture plies searched past the horizon",
    },
    ParamInfo {
        name: "qmoves",
        default: "0",
        values: "integer 0..=1000 (0 = no cap)",
        help: "quiescence moves looked at per node at most, the most material gained first",
    },
    ParamInfo {
        name: "qdelta",
        default: "0",
        values: "integer 0..=100000 (0 = off)",
        help: "delta pruning margin in evaluation units: a capture is skipped when stand-pat + its material + qdelta <= alpha",
    },
    ParamInfo {
        name: "pvs",
        default: "true",
        values: "true|false",
        help: "principal variation search (null windows after the first move)",
    },
    ParamInfo {
        name: "aspiration",
        default: "50",
        values: "integer >= 0 (0 = off)",
        help: "root aspiration half-window in evaluation units",
    },
    ParamInfo {
        name: "null",
        default: "0",
        values: "integer 0..=8 (0 = off)",
        help: "null-move pruning with reduction R: at a non-PV node of depth >= R+1 whose evaluation reaches beta, the side to move passes and a search R+1 plies shallower that still reaches beta cuts the node off (games with a null move only)",
    },
    ParamInfo {
        name: "lmr",
        default: "0",
        values: "integer 0..=1000 (0 = off)",
        help: "late-move reductions: quiet moves from this index on (0-based, in search order) at depth >= 3 are searched one ply shallower, again at full depth when they beat alpha; never captures, the table move, killers, checks or in check",
    },
    ParamInfo {
        name: "check_ext",
        default: "false",
        values: "true|false",
        help: "check extension: a node whose side to move is in check is searched one ply deeper (games with check only)",
    },
    ParamInfo {
        name: "mvv",
        default: "false",
        values: "true|false",
        help: "capture order: captures right after the table move, the most material first, in the main and the quiescence search (games that value captures only)",
    },
    ParamInfo {
        name: "lmr_log",
        default: "false",
        values: "true|false",
        help: "late-move reductions grow with depth d and move index i: 1 + ln(d) ln(i) / 2 plies (rounded down), leaving at least one ply; needs lmr",
    },
    ParamInfo {
        name: "futility",
        default: "0",
        values: "integer 0..=100000 (0 = off)",
        help: "futility margin M per ply: at a non-PV node of depth d <= 3, not in check, an evaluation at least beta + M d returns at once, and one at most alpha - M d skips the quiet moves after the first (no capture, table move or check)",
    },
    ParamInfo {
        name: "see",
        default: "false",
        values: "true|false",
        help: "static exchange evaluation: captures that lose material in the exchange on their square are skipped in the quiescence search and, with mvv, ordered after the killers (games with an exchange evaluation only)",
    },
    ParamInfo {
        name: "lmp",
        default: "0",
        values: "integer 0..=1000 (0 = off)",
        help: "late-move pruning: at a non-PV node of depth d <= 3, not in check, the quiet moves after the first lmp + d*d quiet ones in search order are not searched (no capture, table move, killer or check)",
    },
    ParamInfo {
        name: "qcheck",
        default: "false",
        values: "true|false",
        help: "check evasions in the quiescence search: a side in check there does not stand pat but searches every legal move (games with check only)",
    },
    ParamInfo {
        name: WEIGHT_PARAM,
        default: "the game's",
        values: "integer",
        help: "an evaluation weight of the game, in its evaluation units: w_ followed by the term's name (boardlab games lists each game's; games with named weights only)",
    },
    ParamInfo {
        name: "iir",
        default: "false",
        values: "true|false",
        help: "internal iterative reduction: a node of depth >= 4 with no move from the transposition table is searched one ply shallower (needs tt_mb > 0)",
    },
    ParamInfo {
        name: "malus",
        default: "false",
        values: "true|false",
        help: "history maluses: at a cut by a quiet move, the quiet moves searched before it at that node lose the history (depth squared) it gains",
    },
    ParamInfo {
        name: "countermove",
        default: "false",
        values: "true|false",
        help: "countermoves: the quiet move that last cut off right after the opponent's previous move is searched after the killers",
    },
    ParamInfo {
        name: "rfp",
        default: "0",
        values: "integer 0..=64 (0 = futility's depth, 3)",
        help: "reverse futility depth: with futility M, a non-PV node of depth d <= rfp, not in check, whose evaluation is at least beta + M d returns it at once (0: d <= 3, as futility alone)",
    },
    ParamInfo {
        name: "partial",
        default: "false",
        values: "true|false",
        help: "iterations go on to the end of the clock or node budget (without it none starts past half the budget), and an interrupted iteration still counts where a root move searched in full beat the previous iteration's move inside the window: that move is played",
    },
    ParamInfo {
        name: "twofold",
        default: "false",
        values: "true|false",
        help: "two-fold repetition: a position below the root that occurred before in the game (the game's repetition history, the search's path included) scores as a draw (games with a repetition history only)",
    },
    ParamInfo {
        name: "qtt",
        default: "false",
        values: "true|false",
        help: "quiescence table: the quiescence search returns at once on a transposition-table entry whose bound settles its window, and stores its results at depth 0 where the slot holds nothing deeper (needs tt_mb > 0)",
    },
];

/// The switches whose default a game may set ([`SearchDefaults`]); a spec
/// spells each out where the game's default differs from the generic one,
/// so that a spec string means the same search in every game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Switches {
    /// `null`: [`SearchDefaults::null_move_reduction`].
    pub null: u32,
    /// `lmr`: [`SearchDefaults::late_move_reductions`].
    pub lmr: u32,
    /// `lmr_log`: [`SearchDefaults::log_reductions`].
    pub lmr_log: bool,
    /// `check_ext`: [`SearchDefaults::check_extensions`].
    pub check_ext: bool,
    /// `mvv`: [`SearchDefaults::capture_order`].
    pub mvv: bool,
    /// `futility`: [`SearchDefaults::futility_margin`].
    pub futility: u32,
    /// `see`: [`SearchDefaults::exchange_pruning`].
    pub see: bool,
    /// `lmp`: [`SearchDefaults::late_move_pruning`].
    pub lmp: u32,
    /// `qcheck`: [`SearchDefaults::quiescence_evasions`].
    pub qcheck: bool,
    /// `iir`: [`SearchDefaults::iterative_reduction`].
    pub iir: bool,
    /// `malus`: [`SearchDefaults::history_malus`].
    pub malus: bool,
    /// `countermove`: [`SearchDefaults::countermoves`].
    pub countermove: bool,
    /// `rfp`: [`SearchDefaults::reverse_futility_depth`].
    pub rfp: u32,
    /// `partial`: [`SearchDefaults::partial_iterations`].
    pub partial: bool,
    /// `twofold`: [`SearchDefaults::twofold_repetition`].
    pub twofold: bool,
    /// `qtt`: [`SearchDefaults::quiescence_table`].
    pub qtt: bool,
}

impl Switches {
    /// The alpha-beta switches of a game's defaults.
    pub fn of(game: &SearchDefaults) -> Switches {
        Switches {
            null: game.null_move_reduction,
            lmr: game.late_move_reductions,
            lmr_log: game.log_reductions,
            check_ext: game.check_extensions,
            mvv: game.capture_order,
            futility: game.futility_margin,
            see: game.exchange_pruning,
            lmp: game.late_move_pruning,
            qcheck: game.quiescence_evasions,
            iir: game.iterative_reduction,
            malus: game.history_malus,
            countermove: game.countermoves,
            rfp: game.reverse_futility_depth,
            partial: game.partial_iterations,
            twofold: game.twofold_repetition,
            qtt: game.quiescence_table,
        }
    }
}

/// The listing name of the evaluation weights' parameters: a spec writes
/// one per weight, `w_` and the term's name ([`EvalWeight::name`]).
pub const WEIGHT_PARAM: &str = "w_<term>";

/// The prefix of an evaluation weight's parameter.
pub const WEIGHT_PREFIX: &str = "w_";

/// The score of a won game (minus the plies to reach it).
pub const WIN: i32 = 1_000_000;

/// Alpha-beta settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// Maximum depth in plies.
    pub depth: u32,
    /// Milliseconds per move; 0 for no time limit.
    pub ms: u64,
    /// Nodes per move (quiescence nodes included); 0 for no limit. Unlike
    /// `ms`, the same seed gives the same game under any load.
    pub nodes: u64,
    /// Transposition table size in MiB; 0 for none.
    pub tt_mb: u32,
    /// Capture plies past the horizon; 0 for no quiescence search.
    pub qdepth: u32,
    /// Quiescence moves per node at most (largest gain first); 0 for no
    /// cap.
    pub qmoves: u32,
    /// Delta pruning margin in evaluation units; 0 for none.
    pub qdelta: u32,
    /// Principal variation search.
    pub pvs: bool,
    /// Root aspiration half-window; 0 for none.
    pub aspiration: u32,
    /// Null-move reduction R; 0 for no null-move pruning.
    pub null: u32,
    /// The move index from which quiet moves are reduced; 0 for no
    /// late-move reductions.
    pub lmr: u32,
    /// Check extensions.
    pub check_ext: bool,
    /// Captures first, the most material first.
    pub mvv: bool,
    /// Logarithmic late-move reductions.
    pub lmr_log: bool,
    /// Futility margin per ply; 0 for no futility pruning.
    pub futility: u32,
    /// Static exchange evaluation: losing captures skipped in the
    /// quiescence search and ordered after the killers.
    pub see: bool,
    /// Late-move pruning: at shallow non-PV nodes the quiet moves after
    /// the first `lmp` + depth² quiet ones are skipped; 0 for none.
    pub lmp: u32,
    /// Check evasions in the quiescence search (no stand-pat in check).
    pub qcheck: bool,
    /// Internal iterative reduction: a node of depth ≥ 4 without a table
    /// move searched a ply shallower.
    pub iir: bool,
    /// History maluses for the quiet moves searched before a quiet cut.
    pub malus: bool,
    /// Countermoves ordered after the killers.
    pub countermove: bool,
    /// Reverse futility pruning's depth (0: 3, futility's own).
    pub rfp: u32,
    /// An interrupted iteration's better root move is played.
    pub partial: bool,
    /// A repetition below the root scores as a draw.
    pub twofold: bool,
    /// The quiescence search reads and writes the transposition table.
    pub qtt: bool,
    /// The game's defaults of the switches when the spec was read: where
    /// one differs from the generic default, the canonical spec spells
    /// that switch out either way.
    pub defaults: Switches,
    /// The game's named evaluation weights when the spec was read
    /// ([`SearchDefaults::eval_weights`]; empty: none).
    pub eval_weights: &'static [EvalWeight],
    /// The evaluation's weights, one per entry of `eval_weights`, where a
    /// spec set one (`w_<name>`); empty: the game's own evaluation,
    /// [`Search::evaluate`].
    pub weights: Vec<i32>,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            depth: 3,
            ms: 0,
            nodes: 0,
            tt_mb: 16,
            qdepth: 8,
            qmoves: 0,
            qdelta: 0,
            pvs: true,
            aspiration: 50,
            null: 0,
            lmr: 0,
            check_ext: false,
            mvv: false,
            lmr_log: false,
            futility: 0,
            see: false,
            lmp: 0,
            qcheck: false,
            iir: false,
            malus: false,
            countermove: false,
            rfp: 0,
            partial: false,
            twofold: false,
            qtt: false,
            defaults: Switches::default(),
            eval_weights: &[],
            weights: Vec::new(),
        }
    }
}

impl AlphaBetaConfig {
    /// Reads `alphabeta(...)` with the generic defaults.
    ///
    /// # Errors
    /// Unknown parameters or bad values.
    pub fn from_spec(spec: &Spec) -> Result<AlphaBetaConfig, GameError> {
        AlphaBetaConfig::from_spec_with(spec, &SearchDefaults::default())
    }

    /// Reads `alphabeta(...)` for a game with defaults `game`: a switch
    /// (`null`, `lmr`, `lmr_log`, `check_ext`, `mvv`, `futility`, `see`, `lmp`, `qcheck`, `iir`, `malus`, `countermove`, `rfp`, `partial`, `twofold`, `qtt`) left out is the
    /// game's ([`Switches::of`]).
    ///
    /// # Errors
    /// As [`AlphaBetaConfig::from_spec`].
    pub fn from_spec_with(
        spec: &Spec,
        game: &SearchDefaults,
    ) -> Result<AlphaBetaConfig, GameError> {
        let (spec, weights) = split_weights(spec, game.eval_weights)?;
        let p = Params::new("agent alphabeta", &spec, PARAMS)?;
        let depth: u32 = p.parse("depth")?;
        let ms: u64 = p.parse("ms")?;
        let nodes: u64 = p.parse("nodes")?;
        let tt_mb: u32 = p.parse("tt_mb")?;
        if !(1..=64).contains(&depth) {
            engine::bail!("agent alphabeta: depth={depth} is not valid (expected integer 1..=64)");
        }
        if tt_mb > 4096 {
            engine::bail!(
                "agent alphabeta: tt_mb={tt_mb} is not valid (expected integer 0..=4096)"
            );
        }
        let qdepth: u32 = p.parse("qdepth")?;
        if qdepth > 64 {
            engine::bail!(
                "agent alphabeta: qdepth={qdepth} is not valid (expected integer 0..=64)"
            );
        }
        let qmoves: u32 = p.parse("qmoves")?;
        if qmoves > 1000 {
            engine::bail!(
                "agent alphabeta: qmoves={qmoves} is not valid (expected integer 0..=1000)"
            );
        }
        let qdelta: u32 = p.parse("qdelta")?;
        if qdelta > 100_000 {
            engine::bail!(
                "agent alphabeta: qdelta={qdelta} is not valid (expected integer 0..=100000)"
            );
        }
        let pvs = p.choice("pvs", &[("true", true), ("false", false)])?;
        let aspiration: u32 = p.parse("aspiration")?;
        if aspiration > 100_000 {
            engine::bail!(
                "agent alphabeta: aspiration={aspiration} is not valid (expected integer 0..=100000)"
            );
        }
        let d = Switches::of(game);
        // A switch left out of the spec takes the game's default.
        let count = |name: &str, default: u32| {
            if p.given(name) {
                p.parse(name)
            } else {
                Ok(default)
            }
        };
        let null = count("null", d.null)?;
        if null > 8 {
            engine::bail!("agent alphabeta: null={null} is not valid (expected integer 0..=8)");
        }
        let lmr = count("lmr", d.lmr)?;
        if lmr > 1000 {
            engine::bail!("agent alphabeta: lmr={lmr} is not valid (expected integer 0..=1000)");
        }
        let flag = |name: &str, default: bool| {
            if p.given(name) {
                p.choice(name, &[("true", true), ("false", false)])
            } else {
                Ok(default)
            }
        };
        let check_ext = flag("check_ext", d.check_ext)?;
        let mvv = flag("mvv", d.mvv)?;
        // A game's default `lmr_log` lapses where a spec turns `lmr` off.
        let lmr_log = flag("lmr_log", d.lmr_log && lmr > 0)?;
        let futility = count("futility", d.futility)?;
        if futility > 100_000 {
            engine::bail!(
                "agent alphabeta: futility={futility} is not valid (expected integer 0..=100000)"
            );
        }
        let see = flag("see", d.see)?;
        let lmp = count("lmp", d.lmp)?;
        let qcheck = flag("qcheck", d.qcheck)?;
        let iir = flag("iir", d.iir)?;
        let malus = flag("malus", d.malus)?;
        let countermove = flag("countermove", d.countermove)?;
        let rfp = count("rfp", d.rfp)?;
        if rfp > 64 {
            engine::bail!("agent alphabeta: rfp={rfp} is not valid (expected integer 0..=64)");
        }
        let partial = flag("partial", d.partial)?;
        let twofold = flag("twofold", d.twofold)?;
        let qtt = flag("qtt", d.qtt)?;
        if lmp > 1000 {
            engine::bail!("agent alphabeta: lmp={lmp} is not valid (expected integer 0..=1000)");
        }
        if lmr_log && lmr == 0 {
            engine::bail!(
                "agent alphabeta: lmr_log=true needs lmr (the first reduced move's index)"
            );
        }
        Ok(AlphaBetaConfig {
            depth,
            ms,
            nodes,
            tt_mb,
            qdepth,
            qmoves,
            qdelta,
            pvs,
            aspiration,
            null,
            lmr,
            check_ext,
            mvv,
            lmr_log,
            futility,
            see,
            lmp,
            qcheck,
            iir,
            malus,
            countermove,
            rfp,
            partial,
            twofold,
            qtt,
            defaults: d,
            eval_weights: game.eval_weights,
            weights,
        })
    }

    /// `alphabeta(depth=..,ms=..,tt_mb=..,qdepth=..,pvs=..,aspiration=..)`,
    /// then `qmoves=..,qdelta=..` where either is set, then each of
    /// `null=..`, `lmr=..`, `lmr_log=..`, `check_ext=..`, `mvv=..`,
    /// `futility=..`, `see=..`, `lmp=..`, `qcheck=..`, `iir=..`, `malus=..`, `countermove=..`, `rfp=..`, `partial=..`, `twofold=..`, `qtt=..` that is not its generic default (so that the specs of the runs made before
    /// they existed are unchanged), or whose game default is not.
    pub fn canonical(&self) -> String {
        let mut s = format!(
            "alphabeta(depth={},ms={},tt_mb={},qdepth={},pvs={},aspiration={}",
            self.depth, self.ms, self.tt_mb, self.qdepth, self.pvs, self.aspiration
        );
        if self.qmoves > 0 || self.qdelta > 0 {
            s += &format!(",qmoves={},qdelta={}", self.qmoves, self.qdelta);
        }
        if self.nodes > 0 {
            s += &format!(",nodes={}", self.nodes);
        }
        let (d, g) = (&self.defaults, Switches::default());
        // Each switch: written when on, or when the game's default differs
        // from the generic one (then either way). Its off value is listed
        // in `WRITTEN_WHEN_OFF` (lib.rs), by which runs match agents.
        let switches = [
            (
                "null",
                self.null > 0 || d.null != g.null,
                self.null.to_string(),
            ),
            ("lmr", self.lmr > 0 || d.lmr != g.lmr, self.lmr.to_string()),
            (
                "lmr_log",
                self.lmr_log || d.lmr_log,
                self.lmr_log.to_string(),
            ),
            (
                "check_ext",
                self.check_ext || d.check_ext,
                self.check_ext.to_string(),
            ),
            ("mvv", self.mvv || d.mvv, self.mvv.to_string()),
            (
                "futility",
                self.futility > 0 || d.futility != g.futility,
                self.futility.to_string(),
            ),
            ("see", self.see || d.see, self.see.to_string()),
            ("lmp", self.lmp > 0 || d.lmp != g.lmp, self.lmp.to_string()),
            ("qcheck", self.qcheck || d.qcheck, self.qcheck.to_string()),
            ("iir", self.iir || d.iir, self.iir.to_string()),
            ("malus", self.malus || d.malus, self.malus.to_string()),
            (
                "countermove",
                self.countermove || d.countermove,
                self.countermove.to_string(),
            ),
            ("rfp", self.rfp > 0 || d.rfp != g.rfp, self.rfp.to_string()),
            (
                "partial",
                self.partial || d.partial,
                self.partial.to_string(),
            ),
            (
                "twofold",
                self.twofold || d.twofold,
                self.twofold.to_string(),
            ),
            ("qtt", self.qtt || d.qtt, self.qtt.to_string()),
        ];
        for (name, shown, value) in switches {
            if shown {
                s += &format!(",{name}={value}");
            }
        }
        for (w, &v) in self.eval_weights.iter().zip(&self.weights) {
            if v != w.default {
                s += &format!(",{WEIGHT_PREFIX}{}={v}", w.name);
            }
        }
        s.push(')');
        s
    }
}

/// `spec` without its evaluation weights (`w_<name>=N`), and the weights
/// it sets: empty where it sets none (or only their defaults), else one
/// per entry of `named`, the game's default where the spec leaves one out.
///
/// # Errors
/// A weight the game does not name (the message lists those it does), a
/// value that is not an integer, a weight given twice.
fn split_weights(spec: &Spec, named: &[EvalWeight]) -> Result<(Spec, Vec<i32>), GameError> {
    let mut rest = Spec {
        name: spec.name.clone(),
        args: Vec::new(),
    };
    let mut weights: Vec<i32> = named.iter().map(|w| w.default).collect();
    let mut given: Vec<&str> = Vec::new();
    for (key, value) in &spec.args {
        let Some(term) = key.strip_prefix(WEIGHT_PREFIX) else {
            rest.args.push((key.clone(), value.clone()));
            continue;
        };
        let Some(i) = named.iter().position(|w| w.name == term) else {
            if named.is_empty() {
                engine::bail!(
                    "agent alphabeta: {key}: this game's evaluation has no named weights (a spec read without a game has none; `boardlab games` lists each game's)"
                );
            }
            let valid: Vec<String> = named
                .iter()
                .map(|w| format!("{WEIGHT_PREFIX}{}", w.name))
                .collect();
            engine::bail!(
                "agent alphabeta: unknown evaluation weight {key:?} (this game's: {})",
                valid.join(", ")
            );
        };
        if given.contains(&term) {
            engine::bail!("agent alphabeta: parameter {key:?} given twice");
        }
        given.push(term);
        weights[i] = value.parse().map_err(|_| {
            GameError::new(format!(
                "agent alphabeta: {key}={value:?} is not valid (expected an integer)"
            ))
        })?;
    }
    if named.iter().zip(&weights).all(|(w, &v)| v == w.default) {
        weights.clear();
    }
    Ok((rest, weights))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct TtEntry<M> {
    key: u64,
    value: i32,
    depth: u8,
    bound: Bound,
    best: Option<M>,
}

const HISTORY: usize = 1 << 14;

/// A history count's bound: the counts saturate at ±`HISTORY_MAX`.
const HISTORY_MAX: i64 = u32::MAX as i64;

/// A small multiply-xor hasher to index the history table by move.
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01B3);
        }
    }
}

/// Moves the first entry of highest key to the front, the others keeping
/// their order: the front of what a stable sort by key, highest first,
/// would give, so that sorting the rest afterwards gives exactly that
/// order.
fn first_to_front<M>(buf: &mut [(i64, M)]) {
    if buf.is_empty() {
        return;
    }
    let mut top = 0;
    for i in 1..buf.len() {
        if buf[i].0 > buf[top].0 {
            top = i;
        }
    }
    buf[..=top].rotate_right(1);
}

fn move_slot<M: Hash>(m: &M) -> usize {
    let mut h = MoveHasher(0xCBF2_9CE4_8422_2325);
    m.hash(&mut h);
    (h.finish() ^ (h.finish() >> 29)) as usize & (HISTORY - 1)
}

/// Whether a score is a win or loss (a distance to the end, not a heuristic).
#[inline]
fn is_mate(v: i32) -> bool {
    v.abs() >= WIN - 10_000 && v.abs() <= WIN
}

/// A score relative to the root made relative to a node `ply` plies down,
/// for storing in the table.
#[inline]
fn to_tt(v: i32, ply: usize) -> i32 {
    if !is_mate(v) {
        v
    } else if v > 0 {
        v + ply as i32
    } else {
        v - ply as i32
    }
}

/// A stored score made relative to the root again.
#[inline]
fn from_tt(v: i32, ply: usize) -> i32 {
    if !is_mate(v) {
        v
    } else if v > 0 {
        v - ply as i32
    } else {
        v + ply as i32
    }
}

/// The value with which a table entry read `ply` plies below the root
/// settles the window (`alpha`, `beta`): an exact value, a lower bound at
/// or above beta, an upper bound at or below alpha.
#[inline]
fn settles<M>(e: &TtEntry<M>, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let v = from_tt(e.value, ply);
    match e.bound {
        Bound::Exact => Some(v),
        Bound::Lower if v >= beta => Some(v),
        Bound::Upper if v <= alpha => Some(v),
        _ => None,
    }
}

/// The bound a search of the window (`alpha0`, `beta`) that found `best`
/// proved.
#[inline]
fn bound_of(best: i32, alpha0: i32, beta: i32) -> Bound {
    if best <= alpha0 {
        Bound::Upper
    } else if best >= beta {
        Bound::Lower
    } else {
        Bound::Exact
    }
}

/// An alpha-beta agent.
pub struct AlphaBeta<S: State + Search> {
    config: AlphaBetaConfig,
    rng: ChaCha8Rng,
    tt: Vec<Option<TtEntry<S::Move>>>,
    killers: Vec<[Option<S::Move>; 2]>,
    /// History counts by move slot, within ±[`HISTORY_MAX`] (below 0 only
    /// with maluses).
    history: Vec<i64>,
    /// With countermoves: by the slot of a move, the quiet move that last
    /// cut off right after it (empty without).
    counters: Vec<Option<S::Move>>,
    /// With countermoves: the move played at each ply of the current path
    /// (`None` for a null move).
    path: Vec<Option<S::Move>>,
    bufs: Vec<Vec<(i64, S::Move)>>,
    qbufs: Vec<Vec<S::Move>>,
    /// Scratch for sorting captures by their gain, keys computed once.
    qkeyed: Vec<(Option<i32>, S::Move)>,
    moves: Vec<S::Move>,
    deadline: Option<Instant>,
    aborted: bool,
    /// Nodes searched for the last move (quiescence nodes included).
    pub last_nodes: u64,
    /// Deepest completed iteration for the last move.
    pub last_depth: u32,
    last_info: Option<SearchInfo>,
    /// The depth of the current root iteration (bounds check extensions).
    root_depth: u32,
    /// The ply of the node reached by the latest null move on the current
    /// path (`usize::MAX`: none), so that no two null moves follow.
    null_ply: usize,
}

impl<S: State + Search> AlphaBeta<S> {
    /// The evaluation of `state` with the spec's weights where it set any
    /// ([`Search::evaluate_weighted`]), else the game's own.
    #[inline]
    fn evaluate(&self, state: &S) -> i32 {
        if self.config.weights.is_empty() {
            state.evaluate()
        } else {
            state.evaluate_weighted(&self.config.weights)
        }
    }

    /// An agent with these settings; `seed` breaks ties between equal moves.
    pub fn new(config: AlphaBetaConfig, seed: u64) -> Self {
        let entries = if config.tt_mb == 0 {
            0
        } else {
            ((config.tt_mb as usize * 1024 * 1024
                / std::mem::size_of::<Option<TtEntry<S::Move>>>())
            .next_power_of_two()
                / 2)
            .max(1024)
        };
        let counters = if config.countermove {
            vec![None; HISTORY]
        } else {
            Vec::new()
        };
        AlphaBeta {
            config,
            rng: ChaCha8Rng::seed_from_u64(seed),
            tt: vec![None; entries],
            killers: Vec::new(),
            history: vec![0; HISTORY],
            counters,
            path: Vec::new(),
            bufs: Vec::new(),
            qbufs: Vec::new(),
            qkeyed: Vec::new(),
            moves: Vec::new(),
            deadline: None,
            aborted: false,
            last_nodes: 0,
            last_depth: 0,
            last_info: None,
            root_depth: 0,
            null_ply: usize::MAX,
        }
    }

    #[inline]
    fn tt_index(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    /// With countermoves, records `m` as the move played at `ply` of the
    /// current path (`None`: a null move).
    #[inline]
    fn set_path(&mut self, ply: usize, m: Option<S::Move>) {
        if self.config.countermove {
            if self.path.len() <= ply {
                self.path.resize(ply + 1, None);
            }
            self.path[ply] = m;
        }
    }

    /// With countermoves, the quiet move that last cut off after the move
    /// that led to `ply`.
    #[inline]
    fn countermove(&self, ply: usize) -> Option<S::Move> {
        if !self.config.countermove || ply == 0 {
            return None;
        }
        let prev = self.path.get(ply - 1).copied().flatten()?;
        self.counters[move_slot(&prev)]
    }

    fn out_of_time(&mut self) -> bool {
        if self.config.nodes > 0 && self.last_nodes >= self.config.nodes {
            self.aborted = true;
        }
        if let Some(d) = self.deadline
            && self.last_nodes.is_multiple_of(1024)
            && Instant::now() >= d
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The score of a terminal state for seat `me`, `ply` plies below the
    /// root.
    fn terminal_value(state: &S, me: usize, ply: usize) -> i32 {
        let r = state.returns()[me];
        if r > 0.0 {
            WIN - ply as i32
        } else if r < 0.0 {
            -WIN + ply as i32
        } else {
            0
        }
    }

    /// The value for seat `me` of a child reached from a node where `me`
    /// moved (or, for chance nodes, moved last).
    fn child_value(
        &mut self,
        child: &S,
        me: usize,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match child.to_move() {
            ToMove::Seat(s) if s != me => -self.negamax(child, s, depth, ply, -beta, -alpha),
            _ => self.negamax(child, me, depth, ply, alpha, beta),
        }
    }

    /// Like [`AlphaBeta::child_value`] for the quiescence search.
    fn qchild_value(
        &mut self,
        child: &S,
        me: usize,
        qleft: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match child.to_move() {
            ToMove::Seat(s) if s != me => -self.quiesce(child, s, qleft, ply, -beta, -alpha),
            ToMove::Seat(_) => self.quiesce(child, me, qleft, ply, alpha, beta),
            ToMove::Terminal => Self::terminal_value(child, me, ply),
            ToMove::Chance => self.negamax(child, me, 0, ply, alpha, beta),
        }
    }

    /// The quiescence search at a seat node where `me` is to move: stand pat
    /// on the evaluation, or play a capture.
    fn quiesce(
        &mut self,
        state: &S,
        me: usize,
        qleft: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.last_nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        // In check (with `qcheck`), standing pat is no option: every
        // evasion is searched, and a position with none is terminal.
        let evade = self.config.qcheck && qleft > 0 && state.in_check();
        // With `qtt`: an entry of any depth (a quiescence result is depth
        // 0) whose bound settles the window answers at once.
        let qtt = self.config.qtt && !self.tt.is_empty();
        let (key, slot) = if qtt {
            let key = state.zobrist();
            (key, self.tt_index(key))
        } else {
            (0, 0)
        };
        if qtt
            && let Some(e) = self.tt[slot]
            && e.key == key
            && let Some(v) = settles(&e, ply, alpha, beta)
        {
            return v;
        }
        let alpha0 = alpha;
        let stand = if evade { -WIN } else { self.evaluate(state) };
        if !evade {
            if qleft == 0 || stand >= beta {
                return stand;
            }
            if stand > alpha {
                alpha = stand;
            }
        }
        while self.qbufs.len() <= ply {
            self.qbufs.push(Vec::new());
        }
        let mut buf = std::mem::take(&mut self.qbufs[ply]);
        if evade {
            state.legal_moves(&mut buf);
        } else {
            state.quiescence_moves(&mut buf);
        }
        let (cap, delta) = (self.config.qmoves as usize, self.config.qdelta as i32);
        if !evade && (cap > 0 || delta > 0 || self.config.mvv) {
            // Most material first (stable: the game's order among equals),
            // so the cap keeps the largest captures and delta pruning can
            // stop at the first that cannot reach alpha.
            // Each gain computed once (a key function is called at every
            // comparison), sorted in the one scratch list (no recursion
            // while it is in use).
            let mut keyed = std::mem::take(&mut self.qkeyed);
            keyed.clear();
            keyed.extend(buf.iter().map(|&m| (state.capture_gain(m), m)));
            keyed.sort_by_key(|e| std::cmp::Reverse(e.0));
            buf.clear();
            buf.extend(keyed.iter().map(|e| e.1));
            self.qkeyed = keyed;
            if cap > 0 {
                buf.truncate(cap);
            }
        }
        let mut best = stand;
        let mut best_move = None;
        let see = self.config.see && !evade;
        let delta = if evade { 0 } else { delta };
        for &m in buf.iter() {
            if see && state.exchange_value(m).is_some_and(|v| v < 0) {
                // Loses material in the exchange on its square.
                continue;
            }
            if delta > 0
                && let Some(gain) = state.capture_gain(m)
                && stand.saturating_add(gain).saturating_add(delta) <= alpha
            {
                // Delta pruning: not even this capture's material and the
                // margin lift the position to alpha, nor any after it.
                break;
            }
            let mut child = state.clone();
            child.apply(m);
            let v = self.qchild_value(&child, me, qleft - 1, ply + 1, alpha, beta);
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(m);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        self.qbufs[ply] = buf;
        // With `qtt`: stored at depth 0 where the slot holds nothing
        // deeper (the main search's entries are kept).
        if qtt && !self.aborted && self.tt[slot].is_none_or(|e| e.depth == 0) {
            self.tt[slot] = Some(TtEntry {
                key,
                value: to_tt(best, ply),
                depth: 0,
                bound: bound_of(best, alpha0, beta),
                best: best_move,
            });
        }
        best
    }

    /// Value of `state` for seat `me` (the seat to move at seat nodes).
    fn negamax(
        &mut self,
        state: &S,
        me: usize,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.last_nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        match state.to_move() {
            ToMove::Terminal => return Self::terminal_value(state, me, ply),
            ToMove::Chance => {
                let mut outs = Vec::new();
                state.chance_outcomes(&mut outs);
                let mut total = 0.0;
                for (m, p) in outs {
                    let mut child = state.clone();
                    child.apply(m);
                    let v = if depth == 0 {
                        match child.to_move() {
                            ToMove::Seat(s) if s != me => -self.evaluate(&child),
                            ToMove::Seat(_) => self.evaluate(&child),
                            _ => self.negamax(&child, me, 0, ply + 1, -WIN, WIN),
                        }
                    } else {
                        self.child_value(&child, me, depth - 1, ply + 1, -WIN, WIN)
                    };
                    total += p * v as f64;
                }
                return total.round() as i32;
            }
            ToMove::Seat(_) => {}
        }
        // Two-fold repetition: a position seen before since the last
        // irreversible move is a draw inside the search.
        if self.config.twofold && ply > 0 && state.repeated() {
            return 0;
        }
        // Whether the side to move is in check: asked only when a switch
        // that uses it is on.
        let c = &self.config;
        let in_check =
            (c.check_ext || c.null > 0 || c.lmr > 0 || c.futility > 0) && state.in_check();
        // Check extension, bounded to twice the iteration's depth of plies
        // from the root so that perpetual checks end.
        let mut depth = depth;
        if in_check && self.config.check_ext && (ply as u32) < 2 * self.root_depth {
            depth += 1;
        }
        if depth == 0 {
            if self.config.qdepth > 0 {
                self.last_nodes -= 1;
                return self.quiesce(state, me, self.config.qdepth, ply, alpha, beta);
            }
            return self.evaluate(state);
        }
        let use_tt = !self.tt.is_empty();
        let key = state.zobrist();
        let slot = if use_tt { self.tt_index(key) } else { 0 };
        let mut tt_move = None;
        if use_tt
            && let Some(e) = self.tt[slot]
            && e.key == key
        {
            tt_move = e.best;
            if e.depth as u32 >= depth
                && let Some(v) = settles(&e, ply, alpha, beta)
            {
                return v;
            }
        }
        // Internal iterative reduction: a deep node the table knows no move
        // for is likely new to the search; a ply less finds its move sooner.
        if self.config.iir && use_tt && tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }
        // Null-move pruning: at a non-PV node (null window) at a turn
        // boundary, not in check, not right after another null move, whose
        // evaluation reaches beta, let the opponent move twice; if a
        // shallower search still reaches beta, so would a real move.
        // Futility: at a shallow non-PV node, an evaluation far above
        // beta stands (reverse futility); one far below alpha prunes the
        // quiet moves after the first (below).
        // A shallow non-PV node, away from mate scores and at a turn
        // boundary: where futility and late-move pruning may cut.
        // Reverse futility reaches `rfp` plies from the horizon where set.
        let non_pv = beta - alpha == 1
            && !in_check
            && !is_mate(alpha)
            && !is_mate(beta)
            && !state.continues_turn();
        let shallow = depth <= 3 && non_pv;
        let rfp_depth = if self.config.rfp > 0 {
            self.config.rfp
        } else {
            3
        };
        let fut = self.config.futility as i32;
        let static_eval =
            (fut > 0 && non_pv && depth <= rfp_depth.max(3)).then(|| self.evaluate(state));
        if let Some(e) = static_eval
            && depth <= rfp_depth
            && e - fut * depth as i32 >= beta
        {
            return e;
        }
        let futile = shallow && static_eval.is_some_and(|e| e + fut * (depth as i32) <= alpha);
        let r = self.config.null;
        if r > 0
            && depth > r
            && beta - alpha == 1
            && !in_check
            && self.null_ply != ply
            && !is_mate(beta)
            && !state.continues_turn()
            && static_eval.unwrap_or_else(|| self.evaluate(state)) >= beta
        {
            let mut child = state.clone();
            if child.null_move()
                && let ToMove::Seat(s) = child.to_move()
                && s != me
            {
                let saved = self.null_ply;
                self.null_ply = ply + 1;
                self.set_path(ply, None);
                let v = -self.negamax(&child, s, depth - 1 - r, ply + 1, -beta, -beta + 1);
                self.null_ply = saved;
                if self.aborted {
                    return 0;
                }
                if v >= beta {
                    // A win found after a pass is not proven: report beta.
                    return if is_mate(v) { beta } else { v };
                }
            }
        }
        // Order the moves: table move, killers, countermove, history.
        while self.bufs.len() <= ply {
            self.bufs.push(Vec::new());
            self.killers.push([None, None]);
        }
        let mut buf = std::mem::take(&mut self.bufs[ply]);
        state.legal_moves(&mut self.moves);
        buf.clear();
        let killers = self.killers[ply];
        let counter = self.countermove(ply);
        let mvv = self.config.mvv;
        // Keys: the table move, then (with `mvv`) captures by material,
        // then the killers, then (with `countermove`) the countermove, then
        // (with `see`) the captures that lose in the exchange, then the
        // history counts (within ±2^32).
        const CAPTURE: i64 = 1 << 41;
        const KILLER: i64 = 1 << 40;
        const LOSING: i64 = 1 << 39;
        let see = self.config.see;
        for &m in &self.moves {
            let score = if Some(m) == tt_move {
                i64::MAX
            } else if let Some(gain) = mvv.then(|| state.capture_gain(m)).flatten() {
                if see && state.exchange_value(m).is_some_and(|v| v < 0) {
                    LOSING + gain as i64
                } else {
                    CAPTURE + gain as i64
                }
            } else if Some(m) == killers[0] {
                KILLER + 1
            } else if Some(m) == killers[1] {
                KILLER
            } else if Some(m) == counter {
                KILLER - 1
            } else {
                self.history[move_slot(&m)]
            };
            buf.push((score, m));
        }
        // The order of a stable sort by key, highest first, made lazily:
        // the first move is picked before any sorting (it cuts most nodes
        // that cut), and the rest are sorted only when it did not.
        first_to_front(&mut buf);
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = None;
        let lmr = self.config.lmr as usize;
        // Late-move pruning: at a shallow non-PV node the quiet moves
        // after the first `lmp` + depth² quiet ones in the order are not
        // searched.
        let keep_quiets =
            (self.config.lmp > 0 && shallow).then(|| (self.config.lmp + depth * depth) as usize);
        let mut quiets = 0;
        for idx in 0..buf.len() {
            if idx == 1 {
                buf[1..].sort_by_key(|e| std::cmp::Reverse(e.0));
            }
            let m = buf[idx].1;
            let capture = state.is_capture(m);
            quiets += usize::from(!capture);
            let late = keep_quiets.is_some_and(|keep| quiets > keep)
                && Some(m) != tt_move
                && Some(m) != killers[0]
                && Some(m) != killers[1];
            // Late-move and futility pruning skip quiet moves that give no
            // check, asked before the move is made.
            if (late || (futile && idx > 0 && Some(m) != tt_move))
                && !capture
                && !state.gives_check(m)
            {
                continue;
            }
            let mut child = state.clone();
            child.apply(m);
            self.set_path(ply, Some(m));
            // Late-move reduction: a late quiet move searched one ply
            // shallower with a null window first; kept if it fails low.
            let reduced = if lmr > 0
                && idx >= lmr
                && depth >= 3
                && !in_check
                && Some(m) != tt_move
                && Some(m) != killers[0]
                && Some(m) != killers[1]
                && !capture
                && !child.in_check()
            {
                // One ply, or with `lmr_log` 1 + ln(d) ln(i) / 2, leaving
                // at least one ply below the child.
                let r = if self.config.lmr_log {
                    let grow = (depth as f64).ln() * (idx as f64).ln() / 2.0;
                    (1 + grow as u32).min(depth - 2)
                } else {
                    1
                };
                let v = self.child_value(&child, me, depth - 1 - r, ply + 1, alpha, alpha + 1);
                (v <= alpha || self.aborted).then_some(v)
            } else {
                None
            };
            let v = if let Some(v) = reduced {
                v
            } else if idx == 0 || !self.config.pvs {
                self.child_value(&child, me, depth - 1, ply + 1, alpha, beta)
            } else {
                let v = self.child_value(&child, me, depth - 1, ply + 1, alpha, alpha + 1);
                if v > alpha && v < beta && !self.aborted {
                    self.child_value(&child, me, depth - 1, ply + 1, alpha, beta)
                } else {
                    v
                }
            };
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(m);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                let k = &mut self.killers[ply];
                if k[0] != Some(m) {
                    k[1] = k[0];
                    k[0] = Some(m);
                }
                let bonus = (depth * depth) as i64;
                let h = &mut self.history[move_slot(&m)];
                *h = (*h + bonus).min(HISTORY_MAX);
                let (malus, counters) = (self.config.malus, self.config.countermove);
                let quiet = (malus || counters) && !state.is_capture(m);
                if malus && quiet {
                    for &(_, q) in &buf[..idx] {
                        if !state.is_capture(q) {
                            let h = &mut self.history[move_slot(&q)];
                            *h = (*h - bonus).max(-HISTORY_MAX);
                        }
                    }
                }
                if counters
                    && quiet
                    && let Some(prev) = ply
                        .checked_sub(1)
                        .and_then(|p| self.path.get(p).copied().flatten())
                {
                    self.counters[move_slot(&prev)] = Some(m);
                }
                break;
            }
        }
        self.bufs[ply] = buf;
        if use_tt && !self.aborted {
            let bound = bound_of(best, alpha0, beta);
            let replace = match self.tt[slot] {
                Some(e) => e.key != key || e.depth as u32 <= depth,
                None => true,
            };
            if replace {
                self.tt[slot] = Some(TtEntry {
                    key,
                    value: to_tt(best, ply),
                    depth: depth as u8,
                    bound,
                    best: best_move,
                });
            }
        }
        best
    }

    /// One root iteration at `depth` with the window `(lo, hi)`: the index
    /// of the best root move and its value (a bound when outside the
    /// window), and whether any root move was searched in full (not when
    /// the budget ran out during the first).
    fn root_search(
        &mut self,
        state: &S,
        me: usize,
        root: &[S::Move],
        depth: u32,
        lo: i32,
        hi: i32,
    ) -> (usize, i32, bool) {
        let mut alpha = lo;
        let mut iter_best: Option<(usize, i32)> = None;
        for (i, &m) in root.iter().enumerate() {
            let mut child = state.clone();
            child.apply(m);
            self.set_path(0, Some(m));
            let v = if i == 0 || !self.config.pvs {
                self.child_value(&child, me, depth - 1, 1, alpha, hi)
            } else {
                let v = self.child_value(&child, me, depth - 1, 1, alpha, alpha + 1);
                if v > alpha && v < hi && !self.aborted {
                    self.child_value(&child, me, depth - 1, 1, alpha, hi)
                } else {
                    v
                }
            };
            if self.aborted && depth > 1 {
                break;
            }
            if iter_best.is_none_or(|(_, b)| v > b) {
                iter_best = Some((i, v));
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= hi {
                break;
            }
        }
        match iter_best {
            Some((i, v)) => (i, v, true),
            None => (0, lo, false),
        }
    }

    /// The principal variation from the table, starting with `first`.
    fn principal_variation(&self, state: &S, first: S::Move) -> Vec<String> {
        let max = if self.tt.is_empty() { 1 } else { 32 };
        crate::table_line(state, first, max, |key| {
            self.tt[self.tt_index(key)].and_then(|e| e.best.filter(|_| e.key == key))
        })
    }

    fn info(&self, state: &S, mv: S::Move, v: i32, start: Instant) -> SearchInfo {
        let elapsed = start.elapsed();
        let (win_probability, proven) = if is_mate(v) && v > 0 {
            (1.0, Some(format!("win in {} plies", WIN - v)))
        } else if is_mate(v) {
            (0.0, Some(format!("loss in {} plies", WIN + v)))
        } else {
            (1.0 / (1.0 + (-(v as f64) / state.eval_scale()).exp()), None)
        };
        SearchInfo {
            depth: Some(self.last_depth),
            iterations: None,
            score: v as f64,
            score_units: "eval",
            win_probability,
            proven,
            nodes: self.last_nodes,
            elapsed_ms: elapsed.as_millis() as u64,
            rate: self.last_nodes as f64 / elapsed.as_secs_f64().max(1e-9),
            pv: self.principal_variation(state, mv),
            mb_hits: None,
            pie: None,
        }
    }

    /// Searches `state` and returns the best move found and its value for
    /// the seat to move (a win or loss as ±(`WIN` − plies to the end)).
    pub fn search(&mut self, state: &S) -> (S::Move, i32) {
        self.search_reporting(state, &mut |_| {}, false)
    }

    /// [`AlphaBeta::search`], calling `on_info` after each completed depth
    /// when `report` is set.
    pub fn search_reporting(
        &mut self,
        state: &S,
        on_info: &mut dyn FnMut(&SearchInfo),
        report: bool,
    ) -> (S::Move, i32) {
        let ToMove::Seat(me) = state.to_move() else {
            panic!("search needs a seat to move");
        };
        let start = Instant::now();
        let budget = std::time::Duration::from_millis(self.config.ms);
        self.deadline = (self.config.ms > 0).then(|| start + budget);
        self.aborted = false;
        self.last_nodes = 0;
        self.last_depth = 0;
        for h in self.history.iter_mut() {
            *h /= 8;
        }
        let mut root: Vec<S::Move> = Vec::new();
        state.legal_moves(&mut root);
        root.shuffle(&mut self.rng);
        let mut best = (root[0], 0);
        // Time management: a new depth costs more than all before it, so
        // without `partial` (an interrupted iteration is thrown away) none
        // starts past half the budget. With `partial` an interrupted
        // iteration can still change the move, and time left over is lost
        // (the budget is per move), so iterations go on to the budget's
        // end.
        let share = if self.config.partial { 1 } else { 2 };
        for depth in 1..=self.config.depth {
            if self.config.ms > 0 && depth > 1 && start.elapsed() * share >= budget {
                break;
            }
            // The same rule for a node budget, in nodes: reproducible.
            if self.config.nodes > 0
                && depth > 1
                && self.last_nodes * share as u64 >= self.config.nodes
            {
                break;
            }
            self.root_depth = depth;
            self.null_ply = usize::MAX;
            let asp = self.config.aspiration as i32;
            let (mut lo, mut hi) = if asp > 0 && depth > 1 && !is_mate(best.1) {
                (best.1 - asp, best.1 + asp)
            } else {
                (-WIN - 1, WIN + 1)
            };
            // A root move other than the previous iteration's best (first)
            // that beat it inside the window, in the latest root search
            // that searched a move in full: for `partial`.
            let mut better = None;
            let (i, v) = loop {
                let (i, v, searched) = self.root_search(state, me, &root, depth, lo, hi);
                if searched {
                    better = (i > 0 && v > lo).then_some((i, v));
                }
                if self.aborted {
                    break (i, v);
                }
                if v <= lo && lo > -WIN - 1 {
                    lo = -WIN - 1;
                } else if v >= hi && hi < WIN + 1 {
                    hi = WIN + 1;
                } else {
                    break (i, v);
                }
            };
            if self.aborted && depth > 1 {
                // With `partial`, a root move searched in full that beat
                // the previous iteration's (searched first) inside the
                // window is the better one at this depth: play it.
                if self.config.partial
                    && let Some((i, v)) = better
                {
                    best = (root[i], v);
                }
                break;
            }
            best = (root[i], v);
            self.last_depth = depth;
            // Principal move first in the next iteration.
            let m = root.remove(i);
            root.insert(0, m);
            if report {
                on_info(&self.info(state, best.0, best.1, start));
            }
            if is_mate(v) || self.aborted {
                break;
            }
        }
        self.last_info = Some(self.info(state, best.0, best.1, start));
        best
    }
}

impl<S: State + Search> Agent<S> for AlphaBeta<S> {
    fn select(&mut self, state: &S) -> S::Move {
        self.search(state).0
    }

    fn select_reporting(&mut self, state: &S, on_info: &mut dyn FnMut(&SearchInfo)) -> S::Move {
        self.search_reporting(state, on_info, true).0
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.last_info.clone()
    }

    fn spec(&self) -> String {
        self.config.canonical()
    }
}
