//! Andalusia rule tests: the dossier's worked examples and perft counts
//! (`docs/rules/andalusia.md` §2.9, §2.10, read from data files under
//! `tests/suite/data/`), then one test per rule or ruling with hand-derived
//! values, bad input, the generic kit, and Zobrist and notation round trips.
//!
//! Every expected value comes from the dossier or is derived by hand from
//! its numbered rules in the comments next to it; none is engine output
//! pasted back.

use std::collections::BTreeSet;

use crate::common::{data, legal, play, pos, set};
use engine::andalusia::{AndalusiaGame, AndalusiaState, Outcome, Rules, Side, StalemateResult};
use engine::spec::Spec;
use engine::{Game, State, parse_legal_move, perft};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const START: &str = "1ccckccc1/sssssssss/9/9/9/9/9/SSSSSSSSS/1CCCKCCC1 w";

fn game(spec: &str) -> AndalusiaGame {
    AndalusiaGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

// ---------------------------------------------------------------------------
// §2.9 and §2.10 from data files
// ---------------------------------------------------------------------------

#[test]
fn worked_examples_from_data_file() {
    let g = AndalusiaGame::default();
    let text = data("andalusia_examples.txt");
    let mut s: Option<AndalusiaState> = None;
    let mut want_legal: BTreeSet<String> = BTreeSet::new();
    let mut name = String::new();
    let mut examples = 0;
    let finish = |name: &str, s: &Option<AndalusiaState>, want: &mut BTreeSet<String>| {
        if let Some(s) = s
            && !want.is_empty()
        {
            assert_eq!(legal(s), *want, "{name}: legal moves");
        }
        want.clear();
    };
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "example" => {
                finish(&name, &s, &mut want_legal);
                name = rest.to_string();
                examples += 1;
            }
            "position" => s = Some(pos(&g, rest)),
            "record" => play(s.as_mut().unwrap(), rest),
            "legal" => want_legal.extend(set(rest)),
            "count" => {
                let st = s.as_ref().unwrap();
                assert_eq!(
                    st.count_legal_moves(),
                    rest.parse::<usize>().unwrap(),
                    "{name}"
                );
                assert_eq!(legal(st).len(), rest.parse::<usize>().unwrap(), "{name}");
            }
            "illegal" => {
                let st = s.as_ref().unwrap();
                let l = legal(st);
                for m in rest.split_whitespace() {
                    assert!(!l.contains(m), "{name}: {m} should be illegal");
                    assert!(parse_legal_move(st, m).is_err(), "{name}: {m}");
                }
            }
            "check" => {
                assert_eq!(
                    s.as_ref().unwrap().in_check(),
                    rest == "yes",
                    "{name}: check"
                )
            }
            "ending" => {
                let want = match rest {
                    "none" => None,
                    "checkmate" => Some(Outcome::Checkmate),
                    "stalemate" => Some(Outcome::Stalemate),
                    _ => panic!("ending {rest}"),
                };
                assert_eq!(s.as_ref().unwrap().ending(), want, "{name}: ending");
            }
            "winner" => {
                let st = s.as_ref().unwrap();
                let want = match rest {
                    "white" => Some(Side::White),
                    "black" => Some(Side::Black),
                    _ => None,
                };
                assert_eq!(st.winner(), want, "{name}: winner");
                assert!(st.is_terminal());
                let r = st.returns();
                let w = want.unwrap().index();
                assert_eq!((r[w], r[1 - w]), (1.0, -1.0), "{name}: returns");
            }
            _ => panic!("unknown line {line:?}"),
        }
    }
    finish(&name, &s, &mut want_legal);
    assert_eq!(examples, 7);
}

// ---------------------------------------------------------------------------
// The board (§2.2)
// ---------------------------------------------------------------------------

#[test]
fn board_graph_links_and_lines() {
    use engine::andalusia::Geometry;
    use engine::board::Dir;
    let g = &Geometry::get().graph;
    // A-B1: 40 links in each of n, s, e, w; 32 in each diagonal direction.
    for d in [Dir::N, Dir::S, Dir::E, Dir::W] {
        assert_eq!(g.link_count(d), 40, "{}", d.name());
    }
    for d in [Dir::NE, Dir::NW, Dir::SE, Dir::SW] {
        assert_eq!(g.link_count(d), 32, "{}", d.name());
    }
    // A-B3: 24 lines: 5 + 5 + 7 + 7.
    assert_eq!(g.lines().len(), 24);
    // A-B2: point classes by number of linked directions: 25 full points
    // (corners 3, edges 5, inside 8), 20 horizontal-only, 20
    // vertical-only, 16 diagonal-only.
    let classes = (0..81)
        .map(|sq| {
            let dirs: Vec<Dir> = Dir::ALL
                .into_iter()
                .filter(|&d| g.has_link(sq, d))
                .collect();
            let h = dirs.iter().any(|d| matches!(d, Dir::E | Dir::W));
            let v = dirs.iter().any(|d| matches!(d, Dir::N | Dir::S));
            let x = dirs
                .iter()
                .any(|d| matches!(d, Dir::NE | Dir::NW | Dir::SE | Dir::SW));
            (h, v, x)
        })
        .collect::<Vec<_>>();
    let count = |c: (bool, bool, bool)| classes.iter().filter(|&&k| k == c).count();
    assert_eq!(count((true, true, true)), 25);
    assert_eq!(count((true, false, false)), 20);
    assert_eq!(count((false, true, false)), 20);
    assert_eq!(count((false, false, true)), 16);
    // A corner lies on one diagonal line only: a1 has no NW/SE link.
    assert!(g.has_link(0, Dir::NE) && !g.has_link(0, Dir::NW));
    // The longest diagonal a1-i9 and the short one a7-b8-c9.
    let sq = |n: &str| engine::board::parse_square(n, 9, 9).unwrap() as u32;
    assert_eq!(g.ray(Dir::NE, sq("a1")).count_ones(), 8);
    assert_eq!(g.ray(Dir::NE, sq("a7")).count_ones(), 2);
    assert_eq!(g.ray(Dir::NE, sq("b1")), 0);
}

// ---------------------------------------------------------------------------
// Movement (§2.4), hand-derived
// ---------------------------------------------------------------------------

#[test]
fn soldier_steps_by_point_class() {
    let g = AndalusiaGame::default();
    // A-M3: a White soldier on b3 (horizontal-only) steps only sideways:
    // a3, c3. One on c4 (vertical-only) only straight ahead: c5. One on d4
    // (full point) N d5? d4 is x=3 (odd), y=3 (odd): diagonal-only, so NE
    // e5 and NW c5. Kings a8/i2 (vertical-only points) off their lines.
    let s = pos(&g, "9/k8/9/9/9/9/1S7/8K/9 w");
    let soldier: BTreeSet<String> = legal(&s)
        .into_iter()
        .filter(|m| m.starts_with("b3"))
        .collect();
    assert_eq!(soldier, set("b3-a3 b3-c3"));
    let s = pos(&g, "9/k8/9/9/9/2S6/9/8K/9 w");
    let soldier: BTreeSet<String> = legal(&s)
        .into_iter()
        .filter(|m| m.starts_with("c4"))
        .collect();
    assert_eq!(soldier, set("c4-c5"));
    let s = pos(&g, "9/k8/9/9/9/3S5/9/8K/9 w");
    let soldier: BTreeSet<String> = legal(&s)
        .into_iter()
        .filter(|m| m.starts_with("d4"))
        .collect();
    assert_eq!(soldier, set("d4-e5 d4-c5"));
}

#[test]
fn soldier_captures_forward_and_sideways() {
    let g = AndalusiaGame::default();
    // A-M3: moves and captures alike. White soldier e5 (full point) with
    // black soldiers on e6, d5 and a black chariot on d6: e5xe6 (N), e5-f6
    // (NE), e5xd6 (NW), e5xd5 (W), e5-f5 (E). Kings a8 and i2
    // (vertical-only, so no pin: with the White King on i1 the chariot d6
    // would pin e5 along i1-e5-d6).
    let s = pos(&g, "9/k8/9/3cs4/3sS4/9/9/8K/9 w");
    let soldier: BTreeSet<String> = legal(&s)
        .into_iter()
        .filter(|m| m.starts_with("e5"))
        .collect();
    assert_eq!(soldier, set("e5xe6 e5xd6 e5xd5 e5-f5 e5-f6"));
}

#[test]
fn double_step_needs_both_points_empty() {
    let g = AndalusiaGame::default();
    // A-M4: b2 has NE double b2-c3-d4 and no NW double (a3 has no NW
    // link). With c3 occupied, neither b2-c3 nor b2-d4.
    let mut s = g.initial_state(0);
    let l = legal(&s);
    assert!(l.contains("b2-d4") && !l.contains("b2-a4"));
    // 1. c2-c3 e8-e7: now b2-c3 and b2-d4 are gone, d2-c3 too.
    play(&mut s, "c2-c3 e8-e7");
    let l = legal(&s);
    assert!(!l.contains("b2-c3") && !l.contains("b2-d4") && !l.contains("d2-c3"));
    // A double step is never a capture: a black soldier on e4 blocks e2-e4
    // (the destination) and one on e3 blocks both.
    let s = pos(&g, "9/k8/9/9/9/4s4/9/4S3K/9 w");
    let l = legal(&s);
    assert!(l.contains("e2-e3") && !l.contains("e2-e4") && !l.contains("e2xe4"));
}

#[test]
fn promotion_is_mandatory_also_by_capture() {
    let g = AndalusiaGame::default();
    // A-M5: White soldier e7 with a black chariot on d8: e7-e8=C and
    // e7xd8=C; e7-f8=C. The promoted chariot on e8 (vertical-only) then
    // slides along the e-file only. Kings a8 and i2.
    let mut s = pos(&g, "9/k2c5/4S4/9/9/9/9/8K/9 w");
    let soldier: BTreeSet<String> = legal(&s)
        .into_iter()
        .filter(|m| m.starts_with("e7"))
        .collect();
    assert_eq!(soldier, set("e7-e8=C e7xd8=C e7-f8=C e7-d7 e7-f7"));
    play(&mut s, "e7xd8=C");
    assert!(s.to_text().starts_with("9/k2C5/9/"), "{}", s.to_text());
    assert_eq!(s.quiet_plies(), 0);
    // Black's King a8 (vertical-only) has a9 and a7. The new chariot on d8
    // (diagonal-only) sees c9, e9 and c7-b6-a5, e7-f6-...: neither a9
    // (rank 9, file a, diagonal a9-i1) nor a7 (rank 7, file a, diagonals
    // a7-b8-c9 and a7-b6-...-g1) is attacked. Both legal.
    let l = legal(&s);
    assert_eq!(l, set("a8-a9 a8-a7"));
}

#[test]
fn chariot_slides_stop_at_the_first_piece() {
    let g = AndalusiaGame::default();
    // A-M2: a White chariot on e5 (full point) with a black soldier on e8
    // and its own soldier on c5: N e6 e7 xe8; S e4 e3 e2 (e1 is its King);
    // E f5 g5 h5 i5; W d5; NE f6 g7 h8 xi9? i9 is empty: f6 g7 h8 i9;
    // NW d6 c7 b8 a9... a9 is the black King: d6 c7 b8 only;
    // SE f4 g3 h2 i1; SW d4 c3 b2 a1. (Black King on a8, off all these
    // lines; on a9 it would be in check along e5-d6-c7-b8-a9.)
    let s = pos(&g, "9/k3s4/9/9/2S1C4/9/9/9/4K4 w");
    let chariot: BTreeSet<String> = legal(&s)
        .into_iter()
        .filter(|m| m.starts_with("e5"))
        .collect();
    assert_eq!(
        chariot,
        set(
            "e5-e6 e5-e7 e5xe8 e5-e4 e5-e3 e5-e2 e5-f5 e5-g5 e5-h5 e5-i5 e5-d5 \
             e5-f6 e5-g7 e5-h8 e5-i9 e5-d6 e5-c7 e5-b8 e5-a9 e5-f4 e5-g3 e5-h2 e5-i1 \
             e5-d4 e5-c3 e5-b2 e5-a1"
        )
    );
}

// ---------------------------------------------------------------------------
// King safety (§2.5)
// ---------------------------------------------------------------------------

#[test]
fn king_may_not_step_onto_an_open_line_with_the_other_king() {
    let g = AndalusiaGame::default();
    // A-K2: White Ke1, Black kc9. e1's steps: d1, f1 (rank 1), e2 (file),
    // d2 and f2 (diagonals). d2 lies on the diagonal e1-d2-c3-b4-a5, not
    // with c9. The c-file: c9 ... c1; the King on d1? d1 is on rank 1 only,
    // no. Which steps see c9? c9's lines: rank 9, file c, diagonal
    // c9-d8-e7-f6-g5-h4-i3 and c9-b8-a7. None of d1, f1, e2, d2, f2 is on
    // them: all 5 legal. With the black King on e9 instead? Not a legal
    // position (e-file open). Put it on g9: its diagonal g9-f8-e7-d6-c5-b4-a3
    // and g-file; still none. Now a black king on a5 (diagonal
    // a5-b4-c3-d2-e1 is open): this position is illegal (facing), refused.
    assert!(g.parse_position("9/9/9/9/k8/9/9/9/4K4 w").is_err());
    // Black king on a6 (vertical-only, file a) and White King e1: e1-d2 is
    // fine (a5-e1 diagonal has no king). White King on c1: steps c2 (file
    // c), b1, d1 (rank 1), b2, d2 (diagonals). Black king on a3? a3 lines:
    // rank 3, file a, diagonal a3-b4-c5-..., a3-b2-c1: c1 faces a3 along
    // c1-b2-a3. Illegal. Black king on a4 (vertical-only): file a only.
    // White K on c1 then: b1? rank 1 with a1 (empty) - a4 is not on rank 1.
    // All of c2 b1 d1 b2 d2 legal.
    let s = pos(&g, "9/9/9/9/9/k8/9/9/2K6 w");
    assert_eq!(legal(&s), set("c1-c2 c1-b1 c1-d1 c1-b2 c1-d2"));
    // Black king on a5; White king on c1: b2 sees a3? No king there. The
    // steps: c2 is on file c; b1, d1 rank 1; b2 on diagonal a3-b2-c1 and
    // b2 is diagonal-only so also a1-b2-c3-d4-e5; d2 on e1-d2-c3-b4-a5:
    // the black king a5 sees d2 through c3, b4 (empty): illegal.
    let s = pos(&g, "9/9/9/9/k8/9/9/9/2K6 w");
    assert_eq!(legal(&s), set("c1-c2 c1-b1 c1-d1 c1-b2"));
}

#[test]
fn a_lone_blocker_between_kings_is_pinned() {
    let g = AndalusiaGame::default();
    // A-K2: White Ke1, a White soldier on e5, Black ke9. (A White
    // chariot as the lone blocker would check e9: not a legal position.)
    // The soldier may move along the e-file only: e5-e6; its other steps
    // d6 f6 d5 f5 leave the Kings facing.
    let s = pos(&g, "4k4/9/9/9/4S4/9/9/9/4K4 w");
    let l = legal(&s);
    let soldier: BTreeSet<String> = l.iter().filter(|m| m.starts_with("e5")).cloned().collect();
    assert_eq!(soldier, set("e5-e6"));
    assert!(g.parse_position("4k4/9/9/9/4C4/9/9/9/4K4 w").is_err());
    // Two blockers (a Black soldier on e7 too): neither is pinned.
    let s = pos(&g, "4k4/9/4s4/9/4S4/9/9/9/4K4 w");
    let l = legal(&s);
    let soldier: BTreeSet<String> = l.iter().filter(|m| m.starts_with("e5")).cloned().collect();
    assert_eq!(soldier, set("e5-e6 e5-d6 e5-f6 e5-d5 e5-f5"));
}

#[test]
fn check_evasions_block_capture_or_step_away() {
    let g = AndalusiaGame::default();
    // A soldier check has nothing between: White Ke3, a black soldier on e4
    // (vertical-only point, attacks S onto e3). Evasions: the King steps
    // (not into attacks) or captures e4; a White chariot on a4? a4 is
    // vertical-only (file a): cannot reach e4. A White chariot on a5 does
    // not help either. Keep only Kings and the soldier: Black king a9.
    // Ke3's steps: e4 (capture; e4 is then attacked? by nothing: a9 sees
    // e4? a9 is on rank 9, file a, diagonal a9-...-i1? a9 has SE link
    // (0+8 even): a9-b8-c7-d6-e5-f4-g3-h2-i1 - not e4), e2, d3, f3, d4?
    // d4 is on a9's diagonal? No (a9-b8-c7-d6-e5). d4, f4: f4 is on the
    // a9-i1 diagonal through b8 c7 d6 e5 - all empty: f4 is attacked by
    // the flying King: illegal. d2, f2.
    // The soldier on e4 attacks d4? A black soldier moves S, SE, SW, E, W;
    // from e4 (vertical-only) only S (e3). So d4 and f3 are not attacked
    // by it. d3: rank 3, not attacked.
    let s = pos(&g, "k8/9/9/9/9/4s4/4K4/9/9 w");
    assert!(s.in_check());
    assert_eq!(legal(&s), set("e3xe4 e3-e2 e3-d3 e3-f3 e3-d4 e3-d2 e3-f2"));
}

#[test]
fn double_check_leaves_only_king_moves() {
    let g = AndalusiaGame::default();
    // White Ke3; black chariot e7 (e-file, e4-e6 empty) and a black
    // soldier on f3 (horizontal-only: steps W onto e3) both check. A White
    // chariot on i7 could capture e7 along rank 7 - not allowed in double
    // check. King steps: e4 and e2 (file e: e7 sees e2 through the vacated
    // e3) attacked; d3 safe (the soldier steps only onto e3; rank 3 holds
    // no slider); xf3 safe; d4 safe (its lines a1-b2-c3-d4-e5-... and
    // a7-b6-c5-d4-e3-f2-g1 hold no black slider); f4 is on
    // a9-b8-c7-d6-e5-f4-g3-h2-i1 with the black King a9 and b8-e5 empty:
    // the flying King attacks it; d2, f2 safe.
    let s = pos(&g, "k8/9/4c3C/9/9/9/4Ks3/9/9 w");
    assert!(s.in_check());
    assert_eq!(legal(&s), set("e3-d3 e3xf3 e3-d4 e3-d2 e3-f2"));
}

// ---------------------------------------------------------------------------
// End of game (§2.6) and the rulings
// ---------------------------------------------------------------------------

#[test]
fn stalemate_ruling_option() {
    // A-R2 via the option: E-A6's stalemate is a loss by default, a draw
    // with stalemate=draw.
    let text = "2C6/k8/9/9/9/9/9/9/4K4 b";
    let s = pos(&game("andalusia"), text);
    assert_eq!(s.winner(), Some(Side::White));
    let s = pos(&game("andalusia(stalemate=draw)"), text);
    assert!(s.is_terminal());
    assert_eq!(s.ending(), Some(Outcome::Stalemate));
    assert_eq!(s.winner(), None);
    assert_eq!(s.returns()[..2], [0.0, 0.0]);
}

#[test]
fn threefold_repetition_draws() {
    // A-R3 (i): the chariot shuffle b1-a1 b9-a9 a1-b1 a9-b9 returns to the
    // start; twice over it is the third occurrence, at ply 8.
    let mut s = game("andalusia").initial_state(0);
    play(&mut s, "b1-a1 b9-a9 a1-b1 a9-b9 b1-a1 b9-a9 a1-b1");
    assert!(!s.is_terminal());
    play(&mut s, "a9-b9");
    assert_eq!(s.ending(), Some(Outcome::Repetition));
    assert_eq!(s.returns()[..2], [0.0, 0.0]);
    // With repetitions=2 the second occurrence (ply 4) draws; with 0 never.
    let mut s = game("andalusia(repetitions=2)").initial_state(0);
    play(&mut s, "b1-a1 b9-a9 a1-b1 a9-b9");
    assert_eq!(s.ending(), Some(Outcome::Repetition));
    let mut s = game("andalusia(repetitions=0)").initial_state(0);
    play(
        &mut s,
        "b1-a1 b9-a9 a1-b1 a9-b9 b1-a1 b9-a9 a1-b1 a9-b9 b1-a1 b9-a9 a1-b1 a9-b9",
    );
    assert!(!s.is_terminal());
}

#[test]
fn repetition_counts_across_a_long_reversible_window() {
    // More than 16 plies between occurrences (the history's inline part):
    // a White chariot tours rank 1 b1-c1-...-i1-b1 (8 moves) while a Black
    // chariot shuffles e9-f9-e9: the position repeats every 16 plies, so
    // the start occurs for the third time at ply 32, and no position
    // occurs three times before.
    let g = AndalusiaGame::default();
    let mut s = pos(&g, "4c4/k8/9/9/9/9/9/8K/1C7 w");
    let tour = [
        "b1-c1", "c1-d1", "d1-e1", "e1-f1", "f1-g1", "g1-h1", "h1-i1", "i1-b1",
    ];
    let mut record = Vec::new();
    for lap in 0..2 {
        for (i, w) in tour.iter().enumerate() {
            record.push(w.to_string());
            record.push(
                if (lap * 8 + i) % 2 == 0 {
                    "e9-f9"
                } else {
                    "f9-e9"
                }
                .to_string(),
            );
        }
    }
    play(&mut s, &record[..31].join(" "));
    assert!(!s.is_terminal(), "{}", s.to_text());
    play(&mut s, &record[31]);
    assert_eq!(s.ending(), Some(Outcome::Repetition));
    assert_eq!(s.ply(), 32);
}

#[test]
fn irreversible_moves_reset_the_repetition_window() {
    // A sideways soldier step is reversible and counts: White Sb3
    // (horizontal-only) shuffles b3-c3-b3 while Black's King shuffles
    // a8-a9-a8; the start recurs at plies 4 and 8.
    let g = AndalusiaGame::default();
    let mut s = pos(&g, "9/k8/9/9/9/9/1S7/8K/9 w");
    play(&mut s, "b3-c3 a8-a9 c3-b3 a9-a8 b3-c3 a8-a9 c3-b3");
    assert!(!s.is_terminal());
    play(&mut s, "a9-a8");
    assert_eq!(s.ending(), Some(Outcome::Repetition));
    // After a capture: the position after b3xc3 recurs after plies 5 and 9.
    let mut s = pos(&g, "9/k8/9/9/9/9/1Ss6/8K/9 w");
    play(&mut s, "b3xc3 a8-a9 c3-b3 a9-a8 b3-c3 a8-a9 c3-b3 a9-a8");
    assert!(!s.is_terminal());
    play(&mut s, "b3-c3");
    assert_eq!(s.ending(), Some(Outcome::Repetition));
}

#[test]
fn quiet_plies_rule_and_ply_cap() {
    // A-R3 (ii): 4 quiet plies with quiet_plies=4.
    let mut s = game("andalusia(quiet_plies=4)").initial_state(0);
    play(&mut s, "b1-a1 b9-a9 h1-i1");
    assert!(!s.is_terminal());
    assert_eq!(s.quiet_plies(), 3);
    play(&mut s, "h9-i9");
    assert_eq!(s.ending(), Some(Outcome::QuietPlies));
    // A soldier move resets the count.
    let mut s = game("andalusia(quiet_plies=4)").initial_state(0);
    play(&mut s, "b1-a1 b9-a9 h1-i1 e8-e7 a1-b1");
    assert_eq!(s.quiet_plies(), 1);
    assert!(!s.is_terminal());
    // A-R3 (iii): the ply cap.
    let mut s = game("andalusia(ply_cap=3,repetitions=0)").initial_state(0);
    play(&mut s, "b1-a1 b9-a9 h1-i1");
    assert_eq!(s.ending(), Some(Outcome::PlyCap));
    assert_eq!(s.returns()[..2], [0.0, 0.0]);
}

#[test]
fn quiet_plies_default_is_100() {
    // A-R3 (ii) at its default: 100 chariot moves (repetition off so the
    // shuffle may repeat); ply 99 is still on, ply 100 draws.
    let mut s = game("andalusia(repetitions=0)").initial_state(0);
    let cycle = "b1-a1 b9-a9 a1-b1 a9-b9";
    for _ in 0..24 {
        play(&mut s, cycle);
    }
    play(&mut s, "b1-a1 b9-a9 a1-b1");
    assert_eq!(s.quiet_plies(), 99);
    assert!(!s.is_terminal());
    play(&mut s, "a9-b9");
    assert_eq!(s.ending(), Some(Outcome::QuietPlies));
}

#[test]
fn checkmate_beats_the_quiet_plies_rule() {
    // [OURS] order: a mate on the last quiet ply wins. Black kb9, White
    // Ke1 and a chariot on i5 that mates by i5-i9 (E-A6's mate). With
    // quiet_plies=1 the mating (quiet) ply would also end by the rule.
    let s0 = pos(
        &game("andalusia(quiet_plies=1)"),
        "1k7/9/9/9/8C/9/9/9/4K4 w",
    );
    let mut s = s0.clone();
    play(&mut s, "i5-i9");
    assert_eq!(s.ending(), Some(Outcome::Checkmate));
    assert_eq!(s.winner(), Some(Side::White));
}

// ---------------------------------------------------------------------------
// Notation (§2.7), position text, bad input
// ---------------------------------------------------------------------------

#[test]
fn notation_and_position_text() {
    let g = AndalusiaGame::default();
    let s = g.initial_state(0);
    assert_eq!(s.to_text(), format!("{START} 0 0"));
    assert_eq!(pos(&g, START).to_text(), s.to_text());
    assert_eq!(pos(&g, START).zobrist(), s.zobrist());
    let mut t = s.clone();
    play(&mut t, "e2-e4 e8-e6 b1-a1");
    assert_eq!(
        t.to_text(),
        "1ccckccc1/ssss1ssss/9/4s4/9/4S4/9/SSSS1SSSS/C1CCKCCC1 b 1 3"
    );
    // Zobrist: a different move order to the same position gives the same
    // key, and the incremental key equals the recomputed one.
    let mut u = s.clone();
    play(&mut u, "b1-a1 e8-e6 e2-e4");
    assert_eq!(u.zobrist(), t.zobrist());
    assert_eq!(u.zobrist(), u.zobrist_from_scratch());
    // The canonical game string parses back to itself.
    let gs = g.game_string();
    assert_eq!(
        gs,
        "andalusia(stalemate=loss,repetitions=3,quiet_plies=100,ply_cap=600)"
    );
    assert_eq!(game(&gs).game_string(), gs);
}

#[test]
fn bad_positions_are_clear_errors() {
    let g = AndalusiaGame::default();
    for (text, needle) in [
        ("", "expected 2 to 4 fields"),
        ("4k4/9/9/9/9/9/9/9 w", "8 ranks, expected 9"),
        ("4k5/9/9/9/9/9/9/9/2K6 w", "rank 9 has 10 points"),
        ("4k4/9/9/9/9/9/9/9/2K6C w", "past file i"),
        ("4k3/9/9/9/9/9/9/9/2K6 w", "has 8 points"),
        ("4k4/9/9/9/9/9/9/9/2K2K3 w", "2 White Kings"),
        ("9/9/9/9/9/9/9/9/2K6 w", "no Black King"),
        ("4k4/9/9/9/9/9/9/9/4K4 w", "face each other"),
        ("4k4/9/9/9/9/9/9/9/2K6 x", "side to move"),
        ("4k4/9/9/9/9/9/9/9/2K6 w -1", "quiet plies"),
        ("4k4/9/9/9/9/9/9/9/2K6 w 0 z", "ply"),
        ("4k4/9/9/9/9/9/9/9/2K6 w 0 0 9", "expected 2 to 4 fields"),
        ("4k4/4S4/9/9/9/9/9/9/2K6 w", "White Soldier on e8"),
        ("4k4/9/9/9/9/9/9/9/2K1S4 w", "White Soldier on e1"),
        ("4k4/9/9/9/9/9/9/4s4/2K6 w", "Black Soldier on e2"),
        ("4k4/9/9/9/9/9/9/9/2K3X2 w", "unknown piece letter"),
        ("4k4/9/9/9/9/9/9/9/2K6/9 w", "10 ranks"),
        ("4k4/9/9/9/9/9/9/9/2K06 w", "run of 0"),
        // Black (not to move) in check from the chariot on e1's file? The
        // White chariot e5 sees e9.
        (
            "4k4/9/9/9/4C4/9/9/9/2K6 w",
            "Black (not to move) is in check",
        ),
        (
            "4k4/SSSSSSSSS/SSSSSSSSS/9/9/9/9/9/2K6 w",
            "White Soldier on a8",
        ),
        ("4k4/9/SSSSSSSSS/S8/9/9/9/9/2K6 w", "10 Soldiers"),
    ] {
        let e = g
            .parse_position(text)
            .err()
            .unwrap_or_else(|| panic!("{text:?} accepted"));
        assert!(e.0.contains(needle), "{text:?}: {e}");
        assert!(!e.0.contains('\n'), "one line: {e}");
    }
}

#[test]
fn bad_moves_are_clear_errors() {
    let g = AndalusiaGame::default();
    let s = g.initial_state(0);
    for (text, needle) in [
        ("", "expected from-to"),
        ("e2e4", "expected from-to"),
        ("e2-e10", "bad square"),
        ("j2-j3", "bad square"),
        ("e2-f4", "not two points on one line"),
        ("e2-e2", "not two points on one line"),
        ("e2-e3=Q", "Chariot only"),
        ("e2-e3=C", "=C is only for"),
        ("e2-e5", "not legal"),
        ("e2xe3", "not legal"),
        ("e1-e2", "not legal"),
        ("b2-a1", "not legal"),
        ("e7-e6", "not legal"),
    ] {
        let e = parse_legal_move(&s, text)
            .err()
            .unwrap_or_else(|| panic!("{text:?} accepted"));
        assert!(e.0.contains(needle), "{text:?}: {e}");
        assert!(!e.0.contains('\n'));
    }
    // The promotion suffix is mandatory.
    let s = pos(&g, "4k4/9/6S2/9/4S4/9/4K4/2S6/cC6c w");
    let e = parse_legal_move(&s, "g7-g8").unwrap_err();
    assert!(e.0.contains("promotes: write g7-g8=C"), "{e}");
    // A move after the end of the game.
    let s = pos(&g, "1k6C/9/9/9/9/9/9/9/4K4 b");
    let e = parse_legal_move(&s, "b9-a9").unwrap_err();
    assert!(e.0.contains("already over"), "{e}");
    // Bad game strings list the valid values.
    for (spec, needle) in [
        ("andalusia(stalemate=win)", "loss|draw"),
        ("andalusia(repetitions=1)", "2..=10"),
        ("andalusia(ply_cap=0)", "1..=100000"),
        ("andalusia(size=9)", "unknown parameter"),
    ] {
        let e = AndalusiaGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_err();
        assert!(e.0.contains(needle), "{spec}: {e}");
    }
}

// ---------------------------------------------------------------------------
// Kit, round trips, perft agreement of count and list
// ---------------------------------------------------------------------------

#[test]
fn zobrist_and_notation_round_trips_on_playouts() {
    let g = AndalusiaGame::default();
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut buf = Vec::new();
    let mut n = 0;
    for _ in 0..20 {
        let mut s = g.initial_state(0);
        while !s.is_terminal() {
            assert_eq!(s.zobrist(), s.zobrist_from_scratch());
            let back = pos(&g, &s.to_text());
            assert_eq!(back.to_text(), s.to_text());
            assert_eq!(back.zobrist(), s.zobrist());
            s.legal_moves(&mut buf);
            for &m in &buf {
                let t = s.move_to_text(m);
                assert_eq!(s.parse_move(&t).unwrap(), m);
                assert_eq!(parse_legal_move(&s, &t).unwrap(), m);
                n += 1;
            }
            let m = buf[rng.random_range(0..buf.len())];
            s.apply(m);
        }
    }
    assert!(n > 10_000);
}

#[test]
fn rules_struct_defaults_match_the_dossier() {
    let r = Rules::default();
    assert_eq!(r.stalemate, StalemateResult::Loss);
    assert_eq!((r.repetitions, r.quiet_plies, r.ply_cap), (3, 100, 600));
}

#[test]
fn specialised_perft_equals_the_generic_one() {
    // The module's perft skips the no-move probe when making a child; it
    // must count exactly what engine::perft counts, also where draws and
    // mates end lines inside the horizon.
    let g = AndalusiaGame::default();
    for (spec, text, depth) in [
        ("andalusia", START, 4),
        ("andalusia", "4k4/9/6S2/9/4S4/9/4K4/2S6/cC6c w", 4),
        ("andalusia", "9/9/2k6/9/2S6/9/2K5c/9/C5C2 w", 4),
        ("andalusia(quiet_plies=3)", "3k5/9/9/9/9/9/9/9/4K1C2 w", 5),
        ("andalusia(ply_cap=3)", START, 4),
        ("andalusia(repetitions=2)", START, 5),
        ("andalusia", "2c5k/9/9/9/9/9/9/9/4K1C2 b", 4),
    ] {
        let gg = game(spec);
        let s = pos(&gg, text);
        assert_eq!(s.perft(depth), perft(&s, depth), "{spec} {text}");
    }
    // From a played position with history: the start after a chariot
    // shuffle (second occurrence): the shuffle again reaches the third
    // occurrence at depth 4, a terminal node that has no children at
    // depth 5.
    let mut s = g.initial_state(0);
    play(&mut s, "b1-a1 b9-a9 a1-b1 a9-b9");
    assert_eq!(s.perft(5), perft(&s, 5));
    assert_ne!(s.perft(5), g.initial_state(0).perft(5));
}

// ---------------------------------------------------------------------------
// Illegal moves: the reason a player is given (Research::illegal_reason)
// ---------------------------------------------------------------------------

/// Each illegal move is answered with the rule it breaks; the expected
/// words come from the rule cited (links by A-B1: N/S on files a c e g i,
/// E/W on ranks 1 3 5 7 9, diagonals where x + y is even).
#[test]
fn illegal_moves_say_the_rule_they_break() {
    use engine::Research;
    let g = game("andalusia");
    let why = |s: &AndalusiaState, t: &str| {
        s.illegal_reason(t)
            .unwrap_or_else(|| panic!("{t} is legal in {}", s.to_text()))
    };
    let s = pos(&g, START);
    // A-S2: the corners start empty; e8 is Black's.
    assert_eq!(why(&s, "a1-a2"), "no piece on a1");
    assert_eq!(
        why(&s, "e8-e7"),
        "the piece on e8 is Black's, and White is to move"
    );
    // §2.4: capture by replacement takes enemy pieces only.
    assert_eq!(
        why(&s, "e1-e2"),
        "e2 holds a White piece, and a capture takes an enemy piece (§2.4)"
    );
    // §2.7: `x` only for a capture.
    assert_eq!(
        why(&s, "b1xa1"),
        "a1 is empty: a move without capture is written b1-a1 (§2.7)"
    );
    // A-M2: the Chariot on c1 meets b1 on its way to a1.
    assert_eq!(
        why(&s, "c1-a1"),
        "c1-a1 is blocked by the piece on b1, and nothing jumps (A-M2)"
    );
    // A-M1: the King moves one step.
    assert_eq!(
        why(&s, "e1-e3"),
        "a King moves one step along a link, and e3 is 2 away (A-M1)"
    );
    // A-M3, A-M4: at most two points, and two only from the start rank.
    assert!(why(&s, "e2-e5").ends_with("(A-M3, A-M4)"));
    assert_eq!(s.illegal_reason("e2-e4"), None);

    // After e2-e3 e8-e7: e3 is off the start rank; d2's double step NE
    // (d2, e3, f4: x + y even, so diagonal links) crosses e3.
    let mut s = s;
    play(&mut s, "e2-e3 e8-e7");
    assert_eq!(
        why(&s, "e3-e5"),
        "a Soldier steps two points only from its start rank 2, and e3 is not on it (A-M4)"
    );
    assert_eq!(
        why(&s, "e3-e2"),
        "a White Soldier steps N, NE, NW, E or W, never backward (A-M3)"
    );
    assert_eq!(
        why(&s, "d2-f4"),
        "d2-f4 is blocked by the piece on e3, and nothing jumps (A-M4)"
    );
    // E-A2: after e3-f3 the e-file holds only e7 between the Kings, so e7
    // is pinned by the flying King (A-K1, A-K2) and may only go to e6.
    play(&mut s, "e3-f3");
    assert_eq!(
        why(&s, "e7-d7"),
        "would leave the Kings facing each other along an empty line (A-K1, A-K2)"
    );
    assert_eq!(s.illegal_reason("e7-e6"), None);

    // E-A5: White Kc3 is in check from ci3 along rank 3 (A-K1).
    let s = pos(&g, "9/9/2k6/9/2S6/9/2K5c/9/C5C2 w");
    assert_eq!(
        why(&s, "a1-a2"),
        "would leave the White King attacked (A-K1)"
    );
    assert_eq!(
        why(&s, "c3-d3"),
        "d3 is attacked, and the King may not move into check (A-K1)"
    );
    assert_eq!(s.illegal_reason("g1-g3"), None);
    // Malformed text keeps the parser's message.
    assert!(why(&s, "c3d3").starts_with("bad move"));
}
