//! The spinner connection game (SPINPATH-8): an independent reference
//! generator diffed against the engine along seeded random playouts.
//!
//! The reference (`Ref`) is written from the dossier alone: a vector of
//! cells, breadth-first search for paths, placements checked one square at
//! a time against the B.5 canonical order. It shares no code with
//! `engine/src/spinner/` and sees the engine only through the public API
//! and the text formats.

// The reference generators index plain arrays by coordinates on purpose.
#![allow(clippy::needless_range_loop)]

use std::collections::{BTreeSet, HashMap, VecDeque};

use crate::spinner_rules::{game, sq};
use engine::spinner::{SpinnerGame, SpinnerState};
use engine::{Game, State, ToMove, parse_legal_move};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Piece(usize),
    Star,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum RPhase {
    Spin,
    Place { left: usize, last: Option<usize> },
    Switch,
    Over,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum RMove {
    Spin(usize),
    SpinS,
    Place(usize),
    Switch(usize, usize),
}

#[derive(Clone, Debug)]
struct Ref {
    n: usize,
    crossed: bool,
    cells: Vec<Cell>,
    to_move: usize,
    phase: RPhase,
    /// `Some(Some(p))` p won, `Some(None)` a draw.
    result: Option<Option<usize>>,
    ply: u32,
}

impl Ref {
    fn new(n: usize, stars: &[&str], crossed: bool) -> Ref {
        let mut cells = vec![Cell::Empty; n * n];
        for s in stars {
            cells[sq(s, n as u32) as usize] = Cell::Star;
        }
        Ref {
            n,
            crossed,
            cells,
            to_move: 0,
            phase: RPhase::Spin,
            result: None,
            ply: 0,
        }
    }

    fn name(&self, i: usize) -> String {
        format!("{}{}", (b'a' + (i % self.n) as u8) as char, i / self.n + 1)
    }

    fn empties(&self) -> Vec<usize> {
        (0..self.n * self.n)
            .filter(|&i| self.cells[i] == Cell::Empty)
            .collect()
    }

    /// K12 with K3 / K-Q4: BFS over own pieces and stars from one goal edge.
    fn path(&self, p: usize) -> bool {
        let n = self.n;
        let usable =
            |i: usize| matches!(self.cells[i], Cell::Star) || self.cells[i] == Cell::Piece(p);
        let files = p == 1 && self.crossed;
        let on_start = |i: usize| if files { i.is_multiple_of(n) } else { i < n };
        let on_goal = |i: usize| {
            if files {
                i % n == n - 1
            } else {
                i / n == n - 1
            }
        };
        let mut seen = vec![false; n * n];
        let mut q = VecDeque::new();
        for i in 0..n * n {
            if on_start(i) && usable(i) {
                seen[i] = true;
                q.push_back(i);
            }
        }
        while let Some(i) = q.pop_front() {
            if on_goal(i) {
                return true;
            }
            let (r, c) = ((i / n) as i64, (i % n) as i64);
            for (dr, dc) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (r2, c2) = (r + dr, c + dc);
                if r2 < 0 || c2 < 0 || r2 >= n as i64 || c2 >= n as i64 {
                    continue;
                }
                let j = (r2 * n as i64 + c2) as usize;
                if usable(j) && !seen[j] {
                    seen[j] = true;
                    q.push_back(j);
                }
            }
        }
        false
    }

    fn has_piece(&self, p: usize) -> bool {
        self.cells.contains(&Cell::Piece(p))
    }

    /// K5 / K6.
    fn chance(&self) -> Vec<(RMove, f64)> {
        if self.phase != RPhase::Spin {
            return vec![];
        }
        if self.has_piece(0) && self.has_piece(1) {
            vec![
                (RMove::Spin(1), 0.25),
                (RMove::Spin(2), 0.25),
                (RMove::Spin(3), 0.25),
                (RMove::SpinS, 0.25),
            ]
        } else {
            (1..=3).map(|k| (RMove::Spin(k), 1.0 / 3.0)).collect()
        }
    }

    fn legal(&self) -> Vec<RMove> {
        match self.phase {
            // B.5: increasing order, and room left above for the rest.
            RPhase::Place { left, last } => {
                let e = self.empties();
                e.iter()
                    .copied()
                    .filter(|&s| last.is_none_or(|l| s > l))
                    .filter(|&s| e.iter().filter(|&&t| t > s).count() + 1 >= left)
                    .map(RMove::Place)
                    .collect()
            }
            RPhase::Switch => {
                let p = self.to_move;
                let mut out = vec![];
                for a in 0..self.n * self.n {
                    for b in 0..self.n * self.n {
                        if self.cells[a] == Cell::Piece(p) && self.cells[b] == Cell::Piece(1 - p) {
                            out.push(RMove::Switch(a, b));
                        }
                    }
                }
                out
            }
            _ => vec![],
        }
    }

    fn end_turn(&mut self) {
        if self.empties().is_empty() {
            self.result = Some(None);
            self.phase = RPhase::Over;
        } else {
            self.to_move = 1 - self.to_move;
            self.phase = RPhase::Spin;
        }
    }

    fn apply(&mut self, m: RMove) {
        self.ply += 1;
        let p = self.to_move;
        match m {
            RMove::Spin(k) => {
                self.phase = RPhase::Place {
                    left: k.min(self.empties().len()),
                    last: None,
                }
            }
            RMove::SpinS => self.phase = RPhase::Switch,
            RMove::Place(s) => {
                let RPhase::Place { left, .. } = self.phase else {
                    panic!()
                };
                self.cells[s] = Cell::Piece(p);
                if self.path(p) {
                    self.result = Some(Some(p));
                    self.phase = RPhase::Over;
                } else if left == 1 {
                    self.end_turn();
                } else {
                    self.phase = RPhase::Place {
                        left: left - 1,
                        last: Some(s),
                    };
                }
            }
            RMove::Switch(a, b) => {
                self.cells.swap(a, b);
                if self.path(p) {
                    self.result = Some(Some(p));
                    self.phase = RPhase::Over;
                } else if self.path(1 - p) {
                    self.result = Some(Some(1 - p));
                    self.phase = RPhase::Over;
                } else {
                    self.end_turn();
                }
            }
        }
    }

    fn returns(&self) -> [f64; 4] {
        match self.result {
            Some(Some(0)) => [1.0, -1.0, 0.0, 0.0],
            Some(Some(_)) => [-1.0, 1.0, 0.0, 0.0],
            _ => [0.0; 4],
        }
    }

    fn to_move(&self) -> ToMove {
        match self.phase {
            RPhase::Over => ToMove::Terminal,
            RPhase::Spin => ToMove::Chance,
            _ => ToMove::Seat(self.to_move),
        }
    }

    fn move_text(&self, m: RMove) -> String {
        match m {
            RMove::Spin(k) => format!("spin={k}"),
            RMove::SpinS => "spin=S".into(),
            RMove::Place(s) => self.name(s),
            RMove::Switch(a, b) => format!("{}<>{}", self.name(a), self.name(b)),
        }
    }

    fn text(&self) -> String {
        let n = self.n;
        let rows: Vec<String> = (0..n)
            .rev()
            .map(|r| {
                let mut out = String::new();
                let mut run = 0;
                for c in 0..n {
                    let ch = match self.cells[r * n + c] {
                        Cell::Empty => {
                            run += 1;
                            continue;
                        }
                        Cell::Piece(0) => 'X',
                        Cell::Piece(_) => 'O',
                        Cell::Star => '*',
                    };
                    if run > 0 {
                        out += &run.to_string();
                        run = 0;
                    }
                    out.push(ch);
                }
                if run > 0 {
                    out += &run.to_string();
                }
                out
            })
            .collect();
        let phase = match self.phase {
            RPhase::Spin => "spin".to_string(),
            RPhase::Switch => "switch".to_string(),
            RPhase::Over => "over".to_string(),
            RPhase::Place { left, last: None } => format!("place{left}"),
            RPhase::Place {
                left,
                last: Some(s),
            } => format!("place{left}>{}", self.name(s)),
        };
        let who = if self.to_move == 0 { 'X' } else { 'O' };
        format!("{} {who} {phase} {}", rows.join("/"), self.ply)
    }
}

#[derive(Default, Debug)]
struct Tally {
    games: usize,
    positions: usize,
    chance_nodes: usize,
    respin_nodes: usize,
    switches: usize,
    wins: [usize; 2],
    opponent_wins_by_switch: usize,
    draws: usize,
}

fn compare(g: &SpinnerGame, e: &SpinnerState, r: &Ref, rng: &mut ChaCha8Rng) {
    let text = r.text();
    assert_eq!(e.to_text(), text, "position text");
    assert_eq!(e.to_move(), r.to_move(), "to_move in {text}");
    let mut moves = Vec::new();
    e.legal_moves(&mut moves);
    let et: BTreeSet<String> = moves.iter().map(|&m| e.move_to_text(m)).collect();
    let rt: BTreeSet<String> = r.legal().iter().map(|&m| r.move_text(m)).collect();
    assert_eq!(et.len(), moves.len(), "duplicates in {text}");
    assert_eq!(et, rt, "legal moves in {text}");
    assert_eq!(e.count_legal_moves(), moves.len(), "count in {text}");
    // Chance outcomes: the same outcomes and probabilities, summing to 1.
    let mut outs = Vec::new();
    e.chance_outcomes(&mut outs);
    let eo: Vec<(String, f64)> = outs.iter().map(|&(m, p)| (e.move_to_text(m), p)).collect();
    let ro: Vec<(String, f64)> = r
        .chance()
        .iter()
        .map(|&(m, p)| (r.move_text(m), p))
        .collect();
    assert_eq!(eo, ro, "chance outcomes in {text}");
    if e.to_move() == ToMove::Chance {
        let sum: f64 = outs.iter().map(|o| o.1).sum();
        assert!((sum - 1.0).abs() < 1e-12, "sum {sum} in {text}");
        let m = e.sample_chance(rng, &mut outs).unwrap();
        assert!(eo.iter().any(|o| o.0 == e.move_to_text(m)));
    } else {
        assert!(outs.is_empty());
    }
    assert_eq!(e.returns(), r.returns(), "returns in {text}");
    assert_eq!(e.zobrist(), e.zobrist_from_scratch(), "zobrist in {text}");
    let back = g
        .parse_position(&text)
        .unwrap_or_else(|err| panic!("{text}: {err}"));
    assert_eq!(back.to_text(), text);
    assert_eq!(back.zobrist(), e.zobrist(), "round-trip zobrist of {text}");
    assert_eq!(back.to_move(), e.to_move());
    assert_eq!(back.returns(), e.returns());
    let mut buf = Vec::new();
    match e.sample_legal_move(rng, &mut buf) {
        Some(m) => assert!(moves.contains(&m), "sampled {m:?} in {text}"),
        None => assert!(moves.is_empty()),
    }
}

fn play_and_compare(
    spec: &str,
    n: usize,
    stars: &[&str],
    crossed: bool,
    rng: &mut ChaCha8Rng,
    tally: &mut Tally,
    hashes: &mut HashMap<u64, String>,
) {
    let g = game(spec);
    let mut e = g.initial_state(0);
    let mut r = Ref::new(n, stars, crossed);
    loop {
        compare(&g, &e, &r, rng);
        tally.positions += 1;
        let key = r.text().rsplit_once(' ').unwrap().0.to_string();
        let prev = hashes.entry(e.zobrist()).or_insert_with(|| key.clone());
        assert_eq!(*prev, key, "zobrist collision");
        let m = match r.to_move() {
            ToMove::Terminal => break,
            ToMove::Chance => {
                tally.chance_nodes += 1;
                let c = r.chance();
                if c.len() == 3 {
                    tally.respin_nodes += 1;
                }
                // Draw by the probabilities.
                let mut x: f64 = rng.random();
                let mut pick = c[c.len() - 1].0;
                for &(m, p) in &c {
                    if x < p {
                        pick = m;
                        break;
                    }
                    x -= p;
                }
                pick
            }
            ToMove::Seat(_) => {
                let l = r.legal();
                l[rng.random_range(0..l.len())]
            }
        };
        if matches!(m, RMove::Switch(..)) {
            tally.switches += 1;
        }
        let t = r.move_text(m);
        let em =
            parse_legal_move(&e, &t).unwrap_or_else(|err| panic!("{t} in {}: {err}", r.text()));
        assert_eq!(e.move_to_text(em), t);
        let mover = r.to_move;
        let was_switch = matches!(m, RMove::Switch(..));
        e.apply(em);
        r.apply(m);
        if was_switch && r.result == Some(Some(1 - mover)) {
            tally.opponent_wins_by_switch += 1;
        }
    }
    tally.games += 1;
    match r.result {
        Some(Some(p)) => tally.wins[p] += 1,
        Some(None) => tally.draws += 1,
        None => unreachable!(),
    }
}

/// At least 10,000 positions of random games (spins drawn by the K5/K6
/// probabilities) with the default rules, and more on other sizes, stars
/// and crossed goals, each compared in full with the reference.
#[test]
fn engine_matches_reference_on_random_playouts() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5917);
    let mut t = Tally::default();
    let mut hashes = HashMap::new();
    let stars = ["c3", "f3", "c6", "f6"];
    while t.positions < 12_000 {
        play_and_compare("spinner", 8, &stars, false, &mut rng, &mut t, &mut hashes);
    }
    eprintln!("spinner 8x8: {t:?}");
    assert!(t.respin_nodes > 0 && t.switches > 100 && t.wins[0] > 0 && t.wins[1] > 0);
    let mut v = Tally::default();
    for i in 0..90 {
        let (spec, n, st, crossed): (&str, usize, Vec<&str>, bool) = match i % 6 {
            0 => ("spinner(goals=crossed)", 8, stars.to_vec(), true),
            1 => ("spinner(size=7)", 7, vec!["c3", "e3", "c5", "e5"], false),
            2 => (
                "spinner(size=9,goals=crossed)",
                9,
                vec!["c3", "g3", "c7", "g7"],
                true,
            ),
            3 => ("spinner(size=5,stars=none)", 5, vec![], false),
            4 => (
                "spinner(size=6,stars=[a1,b3,f6])",
                6,
                vec!["a1", "b3", "f6"],
                false,
            ),
            _ => ("spinner(size=11)", 11, vec!["c3", "i3", "c9", "i9"], false),
        };
        let mut h = HashMap::new();
        play_and_compare(spec, n, &st, crossed, &mut rng, &mut v, &mut h);
    }
    eprintln!("variants: {v:?}");
    assert!(v.positions > 5_000);
    assert!(t.draws + v.draws > 0, "K10 draws occur: {t:?} {v:?}");
    assert!(
        t.opponent_wins_by_switch + v.opponent_wins_by_switch > 0,
        "K9 second case occurs"
    );
}
