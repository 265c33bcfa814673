//! Blockade: an independent reference generator diffed against the engine.
//!
//! Written from `docs/rules/blockade.md` §6 alone: a 12 × 12 array, the escape
//! search as the dossier's B-5 pseudo-code (a queue of (square, heading)
//! segment starts walked one space at a time), placements and slides by
//! walking the array. It shares no code with `engine/src/blockade/` (not
//! even square names) and sees the engine only through its texts. The
//! rulings QB2–QB6 are implemented here too, so every option is diffed.

#![allow(clippy::needless_range_loop)]

use std::collections::{BTreeSet, VecDeque};

use engine::blockade::BlockadeGame;
use engine::spec::Spec;
use engine::{Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy)]
struct Opts {
    kings: [(i32, i32); 2], // (row, col) 0-based, [North, South]
    south_first: bool,
    first_checked: bool,
    edge_turns: bool,
    zero_ok: bool,
    king_stops: bool,
    neighbours: bool,
    cap: u32,
}

/// Cell codes: 0 empty, 1 North king, 2 South king, 3 North guard, 4 South
/// guard.
struct Ref {
    b: [[u8; 12]; 12],
    south_to_move: bool,
    plies: u32,
}

fn name(r: i32, c: i32) -> String {
    format!("{}{}", r + 1, (b'A' + c as u8) as char)
}

const DIRS: [(i32, i32); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)]; // up right down left

fn in_field(o: &Opts, r: i32, c: i32) -> bool {
    o.kings
        .iter()
        .any(|&(kr, kc)| kr / 3 == r / 3 && kc / 3 == c / 3)
}

impl Ref {
    fn from_text(text: &str) -> Ref {
        let f: Vec<&str> = text.split(' ').collect();
        let mut b = [[0u8; 12]; 12];
        for (r, row) in f[0].split('/').enumerate() {
            let mut c = 0;
            let mut num = 0;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    num = num * 10 + d as usize;
                    continue;
                }
                c += num;
                num = 0;
                b[r][c] = match ch {
                    'k' => 1,
                    'K' => 2,
                    'g' => 3,
                    'G' => 4,
                    _ => panic!("{ch}"),
                };
                c += 1;
            }
        }
        Ref {
            b,
            south_to_move: f[1] == "S",
            plies: f[2].parse().unwrap(),
        }
    }

    /// B-5, the dossier's pseudo-code. `south`: whose king.
    fn escape(&self, o: &Opts, south: bool) -> bool {
        let (k0, x) = if south {
            (o.kings[1], o.kings[0])
        } else {
            (o.kings[0], o.kings[1])
        };
        let target = if south { 0 } else { 2 };
        let forbidden = |r: i32, c: i32| {
            if o.neighbours {
                (r - x.0).abs() <= 1 && (c - x.1).abs() <= 1
            } else {
                (r, c) == x
            }
        };
        let mut seen = vec![[[false; 4]; 12]; 12];
        let mut queue = VecDeque::new();
        for d in 0..4 {
            seen[k0.0 as usize][k0.1 as usize][d] = true;
            queue.push_back((k0, d));
        }
        while let Some(((r0, c0), h)) = queue.pop_front() {
            let (mut r, mut c) = (r0, c0);
            let mut moved = false;
            loop {
                let (qr, qc) = (r + DIRS[h].0, c + DIRS[h].1);
                let off = !(0..12).contains(&qr) || !(0..12).contains(&qc);
                let mut stop = false;
                if off {
                    if h == target {
                        return true;
                    }
                    if !o.edge_turns {
                        break;
                    }
                    stop = true;
                } else if (qr, qc) == x && o.king_stops && !forbidden(r, c) {
                    stop = true;
                } else if forbidden(qr, qc) {
                    break;
                } else if self.b[qr as usize][qc as usize] >= 3 {
                    stop = true;
                }
                if stop {
                    if moved || o.zero_ok {
                        for h2 in [(h + 1) % 4, (h + 3) % 4] {
                            if !seen[r as usize][c as usize][h2] {
                                seen[r as usize][c as usize][h2] = true;
                                queue.push_back(((r, c), h2));
                            }
                        }
                    }
                    break;
                }
                r = qr;
                c = qc;
                moved = true;
            }
        }
        false
    }

    fn guards(&self, south: bool) -> Vec<(i32, i32)> {
        let code = if south { 4 } else { 3 };
        let mut v = Vec::new();
        for r in 0..12 {
            for c in 0..12 {
                if self.b[r][c] == code {
                    v.push((r as i32, c as i32));
                }
            }
        }
        v
    }

    fn moves(&self, o: &Opts) -> BTreeSet<String> {
        let me = self.guards(self.south_to_move);
        let mut out = BTreeSet::new();
        if me.len() < 6 {
            for r in 0..12 {
                for c in 0..12 {
                    let centre = r % 3 == 1 && c % 3 == 1;
                    if self.b[r as usize][c as usize] == 0
                        && !in_field(o, r, c)
                        && !(me.is_empty() && centre)
                    {
                        out.insert(name(r, c));
                    }
                }
            }
            return out;
        }
        for &(r, c) in &me {
            for (dr, dc) in DIRS {
                let (mut qr, mut qc) = (r + dr, c + dc);
                while (0..12).contains(&qr)
                    && (0..12).contains(&qc)
                    && self.b[qr as usize][qc as usize] == 0
                {
                    if !in_field(o, qr, qc) {
                        out.insert(format!("{}-{}", name(r, c), name(qr, qc)));
                    }
                    qr += dr;
                    qc += dc;
                }
            }
        }
        if out.is_empty() {
            out.insert("pass".into());
        }
        out
    }

    /// `Some("S")`/`Some("N")` for a win, `Some("draw")`, or `None`.
    fn ending(&self, o: &Opts) -> Option<&'static str> {
        if (self.plies > 0 || o.first_checked) && self.escape(o, self.south_to_move) {
            return Some(if self.south_to_move { "S" } else { "N" });
        }
        if self.plies >= o.cap {
            return Some("draw");
        }
        None
    }
}

fn diff(spec: &str, o: Opts, positions_wanted: usize, seed: u64) -> usize {
    let g = BlockadeGame::from_spec(&Spec::parse(spec).unwrap()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut v = Vec::new();
    let mut positions = 0;
    let mut movement = 0;
    while positions < positions_wanted {
        let mut s = g.initial_state(0);
        // Half the games are uniformly random; the other half avoid moves
        // after which the opponent escapes at once, to reach the movement
        // phase and long games.
        let careful = rng.random_bool(0.5);
        loop {
            positions += 1;
            let r = Ref::from_text(&s.to_text());
            let want = r.ending(&o);
            let got = s.ending().map(|(_, w)| match w {
                Some(engine::blockade::Side::South) => "S",
                Some(engine::blockade::Side::North) => "N",
                None => "draw",
            });
            assert_eq!(got, want, "{spec}: ending at {}", s.to_text());
            if s.is_terminal() {
                break;
            }
            s.legal_moves(&mut v);
            let engine_moves: BTreeSet<String> = v.iter().map(|&m| s.move_to_text(m)).collect();
            assert_eq!(
                engine_moves,
                r.moves(&o),
                "{spec}: moves at {}",
                s.to_text()
            );
            if s.ply() >= 12 {
                movement += 1;
            }
            let mut pick = v[rng.random_range(0..v.len())];
            if careful {
                let safe: Vec<_> = v
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let mut c = s;
                        c.apply(m);
                        !c.is_terminal()
                    })
                    .collect();
                if !safe.is_empty() {
                    pick = safe[rng.random_range(0..safe.len())];
                }
            }
            s.apply(pick);
        }
    }
    movement
}

/// The engine and the reference agree on the legal moves and the ending at
/// every position of seeded playouts: 10,000 positions of the default game
/// and 1,500 of each ruling's alternative.
#[test]
fn engine_matches_reference() {
    let d = Opts {
        kings: [(1, 4), (10, 7)],
        south_first: true,
        first_checked: false,
        edge_turns: false,
        zero_ok: true,
        king_stops: false,
        neighbours: false,
        cap: 300,
    };
    let _ = d.south_first;
    let moving = diff("blockade", d, 10_000, 1);
    assert!(moving > 2_000, "movement-phase positions: {moving}");
    for (spec, o) in [
        (
            "blockade(side_edge=turn)",
            Opts {
                edge_turns: true,
                ..d
            },
        ),
        (
            "blockade(zero_turns=forbidden)",
            Opts {
                zero_ok: false,
                ..d
            },
        ),
        (
            "blockade(enemy_king=stop)",
            Opts {
                king_stops: true,
                ..d
            },
        ),
        (
            "blockade(clear=neighbours)",
            Opts {
                neighbours: true,
                ..d
            },
        ),
        (
            "blockade(first_turn=checked,north=5B,south=8H)",
            Opts {
                first_checked: true,
                kings: [(4, 1), (7, 7)],
                ..d
            },
        ),
        ("blockade(ply_cap=40)", Opts { cap: 40, ..d }),
    ] {
        diff(spec, o, 1_500, 2);
    }
}
