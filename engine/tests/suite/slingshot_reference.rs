//! Slingshot: an independent reference implementation and a differential
//! test of the engine against it.
//!
//! The reference (`Ref`) is written from the rules dossier alone
//! (`docs/rules/slingshot.md`; rule numbers S1–S23 are cited). It is
//! deliberately plain and slow: an array of squares, breadth-first search for
//! paths, and the custodial generator taken literally from S9 (for every
//! opponent singleton T, each target line through T, every square M on the
//! line, the pair M ± p). It shares no code with `engine/src/slingshot/`;
//! the engine is only touched through its public API, for comparison.
//!
//! Tests here:
//! * the reference reproduces the dossier's own numbers (so it is a fair
//!   judge);
//! * random playouts on 7×7 and 9×9 (plus rule variants) compare the engine
//!   with the reference at every position;
//! * `sample_legal_move` returns legal moves, uniformly (early game and
//!   late Phase C);
//! * a golden 7×7 playthrough (`tests/suite/data/slingshot_playthrough_7.txt`),
//!   replayed through `engine::apply_moves` and through the reference.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::path::PathBuf;

use engine::slingshot::{Rules, SlingshotGame, SlingshotState};
use engine::testkit::{Golden, check_uniform};
use engine::{Game, State, ToMove, apply_moves, parse_legal_move};
use engine::{Research, Search};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------------------
// The reference implementation
// ---------------------------------------------------------------------------

/// Squares of the largest board (9×9); a 7×7 board uses the first 49.
const MAX_SQ: usize = 81;

/// What one square holds (S2, S15, and the Q3 alternative `#`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Black,
    Teal,
    /// One Black and one Teal piece: neutral, usable by both (S15).
    Stack,
    /// A corner under `corners=neutral`: unplayable, usable by both.
    Neutral,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
enum Side {
    Black,
    Teal,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::Black => Side::Teal,
            Side::Teal => Side::Black,
        }
    }
    fn cell(self) -> Cell {
        match self {
            Side::Black => Cell::Black,
            Side::Teal => Cell::Teal,
        }
    }
    fn letter(self) -> char {
        match self {
            Side::Black => 'B',
            Side::Teal => 'T',
        }
    }
    fn engine(self) -> engine::slingshot::Side {
        match self {
            Side::Black => engine::slingshot::Side::Black,
            Side::Teal => engine::slingshot::Side::Teal,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct RefRules {
    n: usize,
    /// Pieces per colour; `None` = unlimited (S21, Q5).
    supply: Option<usize>,
    neutral_corners: bool,
    stuck_loses: bool,
}

impl RefRules {
    fn standard(n: usize) -> RefRules {
        RefRules {
            n,
            supply: Some(45),
            neutral_corners: false,
            stuck_loses: false,
        }
    }

    /// The same variant in the engine.
    fn engine_game(&self) -> SlingshotGame {
        SlingshotGame::new(Rules {
            size: self.n as u32,
            supply: self.supply.map_or(u32::MAX, |s| s as u32),
            neutral_corners: self.neutral_corners,
            stuck_loses: self.stuck_loses,
        })
        .expect("valid rules")
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
enum RMove {
    Setup(usize, usize),
    Choose(Side),
    /// (lower pair square, higher pair square, target).
    Custodial(usize, usize, usize),
    Stack(usize),
    Pass,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Setup,
    Choose,
    Play,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    Ongoing,
    Win(Side),
    Draw,
}

/// The four target lines `d` with their perpendicular `p` (S9 table), as
/// (rank, file) steps.
const LINES: [((i32, i32), (i32, i32)); 4] = [
    ((0, 1), (1, 0)),  // row: pair below / above M
    ((1, 0), (0, 1)),  // column: pair left / right of M
    ((1, 1), (1, -1)), // diagonal a1–i9
    ((1, -1), (1, 1)), // anti-diagonal a9–i1
];

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

#[derive(Clone, Debug)]
struct Ref {
    rules: RefRules,
    cells: [Cell; MAX_SQ],
    stage: Stage,
    phase_s: bool,
    to_move: Side,
    /// 0 or 1 once the chooser has chosen (S7).
    black_seat: usize,
    passes: u32,
    outcome: Outcome,
    ply: u32,
}

impl Ref {
    /// The empty board, the setter (seat 0) to place the set-up (S5, Q4).
    fn new(rules: RefRules) -> Ref {
        let mut r = Ref {
            rules,
            cells: [Cell::Empty; MAX_SQ],
            stage: Stage::Setup,
            phase_s: false,
            to_move: Side::Black,
            black_seat: 0,
            passes: 0,
            outcome: Outcome::Ongoing,
            ply: 0,
        };
        if rules.neutral_corners {
            let n = rules.n;
            for sq in [0, n - 1, n * (n - 1), n * n - 1] {
                r.cells[sq] = Cell::Neutral;
            }
        }
        r
    }

    /// A play position from rows written rank n first (`.` empty, `B`, `T`,
    /// `X` stack, `#` neutral corner), settled as at the start of a turn.
    fn from_rows(
        rules: RefRules,
        rows: &[&str],
        to_move: Side,
        phase_s: bool,
        black_seat: usize,
    ) -> Ref {
        let n = rules.n;
        assert_eq!(rows.len(), n);
        let mut r = Ref::new(rules);
        for (i, row) in rows.iter().enumerate() {
            let rank = n - 1 - i;
            let chars: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(chars.len(), n, "row {row:?}");
            for (file, ch) in chars.into_iter().enumerate() {
                r.cells[rank * n + file] = match ch {
                    '.' => Cell::Empty,
                    'B' => Cell::Black,
                    'T' => Cell::Teal,
                    'X' => Cell::Stack,
                    '#' => Cell::Neutral,
                    _ => panic!("bad cell {ch:?}"),
                };
            }
        }
        r.stage = Stage::Play;
        r.to_move = to_move;
        r.phase_s = phase_s;
        r.black_seat = black_seat;
        assert!(!r.has_path(to_move), "the side to move already has a path");
        if r.has_path(to_move.other()) {
            r.outcome = Outcome::Win(to_move.other());
        } else {
            r.start_turn();
        }
        r
    }

    fn n(&self) -> usize {
        self.rules.n
    }

    /// The square at (rank, file) if it is on the board.
    fn at(&self, r: i32, c: i32) -> Option<usize> {
        let n = self.n() as i32;
        if (0..n).contains(&r) && (0..n).contains(&c) {
            Some((r * n + c) as usize)
        } else {
            None
        }
    }

    fn rc(&self, sq: usize) -> (i32, i32) {
        ((sq / self.n()) as i32, (sq % self.n()) as i32)
    }

    fn name(&self, sq: usize) -> String {
        let (r, c) = self.rc(sq);
        format!("{}{}", (b'a' + c as u8) as char, r + 1)
    }

    fn parse_square(&self, s: &str) -> Option<usize> {
        let mut chars = s.chars();
        let f = chars.next()?;
        let rank: String = chars.collect();
        if !f.is_ascii_lowercase() || rank.is_empty() || !rank.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let c = (f as u8 - b'a') as i32;
        let r: i32 = rank.parse().ok()?;
        if rank.starts_with('0') {
            return None;
        }
        self.at(r - 1, c)
    }

    fn count(&self, cell: Cell) -> usize {
        self.cells[..self.n() * self.n()]
            .iter()
            .filter(|&&x| x == cell)
            .count()
    }

    /// S21, D8: supply minus own singletons minus stacks (a stack holds one
    /// piece of each colour). `usize::MAX` when unlimited.
    fn hand(&self, side: Side) -> usize {
        match self.rules.supply {
            None => usize::MAX,
            Some(s) => s - self.count(side.cell()) - self.count(Cell::Stack),
        }
    }

    /// S2: own singletons and stacks (and neutral corners) are usable.
    fn usable(&self, side: Side, sq: usize) -> bool {
        let x = self.cells[sq];
        x == side.cell() || x == Cell::Stack || x == Cell::Neutral
    }

    /// S1, S3: a chain of orthogonally adjacent usable squares from one of
    /// the side's edges to the other (breadth-first search).
    fn has_path(&self, side: Side) -> bool {
        let n = self.n() as i32;
        let mut seen = [false; MAX_SQ];
        let mut queue = VecDeque::new();
        for i in 0..n {
            // Black starts on rank 1, Teal on file a.
            let sq = match side {
                Side::Black => self.at(0, i).unwrap(),
                Side::Teal => self.at(i, 0).unwrap(),
            };
            if self.usable(side, sq) {
                seen[sq] = true;
                queue.push_back(sq);
            }
        }
        while let Some(sq) = queue.pop_front() {
            let (r, c) = self.rc(sq);
            let goal = match side {
                Side::Black => r == n - 1,
                Side::Teal => c == n - 1,
            };
            if goal {
                return true;
            }
            for (dr, dc) in ORTHO {
                if let Some(nb) = self.at(r + dr, c + dc)
                    && !seen[nb]
                    && self.usable(side, nb)
                {
                    seen[nb] = true;
                    queue.push_back(nb);
                }
            }
        }
        false
    }

    /// S9 taken literally, with S21's three pieces in hand.
    fn custodial_moves(&self, me: Side) -> Vec<RMove> {
        let mut out = Vec::new();
        if self.hand(me) < 3 {
            return out;
        }
        let n = self.n() as i32;
        let opp = me.other().cell();
        for t in 0..self.n() * self.n() {
            if self.cells[t] != opp {
                continue; // S9.1: the target is an opponent singleton
            }
            let (tr, tc) = self.rc(t);
            for ((dr, dc), (pr, pc)) in LINES {
                // S9.3: every square M of the line through T (t = 0 is T).
                for k in -n..=n {
                    let (mr, mc) = (tr + k * dr, tc + k * dc);
                    if self.at(mr, mc).is_none() {
                        continue;
                    }
                    // S9.4: A = M - p and B = M + p on the board and empty.
                    let a = self.at(mr - pr, mc - pc);
                    let b = self.at(mr + pr, mc + pc);
                    if let (Some(a), Some(b)) = (a, b)
                        && self.cells[a] == Cell::Empty
                        && self.cells[b] == Cell::Empty
                    {
                        out.push(RMove::Custodial(a.min(b), a.max(b), t));
                    }
                }
            }
        }
        out
    }

    /// S15, S18, S21: a stack on any opponent singleton, with a piece in hand.
    fn stack_moves(&self, me: Side) -> Vec<RMove> {
        if self.hand(me) == 0 {
            return Vec::new();
        }
        let opp = me.other().cell();
        (0..self.n() * self.n())
            .filter(|&sq| self.cells[sq] == opp)
            .map(RMove::Stack)
            .collect()
    }

    fn legal_moves(&self) -> Vec<RMove> {
        if self.outcome != Outcome::Ongoing {
            return Vec::new();
        }
        let nn = self.n() * self.n();
        match self.stage {
            Stage::Setup => {
                // S5: any two different (playable) squares, unordered.
                let mut out = Vec::new();
                for a in 0..nn {
                    for b in a + 1..nn {
                        if self.cells[a] == Cell::Empty && self.cells[b] == Cell::Empty {
                            out.push(RMove::Setup(a, b));
                        }
                    }
                }
                out
            }
            Stage::Choose => vec![RMove::Choose(Side::Black), RMove::Choose(Side::Teal)],
            Stage::Play if !self.phase_s => self.custodial_moves(self.to_move),
            Stage::Play => {
                let s = self.stack_moves(self.to_move);
                if s.is_empty() { vec![RMove::Pass] } else { s }
            }
        }
    }

    /// Beginning of a turn in play: S13/S14 (no custodial move: Phase S for
    /// both, for good, and this player stacks now), and the Q6 alternative
    /// `stuck=lose`.
    fn start_turn(&mut self) {
        let me = self.to_move;
        if !self.phase_s && self.custodial_moves(me).is_empty() {
            self.phase_s = true;
        }
        if self.phase_s && self.rules.stuck_loses && self.stack_moves(me).is_empty() {
            self.outcome = Outcome::Win(me.other());
        }
    }

    /// End of `me`'s turn: the turn passes, then S12/S17 (the mover's path
    /// wins) and S20 (two passes in a row draw).
    fn end_turn(&mut self, me: Side) {
        self.to_move = me.other();
        if self.has_path(me) {
            self.outcome = Outcome::Win(me);
            return;
        }
        // D3/D4: the opponent cannot have completed a path on my turn.
        assert!(
            !self.has_path(me.other()),
            "D3/D4 broken: {}",
            self.to_text()
        );
        if self.passes >= 2 {
            self.outcome = Outcome::Draw;
            return;
        }
        self.start_turn();
    }

    fn apply(&mut self, mv: RMove) {
        assert!(
            self.legal_moves().contains(&mv),
            "reference: illegal {mv:?} in {}",
            self.to_text()
        );
        self.ply += 1;
        match mv {
            RMove::Setup(a, b) => {
                // S5, S6: two Teal pieces from Teal's own 45.
                self.cells[a] = Cell::Teal;
                self.cells[b] = Cell::Teal;
                self.stage = Stage::Choose;
            }
            RMove::Choose(side) => {
                // S7: the chooser is seat 1; Black moves first.
                self.black_seat = if side == Side::Black { 1 } else { 0 };
                self.stage = Stage::Play;
                self.to_move = Side::Black;
                self.start_turn();
            }
            RMove::Custodial(a, b, t) => {
                // S10: two pieces on the pair; the target goes back to its
                // owner's hand (hands are derived, D8) and a third piece
                // replaces it.
                let me = self.to_move;
                self.cells[a] = me.cell();
                self.cells[b] = me.cell();
                self.cells[t] = me.cell();
                self.end_turn(me);
            }
            RMove::Stack(t) => {
                self.cells[t] = Cell::Stack;
                self.passes = 0;
                let me = self.to_move;
                self.end_turn(me);
            }
            RMove::Pass => {
                self.passes += 1;
                let me = self.to_move;
                self.end_turn(me);
            }
        }
    }

    fn seat_of(&self, side: Side) -> usize {
        match side {
            Side::Black => self.black_seat,
            Side::Teal => 1 - self.black_seat,
        }
    }

    fn seat_to_move(&self) -> Option<usize> {
        if self.outcome != Outcome::Ongoing {
            return None;
        }
        Some(match self.stage {
            Stage::Setup => 0,
            Stage::Choose => 1,
            Stage::Play => self.seat_of(self.to_move),
        })
    }

    fn returns(&self) -> [f64; 2] {
        match self.outcome {
            Outcome::Win(side) => {
                let mut r = [-1.0; 2];
                r[self.seat_of(side)] = 1.0;
                r
            }
            _ => [0.0; 2],
        }
    }

    /// Notation of A.6: `e5,a1` (written lower square first), `chooser=B`,
    /// `e4+e6xe5` (pair in increasing square index), `*e1`, `pass`.
    fn move_text(&self, mv: RMove) -> String {
        match mv {
            RMove::Setup(a, b) => format!("{},{}", self.name(a), self.name(b)),
            RMove::Choose(s) => format!("chooser={}", s.letter()),
            RMove::Custodial(a, b, t) => {
                format!("{}+{}x{}", self.name(a), self.name(b), self.name(t))
            }
            RMove::Stack(t) => format!("*{}", self.name(t)),
            RMove::Pass => "pass".to_string(),
        }
    }

    fn parse_move(&self, text: &str) -> Option<RMove> {
        if text == "pass" {
            return Some(RMove::Pass);
        }
        if let Some(c) = text.strip_prefix("chooser=") {
            return match c {
                "B" => Some(RMove::Choose(Side::Black)),
                "T" => Some(RMove::Choose(Side::Teal)),
                _ => None,
            };
        }
        if let Some(s) = text.strip_prefix('*') {
            return Some(RMove::Stack(self.parse_square(s)?));
        }
        if let Some((a, b)) = text.split_once(',') {
            let (a, b) = (self.parse_square(a)?, self.parse_square(b)?);
            return (a != b).then_some(RMove::Setup(a.min(b), a.max(b)));
        }
        let (pair, t) = text.split_once('x')?;
        let (a, b) = pair.split_once('+')?;
        let (a, b, t) = (
            self.parse_square(a)?,
            self.parse_square(b)?,
            self.parse_square(t)?,
        );
        Some(RMove::Custodial(a.min(b), a.max(b), t))
    }

    /// The position text documented at `parse_position` in the engine:
    /// `<rows> <setup|choose|B|T> <C|S> <passes> <black-seat|-> <ply>`, rows
    /// from rank n down, runs of empty squares as digits.
    fn to_text(&self) -> String {
        let n = self.n();
        let mut rows = Vec::new();
        for rank in (0..n).rev() {
            let mut row = String::new();
            let mut run = 0;
            for file in 0..n {
                let ch = match self.cells[rank * n + file] {
                    Cell::Empty => {
                        run += 1;
                        continue;
                    }
                    Cell::Black => 'B',
                    Cell::Teal => 'T',
                    Cell::Stack => 'X',
                    Cell::Neutral => '#',
                };
                if run > 0 {
                    row += &run.to_string();
                    run = 0;
                }
                row.push(ch);
            }
            if run > 0 {
                row += &run.to_string();
            }
            rows.push(row);
        }
        let (stage, seat) = match self.stage {
            Stage::Setup => ("setup".to_string(), "-".to_string()),
            Stage::Choose => ("choose".to_string(), "-".to_string()),
            Stage::Play => (
                self.to_move.letter().to_string(),
                self.black_seat.to_string(),
            ),
        };
        format!(
            "{} {stage} {} {} {seat} {}",
            rows.join("/"),
            if self.phase_s { 'S' } else { 'C' },
            self.passes,
            self.ply
        )
    }

    /// Applies a move given in text, checking it is legal here.
    fn apply_text(&mut self, text: &str) {
        let mv = self
            .parse_move(text)
            .unwrap_or_else(|| panic!("reference cannot parse {text:?}"));
        assert!(
            self.legal_moves().contains(&mv),
            "reference: {text:?} is not legal in {}",
            self.to_text()
        );
        self.apply(mv);
    }
}

/// Perft with the reference (every leaf counted by listing).
fn ref_perft(r: &Ref, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = r.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut c = r.clone();
            c.apply(m);
            ref_perft(&c, depth - 1)
        })
        .sum()
}

fn ref_after(n: usize, record: &str) -> Ref {
    let mut r = Ref::new(RefRules::standard(n));
    for t in record.split_whitespace() {
        r.apply_text(t);
    }
    r
}

fn ref_texts(r: &Ref, moves: &[RMove]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|&m| r.move_text(m)).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------
// The reference against the dossier (so that it is a fair judge)
// ---------------------------------------------------------------------------

/// A.7.1–A.7.4 and A.7.7 with the reference; A.4.6's formula for every lone
/// target on both sizes; A.7.5's stalemate.
#[test]
fn reference_reproduces_dossier_numbers() {
    // A.7.1: setup e5, a1 → 39 / 2,698 / 193,000.
    let r = ref_after(9, "e5,a1 chooser=B");
    assert_eq!(ref_perft(&r, 1), 39);
    assert_eq!(ref_perft(&r, 2), 2698);
    assert_eq!(ref_perft(&r, 3), 193_000);
    // A.7.2: a1, i9 → 14 / 740 / 50,520.
    let r = ref_after(9, "a1,i9 chooser=B");
    assert_eq!(ref_perft(&r, 1), 14);
    assert_eq!(ref_perft(&r, 2), 740);
    assert_eq!(ref_perft(&r, 3), 50_520);
    // A.7.3: e5, e6 → 60.
    assert_eq!(ref_perft(&ref_after(9, "e5,e6 chooser=B"), 1), 60);
    // A.7.4: Teal's reply after e4+e6xe5 → 85.
    assert_eq!(ref_perft(&ref_after(9, "e5,a1 chooser=B e4+e6xe5"), 1), 85);
    // A.7.7: 7×7 d4, g7 → 29 / 1,366 / 62,460.
    let r = ref_after(7, "d4,g7 chooser=B");
    assert_eq!(ref_perft(&r, 1), 29);
    assert_eq!(ref_perft(&r, 2), 1366);
    assert_eq!(ref_perft(&r, 3), 62_460);
    // A.4.6: N(r,c) for a lone target (and on the 5×5 research board, S23).
    for n in [5usize, 7, 9] {
        let ni = n as i32;
        for sq in 0..n * n {
            let (rr, cc) = ((sq / n) as i32, (sq % n) as i32);
            let inner = |x: i32| (1..=ni - 2).contains(&x) as i32;
            let want = ni * inner(rr)
                + ni * inner(cc)
                + (ni - 2 - (rr - cc).abs()).max(0)
                + (ni - 2 - (rr + cc - (ni - 1)).abs()).max(0);
            let mut r = Ref::new(RefRules::standard(n));
            r.stage = Stage::Play;
            r.cells[sq] = Cell::Teal;
            assert_eq!(
                r.custodial_moves(Side::Black).len() as i32,
                want,
                "{n}x{n} {sq}"
            );
        }
    }
    // A.7.5: Black 0 custodial moves, Teal 3, Phase S, 24 stacks.
    let r = Ref::from_rows(RefRules::standard(7), &A75_ROWS, Side::Black, false, 0);
    assert!(r.custodial_moves(Side::Black).is_empty());
    assert_eq!(r.custodial_moves(Side::Teal).len(), 3);
    assert!(r.phase_s);
    assert_eq!(r.legal_moves().len(), 24);
}

/// The A.7.5 diagram.
const A75_ROWS: [&str; 7] = [
    "BTBTBT.", "TBTBTBT", "BTBTBTB", "TBTBTBT", "BT.TBTB", "TBTBTBT", ".TBTBTB",
];

// ---------------------------------------------------------------------------
// Engine against reference
// ---------------------------------------------------------------------------

fn sorted_texts(e: &SlingshotState, moves: &[<SlingshotState as State>::Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|&m| e.move_to_text(m)).collect();
    v.sort();
    v
}

fn diff_message(engine: &[String], reference: &[String]) -> String {
    let e: BTreeSet<&String> = engine.iter().collect();
    let r: BTreeSet<&String> = reference.iter().collect();
    let extra: Vec<_> = e.difference(&r).take(10).collect();
    let missing: Vec<_> = r.difference(&e).take(10).collect();
    format!(
        "engine {} moves, reference {}; engine-only {extra:?}; reference-only {missing:?}",
        engine.len(),
        reference.len()
    )
}

/// Compares everything observable about one position.
fn compare(
    game: &SlingshotGame,
    e: &SlingshotState,
    r: &Ref,
    rng: &mut ChaCha8Rng,
    buf: &mut Vec<<SlingshotState as State>::Move>,
) {
    let text = r.to_text();
    assert_eq!(e.to_text(), text, "position text differs");

    let want_to_move = match r.seat_to_move() {
        Some(s) => ToMove::Seat(s),
        None => ToMove::Terminal,
    };
    assert_eq!(e.to_move(), want_to_move, "to_move in {text}");
    assert_eq!(e.is_terminal(), r.outcome != Outcome::Ongoing, "{text}");

    let mut moves = Vec::new();
    e.legal_moves(&mut moves);
    let et = sorted_texts(e, &moves);
    let rt = ref_texts(r, &r.legal_moves());
    assert!(
        et == rt,
        "legal moves in {text}: {}",
        diff_message(&et, &rt)
    );
    assert_eq!(e.count_legal_moves(), moves.len(), "count in {text}");

    let ret = e.returns();
    assert_eq!([ret[0], ret[1]], r.returns(), "returns in {text}");
    assert!(ret[2..].iter().all(|&x| x == 0.0));

    assert_eq!(e.zobrist(), e.zobrist_from_scratch(), "zobrist in {text}");

    let back = game
        .parse_position(&e.to_text())
        .unwrap_or_else(|err| panic!("round trip of {text}: {err}"));
    assert_eq!(back.to_text(), e.to_text(), "round-trip text");
    assert_eq!(back.zobrist(), e.zobrist(), "round-trip zobrist of {text}");
    assert_eq!(back.to_move(), e.to_move(), "round-trip to_move of {text}");
    assert_eq!(
        back.count_legal_moves(),
        moves.len(),
        "round-trip count of {text}"
    );

    if r.stage == Stage::Play {
        assert_eq!(e.in_phase_s(), r.phase_s, "phase in {text}");
        assert_eq!(e.first_mover_seat(), Some(r.black_seat), "{text}");
        for side in [Side::Black, Side::Teal] {
            let h = e.hand(side.engine());
            let want = r.hand(side);
            if want == usize::MAX {
                assert_eq!(h, u32::MAX, "{text}");
            } else {
                assert_eq!(h as usize, want, "{side:?} hand in {text}");
            }
        }
    } else {
        assert_eq!(e.first_mover_seat(), None, "{text}");
    }

    match e.sample_legal_move(rng, buf) {
        Some(m) => assert!(moves.contains(&m), "sampled {m:?} not legal in {text}"),
        None => assert!(moves.is_empty(), "no sample though moves exist in {text}"),
    }
}

#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    games: usize,
    phase_s_games: usize,
    wins_in_c: usize,
    wins_in_s: usize,
    draws: usize,
    stuck_losses: usize,
    passes: usize,
}

/// Plays one random game in both implementations, comparing at every
/// position. Returns the game's move record.
fn play_and_compare(
    rules: RefRules,
    rng: &mut ChaCha8Rng,
    tally: &mut Tally,
    hashes: &mut HashMap<u64, String>,
) -> Vec<String> {
    let game = rules.engine_game();
    let mut e = game.initial_state(0);
    let mut r = Ref::new(rules);
    let mut buf = Vec::new();
    let mut record = Vec::new();
    loop {
        compare(&game, &e, &r, rng, &mut buf);
        tally.positions += 1;
        // Equal keys must mean equal positions (the ply is not hashed).
        let key_text = r.to_text().rsplit_once(' ').unwrap().0.to_string();
        let prev = hashes
            .entry(e.zobrist())
            .or_insert_with(|| key_text.clone());
        assert_eq!(*prev, key_text, "zobrist collision");
        let moves = r.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        let text = r.move_text(mv);
        let em = parse_legal_move(&e, &text)
            .unwrap_or_else(|err| panic!("engine rejects {text} in {}: {err}", r.to_text()));
        assert_eq!(e.move_to_text(em), text, "move text round trip");
        if mv == RMove::Pass {
            tally.passes += 1;
        }
        r.apply(mv);
        e.apply(em);
        record.push(text);
    }
    tally.games += 1;
    if r.phase_s {
        tally.phase_s_games += 1;
    }
    match r.outcome {
        Outcome::Draw => tally.draws += 1,
        Outcome::Win(w) if r.phase_s => {
            if r.rules.stuck_loses && !r.has_path(w) {
                tally.stuck_losses += 1;
            } else {
                tally.wins_in_s += 1;
            }
        }
        Outcome::Win(_) => tally.wins_in_c += 1,
        Outcome::Ongoing => unreachable!(),
    }
    record
}

/// At least 10,000 positions from random games on 7×7 and 9×9 (standard
/// rules) and 4,000 on the 5×5 research board (S23), plus a smaller share of rule variants (small supply, unlimited
/// supply, neutral corners, stuck=lose), each compared in full.
#[test]
fn engine_matches_reference_on_random_playouts() {
    let mut hashes = [HashMap::new(), HashMap::new(), HashMap::new()];
    let mut total = 0;
    for (i, n) in [7usize, 9, 5].into_iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x51_1195 + n as u64);
        let mut t = Tally::default();
        while t.positions < if n == 5 { 4_000 } else { 12_000 } {
            play_and_compare(RefRules::standard(n), &mut rng, &mut t, &mut hashes[i]);
        }
        eprintln!("standard {n}x{n}: {t:?}");
        total += t.positions;
        // Random play must reach Phase S often enough to test it.
        assert!(
            t.phase_s_games * 4 >= t.games,
            "{n}x{n}: Phase S reached in only {} of {} games",
            t.phase_s_games,
            t.games
        );
        assert!(t.wins_in_s > 0 && t.wins_in_c > 0);
    }
    assert!(total >= 28_000);

    let mut variants = Tally::default();
    let mut hashes_v: HashMap<(RefRules, u64), String> = HashMap::new();
    let mut rng = ChaCha8Rng::seed_from_u64(0xBAD5EED);
    for g in 0..320 {
        let n = if g % 2 == 0 { 7 } else { 9 };
        let rules = match g % 8 {
            0 | 1 => RefRules {
                supply: Some(rng.random_range(3..=12)),
                ..RefRules::standard(n)
            },
            2 | 3 => RefRules {
                supply: None,
                ..RefRules::standard(n)
            },
            4 | 5 => RefRules {
                neutral_corners: true,
                ..RefRules::standard(n)
            },
            _ => RefRules {
                stuck_loses: true,
                supply: Some(rng.random_range(3..=45)),
                neutral_corners: g % 16 == 7,
                ..RefRules::standard(n)
            },
        };
        let mut local = HashMap::new();
        play_and_compare(rules, &mut rng, &mut variants, &mut local);
        for (k, v) in local {
            let prev = hashes_v.entry((rules, k)).or_insert_with(|| v.clone());
            assert_eq!(*prev, v, "zobrist collision");
        }
    }
    eprintln!("variants: {variants:?}");
    assert!(variants.passes > 0 && variants.draws > 0 && variants.stuck_losses > 0);
}

/// A plain minimax of the reference's own moves: the value of `r` for the
/// colour to move, distance-scored (a win in `d` plies `W − d`, a loss
/// `−(W − d)`, a draw 0), memoised on the position text.
fn ref_minimax(r: &Ref, memo: &mut HashMap<String, i32>) -> i32 {
    const W: i32 = 10_000;
    if r.outcome != Outcome::Ongoing {
        // The mover who just moved ended it: a loss or a draw here.
        return match r.outcome {
            Outcome::Win(w) if w == r.to_move => W,
            Outcome::Win(_) => -W,
            _ => 0,
        };
    }
    let key = r.to_text().rsplit_once(' ').unwrap().0.to_string();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = i32::MIN;
    for m in r.legal_moves() {
        let mut c = r.clone();
        c.apply(m);
        let v = -ref_minimax(&c, memo);
        best = best.max(v - v.signum());
    }
    memo.insert(key, best);
    best
}

/// `Search::solved` in Phase S (rule D4's race, with its distances) against
/// a plain minimax of the reference over every stacking and pass, on
/// Phase S positions of random 5×5 and 7×7 games with at most 16
/// singletons left (and, under a small supply, hands that bind).
#[test]
fn phase_s_solved_matches_a_minimax_of_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xD4);
    let (mut checked, mut wins, mut losses, mut draws) = (0, 0, 0, 0);
    for g in 0..1000 {
        let n = if g % 2 == 0 { 5 } else { 7 };
        let rules = if g % 8 == 7 {
            RefRules {
                supply: Some(rng.random_range(8..=20)),
                ..RefRules::standard(n)
            }
        } else {
            RefRules::standard(n)
        };
        let game = rules.engine_game();
        let mut e = game.initial_state(0);
        let mut r = Ref::new(rules);
        loop {
            let singles = r.count(Cell::Black) + r.count(Cell::Teal);
            if r.phase_s && r.outcome == Outcome::Ongoing && singles <= 16 {
                let v = ref_minimax(&r, &mut HashMap::new());
                let want = match v {
                    0 => (0, 0),
                    v if v > 0 => (1, (10_000 - v) as u32),
                    v => (-1, (10_000 + v) as u32),
                };
                assert_eq!(e.solved(), Some(want), "{}", r.to_text());
                checked += 1;
                match want.0 {
                    1 => wins += 1,
                    -1 => losses += 1,
                    _ => draws += 1,
                }
            } else if !r.phase_s || r.outcome != Outcome::Ongoing {
                assert_eq!(e.solved(), None, "{}", r.to_text());
            }
            let moves = r.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let em = parse_legal_move(&e, &r.move_text(mv)).unwrap();
            r.apply(mv);
            e.apply(em);
        }
    }
    eprintln!("checked {checked}: {wins} wins, {losses} losses, {draws} draws");
    assert!(
        checked >= 500 && wins > 0 && losses > 0,
        "{checked} {wins} {losses}"
    );
}

#[test]
fn sample_legal_move_is_uniform() {
    let g9 = RefRules::standard(9).engine_game();
    let g7 = RefRules::standard(7).engine_game();
    // A.7.1 (39 custodial moves).
    let mut s = g9.initial_state(0);
    apply_moves(&mut s, "e5,a1 chooser=B").unwrap();
    assert_eq!(s.count_legal_moves(), 39);
    check_uniform(&s, 20_000, 1).unwrap();
    // A.7.5 (24 stacking moves).
    let s = g7
        .parse_position("BTBTBT1/TBTBTBT/BTBTBTB/TBTBTBT/BT1TBTB/TBTBTBT/1TBTBTB B C 0 0")
        .unwrap();
    assert_eq!(s.count_legal_moves(), 24);
    check_uniform(&s, 20_000, 2).unwrap();
    // The 7×7 set-up (1,176 pairs).
    let s = g7.initial_state(0);
    check_uniform(&s, 20_000, 3).unwrap();
    // A busy 9×9 middle game from a seeded random game.
    let mut s = g9.initial_state(0);
    apply_moves(&mut s, "c3,g6 chooser=T").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut buf = Vec::new();
    let mut best = s;
    while !s.is_terminal() {
        if s.count_legal_moves() > best.count_legal_moves() && !s.in_phase_s() {
            best = s;
        }
        let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
        s.apply(m);
    }
    assert!(best.count_legal_moves() >= 60, "{}", best.to_text());
    check_uniform(&best, 20_000, 5).unwrap();
}

// Late Phase C: `sample_legal_move` is uniform over `legal_moves` where
// the sampler draws an open midpoint first (few empty squares are left)
// rather than a target first.

/// The last Phase C position of a random game with at least 3 moves.
fn late_phase_c(size: u32, seed: u64) -> Option<SlingshotState> {
    let g = SlingshotGame::new(Rules {
        size,
        ..Rules::default()
    })
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut s = g.initial_state(0);
    let mut last = None;
    while let ToMove::Seat(_) = s.to_move() {
        if !s.in_phase_s() && s.colour_to_move().is_some() && s.count_legal_moves() >= 3 {
            last = Some(s);
        }
        let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
        s.apply(m);
    }
    last
}

#[test]
fn late_phase_c_samples_are_uniform() {
    let mut checked = 0;
    for (size, seed) in [(9, 1), (9, 2), (9, 3), (7, 4), (7, 5), (9, 6)] {
        let Some(s) = late_phase_c(size, seed) else {
            continue;
        };
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let k = moves.len();
        check_uniform(&s, 4000 * k, seed + 100).unwrap();
        checked += 1;
    }
    assert!(checked >= 5);
}

// ---------------------------------------------------------------------------
// Golden playthrough
// ---------------------------------------------------------------------------

const GOLDEN_SEED: u64 = 7;

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/suite/data/slingshot_playthrough_7.txt")
}

/// A seeded random 7×7 game, played by the reference alone: the first seed
/// from `GOLDEN_SEED` whose game reaches Phase S and ends in a win.
fn golden_game() -> (u64, Vec<String>, Ref) {
    for seed in GOLDEN_SEED.. {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut r = Ref::new(RefRules::standard(7));
        let mut record = Vec::new();
        loop {
            let moves = r.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            record.push(r.move_text(mv));
            r.apply(mv);
        }
        let stacks = record.iter().filter(|m| m.starts_with('*')).count();
        if matches!(r.outcome, Outcome::Win(_)) && stacks >= 3 {
            return (seed, record, r);
        }
    }
    unreachable!()
}

/// Writes the golden file: only after replaying the record through a fresh
/// reference from its text, checking every move is legal there.
fn write_golden() {
    let (seed, record, r) = golden_game();
    let mut check = Ref::new(RefRules::standard(7));
    for m in &record {
        check.apply_text(m);
    }
    assert_eq!(check.to_text(), r.to_text());
    let ret = r.returns();
    let golden = Golden {
        moves: record.clone(),
        final_text: r.to_text(),
        returns: ret.to_vec(),
    };
    let out = golden.to_file_text(&format!(
        "Slingshot golden playthrough: slingshot(size=7,supply=45,corners=ordinary,stuck=pass)\n\
         A random game (ChaCha8 seed {seed}) played and checked move by move by the\n\
         independent reference in engine/tests/suite/slingshot_reference.rs, not by the engine.\n\
         Lines starting with '#' are comments; the moves follow, one per line."
    ));
    let path = golden_path();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, out).unwrap();
}

/// Replays the golden record through `engine::apply_moves` and through the
/// reference; both must reach the recorded final position and returns, and
/// agree at every position on the way. Set `BOARDLAB_BLESS=1` to
/// (re)write the file from the reference.
#[test]
fn golden_playthrough_7() {
    if std::env::var_os("BOARDLAB_BLESS").is_some() {
        write_golden();
    }
    let text = std::fs::read_to_string(golden_path())
        .expect("tests/suite/data/slingshot_playthrough_7.txt (write it with BOARDLAB_BLESS=1)");
    let golden = Golden::parse(&text).expect("a well-formed golden file");
    let (moves, final_text) = (golden.moves, golden.final_text);
    let returns = [golden.returns[0], golden.returns[1]];
    assert!(moves.len() > 10);

    // The reference replays it move by move.
    let mut r = Ref::new(RefRules::standard(7));
    for m in &moves {
        r.apply_text(m);
    }
    assert_eq!(r.to_text(), final_text);
    assert_eq!(r.returns(), returns);
    assert!(r.phase_s, "the golden game should reach Phase S");

    // The engine replays the whole record in one call.
    let game = RefRules::standard(7).engine_game();
    let mut e = game.initial_state(0);
    apply_moves(&mut e, &moves.join(" ")).expect("engine accepts the golden record");
    assert_eq!(e.to_text(), final_text);
    assert!(e.is_terminal());
    let ret = e.returns();
    assert_eq!([ret[0], ret[1]], returns);

    // And the two agree at every position on the way.
    let mut e = game.initial_state(0);
    let mut r = Ref::new(RefRules::standard(7));
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut buf = Vec::new();
    for m in &moves {
        compare(&game, &e, &r, &mut rng, &mut buf);
        e.apply(parse_legal_move(&e, m).unwrap());
        r.apply_text(m);
    }
    compare(&game, &e, &r, &mut rng, &mut buf);
}
