//! The null move of the search API (`Search::null_move`, for alpha-beta's
//! null-move pruning): the opponent to move in the same position, the key
//! changed with the side to move and given back by a second pass, checked
//! along random games and against positions written by hand with the other
//! side to move (their keys computed from scratch by the parsers).

use engine::{Game, GameVisitor, Search, State, ToMove, visit_game};
use rand::SeedableRng;

/// Along seeded random games of the game: wherever a null move is made,
/// the key changes, equals the key from scratch, the other seat is to move
/// with the same pieces, and a second null move (where allowed) gives the
/// key back. Returns how many null moves were made.
struct AlongGames;

impl GameVisitor for AlongGames {
    type Output = usize;
    fn visit<G: Game>(self, game: G) -> usize {
        let mut made = 0;
        let mut buf = Vec::new();
        for seed in 0..6u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut s = game.initial_state(seed);
            while let ToMove::Seat(me) = s.to_move() {
                let mut n = s.clone();
                if n.null_move() {
                    made += 1;
                    let what = format!("{} {}", game.game_string(), s.to_text());
                    assert!(!s.continues_turn(), "{what}: null move inside a turn");
                    assert!(!s.in_check(), "{what}: null move in check");
                    assert_ne!(n.zobrist(), s.zobrist(), "{what}");
                    assert_eq!(n.zobrist(), n.zobrist_from_scratch(), "{what}");
                    match n.to_move() {
                        ToMove::Seat(o) => assert_ne!(o, me, "{what}"),
                        other => panic!("{what}: {other:?} after a null move"),
                    }
                    if n.null_move() {
                        assert_eq!(n.to_move(), ToMove::Seat(me), "{what}");
                        assert_eq!(n.zobrist(), n.zobrist_from_scratch(), "{what}");
                        // The key comes back, bar a chess en-passant square
                        // (the FEN's fourth field), which a pass clears.
                        let ep = game.game_string().starts_with("royal_guard")
                            && s.to_text().split(' ').nth(3) != Some("-");
                        if !ep {
                            assert_eq!(n.zobrist(), s.zobrist(), "{what}: twice");
                        }
                    }
                } else {
                    assert_eq!(n.zobrist(), s.zobrist(), "refused, yet changed");
                }
                let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
                s.apply(m);
            }
        }
        made
    }
}

#[test]
fn null_moves_keep_the_key_along_random_games() {
    for (game, has) in [
        ("royal_guard(royal_powers=false)", true),
        ("royal_guard", true),
        ("catapult", true),
        ("catapult(dagger=true)", true),
        ("catapult(royal=true)", true),
        ("pie(catapult)", true),
        ("andalusia", true),
        ("kings_colour", true),
        // No null move: the default refuses.
        ("spinner", false),
        ("slingshot(size=7)", false),
    ] {
        let made = visit_game(game, AlongGames).unwrap();
        assert_eq!(made > 0, has, "{game}: {made} null moves");
    }
}

/// `before` with a null move made is `after` (a position text written by
/// hand with the other side to move), key and all; `None`: refused.
struct Passes {
    before: &'static str,
    after: Option<&'static str>,
}

impl GameVisitor for Passes {
    type Output = ();
    fn visit<G: Game>(self, game: G) {
        let s = game.parse_position(self.before).unwrap();
        let mut n = s.clone();
        let made = n.null_move();
        match self.after {
            None => {
                assert!(!made, "{}: a null move was made", self.before);
                assert_eq!(n.to_text(), s.to_text());
                assert_eq!(n.zobrist(), s.zobrist());
            }
            Some(after) => {
                assert!(made, "{}: refused", self.before);
                let want = game.parse_position(after).unwrap();
                assert_eq!(n.to_text(), want.to_text(), "{}", self.before);
                assert_eq!(n.zobrist(), want.zobrist(), "{}", self.before);
                assert_ne!(n.zobrist(), s.zobrist(), "{}", self.before);
                let mut twice = n.clone();
                assert!(twice.null_move());
                // The key comes back, bar a chess en-passant square (the
                // FEN's fourth field), which the first pass cleared.
                let ep = game.game_string().starts_with("royal_guard")
                    && self.before.split(' ').nth(3) != Some("-");
                assert_eq!(
                    twice.zobrist() == s.zobrist(),
                    !ep,
                    "{}: twice",
                    self.before
                );
                let (mut a, mut b) = (Vec::new(), Vec::new());
                n.legal_moves(&mut a);
                want.legal_moves(&mut b);
                assert_eq!(a, b, "{}", self.before);
            }
        }
    }
}

#[test]
fn null_moves_match_positions_written_with_the_other_side_to_move() {
    let rows: &[(&str, &str, Option<&str>)] = &[
        // Chess: the side flips, the clocks run on by a ply.
        (
            "royal_guard(royal_powers=false)",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3"),
        ),
        (
            "royal_guard(royal_powers=false)",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3",
            Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 3 4"),
        ),
        // The en-passant square goes with the pass.
        (
            "royal_guard(royal_powers=false)",
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
            Some("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 4"),
        ),
        // In check (the rook on h1 along the first rank; the king has
        // moves): refused.
        (
            "royal_guard(royal_powers=false)",
            "4k3/8/8/8/8/8/8/4K2r w - - 0 1",
            None,
        ),
        // After the pass Black would be stalemated (the king on a8, a7, b7
        // and b8 covered by the queen on b6): refused.
        (
            "royal_guard(royal_powers=false)",
            "k7/8/1Q6/8/8/8/8/7K w - - 0 1",
            None,
        ),
        // Black to move there is stalemated: the game is over, refused.
        (
            "royal_guard(royal_powers=false)",
            "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
            None,
        ),
        // Catapult: the other side to move, the ply on by one, the dagger
        // where it was.
        (
            "catapult",
            "7L/8/7L/8/4D3/5L2/8/8 L - 78",
            Some("7L/8/7L/8/4D3/5L2/8/8 D - 79"),
        ),
        (
            "catapult(dagger=true)",
            "7L/8/7L/8/4D3/5L2/8/8 D L 78",
            Some("7L/8/7L/8/4D3/5L2/8/8 L L 79"),
        ),
        // Andalusia: the other side to move, the move count on by one ply
        // (the position text's fields: rows, side, quiet plies, ply).
        (
            "andalusia",
            "2k4c1/2s1s1s2/s2S2s1s/4s4/5Cc1S/3c2S2/4C4/SS3K1S1/3C5 b 1 99",
            Some("2k4c1/2s1s1s2/s2S2s1s/4s4/5Cc1S/3c2S2/4C4/SS3K1S1/3C5 w 2 100"),
        ),
    ];
    for &(game, before, after) in rows {
        visit_game(game, Passes { before, after }).unwrap();
    }
}

/// `Search::gives_check` answers as `in_check` after `apply` does, for
/// every legal move along seeded random games (chess and Royal Guard make
/// the move on a copy of the board without the end test; the other games
/// take the default). Returns how many moves gave check.
struct ChecksAlongGames;

impl GameVisitor for ChecksAlongGames {
    type Output = usize;
    fn visit<G: Game>(self, game: G) -> usize {
        let (mut checks, mut buf) = (0, Vec::new());
        for seed in 0..4u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut s = game.initial_state(seed);
            while let ToMove::Seat(_) = s.to_move() {
                s.legal_moves(&mut buf);
                for &m in &buf {
                    let mut child = s.clone();
                    child.apply(m);
                    assert_eq!(s.gives_check(m), child.in_check(), "{}", s.to_text());
                    checks += usize::from(child.in_check());
                }
                let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
                s.apply(m);
            }
        }
        checks
    }
}

#[test]
fn gives_check_matches_check_after_the_move() {
    for (game, has) in [
        ("royal_guard(royal_powers=false)", true),
        ("royal_guard", true),
        ("catapult", false),
    ] {
        let checks = visit_game(game, ChecksAlongGames).unwrap();
        assert_eq!(checks > 0, has, "{game}: {checks} checks");
    }
}

/// `Search::repeated` in chess: the start position after 1.Nf3 Nf6 2.Ng1
/// Ng8 has occurred before (FIDE 9.2's same position: same side to move,
/// castling rights, no en passant); one knight move later it has not, nor
/// after a pawn move; games without a repetition history answer false.
#[test]
fn repeated_is_a_second_occurrence() {
    let g = engine::royal_guard::RoyalGuardGame::from_spec(
        &engine::spec::Spec::parse("royal_guard(royal_powers=false)").unwrap(),
    )
    .unwrap();
    let mut s = g.initial_state(0);
    assert!(!s.repeated());
    for (i, m) in ["g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "e7e5"]
        .iter()
        .enumerate()
    {
        s.apply(s.parse_move(m).unwrap());
        assert_eq!(s.repeated(), i == 3, "after {m}");
    }
    let spinner = visit_game("spinner", RepeatedNever).unwrap();
    assert!(!spinner);
}

struct RepeatedNever;

impl GameVisitor for RepeatedNever {
    type Output = bool;
    fn visit<G: Game>(self, game: G) -> bool {
        game.initial_state(0).repeated()
    }
}
