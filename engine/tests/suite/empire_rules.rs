//! Empire: the dossier's vectors (§7.4), hand-worked positions for every
//! win and for absorption, game strings, bad input.
//!
//! Rules: `docs/rules/empire.md` §7 (rule numbers E-SET-1…E-SET-4,
//! E-T1, E-T2, E-1…E-6). Every expected value comes from the dossier or is
//! derived by hand in the comment beside it.

use std::collections::BTreeSet;

use engine::empire::EmpireGame;
use engine::spec::Spec;
use engine::{Game, Research, State, ToMove, parse_legal_move, perft, visit_game};

use crate::common::{self, Name, legal, play, sly_board};

fn game(spec: &str) -> EmpireGame {
    EmpireGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn pos(g: &EmpireGame, pieces: &[(&str, &str)], tail: &str) -> engine::empire::EmpireState {
    let text = format!("{} {tail}", sly_board(pieces));
    g.parse_position(&text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn seat(s: &engine::empire::EmpireState) -> usize {
    match s.to_move() {
        ToMove::Seat(k) => k,
        t => panic!("expected a seat to move, got {t:?} in {}", s.to_text()),
    }
}

/// The two armies of §7.1 (E-SET-3): TL for seat 1, BR for seat 2.
const TL: [(&str, &str); 11] = [
    ("1A", "C"),
    ("1C", "H"),
    ("2B", "H"),
    ("3A", "H"),
    ("3C", "H"),
    ("1B", "A"),
    ("1D", "A"),
    ("2A", "A"),
    ("2C", "A"),
    ("3B", "A"),
    ("4A", "A"),
];
const BR: [(&str, &str); 11] = [
    ("12L", "C"),
    ("10J", "H"),
    ("10L", "H"),
    ("11K", "H"),
    ("12J", "H"),
    ("9L", "A"),
    ("10K", "A"),
    ("11J", "A"),
    ("11L", "A"),
    ("12I", "A"),
    ("12K", "A"),
];

/// E-SET-3/E-SET-4: the 2-player set-up is the dossier's diagram of §7.1
/// (TL and BR armies, as listed square by square in E-SET-3).
#[test]
fn setup_matches_the_dossier() {
    let g = game("empire");
    let s = g.initial_state(0);
    let mut want: Vec<(String, String)> = TL
        .iter()
        .map(|(q, k)| (q.to_string(), format!("{k}1")))
        .chain(BR.iter().map(|(q, k)| (q.to_string(), format!("{k}2"))))
        .collect();
    want.sort();
    let w: Vec<(&str, &str)> = want.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(s.to_text(), format!("{} 1 - 0", sly_board(&w)));
    // TR and BL as E-SET-3 lists them, in the 4-player set-up.
    let s4 = game("empire(players=4)").initial_state(0);
    let t = s4.to_text();
    for (sq, tok) in [
        ("1L", "C2"),
        ("1J", "H2"),
        ("2K", "H2"),
        ("3J", "H2"),
        ("3L", "H2"),
        ("1I", "A2"),
        ("1K", "A2"),
        ("2J", "A2"),
        ("2L", "A2"),
        ("3K", "A2"),
        ("4L", "A2"),
        ("12A", "C4"),
        ("10A", "H4"),
        ("10C", "H4"),
        ("11B", "H4"),
        ("12C", "H4"),
        ("9A", "A4"),
        ("10B", "A4"),
        ("11A", "A4"),
        ("11C", "A4"),
        ("12B", "A4"),
        ("12D", "A4"),
    ] {
        let p = g_piece(&t, sq);
        assert_eq!(p, tok, "{sq}");
    }
}

/// The token on `sq` in a position text.
fn g_piece(text: &str, sq: &str) -> String {
    let (r, c) = sq.split_at(sq.len() - 1);
    let r: usize = r.parse::<usize>().unwrap() - 1;
    let c = (c.as_bytes()[0] - b'A') as usize;
    let row = text
        .split_whitespace()
        .next()
        .unwrap()
        .split('/')
        .nth(r)
        .unwrap();
    let mut col = 0;
    let mut chars = row.chars();
    while let Some(ch) = chars.next() {
        let tok = if ch == '.' {
            ".".to_string()
        } else {
            format!("{ch}{}", chars.next().unwrap())
        };
        if col == c {
            return tok;
        }
        col += 1;
    }
    panic!("no {sq}")
}

/// §7.4: perft(1) for the top-left player is 194 with 2 players and 124
/// with 4, with no captures (no move text has an `x`).
#[test]
fn vector_perft_one() {
    for (spec, want) in [
        ("empire", 194),
        ("empire(players=4)", 124),
        ("empire(players=4,teams=true)", 124),
    ] {
        let s = game(spec).initial_state(0);
        let moves = legal(&s);
        assert_eq!(moves.len(), want, "{spec}");
        assert!(moves.iter().all(|m| !m.contains('x')), "{spec}");
        assert_eq!(perft(&s, 1), want as u64);
    }
}

/// §7.4: the commander on 1A has exactly 16 first moves, 1E…1L and
/// 5A…12A (row 1 holds 1A-1D, column A holds 1A-4A).
#[test]
fn vector_commander_moves() {
    let s = game("empire").initial_state(0);
    let got: BTreeSet<String> = legal(&s)
        .into_iter()
        .filter(|m| m.starts_with("1A-"))
        .collect();
    let want: BTreeSet<String> = ["E", "F", "G", "H", "I", "J", "K", "L"]
        .iter()
        .map(|c| format!("1A-1{c}"))
        .chain((5..=12).map(|r| format!("1A-{r}A")))
        .collect();
    assert_eq!(got, want);
}

fn mv_ok(s: &engine::empire::EmpireState, t: &str) -> bool {
    parse_legal_move(s, t).is_ok()
}

/// §7.4 capture geometry (E-2). Seat 1: commander 1A, archer 6C; seat 2:
/// commander 12L, horseman 6G. The archer is 4 from the horseman: it can
/// capture; the horseman needs exactly 3, so it cannot capture back.
/// Counts by hand: seat 1: commander 11 + 11 empty spaces in row 1 and
/// column A (captures at 2 and 5: 1C, 3A, 1F, 6A all empty) = 22; archer
/// 10 in row 6 (12 less 6C, 6G) + 11 in column C + the capture = 22;
/// total 44. Seat 2: commander 11 + 11 (12J 10L 12G 7L empty) = 22;
/// horseman 10 + 11 (6D 6J 3G 9G empty) = 21; total 43.
#[test]
fn vector_capture_geometry() {
    let g = game("empire");
    let p = [("1A", "C1"), ("6C", "A1"), ("12L", "C2"), ("6G", "H2")];
    let s = pos(&g, &p, "1 - 0");
    assert_eq!(legal(&s).len(), 44);
    assert!(mv_ok(&s, "6Cx6G"));
    let s2 = pos(&g, &p, "2 - 0");
    assert_eq!(legal(&s2).len(), 43);
    assert!(!mv_ok(&s2, "6Gx6C") && !mv_ok(&s2, "6G-6C"));
    let mut s3 = s;
    play(&mut s3, "6Cx6G");
    assert!(!s3.to_text().contains("H2"), "the horseman is removed");
    assert_eq!(seat(&s3), 1);
}

/// The position of capture_distances_and_passing_over: pieces on row 1
/// and column C at every capture distance.
const CAPTURES: [(&str, &str); 9] = [
    ("1A", "C1"),
    ("1C", "H2"),
    ("1D", "H2"),
    ("1F", "A2"),
    ("6C", "A1"),
    ("6E", "A2"),
    ("6G", "H2"),
    ("10C", "A1"),
    ("12L", "C2"),
];

/// E-2: the commander captures at exactly 2 or 5 (1C, 1F), not at 3 (1D);
/// a capture passes over pieces (the archer on 6C takes 6G over 6E); never
/// onto a friendly piece.
#[test]
fn capture_distances_and_passing_over() {
    let g = game("empire");
    let s = pos(&g, &CAPTURES, "1 - 0");
    for (m, ok) in [
        ("1Ax1C", true),
        ("1Ax1F", true),
        ("1Ax1D", false),
        ("1A-1E", true),
        ("6Cx6G", true),
        ("6Cx6E", false),
        ("6Cx10C", false),
        ("6C-10C", false),
    ] {
        assert_eq!(mv_ok(&s, m), ok, "{m}");
    }
}

/// E-3(a): four thrones win at once, even if the fourth piece could be
/// captured next move (the horseman on 11H is 3 from 8H). Seat 1 holds 5E,
/// 5H, 8E; the archer 8A moves over 8E to 8H. Three thrones alone do not
/// win with 2 players.
#[test]
fn four_thrones_win_two_players() {
    let g = game("empire");
    let p = [
        ("1A", "C1"),
        ("5E", "H1"),
        ("5H", "H1"),
        ("8E", "A1"),
        ("8A", "A1"),
        ("12L", "C2"),
        ("11H", "H2"),
    ];
    let mut s = pos(&g, &p, "1 - 0");
    let mut t = s;
    play(&mut t, "1A-1B");
    assert_eq!(seat(&t), 1, "three thrones: play goes on");
    play(&mut s, "8A-8H");
    assert_eq!(s.to_move(), ToMove::Terminal);
    assert_eq!(s.returns(), [1.0, -1.0, 0.0, 0.0]);
    assert_eq!(s.end_reason(), Some("thrones"));
    assert!(s.to_text().ends_with(" 1 1:thrones 1"), "{}", s.to_text());
}

/// E-4(a): with 3 players any three thrones win (5E, 5H held, 8A-8E).
/// E-5(a): a team wins with all four thrones held by either partner (seats
/// 1 and 3: 5E, 5H, 8E, then 8A-8H).
#[test]
fn three_thrones_and_team_thrones() {
    let g = game("empire(players=3)");
    let mut s = pos(
        &g,
        &[
            ("1A", "C1"),
            ("1L", "C2"),
            ("12L", "C3"),
            ("5E", "H1"),
            ("5H", "H1"),
            ("8A", "A1"),
        ],
        "1 - 0",
    );
    play(&mut s, "8A-8E");
    assert_eq!(s.returns(), [1.0, -1.0, -1.0, 0.0]);
    let g = game("empire(players=4,teams=true)");
    let mut s = pos(
        &g,
        &[
            ("1A", "C1"),
            ("1L", "C2"),
            ("12L", "C3"),
            ("12A", "C4"),
            ("5E", "H1"),
            ("5H", "H3"),
            ("8E", "A3"),
            ("8A", "A1"),
        ],
        "1 - 0",
    );
    play(&mut s, "8A-8H");
    assert_eq!(s.returns(), [1.0, -1.0, 1.0, -1.0]);
    assert_eq!(s.winners(), Some(vec![0, 2]));
    // Each for himself the same move holds only two thrones of seat 1.
    let g4 = game("empire(players=4)");
    let mut s = pos(
        &g4,
        &[
            ("1A", "C1"),
            ("1L", "C2"),
            ("12L", "C3"),
            ("12A", "C4"),
            ("5E", "H1"),
            ("5H", "H3"),
            ("8E", "A3"),
            ("8A", "A1"),
        ],
        "1 - 0",
    );
    play(&mut s, "8A-8H");
    assert_eq!(seat(&s), 1);
}

/// E-3(b), E-T2: seat 1 (top-left) is crowned on 8H. The commander moves
/// 8A-8H: no enemy could capture it there (the commander on 12L is in
/// neither line; the horseman on 4H is 4 away, not 3): a win. With an
/// archer on 12H (4 below 8H) it is attackable and play goes on.
#[test]
fn coronation_on_entry() {
    let g = game("empire");
    let base = [("8A", "C1"), ("12L", "C2"), ("4H", "H2")];
    let mut s = pos(&g, &base, "1 - 0");
    play(&mut s, "8A-8H");
    assert_eq!(s.returns(), [1.0, -1.0, 0.0, 0.0]);
    assert_eq!(s.end_reason(), Some("coronation"));
    let mut p = base.to_vec();
    p.push(("12H", "A2"));
    let mut s = pos(&g, &p, "1 - 0");
    play(&mut s, "8A-8H");
    assert_eq!(seat(&s), 1, "attackable: no coronation");
    // The enemy's commander on seat 1's centre is not crowned: seat 2
    // (bottom-right) is crowned on 5E only.
    let mut s = pos(&g, &[("1A", "C1"), ("12H", "C2")], "2 - 0");
    play(&mut s, "12H-8H");
    assert_eq!(seat(&s), 0);
    let mut s = pos(&g, &[("1A", "C1"), ("12E", "C2")], "2 - 0");
    play(&mut s, "12E-5E");
    assert_eq!(s.returns(), [-1.0, 1.0, 0.0, 0.0]);
}

/// Ruling QE3: a commander already standing on its centre does not win
/// later under `coronation=entry`; under `coronation=standing` any move of
/// its side with the commander there unattacked wins.
#[test]
fn coronation_standing_option() {
    let p = [("8H", "C1"), ("2A", "A1"), ("12L", "C2")];
    let mut s = pos(&game("empire"), &p, "1 - 0");
    play(&mut s, "2A-2B");
    assert_eq!(seat(&s), 1);
    let mut s = pos(&game("empire(coronation=standing)"), &p, "1 - 0");
    play(&mut s, "2A-2B");
    assert_eq!(s.returns(), [1.0, -1.0, 0.0, 0.0]);
}

/// E-3(c): capturing the enemy commander wins (2 at distance 2).
#[test]
fn regicide_two_players() {
    let g = game("empire");
    let mut s = pos(&g, &[("1A", "C1"), ("1C", "C2")], "1 - 0");
    play(&mut s, "1Ax1C");
    assert_eq!(s.returns(), [1.0, -1.0, 0.0, 0.0]);
    assert_eq!(s.end_reason(), Some("regicide"));
    assert!(legal(&s).is_empty());
    // The finished position reads back.
    let back = g.parse_position(&s.to_text()).unwrap();
    assert_eq!(back.to_text(), s.to_text());
    assert_eq!(back.returns(), s.returns());
}

/// E-4: with three players, capturing a commander while three remain
/// eliminates its seat; its horseman (6F) and archer (9I) join the
/// capturer, and the eliminated seat is skipped: seat 3 moves next. The
/// absorbed archer then captures at its distance 4 (9I takes 9E). When two
/// remain, capturing a commander wins: seat 3's commander (6C) takes seat
/// 1's commander, 5 above it on 1C.
#[test]
fn elimination_absorption_and_last_regicide() {
    let g = game("empire(players=3)");
    let start = pos(
        &g,
        &[
            ("1A", "C1"),
            ("1C", "C2"),
            ("6F", "H2"),
            ("9I", "A2"),
            ("6C", "C3"),
            ("9E", "H3"),
        ],
        "1 - 0",
    );
    let mut s = start;
    play(&mut s, "1Ax1C");
    assert_eq!(seat(&s), 2, "seat 2 is eliminated and skipped");
    assert!(!s.is_alive(1));
    let want = sly_board(&[
        ("1C", "C1"),
        ("6F", "H1"),
        ("9I", "A1"),
        ("6C", "C3"),
        ("9E", "H3"),
    ]);
    assert_eq!(s.to_text(), format!("{want} 3 - 1"));
    let mut a = s;
    play(&mut a, "6C-6D");
    assert_eq!(seat(&a), 0);
    assert!(mv_ok(&a, "9Ix9E") && mv_ok(&a, "6F-6A"));
    play(&mut a, "9Ix9E");
    assert_eq!(seat(&a), 2);
    let mut b = s;
    play(&mut b, "6Cx1C");
    assert_eq!(b.returns(), [-1.0, -1.0, 1.0, 0.0]);
    assert_eq!(b.end_reason(), Some("regicide"));
}

/// E-5 and ruling QE5: a partner's pieces are friendly (seat 1 cannot take
/// seat 3's horseman 4 away); `partner_capture=true` allows it, but never
/// the partner's commander. Capturing an enemy commander wins for both
/// partners. A partner's commander crowned on its own centre (seat 3,
/// bottom-right, on 5E) wins for the team; a friendly horseman 3 away does
/// not threaten it.
#[test]
fn teams() {
    let p = [
        ("1A", "C1"),
        ("1C", "C2"),
        ("6C", "A1"),
        ("6G", "H3"),
        ("10C", "C3"),
        ("12A", "C4"),
    ];
    let s = pos(&game("empire(players=4,teams=true)"), &p, "1 - 0");
    assert!(!mv_ok(&s, "6Cx6G") && !mv_ok(&s, "6Cx10C"));
    let mut w = s;
    play(&mut w, "1Ax1C");
    assert_eq!(w.returns(), [1.0, -1.0, 1.0, -1.0]);
    let s = pos(
        &game("empire(players=4,teams=true,partner_capture=true)"),
        &p,
        "1 - 0",
    );
    assert!(mv_ok(&s, "6Cx6G") && !mv_ok(&s, "6Cx10C"));
    let mut s = pos(
        &game("empire(players=4,teams=true)"),
        &[
            ("1A", "C1"),
            ("1L", "C2"),
            ("5A", "C3"),
            ("12A", "C4"),
            ("2E", "H1"),
        ],
        "3 - 0",
    );
    play(&mut s, "5A-5E");
    assert_eq!(s.returns(), [1.0, -1.0, 1.0, -1.0]);
    assert_eq!(s.end_reason(), Some("coronation"));
}

/// E-6: the ply cap ends the game in a draw.
#[test]
fn ply_cap_draw() {
    let g = game("empire(ply_cap=10)");
    let mut s = pos(&g, &[("1A", "C1"), ("12L", "C2")], "1 - 9");
    play(&mut s, "1A-1B");
    assert_eq!(s.to_move(), ToMove::Terminal);
    assert_eq!(s.returns(), [0.0; 4]);
    assert_eq!(s.end_reason(), Some("ply cap"));
    assert!(
        g.parse_position(&format!(
            "{} 1 - 10",
            sly_board(&[("1A", "C1"), ("12L", "C2")])
        ))
        .is_err()
    );
}

#[test]
fn game_strings_round_trip() {
    let (s, n) = visit_game("empire", Name).unwrap();
    assert_eq!(
        s,
        "empire(players=2,teams=false,corners=13,template=CAHAAHA.HAH.A...,coronation=entry,partner_capture=false,first_seat=0,ply_cap=1000)"
    );
    assert_eq!(n, 2);
    for spec in [
        "empire(players=3)",
        "empire(players=4,teams=true,partner_capture=true)",
        "empire(players=3,corners=241,first_seat=2,coronation=standing,ply_cap=50)",
        "empire(template=CHAHHAA.AHA.A...)",
    ] {
        let (s, _) = visit_game(spec, Name).unwrap();
        assert_eq!(visit_game(&s, Name).unwrap().0, s, "{spec}");
    }
    let s = game("empire(players=3,first_seat=2)").initial_state(0);
    assert_eq!(s.first_mover_seat(), Some(2));
    assert_eq!(s.seat_role(1).colour, "TR");
}

#[test]
fn bad_game_strings_are_errors() {
    for (spec, needle) in [
        ("empire(players=5)", "2|3|4"),
        ("empire(teams=true)", "teams=true needs players=4"),
        ("empire(players=3,teams=true)", "teams=true needs players=4"),
        ("empire(partner_capture=true)", "needs teams=true"),
        ("empire(corners=11)", "different"),
        ("empire(corners=15)", "corners=\"15\""),
        ("empire(players=3,corners=12)", "corners=\"12\""),
        ("empire(template=CCHAAHA.HAH.A...)", "2 commanders"),
        ("empire(template=CAHA)", "16 of C H A"),
        ("empire(template=CAHAAHA.HAH.Q...)", "letter 'Q'"),
        ("empire(coronation=never)", "entry|standing"),
        ("empire(first_seat=2)", "first_seat=2"),
        ("empire(ply_cap=0)", "ply_cap=0"),
        ("empire(colour=1)", "unknown parameter"),
    ] {
        let e = visit_game(spec, Name).unwrap_err();
        assert!(e.0.contains(needle), "{spec}: {e}");
        assert!(!e.0.contains('\n'), "{spec}: one line: {e}");
    }
}

#[test]
fn bad_positions_are_errors() {
    let g = game("empire");
    let two = sly_board(&[("1A", "C1"), ("12L", "C2")]);
    let g3 = game("empire(players=3)");
    for (g, text, needle) in [
        (&g, String::new(), "expected 3 or 4 fields"),
        (&g, format!("{two} 1"), "expected 3 or 4 fields"),
        (&g, format!("{two} 3 - 0"), "seat to move"),
        (&g, format!("{two} 1 - x"), "ply"),
        (&g, format!("{two} 1 ? 0"), "status"),
        (&g, format!("{two} 1 1:luck 0"), "reason"),
        (&g, format!("{}/......... 1 - 0", two), "13 rows"),
        (
            &g,
            format!("{} 1 - 0", two.replacen("C1", "C3", 1)),
            "seat number 1-2",
        ),
        (
            &g,
            format!("{} 1 - 0", two.replacen("C1", "Q1", 1)),
            "unknown piece letter",
        ),
        (
            &g,
            format!("{} 1 - 0", two.replacen("C1.", "C1", 1)),
            "11 spaces",
        ),
        (
            &g,
            format!("{} 1 - 0", two.replacen("C1.", "C1..", 1)),
            "longer than 12",
        ),
        (
            &g,
            format!(
                "{} 1 - 0",
                sly_board(&[("1A", "C1"), ("1B", "C1"), ("12L", "C2")])
            ),
            "2 commanders",
        ),
        (
            &g,
            format!("{} 1 - 0", sly_board(&[("1A", "C1")])),
            "commander is missing",
        ),
        (
            &g,
            format!("{} 1 - 0", sly_board(&[("1A", "C1"), ("2A", "H2")])),
            "no commander but 1 pieces",
        ),
        (
            &g,
            format!(
                "{} 1 - 0",
                sly_board(&[
                    ("1A", "C1"),
                    ("12L", "C2"),
                    ("2A", "H1"),
                    ("2B", "H1"),
                    ("2C", "H1"),
                    ("2D", "H1"),
                    ("2E", "H1")
                ])
            ),
            "5 horsemen",
        ),
        (
            &g,
            format!(
                "{} 1 - 0",
                sly_board(&[
                    ("5E", "C1"),
                    ("5H", "A1"),
                    ("8E", "A1"),
                    ("8H", "A1"),
                    ("12L", "C2")
                ])
            ),
            "thrones",
        ),
        (
            &g3,
            format!("{} 2 - 0", sly_board(&[("1A", "C1"), ("12L", "C3")])),
            "eliminated",
        ),
        (
            &g3,
            format!(
                "{} 1 - 0",
                sly_board(&[("1A", "C1"), ("12L", "C3"), ("3A", "A2")])
            ),
            "eliminated seat holds none",
        ),
        (
            &g,
            format!("{two} 1 1+2:thrones 5"),
            "not one seat or one team",
        ),
    ] {
        let e = g.parse_position(&text).unwrap_err();
        assert!(e.0.contains(needle), "{text:?}: {e}");
        assert!(!e.0.contains('\n'));
    }
}

#[test]
fn bad_moves_are_errors() {
    let s = game("empire").initial_state(0);
    for (text, needle) in [
        ("", "expected from-to"),
        ("1A1E", "expected from-to"),
        ("1A-2B", "along its row or column"),
        ("1A-1A", "along its row or column"),
        ("13A-1B", "bad Sly square"),
        ("1A-1M", "bad Sly square"),
        ("passs", "expected from-to"),
    ] {
        let e = s.parse_move(text).unwrap_err();
        assert!(e.0.contains(needle), "{text:?}: {e}");
    }
    // Well-formed but illegal: onto a friendly piece, the other seat's
    // piece, a pass while moves exist, a capture at a wrong distance.
    for text in ["1A-1B", "12L-12A", "pass", "1Ax12A", "5E-5F"] {
        assert!(parse_legal_move(&s, text).is_err(), "{text}");
    }
}

/// Random edits of valid texts: an error or a position, never a panic.
#[test]
fn mangled_input_never_panics() {
    for (spec, seed) in [
        ("empire(players=3)", 15),
        ("empire(players=4,teams=true)", 16),
    ] {
        common::mangled_input_never_panics(
            &game(spec),
            "CHA1234./- x:+regicdhronspatw",
            seed,
            5_000,
        );
    }
}

/// `Research::illegal_reason` names the rule a move breaks, worked by hand
/// from E-2, QE5 and E-6 on capture_distances_and_passing_over's position
/// (seat 1 = TL, seat 2 = BR); legal moves give `None`.
#[test]
fn illegal_moves_say_the_rule_they_break() {
    let g = game("empire");
    let why = |s: &engine::empire::EmpireState, t: &str| {
        s.illegal_reason(t)
            .unwrap_or_else(|| panic!("{t} is legal in {}", s.to_text()))
    };
    let s = pos(&g, &CAPTURES, "1 - 0");
    assert_eq!(why(&s, "5E-5F"), "no piece on 5E");
    assert_eq!(
        why(&s, "1C-2C"),
        "the piece on 1C is seat 2 (BR)'s, and seat 1 (TL) is to move"
    );
    // E-2: the commander captures at 2 or 5 only; 1D is 3 away.
    assert_eq!(
        why(&s, "1Ax1D"),
        "a commander captures at exactly 2 or 5 spaces, and the horseman on 1D is 3 away (E-2)"
    );
    // E-2: the archer captures at 4 only; 6E is 2 away.
    assert_eq!(
        why(&s, "6Cx6E"),
        "an archer captures at exactly 4 spaces, and the archer on 6E is 2 away (E-2)"
    );
    // E-2: never onto a friendly piece (10C is seat 1's archer).
    assert!(why(&s, "6Cx10C").ends_with("no piece lands on a friendly piece (E-2)"));
    // E-6: seat 1 has moves, so no pass.
    assert!(why(&s, "pass").ends_with("only with none (E-6)"));
    // The parser's own message: a move onto a piece is written with x.
    assert!(why(&s, "6C-10C").starts_with("bad move"));
    assert_eq!(s.illegal_reason("1Ax1C"), None);
    assert_eq!(s.illegal_reason("6Cx6G"), None);
    assert_eq!(s.illegal_reason("1A-1E"), None);

    // QE5: in teams (seats 1+3 against 2+4) the horseman of seat 3 (BR)
    // on 6G is a partner's, 4 from the archer on 6C.
    let t = [
        ("1A", "C1"),
        ("1C", "C2"),
        ("6C", "A1"),
        ("6G", "H3"),
        ("10C", "C3"),
        ("12A", "C4"),
    ];
    let s = pos(&game("empire(players=4,teams=true)"), &t, "1 - 0");
    assert!(
        why(&s, "6Cx6G").starts_with("the horseman on 6G is seat 3 (BR)'s, seat 1 (TL)'s partner")
    );
    assert!(why(&s, "6Cx6G").ends_with("(E-2, QE5)"));
    let s = pos(
        &game("empire(players=4,teams=true,partner_capture=true)"),
        &t,
        "1 - 0",
    );
    assert_eq!(s.illegal_reason("6Cx6G"), None);
    assert!(why(&s, "6Cx10C").ends_with("a partner's commander is never captured (QE5)"));
    // E-3(c): the commander on 1A takes seat 2's commander on 1C at
    // distance 2: regicide ends the game.
    let mut s = pos(&game("empire(players=4,teams=true)"), &t, "1 - 0");
    play(&mut s, "1Ax1C");
    assert_eq!(why(&s, "6C-7C"), "the game is already over");
}
