//! Catapult: an independent reference implementation and a differential
//! test of the engine against it.
//!
//! The reference (`Ref`) is written from the rules dossier alone
//! (`docs/rules/catapult.md`; rule numbers cited). It is plain and
//! slow on purpose: an `n × n` array of squares, the range counted square by
//! square (C-R-def), and every move tried literally as C-M1/C-M2 state it:
//! each piece, each of the 8 directions, each distance `k` up to the range,
//! the path of `k` squares checked square by square. Dagger turns are
//! enumerated by playing `m1` on a copy (C-D2–C-D6). It shares no code with
//! `engine/src/catapult/`; the engine is touched only through its public API.
//!
//! Tests here:
//! * the reference reproduces the dossier's own numbers (so it is a fair
//!   judge);
//! * random playouts of 8×8, 9×9, Royal and Dagger (at least 10,000
//!   positions each) plus a smaller share of combinations (Royal 9×9, Royal
//!   with Dagger, Dagger 9×9, C-D5 off, 8×8 on `u128`) compare at every
//!   position: legal actions, their count, terminal status, returns, the
//!   incremental Zobrist key against the recomputed one, key collisions,
//!   ranges, position-text and move-text round trips, sampled moves;
//! * `sample_legal_move` is uniform (chi-square), the dagger holder's too
//!   in its hardest positions;
//! * a golden Dagger playthrough (`tests/suite/data/catapult_playthrough_dagger.txt`)
//!   written and checked by the reference, replayed through the engine.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use engine::Research;
use engine::catapult::{
    CatapultBits, CatapultGame, CatapultMove, CatapultState, Rules, Side, Step,
};
use engine::testkit::{Golden, check_uniform};
use engine::{Game, State, ToMove, apply_moves, parse_legal_move};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------------------
// The reference implementation
// ---------------------------------------------------------------------------

const MAX_N: usize = 9;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
enum Colour {
    Light,
    Dark,
}

impl Colour {
    fn other(self) -> Colour {
        match self {
            Colour::Light => Colour::Dark,
            Colour::Dark => Colour::Light,
        }
    }
    fn seat(self) -> usize {
        match self {
            Colour::Light => 0,
            Colour::Dark => 1,
        }
    }
    fn letter(self) -> char {
        match self {
            Colour::Light => 'L',
            Colour::Dark => 'D',
        }
    }
    /// C-F1: three forward directions, towards the opposite corner, as
    /// (file step, rank step).
    fn forward(self) -> [(i32, i32); 3] {
        match self {
            Colour::Light => [(0, 1), (1, 0), (1, 1)],
            Colour::Dark => [(0, -1), (-1, 0), (-1, -1)],
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    colour: Colour,
    king: bool,
}

/// The 8 directions (§0.1), as (file step, rank step).
const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct RefRules {
    n: usize,
    royal: bool,
    dagger: bool,
    move_then_pass: bool,
    cap: u32,
}

impl RefRules {
    fn new(n: usize, royal: bool, dagger: bool) -> RefRules {
        RefRules {
            n,
            royal,
            dagger,
            move_then_pass: true,
            cap: 2000,
        }
    }

    fn engine_rules(&self) -> Rules {
        Rules {
            size: self.n as u32,
            royal: self.royal,
            dagger: self.dagger,
            dagger_move_then_pass: self.move_then_pass,
            ply_cap: self.cap,
        }
    }
}

/// One move of one piece: (file, rank) from and to, and whether it captures.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
struct RStep {
    from: (i32, i32),
    to: (i32, i32),
    capture: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
enum RAct {
    One(RStep),
    Two(RStep, RStep),
    OneThenPass(RStep),
    Pass,
}

#[derive(Clone, Debug)]
struct Ref {
    rules: RefRules,
    /// `board[file][rank]`.
    board: [[Option<Piece>; MAX_N]; MAX_N],
    to_move: Colour,
    dagger: Option<Colour>,
    winner: Option<Colour>,
    capped: bool,
    ply: u32,
}

fn name(sq: (i32, i32)) -> String {
    format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
}

impl Ref {
    /// The set-up of C-S1/C-S2 with the kings of C-K1/C-K2, Light to move,
    /// Dark holding the dagger (C-D1).
    fn new(rules: RefRules) -> Ref {
        let n = rules.n;
        let mut r = Ref {
            rules,
            board: [[None; MAX_N]; MAX_N],
            to_move: Colour::Light,
            dagger: rules.dagger.then_some(Colour::Dark),
            winner: None,
            capped: false,
            ply: 0,
        };
        // C-S1: 8×8 x + y in {1, 3, 5}; C-S2: 9×9 x + y in {0, 2, 4, 6}.
        let sums: &[usize] = if n == 8 { &[1, 3, 5] } else { &[0, 2, 4, 6] };
        for x in 0..n {
            for y in 0..n {
                if sums.contains(&(x + y)) {
                    r.board[x][y] = Some(Piece {
                        colour: Colour::Light,
                        king: false,
                    });
                    r.board[n - 1 - x][n - 1 - y] = Some(Piece {
                        colour: Colour::Dark,
                        king: false,
                    });
                }
            }
        }
        if rules.royal {
            // C-K1, C-K2: kings on a1 and the far corner.
            r.board[0][0] = Some(Piece {
                colour: Colour::Light,
                king: true,
            });
            r.board[n - 1][n - 1] = Some(Piece {
                colour: Colour::Dark,
                king: true,
            });
        }
        r
    }

    /// A position from rows written rank n first (`.` empty, `L`, `D`, `K`
    /// Light king, `k` Dark king).
    fn from_rows(rules: RefRules, rows: &[&str], to_move: Colour, dagger: Option<Colour>) -> Ref {
        let n = rules.n;
        assert_eq!(rows.len(), n);
        let mut r = Ref::new(rules);
        r.board = [[None; MAX_N]; MAX_N];
        for (i, row) in rows.iter().enumerate() {
            let y = n - 1 - i;
            let chars: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(chars.len(), n, "{row}");
            for (x, ch) in chars.into_iter().enumerate() {
                r.board[x][y] = match ch {
                    'L' => Some(Piece {
                        colour: Colour::Light,
                        king: false,
                    }),
                    'D' => Some(Piece {
                        colour: Colour::Dark,
                        king: false,
                    }),
                    'K' => Some(Piece {
                        colour: Colour::Light,
                        king: true,
                    }),
                    'k' => Some(Piece {
                        colour: Colour::Dark,
                        king: true,
                    }),
                    _ => None,
                };
            }
        }
        r.to_move = to_move;
        r.dagger = dagger;
        r
    }

    fn on_board(&self, sq: (i32, i32)) -> bool {
        let n = self.rules.n as i32;
        (0..n).contains(&sq.0) && (0..n).contains(&sq.1)
    }

    fn at(&self, sq: (i32, i32)) -> Option<Piece> {
        self.board[sq.0 as usize][sq.1 as usize]
    }

    fn squares(&self) -> Vec<(i32, i32)> {
        let n = self.rules.n as i32;
        (0..n).flat_map(|y| (0..n).map(move |x| (x, y))).collect()
    }

    fn count(&self, c: Colour) -> usize {
        self.squares()
            .into_iter()
            .filter(|&s| self.at(s).is_some_and(|p| p.colour == c))
            .count()
    }

    fn has_king(&self, c: Colour) -> bool {
        self.squares().into_iter().any(|s| {
            self.at(s)
                == Some(Piece {
                    colour: c,
                    king: true,
                })
        })
    }

    /// C-R-def: 2^b, b = forward directions whose adjacent square is off
    /// the board or holds a friendly piece.
    fn range(&self, sq: (i32, i32)) -> u32 {
        let me = self.at(sq).expect("a piece").colour;
        let mut b = 0;
        for (dx, dy) in me.forward() {
            let t = (sq.0 + dx, sq.1 + dy);
            if !self.on_board(t) || self.at(t).is_some_and(|p| p.colour == me) {
                b += 1;
            }
        }
        1 << b
    }

    /// Every single move of `me` (C-M1, C-M2), tried literally: each piece,
    /// direction and distance, the path square by square.
    fn single_moves(&self, me: Colour) -> Vec<RStep> {
        let mut out = Vec::new();
        for from in self.squares() {
            if self.at(from).is_none_or(|p| p.colour != me) {
                continue;
            }
            let range = self.range(from) as i32;
            for (dx, dy) in DIRS {
                let forward = me.forward().contains(&(dx, dy));
                for k in 1..=range {
                    // The path: the k squares from + i·d, i = 1..=k.
                    let mut on_board = true;
                    let (mut friendly, mut enemy, mut empty) = (false, false, true);
                    for i in 1..=k {
                        let sq = (from.0 + i * dx, from.1 + i * dy);
                        if !self.on_board(sq) {
                            on_board = false;
                            break;
                        }
                        if let Some(p) = self.at(sq) {
                            empty = false;
                            if p.colour == me {
                                friendly = true;
                            } else {
                                enemy = true;
                            }
                        }
                    }
                    if !on_board {
                        continue;
                    }
                    let to = (from.0 + k * dx, from.1 + k * dy);
                    if forward && empty {
                        out.push(RStep {
                            from,
                            to,
                            capture: false,
                        });
                    } else if !friendly && enemy {
                        out.push(RStep {
                            from,
                            to,
                            capture: true,
                        });
                    }
                }
            }
        }
        out
    }

    /// Plays one move of `me`; removes every enemy on the path, the landing
    /// square included (C-M2). Returns whether `me` has now won: the enemy
    /// king is gone (Royal, C-K4) or every enemy piece is (C-E1).
    fn play_step(&mut self, me: Colour, s: RStep) -> bool {
        let (dx, dy) = ((s.to.0 - s.from.0).signum(), (s.to.1 - s.from.1).signum());
        let mut cur = s.from;
        let mut king_taken = false;
        while cur != s.to {
            cur = (cur.0 + dx, cur.1 + dy);
            if let Some(p) = self.at(cur) {
                assert_ne!(p.colour, me, "a move never passes a friend");
                king_taken |= p.king;
                self.board[cur.0 as usize][cur.1 as usize] = None;
            }
        }
        let piece = self.at(s.from).unwrap();
        self.board[s.from.0 as usize][s.from.1 as usize] = None;
        self.board[s.to.0 as usize][s.to.1 as usize] = Some(piece);
        if self.rules.royal {
            king_taken
        } else {
            self.count(me.other()) == 0
        }
    }

    /// The actions of the side to move (C-P1; C-D2–C-D6).
    fn legal_actions(&self) -> Vec<RAct> {
        if self.winner.is_some() || self.capped {
            return Vec::new();
        }
        let me = self.to_move;
        let singles = self.single_moves(me);
        if singles.is_empty() {
            return vec![RAct::Pass];
        }
        let mut out: Vec<RAct> = singles.iter().map(|&s| RAct::One(s)).collect();
        if self.dagger == Some(me) {
            for &m1 in &singles {
                let mut child = self.clone();
                if child.play_step(me, m1) {
                    continue; // C-D4
                }
                let seconds = child.single_moves(me);
                if seconds.is_empty() {
                    if self.rules.move_then_pass {
                        out.push(RAct::OneThenPass(m1)); // C-D5
                    }
                } else {
                    out.extend(seconds.into_iter().map(|m2| RAct::Two(m1, m2)));
                }
            }
        }
        out
    }

    fn apply(&mut self, a: RAct) {
        let me = self.to_move;
        let won = match a {
            RAct::One(s) => self.play_step(me, s),
            RAct::Two(s1, s2) => {
                assert!(!self.play_step(me, s1));
                let w = self.play_step(me, s2);
                self.dagger = Some(me.other());
                w
            }
            RAct::OneThenPass(s) => {
                let w = self.play_step(me, s);
                self.dagger = Some(me.other());
                w
            }
            RAct::Pass => false,
        };
        self.to_move = me.other();
        self.ply += 1;
        if won {
            self.winner = Some(me);
        } else if self.ply >= self.rules.cap {
            self.capped = true;
        }
    }

    fn returns(&self) -> [f64; 2] {
        match self.winner {
            Some(Colour::Light) => [1.0, -1.0],
            Some(Colour::Dark) => [-1.0, 1.0],
            None => [0.0, 0.0],
        }
    }

    fn step_text(s: RStep) -> String {
        format!(
            "{}{}{}",
            name(s.from),
            if s.capture { 'x' } else { '-' },
            name(s.to)
        )
    }

    /// §1.13 notation.
    fn act_text(a: RAct) -> String {
        match a {
            RAct::One(s) => Ref::step_text(s),
            RAct::Two(a, b) => format!("{};{}", Ref::step_text(a), Ref::step_text(b)),
            RAct::OneThenPass(a) => format!("{};pass", Ref::step_text(a)),
            RAct::Pass => "pass".into(),
        }
    }

    /// The engine's position text format (documented in the engine's
    /// `catapult` module): rows from rank n, digit runs, `L D K k`, then the
    /// side to move, the dagger holder or `-`, the ply.
    fn to_text(&self) -> String {
        let n = self.rules.n as i32;
        let mut rows = Vec::new();
        for y in (0..n).rev() {
            let mut row = String::new();
            let mut run = 0;
            for x in 0..n {
                let ch = match self.at((x, y)) {
                    None => {
                        run += 1;
                        continue;
                    }
                    Some(Piece {
                        colour: Colour::Light,
                        king: false,
                    }) => 'L',
                    Some(Piece {
                        colour: Colour::Dark,
                        king: false,
                    }) => 'D',
                    Some(Piece {
                        colour: Colour::Light,
                        king: true,
                    }) => 'K',
                    Some(Piece {
                        colour: Colour::Dark,
                        king: true,
                    }) => 'k',
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
        format!(
            "{} {} {} {}",
            rows.join("/"),
            self.to_move.letter(),
            self.dagger.map_or('-', |c| c.letter()),
            self.ply
        )
    }

    fn apply_text(&mut self, text: &str) {
        let a = self
            .legal_actions()
            .into_iter()
            .find(|&a| Ref::act_text(a) == text)
            .unwrap_or_else(|| panic!("reference: {text} is not legal in {}", self.to_text()));
        self.apply(a);
    }
}

fn ref_perft(r: &Ref, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let acts = r.legal_actions();
    if depth == 1 {
        return acts.len() as u64;
    }
    acts.iter()
        .map(|&a| {
            let mut c = r.clone();
            c.apply(a);
            ref_perft(&c, depth - 1)
        })
        .sum()
}

// ---------------------------------------------------------------------------
// The reference is a fair judge
// ---------------------------------------------------------------------------

/// §1.15 and §1.16 from the reference alone.
#[test]
fn reference_reproduces_dossier_numbers() {
    // §1.16 perft rows (depth 3; the Dagger row to depth 2).
    let rows: [(RefRules, &[u64]); 5] = [
        (RefRules::new(8, false, false), &[30, 900, 29_152]),
        (RefRules::new(8, true, false), &[34, 1_156, 40_905]),
        (RefRules::new(9, false, false), &[39, 1_521, 63_327]),
        (RefRules::new(9, true, false), &[39, 1_521, 63_327]),
        (RefRules::new(8, false, true), &[30, 30_070]),
    ];
    for (rules, want) in rows {
        let r = Ref::new(rules);
        for (d, &w) in want.iter().enumerate() {
            assert_eq!(ref_perft(&r, d as u32 + 1), w, "{rules:?} depth {}", d + 1);
        }
    }
    // E-C5: 12 actions; E-C6: 2 (1 with C-D5 off).
    let d8 = RefRules::new(8, false, true);
    let empty = ["........"; 8];
    let mut rows = empty;
    rows[5] = "..D.....";
    rows[7] = "L.......";
    let r = Ref::from_rows(d8, &rows, Colour::Dark, Some(Colour::Dark));
    assert_eq!(r.legal_actions().len(), 12);
    let mut rows = empty;
    rows[3] = ".......L";
    rows[7] = ".D......";
    let r = Ref::from_rows(d8, &rows, Colour::Dark, Some(Colour::Dark));
    let texts: BTreeSet<String> = r.legal_actions().into_iter().map(Ref::act_text).collect();
    assert_eq!(
        texts,
        ["b1-a1", "b1-a1;pass"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
}

/// The depth-4 counts the dossier holds back (§1.16; 8×8, 9×9, both
/// Royal): engine and reference must agree (neither value is written here).
#[test]
fn perft_depth_4_matches_reference() {
    for rules in [
        RefRules::new(8, false, false),
        RefRules::new(8, true, false),
    ] {
        let want = ref_perft(&Ref::new(rules), 4);
        let got = if rules.n == 8 {
            let g = CatapultGame::<u64>::new(rules.engine_rules()).unwrap();
            engine::perft(&g.initial_state(0), 4)
        } else {
            let g = CatapultGame::<u128>::new(rules.engine_rules()).unwrap();
            engine::perft(&g.initial_state(0), 4)
        };
        assert_eq!(got, want, "{rules:?}");
    }
}

// ---------------------------------------------------------------------------
// Engine against reference
// ---------------------------------------------------------------------------

/// A move as a comparable tuple: (kind, from, to, capture, from2, to2,
/// capture2) with squares `rank · n + file`.
type Key = (u8, u32, u32, bool, u32, u32, bool);

fn ref_sq(s: (i32, i32), n: usize) -> u32 {
    (s.1 as usize * n + s.0 as usize) as u32
}

fn ref_key(a: RAct, n: usize) -> Key {
    let st = |s: RStep| (ref_sq(s.from, n), ref_sq(s.to, n), s.capture);
    match a {
        RAct::One(s) => {
            let (f, t, c) = st(s);
            (0, f, t, c, 0, 0, false)
        }
        RAct::Two(a, b) => {
            let ((f, t, c), (f2, t2, c2)) = (st(a), st(b));
            (1, f, t, c, f2, t2, c2)
        }
        RAct::OneThenPass(s) => {
            let (f, t, c) = st(s);
            (2, f, t, c, 0, 0, false)
        }
        RAct::Pass => (3, 0, 0, false, 0, 0, false),
    }
}

fn engine_key(m: CatapultMove) -> Key {
    let st = |s: Step| (s.from(), s.to(), s.is_capture());
    match m {
        CatapultMove::Move(s) => {
            let (f, t, c) = st(s);
            (0, f, t, c, 0, 0, false)
        }
        CatapultMove::Double(a, b) => {
            let ((f, t, c), (f2, t2, c2)) = (st(a), st(b));
            (1, f, t, c, f2, t2, c2)
        }
        CatapultMove::MoveThenPass(s) => {
            let (f, t, c) = st(s);
            (2, f, t, c, 0, 0, false)
        }
        CatapultMove::Pass => (3, 0, 0, false, 0, 0, false),
    }
}

fn diff_message(engine: &[Key], reference: &[Key]) -> String {
    let e: BTreeSet<&Key> = engine.iter().collect();
    let r: BTreeSet<&Key> = reference.iter().collect();
    let extra: Vec<_> = e.difference(&r).take(8).collect();
    let missing: Vec<_> = r.difference(&e).take(8).collect();
    format!(
        "engine {} actions, reference {}; engine-only {extra:?}; reference-only {missing:?}",
        engine.len(),
        reference.len()
    )
}

#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    games: usize,
    actions: usize,
    light_wins: usize,
    dark_wins: usize,
    captures: usize,
    multi_captures: usize,
    passes: usize,
    doubles: usize,
    move_then_pass: usize,
    dagger_singles: usize,
    king_captures: usize,
}

/// Compares everything observable about one position.
fn compare<B: CatapultBits>(
    game: &CatapultGame<B>,
    e: &CatapultState<B>,
    r: &Ref,
    acts: &[RAct],
    rng: &mut ChaCha8Rng,
    buf: &mut Vec<CatapultMove>,
) {
    let n = r.rules.n;
    let text = r.to_text();
    assert_eq!(e.to_text(), text, "position text differs");

    let over = r.winner.is_some() || r.capped;
    let want = if over {
        ToMove::Terminal
    } else {
        ToMove::Seat(r.to_move.seat())
    };
    assert_eq!(e.to_move(), want, "to_move in {text}");
    assert_eq!(e.is_terminal(), over, "terminal in {text}");
    assert_eq!(e.capped(), r.capped, "{text}");
    assert_eq!(e.first_mover_seat(), Some(0));

    let mut moves = Vec::new();
    e.legal_moves(&mut moves);
    let mut ek: Vec<Key> = moves.iter().map(|&m| engine_key(m)).collect();
    let mut rk: Vec<Key> = acts.iter().map(|&a| ref_key(a, n)).collect();
    let engine_order = ek.clone();
    ek.sort_unstable();
    rk.sort_unstable();
    assert!(
        ek == rk,
        "legal actions in {text}: {}",
        diff_message(&ek, &rk)
    );
    let dedup: BTreeSet<&Key> = engine_order.iter().collect();
    assert_eq!(
        dedup.len(),
        engine_order.len(),
        "duplicate actions in {text}"
    );
    assert_eq!(e.count_legal_moves(), moves.len(), "count in {text}");

    // Move text: every action where there are few, a sample where many.
    let step = (moves.len() / 40).max(1);
    for &m in moves.iter().step_by(step) {
        let t = e.move_to_text(m);
        let back = e
            .parse_move(&t)
            .unwrap_or_else(|err| panic!("{t} in {text}: {err}"));
        assert_eq!(back, m, "move text round trip {t}");
    }
    if moves.len() <= 60 {
        let et: BTreeSet<String> = moves.iter().map(|&m| e.move_to_text(m)).collect();
        let rt: BTreeSet<String> = acts.iter().map(|&a| Ref::act_text(a)).collect();
        assert_eq!(et, rt, "move texts in {text}");
    }

    let ret = e.returns();
    assert_eq!([ret[0], ret[1]], r.returns(), "returns in {text}");
    assert!(ret[2..].iter().all(|&x| x == 0.0));

    assert_eq!(e.zobrist(), e.zobrist_from_scratch(), "zobrist in {text}");

    let back = game
        .parse_position(&e.to_text())
        .unwrap_or_else(|err| panic!("round trip of {text}: {err}"));
    assert!(back == *e, "round trip of {text} gives {}", back.to_text());
    assert_eq!(back.to_move(), e.to_move());

    // Ranges (C-R-def), square by square.
    for sq in r.squares() {
        let want = r.at(sq).map(|_| r.range(sq));
        assert_eq!(
            e.range_at(ref_sq(sq, n)),
            want,
            "range of {} in {text}",
            name(sq)
        );
    }

    match e.sample_legal_move(rng, buf) {
        Some(m) => assert!(moves.contains(&m), "sampled {m:?} not legal in {text}"),
        None => assert!(moves.is_empty(), "no sample though actions exist in {text}"),
    }
}

/// Plays one random game in both implementations (uniform over the
/// reference's actions), comparing at every position. Returns the record.
fn play_and_compare<B: CatapultBits>(
    rules: RefRules,
    rng: &mut ChaCha8Rng,
    tally: &mut Tally,
    hashes: &mut HashMap<u64, String>,
) -> Vec<String> {
    let game = CatapultGame::<B>::new(rules.engine_rules()).expect("valid rules");
    let mut e = game.initial_state(0);
    let mut r = Ref::new(rules);
    let mut buf = Vec::new();
    let mut record = Vec::new();
    loop {
        let acts = r.legal_actions();
        compare(&game, &e, &r, &acts, rng, &mut buf);
        tally.positions += 1;
        tally.actions += acts.len();
        // Equal keys must mean equal positions (the ply is not hashed).
        let key_text = r.to_text().rsplit_once(' ').unwrap().0.to_string();
        let prev = hashes
            .entry(e.zobrist())
            .or_insert_with(|| key_text.clone());
        assert_eq!(*prev, key_text, "zobrist collision");
        if acts.is_empty() {
            break;
        }
        let a = acts[rng.random_range(0..acts.len())];
        let text = Ref::act_text(a);
        let em = parse_legal_move(&e, &text)
            .unwrap_or_else(|err| panic!("engine rejects {text} in {}: {err}", r.to_text()));
        assert_eq!(e.move_to_text(em), text, "move text round trip");
        let before = r.count(r.to_move.other());
        let kings_before = r.has_king(r.to_move.other());
        match a {
            RAct::Pass => tally.passes += 1,
            RAct::Two(..) => tally.doubles += 1,
            RAct::OneThenPass(_) => tally.move_then_pass += 1,
            RAct::One(_) if r.dagger == Some(r.to_move) => tally.dagger_singles += 1,
            RAct::One(_) => {}
        }
        r.apply(a);
        e.apply(em);
        let taken = before - r.count(r.to_move);
        if taken > 0 {
            tally.captures += 1;
        }
        if taken > 1 {
            tally.multi_captures += 1;
        }
        if kings_before && !r.has_king(r.to_move) {
            tally.king_captures += 1;
        }
        record.push(text);
    }
    tally.games += 1;
    match r.winner {
        Some(Colour::Light) => tally.light_wins += 1,
        Some(Colour::Dark) => tally.dark_wins += 1,
        None => panic!("a random game hit the safety cap: {}", r.to_text()),
    }
    record
}

fn run_variant<B: CatapultBits>(rules: RefRules, seed: u64, positions: usize) -> Tally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut t = Tally::default();
    let mut hashes = HashMap::new();
    while t.positions < positions {
        play_and_compare::<B>(rules, &mut rng, &mut t, &mut hashes);
    }
    eprintln!("{rules:?}: {t:?}");
    assert!(t.light_wins > 0 && t.dark_wins > 0, "{t:?}");
    assert!(t.captures > 0 && t.multi_captures > 0, "{t:?}");
    t
}

/// 8×8 (u64): at least 10,000 positions.
#[test]
fn engine_matches_reference_8x8() {
    run_variant::<u64>(RefRules::new(8, false, false), 0xCA7A_0008, 10_000);
}

/// 9×9 (u128): at least 10,000 positions.
#[test]
fn engine_matches_reference_9x9() {
    run_variant::<u128>(RefRules::new(9, false, false), 0xCA7A_0009, 10_000);
}

/// Royal 8×8: at least 10,000 positions; king captures end games.
#[test]
fn engine_matches_reference_royal() {
    let t = run_variant::<u64>(RefRules::new(8, true, false), 0xCA7A_00AA, 10_000);
    assert_eq!(
        t.king_captures, t.games,
        "every Royal game ends by a king capture"
    );
}

/// Dagger 8×8: at least 10,000 positions, with double turns and single
/// moves by the holder.
#[test]
fn engine_matches_reference_dagger() {
    let t = run_variant::<u64>(RefRules::new(8, false, true), 0xCA7A_00DA, 10_000);
    assert!(t.doubles > 0 && t.dagger_singles > 0, "{t:?}");
}

/// A smaller share of combinations: Royal 9×9, Royal with the Dagger,
/// Dagger 9×9, Dagger with C-D5 off, and 8×8 on `u128` bitboards (which must
/// also give the same keys as `u64`).
#[test]
fn engine_matches_reference_combinations() {
    run_variant::<u128>(RefRules::new(9, true, false), 1, 2_000);
    run_variant::<u64>(RefRules::new(8, true, true), 2, 1_000);
    run_variant::<u128>(RefRules::new(9, false, true), 3, 1_000);
    let mut no_d5 = RefRules::new(8, false, true);
    no_d5.move_then_pass = false;
    run_variant::<u64>(no_d5, 4, 2_000);

    // The same random games on both widths: equal texts and keys.
    let rules = RefRules::new(8, false, false);
    let g64 = CatapultGame::<u64>::new(rules.engine_rules()).unwrap();
    let g128 = CatapultGame::<u128>::new(rules.engine_rules()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut buf = Vec::new();
    for _ in 0..50 {
        let mut a = g64.initial_state(0);
        let mut b = g128.initial_state(0);
        while !a.is_terminal() {
            assert_eq!(a.to_text(), b.to_text());
            assert_eq!(a.zobrist(), b.zobrist());
            assert_eq!(a.count_legal_moves(), b.count_legal_moves());
            let m = a.sample_legal_move(&mut rng, &mut buf).unwrap();
            let t = a.move_to_text(m);
            a.apply(m);
            b.apply(parse_legal_move(&b, &t).unwrap());
        }
        assert!(b.is_terminal());
        assert_eq!(a.returns(), b.returns());
    }
}

/// The C-D5 action `m1;pass` in play: from positions where one lone piece
/// per side can get stuck (E-C6-like), random Dagger play must meet it.
#[test]
fn move_then_pass_in_play() {
    let rules = RefRules::new(8, false, true);
    let game = CatapultGame::<u64>::new(rules.engine_rules()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut buf = Vec::new();
    let mut met = 0;
    let mut hashes = HashMap::new();
    for g in 0..200 {
        // Light h5 (or h4) and a Dark stone somewhere on rank 1–2.
        let mut rows = ["........"; 8];
        let l = if g % 2 == 0 { 3 } else { 4 };
        rows[l] = ".......L";
        let dark_row = ["DD......", ".D......", "..D.....", "...D...."][g % 4];
        rows[7 - (g % 3).min(1)] = dark_row;
        let mut r = Ref::from_rows(rules, &rows, Colour::Dark, Some(Colour::Dark));
        let mut e = game.parse_position(&r.to_text()).expect("valid");
        loop {
            let acts = r.legal_actions();
            compare(&game, &e, &r, &acts, &mut rng, &mut buf);
            let key_text = r.to_text().rsplit_once(' ').unwrap().0.to_string();
            let prev = hashes
                .entry(e.zobrist())
                .or_insert_with(|| key_text.clone());
            assert_eq!(*prev, key_text, "zobrist collision");
            if acts.is_empty() {
                break;
            }
            let a = acts[rng.random_range(0..acts.len())];
            met += matches!(a, RAct::OneThenPass(_)) as usize;
            let t = Ref::act_text(a);
            e.apply(parse_legal_move(&e, &t).unwrap());
            r.apply(a);
        }
    }
    assert!(met > 0, "no m1;pass met");
}

// ---------------------------------------------------------------------------
// Uniform sampling
// ---------------------------------------------------------------------------

#[test]
fn sample_legal_move_is_uniform() {
    let g8 = CatapultGame::<u64>::new(Rules::default()).unwrap();
    let g9 = CatapultGame::<u128>::new(Rules {
        size: 9,
        ..Rules::default()
    })
    .unwrap();
    let gd = CatapultGame::<u64>::new(Rules {
        dagger: true,
        ..Rules::default()
    })
    .unwrap();
    // E-C1 (30 moves), E-C3 (39), E-C5 (12 dagger actions).
    check_uniform(&g8.initial_state(0), 30_000, 1).unwrap();
    check_uniform(&g9.initial_state(0), 30_000, 2).unwrap();
    let ec5 = gd.parse_position("8/8/8/8/8/2D5/8/L7 D D").unwrap();
    check_uniform(&ec5, 12_000, 3).unwrap();
    // The busiest positions of seeded random games (captures in all
    // directions, long ranges), and a Dagger position of many actions.
    for (g, seed) in [(&g8, 4u64), (&g8, 5)] {
        let best = busiest(g, seed);
        assert!(best.count_legal_moves() >= 25, "{}", best.to_text());
        check_uniform(&best, 40_000, seed).unwrap();
    }
    let best = busiest(&g9, 6);
    check_uniform(&best, 40_000, 6).unwrap();
    let mut s = gd.initial_state(0);
    apply_moves(&mut s, "a2-a3").unwrap();
    let n = s.count_legal_moves();
    assert!(n > 500);
    check_uniform(&s, 40 * n, 7).unwrap();
}

/// The dagger holder's sampler (a rejection sampler over the double turns,
/// which never lists them) is uniform where it is hardest: E-C6 (`m1;pass`,
/// C-D5), and the holder positions of seeded random games with the most
/// second moves that capture sideways or backwards (C-M2), on 8×8, 9×9
/// (`u128`), with C-D5 off, and in Royal, where first moves that capture the
/// king end the game at once (C-D4).
#[test]
fn dagger_holder_sampling_is_uniform() {
    let rules = |size, royal, then_pass| Rules {
        size,
        royal,
        dagger: true,
        dagger_move_then_pass: then_pass,
        ..Rules::default()
    };
    let g8 = CatapultGame::<u64>::new(rules(8, false, true)).unwrap();
    let ec6 = g8.parse_position("8/8/8/7L/8/8/8/1D6 D D").unwrap();
    assert_eq!(ec6.count_legal_moves(), 2);
    check_uniform(&ec6, 12_000, 20).unwrap();
    let (best, sideways, _) = busiest_holder(&g8, 21, false);
    assert!(sideways >= 20, "{sideways} at {}", best.to_text());
    check_uniform(&best, 40 * best.count_legal_moves(), 21).unwrap();
    let g9 = CatapultGame::<u128>::new(rules(9, false, true)).unwrap();
    let (best, sideways, _) = busiest_holder(&g9, 22, false);
    assert!(sideways >= 20, "{sideways} at {}", best.to_text());
    check_uniform(&best, 40 * best.count_legal_moves(), 22).unwrap();
    let off = CatapultGame::<u64>::new(rules(8, false, false)).unwrap();
    let (best, _, _) = busiest_holder(&off, 23, false);
    check_uniform(&best, 40 * best.count_legal_moves(), 23).unwrap();
    // More than 128 first moves (the sampler's stack list; past it the
    // singles are listed in the move buffer): Light's top rank of range-8
    // pieces (N, NE off the board, E friendly or off, C-R-def) over a Dark
    // rank, 16 captures each (S, SW, SE; C-M2).
    let crowded = g9
        .parse_position("LLLLLLLLL/DDDDDDDDD/9/9/9/9/9/9/9 L L")
        .unwrap();
    let singles = {
        let mut v = Vec::new();
        crowded.legal_moves(&mut v);
        v.iter()
            .filter(|m| matches!(m, CatapultMove::Move(_)))
            .count()
    };
    assert_eq!(singles, 9 * 16);
    check_uniform(&crowded, 40 * crowded.count_legal_moves(), 25).unwrap();
    let royal = CatapultGame::<u64>::new(rules(8, true, true)).unwrap();
    let (best, _, regicides) = busiest_holder(&royal, 24, true);
    assert!(regicides > 0, "no first move takes the king");
    check_uniform(&best, 40 * best.count_legal_moves(), 24).unwrap();
}

/// Over the holder positions of 20 seeded random games: the one with the
/// most double turns whose second move is not forward (so captures, C-M2),
/// among those with a single move that wins (C-D4) if `winning`; with the
/// number of such double turns and of winning single moves.
fn busiest_holder<B: CatapultBits>(
    g: &CatapultGame<B>,
    seed: u64,
    winning: bool,
) -> (CatapultState<B>, usize, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut best = (g.initial_state(0), 0, 0);
    for _ in 0..20 {
        let mut s = g.initial_state(0);
        while !s.is_terminal() {
            let side = s.side_to_move();
            if s.dagger_holder() == Some(side) {
                s.legal_moves(&mut buf);
                let forward = |st: &Step| {
                    let d = st.dir().index();
                    (d ^ (side.index() * 4)) < 3
                };
                let sideways = buf
                    .iter()
                    .filter(|m| matches!(m, CatapultMove::Double(_, m2) if !forward(m2)))
                    .count();
                let wins = buf
                    .iter()
                    .filter(|m| {
                        let CatapultMove::Move(_) = m else {
                            return false;
                        };
                        let mut t = s;
                        t.apply(**m);
                        t.is_terminal()
                    })
                    .count();
                let key = |wins: usize, sideways| (winning && wins > 0, sideways);
                if key(wins, sideways) > key(best.2, best.1) {
                    best = (s, sideways, wins);
                }
            }
            let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
            s.apply(m);
        }
    }
    best
}

/// The position with the most captures available in a seeded random game.
fn busiest<B: CatapultBits>(g: &CatapultGame<B>, seed: u64) -> CatapultState<B> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut s = g.initial_state(0);
    let mut best = s;
    let mut best_caps = 0;
    while !s.is_terminal() {
        s.legal_moves(&mut buf);
        let caps = buf
            .iter()
            .filter(|m| matches!(m, CatapultMove::Move(st) if st.is_capture()))
            .count();
        if caps > best_caps {
            best = s;
            best_caps = caps;
        }
        let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
        s.apply(m);
    }
    best
}

// ---------------------------------------------------------------------------
// Golden playthrough
// ---------------------------------------------------------------------------

const GOLDEN_SEED: u64 = 11;

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suite/data/catapult_playthrough_dagger.txt")
}

fn golden_rules() -> RefRules {
    RefRules::new(8, false, true)
}

/// A seeded random Dagger game played by the reference alone: the first
/// seed from `GOLDEN_SEED` whose game has double turns, single moves by the
/// holder, a capture of two or more pieces, and ends.
fn golden_game() -> (u64, Vec<String>, Ref) {
    for seed in GOLDEN_SEED.. {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut r = Ref::new(golden_rules());
        let mut record = Vec::new();
        let (mut doubles, mut singles, mut multi) = (0, 0, false);
        loop {
            let acts = r.legal_actions();
            if acts.is_empty() {
                break;
            }
            // Prefer single moves half the time so that both kinds occur.
            let singles_only: Vec<RAct> = acts
                .iter()
                .copied()
                .filter(|a| matches!(a, RAct::One(_)))
                .collect();
            let a = if rng.random_bool(0.5) && !singles_only.is_empty() {
                singles_only[rng.random_range(0..singles_only.len())]
            } else {
                acts[rng.random_range(0..acts.len())]
            };
            if r.dagger == Some(r.to_move) {
                match a {
                    RAct::Two(..) => doubles += 1,
                    RAct::One(_) => singles += 1,
                    _ => {}
                }
            }
            let before = r.count(r.to_move.other());
            record.push(Ref::act_text(a));
            r.apply(a);
            multi |= before >= r.count(r.to_move) + 2;
        }
        if doubles >= 3 && singles >= 3 && multi {
            return (seed, record, r);
        }
    }
    unreachable!()
}

/// Writes the golden file, after replaying the record through a fresh
/// reference from its text.
fn write_golden() {
    let (seed, record, r) = golden_game();
    let mut check = Ref::new(golden_rules());
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
        "Catapult golden playthrough: catapult(size=8,royal=false,dagger=true,dagger_move_then_pass=true,ply_cap=2000)\n\
         A random game (ChaCha8 seed {seed}) played and checked move by move by the\n\
         independent reference in engine/tests/suite/catapult_reference.rs, not by the engine.\n\
         Lines starting with '#' are comments; the actions follow, one per line."
    ));
    let path = golden_path();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, out).unwrap();
}

/// Replays the golden record through `engine::apply_moves` and through the
/// reference; both must reach the recorded final position and returns.
/// Set `BOARDLAB_BLESS=1` to (re)write the file from the reference.
#[test]
fn golden_playthrough_dagger() {
    if std::env::var_os("BOARDLAB_BLESS").is_some() {
        write_golden();
    }
    let text = std::fs::read_to_string(golden_path()).expect(
        "tests/suite/data/catapult_playthrough_dagger.txt (write it with BOARDLAB_BLESS=1)",
    );
    let golden = Golden::parse(&text).expect("a well-formed golden file");
    let (moves, final_text) = (golden.moves, golden.final_text);
    let returns = [golden.returns[0], golden.returns[1]];
    assert!(moves.len() > 10);
    assert!(moves.iter().any(|m| m.contains(';')));

    let mut r = Ref::new(golden_rules());
    for m in &moves {
        r.apply_text(m);
    }
    assert_eq!(r.to_text(), final_text);
    assert_eq!(r.returns(), returns);

    let game = CatapultGame::<u64>::new(golden_rules().engine_rules()).unwrap();
    let mut e = game.initial_state(0);
    apply_moves(&mut e, &moves.join(" ")).expect("engine accepts the golden record");
    assert_eq!(e.to_text(), final_text);
    assert!(e.is_terminal());
    let ret = e.returns();
    assert_eq!([ret[0], ret[1]], returns);
    assert_eq!(
        e.winner(),
        Some(if returns[0] > 0.0 {
            Side::Light
        } else {
            Side::Dark
        })
    );
}
