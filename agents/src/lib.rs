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
pub mod mcts;
pub mod random;

use engine::GameError;
use engine::State;
use engine::spec::{ParamInfo, Params, Spec};

pub use alphabeta::{AlphaBeta, AlphaBetaConfig};
pub use mcts::{Mcts, MctsConfig};
pub use random::RandomAgent;

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
}

/// The agents and their parameters, for help texts and errors.
pub const AGENTS: &[(&str, &[ParamInfo])] = &[
    ("random", &[]),
    ("mcts", mcts::PARAMS),
    ("alphabeta", alphabeta::PARAMS),
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
        }
    }

    /// Whether the agent's play depends on wall-clock time (a millisecond
    /// budget), so that the same seed need not give the same game.
    pub fn is_timed(&self) -> bool {
        match self {
            AgentSpec::Random => false,
            AgentSpec::Mcts(c) => c.ms > 0,
            AgentSpec::AlphaBeta(c) => c.ms > 0,
        }
    }

    /// Checks the agent can play a game of `num_seats` seats.
    ///
    /// # Errors
    /// Alpha-beta needs exactly two seats.
    pub fn check_game(&self, num_seats: usize) -> Result<(), GameError> {
        if let AgentSpec::AlphaBeta(_) = self
            && num_seats != 2
        {
            engine::bail!(
                "agent alphabeta plays two-seat games only; this game has {num_seats} seats"
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
        ] {
            let e = AgentSpec::parse(bad).unwrap_err();
            assert!(e.0.contains(needle), "{bad}: {e}");
        }
    }
}
