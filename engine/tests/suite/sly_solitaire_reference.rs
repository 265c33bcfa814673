//! Solitaire Sly: an independent plain-array reference generator diffed
//! against the engine along seeded random playouts, and the solver's
//! 13-move win replayed on it.
//!
//! The reference (`Ref`) is written from the dossier alone: a 12 × 12 array
//! of cells holding a colour number or nothing, a jump found by walking
//! from the piece cell by cell. It shares no code with
//! `engine/src/sly_solitaire/` (not even the square names: it names spaces
//! itself) and sees the engine only through the public API and the texts.

// The reference generator indexes plain arrays by coordinates on purpose.
#![allow(clippy::needless_range_loop)]

use std::collections::BTreeSet;

use engine::sly_solitaire::{Grade, SlySolitaireState};
use engine::{Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{legal, play};
use crate::sly_solitaire_rules::{CANONICAL_TEXT, game};

/// A plain 12 × 12 board: `cell[r][c]` is a colour 0..4 (B L D O) or
/// `None`; `lo..=hi` the playable rows and columns.
#[derive(Clone)]
struct Ref {
    cell: [[Option<u8>; 12]; 12],
    lo: usize,
    hi: usize,
}

impl Ref {
    fn from_text(text: &str, window: bool) -> Ref {
        let mut cell = [[None; 12]; 12];
        let board = text.split(' ').next().unwrap();
        for (r, row) in board.split('/').enumerate() {
            let mut c = 0;
            let mut num = 0;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    num = num * 10 + d as usize;
                } else {
                    c += num;
                    num = 0;
                    cell[r][c] = Some("BLDO".find(ch).unwrap() as u8);
                    c += 1;
                }
            }
        }
        let (lo, hi) = if window { (2, 9) } else { (0, 11) };
        Ref { cell, lo, hi }
    }

    fn name(r: usize, c: usize) -> String {
        format!("{}{}", r + 1, (b'A' + c as u8) as char)
    }

    /// Every jump (S-2, S-3), by walking from the piece.
    fn moves(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for r in 0..12 {
            for c in 0..12 {
                let Some(me) = self.cell[r][c] else { continue };
                for (dr, dc) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                    let (mut y, mut x) = (r as i32 + dr, c as i32 + dc);
                    let mut run = 0;
                    let mut ok = true;
                    loop {
                        let inside = y >= self.lo as i32
                            && y <= self.hi as i32
                            && x >= self.lo as i32
                            && x <= self.hi as i32;
                        if !inside {
                            ok = false;
                            break;
                        }
                        match self.cell[y as usize][x as usize] {
                            Some(k) => {
                                if k == me {
                                    ok = false;
                                }
                                run += 1;
                            }
                            None => break,
                        }
                        y += dr;
                        x += dc;
                    }
                    if ok && run > 0 {
                        out.insert(format!(
                            "{}-{}",
                            Ref::name(r, c),
                            Ref::name(y as usize, x as usize)
                        ));
                    }
                }
            }
        }
        out
    }

    /// Applies a jump: every piece between is removed (S-4).
    fn apply(&mut self, from: (usize, usize), to: (usize, usize)) {
        let me = self.cell[from.0][from.1].take();
        let (dr, dc) = (
            (to.0 as i32 - from.0 as i32).signum(),
            (to.1 as i32 - from.1 as i32).signum(),
        );
        let (mut y, mut x) = (from.0 as i32 + dr, from.1 as i32 + dc);
        while (y as usize, x as usize) != to {
            self.cell[y as usize][x as usize] = None;
            y += dr;
            x += dc;
        }
        self.cell[to.0][to.1] = me;
    }

    fn pieces(&self) -> usize {
        self.cell.iter().flatten().filter(|x| x.is_some()).count()
    }
}

fn parse_ref_square(t: &str) -> (usize, usize) {
    let (row, col) = t.split_at(t.len() - 1);
    (
        row.parse::<usize>().unwrap() - 1,
        (col.as_bytes()[0] - b'A') as usize,
    )
}

/// Diffs the engine against the reference on random playouts of random
/// layouts (and the window), at every position: the move sets, the piece
/// count, the end and the return; the reference is stepped with the same
/// move and its board must equal the engine's text.
#[test]
fn reference_diff_on_random_playouts() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut positions = 0;
    let mut games = 0;
    while positions < 12_000 {
        let window = games % 5 == 4;
        let g = game(if window {
            "sly_solitaire(layout=random,area=window)"
        } else {
            "sly_solitaire(layout=random)"
        });
        let mut s: SlySolitaireState = g.initial_state(rng.random());
        let mut r = Ref::from_text(&s.to_text(), window);
        loop {
            positions += 1;
            let want = r.moves();
            assert_eq!(legal(&s), want, "{}", s.to_text());
            assert_eq!(s.pieces_left() as usize, r.pieces());
            if want.is_empty() {
                assert!(s.is_terminal());
                assert_eq!(s.returns()[0], -(r.pieces() as f64));
                break;
            }
            let list: Vec<&String> = want.iter().collect();
            let m = list[rng.random_range(0..list.len())].clone();
            let (a, b) = m.split_once('-').unwrap();
            r.apply(parse_ref_square(a), parse_ref_square(b));
            play(&mut s, &m);
            assert_eq!(s.zobrist(), s.zobrist_from_scratch());
            let back = Ref::from_text(&s.to_text(), window);
            assert_eq!(back.cell, r.cell, "after {m}: {}", s.to_text());
        }
        games += 1;
    }
    assert!(positions >= 10_000);
}

/// S-7 asks "Can you do better?" than 23 moves: the solver's 13-move win on
/// the canonical layout (`results/sly-solitaire-canonical-solver-any.csv`)
/// replays move by move on the independent reference (each move must be in
/// its list) and on the engine, and leaves one piece.
#[test]
fn thirteen_move_win_replays_on_the_reference() {
    const LINE: &str =
        "4I-4C 5I-5C 7I-7C 6D-6J 8F-8J 4C-6C 6C-8C 9E-7E 8C-8E 7E-9E 9D-9J 9J-7J 6J-8J";
    let mut r = Ref::from_text(CANONICAL_TEXT, false);
    for m in LINE.split_whitespace() {
        assert!(r.moves().contains(m), "{m}");
        let (a, b) = m.split_once('-').unwrap();
        r.apply(parse_ref_square(a), parse_ref_square(b));
    }
    assert_eq!(r.pieces(), 1);
    assert!(r.moves().is_empty());
    let mut s = game("sly_solitaire").initial_state(0);
    play(&mut s, LINE);
    assert_eq!(
        (s.pieces_left(), s.ply(), s.grade()),
        (1, 13, Some(Grade::Win))
    );
}
