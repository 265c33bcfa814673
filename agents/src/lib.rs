//! # boardlab agents
//!
//! Game-agnostic players over the engine's [`State`] API: they know no game
//! by name. Each is generic over the state type, so its hot loops
//! (playouts, tree walks, search) are monomorphised; the harness holds them
//! as `Box<dyn Agent<S>>` and calls them once per move.
//!
//! Agents are built from spec strings in the engine's `name(key=value,...)`
//! syntax (see [`AgentSpec::parse`]):
//! * `random`: a uniformly random legal move.
//! * `uct(iterations=1000,c=1.4,ms=0)`: plain UCT with random playouts to
//!   the end ([`uct`]), the baseline.
//! * `mcts(iterations=1000,c=0.7,ms=0,mb=256,cutoff=4,scale=auto,solver=true,reuse=true,minimax=0)`:
//!   UCT with early playout termination, MCTS-Solver with win distances,
//!   subtree reuse, a memory bound and an optional root win search
//!   ([`mcts`]).
//! * `alphabeta(depth=3,ms=0,tt_mb=16,qdepth=8,pvs=true,aspiration=50,qmoves=0,qdelta=0,null=0,lmr=0,lmr_log=false,check_ext=false,mvv=false)`:
//!   negamax alpha-beta with iterative deepening, a Zobrist-keyed
//!   transposition table, a bounded quiescence search and optional
//!   null-move pruning, late-move reductions and check extensions
//!   ([`alphabeta`]).
//! * `solver(mb=64,nodes=0,plies=fewest)`: an exact solver: branch and
//!   bound for one-seat puzzles, win/draw/loss negamax for two seats
//!   ([`solver`]). Beside it, [`proof`] is a second, separately written
//!   two-seat method (depth-bounded proof-number search, no agent spec),
//!   used to check the solver's results.
//! * `external(cmd="prog args",ms=1000,nodes=0,depth=0,margin=1000)`: a
//!   program that speaks UGI, asked for each move ([`external`]); it loses
//!   the game by [`Forfeit`] if it crashes, runs out of time or cheats.
//! * `human`: a person at a terminal. Only `boardlab play` seats one (it
//!   reads the moves); every other command refuses it
//!   ([`AgentSpec::check_game`]), and [`AgentSpec::build`] builds no agent
//!   for it.
//!
//! ## Example
//!
//! Build agents from their specs and play a game of Catapult to the end:
//!
//! ```
//! use agents::AgentSpec;
//! use engine::catapult::CatapultGame;
//! use engine::spec::Spec;
//! use engine::{Game, State, ToMove};
//!
//! let game = CatapultGame::<u64>::from_spec(&Spec::parse("catapult").unwrap()).unwrap();
//! let mut players = [
//!     AgentSpec::parse("mcts(iterations=20)").unwrap().build(1),
//!     AgentSpec::parse("random").unwrap().build(2),
//! ];
//! let mut s = game.initial_state(0);
//! while let ToMove::Seat(seat) = s.to_move() {
//!     let mv = players[seat].select(&s);
//!     s.apply(mv);
//! }
//! assert!(s.is_terminal());
//! ```
#![deny(missing_docs)]

pub mod alphabeta;
pub mod external;
pub mod mcts;
pub mod pie;
pub mod proof;
pub mod random;
pub mod solver;
pub mod uct;

use engine::GameError;
use engine::spec::{ParamInfo, Params, Spec};
use engine::{Research, Search, SearchDefaults, State};

pub use alphabeta::{AlphaBeta, AlphaBetaConfig};
pub use external::{External, ExternalConfig, MAX_LINE};
pub use mcts::{Mcts, MctsConfig};
pub use pie::{PieChoice, PieChooser};
pub use random::RandomAgent;
pub use solver::{Solution, Solver, SolverConfig};
pub use uct::{Uct, UctConfig};

/// What a search thinks of a position, reported as it goes (in the spirit
/// of UCI's `info` lines) and after each move.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Completed depth in plies (alpha-beta).
    pub depth: Option<u32>,
    /// Iterations run (MCTS).
    pub iterations: Option<u64>,
    /// The value of the chosen move for the seat to move, in
    /// [`SearchInfo::score_units`].
    pub score: f64,
    /// The unit of `score`: `eval` (the game's evaluation units), `mean
    /// return` (in [-1, 1]) or `return` (the solver's exact value: 1, 0 or
    /// −1 for two seats, the best return for one).
    pub score_units: &'static str,
    /// `score` as a win probability for the seat to move (draws count
    /// half).
    pub win_probability: f64,
    /// A proven result for the seat to move (`win in 5`, `loss`, `draw`),
    /// if the search proved one.
    pub proven: Option<String>,
    /// Nodes searched (alpha-beta), tree nodes (MCTS) or positions
    /// searched (solver).
    pub nodes: u64,
    /// Milliseconds since the search began.
    pub elapsed_ms: u64,
    /// Nodes (alpha-beta) or iterations (MCTS) per second.
    pub rate: f64,
    /// The principal variation (alpha-beta) or most-visited line (MCTS), in
    /// the game's move notation.
    pub pv: Vec<String>,
    /// Times the tree's memory bound stopped an expansion (MCTS).
    pub mb_hits: Option<u64>,
    /// At a pie choice, the full searches' values of swapping and keeping
    /// ([`PieChooser`]); `None` at every other move.
    pub pie: Option<PieChoice>,
}

impl SearchInfo {
    /// One `info ...` line.
    pub fn line(&self) -> String {
        let mut s = String::from("info");
        if let Some(d) = self.depth {
            s += &format!(" depth {d}");
        }
        if let Some(i) = self.iterations {
            s += &format!(" iterations {i}");
        }
        s += &format!(
            " score {:.3} ({}) winprob {:.3}",
            self.score, self.score_units, self.win_probability
        );
        if let Some(p) = &self.proven {
            s += &format!(" proven {p}");
        }
        s += &format!(
            " nodes {} time {} nps {:.0}",
            self.nodes, self.elapsed_ms, self.rate
        );
        if let Some(h) = self.mb_hits {
            s += &format!(" mbhits {h}");
        }
        if let Some(p) = &self.pie {
            s += &format!(
                " pie swap {:.3} keep {:.3} chose {}",
                p.swap,
                p.keep,
                if p.swapped { "swap" } else { "keep" }
            );
        }
        if !self.pv.is_empty() {
            s += &format!(" pv {}", self.pv.join(" "));
        }
        s
    }
}

/// How a player lost a game without a legal move to show for its turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ForfeitKind {
    /// The program exited, closed its output or could not be started.
    Crash,
    /// No answer within the time limit.
    Timeout,
    /// An answer that is not a legal move here.
    IllegalMove,
}

/// A line of play read from a transposition table: `first`, then the
/// best move `best` gives for each position that follows, as long as it is
/// legal there, no position repeats, the game goes on and the line is
/// shorter than `max` moves. The moves as text (the `pv` of [`SearchInfo`]).
pub(crate) fn table_line<S: State>(
    state: &S,
    first: S::Move,
    max: usize,
    mut best: impl FnMut(u64) -> Option<S::Move>,
) -> Vec<String> {
    let mut pv = vec![state.move_to_text(first)];
    let mut st = state.clone();
    st.apply(first);
    let mut seen = vec![st.zobrist()];
    let mut legal = Vec::new();
    while pv.len() < max && !st.is_terminal() {
        let Some(m) = best(st.zobrist()) else {
            break;
        };
        st.legal_moves(&mut legal);
        if !legal.contains(&m) {
            break;
        }
        pv.push(st.move_to_text(m));
        st.apply(m);
        if seen.contains(&st.zobrist()) {
            break;
        }
        seen.push(st.zobrist());
    }
    pv
}

/// A forfeited turn: the seat loses the game (see [`Agent::try_select`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// Why.
    pub kind: ForfeitKind,
    /// What happened, for logs.
    pub detail: String,
}

impl Forfeit {
    /// The end reason recorded for the game: `forfeit: crash`, `forfeit:
    /// timeout` or `forfeit: illegal move`.
    pub fn end_reason(&self) -> &'static str {
        match self.kind {
            ForfeitKind::Crash => "forfeit: crash",
            ForfeitKind::Timeout => "forfeit: timeout",
            ForfeitKind::IllegalMove => "forfeit: illegal move",
        }
    }
}

/// A player: given a state where a seat is to move, it returns a legal move.
pub trait Agent<S: State>: Send {
    /// Chooses a move for the seat to move in `state` (never called at
    /// chance or terminal nodes).
    fn select(&mut self, state: &S) -> S::Move;
    /// Like [`Agent::select`], calling `on_info` as the search goes (at
    /// least once, at the end, for searching agents).
    fn select_reporting(&mut self, state: &S, on_info: &mut dyn FnMut(&SearchInfo)) -> S::Move {
        let mv = self.select(state);
        if let Some(i) = self.last_info() {
            on_info(&i);
        }
        mv
    }
    /// Like [`Agent::select`], but a player that cannot give a legal move
    /// (an external program that crashed, hung or cheated) forfeits: the
    /// harness then ends the game as lost by this seat. In-process agents
    /// never forfeit (the default).
    ///
    /// # Errors
    /// The forfeit, with its reason.
    fn try_select(&mut self, state: &S) -> Result<S::Move, Forfeit> {
        Ok(self.select(state))
    }
    /// What the last search thought; `None` for agents that do not search.
    fn last_info(&self) -> Option<SearchInfo> {
        None
    }
    /// The canonical spec string of this agent.
    fn spec(&self) -> String;
}

/// A parsed agent spec, ready to build agents for any game.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// `random`.
    Random,
    /// `uct(...)`.
    Uct(UctConfig),
    /// `mcts(...)`.
    Mcts(MctsConfig),
    /// `alphabeta(...)`.
    AlphaBeta(AlphaBetaConfig),
    /// `solver(...)`.
    Solver(SolverConfig),
    /// `external(...)`.
    External(ExternalConfig),
    /// `human`: a person choosing the moves at a terminal (`boardlab play`).
    Human,
}

/// The agents and their parameters, for help texts and errors.
pub const AGENTS: &[(&str, &[ParamInfo])] = &[
    ("random", &[]),
    ("uct", uct::PARAMS),
    ("mcts", mcts::PARAMS),
    ("alphabeta", alphabeta::PARAMS),
    ("solver", solver::PARAMS),
    ("external", external::PARAMS),
    ("human", &[]),
];

impl AgentSpec {
    /// Parses an agent spec such as `mcts(iterations=800,c=1.0)` with the
    /// searches' generic defaults ([`AgentSpec::parse_in`] gives a game's).
    ///
    /// # Errors
    /// Unknown agents or parameters, bad values; the message lists the valid
    /// ones.
    pub fn parse(text: &str) -> Result<AgentSpec, GameError> {
        AgentSpec::parse_with(text, &SearchDefaults::default())
    }

    /// Parses an agent spec for the game `game` (a game string): the
    /// parameters the spec leaves out that a game sets for itself (the
    /// [`SearchDefaults`] of its [`Search::search_defaults`]) take the
    /// game's values, and the canonical spec spells them out. Every run
    /// reads its agents this way.
    ///
    /// # Errors
    /// As [`AgentSpec::parse`]; an unknown or bad game string.
    pub fn parse_in(text: &str, game: &str) -> Result<AgentSpec, GameError> {
        AgentSpec::parse_with(text, &engine::registry::search_defaults(game)?)
    }

    /// Parses an agent spec with the game defaults `game`.
    ///
    /// # Errors
    /// As [`AgentSpec::parse`].
    pub fn parse_with(text: &str, game: &SearchDefaults) -> Result<AgentSpec, GameError> {
        let spec = Spec::parse(text).map_err(|e| GameError::new(format!("agent spec: {e}")))?;
        match spec.name.as_str() {
            "random" => {
                Params::new("agent random", &spec, &[])?;
                Ok(AgentSpec::Random)
            }
            "uct" => Ok(AgentSpec::Uct(UctConfig::from_spec(&spec)?)),
            "mcts" => Ok(AgentSpec::Mcts(MctsConfig::from_spec_with(&spec, game)?)),
            "alphabeta" => Ok(AgentSpec::AlphaBeta(AlphaBetaConfig::from_spec_with(
                &spec, game,
            )?)),
            "solver" => Ok(AgentSpec::Solver(SolverConfig::from_spec(&spec)?)),
            "external" => Ok(AgentSpec::External(ExternalConfig::from_spec(&spec)?)),
            "human" => {
                Params::new("agent human", &spec, &[])?;
                Ok(AgentSpec::Human)
            }
            other => {
                let names: Vec<&str> = AGENTS.iter().map(|(n, _)| *n).collect();
                engine::bail!(
                    "unknown agent {other:?} (known agents: {})",
                    names.join(", ")
                )
            }
        }
    }

    /// The canonical spec string, every parameter spelled out.
    pub fn canonical(&self) -> String {
        match self {
            AgentSpec::Random => "random".into(),
            AgentSpec::Uct(c) => c.canonical(),
            AgentSpec::Mcts(c) => c.canonical(),
            AgentSpec::AlphaBeta(c) => c.canonical(),
            AgentSpec::Solver(c) => c.canonical(),
            AgentSpec::External(c) => c.canonical(),
            AgentSpec::Human => "human".into(),
        }
    }

    /// Whether the agent's play depends on wall-clock time (a millisecond
    /// budget), so that the same seed need not give the same game.
    pub fn is_timed(&self) -> bool {
        match self {
            AgentSpec::Random => false,
            AgentSpec::Uct(c) => c.ms > 0,
            AgentSpec::Mcts(c) => c.ms > 0,
            AgentSpec::AlphaBeta(c) => c.ms > 0,
            AgentSpec::Solver(_) => false,
            AgentSpec::External(c) => c.nodes == 0 && c.depth == 0,
            AgentSpec::Human => true,
        }
    }

    /// Whether this is a person's seat (`human`), whose moves the caller
    /// reads rather than builds an agent for.
    pub fn is_human(&self) -> bool {
        matches!(self, AgentSpec::Human)
    }

    /// Checks the agent can play a game of `num_seats` seats unattended
    /// (every command but `boardlab play`, which seats people itself).
    ///
    /// # Errors
    /// Alpha-beta needs exactly two seats; the solver one or two; `human`
    /// needs a person at a terminal, so only `boardlab play` takes it.
    pub fn check_game(&self, num_seats: usize) -> Result<(), GameError> {
        if self.is_human() {
            engine::bail!(
                "agent human needs a person at a terminal: only `boardlab play` seats it"
            );
        }
        if let AgentSpec::AlphaBeta(_) = self
            && num_seats != 2
        {
            engine::bail!(
                "agent alphabeta plays two-seat games only; this game has {num_seats} seats"
            );
        }
        if let AgentSpec::Solver(_) = self
            && num_seats > 2
        {
            engine::bail!(
                "agent solver plays one- and two-seat games only; this game has {num_seats} seats"
            );
        }
        Ok(())
    }

    /// Builds a fresh agent seeded with `seed`. The searching agents
    /// (`uct`, `mcts`, `alphabeta`) come wrapped in a [`PieChooser`], so
    /// that at a pie choice they search each option in full; the others
    /// (random, the exact solver, external programs) play it as any move.
    ///
    /// # Panics
    /// For `human`, which is no program: callers check specs with
    /// [`AgentSpec::check_game`] first, which refuses it.
    pub fn build<S: Research + Search + 'static>(&self, seed: u64) -> Box<dyn Agent<S>> {
        let agent = self.build_plain::<S>(seed);
        match self {
            AgentSpec::Uct(_) | AgentSpec::Mcts(_) | AgentSpec::AlphaBeta(_) => {
                Box::new(PieChooser::new(agent, self.clone(), seed))
            }
            _ => agent,
        }
    }

    /// Builds the agent alone, with no [`PieChooser`] around it: the
    /// searches of a pie choice, and callers that want the plain search.
    ///
    /// # Panics
    /// For `human`, as [`AgentSpec::build`].
    pub fn build_plain<S: State + Search + 'static>(&self, seed: u64) -> Box<dyn Agent<S>> {
        match self {
            AgentSpec::Random => Box::new(RandomAgent::new(seed)),
            AgentSpec::Uct(c) => Box::new(Uct::new(c.clone(), seed)),
            AgentSpec::Mcts(c) => Box::new(Mcts::new(c.clone(), seed)),
            AgentSpec::AlphaBeta(c) => Box::new(AlphaBeta::new(c.clone(), seed)),
            AgentSpec::Solver(c) => Box::new(Solver::new(c.clone())),
            AgentSpec::External(c) => Box::new(External::new(c.clone(), seed)),
            AgentSpec::Human => {
                panic!(
                    "agent human is seated by `boardlab play`, never built (check_game refuses it)"
                )
            }
        }
    }
}

/// The switches a canonical spec writes only where they are on or where
/// the game's default is not off (so that the specs of runs made before
/// they existed, or before a game's default changed, stay as they were),
/// each with its off value.
const WRITTEN_WHEN_OFF: &[&str] = &[
    ",minimax=0",
    ",null=0",
    ",lmr=0",
    ",lmr_log=false",
    ",check_ext=false",
    ",mvv=false",
    ",futility=0",
    ",see=false",
    ",lmp=0",
    ",qcheck=false",
    ",iir=false",
    ",malus=false",
    ",countermove=false",
    ",rfp=0",
    ",partial=false",
    ",twofold=false",
    ",qtt=false",
];

/// A canonical spec with every switch that is written off
/// ([`AgentSpec::canonical`] writes `mcts`'s `minimax=0` or `alphabeta`'s
/// `mvv=false` where the game's default is on, and leaves it out where
/// the default is off) left out, so that two spellings of one agent
/// compare equal: the key by which a run made before a game's default
/// changed is matched to the same agent spelled today.
pub fn spec_key(spec: &str) -> String {
    let mut key = spec.to_string();
    loop {
        let before = key.len();
        for off in WRITTEN_WHEN_OFF {
            key = key
                .replace(&format!("{off},"), ",")
                .replace(&format!("{off})"), ")");
        }
        if key.len() == before {
            return key;
        }
    }
}

/// Whether `key=value` is a switch written off ([`spec_key`]): a canonical
/// spec holds it only where the game's default is on, so a label that
/// leaves out the generic defaults keeps it (`mvv=false` on plain
/// Catapult 8×8 says the search ran without the game's capture order).
pub fn written_when_off(key: &str, value: &str) -> bool {
    WRITTEN_WHEN_OFF.contains(&format!(",{key}={value}").as_str())
}

/// Whether two canonical specs name one agent, perhaps spelled before and
/// after a game's default changed (by [`spec_key`]).
pub fn same_agent(a: &str, b: &str) -> bool {
    a == b || spec_key(a) == spec_key(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_specs_and_rejects_bad_ones() {
        assert_eq!(AgentSpec::parse("random").unwrap(), AgentSpec::Random);
        let u = AgentSpec::parse("uct(iterations=50,c=0.7)").unwrap();
        assert_eq!(u.canonical(), "uct(iterations=50,c=0.7,ms=0)");
        assert_eq!(AgentSpec::parse(&u.canonical()).unwrap(), u);
        let m = AgentSpec::parse("mcts(iterations=50,c=0.7)").unwrap();
        assert_eq!(
            m.canonical(),
            "mcts(iterations=50,c=0.7,ms=0,mb=256,cutoff=4,scale=auto,solver=true,reuse=true)"
        );
        assert_eq!(AgentSpec::parse(&m.canonical()).unwrap(), m);
        // Only ms given: no iteration cap.
        let t = AgentSpec::parse("mcts(ms=50)").unwrap();
        assert!(
            t.canonical().starts_with("mcts(iterations=0,"),
            "{}",
            t.canonical()
        );
        assert_eq!(AgentSpec::parse(&t.canonical()).unwrap(), t);
        let m = AgentSpec::parse("mcts(cutoff=end,scale=250,solver=false,reuse=false)").unwrap();
        assert_eq!(AgentSpec::parse(&m.canonical()).unwrap(), m);
        // minimax is written only where set (older specs stay as they were).
        let m = AgentSpec::parse("mcts(iterations=50,minimax=3)").unwrap();
        assert!(
            m.canonical().ends_with(",reuse=true,minimax=3)"),
            "{}",
            m.canonical()
        );
        assert_eq!(AgentSpec::parse(&m.canonical()).unwrap(), m);
        let v = AgentSpec::parse("solver(mb=8)").unwrap();
        assert_eq!(v.canonical(), "solver(mb=8,nodes=0,plies=fewest)");
        assert_eq!(AgentSpec::parse(&v.canonical()).unwrap(), v);
        assert!(v.check_game(1).is_ok() && v.check_game(2).is_ok() && v.check_game(3).is_err());
        let x = AgentSpec::parse(r#"external(cmd="./eng --agent mcts(c=1,iterations=5)",ms=50)"#)
            .unwrap();
        assert_eq!(
            x.canonical(),
            r#"external(cmd="./eng --agent mcts(c=1,iterations=5)",ms=50,nodes=0,depth=0,margin=1000)"#
        );
        assert_eq!(AgentSpec::parse(&x.canonical()).unwrap(), x);
        let AgentSpec::External(c) = &x else {
            panic!("{x:?}")
        };
        assert_eq!(c.argv, ["./eng", "--agent", "mcts(c=1,iterations=5)"]);
        assert_eq!(c.go_line(), "go movetime 50");
        assert!(x.is_timed());
        let a = AgentSpec::parse("alphabeta(depth=2)").unwrap();
        assert_eq!(AgentSpec::parse(&a.canonical()).unwrap(), a);
        // qmoves and qdelta are written only where set (older specs stay).
        assert_eq!(
            a.canonical(),
            "alphabeta(depth=2,ms=0,tt_mb=16,qdepth=8,pvs=true,aspiration=50)"
        );
        let q = AgentSpec::parse("alphabeta(qmoves=6,qdelta=200)").unwrap();
        assert!(
            q.canonical().ends_with(",qmoves=6,qdelta=200)"),
            "{}",
            q.canonical()
        );
        assert_eq!(AgentSpec::parse(&q.canonical()).unwrap(), q);
        // So are null, lmr and check_ext: written only when not default.
        let d = AgentSpec::parse("alphabeta(depth=2,null=0,lmr=0,check_ext=false)").unwrap();
        assert_eq!(d.canonical(), a.canonical());
        let n = AgentSpec::parse("alphabeta(check_ext=true,lmr=3,null=2)").unwrap();
        assert_eq!(
            n.canonical(),
            "alphabeta(depth=3,ms=0,tt_mb=16,qdepth=8,pvs=true,aspiration=50,null=2,lmr=3,check_ext=true)"
        );
        assert_eq!(AgentSpec::parse(&n.canonical()).unwrap(), n);
        // And mvv and lmr_log, after check_ext.
        let m = AgentSpec::parse("alphabeta(mvv=true,lmr_log=true,lmr=2)").unwrap();
        assert_eq!(
            m.canonical(),
            "alphabeta(depth=3,ms=0,tt_mb=16,qdepth=8,pvs=true,aspiration=50,lmr=2,lmr_log=true,mvv=true)"
        );
        assert_eq!(AgentSpec::parse(&m.canonical()).unwrap(), m);
        let d = AgentSpec::parse("alphabeta(depth=2,mvv=false,lmr_log=false)").unwrap();
        assert_eq!(d.canonical(), a.canonical());
        let h = AgentSpec::parse("human").unwrap();
        assert_eq!((h.canonical().as_str(), h.is_human()), ("human", true));
        let e = h.check_game(2).unwrap_err();
        assert!(e.0.contains("only `boardlab play`"), "{e}");
        for (bad, needle) in [
            ("minimax", "unknown agent"),
            ("mcts(iters=5)", "unknown parameter"),
            ("mcts(iterations=-1)", "iterations"),
            ("mcts(iterations=0)", "iterations"),
            ("mcts(c=abc)", "c="),
            ("mcts(iterations=0)", "needs a time budget"),
            ("mcts(mb=0)", "mb=0"),
            ("mcts(cutoff=-2)", "cutoff=-2"),
            ("mcts(scale=0)", "scale=0"),
            ("mcts(solver=maybe)", "solver"),
            ("mcts(reuse=1)", "reuse"),
            ("mcts(minimax=6)", "minimax"),
            ("mcts(c=-1)", "c=-1"),
            ("uct(iterations=0)", "iterations"),
            ("uct(cutoff=3)", "unknown parameter"),
            ("alphabeta(depth=65)", "depth"),
            ("alphabeta(tt_mb=4097)", "tt_mb"),
            ("alphabeta(qdepth=65)", "qdepth"),
            ("alphabeta(qmoves=1001)", "qmoves"),
            ("alphabeta(qdelta=-1)", "qdelta"),
            ("alphabeta(pvs=yes)", "pvs"),
            ("alphabeta(null=9)", "null=9"),
            ("alphabeta(null=-1)", "null"),
            ("alphabeta(null=yes)", "null"),
            ("alphabeta(lmr=1001)", "lmr=1001"),
            ("alphabeta(lmr=-2)", "lmr"),
            ("alphabeta(check_ext=1)", "check_ext"),
            ("alphabeta(mvv=yes)", "mvv"),
            ("alphabeta(lmr_log=true)", "lmr_log=true needs lmr"),
            ("alphabeta(depth=0)", "depth"),
            ("random(x=1)", "takes no parameters"),
            ("mcts(", "bad spec"),
            ("solver(mb=0)", "mb=0"),
            ("solver(mb=x)", "mb"),
            ("solver(plies=short)", "fewest|any"),
            ("solver(nodes=-3)", "nodes"),
            ("solver(depth=3)", "unknown parameter"),
            ("external", "cmd is required"),
            ("external(cmd=\"\")", "cmd is required"),
            ("external(cmd=\"a 'b\")", "cmd="),
            ("external(cmd=x,ms=0)", "ms=0"),
            ("external(cmd=x,time=3)", "unknown parameter"),
            ("human(ms=5)", "takes no parameters"),
        ] {
            let e = AgentSpec::parse(bad).unwrap_err();
            assert!(e.0.contains(needle), "{bad}: {e}");
            assert!(!e.0.contains('\n'), "{bad}: not one line: {e}");
        }
    }
}
