//! Gateway: the dossier's vectors (§8.3), hand-worked positions for every
//! rule of §8.2, game strings, bad input.
//!
//! Rules: `docs/rules/gateway.md` §8 (rule numbers G-SET-1…G-SET-4,
//! G-1…G-6). Every expected value comes from the dossier or is derived by
//! hand in the comment beside it.

use std::collections::BTreeSet;

use engine::gateway::{GatewayGame, GatewayState};
use engine::spec::Spec;
use engine::{Game, Research, State, ToMove, parse_legal_move, perft, visit_game};

use crate::common::{self, Name, legal, play, sly_board};

fn game(spec: &str) -> GatewayGame {
    GatewayGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn pos(g: &GatewayGame, pieces: &[(&str, &str)], tail: &str) -> GatewayState {
    let text = format!("{} {tail}", sly_board(pieces));
    g.parse_position(&text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn seat(s: &GatewayState) -> usize {
    match s.to_move() {
        ToMove::Seat(k) => k,
        t => panic!("expected a seat to move, got {t:?} in {}", s.to_text()),
    }
}

/// G-SET-2: the 4-player set-up of §8.1, square by square.
const SETUP4: [(&str, &str); 12] = [
    ("10C", "C1"),
    ("12I", "S1"),
    ("6B", "T1"),
    ("10J", "C2"),
    ("4L", "S2"),
    ("11F", "T2"),
    ("3J", "C3"),
    ("1D", "S3"),
    ("7K", "T3"),
    ("3C", "C4"),
    ("9A", "S4"),
    ("2G", "T4"),
];

#[test]
fn setup_matches_the_dossier() {
    let s = game("gateway(players=4)").initial_state(0);
    assert_eq!(s.to_text(), format!("{} 1 0", sly_board(&SETUP4)));
    // 2 players: P1 and P3 (G-SET-4), as seats 1 and 2.
    let s = game("gateway").initial_state(0);
    let two: Vec<(&str, &str)> = [
        ("10C", "C1"),
        ("12I", "S1"),
        ("6B", "T1"),
        ("3J", "C2"),
        ("1D", "S2"),
        ("7K", "T2"),
    ]
    .to_vec();
    assert_eq!(s.to_text(), format!("{} 1 0", sly_board(&two)));
    assert_eq!(s.reserve(0), (3, 5));
}

/// §8.3: perft(1) from the set-up for P1 is 60 with 4 players and 62 with
/// 2, and no first move earns an entry (no `+` in any move).
#[test]
fn vector_perft_one() {
    for (spec, want) in [
        ("gateway(players=4)", 60),
        ("gateway(players=4,teams=true)", 60),
        ("gateway", 62),
    ] {
        let s = game(spec).initial_state(0);
        let moves = legal(&s);
        assert_eq!(moves.len(), want, "{spec}");
        assert!(moves.iter().all(|m| !m.contains('+')), "{spec}");
        assert_eq!(perft(&s, 1), want as u64);
    }
}

fn ok(s: &GatewayState, t: &str) -> bool {
    parse_legal_move(s, t).is_ok()
}

/// The other seats' pieces, placed off row 4 and column G so that they
/// take no part in the §8.3 examples (seat 3 on row 11-12, seat 4 on
/// row 10).
const QUIET: [(&str, &str); 7] = [
    ("12L", "T2"),
    ("11A", "C3"),
    ("12B", "T3"),
    ("12C", "S3"),
    ("10A", "C4"),
    ("10B", "T4"),
    ("10C", "S4"),
];

fn with(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut v = QUIET.to_vec();
    v.extend_from_slice(extra);
    v
}

/// §8.3 "Entry" (G-3, G-4): P2's cylinder on 4D and square on 7G; P1's
/// triangle moves 1G-4G. Row 4 holds P2's cylinder, column G P2's square:
/// triangle + cylinder + square. 4G is in the field rows 4-6 × G-I, whose
/// gateway 5H is empty: P1 enters a triangle or a square on 5H, and must
/// (ruling QG4); `entry=optional` also lists the plain move.
#[test]
fn vector_entry() {
    let p = with(&[
        ("4D", "C2"),
        ("7G", "S2"),
        ("1G", "T1"),
        ("1A", "C1"),
        ("1B", "S1"),
    ]);
    let g = game("gateway(players=4)");
    let s = pos(&g, &p, "1 0");
    let to4g: BTreeSet<String> = legal(&s)
        .into_iter()
        .filter(|m| m.starts_with("1G-4G"))
        .collect();
    assert_eq!(to4g, ["1G-4G+S", "1G-4G+T"].map(String::from).into());
    let mut t = s;
    play(&mut t, "1G-4G+T");
    assert_eq!(
        t.piece(4 * 12 + 7),
        Some((0, 1)),
        "a triangle of seat 1 on 5H"
    );
    assert_eq!(t.reserve(0), (2, 5));
    assert_eq!(seat(&t), 1);
    let o = pos(&game("gateway(players=4,entry=optional)"), &p, "1 0");
    assert!(ok(&o, "1G-4G") && ok(&o, "1G-4G+T") && ok(&o, "1G-4G+S"));
    // G-1: no move ends on a centre.
    assert!(legal(&s).iter().all(|m| {
        let to = m
            .split('-')
            .nth(1)
            .unwrap()
            .trim_end_matches("+T")
            .trim_end_matches("+S");
        ![
            "2B", "2E", "2H", "2K", "5B", "5E", "5H", "5K", "8B", "8E", "8H", "8K", "11B", "11E",
            "11H", "11K",
        ]
        .contains(&to)
    }));
}

/// §8.3 "No entry, colours differ" (rule book example 2): the square in
/// column G is P3's, the cylinder in row 4 P2's: no single enemy colour
/// gives both, so no entry.
#[test]
fn no_entry_when_colours_differ() {
    let mut p = with(&[
        ("4D", "C2"),
        ("7G", "S3"),
        ("1G", "T1"),
        ("1A", "C1"),
        ("1B", "S1"),
    ]);
    p.push(("12D", "S2"));
    let s = pos(&game("gateway(players=4)"), &p, "1 0");
    assert!(ok(&s, "1G-4G") && !ok(&s, "1G-4G+T"));
}

/// §8.3 "No entry, shapes repeat" (rule book example 4): the mover is a
/// square, P2's pieces a square and a cylinder: no entry.
#[test]
fn no_entry_when_shapes_repeat() {
    let p = with(&[
        ("4D", "C2"),
        ("7G", "S2"),
        ("1G", "S1"),
        ("1A", "C1"),
        ("1C", "T1"),
    ]);
    let s = pos(&game("gateway(players=4)"), &p, "1 0");
    assert!(ok(&s, "1G-4G") && !ok(&s, "1G-4G+S") && !ok(&s, "1G-4G+T"));
}

/// G-4: an occupied gateway prevents the entry (P3's entered triangle on
/// 5H); a partner's colour never gives one (teams: P1 and P3 are
/// partners, so P3's pieces on 4D and 7G do not count, G-3 "not his
/// partner's").
#[test]
fn no_entry_on_an_occupied_gateway_or_with_a_partner() {
    let mut p = with(&[
        ("4D", "C2"),
        ("7G", "S2"),
        ("1G", "T1"),
        ("1A", "C1"),
        ("1B", "S1"),
    ]);
    p.push(("5H", "T3"));
    let s = pos(&game("gateway(players=4)"), &p, "1 0");
    assert!(ok(&s, "1G-4G") && !ok(&s, "1G-4G+T"));
    let q = vec![
        ("12L", "T2"),
        ("12K", "C2"),
        ("12J", "S2"),
        ("4D", "C3"),
        ("7G", "S3"),
        ("12B", "T3"),
        ("10A", "C4"),
        ("10B", "T4"),
        ("10C", "S4"),
        ("1G", "T1"),
        ("1A", "C1"),
        ("1B", "S1"),
    ];
    let alone = pos(&game("gateway(players=4)"), &q, "1 0");
    assert!(ok(&alone, "1G-4G+T"), "P3 is an enemy each for himself");
    let teams = pos(&game("gateway(players=4,teams=true)"), &q, "1 0");
    assert!(
        ok(&teams, "1G-4G") && !ok(&teams, "1G-4G+T"),
        "P3 is the partner"
    );
}

/// G-4, rule book example 5: the mover may just have left the gateway.
/// P1's entered triangle on 5H moves 5H-5G: row 5 holds P2's cylinder
/// (5A), column G P2's square (9G); the gateway of 5G's field is 5H, free
/// now. (5H's field holds no enemy piece, so no forced leave.)
#[test]
fn entry_on_the_gateway_just_left() {
    let p = with(&[
        ("5A", "C2"),
        ("9G", "S2"),
        ("5H", "T1"),
        ("1C", "T1"),
        ("1A", "C1"),
        ("1B", "S1"),
    ]);
    let s = pos(&game("gateway(players=4)"), &p, "1 0");
    assert!(ok(&s, "5H-5G+T") && ok(&s, "5H-5G+S") && !ok(&s, "5H-5G"));
}

/// Ruling QG2 and `line=blocked`: with P4's square on 4F between 4G and
/// P2's cylinder on 4D, the open reading still enters; the blocked one
/// sees P4's square first in row 4 and P2's square first in column G: two
/// colours, no entry.
#[test]
fn line_blocked_option() {
    let mut p = with(&[
        ("4D", "C2"),
        ("7G", "S2"),
        ("1G", "T1"),
        ("1A", "C1"),
        ("1B", "S1"),
    ]);
    p.retain(|x| x.0 != "10C");
    p.push(("4F", "S4"));
    let open = pos(&game("gateway(players=4)"), &p, "1 0");
    assert!(ok(&open, "1G-4G+T"));
    let blocked = pos(&game("gateway(players=4,line=blocked)"), &p, "1 0");
    assert!(ok(&blocked, "1G-4G") && !ok(&blocked, "1G-4G+T"));
}

/// §8.3 "Forced leave" (G-2): P1 has an entered piece on 5H; P2 and P3
/// each have a piece in rows 4-6 × G-I (4G, 6I): two enemy pieces, so
/// every move of P1 moves the 5H piece. With one enemy piece there, or
/// counting per colour (`enemies=per_colour`), or in teams (P3 is the
/// partner), the move is free.
#[test]
fn vector_forced_leave() {
    let p = with(&[
        ("5H", "T1"),
        ("1C", "T1"),
        ("1A", "C1"),
        ("1B", "S1"),
        ("4G", "S2"),
        ("6I", "S3"),
        ("12K", "C2"),
    ]);
    let from = |s: &GatewayState| -> BTreeSet<String> {
        legal(s)
            .iter()
            .map(|m| m.split('-').next().unwrap().to_string())
            .collect()
    };
    let s = pos(&game("gateway(players=4)"), &p, "1 0");
    assert_eq!(from(&s), ["5H".to_string()].into());
    let all: BTreeSet<String> = ["1A", "1B", "1C", "5H"].map(String::from).into();
    let s = pos(&game("gateway(players=4,enemies=per_colour)"), &p, "1 0");
    assert_eq!(from(&s), all);
    let s = pos(&game("gateway(players=4,teams=true)"), &p, "1 0");
    assert_eq!(from(&s), all);
    let mut one = p.clone();
    one.retain(|x| x.0 != "6I");
    one.push(("12D", "S3"));
    let s = pos(&game("gateway(players=4)"), &one, "1 0");
    assert_eq!(from(&s), all);
}

/// Ruling QG5's position: P1's entered triangle on 5H must leave (P3's
/// squares on 5G, 5I and P4's on 4H, 6H are in its field) but every
/// non-centre space of row 5 and column H is full.
fn stuck_position() -> Vec<(&'static str, &'static str)> {
    vec![
        ("5H", "T1"),
        ("1C", "T1"),
        ("1A", "C1"),
        ("1B", "S1"),
        ("5A", "S2"),
        ("5C", "S2"),
        ("5D", "S2"),
        ("5F", "S2"),
        ("5G", "S3"),
        ("5I", "S3"),
        ("5J", "S3"),
        ("5L", "S3"),
        ("1H", "S4"),
        ("3H", "S4"),
        ("4H", "S4"),
        ("6H", "S4"),
        ("7H", "T2"),
        ("9H", "T3"),
        ("10H", "T4"),
        ("12H", "C2"),
        ("12A", "C3"),
        ("12B", "C4"),
    ]
}

/// Ruling QG5: P1's entered triangle on 5H must leave (P3's squares on 5G,
/// 5I and P4's on 4H, 6H are in its field) but cannot move: every
/// non-centre space of row 5 and column H is full. Any move is then
/// allowed; `stuck=pass` passes instead.
#[test]
fn forced_piece_that_cannot_move() {
    let p = stuck_position();
    let s = pos(&game("gateway(players=4)"), &p, "1 0");
    let from: BTreeSet<String> = legal(&s)
        .iter()
        .map(|m| m.split('-').next().unwrap().to_string())
        .collect();
    assert_eq!(from, ["1A", "1B", "1C"].map(String::from).into());
    let mut s = pos(&game("gateway(players=4,stuck=pass)"), &p, "1 0");
    assert_eq!(legal(&s), ["pass".to_string()].into());
    play(&mut s, "pass");
    assert_eq!(seat(&s), 1);
}

/// G-5: P1 has entered 7 (all triangles and 4 squares: 4 T and 5 S on the
/// board); the §8.3 entry then offers only a square, and entering it wins.
#[test]
fn last_entry_wins() {
    let p = with(&[
        ("4D", "C2"),
        ("7G", "S2"),
        ("1G", "T1"),
        ("2A", "T1"),
        ("3A", "T1"),
        ("3B", "T1"),
        ("1A", "C1"),
        ("1B", "S1"),
        ("1C", "S1"),
        ("1D", "S1"),
        ("1E", "S1"),
        ("1F", "S1"),
    ]);
    let g = game("gateway(players=4)");
    let mut s = pos(&g, &p, "1 0");
    assert_eq!(s.reserve(0), (0, 1));
    assert!(!ok(&s, "1G-4G+T") && !ok(&s, "1G-4G"));
    play(&mut s, "1G-4G+S");
    assert_eq!(s.to_move(), ToMove::Terminal);
    assert_eq!(s.returns(), [1.0, -1.0, -1.0, -1.0]);
    assert_eq!(s.end_reason(), Some("entered all"));
    let back = g.parse_position(&s.to_text()).unwrap();
    assert_eq!(back.returns(), s.returns());
}

/// G-5 in teams: P1 (seat 1) has entered everything, its partner P3 one
/// square short. Seat 1 keeps moving but earns nothing (no `+` move); seat
/// 3's last entry (1G-4G: P2's cylinder in row 4, square in column G) wins
/// for both.
#[test]
fn team_win_needs_both_partners() {
    let p = vec![
        ("4D", "C2"),
        ("7G", "S2"),
        ("12L", "T2"),
        ("10A", "C4"),
        ("10B", "T4"),
        ("10C", "S4"),
        ("1A", "C1"),
        ("2A", "T1"),
        ("3A", "T1"),
        ("3B", "T1"),
        ("3C", "T1"),
        ("1B", "S1"),
        ("1C", "S1"),
        ("1D", "S1"),
        ("1E", "S1"),
        ("1F", "S1"),
        ("2C", "S1"),
        ("1G", "T3"),
        ("11A", "T3"),
        ("11C", "T3"),
        ("11D", "T3"),
        ("12D", "S3"),
        ("12E", "S3"),
        ("12F", "S3"),
        ("12I", "S3"),
        ("12J", "S3"),
        ("12K", "C3"),
    ];
    let g = game("gateway(players=4,teams=true)");
    let s1 = pos(&g, &p, "1 0");
    assert_eq!(s1.reserve(0), (0, 0));
    let m = legal(&s1);
    assert!(!m.is_empty() && m.iter().all(|x| !x.contains('+')));
    let mut s3 = pos(&g, &p, "3 0");
    assert_eq!(
        legal(&s3).iter().filter(|x| x.starts_with("1G-4G")).count(),
        1
    );
    play(&mut s3, "1G-4G+S");
    assert_eq!(s3.returns(), [1.0, -1.0, 1.0, -1.0]);
    assert_eq!(s3.winners(), Some(vec![0, 2]));
    // Each for himself, seat 1 would already have won.
    let alone = pos(&game("gateway(players=4)"), &p, "1 0");
    assert_eq!(alone.returns(), [1.0, -1.0, -1.0, -1.0]);
}

/// G-6: the ply cap ends the game in a draw.
#[test]
fn ply_cap_draw() {
    let g = game("gateway(ply_cap=5)");
    let mut s = g.initial_state(0);
    play(&mut s, "10C-10A 3J-3A 10A-10B 3A-3B 10B-10C");
    assert_eq!(s.to_move(), ToMove::Terminal);
    assert_eq!(s.returns(), [0.0; 4]);
    assert_eq!(s.end_reason(), Some("ply cap"));
}

#[test]
fn game_strings_round_trip() {
    let (s, n) = visit_game("gateway", Name).unwrap();
    assert_eq!(
        s,
        "gateway(players=2,teams=false,colours=13,line=open,enemies=pooled,entry=mandatory,stuck=free,first_seat=0,ply_cap=1000)"
    );
    assert_eq!(n, 2);
    for spec in [
        "gateway(players=3)",
        "gateway(players=4,teams=true,entry=optional)",
        "gateway(players=3,colours=412,line=blocked,enemies=per_colour,stuck=pass,first_seat=1,ply_cap=99)",
    ] {
        let (s, _) = visit_game(spec, Name).unwrap();
        assert_eq!(visit_game(&s, Name).unwrap().0, s, "{spec}");
    }
    let s = game("gateway(players=3,colours=412)").initial_state(0);
    assert_eq!(s.seat_role(0).colour, "P4");
}

#[test]
fn bad_game_strings_are_errors() {
    for (spec, needle) in [
        ("gateway(players=1)", "2|3|4"),
        ("gateway(teams=true)", "teams=true needs players=4"),
        (
            "gateway(players=3,teams=true)",
            "teams=true needs players=4",
        ),
        ("gateway(colours=11)", "different"),
        ("gateway(colours=5)", "colours=\"5\""),
        ("gateway(line=through)", "open|blocked"),
        ("gateway(enemies=all)", "pooled|per_colour"),
        ("gateway(entry=never)", "mandatory|optional"),
        ("gateway(stuck=lose)", "free|pass"),
        ("gateway(first_seat=3)", "first_seat=3"),
        ("gateway(ply_cap=-1)", "ply_cap"),
        ("gateway(size=9)", "unknown parameter"),
    ] {
        let e = visit_game(spec, Name).unwrap_err();
        assert!(e.0.contains(needle), "{spec}: {e}");
        assert!(!e.0.contains('\n'), "{spec}: one line: {e}");
    }
}

#[test]
fn bad_positions_are_errors() {
    let g = game("gateway");
    let base = [
        ("10C", "C1"),
        ("12I", "S1"),
        ("6B", "T1"),
        ("3J", "C2"),
        ("1D", "S2"),
        ("7K", "T2"),
    ];
    let b = |extra: &[(&'static str, &'static str)], drop: &str| {
        let mut v: Vec<(&str, &str)> = base.iter().copied().filter(|x| x.0 != drop).collect();
        v.extend_from_slice(extra);
        format!("{} 1 0", sly_board(&v))
    };
    for (text, needle) in [
        (String::new(), "expected 2 or 3 fields"),
        (
            format!("{} 1 0 7", sly_board(&base)),
            "expected 2 or 3 fields",
        ),
        (format!("{} 3 0", sly_board(&base)), "seat to move"),
        (format!("{} 1 -1", sly_board(&base)), "ply"),
        (b(&[("1A", "C1")], ""), "2 cylinders"),
        (b(&[], "6B"), "0 triangles"),
        (
            b(
                &[("1A", "T1"), ("1B", "T1"), ("1C", "T1"), ("1E", "T1")],
                "",
            ),
            "5 triangles",
        ),
        (
            b(
                &[
                    ("1A", "S1"),
                    ("1B", "S1"),
                    ("1C", "S1"),
                    ("1E", "S1"),
                    ("1F", "S1"),
                    ("1G", "S1"),
                ],
                "",
            ),
            "7 squares",
        ),
        (b(&[("5E", "C1")], "10C"), "cylinder stands on the gateway"),
        (b(&[("5E", "S1")], "12I"), "entered only 0"),
        (b(&[("1A", "Q1")], ""), "unknown piece letter"),
        (b(&[("1A", "S3")], ""), "seat number 1-2"),
    ] {
        let e = g.parse_position(&text).unwrap_err();
        assert!(e.0.contains(needle), "{text:?}: {e}");
        assert!(!e.0.contains('\n'));
    }
    // Both seats finished: impossible.
    let mut full: Vec<(&str, &str)> = vec![("10C", "C1"), ("3J", "C2")];
    for (sq, t) in [
        ("1A", "T1"),
        ("1C", "T1"),
        ("1D", "T1"),
        ("1F", "T1"),
        ("3A", "S1"),
        ("3B", "S1"),
        ("3C", "S1"),
        ("3D", "S1"),
        ("3E", "S1"),
        ("3F", "S1"),
    ] {
        full.push((sq, t));
    }
    for (sq, t) in [
        ("12A", "T2"),
        ("12C", "T2"),
        ("12D", "T2"),
        ("12F", "T2"),
        ("10D", "S2"),
        ("10E", "S2"),
        ("10F", "S2"),
        ("10G", "S2"),
        ("10H", "S2"),
        ("10I", "S2"),
    ] {
        full.push((sq, t));
    }
    let e = g
        .parse_position(&format!("{} 1 0", sly_board(&full)))
        .unwrap_err();
    assert!(e.0.contains("more than one side"), "{e}");
}

#[test]
fn bad_moves_are_errors() {
    let s = game("gateway").initial_state(0);
    for (text, needle) in [
        ("", "expected from-to"),
        ("10C10E", "expected from-to"),
        ("10C-11D", "along its row or column"),
        ("10C-10C", "along its row or column"),
        ("10C-11C+X", "+T (triangle) or +S"),
        ("10C-10E+", "+T (triangle) or +S"),
        ("13A-1B", "bad Sly square"),
        ("10E-11E", "no piece moves onto a gateway"),
    ] {
        let e = s.parse_move(text).unwrap_err();
        assert!(e.0.contains(needle), "{text:?}: {e}");
    }
    // Well-formed but illegal: an entry not earned, the other seat's piece,
    // a pass while moves exist, a move through to an occupied space.
    for text in ["10C-10D+T", "10C-10D+S", "3J-3A", "pass", "12I-12I"] {
        assert!(parse_legal_move(&s, text).is_err(), "{text}");
    }
    assert!(parse_legal_move(&s, "10C-10D").is_ok());
}

/// Random edits of valid texts: an error or a position, never a panic.
#[test]
fn mangled_input_never_panics() {
    for (spec, seed) in [
        ("gateway(players=3)", 15),
        ("gateway(players=4,teams=true)", 16),
    ] {
        common::mangled_input_never_panics(&game(spec), "CTS1234./- +pas", seed, 5_000);
    }
}

/// `Research::illegal_reason` names the rule a move breaks, worked by hand
/// from G-1 to G-6 on the §8.3 positions of the tests above (4 players,
/// seat 1 = P1 to move); legal moves give `None`.
#[test]
fn illegal_moves_say_the_rule_they_break() {
    let g = game("gateway(players=4)");
    let why = |s: &GatewayState, t: &str| {
        s.illegal_reason(t)
            .unwrap_or_else(|| panic!("{t} is legal in {}", s.to_text()))
    };
    // vector_entry's position: P1 T 1G, C 1A, S 1B; P2 C 4D, S 7G.
    let entry = with(&[
        ("4D", "C2"),
        ("7G", "S2"),
        ("1G", "T1"),
        ("1A", "C1"),
        ("1B", "S1"),
    ]);
    let s = pos(&g, &entry, "1 0");
    assert_eq!(why(&s, "5E-5F"), "no piece on 5E");
    assert_eq!(
        why(&s, "4D-4E"),
        "the piece on 4D is seat 2 (P2)'s, and seat 1 (P1) is to move"
    );
    // G-1: only to an empty space, never onto a gateway (the parser's).
    assert_eq!(
        why(&s, "1A-1B"),
        "1B is taken, and a piece moves to an empty space (G-1)"
    );
    assert!(why(&s, "1B-2B").contains("no piece moves onto a gateway (G-1)"));
    // G-4, QG4: 1G-4G earns an entry on 5H (P2's cylinder in row 4, its
    // square in column G), and it must be made.
    assert_eq!(
        why(&s, "1G-4G"),
        "1G-4G earns an entry on 5H, which must be made: write 1G-4G+T or 1G-4G+S (G-4, QG4)"
    );
    // G-3: the moved triangle needs a square and a cylinder of one enemy
    // colour; on 3G, row 3 holds no P2 piece, so no entry is earned.
    assert_eq!(
        why(&s, "1G-3G+T"),
        "1G-3G earns no entry: no enemy colour has a square and a cylinder, one in row 3 and the other in column G (G-3)"
    );
    assert!(why(&s, "pass").ends_with("only with none (G-6)"));
    assert_eq!(s.illegal_reason("1G-4G+T"), None);
    assert_eq!(s.illegal_reason("1G-3G"), None);

    // QG2's `line=blocked` (line_blocked_option): P4's square on 4F is
    // the first piece seen from 4G in row 4, so P2's cylinder on 4D does
    // not count.
    let mut blocked = entry.clone();
    blocked.retain(|x| x.0 != "10C");
    blocked.push(("4F", "S4"));
    let s = pos(&game("gateway(players=4,line=blocked)"), &blocked, "1 0");
    assert!(why(&s, "1G-4G+T").ends_with("as the first pieces seen from 4G (G-3, line=blocked)"));

    // G-4: with P3's triangle on 5H the gateway of 4G's field is taken.
    let mut taken = entry.clone();
    taken.push(("5H", "T3"));
    let s = pos(&g, &taken, "1 0");
    assert_eq!(
        why(&s, "1G-4G+T"),
        "the gateway 5H of 4G's field is taken, so there is no entry (G-4)"
    );
    assert_eq!(s.illegal_reason("1G-4G"), None);

    // G-4: last_entry_wins' P1 has entered its 3 triangles (4 T on the
    // board), so only a square is left.
    let last = with(&[
        ("4D", "C2"),
        ("7G", "S2"),
        ("1G", "T1"),
        ("2A", "T1"),
        ("3A", "T1"),
        ("3B", "T1"),
        ("1A", "C1"),
        ("1B", "S1"),
        ("1C", "S1"),
        ("1D", "S1"),
        ("1E", "S1"),
        ("1F", "S1"),
    ]);
    let mut s = pos(&g, &last, "1 0");
    assert_eq!(
        why(&s, "1G-4G+T"),
        "seat 1 (P1) has no triangle left in reserve (G-4)"
    );
    play(&mut s, "1G-4G+S");
    assert_eq!(why(&s, "4G-4H"), "the game is already over");

    // G-2: vector_forced_leave's P1 on 5H with P2 (4G) and P3 (6I) pieces
    // in its field must move the 5H piece.
    let forced = with(&[
        ("5H", "T1"),
        ("1C", "T1"),
        ("1A", "C1"),
        ("1B", "S1"),
        ("4G", "S2"),
        ("6I", "S3"),
        ("12K", "C2"),
    ]);
    let s = pos(&g, &forced, "1 0");
    assert!(why(&s, "1A-2A").starts_with("seat 1 (P1)'s piece(s) on 5H stand on a gateway"));
    assert!(why(&s, "1A-2A").ends_with("must leave first (G-2)"));
    assert_eq!(s.illegal_reason("5H-5I"), None);
}

/// Ruling QG5 with `stuck=pass`: forced_piece_that_cannot_move's P1 on 5H
/// must leave but cannot move, so it passes, and a move is refused.
#[test]
fn illegal_move_when_a_forced_piece_is_stuck() {
    let p = stuck_position();
    let s = pos(&game("gateway(players=4,stuck=pass)"), &p, "1 0");
    let why = s.illegal_reason("1A-2A").unwrap();
    assert!(
        why.ends_with("so seat 1 (P1) passes (G-2, stuck=pass, QG5)"),
        "{why}"
    );
    assert_eq!(s.illegal_reason("pass"), None);
}
