//! Monte Carlo tree search: UCT with early playout termination, an
//! MCTS-Solver, subtree reuse and a memory bound. Plain UCT, the baseline,
//! is [`crate::uct`].
//!
//! * **Selection** by UCT (Kocsis and Szepesvári 2006): at a seat node, the
//!   child maximising `Q/N + c·sqrt(ln N_parent / N)`, where `Q` is the sum of
//!   the returns of the seat that chose the move (max^n: each seat maximises
//!   its own return, so 1–4 seats work the same way); unvisited children
//!   first, in an order shuffled at expansion. A child whose value is proven
//!   counts with its exact value and no exploration bonus.
//! * **Chance** nodes are sampled by their outcome probabilities.
//! * **Expansion** adds all children of a node on its second visit (the
//!   root at once), unless the tree has reached its memory bound `mb`: then
//!   the leaf is played out without growing the tree, and the hit is
//!   counted ([`Mcts::last_mb_hits`]).
//! * **Playout** with early termination (Lorentz 2008, "Amazons discover
//!   Monte-Carlo"): uniformly random moves for `cutoff` plies of a seat
//!   (chance outcomes are sampled and do not count), then the game's
//!   [`Search::evaluate`] `v` for the seat `s` to move is mapped to a return
//!   `x = 2·σ(v/scale) − 1 = tanh(v / 2·scale)` in (−1, 1): seat `s` gets
//!   `x`, every other seat `−x/(n−1)` (zero-sum). `scale` defaults to the
//!   game's [`Search::eval_scale`]. `cutoff=end` plays to the end of the game.
//! * **MCTS-Solver** (Winands, Björnsson and Saito 2008), generalised to
//!   max^n and chance: a terminal node is proven with its returns; a seat
//!   node is proven as soon as one child is proven to win for the seat to
//!   move (return 1), or once every child is proven (the child best for the
//!   seat to move), unless children equally good for it differ for another
//!   seat: with three or four seats a seat that cannot win may be
//!   indifferent between moves that decide who else wins, and no one
//!   outcome follows (such a node stays unproven; it is searched on and
//!   backed up by its visits); a chance node once
//!   every outcome is proven (the expected returns). **Distances** are
//!   backed up with the proofs: a terminal node is 0 plies from the end; a
//!   node won for the mover one ply more than its quickest proven winning
//!   child, a node proven otherwise one more than its best child (among
//!   equal values a loss the slowest, others the quickest); a chance node
//!   one more than its longest outcome. A node's distance is that of the
//!   proof found (a quicker win proven later below a proven node is not
//!   seen), and the root's is refined: the search stops when the root is
//!   proven, except a win in more than one ply with unproven root moves,
//!   where it goes on among those (the budget allowing) for a quicker win.
//! * **Final choice**: a child proven to win for the mover first (the
//!   quickest), then the unproven and proven-drawn children by visits
//!   (then mean value; two proven children by their proven value), proven
//!   losses last (the slowest); never the exploration bonus.
//! * **Subtree reuse**: after a move, the subtree under the position the
//!   game reached (found by Zobrist key and ply up to 4 plies below the old
//!   root) becomes the new tree, keeping its statistics and proofs.
//!
//! * **Root win search** (`minimax=N`; a hybrid of MCTS and minimax after
//!   Baier and Winands, "MCTS-minimax hybrids", 2015: minimax in the
//!   selection step, here at the root once per move): in two-seat games
//!   with the solver, before the iterations, plain full-width minimax over
//!   1, 2, … N plies proves the root's quickest forced win within N plies
//!   (the search then stops at once and plays it), or else marks the root
//!   moves after which the opponent forces a win within N − 1 plies as
//!   proven losses (at the first such distance); at most [`MINIMAX_NODES`]
//!   positions per move, and its time counts against `ms` (it stops,
//!   proving nothing more, when `ms` is spent). Generic default 0 (off);
//!   3 on the games of the tactics set (their
//!   [`SearchDefaults::mcts_minimax`]), where it finds every win of
//!   agents/tests/data/tactics.txt (35 of 35 at 20,000 iterations, 29
//!   without) and costs no measurable strength at equal time
//!   (results/minimax-equal-time: 100 ms a move, 200 to 600 games a game,
//!   every interval holding 0).
//!
//! Budgets: `iterations` (reproducible for a seed, with `ms=0`), `ms` (wall
//! clock, not reproducible) and `mb` (tree memory); the search stops at the
//! first of `iterations` and `ms`. Given only `ms`, there is no iteration
//! cap (`iterations=0`).

use std::collections::VecDeque;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use engine::spec::{ParamInfo, Params, Spec};
use engine::{GameError, MAX_SEATS, Returns, Search, SearchDefaults, State, ToMove};

use crate::{Agent, SearchInfo};

/// The parameters of `mcts(...)`.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "iterations",
        default: "1000",
        values: "integer >= 0 (0 = no cap; the default is 0 when only ms is given)",
        help: "iterations per move",
    },
    ParamInfo {
        name: "c",
        default: "0.7",
        values: "number >= 0",
        help: "UCT exploration constant (returns are in [-1, 1])",
    },
    ParamInfo {
        name: "ms",
        default: "0",
        values: "integer >= 0 (0 = no time limit)",
        help: "wall-clock budget per move in milliseconds (not reproducible)",
    },
    ParamInfo {
        name: "mb",
        default: "256",
        values: "integer 1..=65536",
        help: "tree memory bound in MiB",
    },
    ParamInfo {
        name: "cutoff",
        default: "4",
        values: "integer 0..=10000, or end",
        help: "random playout plies before the evaluation scores the position (end = play to the end)",
    },
    ParamInfo {
        name: "scale",
        default: "auto",
        values: "number > 0, or auto (the game's eval_scale)",
        help: "evaluation units per logistic unit: win probability = 1/(1+exp(-eval/scale))",
    },
    ParamInfo {
        name: "solver",
        default: "true",
        values: "true|false",
        help: "back up proven wins and losses (MCTS-Solver)",
    },
    ParamInfo {
        name: "reuse",
        default: "true",
        values: "true|false",
        help: "keep the subtree of the position reached between moves",
    },
    ParamInfo {
        name: "minimax",
        default: "0",
        values: "integer 0..=5 (plies; 0 = off)",
        help: "two seats, with solver=true: before the iterations, an exhaustive win search of this many plies proves the root's quickest forced win and the root moves the opponent then wins by (at most 1,000,000 positions)",
    },
];

/// Positions the root's win search (`minimax`) may visit in one search;
/// past it the search proves nothing more.
pub const MINIMAX_NODES: u64 = 1_000_000;

/// MCTS settings.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations per move (at most); 0 for no cap (then `ms` must be set).
    pub iterations: u32,
    /// UCT exploration constant.
    pub c: f64,
    /// Milliseconds per move; 0 for no time limit.
    pub ms: u64,
    /// Tree memory bound in MiB.
    pub mb: u32,
    /// Random plies before the evaluation; `None` plays to the end.
    pub cutoff: Option<u32>,
    /// Evaluation units per logistic unit; `None` takes the game's
    /// [`Search::eval_scale`].
    pub scale: Option<f64>,
    /// MCTS-Solver backups.
    pub solver: bool,
    /// Subtree reuse between moves.
    pub reuse: bool,
    /// Plies of the root's exhaustive win search; 0 for none.
    pub minimax: u32,
    /// The game's default `minimax` ([`SearchDefaults::mcts_minimax`]):
    /// where it is not 0, [`MctsConfig::canonical`] writes `minimax` even
    /// when 0, so the string says what was played.
    pub game_minimax: u32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: 1000,
            c: 0.7,
            ms: 0,
            mb: 256,
            cutoff: Some(4),
            scale: None,
            solver: true,
            reuse: true,
            minimax: 0,
            game_minimax: 0,
        }
    }
}

impl MctsConfig {
    /// Reads `mcts(...)` with the generic defaults.
    ///
    /// # Errors
    /// Unknown parameters, bad or out-of-range values, no budget.
    pub fn from_spec(spec: &Spec) -> Result<MctsConfig, GameError> {
        MctsConfig::from_spec_with(spec, &SearchDefaults::default())
    }

    /// Reads `mcts(...)` for a game with defaults `game`: a `cutoff`, `c`,
    /// `scale`, `solver` or `minimax` left out is the game's
    /// ([`SearchDefaults::playout_cutoff`], [`SearchDefaults::mcts_c`],
    /// [`SearchDefaults::mcts_scale`], [`SearchDefaults::mcts_solver`],
    /// [`SearchDefaults::mcts_minimax`]); `scale=auto` is the game's
    /// evaluation scale.
    ///
    /// # Errors
    /// As [`MctsConfig::from_spec`].
    pub fn from_spec_with(spec: &Spec, game: &SearchDefaults) -> Result<MctsConfig, GameError> {
        let p = Params::new("agent mcts", spec, PARAMS)?;
        let ms: u64 = p.parse("ms")?;
        let iterations: u32 = if !p.given("iterations") && ms > 0 {
            0
        } else {
            p.parse("iterations")?
        };
        if iterations == 0 && ms == 0 {
            engine::bail!(
                "agent mcts: iterations=0 needs a time budget ms > 0 (expected iterations >= 1 or ms >= 1)"
            );
        }
        let c: f64 = if p.given("c") {
            p.parse("c")?
        } else {
            game.mcts_c
        };
        if !(c.is_finite() && c >= 0.0) {
            engine::bail!("agent mcts: c={c} is not valid (expected number >= 0)");
        }
        let mb: u32 = p.parse("mb")?;
        if !(1..=65536).contains(&mb) {
            engine::bail!("agent mcts: mb={mb} is not valid (expected integer 1..=65536)");
        }
        let cutoff = match p.text("cutoff") {
            _ if !p.given("cutoff") => game.playout_cutoff,
            "end" => None,
            t => match t.parse::<u32>() {
                Ok(n) if n <= 10000 => Some(n),
                _ => engine::bail!(
                    "agent mcts: cutoff={t} is not valid (expected integer 0..=10000, or end)"
                ),
            },
        };
        let scale = match p.text("scale") {
            _ if !p.given("scale") => game.mcts_scale,
            "auto" => None,
            t => match t.parse::<f64>() {
                Ok(x) if x.is_finite() && x > 0.0 => Some(x),
                _ => engine::bail!(
                    "agent mcts: scale={t} is not valid (expected number > 0, or auto)"
                ),
            },
        };
        let solver = if p.given("solver") {
            p.choice("solver", &[("true", true), ("false", false)])?
        } else {
            game.mcts_solver
        };
        let reuse = p.choice("reuse", &[("true", true), ("false", false)])?;
        let minimax: u32 = if p.given("minimax") {
            p.parse("minimax")?
        } else {
            game.mcts_minimax
        };
        if minimax > 5 {
            engine::bail!("agent mcts: minimax={minimax} is not valid (expected integer 0..=5)");
        }
        Ok(MctsConfig {
            iterations,
            c,
            ms,
            mb,
            cutoff,
            scale,
            solver,
            reuse,
            minimax,
            game_minimax: game.mcts_minimax,
        })
    }

    /// `mcts(iterations=..,c=..,ms=..,mb=..,cutoff=..,scale=..,solver=..,reuse=..)`,
    /// then `minimax=..` where it is not 0 or the game's default is not 0
    /// (so that the specs of the runs made before it existed are
    /// unchanged; `minimax=0` and no `minimax` are one agent to
    /// [`crate::spec_key`]).
    pub fn canonical(&self) -> String {
        let minimax = if self.minimax > 0 || self.game_minimax > 0 {
            format!(",minimax={}", self.minimax)
        } else {
            String::new()
        };
        format!(
            "mcts(iterations={},c={},ms={},mb={},cutoff={},scale={},solver={},reuse={}{minimax})",
            self.iterations,
            self.c,
            self.ms,
            self.mb,
            self.cutoff.map_or("end".to_string(), |n| n.to_string()),
            self.scale.map_or("auto".to_string(), |x| x.to_string()),
            self.solver,
            self.reuse
        )
    }
}

const NO_SEAT: u8 = u8::MAX;

/// One tree node: the move that leads to it and its statistics.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: Option<M>,
    /// Sum of the returns of `mover` over the iterations through this node.
    value: f32,
    visits: u32,
    first_child: u32,
    num_children: u32,
    /// Children before `first_child + unvisited_from` are all visited or proven:
    /// where selection starts looking for an unvisited child, so that a
    /// node with many children (Slingshot's 1,176 set-up moves) does not
    /// score every visited child again before each new one.
    unvisited_from: u32,
    /// Probability of this outcome, for children of a chance node.
    prob: f32,
    /// The seat that chose `mv` (`NO_SEAT` for chance outcomes and the root).
    mover: u8,
    expanded: bool,
    /// Whether `proven` holds the exact game value (MCTS-Solver).
    solved: bool,
    /// The proven returns per seat when `solved`.
    proven: [f32; MAX_SEATS],
    /// Plies to the end of the game along the proof when `solved`: 0 at a
    /// terminal state; a win for the mover one more than its quickest
    /// proven winning child, a loss one more than its slowest child.
    dist: u16,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, prob: f32, mover: u8) -> Self {
        Node {
            mv,
            value: 0.0,
            visits: 0,
            first_child: 0,
            num_children: 0,
            unvisited_from: 0,
            prob,
            mover,
            expanded: false,
            solved: false,
            proven: [0.0; MAX_SEATS],
            dist: 0,
        }
    }
}

/// An MCTS agent.
pub struct Mcts<S: State + Search> {
    config: MctsConfig,
    rng: ChaCha8Rng,
    nodes: Vec<Node<S::Move>>,
    moves: Vec<S::Move>,
    outcomes: Vec<(S::Move, f64)>,
    /// The state at the root of `nodes`, for subtree reuse.
    root_state: Option<S>,
    max_nodes: usize,
    scale: f64,
    /// Iterations run for the last move.
    pub last_iterations: u32,
    /// Times the memory bound stopped an expansion during the last move.
    pub last_mb_hits: u64,
    /// Root visits taken over from the previous move's tree.
    pub last_reused: u32,
    /// The root is proven a win, not in one ply, with unproven children
    /// left: the search goes on among those for a quicker win.
    root_open: bool,
    /// The root's win search proved its quickest win: no need to go on.
    root_exact: bool,
    /// Positions the root's win search visited for the last move.
    pub last_minimax_nodes: u64,
    last_info: Option<SearchInfo>,
}

impl<S: State + Search> Mcts<S> {
    /// An agent with these settings whose playouts follow `seed`.
    pub fn new(config: MctsConfig, seed: u64) -> Self {
        let max_nodes = (config.mb as usize * 1024 * 1024 / Self::bytes_per_node()).max(2);
        Mcts {
            config,
            rng: ChaCha8Rng::seed_from_u64(seed),
            nodes: Vec::new(),
            moves: Vec::new(),
            outcomes: Vec::new(),
            root_state: None,
            max_nodes,
            scale: 100.0,
            last_iterations: 0,
            last_mb_hits: 0,
            last_reused: 0,
            root_open: false,
            root_exact: false,
            last_minimax_nodes: 0,
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

    /// The largest number of nodes the memory bound allows.
    pub fn max_nodes(&self) -> usize {
        self.max_nodes
    }

    /// The proven returns of the root after the last search, if solved.
    pub fn root_proven(&self) -> Option<Returns> {
        let root = self.nodes.first()?;
        root.solved.then(|| {
            let mut r = [0.0; MAX_SEATS];
            for (x, &p) in r.iter_mut().zip(&root.proven) {
                *x = p as f64;
            }
            r
        })
    }

    /// Adds the children of `node`; false (and nothing added) when the
    /// memory bound would be passed.
    fn expand(&mut self, node: usize, state: &S) -> bool {
        let first = self.nodes.len() as u32;
        match state.to_move() {
            ToMove::Seat(seat) => {
                state.legal_moves(&mut self.moves);
                if self.nodes.len() + self.moves.len() > self.max_nodes {
                    return false;
                }
                let n = self.moves.len();
                for i in (1..n).rev() {
                    let j = self.rng.random_range(0..=i);
                    self.moves.swap(i, j);
                }
                for &m in &self.moves {
                    self.nodes.push(Node::new(Some(m), 1.0, seat as u8));
                }
            }
            ToMove::Chance => {
                state.chance_outcomes(&mut self.outcomes);
                if self.nodes.len() + self.outcomes.len() > self.max_nodes {
                    return false;
                }
                for &(m, p) in &self.outcomes {
                    self.nodes.push(Node::new(Some(m), p as f32, NO_SEAT));
                }
            }
            ToMove::Terminal => {}
        }
        let count = self.nodes.len() as u32 - first;
        let nd = &mut self.nodes[node];
        nd.first_child = first;
        nd.num_children = count;
        nd.expanded = true;
        true
    }

    #[inline]
    fn select_child(&mut self, node: usize, chance: bool, skip_solved: bool) -> usize {
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
        // The first unvisited child that is not proven, in child order, is
        // taken before any score is compared (as the scan below would).
        let mut i = first + nd.unvisited_from as usize;
        while i < end && (self.nodes[i].solved || self.nodes[i].visits > 0) {
            i += 1;
        }
        self.nodes[node].unvisited_from = (i - first) as u32;
        if i < end {
            return i;
        }
        let log_n = (nd.visits.max(1) as f32).ln();
        let c = self.config.c as f32;
        let mut best = first;
        let mut best_score = f32::NEG_INFINITY;
        for i in first..end {
            let ch = &self.nodes[i];
            if skip_solved && ch.solved {
                continue;
            }
            let score = if ch.solved {
                ch.proven[ch.mover as usize]
            } else if ch.visits == 0 {
                return i;
            } else {
                let n = ch.visits as f32;
                ch.value / n + c * (log_n / n).sqrt()
            };
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    /// The returns of a non-terminal state scored by the evaluation.
    fn eval_returns(&self, state: &S, seat: usize) -> Returns {
        let v = state.evaluate() as f64;
        let x = (v / (2.0 * self.scale)).tanh();
        let n = state.num_seats();
        let mut r = [0.0; MAX_SEATS];
        for (s, rs) in r.iter_mut().enumerate().take(n) {
            *rs = if s == seat {
                x
            } else {
                -x / (n - 1).max(1) as f64
            };
        }
        r
    }

    /// Random moves (and sampled chance) for `cutoff` seat plies, then the
    /// evaluation; or to the end.
    #[inline]
    fn playout(&mut self, state: &mut S) -> Returns {
        let mut plies = 0u32;
        loop {
            let mv = match state.to_move() {
                ToMove::Terminal => return state.returns(),
                ToMove::Chance => state.sample_chance(&mut self.rng, &mut self.outcomes),
                ToMove::Seat(s) => {
                    if let Some(c) = self.config.cutoff
                        && plies >= c
                    {
                        return self.eval_returns(state, s);
                    }
                    plies += 1;
                    state.sample_legal_move(&mut self.rng, &mut self.moves)
                }
            };
            state.apply(mv.expect("a non-terminal state has a move"));
        }
    }

    /// Marks `node` proven if its children prove it, with the proof's
    /// distance ([`Node::dist`]); true if it is. A node already proven is
    /// proven again, so that a quicker win proven later shortens it.
    fn try_solve(&mut self, node: usize) -> bool {
        let nd = self.nodes[node];
        if !nd.expanded || nd.num_children == 0 {
            return false;
        }
        let first = nd.first_child as usize;
        let end = first + nd.num_children as usize;
        let mover = self.nodes[first].mover;
        let mut proven = [0.0f32; MAX_SEATS];
        let dist;
        if mover == NO_SEAT {
            let mut far = 0u16;
            for i in first..end {
                let ch = &self.nodes[i];
                if !ch.solved {
                    return false;
                }
                for (p, &x) in proven.iter_mut().zip(&ch.proven) {
                    *p += ch.prob * x;
                }
                far = far.max(ch.dist);
            }
            // The longest outcome: a bound on the plies left.
            dist = far;
        } else {
            let m = mover as usize;
            let mut all = true;
            let mut win: Option<usize> = None;
            let mut best: Option<usize> = None;
            for i in first..end {
                let ch = &self.nodes[i];
                if !ch.solved {
                    all = false;
                    continue;
                }
                if ch.proven[m] >= 1.0 {
                    // The quickest proven win.
                    if win.is_none_or(|w| ch.dist < self.nodes[w].dist) {
                        win = Some(i);
                    }
                    continue;
                }
                if best.is_none_or(|b| self.better_proof(i, b, m)) {
                    best = Some(i);
                }
            }
            let pick = match win {
                Some(w) => w,
                None if all => {
                    let b = best.expect("a node with children");
                    // With more than two seats a seat that cannot win may
                    // be indifferent between moves that decide who else
                    // wins: its best value then names no one outcome, and
                    // the node stays unproven (only two seats, or equal
                    // outcomes, make the choice certain).
                    let v = self.nodes[b].proven;
                    let open = (first..end).any(|i| {
                        let p = self.nodes[i].proven;
                        p[m] == v[m] && p != v
                    });
                    if open {
                        return false;
                    }
                    b
                }
                None => return false,
            };
            proven = self.nodes[pick].proven;
            dist = self.nodes[pick].dist;
        }
        let nd = &mut self.nodes[node];
        nd.solved = true;
        nd.proven = proven;
        nd.dist = dist.saturating_add(1);
        true
    }

    /// Whether proven child `a` is better than proven child `b` for seat
    /// `m`: the higher value; among equal values a win the quicker, a loss
    /// (or any value below zero) the slower, otherwise the quicker.
    fn better_proof(&self, a: usize, b: usize, m: usize) -> bool {
        let (x, y) = (&self.nodes[a], &self.nodes[b]);
        if x.proven[m] != y.proven[m] {
            return x.proven[m] > y.proven[m];
        }
        if x.proven[m] < 0.0 {
            x.dist > y.dist
        } else {
            x.dist < y.dist
        }
    }

    fn iterate(&mut self, root: &S, path: &mut Vec<u32>) {
        let mut state = root.clone();
        let mut node = 0usize;
        path.clear();
        path.push(0);
        let r: Returns = loop {
            let nd = self.nodes[node];
            if nd.solved && !(node == 0 && self.root_open) {
                let mut r = [0.0; MAX_SEATS];
                for (x, &p) in r.iter_mut().zip(&nd.proven) {
                    *x = p as f64;
                }
                break r;
            }
            if !nd.expanded {
                if state.is_terminal() {
                    let r = state.returns();
                    if self.config.solver {
                        let n = &mut self.nodes[node];
                        n.solved = true;
                        n.dist = 0;
                        for (p, &x) in n.proven.iter_mut().zip(&r) {
                            *p = x as f32;
                        }
                    }
                    break r;
                }
                if !(node == 0 || nd.visits > 0) {
                    break self.playout(&mut state);
                }
                if !self.expand(node, &state) {
                    self.last_mb_hits += 1;
                    break self.playout(&mut state);
                }
            }
            let chance = state.to_move() == ToMove::Chance;
            node = self.select_child(node, chance, node == 0 && self.root_open);
            state.apply(self.nodes[node].mv.expect("children carry moves"));
            path.push(node as u32);
        };
        for &i in path.iter() {
            let nd = &mut self.nodes[i as usize];
            nd.visits += 1;
            if (nd.mover as usize) < MAX_SEATS {
                nd.value += r[nd.mover as usize] as f32;
            }
        }
        if self.config.solver {
            for &i in path.iter().rev() {
                let i = i as usize;
                if self.nodes[i].solved && i != 0 {
                    continue;
                }
                if !self.try_solve(i) {
                    break;
                }
            }
        }
    }

    /// Finds `state` in the old tree (up to 4 plies below its root) and
    /// makes that node the root of a compacted tree. False if not found.
    fn reroot(&mut self, state: &S) -> bool {
        let Some(old) = self.root_state.take() else {
            return false;
        };
        if self.nodes.is_empty() || state.ply() < old.ply() || state.ply() > old.ply() + 4 {
            return false;
        }
        let (key, ply) = (state.zobrist(), state.ply());
        let mut found = None;
        let mut queue: VecDeque<(usize, S)> = VecDeque::new();
        queue.push_back((0, old));
        while let Some((i, st)) = queue.pop_front() {
            if st.ply() == ply {
                if st.zobrist() == key && st.to_text() == state.to_text() {
                    found = Some(i);
                    break;
                }
                continue;
            }
            let nd = self.nodes[i];
            if !nd.expanded {
                continue;
            }
            for c in nd.first_child as usize..(nd.first_child + nd.num_children) as usize {
                let mut child = st.clone();
                child.apply(self.nodes[c].mv.expect("children carry moves"));
                queue.push_back((c, child));
            }
        }
        // A node proven by the root win search has no subtree (it was
        // proven without one): nothing to reuse and no move to choose.
        let Some(start) = found.filter(|&i| self.nodes[i].expanded) else {
            return false;
        };
        let mut fresh: Vec<Node<S::Move>> = Vec::with_capacity(self.nodes.len());
        let mut root = self.nodes[start];
        root.mv = None;
        root.mover = NO_SEAT;
        root.prob = 1.0;
        fresh.push(root);
        let mut queue = VecDeque::new();
        queue.push_back((start, 0usize));
        while let Some((old_i, new_i)) = queue.pop_front() {
            let nd = self.nodes[old_i];
            if !nd.expanded {
                continue;
            }
            let first = fresh.len();
            for c in nd.first_child as usize..(nd.first_child + nd.num_children) as usize {
                fresh.push(self.nodes[c]);
                queue.push_back((c, fresh.len() - 1));
            }
            fresh[new_i].first_child = first as u32;
        }
        self.nodes = fresh;
        true
    }

    fn root_child_order(&self, a: usize, b: usize, me: usize) -> std::cmp::Ordering {
        let class = |n: &Node<S::Move>| -> i32 {
            if !n.solved {
                1
            } else if n.proven[me] >= 1.0 {
                2
            } else if n.proven[me] <= -1.0 {
                0
            } else {
                1
            }
        };
        let (x, y) = (&self.nodes[a], &self.nodes[b]);
        let exact = if x.solved && y.solved {
            // Equal values: a win the quicker, a loss the slower.
            let by_dist = if x.proven[me] < 0.0 {
                x.dist.cmp(&y.dist)
            } else {
                y.dist.cmp(&x.dist)
            };
            x.proven[me].total_cmp(&y.proven[me]).then(by_dist)
        } else {
            std::cmp::Ordering::Equal
        };
        class(x)
            .cmp(&class(y))
            .then(exact)
            .then(x.visits.cmp(&y.visits))
            .then(x.value.total_cmp(&y.value))
    }

    /// The best root child by the final-choice rule.
    fn best_root_child(&self, me: usize) -> usize {
        let root = self.nodes[0];
        (root.first_child as usize..(root.first_child + root.num_children) as usize)
            .max_by(|&a, &b| self.root_child_order(a, b, me))
            .expect("the root of a search has legal moves")
    }

    /// The most visited line from the root (proven wins first), as text.
    fn principal_line(&self, state: &S) -> Vec<String> {
        let mut st = state.clone();
        let mut node = 0usize;
        let mut line = Vec::new();
        while line.len() < 16 {
            let nd = self.nodes[node];
            if !nd.expanded || nd.num_children == 0 {
                break;
            }
            let me = match st.to_move() {
                ToMove::Seat(s) => s,
                _ => break,
            };
            let first = nd.first_child as usize;
            let end = first + nd.num_children as usize;
            let best = (first..end)
                .max_by(|&a, &b| self.root_child_order(a, b, me))
                .expect("children");
            if self.nodes[best].visits == 0 && !self.nodes[best].solved {
                break;
            }
            let mv = self.nodes[best].mv.expect("children carry moves");
            line.push(st.move_to_text(mv));
            st.apply(mv);
            node = best;
        }
        line
    }

    fn info(&self, state: &S, me: usize, start: Instant) -> SearchInfo {
        let best = self.best_root_child(me);
        let b = self.nodes[best];
        let q = if b.solved {
            b.proven[me] as f64
        } else if b.visits > 0 {
            b.value as f64 / b.visits as f64
        } else {
            0.0
        };
        let root = self.nodes[0];
        let proven = if root.solved {
            Some(proven_text(root.proven[me], root.dist))
        } else if b.solved {
            Some(proven_text(b.proven[me], b.dist.saturating_add(1)))
        } else {
            None
        };
        let elapsed = start.elapsed();
        SearchInfo {
            depth: None,
            iterations: Some(self.last_iterations as u64),
            score: q,
            score_units: "mean return",
            win_probability: (q + 1.0) / 2.0,
            proven,
            nodes: self.nodes.len() as u64,
            elapsed_ms: elapsed.as_millis() as u64,
            rate: self.last_iterations as f64 / elapsed.as_secs_f64().max(1e-9),
            pv: self.principal_line(state),
            mb_hits: Some(self.last_mb_hits),
            pie: None,
        }
    }

    /// The root's exhaustive win search (`minimax` plies, MCTS-MS at the
    /// root after Baier and Winands 2013): for d = 1, 2, ... `minimax`, the
    /// first root move after which `me` forces a win within d − 1 plies is
    /// proven a win in d (the quickest: no move won within fewer), which
    /// proves the root; failing that, each root move after which the
    /// opponent forces a win within `minimax` − 1 plies is proven a loss at
    /// the first distance found. Stops, proving nothing more, after
    /// [`MINIMAX_NODES`] positions.
    fn root_minimax(&mut self, state: &S, me: usize, deadline: Option<Instant>) {
        if !self.nodes[0].expanded && !self.expand(0, state) {
            return;
        }
        let root = self.nodes[0];
        let kids = root.first_child as usize..(root.first_child + root.num_children) as usize;
        let mut budget = Budget {
            left: MINIMAX_NODES,
            deadline,
        };
        let mut bufs = Vec::new();
        let proven = |node: &mut Node<S::Move>, winner: usize, dist: u32| {
            node.solved = true;
            node.proven = [0.0; MAX_SEATS];
            node.proven[winner] = 1.0;
            node.proven[1 - winner] = -1.0;
            node.dist = dist as u16;
        };
        let mut done = false;
        'wins: for d in 1..=self.config.minimax {
            for i in kids.clone() {
                let mut c = state.clone();
                c.apply(self.nodes[i].mv.expect("children carry moves"));
                match forced_win(&c, me, d - 1, &mut budget, &mut bufs, 0) {
                    None => {
                        done = true;
                        break 'wins;
                    }
                    Some(true) => {
                        proven(&mut self.nodes[i], me, d - 1);
                        self.root_exact = true;
                        done = true;
                        break 'wins;
                    }
                    Some(false) => {}
                }
            }
        }
        if !done {
            'losses: for i in kids.clone() {
                if self.nodes[i].solved {
                    continue;
                }
                let mut c = state.clone();
                c.apply(self.nodes[i].mv.expect("children carry moves"));
                for d in 0..self.config.minimax {
                    match forced_win(&c, 1 - me, d, &mut budget, &mut bufs, 0) {
                        None => break 'losses,
                        Some(true) => {
                            proven(&mut self.nodes[i], 1 - me, d);
                            break;
                        }
                        Some(false) => {}
                    }
                }
            }
        }
        self.last_minimax_nodes = MINIMAX_NODES - budget.left;
        self.try_solve(0);
    }

    /// Whether the search goes on at a proven root: a win for `me` proven
    /// in more than one ply while some root move is unproven, which may win
    /// quicker.
    fn root_stays_open(&self, me: usize) -> bool {
        let root = self.nodes[0];
        if self.root_exact
            || !(self.config.solver && root.solved && root.proven[me] >= 1.0 && root.dist > 1)
        {
            return false;
        }
        let first = root.first_child as usize;
        (first..first + root.num_children as usize).any(|i| !self.nodes[i].solved)
    }

    /// Runs a search from `state` and returns the chosen root move; calls
    /// `on_info` about every 250 ms and at the end.
    pub fn search_reporting(
        &mut self,
        state: &S,
        on_info: &mut dyn FnMut(&SearchInfo),
        report: bool,
    ) -> S::Move {
        let ToMove::Seat(me) = state.to_move() else {
            panic!("search needs a seat to move");
        };
        self.scale = self.config.scale.unwrap_or_else(|| state.eval_scale());
        let reused = self.config.reuse && self.reroot(state);
        if !reused {
            self.nodes.clear();
            self.nodes.push(Node::new(None, 1.0, NO_SEAT));
        }
        self.last_reused = self.nodes[0].visits;
        self.last_mb_hits = 0;
        self.root_exact = false;
        self.last_minimax_nodes = 0;
        // The win search's time counts against the move's budget.
        let start = Instant::now();
        if self.config.minimax > 0
            && self.config.solver
            && state.num_seats() == 2
            && !self.nodes[0].solved
        {
            let deadline = (self.config.ms > 0)
                .then(|| start + std::time::Duration::from_millis(self.config.ms));
            self.root_minimax(state, me, deadline);
        }
        let mut next_report = 250u128;
        let mut path = Vec::with_capacity(64);
        let mut it = 0u32;
        let cap = if self.config.iterations == 0 {
            u32::MAX
        } else {
            self.config.iterations
        };
        loop {
            self.root_open = self.root_stays_open(me);
            if it >= cap || (self.nodes[0].solved && !self.root_open) {
                break;
            }
            self.iterate(state, &mut path);
            it += 1;
            if it.is_multiple_of(32) && (self.config.ms > 0 || report) {
                let t = start.elapsed().as_millis();
                if self.config.ms > 0 && t as u64 >= self.config.ms {
                    break;
                }
                if report && t >= next_report {
                    self.last_iterations = it;
                    on_info(&self.info(state, me, start));
                    next_report = t + 250;
                }
            }
        }
        self.last_iterations = it;
        let best = self.best_root_child(me);
        let info = self.info(state, me, start);
        if report {
            on_info(&info);
        }
        self.last_info = Some(info);
        self.root_state = Some(state.clone());
        self.nodes[best].mv.expect("children carry moves")
    }

    /// Runs a search from `state` and returns the chosen root move.
    pub fn search(&mut self, state: &S) -> S::Move {
        self.search_reporting(state, &mut |_| {}, false)
    }
}

/// `win in N plies`, `loss in N plies` or `draw` (or the proven mean
/// return) for a proven value `dist` plies from the end.
fn proven_text(v: f32, dist: u16) -> String {
    if v >= 1.0 {
        format!("win in {dist} plies")
    } else if v <= -1.0 {
        format!("loss in {dist} plies")
    } else if v == 0.0 {
        "draw".into()
    } else {
        format!("value {v:.3}")
    }
}

impl<S: State + Search> Agent<S> for Mcts<S> {
    fn select(&mut self, state: &S) -> S::Move {
        self.search(state)
    }

    fn select_reporting(&mut self, state: &S, on_info: &mut dyn FnMut(&SearchInfo)) -> S::Move {
        self.search_reporting(state, on_info, true)
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.last_info.clone()
    }

    fn spec(&self) -> String {
        self.config.canonical()
    }
}

/// What the root's win search may still spend: positions, and a wall-clock
/// deadline (the move's `ms`).
struct Budget {
    left: u64,
    deadline: Option<Instant>,
}

impl Budget {
    /// Takes one position; false once the positions or the time ran out.
    #[inline]
    fn take(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        if self.left.is_multiple_of(1024)
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.left = 0;
        }
        true
    }
}

/// Whether seat `me` forces a win within `plies` plies from `s` against
/// every defence: plain full-width minimax on the game's moves (a chance
/// node or the horizon counts as no win). `None` when `budget` (positions
/// made, time) runs out first.
fn forced_win<S: State>(
    s: &S,
    me: usize,
    plies: u32,
    budget: &mut Budget,
    bufs: &mut Vec<Vec<S::Move>>,
    ply: usize,
) -> Option<bool> {
    let k = match s.to_move() {
        ToMove::Terminal => return Some(s.returns()[me] > 0.0),
        ToMove::Chance => return Some(false),
        ToMove::Seat(_) if plies == 0 => return Some(false),
        ToMove::Seat(k) => k,
    };
    if bufs.len() <= ply {
        bufs.resize_with(ply + 1, Vec::new);
    }
    let mut moves = std::mem::take(&mut bufs[ply]);
    s.legal_moves(&mut moves);
    // The mover wins if any move wins; the defender is lost if every move
    // loses.
    let mine = k == me;
    let mut result = Some(!mine);
    for &m in &moves {
        if !budget.take() {
            result = None;
            break;
        }
        let mut c = s.clone();
        c.apply(m);
        match forced_win(&c, me, plies - 1, budget, bufs, ply + 1) {
            None => {
                result = None;
                break;
            }
            Some(w) if w == mine => {
                result = Some(mine);
                break;
            }
            Some(_) => {}
        }
    }
    bufs[ply] = moves;
    result
}
