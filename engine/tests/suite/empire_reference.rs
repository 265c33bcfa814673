//! Empire: an independent plain-array reference generator diffed against
//! the engine along seeded random playouts (every player count, teams and
//! each ruling option), plus the generic consistency kit and uniform
//! sampling.
//!
//! The reference (`Ref`) is written from `docs/rules/empire.md` §7 alone: a
//! 12 × 12 array of `(seat, kind)`, moves found by walking each of the four
//! directions square by square, captures by the distance walked, the wins
//! checked by looking at the four named throne squares. It shares no code
//! with `engine/src/empire/` (not even square names) and sees the engine
//! only through the public API and the text formats.

#![allow(clippy::needless_range_loop)]

use std::collections::BTreeSet;

use engine::empire::EmpireGame;
use engine::spec::Spec;
use engine::testkit::check_uniform;
use engine::{Game, State, ToMove};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::kit;

/// (row, column), 0-based, row 0 = row 1 at the top.
type Sq = (usize, usize);

#[derive(Clone, Copy, Debug)]
struct RefRules {
    players: usize,
    teams: bool,
    /// Corner per seat: 0 TL, 1 TR, 2 BR, 3 BL.
    corners: [usize; 4],
    on_entry: bool,
    partner_capture: bool,
    first: usize,
    cap: u32,
}

#[derive(Clone, Debug, PartialEq)]
enum ROut {
    Going,
    Won(Vec<usize>, &'static str),
    Draw,
}

#[derive(Clone, Debug)]
struct Ref {
    r: RefRules,
    /// (seat, kind): kind 0 commander, 1 horseman, 2 archer.
    b: [[Option<(usize, usize)>; 12]; 12],
    alive: [bool; 4],
    to_move: usize,
    out: ROut,
    ply: u32,
}

/// The thrones 5E 5H 8E 8H (E-T1) as (row, column).
const THRONES: [Sq; 4] = [(4, 4), (4, 7), (7, 4), (7, 7)];

/// Coronation centre per corner (E-T2): TL 8H, TR 8E, BR 5E, BL 5H.
const CROWN: [Sq; 4] = [(7, 7), (7, 4), (4, 4), (4, 7)];

fn name((r, c): Sq) -> String {
    format!("{}{}", r + 1, char::from(b'A' + c as u8))
}

impl Ref {
    /// E-SET-3 written out for the top-left corner and mirrored.
    fn new(r: RefRules) -> Ref {
        // (row, col, kind) in the top-left corner.
        let tl: [(usize, usize, usize); 11] = [
            (0, 0, 0),
            (0, 2, 1),
            (1, 1, 1),
            (2, 0, 1),
            (2, 2, 1),
            (0, 1, 2),
            (0, 3, 2),
            (1, 0, 2),
            (1, 2, 2),
            (2, 1, 2),
            (3, 0, 2),
        ];
        let mut b = [[None; 12]; 12];
        for s in 0..r.players {
            for &(row, col, k) in &tl {
                let rr = if r.corners[s] >= 2 { 11 - row } else { row };
                let cc = if r.corners[s] == 1 || r.corners[s] == 2 {
                    11 - col
                } else {
                    col
                };
                b[rr][cc] = Some((s, k));
            }
        }
        let mut alive = [false; 4];
        for s in 0..r.players {
            alive[s] = true;
        }
        Ref {
            r,
            b,
            alive,
            to_move: r.first,
            out: ROut::Going,
            ply: 0,
        }
    }

    fn partners(&self, a: usize, b: usize) -> bool {
        a == b || (self.r.teams && a % 2 == b % 2)
    }

    /// E-2: capture distances.
    fn reaches(kind: usize, d: usize) -> bool {
        match kind {
            0 => d == 2 || d == 5,
            1 => d == 3,
            _ => d == 4,
        }
    }

    fn may_take(&self, me: usize, victim: (usize, usize)) -> bool {
        if !self.partners(me, victim.0) {
            return true;
        }
        self.r.partner_capture && victim.0 != me && victim.1 != 0
    }

    fn legal(&self) -> Vec<(Sq, Sq)> {
        let mut out = vec![];
        if self.out != ROut::Going {
            return out;
        }
        let me = self.to_move;
        for r in 0..12 {
            for c in 0..12 {
                let Some((s, k)) = self.b[r][c] else { continue };
                if s != me {
                    continue;
                }
                for (dr, dc) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                    let mut d = 1;
                    loop {
                        let (nr, nc) = (r as i32 + dr * d, c as i32 + dc * d);
                        if !(0..12).contains(&nr) || !(0..12).contains(&nc) {
                            break;
                        }
                        let t = (nr as usize, nc as usize);
                        match self.b[t.0][t.1] {
                            None => out.push(((r, c), t)),
                            Some(v) => {
                                if Self::reaches(k, d as usize) && self.may_take(me, v) {
                                    out.push(((r, c), t));
                                }
                            }
                        }
                        d += 1;
                    }
                }
            }
        }
        out
    }

    /// E-3(b): can an enemy of `me` capture on `sq`? Any piece in the row
    /// or column at its distance.
    fn threatened(&self, me: usize, sq: Sq) -> bool {
        for r in 0..12 {
            for c in 0..12 {
                if let Some((s, k)) = self.b[r][c] {
                    if self.partners(me, s) {
                        continue;
                    }
                    let d = if r == sq.0 {
                        c.abs_diff(sq.1)
                    } else if c == sq.1 {
                        r.abs_diff(sq.0)
                    } else {
                        continue;
                    };
                    if d > 0 && Self::reaches(k, d) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn side(&self, me: usize) -> Vec<usize> {
        (0..self.r.players)
            .filter(|&k| self.partners(me, k))
            .collect()
    }

    fn apply(&mut self, m: Option<(Sq, Sq)>) {
        self.ply += 1;
        let me = self.to_move;
        if let Some((f, t)) = m {
            let piece = self.b[f.0][f.1].take().unwrap();
            let victim = self.b[t.0][t.1];
            self.b[t.0][t.1] = Some(piece);
            let side = self.side(me);
            if let Some((vs, 0)) = victim {
                let left = self.alive.iter().filter(|&&a| a).count();
                if self.r.players == 2 || self.r.teams || left == 2 {
                    self.out = ROut::Won(side, "regicide");
                    return;
                }
                // E-4: elimination and absorption.
                self.alive[vs] = false;
                for r in 0..12 {
                    for c in 0..12 {
                        if let Some((s, k)) = self.b[r][c]
                            && s == vs
                        {
                            self.b[r][c] = Some((me, k));
                        }
                    }
                }
            }
            let held = THRONES
                .iter()
                .filter(|&&(r, c)| self.b[r][c].is_some_and(|(s, _)| side.contains(&s)))
                .count();
            let need = if self.r.players > 2 && !self.r.teams {
                3
            } else {
                4
            };
            if held >= need {
                self.out = ROut::Won(side, "thrones");
                return;
            }
            let crowned = |k: usize| {
                let sq = CROWN[self.r.corners[k]];
                self.b[sq.0][sq.1] == Some((k, 0)) && !self.threatened(k, sq)
            };
            let win = if self.r.on_entry {
                piece == (me, 0) && t == CROWN[self.r.corners[me]] && crowned(me)
            } else {
                side.iter().any(|&k| crowned(k))
            };
            if win {
                self.out = ROut::Won(side, "coronation");
                return;
            }
        }
        if self.ply >= self.r.cap {
            self.out = ROut::Draw;
            return;
        }
        let mut n = (me + 1) % self.r.players;
        while !self.alive[n] {
            n = (n + 1) % self.r.players;
        }
        self.to_move = n;
    }

    fn move_text(&self, (f, t): (Sq, Sq)) -> String {
        let sep = if self.b[t.0][t.1].is_some() { "x" } else { "-" };
        format!("{}{sep}{}", name(f), name(t))
    }

    fn text(&self) -> String {
        let rows: Vec<String> = (0..12)
            .map(|r| {
                (0..12)
                    .map(|c| match self.b[r][c] {
                        None => ".".to_string(),
                        Some((s, k)) => format!("{}{}", ["C", "H", "A"][k], s + 1),
                    })
                    .collect()
            })
            .collect();
        let status = match &self.out {
            ROut::Going => "-".to_string(),
            ROut::Draw => "draw".to_string(),
            ROut::Won(w, why) => {
                let w: Vec<String> = w.iter().map(|k| (k + 1).to_string()).collect();
                format!("{}:{why}", w.join("+"))
            }
        };
        format!(
            "{} {} {status} {}",
            rows.join("/"),
            self.to_move + 1,
            self.ply
        )
    }

    fn returns(&self) -> [f64; 4] {
        let mut out = [0.0; 4];
        if let ROut::Won(w, _) = &self.out {
            for k in 0..self.r.players {
                out[k] = if w.contains(&k) { 1.0 } else { -1.0 };
            }
        }
        out
    }
}

/// Plays random games with both implementations side by side, comparing
/// move sets, position texts and returns at every position. Returns the
/// positions compared and counts of captures, eliminations and each end.
fn diff(spec: &str, r: RefRules, games: usize, seed: u64) -> (usize, BTreeSet<String>) {
    let g = EmpireGame::from_spec(&Spec::parse(spec).unwrap()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut positions = 0;
    let mut seen = BTreeSet::new();
    let mut buf = Vec::new();
    for _ in 0..games {
        let mut s = g.initial_state(0);
        let mut rf = Ref::new(r);
        loop {
            positions += 1;
            assert_eq!(s.to_text(), rf.text(), "{spec}");
            assert_eq!(s.returns(), rf.returns(), "{spec}: {}", rf.text());
            s.legal_moves(&mut buf);
            let mine: BTreeSet<String> = buf.iter().map(|&m| s.move_to_text(m)).collect();
            if positions % 7 == 0 {
                // The position read back from its text plays the same.
                let back = g.parse_position(&s.to_text()).unwrap();
                back.legal_moves(&mut buf);
                let again: BTreeSet<String> = buf.iter().map(|&m| back.move_to_text(m)).collect();
                assert_eq!(again, mine, "{spec}: read back");
                s.legal_moves(&mut buf);
            }
            let refm = rf.legal();
            let theirs: BTreeSet<String> = refm.iter().map(|&m| rf.move_text(m)).collect();
            if s.to_move() == ToMove::Terminal {
                assert!(
                    mine.is_empty() && rf.out != ROut::Going,
                    "{spec}: {}",
                    rf.text()
                );
                if let ROut::Won(_, why) = &rf.out {
                    seen.insert(why.to_string());
                } else {
                    seen.insert("draw".into());
                }
                break;
            }
            if theirs.is_empty() {
                assert_eq!(mine, ["pass".to_string()].into(), "{spec}: {}", rf.text());
                let m = buf[0];
                s.apply(m);
                rf.apply(None);
                continue;
            }
            assert_eq!(mine, theirs, "{spec}: {}", rf.text());
            let i = rng.random_range(0..refm.len());
            let t = rf.move_text(refm[i]);
            if t.contains('x') {
                seen.insert("capture".into());
            }
            let m = s.parse_move(&t).unwrap();
            s.apply(m);
            rf.apply(Some(refm[i]));
            if rf.alive.iter().filter(|&&a| a).count() < r.players && rf.out == ROut::Going {
                seen.insert("elimination".into());
            }
        }
    }
    (positions, seen)
}

fn rules(players: usize, teams: bool) -> RefRules {
    RefRules {
        players,
        teams,
        corners: match players {
            2 => [0, 2, 0, 0],
            3 => [0, 1, 2, 0],
            _ => [0, 1, 2, 3],
        },
        on_entry: true,
        partner_capture: false,
        first: 0,
        cap: 1000,
    }
}

/// At least 10,000 random-playout positions for each player count and for
/// teams (a few hundred plies per game), each game reaching its end.
#[test]
fn reference_agrees_on_random_playouts() {
    for (spec, r, games, seed) in [
        ("empire", rules(2, false), 24, 1),
        ("empire(players=3)", rules(3, false), 24, 2),
        ("empire(players=4)", rules(4, false), 16, 3),
        ("empire(players=4,teams=true)", rules(4, true), 36, 4),
    ] {
        let (n, seen) = diff(spec, r, games, seed);
        assert!(n >= 10_000, "{spec}: only {n} positions");
        assert!(seen.contains("capture"), "{spec}: {seen:?}");
        if r.players > 2 && !r.teams {
            assert!(seen.contains("elimination"), "{spec}: {seen:?}");
        }
        eprintln!("{spec}: {n} positions, {seen:?}");
    }
}

/// The options: standing coronation, partner capture, other corners and
/// first seat, a short ply cap.
#[test]
fn reference_agrees_on_options() {
    let mut a = rules(2, false);
    a.on_entry = false;
    let mut b = rules(4, true);
    b.partner_capture = true;
    let mut c = rules(3, false);
    c.corners = [3, 0, 1, 0];
    c.first = 2;
    let mut d = rules(2, false);
    d.corners = [1, 3, 0, 0];
    d.cap = 60;
    for (spec, r) in [
        ("empire(coronation=standing)", a),
        ("empire(players=4,teams=true,partner_capture=true)", b),
        ("empire(players=3,corners=412,first_seat=2)", c),
        ("empire(corners=24,ply_cap=60)", d),
    ] {
        let (n, _) = diff(spec, r, 5, 9);
        assert!(n > 250, "{spec}: {n}");
    }
}

/// The generic kit: move lists, counts, text round-trips, Zobrist keys,
/// returns, along random games of each variant.
#[test]
fn consistency_kit() {
    for spec in [
        "empire",
        "empire(players=3)",
        "empire(players=4)",
        "empire(players=4,teams=true)",
        "empire(players=4,teams=true,partner_capture=true,coronation=standing)",
    ] {
        let rep = kit(spec, 3, 11, 1000);
        assert_eq!(rep.games, 3, "{spec}");
    }
}

/// `sample_legal_move` is uniform over the move list (it picks the n-th
/// move without building the list), at the start and mid-game.
#[test]
fn uniform_sampling() {
    for spec in [
        "empire",
        "empire(players=4)",
        "empire(players=4,teams=true)",
    ] {
        let g = EmpireGame::from_spec(&Spec::parse(spec).unwrap()).unwrap();
        let mut s = g.initial_state(0);
        check_uniform(&s, 40_000, 5).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let mut buf = Vec::new();
        for _ in 0..40 {
            let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
            s.apply(m);
        }
        if !s.is_terminal() {
            check_uniform(&s, 40_000, 6).unwrap();
        }
    }
}

fn ref_perft(r: &Ref, depth: u32) -> u64 {
    if r.out != ROut::Going {
        return 0;
    }
    let moves = r.legal();
    if depth == 1 {
        return moves.len().max(1) as u64;
    }
    if moves.is_empty() {
        let mut c = r.clone();
        c.apply(None);
        return ref_perft(&c, depth - 1);
    }
    moves
        .iter()
        .map(|&m| {
            let mut c = r.clone();
            c.apply(Some(m));
            ref_perft(&c, depth - 1)
        })
        .sum()
}

/// Every line of `engine/data/perft/empire.txt`: the engine's perft and the
/// reference generator's agree with the count written there.
#[test]
fn perft_file() {
    for (spec, start, depth, want) in crate::common::perft_vectors("empire") {
        assert_eq!(start, "start");
        let g = EmpireGame::from_spec(&Spec::parse(&spec).unwrap()).unwrap();
        assert_eq!(
            engine::perft(&g.initial_state(0), depth),
            want,
            "{spec} {depth}"
        );
        let (players, teams) = crate::common::players_and_teams(&spec);
        let r = Ref::new(rules(players, teams));
        assert_eq!(ref_perft(&r, depth), want, "reference: {spec} {depth}");
    }
}
