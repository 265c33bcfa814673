//! Slingshot through the generic consistency kit (`engine::testkit`), on
//! both sizes and every ruling option.

use engine::registry::visit_game;
use engine::testkit::check_playouts;
use engine::{Game, GameVisitor};

struct Kit(u64);

impl GameVisitor for Kit {
    type Output = Result<engine::testkit::KitReport, String>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        // D5: at most (n²−3)/2 custodial moves, then one stack per singleton
        // and two passes; 300 plies is far above that on 9×9.
        check_playouts(&game, 60, self.0, 300)
    }
}

#[test]
fn slingshot_variants_pass_the_kit() {
    for (i, g) in [
        "slingshot(size=7)",
        "slingshot(size=9)",
        "slingshot(size=7,supply=12)",
        "slingshot(size=9,corners=neutral)",
        "slingshot(size=7,stuck=lose,supply=10)",
        "slingshot(size=9,supply=unlimited)",
    ]
    .iter()
    .enumerate()
    {
        let r = visit_game(g, Kit(i as u64))
            .unwrap()
            .unwrap_or_else(|e| panic!("{g}: {e}"));
        assert_eq!(r.games, 60, "{g}");
        assert!(r.positions > 60 * 10, "{g}: {r:?}");
    }
}
