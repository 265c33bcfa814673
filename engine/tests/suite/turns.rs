//! The turn convention (`engine::api` module docs): `continues_turn` marks
//! the plies inside a compound turn, and `perft_turns` counts whole turns.
//! Expected values come from the dossiers.

use engine::{GameVisitor, State, perft, perft_turns, visit_game};

struct Perfts(u32);
impl GameVisitor for Perfts {
    type Output = (u64, u64);
    fn visit<G: engine::Game>(self, game: G) -> (u64, u64) {
        let s = game.initial_state(0);
        assert!(!s.continues_turn(), "no turn is under way at the start");
        (perft(&s, self.0), perft_turns(&s, self.0))
    }
}

#[test]
fn spinner_first_turns_are_the_placement_subsets() {
    // docs/rules/spinner.md B.5: at the opening a spin of 1, 2 or 3 gives 60, 1,770 and
    // 34,220 placement sets (S cannot switch, K6), so one turn has
    // 60 + 1,770 + 34,220 = 36,050 leaves.
    let (_, turns) = visit_game("spinner", Perfts(1)).unwrap();
    assert_eq!(turns, 60 + 1_770 + 34_220);
}

#[test]
fn sniggle_continuations_are_plies_not_turns() {
    // docs/rules/sniggle.md §4.3: X has 9 first moves, all stopping on column D; Y's every
    // first move lands on D (1 X piece, odd) and continues to E (N-3).
    let (plies1, turns1) = visit_game("sniggle", Perfts(1)).unwrap();
    assert_eq!((plies1, turns1), (9, 9));
    let (_, turns2) = visit_game("sniggle", Perfts(2)).unwrap();
    assert_eq!(turns2, 81);
}

#[test]
fn one_move_turns_count_the_same_both_ways() {
    for g in ["catapult", "slingshot(size=7)", "bagel"] {
        let (p, t) = visit_game(g, Perfts(2)).unwrap();
        assert_eq!(p, t, "{g}");
    }
}
