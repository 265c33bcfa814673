//! Gateway: an independent plain-array reference generator diffed against
//! the engine along seeded random playouts (every player count, teams and
//! each ruling option), plus the generic consistency kit and uniform
//! sampling.
//!
//! The reference (`Ref`) is written from `docs/rules/gateway.md` §8 alone: a
//! 12 × 12 array of `(seat, shape)`, destinations found by walking each
//! direction, the entry condition by scanning the landing square's row and
//! column for a pair of one enemy colour, the forced leave by counting the
//! nine squares of a field. It shares no code with `engine/src/gateway/`
//! and sees the engine only through the public API and the text formats.

#![allow(clippy::needless_range_loop)]

use std::collections::BTreeSet;

use engine::gateway::GatewayGame;
use engine::spec::Spec;
use engine::testkit::check_uniform;
use engine::{Game, State, ToMove};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::kit;

type Sq = (usize, usize);

#[derive(Clone, Copy, Debug)]
struct RefRules {
    players: usize,
    teams: bool,
    /// Set-up position (0..4 = P1..P4) per seat.
    colours: [usize; 4],
    blocked: bool,
    per_colour: bool,
    optional: bool,
    stuck_pass: bool,
    cap: u32,
}

#[derive(Clone, Debug)]
struct Ref {
    r: RefRules,
    /// (seat, shape): 0 cylinder, 1 triangle, 2 square.
    b: [[Option<(usize, usize)>; 12]; 12],
    /// Reserve per seat: [triangles, squares].
    res: [[usize; 2]; 4],
    to_move: usize,
    won: Option<Vec<usize>>,
    draw: bool,
    ply: u32,
}

/// A move: from, to, entry (0 none, 1 triangle, 2 square); `None` = pass.
type RMove = Option<(Sq, Sq, usize)>;

fn name((r, c): Sq) -> String {
    format!("{}{}", r + 1, char::from(b'A' + c as u8))
}

fn centre((r, c): Sq) -> bool {
    r % 3 == 1 && c % 3 == 1
}

/// The gateway of the field holding `sq`.
fn gate((r, c): Sq) -> Sq {
    (r / 3 * 3 + 1, c / 3 * 3 + 1)
}

impl Ref {
    /// G-SET-2, written out: (cylinder, square, triangle) per position.
    fn new(r: RefRules) -> Ref {
        let setup: [[Sq; 3]; 4] = [
            [(9, 2), (11, 8), (5, 1)],
            [(9, 9), (3, 11), (10, 5)],
            [(2, 9), (0, 3), (6, 10)],
            [(2, 2), (8, 0), (1, 6)],
        ];
        let mut b = [[None; 12]; 12];
        for s in 0..r.players {
            let [c, q, t] = setup[r.colours[s]];
            b[c.0][c.1] = Some((s, 0));
            b[q.0][q.1] = Some((s, 2));
            b[t.0][t.1] = Some((s, 1));
        }
        Ref {
            r,
            b,
            res: [[3, 5]; 4],
            to_move: 0,
            won: None,
            draw: false,
            ply: 0,
        }
    }

    fn enemy(&self, me: usize, other: usize) -> bool {
        other != me && !(self.r.teams && other % 2 == me % 2)
    }

    /// G-2: the forced pieces of the seat to move.
    fn forced(&self) -> Vec<Sq> {
        let me = self.to_move;
        let mut out = vec![];
        for r in 0..12 {
            for c in 0..12 {
                if self.b[r][c].map(|p| p.0) != Some(me) || !centre((r, c)) {
                    continue;
                }
                let mut per = [0; 4];
                for rr in r - 1..=r + 1 {
                    for cc in c - 1..=c + 1 {
                        if let Some((s, _)) = self.b[rr][cc]
                            && self.enemy(me, s)
                        {
                            per[s] += 1;
                        }
                    }
                }
                let n = if self.r.per_colour {
                    *per.iter().max().unwrap()
                } else {
                    per.iter().sum()
                };
                if n >= 2 {
                    out.push((r, c));
                }
            }
        }
        out
    }

    /// G-1: empty non-centre squares along the four lines.
    fn dests(&self, (r, c): Sq) -> Vec<Sq> {
        let mut out = vec![];
        for (dr, dc) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
            let (mut nr, mut nc) = (r as i32, c as i32);
            loop {
                nr += dr;
                nc += dc;
                if !(0..12).contains(&nr) || !(0..12).contains(&nc) {
                    break;
                }
                let t = (nr as usize, nc as usize);
                if self.b[t.0][t.1].is_none() && !centre(t) {
                    out.push(t);
                }
            }
        }
        out.sort();
        out
    }

    /// G-3 on the board after the move (the mover now on `t`).
    fn earns(&self, after: &[[Option<(usize, usize)>; 12]; 12], t: Sq) -> bool {
        let (me, m) = after[t.0][t.1].unwrap();
        // Candidate Q (same row) and R (same column).
        let mut qs = vec![];
        let mut rs = vec![];
        if self.r.blocked {
            for (dr, dc, row) in [
                (0i32, -1i32, true),
                (0, 1, true),
                (-1, 0, false),
                (1, 0, false),
            ] {
                let (mut nr, mut nc) = (t.0 as i32, t.1 as i32);
                loop {
                    nr += dr;
                    nc += dc;
                    if !(0..12).contains(&nr) || !(0..12).contains(&nc) {
                        break;
                    }
                    if let Some(p) = after[nr as usize][nc as usize] {
                        if row {
                            qs.push(p);
                        } else {
                            rs.push(p);
                        }
                        break;
                    }
                }
            }
        } else {
            for k in 0..12 {
                if k != t.1
                    && let Some(p) = after[t.0][k]
                {
                    qs.push(p);
                }
                if k != t.0
                    && let Some(p) = after[k][t.1]
                {
                    rs.push(p);
                }
            }
        }
        qs.iter().any(|&(yq, sq)| {
            rs.iter()
                .any(|&(yr, sr)| yq == yr && self.enemy(me, yq) && sq != sr && sq != m && sr != m)
        })
    }

    fn legal(&self) -> Vec<RMove> {
        let mut out = vec![];
        if self.won.is_some() || self.draw {
            return out;
        }
        let me = self.to_move;
        let forced = self.forced();
        let forced_can = forced.iter().any(|&f| !self.dests(f).is_empty());
        let mut movers = vec![];
        for r in 0..12 {
            for c in 0..12 {
                if self.b[r][c].map(|p| p.0) == Some(me) {
                    movers.push((r, c));
                }
            }
        }
        if !forced.is_empty() {
            if forced_can {
                movers = forced;
            } else if self.r.stuck_pass {
                movers.clear();
            }
        }
        for f in movers {
            for t in self.dests(f) {
                let mut after = self.b;
                after[t.0][t.1] = after[f.0][f.1].take();
                let g = gate(t);
                let possible =
                    self.earns(&after, t) && after[g.0][g.1].is_none() && self.res[me] != [0, 0];
                if possible {
                    if self.r.optional {
                        out.push(Some((f, t, 0)));
                    }
                    if self.res[me][0] > 0 {
                        out.push(Some((f, t, 1)));
                    }
                    if self.res[me][1] > 0 {
                        out.push(Some((f, t, 2)));
                    }
                } else {
                    out.push(Some((f, t, 0)));
                }
            }
        }
        if out.is_empty() {
            out.push(None);
        }
        out
    }

    fn apply(&mut self, m: RMove) {
        self.ply += 1;
        let me = self.to_move;
        if let Some((f, t, e)) = m {
            self.b[t.0][t.1] = self.b[f.0][f.1].take();
            if e > 0 {
                let g = gate(t);
                self.b[g.0][g.1] = Some((me, e));
                self.res[me][e - 1] -= 1;
                let done = |k: usize| self.res[k] == [0, 0];
                if done(me) && (!self.r.teams || done((me + 2) % 4)) {
                    self.won = Some(if self.r.teams {
                        vec![me % 2, me % 2 + 2]
                    } else {
                        vec![me]
                    });
                    return;
                }
            }
        }
        if self.ply >= self.r.cap {
            self.draw = true;
            return;
        }
        self.to_move = (me + 1) % self.r.players;
    }

    fn move_text(m: RMove) -> String {
        match m {
            None => "pass".into(),
            Some((f, t, e)) => format!("{}-{}{}", name(f), name(t), ["", "+T", "+S"][e]),
        }
    }

    fn text(&self) -> String {
        let rows: Vec<String> = (0..12)
            .map(|r| {
                (0..12)
                    .map(|c| match self.b[r][c] {
                        None => ".".to_string(),
                        Some((s, k)) => format!("{}{}", ["C", "T", "S"][k], s + 1),
                    })
                    .collect()
            })
            .collect();
        format!("{} {} {}", rows.join("/"), self.to_move + 1, self.ply)
    }

    fn returns(&self) -> [f64; 4] {
        let mut out = [0.0; 4];
        if let Some(w) = &self.won {
            for k in 0..self.r.players {
                out[k] = if w.contains(&k) { 1.0 } else { -1.0 };
            }
        }
        out
    }
}

/// Random games with both implementations side by side: move sets, texts,
/// returns at every position. Returns the positions compared and which
/// rules fired (entries, choices, forced leaves).
fn diff(spec: &str, r: RefRules, games: usize, seed: u64) -> (usize, BTreeSet<&'static str>) {
    let g = GatewayGame::from_spec(&Spec::parse(spec).unwrap()).unwrap();
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
            let theirs: BTreeSet<String> = refm.iter().map(|&m| Ref::move_text(m)).collect();
            assert_eq!(mine, theirs, "{spec}: {}", rf.text());
            if s.to_move() == ToMove::Terminal {
                seen.insert(if rf.draw { "draw" } else { "win" });
                break;
            }
            if !rf.forced().is_empty() {
                seen.insert("forced leave");
            }
            if theirs.iter().any(|t| t.contains('+')) {
                seen.insert("entry");
            }
            if theirs.iter().any(|t| t.ends_with("+T")) && theirs.iter().any(|t| t.ends_with("+S"))
            {
                seen.insert("shape choice");
            }
            let i = rng.random_range(0..refm.len());
            let m = s.parse_move(&Ref::move_text(refm[i])).unwrap();
            s.apply(m);
            rf.apply(refm[i]);
        }
    }
    (positions, seen)
}

fn rules(players: usize, teams: bool) -> RefRules {
    RefRules {
        players,
        teams,
        colours: match players {
            2 => [0, 2, 0, 0],
            3 => [0, 1, 2, 0],
            _ => [0, 1, 2, 3],
        },
        blocked: false,
        per_colour: false,
        optional: false,
        stuck_pass: false,
        cap: 1000,
    }
}

/// At least 10,000 random-playout positions for each player count and for
/// teams, every game played to its end.
#[test]
fn reference_agrees_on_random_playouts() {
    for (spec, r, games, seed) in [
        ("gateway", rules(2, false), 32, 1),
        ("gateway(players=3)", rules(3, false), 42, 2),
        ("gateway(players=4)", rules(4, false), 46, 3),
        ("gateway(players=4,teams=true)", rules(4, true), 26, 4),
    ] {
        let (n, seen) = diff(spec, r, games, seed);
        assert!(n >= 10_000, "{spec}: only {n} positions");
        for what in ["entry", "shape choice", "forced leave", "win"] {
            assert!(seen.contains(what), "{spec}: {what} never seen: {seen:?}");
        }
        eprintln!("{spec}: {n} positions, {seen:?}");
    }
}

/// Every ruling option against the reference.
#[test]
fn reference_agrees_on_options() {
    let mut a = rules(2, false);
    a.blocked = true;
    let mut b = rules(4, false);
    b.per_colour = true;
    let mut c = rules(4, true);
    c.optional = true;
    let mut d = rules(3, false);
    d.stuck_pass = true;
    d.colours = [3, 1, 0, 0];
    let mut e = rules(2, false);
    e.colours = [1, 3, 0, 0];
    e.cap = 50;
    for (spec, r) in [
        ("gateway(line=blocked)", a),
        ("gateway(players=4,enemies=per_colour)", b),
        ("gateway(players=4,teams=true,entry=optional)", c),
        ("gateway(players=3,stuck=pass,colours=421)", d),
        ("gateway(colours=24,ply_cap=50)", e),
    ] {
        let (n, _) = diff(spec, r, 6, 9);
        assert!(n > 250, "{spec}: {n}");
    }
}

/// The generic kit on every variant.
#[test]
fn consistency_kit() {
    for spec in [
        "gateway",
        "gateway(players=3)",
        "gateway(players=4)",
        "gateway(players=4,teams=true)",
        "gateway(players=4,teams=true,entry=optional,line=blocked,enemies=per_colour,stuck=pass)",
    ] {
        let rep = kit(spec, 4, 12, 1000);
        assert_eq!(rep.games, 4, "{spec}");
    }
}

/// `sample_legal_move` is uniform, at the start and at positions with
/// entries on offer.
#[test]
fn uniform_sampling() {
    for spec in [
        "gateway",
        "gateway(players=4)",
        "gateway(players=4,teams=true,entry=optional)",
    ] {
        let g = GatewayGame::from_spec(&Spec::parse(spec).unwrap()).unwrap();
        let s0 = g.initial_state(0);
        check_uniform(&s0, 30_000, 5).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let mut buf = Vec::new();
        let mut checked = 0;
        let mut s = s0;
        while !s.is_terminal() && checked < 2 {
            s.legal_moves(&mut buf);
            if buf.iter().any(|&m| s.move_to_text(m).contains('+')) {
                check_uniform(&s, 30_000, 6).unwrap();
                checked += 1;
            }
            let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
            s.apply(m);
        }
        assert_eq!(checked, 2, "{spec}: no position with an entry on offer");
    }
}

fn ref_perft(r: &Ref, depth: u32) -> u64 {
    if r.won.is_some() || r.draw {
        return 0;
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

/// Every line of `engine/data/perft/gateway.txt`: the engine's perft and the
/// reference generator's agree with the count written there.
#[test]
fn perft_file() {
    for (spec, start, depth, want) in crate::common::perft_vectors("gateway") {
        assert_eq!(start, "start");
        let g = GatewayGame::from_spec(&Spec::parse(&spec).unwrap()).unwrap();
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
