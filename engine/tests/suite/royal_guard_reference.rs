//! A plain reference move generator for Royal Guard (and, with powers off,
//! chess), written from the numbered rules of
//! `docs/rules/royal_guard.md` (§3.3) with no bitboards: an array board, pseudo-legal
//! moves walked square by square, each made on a copy and kept iff the
//! mover's King is then not attacked (RG-5's legality definition). It reads
//! each position from its FEN, so it shares no code with the engine beyond
//! the text.
//!
//! Diffed against the bitboard generator on positions from seeded random
//! playouts, powers on and off (>= 10,000 positions each).

use std::collections::BTreeSet;

use engine::royal_guard::{RoyalGuardGame, Rules};
use engine::{Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Pc {
    white: bool,
    kind: char, // p n b r q k
}

#[derive(Clone)]
struct Ref {
    sq: [Option<Pc>; 64],
    white: bool,
    castle: String,
    ep: Option<usize>,
    royal: bool,
}

fn idx(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as usize)
}

fn name(i: usize) -> String {
    format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1)
}

const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

impl Ref {
    fn from_fen(fen: &str, royal: bool) -> Ref {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let mut sq = [None; 64];
        for (i, row) in f[0].split('/').enumerate() {
            let r = 7 - i;
            let mut file = 0;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    file += d as usize;
                } else {
                    sq[r * 8 + file] = Some(Pc {
                        white: ch.is_ascii_uppercase(),
                        kind: ch.to_ascii_lowercase(),
                    });
                    file += 1;
                }
            }
        }
        let ep = (f[3] != "-").then(|| {
            let b = f[3].as_bytes();
            ((b[1] - b'1') as usize) * 8 + (b[0] - b'a') as usize
        });
        Ref {
            sq,
            white: f[1] == "w",
            castle: f[2].to_string(),
            ep,
            royal,
        }
    }

    fn king(&self, white: bool) -> usize {
        (0..64)
            .find(|&i| self.sq[i] == Some(Pc { white, kind: 'k' }))
            .expect("a king")
    }

    /// RG-2: the piece on `i` is royal (same sub-grid as its own King).
    fn is_royal(&self, i: usize) -> bool {
        let Some(p) = self.sq[i] else { return false };
        if !self.royal || !"nbrp".contains(p.kind) {
            return false;
        }
        let k = self.king(p.white);
        (i % 8) % 2 == (k % 8) % 2 && (i / 8) % 2 == (k / 8) % 2
    }

    /// RG-5: whether side `by` attacks square `t`.
    fn attacked(&self, t: usize, by: bool) -> bool {
        let (tf, tr) = ((t % 8) as i32, (t / 8) as i32);
        let is = |i: Option<usize>, kinds: &str| {
            i.and_then(|i| self.sq[i])
                .is_some_and(|p| p.white == by && kinds.contains(p.kind))
        };
        // Pawns: a `by` pawn one rank behind t (from by's view), diagonal.
        let back = if by { -1 } else { 1 };
        if is(idx(tf - 1, tr + back), "p") || is(idx(tf + 1, tr + back), "p") {
            return true;
        }
        for (df, dr) in KNIGHT_JUMPS {
            if is(idx(tf + df, tr + dr), "n") {
                return true;
            }
        }
        for (df, dr) in KING_STEPS {
            let i = idx(tf + df, tr + dr);
            if is(i, "k") {
                return true;
            }
            // RG-5 (a): royal N/B/R attack the 8 squares around them.
            if is(i, "nbr") && self.is_royal(i.unwrap()) {
                return true;
            }
        }
        // RG-5 (b): a royal pawn attacks the square straight ahead.
        let i = idx(tf, tr + back);
        if is(i, "p") && self.is_royal(i.unwrap()) {
            return true;
        }
        for (k, (df, dr)) in KING_STEPS.iter().enumerate() {
            let kinds = if k % 2 == 0 { "rq" } else { "bq" };
            let (mut f, mut r) = (tf + df, tr + dr);
            while let Some(i) = idx(f, r) {
                if let Some(p) = self.sq[i] {
                    if p.white == by && kinds.contains(p.kind) {
                        return true;
                    }
                    break;
                }
                f += df;
                r += dr;
            }
        }
        false
    }

    /// Pseudo-legal moves as (from, to, promotion, en passant, castling).
    fn pseudo(&self) -> Vec<(usize, usize, Option<char>, bool, bool)> {
        let mut out = Vec::new();
        let us = self.white;
        let free = |i: usize| self.sq[i].is_none_or(|p| p.white != us);
        for from in 0..64 {
            let Some(p) = self.sq[from] else { continue };
            if p.white != us {
                continue;
            }
            let (f, r) = ((from % 8) as i32, (from / 8) as i32);
            let royal = self.is_royal(from);
            let mut targets = BTreeSet::new();
            match p.kind {
                'p' => {
                    let dir = if us { 1 } else { -1 };
                    let last = if us { 7 } else { 0 };
                    let pawn = |to: usize, out: &mut Vec<_>| {
                        if to / 8 == last {
                            for q in ['q', 'r', 'b', 'n'] {
                                out.push((from, to, Some(q), false, false));
                            }
                        } else {
                            out.push((from, to, None, false, false));
                        }
                    };
                    if let Some(one) = idx(f, r + dir) {
                        match self.sq[one] {
                            None => {
                                pawn(one, &mut out);
                                let start = if us { 1 } else { 6 };
                                if r == start
                                    && let Some(two) = idx(f, r + 2 * dir)
                                    && self.sq[two].is_none()
                                {
                                    out.push((from, two, None, false, false));
                                }
                            }
                            // RG-4: a royal pawn captures straight ahead.
                            Some(q) if q.white != us && royal => pawn(one, &mut out),
                            _ => {}
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(t) = idx(f + df, r + dir) {
                            if self.sq[t].is_some_and(|q| q.white != us) {
                                pawn(t, &mut out);
                            } else if self.ep == Some(t) {
                                out.push((from, t, None, true, false));
                            }
                        }
                    }
                    continue;
                }
                'n' => {
                    for (df, dr) in KNIGHT_JUMPS {
                        if let Some(t) = idx(f + df, r + dr) {
                            targets.insert(t);
                        }
                    }
                }
                'k' => {
                    for (df, dr) in KING_STEPS {
                        if let Some(t) = idx(f + df, r + dr) {
                            targets.insert(t);
                        }
                    }
                    // Castling (FIDE; attacks per RG-5, ruling RG-R3).
                    let (rank, ks, qs) = if us { (0, 'K', 'Q') } else { (7, 'k', 'q') };
                    let e = |fl: i32| idx(fl, rank).unwrap();
                    if from == e(4) && !self.attacked(from, !us) {
                        if self.castle.contains(ks)
                            && self.sq[e(5)].is_none()
                            && self.sq[e(6)].is_none()
                            && !self.attacked(e(5), !us)
                            && !self.attacked(e(6), !us)
                        {
                            out.push((from, e(6), None, false, true));
                        }
                        if self.castle.contains(qs)
                            && (1..4).all(|fl| self.sq[e(fl)].is_none())
                            && !self.attacked(e(3), !us)
                            && !self.attacked(e(2), !us)
                        {
                            out.push((from, e(2), None, false, true));
                        }
                    }
                }
                _ => {
                    let all = p.kind == 'q';
                    for (k, (df, dr)) in KING_STEPS.iter().enumerate() {
                        let diagonal = k % 2 == 1;
                        if !(all || (diagonal && p.kind == 'b') || (!diagonal && p.kind == 'r')) {
                            continue;
                        }
                        let (mut x, mut y) = (f + df, r + dr);
                        while let Some(t) = idx(x, y) {
                            targets.insert(t);
                            if self.sq[t].is_some() {
                                break;
                            }
                            x += df;
                            y += dr;
                        }
                    }
                }
            }
            // RG-3: a royal R/B/N adds the 8 King steps.
            if royal && p.kind != 'p' {
                for (df, dr) in KING_STEPS {
                    if let Some(t) = idx(f + df, r + dr) {
                        targets.insert(t);
                    }
                }
            }
            for t in targets {
                if free(t) {
                    out.push((from, t, None, false, false));
                }
            }
        }
        out
    }

    fn make(&self, m: (usize, usize, Option<char>, bool, bool)) -> Ref {
        let (from, to, promo, ep, castle) = m;
        let mut n = self.clone();
        let p = n.sq[from].take().unwrap();
        n.sq[to] = Some(match promo {
            Some(k) => Pc {
                white: p.white,
                kind: k,
            },
            None => p,
        });
        if ep {
            let cap = if p.white { to - 8 } else { to + 8 };
            n.sq[cap] = None;
        }
        if castle {
            let (rf, rt) = if to > from {
                (to + 1, to - 1)
            } else {
                (to - 2, to + 1)
            };
            n.sq[rt] = n.sq[rf].take();
        }
        n
    }

    fn legal(&self) -> BTreeSet<String> {
        self.pseudo()
            .into_iter()
            .filter(|&m| {
                let n = self.make(m);
                !n.attacked(n.king(self.white), !self.white)
            })
            .map(|(f, t, q, _, _)| {
                let mut s = name(f) + &name(t);
                if let Some(q) = q {
                    s.push(q);
                }
                s
            })
            .collect()
    }
}

fn diff(powers: bool, games: usize, seed: u64) -> usize {
    let g = RoyalGuardGame::new(Rules {
        royal_powers: powers,
        ..Rules::default()
    });
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut positions = 0;
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut s = g.initial_state(0);
        while !s.is_terminal() {
            let fen = s.to_text();
            let r = Ref::from_fen(&fen, powers);
            s.legal_moves(&mut moves);
            let ours: BTreeSet<String> = moves.iter().map(|&m| s.move_to_text(m)).collect();
            assert_eq!(ours, r.legal(), "powers={powers} at {fen}");
            assert_eq!(
                s.in_check(),
                r.attacked(r.king(r.white), !r.white),
                "check status at {fen}"
            );
            positions += 1;
            let m = moves[rng.random_range(0..moves.len())];
            s.apply(m);
        }
    }
    positions
}

#[test]
fn reference_agrees_royal_powers_on() {
    let n = diff(true, 120, 0x526F_7961);
    assert!(n >= 10_000, "{n} positions");
}

#[test]
fn reference_agrees_royal_powers_off() {
    let n = diff(false, 120, 0x4649_4445);
    assert!(n >= 10_000, "{n} positions");
}

/// The reference itself on the dossier's worked example RG-1 (§3.5), so a
/// bug shared by both generators would still show.
#[test]
fn reference_reproduces_example_rg1() {
    let fen = "7k/8/8/8/4p3/2N1P3/8/K7 w - - 0 1";
    assert_eq!(Ref::from_fen(fen, false).legal().len(), 11);
    assert_eq!(Ref::from_fen(fen, true).legal().len(), 20);
}

// ---------------------------------------------------------------------------
// Golden playthrough
// ---------------------------------------------------------------------------

fn golden_path() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suite/data/royal_guard_playthrough.txt")
}

/// A recorded game (game 6 of `results/self-play/royal-guard-ab4.csv.gz`, 143
/// plies, White mates) replayed move by move: every move must be legal for
/// the reference as well as the engine, the engine must reach the recorded
/// final FEN and returns, and the reference must see the final position as
/// checkmate. Set `BOARDLAB_BLESS=1` to rewrite the final FEN and returns
/// from the engine (the moves stay).
#[test]
fn golden_playthrough_royal_powers() {
    let text = std::fs::read_to_string(golden_path()).expect("the golden file");
    let golden = engine::testkit::Golden::parse(&text).expect("a well-formed golden file");
    let g = RoyalGuardGame::new(Rules::default());
    let mut s = g.initial_state(0);
    for (i, m) in golden.moves.iter().enumerate() {
        let r = Ref::from_fen(&s.to_text(), true);
        assert!(
            r.legal().contains(m),
            "ply {}: {m} not legal for the reference",
            i + 1
        );
        let mv = engine::parse_legal_move(&s, m).unwrap_or_else(|e| panic!("ply {}: {e}", i + 1));
        s.apply(mv);
    }
    if std::env::var_os("BOARDLAB_BLESS").is_some() {
        let mut header = String::new();
        for line in text.lines().filter(|l| l.starts_with('#')) {
            let c = line.trim_start_matches('#').trim();
            if !c.starts_with("final:") && !c.starts_with("returns:") {
                header += c;
                header.push('\n');
            }
        }
        let out = engine::testkit::Golden {
            moves: golden.moves.clone(),
            final_text: s.to_text(),
            returns: s.returns()[..2].to_vec(),
        }
        .to_file_text(header.trim_end());
        std::fs::write(golden_path(), out).unwrap();
        return;
    }
    assert_eq!(s.to_text(), golden.final_text);
    assert_eq!(s.returns()[..2].to_vec(), golden.returns);
    assert!(s.is_terminal());
    let r = Ref::from_fen(&s.to_text(), true);
    assert!(r.legal().is_empty(), "the reference sees no legal move");
    assert!(r.attacked(r.king(r.white), !r.white), "and a king in check");
}

// ---------------------------------------------------------------------------
// Perft with the reference at the last ply
// ---------------------------------------------------------------------------

/// Walks the engine's tree to `depth − 1` and counts the last ply with the
/// reference (so the leaf counts are the reference's, on every node).
fn ref_perft(s: &engine::royal_guard::RoyalGuardState, depth: u32, powers: bool) -> u64 {
    if depth == 1 {
        return Ref::from_fen(&s.to_text(), powers).legal().len() as u64;
    }
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut c = s.clone();
            c.apply(m);
            ref_perft(&c, depth - 1, powers)
        })
        .sum()
}

/// The reference reproduces the dossier's §3.6 values it can reach cheaply.
#[test]
fn reference_perft_matches_the_dossier() {
    let g = |powers| {
        RoyalGuardGame::new(Rules {
            royal_powers: powers,
            ..Rules::default()
        })
    };
    for (fen, powers, depth, nodes) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            true,
            3,
            9_302,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
            3,
            8_902,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            true,
            2,
            2_587,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
            3,
            97_862,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", true, 3, 2_772),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            true,
            3,
            11_211,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            true,
            3,
            2_473,
        ),
    ] {
        let s = g(powers).parse_position(fen).unwrap();
        assert_eq!(ref_perft(&s, depth, powers), nodes, "{fen} powers={powers}");
    }
}

/// Held-back depths (§3.6), reported by hand: `cargo test --release -p
/// boardlab-engine --test royal_guard_reference -- --ignored --nocapture`.
#[test]
#[ignore]
fn reference_perft_held_back_depths() {
    let g = RoyalGuardGame::new(Rules::default());
    for (fen, depth) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            5,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
    ] {
        let s = g.parse_position(fen).unwrap();
        let r = ref_perft(&s, depth, true);
        let e = engine::royal_guard::perft(s.board(), depth);
        println!("{fen} depth {depth}: reference {r}, engine {e}");
        assert_eq!(r, e);
    }
}
