//! A node of any game behind one object-safe trait, for the Python
//! bindings (`boardlab-python`): the game string chooses the game once
//! ([`new_node`]); every call after that is a virtual call into
//! monomorphised code.

use std::any::Any;

use agents::{Agent, AgentSpec};
use engine::api::Decisions;
use engine::{Game, GameError, GameVisitor, Learning, Research, State, ToMove, visit_game};

/// OpenSpiel's player id of a chance node.
pub const CHANCE: i64 = -1;
/// OpenSpiel's player id of a terminal node.
pub const TERMINAL: i64 = -4;

/// An agent built from its spec for the first game it is asked to play
/// (built again if asked to play another game).
pub struct AgentSlot {
    /// The parsed spec.
    pub spec: AgentSpec,
    /// The seed the agent is built with.
    pub seed: u64,
    /// The spec as given, read again with each game's search defaults when
    /// the agent is built for it.
    text: String,
    built: Option<(String, Box<dyn Any + Send>)>,
}

impl AgentSlot {
    /// Parses `spec` (e.g. `mcts(ms=100)`) with the generic search
    /// defaults, or in the game `game` (a game string) where given: its
    /// search defaults and, for alpha-beta, its evaluation weights
    /// (`w_<term>`, which only a game names).
    ///
    /// # Errors
    /// A bad spec or game, or `human`, which only `boardlab play` seats.
    pub fn new(spec: &str, seed: u64, game: Option<&str>) -> Result<AgentSlot, GameError> {
        let text = spec.to_string();
        let spec = match game {
            Some(g) => AgentSpec::parse_in(spec, g)?,
            None => AgentSpec::parse(spec)?,
        };
        if spec.is_human() {
            spec.check_game(2)?;
        }
        Ok(AgentSlot {
            spec,
            seed,
            text,
            built: None,
        })
    }
}

/// A position of some game, with the decisions taken of its next move and
/// the moves played.
pub trait DynNode: Send + Sync {
    /// A copy.
    fn clone_box(&self) -> Box<dyn DynNode>;
    /// The initial state of the same game from `seed`.
    fn fresh(&self, seed: u64) -> Box<dyn DynNode>;
    /// The canonical game string.
    fn game_string(&self) -> String;
    /// Seats.
    fn num_seats(&self) -> usize;
    /// The size of the action space.
    fn num_actions(&self) -> usize;
    /// The observation's `[planes, height, width]`.
    fn observation_shape(&self) -> [usize; 3];
    /// The seat to move, [`CHANCE`] or [`TERMINAL`].
    fn current_player(&self) -> i64;
    /// The legal moves as text (the chance outcomes at a chance node);
    /// empty mid-move (see [`DynNode::pending`]).
    fn legal_moves(&self) -> Vec<String>;
    /// The action ids that may be taken next.
    fn legal_actions(&self) -> Vec<u32>;
    /// Applies a move (or chance outcome) given as text.
    ///
    /// # Errors
    /// Bad or illegal text, or decisions of a move already under way.
    fn apply_text(&mut self, text: &str) -> Result<(), GameError>;
    /// Takes one action id.
    ///
    /// # Errors
    /// An id that is not legal here.
    fn apply_action(&mut self, id: i64) -> Result<(), GameError>;
    /// Returns per seat.
    fn returns(&self) -> Vec<f64>;
    /// The chance outcomes: text, action id, probability.
    fn chance_outcomes(&self) -> Vec<(String, u32, f64)>;
    /// Writes the observation.
    fn observe(&self, out: &mut [f32]);
    /// The position text.
    fn to_text(&self) -> String;
    /// The board for people (the terminal board of `boardlab show`).
    fn board_text(&self) -> String;
    /// The SVG picture.
    fn svg(&self) -> Option<String>;
    /// The action ids of a legal move given as text.
    ///
    /// # Errors
    /// Bad or illegal text.
    fn move_actions(&self, text: &str) -> Result<Vec<u32>, GameError>;
    /// The ids taken so far of the next move.
    fn pending(&self) -> Vec<u32>;
    /// Plies played.
    fn ply(&self) -> u32;
    /// The moves played since the initial state, as text.
    fn history(&self) -> Vec<String>;
    /// Each seat's team (team games), else `None`.
    fn team(&self, seat: usize) -> Option<usize>;
    /// The agent's move for the seat to move, as text.
    ///
    /// # Errors
    /// Not a seat's turn, decisions under way, or an agent that cannot play
    /// this game.
    fn select(&self, agent: &mut AgentSlot) -> Result<String, GameError>;
}

/// A node of game `G`.
#[derive(Clone)]
pub struct Node<G: Game> {
    /// The game.
    pub game: G,
    /// Its position and decisions under way.
    pub d: Decisions<G::State>,
    history: Vec<String>,
}

impl<G: Game> Node<G> {
    /// The initial node of `game` from `seed`.
    pub fn new(game: G, seed: u64) -> Self {
        let s = game.initial_state(seed);
        Node {
            game,
            d: Decisions::new(s),
            history: Vec::new(),
        }
    }

    fn node_moves(&self) -> Vec<<G::State as State>::Move> {
        let mut v = Vec::new();
        self.d.node_moves(&mut v);
        v
    }
}

impl<G: Game> DynNode for Node<G> {
    fn clone_box(&self) -> Box<dyn DynNode> {
        Box::new(self.clone())
    }
    fn fresh(&self, seed: u64) -> Box<dyn DynNode> {
        Box::new(Node::new(self.game.clone(), seed))
    }
    fn game_string(&self) -> String {
        self.game.game_string()
    }
    fn num_seats(&self) -> usize {
        self.game.num_seats()
    }
    fn num_actions(&self) -> usize {
        self.d.state.num_actions()
    }
    fn observation_shape(&self) -> [usize; 3] {
        self.d.state.observation_shape()
    }
    fn current_player(&self) -> i64 {
        match self.d.state.to_move() {
            ToMove::Seat(s) => s as i64,
            ToMove::Chance => CHANCE,
            ToMove::Terminal => TERMINAL,
        }
    }
    fn legal_moves(&self) -> Vec<String> {
        if !self.d.pending.is_empty() {
            return Vec::new();
        }
        let s = &self.d.state;
        self.node_moves()
            .into_iter()
            .map(|m| s.move_to_text(m))
            .collect()
    }
    fn legal_actions(&self) -> Vec<u32> {
        let mut v = Vec::new();
        self.d.legal_actions(&mut v);
        v
    }
    fn apply_text(&mut self, text: &str) -> Result<(), GameError> {
        if !self.d.pending.is_empty() {
            engine::bail!(
                "move {text:?}: a move is under way (action ids {:?} taken); finish it with apply_action",
                self.d.pending
            );
        }
        let mv = engine::parse_legal_move(&self.d.state, text)?;
        self.history.push(self.d.state.move_to_text(mv));
        self.d.apply_move(mv);
        Ok(())
    }
    fn apply_action(&mut self, id: i64) -> Result<(), GameError> {
        let Ok(id) = u32::try_from(id) else {
            engine::bail!(
                "action {id} is outside the action space 0..{}",
                self.num_actions()
            );
        };
        let before = self.d.state.clone();
        if let Some(mv) = self.d.apply_action(id)? {
            self.history.push(before.move_to_text(mv));
        }
        Ok(())
    }
    fn returns(&self) -> Vec<f64> {
        self.d.state.returns()[..self.num_seats()].to_vec()
    }
    fn chance_outcomes(&self) -> Vec<(String, u32, f64)> {
        let mut v = Vec::new();
        self.d.state.chance_outcomes(&mut v);
        v.into_iter()
            .map(|(m, p)| {
                let id = self.d.state.move_actions(m).ids()[0];
                (self.d.state.move_to_text(m), id, p)
            })
            .collect()
    }
    fn observe(&self, out: &mut [f32]) {
        self.d.observe(out);
    }
    fn to_text(&self) -> String {
        self.d.state.to_text()
    }
    fn board_text(&self) -> String {
        self.d.state.to_string()
    }
    fn svg(&self) -> Option<String> {
        crate::output::svg::svg_of(&self.d.state)
    }
    fn move_actions(&self, text: &str) -> Result<Vec<u32>, GameError> {
        let mv = engine::parse_legal_move(&self.d.state, text)?;
        Ok(self.d.state.move_actions(mv).ids().to_vec())
    }
    fn pending(&self) -> Vec<u32> {
        self.d.pending.clone()
    }
    fn ply(&self) -> u32 {
        self.d.state.ply()
    }
    fn history(&self) -> Vec<String> {
        self.history.clone()
    }
    fn team(&self, seat: usize) -> Option<usize> {
        self.d.state.seat_role(seat).team
    }
    fn select(&self, agent: &mut AgentSlot) -> Result<String, GameError> {
        if !matches!(self.d.state.to_move(), ToMove::Seat(_)) {
            engine::bail!("agent {}: no seat is to move here", agent.spec.canonical());
        }
        if !self.d.pending.is_empty() {
            engine::bail!(
                "agent {}: a move is under way (action ids {:?} taken)",
                agent.spec.canonical(),
                self.d.pending
            );
        }
        agent.spec.check_game(self.num_seats())?;
        let key = self.game.game_string();
        let fits =
            matches!(&agent.built, Some((k, b)) if *k == key && b.is::<Box<dyn Agent<G::State>>>());
        if !fits {
            let a: Box<dyn Agent<G::State>> =
                AgentSpec::parse_in(&agent.text, &key)?.build(agent.seed);
            agent.built = Some((key, Box::new(a)));
        }
        let Some((_, b)) = agent.built.as_mut() else {
            engine::bail!("agent {}: not built", agent.spec.canonical());
        };
        let Some(a) = b.downcast_mut::<Box<dyn Agent<G::State>>>() else {
            engine::bail!("agent {}: built for another game", agent.spec.canonical());
        };
        match a.try_select(&self.d.state) {
            Ok(mv) => Ok(self.d.state.move_to_text(mv)),
            Err(f) => engine::bail!("agent {}: {f:?}", agent.spec.canonical()),
        }
    }
}

struct Build(u64);

impl GameVisitor for Build {
    type Output = Box<dyn DynNode>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        Box::new(Node::new(game, self.0))
    }
}

/// The initial node of the game named by `game_string` from `seed`.
///
/// # Errors
/// The game string's error, as the command line gives it.
pub fn new_node(game_string: &str, seed: u64) -> Result<Box<dyn DynNode>, GameError> {
    visit_game(game_string, Build(seed))
}

struct Parse<'a>(&'a str);

impl GameVisitor for Parse<'_> {
    type Output = Result<Box<dyn DynNode>, GameError>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        let s = game.parse_position(self.0)?;
        Ok(Box::new(Node {
            game,
            d: Decisions::new(s),
            history: Vec::new(),
        }))
    }
}

/// The node of `game_string` at the position text `position`.
///
/// # Errors
/// A bad game string or position text.
pub fn parse_node(game_string: &str, position: &str) -> Result<Box<dyn DynNode>, GameError> {
    visit_game(game_string, Parse(position))?
}
