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
//! * `mcts(iterations=1000,c=1.4,ms=0)`: UCT with random playouts
//!   ([`mcts`]).
//! * `alphabeta(depth=3,ms=0,tt_mb=16)`: negamax alpha-beta with iterative
//!   deepening and a Zobrist-keyed transposition table ([`alphabeta`]).
//! * `solver(mb=64,nodes=0,plies=fewest)`: an exact solver: branch and
//!   bound for one-seat puzzles, win/draw/loss negamax for two seats
//!   ([`solver`]).
#![deny(missing_docs)]

pub mod alphabeta;
pub mod mcts;
pub mod random;
pub mod solver;

use engine::GameError;
use engine::State;
use engine::spec::{ParamInfo, Params, Spec};

pub use alphabeta::{AlphaBeta, AlphaBetaConfig};
pub use mcts::{Mcts, MctsConfig};
pub use random::RandomAgent;
pub use solver::{Solution, Solver, SolverConfig};

/// A player: given a state where a seat is to move, it returns a legal move.
pub trait Agent<S: State>: Send {
    /// Chooses a move for the seat to move in `state` (never called at
    /// chance or terminal nodes).
    fn select(&mut self, state: &S) -> S::Move;
    /// The canonical spec string of this agent.
    fn spec(&self) -> String;
}

/// A parsed agent spec, ready to build agents for any game.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// `random`.
    Random,
    /// `mcts(...)`.
    Mcts(MctsConfig),
    /// `alphabeta(...)`.
    AlphaBeta(AlphaBetaConfig),
    /// `solver(...)`.
    Solver(SolverConfig),
}

/// The agents and their parameters, for help texts and errors.
pub const AGENTS: &[(&str, &[ParamInfo])] = &[
    ("random", &[]),
    ("mcts", mcts::PARAMS),
    ("alphabeta", alphabeta::PARAMS),
    ("solver", solver::PARAMS),
];

impl AgentSpec {
    /// Parses an agent spec such as `mcts(iterations=800,c=1.0)`.
    ///
    /// # Errors
    /// Unknown agents or parameters, bad values; the message lists the valid
    /// ones.
    pub fn parse(text: &str) -> Result<AgentSpec, GameError> {
        let spec = Spec::parse(text).map_err(|e| GameError::new(format!("agent spec: {e}")))?;
        match spec.name.as_str() {
            "random" => {
                Params::new("agent random", &spec, &[])?;
                Ok(AgentSpec::Random)
            }
            "mcts" => Ok(AgentSpec::Mcts(MctsConfig::from_spec(&spec)?)),
            "alphabeta" => Ok(AgentSpec::AlphaBeta(AlphaBetaConfig::from_spec(&spec)?)),
            "solver" => Ok(AgentSpec::Solver(SolverConfig::from_spec(&spec)?)),
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
            AgentSpec::Mcts(c) => c.canonical(),
            AgentSpec::AlphaBeta(c) => c.canonical(),
            AgentSpec::Solver(c) => c.canonical(),
        }
    }

    /// Whether the agent's play depends on wall-clock time (a millisecond
    /// budget), so that the same seed need not give the same game.
    pub fn is_timed(&self) -> bool {
        match self {
            AgentSpec::Random => false,
            AgentSpec::Mcts(c) => c.ms > 0,
            AgentSpec::AlphaBeta(c) => c.ms > 0,
            AgentSpec::Solver(_) => false,
        }
    }

    /// Checks the agent can play a game of `num_seats` seats.
    ///
    /// # Errors
    /// Alpha-beta needs exactly two seats; the solver one or two.
    pub fn check_game(&self, num_seats: usize) -> Result<(), GameError> {
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

    /// Builds a fresh agent seeded with `seed`.
    pub fn build<S: State + 'static>(&self, seed: u64) -> Box<dyn Agent<S>> {
        match self {
            AgentSpec::Random => Box::new(RandomAgent::new(seed)),
            AgentSpec::Mcts(c) => Box::new(Mcts::new(c.clone(), seed)),
            AgentSpec::AlphaBeta(c) => Box::new(AlphaBeta::new(c.clone(), seed)),
            AgentSpec::Solver(c) => Box::new(Solver::new(c.clone())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_specs_and_rejects_bad_ones() {
        assert_eq!(AgentSpec::parse("random").unwrap(), AgentSpec::Random);
        let m = AgentSpec::parse("mcts(iterations=50,c=0.7)").unwrap();
        assert_eq!(m.canonical(), "mcts(iterations=50,c=0.7,ms=0)");
        assert_eq!(AgentSpec::parse(&m.canonical()).unwrap(), m);
        let v = AgentSpec::parse("solver(mb=8)").unwrap();
        assert_eq!(v.canonical(), "solver(mb=8,nodes=0,plies=fewest)");
        assert_eq!(AgentSpec::parse(&v.canonical()).unwrap(), v);
        assert!(v.check_game(1).is_ok() && v.check_game(2).is_ok() && v.check_game(3).is_err());
        let a = AgentSpec::parse("alphabeta(depth=2)").unwrap();
        assert_eq!(AgentSpec::parse(&a.canonical()).unwrap(), a);
        for (bad, needle) in [
            ("minimax", "unknown agent"),
            ("mcts(iters=5)", "unknown parameter"),
            ("mcts(iterations=-1)", "iterations"),
            ("mcts(iterations=0)", "iterations"),
            ("mcts(c=abc)", "c="),
            ("alphabeta(depth=0)", "depth"),
            ("random(x=1)", "takes no parameters"),
            ("mcts(", "bad spec"),
            ("solver(mb=0)", "mb=0"),
            ("solver(mb=x)", "mb"),
            ("solver(plies=short)", "fewest|any"),
            ("solver(nodes=-3)", "nodes"),
            ("solver(depth=3)", "unknown parameter"),
        ] {
            let e = AgentSpec::parse(bad).unwrap_err();
            assert!(e.0.contains(needle), "{bad}: {e}");
        }
    }
}
