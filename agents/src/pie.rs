//! The pie choice searched in full: [`PieChooser`].
//!
//! At a pie choice ([`Research::offers_swap`]: the second player's first
//! turn of `pie(G)` and Bagel, Slingshot's choice of colour) the decision is
//! "swap or keep", and a tree search that sees it as one more root move
//! among dozens spends a sliver of its budget on each side of it: at the
//! `uct` rungs the chooser then swaps about as often as random play. So a
//! searching agent decides it as separate questions, each searched by a
//! fresh copy of the agent with its full budget:
//!
//! * **keep**: the position with every swap removed ([`NoSwapState`]) is
//!   searched for the chooser's best move, which is the move played if the
//!   chooser keeps;
//! * each option (every swap move, and keep's best move) is then **valued
//!   in the same frame**: from the first position after it where the
//!   opponent is to move (if the chooser is still to move, as after
//!   Slingshot's `chooser=B`, its best move there is found by a search and
//!   played first), a search gives the opponent's win probability, and the
//!   option is worth one minus it to the chooser (a terminal position
//!   counts its returns).
//!
//! The better option is played; on a tie the chooser keeps. Both values go
//! into the [`SearchInfo`] of the decision ([`PieChoice`]).
//!
//! **Why the same frame.** Swapping and keeping lead to the same board with
//! the same colour to move; they differ only in who holds it. A search's
//! value is biased toward its side to move (the best of several noisy
//! means is too high): at `uct(iterations=500)` in `pie(catapult)` the side
//! to move after the first move is rated about 0.6 by either search,
//! whoever holds it. Valuing keep as the chooser's own search (chooser to
//! move) and swap as one minus the opponent's (opponent to move) counts
//! that bias twice, for keep, and the chooser never swapped (0 of 400
//! games; in Slingshot, where `chooser=B` is the option that leaves the
//! chooser to move, it always swapped). Valued where the opponent is to
//! move, every option carries the same bias, and the comparison cancels it
//! to first order.
//!
//! A time budget (`ms`) is shared among the searches (a quarter each), so
//! that the choice takes about a move's time; budgets in iterations or
//! depth go in full to every search. Elsewhere the wrapped agent plays as
//! it would alone.

use std::time::Instant;

use engine::pie::NoSwapState;
use engine::{Research, Search, State, ToMove};

use crate::{Agent, AgentSpec, SearchInfo};

/// The two values behind a pie choice, each a win probability (draws half)
/// for the chooser, valued where the opponent is to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PieChoice {
    /// The best swap's value.
    pub swap: f64,
    /// Keeping's value: the keep search's best move, valued like a swap
    /// (NaN where every legal move is a swap).
    pub keep: f64,
    /// Whether the chooser swapped (`swap > keep`).
    pub swapped: bool,
}

/// A searching agent that spends a full search on each option of a pie
/// choice (see the module documentation). [`AgentSpec::build`] wraps every
/// `uct`, `mcts` and `alphabeta` agent in one.
pub struct PieChooser<S: Research + Search + 'static> {
    inner: Box<dyn Agent<S>>,
    spec: AgentSpec,
    seed: u64,
    /// Pie choices made, which seeds each choice's searches apart.
    choices: u64,
    /// The info of the last move when it was a pie choice.
    last: Option<SearchInfo>,
}

impl<S: Research + Search + 'static> PieChooser<S> {
    /// Wraps `inner`, an agent built from `spec` with `seed`; the searches
    /// of a pie choice are fresh agents of `spec` seeded from `seed`.
    pub fn new(inner: Box<dyn Agent<S>>, spec: AgentSpec, seed: u64) -> Self {
        PieChooser {
            inner,
            spec: share_time(spec, SEARCHES),
            seed,
            choices: 0,
            last: None,
        }
    }

    /// A seed for the `k`-th search of this choice (splitmix-style spread).
    fn search_seed(&self, k: u64) -> u64 {
        let mut z = self
            .seed
            .wrapping_add(0x9E37_79B9_7F4A_7C15_u64.wrapping_mul(64 * self.choices + k + 1));
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The chooser's value of `state`, reached by an option, in the frame
    /// of the module documentation, with the info of the search behind it
    /// and the moves the chooser plays first; `None` at a chance node or
    /// where the agent reports no value.
    fn frame_value(&self, mut state: S, me: usize, k: &mut u64, work: &mut Work) -> Option<Framed> {
        let mut line = Vec::new();
        // The chooser's own moves until the opponent is to move (a few at
        // most: a compound turn).
        for _ in 0..8 {
            match state.to_move() {
                ToMove::Terminal => {
                    let r = state.returns();
                    let best_other = (0..state.num_seats())
                        .filter(|&s| s != me)
                        .map(|s| r[s])
                        .fold(f64::NEG_INFINITY, f64::max);
                    let v = if r[me] > best_other {
                        1.0
                    } else if r[me] == best_other {
                        0.5
                    } else {
                        0.0
                    };
                    return Some((v, None, line));
                }
                ToMove::Chance => return None,
                ToMove::Seat(s) => {
                    *k += 1;
                    let mut agent = self.spec.build_plain::<S>(self.search_seed(*k));
                    let mv = agent.select(&state);
                    let info = agent.last_info()?;
                    work.add(&info);
                    if s != me {
                        return Some((1.0 - info.win_probability, Some(info), line));
                    }
                    line.push(state.move_to_text(mv));
                    state.apply(mv);
                }
            }
        }
        None
    }

    /// Decides a pie choice; `None` where the options cannot be valued (a
    /// chance node after an option, an agent with no values), in which case
    /// the wrapped agent plays.
    fn choose(&mut self, state: &S) -> Option<(S::Move, SearchInfo)> {
        let ToMove::Seat(me) = state.to_move() else {
            return None;
        };
        let start = Instant::now();
        let mut work = Work::default();
        let mut k = 0;
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let mut swap: Option<(S::Move, Framed)> = None;
        for &m in moves.iter().filter(|&&m| state.is_swap(m)) {
            let mut child = state.clone();
            child.apply(m);
            let framed = self.frame_value(child, me, &mut k, &mut work)?;
            if swap.as_ref().is_none_or(|b| framed.0 > b.1.0) {
                swap = Some((m, framed));
            }
        }
        let (swap_move, (swap_value, swap_info, swap_line)) = swap?;
        let keep = NoSwapState(state.clone());
        let kept = if keep.count_legal_moves() > 0 {
            let mut agent = self.spec.build_plain::<NoSwapState<S>>(self.search_seed(0));
            let mv = agent.select(&keep);
            let info = agent.last_info()?;
            work.add(&info);
            let mut child = state.clone();
            child.apply(mv);
            let (v, _, _) = self.frame_value(child, me, &mut k, &mut work)?;
            Some((mv, v, info))
        } else {
            None
        };
        let choice = |swapped: bool, keep: f64| PieChoice {
            swap: swap_value,
            keep,
            swapped,
        };
        let (mv, mut info, value) = match kept {
            Some((mv, keep_value, mut info)) if keep_value >= swap_value => {
                info.pie = Some(choice(false, keep_value));
                (mv, info, keep_value)
            }
            kept => {
                let keep_value = kept.map_or(f64::NAN, |k| k.1);
                let mut info = swap_info.unwrap_or_else(|| terminal_info(swap_value));
                // The line from the swap on: the chooser's moves, then the
                // opponent's search.
                let mut pv = vec![state.move_to_text(swap_move)];
                pv.extend(swap_line);
                pv.append(&mut info.pv);
                info.pv = pv;
                info.pie = Some(choice(true, keep_value));
                (swap_move, info, swap_value)
            }
        };
        // The info speaks for the chooser: the chosen option's value, and
        // the figures of the whole choice (every search's work and time).
        info.win_probability = value;
        info.score = 2.0 * value - 1.0;
        info.score_units = "mean return";
        info.proven = None;
        let elapsed = start.elapsed();
        if info.iterations.is_some() {
            info.iterations = Some(work.iterations);
        }
        info.nodes = work.nodes;
        info.elapsed_ms = elapsed.as_millis() as u64;
        info.rate = info.iterations.unwrap_or(work.nodes) as f64 / elapsed.as_secs_f64().max(1e-9);
        Some((mv, info))
    }
}

/// The searches of a typical choice (keep, its value, a swap's value, and
/// one more where the chooser moves after the swap), among which a time
/// budget is shared.
const SEARCHES: u64 = 4;

/// `spec` with its time budget (`ms`, where it has one) shared among
/// `parts` searches (at least 1 ms each), so that a choice under a
/// `movetime` takes about a move's time (an external program's time-out
/// counts it). Budgets in iterations or depth are kept: each search has
/// them in full.
fn share_time(spec: AgentSpec, parts: u64) -> AgentSpec {
    let share = |ms: u64| if ms == 0 { 0 } else { (ms / parts).max(1) };
    match spec {
        AgentSpec::Uct(mut c) => {
            c.ms = share(c.ms);
            AgentSpec::Uct(c)
        }
        AgentSpec::Mcts(mut c) => {
            c.ms = share(c.ms);
            AgentSpec::Mcts(c)
        }
        AgentSpec::AlphaBeta(mut c) => {
            c.ms = share(c.ms);
            AgentSpec::AlphaBeta(c)
        }
        other => other,
    }
}

/// An option's value for the chooser, the info of the search that gave it
/// (none at a terminal position) and the chooser's moves before it.
type Framed = (f64, Option<SearchInfo>, Vec<String>);

/// The iterations and nodes of a choice's searches.
#[derive(Default)]
struct Work {
    iterations: u64,
    nodes: u64,
}

impl Work {
    fn add(&mut self, info: &SearchInfo) {
        self.iterations += info.iterations.unwrap_or(0);
        self.nodes += info.nodes;
    }
}

/// The info of a swap that ends the game.
fn terminal_info(value: f64) -> SearchInfo {
    SearchInfo {
        depth: None,
        iterations: None,
        score: 2.0 * value - 1.0,
        score_units: "mean return",
        win_probability: value,
        proven: None,
        nodes: 0,
        elapsed_ms: 0,
        rate: 0.0,
        pv: Vec::new(),
        mb_hits: None,
        pie: None,
    }
}

impl<S: Research + Search + 'static> Agent<S> for PieChooser<S> {
    fn select(&mut self, state: &S) -> S::Move {
        self.select_reporting(state, &mut |_| {})
    }

    fn select_reporting(&mut self, state: &S, on_info: &mut dyn FnMut(&SearchInfo)) -> S::Move {
        self.last = None;
        if state.offers_swap()
            && let Some((mv, info)) = self.choose(state)
        {
            self.choices += 1;
            on_info(&info);
            self.last = Some(info);
            return mv;
        }
        self.inner.select_reporting(state, on_info)
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.last.clone().or_else(|| self.inner.last_info())
    }

    fn spec(&self) -> String {
        self.inner.spec()
    }
}
