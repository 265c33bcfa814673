//! Agents on small games whose best moves are known by hand: Nim (take 1
//! or 2, last take wins: the losing piles are the multiples of 3), a
//! chance game with 1–4 seats, Slingshot positions with an immediate win,
//! and for the exact solver a lying solution table, one-seat knapsack puzzles
//! and small Solitaire Sly positions.

use std::fmt;

use agents::{AgentSpec, AlphaBeta, AlphaBetaConfig, Mcts, MctsConfig, Solver, SolverConfig};
use engine::Research;
use engine::slingshot::Slingshot;
use engine::sly_solitaire::{SlySolitaireGame, SlySolitaireState};
use engine::spec::Spec;
use engine::{Game, GameError, MAX_SEATS, Returns, State, ToMove, parse_legal_move};

/// Nim with two seats: a pile, take 1 or 2, whoever takes the last wins.
#[derive(Clone, Debug, PartialEq)]
struct Nim {
    pile: u32,
    to_move: usize,
    ply: u32,
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pile {}", self.pile)
    }
}

impl State for Nim {
    type Move = u32;
    fn num_seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> ToMove {
        if self.pile == 0 {
            ToMove::Terminal
        } else {
            ToMove::Seat(self.to_move)
        }
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend((1..=2).filter(|&k| k <= self.pile));
    }
    fn apply(&mut self, mv: u32) {
        self.pile -= mv;
        self.to_move = 1 - self.to_move;
        self.ply += 1;
    }
    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if self.pile == 0 {
            // The seat that just moved took the last one.
            r[1 - self.to_move] = 1.0;
            r[self.to_move] = -1.0;
        }
        r
    }
    fn zobrist(&self) -> u64 {
        (self.pile as u64) << 1 | self.to_move as u64
    }
    fn zobrist_from_scratch(&self) -> u64 {
        self.zobrist()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
    fn move_to_text(&self, mv: u32) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u32, GameError> {
        text.parse().map_err(|_| GameError::new("bad"))
    }
}

impl Research for Nim {
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}

#[test]
fn both_searchers_solve_nim() {
    for pile in [4u32, 5, 7, 8, 10, 11] {
        let s = Nim {
            pile,
            to_move: 0,
            ply: 0,
        };
        let want = pile % 3; // leave a multiple of 3
        let mut ab = AlphaBeta::<Nim>::new(
            AlphaBetaConfig {
                depth: 12,
                ms: 0,
                tt_mb: 1,
            },
            1,
        );
        let (mv, v) = ab.search(&s);
        assert_eq!(mv, want, "alpha-beta on pile {pile}");
        assert!(v > 0, "a won position scores positive");
        let mut m = Mcts::<Nim>::new(
            MctsConfig {
                iterations: 3000,
                c: 1.4,
                ms: 0,
            },
            2,
        );
        assert_eq!(m.search(&s), want, "mcts on pile {pile}");
    }
    // A lost position (pile 6): alpha-beta sees the loss.
    let mut ab = AlphaBeta::<Nim>::new(
        AlphaBetaConfig {
            depth: 12,
            ms: 0,
            tt_mb: 1,
        },
        1,
    );
    assert!(
        ab.search(&Nim {
            pile: 6,
            to_move: 1,
            ply: 0
        })
        .1 < 0
    );
}

/// A chance game for 1–4 seats: the last seat picks a coin `i`, whose
/// chance node then makes the mover win with probability `P[i]` (return
/// +1 for the mover, −1 for every other seat; a one-seat game scores ±1).
#[derive(Clone, Debug)]
struct Coins {
    seats: usize,
    picked: Option<usize>,
    outcome: Option<bool>,
    ply: u32,
}

const P: [f64; 4] = [0.3, 0.8, 0.55, 0.1];

impl fmt::Display for Coins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self)
    }
}

impl State for Coins {
    type Move = usize;
    fn num_seats(&self) -> usize {
        self.seats
    }
    fn to_move(&self) -> ToMove {
        match (self.picked, self.outcome) {
            (None, _) => ToMove::Seat(self.seats - 1),
            (Some(_), None) => ToMove::Chance,
            _ => ToMove::Terminal,
        }
    }
    fn legal_moves(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.picked.is_none() {
            out.extend(0..P.len());
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(usize, f64)>) {
        out.clear();
        if let (Some(i), None) = (self.picked, self.outcome) {
            out.push((1, P[i]));
            out.push((0, 1.0 - P[i]));
        }
    }
    fn apply(&mut self, mv: usize) {
        if self.picked.is_none() {
            self.picked = Some(mv);
        } else {
            self.outcome = Some(mv == 1);
        }
        self.ply += 1;
    }
    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if let Some(win) = self.outcome {
            let mover = self.seats - 1;
            for (s, x) in r.iter_mut().enumerate().take(self.seats) {
                *x = if (s == mover) == win { 1.0 } else { -1.0 };
            }
        }
        r
    }
    fn zobrist(&self) -> u64 {
        self.ply as u64 * 31
            + self.picked.unwrap_or(9) as u64 * 7
            + self.outcome.map_or(3, |b| b as u64)
    }
    fn zobrist_from_scratch(&self) -> u64 {
        self.zobrist()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
    fn move_to_text(&self, mv: usize) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<usize, GameError> {
        text.parse().map_err(|_| GameError::new("bad"))
    }
}

impl Research for Coins {
    fn first_mover_seat(&self) -> Option<usize> {
        None
    }
}

#[test]
fn mcts_samples_chance_nodes_for_one_to_four_seats() {
    for seats in 1..=4 {
        let s = Coins {
            seats,
            picked: None,
            outcome: None,
            ply: 0,
        };
        let mut m = Mcts::<Coins>::new(
            MctsConfig {
                iterations: 4000,
                c: 0.5,
                ms: 0,
            },
            seats as u64,
        );
        assert_eq!(m.search(&s), 1, "the 0.8 coin, {seats} seats");
    }
    // Alpha-beta takes the expectation at chance nodes.
    let s = Coins {
        seats: 2,
        picked: None,
        outcome: None,
        ply: 0,
    };
    let mut ab = AlphaBeta::<Coins>::new(
        AlphaBetaConfig {
            depth: 4,
            ms: 0,
            tt_mb: 1,
        },
        3,
    );
    assert_eq!(ab.search(&s).0, 1);
}

fn slingshot(g: &str, position: &str) -> <Slingshot as Game>::State {
    let game = Slingshot::from_spec(&Spec::parse(g).unwrap()).unwrap();
    game.parse_position(position).unwrap()
}

#[test]
fn every_agent_takes_an_immediate_slingshot_win() {
    // 7×7, Black (seat 0) to move: file d is Black but for the Teal stone
    // on d4; flipping d4 (e.g. a3+a5xd4, S9 row line) completes rank 1 to
    // rank 7 (S3, S12). Hand-checked: several moves flip d4, all win.
    let s = slingshot("slingshot(size=7)", "3B3/3B3/3B3/T2T2T/3B3/3B3/3B3 B C 0 0");
    let win = parse_legal_move(&s, "a3+a5xd4").unwrap();
    let mut t = s;
    t.apply(win);
    assert_eq!(t.returns()[0], 1.0);
    for spec in [
        "mcts(iterations=300)",
        "alphabeta(depth=1)",
        "alphabeta(depth=3)",
    ] {
        let mut agent = AgentSpec::parse(spec)
            .unwrap()
            .build::<<Slingshot as Game>::State>(5);
        let mv = agent.select(&s);
        let mut t = s;
        t.apply(mv);
        assert!(
            t.is_terminal() && t.returns()[0] == 1.0,
            "{spec} played {}",
            s.move_to_text(mv)
        );
    }
}

#[test]
fn agents_are_reproducible_for_a_seed() {
    let s = slingshot("slingshot", "9/9/9/9/4T4/9/9/9/T8 B C 0 1");
    for spec in ["random", "mcts(iterations=200)", "alphabeta(depth=2)"] {
        let a = AgentSpec::parse(spec).unwrap();
        let m1 = a.build::<<Slingshot as Game>::State>(11).select(&s);
        let m2 = a.build::<<Slingshot as Game>::State>(11).select(&s);
        assert_eq!(m1, m2, "{spec}");
    }
    let bytes = Mcts::<<Slingshot as Game>::State>::bytes_per_node();
    assert!(bytes <= 32, "MCTS node is {bytes} bytes");
}

// ---------------------------------------------------------------------------
// The exact solver
// ---------------------------------------------------------------------------

fn solver<S: State>(fewest: bool) -> Solver<S> {
    Solver::new(SolverConfig {
        mb: 1,
        nodes: 0,
        fewest,
    })
}

/// Nim by hand: the mover loses exactly on multiples of 3. Distances under
/// perfect play (the winner hurries, the loser delays; every round of the
/// loser's 1 and the winner's 2, or 2 and 1, takes 2 plies per 3 stones):
/// a win from pile n takes `1 + 2 * (n / 3)` plies (first take n % 3), a
/// loss `2 * (n / 3)`.
#[test]
fn solver_solves_nim_with_distances() {
    for pile in 1u32..=12 {
        let s = Nim {
            pile,
            to_move: (pile % 2) as usize,
            ply: 0,
        };
        let sol = solver::<Nim>(true).solve(&s);
        assert!(sol.proven);
        if pile % 3 == 0 {
            assert_eq!(sol.value, -1.0, "pile {pile}");
            assert_eq!(sol.plies, 2 * (pile / 3), "pile {pile}");
        } else {
            assert_eq!(sol.value, 1.0, "pile {pile}");
            assert_eq!(sol.line, vec![pile % 3], "pile {pile}");
            assert_eq!(sol.plies, 1 + 2 * (pile / 3), "pile {pile}");
        }
    }
}

/// Nim whose solution table lies about pile 3 (it says the mover wins): a
/// solver that consults [`State::solved`] first must believe it, so pile 4
/// (truly a win, take 1) comes out lost: both takes leave the opponent a
/// "won" pile (3 by the table, 2 truly).
#[derive(Clone, Debug, PartialEq)]
struct TabledNim(Nim);

impl fmt::Display for TabledNim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl State for TabledNim {
    type Move = u32;
    fn num_seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> ToMove {
        self.0.to_move()
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        self.0.legal_moves(out)
    }
    fn apply(&mut self, mv: u32) {
        self.0.apply(mv)
    }
    fn returns(&self) -> Returns {
        self.0.returns()
    }
    fn zobrist(&self) -> u64 {
        self.0.zobrist()
    }
    fn zobrist_from_scratch(&self) -> u64 {
        self.0.zobrist()
    }
    fn ply(&self) -> u32 {
        self.0.ply
    }
    fn to_text(&self) -> String {
        self.0.to_text()
    }
    fn move_to_text(&self, mv: u32) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u32, GameError> {
        self.0.parse_move(text)
    }
    fn solved(&self) -> Option<(i8, u32)> {
        (self.0.pile == 3).then_some((1, 1))
    }
}

#[test]
fn solver_consults_the_solution_table_first() {
    let s = TabledNim(Nim {
        pile: 4,
        to_move: 0,
        ply: 0,
    });
    let sol = solver::<TabledNim>(true).solve(&s);
    assert_eq!(sol.value, -1.0, "the table's pile 3 is believed");
    // Plain Nim from 4 is a win in 3 plies (take 1).
    let sol = solver::<Nim>(true).solve(&s.0);
    assert_eq!((sol.value, sol.plies, sol.line), (1.0, 3, vec![1]));
}

/// A one-seat knapsack puzzle: take items one at a time while they fit the
/// capacity; the game ends when none fits; the return is the weight taken.
#[derive(Clone, Debug, PartialEq)]
struct Knapsack {
    items: &'static [u32],
    capacity: u32,
    taken: u32,
    ply: u32,
    bounded: bool,
}

impl Knapsack {
    fn new(items: &'static [u32], capacity: u32, bounded: bool) -> Knapsack {
        Knapsack {
            items,
            capacity,
            taken: 0,
            ply: 0,
            bounded,
        }
    }
    fn weight(&self) -> u32 {
        (0..self.items.len())
            .filter(|i| self.taken >> i & 1 == 1)
            .map(|i| self.items[i])
            .sum()
    }
}

impl fmt::Display for Knapsack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "taken {:b}", self.taken)
    }
}

impl State for Knapsack {
    type Move = usize;
    fn num_seats(&self) -> usize {
        1
    }
    fn to_move(&self) -> ToMove {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        if v.is_empty() {
            ToMove::Terminal
        } else {
            ToMove::Seat(0)
        }
    }
    fn legal_moves(&self, out: &mut Vec<usize>) {
        out.clear();
        let w = self.weight();
        out.extend(
            (0..self.items.len())
                .filter(|&i| self.taken >> i & 1 == 0 && w + self.items[i] <= self.capacity),
        );
    }
    fn apply(&mut self, mv: usize) {
        self.taken |= 1 << mv;
        self.ply += 1;
    }
    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if self.is_terminal() {
            r[0] = self.weight() as f64;
        }
        r
    }
    fn return_bound(&self, _within: u32) -> Option<f64> {
        self.bounded.then_some(self.capacity as f64)
    }
    fn zobrist(&self) -> u64 {
        self.taken as u64
    }
    fn zobrist_from_scratch(&self) -> u64 {
        self.taken as u64
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn to_text(&self) -> String {
        format!("{self}")
    }
    fn move_to_text(&self, mv: usize) -> String {
        format!("item {mv}")
    }
    fn parse_move(&self, text: &str) -> Result<usize, GameError> {
        let n = text.strip_prefix("item ").unwrap_or(text);
        n.parse()
            .map_err(|_| GameError::new(format!("bad knapsack move {text:?}")))
    }
}

impl Research for Knapsack {
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}

/// Checks that `line` is legal from `s` and ends the game with return `v`.
fn replays_to<S: State>(s: &S, line: &[S::Move], v: f64) {
    let mut t = s.clone();
    for &m in line {
        let mut moves = Vec::new();
        t.legal_moves(&mut moves);
        assert!(moves.contains(&m), "{m:?} illegal in {t}");
        t.apply(m);
    }
    assert!(t.is_terminal(), "the line stops before the end: {t}");
    assert_eq!(t.returns()[0], v);
}

/// By hand: capacity 9 with items 6, 5, 4: greedy takes 6 and stops at 6;
/// the best is 5 + 4 = 9. Capacity 10 with items 1, 2, 3, 4, 6: 10 is
/// reached by {4, 6} (2 items), {1, 3, 6} (3) or {1, 2, 3, 4} (4): the
/// fewest plies are 2, the items at indices 3 and 4.
#[test]
fn solver_solves_one_seat_puzzles() {
    for bounded in [false, true] {
        let s = Knapsack::new(&[6, 5, 4], 9, bounded);
        let sol = solver::<Knapsack>(false).solve(&s);
        assert_eq!(sol.value, 9.0);
        assert!(sol.proven);
        replays_to(&s, &sol.line, 9.0);
        let s = Knapsack::new(&[1, 2, 3, 4, 6], 10, bounded);
        let any = solver::<Knapsack>(false).solve(&s);
        assert_eq!(any.value, 10.0);
        replays_to(&s, &any.line, 10.0);
        let fewest = solver::<Knapsack>(true).solve(&s);
        assert_eq!(fewest.value, 10.0);
        assert!(fewest.proven);
        assert_eq!(fewest.plies, 2);
        let mut items = fewest.line.clone();
        items.sort();
        assert_eq!(items, vec![3, 4]);
        replays_to(&s, &fewest.line, 10.0);
        // The bound (capacity 10, reached) stops the search early.
        if bounded {
            assert!(any.nodes < 10, "{} nodes", any.nodes);
        }
    }
    // A node budget gives the best line so far, unproven.
    let s = Knapsack::new(&[6, 5, 4], 9, false);
    let mut budget = Solver::<Knapsack>::new(SolverConfig {
        mb: 1,
        nodes: 3,
        fewest: false,
    });
    assert!(!budget.solve(&s).proven);
}

/// The solver as an agent plays the whole one-seat game along its line:
/// the knapsack of capacity 10 ends on 10 in 2 plies.
#[test]
fn solver_agent_plays_its_line() {
    let mut agent = AgentSpec::parse("solver(mb=1)")
        .unwrap()
        .build::<Knapsack>(0);
    let mut s = Knapsack::new(&[1, 2, 3, 4, 6], 10, false);
    while !s.is_terminal() {
        let m = agent.select(&s);
        s.apply(m);
    }
    assert_eq!((s.returns()[0], s.ply), (10.0, 2));
}

fn sly(position: &str) -> SlySolitaireState {
    SlySolitaireGame::from_spec(&Spec::parse("sly_solitaire").unwrap())
        .unwrap()
        .parse_position(position)
        .unwrap()
}

/// Solitaire Sly by hand (sly.md §3.2). Row 5 B L D O on D-G: B jumps right
/// over L D O to 5H and leaves one piece: value −1 in 1 ply. Row 5 B L B on
/// D-F: neither B can jump (the run holds the other B, S-3); L jumps left
/// over B to 5C or right over B to 5G, leaving two pieces two spaces
/// apart, which cannot move: value −2 ("good"), 1 ply.
#[test]
fn solver_on_small_solitaire_positions() {
    let s = sly("12/12/12/12/3BLDO5/12/12/12/12/12/12/12 0");
    let sol = solver::<SlySolitaireState>(true).solve(&s);
    assert_eq!((sol.value, sol.plies), (-1.0, 1));
    assert_eq!(s.move_to_text(sol.line[0]), "5D-5H");
    let s = sly("12/12/12/12/3BLB6/12/12/12/12/12/12/12 0");
    let sol = solver::<SlySolitaireState>(true).solve(&s);
    assert_eq!((sol.value, sol.plies, sol.proven), (-2.0, 1, true));
}
