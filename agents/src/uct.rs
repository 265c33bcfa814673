//! Plain UCT: Monte Carlo tree search with UCT selection and random playouts
//! to the end of the game. The baseline every stronger search is measured
//! against; its play is exactly that of the `mcts` agent before the
//! improvements of [`crate::mcts`] (same seeds, same moves).
//!
//! * **Selection** by UCT (Kocsis and Szepesvári 2006): at a seat node, the
//!   child maximising `Q/N + c·sqrt(ln N_parent / N)`, where `Q` is the sum of
//!   the returns of the seat that chose the move; unvisited children first,
//!   in an order shuffled at expansion so that ties do not favour the move
//!   generator's order. Each seat maximises its own return, so 1–4 seats
//!   work the same way.
//! * **Chance** nodes are sampled by their outcome probabilities.
//! * **Expansion** adds all children of a node on its second visit; the
//!   tree lives in one flat arena (`Vec`) reused between moves.
//! * **Playout**: uniformly random moves to the end of the game.
//! * **Final choice**: the root child with most visits.
//!
//! Budgets: `iterations` (reproducible for a seed) and/or `ms` (wall clock,
//! not reproducible); the search stops at whichever comes first.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use engine::spec::{ParamInfo, Params, Spec};
use engine::{GameError, MAX_SEATS, Returns, State, ToMove};

use crate::{Agent, SearchInfo};

/// The parameters of `uct(...)`.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "iterations",
        default: "1000",
        values: "integer >= 1",
        help: "playouts per move",
    },
    ParamInfo {
        name: "c",
        default: "1.4",
        values: "number >= 0",
        help: "UCT exploration constant (returns are in [-1, 1])",
    },
    ParamInfo {
        name: "ms",
        default: "0",
        values: "integer >= 0 (0 = no time limit)",
        help: "wall-clock budget per move in milliseconds (not reproducible)",
    },
];

/// Plain UCT settings.
#[derive(Clone, Debug, PartialEq)]
pub struct UctConfig {
    /// Playouts per move (at most).
    pub iterations: u32,
    /// UCT exploration constant.
    pub c: f64,
    /// Milliseconds per move; 0 for no time limit.
    pub ms: u64,
}

impl Default for UctConfig {
    fn default() -> Self {
        UctConfig {
            iterations: 1000,
            c: 1.4,
            ms: 0,
        }
    }
}

impl UctConfig {
    /// Reads `uct(...)`.
    ///
    /// # Errors
    /// Unknown parameters or bad values.
    pub fn from_spec(spec: &Spec) -> Result<UctConfig, GameError> {
        let p = Params::new("agent uct", spec, PARAMS)?;
        let iterations: u32 = p.parse("iterations")?;
        let c: f64 = p.parse("c")?;
        let ms: u64 = p.parse("ms")?;
        if iterations == 0 {
            engine::bail!("agent uct: iterations=0 is not valid (expected integer >= 1)");
        }
        if !(c.is_finite() && c >= 0.0) {
            engine::bail!("agent uct: c={c} is not valid (expected number >= 0)");
        }
        Ok(UctConfig { iterations, c, ms })
    }

    /// `uct(iterations=..,c=..,ms=..)`.
    pub fn canonical(&self) -> String {
        format!(
            "uct(iterations={},c={},ms={})",
            self.iterations, self.c, self.ms
        )
    }
}

const NO_SEAT: u8 = u8::MAX;

/// One tree node: the move that leads to it and its statistics.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: Option<M>,
    /// Sum of the returns of `mover` over the playouts through this node.
    value: f32,
    visits: u32,
    first_child: u32,
    num_children: u32,
    /// Probability of this outcome, for children of a chance node.
    prob: f32,
    /// The seat that chose `mv` (`NO_SEAT` for chance outcomes and the root).
    mover: u8,
    expanded: bool,
}

/// A UCT agent.
pub struct Uct<S: State> {
    config: UctConfig,
    rng: ChaCha8Rng,
    nodes: Vec<Node<S::Move>>,
    moves: Vec<S::Move>,
    outcomes: Vec<(S::Move, f64)>,
    /// Iterations run for the last move.
    pub last_iterations: u32,
    /// What the last search thought of its chosen move.
    last_info: Option<SearchInfo>,
}

impl<S: State> Uct<S> {
    /// An agent with these settings whose playouts follow `seed`.
    pub fn new(config: UctConfig, seed: u64) -> Self {
        Uct {
            config,
            rng: ChaCha8Rng::seed_from_u64(seed),
            nodes: Vec::new(),
            moves: Vec::new(),
            outcomes: Vec::new(),
            last_iterations: 0,
            last_info: None,
        }
    }

    /// Bytes per tree node for this game's move type.
    pub fn bytes_per_node() -> usize {
        std::mem::size_of::<Node<S::Move>>()
    }

    /// Nodes in the tree after the last search.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    fn expand(&mut self, node: usize, state: &S) {
        let first = self.nodes.len() as u32;
        match state.to_move() {
            ToMove::Seat(seat) => {
                state.legal_moves(&mut self.moves);
                // Shuffle so that unvisited children are tried in random order.
                let n = self.moves.len();
                for i in (1..n).rev() {
                    let j = self.rng.random_range(0..=i);
                    self.moves.swap(i, j);
                }
                for &m in &self.moves {
                    self.nodes.push(Node {
                        mv: Some(m),
                        value: 0.0,
                        visits: 0,
                        first_child: 0,
                        num_children: 0,
                        prob: 1.0,
                        mover: seat as u8,
                        expanded: false,
                    });
                }
            }
            ToMove::Chance => {
                state.chance_outcomes(&mut self.outcomes);
                for &(m, p) in &self.outcomes {
                    self.nodes.push(Node {
                        mv: Some(m),
                        value: 0.0,
                        visits: 0,
                        first_child: 0,
                        num_children: 0,
                        prob: p as f32,
                        mover: NO_SEAT,
                        expanded: false,
                    });
                }
            }
            ToMove::Terminal => {}
        }
        let count = self.nodes.len() as u32 - first;
        let nd = &mut self.nodes[node];
        nd.first_child = first;
        nd.num_children = count;
        nd.expanded = true;
    }

    #[inline]
    fn select_child(&mut self, node: usize, chance: bool) -> usize {
        let nd = self.nodes[node];
        let first = nd.first_child as usize;
        let end = first + nd.num_children as usize;
        if chance {
            let mut x: f32 = self.rng.random();
            for i in first..end {
                if x < self.nodes[i].prob {
                    return i;
                }
                x -= self.nodes[i].prob;
            }
            return end - 1;
        }
        let log_n = (nd.visits.max(1) as f32).ln();
        let c = self.config.c as f32;
        let mut best = first;
        let mut best_score = f32::NEG_INFINITY;
        for i in first..end {
            let ch = &self.nodes[i];
            if ch.visits == 0 {
                return i;
            }
            let n = ch.visits as f32;
            let score = ch.value / n + c * (log_n / n).sqrt();
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    /// Plays uniformly random moves (and samples chance) to the end.
    #[inline]
    fn playout(&mut self, state: &mut S) -> Returns {
        loop {
            let mv = match state.to_move() {
                ToMove::Terminal => return state.returns(),
                ToMove::Chance => state.sample_chance(&mut self.rng, &mut self.outcomes),
                ToMove::Seat(_) => state.sample_legal_move(&mut self.rng, &mut self.moves),
            };
            state.apply(mv.expect("a non-terminal state has a move"));
        }
    }

    fn iterate(&mut self, root: &S, path: &mut Vec<u32>) {
        let mut state = root.clone();
        let mut node = 0usize;
        path.clear();
        path.push(0);
        // Selection.
        while self.nodes[node].expanded && self.nodes[node].num_children > 0 {
            let chance = state.to_move() == ToMove::Chance;
            node = self.select_child(node, chance);
            state.apply(self.nodes[node].mv.expect("children carry moves"));
            path.push(node as u32);
        }
        // Expansion: a node visited before grows its children.
        if !state.is_terminal() && (node == 0 || self.nodes[node].visits > 0) {
            self.expand(node, &state);
            let chance = state.to_move() == ToMove::Chance;
            node = self.select_child(node, chance);
            state.apply(self.nodes[node].mv.expect("children carry moves"));
            path.push(node as u32);
        }
        let r = self.playout(&mut state);
        for &i in path.iter() {
            let nd = &mut self.nodes[i as usize];
            nd.visits += 1;
            if (nd.mover as usize) < MAX_SEATS {
                nd.value += r[nd.mover as usize] as f32;
            }
        }
    }

    /// Runs a search from `state` and returns the most visited root move.
    pub fn search(&mut self, state: &S) -> S::Move {
        self.nodes.clear();
        self.nodes.push(Node {
            mv: None,
            value: 0.0,
            visits: 0,
            first_child: 0,
            num_children: 0,
            prob: 1.0,
            mover: NO_SEAT,
            expanded: false,
        });
        let start = Instant::now();
        let mut path = Vec::with_capacity(64);
        let mut it = 0;
        while it < self.config.iterations {
            self.iterate(state, &mut path);
            it += 1;
            if self.config.ms > 0
                && it % 32 == 0
                && start.elapsed().as_millis() as u64 >= self.config.ms
            {
                break;
            }
        }
        self.last_iterations = it;
        let root = self.nodes[0];
        let children = root.first_child as usize..(root.first_child + root.num_children) as usize;
        let best = children
            .max_by(|&a, &b| {
                let (x, y) = (&self.nodes[a], &self.nodes[b]);
                x.visits.cmp(&y.visits).then(x.value.total_cmp(&y.value))
            })
            .expect("the root of a search has legal moves");
        let mv = self.nodes[best].mv.expect("children carry moves");
        self.last_info = Some(self.info(state, best, mv, start));
        mv
    }

    /// The search's view of its chosen root child `best`: the mean return
    /// of the seat to move through it (0 if never visited) and that as a
    /// win probability.
    fn info(&self, state: &S, best: usize, mv: S::Move, start: Instant) -> SearchInfo {
        let b = self.nodes[best];
        let q = if b.visits > 0 {
            f64::from(b.value) / f64::from(b.visits)
        } else {
            0.0
        };
        let elapsed = start.elapsed();
        SearchInfo {
            depth: None,
            iterations: Some(u64::from(self.last_iterations)),
            score: q,
            score_units: "mean return",
            win_probability: (q + 1.0) / 2.0,
            proven: None,
            nodes: self.nodes.len() as u64,
            elapsed_ms: elapsed.as_millis() as u64,
            rate: f64::from(self.last_iterations) / elapsed.as_secs_f64().max(1e-9),
            pv: vec![state.move_to_text(mv)],
            mb_hits: None,
            pie: None,
        }
    }
}

impl<S: State> Agent<S> for Uct<S> {
    fn select(&mut self, state: &S) -> S::Move {
        self.search(state)
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.last_info.clone()
    }

    fn spec(&self) -> String {
        self.config.canonical()
    }
}
