//! Alpha-beta's win distances in the capture games against a plain
//! minimax reference, with and without the transposition table.

use agents::{AlphaBeta, AlphaBetaConfig};
use engine::{Game, State, ToMove};

use crate::common::wins_within;

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
    /// The settings besides `depth` and `tt_mb`.
    base: AlphaBetaConfig,
    /// The depths searched, as plies beyond the win's distance.
    beyond: &'static [u32],
}

impl engine::GameVisitor for MateCheck {
    type Output = ();
    fn visit<G: Game>(self, game: G) {
        let s = game.parse_position(self.position).unwrap();
        let what = format!(
            "{} {} {}",
            game.game_string(),
            self.position,
            self.base.canonical()
        );
        assert_eq!(
            reference_mate(&s, self.plies),
            Some(self.plies),
            "reference: {what}"
        );
        for tt_mb in [0, 16] {
            for depth in self.beyond.iter().map(|b| self.plies + b) {
                let mut ab = AlphaBeta::<G::State>::new(
                    AlphaBetaConfig {
                        depth,
                        tt_mb,
                        ..self.base.clone()
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
    check_mates(&AlphaBetaConfig::default(), &[0, 2]);
}

/// Runs [`MateCheck`] over every position of [`MATES`] with `base`,
/// searched `beyond` plies past each win.
fn check_mates(base: &AlphaBetaConfig, beyond: &'static [u32]) {
    for &(game, position, plies) in MATES {
        engine::visit_game(
            game,
            MateCheck {
                position,
                plies,
                base: base.clone(),
                beyond,
            },
        )
        .unwrap();
    }
}

/// The same wins at the same distances, the move played keeping them,
/// with null-move pruning (R = 1 and 2), late-move reductions and check
/// extensions each on, and all three: none of them may lose a forced win
/// or misreport its distance at the root. Searched two plies deeper than
/// the win: a null move searches R plies shallower, a reduction one, so
/// either may see a win only that much later (with `null=2` the 5-ply rook
/// mate, 1.Ra6, is missed at depth 5: after 1.Ra6 and Black's pass the
/// reduced search cannot see 2.Rb7+ and 3.Ra8#).
#[test]
fn alphabeta_finds_the_wins_with_each_pruning_switch() {
    let switches = [
        AlphaBetaConfig {
            null: 1,
            ..AlphaBetaConfig::default()
        },
        AlphaBetaConfig {
            null: 2,
            ..AlphaBetaConfig::default()
        },
        AlphaBetaConfig {
            lmr: 1,
            ..AlphaBetaConfig::default()
        },
        AlphaBetaConfig {
            check_ext: true,
            ..AlphaBetaConfig::default()
        },
        AlphaBetaConfig {
            null: 2,
            lmr: 3,
            check_ext: true,
            ..AlphaBetaConfig::default()
        },
        AlphaBetaConfig {
            mvv: true,
            see: true,
            ..AlphaBetaConfig::default()
        },
        AlphaBetaConfig {
            lmp: 1,
            ..AlphaBetaConfig::default()
        },
        AlphaBetaConfig {
            qcheck: true,
            ..AlphaBetaConfig::default()
        },
        AlphaBetaConfig {
            iir: true,
            ..AlphaBetaConfig::default()
        },
    ];
    for base in switches {
        check_mates(&base, &[2]);
    }
}

/// The positions of the win-distance tests above: game, position, plies to
/// the win.
///
/// Royal Guard with royal powers off is FIDE chess. Hand-worked:
/// * 1 ply, back rank: Ra8# (f7, g7, h7 block the king; a8..h8 is
///   covered by the rook).
/// * 3 plies: 1.Rb7 (rank 7 shut) Kg8 (the only move) 2.Ra8#; no check
///   mates at once (Ra8+ Kg7, Rb8+ Kh7/Kg7, Rh1+ Kg8/Kg7).
/// * 5 plies: 1.Ra6 Kg7/Kg8/Kh8 2.Rb7(+) K to rank 8 3.Ra8#.
///
/// Published positions from games (FIDE chess), each with its known
/// solution:
/// * Fool's mate, after 1.f3 e5 2.g4: 2...Qh4# (1 ply).
/// * Légal's mate (Légal – Saint Brie, Paris 1750), after 1.e4 e5 2.Nf3
///   d6 3.Bc4 Bg4 4.Nc3 g6 5.Nxe5 Bxd1: 6.Bxf7+ Ke7 7.Nd5# (3 plies).
/// * Réti – Tartakower, Vienna 1910, after 8...Nxe4: 9.Qd8+ Kxd8
///   10.Bg5+ (double check) Kc7 11.Bd8# or 10...Ke8 11.Rd8# (5 plies).
///
/// The others are late positions of seeded random games, proposed by
/// `find_mate_positions`; for every one the plain minimax reference
/// above (no pruning, no table) proves the distance exactly: a win in
/// that many plies and none in fewer.
const MATES: &[(&str, &str, u32)] = &[
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

/// The quiescence search of a compound-turn game follows single captures
/// only: from the start of `catapult(dagger=true)` depth 1 searched 600,622
/// nodes when it walked every double turn holding a capture (issue 29);
/// now depth 2 stays small. `qmoves` and `qdelta` bound it further, and
/// never change a proven win (Catapult's 3-ply win above).
#[test]
fn the_dagger_quiescence_search_is_bounded() {
    use engine::catapult::CatapultGame;
    use engine::spec::Spec;
    let g = CatapultGame::<u64>::from_spec(&Spec::parse("catapult(dagger=true)").unwrap()).unwrap();
    let s = g.initial_state(0);
    let mut nodes = Vec::new();
    for (qmoves, qdelta) in [(0, 0), (4, 0), (4, 100)] {
        let mut ab = AlphaBeta::new(
            AlphaBetaConfig {
                depth: 2,
                qmoves,
                qdelta,
                ..AlphaBetaConfig::default()
            },
            1,
        );
        ab.search(&s);
        assert_eq!(ab.last_depth, 2);
        nodes.push(ab.last_nodes);
    }
    assert!(nodes[0] < 200_000, "{nodes:?}");
    assert!(nodes[1] <= nodes[0] && nodes[2] <= nodes[1], "{nodes:?}");
    let g = CatapultGame::<u64>::from_spec(&Spec::parse("catapult").unwrap()).unwrap();
    let s = g.parse_position("4L3/6D1/8/8/5L2/8/8/8 L - 96").unwrap();
    for (qmoves, qdelta) in [(1, 0), (2, 50)] {
        let mut ab = AlphaBeta::new(
            AlphaBetaConfig {
                depth: 3,
                qmoves,
                qdelta,
                ..AlphaBetaConfig::default()
            },
            1,
        );
        let (_, v) = ab.search(&s);
        assert_eq!(
            v,
            agents::alphabeta::WIN - 3,
            "qmoves {qmoves} qdelta {qdelta}"
        );
    }
}

/// Nodes searched from the start of `game` to `depth` with `config`'s
/// switches, and the move chosen.
struct NodeCount {
    depth: u32,
    config: AlphaBetaConfig,
}

impl engine::GameVisitor for NodeCount {
    type Output = (u64, String);
    fn visit<G: Game>(self, game: G) -> (u64, String) {
        let s = game.initial_state(1);
        let mut ab = AlphaBeta::<G::State>::new(
            AlphaBetaConfig {
                depth: self.depth,
                ..self.config
            },
            1,
        );
        let (mv, _) = ab.search(&s);
        assert_eq!(ab.last_depth, self.depth);
        (ab.last_nodes, s.move_to_text(mv))
    }
}

/// The switches act where the game has what they need: null moves search
/// fewer nodes from the start of chess and Catapult (and of `pie(catapult)`
/// once the swap is decided), while in a game without a null move
/// (Slingshot) `null=2` searches exactly the same tree. Reductions change
/// the tree (not always to fewer nodes at a fixed depth: re-searches and
/// the table's moves differ), and `lmr=1000`, past every move list, leaves
/// it as it was.
#[test]
fn null_moves_and_reductions_prune_where_the_game_has_them() {
    let off = AlphaBetaConfig::default();
    let null = AlphaBetaConfig {
        null: 2,
        ..AlphaBetaConfig::default()
    };
    let lmr = AlphaBetaConfig {
        lmr: 2,
        ..AlphaBetaConfig::default()
    };
    let lmr_never = AlphaBetaConfig {
        lmr: 1000,
        ..AlphaBetaConfig::default()
    };
    for (game, depth) in [
        ("royal_guard(royal_powers=false)", 5),
        ("catapult", 4),
        // Not before the swap is decided: two plies in, so depth 5.
        ("pie(catapult)", 5),
    ] {
        let count = |config: &AlphaBetaConfig| {
            engine::visit_game(
                game,
                NodeCount {
                    depth,
                    config: config.clone(),
                },
            )
            .unwrap()
            .0
        };
        let (n0, n1, n2) = (count(&off), count(&null), count(&lmr));
        assert!(n1 < n0, "{game}: null {n1} >= {n0}");
        assert_ne!(n2, n0, "{game}: lmr=2 searched the same tree");
        assert_eq!(count(&lmr_never), n0, "{game}: lmr=1000");
    }
    let plain = engine::visit_game(
        "slingshot(size=7)",
        NodeCount {
            depth: 3,
            config: off,
        },
    )
    .unwrap();
    let with_null = engine::visit_game(
        "slingshot(size=7)",
        NodeCount {
            depth: 3,
            config: null,
        },
    )
    .unwrap();
    assert_eq!(plain, with_null);
}

/// A node budget stops the search as `ms` does, but in nodes: the same seed
/// gives the same move and the same count, the count stays near the budget,
/// a doubled budget completes at least the same depth, and the last complete
/// depth's move is the move of an unbounded search to that depth.
#[test]
fn a_node_budget_is_reproducible_and_bounds_the_search() {
    use engine::catapult::CatapultGame;
    use engine::spec::Spec;
    let g = CatapultGame::<u64>::from_spec(&Spec::parse("catapult").unwrap()).unwrap();
    let s = g.initial_state(0);
    let run = |nodes: u64, depth: u32| {
        let mut ab = AlphaBeta::new(
            AlphaBetaConfig {
                depth,
                nodes,
                ..AlphaBetaConfig::default()
            },
            7,
        );
        let (mv, _) = ab.search(&s);
        (s.move_to_text(mv), ab.last_nodes, ab.last_depth)
    };
    let a = run(20_000, 64);
    assert_eq!(a, run(20_000, 64), "same seed, same budget");
    // The search stops at the first node over the budget; unwinding adds a
    // node per open level at most.
    assert!(a.1 <= 20_000 + 64, "{a:?}");
    assert!((2..64).contains(&a.2), "{a:?}");
    let b = run(40_000, 64);
    assert!(b.2 >= a.2, "{a:?} {b:?}");
    // Depth-limited alone to the depth the budget completed: the same move
    // (a fresh agent with the same seed orders the root alike).
    assert_eq!(run(0, a.2).0, a.0, "{a:?}");
    let spec = agents::AgentSpec::parse("alphabeta(depth=64,nodes=40000)").unwrap();
    assert_eq!(
        spec.canonical(),
        "alphabeta(depth=64,ms=0,tt_mb=16,qdepth=8,pvs=true,aspiration=50,nodes=40000)"
    );
    assert!(agents::AgentSpec::parse("alphabeta(nodes=-1)").is_err());
}

/// Positions along seeded random games, and the search of each without a
/// table at `depth` under each setting: (root value, nodes) per position
/// and setting.
struct OrderSet {
    depth: u32,
    configs: Vec<AlphaBetaConfig>,
}

impl engine::GameVisitor for OrderSet {
    type Output = Vec<Vec<(i32, u64)>>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        use rand::{Rng, SeedableRng};
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for seed in 0..4u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut s = game.initial_state(seed);
            for ply in 0..40 {
                if s.is_terminal() {
                    break;
                }
                if ply % 8 == 7 {
                    let run = |c: &AlphaBetaConfig| {
                        let c = AlphaBetaConfig {
                            depth: self.depth,
                            tt_mb: 0,
                            ..c.clone()
                        };
                        let mut ab = AlphaBeta::<G::State>::new(c, 3);
                        let (_, v) = ab.search(&s);
                        (v, ab.last_nodes)
                    };
                    out.push(self.configs.iter().map(run).collect());
                }
                s.legal_moves(&mut moves);
                s.apply(moves[rng.random_range(0..moves.len())]);
            }
        }
        out
    }
}

/// The searches of each of `ons` and of the generic defaults (searched
/// once for all of them) at fixed depths (chess at 4, Catapult at 3) along
/// random games: checks that every position gets the same root value under
/// each and returns, per game, the node totals (generic, then each of
/// `ons`).
fn same_values_as_generic(ons: &[AlphaBetaConfig]) -> Vec<Vec<u64>> {
    let mut totals = Vec::new();
    for (game, depth) in [("royal_guard(royal_powers=false)", 4), ("catapult", 3)] {
        let configs = std::iter::once(AlphaBetaConfig::default())
            .chain(ons.iter().cloned())
            .collect();
        let positions = engine::visit_game(game, OrderSet { depth, configs }).unwrap();
        assert!(
            positions.len() >= 12,
            "{game}: {} positions",
            positions.len()
        );
        for (i, runs) in positions.iter().enumerate() {
            for (on, run) in ons.iter().zip(&runs[1..]) {
                assert_eq!(runs[0].0, run.0, "{game}: position {i}, {on:?}");
            }
        }
        totals.push(
            (0..=ons.len())
                .map(|k| positions.iter().map(|runs| runs[k].1).sum())
                .collect(),
        );
    }
    totals
}

/// The capture order (`mvv=true`: captures after the table move, the most
/// material first) changes the order, not the value: without a table,
/// whose entries would depend on the order, each position along random
/// chess and Catapult games gets the same root value at a fixed depth with
/// it as without, and the set is searched in fewer nodes.
#[test]
fn the_capture_order_keeps_the_value_in_fewer_nodes() {
    let on = AlphaBetaConfig {
        mvv: true,
        ..AlphaBetaConfig::default()
    };
    for n in same_values_as_generic(&[on]) {
        assert!(n[1] < n[0], "{} nodes with mvv, {} without", n[1], n[0]);
    }
}

/// History maluses and countermoves (`malus=true`, `countermove=true`)
/// change the order, not the value: without a table, each position along
/// random chess and Catapult games gets the same root value at a fixed
/// depth with each as without.
#[test]
fn history_maluses_and_countermoves_keep_the_value() {
    same_values_as_generic(&[
        AlphaBetaConfig {
            malus: true,
            ..AlphaBetaConfig::default()
        },
        AlphaBetaConfig {
            countermove: true,
            ..AlphaBetaConfig::default()
        },
        AlphaBetaConfig {
            malus: true,
            countermove: true,
            mvv: true,
            ..AlphaBetaConfig::default()
        },
    ]);
}

/// Alpha-beta's evaluation weights (`w_<term>`): at depth 1 without
/// quiescence its value is the best of the children's weighted
/// evaluations, computed here from the game's `evaluate_weighted`; the
/// game's defaults spelled out give the search without them.
#[test]
fn alphabeta_searches_with_the_specs_evaluation_weights() {
    use agents::AgentSpec;
    use engine::Search;
    use engine::catapult::CatapultGame;
    use engine::spec::Spec;
    use rand::SeedableRng;
    let game = CatapultGame::<u64>::from_spec(&Spec::parse("catapult").unwrap()).unwrap();
    let named = engine::registry::search_defaults("catapult")
        .unwrap()
        .eval_weights;
    let spec =
        "alphabeta(depth=1,qdepth=0,tt_mb=0,w_material=90,w_range=-7,w_progress=3,w_attack=11)";
    let config = match AgentSpec::parse_in(spec, "catapult").unwrap() {
        AgentSpec::AlphaBeta(c) => c,
        other => panic!("{other:?}"),
    };
    let w: Vec<i32> = named
        .iter()
        .map(|n| match n.name {
            "material" => 90,
            "range" => -7,
            "progress" => 3,
            _ => 11,
        })
        .collect();
    assert_eq!(config.weights, w);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let (mut s, mut buf, mut checked) = (game.initial_state(0), Vec::new(), 0);
    while s.to_move() != ToMove::Terminal && checked < 30 {
        let mut ab = AlphaBeta::new(config.clone(), 1);
        let (_, v) = ab.search(&s);
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let best = moves
            .iter()
            .map(|&m| {
                let mut c = s;
                c.apply(m);
                match c.to_move() {
                    ToMove::Terminal => agents::alphabeta::WIN - 1,
                    _ => -c.evaluate_weighted(&w),
                }
            })
            .max()
            .unwrap();
        assert_eq!(v, best, "{}", s.to_text());
        // The defaults spelled out are the game's own evaluation.
        let mut plain = AlphaBeta::new(
            AlphaBetaConfig {
                weights: Vec::new(),
                ..config.clone()
            },
            1,
        );
        let mut spelled = AlphaBeta::new(
            AlphaBetaConfig {
                weights: named.iter().map(|n| n.default).collect(),
                ..config.clone()
            },
            1,
        );
        assert_eq!(plain.search(&s), spelled.search(&s), "{}", s.to_text());
        checked += 1;
        let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
        s.apply(m);
    }
    assert_eq!(checked, 30);
}

/// Partial iterations (`partial=true`): Paul Morphy's problem, mate in 2
/// (`kbK5/pp6/1P6/8/8/8/8/R7 w`, published solution 1.Ra6! bxa6 2.b7#;
/// the plain minimax reference proves the win in 3 plies). Depth 2 does
/// not see it; a node budget that stops the depth-3 iteration after the
/// rook move was searched in full plays it with `partial`, and the
/// depth-2 move without.
#[test]
fn an_interrupted_iteration_plays_the_better_move_it_found() {
    let s = chess_position("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1");
    assert_eq!(reference_mate(&s, 3), Some(3));
    let run = |depth: u32, nodes: u64, partial: bool| {
        let mut ab = chess_agent(
            &s,
            &format!("alphabeta(depth={depth},nodes={nodes},partial={partial})"),
        );
        let (mv, _) = ab.search(&s);
        (s.move_to_text(mv), ab.last_depth)
    };
    let shallow = run(2, 0, false).0;
    assert_ne!(shallow, "a1a6", "depth 2 finds the mate: no test");
    assert_eq!(run(3, 0, false).0, "a1a6");
    for nodes in [300, 350] {
        let (off, d_off) = run(64, nodes, false);
        let (on, d_on) = run(64, nodes, true);
        assert_eq!((d_off, d_on), (2, 2), "budget {nodes}: depth 3 completed");
        assert_eq!(off, shallow, "budget {nodes}");
        assert_eq!(on, "a1a6", "budget {nodes}");
    }
    // A budget too small to finish the rook move, or any root move that
    // beats the depth-2 move, keeps that move (150 nodes: depth 2 takes
    // 87; with chess's Texel-tuned tables 180 already finish such a move,
    // b6a7).
    assert_eq!(run(64, 150, true).0, shallow);
    assert_canonical_ends("alphabeta(partial=true,rfp=6)", ",rfp=6,partial=true)");
    assert!(agents::AgentSpec::parse("alphabeta(partial=yes)").is_err());
    assert!(agents::AgentSpec::parse("alphabeta(rfp=65)").is_err());
}

/// Reverse futility at depth (`rfp=6` with `futility=100`): the mates of
/// the win-distance tests are still found at their distance; and chess,
/// with its defaults, searches fewer nodes to depth 8 after 1.e4 d5 2.Nc3
/// Nf6 3.Bb5 c6 than with futility's depth 3 alone.
#[test]
fn reverse_futility_at_depth_keeps_the_wins_and_prunes() {
    check_mates(
        &AlphaBetaConfig {
            futility: 100,
            rfp: 6,
            ..AlphaBetaConfig::default()
        },
        &[2],
    );
    let mut s = chess_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for m in ["e2e4", "d7d5", "b1c3", "g8f6", "f1b5", "c7c6"] {
        let mv = s.parse_move(m).unwrap();
        s.apply(mv);
    }
    let count = |rfp: u32| {
        let mut ab = chess_agent(&s, &format!("alphabeta(depth=8,rfp={rfp})"));
        let (_, v) = ab.search(&s);
        assert_eq!(ab.last_depth, 8);
        (ab.last_nodes, v)
    };
    let (three, six) = (count(0), count(6));
    assert_eq!(count(3), three, "rfp=3 is futility's own depth");
    assert!(six.0 < three.0, "rfp=6 {six:?}, rfp=0 {three:?}");
}

/// Two-fold repetition (`twofold=true`): White, a queen and two rooks
/// down, has a perpetual check (Qe8+ Kh7 Qh5+ Kg8 ...; the only Black
/// replies, chess's rules), so the position is a draw. With the switch
/// the search scores it 0 from depth 5 on, the first recurrence being a
/// draw; without, the same depths score White's missing material (the
/// third occurrence is deeper than they look). Both play the check.
#[test]
fn twofold_repetition_scores_a_perpetual_check_as_a_draw() {
    let s = chess_position("6k1/6p1/8/7Q/2q5/8/rr3PPP/6K1 w - - 0 1");
    let run = |depth: u32, twofold: bool| {
        let spec = format!("alphabeta(depth={depth},twofold={twofold})");
        let (mv, v) = chess_agent(&s, &spec).search(&s);
        (s.move_to_text(mv), v)
    };
    for depth in [5, 7] {
        assert_eq!(run(depth, true), ("h5e8".to_string(), 0), "depth {depth}");
        let (mv, v) = run(depth, false);
        assert_eq!(mv, "h5e8", "depth {depth}");
        assert!(v < -500, "depth {depth}: {v} without twofold");
    }
    assert_canonical_ends(
        "alphabeta(partial=true,twofold=true)",
        ",partial=true,twofold=true)",
    );
    assert!(agents::AgentSpec::parse("alphabeta(twofold=2)").is_err());
}

/// A chess position (`royal_guard(royal_powers=false)`) from its FEN.
fn chess_position(fen: &str) -> engine::royal_guard::RoyalGuardState {
    let spec = engine::spec::Spec::parse("royal_guard(royal_powers=false)").unwrap();
    engine::royal_guard::RoyalGuardGame::from_spec(&spec)
        .unwrap()
        .parse_position(fen)
        .unwrap()
}

/// Alpha-beta read from `spec` with chess's own defaults (check
/// extensions, capture order, ...), seed 1.
fn chess_agent(
    s: &engine::royal_guard::RoyalGuardState,
    spec: &str,
) -> AlphaBeta<engine::royal_guard::RoyalGuardState> {
    let chess = engine::Search::search_defaults(s);
    let spec = engine::spec::Spec::parse(spec).unwrap();
    AlphaBeta::new(AlphaBetaConfig::from_spec_with(&spec, &chess).unwrap(), 1)
}

/// The quiescence table (`qtt=true`): the capture sequences of Kiwipete
/// (the perft suite's capture-rich middlegame) reached again by another
/// order are answered from the table, so a fixed-depth search visits
/// fewer nodes; and the table changes no answer of a tactic with a known
/// one (Win at Chess 1, 3 and 4: Qg6, Rg3 and Qxh7+).
#[test]
fn quiescence_table_saves_nodes_and_keeps_the_tactics() {
    saves_nodes_and_keeps_the_tactics("qtt=true", "qtt=false");
    assert_canonical_ends("alphabeta(qtt=true)", ",qtt=true)");
    assert!(agents::AgentSpec::parse("alphabeta(qtt=yes)").is_err());
}

/// Late-move pruning (`lmp`) counts quiet moves: at a shallow non-PV
/// node the quiet moves after the first `lmp` + depth² quiet ones are
/// skipped, so Kiwipete to depth 6 takes fewer nodes with `lmp=3`, and
/// the same published tactics are still found.
#[test]
fn late_move_pruning_saves_nodes_and_keeps_the_tactics() {
    saves_nodes_and_keeps_the_tactics("lmp=3", "lmp=0");
}

/// Alpha-beta to depth 6 with the switch `on` visits fewer nodes on
/// Kiwipete than with `off`, and with either finds the known answers of
/// Win at Chess 1, 3 and 4 (Qg6, Rg3 and Qxh7+).
fn saves_nodes_and_keeps_the_tactics(on: &str, off: &str) {
    let s = chess_position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let nodes = |switch: &str| {
        let mut a = chess_agent(&s, &format!("alphabeta(depth=6,{switch})"));
        a.search(&s);
        a.last_nodes
    };
    let (with, without) = (nodes(on), nodes(off));
    eprintln!("Kiwipete, depth 6: {with} nodes with {on}, {without} with {off}");
    assert!(with < without, "{on} {with} nodes, {off} {without}");
    for (fen, best) in [
        (
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "g3g6",
        ),
        (
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
            "h6h7",
        ),
        (
            "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
            "e3g3",
        ),
    ] {
        let s = chess_position(fen);
        for switch in [off, on] {
            let (mv, _) = chess_agent(&s, &format!("alphabeta(depth=6,{switch})")).search(&s);
            assert_eq!(s.move_to_text(mv), best, "{fen} {switch}");
        }
    }
}

/// The canonical spelling of the alpha-beta spec `spec` ends with `end`.
fn assert_canonical_ends(spec: &str, end: &str) {
    let canonical = agents::AgentSpec::parse(spec).unwrap().canonical();
    assert!(canonical.ends_with(end), "{spec}: {canonical}");
}
