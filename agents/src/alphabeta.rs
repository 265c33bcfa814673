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
//! * Leaves use the game's [`State::evaluate`] (from the seat to move);
//!   terminal states score ±`WIN` (faster wins preferred).
//! * The same seat may move twice in a row (compound turns, the pie
//!   choice): the sign flips only when the seat to move changes.
//! * Chance nodes are averaged over their outcomes (expectimax, no pruning
//!   there).
//! * Root moves are shuffled with the agent's seed before the search, so
//!   equally valued moves are chosen at random and self-play games differ.

use std::hash::{Hash, Hasher};
use std::time::Instant;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use engine::spec::{ParamInfo, Params, Spec};
use engine::{GameError, State, ToMove};

use crate::Agent;

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
        name: "tt_mb",
        default: "16",
        values: "integer 1..=4096",
        help: "transposition table size in MiB",
    },
];

/// The score of a won game (minus the plies to reach it).
pub const WIN: i32 = 1_000_000;

/// Alpha-beta settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// Maximum depth in plies.
    pub depth: u32,
    /// Milliseconds per move; 0 for no time limit.
    pub ms: u64,
    /// Transposition table size in MiB.
    pub tt_mb: u32,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            depth: 3,
            ms: 0,
            tt_mb: 16,
        }
    }
}

impl AlphaBetaConfig {
    /// Reads `alphabeta(...)`.
    ///
    /// # Errors
    /// Unknown parameters or bad values.
    pub fn from_spec(spec: &Spec) -> Result<AlphaBetaConfig, GameError> {
        let p = Params::new("agent alphabeta", spec, PARAMS)?;
        let depth: u32 = p.parse("depth")?;
        let ms: u64 = p.parse("ms")?;
        let tt_mb: u32 = p.parse("tt_mb")?;
        if !(1..=64).contains(&depth) {
            engine::bail!("agent alphabeta: depth={depth} is not valid (expected integer 1..=64)");
        }
        if !(1..=4096).contains(&tt_mb) {
            engine::bail!(
                "agent alphabeta: tt_mb={tt_mb} is not valid (expected integer 1..=4096)"
            );
        }
        Ok(AlphaBetaConfig { depth, ms, tt_mb })
    }

    /// `alphabeta(depth=..,ms=..,tt_mb=..)`.
    pub fn canonical(&self) -> String {
        format!(
            "alphabeta(depth={},ms={},tt_mb={})",
            self.depth, self.ms, self.tt_mb
        )
    }
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

fn move_slot<M: Hash>(m: &M) -> usize {
    let mut h = MoveHasher(0xCBF2_9CE4_8422_2325);
    m.hash(&mut h);
    (h.finish() ^ (h.finish() >> 29)) as usize & (HISTORY - 1)
}

/// An alpha-beta agent.
pub struct AlphaBeta<S: State> {
    config: AlphaBetaConfig,
    rng: ChaCha8Rng,
    tt: Vec<Option<TtEntry<S::Move>>>,
    killers: Vec<[Option<S::Move>; 2]>,
    history: Vec<u32>,
    bufs: Vec<Vec<(i64, S::Move)>>,
    moves: Vec<S::Move>,
    deadline: Option<Instant>,
    aborted: bool,
    /// Nodes searched for the last move.
    pub last_nodes: u64,
    /// Deepest completed iteration for the last move.
    pub last_depth: u32,
}

impl<S: State> AlphaBeta<S> {
    /// An agent with these settings; `seed` breaks ties between equal moves.
    pub fn new(config: AlphaBetaConfig, seed: u64) -> Self {
        let entries = (config.tt_mb as usize * 1024 * 1024
            / std::mem::size_of::<Option<TtEntry<S::Move>>>())
        .next_power_of_two()
            / 2;
        AlphaBeta {
            config,
            rng: ChaCha8Rng::seed_from_u64(seed),
            tt: vec![None; entries.max(1024)],
            killers: Vec::new(),
            history: vec![0; HISTORY],
            bufs: Vec::new(),
            moves: Vec::new(),
            deadline: None,
            aborted: false,
            last_nodes: 0,
            last_depth: 0,
        }
    }

    #[inline]
    fn tt_index(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    fn out_of_time(&mut self) -> bool {
        if let Some(d) = self.deadline
            && self.last_nodes.is_multiple_of(1024)
            && Instant::now() >= d
        {
            self.aborted = true;
        }
        self.aborted
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
            ToMove::Terminal => {
                let r = state.returns()[me];
                return if r > 0.0 {
                    WIN - ply as i32
                } else if r < 0.0 {
                    -WIN + ply as i32
                } else {
                    0
                };
            }
            ToMove::Chance => {
                let mut outs = Vec::new();
                state.chance_outcomes(&mut outs);
                let mut total = 0.0;
                for (m, p) in outs {
                    let mut child = state.clone();
                    child.apply(m);
                    let v = if depth == 0 {
                        match child.to_move() {
                            ToMove::Seat(s) if s != me => -child.evaluate(),
                            ToMove::Seat(_) => child.evaluate(),
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
        if depth == 0 {
            return state.evaluate();
        }
        let key = state.zobrist();
        let slot = self.tt_index(key);
        let mut tt_move = None;
        if let Some(e) = self.tt[slot]
            && e.key == key
        {
            tt_move = e.best;
            if e.depth as u32 >= depth {
                match e.bound {
                    Bound::Exact => return e.value,
                    Bound::Lower if e.value >= beta => return e.value,
                    Bound::Upper if e.value <= alpha => return e.value,
                    _ => {}
                }
            }
        }
        // Order the moves: table move, killers, history.
        while self.bufs.len() <= ply {
            self.bufs.push(Vec::new());
            self.killers.push([None, None]);
        }
        let mut buf = std::mem::take(&mut self.bufs[ply]);
        state.legal_moves(&mut self.moves);
        buf.clear();
        let killers = self.killers[ply];
        for &m in &self.moves {
            let score = if Some(m) == tt_move {
                i64::MAX
            } else if Some(m) == killers[0] {
                i64::MAX - 1
            } else if Some(m) == killers[1] {
                i64::MAX - 2
            } else {
                self.history[move_slot(&m)] as i64
            };
            buf.push((score, m));
        }
        buf.sort_by_key(|e| std::cmp::Reverse(e.0));
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = None;
        for &(_, m) in buf.iter() {
            let mut child = state.clone();
            child.apply(m);
            let v = self.child_value(&child, me, depth - 1, ply + 1, alpha, beta);
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
                let h = &mut self.history[move_slot(&m)];
                *h = h.saturating_add(depth * depth);
                break;
            }
        }
        self.bufs[ply] = buf;
        if !self.aborted {
            let bound = if best <= alpha0 {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let replace = match self.tt[slot] {
                Some(e) => e.key != key || e.depth as u32 <= depth,
                None => true,
            };
            if replace {
                self.tt[slot] = Some(TtEntry {
                    key,
                    value: best,
                    depth: depth as u8,
                    bound,
                    best: best_move,
                });
            }
        }
        best
    }

    /// Searches `state` and returns the best move found and its value for
    /// the seat to move.
    pub fn search(&mut self, state: &S) -> (S::Move, i32) {
        let ToMove::Seat(me) = state.to_move() else {
            panic!("search needs a seat to move");
        };
        self.deadline = (self.config.ms > 0)
            .then(|| Instant::now() + std::time::Duration::from_millis(self.config.ms));
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
        for depth in 1..=self.config.depth {
            let mut alpha = -WIN - 1;
            let mut iter_best = None;
            for (i, &m) in root.iter().enumerate() {
                let mut child = state.clone();
                child.apply(m);
                let v = self.child_value(&child, me, depth - 1, 1, alpha, WIN + 1);
                if self.aborted && depth > 1 {
                    break;
                }
                if iter_best.is_none() || v > alpha {
                    alpha = v;
                    iter_best = Some((i, v));
                }
            }
            if self.aborted && depth > 1 {
                break;
            }
            let (i, v) = iter_best.expect("the root has legal moves");
            best = (root[i], v);
            self.last_depth = depth;
            // Principal move first in the next iteration.
            let m = root.remove(i);
            root.insert(0, m);
            if v.abs() >= WIN - 1000 || self.aborted {
                break;
            }
        }
        best
    }
}

impl<S: State> Agent<S> for AlphaBeta<S> {
    fn select(&mut self, state: &S) -> S::Move {
        self.search(state).0
    }

    fn spec(&self) -> String {
        self.config.canonical()
    }
}
