//! An exact solver: it proves the game-theoretic result of a position and
//! plays a line that reaches it. Generic over the [`State`] API; it knows no
//! game by name.
//!
//! ## One seat (deterministic puzzles)
//! Depth-first **branch and bound** maximising the single seat's return:
//! * the *incumbent* is the best terminal return seen so far, with the line
//!   that reached it;
//! * a node is cut when its upper bound cannot beat the incumbent: the
//!   game's [`Search::return_bound`] (e.g. minus the pieces that must stay),
//!   or the bound a **transposition table** on the Zobrist key remembers
//!   from an earlier visit (a fully searched node stores the best return it
//!   could still give, exact or at most the incumbent of the time; the
//!   incumbent only grows, so the bound stays valid);
//! * the search stops as soon as the incumbent reaches the root's bound;
//! * **move ordering**: children by the game's [`Search::evaluate`], best
//!   first.
//!
//! With `plies=fewest` a second pass then looks for the **shortest** line
//! reaching that return: branch and bound on the length (a node at depth
//! `d` is cut when `d + 1` plies already match the best line, or when the
//! game's bound on the return within the plies left,
//! `return_bound(best − 1 − d)`, is below the target; the table remembers
//! the smallest depth at which a node was searched in vain, and nodes whose
//! return bound is below the target).
//!
//! ## Two seats
//! Exact win/draw/loss **negamax** with alpha-beta over distance-scored
//! values (a win in `d` plies is worth `WIN − d`: the winner hurries, the
//! loser delays), a transposition table with bound types, the table's move
//! first and then the children best first by the game's evaluation. Every
//! node first asks [`Search::solved`] (a game's retrograde table or exact
//! rule) and uses its answer as is. With `plies=fewest` the root searches
//! every move with a full window, so the value comes with the fewest plies
//! to it; with `plies=any` the root asks only "does a move win?" and then
//! "does a move draw?" (null windows, far fewer nodes) and plays the first
//! move that does: the value is exact, its distance only a bound.
//! Consecutive moves of one seat
//! (compound turns) keep the sign; chance nodes are averaged. The game must
//! end (a ply cap counts): the search has no depth limit.
//!
//! ## Budgets and memory
//! `mb` bounds the transposition table (MiB; one slot a key,
//! always-replace). `nodes` (0 = none) caps the nodes of one solve: the
//! solver then plays the best line found so far and reports it unproven.
//! A solved one-seat line is kept, so the following moves of the game cost
//! nothing.

use std::time::Instant;

use engine::spec::{ParamInfo, Params, Spec};
use engine::{GameError, Search, State, ToMove};

use crate::{Agent, SearchInfo};

/// The parameters of `solver(...)`.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "mb",
        default: "64",
        values: "integer 1..=65536",
        help: "transposition table memory bound in MiB",
    },
    ParamInfo {
        name: "nodes",
        default: "0",
        values: "integer >= 0 (0 = no limit)",
        help: "node budget per solve; past it the best line so far is played, unproven",
    },
    ParamInfo {
        name: "plies",
        default: "fewest",
        values: "fewest|any",
        help: "among lines with the best return, find the shortest (fewest) or take the first found (any; two seats: win/draw/loss by null windows)",
    },
];

/// The machine's physical memory in MiB (`MemTotal` of `/proc/meminfo`),
/// or `None` where it cannot be read.
pub fn physical_memory_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The score of a two-seat win (minus the plies to reach it).
pub const WIN: i32 = 1_000_000;

/// Solver settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// Transposition table size in MiB.
    pub mb: u32,
    /// Node budget per solve; 0 for none.
    pub nodes: u64,
    /// One seat: also minimise the plies among best-return lines.
    pub fewest: bool,
    /// One seat: run the generic branch and bound even where the game has
    /// a dedicated solver ([`Search::solve_alone`]); for tests that diff the
    /// two. Not a spec parameter.
    pub generic: bool,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            mb: 64,
            nodes: 0,
            fewest: true,
            generic: false,
        }
    }
}

impl SolverConfig {
    /// Reads `solver(...)`.
    ///
    /// # Errors
    /// Unknown parameters or bad values; the message names the valid ones.
    pub fn from_spec(spec: &Spec) -> Result<SolverConfig, GameError> {
        let p = Params::new("agent solver", spec, PARAMS)?;
        let mb: u32 = p.parse("mb")?;
        let nodes: u64 = p.parse("nodes")?;
        let fewest = p.choice("plies", &[("fewest", true), ("any", false)])?;
        if !(1..=65536).contains(&mb) {
            engine::bail!("agent solver: mb={mb} is not valid (expected integer 1..=65536)");
        }
        // The table is allocated whole: more than the machine has would
        // abort the process instead of failing.
        if let Some(total) = physical_memory_mib()
            && u64::from(mb) > total
        {
            engine::bail!("agent solver: mb={mb} is more than this machine's memory ({total} MiB)");
        }
        Ok(SolverConfig {
            mb,
            nodes,
            fewest,
            generic: false,
        })
    }

    /// `solver(mb=..,nodes=..,plies=..)`.
    pub fn canonical(&self) -> String {
        format!(
            "solver(mb={},nodes={},plies={})",
            self.mb,
            self.nodes,
            if self.fewest { "fewest" } else { "any" }
        )
    }
}

/// What a solve found.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution<M> {
    /// One seat: the best return (of seat 0). Two seats: the value for the
    /// seat to move, 1 win, 0 draw, −1 loss.
    pub value: f64,
    /// A line of play from the position reaching that value (one seat: to
    /// the end of the game; two seats: the best first move).
    pub line: Vec<M>,
    /// Whether the value is proven (no node budget ran out). With
    /// `plies=fewest`, also that the line is the shortest.
    pub proven: bool,
    /// Two seats: plies to the end under perfect play; one seat: the
    /// line's length.
    pub plies: u32,
    /// Nodes searched.
    pub nodes: u64,
}

#[derive(Clone, Copy)]
struct Slot<M> {
    key: u64,
    /// One seat: an upper bound on the return. Two seats: the value.
    value: f64,
    /// One seat: smallest depth searched in vain by the shortest-line pass
    /// (`u32::MAX`: never). Two seats: 0 exact, 1 lower, 2 upper bound.
    aux: u32,
    best: Option<M>,
}

/// The exact solver agent.
pub struct Solver<S: State + Search> {
    config: SolverConfig,
    tt: Vec<Option<Slot<S::Move>>>,
    nodes: u64,
    aborted: bool,
    // One seat.
    path: Vec<S::Move>,
    incumbent: f64,
    incumbent_line: Vec<S::Move>,
    target_bound: f64,
    best_len: u32,
    target: f64,
    children: Vec<Vec<(i32, S::Move)>>,
    moves: Vec<S::Move>,
    /// The solved line being played, and the key of the state it expects.
    plan: Vec<S::Move>,
    plan_at: usize,
    plan_key: Option<u64>,
    /// The last solve's result, for reports.
    pub last: Option<Solution<S::Move>>,
    /// What the agent reported for its last move ([`Agent::last_info`]).
    last_info: Option<SearchInfo>,
}

impl<S: State + Search> Solver<S> {
    /// A solver with these settings.
    pub fn new(config: SolverConfig) -> Self {
        Solver {
            config,
            // Allocated by the first generic search (a game's dedicated
            // one-seat solver keeps its own table).
            tt: Vec::new(),
            nodes: 0,
            aborted: false,
            path: Vec::new(),
            incumbent: f64::NEG_INFINITY,
            incumbent_line: Vec::new(),
            target_bound: f64::INFINITY,
            best_len: u32::MAX,
            target: 0.0,
            children: Vec::new(),
            moves: Vec::new(),
            plan: Vec::new(),
            plan_at: 0,
            plan_key: None,
            last: None,
            last_info: None,
        }
    }

    /// Slots in the transposition table (a power of two; 0 before the
    /// first generic search).
    pub fn table_slots(&self) -> usize {
        self.tt.len()
    }

    /// Allocates the generic table at the size `mb` allows: the largest
    /// power of two of slots that fits.
    fn ensure_table(&mut self) {
        if !self.tt.is_empty() {
            return;
        }
        let slot = std::mem::size_of::<Option<Slot<S::Move>>>();
        let entries = ((self.config.mb as usize) << 20) / slot;
        let entries = if entries.is_power_of_two() {
            entries
        } else {
            entries.next_power_of_two() / 2
        };
        self.tt = vec![None; entries.max(16)];
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key ^ (key >> 32)) as usize & (self.tt.len() - 1)
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Slot<S::Move>> {
        self.tt[self.index(key)].filter(|e| e.key == key)
    }

    #[inline]
    fn store(&mut self, slot: Slot<S::Move>) {
        let i = self.index(slot.key);
        self.tt[i] = Some(slot);
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.config.nodes > 0 && self.nodes > self.config.nodes {
            self.aborted = true;
        }
        self.aborted
    }

    /// Solves `state` (a seat to move): see the module docs.
    pub fn solve(&mut self, state: &S) -> Solution<S::Move> {
        self.nodes = 0;
        self.aborted = false;
        let sol = if state.num_seats() == 1 {
            self.solve_one(state)
        } else {
            self.solve_two(state)
        };
        self.last = Some(sol.clone());
        sol
    }

    // ----------------------------------------------------------------- one seat

    fn solve_one(&mut self, root: &S) -> Solution<S::Move> {
        if !self.config.generic
            && let Some(a) = root.solve_alone(self.config.mb, self.config.nodes, self.config.fewest)
        {
            return Solution {
                value: a.value,
                plies: a.line.len() as u32,
                line: a.line,
                proven: a.proven,
                nodes: a.nodes,
            };
        }
        self.ensure_table();
        self.path.clear();
        self.incumbent = f64::NEG_INFINITY;
        self.incumbent_line.clear();
        self.target_bound = root.return_bound(u32::MAX).unwrap_or(f64::INFINITY);
        self.best_len = u32::MAX;
        // Table bounds from an earlier solve stay valid (they hold for any
        // incumbent they were cut at), but the pass-two depths do not.
        self.tt.iter_mut().for_each(|e| *e = None);
        self.bound_search(root);
        let mut proven = !self.aborted;
        let value = self.incumbent;
        if self.config.fewest && !self.aborted && value.is_finite() {
            self.target = value;
            self.best_len = self.incumbent_line.len() as u32;
            self.path.clear();
            self.shortest_search(root, 0);
            proven = !self.aborted;
        }
        Solution {
            value,
            plies: self.incumbent_line.len() as u32,
            line: self.incumbent_line.clone(),
            proven,
            nodes: self.nodes,
        }
    }

    /// Children of `s` ordered by [`Search::evaluate`], best first, into the
    /// buffer of `depth`.
    fn order(&mut self, s: &S, depth: usize) -> Vec<(i32, S::Move)> {
        if self.children.len() <= depth {
            self.children.resize_with(depth + 1, Vec::new);
        }
        let mut buf = std::mem::take(&mut self.children[depth]);
        let mut moves = std::mem::take(&mut self.moves);
        s.legal_moves(&mut moves);
        buf.clear();
        for &m in &moves {
            let mut c = s.clone();
            c.apply(m);
            let v = if c.is_terminal() {
                (c.returns()[0] * 1000.0) as i32
            } else {
                c.evaluate()
            };
            buf.push((v, m));
        }
        self.moves = moves;
        buf.sort_by_key(|b| std::cmp::Reverse(b.0));
        buf
    }

    /// Pass one: returns an upper bound on the best return below `s` that
    /// is exact or at most the incumbent.
    fn bound_search(&mut self, s: &S) -> f64 {
        if self.tick() {
            return f64::INFINITY;
        }
        if s.is_terminal() {
            let r = s.returns()[0];
            if r > self.incumbent {
                self.incumbent = r;
                self.incumbent_line.clone_from(&self.path);
            }
            return r;
        }
        let ub = s.return_bound(u32::MAX).unwrap_or(f64::INFINITY);
        if ub <= self.incumbent {
            return ub;
        }
        let key = s.zobrist();
        if let Some(e) = self.probe(key)
            && e.value <= self.incumbent
        {
            return e.value;
        }
        let depth = self.path.len();
        let kids = self.order(s, depth);
        let mut best = f64::NEG_INFINITY;
        for &(_, m) in &kids {
            let mut c = s.clone();
            c.apply(m);
            self.path.push(m);
            let v = self.bound_search(&c);
            self.path.pop();
            best = best.max(v);
            if self.aborted || self.incumbent >= self.target_bound || best >= ub {
                break;
            }
        }
        self.children[depth] = kids;
        if !self.aborted {
            let b = best.min(ub);
            self.store(Slot {
                key,
                value: b,
                aux: u32::MAX,
                best: None,
            });
            return b;
        }
        f64::INFINITY
    }

    /// Pass two: looks for a line shorter than `best_len` reaching `target`.
    fn shortest_search(&mut self, s: &S, depth: u32) {
        if self.tick() {
            return;
        }
        if s.is_terminal() {
            if s.returns()[0] >= self.target && depth < self.best_len {
                self.best_len = depth;
                self.incumbent_line.clone_from(&self.path);
            }
            return;
        }
        if depth + 1 >= self.best_len {
            return;
        }
        // A line shorter than the best has at most best_len - 1 - depth
        // plies left.
        let left = self.best_len - 1 - depth;
        if s.return_bound(left).unwrap_or(f64::INFINITY) < self.target {
            return;
        }
        let key = s.zobrist();
        let entry = self.probe(key);
        if let Some(e) = entry
            && (e.value < self.target || e.aux <= depth)
        {
            return;
        }
        let kids = self.order(s, depth as usize);
        let before = self.best_len;
        for &(_, m) in &kids {
            let mut c = s.clone();
            c.apply(m);
            self.path.push(m);
            self.shortest_search(&c, depth + 1);
            self.path.pop();
            if self.aborted || depth + 1 >= self.best_len {
                break;
            }
        }
        self.children[depth as usize] = kids;
        if !self.aborted && self.best_len == before {
            let value = entry.map_or(f64::INFINITY, |e| e.value);
            self.store(Slot {
                key,
                value,
                aux: depth,
                best: None,
            });
        }
    }

    // ---------------------------------------------------------------- two seats

    fn solve_two(&mut self, root: &S) -> Solution<S::Move> {
        self.ensure_table();
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let view = match root.to_move() {
            ToMove::Seat(k) => k,
            _ => 0,
        };
        if let Some(f) = self.probe(root.zobrist()).and_then(|e| e.best)
            && let Some(i) = moves.iter().position(|&m| m == f)
        {
            moves.swap(0, i);
        }
        let (mut best_v, mut best_m) = (-WIN - 1, None);
        if self.config.fewest {
            for &m in &moves {
                let mut c = root.clone();
                c.apply(m);
                let v = farther(self.negamax(&c, view, nearer(best_v), WIN + 2));
                if self.aborted {
                    break;
                }
                if v > best_v || best_m.is_none() {
                    best_v = v;
                    best_m = Some(m);
                }
            }
        } else {
            // Win, draw or loss only: a null-window test "does a move win?"
            // (window (0, 1)), then "does a move draw?" ((-1, 0)); the first
            // move that passes is played. A value that passes is a bound on
            // the distance, not the fewest plies.
            'tests: for (alpha, beta) in [(0, 1), (-1, 0)] {
                // Each test's bounds only: a win test's fail-low may bound a
                // lost root at 0, which the draw test must not inherit.
                (best_v, best_m) = (-WIN - 1, None);
                for &m in &moves {
                    let mut c = root.clone();
                    c.apply(m);
                    let v = farther(self.negamax(&c, view, nearer(alpha), nearer(beta)));
                    if self.aborted {
                        break 'tests;
                    }
                    if v >= beta {
                        (best_v, best_m) = (v, Some(m));
                        break 'tests;
                    }
                    if best_m.is_none() || v > best_v {
                        (best_v, best_m) = (v.min(alpha), Some(m));
                    }
                }
            }
        }
        let (value, plies) = match best_v {
            v if v > 0 => (1.0, (WIN - v) as u32),
            v if v < 0 => (-1.0, (WIN + v) as u32),
            _ => (0.0, 0),
        };
        Solution {
            value,
            plies,
            line: best_m.into_iter().collect(),
            proven: !self.aborted,
            nodes: self.nodes,
        }
    }

    /// The value of `s` for seat `view`, distance-scored, in `view`'s window
    /// (alpha, beta).
    fn negamax(&mut self, s: &S, view: usize, alpha: i32, beta: i32) -> i32 {
        if self.tick() {
            return 0;
        }
        match s.to_move() {
            ToMove::Terminal => {
                let r = s.returns()[view];
                if r > 0.0 {
                    WIN
                } else if r < 0.0 {
                    -WIN
                } else {
                    0
                }
            }
            ToMove::Chance => {
                let mut outs = Vec::new();
                s.chance_outcomes(&mut outs);
                let mut sum = 0.0;
                for &(m, p) in &outs {
                    let mut c = s.clone();
                    c.apply(m);
                    sum += p * farther(self.negamax(&c, view, -WIN - 2, WIN + 2)) as f64;
                }
                sum.round() as i32
            }
            ToMove::Seat(k) if k != view => -self.negamax(s, k, -beta, -alpha),
            ToMove::Seat(_) => self.max_node(s, view, alpha, beta),
        }
    }

    /// A node where `view` is to move.
    fn max_node(&mut self, s: &S, view: usize, mut alpha: i32, beta: i32) -> i32 {
        if let Some((v, plies)) = s.solved() {
            return match v {
                1 => WIN - plies as i32,
                -1 => -(WIN - plies as i32),
                _ => 0,
            };
        }
        let key = s.zobrist();
        let alpha0 = alpha;
        let mut first = None;
        if let Some(e) = self.probe(key) {
            let v = e.value as i32;
            match e.aux {
                0 => return v,
                1 if v >= beta => return v,
                2 if v <= alpha => return v,
                _ => {}
            }
            first = e.best;
        }
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        // The table's move first, then the others best first for `view`:
        // a win that ends the game, then the game's evaluation of the child
        // (a game without one keeps its move order; the sort is stable).
        let mut kids: Vec<(bool, std::cmp::Reverse<i64>, S::Move, S)> = moves
            .iter()
            .map(|&m| {
                let mut c = s.clone();
                c.apply(m);
                let e = match c.to_move() {
                    ToMove::Terminal => (c.returns()[view] * f64::from(WIN)) as i64,
                    ToMove::Seat(k) if k == view => i64::from(c.evaluate()),
                    ToMove::Seat(_) => -i64::from(c.evaluate()),
                    ToMove::Chance => 0,
                };
                (Some(m) != first, std::cmp::Reverse(e), m, c)
            })
            .collect();
        kids.sort_by_key(|k| (k.0, k.1));
        let mut best = -WIN - 1;
        let mut best_m = None;
        for (_, _, m, c) in kids {
            let v = farther(self.negamax(&c, view, nearer(alpha), nearer(beta)));
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_m = Some(m);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let aux = if best <= alpha0 {
            2
        } else if best >= beta {
            1
        } else {
            0
        };
        self.store(Slot {
            key,
            value: best as f64,
            aux,
            best: best_m,
        });
        best
    }
}

/// A value one ply farther from the end: a win or loss `d` plies from a
/// child is `d + 1` plies from its parent.
#[inline]
fn farther(v: i32) -> i32 {
    v - v.signum()
}

/// The inverse of [`farther`] on window bounds.
#[inline]
fn nearer(v: i32) -> i32 {
    v + v.signum()
}

impl<S: State + Search> Agent<S> for Solver<S> {
    fn select(&mut self, state: &S) -> S::Move {
        let start = Instant::now();
        let mv = if state.num_seats() == 1 {
            if self.plan_key == Some(state.zobrist()) && self.plan_at < self.plan.len() {
                // The kept line: nothing searched for this move.
                let line = self.plan[self.plan_at..].to_vec();
                let last = self.last.clone().expect("a plan comes from a solve");
                let sol = Solution {
                    plies: line.len() as u32,
                    line,
                    nodes: 0,
                    ..last
                };
                self.last_info = Some(self.info(state, &sol, start));
                let m = self.plan[self.plan_at];
                self.advance(state, m);
                return m;
            }
            let sol = self.solve(state);
            self.last_info = Some(self.info(state, &sol, start));
            self.plan = sol.line;
            self.plan_at = 0;
            self.plan.first().copied()
        } else {
            let sol = self.solve(state);
            self.last_info = Some(self.info(state, &sol, start));
            sol.line.first().copied()
        };
        if let Some(m) = mv {
            if state.num_seats() == 1 {
                self.advance(state, m);
            }
            return m;
        }
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves[0]
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.last_info.clone()
    }

    fn spec(&self) -> String {
        self.config.canonical()
    }
}

impl<S: State + Search> Solver<S> {
    /// The report of a solve of `state`: the value as `score` (unit
    /// `return`: two seats 1, 0 or −1 for the seat to move; one seat the
    /// best return), `proven` (`win in N plies`, `loss in N plies`, `draw`;
    /// one seat `return V in N plies`) unless a node budget ran out, the
    /// positions searched as `nodes`, and the line as `pv` (one seat: the
    /// whole line; two seats: the best move, then the best moves the
    /// table still holds, at most the plies to the end).
    pub fn info(&self, state: &S, sol: &Solution<S::Move>, start: Instant) -> SearchInfo {
        let elapsed = start.elapsed();
        let one = state.num_seats() == 1;
        let proven = sol.proven.then(|| {
            if one {
                format!("return {} in {} plies", sol.value, sol.plies)
            } else if sol.value > 0.0 {
                format!("win in {} plies", sol.plies)
            } else if sol.value < 0.0 {
                format!("loss in {} plies", sol.plies)
            } else {
                "draw".to_string()
            }
        });
        let pv = if one {
            let mut st = state.clone();
            sol.line
                .iter()
                .map(|&m| {
                    let t = st.move_to_text(m);
                    st.apply(m);
                    t
                })
                .collect()
        } else {
            self.table_line(state, sol)
        };
        SearchInfo {
            depth: None,
            iterations: None,
            score: sol.value,
            score_units: "return",
            win_probability: (sol.value.clamp(-1.0, 1.0) + 1.0) / 2.0,
            proven,
            nodes: sol.nodes,
            elapsed_ms: elapsed.as_millis() as u64,
            rate: sol.nodes as f64 / elapsed.as_secs_f64().max(1e-9),
            pv,
            mb_hits: None,
            pie: None,
        }
    }

    /// Two seats: the first move of `sol`, then the best moves the table
    /// holds for the positions that follow (legal ones only, no position
    /// twice, at most `sol.plies` moves in all).
    fn table_line(&self, state: &S, sol: &Solution<S::Move>) -> Vec<String> {
        let Some(&first) = sol.line.first() else {
            return Vec::new();
        };
        let max = if self.tt.is_empty() {
            1
        } else {
            sol.plies.max(1) as usize
        };
        crate::table_line(state, first, max, |key| {
            self.probe(key).and_then(|e| e.best)
        })
    }

    /// Steps the kept one-seat plan past `m`, remembering the key of the
    /// state it leads to.
    fn advance(&mut self, state: &S, m: S::Move) {
        let mut c = state.clone();
        c.apply(m);
        self.plan_at += 1;
        self.plan_key = Some(c.zobrist());
    }
}
