//! The spinner connection game (SPINPATH-8): the dossier's worked examples,
//! hand-derived rule checks, chance nodes, bad input. The reference
//! generator's diff is in `spinner_reference`.
//!
//! Rules: `docs/rules/spinner.md` (K1–K12, B.5 engine notes, B.6
//! worked examples). Every expected value comes from the dossier or is
//! derived by hand from its numbered rules in the comments next to it; none
//! is engine output pasted back.

use std::collections::HashMap;

use crate::common::{legal, play, pos};
use engine::spec::Spec;
use engine::spinner::{SpinnerGame, SpinnerState};
use engine::testkit::check_uniform;
use engine::{Game, GameVisitor, Research, State, ToMove, parse_legal_move, perft, visit_game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

pub fn game(spec: &str) -> SpinnerGame {
    SpinnerGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// The chance outcomes as (text, probability), checking they sum to 1.
fn spins(s: &SpinnerState) -> Vec<(String, f64)> {
    let mut v = Vec::new();
    s.chance_outcomes(&mut v);
    let sum: f64 = v.iter().map(|o| o.1).sum();
    assert!((sum - 1.0).abs() < 1e-12, "sum {sum} in {}", s.to_text());
    v.into_iter().map(|(m, p)| (s.move_to_text(m), p)).collect()
}

/// Square index `rank * n + file` of a name, computed here.
pub fn sq(name: &str, n: u32) -> u32 {
    let file = (name.as_bytes()[0] - b'a') as u32;
    let rank: u32 = name[1..].parse().unwrap();
    (rank - 1) * n + file
}

fn bits(names: &[&str], n: u32) -> u128 {
    names.iter().fold(0, |acc, s| acc | 1u128 << sq(s, n))
}

// ---------------------------------------------------------------------------
// B.6 worked examples
// ---------------------------------------------------------------------------

/// B.6 example 1: P1 owns c1 c2 c4 c5 c7 c8; with the stars c3 and c6
/// that is file c from rank 1 to 8: a win with 6 pieces. Here P1 places the
/// sixth, c8, and wins at once (K9, K12); "files c and f are highways for
/// both players": P2 wins the same way on file f.
#[test]
fn b6_example_1_highways() {
    let g = game("spinner");
    let text = "7O/2X4O/2*2*2/2X5/2X5/2*2*2/2X5/2X5 X place1 0";
    let s = pos(&g, text);
    assert_eq!(s.pieces(0), bits(&["c1", "c2", "c4", "c5", "c7"], 8));
    assert!(!s.has_path(0));
    let mut a = s;
    play(&mut a, "c8");
    assert!(a.has_path(0));
    assert_eq!(a.to_move(), ToMove::Terminal);
    assert_eq!(a.returns(), [1.0, -1.0, 0.0, 0.0]);
    // With two placements due, c8 is a legal first placement (d8-g8 are
    // empty above it) and ends the game at once (K9: the first completing
    // placement wins).
    let mut b = pos(&g, &text.replace("place1", "place2"));
    play(&mut b, "c8");
    assert_eq!(b.returns(), [1.0, -1.0, 0.0, 0.0]);
    // P2's highway, file f.
    let mut c = pos(&g, "X7/5O2/2*2*2/5O2/5O2/2*2*2/5O2/5O2 O place1 0");
    play(&mut c, "f8");
    assert_eq!(c.returns(), [-1.0, 1.0, 0.0, 0.0]);
}

/// The B.6 example 2 position: P2 owns e1 e2 e3 e4 e6 e7 e8 h8, P1 owns e5
/// and a1; P1 to spin.
const EXAMPLE_2: &str = "4O2O/4O3/2*1O*2/4X3/4O3/2*1O*2/4O3/X3O3 X spin 0";

/// B.6 example 2: P1 spins S and must switch: 2 × 8 = 16 options. Exactly
/// one loses at once: e5<>h8 hands e5 to P2 and completes file e, so P2
/// wins (K9). Swapping e5 with a P2 piece on file e removes that square from
/// the file again; swaps of a1 leave P2 without e5; P1 never gets a path.
#[test]
fn b6_example_2_switch() {
    let g = game("spinner");
    let mut s = pos(&g, EXAMPLE_2);
    assert_eq!(s.to_move(), ToMove::Chance);
    // Both have pieces: K5, four outcomes of 1/4.
    assert_eq!(
        spins(&s),
        vec![
            ("spin=1".to_string(), 0.25),
            ("spin=2".to_string(), 0.25),
            ("spin=3".to_string(), 0.25),
            ("spin=S".to_string(), 0.25)
        ]
    );
    play(&mut s, "spin=S");
    assert!(s.is_switching());
    assert_eq!(s.to_move(), ToMove::Seat(0));
    let moves = legal(&s);
    assert_eq!(moves.len(), 16);
    let mut losing = Vec::new();
    for m in &moves {
        let mut t = s;
        play(&mut t, m);
        match t.to_move() {
            ToMove::Terminal => {
                assert_eq!(t.returns(), [-1.0, 1.0, 0.0, 0.0], "{m}");
                losing.push(m.clone());
            }
            ToMove::Chance => assert_eq!(t.returns(), [0.0; 4], "{m}: P2 spins next"),
            other => panic!("{m}: {other:?}"),
        }
    }
    assert_eq!(losing, vec!["e5<>h8".to_string()]);
}

/// B.6 example 3 (K7, K10): with 2 empty squares left P1 spins 3, places
/// both (min(3, 2) = 2), and with no win the game is drawn. The board is
/// striped: ranks 1, 3, 5, 7 are P1's, ranks 2, 4, 6, 8 P2's (stars on c3
/// f3 c6 f6 inside them), so neither has a square on every rank's
/// neighbour: no path for either, before or after. In canonical order
/// (B.5) the first placement must be a1 (b1 must stay free for the second).
#[test]
fn b6_example_3_draw_on_a_full_board() {
    let g = game("spinner");
    for (text, first, second) in [
        (
            "OOOOOOOO/XXXXXXXX/OO*OO*OO/XXXXXXXX/OOOOOOOO/XX*XX*XX/OOOOOOOO/2XXXXXX X spin 7",
            "a1",
            "b1",
        ),
        (
            "OOOOOOOO/XXXXXXXX/OO*OO*OO/XXXXXXXX/OOOOOOOO/XX*XX*XX/2OOOOOO/XXXXXXXX X spin 7",
            "a2",
            "b2",
        ),
    ] {
        let mut s = pos(&g, text);
        assert_eq!(spins(&s).len(), 4);
        play(&mut s, "spin=3");
        assert_eq!(s.placements_left(), Some(2), "K7: min(3, 2)");
        assert_eq!(legal(&s), [first.to_string()].into());
        play(&mut s, first);
        assert_eq!(s.placements_left(), Some(1));
        assert!(s.to_text().contains(&format!("place1>{first}")));
        assert_eq!(legal(&s), [second.to_string()].into());
        play(&mut s, second);
        assert_eq!(s.to_move(), ToMove::Terminal, "K10");
        assert_eq!(s.returns(), [0.0; 4]);
        assert!(s.to_text().ends_with(" X over 10"), "{}", s.to_text());
        // The finished position reads back as a draw.
        let back = pos(&g, &s.to_text());
        assert_eq!(
            (back.to_move(), back.returns()),
            (ToMove::Terminal, [0.0; 4])
        );
    }
}

// ---------------------------------------------------------------------------
// B.5 and K5–K10, hand-derived
// ---------------------------------------------------------------------------

/// B.5: at the opening (60 placeable squares) the whole-turn actions are
/// 60 for a 1, C(60,2) = 1,770 for a 2 and C(60,3) = 34,220 for a 3; an S
/// on the first turn re-spins (K6), so the spin is 1, 2 or 3 at 1/3 each.
#[test]
fn b5_opening_branching() {
    let g = game("spinner");
    let s = g.initial_state(0);
    assert_eq!(s.to_text(), "8/8/2*2*2/8/8/2*2*2/8/8 X spin 0");
    assert_eq!(s.to_move(), ToMove::Chance);
    let third = 1.0 / 3.0;
    assert_eq!(
        spins(&s),
        vec![
            ("spin=1".to_string(), third),
            ("spin=2".to_string(), third),
            ("spin=3".to_string(), third)
        ]
    );
    for (spin, depth, want) in [
        ("spin=1", 1, 60),
        ("spin=2", 2, 1_770),
        ("spin=3", 3, 34_220),
    ] {
        let mut t = s;
        play(&mut t, spin);
        assert_eq!(perft(&t, depth), want, "{spin}");
    }
    // A 3-placement turn: the first placement leaves 2 empty squares above
    // it, so the top two (g8, h8) are not yet offered: 58.
    let mut t = s;
    play(&mut t, "spin=3");
    assert_eq!(t.count_legal_moves(), 58);
    assert!(!legal(&t).contains("h8") && !legal(&t).contains("g8"));
    // perft 2 from the spin counts each outcome's first placements: 60 for
    // a 1, 59 for a 2 (h8 must stay free for the second), 58 for a 3.
    assert_eq!(perft(&s, 2), 60 + 59 + 58);
}

/// K6: S is possible only once both players have a piece on the board.
#[test]
fn k6_respin_until_both_have_pieces() {
    let g = game("spinner");
    let mut s = g.initial_state(0);
    play(&mut s, "spin=1");
    play(&mut s, "a1");
    assert_eq!(s.to_move(), ToMove::Chance);
    assert_eq!(spins(&s).len(), 3, "P2 has no piece: no S");
    assert!(s.to_text().ends_with(" O spin 2"));
    play(&mut s, "spin=1");
    play(&mut s, "h8");
    let o = spins(&s);
    assert_eq!(o.len(), 4);
    assert!(o.iter().all(|x| x.1 == 0.25));
    assert!(parse_legal_move(&s, "spin=S").is_ok());
    // K7: a spin of 3 with one empty square places one.
    let t = pos(
        &g,
        "OOOOOOOO/XXXXXXXX/OO*OO*OO/XXXXXXXX/OOOOOOOO/XX*XX*XX/OOOOOOOO/1XXXXXXX X spin 0",
    );
    let mut t2 = t;
    play(&mut t2, "spin=3");
    assert_eq!(t2.placements_left(), Some(1));
    // A spin of 1 with 2 empty squares left: one placed, P2 spins next.
    let mut u = pos(
        &g,
        "OOOOOOOO/XXXXXXXX/OO*OO*OO/XXXXXXXX/OOOOOOOO/XX*XX*XX/OOOOOOOO/2XXXXXX X spin 0",
    );
    play(&mut u, "spin=1");
    assert_eq!(legal(&u).len(), 2);
    play(&mut u, "b1");
    assert_eq!(u.to_move(), ToMove::Chance);
    assert!(u.to_text().ends_with(" O spin 2"));
}

/// K8: a switch offers own × opponent pieces: 5 × 4 = 20 (B.5).
#[test]
fn k8_switch_count() {
    let g = game("spinner");
    let s = pos(&g, "OOOO4/8/2*2*2/8/8/2*2*2/8/XXXXX3 X switch 0");
    assert_eq!(legal(&s).len(), 20);
    let t = pos(&g, "OOOO4/8/2*2*2/8/8/2*2*2/8/XXXXX3 O switch 0");
    assert_eq!(legal(&t).len(), 20);
    assert!(legal(&t).contains("a8<>e1"), "own piece first");
}

/// K9: a switch that completes both paths wins for the mover. P1 has file
/// c but for c4 (P2's) and a piece on f5; P2 has file f but for f5 and a
/// piece on c4. Exchanging f5 and c4 completes both files; the mover wins,
/// whoever it is. A switch written opponent's piece first is accepted.
#[test]
fn k9_mover_wins_when_both_complete() {
    let g = game("spinner");
    let rows = "2X2O2/2X2O2/2*2*2/2X2X2/2O2O2/2*2*2/2X2O2/2X2O2";
    let mut x = pos(&g, &format!("{rows} X switch 0"));
    assert!(!x.has_path(0) && !x.has_path(1));
    play(&mut x, "f5<>c4");
    assert!(x.has_path(0) && x.has_path(1));
    assert_eq!(x.returns(), [1.0, -1.0, 0.0, 0.0]);
    let mut o = pos(&g, &format!("{rows} O switch 0"));
    play(&mut o, "f5<>c4");
    assert_eq!(o.returns(), [-1.0, 1.0, 0.0, 0.0]);
    // Read back: both paths, the last mover (O) wins.
    assert_eq!(pos(&g, &o.to_text()).returns(), [-1.0, 1.0, 0.0, 0.0]);
}

/// K-Q4 alternative `goals=crossed`: P2 connects file a to file h. Seven
/// P2 pieces on rank 4 (a4-g4) and h4 placed: a win with crossed goals, not
/// with the same goals (rank 4 touches neither rank 1 nor rank 8). P1 still
/// connects ranks; P2's file-f highway is no win when crossed.
#[test]
fn crossed_goals() {
    let text = "8/8/2*2*2/8/OOOOOOO1/2*2*2/8/X7 O place1 0";
    let mut c = pos(&game("spinner(goals=crossed)"), text);
    play(&mut c, "h4");
    assert_eq!(c.returns(), [-1.0, 1.0, 0.0, 0.0]);
    let mut s = pos(&game("spinner"), text);
    play(&mut s, "h4");
    assert_eq!(s.to_move(), ToMove::Chance);
    let f = pos(
        &game("spinner(goals=crossed)"),
        "X4OO1/5O2/2*2*2/5O2/5O2/2*2*2/5O2/5O2 X spin 0",
    );
    assert!(!f.has_path(1));
    // Rank 3 with the stars c3, f3: a3 b3 d3 e3 g3 h3 join file a to h.
    let r = pos(
        &game("spinner(goals=crossed)"),
        "X7/8/2*2*2/8/8/OO*OO*O1/8/8 O place1 0",
    );
    let mut r2 = r;
    play(&mut r2, "h3");
    assert_eq!(r2.returns(), [-1.0, 1.0, 0.0, 0.0]);
}

/// Other sizes (K-Q2, K-Q3): the auto stars and the placeable count.
#[test]
fn sizes_and_auto_stars() {
    for (spec, stars, placeable) in [
        ("spinner(size=7)", vec!["c3", "e3", "c5", "e5"], 45),
        ("spinner(size=9)", vec!["c3", "g3", "c7", "g7"], 77),
        ("spinner", vec!["c3", "f3", "c6", "f6"], 60),
        ("spinner(size=5,stars=none)", vec![], 25),
        ("spinner(size=6,stars=[b2])", vec!["b2"], 35),
    ] {
        let g = game(spec);
        let n = g.rules().size;
        let mut s = g.initial_state(0);
        assert_eq!(s.stars(), bits(&stars, n), "{spec}");
        play(&mut s, "spin=1");
        assert_eq!(s.count_legal_moves(), placeable, "{spec}");
    }
}

// ---------------------------------------------------------------------------
// Game strings, registry, bad input
// ---------------------------------------------------------------------------

struct Name;
impl GameVisitor for Name {
    type Output = String;
    fn visit<G: Game>(self, game: G) -> String {
        game.game_string()
    }
}

#[test]
fn game_strings_round_trip() {
    assert!(engine::registry::GAMES.iter().any(|g| g.name == "spinner"));
    let d = "spinner(size=8,stars=[c3,f3,c6,f6],goals=same)";
    assert_eq!(visit_game("spinner", Name).unwrap(), d);
    assert_eq!(
        visit_game("spinner(stars=\"c3,f3,c6,f6\")", Name).unwrap(),
        d
    );
    assert_eq!(visit_game("spinner(stars=[f6,c3,c6,f3])", Name).unwrap(), d);
    assert_eq!(
        visit_game("spinner(size=9,goals=crossed)", Name).unwrap(),
        "spinner(size=9,stars=[c3,g3,c7,g7],goals=crossed)"
    );
    assert_eq!(
        visit_game("spinner(stars=\"d4\",size=7)", Name).unwrap(),
        "spinner(size=7,stars=[d4],goals=same)"
    );
    for spec in [
        "spinner(size=5,stars=none)",
        "spinner(size=11)",
        "spinner(stars=[a1,h8])",
    ] {
        let s = visit_game(spec, Name).unwrap();
        assert_eq!(visit_game(&s, Name).unwrap(), s, "{spec}");
    }
}

#[test]
fn bad_game_strings_are_errors() {
    let all: Vec<String> = (0..25)
        .map(|i| format!("{}{}", (b'a' + i % 5) as char, i / 5 + 1))
        .collect();
    let whole = format!("spinner(size=5,stars=[{}])", all.join(","));
    for (spec, needle) in [
        ("spinner(size=4)", "5..=11"),
        ("spinner(size=12)", "5..=11"),
        ("spinner(size=x)", "size=\"x\""),
        ("spinner(size=6)", "stars=auto needs size 7..=11"),
        ("spinner(stars=[i9])", "\"i9\" is not on the 8x8 board"),
        ("spinner(stars=[c3,c9])", "\"c9\" is not on the 8x8 board"),
        ("spinner(stars=[c3,f3,c3])", "c3 is given twice"),
        ("spinner(stars=[C3])", "not on the 8x8 board"),
        ("spinner(stars=\"c3,f3)", "no closing quote"),
        ("spinner(stars=\"c3,f3,goals=same)", "no closing quote"),
        ("spinner(goals=diagonal)", "same|crossed"),
        ("spinner(colour=1)", "unknown parameter"),
        (whole.as_str(), "cover the whole board"),
    ] {
        let e = visit_game(spec, Name).unwrap_err();
        assert!(e.0.contains(needle), "{spec}: {e}");
        assert!(!e.0.contains('\n'));
    }
    let e = visit_game("spinner(colour=1)", Name).unwrap_err();
    assert!(
        e.0.contains("size=") && e.0.contains("goals=same|crossed"),
        "{e}"
    );
}

#[test]
fn bad_positions_are_errors() {
    let g = game("spinner");
    let e2 = EXAMPLE_2.rsplit_once(" X spin 0").unwrap().0;
    for (text, needle) in [
        ("", "expected 3 or 4 fields"),
        ("8/8 X spin", "2 rows"),
        ("8/8/2*2*2/8/8/2*2*2/8/8 X", "expected 3 or 4 fields"),
        ("8/8/2*2*2/8/8/2*2*2/8/7 X spin", "7 squares"),
        ("8/8/2*2*2/8/8/2*2*2/8/9 X spin", "9 squares"),
        ("8/8/2*2*2/8/8/2*2*2/8/8X X spin", "longer than 8"),
        ("8/8/2*2*2/8/8/2*2*2/8/0X7 X spin", "run of 0"),
        ("8/8/2*2*2/8/8/2*2*2/8/B7 X spin", "unknown square letter"),
        (
            "8/8/2*2*2/8/8/2*2*2/8/*7 X spin",
            "stars on [a1,c3,f3,c6,f6]",
        ),
        (
            "8/8/8/8/8/2*2*2/8/8 X spin",
            "but the game has stars=[c3,f3,c6,f6]",
        ),
        ("8/8/2*2*2/8/8/2*2*2/8/8 Y spin", "player to move"),
        ("8/8/2*2*2/8/8/2*2*2/8/8 X play", "phase \"play\""),
        ("8/8/2*2*2/8/8/2*2*2/8/8 X place4", "1, 2 or 3"),
        ("8/8/2*2*2/8/8/2*2*2/8/8 X place", "1, 2 or 3"),
        ("8/8/2*2*2/8/8/2*2*2/8/8 X place2>z9", "bad square"),
        (
            "8/8/2*2*2/8/8/2*2*2/8/8 X place2>a1",
            "not a piece of the player to move",
        ),
        ("8/8/2*2*2/8/8/2*2*2/8/8 X switch", "a piece of each player"),
        (
            "8/8/2*2*2/8/8/2*2*2/8/X7 X switch",
            "a piece of each player",
        ),
        ("8/8/2*2*2/8/8/2*2*2/8/8 X over", "nobody has a path"),
        ("8/8/2*2*2/8/8/2*2*2/8/8 X spin x", "ply"),
        (
            "7X/8/2*2*2/8/8/2*2*2/8/8 X place2>h8",
            "fewer empty squares above",
        ),
        (
            "8/8/2*2*2/8/8/2*2*2/8/8 X spin 0 0",
            "expected 3 or 4 fields",
        ),
        ("2X5/2X5/2*2*2/2X5/2X5/2*2*2/2X5/2X5 O spin", "X has a path"),
        (
            "OOOOOOOO/XXXXXXXX/OO*OO*OO/XXXXXXXX/OOOOOOOO/XX*XX*XX/OOOOOOOO/XXXXXXXX X spin",
            "board is full",
        ),
    ] {
        let err = g.parse_position(text).unwrap_err();
        assert!(err.0.contains(needle), "{text:?}: {err}");
        assert!(!err.0.contains('\n'));
    }
    // Example 2 with P1 to switch is fine; so is the room for 3 placements.
    assert!(g.parse_position(&format!("{e2} X switch")).is_ok());
    assert!(g.parse_position("8/8/2*2*2/8/8/2*2*2/8/8 X place3").is_ok());
}

#[test]
fn bad_moves_are_errors() {
    let g = game("spinner");
    let s = pos(&g, EXAMPLE_2);
    for (text, needle) in [
        ("", "expected a placement"),
        ("spin=4", "spin=1, spin=2, spin=3 or spin=S"),
        ("spin=", "spin=1"),
        ("i9", "bad square"),
        ("a0", "bad square"),
        ("A1", "expected a placement"),
        ("a1<>a1", "two different squares"),
        ("a1<>z1", "bad square"),
        ("<>", "bad square"),
        ("9", "expected a placement"),
    ] {
        let e = s.parse_move(text).unwrap_err();
        assert!(e.0.contains(needle), "{text:?}: {e}");
    }
    // Well-formed, but a chance node takes only spin outcomes, and S needs
    // pieces of both players (K6) at the opening.
    assert!(parse_legal_move(&s, "d4").is_err());
    let start = g.initial_state(0);
    assert!(parse_legal_move(&start, "spin=S").is_err());
    let mut t = s;
    play(&mut t, "spin=1");
    // An occupied square, a star, and a switch during a placement turn.
    for text in ["e1", "c3", "e5<>h8", "spin=1"] {
        assert!(parse_legal_move(&t, text).is_err(), "{text}");
    }
    // ↔ is read as <>.
    let mut u = s;
    play(&mut u, "spin=S");
    assert_eq!(
        u.parse_move("e5↔h8").unwrap(),
        u.parse_move("e5<>h8").unwrap()
    );
}

#[test]
fn mangled_input_never_panics() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let alphabet: Vec<char> = "XO*0123456789/ abcdefghi<>=Sspinlacewtorv"
        .chars()
        .collect();
    let g = game("spinner");
    let mut s = g.initial_state(0);
    let mut texts = vec![s.to_text()];
    let mut buf = Vec::new();
    let mut outs = Vec::new();
    while !s.is_terminal() {
        let m = match s.to_move() {
            ToMove::Chance => s.sample_chance(&mut rng, &mut outs).unwrap(),
            _ => s.sample_legal_move(&mut rng, &mut buf).unwrap(),
        };
        texts.push(s.move_to_text(m));
        s.apply(m);
        texts.push(s.to_text());
    }
    for _ in 0..30_000 {
        let base = &texts[rng.random_range(0..texts.len())];
        let mut chars: Vec<char> = base.chars().collect();
        for _ in 0..rng.random_range(1..4) {
            let i = rng.random_range(0..=chars.len());
            match rng.random_range(0..3) {
                0 if i < chars.len() => {
                    chars.remove(i);
                }
                1 if i < chars.len() => chars[i] = alphabet[rng.random_range(0..alphabet.len())],
                _ => chars.insert(i, alphabet[rng.random_range(0..alphabet.len())]),
            }
        }
        let t: String = chars.into_iter().collect();
        if let Ok(p) = g.parse_position(&t) {
            assert_eq!(pos(&g, &p.to_text()).to_text(), p.to_text());
        }
        let _ = s.parse_move(&t);
        let _ = Spec::parse(&format!("spinner(stars={t})")).map(|sp| SpinnerGame::from_spec(&sp));
    }
}

/// `sample_legal_move` and `sample_chance` draw without building lists;
/// they must stay uniform over the listed moves (and follow K5/K6). A loose
/// chi-square bound, and every move drawn at least once.
#[test]
fn sampling_is_uniform() {
    fn check(counts: &HashMap<String, usize>, want: &[(String, f64)], n: usize, what: &str) {
        assert_eq!(counts.len(), want.len(), "{what}: {counts:?}");
        let chi2: f64 = want
            .iter()
            .map(|(m, p)| {
                let e = p * n as f64;
                let c = *counts.get(m).unwrap_or(&0) as f64;
                (c - e).powi(2) / e
            })
            .sum();
        let dof = (want.len() - 1) as f64;
        assert!(
            chi2 < dof + 6.0 * (2.0 * dof).sqrt() + 10.0,
            "{what}: chi2 {chi2}"
        );
    }
    let g = game("spinner");
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut outs = Vec::new();
    let ex2 = pos(&g, EXAMPLE_2);
    let mut sw = ex2;
    play(&mut sw, "spin=S");
    let mut three = g.initial_state(0);
    play(&mut three, "spin=3");
    for (s, what) in [(sw, "switch"), (three, "first of 3 placements")] {
        let k = s.count_legal_moves();
        check_uniform(&s, 400 * k, 6).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
    for (s, what) in [(ex2, "spin"), (g.initial_state(0), "re-spin")] {
        let want = spins(&s);
        let mut counts = HashMap::new();
        for _ in 0..40_000 {
            let m = s.sample_chance(&mut rng, &mut outs).unwrap();
            *counts.entry(s.move_to_text(m)).or_insert(0) += 1;
        }
        check(&counts, &want, 40_000, what);
    }
}

/// `Research::illegal_reason` names the rule a move breaks, worked by hand
/// from K2, K6, K7, K8 and B.5 on the B.6 example 2 board (X: a1 e5; O: e1
/// e2 e3 e4 e6 e7 e8 h8; stars c3 f3 c6 f6), and gives `None` for legal
/// moves.
#[test]
fn illegal_moves_say_the_rule_they_break() {
    let g = game("spinner");
    let why = |s: &SpinnerState, t: &str| {
        s.illegal_reason(t)
            .unwrap_or_else(|| panic!("{t} is legal in {}", s.to_text()))
    };
    // K6: on the empty board nobody has a piece, so S is spun again.
    let start = g.initial_state(0);
    assert!(why(&start, "spin=S").ends_with("(K6)"));
    assert_eq!(start.illegal_reason("spin=2"), None);
    // A turn starts with the spin (B.2): a chance node takes spins only.
    assert!(why(&start, "d4").starts_with("chance plays here"));

    // X spins 2: two placements in increasing square order (K7, B.5).
    let mut s = pos(&g, EXAMPLE_2);
    play(&mut s, "spin=2");
    // K2: c3 is a star, "unplayable".
    assert_eq!(why(&s, "c3"), "c3 is a star, where nobody places (K2)");
    // K7: only empty squares; e1 holds an O.
    assert!(why(&s, "e1").starts_with("e1 is taken by O"));
    assert!(why(&s, "e1").ends_with("(K7)"));
    // B.5: g8 is the last empty square (h8 is O's), so a first placement
    // there leaves none for the second.
    assert!(why(&s, "g8").starts_with("with 2 placements due, g8 leaves 0 empty square(s)"));
    assert!(why(&s, "g8").ends_with("B.5)"));
    // K7, K8: a number is played by placing, a switch needs S.
    assert!(why(&s, "e5<>h8").ends_with("only S switches (K7, K8)"));
    assert!(why(&s, "spin=1").ends_with("places 2 more piece(s) this turn (K7)"));
    assert!(why(&s, "d4x").starts_with("bad move"));
    assert_eq!(s.illegal_reason("d4"), None);
    // After d4 the second placement lies above it in a1, b1, ... order:
    // c4 comes before d4 (B.5), while g8 is now fine.
    play(&mut s, "d4");
    assert!(why(&s, "c4").ends_with("and d4 was placed before c4"));
    assert_eq!(s.illegal_reason("g8"), None);

    // X spins S: a switch of one own piece with one of O's (K8).
    let mut s = pos(&g, EXAMPLE_2);
    play(&mut s, "spin=S");
    assert!(why(&s, "d4").ends_with("e.g. e5<>h8 (K8)"));
    assert_eq!(
        why(&s, "c3<>e8"),
        "c3 is a star, and stars are never switched (K8)"
    );
    assert_eq!(why(&s, "e5<>d4"), "no piece on d4");
    assert!(why(&s, "a1<>e5").starts_with("a1 and e5 are both X's"));
    assert!(why(&s, "e1<>h8").starts_with("e1 and h8 are both O's"));
    assert!(why(&s, "spin=S").ends_with("(K8)"));
    // Written O's piece first, the switch is still e5<>h8, legal.
    assert_eq!(s.illegal_reason("h8<>e5"), None);

    // B.6 example 1: c8 completes file c, and the game is over (K9).
    let mut s = pos(&g, "7O/2X4O/2*2*2/2X5/2X5/2*2*2/2X5/2X5 X place1 0");
    play(&mut s, "c8");
    assert_eq!(why(&s, "a8"), "the game is already over");
}
