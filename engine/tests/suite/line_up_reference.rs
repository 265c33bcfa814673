//! Line Up: an independent reference generator diffed against the engine.
//!
//! The reference is written from `docs/rules/line_up.md` §5 alone: a 4 × 4
//! array of cells, the turn schedule recomputed from the table's rule
//! (U-1: type `[S, T, C][(n − 1) mod 3]`, U-2: place while one is left),
//! neighbours by coordinate differences, lines by walking rows, columns and
//! diagonals. It shares no code with `engine/src/line_up/` (not even the
//! square names) and sees the engine only through its position and move
//! text.

#![allow(clippy::needless_range_loop)]

use std::collections::BTreeSet;

use engine::line_up::{LineUpGame, Outcome};
use engine::spec::Spec;
use engine::{Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A position: `cell[i][j]` is 0 empty, or `(player, type)` as
/// `1 + 3 * player + type` (player 0 first; type 0 square, 1 triangle, 2
/// cylinder); `plies` played.
struct Ref {
    cell: [[u8; 4]; 4],
    plies: u32,
}

const STOCK: [usize; 3] = [2, 2, 1];

fn name(i: usize, j: usize) -> String {
    format!("{}{}", 3 * i + 2, ["B", "E", "H", "K"][j])
}

impl Ref {
    fn from_text(text: &str) -> Ref {
        let (board, plies) = text.split_once(' ').unwrap();
        let mut cell = [[0u8; 4]; 4];
        for (i, row) in board.split('/').enumerate() {
            for (j, ch) in row.chars().enumerate() {
                cell[i][j] = match ch {
                    '.' => 0,
                    'S' => 1,
                    'T' => 2,
                    'C' => 3,
                    's' => 4,
                    't' => 5,
                    'c' => 6,
                    _ => panic!("{ch}"),
                };
            }
        }
        Ref {
            cell,
            plies: plies.parse().unwrap(),
        }
    }

    fn count(&self, player: usize, t: usize) -> usize {
        let code = (1 + 3 * player + t) as u8;
        self.cell.iter().flatten().filter(|&&c| c == code).count()
    }

    /// Four of `player`'s pieces in a row, column or long diagonal.
    fn line(&self, player: usize) -> bool {
        let mine = |i: usize, j: usize| {
            let c = self.cell[i][j];
            c != 0 && (c as usize - 1) / 3 == player
        };
        (0..4).any(|i| (0..4).all(|j| mine(i, j)))
            || (0..4).any(|j| (0..4).all(|i| mine(i, j)))
            || (0..4).all(|k| mine(k, k))
            || (0..4).all(|k| mine(k, 3 - k))
    }

    /// The legal moves as text, ignoring whether the game is over.
    fn moves(&self) -> BTreeSet<String> {
        let n = self.plies + 1; // the global turn
        let player = ((n - 1) % 2) as usize;
        let t = ((n - 1) % 3) as usize;
        let mut out = BTreeSet::new();
        if self.count(player, t) < STOCK[t] {
            for i in 0..4 {
                for j in 0..4 {
                    if self.cell[i][j] == 0 {
                        out.insert(name(i, j));
                    }
                }
            }
            return out;
        }
        let code = (1 + 3 * player + t) as u8;
        for i in 0..4 {
            for j in 0..4 {
                if self.cell[i][j] != code {
                    continue;
                }
                for di in -1i32..=1 {
                    for dj in -1i32..=1 {
                        if (di, dj) == (0, 0) || (t != 2 && di != 0 && dj != 0) {
                            continue;
                        }
                        let (a, b) = (i as i32 + di, j as i32 + dj);
                        if (0..4).contains(&a)
                            && (0..4).contains(&b)
                            && self.cell[a as usize][b as usize] == 0
                        {
                            out.insert(format!("{}-{}", name(i, j), name(a as usize, b as usize)));
                        }
                    }
                }
            }
        }
        out
    }

    /// The ending: `Some(winner)` with winner 0/1, or `Some(2)` for the
    /// cap; `None` if the game goes on.
    fn ending(&self, cap: u32) -> Option<u8> {
        let last = ((self.plies + 1) % 2) as u8; // the player who moved last
        if self.plies > 0 && self.line(last as usize) {
            return Some(last);
        }
        if self.moves().is_empty() {
            return Some(last); // U-5: the player to move loses
        }
        if self.plies >= cap {
            return Some(2);
        }
        None
    }
}

/// The engine and the reference agree on the legal moves and the ending at
/// every position of seeded random playouts (at least 10,000 positions).
#[test]
fn engine_matches_reference() {
    let cap = 200;
    let g = LineUpGame::from_spec(&Spec::parse("line_up").unwrap()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0x5E7_11E0);
    let mut v = Vec::new();
    let (mut positions, mut games, mut ends) = (0, 0, [0usize; 3]);
    while positions < 12_000 {
        let mut s = g.initial_state(0);
        games += 1;
        loop {
            positions += 1;
            let r = Ref::from_text(&s.to_text());
            let want_end = r.ending(cap);
            let got_end = s.ending().map(|(e, w)| match (e, w) {
                (_, Some(w)) => w,
                (Outcome::PlyCap, None) => 2,
                _ => 9,
            });
            assert_eq!(got_end, want_end, "ending at {}", s.to_text());
            if s.is_terminal() {
                match s.ending().unwrap().0 {
                    Outcome::Line => ends[0] += 1,
                    Outcome::Immobile => ends[1] += 1,
                    _ => ends[2] += 1,
                }
                break;
            }
            s.legal_moves(&mut v);
            let got: BTreeSet<String> = v.iter().map(|&m| s.move_to_text(m)).collect();
            assert_eq!(got, r.moves(), "moves at {}", s.to_text());
            let m = v[rng.random_range(0..v.len())];
            s.apply(m);
        }
    }
    // Random play reaches both rule endings (the cap is tested by hand).
    assert!(ends[0] > 0 && ends[1] > 0, "{ends:?} over {games} games");
}
