//! Andalusia: a plain reference implementation and a differential test of
//! the bitboard engine against it.
//!
//! The reference (`Ref`) is written from the rules dossier alone
//! (`docs/rules/andalusia.md`; rule numbers cited). It is plain and
//! slow on purpose: a 9 × 9 array of points, the link rule A-B1 evaluated
//! point by point, every move walked link by link, and legality tested the
//! *second* way of §2.10: play the move on a copy, then the move is illegal
//! if any enemy pseudo-move (King steps included) lands on the mover's King
//! or the two Kings see each other along a line. The engine instead finds
//! checkers and pins from the King's rays (A-K1), so the two agree only if
//! both are right. The draw rules are kept the plain way too: every position
//! since the start is remembered and counted. It shares no code with
//! `engine/src/andalusia/`; the engine is touched only through its public
//! API.
//!
//! Tests here:
//! * the reference reproduces the dossier's perft counts (so it is a fair
//!   judge);
//! * random playouts under the default rulings and under short draw rules
//!   (more than 10,000 positions in all) compare at every position: legal
//!   moves, their count, terminal status and ending, returns, in-check, the
//!   incremental Zobrist key against the recomputed one, key collisions
//!   between different positions, position-text and move-text round trips;
//! * `sample_legal_move` is uniform (chi-square).

use std::collections::{BTreeSet, HashMap};

use engine::andalusia::{AndalusiaGame, AndalusiaState, Outcome, Rules, StalemateResult};
use engine::testkit::check_uniform;
use engine::{Game, State, ToMove};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------------------
// The reference implementation
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
enum Colour {
    White,
    Black,
}

impl Colour {
    fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
    /// Rank direction of "forward": +1 for White, −1 for Black.
    fn forward(self) -> i32 {
        match self {
            Colour::White => 1,
            Colour::Black => -1,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
enum Kind {
    King,
    Chariot,
    Soldier,
}

type Point = (i32, i32);
type Board = [[Option<(Colour, Kind)>; 9]; 9];

/// The 8 directions (§0.1) as (file step, rank step).
const DIRS: [Point; 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

fn on_board(p: Point) -> bool {
    (0..9).contains(&p.0) && (0..9).contains(&p.1)
}

/// A-B1: the link from `p` in direction `d` exists iff the target is on the
/// board and: E/W on even y; N/S on even x; diagonals on even x + y.
fn link(p: Point, d: Point) -> bool {
    let t = (p.0 + d.0, p.1 + d.1);
    if !on_board(t) {
        return false;
    }
    if d.1 == 0 {
        p.1 % 2 == 0
    } else if d.0 == 0 {
        p.0 % 2 == 0
    } else {
        (p.0 + p.1) % 2 == 0
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
struct RMove {
    from: Point,
    to: Point,
    capture: bool,
    promotion: bool,
}

fn name(p: Point) -> String {
    format!("{}{}", (b'a' + p.0 as u8) as char, p.1 + 1)
}

fn move_text(m: RMove) -> String {
    format!(
        "{}{}{}{}",
        name(m.from),
        if m.capture { 'x' } else { '-' },
        name(m.to),
        if m.promotion { "=C" } else { "" }
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum REnd {
    Checkmate,
    Stalemate,
    Repetition,
    Quiet,
    Cap,
}

#[derive(Clone, Debug)]
struct Ref {
    rules: Rules,
    board: Board,
    to_move: Colour,
    quiet: u32,
    ply: u32,
    /// Every position (board, side to move) since the start, the current
    /// one included.
    seen: Vec<(Board, Colour)>,
    end: Option<REnd>,
}

impl Ref {
    /// A-S2: Kings e1/e9, Chariots b–d and f–h on ranks 1 and 9, Soldiers
    /// on ranks 2 and 8, corners empty; White to move (A-R1).
    fn new(rules: Rules) -> Ref {
        let mut board: Board = [[None; 9]; 9];
        for file in board.iter_mut() {
            file[1] = Some((Colour::White, Kind::Soldier));
            file[7] = Some((Colour::Black, Kind::Soldier));
        }
        for x in [1, 2, 3, 5, 6, 7] {
            board[x][0] = Some((Colour::White, Kind::Chariot));
            board[x][8] = Some((Colour::Black, Kind::Chariot));
        }
        board[4][0] = Some((Colour::White, Kind::King));
        board[4][8] = Some((Colour::Black, Kind::King));
        Ref::from_board(rules, board, Colour::White, 0, 0)
    }

    fn from_board(rules: Rules, board: Board, to_move: Colour, quiet: u32, ply: u32) -> Ref {
        let mut r = Ref {
            rules,
            board,
            to_move,
            quiet,
            ply,
            seen: vec![(board, to_move)],
            end: None,
        };
        r.settle();
        r
    }

    /// Reads the engine's position text (rows 9..1, `K C S k c s`, digits).
    fn from_text(rules: Rules, text: &str) -> Ref {
        let f: Vec<&str> = text.split_whitespace().collect();
        let mut board: Board = [[None; 9]; 9];
        for (i, row) in f[0].split('/').enumerate() {
            let y = 8 - i;
            let mut x = 0;
            for ch in row.chars() {
                if let Some(k) = ch.to_digit(10) {
                    x += k as usize;
                    continue;
                }
                let colour = if ch.is_ascii_uppercase() {
                    Colour::White
                } else {
                    Colour::Black
                };
                let kind = match ch.to_ascii_uppercase() {
                    'K' => Kind::King,
                    'C' => Kind::Chariot,
                    'S' => Kind::Soldier,
                    _ => panic!("letter {ch}"),
                };
                board[x][y] = Some((colour, kind));
                x += 1;
            }
        }
        let to_move = if f[1] == "w" {
            Colour::White
        } else {
            Colour::Black
        };
        let n = |i: usize| f.get(i).map_or(0, |v| v.parse().unwrap());
        Ref::from_board(rules, board, to_move, n(2), n(3))
    }

    fn at(&self, p: Point) -> Option<(Colour, Kind)> {
        self.board[p.0 as usize][p.1 as usize]
    }

    fn king(board: &Board, c: Colour) -> Point {
        for (x, file) in board.iter().enumerate() {
            for (y, p) in file.iter().enumerate() {
                if *p == Some((c, Kind::King)) {
                    return (x as i32, y as i32);
                }
            }
        }
        panic!("no king");
    }

    /// Pseudo-moves of `c` on `board` (A-M1–A-M5). With `hit_kings` the
    /// enemy King counts as a capturable target (for the attack test);
    /// otherwise Kings are never captured.
    fn pseudo(board: &Board, c: Colour, hit_kings: bool) -> Vec<RMove> {
        let mut out = Vec::new();
        let at = |p: Point| board[p.0 as usize][p.1 as usize];
        let target_ok = |p: Point| match at(p) {
            None => true,
            Some((o, k)) => o != c && (hit_kings || k != Kind::King),
        };
        for x in 0..9 {
            for y in 0..9 {
                let from = (x, y);
                let Some((col, kind)) = at(from) else {
                    continue;
                };
                if col != c {
                    continue;
                }
                match kind {
                    Kind::King => {
                        for d in DIRS {
                            let to = (x + d.0, y + d.1);
                            if link(from, d) && target_ok(to) {
                                out.push(RMove {
                                    from,
                                    to,
                                    capture: at(to).is_some(),
                                    promotion: false,
                                });
                            }
                        }
                    }
                    Kind::Chariot => {
                        for d in DIRS {
                            let mut p = from;
                            while link(p, d) {
                                p = (p.0 + d.0, p.1 + d.1);
                                if target_ok(p) {
                                    out.push(RMove {
                                        from,
                                        to: p,
                                        capture: at(p).is_some(),
                                        promotion: false,
                                    });
                                }
                                if at(p).is_some() {
                                    break;
                                }
                            }
                        }
                    }
                    Kind::Soldier => {
                        let f = c.forward();
                        // A-M5: White promotes on rank 8 (y 7), Black on
                        // rank 2 (y 1).
                        let promo_y = if c == Colour::White { 7 } else { 1 };
                        let start_y = if c == Colour::White { 1 } else { 7 };
                        // A-M3: forward, the forward diagonals, sideways.
                        for d in [(0, f), (1, f), (-1, f), (1, 0), (-1, 0)] {
                            let to = (x + d.0, y + d.1);
                            if link(from, d) && target_ok(to) {
                                out.push(RMove {
                                    from,
                                    to,
                                    capture: at(to).is_some(),
                                    promotion: to.1 == promo_y,
                                });
                            }
                        }
                        // A-M4: two steps forward in one direction from the
                        // start rank, both points empty, never a capture.
                        if y == start_y {
                            for d in [(0, f), (1, f), (-1, f)] {
                                let mid = (x + d.0, y + d.1);
                                let to = (mid.0 + d.0, mid.1 + d.1);
                                if link(from, d)
                                    && link(mid, d)
                                    && at(mid).is_none()
                                    && at(to).is_none()
                                {
                                    out.push(RMove {
                                        from,
                                        to,
                                        capture: false,
                                        promotion: to.1 == promo_y,
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn play_on(board: &Board, c: Colour, m: RMove) -> Board {
        let mut b = *board;
        let piece = b[m.from.0 as usize][m.from.1 as usize].take().unwrap();
        let piece = if m.promotion {
            (c, Kind::Chariot)
        } else {
            piece
        };
        b[m.to.0 as usize][m.to.1 as usize] = Some(piece);
        b
    }

    /// The second legality test of §2.10: `c`'s King is attacked iff some
    /// pseudo-move of the enemy lands on it, or the Kings see each other
    /// along a line (walk each linked direction from the King to the first
    /// piece).
    fn king_attacked(board: &Board, c: Colour) -> bool {
        let k = Ref::king(board, c);
        if Ref::pseudo(board, c.other(), true)
            .iter()
            .any(|m| m.to == k)
        {
            return true;
        }
        for d in DIRS {
            let mut p = k;
            while link(p, d) {
                p = (p.0 + d.0, p.1 + d.1);
                if let Some(piece) = board[p.0 as usize][p.1 as usize] {
                    if piece == (c.other(), Kind::King) {
                        return true;
                    }
                    break;
                }
            }
        }
        false
    }

    fn legal_from_board(board: &Board, c: Colour) -> Vec<RMove> {
        Ref::pseudo(board, c, false)
            .into_iter()
            .filter(|&m| !Ref::king_attacked(&Ref::play_on(board, c, m), c))
            .collect()
    }

    fn legal(&self) -> Vec<RMove> {
        if self.end.is_some() {
            return Vec::new();
        }
        Ref::legal_from_board(&self.board, self.to_move)
    }

    fn in_check(&self) -> bool {
        Ref::king_attacked(&self.board, self.to_move)
    }

    /// §2.6 in the order of the engine's docs: no legal move, repetition,
    /// quiet plies, ply cap.
    fn settle(&mut self) {
        let r = self.rules;
        let here = (self.board, self.to_move);
        self.end = if Ref::legal_from_board(&self.board, self.to_move).is_empty() {
            Some(if self.in_check() {
                REnd::Checkmate
            } else {
                REnd::Stalemate
            })
        } else if r.repetitions >= 2
            && self.seen.iter().filter(|&&p| p == here).count() as u32 >= r.repetitions
        {
            Some(REnd::Repetition)
        } else if r.quiet_plies > 0 && self.quiet >= r.quiet_plies {
            Some(REnd::Quiet)
        } else if self.ply >= r.ply_cap {
            Some(REnd::Cap)
        } else {
            None
        };
    }

    fn apply(&mut self, m: RMove) {
        let soldier = self.at(m.from).unwrap().1 == Kind::Soldier;
        self.board = Ref::play_on(&self.board, self.to_move, m);
        self.quiet = if m.capture || soldier {
            0
        } else {
            self.quiet + 1
        };
        self.to_move = self.to_move.other();
        self.ply += 1;
        self.seen.push((self.board, self.to_move));
        self.settle();
    }

    /// Returns for (White, Black).
    fn returns(&self) -> [f64; 2] {
        let loser_loses = match self.end {
            Some(REnd::Checkmate) => true,
            Some(REnd::Stalemate) => self.rules.stalemate == StalemateResult::Loss,
            _ => false,
        };
        if !loser_loses {
            return [0.0, 0.0];
        }
        match self.to_move {
            Colour::White => [-1.0, 1.0],
            Colour::Black => [1.0, -1.0],
        }
    }
}

fn ref_perft(r: &Ref, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = r.legal();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut c = r.clone();
            c.apply(m);
            ref_perft(&c, depth - 1)
        })
        .sum()
}

// ---------------------------------------------------------------------------
// The reference against the dossier
// ---------------------------------------------------------------------------

#[test]
fn reference_reproduces_dossier_perft() {
    // §2.10, depths up to 3 (the reference is slow on purpose).
    let r = Ref::new(Rules::default());
    assert_eq!(ref_perft(&r, 1), 26);
    assert_eq!(ref_perft(&r, 2), 676);
    assert_eq!(ref_perft(&r, 3), 17_988);
    let e_a3 = Ref::from_text(Rules::default(), "4k4/9/6S2/9/4S4/9/4K4/2S6/cC6c w");
    assert_eq!(ref_perft(&e_a3, 2), 745);
    let e_a5 = Ref::from_text(Rules::default(), "9/9/2k6/9/2S6/9/2K5c/9/C5C2 w");
    assert_eq!(ref_perft(&e_a5, 1), 9);
    assert_eq!(ref_perft(&e_a5, 2), 208);
}

// ---------------------------------------------------------------------------
// Differential test
// ---------------------------------------------------------------------------

fn ending_of(e: Option<Outcome>) -> Option<REnd> {
    e.map(|e| match e {
        Outcome::Checkmate => REnd::Checkmate,
        Outcome::Stalemate => REnd::Stalemate,
        Outcome::Repetition => REnd::Repetition,
        Outcome::QuietPlies => REnd::Quiet,
        Outcome::PlyCap => REnd::Cap,
    })
}

#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    games: usize,
    endings: HashMap<String, usize>,
    checks: usize,
    promotions: usize,
}

fn compare(
    game: &AndalusiaGame,
    s: &AndalusiaState,
    r: &Ref,
    keys: &mut HashMap<u64, String>,
    buf: &mut Vec<engine::andalusia::AndalusiaMove>,
) {
    let at = || s.to_text();
    s.legal_moves(buf);
    let mine: BTreeSet<String> = buf.iter().map(|&m| s.move_to_text(m)).collect();
    let theirs: BTreeSet<String> = r.legal().into_iter().map(move_text).collect();
    if mine != theirs {
        let extra: Vec<_> = mine.difference(&theirs).collect();
        let missing: Vec<_> = theirs.difference(&mine).collect();
        panic!(
            "moves differ at {}: engine extra {extra:?}, missing {missing:?}",
            at()
        );
    }
    assert_eq!(mine.len(), buf.len(), "duplicates at {}", at());
    assert_eq!(s.count_legal_moves(), buf.len(), "count at {}", at());
    assert_eq!(ending_of(s.ending()), r.end, "ending at {}", at());
    assert_eq!(s.is_terminal(), r.end.is_some(), "terminal at {}", at());
    let ret = s.returns();
    assert_eq!([ret[0], ret[1]], r.returns(), "returns at {}", at());
    assert_eq!(s.in_check(), r.in_check(), "in check at {}", at());
    assert_eq!(s.zobrist(), s.zobrist_from_scratch(), "zobrist at {}", at());
    // Different placements (or sides to move) must have different keys.
    let placement: String = at()
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    if let Some(prev) = keys.insert(s.zobrist(), placement.clone()) {
        assert_eq!(prev, placement, "zobrist collision");
    }
    // Position text round trip (the history is not in the text: compare
    // the placement, counters and key).
    let back = game.parse_position(&at()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.to_text(), at());
    assert_eq!(back.zobrist(), s.zobrist());
    // Move text round trip.
    for &m in buf.iter() {
        let t = s.move_to_text(m);
        assert_eq!(s.parse_move(&t).unwrap(), m, "move {t} at {}", at());
    }
}

fn run(rules: Rules, seed: u64, positions: usize, tally: &mut Tally) {
    let game = AndalusiaGame::new(rules).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut keys = HashMap::new();
    let mut buf = Vec::new();
    while tally.positions < positions {
        let mut s = game.initial_state(0);
        let mut r = Ref::new(rules);
        loop {
            compare(&game, &s, &r, &mut keys, &mut buf);
            tally.positions += 1;
            tally.checks += r.in_check() as usize;
            if s.is_terminal() {
                *tally
                    .endings
                    .entry(format!("{:?}", s.ending().unwrap()))
                    .or_default() += 1;
                break;
            }
            let m = buf[rng.random_range(0..buf.len())];
            tally.promotions += m.is_promotion() as usize;
            let text = s.move_to_text(m);
            let rm = r
                .legal()
                .into_iter()
                .find(|&x| move_text(x) == text)
                .unwrap();
            s.apply(m);
            r.apply(rm);
        }
        tally.games += 1;
    }
}

#[test]
fn engine_matches_reference_default_rules() {
    let mut t = Tally::default();
    run(Rules::default(), 0xA4DA, 7_000, &mut t);
    eprintln!("default rules: {t:?}");
    assert!(t.checks > 100 && t.promotions > 10, "{t:?}");
}

#[test]
fn engine_matches_reference_short_draw_rules() {
    // Short draw rules so that repetitions, the quiet-plies rule and the
    // cap all end games; stalemate scored as a draw.
    let rules = Rules {
        stalemate: StalemateResult::Draw,
        repetitions: 2,
        quiet_plies: 12,
        ply_cap: 150,
    };
    let mut t = Tally::default();
    run(rules, 0xA4DB, 3_000, &mut t);
    eprintln!("short draw rules: {t:?}");
    assert!(
        t.endings.get("QuietPlies").copied().unwrap_or(0) > 0,
        "{t:?}"
    );
    let rules = Rules {
        repetitions: 3,
        quiet_plies: 40,
        ..rules
    };
    let mut t = Tally::default();
    run(rules, 0xA4DC, 1_500, &mut t);
    eprintln!("threefold rules: {t:?}");
}

/// Endgames with few pieces: random playouts from a thin position reach
/// checkmates, stalemates and flying-King pins more often.
#[test]
fn engine_matches_reference_endgames() {
    let game = AndalusiaGame::default();
    let mut rng = ChaCha8Rng::seed_from_u64(0xE4D);
    let mut keys = HashMap::new();
    let mut buf = Vec::new();
    let mut positions = 0;
    let mut endings: HashMap<String, usize> = HashMap::new();
    let starts = [
        "3k5/9/9/9/9/9/9/9/4K1C2 w",
        "2c5k/9/9/9/9/9/9/9/4K1C2 b",
        "3k5/2s6/9/9/9/6S2/9/9/C3K4 w",
        "1c4k2/9/3s5/9/9/9/5S3/9/4K2C1 w",
    ];
    for start in starts.iter().cycle() {
        if positions >= 2_000 {
            break;
        }
        let mut s = game.parse_position(start).unwrap();
        let mut r = Ref::from_text(Rules::default(), start);
        loop {
            compare(&game, &s, &r, &mut keys, &mut buf);
            positions += 1;
            if s.is_terminal() {
                *endings
                    .entry(format!("{:?}", s.ending().unwrap()))
                    .or_default() += 1;
                break;
            }
            let m = buf[rng.random_range(0..buf.len())];
            let text = s.move_to_text(m);
            let rm = r
                .legal()
                .into_iter()
                .find(|&x| move_text(x) == text)
                .unwrap();
            s.apply(m);
            r.apply(rm);
        }
    }
    eprintln!("endgames: {positions} positions, {endings:?}");
    for e in ["Repetition", "Checkmate", "Stalemate"] {
        assert!(endings.get(e).copied().unwrap_or(0) > 0, "{e}: {endings:?}");
    }
}

#[test]
fn sample_legal_move_is_uniform() {
    let game = AndalusiaGame::default();
    // E-A3 (22 moves).
    let s = game
        .parse_position("4k4/9/6S2/9/4S4/9/4K4/2S6/cC6c w")
        .unwrap();
    assert_eq!(s.count_legal_moves(), 22);
    check_uniform(&s, 22_000, 5).unwrap();
    assert!(matches!(s.to_move(), ToMove::Seat(0)));
}
