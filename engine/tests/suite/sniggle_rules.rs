//! Sniggle: the dossier's test vectors, hand-derived rule checks, bad
//! input. The reference generator's diff is in `sniggle_reference`.
//!
//! Rules: `docs/rules/sniggle.md` §4 (Sniggle, rule
//! numbers N-1…N-9, N-SET-1…N-SET-4, vectors §4.3). Every expected value
//! comes from the dossier or is derived by hand from its numbered rules in
//! the comments next to it; none is engine output pasted back.

use std::collections::BTreeSet;

use crate::common::{legal, play, pos, set_of};
use engine::Research;
use engine::board::Bits;
use engine::sniggle::{SniggleGame, SniggleState};
use engine::spec::Spec;
use engine::{Game, GameVisitor, State, ToMove, parse_legal_move, visit_game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

pub fn game(spec: &str) -> SniggleGame {
    SniggleGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// The seat to move, asserting the game is not over.
fn seat(s: &SniggleState) -> usize {
    match s.to_move() {
        ToMove::Seat(k) => k,
        t => panic!("expected a seat to move, got {t:?} in {}", s.to_text()),
    }
}

/// Square index `(row - 1) * 12 + column`, computed here from the name.
fn sq(name: &str) -> u32 {
    let (row, col) = name.split_at(name.len() - 1);
    (row.parse::<u32>().unwrap() - 1) * 12 + (col.as_bytes()[0] - b'A') as u32
}

// ---------------------------------------------------------------------------
// §4.3 test vectors
// ---------------------------------------------------------------------------

/// §4.3 "Opening": X has 9 first moves, all landing on column D (C→D,
/// B jumps C, A jumps B and C); column D then holds 0 Y pieces, so X stops.
/// Any Y piece moving into column D finds 1 X piece there (odd, N-3) and
/// steps on to E, which holds 0 X pieces: "C to D, then to E".
#[test]
fn vector_opening() {
    let g = game("sniggle");
    let s = g.initial_state(0);
    assert_eq!(
        s.to_text(),
        "12/12/12/XxX9/XxX9/XxX9/YyY9/YyY9/YyY9/12/12/12 X - 0",
        "N-SET-2/3/4: X rows 4-6, Y rows 7-9, triangles on B"
    );
    let xs = legal(&s);
    let want: BTreeSet<String> = ["4", "5", "6"]
        .iter()
        .flat_map(|r| ["A", "B", "C"].map(|c| format!("{r}{c}-{r}D")))
        .collect();
    assert_eq!(xs, want);
    for xm in &xs {
        let mut a = s;
        play(&mut a, xm);
        assert_eq!(seat(&a), 1, "X stops on D after {xm}");
        assert_eq!(a.continuing(), None);
        let ys = legal(&a);
        assert_eq!(ys.len(), 9);
        for ym in &ys {
            assert!(ym.ends_with('D'), "{ym}");
            let mut b = a;
            play(&mut b, ym);
            // Mid-turn: Y must step again with the same piece, and that is
            // the only legal move.
            let row = &ym[..1];
            assert_eq!(seat(&b), 1);
            assert_eq!(b.continuing(), Some(sq(&format!("{row}D"))));
            assert_eq!(legal(&b), set_of(&[&format!("{row}D-{row}E")]));
            assert!(
                b.to_text().ends_with(&format!(" Y {row}D 2")),
                "{}",
                b.to_text()
            );
            play(&mut b, &format!("{row}D-{row}E"));
            assert_eq!(seat(&b), 0, "Y stops on E (0 X pieces)");
            assert_eq!(b.continuing(), None);
        }
    }
}

/// The §4.3 chain position: X on 4D 5D 6D 4E 5E 6E 4F 5G 6G, Y on 7A 7B
/// 7D 8A 8B 8D 9A 9B 9C (one triangle per track, placed arbitrarily:
/// shapes do not matter in basic play).
const CHAIN: &str = "12/12/12/3xXX6/3xX1X5/3xX1X5/yY1Y8/yY1Y8/yYY9/12/12/12 Y - 0";

/// §4.3 "Chain": Y moves 7D → 7E (column E: 3 X, odd) → 7F (1 X, odd) →
/// 7G (2 X, even) and stops.
#[test]
fn vector_chain() {
    let g = game("sniggle");
    let mut s = pos(&g, CHAIN);
    assert!(legal(&s).contains("7D-7E"));
    play(&mut s, "7D-7E");
    assert_eq!((seat(&s), s.continuing()), (1, Some(sq("7E"))));
    assert_eq!(legal(&s), set_of(&["7E-7F"]));
    play(&mut s, "7E-7F");
    assert_eq!((seat(&s), s.continuing()), (1, Some(sq("7F"))));
    assert_eq!(legal(&s), set_of(&["7F-7G"]));
    play(&mut s, "7F-7G");
    assert_eq!(
        (seat(&s), s.continuing()),
        (0, None),
        "2 X in column G: stop"
    );
    assert_eq!(
        s.to_text(),
        "12/12/12/3xXX6/3xX1X5/3xX1X5/yY4Y5/yY1Y8/yYY9/12/12/12 X - 3"
    );
}

/// §4.3 "Gap stop": as the chain, but Y's 8D is on 8C. Y moves 7D → 7E →
/// 7F; the continuation to 7G would empty Y's field D–F while A–C and G–I
/// hold Y pieces (N-4), so the piece stops on 7F and the turn ends.
#[test]
fn vector_gap_stop() {
    let g = game("sniggle");
    let mut s = pos(
        &g,
        "12/12/12/3xXX6/3xX1X5/3xX1X5/yY1Y8/yYY9/yYY9/12/12/12 Y - 0",
    );
    play(&mut s, "7D-7E");
    assert_eq!(s.continuing(), Some(sq("7E")));
    play(&mut s, "7E-7F");
    assert_eq!((seat(&s), s.continuing()), (0, None), "stops on 7F");
    assert!(s.pieces(1).iter().any(|b| b == sq("7F")));
}

// ---------------------------------------------------------------------------
// Hand-derived rule checks
// ---------------------------------------------------------------------------

/// N-4 on a first step: Y on 7A 7B 7F / 8A 8B 8C / 9A 9B 9G occupies fields
/// A–C, D–F (7F alone) and G–I. 7F→7G would leave D–F empty between them:
/// illegal. Every other piece can step (7A jumps 7B to 7C; 8A, 8B, 8C land
/// on 8D; 9A jumps 9B to 9C; 9G to 9H): 8 moves.
#[test]
fn gap_rule_forbids_a_first_step() {
    let g = game("sniggle");
    let s = pos(
        &g,
        "12/12/12/XxX9/XxX9/XxX9/yY3Y6/yYY9/yY4Y5/12/12/12 Y - 0",
    );
    assert_eq!(
        legal(&s),
        set_of(&[
            "7A-7C", "7B-7C", "8A-8D", "8B-8D", "8C-8D", "9A-9C", "9B-9C", "9G-9H"
        ])
    );
}

/// N-2 / QN4: X has 3 pieces in column J (4J 5J 6J). Y's 7I lands on 7J
/// (odd count) but 7K and 7L are Y's: the run reaches column L, so the
/// piece cannot step and the turn ends. Y's 8I lands on 8J (odd), steps on
/// to 8K (8K empty; Y's fields stay G–I and J–L), where column K holds 2 X
/// pieces (4K 5K): stop.
#[test]
fn blocked_continuation_ends_the_turn() {
    let g = game("sniggle");
    let p = "12/12/12/9XxX/9XxX/7XxX2/8y1YY/6YyY3/6YyY3/12/12/12 Y - 0";
    let mut s = pos(&g, p);
    play(&mut s, "7I-7J");
    assert_eq!((seat(&s), s.continuing()), (0, None));
    let mut s = pos(&g, p);
    play(&mut s, "8I-8J");
    assert_eq!(legal(&s), set_of(&["8J-8K"]));
    play(&mut s, "8J-8K");
    assert_eq!((seat(&s), s.continuing()), (0, None));
}

/// N-6: with three players the count is over all opponents. Bands 1–3
/// (X rows 1–3, Y 4–6, Z 7–9).
/// * X 1C-1D: column D holds no opponent piece: stop.
/// * Y 4C-4D: column D holds X's 1D (1, odd) → 4E: 0 → stop.
/// * Z 7C-7D: column D holds X's 1D (1) → 7E: Y's 4E (1) → 7F: 0 → stop.
/// * X 1D-1E: column E holds Y's 4E (1) → 1F: Z's 7F (1), but 1F→1G would
///   leave X's field D–F empty between A–C and G–I (N-4): stop on 1F.
#[test]
fn three_players_count_all_opponents() {
    let g = game("sniggle(players=3)");
    let mut s = g.initial_state(0);
    assert_eq!(
        s.to_text(),
        "XxX9/XxX9/XxX9/YyY9/YyY9/YyY9/ZzZ9/ZzZ9/ZzZ9/12/12/12 X - 0"
    );
    for (mv, seat_after, cont) in [
        ("1C-1D", 1, None),
        ("4C-4D", 1, Some("4D")),
        ("4D-4E", 2, None),
        ("7C-7D", 2, Some("7D")),
        ("7D-7E", 2, Some("7E")),
        ("7E-7F", 0, None),
        ("1D-1E", 0, Some("1E")),
        ("1E-1F", 1, None),
    ] {
        play(&mut s, mv);
        assert_eq!(seat(&s), seat_after, "after {mv}");
        assert_eq!(s.continuing(), cont.map(sq), "after {mv}");
    }
}

/// N-7 and ruling QN3: in teams (X+Z against Y+W) the partner's pieces do
/// not count. The same opening in three variants:
/// * X 1C-1D (stop), Y 4C-4D (X's 1D is an opponent: 1 → 4E, stop).
/// * Z 7C-7D: teams: opponents Y and W have nothing in column D (Y's piece
///   moved on to E): 0 → stop. Alone, or with `partner_pieces=counted`:
///   X's 1D counts (1) → 7E: Y's 4E (1) → 7F: 0 → stop.
/// * W 10C-10D, teams: X's 1D and Z's 7D are opponents: 2 → stop. Each for
///   himself: X's 1D (1) → 10E: Y's 4E (1) → 10F: Z's 7F (1), but 10F→10G
///   would leave W's field D–F empty (N-4): stop on 10F.
#[test]
fn four_players_alone_and_in_teams() {
    let teams = game("sniggle(players=4,teams=true)");
    let mut s = teams.initial_state(0);
    for (mv, seat_after) in [
        ("1C-1D", 1),
        ("4C-4D", 1),
        ("4D-4E", 2),
        ("7C-7D", 3),
        ("10C-10D", 0),
    ] {
        play(&mut s, mv);
        assert_eq!(seat(&s), seat_after, "teams, after {mv}");
    }
    for spec in [
        "sniggle(players=4)",
        "sniggle(players=4,teams=true,partner_pieces=counted)",
    ] {
        let g = game(spec);
        let mut s = g.initial_state(0);
        for mv in ["1C-1D", "4C-4D", "4D-4E", "7C-7D", "7D-7E", "7E-7F"] {
            play(&mut s, mv);
        }
        assert_eq!(seat(&s), 3, "{spec}");
        if spec == "sniggle(players=4)" {
            for (mv, seat_after) in [("10C-10D", 3), ("10D-10E", 3), ("10E-10F", 0)] {
                play(&mut s, mv);
                assert_eq!(seat(&s), seat_after, "{spec}: after {mv}");
            }
        }
    }
}

/// N-5: X's last piece enters the goal field (6I→6J, column J holds 0 Y
/// pieces): X wins; returns +1 / −1.
#[test]
fn win_two_players() {
    let g = game("sniggle");
    let mut s = pos(
        &g,
        "12/12/12/9XxX/9XxX/8X1xX/YyY9/YyY9/YyY9/12/12/12 X - 40",
    );
    play(&mut s, "6I-6J");
    assert_eq!(s.to_move(), ToMove::Terminal);
    assert_eq!(s.returns(), [1.0, -1.0, 0.0, 0.0]);
    assert_eq!(s.winners(), Some(vec![0]));
    assert_eq!(legal(&s).len(), 0);
    // The ply is kept.
    assert!(s.to_text().ends_with(" X - 41"), "{}", s.to_text());
    // A finished position reads back as finished.
    let back = pos(&g, &s.to_text());
    assert_eq!(back.to_move(), ToMove::Terminal);
    assert_eq!(back.returns(), s.returns());
}

/// Three players: the winner gets +1 and both others −1 (the returns convention, `engine/src/api/mod.rs`).
#[test]
fn win_three_players() {
    let g = game("sniggle(players=3)");
    let mut s = pos(
        &g,
        "XxX9/XxX9/XxX9/9YyY/9YyY/8Y1yY/ZzZ9/ZzZ9/ZzZ9/12/12/12 Y - 0",
    );
    play(&mut s, "6I-6J");
    assert_eq!(s.returns(), [-1.0, 1.0, -1.0, 0.0]);
}

/// N-8: with the triangle in track 6 entering on J instead of K (the
/// finishing column of a triangle that started on B), X has all 9 pieces
/// in the goal field but has not won; X can never move again and passes
/// (N-9). With the triangle on K it wins.
#[test]
fn triangles_variation() {
    let g = game("sniggle(triangles=true)");
    let mut s = pos(&g, "12/12/12/9XxX/9XxX/8x1XX/YyY9/YyY9/YyY9/12/12/12 X - 0");
    play(&mut s, "6I-6J");
    assert_eq!(seat(&s), 1, "all in the goal field, triangle on 6J: no win");
    play(&mut s, "7C-7D");
    assert_eq!(seat(&s), 0);
    assert_eq!(legal(&s), set_of(&["pass"]));
    play(&mut s, "pass");
    assert_eq!(seat(&s), 1);
    let mut s = pos(&g, "12/12/12/9XxX/9XxX/8X1xX/YyY9/YyY9/YyY9/12/12/12 X - 0");
    play(&mut s, "6I-6J");
    assert_eq!(s.returns(), [1.0, -1.0, 0.0, 0.0]);
    // triangle_at=C: a triangle must finish on L (C + 9).
    let c = game("sniggle(triangles=true,triangle_at=C)");
    let mut s = pos(&c, "12/12/12/9XXx/9XXx/8X1Xx/YYy9/YYy9/YYy9/12/12/12 X - 0");
    play(&mut s, "6I-6J");
    assert_eq!(s.returns(), [1.0, -1.0, 0.0, 0.0]);
    // Basic play ignores shapes: the first position is a plain win.
    let basic = game("sniggle");
    let mut s = pos(
        &basic,
        "12/12/12/9XxX/9XxX/8x1XX/YyY9/YyY9/YyY9/12/12/12 X - 0",
    );
    play(&mut s, "6I-6J");
    assert_eq!(s.returns(), [1.0, -1.0, 0.0, 0.0]);
}

/// Our ruling under N-9: X is stuck in the goal field with its triangles on
/// J (not K); Y's last piece enters (9I→9J: column J holds 3 X pieces, odd,
/// but 9K and 9L are Y's, so it stops) with its triangle on J too. No piece
/// can ever move and nobody has won: a draw.
#[test]
fn triangles_draw_when_nobody_can_move() {
    let g = game("sniggle(triangles=true)");
    let mut s = pos(&g, "12/12/12/9xXX/9xXX/9xXX/9yYY/9yYY/8y1YY/12/12/12 Y - 0");
    play(&mut s, "9I-9J");
    assert_eq!(s.to_move(), ToMove::Terminal);
    assert_eq!(s.returns(), [0.0; 4]);
    assert_eq!(s.winners(), None);
}

/// N-7: a team wins when both partners have finished; a partner who has
/// finished passes. X (seat 0) is done; Z's last piece enters (9I→9J, no
/// opponent piece in column J): X and Z win.
#[test]
fn teams_share_the_result() {
    let g = game("sniggle(players=4,teams=true)");
    let base = "9XxX/9XxX/9XxX/YyY9/YyY9/YyY9/9ZzZ/9ZzZ/8Z1zZ/WwW9/WwW9/WwW9";
    let mut s = pos(&g, &format!("{base} Z - 0"));
    play(&mut s, "9I-9J");
    assert_eq!(s.returns(), [1.0, -1.0, 1.0, -1.0]);
    assert_eq!(s.winners(), Some(vec![0, 2]));
    // Z not yet in: after W's move, the finished X passes.
    let mut s = pos(&g, &format!("{base} W - 0"));
    play(&mut s, "10C-10D");
    assert_eq!(seat(&s), 0);
    assert_eq!(legal(&s), set_of(&["pass"]));
    play(&mut s, "pass");
    assert_eq!(seat(&s), 1);
    // Each for himself, X would already have won: such a position reads as
    // finished.
    let alone = game("sniggle(players=4)");
    let s = pos(&alone, &format!("{base} W - 0"));
    assert_eq!(s.returns(), [1.0, -1.0, -1.0, -1.0]);
}

/// N-SET-3: the bands change no move; `bands=14` puts the two players on
/// rows 1–3 and 10–12. `first_seat=1` lets Y start (§2.3).
#[test]
fn bands_and_first_seat() {
    let g = game("sniggle(bands=14,first_seat=1)");
    let s = g.initial_state(0);
    assert_eq!(
        s.to_text(),
        "XxX9/XxX9/XxX9/12/12/12/12/12/12/YyY9/YyY9/YyY9 Y - 0"
    );
    assert_eq!(legal(&s).len(), 9);
    assert_eq!(s.first_mover_seat(), Some(1));
    let t = game("sniggle(triangle_at=ABC)").initial_state(0);
    assert_eq!(
        t.to_text(),
        "12/12/12/xXX9/XxX9/XXx9/yYY9/YyY9/YYy9/12/12/12 X - 0"
    );
}

// ---------------------------------------------------------------------------
// Game strings, registry, bad input
// ---------------------------------------------------------------------------

struct Name;
impl GameVisitor for Name {
    type Output = (String, usize);
    fn visit<G: Game>(self, game: G) -> (String, usize) {
        (game.game_string(), game.num_seats())
    }
}

#[test]
fn game_strings_round_trip() {
    assert!(engine::registry::GAMES.iter().any(|g| g.name == "sniggle"));
    let (s, n) = visit_game("sniggle", Name).unwrap();
    assert_eq!(
        s,
        "sniggle(players=2,teams=false,triangles=false,triangle_at=B,partner_pieces=ignored,bands=23,first_seat=0)"
    );
    assert_eq!(n, 2);
    for spec in [
        "sniggle(players=3)",
        "sniggle(players=4,teams=true)",
        "sniggle(players=4,teams=true,partner_pieces=counted,triangles=true)",
        "sniggle(players=3,bands=312,triangle_at=cab,first_seat=2)",
    ] {
        let (s, _) = visit_game(spec, Name).unwrap();
        assert_eq!(visit_game(&s, Name).unwrap().0, s, "{spec}");
    }
    assert_eq!(
        visit_game("sniggle(players=4,teams=true)", Name).unwrap().1,
        4
    );
}

#[test]
fn bad_game_strings_are_errors() {
    for (spec, needle) in [
        ("sniggle(players=5)", "2|3|4"),
        ("sniggle(players=1)", "2|3|4"),
        ("sniggle(teams=true)", "teams=true needs players=4"),
        (
            "sniggle(players=3,teams=true)",
            "teams=true needs players=4",
        ),
        ("sniggle(teams=maybe)", "false|true"),
        ("sniggle(partner_pieces=counted)", "needs teams=true"),
        ("sniggle(bands=22)", "different bands"),
        ("sniggle(bands=25)", "bands=\"25\""),
        ("sniggle(players=3,bands=12)", "bands=\"12\""),
        ("sniggle(triangle_at=D)", "triangle_at"),
        ("sniggle(triangle_at=AB)", "triangle_at"),
        ("sniggle(first_seat=2)", "first_seat=2"),
        ("sniggle(first_seat=x)", "first_seat"),
        ("sniggle(colour=1)", "unknown parameter"),
    ] {
        let e = visit_game(spec, Name).unwrap_err();
        assert!(e.0.contains(needle), "{spec}: {e}");
        assert!(!e.0.contains('\n'), "{spec}: one line: {e}");
    }
    let e = visit_game("sniggle(colour=1)", Name).unwrap_err();
    assert!(
        e.0.contains("players=2|3|4") && e.0.contains("teams="),
        "{e}"
    );
}

#[test]
fn bad_positions_are_errors() {
    let g = game("sniggle");
    let start = "12/12/12/XxX9/XxX9/XxX9/YyY9/YyY9/YyY9/12/12/12";
    for (text, needle) in [
        ("", "expected 3 or 4 fields"),
        (&format!("{start} X"), "expected 3 or 4 fields"),
        (&format!("{start} X - 0 9"), "expected 3 or 4 fields"),
        ("12/12 X - 0", "2 rows"),
        (&format!("{start}/12 X - 0"), "13 rows"),
        (&start.replacen("XxX9", "XxX8", 1), "11 spaces"),
        (&start.replacen("XxX9", "XxX10", 1), "13 spaces"),
        (&start.replacen("XxX9", "XxX9X", 1), "longer than 12"),
        (&start.replacen("XxX9", "X0xX9", 1), "run of 0"),
        (&start.replacen("XxX9", "XxZ9", 1), "unknown piece letter"),
        (&start.replacen("XxX9", "XxQ9", 1), "unknown piece letter"),
        (&start.replacen("12", "X11", 1), "outside its tracks"),
        (&start.replacen("XxX9", "Xx10", 1), "has 2 pieces"),
        (&start.replacen("XxX9", "XxX1X7", 1), "has 4 pieces"),
        (&start.replacen("XxX9", "xxX9", 1), "2 triangles"),
        (&start.replacen("XxX9", "XXX9", 1), "0 triangles"),
        (
            "12/12/12/XxX9/XxX9/Xx4X5/YyY9/YyY9/YyY9/12/12/12",
            "empty field",
        ),
    ] {
        let full = if text.split_whitespace().count() == 1 {
            format!("{text} X - 0")
        } else {
            text.to_string()
        };
        let e = g.parse_position(&full).unwrap_err();
        assert!(e.0.contains(needle), "{full:?}: {e}");
        assert!(!e.0.contains('\n'));
    }
    for (tail, needle) in [
        ("Z - 0", "seat to move"),
        ("x - 0", "seat to move"),
        ("X 4Q 0", "bad Sly square"),
        ("X 7A 0", "is not X's"),
        ("X - -3", "ply"),
    ] {
        let e = g.parse_position(&format!("{start} {tail}")).unwrap_err();
        assert!(e.0.contains(needle), "{tail}: {e}");
    }
    // A continuing piece in a column with no opponent piece (the chain
    // position: column F holds no Y piece).
    let e = g
        .parse_position(&CHAIN.replace(" Y - 0", " X 4F 0"))
        .unwrap_err();
    assert!(e.0.contains("even number"), "{e}");
    // A continuing piece that cannot step: Y's 7J with 7K, 7L its own (the
    // blocked-continuation position, column J holds 3 X pieces).
    let e = g
        .parse_position("12/12/12/9XxX/9XxX/7XxX2/9yYY/6YyY3/6YyY3/12/12/12 Y 7J 0")
        .unwrap_err();
    assert!(e.0.contains("cannot step again"), "{e}");
    // Two players cannot both have finished.
    let e = g
        .parse_position("12/12/12/9XxX/9XxX/9XxX/9YyY/9YyY/9YyY/12/12/12 X - 0")
        .unwrap_err();
    assert!(e.0.contains("more than one"), "{e}");
}

#[test]
fn bad_moves_are_errors() {
    let g = game("sniggle");
    let s = g.initial_state(0);
    for (text, needle) in [
        ("", "expected a step"),
        ("4C4D", "expected a step"),
        ("4C-4B", "moves right"),
        ("4C-5D", "moves right"),
        ("4C-4C", "moves right"),
        ("13A-13B", "bad Sly square"),
        ("4C-4M", "bad Sly square"),
        ("c4-d4", "bad Sly square"),
        ("passs", "expected a step"),
    ] {
        let e = s.parse_move(text).unwrap_err();
        assert!(e.0.contains(needle), "{text:?}: {e}");
    }
    // Well-formed but illegal: 4A jumps to 4D, not 4B (N-2); Y's piece at
    // X's turn; a pass when steps exist.
    for text in ["4A-4B", "7C-7D", "pass"] {
        assert!(parse_legal_move(&s, text).is_err(), "{text}");
    }
    assert_eq!(
        s.parse_move("4c-4d").unwrap(),
        parse_legal_move(&s, "4C-4D").unwrap()
    );
}

/// Random edits of valid texts: always an error or a position, never a
/// panic; whatever parses prints back to itself.
#[test]
fn mangled_input_never_panics() {
    let mut rng = ChaCha8Rng::seed_from_u64(66);
    let alphabet: Vec<char> = "XxYyZzWw0123456789/- ABCDLpas".chars().collect();
    for spec in ["sniggle", "sniggle(players=4,teams=true)"] {
        let g = game(spec);
        let mut s = g.initial_state(0);
        let mut texts = vec![s.to_text()];
        let mut buf = Vec::new();
        while !s.is_terminal() {
            let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
            texts.push(s.move_to_text(m));
            s.apply(m);
            texts.push(s.to_text());
        }
        for _ in 0..20_000 {
            let base = &texts[rng.random_range(0..texts.len())];
            let mut chars: Vec<char> = base.chars().collect();
            for _ in 0..rng.random_range(1..4) {
                let i = rng.random_range(0..=chars.len());
                match rng.random_range(0..3) {
                    0 if i < chars.len() => {
                        chars.remove(i);
                    }
                    1 if i < chars.len() => {
                        chars[i] = alphabet[rng.random_range(0..alphabet.len())]
                    }
                    _ => chars.insert(i, alphabet[rng.random_range(0..alphabet.len())]),
                }
            }
            let t: String = chars.into_iter().collect();
            if let Ok(p) = g.parse_position(&t) {
                assert_eq!(pos(&g, &p.to_text()).to_text(), p.to_text());
            }
            let _ = s.parse_move(&t);
        }
    }
}

// ---------------------------------------------------------------------------
// Illegal moves: the reason a player is given (Research::illegal_reason)
// ---------------------------------------------------------------------------

/// Each illegal move is answered with the rule it breaks; the expected
/// words come from the rule cited and the §4.3 positions.
#[test]
fn illegal_moves_say_the_rule_they_break() {
    let g = game("sniggle");
    let why = |s: &SniggleState, t: &str| {
        s.illegal_reason(t)
            .unwrap_or_else(|| panic!("{t} is legal in {}", s.to_text()))
    };
    // §4.3 opening: X (rows 4-6) to move, every first step lands on D.
    let s = g.initial_state(0);
    assert_eq!(why(&s, "4D-4E"), "no piece on 4D");
    assert_eq!(
        why(&s, "7A-7D"),
        "the piece on 7A is Y (seat 1)'s, and X (seat 0) is to move"
    );
    // N-2: 4C's next space 4D is empty, so the step ends there.
    assert!(why(&s, "4C-4E").starts_with("a step from 4C lands on 4D"));
    // N-9: passing only without a step.
    assert_eq!(
        why(&s, "pass"),
        "X (seat 0) has a step, and a pass is only for a player with none (N-9)"
    );
    assert_eq!(s.illegal_reason("4A-4D"), None);

    // §4.3 chain: after 7D-7E, column E holds 3 X pieces (odd), so the
    // same piece steps again, to 7F (N-3).
    let mut s = pos(&g, CHAIN);
    play(&mut s, "7D-7E");
    assert_eq!(
        why(&s, "8D-8E"),
        "the piece on 7E must step again, as column E holds an odd number of opponents' \
         pieces (N-3): its step is 7E-7F"
    );
    assert_eq!(s.illegal_reason("7E-7F"), None);

    // N-4: 7F alone holds Y's field D-F between A-C and G-I (as in
    // gap_rule_forbids_a_first_step).
    let s = pos(
        &g,
        "12/12/12/XxX9/XxX9/XxX9/yY3Y6/yYY9/yY4Y5/12/12/12 Y - 0",
    );
    assert_eq!(
        why(&s, "7F-7G"),
        "would leave an empty field between two fields holding the pieces of Y (seat 1) (N-4)"
    );
    // N-2: 7K and 7L are Y's, so the run from 7K reaches column L.
    let s = pos(
        &g,
        "12/12/12/9XxX/9XxX/7XxX2/8y1YY/6YyY3/6YyY3/12/12/12 Y - 0",
    );
    assert_eq!(
        why(&s, "7K-7L"),
        "the piece on 7K cannot step: the run of pieces right of it reaches column L (N-2)"
    );
    // Malformed text keeps the parser's message.
    assert!(why(&s, "7K-6L").starts_with("bad move"));
}
