//! King's Colour rules, checked against `docs/rules/kings_colour.md`:
//! geometry (KC-G1–G4, KC-S1–S3), the King's steps (KC-3), the
//! worked examples B1 and KC-B (§2.6), the perft table with its leaf
//! statistics, constructed capture / promotion / check / mate positions,
//! the end rulings, and bad input.

use std::collections::{BTreeMap, BTreeSet};

use engine::Research;
use engine::kings_colour::{
    Geometry, KingsColourGame, KingsColourMove, KingsColourState, Piece, Rules, Side, colour_of,
};
use engine::registry::visit_game;
use engine::{Game, GameVisitor, State, ToMove, apply_moves, parse_legal_move, perft};

fn game() -> KingsColourGame {
    KingsColourGame::default()
}

fn geo() -> &'static Geometry {
    Geometry::get()
}

fn cell(name: &str) -> usize {
    geo().parse_cell(name).unwrap()
}

fn cells(names: &str) -> BTreeSet<usize> {
    names.split_whitespace().map(cell).collect()
}

fn set(m: u128) -> BTreeSet<usize> {
    (0..127).filter(|&c| m >> c & 1 == 1).collect()
}

/// A position text from a list `"D4K H8R ..."` (cell then letter) and the
/// side to move: the columns A-M, rows from 1 up.
fn text(pieces: &str, side: char) -> String {
    let mut at: BTreeMap<usize, char> = BTreeMap::new();
    for p in pieces.split_whitespace() {
        let (c, l) = p.split_at(p.len() - 1);
        at.insert(cell(c), l.chars().next().unwrap());
    }
    let mut cols = Vec::new();
    for col in 0..13 {
        let letter = (b'A' + col as u8) as char;
        let len = 13 - (col - 6i32).unsigned_abs() as usize;
        let mut t = String::new();
        let mut run = 0;
        for row in 1..=len {
            match at.get(&cell(&format!("{letter}{row}"))) {
                Some(&l) => {
                    if run > 0 {
                        t += &run.to_string();
                        run = 0;
                    }
                    t.push(l);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            t += &run.to_string();
        }
        cols.push(t);
    }
    format!("{} {side} 0", cols.join("/"))
}

fn pos(pieces: &str, side: char) -> KingsColourState {
    game().parse_position(&text(pieces, side)).unwrap()
}

fn moves(s: &KingsColourState) -> Vec<KingsColourMove> {
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    assert_eq!(v.len(), s.count_legal_moves());
    v
}

fn texts(s: &KingsColourState) -> BTreeSet<String> {
    moves(s).into_iter().map(|m| s.move_to_text(m)).collect()
}

fn from_count(s: &KingsColourState, from: &str) -> usize {
    moves(s)
        .iter()
        .filter(|m| m.from as usize == cell(from))
        .count()
}

#[test]
fn geometry_kc_g_and_kc_s() {
    let g = geo();
    assert_eq!(g.grid.len(), 127);
    // KC-G3 suggested index.
    assert_eq!(cell("D4"), 27);
    assert_eq!(cell("G7"), 63);
    assert_eq!(cell("J7"), 99);
    for c in 0..127 {
        assert_eq!(cell(&g.name(c)), c);
    }
    // KC-G4: 43 / 42 / 42.
    let counts: Vec<u32> = g.colour_mask.iter().map(|m| m.count_ones()).collect();
    assert_eq!(counts, vec![43, 42, 42]);
    assert_eq!(colour_of(g.grid.hex(cell("G7"))), 0);
    // KC-S3 castles and walls, cell for cell.
    assert_eq!(set(g.castle[0]), cells("C3 C4 C5 D3 D4 D5 E3 E4 E5"));
    assert_eq!(set(g.castle[1]), cells("I7 I8 I9 J6 J7 J8 K5 K6 K7"));
    assert_eq!(
        set(g.wall[0]),
        cells("B2 B3 B4 B5 C2 C6 D2 D6 E2 E6 F3 F4 F5 F6")
    );
    assert_eq!(
        set(g.wall[1]),
        cells("H7 H8 H9 H10 I6 I10 J5 J9 K4 K8 L4 L5 L6 L7")
    );
    // The axial coordinates of the dossier's table.
    for (n, q, r) in [
        ("C5", -4, 2),
        ("E3", -2, -2),
        ("K5", 4, -2),
        ("F6", -1, 0),
        ("L7", 5, 0),
    ] {
        let h = g.grid.hex(cell(n));
        assert_eq!((h.q, h.r), (q, r), "{n}");
    }
}

#[test]
fn initial_position_kc_s3() {
    let s = game().initial_state(0);
    let want = [
        ("D4", Side::White, Piece::King),
        ("C5", Side::White, Piece::Rook),
        ("E3", Side::White, Piece::Rook),
        ("C3", Side::White, Piece::Bishop),
        ("C4", Side::White, Piece::Bishop),
        ("D3", Side::White, Piece::Bishop),
        ("D5", Side::White, Piece::Bishop),
        ("E4", Side::White, Piece::Bishop),
        ("E5", Side::White, Piece::Bishop),
        ("J7", Side::Black, Piece::King),
        ("I9", Side::Black, Piece::Rook),
        ("K5", Side::Black, Piece::Rook),
        ("I7", Side::Black, Piece::Bishop),
        ("I8", Side::Black, Piece::Bishop),
        ("J6", Side::Black, Piece::Bishop),
        ("J8", Side::Black, Piece::Bishop),
        ("K6", Side::Black, Piece::Bishop),
        ("K7", Side::Black, Piece::Bishop),
    ];
    for (n, side, p) in want {
        assert_eq!(s.piece_at(cell(n)), Some((side, p)), "{n}");
    }
    assert_eq!(
        (s.pieces(Side::White) | s.pieces(Side::Black)).count_ones(),
        18
    );
    assert_eq!(s.to_move(), ToMove::Seat(0));
    assert_eq!(s.first_mover_seat(), Some(0));
    // The position text round-trips and is point-symmetric (KC-S3).
    let t = s.to_text();
    assert_eq!(game().parse_position(&t).unwrap().to_text(), t);
}

#[test]
fn king_destinations_kc_3_table() {
    // Empty castle, White King alone (Black King at home): the dossier's table.
    for (from, dests) in [
        ("D4", "C3 C4 C5 D3 D5 E3 E4 E5"),
        ("C5", "C4 D5 D4 D3 E4"),
        ("E3", "E4 D3 D4 C4 D5"),
        ("C3", "D4 C4 D3 D5 E4"),
        ("E5", "D4 E4 D5 D3 C4"),
        ("C4", "D5 D4 C3 C5 E5 D3 E3"),
        ("D3", "E4 E3 D4 C3 E5 C4 C5"),
        ("D5", "E5 D4 C4 C5 C3 E4 E3"),
        ("E4", "E5 D4 D3 E3 C3 D5 C5"),
    ] {
        let s = pos(&format!("{from}K J7k"), 'w');
        let got: BTreeSet<usize> = moves(&s).iter().map(|m| m.to as usize).collect();
        assert_eq!(got, cells(dests), "King on {from}");
    }
    // 28 adjacent pairs, degree sum 56.
    let total: usize = "C3 C4 C5 D3 D4 D5 E3 E4 E5"
        .split_whitespace()
        .map(|c| moves(&pos(&format!("{c}K J7k"), 'w')).len())
        .sum();
    assert_eq!(total, 56);
}

#[test]
fn b1_initial_position_84_moves() {
    let s = game().initial_state(0);
    let ms = moves(&s);
    assert_eq!(ms.len(), 84);
    for (from, n) in [
        ("C3", 6),
        ("C4", 8),
        ("C5", 13),
        ("D3", 8),
        ("D5", 11),
        ("E3", 13),
        ("E4", 11),
        ("E5", 14),
        ("D4", 0),
    ] {
        assert_eq!(from_count(&s, from), n, "{from}");
    }
    assert!(ms.iter().all(|&m| !s.is_capture(m)));
    for &m in &ms {
        let mut c = s.clone();
        c.apply(m);
        assert!(!c.in_check(Side::Black), "{}", s.move_to_text(m));
    }
    // The hand-checked ray: C5 along (1,0) reaches D6 E7 F8 G9 H9, not I9.
    let c5: BTreeSet<usize> = ms
        .iter()
        .filter(|m| m.from as usize == cell("C5"))
        .map(|m| m.to as usize)
        .collect();
    assert!(cells("D6 E7 F8 G9 H9").is_subset(&c5));
    assert!(!c5.contains(&cell("I9")));
    // Black has 84 in the (point-symmetric) initial position too.
    let b = game()
        .parse_position(&s.to_text().replace(" w ", " b "))
        .unwrap();
    assert_eq!(moves(&b).len(), 84);
}

#[test]
fn perft_table_with_leaf_statistics() {
    let s = game().initial_state(0);
    // perft 1 and 2 (84, 6,902) are in engine/data/perft/kings_colour.txt.
    assert_eq!(s.perft_fast(1), 84);
    assert_eq!(s.perft_fast(2), 6_902);
    assert_eq!(s.perft_fast(3), perft(&s, 3));
    let (mut caps, mut promos, mut checks, mut mates) = (0, 0, 0, 0);
    for m1 in moves(&s) {
        let mut a = s.clone();
        a.apply(m1);
        for m2 in moves(&a) {
            caps += a.is_capture(m2) as u32;
            promos += a.is_promotion(m2) as u32;
            let mut b = a.clone();
            b.apply(m2);
            checks += b.in_check(Side::White) as u32;
            mates += (b.to_move() == ToMove::Terminal) as u32;
        }
    }
    assert_eq!((caps, promos, checks, mates), (20, 16, 16, 0));
}

const KC_B: &str = "D4K H8R D5B J7k I8b I9r F6b";

#[test]
fn kc_b_white_to_move_43() {
    let s = pos(KC_B, 'w');
    assert!(!s.in_check(Side::White) && !s.in_check(Side::Black));
    assert_eq!(moves(&s).len(), 43);
    assert_eq!(from_count(&s, "H8"), 25);
    assert_eq!(from_count(&s, "D5"), 13);
    assert_eq!(from_count(&s, "D4"), 5);
    let t = texts(&s);
    for m in [
        "H8xI8=Q+", "H8-I7=Q+", "H8-J6=Q+", "H8-K5=Q+", "H8-L4", "H8-M3", "H8-H1", "H8-E6",
        "H8-C9", "H8-H12", "D5xF6", "D5-G2", "D5-B1", "D5-B4", "D5-B7", "D5-H12", "D4-C3+",
        "D4-C4+", "D4-D3+", "D4-E5+", "D4-E3",
    ] {
        assert!(t.contains(m), "{m} missing from {t:?}");
    }
    assert!(
        !t.iter()
            .any(|m| m.starts_with("D4-E4") || m.starts_with("D4-C5"))
    );
}

#[test]
fn kc_b_follow_ups() {
    let s = pos(KC_B, 'w');
    let mut a = s.clone();
    apply_moves(&mut a, "H8xI8=Q+").unwrap();
    assert_eq!(a.piece_at(cell("I8")), Some((Side::White, Piece::Queen)));
    assert!(a.in_check(Side::Black));
    assert_eq!(
        texts(&a),
        ["J7xI8", "J7-K5"].iter().map(|x| x.to_string()).collect()
    );
    // KC-8: the Black Rook on I9 may not capture the Queen.
    assert!(parse_legal_move(&a, "I9xI8").is_err());

    let mut b = s.clone();
    apply_moves(&mut b, "D4-C3+").unwrap();
    assert_eq!(b.piece_at(cell("H8")), Some((Side::White, Piece::Bishop)));
    assert_eq!(b.piece_at(cell("D5")), Some((Side::White, Piece::Rook)));
    let t = texts(&b);
    assert_eq!(t.len(), 6);
    assert!(moves(&b).iter().all(|m| m.from as usize == cell("J7")));
    let dests: BTreeSet<usize> = moves(&b).iter().map(|m| m.to as usize).collect();
    assert_eq!(dests, cells("I7 J6 J8 K5 K6 K7"));

    let c = pos(KC_B, 'b');
    assert_eq!(moves(&c).len(), 54);
    for (from, n) in [("I9", 20), ("I8", 16), ("F6", 15), ("J7", 3)] {
        assert_eq!(from_count(&c, from), n, "{from}");
    }
    assert!(texts(&c).iter().any(|m| m.starts_with("F6xD5=Q")));
}

#[test]
fn kc_r2_queen_in_own_castle_only_the_king_captures() {
    // White Bishop on F6 (White's wall, colour 2) faces the Black Queen on
    // D5 (inside White's castle, checking D4) along (-2,1).
    let p = "D4K F6B J7k D5q";
    let s = pos(p, 'w');
    assert!(s.in_check(Side::White));
    assert_eq!(s.piece_at(cell("F6")), Some((Side::White, Piece::Bishop)));
    let t = texts(&s);
    assert!(!t.iter().any(|m| m.starts_with("F6xD5")), "{t:?}");
    // The King takes it; on D5 (colour 2) it makes F6 a Rook, which checks
    // J7 along r = 0 (switcheroo).
    assert!(t.contains("D4xD5+"), "{t:?}");
    // boardspace's wide rule allows it.
    let wide = KingsColourGame::new(Rules {
        capture: engine::kings_colour::CaptureRule::Wide,
        ..Rules::default()
    });
    let w = wide.parse_position(&text(p, 'w')).unwrap();
    let wt: BTreeSet<String> = {
        let mut v = Vec::new();
        w.legal_moves(&mut v);
        v.iter().map(|&m| w.move_to_text(m)).collect()
    };
    assert!(wt.contains("F6xD5"));
    // king_captures=false: the King may not take it either.
    let nk = KingsColourGame::new(Rules {
        king_captures: false,
        ..Rules::default()
    });
    let n = nk.parse_position(&text(p, 'w')).unwrap();
    let mut v = Vec::new();
    n.legal_moves(&mut v);
    assert!(!v.iter().any(|m| m.to as usize == cell("D5")));
}

#[test]
fn kc_8_captures_only_between_wall_and_castle() {
    // White Rook G7 (colour 0) meets a Black man on H7 (Black's wall): G7 is
    // on no wall, so H7 only blocks (KC-8).
    let s = pos("D4K G7R J7k H7b", 'w');
    assert!(!texts(&s).iter().any(|m| m.contains('x')));
    // (a) From Black's wall H8 into Black's castle I8: capture and promote.
    let s = pos("D4K H8R J7k I8b", 'w');
    let mut v = texts(&s);
    v.retain(|m| m.contains('x'));
    assert_eq!(v, ["H8xI8=Q+".to_string()].into_iter().collect());
    // (b) From the own castle D5 onto the own wall F6 (as in KC-B).
    let s = pos("D4K D5B J7k F6b", 'w');
    assert!(texts(&s).contains("D5xF6"));
    // Neither: a Bishop in the own castle (D5) meets an enemy outside any
    // wall (H7? no: G8 on the diagonal line (1,1) from D5 is E7, F9, G11).
    let s = pos("D4K D5B J7k F9b", 'w');
    assert!(!texts(&s).iter().any(|m| m.contains('x')));
}

#[test]
fn kc_10_promotion_on_entering_the_enemy_castle() {
    // J4 (3,-3) has colour 0 = the White King's: a Rook. Along (0,1): J5
    // (wall), J6 J7 J8 (castle; the Black King is on K6), J9 (wall), J10.
    let s = pos("D4K J4R K6k", 'w');
    let t = texts(&s);
    // J5 (colour 2) makes it a Bishop that checks K6 along (1,1).
    for m in [
        "J4-J5+", "J4-J6=Q+", "J4-J7=Q+", "J4-J8=Q+", "J4-J9", "J4-J10",
    ] {
        assert!(t.contains(m), "{m} missing from {t:?}");
    }
    let mut a = s.clone();
    apply_moves(&mut a, "J4-J6=Q+").unwrap();
    assert_eq!(a.piece_at(cell("J6")), Some((Side::White, Piece::Queen)));
    // Passing through the castle without stopping there does not promote.
    let mut a = s.clone();
    apply_moves(&mut a, "J4-J10").unwrap();
    assert_eq!(a.piece_at(cell("J10")), Some((Side::White, Piece::Rook)));
    // Entering the own castle never promotes.
    let s = pos("D4K B3R J7k", 'w');
    let mv = parse_legal_move(&s, "B3-C4").unwrap();
    assert!(!s.is_promotion(mv));
    let mut c = s.clone();
    c.apply(mv);
    assert_ne!(c.piece_at(cell("C4")).unwrap().1, Piece::Queen);
}

#[test]
fn checkmate_by_a_queen_on_the_wall() {
    // Black's castle full, White Queen L4 -> L6 checks J7 along (-2,1); no
    // Black piece can capture L6 or interpose (hand-worked in the report).
    let s = pos("D4K L4Q J7k I7b I8b I9r J6b J8b K5r K6b K7b", 'w');
    let mut a = s.clone();
    let mv = parse_legal_move(&s, "L4-L6#").unwrap();
    assert_eq!(s.move_to_text(mv), "L4-L6#");
    a.apply(mv);
    assert_eq!(a.to_move(), ToMove::Terminal);
    assert_eq!(&a.returns()[..2], &[1.0, -1.0]);
    // Parsing the mated position gives the finished game.
    let b = game().parse_position(&a.to_text()).unwrap();
    assert_eq!(b.to_move(), ToMove::Terminal);
    assert_eq!(b.count_legal_moves(), 0);
}

#[test]
fn repetition_and_ply_cap_are_draws() {
    let s = pos("D4K J7k", 'w');
    let cycle = "D4-E4 J7-J6 E4-D4 J6-J7";
    let mut a = s.clone();
    apply_moves(&mut a, cycle).unwrap();
    assert_eq!(a.repetitions(), 2);
    assert!(!a.is_terminal());
    apply_moves(&mut a, cycle).unwrap();
    assert_eq!(a.to_move(), ToMove::Terminal);
    assert_eq!(a.returns()[..2], [0.0, 0.0]);
    for (g, plies) in [
        ("kings_colour(repetition=2)", Some(4)),
        ("kings_colour(repetition=off)", None),
        ("kings_colour(ply_cap=5)", Some(5)),
    ] {
        struct Play(String, Option<u32>);
        impl GameVisitor for Play {
            type Output = ();
            fn visit<G: Game>(self, game: G) {
                let mut s = game.parse_position(&self.0).unwrap();
                let cycle = "D4-E4 J7-J6 E4-D4 J6-J7";
                let mut n = 0;
                'outer: for _ in 0..3 {
                    for m in cycle.split_whitespace() {
                        if s.is_terminal() {
                            break 'outer;
                        }
                        let mv = parse_legal_move(&s, m).unwrap();
                        s.apply(mv);
                        n += 1;
                    }
                }
                match self.1 {
                    Some(p) => {
                        assert!(s.is_terminal());
                        assert_eq!(n, p);
                    }
                    None => assert!(!s.is_terminal()),
                }
            }
        }
        visit_game(g, Play(text("D4K J7k", 'w'), plies)).unwrap();
    }
}

#[test]
fn game_strings() {
    struct Name;
    impl GameVisitor for Name {
        type Output = String;
        fn visit<G: Game>(self, game: G) -> String {
            game.game_string()
        }
    }
    let s = visit_game("kings_colour", Name).unwrap();
    assert_eq!(
        s,
        "kings_colour(capture=literal,king_captures=true,stalemate=draw,repetition=3,ply_cap=400)"
    );
    assert_eq!(visit_game(&s, Name).unwrap(), s);
    for (bad, needle) in [
        ("kings_colour(capture=loose)", "literal|wide"),
        ("kings_colour(ply_cap=0)", "ply_cap"),
        ("kings_colour(size=7)", "unknown parameter"),
        ("kings_colour(repetition=7)", "off|2|3|4|5"),
    ] {
        let e = visit_game(bad, Name).unwrap_err();
        assert!(e.0.contains(needle), "{bad}: {e}");
    }
}

#[test]
fn bad_positions_give_one_line_errors() {
    let g = game();
    let good = text(KC_B, 'w');
    assert!(g.parse_position(&good).is_ok());
    for (bad, needle) in [
        (String::new(), "expected"),
        ("x".to_string(), "expected"),
        (good.replace(" w ", " x "), "side to move"),
        (good.replace(" 0", " -3"), "ply"),
        (good.replacen('/', "", 1), "columns"),
        (text("D4K H8X J7k", 'w'), "unknown piece"),
        (text("D4K C5K J7k", 'w'), "Kings"),
        (text("J7k", 'w'), "0 white Kings"),
        (text("G7K J7k", 'w'), "outside its castle"),
        (text("D4K H8k", 'w'), "outside its castle"),
        (text("D4K H8B J7k", 'w'), "Rook by KC-12"),
        (text("D4K I8R J7k", 'w'), "enemy castle"),
        // Black in check with White to move.
        (text("D4K I7Q J7k", 'w'), "in check"),
        (
            text("D4K C3B C4B C5R D3B D5B E3R E4B E5B G7R J7k", 'w'),
            "at most 8",
        ),
        (good.replacen("7/", "8/", 1), "column A"),
        (good.replacen("7/", "6/", 1), "column A"),
    ] {
        let e = g.parse_position(&bad).unwrap_err();
        assert!(!e.0.contains('\n'));
        assert!(e.0.contains(needle), "{bad:?}: {e}");
    }
}

#[test]
fn bad_moves_give_one_line_errors() {
    let s = pos(KC_B, 'w');
    for (bad, needle) in [
        ("", "expected"),
        ("D4", "expected"),
        ("D4-", "bad cell"),
        ("D4-Z9", "bad cell"),
        ("D4-A8", "bad cell"),
        ("N1-D4", "bad cell"),
        ("D4-D4", "same"),
        ("D4xC3", "no enemy"),
        ("D5-F6", "write x"),
        ("D4-E3=Q", "does not promote"),
    ] {
        let e = s.parse_move(bad).unwrap_err();
        assert!(e.0.contains(needle), "{bad:?}: {e}");
    }
    for illegal in ["D4-E4", "D4-C5", "G7-G8", "J7-J6", "H8-J5", "H8xI9"] {
        let e = parse_legal_move(&s, illegal).unwrap_err();
        assert!(!e.0.contains('\n'), "{e}");
    }
    // Suffixes and case are accepted.
    assert_eq!(
        s.parse_move("h8xi8=q+").unwrap(),
        s.parse_move("H8xI8").unwrap()
    );
    // A move at the end of the game.
    let mut a = pos("D4K L4Q J7k I7b I8b I9r J6b J8b K5r K6b K7b", 'w');
    apply_moves(&mut a, "L4-L6").unwrap();
    assert!(
        parse_legal_move(&a, "J7-K5")
            .unwrap_err()
            .0
            .contains("over")
    );
}

#[test]
fn wide_capture_rule_agrees_to_depth_3_and_differs_in_kc_b_at_3() {
    // §2.6: boardspace's wider capture rule gives the same perft numbers to
    // depth 3 from the start; KC-B first differs at perft(3).
    let wide = KingsColourGame::new(Rules {
        capture: engine::kings_colour::CaptureRule::Wide,
        ..Rules::default()
    });
    let s = game().initial_state(0);
    let w = wide.initial_state(0);
    let p3 = s.perft_fast(3);
    eprintln!("perft(3) from the start = {p3}");
    assert_eq!(p3, w.perft_fast(3));
    assert_eq!(p3, perft(&s, 3));
    let b = pos(KC_B, 'w');
    let bw = wide.parse_position(&text(KC_B, 'w')).unwrap();
    for d in 1..=2 {
        assert_eq!(b.perft_fast(d), bw.perft_fast(d), "KC-B depth {d}");
    }
    assert_ne!(b.perft_fast(3), bw.perft_fast(3));
    eprintln!(
        "KC-B perft(3): literal {} wide {}",
        b.perft_fast(3),
        bw.perft_fast(3)
    );
}

#[test]
fn stalemate_kc_13() {
    // Black King K5 alone; its castle steps are K6 J6 J7 I8 J8 (KC-3). The
    // Queen J9 covers J8 J7 J6 along (0,-1) and I8 along (-1,-1); the Queen
    // A5 covers K6 along (2,-1) over C6 E7 G8 I7. Neither reaches K5.
    let p = "D4K A5Q J9Q K5k";
    let s = pos(p, 'b');
    assert!(!s.in_check(Side::Black));
    assert_eq!(s.to_move(), ToMove::Terminal);
    assert_eq!(s.returns()[..2], [0.0, 0.0]);
    // stalemate=loss (the ruling's alternative): the stalemated side loses.
    let g = KingsColourGame::new(Rules {
        stalemate_loses: true,
        ..Rules::default()
    });
    let l = g.parse_position(&text(p, 'b')).unwrap();
    assert_eq!(l.returns()[..2], [1.0, -1.0]);
    // One step earlier: White plays the Queen from J10 to J9 and stalemates.
    let mut a = pos("D4K A5Q J10Q K5k", 'w');
    apply_moves(&mut a, "J10-J9").unwrap();
    assert!(a.is_terminal());
    assert_eq!(a.returns()[..2], [0.0, 0.0]);
}

#[test]
fn transpositions_share_a_zobrist_key() {
    let g = KingsColourGame::default();
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

// ---------------------------------------------------------------------------
// Illegal moves: the reason a player is given (Research::illegal_reason)
// ---------------------------------------------------------------------------

/// Each illegal move is answered with the rule it breaks; the expected
/// words come from the rule cited. Colours by KC-G4, (q − r) mod 3 with
/// q, r from the labels of KC-G3: D4 (−3, 0) colour 0, C5 (−4, 2) 0, E3
/// (−2, −2) 0, C3 (−4, 0) 2, F6 (−1, 0) 2, J7 (3, 0) 0.
#[test]
fn illegal_moves_say_the_rule_they_break() {
    let why = |s: &KingsColourState, t: &str| {
        s.illegal_reason(t)
            .unwrap_or_else(|| panic!("{t} is legal in {}", s.to_text()))
    };
    let s = game().initial_state(0);
    assert_eq!(why(&s, "A1-A2"), "no piece on A1");
    assert_eq!(
        why(&s, "J6-J5"),
        "the piece on J6 is Black's, and White is to move"
    );
    assert_eq!(
        why(&s, "D4-C3"),
        "C3 holds a White piece, and only an enemy piece is captured (KC-8)"
    );
    // KC-3: the King stays in its castle (KC-S2: the rhombus around D4).
    assert_eq!(
        why(&s, "D4-G7"),
        "the King never leaves its castle, and G7 is outside it (KC-3)"
    );
    // KC-12: C5 has the King's colour 0, so it is a Rook, and C5 to D7 is
    // the diagonal (1, 1); C3 has colour 2, so a Bishop, and C3 to C2 is
    // the orthogonal (0, −1).
    assert!(
        why(&s, "C5-D7")
            .ends_with("so it is a Rook (KC-12), and a Rook slides orthogonally (KC-4)")
    );
    assert!(
        why(&s, "C3-C2")
            .ends_with("so it is a Bishop (KC-12), and a Bishop slides diagonally (KC-5)")
    );
    // KC-7: the Rook E3 slides up its column through E4 and E5.
    assert_eq!(
        why(&s, "E3-E6"),
        "E3-E6 is blocked by the piece on E4 (KC-7)"
    );
    assert_eq!(s.illegal_reason("C5-C6"), None);

    // KC-3: from the sharp corner C5 the King leaps to D3 or E4, never to
    // the other sharp corner E3 (twice the diagonal (1, −2)).
    let s = pos("C5K J7k", 'w');
    assert!(why(&s, "C5-E3").starts_with("the King steps one cell orthogonally or diagonally"));
    assert_eq!(s.illegal_reason("C5-D3"), None);

    // KC-11 in KC-B: F6 (colour 2, off J7's colour 0) is a Black Bishop,
    // and E4 is its diagonal neighbour (−1, −1).
    let s = pos(KC_B, 'w');
    assert_eq!(
        why(&s, "D4-E4"),
        "E4 is attacked, and the King may not move into check (KC-11)"
    );
    // KC-8: G7 is on no wall, so the Rook there may not take H7.
    let s = pos("D4K G7R J7k H7b", 'w');
    assert!(why(&s, "G7xH7").ends_with(
        "a man captures only from the enemy wall into the enemy castle, or from its own \
         castle onto its own wall (KC-8)"
    ));
    // KC-8, KC-R2: the Black Queen on D5 (White's castle) checks D4; the
    // Bishop on White's own wall F6 may not take it, only the King may.
    let s = pos("D4K F6B J7k D5q", 'w');
    assert!(why(&s, "F6xD5").starts_with("F6 cannot take on D5"));
    assert_eq!(s.illegal_reason("D4xD5"), None);
    // KC-R3 with king_captures=false: the King takes nothing.
    let nk = KingsColourGame::new(Rules {
        king_captures: false,
        ..Rules::default()
    });
    let n = nk.parse_position(&text("D4K F6B J7k D5q", 'w')).unwrap();
    assert_eq!(
        why(&n, "D4xD5"),
        "the King does not capture (king_captures=false, KC-R3)"
    );
    // KC-11: D5 (colour 2, a Bishop) alone shields D4 from the Black Queen
    // on D8 along the column; its diagonal step to C6 opens the column.
    let s = pos("D4K D5B J7k D8q", 'w');
    assert_eq!(
        why(&s, "D5-C6"),
        "would leave the White King in check (KC-11)"
    );
    // Malformed text keeps the parser's message.
    assert!(why(&s, "D5C6").starts_with("bad move"));
}
