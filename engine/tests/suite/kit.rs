//! Every game variant through the generic consistency kit
//! (`engine::testkit::check_playouts`): seeded random playouts checking the
//! State API's invariants at every position (legal moves, counts, move text,
//! sampling, chance, Zobrist keys, position text, symmetries, terminal
//! states, returns) and that games end within the bound given here.
//!
//! Each row: game string, games, the longest game allowed in plies (with
//! its source), and a minimum number of positions seen.

use crate::common::kit;

fn run(rows: &[(&str, usize, u32)], seed: u64, min_positions_per_game: usize) {
    for (i, &(g, games, max_plies)) in rows.iter().enumerate() {
        let r = kit(g, games, seed + i as u64, max_plies);
        assert_eq!(r.games, games, "{g}");
        assert!(r.positions > games * min_positions_per_game, "{g}: {r:?}");
    }
}

#[test]
fn catapult_variants() {
    // docs/rules/catapult.md §1.10: at most 1,186 turns on 8×8, 1,302 in Royal 8×8,
    // 1,806 on 9×9; the Dagger only shortens games.
    run(
        &[
            ("catapult", 100, 1_186),
            ("catapult(size=9)", 60, 1_806),
            ("catapult(royal=true)", 100, 1_302),
            ("catapult(size=9,royal=true)", 60, 1_806),
            ("catapult(dagger=true)", 30, 1_186),
            (
                "catapult(dagger=true,dagger_move_then_pass=false)",
                20,
                1_186,
            ),
            ("catapult(size=9,dagger=true)", 10, 1_806),
            ("catapult(royal=true,dagger=true)", 20, 1_302),
        ],
        0xCA7A,
        10,
    );
}

#[test]
fn royal_guard_variants() {
    // The fifty-move rule and repetition end every game; 13,000 plies is far
    // beyond what they allow.
    run(
        &[
            ("royal_guard", 60, 13_000),
            ("royal_guard(royal_powers=false)", 60, 13_000),
            ("royal_guard(repetition=2,dead=fide)", 20, 13_000),
            (
                "royal_guard(royal_powers=false,dead=off,repetition=off)",
                20,
                13_000,
            ),
        ],
        0x0526,
        20,
    );
}

#[test]
fn kings_colour_variants() {
    // KC-14, ruling KC-R6: the ply cap (400 by default) ends every game.
    run(
        &[
            ("kings_colour", 60, 400),
            ("kings_colour(capture=wide)", 20, 400),
            ("kings_colour(king_captures=false)", 10, 400),
            ("kings_colour(stalemate=loss)", 10, 400),
            ("kings_colour(repetition=off,ply_cap=150)", 10, 150),
            ("kings_colour(repetition=2)", 10, 400),
        ],
        100,
        5,
    );
}

#[test]
fn slingshot_variants() {
    // docs/rules/slingshot.md D5: at most (n²−3)/2 custodial moves, then one stack per
    // singleton and two passes; 300 plies is far above that on 9×9.
    run(
        &[
            ("slingshot(size=7)", 60, 300),
            ("slingshot(size=9)", 60, 300),
            ("slingshot(size=7,supply=12)", 60, 300),
            ("slingshot(size=9,corners=neutral)", 60, 300),
            ("slingshot(size=7,stuck=lose,supply=10)", 60, 300),
            ("slingshot(size=9,supply=unlimited)", 60, 300),
        ],
        0,
        10,
    );
}

#[test]
fn andalusia_variants() {
    // Ruling A-R3 iii: the ply cap (600 by default) ends every game.
    run(
        &[
            ("andalusia", 40, 600),
            (
                "andalusia(stalemate=draw,repetitions=2,quiet_plies=20)",
                40,
                600,
            ),
        ],
        0xA4DA,
        10,
    );
}

#[test]
fn sniggle_variants() {
    // Every step moves a piece right: at most 9 pieces × 9 columns × 4 seats
    // steps (continuations included), plus passes.
    run(
        &[
            ("sniggle", 40, 2_000),
            ("sniggle(players=3)", 40, 2_000),
            ("sniggle(players=4)", 40, 2_000),
            ("sniggle(players=4,teams=true)", 40, 2_000),
            ("sniggle(players=4,teams=true,triangles=true)", 40, 2_000),
            ("sniggle(triangles=true,triangle_at=ACB)", 40, 2_000),
        ],
        0,
        10,
    );
}

#[test]
fn spinner_variants() {
    // Placements fill at most n² squares; switch turns add 2 plies each and
    // come a quarter of the time: 2,000 plies is far above any game.
    for (i, g) in [
        "spinner",
        "spinner(goals=crossed)",
        "spinner(size=7)",
        "spinner(size=11,stars=none)",
    ]
    .iter()
    .enumerate()
    {
        let r = kit(g, 60, i as u64, 2_000);
        assert_eq!(r.games, 60, "{g}");
        assert!(r.chance_nodes > 60 * 10, "{g}: {r:?}");
    }
}

#[test]
fn pie_games() {
    for g in ["pie(catapult)", "pie(spinner)", "pie(slingshot(size=7))"] {
        assert_eq!(kit(g, 20, 7, 2_000).games, 20, "{g}");
    }
}

/// `Research::illegal_reason` agrees with the legal moves in every game
/// (the default's generic reason and each game's own): `None` for each
/// legal move, a reason (never a panic) for moves that are not, along
/// random playouts of every game and of `pie(catapult)`.
#[test]
fn illegal_reasons_agree_with_the_legal_moves() {
    use engine::{Game, GameVisitor, Research, State, ToMove, visit_game};
    use rand::{Rng, SeedableRng};
    struct Walk;
    impl GameVisitor for Walk {
        type Output = usize;
        fn visit<G: Game>(self, game: G) -> usize {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
            let mut s = game.initial_state(1);
            let (mut moves, mut outs, mut reasons) = (Vec::new(), Vec::new(), 0);
            for _ in 0..40 {
                match s.to_move() {
                    ToMove::Terminal => break,
                    ToMove::Chance => {
                        s.chance_outcomes(&mut outs);
                        let m = outs[rng.random_range(0..outs.len())].0;
                        assert_eq!(s.illegal_reason(&s.move_to_text(m)), None);
                        s.apply(m);
                    }
                    ToMove::Seat(_) => {
                        s.legal_moves(&mut moves);
                        let texts: Vec<String> = moves.iter().map(|&m| s.move_to_text(m)).collect();
                        for t in texts.iter().take(6) {
                            assert_eq!(s.illegal_reason(t), None, "{t} in {}", s.to_text());
                        }
                        // Reversed legal moves and junk are mostly illegal.
                        for t in texts
                            .iter()
                            .take(6)
                            .map(|t| t.chars().rev().collect::<String>())
                            .chain(["a1-a2".into(), "zz".into(), String::new()])
                        {
                            let legal = engine::parse_legal_move(&s, &t).is_ok();
                            let why = s.illegal_reason(&t);
                            assert_eq!(why.is_none(), legal, "{t:?} in {}: {why:?}", s.to_text());
                            reasons += usize::from(why.is_some());
                        }
                        s.apply(moves[rng.random_range(0..moves.len())]);
                    }
                }
            }
            reasons
        }
    }
    for info in engine::registry::GAMES {
        assert!(visit_game(info.name, Walk).unwrap() > 0, "{}", info.name);
    }
    assert!(visit_game("pie(catapult(dagger=true))", Walk).unwrap() > 0);
}
