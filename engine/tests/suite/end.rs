//! End reasons (`Research::end_reason`): every game names why it ended in
//! its own terms. The generic kit already checks that terminal states, and
//! only they, give a reason; here each game's reasons are checked against
//! the words its dossier uses, over seeded random games, and on hand-played
//! endings.

use std::collections::BTreeSet;

use engine::{Game, GameVisitor, Research, State, ToMove, visit_game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{play, pos};

struct Reasons(usize, u64);

impl GameVisitor for Reasons {
    type Output = BTreeSet<&'static str>;
    fn visit<G: Game>(self, game: G) -> BTreeSet<&'static str> {
        let mut rng = ChaCha8Rng::seed_from_u64(self.1);
        let mut seen = BTreeSet::new();
        let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
        for _ in 0..self.0 {
            let mut s = game.initial_state(rng.random());
            loop {
                let mv = match s.to_move() {
                    ToMove::Terminal => break,
                    ToMove::Chance => s.sample_chance(&mut rng, &mut outcomes).unwrap(),
                    ToMove::Seat(_) => {
                        s.legal_moves(&mut moves);
                        moves[rng.random_range(0..moves.len())]
                    }
                };
                s.apply(mv);
            }
            seen.insert(s.end_reason().expect("a terminal state has a reason"));
        }
        seen
    }
}

/// The reasons seen in `games` random games of `game`.
fn reasons(game: &str, games: usize) -> BTreeSet<&'static str> {
    visit_game(game, Reasons(games, 0xE4D)).unwrap()
}

fn words(w: &[&'static str]) -> BTreeSet<&'static str> {
    w.iter().copied().collect()
}

#[test]
fn random_games_end_for_the_dossiers_reasons() {
    // (game, games, reasons that must all appear, reasons allowed).
    let rows: &[(&str, usize, &[&str], &[&str])] = &[
        // docs/rules/slingshot.md: a connection wins; stuck_loses; two passes draw.
        (
            "slingshot",
            200,
            &["connection"],
            &["connection", "stuck", "two passes"],
        ),
        (
            "catapult",
            100,
            &["annihilation"],
            &["annihilation", "ply cap"],
        ),
        (
            "catapult(royal=true)",
            100,
            &["regicide"],
            &["regicide", "ply cap"],
        ),
        // docs/rules/bagel.md B-11..B-13: by score, by the run tie-break, Black on a full tie.
        (
            "bagel",
            300,
            &["score"],
            &["score", "run tie-break", "full tie"],
        ),
        (
            "royal_guard(royal_powers=false)",
            60,
            &["checkmate", "dead position"],
            &[
                "checkmate",
                "stalemate",
                "repetition",
                "fifty-move rule",
                "dead position",
            ],
        ),
        (
            "andalusia",
            60,
            &[],
            &[
                "checkmate",
                "stalemate",
                "repetition",
                "quiet-move rule",
                "ply cap",
            ],
        ),
        (
            "kings_colour",
            40,
            &[],
            &["checkmate", "stalemate", "repetition", "ply cap"],
        ),
        ("sniggle", 100, &["all home"], &["all home", "blocked"]),
        (
            "spinner",
            100,
            &["connection"],
            &["connection", "board full"],
        ),
        (
            "pie(catapult)",
            50,
            &["annihilation"],
            &["annihilation", "ply cap"],
        ),
    ];
    for &(game, n, must, allowed) in rows {
        let seen = reasons(game, n);
        assert!(seen.is_subset(&words(allowed)), "{game}: {seen:?}");
        assert!(words(must).is_subset(&seen), "{game}: {seen:?}");
    }
}

#[test]
fn hand_played_endings() {
    // Fool's mate (FIDE rules with the powers off).
    let g = engine::royal_guard::RoyalGuardGame::from_spec(
        &engine::spec::Spec::parse("royal_guard(royal_powers=false)").unwrap(),
    )
    .unwrap();
    let mut s = g.initial_state(0);
    play(&mut s, "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(s.end_reason(), Some("checkmate"));
    // Stalemate: Black's king on a8, White's queen b6 covers a7, b7, b8.
    let s = pos(&g, "k7/8/1Q6/8/8/8/8/2K5 b - - 0 1");
    assert_eq!(s.end_reason(), Some("stalemate"));
    // Bare kings: a dead position under the default `dead=kk`.
    let s = pos(&g, "k7/8/8/8/8/8/8/2K5 w - - 0 1");
    assert_eq!(s.end_reason(), Some("dead position"));
    assert_eq!(pos(&g, "k7/8/8/8/8/8/8/1QK5 w - - 0 1").end_reason(), None);
}
