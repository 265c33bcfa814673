//! Sniggle: an independent plain-array reference generator diffed
//! against the engine along seeded random playouts.
//!
//! The reference (`Ref`) is written from the dossier alone: a 12 × 12 array
//! of cells, the step found by walking right, the column rule by counting
//! down the column, the gap rule by listing occupied fields. It shares no
//! code with `engine/src/sniggle/` (not even the square names) and sees the
//! engine only through the public API and the text formats.

// The reference generators index plain arrays by coordinates on purpose.
#![allow(clippy::needless_range_loop)]

use std::collections::HashMap;

use crate::sniggle_rules::game;
use engine::sniggle::{SniggleGame, SniggleState};
use engine::{Game, State, ToMove, parse_legal_move};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const LETTERS: [char; 4] = ['X', 'Y', 'Z', 'W'];

#[derive(Clone, Copy, Debug)]
struct RefRules {
    players: usize,
    teams: bool,
    triangles: bool,
    partners_count: bool,
    /// 0-based band of each seat: rows 3b..3b+2 (0-based).
    bands: [usize; 4],
    /// Triangle start column per track (0 = A).
    tri_at: [usize; 3],
}

impl RefRules {
    fn spec(&self) -> String {
        let bands: String = self.bands[..self.players]
            .iter()
            .map(|b| char::from(b'1' + *b as u8))
            .collect();
        let tri: String = self
            .tri_at
            .iter()
            .map(|c| char::from(b'A' + *c as u8))
            .collect();
        format!(
            "sniggle(players={},teams={},triangles={},partner_pieces={},bands={bands},triangle_at={tri})",
            self.players,
            self.teams,
            self.triangles,
            if self.partners_count {
                "counted"
            } else {
                "ignored"
            }
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ROutcome {
    Ongoing,
    /// Winning seats.
    Win([bool; 4]),
    Draw,
}

#[derive(Clone, Debug)]
struct Ref {
    rules: RefRules,
    /// `owner[r][c]`: the seat of the piece on row r+1, column c, if any.
    owner: [[Option<usize>; 12]; 12],
    tri: [[bool; 12]; 12],
    to_move: usize,
    /// The piece that must step again (N-3): (row, column), 0-based.
    cont: Option<(usize, usize)>,
    outcome: ROutcome,
    ply: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RMove {
    Step(usize, usize, usize),
    Pass,
}

fn name(r: usize, c: usize) -> String {
    format!("{}{}", r + 1, char::from(b'A' + c as u8))
}

impl Ref {
    /// N-SET-1…4: 9 pieces on columns A–C of each seat's band, the
    /// triangle of track t on column `tri_at[t]`.
    fn new(rules: RefRules) -> Ref {
        let mut r = Ref {
            rules,
            owner: [[None; 12]; 12],
            tri: [[false; 12]; 12],
            to_move: 0,
            cont: None,
            outcome: ROutcome::Ongoing,
            ply: 0,
        };
        for s in 0..rules.players {
            for t in 0..3 {
                let row = 3 * rules.bands[s] + t;
                for c in 0..3 {
                    r.owner[row][c] = Some(s);
                }
                r.tri[row][rules.tri_at[t]] = true;
            }
        }
        r
    }

    /// N-2: walk right from column c over occupied spaces to the first empty.
    fn landing(&self, row: usize, c: usize) -> Option<usize> {
        (c + 1..12).find(|&k| self.owner[row][k].is_none())
    }

    fn opponents(&self, a: usize, b: usize) -> bool {
        if a == b {
            return false;
        }
        if self.rules.teams && !self.rules.partners_count {
            a % 2 != b % 2
        } else {
            true
        }
    }

    /// N-3: opponents' pieces in column c, over the whole board.
    fn column_count(&self, seat: usize, c: usize) -> usize {
        (0..12)
            .filter(|&r| self.owner[r][c].is_some_and(|o| self.opponents(seat, o)))
            .count()
    }

    /// N-4: the fields (by column, 0..4) holding `seat`'s pieces must be
    /// contiguous.
    fn gap_ok(&self, seat: usize) -> bool {
        let mut fields = [false; 4];
        for r in 0..12 {
            for c in 0..12 {
                if self.owner[r][c] == Some(seat) {
                    fields[c / 3] = true;
                }
            }
        }
        let used: Vec<usize> = (0..4).filter(|&f| fields[f]).collect();
        match (used.first(), used.last()) {
            (Some(&lo), Some(&hi)) => (lo..=hi).all(|f| fields[f]),
            _ => true,
        }
    }

    /// The piece moved from (row, a) to (row, b), shapes travelling along.
    fn moved(&self, row: usize, a: usize, b: usize) -> Ref {
        let mut n = self.clone();
        n.owner[row][b] = n.owner[row][a].take();
        n.tri[row][b] = n.tri[row][a];
        n.tri[row][a] = false;
        n
    }

    fn in_goal(&self, seat: usize) -> bool {
        (0..12).all(|r| (0..9).all(|c| self.owner[r][c] != Some(seat)))
    }

    /// N-5 with N-8: in the goal field, and each triangle on its start
    /// column + 9 in its own track.
    fn finished(&self, seat: usize) -> bool {
        if !self.in_goal(seat) {
            return false;
        }
        if !self.rules.triangles {
            return true;
        }
        let r0 = 3 * self.rules.bands[seat];
        (0..3).all(|t| (9..12).all(|c| self.tri[r0 + t][c] == (c == 9 + self.rules.tri_at[t])))
    }

    fn legal(&self) -> Vec<RMove> {
        if self.outcome != ROutcome::Ongoing {
            return vec![];
        }
        if let Some((r, c)) = self.cont {
            return vec![RMove::Step(r, c, self.landing(r, c).unwrap())];
        }
        let s = self.to_move;
        let mut out = vec![];
        for r in 0..12 {
            for c in 0..12 {
                if self.owner[r][c] != Some(s) {
                    continue;
                }
                if let Some(l) = self.landing(r, c)
                    && self.moved(r, c, l).gap_ok(s)
                {
                    out.push(RMove::Step(r, c, l));
                }
            }
        }
        if out.is_empty() {
            out.push(RMove::Pass);
        }
        out
    }

    fn apply(&mut self, m: RMove) {
        self.ply += 1;
        let s = self.to_move;
        if let RMove::Step(r, a, b) = m {
            *self = self.moved(r, a, b);
            self.cont = None;
            if self.column_count(s, b) % 2 == 1
                && let Some(l) = self.landing(r, b)
                && self.moved(r, b, l).gap_ok(s)
            {
                self.cont = Some((r, b));
                return;
            }
        }
        // End of turn: N-5 / N-7, then the next seat, then our draw ruling.
        let n = self.rules.players;
        let team_done = !self.rules.teams || self.finished((s + 2) % 4);
        if self.finished(s) && team_done {
            let mut w = [false; 4];
            for (k, x) in w.iter_mut().enumerate().take(n) {
                *x = k == s || (self.rules.teams && k % 2 == s % 2);
            }
            self.outcome = ROutcome::Win(w);
            return;
        }
        self.to_move = (s + 1) % n;
        if (0..n).all(|k| self.in_goal(k)) {
            self.outcome = ROutcome::Draw;
        }
    }

    fn returns(&self) -> [f64; 4] {
        let mut out = [0.0; 4];
        if let ROutcome::Win(w) = self.outcome {
            for k in 0..self.rules.players {
                out[k] = if w[k] { 1.0 } else { -1.0 };
            }
        }
        out
    }

    fn move_text(&self, m: RMove) -> String {
        match m {
            RMove::Step(r, a, b) => format!("{}-{}", name(r, a), name(r, b)),
            RMove::Pass => "pass".into(),
        }
    }

    fn text(&self) -> String {
        let rows: Vec<String> = (0..12)
            .map(|r| {
                let mut out = String::new();
                let mut run = 0;
                for c in 0..12 {
                    match self.owner[r][c] {
                        None => run += 1,
                        Some(s) => {
                            if run > 0 {
                                out += &run.to_string();
                                run = 0;
                            }
                            let l = LETTERS[s];
                            out.push(if self.tri[r][c] {
                                l.to_ascii_lowercase()
                            } else {
                                l
                            });
                        }
                    }
                }
                if run > 0 {
                    out += &run.to_string();
                }
                out
            })
            .collect();
        let cont = self.cont.map_or("-".to_string(), |(r, c)| name(r, c));
        format!(
            "{} {} {cont} {}",
            rows.join("/"),
            LETTERS[self.to_move],
            self.ply
        )
    }
}

#[derive(Default, Debug)]
struct Tally {
    games: usize,
    positions: usize,
    continuations: usize,
    passes: usize,
    draws: usize,
    wins: [usize; 4],
}

fn compare(g: &SniggleGame, e: &SniggleState, r: &Ref, rng: &mut ChaCha8Rng) {
    let text = r.text();
    assert_eq!(e.to_text(), text, "position text");
    let want = match r.outcome {
        ROutcome::Ongoing => ToMove::Seat(r.to_move),
        _ => ToMove::Terminal,
    };
    assert_eq!(e.to_move(), want, "to_move in {text}");
    let mut moves = Vec::new();
    e.legal_moves(&mut moves);
    let mut et: Vec<String> = moves.iter().map(|&m| e.move_to_text(m)).collect();
    let mut rt: Vec<String> = r.legal().iter().map(|&m| r.move_text(m)).collect();
    et.sort();
    rt.sort();
    assert_eq!(et, rt, "legal moves in {text}");
    assert_eq!(e.count_legal_moves(), moves.len(), "count in {text}");
    assert_eq!(e.returns(), r.returns(), "returns in {text}");
    assert_eq!(e.continuing(), r.cont.map(|(a, b)| (a * 12 + b) as u32));
    assert_eq!(e.zobrist(), e.zobrist_from_scratch(), "zobrist in {text}");
    let back = g
        .parse_position(&text)
        .unwrap_or_else(|err| panic!("{text}: {err}"));
    assert_eq!(back.to_text(), text);
    assert_eq!(back.zobrist(), e.zobrist(), "round-trip zobrist of {text}");
    assert_eq!(back.to_move(), e.to_move());
    assert_eq!(back.returns(), e.returns());
    let mut buf = Vec::new();
    match e.sample_legal_move(rng, &mut buf) {
        Some(m) => assert!(moves.contains(&m), "sampled {m:?} in {text}"),
        None => assert!(moves.is_empty()),
    }
    let mut outs = Vec::new();
    e.chance_outcomes(&mut outs);
    assert!(outs.is_empty(), "Sniggle has no chance nodes");
}

fn play_and_compare(
    rules: RefRules,
    rng: &mut ChaCha8Rng,
    tally: &mut Tally,
    hashes: &mut HashMap<u64, String>,
) {
    let g = game(&rules.spec());
    let mut e = g.initial_state(0);
    let mut r = Ref::new(rules);
    loop {
        compare(&g, &e, &r, rng);
        tally.positions += 1;
        if r.cont.is_some() {
            tally.continuations += 1;
        }
        // Equal keys must mean equal positions (the ply is not hashed).
        let key = r.text().rsplit_once(' ').unwrap().0.to_string();
        let prev = hashes.entry(e.zobrist()).or_insert_with(|| key.clone());
        assert_eq!(*prev, key, "zobrist collision");
        let moves = r.legal();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        if m == RMove::Pass {
            tally.passes += 1;
        }
        let t = r.move_text(m);
        let em =
            parse_legal_move(&e, &t).unwrap_or_else(|err| panic!("{t} in {}: {err}", r.text()));
        assert_eq!(e.move_to_text(em), t);
        e.apply(em);
        r.apply(m);
    }
    tally.games += 1;
    match r.outcome {
        ROutcome::Draw => tally.draws += 1,
        ROutcome::Win(w) => {
            for k in 0..4 {
                if w[k] {
                    tally.wins[k] += 1;
                }
            }
        }
        ROutcome::Ongoing => unreachable!(),
    }
}

/// At least 10,000 positions of random games for each of 2, 3 and 4 players
/// and 4 in teams (default rulings), plus the rule variants (triangles,
/// counted partners, other bands and triangle columns), each position
/// compared in full with the reference.
#[test]
fn engine_matches_reference_on_random_playouts() {
    let base = |players: usize| RefRules {
        players,
        teams: false,
        triangles: false,
        partners_count: false,
        bands: match players {
            2 => [1, 2, 0, 0],
            3 => [0, 1, 2, 0],
            _ => [0, 1, 2, 3],
        },
        tri_at: [1, 1, 1],
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0x5A16);
    for (label, rules) in [
        ("2 players", base(2)),
        ("3 players", base(3)),
        ("4 players", base(4)),
        (
            "4 in teams",
            RefRules {
                teams: true,
                ..base(4)
            },
        ),
    ] {
        let mut t = Tally::default();
        let mut hashes = HashMap::new();
        while t.positions < 10_000 {
            play_and_compare(rules, &mut rng, &mut t, &mut hashes);
        }
        eprintln!("{label}: {t:?}");
        assert!(t.continuations > 500, "{label}: chains are exercised");
        if rules.teams {
            assert!(t.passes > 0, "{label}: finished partners pass");
        }
        assert_eq!(t.draws, 0, "{label}: no draw without N-8");
        let winners = t.wins.iter().filter(|&&w| w > 0).count();
        assert!(winners >= 2, "{label}: {t:?}");
    }
    let mut t = Tally::default();
    for i in 0..160 {
        let players = 2 + i % 3;
        let mut r = base(players);
        r.triangles = i % 2 == 0;
        r.tri_at = [i % 3, (i / 3) % 3, (i / 9) % 3];
        if players == 4 && i % 4 < 2 {
            r.teams = true;
            r.partners_count = i % 8 < 4;
        }
        if players == 2 {
            r.bands = [i % 4, (i + 1 + i / 4 % 3) % 4, 0, 0];
        }
        if players == 3 {
            r.bands = [3, 0, 2, 0];
        }
        let mut hashes = HashMap::new();
        play_and_compare(r, &mut rng, &mut t, &mut hashes);
    }
    eprintln!("variants: {t:?}");
    assert!(t.draws > 0 && t.passes > 0, "{t:?}");
}
