//! Every searcher on positions whose best move is known by hand: Nim, a
//! Slingshot position with an immediate win, and the same move for the
//! same seed.

use agents::{AgentSpec, AlphaBeta, AlphaBetaConfig, Mcts, MctsConfig, Uct, UctConfig};
use engine::slingshot::SlingshotGame;
use engine::{Game, State, parse_legal_move};

use crate::common::{Nim, slingshot};

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
