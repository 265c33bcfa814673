//! A plain reference move generator for King's Colour (arrays of axial
//! cells, step-by-step ray walks, make-and-test legality, no bitboards and
//! none of the engine's tables), written straight from the dossier's rules
//! (KC-G2–G4, KC-S2–S3, KC-3–KC-12), diffed against the engine on >= 10,000
//! positions from seeded random playouts: the legal move sets, check, and
//! the end of the game. It reads the engine's position text itself, so the
//! text format is checked too.

use std::collections::BTreeSet;

use engine::kings_colour::{CaptureRule, KingsColourGame, Rules};
use engine::{Game, State, ToMove};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

type H = (i32, i32);

const ORTHO: [H; 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
const DIAG: [H; 6] = [(2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2), (1, 1)];
const KNIGHT: [H; 12] = [
    (1, 2),
    (2, 1),
    (3, -1),
    (3, -2),
    (2, -3),
    (1, -3),
    (-1, -2),
    (-2, -1),
    (-3, 1),
    (-3, 2),
    (-2, 3),
    (-1, 3),
];

fn on_board(h: H) -> bool {
    h.0.abs() <= 6 && h.1.abs() <= 6 && (h.0 + h.1).abs() <= 6
}

fn label(h: H) -> String {
    let col = (b'A' + (h.0 + 6) as u8) as char;
    format!("{col}{}", h.1 + 7 + h.0.min(0))
}

fn colour(h: H) -> i32 {
    (h.0 - h.1).rem_euclid(3)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    King,
    Man,
    Queen,
}

#[derive(Clone, Copy, Debug)]
struct P {
    side: usize,
    kind: Kind,
}

#[derive(Clone)]
struct Ref {
    board: [[Option<P>; 13]; 13],
    side: usize,
    castle: [Vec<H>; 2],
    wall: [Vec<H>; 2],
    wide: bool,
}

impl Ref {
    fn at(&self, h: H) -> Option<P> {
        self.board[(h.0 + 6) as usize][(h.1 + 6) as usize]
    }
    fn set(&mut self, h: H, p: Option<P>) {
        self.board[(h.0 + 6) as usize][(h.1 + 6) as usize] = p;
    }

    fn parse(text: &str, wide: bool) -> Ref {
        let mut castle = [Vec::new(), Vec::new()];
        let mut wall = [Vec::new(), Vec::new()];
        for (s, k) in [(-3, 0), (3, 0)].into_iter().enumerate() {
            for a in -1..=1 {
                for b in -1..=1 {
                    castle[s].push((k.0 + a, k.1 - a - b));
                }
            }
            for q in -6..=6 {
                for r in -6..=6 {
                    let h = (q, r);
                    if on_board(h)
                        && !castle[s].contains(&h)
                        && ORTHO
                            .iter()
                            .any(|d| castle[s].contains(&(q + d.0, r + d.1)))
                    {
                        wall[s].push(h);
                    }
                }
            }
        }
        let mut f = text.split_whitespace();
        let cols = f.next().unwrap();
        let side = if f.next().unwrap() == "w" { 0 } else { 1 };
        let mut board = [[None; 13]; 13];
        for (ci, col) in cols.split('/').enumerate() {
            let q = ci as i32 - 6;
            let mut r = (-6 - q).max(-6);
            let mut num = String::new();
            for ch in col.chars().chain(std::iter::once(' ')) {
                if ch.is_ascii_digit() {
                    num.push(ch);
                    continue;
                }
                if !num.is_empty() {
                    r += num.parse::<i32>().unwrap();
                    num.clear();
                }
                if ch == ' ' {
                    break;
                }
                let side = if ch.is_ascii_uppercase() { 0 } else { 1 };
                let kind = match ch.to_ascii_uppercase() {
                    'K' => Kind::King,
                    'Q' => Kind::Queen,
                    _ => Kind::Man,
                };
                board[(q + 6) as usize][(r + 6) as usize] = Some(P { side, kind });
                r += 1;
            }
        }
        Ref {
            board,
            side,
            castle,
            wall,
            wide,
        }
    }

    fn king(&self, s: usize) -> H {
        for q in -6..=6 {
            for r in -6..=6 {
                if let Some(P {
                    side,
                    kind: Kind::King,
                }) = self.at((q, r))
                    && side == s
                {
                    return (q, r);
                }
            }
        }
        panic!("no king")
    }

    /// The step vectors a non-King piece on `h` slides along.
    fn vectors(&self, h: H, p: P) -> Vec<H> {
        match p.kind {
            Kind::Queen => ORTHO.iter().chain(&DIAG).copied().collect(),
            Kind::Man if colour(h) == colour(self.king(p.side)) => ORTHO.to_vec(),
            Kind::Man => DIAG.to_vec(),
            Kind::King => unreachable!(),
        }
    }

    fn may_capture(&self, s: usize, from: H, to: H) -> bool {
        let o = 1 - s;
        if self.wide {
            (0..2).any(|c| {
                (self.wall[c].contains(&from) && self.castle[c].contains(&to))
                    || (self.castle[c].contains(&from) && self.wall[c].contains(&to))
            })
        } else {
            (self.wall[o].contains(&from) && self.castle[o].contains(&to))
                || (self.castle[s].contains(&from) && self.wall[s].contains(&to))
        }
    }

    fn attacked_king(&self, s: usize) -> bool {
        let k = self.king(s);
        for q in -6..=6 {
            for r in -6..=6 {
                let h = (q, r);
                let Some(p) = self.at(h) else { continue };
                if p.side == s || p.kind == Kind::King {
                    continue;
                }
                for d in self.vectors(h, p) {
                    let mut x = (h.0 + d.0, h.1 + d.1);
                    while on_board(x) {
                        if x == k {
                            return true;
                        }
                        if self.at(x).is_some() {
                            break;
                        }
                        x = (x.0 + d.0, x.1 + d.1);
                    }
                }
            }
        }
        false
    }

    fn pseudo(&self) -> Vec<(H, H)> {
        let s = self.side;
        let mut out = Vec::new();
        for q in -6..=6 {
            for r in -6..=6 {
                let h = (q, r);
                let Some(p) = self.at(h) else { continue };
                if p.side != s {
                    continue;
                }
                if p.kind == Kind::King {
                    for d in ORTHO.iter().chain(&DIAG).chain(&KNIGHT) {
                        let x = (h.0 + d.0, h.1 + d.1);
                        if !self.castle[s].contains(&x) {
                            continue;
                        }
                        match self.at(x) {
                            Some(t) if t.side == s => {}
                            _ => out.push((h, x)),
                        }
                    }
                    continue;
                }
                for d in self.vectors(h, p) {
                    let mut x = (h.0 + d.0, h.1 + d.1);
                    while on_board(x) {
                        match self.at(x) {
                            None => out.push((h, x)),
                            Some(t) => {
                                if t.side != s && t.kind != Kind::King && self.may_capture(s, h, x)
                                {
                                    out.push((h, x));
                                }
                                break;
                            }
                        }
                        x = (x.0 + d.0, x.1 + d.1);
                    }
                }
            }
        }
        out
    }

    fn play(&self, (from, to): (H, H)) -> Ref {
        let mut n = self.clone();
        let mut p = self.at(from).unwrap();
        if p.kind == Kind::Man && self.castle[1 - self.side].contains(&to) {
            p.kind = Kind::Queen;
        }
        n.set(from, None);
        n.set(to, Some(p));
        n.side = 1 - self.side;
        n
    }

    fn legal(&self) -> BTreeSet<String> {
        self.pseudo()
            .into_iter()
            .filter(|&m| !self.play(m).attacked_king(self.side))
            .map(|(a, b)| format!("{}{}", label(a), label(b)))
            .collect()
    }
}

fn diff(game: &KingsColourGame, games: usize, seed: u64) -> usize {
    let wide = game.rules.capture == CaptureRule::Wide;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut positions = 0;
    let mut moves = Vec::new();
    let (mut captures, mut promotions, mut mates) = (0, 0, 0);
    for _ in 0..games {
        let mut s = game.initial_state(0);
        loop {
            positions += 1;
            let text = s.to_text();
            let r = Ref::parse(&text, wide);
            s.legal_moves(&mut moves);
            let engine_set: BTreeSet<String> = moves
                .iter()
                .map(|&m| {
                    let t = s.move_to_text(m);
                    t.chars()
                        .filter(|c| c.is_ascii_alphanumeric())
                        .collect::<String>()
                        .trim_end_matches("Q")
                        .replace('x', "")
                })
                .collect();
            let in_check = r.attacked_king(r.side);
            assert_eq!(
                in_check,
                s.in_check(s.side_to_move()),
                "check differs at {text}"
            );
            if s.is_terminal() {
                let want = r.legal();
                if want.is_empty() {
                    mates += in_check as usize;
                } else {
                    // Ended by repetition or the ply cap.
                    assert!(
                        s.ply() >= game.rules.ply_cap || s.repetitions() >= 3,
                        "{text}"
                    );
                }
                break;
            }
            assert_eq!(engine_set, r.legal(), "move sets differ at {text}");
            let m = moves[rng.random_range(0..moves.len())];
            captures += s.is_capture(m) as usize;
            promotions += s.is_promotion(m) as usize;
            s.apply(m);
        }
    }
    assert!(captures > 0 && promotions > 0, "playouts too tame");
    eprintln!("{positions} positions, {captures} captures, {promotions} promotions, {mates} mates");
    positions
}

#[test]
fn reference_agrees_on_random_playouts() {
    let n = diff(&KingsColourGame::default(), 170, 2026);
    assert!(n >= 10_000, "only {n} positions");
}

#[test]
fn reference_agrees_with_the_wide_capture_rule() {
    let g = KingsColourGame::new(Rules {
        capture: CaptureRule::Wide,
        ..Rules::default()
    });
    let n = diff(&g, 20, 7);
    assert!(n >= 1_000, "only {n} positions");
    let _ = ToMove::Terminal;
}
