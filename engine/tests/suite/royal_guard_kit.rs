//! Royal Guard through the generic consistency kit (`engine::testkit`):
//! move lists vs counts, move text round trips, the incremental Zobrist key
//! against the recomputed one, FEN round trips, terminal states; powers on
//! and off, and with the end rules switched.

use engine::registry::visit_game;
use engine::testkit::{KitReport, check_playouts};
use engine::{Game, GameVisitor};

struct Kit {
    games: usize,
    seed: u64,
}

impl GameVisitor for Kit {
    type Output = Result<KitReport, String>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        // The fifty-move rule bounds a game: 100 plies per capture or pawn
        // move (at most 30 + 96 of them) plus 100.
        check_playouts(&game, self.games, self.seed, 13_000)
    }
}

#[test]
fn royal_guard_variants_pass_the_kit() {
    for (i, (g, games)) in [
        ("royal_guard", 60),
        ("royal_guard(royal_powers=false)", 60),
        ("royal_guard(repetition=2,dead=fide)", 20),
        (
            "royal_guard(royal_powers=false,dead=off,repetition=off)",
            20,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let r = visit_game(
            g,
            Kit {
                games,
                seed: 0x0526 + i as u64,
            },
        )
        .unwrap()
        .unwrap_or_else(|e| panic!("{g}: {e}"));
        assert_eq!(r.games, games, "{g}");
        assert!(r.positions > games * 20, "{g}: {r:?}");
    }
}
