//! Every game variant through the learning interface's kit
//! (`engine::testkit::check_learning`): distinct, in-range, prefix-free
//! action ids for every move; the legal ids (the mask) equal to the legal
//! list; ids round-trip to moves; the observation of the declared shape,
//! fully written, along seeded random playouts.

use engine::testkit::check_learning;
use engine::{Game, GameVisitor, visit_game};

struct Check(usize, u64);

impl GameVisitor for Check {
    type Output = Result<usize, String>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        check_learning(&game, self.0, self.1, 200)
    }
}

#[test]
fn every_game_has_fixed_shapes() {
    let rows = [
        "slingshot",
        "slingshot(size=7)",
        "catapult",
        "catapult(size=9)",
        "catapult(royal=true)",
        "catapult(dagger=true)",
        "catapult(dagger=true,dagger_move_then_pass=false)",
        "sniggle",
        "sniggle(players=4,teams=true)",
        "sly_solitaire",
        "sly_solitaire(layout=random)",
        "spinner",
        "spinner(size=11)",
        "bagel",
        "bagel(base=5)",
        "royal_guard",
        "royal_guard(royal_powers=false)",
        "andalusia",
        "kings_colour",
        "empire",
        "empire(players=4)",
        "gateway",
        "gateway(players=3)",
        "line_up",
        "blockade",
        "pie(catapult)",
        "pie(slingshot(size=7))",
    ];
    for (i, g) in rows.iter().enumerate() {
        let n = visit_game(g, Check(3, 0x1EA2 + i as u64))
            .unwrap_or_else(|e| panic!("{g}: {e}"))
            .unwrap_or_else(|e| panic!("{g}: {e}"));
        assert!(n >= 3, "{g}: {n} positions");
    }
}
