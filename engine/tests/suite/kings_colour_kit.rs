//! King's Colour through the generic consistency kit (`engine::testkit`):
//! move text and position text round-trips, incremental vs recomputed
//! Zobrist keys, counts, sampling and the end of the game, for every ruling
//! option, built from game strings by the registry. Plus transpositions.

use engine::kings_colour::KingsColour;
use engine::registry::visit_game;
use engine::testkit::{KitReport, check_playouts};
use engine::{Game, GameVisitor, State, apply_moves};

struct Kit {
    games: usize,
    seed: u64,
}

impl GameVisitor for Kit {
    type Output = Result<KitReport, String>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        check_playouts(&game, self.games, self.seed, 400)
    }
}

#[test]
fn kings_colour_variants_pass_the_kit() {
    for (i, (g, games)) in [
        ("kings_colour", 60),
        ("kings_colour(capture=wide)", 20),
        ("kings_colour(king_captures=false)", 10),
        ("kings_colour(stalemate=loss)", 10),
        ("kings_colour(repetition=off,ply_cap=150)", 10),
        ("kings_colour(repetition=2)", 10),
    ]
    .into_iter()
    .enumerate()
    {
        let r = visit_game(
            g,
            Kit {
                games,
                seed: 100 + i as u64,
            },
        )
        .unwrap()
        .unwrap_or_else(|e| panic!("{g}: {e}"));
        assert_eq!(r.games, games, "{g}");
        assert!(r.max_plies <= 400, "{g}");
    }
}

#[test]
fn transpositions_share_a_zobrist_key() {
    let g = KingsColour::default();
    let mut a = g.initial_state(0);
    let mut b = g.initial_state(0);
    apply_moves(&mut a, "C5-B5 K5-L4 E3-F3 I9-H10").unwrap();
    apply_moves(&mut b, "E3-F3 I9-H10 C5-B5 K5-L4").unwrap();
    assert_eq!(a.to_text(), b.to_text());
    assert_eq!(a.zobrist(), b.zobrist());
    assert_eq!(a.zobrist(), a.zobrist_from_scratch());
    // The side to move is part of the key.
    let t = a.to_text().replace(" w ", " b ");
    let c = g.parse_position(&t).unwrap();
    assert_ne!(c.zobrist(), a.zobrist());
}
