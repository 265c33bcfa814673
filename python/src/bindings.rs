//! The Python classes and functions of `boardlab._boardlab` (PyO3). Every
//! error is a `ValueError` carrying the command line's one-line message;
//! long work (agents' searches, `VectorGames`) runs with the GIL released.

use std::sync::Mutex;

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use experiments::run::node::{AgentSlot, CHANCE, DynNode, TERMINAL, new_node, parse_node};
use experiments::run::vector::{DynVector, new_vector};

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A game with its parameters fixed, from its game string (`catapult`,
/// `slingshot(size=7)`, `pie(catapult)`).
#[pyclass(name = "Game", module = "boardlab", frozen)]
struct PyGame {
    proto: Box<dyn DynNode>,
}

#[pymethods]
impl PyGame {
    #[new]
    fn new(game: &str) -> PyResult<Self> {
        Ok(PyGame {
            proto: new_node(game, 0).map_err(value_error)?,
        })
    }
    /// The canonical game string, every parameter spelled out.
    #[getter]
    fn name(&self) -> String {
        self.proto.game_string()
    }
    /// Seats (players).
    #[getter]
    fn num_seats(&self) -> usize {
        self.proto.num_seats()
    }
    /// The size of the action space: action ids are `0..num_actions`.
    #[getter]
    fn num_actions(&self) -> usize {
        self.proto.num_actions()
    }
    /// The observation's shape, `(planes, height, width)`.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [p, h, w] = self.proto.observation_shape();
        (p, h, w)
    }
    /// The initial state; games with a random set-up draw it from `seed`.
    #[pyo3(signature = (seed = 0))]
    fn new_initial_state(&self, seed: u64) -> PyState {
        PyState {
            node: self.proto.fresh(seed),
        }
    }
    /// The state at a position text (the `position:` text of `boardlab play`).
    fn parse_position(&self, text: &str) -> PyResult<PyState> {
        Ok(PyState {
            node: parse_node(&self.proto.game_string(), text).map_err(value_error)?,
        })
    }
    fn __repr__(&self) -> String {
        format!("Game({:?})", self.proto.game_string())
    }
}

/// A position, with the action ids already taken of its next move (a
/// move of several decisions, such as Catapult's dagger turn).
#[pyclass(name = "State", module = "boardlab")]
struct PyState {
    node: Box<dyn DynNode>,
}

#[pymethods]
impl PyState {
    /// The canonical game string.
    #[getter]
    fn game(&self) -> String {
        self.node.game_string()
    }
    /// Seats.
    #[getter]
    fn num_seats(&self) -> usize {
        self.node.num_seats()
    }
    /// The size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.node.num_actions()
    }
    /// The seat to move, -1 at a chance node, -4 at the end (OpenSpiel's ids).
    fn current_player(&self) -> i64 {
        self.node.current_player()
    }
    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.node.current_player() == TERMINAL
    }
    /// Whether the next move is a chance outcome.
    fn is_chance_node(&self) -> bool {
        self.node.current_player() == CHANCE
    }
    /// The legal moves in the game's notation (the chance outcomes at a
    /// chance node; empty while a move's decisions are under way).
    fn legal_moves(&self) -> Vec<String> {
        self.node.legal_moves()
    }
    /// The action ids that may be taken next, increasing.
    fn legal_actions(&self) -> Vec<u32> {
        self.node.legal_actions()
    }
    /// A bool array of `num_actions`, true at the legal action ids.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut m = vec![false; self.node.num_actions()];
        for i in self.node.legal_actions() {
            m[i as usize] = true;
        }
        PyArray1::from_vec(py, m)
    }
    /// The action ids of a legal move given as text (one id for most moves).
    fn move_to_actions(&self, text: &str) -> PyResult<Vec<u32>> {
        self.node.move_actions(text).map_err(value_error)
    }
    /// Applies a legal move (or chance outcome) given as text.
    fn apply(&mut self, text: &str) -> PyResult<()> {
        self.node.apply_text(text).map_err(value_error)
    }
    /// Takes one action id (a whole move, or one decision of a longer one).
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        self.node.apply_action(action).map_err(value_error)
    }
    /// The chance outcomes: `(action id, probability)` pairs.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        self.node
            .chance_outcomes()
            .into_iter()
            .map(|(_, id, p)| (id, p))
            .collect()
    }
    /// The chance outcomes as `(text, probability)` pairs.
    fn chance_moves(&self) -> Vec<(String, f64)> {
        self.node
            .chance_outcomes()
            .into_iter()
            .map(|(t, _, p)| (t, p))
            .collect()
    }
    /// Returns per seat: 1 win, -1 loss, 0 draw (a one-seat game: its score).
    fn returns(&self) -> Vec<f64> {
        self.node.returns()
    }
    /// The observation from the seat to move, float32 `(planes, height, width)`.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let [p, h, w] = self.node.observation_shape();
        let mut v = vec![0.0f32; p * h * w];
        self.node.observe(&mut v);
        Ok(PyArray1::from_vec(py, v).reshape([p, h, w])?.into_any())
    }
    /// The position text.
    fn position(&self) -> String {
        self.node.to_text()
    }
    /// The board for people, as `boardlab show` prints it.
    fn board(&self) -> String {
        self.node.board_text()
    }
    /// The board as an SVG picture (None where the game draws none).
    fn svg(&self) -> Option<String> {
        self.node.svg()
    }
    /// Action ids already taken of the next move.
    fn pending_actions(&self) -> Vec<u32> {
        self.node.pending()
    }
    /// Plies played.
    fn ply(&self) -> u32 {
        self.node.ply()
    }
    /// The moves played since the initial state (or the parsed position), as text.
    fn history(&self) -> Vec<String> {
        self.node.history()
    }
    /// The team of `seat` in team games (0 or 1), else None.
    fn team(&self, seat: usize) -> Option<usize> {
        if seat < self.node.num_seats() {
            self.node.team(seat)
        } else {
            None
        }
    }
    /// A copy.
    fn clone(&self) -> PyState {
        PyState {
            node: self.node.clone_box(),
        }
    }
    fn __copy__(&self) -> PyState {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }
    fn __str__(&self) -> String {
        self.node.board_text()
    }
    fn __repr__(&self) -> String {
        format!(
            "State({:?}, {:?})",
            self.node.game_string(),
            self.node.to_text()
        )
    }
}

/// An agent from its spec (`random`, `mcts(ms=100)`, `alphabeta(depth=4)`,
/// ...), built for each game it is asked to play. `game` (a game string)
/// reads the spec in that game: its search defaults and, for alpha-beta,
/// its evaluation weights (`alphabeta(w_range=3)` needs `game="catapult"`).
#[pyclass(name = "Agent", module = "boardlab", frozen)]
struct PyAgent {
    slot: Mutex<AgentSlot>,
    spec: String,
}

#[pymethods]
impl PyAgent {
    #[new]
    #[pyo3(signature = (spec, seed = 0, game = None))]
    fn new(spec: &str, seed: u64, game: Option<&str>) -> PyResult<Self> {
        let slot = AgentSlot::new(spec, seed, game).map_err(value_error)?;
        let spec = slot.spec.canonical();
        Ok(PyAgent {
            slot: Mutex::new(slot),
            spec,
        })
    }
    /// The canonical spec.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }
    /// The agent's move for the seat to move, as text (apply it with
    /// `State.apply`). Searches run with the GIL released.
    fn select(&self, py: Python<'_>, state: &PyState) -> PyResult<String> {
        let node = state.node.clone_box();
        py.detach(|| {
            let mut slot = self
                .slot
                .lock()
                .map_err(|_| value_error("agent: poisoned by an earlier failure"))?;
            node.select(&mut slot).map_err(value_error)
        })
    }
    fn __repr__(&self) -> String {
        format!("Agent({:?})", self.spec)
    }
}

/// `n` games stepped at once in Rust (rayon, GIL released); chance
/// outcomes are drawn inside, finished games are replaced.
#[pyclass(name = "VectorGames", module = "boardlab")]
struct PyVectorGames {
    v: Box<dyn DynVector>,
}

fn actions_of(a: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    if let Ok(arr) = a.extract::<PyReadonlyArray1<'_, i64>>() {
        return Ok(arr.as_slice().map_err(value_error)?.to_vec());
    }
    a.extract::<Vec<i64>>()
        .map_err(|_| value_error("actions: expected a 1-d array or list of integers, one per game"))
}

#[pymethods]
impl PyVectorGames {
    #[new]
    #[pyo3(signature = (game, n, seed = 0))]
    fn new(game: &str, n: usize, seed: u64) -> PyResult<Self> {
        Ok(PyVectorGames {
            v: new_vector(game, n, seed).map_err(value_error)?,
        })
    }
    /// The number of games.
    #[getter]
    fn n(&self) -> usize {
        self.v.len()
    }
    /// Seats per game.
    #[getter]
    fn num_seats(&self) -> usize {
        self.v.num_seats()
    }
    /// The size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.v.num_actions()
    }
    /// The observation's `(planes, height, width)`.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [p, h, w] = self.v.observation_shape();
        (p, h, w)
    }
    /// The canonical game string.
    #[getter]
    fn game(&self) -> String {
        self.v.game_string()
    }
    /// Every game's observation, float32 `(n, planes, height, width)`.
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let [p, h, w] = self.v.observation_shape();
        let n = self.v.len();
        let v = &self.v;
        let out = py.detach(|| {
            let mut o = vec![0.0f32; n * p * h * w];
            v.observe_all(&mut o);
            o
        });
        Ok(PyArray1::from_vec(py, out)
            .reshape([n, p, h, w])?
            .into_any())
    }
    /// The legal-action masks, bool `(n, num_actions)`.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (n, a) = (self.v.len(), self.v.num_actions());
        let v = &self.v;
        let out = py.detach(|| {
            let mut m = vec![false; n * a];
            v.mask(&mut m);
            m
        });
        Ok(PyArray1::from_vec(py, out).reshape([n, a])?.into_any())
    }
    /// One uniformly random legal action per game, int64 `(n,)`.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let n = self.v.len();
        let v = &mut self.v;
        let out = py.detach(|| {
            let mut a = vec![0i64; n];
            v.sample(&mut a);
            a
        });
        PyArray1::from_vec(py, out)
    }
    /// The seat to move in each game, int64 `(n,)`.
    fn to_play<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut out = vec![0i64; self.v.len()];
        self.v.to_play(&mut out);
        PyArray1::from_vec(py, out)
    }
    /// Takes one action per game. Returns `(observations, rewards, dones)`:
    /// float32 `(n, planes, height, width)` of the games as they now stand
    /// (a finished game already replaced by a new one), float32
    /// `(n, num_seats)` each seat's return on the step that ended its game
    /// (else 0), bool `(n,)`. An illegal action raises ValueError and moves
    /// no game.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let acts = actions_of(actions)?;
        let [p, h, w] = self.v.observation_shape();
        let (n, s) = (self.v.len(), self.v.num_seats());
        let v = &mut self.v;
        let (obs, rew, done) = py
            .detach(|| {
                let mut obs = vec![0.0f32; n * p * h * w];
                let mut rew = vec![0.0f32; n * s];
                let mut done = vec![false; n];
                v.step(&acts, &mut obs, &mut rew, &mut done)
                    .map(|()| (obs, rew, done))
            })
            .map_err(value_error)?;
        Ok((
            PyArray1::from_vec(py, obs)
                .reshape([n, p, h, w])?
                .into_any(),
            PyArray1::from_vec(py, rew).reshape([n, s])?.into_any(),
            PyArray1::from_vec(py, done).into_any(),
        ))
    }
    fn __len__(&self) -> usize {
        self.v.len()
    }
}

/// Every game's name, description and parameters (`boardlab games`):
/// a list of `(name, description)` pairs, the `pie` wrapper last.
#[pyfunction]
fn games() -> Vec<(String, String)> {
    engine::registry::GAMES
        .iter()
        .chain(engine::registry::WRAPPERS)
        .map(|g| (g.name.to_string(), g.description.to_string()))
        .collect()
}

/// Replays `moves` (text, in order) from the initial state of `game` with
/// `seed` in Rust (the engine's record replay), returning the state.
#[pyfunction]
#[pyo3(signature = (game, moves, seed = 0))]
fn replay(game: &str, moves: Vec<String>, seed: u64) -> PyResult<PyState> {
    let mut node = new_node(game, seed).map_err(value_error)?;
    for (i, m) in moves.iter().enumerate() {
        node.apply_text(m)
            .map_err(|e| value_error(format!("move {} of the record: {e}", i + 1)))?;
    }
    Ok(PyState { node })
}

/// Plays a tournament (the `boardlab tournament` library call) and writes
/// its CSV to `out`, resuming a run of the same configuration there and
/// refusing another one, as the command does; returns the CSV's path. `boardlab.tournament` reads
/// the rows back.
#[pyfunction]
#[pyo3(signature = (game, agents, games, out, seed = 0, threads = 0))]
fn tournament_csv(
    py: Python<'_>,
    game: &str,
    agents: Vec<String>,
    games: u32,
    out: std::path::PathBuf,
    seed: u64,
    threads: usize,
) -> PyResult<String> {
    let mut args = experiments::run::TournamentArgs::new(game, &agents, games, seed, out.clone());
    args.threads = threads;
    args.keep_records = false;
    py.detach(|| experiments::run::run(&args))
        .map_err(|e| value_error(format!("{e:#}")))?;
    Ok(out.to_string_lossy().into_owned())
}

/// The names of the agents and a one-line list of their parameters.
#[pyfunction]
#[pyo3(name = "agents")]
fn agent_names(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let rows: Vec<String> = ::agents::AGENTS
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    PyList::new(py, rows)
}

#[pymodule]
fn _boardlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_class::<PyAgent>()?;
    m.add_class::<PyVectorGames>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(agent_names, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(tournament_csv, m)?)?;
    Ok(())
}
