//! Catapult through the generic consistency kit (`engine::testkit`): every
//! variant (8×8 on `u64`, 9×9 on `u128`, Royal, Dagger, their combinations,
//! C-D5 off), built from its game string by the registry.

use engine::registry::visit_game;
use engine::testkit::{KitReport, check_playouts};
use engine::{Game, GameVisitor};

struct Kit {
    games: usize,
    seed: u64,
    max_plies: u32,
}

impl GameVisitor for Kit {
    type Output = Result<KitReport, String>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        check_playouts(&game, self.games, self.seed, self.max_plies)
    }
}

#[test]
fn catapult_variants_pass_the_kit() {
    // §1.10: at most 1,186 turns on 8×8, 1,302 in Royal 8×8, 1,806 on 9×9;
    // the Dagger only shortens games.
    for (i, (g, games, max_plies)) in [
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
    ]
    .into_iter()
    .enumerate()
    {
        let r = visit_game(
            g,
            Kit {
                games,
                seed: 0xCA7A + i as u64,
                max_plies,
            },
        )
        .unwrap()
        .unwrap_or_else(|e| panic!("{g}: {e}"));
        assert_eq!(r.games, games, "{g}");
        assert!(r.positions > games * 10, "{g}: {r:?}");
    }
}
