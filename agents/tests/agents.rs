//! Agents on small games whose best moves are known by hand: Nim (take 1
//! or 2, last take wins: the losing piles are the multiples of 3), its
//! three-seat race solved by max^n, a chance game with 1–4 seats, Slingshot
//! positions with an immediate win, win distances in the capture games
//! against a plain minimax reference, the allocation-free pie wrappers, and
//! for the exact solver a lying solution table, one-seat knapsack puzzles
//! and small Solitaire Sly positions.

use std::fmt;

use agents::{
    AgentSpec, AlphaBeta, AlphaBetaConfig, Mcts, MctsConfig, Solver, SolverConfig, Uct, UctConfig,
};
use engine::Research;
use engine::slingshot::SlingshotGame;
use engine::sly_solitaire::{SlySolitaireGame, SlySolitaireState};
use engine::spec::Spec;
use engine::{Game, GameError, MAX_SEATS, Returns, Search, State, ToMove, parse_legal_move};

/// Nim: a pile, the seats in turn take 1 or 2, whoever takes the last wins
/// (return 1). With two seats the other loses (−1); with three, the seat
/// after the winner gets 0 and the remaining seat −1 (the race below).
#[derive(Clone, Debug, PartialEq)]
struct Nim {
    pile: u32,
    to_move: usize,
    ply: u32,
    seats: usize,
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pile {} seat {}", self.pile, self.to_move)
    }
}

impl State for Nim {
    type Move = u32;
    fn num_seats(&self) -> usize {
        self.seats
    }
    fn to_move(&self) -> ToMove {
        if self.pile == 0 {
            ToMove::Terminal
        } else {
            ToMove::Seat(self.to_move)
        }
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend((1..=2).filter(|&k| k <= self.pile));
    }
    fn apply(&mut self, mv: u32) {
        self.pile -= mv;
        self.to_move = (self.to_move + 1) % self.seats;
        self.ply += 1;
    }
    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if self.pile == 0 {
            // The seat that just moved took the last one.
            let n = self.seats;
            let winner = (self.to_move + n - 1) % n;
            r[winner] = 1.0;
            r[(winner + n - 1) % n] = -1.0;
        }
        r
    }
    fn zobrist(&self) -> u64 {
        (self.pile as u64) << 2 | self.to_move as u64
    }
    fn zobrist_from_scratch(&self) -> u64 {
        self.zobrist()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
    fn move_to_text(&self, mv: u32) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u32, GameError> {
        text.parse().map_err(|_| GameError::new("bad"))
    }
}

impl Research for Nim {
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}

impl Search for Nim {}

#[test]
fn both_searchers_solve_nim() {
    for pile in [4u32, 5, 7, 8, 10, 11] {
        let s = Nim {
            pile,
            to_move: 0,
            ply: 0,
            seats: 2,
        };
        let want = pile % 3; // leave a multiple of 3
        let mut ab = AlphaBeta::<Nim>::new(
            AlphaBetaConfig {
                depth: 12,
                ms: 0,
                tt_mb: 1,
                ..AlphaBetaConfig::default()
            },
            1,
        );
        let (mv, v) = ab.search(&s);
        assert_eq!(mv, want, "alpha-beta on pile {pile}");
        assert!(v > 0, "a won position scores positive");
        let mut u = Uct::<Nim>::new(
            UctConfig {
                iterations: 3000,
                c: 1.4,
                ms: 0,
            },
            2,
        );
        assert_eq!(u.search(&s), want, "uct on pile {pile}");
        for solver in [false, true] {
            let mut m = Mcts::<Nim>::new(
                MctsConfig {
                    iterations: 3000,
                    solver,
                    ..MctsConfig::default()
                },
                2,
            );
            assert_eq!(m.search(&s), want, "mcts solver={solver} on pile {pile}");
            if solver {
                // Nim's tree is small: the solver proves the win.
                assert_eq!(m.root_proven().map(|r| r[0]), Some(1.0), "pile {pile}");
            }
        }
    }
    // A lost position (pile 6): alpha-beta sees the loss.
    let mut ab = AlphaBeta::<Nim>::new(
        AlphaBetaConfig {
            depth: 12,
            ms: 0,
            tt_mb: 1,
            ..AlphaBetaConfig::default()
        },
        1,
    );
    assert!(
        ab.search(&Nim {
            pile: 6,
            to_move: 1,
            ply: 0,
            seats: 2
        })
        .1 < 0
    );
}

/// A chance game for 1–4 seats: the last seat picks a coin `i`, whose
/// chance node then makes the mover win with probability `P[i]` (return
/// +1 for the mover, −1 for every other seat; a one-seat game scores ±1).
#[derive(Clone, Debug)]
struct Coins {
    seats: usize,
    picked: Option<usize>,
    outcome: Option<bool>,
    ply: u32,
}

const P: [f64; 4] = [0.3, 0.8, 0.55, 0.1];

impl fmt::Display for Coins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self)
    }
}

impl State for Coins {
    type Move = usize;
    fn num_seats(&self) -> usize {
        self.seats
    }
    fn to_move(&self) -> ToMove {
        match (self.picked, self.outcome) {
            (None, _) => ToMove::Seat(self.seats - 1),
            (Some(_), None) => ToMove::Chance,
            _ => ToMove::Terminal,
        }
    }
    fn legal_moves(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.picked.is_none() {
            out.extend(0..P.len());
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(usize, f64)>) {
        out.clear();
        if let (Some(i), None) = (self.picked, self.outcome) {
            out.push((1, P[i]));
            out.push((0, 1.0 - P[i]));
        }
    }
    fn apply(&mut self, mv: usize) {
        if self.picked.is_none() {
            self.picked = Some(mv);
        } else {
            self.outcome = Some(mv == 1);
        }
        self.ply += 1;
    }
    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if let Some(win) = self.outcome {
            let mover = self.seats - 1;
            for (s, x) in r.iter_mut().enumerate().take(self.seats) {
                *x = if (s == mover) == win { 1.0 } else { -1.0 };
            }
        }
        r
    }
    fn zobrist(&self) -> u64 {
        self.ply as u64 * 31
            + self.picked.unwrap_or(9) as u64 * 7
            + self.outcome.map_or(3, |b| b as u64)
    }
    fn zobrist_from_scratch(&self) -> u64 {
        self.zobrist()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
    fn move_to_text(&self, mv: usize) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<usize, GameError> {
        text.parse().map_err(|_| GameError::new("bad"))
    }
}

impl Research for Coins {
    fn first_mover_seat(&self) -> Option<usize> {
        None
    }
}

impl Search for Coins {}

#[test]
fn mcts_samples_chance_nodes_for_one_to_four_seats() {
    for seats in 1..=4 {
        let s = Coins {
            seats,
            picked: None,
            outcome: None,
            ply: 0,
        };
        let mut u = Uct::<Coins>::new(
            UctConfig {
                iterations: 4000,
                c: 0.5,
                ms: 0,
            },
            seats as u64,
        );
        assert_eq!(u.search(&s), 1, "uct: the 0.8 coin, {seats} seats");
        let mut m = Mcts::<Coins>::new(
            MctsConfig {
                iterations: 4000,
                c: 0.5,
                ..MctsConfig::default()
            },
            seats as u64,
        );
        assert_eq!(m.search(&s), 1, "mcts: the 0.8 coin, {seats} seats");
        // The solver proves the exact expected returns, 0.8·1 + 0.2·(-1),
        // once every coin is proven (a wider c visits the poor coins).
        let mut m = Mcts::<Coins>::new(
            MctsConfig {
                iterations: 4000,
                c: 4.0,
                ..MctsConfig::default()
            },
            seats as u64,
        );
        assert_eq!(m.search(&s), 1, "mcts c=4: the 0.8 coin, {seats} seats");
        let r = m
            .root_proven()
            .expect("the coin game is small enough to prove");
        assert!((r[seats - 1] - 0.6).abs() < 1e-6, "{seats} seats: {r:?}");
    }
    // Alpha-beta takes the expectation at chance nodes.
    let s = Coins {
        seats: 2,
        picked: None,
        outcome: None,
        ply: 0,
    };
    let mut ab = AlphaBeta::<Coins>::new(
        AlphaBetaConfig {
            depth: 4,
            ms: 0,
            tt_mb: 1,
            ..AlphaBetaConfig::default()
        },
        3,
    );
    assert_eq!(ab.search(&s).0, 1);
}

fn slingshot(g: &str, position: &str) -> <SlingshotGame as Game>::State {
    let game = SlingshotGame::from_spec(&Spec::parse(g).unwrap()).unwrap();
    game.parse_position(position).unwrap()
}

#[test]
fn every_agent_takes_an_immediate_slingshot_win() {
    // 7×7, Black (seat 0) to move: file d is Black but for the Teal stone
    // on d4; flipping d4 (e.g. a3+a5xd4, S9 row line) completes rank 1 to
    // rank 7 (S3, S12). Hand-checked: several moves flip d4, all win.
    let s = slingshot("slingshot(size=7)", "3B3/3B3/3B3/T2T2T/3B3/3B3/3B3 B C 0 0");
    let win = parse_legal_move(&s, "a3+a5xd4").unwrap();
    let mut t = s;
    t.apply(win);
    assert_eq!(t.returns()[0], 1.0);
    for spec in [
        "uct(iterations=300)",
        "mcts(iterations=300)",
        "mcts(iterations=300,reuse=false,cutoff=end)",
        "alphabeta(depth=1)",
        "alphabeta(depth=3)",
    ] {
        let mut agent = AgentSpec::parse(spec)
            .unwrap()
            .build::<<SlingshotGame as Game>::State>(5);
        let mv = agent.select(&s);
        let mut t = s;
        t.apply(mv);
        assert!(
            t.is_terminal() && t.returns()[0] == 1.0,
            "{spec} played {}",
            s.move_to_text(mv)
        );
    }
}

#[test]
fn agents_are_reproducible_for_a_seed() {
    let s = slingshot("slingshot", "9/9/9/9/4T4/9/9/9/T8 B C 0 1");
    for spec in [
        "random",
        "uct(iterations=200)",
        "mcts(iterations=200)",
        "alphabeta(depth=2)",
    ] {
        let a = AgentSpec::parse(spec).unwrap();
        let m1 = a.build::<<SlingshotGame as Game>::State>(11).select(&s);
        let m2 = a.build::<<SlingshotGame as Game>::State>(11).select(&s);
        assert_eq!(m1, m2, "{spec}");
    }
    let bytes = Uct::<<SlingshotGame as Game>::State>::bytes_per_node();
    assert!(bytes <= 32, "UCT node is {bytes} bytes");
    let bytes = Mcts::<<SlingshotGame as Game>::State>::bytes_per_node();
    assert!(bytes <= 56, "MCTS node is {bytes} bytes");
}

/// The three-seat race (`Nim` with `seats: 3`): seats 0, 1, 2 in turn take
/// 1 or 2 from a pile; the seat taking the last wins (return 1), the seat
/// after the winner gets 0 and the remaining seat −1. Every seat's three outcomes differ, so the
/// max^n solution is unique.
///
/// Solved by hand, with `W(n)` the winner's offset from the seat to move
/// (0 = the mover, 1 = the next seat, 2 = the one after) and the mover
/// preferring offset 0 (return 1) over 2 (return 0) over 1 (return −1):
/// W(1) = W(2) = 0; W(3) = 1 (both moves leave the next seat a win);
/// W(4) = 2 by taking 1 (taking 2 gives 1 + W(2) = 1);
/// W(5) = 0 by taking 1 (1 + W(4) = 3 ≡ 0; taking 2 gives 1 + W(3) = 2);
/// W(6) = 0 by taking 2 (1 + W(4) ≡ 0; taking 1 gives 1 + W(5) = 1);
/// W(7) = 1 (1 + W(6) = 1, 1 + W(5) = 1); and from there period 4.
#[test]
fn mcts_solves_a_three_seat_race_by_max_n() {
    // (pile, best move, mover's proven return) from the hand solution above.
    for (pile, best, ret) in [
        (4u32, 1u32, 0.0f64),
        (5, 1, 1.0),
        (6, 2, 1.0),
        (8, 1, 0.0),
        (9, 1, 1.0),
        (10, 2, 1.0),
    ] {
        for seat in 0..3 {
            let s = Nim {
                pile,
                to_move: seat,
                ply: 0,
                seats: 3,
            };
            let mut m = Mcts::<Nim>::new(
                MctsConfig {
                    iterations: 20_000,
                    c: 1.0,
                    ..MctsConfig::default()
                },
                pile as u64,
            );
            assert_eq!(m.search(&s), best, "pile {pile}, seat {seat}");
            let r = m.root_proven().expect("a small tree is proven");
            assert_eq!(r[seat], ret, "pile {pile}, seat {seat}: {r:?}");
            // Zero-sum over the three seats: 1 + 0 - 1.
            assert_eq!(r[0] + r[1] + r[2], 0.0);
        }
    }
    // Pile 7: every move loses (W = 1), so the proof says −1 for the mover.
    let s = Nim {
        pile: 7,
        to_move: 1,
        ply: 0,
        seats: 3,
    };
    let mut m = Mcts::<Nim>::new(MctsConfig::default(), 7);
    m.search(&s);
    assert_eq!(m.root_proven().map(|r| r[1]), Some(-1.0));
    // Without the solver, visits alone find the same moves.
    for (pile, best) in [(4u32, 1u32), (5, 1), (6, 2)] {
        let s = Nim {
            pile,
            to_move: 0,
            ply: 0,
            seats: 3,
        };
        let mut m = Mcts::<Nim>::new(
            MctsConfig {
                iterations: 5000,
                solver: false,
                ..MctsConfig::default()
            },
            3,
        );
        assert_eq!(m.search(&s), best, "no solver, pile {pile}");
        assert_eq!(m.root_proven(), None);
    }
}

#[test]
fn mcts_memory_bound_and_reuse() {
    // A tiny memory bound: the tree stops growing and the hits are counted.
    let s = slingshot("slingshot", "9/9/9/9/4T4/9/9/9/T8 B C 0 1");
    let mut m = Mcts::<<SlingshotGame as Game>::State>::new(
        MctsConfig {
            iterations: 20_000,
            mb: 1,
            ..MctsConfig::default()
        },
        1,
    );
    m.search(&s);
    assert!(
        m.tree_size() <= m.max_nodes(),
        "{} > {}",
        m.tree_size(),
        m.max_nodes()
    );
    assert!(
        m.last_mb_hits > 0,
        "a 1 MiB tree fills in 20,000 iterations ({} nodes)",
        m.tree_size()
    );
    // Reuse: after our move and a reply, the new root keeps its visits.
    let mut m = Mcts::<Nim>::new(
        MctsConfig {
            iterations: 3000,
            solver: false,
            ..MctsConfig::default()
        },
        1,
    );
    let mut s = Nim {
        pile: 40,
        to_move: 0,
        ply: 0,
        seats: 2,
    };
    let mv = m.search(&s);
    assert_eq!(m.last_reused, 0);
    s.apply(mv);
    s.apply(1);
    m.search(&s);
    assert!(m.last_reused > 0, "the subtree after {mv} then 1 was kept");
    // A position not in the tree starts afresh.
    let t = Nim {
        pile: 10,
        to_move: 0,
        ply: 7,
        seats: 2,
    };
    m.search(&t);
    assert_eq!(m.last_reused, 0);
}

/// Whether the seat `me` wins within `plies` plies from `state` against
/// every defence: plain full-width minimax over the engine's moves, no
/// pruning, no table (the reference for the alpha-beta mate distances).
fn wins_within<S: State>(state: &S, me: usize, plies: u32) -> bool {
    match state.to_move() {
        ToMove::Terminal => state.returns()[me] > 0.0,
        _ if plies == 0 => false,
        ToMove::Chance => false,
        ToMove::Seat(s) => {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            let mut child_wins = moves.iter().map(|&m| {
                let mut c = state.clone();
                c.apply(m);
                wins_within(&c, me, plies - 1)
            });
            if s == me {
                child_wins.any(|w| w)
            } else {
                child_wins.all(|w| w)
            }
        }
    }
}

/// The exact distance in plies (1, 3, 5, ...) to a forced win of the seat to
/// move, if it is at most `max`.
fn reference_mate<S: State>(state: &S, max: u32) -> Option<u32> {
    let ToMove::Seat(me) = state.to_move() else {
        return None;
    };
    (1..=max).step_by(2).find(|&d| wins_within(state, me, d))
}

struct MateCheck {
    position: &'static str,
    plies: u32,
}

impl engine::GameVisitor for MateCheck {
    type Output = ();
    fn visit<G: Game>(self, game: G) {
        let s = game.parse_position(self.position).unwrap();
        let what = format!("{} {}", game.game_string(), self.position);
        assert_eq!(
            reference_mate(&s, self.plies),
            Some(self.plies),
            "reference: {what}"
        );
        for tt_mb in [0, 16] {
            for depth in [self.plies, self.plies + 2] {
                let mut ab = AlphaBeta::<G::State>::new(
                    AlphaBetaConfig {
                        depth,
                        tt_mb,
                        ..AlphaBetaConfig::default()
                    },
                    1,
                );
                let (mv, v) = ab.search(&s);
                assert_eq!(
                    v,
                    agents::alphabeta::WIN - self.plies as i32,
                    "{what}: depth {depth}, tt_mb {tt_mb}"
                );
                // The chosen move keeps the win at the same distance.
                let mut t = s.clone();
                t.apply(mv);
                let ToMove::Seat(me) = s.to_move() else {
                    unreachable!()
                };
                assert!(
                    wins_within(&t, me, self.plies - 1),
                    "{what}: {} does not win in {} plies",
                    s.move_to_text(mv),
                    self.plies
                );
                // The same search again with the table kept: the distance
                // read back from the table is still relative to the root.
                let (_, v2) = ab.search(&s);
                assert_eq!(v2, v, "{what}: second search, tt_mb {tt_mb}");
                // Two plies on (the win, then the defender's first reply),
                // with the table of the search from two plies up: entries
                // stored there must read back relative to the new root.
                if self.plies >= 3 {
                    let mut buf = Vec::new();
                    t.legal_moves(&mut buf);
                    let mut u = t.clone();
                    u.apply(buf[0]);
                    let want = reference_mate(&u, self.plies - 2).expect("still winning");
                    let (_, v3) = ab.search(&u);
                    assert_eq!(
                        v3,
                        agents::alphabeta::WIN - want as i32,
                        "{what}: after {} {}, tt_mb {tt_mb}",
                        s.move_to_text(mv),
                        t.move_to_text(buf[0])
                    );
                }
            }
        }
    }
}

/// Finds candidate mate positions for the table below (run by hand with
/// `--ignored --nocapture`); the test itself checks each with the reference.
#[test]
#[ignore]
fn find_mate_positions() {
    struct Finder;
    impl engine::GameVisitor for Finder {
        type Output = ();
        fn visit<G: Game>(self, game: G) {
            use rand::SeedableRng;
            let mut found = [0usize; 3];
            for seed in 0..400u64 {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let mut s = game.initial_state(seed);
                let mut buf = Vec::new();
                let mut ab = AlphaBeta::<G::State>::new(
                    AlphaBetaConfig {
                        depth: 5,
                        ..AlphaBetaConfig::default()
                    },
                    1,
                );
                while let ToMove::Seat(_) = s.to_move() {
                    if s.ply() > 20 && s.ply() % 3 == 0 {
                        let (_, v) = ab.search(&s);
                        let d = agents::alphabeta::WIN - v;
                        if (1..=5).contains(&d) && d % 2 == 1 {
                            let k = (d / 2) as usize;
                            if found[k] < 2 {
                                found[k] += 1;
                                println!("{} | {} | {d}", game.game_string(), s.to_text());
                            }
                        }
                    }
                    let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
                    s.apply(m);
                }
                if found.iter().all(|&f| f >= 2) {
                    break;
                }
            }
        }
    }
    for g in [
        "catapult",
        "andalusia",
        "kings_colour",
        "royal_guard(royal_powers=false)",
    ] {
        engine::visit_game(g, Finder).unwrap();
    }
}

#[test]
fn alphabeta_finds_wins_at_the_right_distance_with_and_without_the_table() {
    // Royal Guard with royal powers off is FIDE chess. Hand-worked:
    // * 1 ply, back rank: Ra8# (f7, g7, h7 block the king; a8..h8 is
    //   covered by the rook).
    // * 3 plies: 1.Rb7 (rank 7 shut) Kg8 (the only move) 2.Ra8#; no check
    //   mates at once (Ra8+ Kg7, Rb8+ Kh7/Kg7, Rh1+ Kg8/Kg7).
    // * 5 plies: 1.Ra6 Kg7/Kg8/Kh8 2.Rb7(+) K to rank 8 3.Ra8#.
    // Published positions from games (FIDE chess), each with its known
    // solution:
    // * Fool's mate, after 1.f3 e5 2.g4: 2...Qh4# (1 ply).
    // * Légal's mate (Légal – Saint Brie, Paris 1750), after 1.e4 e5 2.Nf3
    //   d6 3.Bc4 Bg4 4.Nc3 g6 5.Nxe5 Bxd1: 6.Bxf7+ Ke7 7.Nd5# (3 plies).
    // * Réti – Tartakower, Vienna 1910, after 8...Nxe4: 9.Qd8+ Kxd8
    //   10.Bg5+ (double check) Kc7 11.Bd8# or 10...Ke8 11.Rd8# (5 plies).
    // The others are late positions of seeded random games, proposed by
    // `find_mate_positions`; for every one the plain minimax reference
    // above (no pruning, no table) proves the distance exactly: a win in
    // that many plies and none in fewer.
    let table: &[(&str, &str, u32)] = &[
        (
            "royal_guard(royal_powers=false)",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            1,
        ),
        (
            "royal_guard(royal_powers=false)",
            "7k/8/8/8/8/4K3/8/RR6 w - - 0 1",
            3,
        ),
        (
            "royal_guard(royal_powers=false)",
            "8/7k/8/8/8/8/8/RR4K1 w - - 0 1",
            5,
        ),
        (
            "royal_guard(royal_powers=false)",
            "2k3r1/4R3/n3K1Q1/p3P1N1/P1pNBP1p/2B1P2P/8/8 w - - 1 67",
            1,
        ),
        (
            "royal_guard(royal_powers=false)",
            "k7/2Q1KN1B/3rR3/p3P3/P4P1p/2p1P1NP/8/B7 w - - 4 79",
            3,
        ),
        (
            "royal_guard(royal_powers=false)",
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
            1,
        ),
        (
            "royal_guard(royal_powers=false)",
            "rn1qkbnr/ppp2p1p/3p2p1/4N3/2B1P3/2N5/PPPP1PPP/R1BbK2R w KQkq - 0 6",
            3,
        ),
        (
            "royal_guard(royal_powers=false)",
            "rnb1kb1r/pp3ppp/2p5/4q3/4n3/3Q4/PPPB1PPP/2KR1BNR w kq - 0 9",
            5,
        ),
        ("catapult", "7L/8/7L/8/4D3/5L2/8/8 L - 78", 1),
        ("catapult", "4L3/6D1/8/8/5L2/8/8/8 L - 96", 3),
        ("catapult", "7L/8/8/4L3/8/5L1L/1D6/8 L - 72", 5),
        (
            "andalusia",
            "2k4c1/2s1s1s2/s2S2s1s/4s4/5Cc1S/3c2S2/4C4/SS3K1S1/3C5 b 1 99",
            1,
        ),
        (
            "andalusia",
            "9/2k1s1s2/3S5/1s5c1/3s3s1/2S4C1/7KC/S8/4c4 b 6 159",
            3,
        ),
        ("andalusia", "9/4k4/9/9/S8/9/1C3s2s/8C/5K3 w 1 240", 5),
        (
            "kings_colour",
            "7/8/B8/1B1K6/9B1/6b5/4b3B4/3b4B3/B3B2b3/6k3/B8/b3b1b1/1b5 b 33",
            1,
        ),
        (
            "kings_colour",
            "7/8/3B5/3K6/1B5b3/6b5/8b4/12/B3b1k3b/4r3b1/9/B6B/b6 w 72",
            3,
        ),
        (
            "kings_colour",
            "7/8/2B1R4/3K6/2R8/5B6/4b3B4/3b1Bb1b3/4B2b3/5bk3/B8/b2b4/7 w 24",
            5,
        ),
    ];
    for &(game, position, plies) in table {
        engine::visit_game(game, MateCheck { position, plies }).unwrap();
    }
}

/// Counts heap allocations made by the current thread (tests run in
/// parallel threads, so a per-thread count is exact for the code measured).
struct CountingAlloc;

thread_local! {
    static ALLOCS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

unsafe impl std::alloc::GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { std::alloc::System.realloc(ptr, layout, new) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

fn allocations() -> u64 {
    ALLOCS.with(|c| c.get())
}

/// Plays `games` seeded random games twice (the first warms the buffers
/// up) and counts the allocations of `legal_moves`, `count_legal_moves` and
/// `sample_legal_move` in the second.
fn allocations_in_playouts<S: State>(start: &S, games: u64) -> u64 {
    use rand::SeedableRng;
    let mut buf = Vec::new();
    let mut total = 0;
    for round in 0..2 {
        for seed in 0..games {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut s = start.clone();
            let mut count = 0;
            while let ToMove::Seat(_) = s.to_move() {
                let a0 = allocations();
                s.legal_moves(&mut buf);
                let len = buf.len();
                let n = s.count_legal_moves();
                let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
                count += allocations() - a0;
                assert_eq!(n, len);
                // `apply` is left out: in the test profile its debug
                // assertion lists the legal moves to check the move.
                s.apply(m);
            }
            if round == 1 {
                total += count;
            }
        }
    }
    total
}

#[test]
fn pie_and_noswap_do_not_allocate_in_playouts() {
    struct Check;
    impl engine::GameVisitor for Check {
        type Output = u64;
        fn visit<G: Game>(self, game: G) -> u64 {
            let s = game.initial_state(1);
            let a = allocations_in_playouts(&s, 20);
            let b = allocations_in_playouts(&engine::pie::NoSwapState(s), 20);
            a + b
        }
    }
    let mut total = 0;
    for g in [
        "catapult",
        "slingshot(size=7)",
        "pie(catapult)",
        "pie(slingshot(size=7))",
        "bagel",
        "catapult(dagger=true)",
        "pie(catapult(dagger=true))",
        "royal_guard",
    ] {
        total += engine::visit_game(g, Check).unwrap();
    }
    assert_eq!(total, 0);
}

// ---------------------------------------------------------------------------
// The exact solver
// ---------------------------------------------------------------------------

fn solver<S: State + Search>(fewest: bool) -> Solver<S> {
    Solver::new(SolverConfig {
        mb: 1,
        nodes: 0,
        fewest,
        generic: false,
    })
}

/// Nim by hand: the mover loses exactly on multiples of 3. Distances under
/// perfect play (the winner hurries, the loser delays; every round of the
/// loser's 1 and the winner's 2, or 2 and 1, takes 2 plies per 3 stones):
/// a win from pile n takes `1 + 2 * (n / 3)` plies (first take n % 3), a
/// loss `2 * (n / 3)`.
#[test]
fn solver_solves_nim_with_distances() {
    for pile in 1u32..=12 {
        let s = Nim {
            pile,
            to_move: (pile % 2) as usize,
            ply: 0,
            seats: 2,
        };
        let sol = solver::<Nim>(true).solve(&s);
        assert!(sol.proven);
        if pile % 3 == 0 {
            assert_eq!(sol.value, -1.0, "pile {pile}");
            assert_eq!(sol.plies, 2 * (pile / 3), "pile {pile}");
        } else {
            assert_eq!(sol.value, 1.0, "pile {pile}");
            assert_eq!(sol.line, vec![pile % 3], "pile {pile}");
            assert_eq!(sol.plies, 1 + 2 * (pile / 3), "pile {pile}");
        }
    }
}

/// Nim whose solution table lies about pile 3 (it says the mover wins): a
/// solver that consults [`Search::solved`] first must believe it, so pile 4
/// (truly a win, take 1) comes out lost: both takes leave the opponent a
/// "won" pile (3 by the table, 2 truly).
#[derive(Clone, Debug, PartialEq)]
struct TabledNim(Nim);

impl fmt::Display for TabledNim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl State for TabledNim {
    type Move = u32;
    fn num_seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> ToMove {
        self.0.to_move()
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        self.0.legal_moves(out)
    }
    fn apply(&mut self, mv: u32) {
        self.0.apply(mv)
    }
    fn returns(&self) -> Returns {
        self.0.returns()
    }
    fn zobrist(&self) -> u64 {
        self.0.zobrist()
    }
    fn zobrist_from_scratch(&self) -> u64 {
        self.0.zobrist()
    }
    fn ply(&self) -> u32 {
        self.0.ply
    }
    fn to_text(&self) -> String {
        self.0.to_text()
    }
    fn move_to_text(&self, mv: u32) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u32, GameError> {
        self.0.parse_move(text)
    }
}

impl Search for TabledNim {
    fn solved(&self) -> Option<(i8, u32)> {
        (self.0.pile == 3).then_some((1, 1))
    }
}

#[test]
fn solver_consults_the_solution_table_first() {
    let s = TabledNim(Nim {
        pile: 4,
        to_move: 0,
        ply: 0,
        seats: 2,
    });
    let sol = solver::<TabledNim>(true).solve(&s);
    assert_eq!(sol.value, -1.0, "the table's pile 3 is believed");
    // Plain Nim from 4 is a win in 3 plies (take 1).
    let sol = solver::<Nim>(true).solve(&s.0);
    assert_eq!((sol.value, sol.plies, sol.line), (1.0, 3, vec![1]));
}

/// A one-seat knapsack puzzle: take items one at a time while they fit the
/// capacity; the game ends when none fits; the return is the weight taken.
#[derive(Clone, Debug, PartialEq)]
struct Knapsack {
    items: &'static [u32],
    capacity: u32,
    taken: u32,
    ply: u32,
    bounded: bool,
}

impl Knapsack {
    fn new(items: &'static [u32], capacity: u32, bounded: bool) -> Knapsack {
        Knapsack {
            items,
            capacity,
            taken: 0,
            ply: 0,
            bounded,
        }
    }
    fn weight(&self) -> u32 {
        (0..self.items.len())
            .filter(|i| self.taken >> i & 1 == 1)
            .map(|i| self.items[i])
            .sum()
    }
}

impl fmt::Display for Knapsack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "taken {:b}", self.taken)
    }
}

impl State for Knapsack {
    type Move = usize;
    fn num_seats(&self) -> usize {
        1
    }
    fn to_move(&self) -> ToMove {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        if v.is_empty() {
            ToMove::Terminal
        } else {
            ToMove::Seat(0)
        }
    }
    fn legal_moves(&self, out: &mut Vec<usize>) {
        out.clear();
        let w = self.weight();
        out.extend(
            (0..self.items.len())
                .filter(|&i| self.taken >> i & 1 == 0 && w + self.items[i] <= self.capacity),
        );
    }
    fn apply(&mut self, mv: usize) {
        self.taken |= 1 << mv;
        self.ply += 1;
    }
    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if self.is_terminal() {
            r[0] = self.weight() as f64;
        }
        r
    }
    fn zobrist(&self) -> u64 {
        self.taken as u64
    }
    fn zobrist_from_scratch(&self) -> u64 {
        self.taken as u64
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn to_text(&self) -> String {
        format!("{self}")
    }
    fn move_to_text(&self, mv: usize) -> String {
        format!("item {mv}")
    }
    fn parse_move(&self, text: &str) -> Result<usize, GameError> {
        let n = text.strip_prefix("item ").unwrap_or(text);
        n.parse()
            .map_err(|_| GameError::new(format!("bad knapsack move {text:?}")))
    }
}

impl Research for Knapsack {
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}

impl Search for Knapsack {
    fn return_bound(&self, _within: u32) -> Option<f64> {
        self.bounded.then_some(self.capacity as f64)
    }
}

/// Checks that `line` is legal from `s` and ends the game with return `v`.
fn replays_to<S: State>(s: &S, line: &[S::Move], v: f64) {
    let mut t = s.clone();
    for &m in line {
        let mut moves = Vec::new();
        t.legal_moves(&mut moves);
        assert!(moves.contains(&m), "{m:?} illegal in {t}");
        t.apply(m);
    }
    assert!(t.is_terminal(), "the line stops before the end: {t}");
    assert_eq!(t.returns()[0], v);
}

/// By hand: capacity 9 with items 6, 5, 4: greedy takes 6 and stops at 6;
/// the best is 5 + 4 = 9. Capacity 10 with items 1, 2, 3, 4, 6: 10 is
/// reached by {4, 6} (2 items), {1, 3, 6} (3) or {1, 2, 3, 4} (4): the
/// fewest plies are 2, the items at indices 3 and 4.
#[test]
fn solver_solves_one_seat_puzzles() {
    for bounded in [false, true] {
        let s = Knapsack::new(&[6, 5, 4], 9, bounded);
        let sol = solver::<Knapsack>(false).solve(&s);
        assert_eq!(sol.value, 9.0);
        assert!(sol.proven);
        replays_to(&s, &sol.line, 9.0);
        let s = Knapsack::new(&[1, 2, 3, 4, 6], 10, bounded);
        let any = solver::<Knapsack>(false).solve(&s);
        assert_eq!(any.value, 10.0);
        replays_to(&s, &any.line, 10.0);
        let fewest = solver::<Knapsack>(true).solve(&s);
        assert_eq!(fewest.value, 10.0);
        assert!(fewest.proven);
        assert_eq!(fewest.plies, 2);
        let mut items = fewest.line.clone();
        items.sort();
        assert_eq!(items, vec![3, 4]);
        replays_to(&s, &fewest.line, 10.0);
        // The bound (capacity 10, reached) stops the search early.
        if bounded {
            assert!(any.nodes < 10, "{} nodes", any.nodes);
        }
    }
    // A node budget gives the best line so far, unproven.
    let s = Knapsack::new(&[6, 5, 4], 9, false);
    let mut budget = Solver::<Knapsack>::new(SolverConfig {
        mb: 1,
        nodes: 3,
        fewest: false,
        generic: false,
    });
    assert!(!budget.solve(&s).proven);
}

/// The solver as an agent plays the whole one-seat game along its line:
/// the knapsack of capacity 10 ends on 10 in 2 plies.
#[test]
fn solver_agent_plays_its_line() {
    let mut agent = AgentSpec::parse("solver(mb=1)")
        .unwrap()
        .build::<Knapsack>(0);
    let mut s = Knapsack::new(&[1, 2, 3, 4, 6], 10, false);
    while !s.is_terminal() {
        let m = agent.select(&s);
        s.apply(m);
    }
    assert_eq!((s.returns()[0], s.ply), (10.0, 2));
}

fn sly(position: &str) -> SlySolitaireState {
    SlySolitaireGame::from_spec(&Spec::parse("sly_solitaire").unwrap())
        .unwrap()
        .parse_position(position)
        .unwrap()
}

/// Solitaire Sly by hand (docs/rules/sly_solitaire.md §3.2). Row 5 B L D O on D-G: B jumps right
/// over L D O to 5H and leaves one piece: value −1 in 1 ply. Row 5 B L B on
/// D-F: neither B can jump (the run holds the other B, S-3); L jumps left
/// over B to 5C or right over B to 5G, leaving two pieces two spaces
/// apart, which cannot move: value −2 ("good"), 1 ply.
#[test]
fn solver_on_small_solitaire_positions() {
    let s = sly("12/12/12/12/3BLDO5/12/12/12/12/12/12/12 0");
    let sol = solver::<SlySolitaireState>(true).solve(&s);
    assert_eq!((sol.value, sol.plies), (-1.0, 1));
    assert_eq!(s.move_to_text(sol.line[0]), "5D-5H");
    let s = sly("12/12/12/12/3BLB6/12/12/12/12/12/12/12 0");
    let sol = solver::<SlySolitaireState>(true).solve(&s);
    assert_eq!((sol.value, sol.plies, sol.proven), (-2.0, 1, true));
    // Row 5 B L . D on D-G: B jumps L to 5F, lands beside D and jumps it to
    // 5H, one piece in 2 plies. L's jump left over B to 5C instead leaves
    // L and D apart (two pieces); D cannot move (5F is empty).
    let s = sly("12/12/12/12/3BL1D5/12/12/12/12/12/12/12 0");
    for generic in [false, true] {
        let mut solver = Solver::<SlySolitaireState>::new(SolverConfig {
            mb: 1,
            nodes: 0,
            fewest: true,
            generic,
        });
        let sol = solver.solve(&s);
        assert_eq!((sol.value, sol.plies, sol.proven), (-1.0, 2, true));
        let line: Vec<String> = sol.line.iter().map(|&m| s.move_to_text(m)).collect();
        assert_eq!(line, ["5D-5F", "5F-5H"]);
    }
}

/// Two implementations: the game's dedicated Solitaire Sly solver
/// (`Search::solve_alone`, bits, restarts) against the generic branch and
/// bound through the `State` API, on 120 positions with 16 pieces left in
/// random games on random layouts: the same best return and, with
/// `plies=fewest`, the same shortest length; each line replays legally to
/// an end with that return.
#[test]
fn sly_solver_matches_the_generic_search() {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let g =
        SlySolitaireGame::from_spec(&Spec::parse("sly_solitaire(layout=random)").unwrap()).unwrap();
    let mut buf = Vec::new();
    let mut checked = 0;
    let mut values = std::collections::BTreeMap::new();
    for seed in 0..400u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut s = g.initial_state(seed);
        while !s.is_terminal() && s.pieces_left() > 16 {
            s.legal_moves(&mut buf);
            s.apply(*buf.choose(&mut rng).unwrap());
        }
        if s.is_terminal() {
            continue;
        }
        let solve = |generic| {
            Solver::<SlySolitaireState>::new(SolverConfig {
                mb: 1,
                nodes: 0,
                fewest: true,
                generic,
            })
            .solve(&s)
        };
        let (fast, plain) = (solve(false), solve(true));
        assert!(fast.proven && plain.proven);
        assert_eq!(
            (fast.value, fast.plies),
            (plain.value, plain.plies),
            "{}",
            s.to_text()
        );
        let mut end = s;
        for &m in &fast.line {
            parse_legal_move(&end, &end.move_to_text(m)).unwrap();
            end.apply(m);
        }
        assert!(end.is_terminal());
        assert_eq!(end.returns()[0], fast.value);
        *values.entry(fast.value as i64).or_insert(0) += 1;
        checked += 1;
        if checked == 120 {
            break;
        }
    }
    assert_eq!(checked, 120);
    // The sample is not trivial: both wins and worse ends occur.
    assert!(values.len() >= 2, "{values:?}");
}

/// A solver table larger than the machine's memory is refused with a
/// one-line error at parse time (allocating it would abort the process).
#[test]
fn solver_table_larger_than_memory_is_refused() {
    let Some(total) = agents::solver::physical_memory_mib() else {
        return; // no /proc/meminfo: nothing to check against
    };
    if total >= 65536 {
        return; // the largest valid mb fits this machine
    }
    let err = AgentSpec::parse("solver(mb=65536)")
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("more than this machine's memory"), "{err}");
    assert!(!err.contains('\n'));
    assert!(AgentSpec::parse("solver(mb=1)").is_ok());
}
