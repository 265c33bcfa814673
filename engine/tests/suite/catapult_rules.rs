//! Catapult rule tests: one test per rule or worked example of the rules
//! dossier (`docs/rules/catapult.md`), each citing its section.
//!
//! Every expected value comes from the dossier (worked examples §1.15,
//! perft counts §1.16) or is derived by hand from its numbered rules in the
//! comments next to it; none is engine output pasted back.

use crate::common::{legal, play, pos, set};
use engine::Research;
use engine::catapult::{CatapultBits, CatapultGame, CatapultMove, CatapultState, Rules, Side};
use engine::spec::Spec;
use engine::{
    Game, GameVisitor, Search, State, ToMove, apply_moves, parse_legal_move, perft, visit_game,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn game8(spec: &str) -> CatapultGame<u64> {
    CatapultGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn game9(spec: &str) -> CatapultGame<u128> {
    CatapultGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn returns2<B: CatapultBits>(s: &CatapultState<B>) -> [f64; 2] {
    let r = s.returns();
    [r[0], r[1]]
}

fn assert_terminal<B: CatapultBits>(s: &CatapultState<B>) {
    assert!(s.is_terminal(), "{}", s.to_text());
    assert_eq!(s.to_move(), ToMove::Terminal);
    assert_eq!(s.count_legal_moves(), 0);
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    assert!(v.is_empty());
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert_eq!(s.sample_legal_move(&mut rng, &mut v), None);
}

/// Square index `rank · n + file`, computed here.
fn sq(name: &str, n: u32) -> u32 {
    let b = name.as_bytes();
    (name[1..].parse::<u32>().unwrap() - 1) * n + (b[0] - b'a') as u32
}

/// An 8×8 position text from `(square, letter)` pieces.
fn board8(pieces: &[(&str, char)], to_move: char, dagger: char) -> String {
    let mut grid = [['.'; 8]; 8];
    for &(s, ch) in pieces {
        let i = sq(s, 8) as usize;
        grid[7 - i / 8][i % 8] = ch;
    }
    let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    format!("{} {to_move} {dagger} 0", rows.join("/"))
}

// ---------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------

/// The dossier's defaults (C-B1 8×8, no Royal, no Dagger, C-D5 on, C-R2 cap
/// 2,000) and rejects of bad parameters, listing the valid ones.
#[test]
fn game_string_defaults_and_rejects() {
    assert_eq!(
        game8("catapult").game_string(),
        "catapult(size=8,royal=false,dagger=false,dagger_move_then_pass=true,ply_cap=2000)"
    );
    assert_eq!(
        game9("catapult(size=9, royal=true)").game_string(),
        "catapult(size=9,royal=true,dagger=false,dagger_move_then_pass=true,ply_cap=2000)"
    );
    let s = "catapult(size=8,royal=true,dagger=true,dagger_move_then_pass=false,ply_cap=50)";
    assert_eq!(game8(s).game_string(), s);
    assert_eq!(game8(s).rules().ply_cap, 50);

    let err = |spec: &str| {
        CatapultGame::<u128>::from_spec(&Spec::parse(spec).unwrap())
            .unwrap_err()
            .0
    };
    let e = err("catapult(size=7)");
    assert!(e.contains("size=\"7\"") && e.contains("8|9"), "{e}");
    let e = err("catapult(colour=light)");
    assert!(
        e.contains("unknown parameter \"colour\"")
            && e.contains("royal=true|false")
            && e.contains("dagger_move_then_pass="),
        "{e}"
    );
    let e = err("catapult(royal=yes)");
    assert!(
        e.contains("royal=\"yes\"") && e.contains("true|false"),
        "{e}"
    );
    let e = err("catapult(ply_cap=0)");
    assert!(e.contains("ply_cap"), "{e}");
    let e = err("catapult(ply_cap=many)");
    assert!(e.contains("ply_cap=\"many\""), "{e}");
    let e = err("catapult(size=8,size=9)");
    assert!(e.contains("given twice"), "{e}");
    // 9×9 does not fit a u64 board (§0.1).
    let e = CatapultGame::<u64>::from_spec(&Spec::parse("catapult(size=9)").unwrap())
        .unwrap_err()
        .0;
    assert!(e.contains("size=9") && e.contains("u128"), "{e}");
    assert!(e.lines().count() == 1);
}

struct Name;
impl GameVisitor for Name {
    type Output = (String, usize);
    fn visit<G: Game>(self, game: G) -> (String, usize) {
        let s = game.initial_state(0);
        (game.game_string(), s.count_legal_moves())
    }
}

/// The registry builds every variant from its game string (u64 for 8×8,
/// u128 for 9×9) and lists the game.
#[test]
fn registry_builds_every_variant() {
    assert!(engine::registry::GAMES.iter().any(|g| g.name == "catapult"));
    for (spec, moves) in [
        ("catapult", 30),
        ("catapult(royal=true)", 34),
        ("catapult(size=9)", 39),
        ("catapult(size=9,royal=true)", 39),
        ("catapult(dagger=true)", 30),
    ] {
        let (s, n) = visit_game(spec, Name).unwrap();
        assert_eq!(n, moves, "{spec}");
        assert_eq!(visit_game(&s, Name).unwrap().0, s);
    }
    let e = visit_game("catapult(size=10)", Name).unwrap_err();
    assert!(e.0.contains("8|9"), "{e}");
}

// ---------------------------------------------------------------------------
// Set-up, seats, turn structure
// ---------------------------------------------------------------------------

/// C-S1, C-S2, C-K1, C-K2: the set-ups, written square by square from the
/// dossier's lists.
#[test]
fn setups() {
    let light8 = "b1 a2 d1 c2 b3 a4 f1 e2 d3 c4 b5 a6";
    let dark8 = "g8 h7 e8 f7 g6 h5 c8 d7 e6 f5 g4 h3";
    let light9 = "a1 c1 b2 a3 e1 d2 c3 b4 a5 g1 f2 e3 d4 c5 b6 a7";
    let dark9 = "i9 g9 h8 i7 e9 f8 g7 h6 i5 c9 d8 e7 f6 g5 h4 i3";
    let bits = |names: &str, n: u32| -> u128 {
        names
            .split_whitespace()
            .fold(0u128, |a, s| a | (1u128 << sq(s, n)))
    };
    let s = game8("catapult").initial_state(0);
    assert_eq!(s.pieces(Side::Light) as u128, bits(light8, 8));
    assert_eq!(s.pieces(Side::Dark) as u128, bits(dark8, 8));
    assert_eq!(s.kings(), 0);
    assert_eq!(
        s.to_text(),
        "2D1D1D1/3D1D1D/L3D1D1/1L3D1D/L1L3D1/1L1L3D/L1L1L3/1L1L1L2 L - 0"
    );
    let s = game9("catapult(size=9)").initial_state(0);
    assert_eq!(s.pieces(Side::Light), bits(light9, 9));
    assert_eq!(s.pieces(Side::Dark), bits(dark9, 9));
    // Royal 8×8: kings added on a1 and h8 (13 pieces each).
    let s = game8("catapult(royal=true)").initial_state(0);
    assert_eq!(
        s.pieces(Side::Light) as u128,
        bits(&format!("{light8} a1"), 8)
    );
    assert_eq!(
        s.pieces(Side::Dark) as u128,
        bits(&format!("{dark8} h8"), 8)
    );
    assert_eq!(s.kings() as u128, bits("a1 h8", 8));
    assert_eq!(s.pieces(Side::Light).count_ones(), 13);
    // Royal 9×9: the a1 and i9 stones become kings (16 pieces each).
    let s = game9("catapult(size=9,royal=true)").initial_state(0);
    assert_eq!(s.pieces(Side::Light), bits(light9, 9));
    assert_eq!(s.kings(), bits("a1 i9", 9));
    assert!(s.to_text().starts_with("2D1D1D1k/"), "{}", s.to_text());
    assert!(s.to_text().contains("/K1L1L1L2 L - 0"), "{}", s.to_text());
}

/// C-T1, C-D1: Light (seat 0) moves first; Dark holds the dagger.
#[test]
fn seats_and_first_mover() {
    let s = game8("catapult(dagger=true)").initial_state(0);
    assert_eq!(s.to_move(), ToMove::Seat(0));
    assert_eq!(s.side_to_move(), Side::Light);
    assert_eq!(s.first_mover_seat(), Some(0));
    assert_eq!(s.dagger_holder(), Some(Side::Dark));
    assert_eq!(s.seat_role(0).colour, "light");
    assert_eq!(s.seat_role(1).colour, "dark");
    assert_eq!(s.num_seats(), 2);
    assert!(s.to_text().ends_with(" L D 0"));
    let s = game8("catapult").initial_state(0);
    assert_eq!(s.dagger_holder(), None);
}

// ---------------------------------------------------------------------------
// Worked examples §1.15
// ---------------------------------------------------------------------------

const EC1: &str = "a2-a3 a2-b2 a4-a5 a4-b4 a6-a7 a6-b6 a6-b7 b1-b2 b1-c1 b3-b4 b3-c3 b5-b6 b5-c5 b5-c6 \
     c2-c3 c2-d2 c4-c5 c4-d4 c4-d5 d1-d2 d1-e1 d3-d4 d3-e3 d3-e4 e2-e3 e2-f2 e2-f3 f1-f2 f1-g1 f1-g2";

/// E-C1: the 8×8 initial position has exactly the 30 listed moves.
#[test]
fn ec1_initial_8x8() {
    let s = game8("catapult").initial_state(0);
    assert_eq!(legal(&s), set(EC1));
    assert_eq!(set(EC1).len(), 30);
    // The ranges quoted: b1, a2, d1, c2, b3, a4 range 2; the rest range 1.
    for name in ["b1", "a2", "d1", "c2", "b3", "a4"] {
        assert_eq!(s.range_at(sq(name, 8)), Some(2), "{name}");
    }
    for name in ["f1", "e2", "d3", "c4", "b5", "a6"] {
        assert_eq!(s.range_at(sq(name, 8)), Some(1), "{name}");
    }
    assert_eq!(s.range_at(sq("e4", 8)), None);
}

/// E-C2: Royal 8×8 adds the king's four NE moves (range 4: N and E
/// friendly).
#[test]
fn ec2_royal_initial() {
    let s = game8("catapult(royal=true)").initial_state(0);
    let want = set(&format!("{EC1} a1-b2 a1-c3 a1-d4 a1-e5"));
    assert_eq!(want.len(), 34);
    assert_eq!(legal(&s), want);
    assert_eq!(s.range_at(sq("a1", 8)), Some(4));
}

const EC3: &str = "a1-a2 a1-b1 a3-a4 a3-b3 a5-a6 a5-b5 a7-a8 a7-b7 a7-b8 b2-b3 b2-c2 b4-b5 b4-c4 b6-b7 b6-c6 b6-c7 \
     c1-c2 c1-d1 c3-c4 c3-d3 c5-c6 c5-d5 c5-d6 d2-d3 d2-e2 d4-d5 d4-e4 d4-e5 e1-e2 e1-f1 e3-e4 e3-f3 \
     e3-f4 f2-f3 f2-g2 f2-g3 g1-g2 g1-h1 g1-h2";

/// E-C3: the 9×9 initial position has the 39 listed moves; Royal 9×9 the
/// same 39 (the king on a1 moves like the stone it replaces).
#[test]
fn ec3_initial_9x9() {
    assert_eq!(set(EC3).len(), 39);
    let s = game9("catapult(size=9)").initial_state(0);
    assert_eq!(legal(&s), set(EC3));
    let s = game9("catapult(size=9,royal=true)").initial_state(0);
    assert_eq!(legal(&s), set(EC3));
}

/// E-C5: Dagger, Light a1, Dark c3 to move holding the dagger: 12 actions;
/// `c3-b2;b2xa1` wins at once.
#[test]
fn ec5_dagger_double_turns() {
    let g = game8("catapult(dagger=true)");
    let s = pos(&g, &board8(&[("a1", 'L'), ("c3", 'D')], 'D', 'D'));
    let want = set("c3-c2 c3-b3 c3-b2 \
         c3-c2;c2-c1 c3-c2;c2-b2 c3-c2;c2-b1 \
         c3-b3;b3-b2 c3-b3;b3-a3 c3-b3;b3-a2 \
         c3-b2;b2-b1 c3-b2;b2-a2 c3-b2;b2xa1");
    assert_eq!(want.len(), 12);
    assert_eq!(legal(&s), want);
    assert_eq!(s.range_at(sq("c3", 8)), Some(1));

    // After c3-b2, b2 has range 1: the enemy on a1 does not block (C-R-def).
    let mut t = s;
    play(&mut t, "c3-b2");
    assert_eq!(t.range_at(sq("b2", 8)), Some(1));
    // A single move keeps the dagger (C-D3).
    assert_eq!(t.dagger_holder(), Some(Side::Dark));

    let mut w = s;
    play(&mut w, "c3-b2;b2xa1");
    assert_terminal(&w);
    assert_eq!(w.winner(), Some(Side::Dark));
    assert_eq!(returns2(&w), [-1.0, 1.0]);
    assert_eq!(w.ply(), 1, "a double turn is one ply");
}

/// E-C6: Light h5, Dark b1 holding the dagger: `b1-a1` and `b1-a1;pass`
/// (C-D5); with the ruling off, only `b1-a1` (AbstractPlay).
#[test]
fn ec6_move_then_pass() {
    let text = board8(&[("h5", 'L'), ("b1", 'D')], 'D', 'D');
    let g = game8("catapult(dagger=true)");
    let s = pos(&g, &text);
    assert_eq!(s.range_at(sq("b1", 8)), Some(4));
    assert_eq!(legal(&s), set("b1-a1 b1-a1;pass"));
    let off = game8("catapult(dagger=true,dagger_move_then_pass=false)");
    assert_eq!(legal(&pos(&off, &text)), set("b1-a1"));

    // b1-a1 keeps the dagger; b1-a1;pass hands it to Light (C-D3, C-D5).
    let mut a = s;
    play(&mut a, "b1-a1");
    assert_eq!(a.dagger_holder(), Some(Side::Dark));
    assert_eq!(a.range_at(sq("a1", 8)), Some(8));
    let mut b = s;
    play(&mut b, "b1-a1;pass");
    assert_eq!(b.dagger_holder(), Some(Side::Light));
    assert_eq!(b.side_to_move(), Side::Light);
    // Same pieces and side to move, different holder: different keys (C-D7).
    assert_ne!(a.zobrist(), b.zobrist());
    assert_eq!(b.zobrist(), b.zobrist_from_scratch());
    // Light h5: N h6 empty, E and NE off the board: range 4 (C-R-def), and
    // now holds the dagger: 3 single moves (h6, h7, h8 north; no capture:
    // a1 is not on a line through h5) and their followers.
    assert_eq!(b.range_at(sq("h5", 8)), Some(4));
    assert!(legal(&b).contains("h5-h6;h6-h7"));
}

// ---------------------------------------------------------------------------
// Perft §1.16
// ---------------------------------------------------------------------------

fn perft_row<G: Game>(g: &G, want: &[u64]) {
    let s = g.initial_state(0);
    for (d, &w) in want.iter().enumerate() {
        assert_eq!(
            perft(&s, d as u32 + 1),
            w,
            "{} depth {}",
            g.game_string(),
            d + 1
        );
    }
}

/// The king-capture trap behind the Royal perft row (engine/data/perft/catapult.txt):
/// `1. a1-e5 h8xe5` ends the game, so such lines contribute 0 at depth 3
/// (40,905, not 41,055).
#[test]
fn royal_king_capture_ends_perft_lines() {
    let mut s = game8("catapult(royal=true)").initial_state(0);
    apply_moves(&mut s, "a1-e5 h8xe5").unwrap();
    assert_terminal(&s);
    assert_eq!(s.winner(), Some(Side::Dark));
    assert_eq!(perft(&s, 1), 0);
    // The king capture wins though Light keeps all 12 stones (C-K4).
    assert_eq!(s.pieces(Side::Light).count_ones(), 12);
}

/// The 8×8 rows again on `u128` bitboards: the widths agree.
#[test]
fn perft_8x8_on_u128() {
    let g = CatapultGame::<u128>::new(Rules::default()).unwrap();
    perft_row(&g, &[30, 900, 29_152]);
    let g = CatapultGame::<u128>::new(Rules {
        royal: true,
        ..Rules::default()
    })
    .unwrap();
    perft_row(&g, &[34, 1_156, 40_905]);
}

// ---------------------------------------------------------------------------
// Range, moves, captures: hand-derived positions
// ---------------------------------------------------------------------------

/// C-R-def: only friendly pieces or the edge block; enemies and empty
/// squares do not; backward and sideways neighbours never count.
#[test]
fn range_definition() {
    let g = game8("catapult");
    // Light d4 with Light d5 (N), e4 (E), e5 (NE): range 8. Light c3: N c4
    // empty, E d3 and NE d4 friendly: range 4. Light d3: N d4 and NE e4
    // friendly, E e3 empty: range 4. d5: only E e5 friendly: range 2; e4:
    // only N e5: range 2.
    let s = pos(
        &g,
        &board8(
            &[
                ("d4", 'L'),
                ("d5", 'L'),
                ("e4", 'L'),
                ("e5", 'L'),
                ("c3", 'L'),
                ("d3", 'L'),
                ("h8", 'D'),
            ],
            'L',
            '-',
        ),
    );
    assert_eq!(s.range_at(sq("d4", 8)), Some(8));
    assert_eq!(s.range_at(sq("c3", 8)), Some(4));
    assert_eq!(s.range_at(sq("d3", 8)), Some(4));
    assert_eq!(s.range_at(sq("d5", 8)), Some(2));
    assert_eq!(s.range_at(sq("e4", 8)), Some(2));
    // e5: N e6, E f5, NE f6 empty: 1, though d4 (SW), d5 (W) and e4 (S)
    // are friendly.
    assert_eq!(s.range_at(sq("e5", 8)), Some(1));
    // Dark h8: S h7 and W g8 empty, SW g7 empty: 1 (its N, E, NE are off
    // the board but are not Dark's forward directions).
    assert_eq!(s.range_at(sq("h8", 8)), Some(1));

    // Enemy pieces in front do not block: Light a1 with Dark a2, b1, b2:
    // N, E, NE all enemy, range 1: the only moves are the 3 captures.
    let s = pos(
        &g,
        &board8(
            &[("a1", 'L'), ("a2", 'D'), ("b1", 'D'), ("b2", 'D')],
            'L',
            '-',
        ),
    );
    assert_eq!(s.range_at(sq("a1", 8)), Some(1));
    assert_eq!(legal(&s), set("a1xa2 a1xb1 a1xb2"));
    // Corner h8 for Light: every forward direction off the board: range 8.
    let s = pos(&g, &board8(&[("h8", 'L'), ("a1", 'D')], 'L', '-'));
    assert_eq!(s.range_at(sq("h8", 8)), Some(8));
}

/// C-M1, C-M2, C-M3 on a hand-built position.
///
/// Light a1 with Light a2 (N) and b1 (E): range 4. NE ray: b2 Dark, c3
/// empty, d4 Dark, e5 empty (f6 beyond range). Capture landings from the
/// first enemy to the range limit: b2, c3, d4, e5. a2: N a3 empty, E b2
/// Dark (does not block), NE b3 empty: range 1: a2-a3, a2-b3, a2xb2.
/// b1: N b2 Dark, E c1 empty, NE c2 empty: range 1: b1-c1, b1-c2, b1xb2.
/// a1's N and E are friendly (no move). No other captures: a2's and b1's
/// other neighbours are empty; a1's W, S, SW, NW, SE are off the board.
#[test]
fn multi_capture_paths() {
    let g = game8("catapult");
    let text = board8(
        &[
            ("a1", 'L'),
            ("a2", 'L'),
            ("b1", 'L'),
            ("b2", 'D'),
            ("d4", 'D'),
            ("h8", 'D'),
        ],
        'L',
        '-',
    );
    let s = pos(&g, &text);
    assert_eq!(s.range_at(sq("a1", 8)), Some(4));
    assert_eq!(
        legal(&s),
        set("a1xb2 a1xc3 a1xd4 a1xe5 a2-a3 a2-b3 a2xb2 b1-c1 b1-c2 b1xb2")
    );
    // a1xe5 passes b2 and d4: both removed (C-M2); h8 stays.
    let mut t = s;
    play(&mut t, "a1xe5");
    assert_eq!(t.pieces(Side::Dark), 1u64 << sq("h8", 8));
    assert!(t.pieces(Side::Light) & (1 << sq("e5", 8)) != 0);
    // a1xc3 takes only b2: landing on an empty square beyond an enemy.
    let mut t = s;
    play(&mut t, "a1xc3");
    assert_eq!(
        t.pieces(Side::Dark),
        (1u64 << sq("d4", 8)) | (1 << sq("h8", 8))
    );
    // The separator must match: c3 is empty but a1-c3 is a capture.
    assert!(parse_legal_move(&s, "a1-c3").is_err());
    assert!(parse_legal_move(&s, "a2xa3").is_err());

    // A friendly piece cuts the ray (C-M3): Light on c3 instead of empty.
    let text = board8(
        &[
            ("a1", 'L'),
            ("a2", 'L'),
            ("b1", 'L'),
            ("b2", 'D'),
            ("c3", 'L'),
            ("d4", 'D'),
            ("h8", 'D'),
        ],
        'L',
        '-',
    );
    let s = pos(&g, &text);
    let m = legal(&s);
    assert!(m.contains("a1xb2") && !m.contains("a1xd4") && !m.contains("a1xe5"));
    // c3: N c4, E d3 empty, NE d4 Dark: range 1; it captures d4 and b2.
    assert!(m.contains("c3xd4") && m.contains("c3xb2"));
}

/// C-M1: non-capturing moves only forward, up to the range over empty
/// squares; C-M2: captures backwards too.
#[test]
fn non_captures_forward_only() {
    let g = game8("catapult");
    // Light e1 at the bottom edge: N e2, E f1, NE f2 empty: range 1. Dark
    // d2 is NW of e1: a capture backwards-left is allowed; no non-capture
    // goes W or S.
    let s = pos(
        &g,
        &board8(&[("e1", 'L'), ("d2", 'D'), ("a8", 'D')], 'L', '-'),
    );
    assert_eq!(legal(&s), set("e1-e2 e1-f1 e1-f2 e1xd2"));
    // Dark h8 towards a1: S, W, SW with range 1; a Light piece on g8 is
    // captured W.
    let s = pos(
        &g,
        &board8(&[("h8", 'D'), ("g8", 'L'), ("a1", 'L')], 'D', '-'),
    );
    assert_eq!(legal(&s), set("h8-h7 h8-g7 h8xg8"));
}

// ---------------------------------------------------------------------------
// Pass, end of game, Royal, Dagger edge cases
// ---------------------------------------------------------------------------

/// C-P1: with no legal move the only action is `pass`; a pass is a ply and
/// hands the move over.
#[test]
fn forced_pass() {
    let g = game8("catapult");
    // Light h8: no forward square on the board; no Dark piece on rank 8,
    // file h or the long diagonal: no move.
    let s = pos(&g, &board8(&[("h8", 'L'), ("b7", 'D')], 'L', '-'));
    assert_eq!(legal(&s), set("pass"));
    let mut t = s;
    play(&mut t, "pass");
    assert_eq!(t.side_to_move(), Side::Dark);
    assert_eq!(t.ply(), 1);
    assert_eq!(t.zobrist(), t.zobrist_from_scratch());
    assert!(!t.is_terminal());
    // A pass is not allowed while a move exists.
    let s = game8("catapult").initial_state(0);
    assert!(parse_legal_move(&s, "pass").is_err());
}

/// C-D6: a stuck holder passes and keeps the dagger.
#[test]
fn stuck_holder_passes() {
    let g = game8("catapult(dagger=true)");
    let s = pos(&g, &board8(&[("h8", 'L'), ("b7", 'D')], 'L', 'L'));
    assert_eq!(legal(&s), set("pass"));
    let mut t = s;
    play(&mut t, "pass");
    assert_eq!(t.dagger_holder(), Some(Side::Light));
}

/// C-D4: no double turn after a first move that wins.
#[test]
fn dagger_no_double_after_win() {
    let g = game8("catapult(dagger=true)");
    // Light b2 with range 1 next to the last Dark piece c3: b2xc3 wins.
    // Light b2: N b3, E c2 empty, NE c3 Dark: range 1. Light h1: N h2
    // empty, E off, NE off: range 4.
    let s = pos(
        &g,
        &board8(&[("b2", 'L'), ("c3", 'D'), ("h1", 'L')], 'L', 'L'),
    );
    let m = legal(&s);
    assert!(m.contains("b2xc3"));
    assert!(!m.iter().any(|x| x.starts_with("b2xc3;")), "{m:?}");
    // Doubles after other first moves exist: b2-b3;b3xc3 (b3: E c3 Dark).
    assert!(m.contains("b2-b3;b3xc3"));
    let mut t = s;
    play(&mut t, "b2xc3");
    assert_terminal(&t);
    assert_eq!(returns2(&t), [1.0, -1.0]);
}

/// C-E1: taking the last enemy piece wins.
#[test]
fn annihilation_wins() {
    let g = game8("catapult");
    let s = pos(&g, &board8(&[("a1", 'L'), ("a2", 'D')], 'L', '-'));
    let mut t = s;
    play(&mut t, "a1xa2");
    assert_terminal(&t);
    assert_eq!(t.winner(), Some(Side::Light));
    assert_eq!(returns2(&t), [1.0, -1.0]);
    // The finished position's text parses back to a finished game.
    let back = pos(&g, &t.to_text());
    assert!(back == t);
    assert_terminal(&back);
}

/// C-K3, C-K4: the king moves like a stone; capturing it wins even with
/// other pieces left; losing all stones does not lose while the king lives.
#[test]
fn royal_king_rules() {
    let g = game8("catapult(royal=true)");
    // Light king a1 alone against Dark king h8 and stone e4: not over.
    let s = pos(
        &g,
        &board8(&[("a1", 'K'), ("h8", 'k'), ("e4", 'D')], 'L', '-'),
    );
    assert!(!s.is_terminal());
    // a1: N a2, E b1, NE b2 empty: range 1.
    assert_eq!(legal(&s), set("a1-a2 a1-b1 a1-b2"));
    // A capture path taking a stone and the king at once (C-K4).
    let s = pos(
        &g,
        &board8(
            &[
                ("a1", 'K'),
                ("a2", 'L'),
                ("b1", 'L'),
                ("b2", 'D'),
                ("c3", 'k'),
                ("h1", 'D'),
            ],
            'L',
            '-',
        ),
    );
    let mut t = s;
    play(&mut t, "a1xd4");
    assert_terminal(&t);
    assert_eq!(t.winner(), Some(Side::Light));
    assert_eq!(t.pieces(Side::Dark), 1u64 << sq("h1", 8));
    assert_eq!(t.kings(), 1u64 << sq("d4", 8));
    assert_eq!(t.zobrist(), t.zobrist_from_scratch());
    // A friendly king counts for range (C-K3): Light stone b1 with king c2
    // NE... b1: N b2 Dark, E c1 empty, NE c2 king: range 2.
    let s = pos(
        &g,
        &board8(
            &[("b1", 'L'), ("c2", 'K'), ("b2", 'D'), ("h8", 'k')],
            'L',
            '-',
        ),
    );
    assert_eq!(s.range_at(sq("b1", 8)), Some(2));
}

/// C-R2: the safety cap ends an unfinished game as a draw.
#[test]
fn ply_cap_draws() {
    let g = game8("catapult(ply_cap=3)");
    let mut s = g.initial_state(0);
    apply_moves(&mut s, "a2-a3 h7-h6 f1-f2").unwrap();
    assert_terminal(&s);
    assert!(s.capped());
    assert_eq!(returns2(&s), [0.0, 0.0]);
    let back = pos(&g, &s.to_text());
    assert!(back.capped());
    // The same text in a game with the default cap is not over.
    assert!(!pos(&game8("catapult"), &s.to_text()).is_terminal());
}

// ---------------------------------------------------------------------------
// Notation §1.13
// ---------------------------------------------------------------------------

#[test]
fn notation_round_trips() {
    let s = game8("catapult(dagger=true)").initial_state(0);
    for t in [
        "c3-d4",
        "c3xf6",
        "pass",
        "c3-b2;b2xa1",
        "b1-a1;pass",
        "h8xa1",
        "a8-h1",
    ] {
        let m = s.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(s.move_to_text(m), t);
    }
    match s.parse_move("c3-b2;b2xa1").unwrap() {
        CatapultMove::Double(a, b) => {
            assert_eq!(
                (a.from(), a.to(), a.is_capture()),
                (sq("c3", 8), sq("b2", 8), false)
            );
            assert_eq!((b.from(), b.to(), b.is_capture()), (sq("b2", 8), 0, true));
        }
        m => panic!("{m:?}"),
    }
    assert_eq!(s.parse_move("  pass ").unwrap(), CatapultMove::Pass);
    // 9×9 squares.
    let s9 = game9("catapult(size=9)").initial_state(0);
    let m = s9.parse_move("a1xi9").unwrap();
    assert_eq!(s9.move_to_text(m), "a1xi9");
}

#[test]
fn notation_rejects() {
    let s = game8("catapult(dagger=true)").initial_state(0);
    for bad in [
        "",
        "c3",
        "c3-",
        "-d4",
        "c3d4",
        "c3+d4",
        "c3-c3",
        "c3-e4",
        "a1-h7",
        "z1-a1",
        "a0-a1",
        "a1-a9",
        "i1-i2",
        "C3-D4",
        "pass;pass",
        "pass;a1-a2",
        "a1-a2;b1-b2;c1-c2",
        "a1-a2;",
        "a1-a2;pas",
        "passes",
    ] {
        let e = s.parse_move(bad).expect_err(bad);
        assert!(e.0.contains("bad move"), "{bad}: {e}");
        assert_eq!(e.0.lines().count(), 1, "{e}");
    }
    // i-file squares only exist on 9×9.
    assert!(
        game9("catapult(size=9)")
            .initial_state(0)
            .parse_move("i1-i2")
            .is_ok()
    );
    // Well-formed but illegal moves: named in a one-line error.
    for bad in [
        "a2-a4",
        "a2xa3",
        "h7-h6",
        "a2-a3;a3-a4",
        "a2-a3;pass",
        "pass",
    ] {
        let e = parse_legal_move(&s, bad).expect_err(bad);
        assert!(e.0.contains("not legal"), "{bad}: {e}");
    }
    // Light has no dagger at the start: no double turn.
    let s2 = game8("catapult").initial_state(0);
    assert!(parse_legal_move(&s2, "a2-a3;a3-a4").is_err());
    // A finished game takes no move.
    let mut t = pos(
        &game8("catapult"),
        &board8(&[("a1", 'L'), ("a2", 'D')], 'L', '-'),
    );
    play(&mut t, "a1xa2");
    let e = parse_legal_move(&t, "a1-a2").unwrap_err();
    assert!(e.0.contains("over"), "{e}");
}

// ---------------------------------------------------------------------------
// Position text
// ---------------------------------------------------------------------------

#[test]
fn position_text_round_trips() {
    let g = game8("catapult(royal=true,dagger=true)");
    let text = "k7/8/8/3D4/8/2L5/1L6/K7 D L 17";
    let s = pos(&g, text);
    assert_eq!(s.to_text(), text);
    assert_eq!(s.ply(), 17);
    assert_eq!(s.side_to_move(), Side::Dark);
    assert_eq!(s.dagger_holder(), Some(Side::Light));
    assert_eq!(s.kings(), (1u64 << sq("a8", 8)) | 1);
    assert_eq!(s.zobrist(), s.zobrist_from_scratch());
    // `.` for one empty square and an omitted ply are accepted.
    let s2 = pos(&g, "k......./8/8/3D4/8/2L5/1L6/K7 D L");
    assert_eq!(s2.to_text(), "k7/8/8/3D4/8/2L5/1L6/K7 D L 0");
    assert_eq!(s2.zobrist(), s.zobrist(), "the ply is not hashed");
    // The board for people.
    let shown = format!("{s}");
    assert!(shown.contains(" 8  k . . ."), "{shown}");
    assert!(
        shown.contains("Dark (seat 1) to move, dagger held by Light"),
        "{shown}"
    );
}

/// Malformed positions: a clear one-line error naming the problem.
#[test]
fn bad_positions_rejected() {
    let g8 = game8("catapult");
    let royal = game8("catapult(royal=true)");
    let dagger = game8("catapult(dagger=true)");
    let g9 = game9("catapult(size=9)");
    let start8 = "2D1D1D1/3D1D1D/L3D1D1/1L3D1D/L1L3D1/1L1L3D/L1L1L3/1L1L1L2";
    fn expect_bad<B: CatapultBits>(g: &CatapultGame<B>, text: &str, want: &str) {
        let e = g
            .parse_position(text)
            .err()
            .unwrap_or_else(|| panic!("{text:?} should be rejected"))
            .0;
        assert!(e.contains(want), "{text:?}: got {e:?}, want {want:?}");
        assert!(e.starts_with("bad catapult position"), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    // Wrong board size.
    expect_bad(&g9, &format!("{start8} L - 0"), "8 rows, expected 9");
    expect_bad(&g8, &format!("8/{start8} L - 0"), "9 rows, expected 8");
    expect_bad(&g8, "9/8/8/8/8/8/8/L7 D - 0", "rank 8 has 9 squares");
    expect_bad(&g8, "8L/8/8/8/8/8/8/D7 D - 0", "more than 8 squares");
    expect_bad(&g8, "7/8/8/8/8/8/8/L7 D - 0", "rank 8 has 7 squares");
    // Unknown piece letters.
    expect_bad(&g8, "X7/8/8/8/8/8/8/L7 D - 0", "unknown piece letter 'X'");
    expect_bad(&g8, "d7/8/8/8/8/8/8/L7 D - 0", "unknown piece letter 'd'");
    // Kings: only in Royal, one per side.
    expect_bad(&g8, "k7/8/8/8/8/8/8/K7 L - 0", "kings need royal=true");
    expect_bad(&royal, "k7/8/8/8/8/8/8/K6K L - 0", "two Light kings");
    expect_bad(&royal, "kk6/8/8/8/8/8/8/K7 L - 0", "two Dark kings");
    // The dagger flag.
    expect_bad(&g8, &format!("{start8} L D 0"), "without the dagger");
    expect_bad(
        &dagger,
        &format!("{start8} L - 0"),
        "dagger=true needs L or D",
    );
    expect_bad(&dagger, &format!("{start8} L X 0"), "dagger field \"X\"");
    // Other fields.
    expect_bad(&g8, &format!("{start8} W - 0"), "side to move \"W\"");
    expect_bad(&g8, &format!("{start8} L - x"), "ply \"x\"");
    expect_bad(&g8, start8, "expected 3 or 4 fields");
    expect_bad(&g8, &format!("{start8} L - 0 9"), "expected 3 or 4 fields");
    expect_bad(&g8, "", "expected 3 or 4 fields");
    expect_bad(&g8, "08/8/8/8/8/8/8/L7 D - 0", "bad run \"08\"");
    expect_bad(&g8, "99999999999/8/8/8/8/8/8/L7 D - 0", "bad run");
    // Unreachable: the side that just moved has no pieces / no king.
    expect_bad(
        &g8,
        "D7/8/8/8/8/8/8/8 D - 0",
        "Light (not to move) has no pieces",
    );
    expect_bad(
        &royal,
        "k7/8/8/8/8/8/8/L7 D - 0",
        "Light (not to move) has no king",
    );
    // The side to move without pieces (or king): the finished game.
    let s = g8.parse_position("D7/8/8/8/8/8/8/8 L - 5").unwrap();
    assert_terminal(&s);
    assert_eq!(s.winner(), Some(Side::Dark));
    let s = royal.parse_position("k7/8/8/8/8/8/8/L7 L - 5").unwrap();
    assert_terminal(&s);
    assert_eq!(returns2(&s), [-1.0, 1.0]);
}

/// §1.10: random games end well before the cap, and every finished game
/// has a winner (no draws); `evaluate` is symmetric in the side to move.
#[test]
fn random_games_end_decisively() {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut buf = Vec::new();
    for spec in ["catapult", "catapult(royal=true)", "catapult(dagger=true)"] {
        let g = game8(spec);
        for _ in 0..200 {
            let mut s = g.initial_state(0);
            while !s.is_terminal() {
                let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
                s.apply(m);
            }
            assert!(!s.capped() && s.winner().is_some());
            // §1.10: ≤ 1,186 turns (1,302 in Royal).
            assert!(s.ply() <= 1_302, "§1.10 bound");
        }
    }
    // The initial position is symmetric: the evaluation is 0.
    assert_eq!(game8("catapult").initial_state(0).evaluate(), 0);
    assert_eq!(game9("catapult(size=9)").initial_state(0).evaluate(), 0);
}

/// Bad input never panics: random mutations of valid position and move
/// texts give a value or a one-line error.
#[test]
fn malformed_input_never_panics() {
    use rand::Rng;
    let g8 = game8("catapult(royal=true,dagger=true)");
    let g9 = game9("catapult(size=9)");
    let s8 = g8.initial_state(0);
    let s9 = g9.initial_state(0);
    let seeds = [
        s8.to_text(),
        s9.to_text(),
        "k7/8/8/3D4/8/2L5/1L6/K7 D L 17".to_string(),
        "c3-b2;b2xa1".to_string(),
        "b1-a1;pass".to_string(),
        "a1xi9".to_string(),
    ];
    let alphabet: Vec<char> = "abchijLDKkx-;/ 0123456789.pass×é\t".chars().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for i in 0..20_000 {
        let mut t: Vec<char> = seeds[i % seeds.len()].chars().collect();
        for _ in 0..rng.random_range(1..4) {
            let at = rng.random_range(0..=t.len());
            match rng.random_range(0..3) {
                0 if at < t.len() => {
                    t.remove(at);
                }
                1 if at < t.len() => t[at] = alphabet[rng.random_range(0..alphabet.len())],
                _ => t.insert(at, alphabet[rng.random_range(0..alphabet.len())]),
            }
        }
        let text: String = t.into_iter().collect();
        for e in [
            g8.parse_position(&text).err(),
            g9.parse_position(&text).err(),
            s8.parse_move(&text).err(),
            s9.parse_move(&text).err(),
            parse_legal_move(&s8, &text).err(),
        ]
        .into_iter()
        .flatten()
        {
            assert_eq!(e.0.lines().count(), 1, "{text:?}: {e}");
        }
        if let Ok(s) = g8.parse_position(&text) {
            // Whatever parses round-trips and plays on.
            assert!(pos(&g8, &s.to_text()) == s, "{text:?}");
            let _ = s.count_legal_moves();
        }
    }
}

/// The quiescence moves (`Search::quiescence_moves`) are the single
/// captures: without the dagger exactly the legal captures in the legal
/// order (so alpha-beta's quiescence search on plain Catapult is
/// unchanged); with it the holder's single captures only, no double turn.
/// Each capture's `capture_gain` is 100 per enemy piece it removes, counted
/// here by applying it (a king in Royal: the game).
#[test]
fn quiescence_moves_are_the_single_captures() {
    for spec in [
        "catapult",
        "catapult(dagger=true)",
        "catapult(royal=true,dagger=true)",
    ] {
        let g = game8(spec);
        let dagger = spec.contains("dagger=true");
        let royal = spec.contains("royal=true");
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        let (mut q, mut all) = (Vec::new(), Vec::new());
        let mut seen = 0;
        for game in 0..20 {
            let mut s = g.initial_state(game);
            while !s.is_terminal() {
                s.quiescence_moves(&mut q);
                s.legal_moves(&mut all);
                let caps: Vec<CatapultMove> =
                    all.iter().copied().filter(|&m| s.is_capture(m)).collect();
                if dagger {
                    for m in &q {
                        assert!(matches!(m, CatapultMove::Move(_)), "{spec}: {m:?}");
                        assert!(caps.contains(m), "{spec}: {m:?}");
                    }
                    let singles: Vec<CatapultMove> = caps
                        .iter()
                        .copied()
                        .filter(|m| matches!(m, CatapultMove::Move(_)))
                        .collect();
                    assert_eq!(q, singles, "{spec}");
                } else {
                    assert_eq!(q, caps, "{spec}");
                }
                let opp = s.side_to_move().other();
                for &m in &q {
                    let mut c = s;
                    c.apply(m);
                    let gain = s.capture_gain(m).unwrap();
                    if royal && c.is_terminal() {
                        assert_eq!(gain, 50_000, "{spec}: {m:?}");
                    } else {
                        let taken = s.material(opp) - c.material(opp);
                        assert_eq!(gain, 100 * taken as i32, "{spec}: {m:?}");
                        assert!(taken >= 1 || royal, "{spec}: {m:?}");
                    }
                    seen += 1;
                }
                let mv = all[rand::Rng::random_range(&mut rng, 0..all.len())];
                s.apply(mv);
            }
        }
        assert!(seen > 100, "{spec}: only {seen} captures seen");
    }
}

// ---------------------------------------------------------------------------
// Illegal moves: the reason a player is given (Research::illegal_reason)
// ---------------------------------------------------------------------------

/// Each illegal move at the 8×8 start (Light b1 d1 f1 / a2 c2 e2 / b3 d3,
/// Dark h3 ...; a1 empty, C-S1) is answered with the rule it breaks; the
/// expected words come from the rule cited.
#[test]
fn illegal_moves_say_the_rule_they_break() {
    let s = game8("catapult").initial_state(0);
    let why = |t: &str| {
        s.illegal_reason(t)
            .unwrap_or_else(|| panic!("{t} is legal"))
    };
    // C-T2: one move of one of the mover's own pieces.
    assert_eq!(why("a1-a2"), "no piece on a1");
    assert_eq!(
        why("h3-h4"),
        "the piece on h3 is Dark's, and Light is to move"
    );
    // C-M1: a move without capture goes forward only (Light N, NE, E).
    assert!(why("b1-a1").contains("forward only, N, NE, E for Light (C-M1)"));
    // C-R-def: a2 has one friendly forward neighbour (b3), so range 2.
    assert!(why("a2-a5").starts_with("the piece on a2 has range 2"));
    assert!(why("a2-a5").ends_with("a5 is 3 away"));
    // C-M3: a ray stops before the first friend.
    assert_eq!(why("b1-b3"), "b1 is blocked by its own piece on b3 (C-M3)");
    // C-M2: a capture needs an enemy on its path.
    assert!(why("b1xb2").starts_with("a capture needs an enemy on its path"));
    // C-P1: passing only without a legal move.
    assert!(why("pass").ends_with("a pass is allowed only with none (C-P1)"));
    // C-D2: without the Dagger there is no double turn.
    assert!(why("b1-b2;d1-d2").contains("needs the Dagger"));
    // Malformed text keeps the parser's message.
    assert!(why("b1b2").starts_with("bad move"));
    assert_eq!(s.illegal_reason("b1-b2"), None);
}

/// The Dagger (C-D1, C-D2): Dark holds it at the start, so Light may not
/// play a double turn.
#[test]
fn illegal_double_turn_names_the_daggers_holder() {
    let s = game8("catapult(dagger=true)").initial_state(0);
    assert_eq!(
        s.illegal_reason("b1-b2;d1-d2").unwrap(),
        "only the Dagger's holder plays a double turn, and Dark holds it (C-D2)"
    );
    let e = engine::parse_move_explained(&s, "a1-a2").unwrap_err();
    assert_eq!(
        e.to_string(),
        "move \"a1-a2\" is not legal here: no piece on a1"
    );
}
