//! The exact solver: Nim with distances, a lying solution table, one-seat
//! knapsack puzzles, small Solitaire Sly positions and the game's dedicated
//! Solitaire Sly solver against the generic search.

use std::fmt;

use agents::{AgentSpec, Solver, SolverConfig};
use engine::Research;
use engine::slingshot::{SlingshotGame, SlingshotState};
use engine::sly_solitaire::{SlySolitaireGame, SlySolitaireState};
use engine::spec::Spec;
use engine::{Game, GameError, MAX_SEATS, Returns, Search, State, ToMove, parse_legal_move};

use crate::common::Nim;

fn solver<S: State + Search>(fewest: bool) -> Solver<S> {
    Solver::new(SolverConfig {
        mb: 1,
        nodes: 0,
        fewest,
        generic: false,
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
            seats: 2,
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

/// `plies=any` on two seats: the same values as `plies=fewest` (Nim by
/// hand above; 5×5 Slingshot positions, with draws, wins and losses, from
/// the full search), a winning first move where the mover wins, and for a
/// win a distance no shorter than the fewest.
#[test]
fn solver_with_any_plies_finds_the_same_values_by_null_windows() {
    for pile in 1u32..=12 {
        let s = Nim {
            pile,
            to_move: 0,
            ply: 0,
            seats: 2,
        };
        let sol = solver::<Nim>(false).solve(&s);
        assert!(sol.proven);
        let want = if pile % 3 == 0 { -1.0 } else { 1.0 };
        assert_eq!(sol.value, want, "pile {pile}");
        if pile % 3 != 0 {
            assert_eq!(sol.line, vec![pile % 3], "pile {pile}");
        }
    }
    let game = SlingshotGame::from_spec(&Spec::parse("slingshot(size=5)").unwrap()).unwrap();
    let mut seen = [0; 3];
    for (record, plies) in [
        ("a1,c3 chooser=B", 4),
        ("b2,d4 chooser=T", 4),
        ("c1,c5 chooser=B", 5),
        ("a1,e5 chooser=T", 5),
        ("b3,d3 chooser=B", 6),
        ("a2,e4 chooser=B", 6),
        ("c2,c4 chooser=T", 7),
    ] {
        let mut s = game.initial_state(0);
        engine::apply_moves(&mut s, record).unwrap();
        let mut moves = Vec::new();
        for k in 0..plies {
            if s.is_terminal() {
                break;
            }
            s.legal_moves(&mut moves);
            s.apply(moves[(k * 7 + 3) % moves.len()]);
        }
        if s.is_terminal() {
            continue;
        }
        let fewest = solver::<SlingshotState>(true).solve(&s);
        let any = solver::<SlingshotState>(false).solve(&s);
        assert!(fewest.proven && any.proven);
        assert_eq!(any.value, fewest.value, "{}", s.to_text());
        seen[(fewest.value + 1.0) as usize] += 1;
        if any.value > 0.0 {
            assert!(any.plies >= fewest.plies, "{}", s.to_text());
            let mut c = s;
            c.apply(any.line[0]);
            let after = solver::<SlingshotState>(true).solve(&c);
            assert_eq!(after.value, -1.0, "{}: not a winning move", s.to_text());
        }
    }
    eprintln!("losses, draws, wins: {seen:?}");
    assert!(seen[0] > 0 && seen[2] > 0, "{seen:?}");
}

/// Nim whose solution table lies about pile 3 (it says the mover wins): a
/// solver that consults [`Search::solved`] first must believe it, so pile 4
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
}

impl Search for TabledNim {
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
        seats: 2,
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

impl Search for Knapsack {
    fn return_bound(&self, _within: u32) -> Option<f64> {
        self.bounded.then_some(self.capacity as f64)
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
        generic: false,
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
    // Row 5 B L . D on D-G: B jumps L to 5F, lands beside D and jumps it to
    // 5H, one piece in 2 plies. L's jump left over B to 5C instead leaves
    // L and D apart (two pieces); D cannot move (5F is empty).
    let s = sly("12/12/12/12/3BL1D5/12/12/12/12/12/12/12 0");
    for generic in [false, true] {
        let mut solver = Solver::<SlySolitaireState>::new(SolverConfig {
            mb: 1,
            nodes: 0,
            fewest: true,
            generic,
        });
        let sol = solver.solve(&s);
        assert_eq!((sol.value, sol.plies, sol.proven), (-1.0, 2, true));
        let line: Vec<String> = sol.line.iter().map(|&m| s.move_to_text(m)).collect();
        assert_eq!(line, ["5D-5F", "5F-5H"]);
    }
}

/// Two implementations: the game's dedicated Solitaire Sly solver
/// (`Search::solve_alone`, bits, restarts) against the generic branch and
/// bound through the `State` API, on 120 positions with 16 pieces left in
/// random games on random layouts: the same best return and, with
/// `plies=fewest`, the same shortest length; each line replays legally to
/// an end with that return.
#[test]
fn sly_solver_matches_the_generic_search() {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let g =
        SlySolitaireGame::from_spec(&Spec::parse("sly_solitaire(layout=random)").unwrap()).unwrap();
    let mut buf = Vec::new();
    let mut checked = 0;
    let mut values = std::collections::BTreeMap::new();
    for seed in 0..400u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut s = g.initial_state(seed);
        while !s.is_terminal() && s.pieces_left() > 16 {
            s.legal_moves(&mut buf);
            s.apply(*buf.choose(&mut rng).unwrap());
        }
        if s.is_terminal() {
            continue;
        }
        let solve = |generic| {
            Solver::<SlySolitaireState>::new(SolverConfig {
                mb: 1,
                nodes: 0,
                fewest: true,
                generic,
            })
            .solve(&s)
        };
        let (fast, plain) = (solve(false), solve(true));
        assert!(fast.proven && plain.proven);
        assert_eq!(
            (fast.value, fast.plies),
            (plain.value, plain.plies),
            "{}",
            s.to_text()
        );
        let mut end = s;
        for &m in &fast.line {
            parse_legal_move(&end, &end.move_to_text(m)).unwrap();
            end.apply(m);
        }
        assert!(end.is_terminal());
        assert_eq!(end.returns()[0], fast.value);
        *values.entry(fast.value as i64).or_insert(0) += 1;
        checked += 1;
        if checked == 120 {
            break;
        }
    }
    assert_eq!(checked, 120);
    // The sample is not trivial: both wins and worse ends occur.
    assert!(values.len() >= 2, "{values:?}");
}

/// A solver table larger than the machine's memory is refused with a
/// one-line error at parse time (allocating it would abort the process).
#[test]
fn solver_table_larger_than_memory_is_refused() {
    let Some(total) = agents::solver::physical_memory_mib() else {
        return; // no /proc/meminfo: nothing to check against
    };
    if total >= 65536 {
        return; // the largest valid mb fits this machine
    }
    let err = AgentSpec::parse("solver(mb=65536)")
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("more than this machine's memory"), "{err}");
    assert!(!err.contains('\n'));
    assert!(AgentSpec::parse("solver(mb=1)").is_ok());
}

/// The solver reports what it proved through [`agents::Agent::last_info`]
/// (and so through `select_reporting`, which `analyse` and `play
/// --verbose` print), with values fixed by hand: Nim pile 7 is a win in 5
/// plies (take 1; module docs of `solver_solves_nim_with_distances`), pile
/// 6 a loss in 4; the knapsack of capacity 10 ends on 10 in 2 plies.
#[test]
fn solver_reports_proven_value_line_and_positions() {
    for (pile, proven, score, first) in [
        (7, "win in 5 plies", 1.0, "1"),
        (6, "loss in 4 plies", -1.0, ""),
    ] {
        let s = Nim {
            pile,
            to_move: 0,
            ply: 0,
            seats: 2,
        };
        let mut agent = AgentSpec::parse("solver(mb=1)").unwrap().build::<Nim>(0);
        let mut lines = Vec::new();
        agent.select_reporting(&s, &mut |i| lines.push(i.clone()));
        assert_eq!(lines.len(), 1);
        let i = &lines[0];
        assert_eq!(i.proven.as_deref(), Some(proven), "pile {pile}");
        assert_eq!((i.score, i.score_units), (score, "return"));
        assert!(i.nodes > 0);
        assert!(i.pv.len() <= if score > 0.0 { 5 } else { 4 }, "{:?}", i.pv);
        if !first.is_empty() {
            assert_eq!(i.pv[0], first);
        }
        // Every move of the reported line is legal in turn.
        let mut st = s.clone();
        for m in &i.pv {
            let mv = parse_legal_move(&st, m).unwrap();
            st.apply(mv);
        }
        let text = i.line();
        assert!(text.contains(&format!("proven {proven}")), "{text}");
        assert!(text.contains(" nodes "), "{text}");
    }
    let mut agent = AgentSpec::parse("solver(mb=1)")
        .unwrap()
        .build::<Knapsack>(0);
    let s = Knapsack::new(&[1, 2, 3, 4, 6], 10, false);
    let m = agent.select(&s);
    let i = agent.last_info().expect("the solver reports");
    assert_eq!(i.proven.as_deref(), Some("return 10 in 2 plies"));
    assert_eq!(i.pv.len(), 2);
    assert_eq!(i.pv[0], s.move_to_text(m));
    // The next move comes from the kept line: reported, no positions searched.
    let mut s2 = s.clone();
    s2.apply(m);
    agent.select(&s2);
    let i2 = agent.last_info().unwrap();
    assert_eq!((i2.nodes, i2.pv.len()), (0, 1));
    assert_eq!(i2.proven.as_deref(), Some("return 10 in 1 plies"));
}
