//! A plain Bagel reference (arrays and `(column, row)` pairs straight from
//! the dossier's B-G2 notation, no bitboards, no hex toolkit) diffed
//! against the engine on random playouts over random layouts, both bases:
//! the legal move set, the move count, both scores, the end and the winner
//! (B-3, B-4, B-5, B-7…B-13, B-R4). Also: the incremental Zobrist key
//! (layout included) equals the recomputed one, the position text
//! round-trips, and `sample_legal_move` is uniform over `legal_moves`.

use std::collections::BTreeSet;

use engine::bagel::{BagelGame, BagelState, random_layout};
use engine::spec::Spec;
use engine::testkit::check_uniform;
use engine::{Game, State, ToMove};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The cells of base `b` in B-G6 order: column by column, rows ascending;
/// `(c, n)` exists iff `1 <= n <= 2b-1`, `0 <= c <= 2b-2` and
/// `c - (b-2) <= n <= c + b` (B-G2 for b = 4: `c-2 <= n <= c+4`; B-V1 for
/// b = 5: `c-3 <= n <= c+5`). The hole is `(b-1, b)`.
fn cells(base: i32) -> Vec<(i32, i32)> {
    let mut v = Vec::new();
    for c in 0..2 * base - 1 {
        for n in 1..2 * base {
            if c - (base - 2) <= n && n <= c + base && (c, n) != (base - 1, base) {
                v.push((c, n));
            }
        }
    }
    v
}

fn name((c, n): (i32, i32)) -> String {
    format!("{}{}", (b'a' + c as u8) as char, n)
}

/// What the reference reads from a position text.
struct Ref {
    base: i32,
    cells: Vec<(i32, i32)>,
    tile: Vec<u8>,
    /// 0 empty, 1 white, 2 black.
    disc: Vec<u8>,
    white_to_move: bool,
    stage: String,
    reserve: [u32; 2],
    white_seat: usize,
}

impl Ref {
    fn parse(base: i32, text: &str) -> Ref {
        let f: Vec<&str> = text.split_whitespace().collect();
        let cells = cells(base);
        assert_eq!(f[0].len(), cells.len());
        Ref {
            base,
            tile: f[0].bytes().collect(),
            disc: f[1]
                .bytes()
                .map(|b| match b {
                    b'w' => 1,
                    b'b' => 2,
                    _ => 0,
                })
                .collect(),
            cells,
            white_to_move: f[2] == "w",
            stage: f[3].to_string(),
            reserve: [f[4].parse().unwrap(), f[5].parse().unwrap()],
            white_seat: f[6].parse().unwrap(),
        }
    }

    fn at(&self, c: i32, n: i32) -> Option<usize> {
        self.cells.iter().position(|&x| x == (c, n))
    }

    fn mover(&self) -> usize {
        if self.white_to_move { 0 } else { 1 }
    }

    /// B-10 / B-R4 (end=mover).
    fn over(&self) -> bool {
        !self.disc.contains(&0) || self.reserve[self.mover()] == 0
    }

    fn aligned(a: (i32, i32), b: (i32, i32)) -> bool {
        a.0 == b.0 || a.1 == b.1 || a.1 - a.0 == b.1 - b.0
    }

    /// B-1…B-5: singles, same-colour aligned pairs (any distance, across
    /// discs and the hole) unless it is the opening or one disc is left,
    /// swap on Black's first turn.
    fn moves(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        if self.over() {
            return out;
        }
        let empty: Vec<usize> = (0..self.cells.len())
            .filter(|&i| self.disc[i] == 0)
            .collect();
        for &i in &empty {
            out.insert(name(self.cells[i]));
        }
        if self.stage != "open" && self.reserve[self.mover()] >= 2 {
            for (x, &i) in empty.iter().enumerate() {
                for &j in &empty[x + 1..] {
                    if self.tile[i] == self.tile[j] && Self::aligned(self.cells[i], self.cells[j]) {
                        out.insert(format!("{}+{}", name(self.cells[i]), name(self.cells[j])));
                    }
                }
            }
        }
        if self.stage == "pie" {
            out.insert("swap".into());
        }
        out
    }

    /// Every maximal run of `who`'s discs on every line (B-7): lines are
    /// walked from every cell whose predecessor is off the board or the
    /// hole... simply: from every cell, in each direction, if the previous
    /// cell is not `who`'s disc, count forward.
    fn runs(&self, who: u8) -> Vec<i32> {
        let mut out = Vec::new();
        let owner = |c: i32, n: i32| self.at(c, n).map(|i| self.disc[i]).unwrap_or(0);
        for &(c, n) in &self.cells {
            for (dc, dn) in [(0, 1), (1, 0), (1, 1)] {
                if owner(c, n) != who || owner(c - dc, n - dn) == who {
                    continue;
                }
                let mut len = 0;
                while owner(c + len * dc, n + len * dn) == who {
                    len += 1;
                }
                out.push(len);
            }
        }
        out
    }

    /// B-8 / B-V2: an n-run scores n - 2 (n - 3 in Big Bagel).
    fn score(&self, who: u8) -> u32 {
        let k = self.base - 1;
        self.runs(who)
            .iter()
            .map(|&n| (n - k + 1).max(0) as u32)
            .sum()
    }

    /// B-11…B-13 with runs of at least 4; returns the winner 1 or 2.
    fn winner(&self) -> u8 {
        let (w, b) = (self.score(1), self.score(2));
        if w != b {
            return if w > b { 1 } else { 2 };
        }
        let list = |who| {
            let mut v: Vec<i32> = self.runs(who).into_iter().filter(|&n| n >= 4).collect();
            v.sort_by(|a, b| b.cmp(a));
            v
        };
        let (lw, lb) = (list(1), list(2));
        for i in 0..lw.len().max(lb.len()) {
            match (lw.get(i), lb.get(i)) {
                (Some(a), Some(b)) if a != b => return if a > b { 1 } else { 2 },
                (Some(_), None) => return 1,
                (None, Some(_)) => return 2,
                _ => {}
            }
        }
        2
    }
}

fn engine_moves(s: &BagelState) -> BTreeSet<String> {
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    v.iter().map(|&m| s.move_to_text(m)).collect()
}

fn check(game: &BagelGame, base: i32, s: &BagelState) {
    let text = s.to_text();
    let r = Ref::parse(base, &text);
    let moves = engine_moves(s);
    assert_eq!(moves, r.moves(), "moves at {text}");
    assert_eq!(s.count_legal_moves(), moves.len(), "count at {text}");
    assert_eq!(s.score(engine::bagel::Side::White), r.score(1), "{text}");
    assert_eq!(s.score(engine::bagel::Side::Black), r.score(2), "{text}");
    assert_eq!(s.is_terminal(), r.over(), "end at {text}");
    if r.over() {
        let w = r.winner();
        let seat = if w == 1 {
            r.white_seat
        } else {
            1 - r.white_seat
        };
        assert_eq!(s.returns()[seat], 1.0, "winner at {text}");
        assert_eq!(s.returns()[1 - seat], -1.0, "loser at {text}");
    } else {
        let seat = if r.white_to_move {
            r.white_seat
        } else {
            1 - r.white_seat
        };
        assert_eq!(s.to_move(), ToMove::Seat(seat), "{text}");
    }
    assert_eq!(s.zobrist(), s.zobrist_from_scratch(), "key at {text}");
    let back = game.parse_position(&text).unwrap();
    assert_eq!(back.to_text(), text);
    assert_eq!(back.zobrist(), s.zobrist());
}

fn game(spec: &str) -> BagelGame {
    BagelGame::from_spec(&Spec::parse(spec).unwrap()).unwrap()
}

#[test]
fn engine_matches_reference_on_random_playouts() {
    let mut total = 0;
    for (spec, base, games) in [("bagel", 4, 420), ("bagel(base=5)", 5, 160)] {
        let g = game(spec);
        let mut rng = ChaCha8Rng::seed_from_u64(2026 + base as u64);
        let mut positions = 0;
        for _ in 0..games {
            let mut s = g.initial_state(rng.random());
            loop {
                check(&g, base, &s);
                positions += 1;
                let mut v = Vec::new();
                s.legal_moves(&mut v);
                if v.is_empty() {
                    break;
                }
                // Mix singles and pairs: a uniform move is mostly a pair.
                let m = v[rng.random_range(0..v.len())];
                s.apply(m);
            }
        }
        assert!(positions >= 5000, "{spec}: {positions}");
        total += positions;
    }
    assert!(total >= 10_000, "{total}");
}

/// The layout is part of the key: the same discs on two layouts differ.
#[test]
fn layout_is_in_the_key() {
    let g = game("bagel");
    let a = g.initial_state(1);
    let b = g.initial_state(2);
    assert_ne!(a.layout_text(), b.layout_text());
    assert_ne!(a.zobrist(), b.zobrist());
    let c = game(&format!("bagel(layout={})", random_layout(4, 4, 1))).initial_state(99);
    assert_eq!(c.zobrist(), a.zobrist());
}

/// `sample_legal_move` is uniform over `legal_moves`: chi-square on
/// positions of every kind (opening, pie with swap, middle game, one disc
/// left in reserve), both bases.
#[test]
fn samples_are_uniform() {
    let mut positions: Vec<BagelState> = Vec::new();
    for (spec, base) in [("bagel", 4), ("bagel(base=5)", 5), ("bagel(reserve=3)", 4)] {
        let g = game(spec);
        let mut rng = ChaCha8Rng::seed_from_u64(base as u64);
        let mut buf = Vec::new();
        let mut s = g.initial_state(3);
        positions.push(s.clone());
        while let ToMove::Seat(_) = s.to_move() {
            if s.ply() == 1 || s.ply() == 6 || s.reserve(s.colour_to_move()) == 1 {
                positions.push(s.clone());
            }
            let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
            s.apply(m);
        }
    }
    assert!(positions.len() >= 6);
    for (i, s) in positions.iter().enumerate() {
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let k = moves.len();
        if k < 2 {
            continue;
        }
        check_uniform(s, 300 * k, 100 + i as u64).unwrap();
    }
}

/// Every position of the golden playthrough on BAGEL-L1 agrees with the
/// reference.
#[test]
fn golden_playthrough_matches_reference() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/suite/data/bagel_playthrough_l1.txt"
    ))
    .unwrap();
    let golden = engine::testkit::Golden::parse(&text).unwrap();
    let g = game(&format!("bagel(layout={})", engine::bagel::BAGEL_L1));
    let mut s = g.initial_state(0);
    for m in &golden.moves {
        check(&g, 4, &s);
        let mv = engine::parse_legal_move(&s, m).unwrap();
        s.apply(mv);
    }
    check(&g, 4, &s);
    let r = Ref::parse(4, &s.to_text());
    assert!(r.over());
    assert_eq!(r.winner(), 1, "White (seat 0) wins");
}
