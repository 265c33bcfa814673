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

use std::collections::{BTreeSet, HashMap};

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

/// The fewest-moves pass's 11-move win of the canonical layout
/// (`results/sly-solitaire/fewest/canonical.txt`, proven shortest there)
/// replays move by move on the independent reference and on the engine,
/// and leaves one piece.
#[test]
fn eleven_move_win_replays_on_the_reference() {
    const LINE: &str = "4I-4C 5I-5C 7I-7C 6G-6C 9G-9C 9I-9G 6I-6G 9G-7G 6G-8G 8I-8C 9C-3C";
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
        (1, 11, Some(Grade::Win))
    );
}

/// S-7 asks "Can you do better?" than 23 moves: the solver's 13-move win on
/// the canonical layout (`results/sly-solitaire/canonical-solver.csv`)
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

impl Ref {
    /// The engine's position text (rows from row 1, run lengths, ply 0).
    fn to_text(&self) -> String {
        let rows: Vec<String> = self
            .cell
            .iter()
            .map(|row| {
                let (mut out, mut empty) = (String::new(), 0);
                for cell in row {
                    match cell {
                        Some(k) => {
                            if empty > 0 {
                                out += &empty.to_string();
                                empty = 0;
                            }
                            out.push(b"BLDO"[*k as usize] as char);
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    out += &empty.to_string();
                }
                out
            })
            .collect();
        format!("{} 0", rows.join("/"))
    }
}

/// No path: the keep is out of reach.
const NEVER: u32 = u32::MAX;

/// Plain exhaustive search on the reference: `out[k]` is the fewest moves
/// from `r` to a position with at most `k` pieces (`k` 0..=36; [`NEVER`]
/// when no line gets there), memoised on the board.
fn fewest_by_keep(r: &Ref, memo: &mut HashMap<[[Option<u8>; 12]; 12], Vec<u32>>) -> Vec<u32> {
    if let Some(v) = memo.get(&r.cell) {
        return v.clone();
    }
    let n = r.pieces();
    let mut out = vec![NEVER; 37];
    for m in r.moves() {
        let (a, b) = m.split_once('-').unwrap();
        let mut c = r.clone();
        c.apply(parse_ref_square(a), parse_ref_square(b));
        let below = fewest_by_keep(&c, memo);
        for k in 0..37 {
            out[k] = out[k].min(below[k].saturating_add(1));
        }
    }
    for k in n..37 {
        out[k] = 0;
    }
    memo.insert(r.cell, out.clone());
    out
}

/// The fewest-moves bound (`sly_solitaire::bound::moves_lower_bound`) is
/// admissible: on every position reachable from 200 random-playout
/// positions of 10 to 16 pieces (random layouts), for every number of pieces `k`
/// a line can get down to, the bound never exceeds the fewest moves the
/// plain exhaustive search above finds. The solver's fewest-moves pass,
/// from each of the 200, proves the fewest pieces and the fewest moves the
/// exhaustive search finds, and its line replays on the reference.
#[test]
fn fewest_moves_bound_never_exceeds_exhaustive_search() {
    use engine::sly_solitaire::bound::moves_lower_bound;
    use engine::sly_solitaire::solve::solve;
    let g = game("sly_solitaire(layout=random)");
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let (mut starts, mut checked, mut tight) = (0, 0u64, 0u64);
    while starts < 200 {
        let mut s: SlySolitaireState = g.initial_state(rng.random());
        let mut r = Ref::from_text(&s.to_text(), false);
        while r.pieces() > 10 + starts % 7 && !s.is_terminal() {
            let list: Vec<String> = r.moves().into_iter().collect();
            let m = list[rng.random_range(0..list.len())].clone();
            let (a, b) = m.split_once('-').unwrap();
            r.apply(parse_ref_square(a), parse_ref_square(b));
            play(&mut s, &m);
        }
        if s.is_terminal() {
            continue;
        }
        starts += 1;
        let mut memo = HashMap::new();
        let root = fewest_by_keep(&r, &mut memo);
        for (cell, dist) in &memo {
            let p = Ref {
                cell: *cell,
                lo: 0,
                hi: 11,
            };
            let e = g.parse_position(&p.to_text()).unwrap();
            for k in 1..p.pieces() {
                if dist[k] != NEVER {
                    let b = moves_lower_bound(&e, k as u32);
                    assert!(
                        b <= dist[k],
                        "bound {b} > {} for k={k}: {}",
                        dist[k],
                        p.to_text()
                    );
                    checked += 1;
                    tight += (b == dist[k]) as u64;
                }
            }
        }
        // The solver against the exhaustive search.
        let least = (1..37).find(|&k| root[k] != NEVER).unwrap();
        let sol = solve(&s, 1, 0, true);
        assert!(sol.proven);
        assert_eq!(
            (sol.pieces as usize, sol.line.len() as u32),
            (least, root[least]),
            "{}",
            r.to_text()
        );
        let mut end = r.clone();
        for &m in &sol.line {
            let t = s.move_to_text(m);
            assert!(end.moves().contains(&t), "{t}");
            let (a, b) = t.split_once('-').unwrap();
            end.apply(parse_ref_square(a), parse_ref_square(b));
        }
        assert!(end.moves().is_empty());
        assert_eq!(end.pieces(), least);
    }
    // Not vacuous: many comparisons, and the bound is often exact.
    assert!(checked > 100_000, "{checked}");
    assert!(tight * 5 > checked, "{tight} of {checked} exact");
}
